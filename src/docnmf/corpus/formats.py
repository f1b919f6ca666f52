"""Readers for the distribution formats of the benchmark corpora.

Reuters-21578 SGML, 20 Newsgroups "bydate" folders, SMART collections
(CISI, CRAN, MED, CACM), CLUTO sparse matrices and MATLAB ``fea``/``gnd``
files. Text formats are scanned with regular expressions (no SGML parser) and
decoded with replacement characters where they are not valid UTF-8; each
call emits at most one ``UnicodeWarning``.
"""

from __future__ import annotations

import faulthandler
import html
import html.entities
import multiprocessing
import os
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Literal

import numpy as np
import scipy.io
import scipy.sparse as sp

from ._corpus import Corpus
from ._errors import CorpusError
from ._text_io import Decoder

__all__ = [
    "read_reuters21578",
    "read_20newsgroups",
    "read_smart",
    "read_classic3",
    "read_classic4",
    "read_cluto",
    "read_mat",
    "duc_text",
    "page_text",
    "unescaped",
    "unix_lines",
    "read_duc2004_documents",
]

#: What a saved web page may start with before its markup: a byte-order mark, white space, an
#: XML declaration, comments (a browser's "saved from url" note).
_PAGE_PREAMBLE = re.compile(r"(?:\ufeff|\s+|<\?xml[^>]*\?>|<!--.*?-->)*", re.DOTALL)
_PAGE_START = ("<!doctype html", "<html", "<head", "<body")


#: Tags of HTML elements that mark a text as HTML where it does not start as a page does (a
#: field of a content system's export, "<p>Rates rose.</p><p>...</p>", a page saved without its
#: head): it starts with one, holds three, one a closing tag, and few other "<" (prose that
#: names tags, "the <p> tag ... </p> ... <br>", was cut at a <script> it named; source code,
#: "i<n", took HTMLParser minutes). Reuters-21578 marks company names with angle brackets
#: ("<I P Sharp Associates Ltd>"), never closed; no document of the text corpora docnmf
#: reproduces (Reuters-21578, 20 Newsgroups, DUC 2004, Classic4) has three such tags.
_FRAGMENT_TAG = re.compile(
    r"<(/?)(?:a|b|blockquote|br|div|em|h[1-6]|i|img|li|meta|ol|p|script|span|strong|style|"
    r"table|td|th|title|tr|u|ul)(?=[\s/>])[^<>]*>", re.IGNORECASE)
#: A character reference: "&amp;", "&#39;", "&#x2014;"; names are those of HTML5.
_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: The references that show a text was escaped; without one, a name ("&not;", "&in;") is text.
_ESCAPED = re.compile(r"&(?:amp|lt|gt|quot|apos|nbsp|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")


def _is_fragment(text: str, start: int = 0) -> bool:
    """Whether ``text``, from ``start``, is a fragment of HTML (see ``_FRAGMENT_TAG``)."""
    if not _FRAGMENT_TAG.match(text, start):
        return False
    tags = closing = 0
    for tag in _FRAGMENT_TAG.finditer(text, start):
        tags += 1
        closing += bool(tag.group(1))
    return tags >= 3 and closing > 0 and text.count("<", start) <= 2 * tags


def unescaped(text: str) -> str | None:
    """``text`` with its HTML character references (``&amp;``, ``&#39;``: a web form's or a
    feed's text, escaped) as the characters they stand for; None when it has none, or none of
    those escaping shows (``&amp;``, ``&lt;``, ``&gt;``, ``&quot;``, ``&apos;``, ``&nbsp;``, a
    number).

    Examples
    --------
    >>> print(unescaped("Tom &amp; Jerry&#39;s &quot;show&quot; at AT&T;"))
    Tom & Jerry's "show" at AT&T;
    >>> unescaped("AT&T; R&D") is None, unescaped("p &and; q, &not; r") is None
    (True, True)
    """
    if "&" not in text or not _ESCAPED.search(text):
        return None
    found = False

    def character(ref: re.Match) -> str:
        nonlocal found
        name = ref.group(0)
        if name[1] != "#" and name[1:] not in html.entities.html5:
            return name
        found = True
        return html.unescape(name)

    text = _REFERENCE.sub(character, text)
    return text if found else None


