"""Pieces shared by the baseline estimators: the k-means step, truncated SVD, cluster summaries.

Every baseline ends the same way: k-means (scikit-learn's, ``n_init``
restarts keeping the lowest objective) on some representation of the
documents, followed by cluster means in the original term space for
keywords. :class:`EmbeddingKMeans` holds that shared ``fit``; the
subclasses only say how the documents are represented.
"""

from __future__ import annotations

import logging
from typing import Literal

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import svds
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.metrics import euclidean_distances
from sklearn.utils.validation import check_is_fitted, check_non_negative, validate_data

from .._estimator import (DocumentClusterer, check_fit_input, check_n_clusters, check_new_input,
                          check_numbers, check_positive_ints, cluster_means,
                          distance_memberships, kmeans_restarts)
from .._rng import as_generator

__all__ = ["MEMBERSHIP_ATTRIBUTES", "Weighting", "EmbeddingKMeans", "NearestCentre",
           "check_n_clusters",
           "scale_rows", "int_seed", "top_left_singular_vectors", "cluster_means", "one_hot",
           "kmeans_restarts", "no_variance", "pca_solver"]

logger = logging.getLogger(__name__)

Weighting = Literal["none", "ncw"]

#: The start of every baseline's list of fitted attributes (its docstring goes on from here).
MEMBERSHIP_ATTRIBUTES = """
    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        Soft memberships read from the squared distances by which documents
        are assigned (fuzzy c-means with m = 2,
        :func:`~docnmf._estimator.distance_memberships`); the largest is the
        label.
"""


def scale_rows(X, s: np.ndarray):
    """``diag(s) @ X``, kept sparse for sparse ``X``.

    Examples
    --------
    >>> scale_rows(np.ones((2, 2)), np.array([1.0, 3.0])).tolist()
    [[1.0, 1.0], [3.0, 3.0]]
    """
    if sp.issparse(X):
        return sp.csr_matrix(sp.diags(s) @ X)
    return X * s[:, None]


def int_seed(rng: np.random.Generator) -> int:
    """An int seed drawn from ``rng``, for scikit-learn and ARPACK."""
    return int(rng.integers(np.iinfo(np.int32).max))


