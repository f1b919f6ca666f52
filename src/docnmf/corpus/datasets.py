"""Named benchmark corpora over the shared data folder.

Each name maps to a path below :func:`~docnmf.corpus.data_dir` (or
``data_home``), the reader that loads it with the options the papers use, and
a one-line description. Nothing is downloaded or cached.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable

from .._names import did_you_mean
from ._corpus import Corpus
from ._errors import CorpusError
from ._paths import DATA_ENV, data_dir
from .formats import (
    read_20newsgroups,
    read_classic3,
    read_classic4,
    read_cluto,
    read_duc2004_documents,
    read_mat,
    read_reuters21578,
)

__all__ = ["DatasetInfo", "load_dataset", "list_datasets"]


@dataclass(frozen=True)
class _Spec:
    path: str  # relative to the data folder
    loader: Callable[..., Corpus]
    description: str


@dataclass(frozen=True)
class DatasetInfo:
    """A registered dataset: its name, what it is, where it is looked for, whether it is there."""

    name: str
    description: str
    path: Path
    found: bool


def _reuters_xu2003(folder: Path, *, min_class_size: int = 5) -> Corpus:
    """Single-topic Reuters records whose topic has at least ``min_class_size`` of them.

    Xu, Liu & Gong (SIGIR 2003) keep single-label documents of categories with
    at least 5 of them and report 9494 documents in 51 categories. Over all
    21578 records this gives 9466 documents in 51 categories. The raw SGML
    has 9495 single-topic records in 66 topics (9494 if the two records that
    repeat a topic, NEWID 5467 and 19918, are counted as multi-topic), so the
    paper's document count matches before the size filter and its class
    count after it.
    """
    return read_reuters21578(folder, single_label=True).filter_min_class_size(min_class_size)


def _duc2004_topics(folder: Path) -> Corpus:
    """The 500 DUC 2004 Task 2 news articles, each labelled with its topic (50 topics of 10).

    The topics are the clusters NIST assembled for summarization; as a
    clustering corpus they are many small classes of closely related news.
    """
    topics = read_duc2004_documents(folder / "ayushoriginal" / "duc2004" / "docs")
    return Corpus(
        texts=[text for _, _, texts in topics for text in texts],
        labels=[(topic,) for topic, doc_ids, _ in topics for _ in doc_ids],
        ids=[f"{topic}/{doc}" for topic, doc_ids, _ in topics for doc in doc_ids],
        metadata={"name": "duc2004", "source": str(folder), "format": "duc2004"},
    )


def _newsgroups_top(folder: Path, *, top: str, **options: Any) -> Corpus:
    """The posts of the 20 Newsgroups groups under one top-level hierarchy (``comp``, ...).

    Each group of the hierarchy is a class (``rec.autos``, ``rec.motorcycles``,
    ...): a harder, narrower clustering task than the 20 groups together.
    """
    corpus = read_20newsgroups(folder, **options)
    keep = [i for i, labels in enumerate(corpus.labels) if labels[0].startswith(f"{top}.")]
    return corpus.subset(keep)


#: The top-level hierarchies of 20 Newsgroups registered as corpora of their own.
NEWSGROUPS_TOPS = ("comp", "rec", "sci", "talk")

#: The CLUTO text sets shipped under ``cluto/<name>/``.
CLUTO_SETS = (
    "re0", "re1", "fbis", "wap", "k1a", "k1b", "tr11", "tr12", "tr23", "tr31", "tr41", "tr45",
    "la1", "la2", "hitech", "classic", "cranmed", "cacmcisi", "mm",
)

_REGISTRY: dict[str, _Spec] = {
    "tdt2": _Spec(
        "tdt2_cai/TDT2_all.mat", partial(read_mat, min_class_size=10),
        "TDT2 (Cai), classes with >= 10 documents: 10021 docs, 56 classes (LCCF paper's set)",
    ),
    "tdt2_all": _Spec("tdt2_cai/TDT2_all.mat", read_mat, "TDT2 (Cai), all 10212 docs, 96 classes"),
    "tdt2_top30": _Spec("tdt2_cai/TDT2.mat", read_mat, "TDT2 (Cai), 30 largest classes: 9394 docs"),
    "reuters21578": _Spec(
        "reuters21578", read_reuters21578, "Reuters-21578 raw SGML, all 21578 records, multi-label"
    ),
    "reuters21578_single": _Spec(
        "reuters21578", _reuters_xu2003,
        "Reuters-21578 raw SGML, single-topic docs of topics with >= 5 of them: 9466 docs, 51 "
        "classes (Xu et al. 2003 report 9494 / 51)",
    ),
    "reuters_cai": _Spec(
        "reuters21578_cai/Reuters21578.mat", partial(read_mat, min_class_size=10),
        "Reuters-21578 (Cai), classes with >= 10 documents: 8213 docs, 41 classes (LCCF set)",
    ),
    "20newsgroups": _Spec(
        "20newsgroups_bydate", read_20newsgroups, "20 Newsgroups bydate, 18846 posts, 20 groups"
    ),
    "duc2004": _Spec(
        "duc2004", _duc2004_topics,
        "DUC 2004 Task 2 news articles, each labelled with its topic: 500 docs, 50 classes",
    ),
    "classic3": _Spec("classic4_smart", read_classic3, "SMART CISI + CRAN + MED: 3893 docs"),
    "classic4": _Spec("classic4_smart", read_classic4, "SMART CISI + CRAN + MED + CACM: 7097 docs"),
    "cstr": _Spec(
        "cclust/cstr.mat", read_mat, "CSTR abstracts (cclust), 475 x 1000 weights, 4 classes"
    ),
    "classic3_cclust": _Spec(
        "cclust/classic3.mat", read_mat, "Classic3 preprocessed by cclust, 3891 x 4303 counts"
    ),
}
_REGISTRY.update(
    (f"20newsgroups_{top}", _Spec(
        "20newsgroups_bydate", partial(_newsgroups_top, top=top),
        f"20 Newsgroups bydate, the {top}.* groups only, each group a class"))
    for top in NEWSGROUPS_TOPS
)
_REGISTRY.update(
    (f"cluto_{name}", _Spec(f"cluto/{name}", read_cluto, f"CLUTO text set {name} (counts only)"))
    for name in CLUTO_SETS
)


def _root(data_home: str | os.PathLike | None) -> Path:
    """The corpora folder; a CorpusError when the system cannot look it up (a name too long,
    a folder it may not enter), which every dataset's lookup then ended in with a traceback."""
    # os.path.expanduser leaves '~name' of no user as it is; Path.expanduser raised RuntimeError
    root = Path(os.path.expanduser(data_home)) if data_home is not None else data_dir()
    try:
        root.stat()
    except (FileNotFoundError, NotADirectoryError):
        pass                # each dataset is said to be missing, with the folder named
    except OSError as exc:
        name = str(root) if len(str(root)) <= 200 else f"{str(root)[:200]}..."
        raise CorpusError(f"the corpora folder cannot be used ({exc.strerror or exc}): {name}; "
                          f"set {DATA_ENV if data_home is None else 'data_home'} to the folder "
                          "that holds them") from None
    return root