class _HTMLText(HTMLParser):
    """The text of an HTML page: no markup, script or style; blocks as paragraphs."""

    BLOCKS = frozenset("p div br li ul ol h1 h2 h3 h4 h5 h6 tr td th table section article "
                       "header footer nav blockquote pre title main aside figure figcaption dl "
                       "dt dd form label button option select address".split())
    #: what is not read: code, and an image's own words (an inline SVG's title and labels)
    HIDDEN = frozenset(["script", "style", "noscript", "template", "svg"])
    #: links apart from what follows them: a minified menu, "<a>Home</a><a>World</a>", read
    #: "HomeWorld"
    APART = frozenset(["a"])

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in self.HIDDEN
        if tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag):
        self.hidden -= tag in self.HIDDEN and self.hidden > 0
        if tag in self.BLOCKS:
            self.parts.append("\n\n")
        elif tag in self.APART:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def page_text(text: str) -> str | None:
    """The text of HTML, without markup, scripts or styles, its blocks (paragraphs, list items,
    cells, headings) apart as paragraphs; None when ``text`` is none. HTML is a saved web
    page (it starts with ``<!DOCTYPE html``, ``<html``, ``<head`` or ``<body`` after any
    byte-order mark, white space, XML declaration and comments) or a fragment of one (it
    starts with a tag of a common element, ``<p>``, ``<div>``, ``<br>``..., holds three, one of
    them closing, and not many more "<" besides).

    Examples
    --------
    >>> page_text("<!DOCTYPE html><html><head><style>p {color: red}</style></head>"
    ...           "<body><p>Stars &amp; planets</p><script>var x;</script></body></html>")
    '\\n\\nStars & planets\\n\\n'
    >>> page_text('<p>Rates rose.</p><p>Bonds <a href="/b">fell</a>.</p>')
    '\\n\\nRates rose.\\n\\n\\n\\nBonds fell .\\n\\n'
    >>> page_text("Stars <b>and</b> planets") is None
    True
    >>> page_text("The <p> tag opens a paragraph, </p> closes it; <br> breaks a line.") is None
    True
    """
    start = _PAGE_PREAMBLE.match(text[:4096]).end()
    if not text[start:start + 15].lower().startswith(_PAGE_START) \
            and not _is_fragment(text, start):
        return None
    parser = _HTMLText()
    parser.feed(text)
    parser.close()
    return "".join(parser.parts)


def unix_lines(text: str) -> str:
    r"""``text`` with Windows' (``\r\n``) and old Macs' (``\r``) line ends as ``\n``, as
    Python reads text files: blank lines, which end paragraphs and sentences, and mail
    headers were not seen in them (a title ran into the first sentence of a summary; NMA's
    segments, and its clusters, changed).

    Examples
    --------
    >>> unix_lines("Title\r\n\r\nFirst.\rSecond.")
    'Title\n\nFirst.\nSecond.'
    """
    return text if "\r" not in text else text.replace("\r\n", "\n").replace("\r", "\n")


ReutersSplit = Literal["TRAIN", "TEST", "NOT-USED"]
NewsgroupsSubset = Literal["train", "test", "all"]

# ---------------------------------------------------------------- Reuters-21578

_REUTERS = re.compile(rb"<REUTERS([^>]*)>(.*?)</REUTERS>", re.S)
_ATTR = re.compile(rb'([A-Z]+)="([^"]*)"')
_TOPICS = re.compile(r"<TOPICS>(.*?)</TOPICS>", re.S)
_D = re.compile(r"<D>(.*?)</D>", re.S)
_TEXT = re.compile(r"<TEXT[^>]*>(.*?)</TEXT>", re.S)
_TITLE = re.compile(r"<TITLE>(.*?)</TITLE>", re.S)
_BODY = re.compile(r"<BODY>(.*?)</BODY>", re.S)
_TAG = re.compile(r"<[^>]*>")


def _reuters_text(record: str) -> str:
    """TITLE and BODY joined by a newline; the whole TEXT element when it has neither."""
    text = _TEXT.search(record)
    inner = text.group(1) if text else ""
    title, body = _TITLE.search(inner), _BODY.search(inner)
    if title or body:
        parts = [m.group(1) for m in (title, body) if m]
    else:  # TYPE="UNPROC" records: untagged text only
        parts = [_TAG.sub("", inner)]
    parts = [html.unescape(p).strip() for p in parts]
    return "\n".join(p for p in parts if p)


