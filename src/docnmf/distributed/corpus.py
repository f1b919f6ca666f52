"""A corpus read partition by partition on the cluster: ids, texts and labels per partition.

Each partition is an ordinary :class:`~docnmf.corpus.Corpus` built on a
worker, so no process ever holds the whole collection. The workers read the
files themselves: on a cluster of several machines the paths must be on a
file system they share.
"""

from __future__ import annotations

import hashlib
import os
import warnings
from pathlib import Path
from typing import Callable, Mapping, Sequence

import dask
import numpy as np
from dask.delayed import Delayed

from ..corpus._corpus import Corpus
from ..corpus._errors import CorpusError
from ..corpus._text_io import Decoder, readable_name
from ..corpus.readers import (
    MAX_DOCUMENT,
    TABLE_SUFFIXES,
    _files_under,
    _read_bytes,
    _unmarked,
    not_text,
    read_table_file,
    refuse_output_folder,
    warn_folder_mix,
    warn_skipped,
)
from ..text.boilerplate import PER_TEXT, evenly_spaced

__all__ = ["PartitionedCorpus", "TABLE_SUFFIXES"]


def _read_documents(root: str, relative: Sequence[str], encoding: str = "utf-8") -> Corpus:
    """Files below ``root``, one document each, labelled by their top subfolder (as read_folder)."""
    decode = Decoder(encoding, advise=True)
    texts, labels, ids, skipped = [], [], [], []
    tagged = pages = 0
    for name in relative:
        shown = readable_name(name)
        data = _read_bytes(Path(root, name), encoding, decode, shown, MAX_DOCUMENT)
        reason = not_text(data, name)   # as read_folder: named, not read as text
        if reason is not None:
            skipped.append(f"{shown} {reason}")
            continue
        # a NIST tagged document: its <TEXT>; a web page: its text; as read_folder
        text, kind = _unmarked(decode(data, shown))
        tagged += kind == "nist"
        pages += kind == "page"
        texts.append(text)
        parts = shown.split("/")
        labels.append((parts[0],) if len(parts) > 1 else ())
        ids.append(shown)
    decode.warn("file", Path(root))
    return Corpus(texts=texts, labels=labels, ids=ids,
                  metadata={"skipped": skipped, "tagged": tagged, "pages": pages})


