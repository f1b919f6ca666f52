"""Readers for the formats users bring: a folder of text files, CSV/TSV, JSON Lines.

Every reader returns a :class:`~docnmf.corpus.Corpus` in a deterministic
order and decodes invalid bytes with replacement characters, emitting one
``UnicodeWarning`` per call that says how many documents were affected.
:func:`read_corpus` picks the reader from the path, or falls back to a named
dataset (:func:`~docnmf.corpus.load_dataset`).
"""

from __future__ import annotations

import csv
import fnmatch
import json
import os
from pathlib import Path
from typing import Any, Callable

from ._corpus import Corpus
from ._errors import CorpusError
from ._text_io import Decoder
from .datasets import load_dataset
from .formats import read_mat

__all__ = ["read_folder", "read_csv", "read_jsonl", "read_corpus"]


def _visible(name: str) -> bool:
    return not name.startswith(".")


def _files_under(root: Path, pattern: str | None) -> list[Path]:
    """Non-hidden files below ``root`` (recursively), sorted by relative POSIX path."""
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if _visible(d)]
        for name in filenames:
            if _visible(name) and (pattern is None or fnmatch.fnmatch(name, pattern)):
                found.append(Path(dirpath, name))
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def read_folder(
    path: str | os.PathLike, *, encoding: str = "utf-8", pattern: str | None = None
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
    decode = Decoder(encoding)
    texts, labels, ids = [], [], []
    for file in _files_under(root, pattern):
        rel = file.relative_to(root)
        texts.append(decode.read(file))
        labels.append((rel.parts[0],) if len(rel.parts) > 1 else ())
        ids.append(rel.as_posix())
    if not ids:
        raise CorpusError(f"no documents found in {root}")
    decode.warn("file", root)
    meta = {"name": root.resolve().name, "source": str(root), "format": "folder"}
    return Corpus(texts=texts, labels=labels, ids=ids, metadata=meta)


def _column(name: str, columns: list[str], source: Path) -> str:
    if name not in columns:
        available = ", ".join(repr(c) for c in columns) or "none"
        raise CorpusError(f"column {name!r} not found in {source}; available columns: {available}")
    return name


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
) -> Corpus:
    """Build a corpus from records with named columns (shared by CSV and JSON Lines)."""
    _column(text_column, columns, source)
    if label_column is None:
        label_column = "label" if "label" in columns else None
    else:
        _column(label_column, columns, source)
    if id_column is None:
        id_column = "id" if "id" in columns else None
    else:
        _column(id_column, columns, source)

    texts, labels, ids = [], [], []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows, start=1):
        text = row.get(text_column)
        if text is None:
            text = ""
        if not isinstance(text, str):
            raise CorpusError(f"record {number} of {source}: {text_column!r} is not a string")
        if id_column is None:
            doc_id = str(number)
        else:
            value = row.get(id_column)
            doc_id = "" if value is None else str(value).strip()
            if not doc_id:
                raise CorpusError(f"record {number} of {source} has an empty {id_column!r}")
        if doc_id in seen:
            raise CorpusError(
                f"duplicate document id {doc_id!r} in {source} "
                f"(records {seen[doc_id]} and {number})"
            )
        seen[doc_id] = number
        texts.append(text)
        labels.append(() if label_column is None else split_label(row.get(label_column)))
        ids.append(doc_id)
    meta = {"name": source.stem, "source": str(source), "format": fmt}
    return Corpus(texts=texts, labels=labels, ids=ids, metadata=meta)


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
        no label.
    id_column : str, optional
        Column holding the document id; by default ``"id"`` if present, else
        the 1-based record number as a string.
    label_separator : str, optional
        Split label values on this string (multi-label), e.g. ``";"``.
    delimiter : str, optional
        Field delimiter; by default a tab for ``.tsv`` files and a comma otherwise.
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
    if delimiter is None:
        delimiter = "\t" if source.suffix.lower() == ".tsv" else ","
    decode = Decoder(encoding)
    raw_lines = source.read_bytes().splitlines(keepends=True)
    # decode line by line so a bad byte is charged to the record that holds it
    lines, bad_lines = [], set()
    for number, raw in enumerate(raw_lines, start=1):
        before = decode.n_replaced
        lines.append(decode(raw))
        if decode.n_replaced > before:
            bad_lines.add(number)
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    reader = csv.reader(lines, delimiter=delimiter)
    header = next(reader, None)
    if header is None:
        raise CorpusError(f"{source} is empty (a header row is needed)")
    columns = [name.strip() for name in header]
    rows, n_bad, last_line = [], 0, reader.line_num
    for record in reader:
        if not any(field.strip() for field in record):
            last_line = reader.line_num
            continue
        rows.append(dict(zip(columns, record)))
        n_bad += any(n in bad_lines for n in range(last_line + 1, reader.line_num + 1))
        last_line = reader.line_num
    decode.n_replaced = n_bad

    def split_label(value: Any) -> tuple[str, ...]:
        value = (value or "").strip()
        if not value:
            return ()
        if label_separator is None:
            return (value,)
        return tuple(part.strip() for part in value.split(label_separator) if part.strip())

    corpus = _table_corpus(
        rows, columns, source, "csv", text_column=text_column, label_column=label_column,
        id_column=id_column, split_label=split_label,
    )
    decode.warn("document", source)
    return corpus


def _json_label(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, (list, tuple)):
        return tuple(str(v).strip() for v in value if v is not None and str(v).strip())
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
    decode = Decoder(encoding)
    rows: list[dict[str, Any]] = []
    columns: dict[str, None] = {}
    for number, raw in enumerate(source.read_bytes().splitlines(), start=1):
        line = decode(raw).lstrip("\ufeff").strip()
        if not line:
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(f"line {number} of {source} is not valid JSON: {exc.msg}") from None
        if not isinstance(row, dict):
            raise CorpusError(f"line {number} of {source} is not a JSON object")
        rows.append(row)
        columns.update(dict.fromkeys(row))
    corpus = _table_corpus(
        rows, list(columns), source, "jsonl", text_column=text_column,
        label_column=label_column, id_column=id_column, split_label=_json_label,
    )
    decode.warn("document", source)
    return corpus


def _looks_like_path(source: str) -> bool:
    return "/" in source or os.sep in source or bool(Path(source).suffix)


def read_corpus(source: str | os.PathLike, **options: Any) -> Corpus:
    """Read a corpus from a folder, a CSV/TSV/JSONL/MAT file, or a dataset name.

    Parameters
    ----------
    source : str or path-like
        An existing folder (:func:`read_folder`), a ``.csv``/``.tsv`` file
        (:func:`read_csv`, tab-delimited for ``.tsv``), a ``.jsonl``/``.ndjson``
        file (:func:`read_jsonl`), a ``.mat`` file
        (:func:`~docnmf.corpus.read_mat`), or else the name of a registered
        dataset (:func:`~docnmf.corpus.load_dataset`).
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
    path = Path(source)
    if path.is_dir():
        return read_folder(path, **options)
    if path.is_file():
        suffix = path.suffix.lower()
        if suffix in (".csv", ".tsv"):
            return read_csv(path, **options)
        if suffix in (".jsonl", ".ndjson"):
            return read_jsonl(path, **options)
        if suffix == ".mat":
            return read_mat(path, **options)
        raise CorpusError(
            f"cannot tell how to read {path}: expected a folder or a .csv, .tsv, .jsonl, "
            ".ndjson or .mat file"
        )
    if isinstance(source, os.PathLike) or _looks_like_path(str(source)):
        raise CorpusError(f"no such file or folder: {source}")
    return load_dataset(str(source), **options)