def read_reuters21578(
    folder: str | os.PathLike,
    *,
    topics_only: bool = False,
    split: ReutersSplit | None = None,
    single_label: bool = False,
) -> Corpus:
    """Read the Reuters-21578 distribution 1.0 (``reut2-000.sgm`` ... ``reut2-021.sgm``).

    Parameters
    ----------
    folder : path-like
        Folder holding the ``reut2-*.sgm`` files.
    topics_only : bool, default=False
        Keep only records with ``TOPICS="YES"``.
    split : {"TRAIN", "TEST", "NOT-USED"}, optional
        Keep only records with this ``LEWISSPLIT`` attribute.
    single_label : bool, default=False
        Keep only records with exactly one topic.

    Returns
    -------
    Corpus
        One document per ``<REUTERS>`` record, in file order. The text is
        ``TITLE + "\\n" + BODY`` with entities unescaped (a missing part is
        left out; ``TYPE="UNPROC"`` records, which have neither, keep their
        untagged text). Labels are the ``<TOPICS>`` entries in the given
        order; ids are ``"reuters/<NEWID>"``. ``metadata["lewissplit"]`` and
        ``metadata["topics_attr"]`` map each id to its ``LEWISSPLIT`` and
        ``TOPICS`` attributes (keyed by id so they stay valid after
        :meth:`Corpus.subset`).

    Notes
    -----
    ``reut2-017.sgm`` holds bytes that are not UTF-8; they are decoded with
    replacement characters and reported in one ``UnicodeWarning``.
    """
    root = Path(folder)
    files = sorted(root.glob("reut2-*.sgm"))
    if not files:
        raise CorpusError(f"no reut2-*.sgm files in {root}")
    if split is not None and split not in ("TRAIN", "TEST", "NOT-USED"):
        raise CorpusError(f"split must be 'TRAIN', 'TEST' or 'NOT-USED', not {split!r}")
    decode = Decoder()
    texts, labels, ids, lewis, topics_attr = [], [], [], {}, {}
    for file in files:
        for match in _REUTERS.finditer(file.read_bytes()):
            attrs = {k.decode(): v.decode("ascii", "replace") for k, v in _ATTR.findall(match[1])}
            if topics_only and attrs.get("TOPICS") != "YES":
                continue
            if split is not None and attrs.get("LEWISSPLIT") != split:
                continue
            record = decode(match[2])
            topics = _TOPICS.search(record)
            # dict.fromkeys drops repeats: NEWID 19918 lists <D>trade</D> twice, 5467 <D>corn</D>
            found = _D.findall(topics.group(1)) if topics else []
            topic_list = tuple(dict.fromkeys(t.strip() for t in found))
            if single_label and len(topic_list) != 1:
                continue
            if "NEWID" not in attrs:
                raise CorpusError(f"{file}: a <REUTERS> record without a NEWID attribute")
            doc_id = f"reuters/{attrs['NEWID']}"
            texts.append(_reuters_text(record))
            labels.append(topic_list)
            ids.append(doc_id)
            lewis[doc_id] = attrs.get("LEWISSPLIT", "")
            topics_attr[doc_id] = attrs.get("TOPICS", "")
    decode.warn("document", root)
    meta = {
        "name": "reuters21578", "source": str(root), "format": "reuters-sgml",
        "lewissplit": lewis, "topics_attr": topics_attr,
    }
    return Corpus(texts=texts, labels=labels, ids=ids, metadata=meta)


# ---------------------------------------------------------------- 20 Newsgroups


def _natural(name: str) -> tuple:
    return (0, int(name), "") if name.isdigit() else (1, 0, name)


def _visible_entries(folder: Path, *, folders: bool) -> list[os.DirEntry]:
    """The non-hidden subfolders (or files) of ``folder``.

    ``os.scandir`` knows each entry's type from the directory listing, where
    ``Path.iterdir`` + ``is_file`` costs a ``stat`` and path parsing per post.
    """
    with os.scandir(folder) as entries:
        return [e for e in entries
                if not e.name.startswith(".") and (e.is_dir() if folders else e.is_file())]


def _strip_header(text: str) -> str:
    """Everything after the first blank line (nothing if there is none), as scikit-learn does."""
    return text.replace("\r\n", "\n").partition("\n\n")[2]


