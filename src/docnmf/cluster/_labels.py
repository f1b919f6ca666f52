"""How labels are read from a fitted document factor ``V`` (documents x k).

``"argmax"``
    Each document to its largest coordinate (Xu, Liu & Gong 2003).
``"kmeans"``
    k-means (``n_init`` restarts) on the rows of ``V`` as they are (how Cai
    et al. label concept factorizations).
``"skmeans"``
    Spherical k-means on the document factor: k-means on the rows of ``V``
    scaled to unit length, so a document is placed by the mix of its topics,
    not by its length.
``"refine"``
    Spherical k-means on the documents themselves (unit rows of ``X``),
    started from the centroids of the argmax clusters: the factorization
    gives the start, k-means moves the documents it placed badly.

Clusters found by k-means are numbered after the factor's columns they share
most documents with (a matching on the k x k overlap), so cluster ``c`` is
still described by topic ``c`` (``components_``, keywords).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linear_sum_assignment
from sklearn.cluster import KMeans

__all__ = ["LABEL_RULES", "LabelRule", "labels_from_factor"]

LabelRule = Literal["argmax", "kmeans", "skmeans", "refine"]
LABEL_RULES: tuple[str, ...] = ("argmax", "kmeans", "skmeans", "refine")


def _unit_rows(A):
    if sp.issparse(A):
        norms = np.sqrt(np.asarray(A.multiply(A).sum(axis=1)).ravel())
        scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
        return sp.csr_matrix(sp.diags(scale) @ A)
    A = np.asarray(A, dtype=np.float64)
    norms = np.linalg.norm(A, axis=1, keepdims=True)
    return np.divide(A, norms, out=np.zeros_like(A), where=norms > 0)


def _aligned(labels: np.ndarray, argmax: np.ndarray, k: int) -> np.ndarray:
    """``labels`` renumbered so that cluster ``c`` overlaps column ``c``'s argmax cluster most."""
    overlap = np.zeros((k, k))
    np.add.at(overlap, (labels, argmax), 1)
    rows, cols = linear_sum_assignment(overlap, maximize=True)
    rename = np.empty(k, dtype=np.int64)
    rename[rows] = cols
    return rename[labels]


def labels_from_factor(V: np.ndarray, rule: str, rng: np.random.Generator, *, X=None,
                       n_init: int = 10) -> np.ndarray:
    """Cluster labels of the documents from their factor ``V`` by ``rule`` (see the module).

    ``X`` (documents x terms) is needed by ``"refine"``. Clusters argmax
    leaves empty are filled by k-means' own rule (the farthest documents).

    Examples
    --------
    >>> V = np.array([[2.0, 1.9], [1.9, 2.0], [1.0, 0.1], [0.9, 0.0]])
    >>> labels_from_factor(V, "argmax", np.random.default_rng(0)).tolist()
    [0, 1, 0, 0]
    >>> lab = labels_from_factor(V, "skmeans", np.random.default_rng(0))
    >>> bool(lab[0] == lab[1] != lab[2] == lab[3])
    True
    """
    k = V.shape[1]
    argmax = np.argmax(V, axis=1).astype(np.int64)
    if rule == "argmax":
        return argmax
    seed = int(rng.integers(np.iinfo(np.int32).max))
    if rule in ("kmeans", "skmeans"):
        E = _unit_rows(V) if rule == "skmeans" else V
        return _aligned(KMeans(k, n_init=n_init, random_state=seed).fit_predict(E), argmax, k)
    if rule == "refine":
        if X is None:
            raise ValueError("labels='refine' needs the documents X")
        Xu = _unit_rows(X)
        centers = np.zeros((k, Xu.shape[1]))
        present = np.unique(argmax)
        for c in present:
            centers[c] = np.asarray(Xu[argmax == c].mean(axis=0)).ravel()
        if len(present) < k:
            # an empty argmax cluster starts from the documents farthest from their centre
            sims = np.asarray((Xu.multiply(centers[argmax]) if sp.issparse(Xu)
                               else Xu * centers[argmax]).sum(axis=1)).ravel()
            far = np.argsort(sims, kind="stable")
            for c, i in zip(sorted(set(range(k)) - set(present.tolist())), far):
                centers[c] = np.asarray(Xu[i].todense() if sp.issparse(Xu) else Xu[i]).ravel()
        km = KMeans(k, init=centers, n_init=1, random_state=seed)
        return _aligned(km.fit_predict(Xu), argmax, k)
    raise ValueError(f"labels must be one of {LABEL_RULES}, got {rule!r}")
