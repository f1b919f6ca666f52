"""Data conditions of the evaluation protocol: which corpus, which documents, which weighting.

A :class:`DataCondition` names a labelled corpus. :func:`prepare_data`
turns it into raw term counts for the whole collection (once), and
:func:`weigh_subset` gives the matrix one test run clusters: the documents
of ``k`` chosen classes, weighted, with all-zero columns dropped.

Three weightings are supported:

``"xu-subset"``
    ``tf * log(n / df)`` with ``n`` and ``df`` counted on the documents of
    the subset being clustered, unit-length rows (Xu, Liu & Gong 2003,
    Section 3.1).
``"cai-global"``
    ``(1 + log tf) * log(N / df)`` with ``N`` and ``df`` counted on the
    whole filtered collection, unit-length rows (the preprocessing of
    D. Cai's published TDT2 and Reuters matrices, used in Cai et al. 2011).
``"cluster"``
    What ``docnmf cluster`` would do with the subset: its document-frequency
    pruning (``min_df``, ``max_df``, ``max_features``) and its ``tf`` / ``idf``
    schemes, counted on the subset, unit-length rows; the settings are the
    condition's ``text_options`` (``docnmf evaluate`` passes ``cluster``'s
    text options), stop words and stemming applied when the texts are counted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import scipy.sparse as sp

from .._catalog import WEIGHTINGS
from ..corpus import Corpus, list_datasets, load_dataset, read_corpus
from ..corpus.readers import DEMO, TABLE_SUFFIXES, table_files
from ..text.vectorize import DocumentVectorizer, document_count_bounds, kept_columns
from ..text.weighting import TfidfWeighting

__all__ = ["Weighting", "WEIGHTINGS", "DataCondition", "PreparedData", "ProtocolError",
           "prepare_data", "subset_counts", "subset_indices", "weigh_subset"]

logger = logging.getLogger(__name__)

Weighting = Literal["xu-subset", "cai-global", "cluster"]

#: The text options of ``"cluster"`` when a condition gives none: ``docnmf cluster``'s defaults.
CLUSTER_TEXT_OPTIONS = {"stop_words": "english", "stem": True, "min_df": 2, "max_df": 0.95,
                        "max_features": None, "tf": "raw", "idf": "xu"}

#: Vectorizer settings for text corpora. The papers remove stop words (and
#: Xu et al. stem); neither states a document-frequency cut, so none is made.
TEXT_VECTORIZER = {"stop_words": "english", "stem": True, "min_df": 1, "max_df": 1.0}


class ProtocolError(ValueError):
    """The protocol cannot run as asked: bad k range, unlabelled corpus, mismatched results file."""


@dataclass(frozen=True)
class DataCondition:
    """A labelled corpus as one experiment uses it.

    Parameters
    ----------
    name : str
        Short name stored with every result (e.g. ``"tdt2"``).
    source : str
        A registered dataset name (:func:`~docnmf.corpus.load_dataset`) or a
        path :func:`~docnmf.corpus.read_corpus` accepts.
    reader_options : tuple of (str, value) pairs
        Passed to the reader (e.g. ``(("label_column", "topic"),)``).
    min_class_size : int or None
        Keep only classes with at least this many documents (after the
        reader's own filtering).
    description : str
        One line for reports; not part of the result identity.
    text_options : tuple of (str, value) pairs
        ``DocumentVectorizer`` settings of the ``"cluster"`` weighting
        (``stop_words``, ``stem``, ``min_df``, ``max_df``, ``max_features``,
        ``tf``, ``idf``); unset ones take :data:`CLUSTER_TEXT_OPTIONS`. With
        any set, texts are counted with its stop words and stemming.
    """

    name: str
    source: str
    reader_options: tuple[tuple[str, Any], ...] = ()
    min_class_size: int | None = None
    description: str = field(default="", compare=False)
    text_options: tuple[tuple[str, Any], ...] = ()

    def identity(self) -> dict[str, Any]:
        """The fields that change results, as stored in a results file header."""
        source = self.source
        if not _is_dataset_name(source):
            source = str(Path(source).expanduser().resolve())
        out = {"name": self.name, "source": source,
               "reader_options": {k: v for k, v in self.reader_options},
               "min_class_size": self.min_class_size}
        if self.text_options:   # absent otherwise, so earlier results files still resume
            out["text_options"] = self.cluster_options()
        return out

    def cluster_options(self) -> dict[str, Any]:
        """The ``"cluster"`` weighting's settings: the given text options over the defaults."""
        return {**CLUSTER_TEXT_OPTIONS, **dict(self.text_options)}

    def available(self, data_home: str | os.PathLike | None = None) -> bool:
        """Whether the corpus files are present (without loading them)."""
        for info in list_datasets(data_home):
            if info.name == self.source:
                return info.found
        return self.source == DEMO or Path(self.source).exists()


@dataclass(frozen=True)
class PreparedData:
    """Raw counts of a whole collection, its classes, and the collection-wide idf.

    Attributes
    ----------
    counts : sparse matrix of shape (n_docs, n_terms)
        Raw term counts; rows are documents.
    y : ndarray of shape (n_docs,)
        Class code of each document, indexing ``class_names``.
    class_names : list of str
    global_weighting : TfidfWeighting
        ``(1 + log tf) * log(N / df)`` fitted on all documents (``"cai-global"``).
    vectorizer : dict or None
        Tokenization settings when the counts were made from texts.
    cluster_options : dict
        The settings of the ``"cluster"`` weighting (:meth:`DataCondition.cluster_options`).
    texts : list of str or None
        The documents' texts, for methods that read them (NMA); None for matrix corpora.
    """

    counts: sp.csr_matrix
    y: np.ndarray
    class_names: list[str]
    global_weighting: TfidfWeighting
    vectorizer: dict[str, Any] | None = None
    cluster_options: dict[str, Any] = field(default_factory=lambda: dict(CLUSTER_TEXT_OPTIONS))
    texts: list[str] | None = None

    @property
    def n_classes(self) -> int:
        return len(self.class_names)

    def fingerprint(self) -> dict[str, Any]:
        """Sizes, settings and a digest that identify the prepared collection in a results file
        header (the sizes alone let results be reused for documents moved between classes)."""
        return {"n_docs": int(self.counts.shape[0]), "n_terms": int(self.counts.shape[1]),
                "n_classes": self.n_classes, "nnz": int(self.counts.nnz),
                "vectorizer": self.vectorizer, "digest": self.digest()}

    def digest(self) -> str:
        """SHA-256 (first 16 hex digits) of the counts, the classes and the texts."""
        counts = sp.csr_matrix(self.counts)
        if not counts.has_sorted_indices:
            counts = counts.sorted_indices()
        h = hashlib.sha256()
        for array, dtype in ((counts.indptr, np.int64), (counts.indices, np.int64),
                             (counts.data, np.float64), (self.y, np.int64)):
            h.update(np.ascontiguousarray(array, dtype=dtype).tobytes())
        h.update(json.dumps([self.class_names, self.texts], ensure_ascii=False).encode(
            "utf-8", "surrogatepass"))
        return h.hexdigest()[:16]


def _is_dataset_name(source: str) -> bool:
    """A named corpus (a dataset, or the embedded demo), not a path: recorded as its name."""
    return not Path(source).exists() and source in {DEMO, *(i.name for i in list_datasets())}


def load_condition(condition: DataCondition,
                   data_home: str | os.PathLike | None = None) -> Corpus:
    """Read the corpus of ``condition`` and keep the single-labelled documents."""
    options = dict(condition.reader_options)
    if _is_dataset_name(condition.source) and condition.source != DEMO:
        corpus = load_dataset(condition.source, data_home=data_home, **options)
    else:
        corpus = read_corpus(condition.source, **options)
    if not corpus.is_labelled:
        # a table's classes may be in a column of another name than "label" (any table the
        # readers take: .ndjson too, and a folder of table partitions)
        path = Path(str(condition.source))
        table = (path.suffix.lower() in (*TABLE_SUFFIXES, ".json")
                 or (path.is_dir() and bool(table_files(path))))
        raise ProtocolError(f"corpus {condition.name!r} has no labels; the evaluation needs a "
                            "class for every document"
                            + ("; name the column that holds them with --label-column"
                               if table and not options.get("label_column") else ""))
    n_single = sum(len(labs) == 1 for labs in corpus.labels)
    if n_single < len(corpus):
        logger.warning("%s: leaving out %d documents with no label or several labels",
                       condition.name, len(corpus) - n_single)
        corpus = corpus.single_label()
    if condition.min_class_size is not None:
        corpus = corpus.filter_min_class_size(condition.min_class_size)
    return corpus


def prepare_data(condition: DataCondition,
                 data_home: str | os.PathLike | None = None) -> PreparedData:
    """Load ``condition`` and compute raw counts for the whole collection, once.

    Text corpora are tokenized with stop-word removal and Porter stemming
    and no document-frequency pruning (:data:`TEXT_VECTORIZER`; a condition
    with ``text_options`` uses their stop words and stemming); matrix
    corpora keep their count matrix.
    """
    corpus = load_condition(condition, data_home)
    settings = None
    options = condition.cluster_options()
    if corpus.counts is not None:
        counts = sp.csr_matrix(corpus.counts, dtype=np.float64)
    else:
        settings = dict(TEXT_VECTORIZER)
        if condition.text_options:
            settings.update(stop_words=options["stop_words"], stem=options["stem"],
                            **{key: options[key] for key in ("token_pattern",) if key in options})
        vectorizer = DocumentVectorizer(**settings).fit(corpus.texts)
        counts = vectorizer.count(corpus.texts)
    y, names = corpus.label_array()
    global_weighting = TfidfWeighting(tf="sublinear", idf="xu", norm="l2").fit(counts)
    logger.info("%s: %d document%s, %d class%s, %d terms", condition.name, counts.shape[0],
                "s" * (counts.shape[0] != 1), len(names), "es" * (len(names) != 1),
                counts.shape[1])
    texts = None if corpus.texts is None else list(corpus.texts)
    return PreparedData(counts, y, names, global_weighting, settings, options, texts)


def subset_indices(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Positions of the documents whose class code is in ``classes``, in corpus order."""
    return np.flatnonzero(np.isin(y, classes))


def _cluster_vocabulary(data: PreparedData, counts) -> np.ndarray:
    """The columns of a subset's ``counts`` the ``"cluster"`` weighting keeps (its pruning)."""
    o = data.cluster_options
    low, high = document_count_bounds(o["min_df"], o["max_df"], o["max_features"],
                                      counts.shape[0])
    return kept_columns(sp.csr_matrix(counts), low, high, o["max_features"])


def subset_counts(data: PreparedData, indices: np.ndarray, weighting: Weighting) -> sp.csr_matrix:
    """The term counts of one test run, for methods that weigh counts themselves (the
    consensus, PLSI, LDA): the ``"cluster"`` weighting's vocabulary, or every term the subset
    uses.

    Examples
    --------
    >>> counts = sp.csr_matrix(np.array([[2., 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 3]]))
    >>> data = PreparedData(counts, np.array([0, 1, 2]), ["a", "b", "c"],
    ...                     TfidfWeighting(tf="sublinear").fit(counts))
    >>> subset_counts(data, np.array([0, 1]), "xu-subset").toarray().tolist()
    [[2.0, 1.0, 0.0], [0.0, 1.0, 1.0]]
    """
    counts = sp.csr_matrix(data.counts[indices])
    if weighting == "cluster":
        counts = counts[:, _cluster_vocabulary(data, counts)]
    return sp.csr_matrix(counts[:, np.flatnonzero(counts.getnnz(axis=0))])


def weigh_subset(data: PreparedData, indices: np.ndarray, weighting: Weighting) -> sp.csr_matrix:
    """The weighted documents x terms matrix of one test run, all-zero columns dropped.

    Examples
    --------
    >>> counts = sp.csr_matrix(np.array([[2., 1, 0, 0], [0, 1, 1, 0], [0, 0, 0, 3]]))
    >>> data = PreparedData(counts, np.array([0, 1, 2]), ["a", "b", "c"],
    ...                     TfidfWeighting(tf="sublinear").fit(counts))
    >>> weigh_subset(data, np.array([0, 1]), "xu-subset").shape  # term 1 in both: idf 0
    (2, 2)
    >>> weigh_subset(data, np.array([0, 1]), "cai-global").shape  # in 2 of all 3 documents
    (2, 3)
    """
    counts = data.counts[indices]
    if weighting == "xu-subset":
        X = TfidfWeighting(tf="raw", idf="xu", norm="l2").fit_transform(counts)
    elif weighting == "cai-global":
        X = data.global_weighting.transform(counts)
    elif weighting == "cluster":
        o = data.cluster_options
        kept = _cluster_vocabulary(data, counts)
        X = (TfidfWeighting(tf=o["tf"], idf=o["idf"], norm="l2").fit_transform(counts[:, kept])
             if len(kept) else sp.csr_matrix((counts.shape[0], 0)))
    else:
        raise ProtocolError(f"unknown weighting {weighting!r}; choose from {', '.join(WEIGHTINGS)}")
    X = sp.csr_matrix(X)
    if not X.count_nonzero():
        raise ProtocolError(
            f"a subset of {counts.shape[0]} documents has no term of non-zero weight under "
            f"the {weighting!r} weighting (every term pruned, or in all of its documents); "
            "lower --min-df, or evaluate larger subsets")
    return sp.csr_matrix(X[:, np.flatnonzero(X.getnnz(axis=0))])