def read_20newsgroups(
    folder: str | os.PathLike, *, subset: NewsgroupsSubset = "all", strip_headers: bool = False
) -> Corpus:
    """Read the "bydate" 20 Newsgroups folders, one document per post.

    Parameters
    ----------
    folder : path-like
        Folder holding ``20news-bydate-train/`` and ``20news-bydate-test/``,
        each with one subfolder per newsgroup and one file per post.
    subset : {"all", "train", "test"}, default="all"
        Which split to read; ``"all"`` gives train then test.
    strip_headers : bool, default=False
        Drop each post's header block (everything before the first blank line).

    Returns
    -------
    Corpus
        Labels are the newsgroup names; ids are ``"<split>/<group>/<file>"``
        (``"train/sci.space/60804"``), groups sorted, posts in numeric order.
    """
    root = Path(folder)
    if subset not in ("train", "test", "all"):
        raise CorpusError(f"subset must be 'train', 'test' or 'all', not {subset!r}")
    decode = Decoder()
    texts, labels, ids = [], [], []
    for part in ("train", "test") if subset == "all" else (subset,):
        split_dir = root / f"20news-bydate-{part}"
        if not split_dir.is_dir():
            raise CorpusError(f"no such folder: {split_dir}")
        for group in sorted(_visible_entries(split_dir, folders=True), key=lambda d: d.name):
            posts = _visible_entries(Path(group.path), folders=False)
            for post in sorted(posts, key=lambda f: _natural(f.name)):
                text = decode.read(post.path)
                texts.append(_strip_header(text) if strip_headers else text)
                labels.append((group.name,))
                ids.append(f"{part}/{group.name}/{post.name}")
    decode.warn("file", root)
    meta = {"name": "20newsgroups", "source": str(root), "format": "20news-bydate"}
    meta["subset"] = subset
    return Corpus(texts=texts, labels=labels, ids=ids, metadata=meta)


# ---------------------------------------------------------------- SMART collections

_SMART_RECORD = re.compile(rb"(?m)^(?=\.I(?:[ \t\r]|$))")
_SMART_FIELD = re.compile(r"\.([A-Z])(?:[ \t]+(\S.*))?")


def _smart_records(data: bytes, decode: Decoder) -> list[tuple[str, str]]:
    """(``.I`` number, ``.T`` + newline + ``.W``) per record; other fields are dropped."""
    records = []
    for chunk in _SMART_RECORD.split(data):
        if not chunk.startswith(b".I"):
            continue  # text before the first record
        lines = [line.rstrip() for line in decode(chunk).splitlines()]
        head = _SMART_FIELD.fullmatch(lines[0].strip())
        number = head.group(2) if head else None
        fields: dict[str, list[str]] = {}
        current = None
        for line in lines[1:]:
            marker = _SMART_FIELD.fullmatch(line.strip())
            if marker and marker.group(2) is None:
                # a repeated marker is a stray line inside the text (CRAN 240 has ".A" and
                # ".B" in its abstract, 576 and 578 a second ".W"): stay in the current field
                if marker.group(1) not in fields:
                    current = fields[marker.group(1)] = []
            elif current is not None:
                current.append(line)
        if number is None:
            if any(line.strip() for line in lines[1:]):
                raise CorpusError(f"a SMART record without an .I number holds text: {lines[1:3]}")
            continue  # a bare trailing ".I" line, as at the end of MED.ALL
        parts = ("\n".join(fields.get(key, [])).strip() for key in ("T", "W"))
        records.append((number.strip(), "\n".join(p for p in parts if p)))
    return records


def _read_smart(path: Path, label: str | None, decode: Decoder) -> Corpus:
    if not path.is_file():
        raise CorpusError(f"no such file: {path}")
    prefix = label if label is not None else path.name.split(".")[0]
    records = _smart_records(path.read_bytes(), decode)
    ids = [f"{prefix}/{number}" for number, _ in records]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise CorpusError(f"duplicate .I number in {path}: {dup!r}")
    labels = [(label,) if label is not None else () for _ in records]
    meta = {"name": prefix, "source": str(path), "format": "smart"}
    return Corpus(texts=[text for _, text in records], labels=labels, ids=ids, metadata=meta)


