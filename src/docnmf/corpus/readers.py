"""Readers for the formats users bring: a folder of text files, CSV/TSV, JSON Lines.

Every reader returns a :class:`~docnmf.corpus.Corpus` in a deterministic
order and decodes invalid bytes with replacement characters, emitting one
``UnicodeWarning`` per call that says how many documents were affected.
:func:`read_corpus` picks the reader from the path, or falls back to a named
dataset (:func:`~docnmf.corpus.load_dataset`).
"""

from __future__ import annotations

import codecs
import csv
import errno
import fnmatch
import json
import logging
import os
import re
import stat
import time
import warnings
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from .._names import did_you_mean
from ._corpus import Corpus
from ._errors import CorpusError
from ._text_io import Decoder, readable_name
from .datasets import dataset_names, load_dataset
from .formats import duc_text, page_text, read_mat, unescaped, unix_lines

__all__ = ["read_folder", "read_csv", "read_json", "read_jsonl", "read_corpus"]

logger = logging.getLogger(__name__)

#: Seconds between the progress lines of a long read.
PROGRESS_S = 5.0

#: A file holding one NIST tagged document (TREC, DUC): a ``<DOC>`` element with a ``<TEXT>``.
_TAGGED = re.compile(r"\A\s*<DOC>.*?<TEXT[^>]*>.*?</TEXT>.*?</DOC>\s*\Z",
                     re.DOTALL | re.IGNORECASE)
_DOC_TAG = re.compile(r"<DOC>", re.IGNORECASE)


def _untagged(text: str) -> str | None:
    """The ``<TEXT>`` of a NIST tagged document (tags removed, lines joined), or None when
    ``text`` is not one such document.

    Examples
    --------
    >>> _untagged("<DOC>\\n<DOCNO> X1 </DOCNO>\\n<TEXT>\\nOne line\\nand another.\\n</TEXT>\\n</DOC>\\n")
    'One line and another.'
    >>> _untagged("<html><body>A page</body></html>") is None
    True
    """
    if not _TAGGED.match(text) or len(_DOC_TAG.findall(text)) != 1:
        return None
    return duc_text(text)


def _unmarked(text: str) -> tuple[str, str | None]:
    """``text`` as its words are read, and what it was: a NIST tagged document's ``<TEXT>``
    (``"nist"``), the text of HTML without markup, scripts or styles (``"page"``: a saved web
    page's menus' and scripts' words made the clusters; a fragment's tags, "div" and "href",
    and references, "amp" and "quot", were words), or ``text`` itself (None); its lines
    ending in ``\n`` (:func:`unix_lines`), without a byte-order mark.

    Examples
    --------
    >>> _unmarked("<html><body><p>A page</p></body></html>")
    ('\\n\\nA page\\n\\n', 'page')
    >>> _unmarked("A <b>note</b>")
    ('A <b>note</b>', None)
    """
    # (a byte-order mark is no text: it began the snippets of the report's documents)
    text = unix_lines(text).removeprefix("\ufeff")
    untagged = _untagged(text)
    if untagged is not None:
        return untagged, "nist"
    page = _html_text(text)
    return (text, None) if page is None else (page, "page")


def _html_text(text: str) -> str | None:
    """The text of ``text`` if it is HTML (a page, a fragment, character references), or None."""
    page = page_text(text)
    return unescaped(text) if page is None else page


def _visible(name: str) -> bool:
    return not name.startswith(".")


#: What marks a folder docnmf wrote: a result folder (``docnmf.io.MARKER``), a saved model.
_OUTPUT_MARKS = (frozenset({".docnmf-output"}), frozenset({"model.json", "arrays.npz"}))
#: Byte-order marks of UTF-16 and UTF-32, whose text holds NUL bytes.
_WIDE_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


def _written_by_docnmf(folder: str) -> bool:
    try:
        names = set(os.listdir(folder))
    except OSError:
        return False
    return any(mark <= names for mark in _OUTPUT_MARKS)


def refuse_output_folder(root: Path) -> None:
    """A :class:`CorpusError` for a folder docnmf wrote given as the documents (``docnmf
    cluster OUT``, or ``assign`` with its two folders swapped)."""
    if _written_by_docnmf(str(root)):
        raise CorpusError(f"{root} is a folder docnmf wrote (a result or a saved model), not "
                          "documents: give the folder of the documents")


#: Why a binary file is skipped, after its name.
BINARY_REASON = "(binary: a NUL byte in its first 8 KiB)"
#: Files that are no text by how they begin, though they may hold no NUL byte early (a small
#: PDF, rich text), and what to do with them: their markup made clusters of their own ("obj,
#: endobj, pages"; "fonttbl, colortbl, pard").
_FORMATS = ((b"%PDF-", "a PDF: extract its text first, e.g. with pdftotext"),
            (b"{\\rtf", "rich text (RTF): save it as plain text"),
            (b"PK\x03\x04", ("a ZIP archive, or an Office file (.xlsx, .docx) that is one: "
                             "unzip it, or save the sheet as CSV UTF-8")),
            (b"\xd0\xcf\x11\xe0", ("an Office file (.doc, .xls): save it as plain text or CSV "
                                  "UTF-8")))
#: Files desktop systems write into folders, by name: Windows' folder settings (UTF-16 text,
#: hidden in Explorer; "shellclassinfo, iconresource" became a cluster) and macOS's folder icon.
_SYSTEM_FILES = {"desktop.ini": "Windows' folder settings", "thumbs.db": "Windows' thumbnail cache",
                 "icon\r": "a macOS folder icon"}


def not_text(data: bytes, name: str = "") -> str | None:
    """Why a file of ``data`` named ``name`` is no text to read, in parentheses, or None: a
    file desktop systems write, a format known by its first bytes, a NUL byte in the first
    8 KiB (as git tells binary files; UTF-16/32 with a byte-order mark aside).

    Examples
    --------
    >>> not_text(b"%PDF-1.4 ...", "paper.pdf")
    '(a PDF: extract its text first, e.g. with pdftotext)'
    >>> not_text(b"[.ShellClassInfo]", "Desktop.ini")
    "(Windows' folder settings)"
    >>> not_text(b"Stars and planets", "note.txt") is None
    True
    """
    system = _SYSTEM_FILES.get(os.path.basename(name).lower())
    if system is not None:
        return f"({system})"
    for start, kind in _FORMATS:
        if data.startswith(start):
            return f"({kind})"
    if b"\0" in data[:8192] and not data.startswith(_WIDE_BOMS):
        return BINARY_REASON
    return None


