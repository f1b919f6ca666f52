"""The data sets of the SS-NMF paper (Chen, Rege, Dong & Hua), Table 2, from the CLUTO copies.

Section 4.1 of the paper mixes classes of four CLUTO text sets and keeps,
in each mixed set, "the top 10% of the words based on mutual information"
(Yang & Pedersen 1997). Two of its seven sets come from OHSUMED (``oh0``,
``oh5``), which is not in the shared corpora; the other five are built here:

- **Interest-Trade**: classes Interest and Trade of ``re0``, 219 documents
  each (438, Table 2; the columns of every Interest-Trade confusion matrix
  of Table 4 sum to 219). The CLUTO copy names its classes ``class_00`` ..
  ``class_12`` only. Interest is ``class_05``, the one class of 219
  documents. Trade is ``class_02`` (319 documents): the words occurring in
  ``class_02`` and ``class_05`` number exactly 2682, Table 2's "No. of
  words" for Interest-Trade, while the only other class large enough,
  ``class_01`` (608), gives 2558. All 219 Interest documents are kept and
  219 of the 319 Trade documents are drawn at random.
- **Fbis2 .. Fbis5**: 2, 3, 4, 5 classes "randomly selected" from ``fbis``,
  100 documents each (Table 2). The classes with at least 100 documents
  (8 of the 17) are put in a random order once, and Fbis-k takes the first
  k of that order, so the sets are nested; 100 documents of each class are
  drawn at random.

Both draws come from :data:`DATA_SEED`, so the sets are fixed, as the
paper's tables treat them. Words: those occurring in the set's documents;
the top 10% (rounded) by the mutual information between a word's presence
and the class (:func:`presence_mutual_information`) are kept. Weighting:
the paper's entries are "the frequency of the word appearing in the
document" (Section 3.1) and no tf-idf or length normalization is mentioned,
so the matrices hold raw term counts of the kept words.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp

from ..corpus import list_datasets, load_dataset

__all__ = ["ConstraintDataset", "DatasetPlan", "DATASETS", "DATA_SEED", "WORD_FRACTION",
           "presence_mutual_information", "top_fraction", "prepare_dataset",
           "available_datasets"]

#: Seed of the class order and document draws that fix the data sets.
DATA_SEED = 2007
#: Share of a set's words kept by mutual information (Section 4.1).
WORD_FRACTION = 0.10
#: Documents per class of the Fbis sets (Table 2).
FBIS_DOCS_PER_CLASS = 100
#: Smallest class that can give 100 documents to an Fbis set.
FBIS_MIN_CLASS_SIZE = FBIS_DOCS_PER_CLASS


@dataclass(frozen=True)
class DatasetPlan:
    """A data set of the paper's Table 2: its published size and where it comes from.

    ``clusters``, ``words`` and ``docs`` are Table 2's columns (words are
    counted before the 10% selection); ``source`` is a registered dataset
    name, or None when the corpus is not available.
    """

    name: str
    clusters: int
    words: int
    docs: int
    source: str | None
    how: str


DATASETS: dict[str, DatasetPlan] = {
    "Graft-Phos": DatasetPlan("Graft-Phos", 2, 2432, 293, None,
                              "classes Graft-Survival and Phospholipids of OHSUMED oh5"),
    "England-Heart": DatasetPlan("England-Heart", 2, 2504, 375, None,
                                 "classes England and Heart-Valve-Prosthesis of OHSUMED oh0"),
    "Interest-Trade": DatasetPlan("Interest-Trade", 2, 2682, 438, "cluto_re0",
                                  "re0 Interest (class_05, all 219) + Trade (class_02, 219 of "
                                  "319 drawn)"),
    **{f"Fbis{k}": DatasetPlan(f"Fbis{k}", k, 2000, 100 * k, "cluto_fbis",
                               f"fbis: the first {k} classes of a random order of the classes "
                               "with >= 100 documents, 100 documents each")
       for k in (2, 3, 4, 5)},
}

#: re0 classes of Interest-Trade, with the documents taken from each (None: all).
_INTEREST_TRADE = (("Interest", "class_05", None), ("Trade", "class_02", 219))


@dataclass(frozen=True)
class ConstraintDataset:
    """A prepared data set: raw counts of the kept words, class codes, and how it was made.

    Attributes
    ----------
    name : str
    X : sparse matrix of shape (n_docs, n_words)
        Term counts of the kept words; rows are documents.
    y : ndarray of shape (n_docs,)
        Class codes ``0 .. k-1`` in the order of ``class_names``.
    class_names : tuple of str
    source_classes : tuple of str
        The corpus's own class names, in the same order.
    documents : ndarray of shape (n_docs,)
        Row of each document in the source corpus.
    words : ndarray of shape (n_words,)
        Column of each kept word in the source corpus.
    n_words_present : int
        Words occurring in the set's documents, before the selection.
    info : dict
        Provenance (source, seed, fraction, ...), for reports.
    """

    name: str
    X: sp.csr_matrix
    y: np.ndarray
    class_names: tuple[str, ...]
    source_classes: tuple[str, ...]
    documents: np.ndarray
    words: np.ndarray
    n_words_present: int
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def n_classes(self) -> int:
        return len(self.class_names)

    def class_sizes(self) -> list[int]:
        return np.bincount(self.y, minlength=self.n_classes).tolist()

    def fingerprint(self) -> str:
        """A short hash of the matrix and labels: results of other data are never reused."""
        X = sp.csr_matrix(self.X)
        h = hashlib.sha256()
        for part in (np.asarray(X.shape, np.int64), X.indptr.astype(np.int64),
                     X.indices.astype(np.int64), X.data.astype(np.float64),
                     self.y.astype(np.int64)):
            h.update(part.tobytes())
        return h.hexdigest()[:16]


def presence_mutual_information(X, y) -> np.ndarray:
    """Mutual information (nats) between each word's presence in a document and its class.

    ``I(T; C) = sum_{t in {0,1}} sum_c P(t, c) log(P(t, c) / (P(t) P(c)))``
    with ``T = 1`` when the word occurs in the document. This is the
    expected mutual information that Yang & Pedersen (1997) call
    information gain; it equals scikit-learn's
    ``mutual_info_classif(X > 0, y, discrete_features=True)``, computed
    here exactly from the word-by-class document counts in one sparse product.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_docs, n_words)
    y : array-like of shape (n_docs,)

    Returns
    -------
    ndarray of shape (n_words,)

    Examples
    --------
    >>> X = np.array([[1, 0, 2], [3, 0, 0], [0, 5, 1], [0, 1, 0]])
    >>> presence_mutual_information(X, [0, 0, 1, 1]).round(4).tolist()  # log 2 = 0.6931
    [0.6931, 0.6931, 0.0]
    """
    B = sp.csr_matrix(X, dtype=np.float64, copy=True)
    B.data = (B.data != 0).astype(np.float64)
    _, codes = np.unique(np.asarray(y), return_inverse=True)
    n = B.shape[0]
    Y = sp.csr_matrix((np.ones(n), (np.arange(n), codes.ravel())))
    present = np.asarray((B.T @ Y).todense())                     # words x classes
    n_word = present.sum(axis=1, keepdims=True)
    n_class = np.asarray(Y.sum(axis=0))
    absent = n_class - present
    mi = np.zeros(B.shape[1])
    for joint, marginal in ((present, n_word), (absent, n - n_word)):
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = joint / n * np.log(joint * n / (marginal * n_class))
        mi += np.where(joint > 0, terms, 0.0).sum(axis=1)
    return np.maximum(mi, 0.0)


def top_fraction(scores: np.ndarray, fraction: float) -> np.ndarray:
    """Indices of the ``round(fraction * len(scores))`` highest scores (at least one).

    Ties go to the lower index, so the selection is reproducible; the
    indices are returned sorted.

    Examples
    --------
    >>> top_fraction(np.array([0.1, 0.5, 0.5, 0.0, 0.2, 0.3, 0.0, 0.0, 0.0, 0.0]), 0.2).tolist()
    [1, 2]
    """
    scores = np.asarray(scores, dtype=np.float64)
    n_keep = max(1, int(round(float(fraction) * len(scores))))
    order = np.argsort(-scores, kind="stable")
    return np.sort(order[:n_keep])


def _select_words(counts: sp.csr_matrix, y: np.ndarray, fraction: float
                  ) -> tuple[np.ndarray, int]:
    """Columns kept: the top ``fraction`` of the words present, by presence MI with the class."""
    present = np.flatnonzero(np.asarray((counts != 0).sum(axis=0)).ravel())
    mi = presence_mutual_information(counts[:, present], y)
    return present[top_fraction(mi, fraction)], len(present)


def _finish(name: str, corpus_counts: sp.csr_matrix, parts: list[tuple[str, str, np.ndarray]],
            info: dict[str, Any], fraction: float) -> ConstraintDataset:
    documents = np.concatenate([rows for _, _, rows in parts])
    y = np.concatenate([np.full(len(rows), c) for c, (_, _, rows) in enumerate(parts)])
    counts = sp.csr_matrix(corpus_counts[documents], dtype=np.float64)
    words, n_present = _select_words(counts, y, fraction)
    X = sp.csr_matrix(counts[:, words])
    X.sort_indices()
    info = {**info, "word_fraction": fraction, "weighting": "raw term counts",
            "empty_documents": int(np.sum(np.diff(X.indptr) == 0))}
    return ConstraintDataset(name, X, y, tuple(p[0] for p in parts), tuple(p[1] for p in parts),
                             documents, words, n_present, info)


def _class_rows(y: np.ndarray, names: list[str], wanted: str) -> np.ndarray:
    return np.flatnonzero(y == names.index(wanted))


def _interest_trade(data_home, seed: int, fraction: float) -> ConstraintDataset:
    corpus = load_dataset("cluto_re0", data_home=data_home)
    y, names = corpus.label_array()
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0]))
    parts = []
    for label, cls, n_take in _INTEREST_TRADE:
        rows = _class_rows(y, names, cls)
        if n_take is not None:
            rows = np.sort(rng.choice(rows, size=n_take, replace=False))
        parts.append((label, cls, rows))
    both = np.concatenate([_class_rows(y, names, cls) for _, cls, _ in _INTEREST_TRADE])
    words_two_classes = int(np.count_nonzero(np.asarray((corpus.counts[both] != 0).sum(axis=0))))
    info = {"source": "cluto_re0", "data_seed": seed,
            "words_in_both_full_classes": words_two_classes}
    return _finish("Interest-Trade", corpus.counts, parts, info, fraction)


def fbis_class_order(y: np.ndarray, names: list[str], seed: int = DATA_SEED) -> list[str]:
    """The random order of the fbis classes with at least 100 documents; Fbis-k takes k first."""
    sizes = np.bincount(y, minlength=len(names))
    eligible = [names[c] for c in np.flatnonzero(sizes >= FBIS_MIN_CLASS_SIZE)]
    rng = np.random.default_rng(np.random.SeedSequence([seed, 1]))
    return [eligible[i] for i in rng.permutation(len(eligible))]


def _fbis(k: int, data_home, seed: int, fraction: float) -> ConstraintDataset:
    corpus = load_dataset("cluto_fbis", data_home=data_home)
    y, names = corpus.label_array()
    order = fbis_class_order(y, names, seed)
    parts = []
    for cls in order[:k]:
        # one generator per class: a class gives the same documents to every Fbis-k
        rng = np.random.default_rng(np.random.SeedSequence([seed, 2, names.index(cls)]))
        rows = np.sort(rng.choice(_class_rows(y, names, cls), size=FBIS_DOCS_PER_CLASS,
                                  replace=False))
        parts.append((cls, cls, rows))
    info = {"source": "cluto_fbis", "data_seed": seed, "class_order": order}
    return _finish(f"Fbis{k}", corpus.counts, parts, info, fraction)


def prepare_dataset(name: str, *, data_home: str | os.PathLike | None = None,
                    seed: int = DATA_SEED, fraction: float = WORD_FRACTION) -> ConstraintDataset:
    """Build one of the paper's data sets (``"Interest-Trade"``, ``"Fbis2"`` .. ``"Fbis5"``).

    Parameters
    ----------
    name : str
    data_home : path-like, optional
        The corpora folder (default :func:`docnmf.corpus.data_dir`).
    seed : int
        Seed of the class order and document draws.
    fraction : float
        Share of the words present that is kept.

    Raises
    ------
    KeyError
        For a name outside Table 2.
    docnmf.corpus.CorpusError
        When the set's corpus is not available (Graft-Phos and England-Heart
        always: OHSUMED is not among the shared corpora).
    """
    from ..corpus import CorpusError

    if name not in DATASETS:
        raise KeyError(f"unknown data set {name!r}; Table 2 has {', '.join(DATASETS)}")
    plan = DATASETS[name]
    if plan.source is None:
        raise CorpusError(f"{name} ({plan.how}) needs OHSUMED, which is not available")
    if name == "Interest-Trade":
        return _interest_trade(data_home, seed, fraction)
    return _fbis(plan.clusters, data_home, seed, fraction)


def available_datasets(data_home: str | os.PathLike | None = None) -> list[str]:
    """The Table 2 sets whose corpus is found, in table order."""
    found = {info.name for info in list_datasets(data_home) if info.found}
    return [name for name, plan in DATASETS.items() if plan.source in found]
