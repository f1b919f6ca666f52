"""Clustering scores used by the papers: accuracy (Kuhn-Munkres), NMI, purity.

All functions take the true classes and the predicted clusters as 1-d
sequences of hashable labels of the same length; label values are arbitrary
(strings or integers), only the partition they induce matters. ``-1`` is a
label like any other here: the documents a docnmf clustering leaves in no
cluster (label ``-1``) count as one more cluster unless they are left out
first (``docnmf cluster`` scores the placed ones, and also counts the others
as errors: ``accuracy_all_documents`` in ``metrics.json``).
"""

from __future__ import annotations

import math
from typing import Literal, Sequence

import numpy as np
from sklearn.metrics import normalized_mutual_info_score
from scipy.optimize import linear_sum_assignment

__all__ = ["NMI_NORMALIZATION", "confusion_matrix", "clustering_accuracy", "best_mapping", "nmi",
           "purity", "score_all"]

NMINormalization = Literal["max", "min", "arithmetic", "geometric", "joint"]


def _missing(value) -> bool:
    """None, NaN, or pandas' NA / NaT: a document without a label."""
    return value is None or (isinstance(value, float) and math.isnan(value)) \
        or type(value).__name__ in ("NAType", "NaTType")


def _kind(value) -> str:
    return "text" if isinstance(value, str) else "bytes" if isinstance(value, bytes) else "other"


def _refuse_lookalikes(values: list, name: str) -> None:
    """Labels of different kinds that numpy would turn into one string (``1`` and ``"1"``,
    ``b"a"`` and ``"a"``) are refused rather than merged into one class."""
    if len({_kind(v) for v in values}) < 2:
        return
    seen: dict[str, object] = {}
    for v in values:
        first = seen.setdefault(v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v), v)
        if _kind(first) != _kind(v):
            raise ValueError(f"{name} holds {first!r} and {v!r}, labels of different types that "
                             "would be read as one: give labels of one type")


def _codes(labels: Sequence, name: str) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(labels, np.ndarray) or labels.dtype.kind == "O":
        # looked at before numpy turns a NaN among strings into the label "nan" (among numbers
        # numpy keeps it a NaN, refused below), or 1 and "1" into one label
        values = list(labels)
        missing = [i for i, v in enumerate(values) if _missing(v)]
        if missing and not all(isinstance(v, (int, float, np.number)) for v in values):
            raise ValueError(f"{name} has no label for {len(missing)} documents (None or NaN, "
                             f"e.g. at {missing[0]}): score the labelled ones only")
        _refuse_lookalikes(values, name)
        if len({_kind(v) for v in values}) > 1:   # numpy would make every label a string
            labels = np.empty(len(values), dtype=object)
            for i, v in enumerate(values):          # a slice would unpack a list among them
                labels[i] = v
    labels = np.asarray(labels)
    if labels.ndim != 1:
        raise ValueError(f"{name} must be 1-d, one label per document; got shape {labels.shape}")
    if labels.dtype.kind in "fc" and not np.all(np.isfinite(labels)):
        raise ValueError(f"{name} holds NaN or infinite labels")
    if labels.dtype.kind == "O":    # mixed kinds, e.g. 1 and "a", which do not sort together
        # by value, as numbers alone are read: 1 and 1.0 one label (str() made them two)
        first: dict = {}
        try:
            labels = np.array([first.setdefault(v, str(v)) for v in labels.tolist()], dtype=str)
        except TypeError:           # unhashable labels (lists): told apart by their text
            labels = labels.astype(str)
    values, codes = np.unique(labels, return_inverse=True)
    return values, codes.ravel()


def confusion_matrix(y_true: Sequence, y_pred: Sequence) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Contingency table: ``C[i, j]`` documents of class ``i`` put in cluster ``j``.

    Returns
    -------
    C : ndarray of shape (n_classes, n_clusters)
    classes, clusters : ndarray
        The sorted distinct values naming the rows and the columns.

    Examples
    --------
    >>> C, rows, cols = confusion_matrix(["a", "a", "b"], [1, 0, 0])
    >>> C.tolist(), rows.tolist(), cols.tolist()
    ([[1, 1], [1, 0]], ['a', 'b'], [0, 1])
    """
    C, classes, clusters, _, _ = _table(y_true, y_pred)
    return C, classes, clusters


def _table(y_true: Sequence, y_pred: Sequence):
    """The contingency table, its rows' and columns' labels, and each document's codes."""
    for name, labels in (("y_true", y_true), ("y_pred", y_pred)):
        if not hasattr(labels, "__len__") or isinstance(labels, (str, bytes)):
            raise TypeError(f"{name} must be a list or an array of labels, one per document; "
                            f"got {type(labels).__name__}")
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} entries, y_pred {len(y_pred)}")
    if len(y_true) == 0:
        # every score is undefined on no documents: one error rather than NaN, 1.0 and an
        # IndexError from the three of them
        raise ValueError("no documents to score (y_true and y_pred are empty)")
    classes, t = _codes(y_true, "y_true")
    clusters, p = _codes(y_pred, "y_pred")
    C = np.zeros((len(classes), len(clusters)), dtype=np.int64)
    np.add.at(C, (t, p), 1)
    return C, classes, clusters, t, p


