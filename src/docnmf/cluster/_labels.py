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

__all__ = ["LABEL_RULES", "LabelRule", "constrained_spherical_kmeans", "labels_from_factor"]

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


def constrained_spherical_kmeans(E, k: int, group: np.ndarray, group_cannot: np.ndarray,
                                 init_labels: np.ndarray, *, penalty: float = 1.0,
                                 max_iter: int = 50) -> np.ndarray:
    """Spherical k-means over must-link groups with a price on every broken cannot-link.

    The rows of ``E`` (documents; unit length after scaling) are gathered
    into their must-link groups (``group``: a code per document, as
    :class:`~docnmf.constraints.Constraints` keeps it), which move between
    clusters as one: no must-link is ever broken. Each pass visits the
    groups, largest first, and puts each where the similarity of its members
    to the cluster's mean direction, less ``penalty`` for every cannot-link
    (``group_cannot``: pairs of group codes) it would break there, is
    largest (iterated conditional modes, as PCK-means; Basu, Banerjee &
    Mooney 2004); the means are then recomputed. ``group_cannot`` holds one
    row per cannot-link (the group codes of its two documents), so a
    cluster pays for every document pair it would hold together. Starts from the majority
    of ``init_labels`` in each group; stops when no group moves.

    Examples
    --------
    >>> E = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9], [0.2, 0.8]])
    >>> group = np.array([0, 1, 2, 3, 1])      # documents 1 and 4 must go together
    >>> constrained_spherical_kmeans(E, 2, group, np.empty((0, 2), int),
    ...                              np.array([0, 0, 1, 1, 1])).tolist()
    [0, 0, 1, 1, 0]
    >>> cannot = np.array([[0, 1]])            # ... and apart from document 0
    >>> constrained_spherical_kmeans(E, 2, group, cannot, np.array([0, 0, 1, 1, 1])).tolist()
    [0, 1, 1, 1, 1]
    """
    E = _unit_rows(E)
    group = np.asarray(group, dtype=np.intp)
    m = int(group.max(initial=-1)) + 1
    S = sp.csr_matrix((np.ones(len(group)), (group, np.arange(len(group)))),
                      shape=(m, len(group)))
    P = np.asarray(S @ E) if not sp.issparse(E) else (S @ E).tocsr()
    sizes = np.asarray(S.sum(axis=1)).ravel()
    votes = np.zeros((m, k))
    np.add.at(votes, (group, np.asarray(init_labels)), 1)
    labels = np.argmax(votes, axis=1)
    partners: list[list[int]] = [[] for _ in range(m)]
    for a, b in np.asarray(group_cannot, dtype=np.intp).reshape(-1, 2):
        partners[a].append(b)
        partners[b].append(a)
    order = np.argsort(-sizes, kind="stable")
    # a group with no cannot-link goes to its most similar centre whatever the others do, so
    # only the groups with one are visited one by one (in the same order as before)
    linked = order[[bool(partners[a]) for a in order]]
    free = np.array([not partners[a] for a in range(m)], dtype=bool)
    for _ in range(int(max_iter)):
        sums = np.zeros((k, P.shape[1]))
        for c in range(k):
            members = labels == c
            if members.any():
                sums[c] = np.asarray(P[members].sum(axis=0)).ravel()
        norms = np.linalg.norm(sums, axis=1, keepdims=True)
        centres = np.divide(sums, norms, out=np.zeros_like(sums), where=norms > 0)
        sims = np.asarray(P @ centres.T)
        best = np.argmax(sims[free], axis=1)
        moved = int(np.sum(best != labels[free]))
        labels[free] = best
        for a in linked:
            cost = -sims[a].copy()
            for b in partners[a]:
                cost[labels[b]] += penalty
            best = int(np.argmin(cost))
            if best != labels[a]:
                labels[a] = best
                moved += 1
        if not moved:
            break
    return labels[group].astype(np.int64)