def top_left_singular_vectors(A, k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The ``r = min(k, min(A.shape))`` leading left singular vectors of ``A`` and their values.

    These are the top eigenvectors of ``A A^T`` with eigenvalues ``s**2``,
    found without forming ``A A^T``: ARPACK (``scipy.sparse.linalg.svds``)
    works with products by ``A`` and ``A^T`` only, started from a ``v0``
    drawn from ``rng`` so that the result is reproducible. Problems whose
    smaller side is at most ``2 r + 1`` go to LAPACK on a dense copy of
    ``A`` instead (ARPACK needs ``r < min(A.shape)`` and is unreliable so
    close to it); that copy has at most ``(2 r + 1) * max(A.shape)`` entries,
    no more than a few embeddings' worth.

    Columns are sorted by decreasing singular value and their signs fixed
    so that each column's largest-magnitude entry is positive.

    Returns
    -------
    U : ndarray of shape (A.shape[0], r)
    s : ndarray of shape (r,)

    Examples
    --------
    >>> U, s = top_left_singular_vectors(np.diag([1.0, 3.0, 2.0]), 2, np.random.default_rng(0))
    >>> s.round(6).tolist(), np.abs(U).round(6).tolist()
    ([3.0, 2.0], [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    """
    r = min(int(k), min(A.shape))
    if min(A.shape) <= 2 * r + 1:
        dense = A.toarray() if sp.issparse(A) else np.asarray(A)
        U, s, _ = np.linalg.svd(dense, full_matrices=False)
        U, s = U[:, :r], s[:r]
    else:
        v0 = rng.uniform(-1.0, 1.0, min(A.shape))
        U, s, _ = svds(A, k=r, v0=v0, solver="arpack")
        order = np.argsort(-s, kind="stable")
        U, s = U[:, order], s[order]
    rows = np.argmax(np.abs(U), axis=0)
    signs = np.sign(U[rows, np.arange(U.shape[1])])
    signs[signs == 0] = 1.0
    return U * signs, s


def pca_solver(X, r: int):
    """``X`` and the scikit-learn PCA solver for ``r`` components of it.

    Sparse input is centred implicitly: ARPACK for fewer components than
    ``min(X.shape)``, the covariance's eigenvectors for a tall matrix; all
    components of a short, wide sparse matrix come from a dense copy of it
    (``r`` rows at most).
    """
    if r < min(X.shape):
        return X, "arpack"
    if not sp.issparse(X):
        return X, "full"
    if X.shape[1] <= X.shape[0]:
        return X, "covariance_eigh"
    return X.toarray(), "full"


def no_variance(X) -> bool:
    """Whether every column of ``X`` (dense or sparse) is constant: the documents are all one
    vector.

    Examples
    --------
    >>> no_variance(sp.csr_matrix([[1.0, 2.0], [1.0, 2.0]])), no_variance(np.eye(2))
    (True, False)
    """
    if sp.issparse(X):
        from sklearn.utils.sparsefuncs import mean_variance_axis

        return bool(np.all(mean_variance_axis(sp.csr_matrix(X), axis=0)[1] == 0))
    return bool(np.all(np.ptp(np.asarray(X), axis=0) == 0))


def one_hot(labels: np.ndarray, n_clusters: int) -> np.ndarray:
    """Hard memberships: row ``i`` is the indicator of cluster ``labels[i]``.

    Examples
    --------
    >>> one_hot(np.array([1, 0]), 2).tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    return np.eye(n_clusters)[labels]


class EmbeddingKMeans(DocumentClusterer, ClusterMixin, BaseEstimator):
    """Shared ``fit`` of the baselines: represent the documents, then run k-means.

    Subclasses implement ``_embed(X, rng) -> (E, sample_weight)`` and may
    override ``_positive_only`` and ``_after_fit``. They must have the
    parameters ``n_clusters, n_init, max_iter, tol, random_state, verbose``.

    Fitted attributes common to all baselines: ``labels_``,
    ``memberships_`` (from the distances to the k-means centres), ``cluster_centers_``
    (k-means centres in the space k-means ran in), ``centroids_`` (unweighted mean of the
    rows of ``X`` in each cluster, in term space), ``objective_`` (the
    k-means objective the restarts minimised, weighted where weights are
    used), ``restart_objectives_`` (every k-means restart's) and ``n_iter_``
    (Lloyd iterations of the kept restart).
    """

    _keyword_attribute = "centroids_"
    _kmeans_warns_fewer_clusters = True

    def _positive_only(self) -> bool:
        return False

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        check_positive_ints(self, "n_init", "max_iter")
        check_numbers(self, "tol")

    def _embed(self, X, rng: np.random.Generator):
        raise NotImplementedError

    def _after_fit(self, X) -> None:
        """Extra fitted attributes that need the final labels."""

    def fit(self, X, y=None):
        """Cluster the documents ``X`` of shape (n_docs, n_terms), dense or CSR."""
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        if self._positive_only():
            check_non_negative(X, f"{type(self).__name__} (input X)")
        X = check_fit_input(self, X)
        self._check_params(X.shape[0])
        rng = as_generator(self.random_state)
        E, sample_weight = self._embed(X, rng)
        k = int(self.n_clusters)
        km, self.restart_objectives_ = kmeans_restarts(
            E, k, n_init=int(self.n_init), max_iter=int(self.max_iter), tol=float(self.tol),
            seed=int_seed(rng), sample_weight=sample_weight, name=type(self).__name__)
        self.labels_ = km.labels_.astype(np.int64)
        self.memberships_ = distance_memberships(km.transform(E) ** 2)
        self.cluster_centers_ = km.cluster_centers_
        self.centroids_ = cluster_means(X, self.labels_, k)
        self.objective_ = float(km.inertia_)
        self.n_iter_ = int(km.n_iter_)
        if self.verbose:
            logger.info("%s: best of %d k-means restarts has objective %.6g after %d iterations",
                        type(self).__name__, self.n_init, self.objective_, self.n_iter_)
        self._after_fit(X)
        return self


class NearestCentre:
    """``predict`` and ``predict_memberships`` for estimators that can embed new documents.

    A subclass defines ``_embed_new(X)``, the new documents in the space
    its k-means ran in; a new document goes to the nearest of
    ``cluster_centers_`` and its memberships are read from the squared
    distances to them, as the fitted documents' are.
    """

    def _embed_new(self, X):
        raise NotImplementedError

    def _centre_sq_distances(self, X) -> np.ndarray:
        check_is_fitted(self, "cluster_centers_")
        X = check_new_input(self, X)
        return euclidean_distances(self._embed_new(X), self.cluster_centers_, squared=True)

    def predict(self, X):
        """Cluster of each new document: the nearest cluster centre."""
        return np.argmin(self._centre_sq_distances(X), axis=1).astype(np.int64)

    def predict_memberships(self, X):
        """Soft memberships of new documents, read from their distances to the centres."""
        return distance_memberships(self._centre_sq_distances(X))