def _read_part(reader: Callable[..., Corpus], *args, **options) -> Corpus:
    """``reader(*args, **options)`` on a worker, its warnings (bytes that are not UTF-8, ...)
    kept in the corpus's metadata for the client to give: a worker's own would go to its log,
    or to the terminal in Python's raw form."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        part = reader(*args, **options)
    part.metadata["warnings"] = [str(w.message) for w in said]
    return part


def _read_notes(part: Corpus) -> tuple[list[str], list[str], int, int, int]:
    """What reading a partition left out (binary files), each with why, what it warned, how
    many of its documents were NIST tagged, of how many, and how many were web pages."""
    return (list(part.metadata.get("skipped", ())), list(part.metadata.get("warnings", ())),
            int(part.metadata.get("tagged", 0)), len(part), int(part.metadata.get("pages", 0)))


def _texts(part: Corpus) -> list[str]:
    return part.texts


def _text_sample(part: Corpus, at_most: int) -> tuple[list[str], list[str]]:
    """The ids and texts (each to its first ``PER_TEXT`` characters, as the diagnostics read
    them) of about ``at_most`` documents of a partition, evenly spaced through it."""
    read = evenly_spaced(len(part), at_most)
    return [part.ids[i] for i in read], [part.texts[i][:PER_TEXT] for i in read]


def digests(strings: Sequence[str]) -> np.ndarray:
    """An 8-byte digest of each string: all of a collection's fit in the client, where its
    ids or texts might not."""
    return np.array([int.from_bytes(hashlib.blake2b(t.encode("utf-8", "surrogatepass"),
                                                    digest_size=8).digest(), "little")
                     for t in strings], dtype=np.uint64)


def _text_digests(part: Corpus) -> np.ndarray:
    """The digest of each text of a partition, 0 for an empty one (no copy of another)."""
    found = digests(part.texts)
    found[[not t.strip() for t in part.texts]] = 0
    return found


def _from_records(records: Sequence, text_column: str, id_column: str | None,
                  label_column: str | None, offset: int) -> Corpus:
    """Texts (strings) or records (dicts) of one bag partition as a corpus."""
    texts, ids, labels = [], [], []
    for i, rec in enumerate(records):
        if isinstance(rec, str):
            texts.append(rec)
            ids.append(str(offset + i + 1))
            labels.append(())
            continue
        if not isinstance(rec, Mapping):
            raise CorpusError(f"item {offset + i + 1} of the bag is {type(rec).__name__} "
                              f"{rec!r:.40}: give texts (str) or records (dicts)")
        text = rec.get(text_column)
        if not isinstance(text, str) and text is not None:
            # as the JSONL reader: str() would make NaN the word "nan"
            raise CorpusError(f"item {offset + i + 1} of the bag: {text_column!r} is "
                              f"{type(text).__name__} {text!r:.40}, not a string")
        texts.append(text or "")
        ids.append(str(rec[id_column]) if id_column and id_column in rec else str(offset + i + 1))
        value = rec.get(label_column) if label_column else None
        labels.append(tuple(map(str, value)) if isinstance(value, (list, tuple))
                      else ((str(value),) if value not in (None, "") else ()))
    return Corpus(texts=texts, labels=labels, ids=ids)


def _count(records) -> int:
    return len(records)


class PartitionedCorpus:
    """A document collection as a list of partitions, each a delayed :class:`Corpus`.

    Build one with :meth:`from_path` (a folder tree of text files, a folder or
    list of CSV/JSONL files) or :meth:`from_bag` (a ``dask.bag`` of texts or
    records); :meth:`texts` gives the texts as a ``dask.bag`` for
    :class:`~docnmf.distributed.DaskVectorizer`.

    Examples
    --------
    >>> import dask.bag as db
    >>> corpus = PartitionedCorpus.from_bag(db.from_sequence(["a b", "c d", "e"], npartitions=2))
    >>> corpus.n_partitions, [len(p) for p in dask.compute(*corpus.parts, scheduler="sync")]
    (2, [2, 1])
    """

    def __init__(self, parts: Sequence[Delayed], *, name: str = "corpus", source: str = "",
                 part_names: Sequence[str] | None = None, skipped: Sequence[str] = ()):
        if not parts:
            raise CorpusError("the corpus has no partitions")
        self.parts = list(parts)
        self.name = name
        self.source = source
        #: what each partition is read from (its file), for messages
        self.part_names = (list(part_names) if part_names is not None
                           else [f"partition {p + 1}" for p in range(len(self.parts))])
        #: entries of the folder read that were left out, each with why
        self.skipped = list(skipped)
        #: the input's absolute path and the reader's options, for run.json (set by the command)
        self.path: str | None = None
        self.reader_options: dict = {}

    @property
    def n_partitions(self) -> int:
        return len(self.parts)

    def texts(self):
        """The texts as a ``dask.bag``, one bag partition per corpus partition."""
        import dask.bag as db

        return db.from_delayed([dask.delayed(_texts)(p) for p in self.parts])

    @classmethod
    def from_path(cls, path: str | os.PathLike, *, files_per_partition: int = 2000,
                  text_column: str = "text", label_column: str | None = None,
                  id_column: str | None = None, encoding: str = "utf-8"
                  ) -> "PartitionedCorpus":
        """Partitions of a folder tree of text files, or of CSV/TSV/JSONL files.

        Parameters
        ----------
        path : path-like
            A folder of text documents (one file each; subfolders are
            classes, as :func:`~docnmf.corpus.read_folder`), in groups of
            ``files_per_partition``; or a CSV/TSV/JSONL file, or a folder of
            them, one partition per file. When a folder holds only table
            files it is read as tables.
        text_column, label_column, id_column : str
            As :func:`~docnmf.corpus.read_jsonl` and :func:`~docnmf.corpus.read_csv`.
            Without an id column, ids are ``file:record`` when there are several files.
        """
        # absolute: the workers open what they are sent, in the folder they were started in
        given, root = str(path), Path(os.path.abspath(path))
        options = {"text_column": text_column, "label_column": label_column,
                   "id_column": id_column, "encoding": encoding}
        if root.is_file():
            if root.suffix.lower() not in TABLE_SUFFIXES:
                raise CorpusError(f"{given} is not a CSV, TSV or JSON Lines file")
            parts = [dask.delayed(_read_part, pure=True)(read_table_file, str(root), None,
                                                         **options)]
            return cls(parts, name=root.stem, source=given)
        if not root.is_dir():
            raise CorpusError(f"no such file or folder: {given}")
        refuse_output_folder(root)
        files, skipped = _files_under(root, None)
        skipped.sort()
        warn_skipped(Path(given), skipped, "the corpus's skipped, and run.json")
        if not files:
            raise CorpusError(f"no files in {given}")
        if all(f.suffix.lower() in TABLE_SUFFIXES for f in files):
            names = [f.relative_to(root).as_posix() for f in files]
            prefix = len(files) > 1
            parts = [dask.delayed(_read_part, pure=True)(read_table_file, str(f),
                                                         name if prefix else None, **options)
                     for f, name in zip(files, names)]
            return cls(parts, name=root.name, source=given, part_names=names, skipped=skipped)
        else:
            names = [f.relative_to(root).as_posix() for f in files]
            warn_folder_mix(Path(given), [readable_name(n) for n in names])
            step = max(1, int(files_per_partition))
            parts = [dask.delayed(_read_part, pure=True)(_read_documents, str(root),
                                                         names[a:a + step],
                                                              encoding)
                     for a in range(0, len(names), step)]
        return cls(parts, name=root.name, source=given, skipped=skipped)

    @classmethod
    def from_bag(cls, bag, *, text_column: str = "text", id_column: str | None = "id",
                 label_column: str | None = "label", name: str = "corpus"
                 ) -> "PartitionedCorpus":
        """From a ``dask.bag`` of texts, or of dicts with text, id and label keys.

        Documents without an id are numbered from 1 in bag order.
        """
        delayed_parts = bag.to_delayed()
        sizes = dask.compute(*[dask.delayed(_count)(p) for p in delayed_parts])
        offsets = [sum(sizes[:p]) for p in range(len(sizes))]
        parts = [dask.delayed(_from_records, pure=True)(p, text_column, id_column, label_column,
                                                        offset)
                 for p, offset in zip(delayed_parts, offsets)]
        return cls(parts, name=name, source="dask.bag")