def _walk(root: Path, onerror: Callable[[OSError], None]):
    """``os.walk(root, onerror=onerror)``, top-down and without following linked folders, but
    with a stack instead of recursion: os.walk before Python 3.12 recurses once per level, and a
    folder nested a thousand deep ended the read in a RecursionError."""
    stack = [os.fspath(root)]
    while stack:
        top = stack.pop()
        try:
            with os.scandir(top) as entries:
                listed = list(entries)
        except OSError as exc:
            onerror(exc)
            continue
        dirnames, filenames = [], []
        for entry in listed:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            (dirnames if is_dir else filenames).append(entry.name)
        yield top, dirnames, filenames
        for name in reversed(dirnames):
            below = os.path.join(top, name)
            if not os.path.islink(below):
                stack.append(below)


def _files_under(root: Path, pattern: str | None,
                 follow_outside_links: bool = False) -> tuple[list[Path], list[str]]:
    """Non-hidden files below ``root`` (recursively), sorted by relative POSIX path.

    Also returns what was skipped and why: links that lead nowhere (dangling,
    or a loop), links to files outside ``root`` (unless
    ``follow_outside_links``), entries that are not regular files (a
    FIFO would block the read forever), and folders docnmf wrote (results,
    models: an output folder left beside the documents). Linked folders are
    not entered, and named among the skipped (their documents would be
    missing without a word).
    """
    skipped: list[str] = []
    found = list(_walk_files(root, pattern, follow_outside_links, skipped))
    return sorted(found, key=lambda p: p.relative_to(root).as_posix()), skipped


def _walk_files(root: Path, pattern: str | None, follow_outside_links: bool,
                skipped: list[str]) -> Iterator[Path]:
    """The files of :func:`_files_under` one at a time, in the order of ``os.walk``, each
    entry skipped appended to ``skipped`` (a reader that stops early has walked no further)."""
    real_root = Path(os.path.realpath(root))

    def unreadable(exc: OSError):
        # as an unreadable file is: its documents would be missing without a word
        raise CorpusError(f"cannot read the folder {exc.filename}: {exc.strerror or exc}")

    for dirpath, dirnames, filenames in _walk(root, unreadable):
        dirnames[:] = [d for d in dirnames if _visible(d)]
        for d in [d for d in dirnames if _written_by_docnmf(os.path.join(dirpath, d))]:
            dirnames.remove(d)
            skipped.append(f"{Path(dirpath, d).relative_to(root).as_posix()}/ (a folder docnmf "
                           "wrote)")
        for d in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            # _walk does not enter them (a loop would never end)
            skipped.append(f"{Path(dirpath, d).relative_to(root).as_posix()}/ (a link to the "
                           f"folder {os.path.realpath(os.path.join(dirpath, d))}: linked folders "
                           "are not entered)")
        for name in filenames:
            if not _visible(name) or (pattern is not None and not fnmatch.fnmatch(name, pattern)):
                continue
            path = Path(dirpath, name)
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                target = Path(os.path.realpath(path))
                if not target.exists():
                    skipped.append(f"{rel} (a link that leads nowhere)")
                    continue
                if not follow_outside_links and real_root not in target.parents:
                    skipped.append(f"{rel} (a link to {target}, outside the folder)")
                    continue
            if not path.is_file():
                skipped.append(f"{rel} (not a regular file)")
                continue
            yield path


#: Control characters as escapes, in a message naming files.
_CONTROL_ESCAPES = {c: f"\\x{c:02x}" for c in range(32)}


def warn_skipped(root: Path, skipped: Sequence[str], kept_in: str, stacklevel: int = 2) -> None:
    """One warning naming the first three entries of ``root`` skipped, and where all of them
    are kept (``kept_in``)."""
    if not skipped:
        return
    more = f"; and {len(skipped) - 3} more (all in {kept_in})" if len(skipped) > 3 else ""
    # (control characters shown as escapes: macOS's "Icon\r" sent the line's start back over it)
    shown = "; ".join(skipped[:3]).translate(_CONTROL_ESCAPES)
    warnings.warn(f"{len(skipped)} entr{'y' if len(skipped) == 1 else 'ies'} of {root} "
                  f"skipped: {shown}{more}", UserWarning, stacklevel=stacklevel + 1)


def warn_folder_mix(root: Path, names: Sequence[str], stacklevel: int = 2) -> None:
    """Warn of what a folder of text files read as documents (``names``, '/'-separated
    below ``root``) may not mean: table files among them, read as one document each, and
    files of its own beside subfolders, unlabelled."""
    tables = [n for n in names if n.lower().endswith(TABLE_SUFFIXES)]
    if tables:
        shown = ", ".join(tables[:3]) + (f" and {len(tables) - 3} more" if len(tables) > 3
                                         else "")
        warnings.warn(f"{len(tables)} CSV/TSV/JSONL file{'s' if len(tables) != 1 else ''} in "
                      f"{root} ({shown}) {'is' if len(tables) == 1 else 'are'} read "
                      "as one document each, beside the text files: a folder is read as a "
                      "table only when it holds nothing else", UserWarning,
                      stacklevel=stacklevel + 1)
    loose = sum(1 for n in names if "/" not in n)
    if 0 < loose < len(names):
        warnings.warn(f"{root} holds {loose} file{'s' if loose != 1 else ''} of its own beside "
                      "subfolders: those are unlabelled, and the others labelled by their "
                      "subfolder; scores count the labelled ones only", UserWarning,
                      stacklevel=stacklevel + 1)
    _warn_split_layout(root, names, stacklevel + 1)


#: The words of a folder name of a split of a data set ("20news-bydate-train"), whole words:
#: "contests" and "development" are topics.
_SPLIT_WORDS = frozenset(["train", "training", "test", "testing", "dev", "val", "valid",
                          "validation", "eval", "evaluation", "holdout", "heldout"])


def _split_name(name: str) -> bool:
    return any(word in _SPLIT_WORDS for word in re.split(r"[^a-z]+", name.lower()))


def _warn_split_layout(root: Path, names: Sequence[str], stacklevel: int) -> None:
    """Warn when the classes look like a split, not classes: top-level folders named as
    splits are (``_SPLIT_WORDS``), holding no file of their own, each holding subfolders of the
    same names (20 Newsgroups' train and test, each with the 20 groups, were scored as two
    classes). Topics each holding the same years are classes as they stand."""
    below: dict[str, set[str]] = {}
    for name in names:
        parts = name.split("/")
        if len(parts) == 2:           # a file directly in a top-level folder: a class of files
            return
        if len(parts) > 2:
            below.setdefault(parts[0], set()).add(parts[1])
    if len(below) < 2 or not all(map(_split_name, below)):
        return
    shared = set.intersection(*below.values())
    if len(shared) < 2:
        return
    tops = sorted(below, key=str.casefold)
    inner = sorted(shared, key=str.casefold)
    shown = ", ".join(inner[:4]) + (f" and {len(inner) - 4} more" if len(inner) > 4 else "")
    warnings.warn(f"the classes of {root} are its {len(tops)} folders ({', '.join(tops[:4])}"
                  f"{' …' if len(tops) > 4 else ''}), which hold only folders, of the same names "
                  f"in each ({shown}): if those are the classes, read one of the "
                  f"{len(tops)} folders, e.g. {root / tops[0]}", UserWarning,
                  stacklevel=stacklevel + 1)


