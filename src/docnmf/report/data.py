"""What the HTML report shows beyond the CSV files, computed from arrays: map, similarities,
distinguishing terms, snippets, and the membership matrix cut to a few hundred rows."""

from __future__ import annotations

import re

import numpy as np
import scipy.sparse as sp

__all__ = ["MAP_MAX_DOCUMENTS", "cluster_centroids", "map_sample", "map_layout", "cluster_similarity",
           "distinguishing_terms", "snippet", "membership_bands"]

#: Documents placed on the 2-D map at most; larger corpora are sampled by cluster.
MAP_MAX_DOCUMENTS = 1000


def map_sample(labels: np.ndarray, rng: np.random.Generator,
               max_documents: int = MAP_MAX_DOCUMENTS) -> np.ndarray:
    """Sorted indices of at most about ``max_documents`` documents, each cluster by its share.

    Every cluster keeps ``ceil(max_documents * size / n)`` of its documents
    (at least one), drawn without replacement, so small clusters stay visible.

    Examples
    --------
    >>> labels = np.repeat([0, 1], [90, 10])
    >>> s = map_sample(labels, np.random.default_rng(0), 20)
    >>> len(s), int((labels[s] == 1).sum())
    (20, 2)
    """
    n = len(labels)
    if n <= max_documents:
        return np.arange(n)
    keep = []
    for c in np.unique(labels):
        members = np.flatnonzero(labels == c)
        quota = max(1, int(np.ceil(max_documents * len(members) / n)))
        keep.append(rng.choice(members, size=min(quota, len(members)), replace=False))
    return np.sort(np.concatenate(keep))


def map_layout(factor: np.ndarray, random_state: int = 0) -> tuple[np.ndarray, str]:
    """2-D coordinates of the rows of a document factor, and the method's name.

    t-SNE (scikit-learn, PCA start, fixed seed) of the rows scaled to sum to
    one; PCA when there are too few documents for t-SNE's perplexity. Run on
    one thread: on a shared two-core machine t-SNE's threads fought the other
    work and took ten times longer.
    """
    from sklearn.decomposition import PCA
    from sklearn.manifold import TSNE
    from threadpoolctl import threadpool_limits

    Z = np.asarray(factor, dtype=np.float64)
    Z = np.where(np.isfinite(Z), Z, 0.0)    # t-SNE's native code crashes on NaN
    peaks = np.abs(Z).max(axis=1, keepdims=True, initial=0.0)
    Z = np.divide(Z, peaks, out=np.zeros_like(Z), where=peaks > 0)   # no overflow in the sums
    sums = Z.sum(axis=1, keepdims=True)
    Z = np.divide(Z, sums, out=np.full_like(Z, 1.0 / max(Z.shape[1], 1)), where=sums > 0)
    n = Z.shape[0]
    if n < 3:
        return np.zeros((n, 2)), "none (fewer than 3 documents)"
    if np.ptp(Z, axis=0).max() <= 1e-12:
        # no spread: t-SNE's PCA start would divide by zero and its native code then crash
        return np.zeros((n, 2)), "none (all documents have the same memberships)"
    with threadpool_limits(1):
        if n < 12:
            dims = min(2, Z.shape[1], n)
            Y = PCA(n_components=dims, random_state=random_state).fit_transform(Z)
            Y = np.hstack([Y, np.zeros((n, 2 - dims))])
            return Y, "PCA of the document memberships"
        perplexity = float(min(30.0, (n - 1) / 3.0))
        Y = TSNE(n_components=2, perplexity=perplexity, init="pca", max_iter=500,
                 random_state=random_state).fit_transform(Z)
    return Y, f"t-SNE of the document memberships (perplexity {perplexity:.3g})"


def cluster_centroids(X, labels: np.ndarray, k: int) -> np.ndarray:
    """Mean row (document) of each cluster, (k, n_terms); an empty cluster's is zero, and
    unassigned documents (label -1) are in none."""
    n = X.shape[0]
    labels = np.asarray(labels)
    placed = np.flatnonzero(labels >= 0)
    onehot = sp.csr_matrix((np.ones(placed.size), (labels[placed], placed)), shape=(k, n))
    sizes = np.asarray(onehot.sum(axis=1)).ravel()
    sums = np.asarray((onehot @ X).todense()) if sp.issparse(X) else onehot @ np.asarray(X)
    return sums / np.maximum(sizes, 1)[:, None]


