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

The k-means rules keep their centres: a document's memberships are read from
its squared distances to them (:func:`rule_memberships`), for the fitted
documents and for new ones alike, so the largest membership is the label and
a new document goes where the rule would have put it.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linear_sum_assignment
from sklearn.cluster import KMeans
from sklearn.metrics import euclidean_distances

from .._estimator import distance_memberships, memberships_from

__all__ = ["LABEL_RULES", "LabelRule", "constrained_spherical_kmeans", "labels_from_factor",
           "rule_memberships"]

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


def _renaming(labels: np.ndarray, argmax: np.ndarray, k: int) -> np.ndarray:
    """The new number of each cluster of ``labels``: the column whose argmax cluster it
    overlaps most (a matching)."""
    overlap = np.zeros((k, k))
    np.add.at(overlap, (labels, argmax), 1)
    rows, cols = linear_sum_assignment(overlap, maximize=True)
    rename = np.empty(k, dtype=np.int64)
    rename[rows] = cols
    return rename


def _aligned(labels: np.ndarray, argmax: np.ndarray, k: int) -> np.ndarray:
    """``labels`` renumbered so that cluster ``c`` overlaps column ``c``'s argmax cluster most."""
    return _renaming(labels, argmax, k)[labels]


def _label_space(V: np.ndarray, rule: str, X=None):
    """The coordinates ``rule`` runs k-means in: ``V``, its unit rows, or the unit rows of ``X``."""
    if rule == "kmeans":
        return V
    if rule == "skmeans":
        return _unit_rows(V)
    if X is None:
        raise ValueError("labels='refine' needs the documents X")
    return _unit_rows(X)


def rule_memberships(V: np.ndarray, rule: str, centres: np.ndarray | None, X=None) -> np.ndarray:
    """Memberships of documents with factor ``V`` (and terms ``X``) by ``rule``'s centres.

    ``centres`` as :func:`labels_from_factor` returns them; ``None`` (argmax)
    gives the rows of ``V`` scaled to sum to one. Otherwise fuzzy c-means
    memberships of the squared distances to the centres in the rule's
    coordinates (:func:`~docnmf._estimator.distance_memberships`): the
    largest is the nearest centre.

    Examples
    --------
    >>> V = np.array([[3.0, 1.0], [0.1, 0.2]])
    >>> rule_memberships(V, "argmax", None).tolist()
    [[0.75, 0.25], [0.3333333333333333, 0.6666666666666666]]
    >>> rule_memberships(V, "skmeans", np.array([[1.0, 0.0], [0.0, 1.0]])).argmax(axis=1).tolist()
    [0, 1]
    """
    if centres is None:
        return memberships_from(V)
    return distance_memberships(euclidean_distances(_label_space(V, rule, X), centres,
                                                    squared=True))


def labels_from_factor(V: np.ndarray, rule: str, rng: np.random.Generator, *, X=None,
                       n_init: int = 10) -> tuple[np.ndarray, np.ndarray | None]:
    """Cluster labels of the documents from their factor ``V`` by ``rule`` (see the module),
    and the centres that place documents by it (:func:`rule_memberships`).

    ``X`` (documents x terms) is needed by ``"refine"``. Clusters argmax
    leaves empty are filled by k-means' own rule (the farthest documents).
    The centres (``None`` for argmax) are numbered as the labels, in the
    rule's coordinates: ``V``, its unit rows, or the unit rows of ``X``.

    Examples
    --------
    >>> V = np.array([[2.0, 1.9], [1.9, 2.0], [1.0, 0.1], [0.9, 0.0]])
    >>> labels, centres = labels_from_factor(V, "argmax", np.random.default_rng(0))
    >>> labels.tolist(), centres
    ([0, 1, 0, 0], None)
    >>> lab, centres = labels_from_factor(V, "skmeans", np.random.default_rng(0))
    >>> bool(lab[0] == lab[1] != lab[2] == lab[3]), centres.shape
    (True, (2, 2))
    """
    k = V.shape[1]
    argmax = np.argmax(V, axis=1).astype(np.int64)
    if rule == "argmax":
        return argmax, None
    if rule not in LABEL_RULES:
        raise ValueError(f"labels must be one of {LABEL_RULES}, got {rule!r}")
    seed = int(rng.integers(np.iinfo(np.int32).max))
    E = _label_space(V, rule, X)
    if rule == "refine":
        centers = np.zeros((k, E.shape[1]))
        present = np.unique(argmax)
        for c in present:
            centers[c] = np.asarray(E[argmax == c].mean(axis=0)).ravel()
        if len(present) < k:
            # an empty argmax cluster starts from the documents farthest from their centre
            sims = np.asarray((E.multiply(centers[argmax]) if sp.issparse(E)
                               else E * centers[argmax]).sum(axis=1)).ravel()
            far = np.argsort(sims, kind="stable")
            for c, i in zip(sorted(set(range(k)) - set(present.tolist())), far):
                centers[c] = np.asarray(E[i].todense() if sp.issparse(E) else E[i]).ravel()
        km = KMeans(k, init=centers, n_init=1, random_state=seed).fit(E)
    else:
        km = KMeans(k, n_init=n_init, random_state=seed).fit(E)
    rename = _renaming(km.labels_, argmax, k)
    centres = np.empty_like(km.cluster_centers_)
    centres[rename] = km.cluster_centers_
    return rename[km.labels_], centres


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