def best_mapping(y_true: Sequence, y_pred: Sequence) -> dict:
    """The one-to-one cluster -> class map maximising agreement (Kuhn-Munkres).

    When there are more clusters than classes, the clusters left over map to
    nothing and all their documents count as errors.
    """
    C, classes, clusters = confusion_matrix(y_true, y_pred)
    rows, cols = linear_sum_assignment(C, maximize=True)
    return {clusters[c].item(): classes[r].item() for r, c in zip(rows, cols)}


def clustering_accuracy(y_true: Sequence, y_pred: Sequence) -> float:
    """AC of Xu et al. (2003), eq. 12: agreement under the best one-to-one map.

    The map is found with the Kuhn-Munkres (Hungarian) algorithm on the
    contingency table; cluster and class counts may differ.

    References
    ----------
    Xu, Liu & Gong, Document clustering based on NMF, SIGIR 2003, eq. (12).

    Examples
    --------
    >>> clustering_accuracy([0, 0, 1, 1, 2, 2], [1, 1, 0, 0, 2, 0])
    0.8333333333333334
    """
    C, _, _ = confusion_matrix(y_true, y_pred)
    rows, cols = linear_sum_assignment(C, maximize=True)
    return float(C[rows, cols].sum() / C.sum())


def _entropy(p: np.ndarray) -> float:
    p = p[p > 0]
    # a single block whose share rounds to just above 1 would give -0.0...01
    return max(0.0, float(-(p * np.log2(p)).sum()))


def nmi(y_true: Sequence, y_pred: Sequence, normalization: NMINormalization = "max") -> float:
    """Normalized mutual information, eqs. 13-14 of Xu et al. (2003).

    Parameters
    ----------
    normalization : {"max", "min", "arithmetic", "geometric", "joint"}
        Divide MI by max(H(C), H(C')) (the papers' choice), by the minimum,
        the arithmetic or geometric mean of the two entropies, or the joint
        entropy. Two trivial partitions (one block each) score 1.

    Examples
    --------
    >>> round(nmi([0, 0, 1, 1], [1, 1, 0, 0]), 6)
    1.0
    >>> round(nmi([0, 0, 1, 1], [0, 1, 0, 1]), 6)
    0.0
    """
    C, _, _, t, p = _table(y_true, y_pred)
    if normalization not in ("max", "min", "arithmetic", "geometric", "joint"):
        raise ValueError(f"unknown normalization {normalization!r}; use one of "
                         "['arithmetic', 'geometric', 'joint', 'max', 'min']")
    pxy = C / C.sum()
    hx, hy = _entropy(pxy.sum(axis=1)), _entropy(pxy.sum(axis=0))
    if normalization != "joint":
        # scikit-learn's computation; the entropies above only decide the trivial cases
        denom = {"max": max(hx, hy), "min": min(hx, hy), "arithmetic": (hx + hy) / 2,
                 "geometric": np.sqrt(hx * hy)}[normalization]
        if denom <= 0:
            return 1.0 if hx == hy else 0.0
        # on the codes: the labels as confusion_matrix reads them
        score = normalized_mutual_info_score(t, p, average_method=normalization)
        return float(max(0.0, min(1.0, score)))
    hxy = _entropy(pxy.ravel())   # MI / H(C, C'), which scikit-learn does not offer
    if hxy <= 0:
        return 1.0
    return float(max(0.0, min(1.0, (hx + hy - hxy) / hxy)))


def purity(y_true: Sequence, y_pred: Sequence) -> float:
    """Purity (Wang, Tang & Liu 2011, eq. 18): each cluster counts its majority class.

    Examples
    --------
    >>> purity(["a", "a", "b", "b"], [0, 0, 0, 1])
    0.75
    """
    C, _, _ = confusion_matrix(y_true, y_pred)
    return float(C.max(axis=0).sum() / C.sum())


#: How :func:`nmi` normalizes, as the papers do: by max(H(C), H(C')). scikit-learn's
#: normalized_mutual_info_score divides by their arithmetic mean by default, which gives more.
NMI_NORMALIZATION = "max"


def score_all(y_true: Sequence, y_pred: Sequence) -> dict[str, float]:
    """Accuracy, NMI (max-normalized) and purity in one dictionary."""
    return {
        "accuracy": clustering_accuracy(y_true, y_pred),
        "nmi": nmi(y_true, y_pred),
        "purity": purity(y_true, y_pred),
    }