def cluster_similarity(X, labels: np.ndarray, k: int) -> np.ndarray:
    """Cosine similarity of the clusters' mean documents, (k, k).

    Examples
    --------
    >>> X = np.array([[1.0, 0, 0], [1, 0, 0], [0, 1, 1], [1, 1, 0]])
    >>> cluster_similarity(X, np.array([0, 0, 1, 2]), 3).round(2).tolist()
    [[1.0, 0.0, 0.71], [0.0, 1.0, 0.5], [0.71, 0.5, 1.0]]
    """
    C = cluster_centroids(X, labels, k)
    norms = np.linalg.norm(C, axis=1)
    C = np.divide(C, norms[:, None], out=np.zeros_like(C), where=norms[:, None] > 0)
    return C @ C.T


def distinguishing_terms(X, labels: np.ndarray, k: int, n: int = 10
                         ) -> list[list[tuple[int, float, float]]]:
    """Each cluster's terms whose mean weight most exceeds their mean weight in the other clusters.

    Returns, per cluster, up to ``n`` tuples ``(column, mean inside, mean outside)``
    with a positive difference, largest first.

    Examples
    --------
    >>> X = np.array([[2.0, 1, 0], [2, 1, 0], [0, 1, 3]])
    >>> distinguishing_terms(X, np.array([0, 0, 1]), 2, 2)
    [[(0, 2.0, 0.0)], [(2, 3.0, 0.0)]]
    """
    C = cluster_centroids(X, labels, k)
    sizes = np.bincount(labels, minlength=k).astype(np.float64)
    total = C.T @ sizes
    out = []
    for c in range(k):
        rest = max(sizes.sum() - sizes[c], 1.0)
        outside = (total - C[c] * sizes[c]) / rest
        diff = C[c] - outside
        order = np.argsort(-diff, kind="stable")[:n]
        out.append([(int(j), float(C[c, j]), float(outside[j])) for j in order if diff[j] > 0])
    return out


def snippet(text: str | None, length: int = 200) -> str:
    """The start of ``text`` on one line, cut at a word boundary near ``length`` characters.

    Examples
    --------
    >>> snippet("Stars  and\\n galaxies are far away.", 15)
    'Stars and …'
    """
    if not text:
        return ""
    head = 4 * length + 100
    flat = re.sub(r"\s+", " ", text[:head]).strip()
    while len(flat) <= length and head < len(text):    # the start was mostly blank: read on
        head *= 4
        flat = re.sub(r"\s+", " ", text[:head]).strip()
    if len(flat) <= length:
        return flat
    cut = flat.rfind(" ", 0, length)
    return flat[:cut if cut > length // 2 else length].rstrip() + " …"


def membership_bands(memberships: np.ndarray, labels: np.ndarray, max_rows: int = 400
                     ) -> tuple[np.ndarray, np.ndarray]:
    """The document x cluster memberships, rows ordered by cluster then strength, in bands.

    Rows are sorted by assigned cluster and, within it, by decreasing
    membership; then consecutive rows are averaged in at most ``max_rows``
    bands. Returns the band matrix (bands, k) and each band's cluster (that of its
    first row).

    Examples
    --------
    >>> M = np.array([[0.2, 0.8], [0.9, 0.1], [0.6, 0.4]])
    >>> bands, clusters = membership_bands(M, np.array([1, 0, 0]))
    >>> bands.tolist(), clusters.tolist()
    ([[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]], [0, 0, 1])
    """
    M = np.asarray(memberships, dtype=np.float64)
    n = M.shape[0]
    strength = M[np.arange(n), labels]
    order = np.lexsort((-strength, labels))
    edges = np.linspace(0, n, min(n, max_rows) + 1).astype(int)
    starts = edges[:-1]
    bands = np.add.reduceat(M[order], starts, axis=0) / np.diff(edges)[:, None]
    return bands, labels[order][starts]