def read_smart(path: str | os.PathLike, *, label: str | None = None) -> Corpus:
    """Read a SMART collection file (``.I``/``.T``/``.A``/``.W``/... records).

    Parameters
    ----------
    path : path-like
        The collection, e.g. ``CISI.ALL``. Windows line endings are accepted;
        a trailing ``.I`` line with no number and no text is ignored.
    label : str, optional
        Label given to every document (unlabelled if omitted).

    Returns
    -------
    Corpus
        Text is the ``.T`` field, a newline, and the ``.W`` field (a missing
        field is left out). A marker for a field the record already has is
        taken as a stray line and the text continues in the current field.
        Ids are ``"<label or file name up to its first dot>/<.I number>"``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     f = Path(tmp) / "TINY.ALL"
    ...     raw = b".I 1\\r\\n.T\\r\\nA title\\r\\n.A\\r\\nSmith\\r\\n.W\\r\\nThe abstract.\\r\\n"
    ...     _ = f.write_bytes(raw + b".I\\r\\n")
    ...     c = read_smart(f, label="tiny")
    >>> c.ids, c.texts, c.labels
    (['tiny/1'], ['A title\\nThe abstract.'], [('tiny',)])
    """
    decode = Decoder()
    corpus = _read_smart(Path(path), label, decode)
    decode.warn("document", path)
    return corpus


def _collection_file(folder: Path) -> Path:
    """The one visible file in a SMART collection folder (``cisi/CISI.ALL``)."""
    if not folder.is_dir():
        raise CorpusError(f"no such folder: {folder}")
    files = [f for f in sorted(folder.iterdir()) if f.is_file() and not f.name.startswith(".")]
    if len(files) != 1:
        raise CorpusError(f"expected one collection file in {folder}, found {len(files)}")
    return files[0]


def _read_classic(folder: str | os.PathLike, names: tuple[str, ...], name: str) -> Corpus:
    root = Path(folder)
    decode = Decoder()
    parts = [_read_smart(_collection_file(root / sub), sub, decode) for sub in names]
    decode.warn("document", root, stacklevel=4)
    return Corpus(
        texts=[t for c in parts for t in c.texts],
        labels=[lab for c in parts for lab in c.labels],
        ids=[i for c in parts for i in c.ids],
        metadata={"name": name, "source": str(root), "format": "smart"},
    )


def read_classic3(folder: str | os.PathLike) -> Corpus:
    """Classic3: CISI + CRAN + MED, labelled ``"cisi"``, ``"cran"``, ``"med"`` (3893 documents).

    Parameters
    ----------
    folder : path-like
        Folder with ``cisi/``, ``cran/``, ``med/`` subfolders, one SMART file
        each (see :func:`read_smart`).

    Notes
    -----
    The usual Classic3 has 3891 documents; this copy of CRAN keeps all 1400.
    """
    return _read_classic(folder, ("cisi", "cran", "med"), "classic3")


def read_classic4(folder: str | os.PathLike) -> Corpus:
    """Classic4: :func:`read_classic3` plus CACM (label ``"cacm"``; 7097 documents)."""
    return _read_classic(folder, ("cisi", "cran", "med", "cacm"), "classic4")


# ---------------------------------------------------------------- CLUTO sparse


#: The most columns a CLUTO header may declare: every vocabulary shipped has under 130,000 terms,
#: and a typo such as ``2 99999999999`` must not ask for gigabytes.
MAX_CLUTO_TERMS = 1 << 24


def _parse_cluto(text: str, source: Path) -> sp.csr_matrix:
    lines = text.splitlines()
    if not lines:
        raise CorpusError(f"{source} is empty")
    header = lines[0].split()
    if len(header) not in (2, 3) or not all(t.isdigit() for t in header):
        raise CorpusError(f"{source}: first line should be 'N M' or 'N M NNZ', got {lines[0]!r}")
    n_docs, n_terms = int(header[0]), int(header[1])
    if n_terms > MAX_CLUTO_TERMS:
        raise CorpusError(f"{source}: the header declares {n_terms:,} columns, more than "
                          f"{MAX_CLUTO_TERMS:,}")
    body = lines[1 : 1 + n_docs]
    if len(body) < n_docs or any(line.strip() for line in lines[1 + n_docs :]):
        raise CorpusError(f"{source}: header says {n_docs} documents, found {len(lines) - 1} lines")
    indptr, cols, vals = [0], [], []
    for number, line in enumerate(body, start=2):
        tokens = line.split()
        try:
            if len(tokens) % 2:  # "nnz col val col val ...", as in these copies
                if int(tokens[0]) * 2 != len(tokens) - 1:
                    raise CorpusError(f"{source} line {number}: entry count does not match its "
                                      "pairs")
                tokens = tokens[1:]
            cols.extend(int(t) for t in tokens[0::2])
            vals.extend(float(t) for t in tokens[1::2])
        except ValueError:
            raise CorpusError(f"{source} line {number}: expected whole-number columns and "
                              f"numeric values, got {line[:80]!r}") from None
        indptr.append(len(cols))
    col = np.asarray(cols, dtype=np.int64)
    if col.size and (col.min() < 0 or col.max() >= n_terms):
        raise CorpusError(f"{source}: column index outside 0..{n_terms - 1} (columns are 0-based)")
    data = np.asarray(vals, dtype=np.float64)
    if not np.all(np.isfinite(data)) or (data.size and data.min() < 0):
        raise CorpusError(f"{source}: values must be finite and non-negative")
    X = sp.csr_matrix((data, col, np.asarray(indptr)), shape=(n_docs, n_terms))
    X.sum_duplicates()
    return X