#: What is said of documents read as HTML (``page_text``).
_HTML = "HTML (a web page, a fragment of one or text with character references such as &amp;)"


def html_note(pages: int, n_documents: int, where: str) -> None:
    """Say that ``pages`` of the ``n_documents`` documents ``where`` names were read as HTML."""
    if pages:
        logger.info("%d of the %d %s %s %s: %s text is read, without markup, scripts or styles",
                    pages, n_documents, where, "are" if pages != 1 else "is", _HTML,
                    "their" if pages != 1 else "its")


def note_tagged(root: Path, tagged: int, n_files: int, pages: int = 0) -> None:
    """Say how many of the ``n_files`` documents read from ``root`` were NIST tagged, and how
    many HTML."""
    html_note(pages, n_files, f"files in {root}")
    if tagged:
        logger.info("%d of the %d files in %s %s (<DOC> with <TEXT>, as TREC and DUC write "
                    "them): the text between <TEXT> and </TEXT> is read, its tags removed",
                    tagged, n_files, root, "are NIST tagged documents" if tagged != 1
                    else "is a NIST tagged document")


def read_folder(
    path: str | os.PathLike, *, encoding: str = "utf-8", pattern: str | None = None,
    follow_outside_links: bool = False,
) -> Corpus:
    """Read a folder of text files, one document per file.

    Parameters
    ----------
    path : path-like
        The folder. Each subfolder is a class: the files anywhere below it
        carry its name as their label. Files directly in ``path`` are
        unlabelled, as are all files when there are no subfolders.
    encoding : str, default="utf-8"
        Text encoding; undecodable bytes become U+FFFD (one ``UnicodeWarning``).
    pattern : str, optional
        Shell pattern the file *name* must match, e.g. ``"*.txt"``.
    follow_outside_links : bool, default=False
        Read files that symbolic links inside the folder point to outside it.
        By default such links are skipped, as are links that lead nowhere and
        entries that are not regular files; one ``UserWarning`` names them,
        with the binary files (a NUL byte in the first 8 KiB) and the folders
        docnmf wrote (results, models), also skipped. Linked subfolders are
        never entered.

    Returns
    -------
    Corpus
        Ids are POSIX paths relative to ``path`` (``"sport/012.txt"``), in
        sorted order. Hidden files and folders (leading dot) are skipped.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "sport").mkdir()
    ...     _ = (Path(tmp) / "sport" / "a.txt").write_text("goal")
    ...     _ = (Path(tmp) / "note.txt").write_text("hello")
    ...     c = read_folder(tmp)
    >>> c.ids, c.labels
    (['note.txt', 'sport/a.txt'], [(), ('sport',)])
    """
    root = Path(path)
    if not root.is_dir():
        raise CorpusError(f"no such folder: {root}")
    refuse_output_folder(root)
    decode = Decoder(encoding, advise=True)
    texts, labels, ids = [], [], []
    files, skipped = _files_under(root, pattern, follow_outside_links)
    tagged = pages = 0
    shown = time.monotonic() + PROGRESS_S
    for n_read, file in enumerate(files):
        if time.monotonic() >= shown:       # 120,000 files take seconds: say how far
            logger.info("read %s of %s files in %s", f"{n_read:,}", f"{len(files):,}", root)
            shown = time.monotonic() + PROGRESS_S
        rel = file.relative_to(root)
        data = _read_bytes(file, encoding, decode, readable_name(rel.as_posix()), MAX_DOCUMENT)
        reason = not_text(data, file.name)
        if reason is not None:
            skipped.append(f"{rel.as_posix()} {reason}")
            continue
        name = readable_name(rel.as_posix())
        text, kind = _unmarked(decode(data, name))
        tagged += kind == "nist"
        pages += kind == "page"
        texts.append(text)
        labels.append((readable_name(rel.parts[0]),) if len(rel.parts) > 1 else ())
        ids.append(name)
    skipped.sort()
    # summarize and keywords write no run.json: "a result folder's" is cluster's and the like
    warn_skipped(root, skipped, "the corpus's metadata['skipped'] and a result folder's run.json",
                 stacklevel=3)
    if not ids:
        raise CorpusError(f"no documents found in {root}")
    warn_folder_mix(root, ids, stacklevel=3)
    decode.warn("file", root)
    note_tagged(root, tagged, len(ids), pages)
    meta = {"name": readable_name(root.resolve().name), "source": readable_name(str(root)),
            "format": "folder", **({"skipped": skipped} if skipped else {})}
    return Corpus(texts=texts, labels=labels, ids=ids, metadata=meta)


def read_text_file(path: str | os.PathLike, *, encoding: str = "utf-8") -> Corpus:
    """One text file as a corpus of one document, its id the file's name.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     _ = (Path(tmp) / "notes[1].txt").write_text("hello")
    ...     c = read_text_file(Path(tmp) / "notes[1].txt")
    >>> c.ids, c.texts
    (['notes[1].txt'], ['hello'])
    """
    source = Path(path)
    if not source.is_file():
        raise CorpusError(f"no such file: {source}")
    decode = Decoder(encoding, advise=True)
    data = _read_bytes(source, encoding, decode, max_bytes=MAX_DOCUMENT)
    reason = not_text(data, source.name)
    if reason == BINARY_REASON:
        raise CorpusError(f"{source} looks binary (a NUL byte in its first 8 KiB), not text")
    if reason is not None:
        raise CorpusError(f"{source} is no text but {reason[1:-1]}")
    text = decode(data)
    decode.warn("file", source)
    text, kind = _unmarked(text)
    if kind == "nist":
        logger.info("%s is a NIST tagged document (<DOC> with <TEXT>, as TREC and DUC write "
                    "them): the text between <TEXT> and </TEXT> is read, its tags removed",
                    source)
    elif kind == "page":
        logger.info("%s is %s: its text is read, without markup, scripts or styles", source,
                    _HTML)
    meta = {"name": readable_name(source.stem), "source": readable_name(str(source)),
            "format": "text"}
    return Corpus(texts=[text], labels=[()], ids=[readable_name(source.name)], metadata=meta)


def _column(name: str, columns: list[str], source: Path) -> str:
    if name not in columns:
        available = ", ".join(repr(c) for c in columns) or "none"
        other_case = _same_but_case(name, columns)
        hint = (f" (names are read as written, in their letter case: {other_case!r} is there)"
                if other_case else _delimiter_hint(columns))
        raise CorpusError(f"column {name!r} not found in {source}; available columns: "
                          f"{available}{hint}")
    return name


