"""Criteria for the number of clusters that need no labels: consensus of restarts, stability of
topic vectors, silhouettes. Pure functions of labels and factors."""

from __future__ import annotations

import numpy as np
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.optimize import linear_sum_assignment
from scipy.spatial.distance import squareform

__all__ = ["consensus_matrix", "cophenetic_correlation", "match_topics", "topic_stability"]


def consensus_matrix(labelings: list[np.ndarray]) -> np.ndarray:
    """Share of the labelings that put each pair of documents in the same cluster, (n, n).

    Examples
    --------
    >>> consensus_matrix([np.array([0, 0, 1]), np.array([1, 0, 0])]).tolist()
    [[1.0, 0.5, 0.0], [0.5, 1.0, 0.5], [0.0, 0.5, 1.0]]
    """
    n = len(labelings[0])
    C = np.zeros((n, n))
    for labels in labelings:
        labels = np.asarray(labels)
        C += labels[:, None] == labels[None, :]
    return C / len(labelings)


def cophenetic_correlation(C: np.ndarray) -> float:
    """Brunet et al.'s dispersion measure: the correlation of ``1 - C`` with the cophenetic
    distances of its average-linkage tree; 1 for a consensus matrix of zeros and ones.

    References
    ----------
    Brunet, Tamayo, Golub & Mesirov, Metagenes and molecular pattern
    discovery using matrix factorization, PNAS 2004.

    Examples
    --------
    >>> C = consensus_matrix([np.array([0, 0, 1, 1])] * 3)
    >>> round(cophenetic_correlation(C), 6)
    1.0
    """
    D = squareform(1.0 - C, checks=False)
    if np.ptp(D) == 0:
        return 1.0
    coef, _ = cophenet(linkage(D, method="average"), D)
    return float(coef)


def match_topics(topics: list[np.ndarray], n_iter: int = 10) -> np.ndarray:
    """Group the topics of several runs so that each group holds one topic of every run.

    ``topics[r]`` is run ``r``'s (k, n_terms) topic matrix. Runs are matched
    one to one (Hungarian algorithm on cosine similarity) to centroids that
    start as run 0's topics and are updated as the groups' normalised means,
    as NMFk clusters its perturbed solutions. Returns the group of each
    topic, shape (runs, k).

    References
    ----------
    Alexandrov and Vesselinov's NMFk, as implemented in Los Alamos's pyDNMFk
    (custom clustering with one topic of each run per cluster).
    """
    T = [_unit_rows(t) for t in topics]
    k = T[0].shape[0]
    groups = np.tile(np.arange(k), (len(T), 1))
    centroids = T[0]
    for _ in range(n_iter):
        new = np.empty_like(groups)
        for r, t in enumerate(T):
            rows, cols = linear_sum_assignment(-(t @ centroids.T))
            new[r, rows] = cols
        sums = np.zeros_like(centroids)
        for r, t in enumerate(T):
            np.add.at(sums, new[r], t)
        centroids = _unit_rows(sums)
        if np.array_equal(new, groups):
            break
        groups = new
    return groups


def topic_stability(topics: list[np.ndarray]) -> tuple[float, float]:
    """Silhouette (cosine) of the runs' topic vectors grouped by :func:`match_topics`:
    the lowest of the groups' mean silhouettes and the mean over all topics.

    Near 1 when every run finds the same k topics; lower when some topic is
    split or merged differently from run to run (NMFk's criterion: the
    largest k whose groups all stay tight).

    Examples
    --------
    >>> t = np.array([[1.0, 0, 0], [0, 1, 0]])
    >>> [round(v, 2) for v in topic_stability([t, t[::-1] * 2, t + 0.01])]
    [1.0, 1.0]
    """
    k = topics[0].shape[0]
    if k < 2:
        return 1.0, 1.0
    groups = match_topics(topics).ravel()
    V = np.vstack([_unit_rows(t) for t in topics])
    D = np.clip(1.0 - V @ V.T, 0.0, 2.0)
    np.fill_diagonal(D, 0.0)
    sil = _silhouette_samples(D, groups, k)
    per_group = np.array([sil[groups == g].mean() for g in range(k)])
    return float(per_group.min()), float(sil.mean())


def _silhouette_samples(D: np.ndarray, labels: np.ndarray, k: int) -> np.ndarray:
    """Silhouette of each point from a distance matrix (singleton groups score 0)."""
    n = len(labels)
    onehot = np.zeros((n, k))
    onehot[np.arange(n), labels] = 1.0
    sizes = onehot.sum(axis=0)
    mean_to = D @ onehot / np.maximum(sizes, 1.0)          # mean distance to each group
    own = sizes[labels]
    a = mean_to[np.arange(n), labels] * own / np.maximum(own - 1, 1.0)   # leave self out
    mean_to[np.arange(n), labels] = np.inf
    mean_to[:, sizes == 0] = np.inf
    b = mean_to.min(axis=1)
    s = (b - a) / np.maximum(np.maximum(a, b), 1e-12)
    s[own <= 1] = 0.0
    return s


def _unit_rows(A: np.ndarray) -> np.ndarray:
    A = np.asarray(A, dtype=np.float64)
    norms = np.linalg.norm(A, axis=1, keepdims=True)
    return np.divide(A, norms, out=np.zeros_like(A), where=norms > 0)