def _cluto_labels(path: Path, n_docs: int) -> list[tuple[str, ...]]:
    """Labels from a one-hot classes x documents matrix; a document may have 0 or several."""
    rows = [line.split() for line in path.read_text(errors="replace").splitlines() if line.strip()]
    try:
        onehot = np.asarray(rows, dtype=np.float64)
    except ValueError:  # rows of different lengths, or words
        raise CorpusError(f"{path}: expected a classes x {n_docs} matrix of numbers") from None
    if onehot.ndim != 2 or onehot.shape[1] != n_docs:
        raise CorpusError(f"{path}: expected a classes x {n_docs} matrix, got shape {onehot.shape}")
    width = max(2, len(str(onehot.shape[0] - 1)))
    names = [f"class_{c:0{width}d}" for c in range(onehot.shape[0])]
    return [tuple(names[c] for c in np.flatnonzero(onehot[:, j])) for j in range(n_docs)]


def read_cluto(path: str | os.PathLike) -> Corpus:
    """Read a CLUTO text set converted to ``sparse_<name>.txt`` + ``<name>_correct.txt``.

    Parameters
    ----------
    path : path-like
        The set's folder (``cluto/re0``) or its ``sparse_<name>.txt`` file.
        The sparse file's first line is ``N M`` (or ``N M NNZ``); each of the
        next ``N`` lines is one document as ``nnz col val col val ...`` (a
        line of bare ``col val`` pairs is accepted too). Columns are 0-based:
        in all 19 sets shipped the smallest index is 0 and the largest M - 1.

    Returns
    -------
    Corpus
        ``texts=None``; ``counts`` is a CSR float64 matrix of shape
        (n_docs, n_terms). Labels come from the one-hot class x document
        matrix ``<name>_correct.txt`` (class ``c`` is named ``"class_<c>"``,
        zero-padded); a document may carry no class or two (``re1`` has 18
        of each). Without that file the documents are unlabelled. Column
        labels from ``<name>_clabel.txt`` or ``<name>.mat.clabel``, when
        present, become the vocabulary. Ids are ``"<name>/<row index>"``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     d = Path(tmp) / "toy"
    ...     d.mkdir()
    ...     _ = (d / "sparse_toy.txt").write_text("2 3\\n2 0 1 2 4\\n1 1 2\\n")
    ...     _ = (d / "toy_correct.txt").write_text("1 0\\n0 1\\n")
    ...     c = read_cluto(d)
    >>> c.counts.toarray()
    array([[1., 0., 4.],
           [0., 2., 0.]])
    >>> c.labels
    [('class_00',), ('class_01',)]
    """
    path = Path(path)
    if path.is_dir():
        folder, name = path, path.name
        sparse_file = folder / f"sparse_{name}.txt"
    else:
        folder, sparse_file = path.parent, path
        name = path.stem.removeprefix("sparse_")
    if not sparse_file.is_file():
        raise CorpusError(f"no such file: {sparse_file}")
    decode = Decoder()
    X = _parse_cluto(decode.read(sparse_file), sparse_file)
    decode.warn("file", sparse_file)
    n_docs = X.shape[0]
    correct = folder / f"{name}_correct.txt"
    labels = _cluto_labels(correct, n_docs) if correct.is_file() else [()] * n_docs
    vocabulary = None
    for cand in (folder / f"{name}_clabel.txt", folder / f"{name}.mat.clabel"):
        if cand.is_file():
            terms = [t.strip() for t in cand.read_text(errors="replace").splitlines() if t.strip()]
            vocabulary = terms if len(terms) == X.shape[1] else None
            break
    meta = {"name": name, "source": str(sparse_file), "format": "cluto"}
    return Corpus(
        texts=None, labels=labels, ids=[f"{name}/{i}" for i in range(n_docs)],
        metadata=meta, counts=X, vocabulary=vocabulary,
    )