def _same_but_case(name: str, columns: list[str]) -> str | None:
    """The one column named ``name`` in other letter case ("Label" for "label"), or None."""
    same = [c for c in columns if c.strip().lower() == name.lower()]
    return same[0] if len(same) == 1 else None


def _delimiter_hint(columns: list[str]) -> str:
    """When the header read as one column holds another delimiter: a hint naming it."""
    if len(columns) == 1:
        for other, name in ((";", "semicolons"), ("\t", "tabs"), ("|", "bars")):
            if other in columns[0]:
                return (f" (the header is one column: are its fields separated by {name}? "
                        "docnmf reads commas in .csv files and tabs in .tsv files)")
    return ""


def _table_corpus(
    rows: list[dict[str, Any]],
    columns: list[str],
    source: Path,
    fmt: str,
    *,
    text_column: str,
    label_column: str | None,
    id_column: str | None,
    split_label: Callable[[Any], tuple[str, ...]],
    where: list[str],
) -> Corpus:
    """Build a corpus from records with named columns (shared by CSV and JSON Lines).

    ``where[i]`` says where record ``i`` starts (``"line 12"``), for error messages.
    """
    meta = {"name": readable_name(source.stem), "source": readable_name(str(source)),
            "format": fmt}
    if not rows and not columns:
        # an empty file (Dask and Spark write one for an empty partition): no documents, and
        # no columns to find the text in
        return Corpus(texts=[], labels=[], ids=[], metadata=meta)
    _column(text_column, columns, source)
    # the defaults in any letter case ("Label", "ID"): a header so written was read unlabelled
    if label_column is None:
        label_column = "label" if "label" in columns else _same_but_case("label", columns)
    else:
        _column(label_column, columns, source)
    if id_column is None:
        id_column = "id" if "id" in columns else _same_but_case("id", columns)
    else:
        _column(id_column, columns, source)

    texts, labels, ids = [], [], []
    seen: dict[str, int] = {}
    textless = []
    pages = 0
    for number, row in enumerate(rows, start=1):
        text = row.get(text_column)
        if text is None:        # no such key, or null: a misspelt key reads as no text at all
            textless.append(where[number - 1])
            text = ""
        if not isinstance(text, str):
            raise CorpusError(f"{source}, {where[number - 1]}: {text_column!r} is not a string")
        if id_column is None:
            doc_id = str(number)
        else:
            value = row.get(id_column)
            doc_id = "" if value is None else str(value).strip()
            if not doc_id:
                raise CorpusError(f"{source}, {where[number - 1]}: empty {id_column!r}")
        if doc_id in seen:
            raise CorpusError(
                f"duplicate document id {doc_id!r} in {source} "
                f"(records {seen[doc_id]} and {number}, {where[seen[doc_id] - 1]} and "
                f"{where[number - 1]})"
            )
        seen[doc_id] = number
        text = unix_lines(text)    # a field's lines, and HTML, read as a file's are
        page = _html_text(text)
        pages += page is not None
        texts.append(text if page is None else page)
        labels.append(() if label_column is None else split_label(row.get(label_column)))
        ids.append(doc_id)
    if textless:
        shown = ", ".join(textless[:3]) + (f" and {len(textless) - 3} more"
                                           if len(textless) > 3 else "")
        warnings.warn(f"{len(textless)} record{'s' * (len(textless) != 1)} of {source} "
                      f"{'have' if len(textless) != 1 else 'has'} no {text_column!r} or a null "
                      f"one ({shown}): read as empty documents", UserWarning, stacklevel=3)
    html_note(pages, len(texts), f"{text_column!r} fields of {source}")
    return Corpus(texts=texts, labels=labels, ids=ids, metadata=meta)


#: The longest CSV field read, in characters (Python's csv module stops at 131,072 by default):
#: a longer one is reported as an error, never cut.
MAX_FIELD = 1 << 28

#: The longest document read from a text file or a JSON Lines record, in bytes, as long as the
#: longest CSV field: a longer one is refused before it is read (a 1 GB text file, one
#: document, took 13 GB to tokenize, and ended in "not enough memory" or the system's killer).
MAX_DOCUMENT = MAX_FIELD


#: The byte-order marks of UTF-32 and UTF-16 and the codecs that read them (UTF-32 LE's mark
#: begins with UTF-16 LE's: it is tried first).
_WIDE_CODECS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
                (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def _regular_file_bytes(source: Path, max_bytes: int | None = None) -> bytes:
    """The bytes of ``source``, refused (``OSError``) unless it is a regular file when opened,
    and, with ``max_bytes``, when it holds more.

    A folder's entries are checked as it is listed, but one replaced by a pipe before it is
    read (by another program, in the seconds a large folder takes) blocked the read for ever:
    it is opened without blocking and checked on the open descriptor."""
    # (Windows has no O_NONBLOCK, and its descriptors are in text mode without O_BINARY: CR LF
    # read as LF, a Ctrl-Z byte as the end)
    fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                 | getattr(os, "O_BINARY", 0))
    with open(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file (a pipe, a socket or a device)")
        if hasattr(os, "O_NONBLOCK"):
            # a regular file: read as usual (a network file system may honour the flag, and a
            # read without blocking could then return nothing)
            os.set_blocking(fd, True)
        if max_bytes is None:
            return file.read()
        data = b""
        if info.st_size <= max_bytes:
            # its size and one byte more, to see a file grown since: read(max_bytes + 1) set
            # aside max_bytes (256 MiB) for each file, which a memory limit (ulimit -v) refused
            chunks = [file.read(info.st_size + 1)]
            size = len(chunks[0])
            while size > info.st_size and size <= max_bytes and chunks[-1]:
                chunks.append(file.read(min(1 << 20, max_bytes + 1 - size)))
                size += len(chunks[-1])
            data = b"".join(chunks) if len(chunks) > 1 else chunks[0]
        if info.st_size > max_bytes or len(data) > max_bytes:     # (or grown since)
            raise OSError(errno.EFBIG, f"{max(info.st_size, len(data)):,} bytes, more than one "
                          f"document may hold ({max_bytes:,}): split it into documents")
        return data


def _read_bytes(source: Path, encoding: str = "utf-8", decode: Decoder | None = None,
                where: str | None = None, max_bytes: int | None = None) -> bytes:
    """The bytes of ``source``, and ``decode`` told the encoding to read them in.

    A UTF-16/32 file with a byte-order mark, or any file when ``encoding`` is UTF-16/32 (read
    line by line, a table of it had lines split inside its units), comes as UTF-8, as does
    a file with UTF-8's mark whatever ``encoding`` says (``--encoding cp1252`` for a folder's
    other files read Notepad's "Unicode" files as NUL bytes between letters). Where it is not
    valid UTF-16/32 (a lone surrogate, an odd byte at the end), its bad units are replacement
    characters, counted by ``decode`` as at ``where``; white space appended in ASCII (``echo
    >>``) is dropped. A file not valid there with no NUL byte after the mark, where ``encoding``
    does not say UTF-16/32, is left to the decoder ("ÿþ" is text in Latin-1).
    """
    try:
        data = _regular_file_bytes(source, max_bytes)
    except OSError as exc:
        raise CorpusError(f"cannot read {source}: {exc.strerror or exc}") from None
    name = codecs.lookup(encoding).name
    declared_wide = name.startswith(("utf-16", "utf-32"))
    named = [codec for bom, codec in _WIDE_CODECS if data.startswith(bom)]
    if declared_wide and not named:
        named = [encoding]
    read_as = None
    if named:
        # (text in UTF-16/32 has NUL bytes, in the units of ASCII letters: without any, a mark
        # not valid there is likely a coincidence)
        wide = _wide_as_utf8(data, named, decode, where,
                             lenient=declared_wide or b"\0" in data[2:8192])
        if wide is not None:
            data, read_as = wide, "utf-8"
    elif name not in ("utf-8", "utf-8-sig") and data.startswith(b"\xef\xbb\xbf"):
        read_as = "utf-8"
    elif name in ("utf-8", "utf-8-sig"):
        read_as = _declared_charset(data)
    if decode is not None:
        decode.file_encoding = read_as
    return data


#: A web page's declared encoding: ``<meta charset="windows-1252">`` or ``<meta
#: http-equiv="Content-Type" content="text/html; charset=iso-8859-1">``.
_META_CHARSET = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE)