def dataset_names() -> list[str]:
    """The registered datasets' names, without looking the corpora folder up."""
    return list(_REGISTRY)


def list_datasets(data_home: str | os.PathLike | None = None) -> list[DatasetInfo]:
    """Every registered dataset, with the path it is read from and whether that exists.

    Parameters
    ----------
    data_home : path-like, optional
        The corpora folder; defaults to :func:`~docnmf.corpus.data_dir`.

    Returns
    -------
    list of DatasetInfo

    Examples
    --------
    >>> infos = list_datasets("/nonexistent")
    >>> infos[0].name, infos[0].found
    ('tdt2', False)
    """
    root = _root(data_home)
    return [
        # os.path.exists: a path longer than the system takes (a long folder and the dataset's
        # own names) is not there, where Path.exists raised OSError
        DatasetInfo(name, spec.description, root / spec.path, os.path.exists(root / spec.path))
        for name, spec in _REGISTRY.items()
    ]


def load_dataset(
    name: str, *, data_home: str | os.PathLike | None = None, **options: Any
) -> Corpus:
    """Load a registered corpus by name.

    Parameters
    ----------
    name : str
        One of the names in :func:`list_datasets`, e.g. ``"tdt2"``,
        ``"reuters21578_single"``, ``"20newsgroups"``, ``"classic3"``,
        ``"cluto_re0"``.
    data_home : path-like, optional
        The corpora folder; defaults to :func:`~docnmf.corpus.data_dir`
        (``$DOCNMF_DATA`` or ``../shared/datasets``).
    **options
        Passed to the reader, overriding the registered defaults (e.g.
        ``subset="train"`` for ``"20newsgroups"``, ``min_class_size=None``
        for ``"tdt2"``).

    Returns
    -------
    Corpus
        With ``metadata["name"]`` set to ``name``.

    Raises
    ------
    CorpusError
        For an unknown name (the message lists the known ones) or when the
        dataset's files are missing.

    Examples
    --------
    >>> load_dataset("tdt3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    docnmf.corpus.CorpusError: unknown dataset 'tdt3'; did you mean tdt2? (known datasets: tdt2, ...
    """
    spec = _REGISTRY.get(name)
    if spec is None and name == "demo":
        raise CorpusError("'demo' is the embedded demo corpus, not a dataset on disk: "
                          "docnmf.load_demo() (or read_corpus('demo')) reads it")
    if spec is None:
        raise CorpusError(f"unknown dataset {name!r}{did_you_mean(str(name), _REGISTRY)} "
                          f"(known datasets: {', '.join(_REGISTRY)})")
    path = _root(data_home) / spec.path
    if not os.path.exists(path):        # (as in list_datasets)
        raise CorpusError(
            f"dataset {name!r} needs {path}, which does not exist; "
            f"set {DATA_ENV} (or pass data_home) to the folder holding the corpora"
        )
    corpus = spec.loader(path, **options)
    return replace(corpus, metadata={**corpus.metadata, "name": name})