# ---------------------------------------------------------------- MATLAB fea/gnd


def _mat_strings(cell: np.ndarray) -> list[str]:
    """A MATLAB cell array of strings as a Python list."""
    return [str(np.asarray(item).ravel()[0]) if np.size(item) else "" for item in cell.ravel()]


def _loadmat(path: Path) -> dict:
    """``scipy.io.loadmat(path)``, in a forked process where the platform forks.

    Some damaged files crash scipy's compiled MATLAB reader (a segmentation
    fault, found by fuzzing): in a child process that ends in a
    :class:`CorpusError` instead of taking the caller down.
    """
    if "fork" not in multiprocessing.get_all_start_methods():
        return scipy.io.loadmat(path)
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_loadmat_child, args=(path, send), daemon=True)
    child.start()
    send.close()
    try:
        kind, value = receive.recv()
    except EOFError:
        child.join()
        raise CorpusError(f"{path} is not a MATLAB file that can be read (scipy's reader died "
                          f"on it with exit status {child.exitcode})") from None
    finally:
        receive.close()
    child.join()
    if kind == "error":
        error_type, message = value
        raise {"NotImplementedError": NotImplementedError}.get(error_type, ValueError)(
            f"{error_type}: {message}" if error_type != "NotImplementedError" else message)
    return value


def _loadmat_child(path: Path, send) -> None:
    faulthandler.disable()  # a crash here is reported by the parent, in one line
    try:
        result = ("ok", scipy.io.loadmat(path))
    except Exception as exc:  # sent back and raised there
        result = ("error", (type(exc).__name__, str(exc)[:500]))
    send.send(result)
    send.close()