def _declared_charset(data: bytes) -> str | None:
    """The encoding a web page declares in its first 4 KiB, when its bytes are not UTF-8 (a
    page saved in windows-1252 read "café" as "caf"); None for a page that is UTF-8 whatever it
    declares (pages often declare Latin-1 and are UTF-8), or for no page."""
    found = _META_CHARSET.search(data[:4096]) if b"<" in data[:4096] else None
    if found is None:
        return None
    try:
        info = codecs.lookup(found.group(1).decode("ascii"))
    except LookupError:
        return None
    if info.name == "utf-8" or not getattr(info, "_is_text_encoding", True):
        return None         # (most pages: nothing to check)
    try:
        data.decode("utf-8")
        return None
    except UnicodeDecodeError:
        return info.name


def _wide_as_utf8(data: bytes, codecs_named: list[str], decode: Decoder | None,
                  where: str | None, lenient: bool) -> bytes | None:
    """``data`` in the first of ``codecs_named`` it is valid in, as UTF-8; else, ``lenient``,
    in the last with replacement characters, counted by ``decode``; else None."""
    if len(data) % 2 and data[-1:] in (b"\n", b"\r", b" ", b"\t"):
        data = data[:-1]    # white space appended in ASCII (echo >> file): no unit of the text
    for codec in codecs_named:
        try:
            return data.decode(codec).encode("utf-8")
        except UnicodeError as exc:
            error = exc
    if not lenient or decode is None:
        return None
    decode.replaced_wide(where, error.start, codecs_named[-1])
    return data.decode(codecs_named[-1], errors="replace").encode("utf-8")


def _agreeing_records(lines: list[str], delimiter: str,
                      source: Path) -> list[tuple[int, int, list]] | None:
    """The records of ``lines`` read as CSV with ``delimiter`` when every one (blank ones and
    trailing empty fields aside) has as many fields as the header; else None."""
    try:
        records = _csv_records(lines, delimiter, source)
    except CorpusError:
        return None
    width = len(records[0][2]) if records else 0
    agree = all(len(r) == width or (len(r) > width and not any(f.strip() for f in r[width:]))
                for _, _, r in records[1:] if any(f.strip() for f in r))
    return records if agree else None


#: A first line naming the delimiter, as Excel writes and reads it ("sep=;").
_EXCEL_SEP = re.compile(r"sep=(.)")


def _csv_records(lines: list[str], delimiter: str, source: Path,
                 skip: int = 0) -> list[tuple[int, int, list]]:
    """(first line, last line, fields) of each record after the first ``skip`` lines; malformed
    CSV is a :class:`CorpusError`.

    The reader is strict: a quoted field must be closed, and a closing quote
    must be followed by a delimiter or the end of the line, so that one stray
    quote cannot swallow the records after it.
    """
    limit = csv.field_size_limit()
    csv.field_size_limit(MAX_FIELD)
    reader = csv.reader(lines[skip:], delimiter=delimiter, strict=True)
    out, last = [], skip
    try:
        for record in reader:
            out.append((last + 1, reader.line_num + skip, record))
            last = reader.line_num + skip
    except csv.Error as exc:
        start = last + 1
        if "field larger than field limit" in str(exc):
            why = f"a field longer than {MAX_FIELD:,} characters"
        elif "unexpected end of data" in str(exc):
            why = ("a quoted field opened in this record is never closed (a quote in a text "
                   "must be doubled)")
        else:
            why = f"malformed CSV ({exc}; a quote in a text must be doubled)"
        raise CorpusError(f"{source}, line {start}: {why}") from None
    finally:
        csv.field_size_limit(limit)
    return out


def read_csv(
    path: str | os.PathLike,
    *,
    text_column: str = "text",
    label_column: str | None = None,
    id_column: str | None = None,
    label_separator: str | None = None,
    delimiter: str | None = None,
    encoding: str = "utf-8",
) -> Corpus:
    """Read a CSV (or TSV) file with a header row, one document per record.

    Parameters
    ----------
    path : path-like
        The file. Quoted fields may span lines.
    text_column : str, default="text"
        Column holding the document text.
    label_column : str, optional
        Column holding the label; by default a column named ``"label"`` if
        there is one, else the documents are unlabelled. An empty value means
        no label, and so do ``NA``, ``#N/A``, ``nan`` and the other values of
        :data:`MISSING_LABELS`.
    id_column : str, optional
        Column holding the document id; by default ``"id"`` if present, else
        the 1-based record number as a string.
    label_separator : str, optional
        Split label values on this string (multi-label), e.g. ``";"``.
    delimiter : str, optional
        Field delimiter; by default a tab for ``.tsv`` files and a comma otherwise, but the
        one a first line ``sep=;`` names (as Excel writes it), and semicolons or tabs when the
        header has them and no comma.
    encoding : str, default="utf-8"
        Text encoding; undecodable bytes become U+FFFD (one ``UnicodeWarning``).

    Returns
    -------
    Corpus

    Raises
    ------
    CorpusError
        For an unknown column (the message lists the available ones), an
        empty id, or a duplicate id.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = Path(tmp) / "docs.csv"
    ...     _ = f.write_text("body,topic\\nrates rise,econ;news\\ngoal,\\n")
    ...     c = read_csv(f, text_column="body", label_column="topic", label_separator=";")
    >>> c.ids, c.labels
    (['1', '2'], [('econ', 'news'), ()])
    """
    source = Path(path)
    if not source.is_file():
        raise CorpusError(f"no such file: {source}")
    given = delimiter
    if delimiter is None:
        delimiter = "\t" if source.suffix.lower() == ".tsv" else ","
    decode = Decoder(encoding, advise=True)
    raw_lines = _read_bytes(source, encoding, decode).splitlines(keepends=True)
    # decode line by line so a bad byte is charged to the record that holds it
    lines, bad_lines = [], set()
    for number, raw in enumerate(raw_lines, start=1):
        before = decode.n_replaced
        lines.append(decode(raw, where=f"line {number}"))
        if decode.n_replaced > before:
            bad_lines.add(number)
    if lines:       # (a mark written twice, by two tools in turn, hid the first column's name)
        lines[0] = lines[0].lstrip("\ufeff")
    sep = _EXCEL_SEP.fullmatch(lines[0].rstrip("\r\n")) if lines else None
    if sep:
        delimiter = given or sep.group(1)
        logger.info("%s: line 1, %r, names the delimiter, as Excel reads it", source,
                    sep.group(0))
    header = lines[1 if sep else 0] if len(lines) > bool(sep) else ""
    records = None
    if given is None and not sep and delimiter == "," and "," not in header:
        # Excel writes CSV with semicolons where the decimal mark is a comma; a file of one
        # column whose name holds one ("pros; cons") reads as one with commas
        commas = _agreeing_records(lines, ",", source)
        # one column, not the one asked for: the rows of a file without a comma
        # ("body;topic;key") agree on one, and another delimiter may give that column
        asked = str(text_column).strip()
        records = commas if not commas or [f.strip() for f in commas[0][2]] == [asked] \
            else None
        for other, name in ((";", "semicolons"), ("\t", "tabs")):
            if records is None and other in header:
                found = _agreeing_records(lines, other, source)
                if found and (commas is None or asked in (f.strip() for f in found[0][2])):
                    records, delimiter = found, other
                    logger.info("%s: its header has no comma but %s: its fields are read as "
                                "separated by %s", source, name, name)
        if records is None:
            records = commas
    try:
        if records is None:
            records = _csv_records(lines, delimiter, source, skip=1 if sep else 0)
    except CorpusError as exc:
        # a file of another delimiter fails as malformed CSV where a quoted text spans lines:
        # its header names the delimiter better than the quote that broke
        hint = _delimiter_hint([header.strip()]) if delimiter not in header else ""
        if hint:
            raise CorpusError(f"{exc}{hint}") from None
        raise
    if not records:
        raise CorpusError(f"{source} is empty (a header row is needed)")
    (_, _, header), records = records[0], records[1:]
    # header names are read without the spaces around them, and so are the names asked for
    columns = [name.strip() for name in header]
    text_column, label_column, id_column = (
        name.strip() if isinstance(name, str) else name
        for name in (text_column, label_column, id_column))
    used = {text_column, label_column or "label", id_column or "id"}
    repeated = sorted({name for name in columns if name in used and columns.count(name) > 1})
    if repeated:
        # one of the two would be read and the other dropped, without a word (a column read
        # by nobody may be named twice)
        raise CorpusError(f"{source}: the header names column{'s' * (len(repeated) > 1)} "
                          f"{', '.join(map(repr, repeated))} more than once; which one holds "
                          "what cannot be told")
    rows, where, n_bad = [], [], 0
    for first, last, record in records:
        if not any(field.strip() for field in record):
            continue
        if len(record) > len(columns) and not any(f.strip() for f in record[len(columns):]):
            record = record[:len(columns)]  # trailing empty fields, as spreadsheets write them
        if len(record) != len(columns):
            raise CorpusError(
                f"{source}, line {first}: {len(record)} field{'s' * (len(record) != 1)} where "
                f"the header has {len(columns)}; a text holding {delimiter!r}, a quote or a line "
                f"break must be quoted, with any quote in it doubled{_delimiter_hint(columns)}")
        rows.append(dict(zip(columns, record)))
        where.append(f"line {first}")
        n_bad += any(n in bad_lines for n in range(first, last + 1))
    decode.n_replaced = n_bad + decode.wide    # (a UTF-16 file's bad unit: the file)
    missing: dict[str, int] = {}

    def split_label(value: Any) -> tuple[str, ...]:
        value = (value or "").strip()
        if value in MISSING_LABELS:
            missing[value] = missing.get(value, 0) + 1
            return ()
        if not value:
            return ()
        if label_separator is None:
            return (value,)
        return tuple(part.strip() for part in value.split(label_separator) if part.strip())

    corpus = _table_corpus(
        rows, columns, source, "csv", text_column=text_column, label_column=label_column,
        id_column=id_column, split_label=split_label, where=where,
    )
    if missing:
        logger.info("%d label%s of %s read as missing (%s), as spreadsheets and pandas write an "
                    "empty cell", sum(missing.values()), "s" * (sum(missing.values()) != 1),
                    source, ", ".join(map(repr, missing)))
    decode.warn("document", source)
    return corpus


#: Label cells that mean no label: what spreadsheets and pandas write for an empty cell (pandas'
#: default ``na_values``); "NA" and "#N/A" were classes of their own, scored as such.
MISSING_LABELS = frozenset(["#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan",
                            "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a",
                            "nan", "null"])


def _missing_json(value: Any) -> bool:
    """Whether a JSON value is a missing one: null, or NaN (what json.dumps writes for a
    missing value of pandas, and json.loads reads back as a float)."""
    return value is None or (isinstance(value, float) and value != value)


def _json_label(value: Any) -> tuple[str, ...]:
    if _missing_json(value):
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(str(v).strip() for v in value if not _missing_json(v) and str(v).strip())
    value = str(value).strip()
    return (value,) if value else ()