def _mat_counts(value, path: Path, key: str) -> sp.csr_matrix:
    """The document-term matrix of a .mat file: two-dimensional, finite, non-negative."""
    try:
        X = sp.csr_matrix(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise CorpusError(f"{path}: {key} is not a numeric matrix ({exc})") from None
    if X.ndim != 2 or 0 in X.shape:
        raise CorpusError(f"{path}: {key} is an empty matrix of shape {X.shape}")
    if not np.all(np.isfinite(X.data)):
        raise CorpusError(f"{path}: {key} holds NaN or infinite entries")
    if X.data.size and X.data.min() < 0:
        raise CorpusError(f"{path}: {key} holds negative entries (min {X.data.min():g}); "
                          "term counts or weights are never negative")
    return X


def _mat_labels(value, path: Path, key: str) -> np.ndarray:
    """Class labels as strings: whole numbers as ``"3"``, text as it is."""
    y = np.asarray(value).ravel()
    if y.dtype.kind in "iub":
        return np.array([str(int(v)) for v in y], dtype=object)
    if y.dtype.kind == "f":
        if not np.all(np.isfinite(y)):
            raise CorpusError(f"{path}: {key} holds NaN or infinite labels")
        return np.array([str(int(v)) if v == int(v) else repr(float(v)) for v in y], dtype=object)
    if y.dtype.kind in "US":
        return np.array([str(v).strip() for v in y], dtype=object)
    raise CorpusError(f"{path}: {key} is not a vector of class labels (dtype {y.dtype})")


def read_mat(path: str | os.PathLike, *, min_class_size: int | None = None) -> Corpus:
    """Read a MATLAB v5 document-term file (``fea``/``gnd`` or ``A``/``labels``).

    Parameters
    ----------
    path : path-like
        A ``.mat`` file holding a docs x terms matrix (``fea`` as in D. Cai's
        TDT2/Reuters files, or ``A`` as in cclust's ``classic3.mat``; sparse
        or dense, transposed if needed to put documents in rows) and a label
        vector (``gnd`` or ``labels``). cclust's ``ms`` cell array of terms,
        when present, becomes the vocabulary.
    min_class_size : int, optional
        Keep only classes with at least this many documents
        (:meth:`Corpus.filter_min_class_size`).

    Returns
    -------
    Corpus
        ``texts=None``; ``counts`` is CSR float64 (raw term counts for Cai's
        files and ``classic3.mat``; ``cstr.mat`` holds non-integer weights).
        Labels are the integer class ids as strings; ids are
        ``"<file stem>/<0-based row index in the file>"``.
    """
    path = Path(path)
    if not path.is_file():
        raise CorpusError(f"no such file: {path}")
    try:
        mat = _loadmat(path)
    except CorpusError:
        raise
    except NotImplementedError:  # scipy's word for MATLAB 7.3 (HDF5) files
        raise CorpusError(f"{path} is a MATLAB 7.3 (HDF5) file; save it with -v7 or "
                          "earlier") from None
    except Exception as exc:  # scipy raises many kinds for a damaged file
        raise CorpusError(f"{path} is not a MATLAB file that can be read "
                          f"({str(exc)[:200]})") from None
    X_key = next((k for k in ("fea", "A") if k in mat), None)
    y_key = next((k for k in ("gnd", "labels") if k in mat), None)
    if X_key is None or y_key is None:
        found = ", ".join(k for k in mat if not k.startswith("__"))
        raise CorpusError(
            f"{path} has no 'fea'/'A' matrix and 'gnd'/'labels' vector (found: {found})"
        )
    X = _mat_counts(mat[X_key], path, X_key)
    y = _mat_labels(mat[y_key], path, y_key)
    if X.shape[0] != y.size and X.shape[1] == y.size:
        X = X.T.tocsr()
    if X.shape[0] != y.size:
        raise CorpusError(f"{path}: {X_key} has shape {X.shape} but {y_key} has {y.size} entries")
    try:
        vocabulary = _mat_strings(mat["ms"]) if "ms" in mat else None
    except (TypeError, ValueError, IndexError, AttributeError):
        vocabulary = None  # not a cell array of strings: the terms stay unnamed
    if vocabulary is not None and len(vocabulary) != X.shape[1]:
        vocabulary = None
    corpus = Corpus(
        texts=None,
        labels=[(v,) if v else () for v in y],
        ids=[f"{path.stem}/{i}" for i in range(X.shape[0])],
        metadata={"name": path.stem, "source": str(path), "format": "mat"},
        counts=X,
        vocabulary=vocabulary,
    )
    return corpus if min_class_size is None else corpus.filter_min_class_size(min_class_size)


# ---------------------------------------------------------------- DUC 2004

_DUC_TEXT = re.compile(r"<TEXT>(.*?)</TEXT>", re.DOTALL | re.IGNORECASE)
_DUC_DOCNO = re.compile(r"<DOCNO>\s*(.*?)\s*</DOCNO>", re.DOTALL | re.IGNORECASE)
_DUC_TAG = re.compile(r"<[^>]+>")


def duc_text(raw: str) -> str:
    """The ``<TEXT>`` of a NIST tagged document, inner tags removed, lines unwrapped.

    Examples
    --------
    >>> duc_text("<DOC><TEXT>\\nOne line\\nwrapped here. <P>\\nNext.</TEXT></DOC>")
    'One line wrapped here. Next.'
    """
    m = _DUC_TEXT.search(raw)
    body = m.group(1) if m else raw
    return " ".join(_DUC_TAG.sub(" ", body).split())


def _chronological(docno: str) -> tuple[str, str]:
    digits = re.search(r"\d{8}", docno)
    return (digits.group(0) if digits else "", docno)


def read_duc2004_documents(docs_dir: str | os.PathLike, decoder: Decoder | None = None
                           ) -> list[tuple[str, list[str], list[str]]]:
    """The DUC 2004 Task 2 clusters under ``docs_dir`` (``<topic>t/<DOCNO>`` files).

    Returns ``(topic, DOCNOs, texts)`` per topic, sorted by topic id, each
    topic's documents oldest first (the date is in the DOCNO). Files that are
    not valid UTF-8 are decoded with replacement characters and counted in
    ``decoder``; without one, a ``UnicodeWarning`` says how many there were.
    """
    own_decoder = decoder is None
    decoder = decoder or Decoder()
    topics = []
    for folder in sorted(p for p in Path(docs_dir).iterdir() if p.is_dir()):
        entries = []
        for path in folder.iterdir():
            if path.is_file() and not path.name.startswith("."):
                raw = decoder.read(path)
                docno = _DUC_DOCNO.search(raw)
                entries.append((docno.group(1) if docno else path.name, duc_text(raw)))
        entries.sort(key=lambda e: _chronological(e[0]))
        topics.append((folder.name.rstrip("t"), [e[0] for e in entries], [e[1] for e in entries]))
    if own_decoder:
        decoder.warn("file", docs_dir)
    return topics