def read_jsonl(
    path: str | os.PathLike,
    *,
    text_column: str = "text",
    label_column: str | None = None,
    id_column: str | None = None,
    encoding: str = "utf-8",
) -> Corpus:
    """Read a JSON Lines file: one JSON object per line, one document per object.

    Parameters
    ----------
    path : path-like
        The file; blank lines are skipped.
    text_column : str, default="text"
        Key holding the document text.
    label_column : str, optional
        Key holding the label: a string, or a list of strings for a
        multi-label document. By default ``"label"`` if any record has it,
        else unlabelled. Empty strings and missing values mean no label.
    id_column : str, optional
        Key holding the id; by default ``"id"`` if any record has it, else
        the 1-based record number as a string.
    encoding : str, default="utf-8"
        Text encoding; undecodable bytes become U+FFFD (one ``UnicodeWarning``).

    Returns
    -------
    Corpus

    Raises
    ------
    CorpusError
        For a line that is not a JSON object, a key no record has (the
        message lists the available ones), an empty id, or a duplicate id.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = Path(tmp) / "docs.jsonl"
    ...     lines = ['{"id": "a", "text": "x", "label": ["p", "q"]}', '{"id": "b", "text": "y"}']
    ...     _ = f.write_text("\\n".join(lines))
    ...     c = read_jsonl(f)
    >>> c.ids, c.labels
    (['a', 'b'], [('p', 'q'), ()])
    """
    source = Path(path)
    if not source.is_file():
        raise CorpusError(f"no such file: {source}")
    decode = Decoder(encoding, advise=True)
    rows: list[dict[str, Any]] = []
    where: list[str] = []
    for number, raw in enumerate(_read_bytes(source, encoding, decode).splitlines(), start=1):
        if len(raw) > MAX_DOCUMENT:
            raise CorpusError(f"line {number} of {source} is {len(raw):,} bytes long, more than "
                              f"one document may hold ({MAX_DOCUMENT:,}): split it into "
                              "documents")
        line = decode(raw, where=f"line {number}").lstrip("\ufeff").strip()
        if not line:
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(f"line {number} of {source} is not valid JSON: {exc.msg} "
                              f"(column {exc.colno})") from None
        except (ValueError, RecursionError) as exc:  # e.g. a number of 5,000 digits
            raise CorpusError(f"line {number} of {source} cannot be read as JSON: "
                              f"{type(exc).__name__}: {str(exc)[:200]}") from None
        if not isinstance(row, dict):
            raise CorpusError(f"line {number} of {source} is not a JSON object")
        rows.append(row)
        where.append(f"line {number}")
    return _objects_corpus(rows, where, source, "jsonl", decode, text_column=text_column,
                           label_column=label_column, id_column=id_column)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _whole_characters(value: Any) -> tuple[Any, bool]:
    """``value`` (a JSON value) with each lone surrogate, half of a character that JSON's
    ``\\uD83D`` escapes can hold and no UTF-8 file can, as U+FFFD; and whether it had any."""
    if isinstance(value, str):
        if value.isascii() or not _LONE_SURROGATE.search(value):
            return value, False
        return _LONE_SURROGATE.sub("\ufffd", value), True
    if isinstance(value, list):
        items = [_whole_characters(v) for v in value]
        return [v for v, _ in items], any(c for _, c in items)
    if isinstance(value, dict):
        items = {k: _whole_characters(v) for k, v in value.items()}
        return {k: v for k, (v, _) in items.items()}, any(c for _, c in items.values())
    return value, False


def _holds_half(value: Any) -> bool:
    """Whether ``value`` (a JSON value) holds a lone surrogate anywhere: looked for before
    ``_whole_characters`` copies a record, which for every record of a large file took as long
    as reading the file."""
    if isinstance(value, str):
        return not value.isascii() and _LONE_SURROGATE.search(value) is not None
    if isinstance(value, list):
        return any(map(_holds_half, value))
    if isinstance(value, dict):
        return any(map(_holds_half, value.values()))
    return False


def _objects_corpus(rows: list[dict[str, Any]], where: list[str], source: Path, fmt: str,
                    decode: Decoder, **keys: str | None) -> Corpus:
    """JSON objects read from ``source`` as a corpus (``keys``: the text, label and id keys),
    the bytes that were not text said once, and the records holding half a character (a lone
    surrogate, as an emoji cut in two leaves: an id holding one was written to assignments.csv
    as the escape and to memberships.npz as it was) said once with them as U+FFFD."""
    halves = 0
    for i, row in enumerate(rows):
        if _holds_half(row):
            rows[i], changed = _whole_characters(row)
            halves += changed
    if halves:
        warnings.warn(f"{halves} record{'s' * (halves != 1)} of {source} "
                      f"hold{'s' * (halves == 1)} half a character (a \\uD800-\\uDFFF escape "
                      "without its other half, as an emoji cut in two leaves), read as the "
                      "replacement character U+FFFD", UnicodeWarning, stacklevel=3)
    columns = dict.fromkeys(key for row in rows for key in row)
    corpus = _table_corpus(rows, list(columns), source, fmt, split_label=_json_label,
                           where=where, **keys)
    decode.warn("document", source)
    return corpus


def read_json(
    path: str | os.PathLike,
    *,
    text_column: str = "text",
    label_column: str | None = None,
    id_column: str | None = None,
    encoding: str = "utf-8",
) -> Corpus:
    """Read a ``.json`` file holding an array of JSON objects, one document each (an export
    many tools write), with the keys of :func:`read_jsonl`; a file of one object per line
    (JSON Lines, as pandas and Hugging Face write under .json) is read as :func:`read_jsonl`
    reads it.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = Path(tmp) / "docs.json"
    ...     _ = f.write_text('[{"id": "a", "text": "x"}, {"id": "b", "text": "y"}]')
    ...     c = read_json(f)
    >>> c.ids, c.texts
    (['a', 'b'], ['x', 'y'])
    """
    source = Path(path)
    if not source.is_file():
        raise CorpusError(f"no such file: {source}")
    decode = Decoder(encoding, advise=True)
    text = decode(_read_bytes(source, encoding, decode)).lstrip("\ufeff")
    try:
        records = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data" and text.lstrip().startswith("{"):
            # JSON Lines saved as .json (pandas' to_json(lines=True), Hugging Face's to_json)
            return read_jsonl(source, text_column=text_column, label_column=label_column,
                              id_column=id_column, encoding=encoding)
        raise CorpusError(f"{source} is not valid JSON: {exc.msg} (line {exc.lineno}, column "
                          f"{exc.colno})") from None
    except (ValueError, RecursionError) as exc:
        raise CorpusError(f"{source} cannot be read as JSON: {type(exc).__name__}: "
                          f"{str(exc)[:200]}") from None
    if not isinstance(records, list):
        raise CorpusError(f"{source} holds a JSON {type(records).__name__}; docnmf reads a .json "
                          "file as an array of objects, one per document (or JSON Lines, "
                          ".jsonl, an object per line)")
    for number, row in enumerate(records, start=1):
        if not isinstance(row, dict):
            raise CorpusError(f"record {number} of {source} is not a JSON object")
    return _objects_corpus(records, [f"record {number}" for number in range(1, len(records) + 1)],
                           source, "json", decode, text_column=text_column,
                           label_column=label_column, id_column=id_column)


#: The name :func:`read_corpus` reads as the embedded demo corpus.
DEMO = "demo"


#: Suffixes of the files read as tables of documents (CSV, TSV, JSON Lines).
TABLE_SUFFIXES = (".csv", ".tsv", ".jsonl", ".ndjson")


def read_table_file(path: str | os.PathLike, prefix: str | None = None,
                    **options: Any) -> Corpus:
    """One CSV/TSV/JSONL file; with ``prefix``, record numbers used as ids get it in front
    (``"part-1.jsonl:12"``), so that the ids of several files stay apart."""
    path = Path(path)
    reader = read_jsonl if path.suffix.lower() in (".jsonl", ".ndjson") else read_csv
    corpus = reader(path, **options)
    numbered = options.get("id_column") is None and \
        corpus.ids == [str(i) for i in range(1, len(corpus) + 1)]
    if prefix is not None and numbered:
        return Corpus(texts=corpus.texts, labels=corpus.labels,
                      ids=[f"{readable_name(prefix)}:{i}" for i in corpus.ids],
                      metadata=corpus.metadata)
    return corpus


def table_files(root: Path) -> list[Path] | None:
    """The files of the folder ``root`` when every one is a table file (else None)."""
    files = []
    for f in _walk_files(root, None, False, []):
        if f.suffix.lower() not in TABLE_SUFFIXES:
            # a folder of text files: read_folder lists it (listing 20,000 files twice took
            # as long as reading them)
            return None
        files.append(f)
    return sorted(files, key=lambda p: p.relative_to(root).as_posix()) or None


def read_table_folder(path: str | os.PathLike, **options: Any) -> Corpus:
    """A folder of CSV/TSV/JSONL files (the partitions of one collection) as one corpus, in
    file order; record numbers as ids are prefixed with the file's path in the folder."""
    root = Path(path)
    files = table_files(root)
    if not files:
        raise CorpusError(f"{root} holds files other than CSV, TSV or JSON Lines tables")
    parts = [read_table_file(f, f.relative_to(root).as_posix() if len(files) > 1 else None,
                             **options) for f in files]
    ids = [i for part in parts for i in part.ids]
    if len(set(ids)) < len(ids):
        seen: set[str] = set()
        first = next(i for i in ids if i in seen or seen.add(i))
        raise CorpusError(f"duplicate document id {first!r} across the files of {root}")
    return Corpus(texts=[t for part in parts for t in part.texts],
                  labels=[lab for part in parts for lab in part.labels], ids=ids,
                  metadata={"name": readable_name(root.resolve().name),
                            "source": readable_name(str(root)), "format": "tables"})


def _looks_like_path(source: str) -> bool:
    return "/" in source or os.sep in source or "\\" in source or bool(Path(source).suffix)


def _path_hint(source: str) -> str:
    """What may be wrong with a path that names nothing: Windows' separators, a ``~`` the shell
    did not expand (quoted)."""
    if "\\" in source and os.sep != "\\":
        return " (a Windows path: here folders are separated by '/')"
    if source.startswith("~") and os.path.expanduser(source) != source:
        return f" ('~' is not the home folder here: {os.path.expanduser(source)}?)"
    return ""


def read_corpus(source: str | os.PathLike, **options: Any) -> Corpus:
    """Read a corpus from a folder, a CSV/TSV/JSONL/MAT file, or a dataset name.

    Parameters
    ----------
    source : str or path-like
        An existing folder (:func:`read_folder`; a folder of CSV/TSV/JSONL files
        only, :func:`read_table_folder`), a ``.csv``/``.tsv`` file
        (:func:`read_csv`, tab-delimited for ``.tsv``), a ``.jsonl``/``.ndjson``
        file (:func:`read_jsonl`), a ``.mat`` file
        (:func:`~docnmf.corpus.read_mat`), or else the name of a registered
        dataset (:func:`~docnmf.corpus.load_dataset`) or ``"demo"``, the
        embedded demo corpus (:func:`~docnmf.corpus.demo.load_demo`). A
        folder or file of that name comes first.
    **options
        Passed on to the chosen reader.

    Returns
    -------
    Corpus

    Raises
    ------
    CorpusError
        When ``source`` looks like a path (has a slash or a file extension)
        but does not exist, for an existing file of an unknown type, or for an
        unknown dataset name.

    Examples
    --------
    >>> read_corpus("missing/folder")
    Traceback (most recent call last):
    ...
    docnmf.corpus.CorpusError: no such file or folder: missing/folder
    """
    if isinstance(source, str) and not source.strip():
        # Path("") is ".": an empty name (an unset variable) read the folder the code ran in
        raise CorpusError(f"expected a folder, file or dataset name, got {source!r}")
    path = Path(source)
    if path.is_dir():
        refuse_output_folder(path)
        if table_files(path):       # the partitions of one table, as the Dask path reads them
            return read_table_folder(path, **options)
        return read_folder(path, **options)
    if path.is_file():
        suffix = path.suffix.lower()
        if suffix in (".csv", ".tsv"):
            return read_csv(path, **options)
        if suffix in (".jsonl", ".ndjson"):
            return read_jsonl(path, **options)
        if suffix == ".json":
            return read_json(path, **options)
        if suffix == ".mat":
            return read_mat(path, **options)
        raise CorpusError(
            f"cannot tell how to read {path}: expected a folder or a .csv, .tsv, .jsonl, "
            ".ndjson, .json or .mat file"
        )
    if path.exists():
        raise CorpusError(f"{source} is neither a file nor a folder (a pipe, socket or device); "
                          "docnmf reads files and folders: save the stream to a file first")
    if str(source) == "-":      # (a file named '-' is read above, as any other)
        raise CorpusError("'-': docnmf does not read standard input; it reads files, folders or "
                          "a dataset by name: save the stream to a file first")
    if isinstance(source, os.PathLike) or _looks_like_path(str(source)):
        raise CorpusError(f"no such file or folder: {source}{_path_hint(str(source))}")
    if str(source) == DEMO:
        from .demo import load_demo

        if options:
            raise CorpusError(f"the demo corpus takes no reading options, got "
                              f"{', '.join(sorted(options))}")
        return load_demo()
    # the registry's names, not list_datasets(): a mistyped folder's name was said to be a
    # corpora folder that cannot be used, where DOCNMF_DATA named one
    names = dataset_names()
    if str(source) not in names:
        # a bare name: most often a folder name mistyped, else a dataset name
        raise CorpusError(f"no such file or folder, nor dataset: {source}"
                          f"{did_you_mean(str(source), [DEMO, *names])} (datasets: "
                          f"{', '.join([DEMO, *names])})")
    return load_dataset(str(source), **options)
