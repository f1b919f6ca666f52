"""FS-NMF clustering with feature weights (Wang, Ding & Li 2010) as a scikit-learn estimator."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, check_non_negative, validate_data

from .._rng import as_generator
from ..factor.fsnmf import feature_residuals, fit_fsnmf, solve_g
from ..factor.nmf import random_init
from ._common import best_of_restarts, memberships_from, top_terms

__all__ = ["FSNMFClustering", "rank_features"]

logger = logging.getLogger(__name__)


def rank_features(weights: np.ndarray, residuals: np.ndarray) -> np.ndarray:
    """Feature indices from the most to the least weighted.

    Eq. 2 makes the weight a decreasing function of the residual, so the
    order is by increasing residual; this also orders the features whose
    weight underflowed to 0 (or that lost all weight to exactly fitted
    features). Features with weight 0 and no data (all-zero columns) come last.

    Examples
    --------
    >>> rank_features(np.array([0.2, 0.0, 0.5, 0.0]), np.array([2.0, 0.0, 1.0, 9.0])).tolist()
    [2, 0, 3, 1]
    """
    residuals = np.asarray(residuals, dtype=np.float64)
    empty = (np.asarray(weights) == 0) & (residuals == 0)
    key = np.where(empty, np.inf, residuals)
    return np.argsort(key, kind="stable")


class FSNMFClustering(ClusterMixin, TransformerMixin, BaseEstimator):
    """Cluster documents and weight their features by feature-subset NMF (FS-NMF).

    ``X`` (documents as rows) is factorised as ``X ~ G F^T`` under the
    feature-weighted norm of eq. 1, alternating eqs. 3, 4 and 2 (see
    :mod:`docnmf.factor.fsnmf`); document ``i`` goes to cluster ``argmax_k
    G_ik`` and the diagonal weights ``W`` rank the features (terms).

    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``.
    alpha : float in (0, 1)
        Exponent of the constraint ``sum_j W_j^alpha = 1`` (the paper uses 0.7).
    n_init : int
        Restarts from independent random starts; the lowest final objective is kept.
    max_iter : int
        Maximum (G, F, W) rounds per restart.
    tol : float
        Relative objective decrease below which a restart stops.
    random_state : None, int or numpy Generator
    verbose : int
        Log one line per restart at INFO level when > 0.

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        Rows of ``G`` scaled to sum to one.
    embedding_ : ndarray of shape (n_docs, n_clusters)
        ``G``, scaled so that the columns of ``F`` have unit length.
    components_ : ndarray of shape (n_clusters, n_features)
        ``F^T``: each row a unit-length cluster centroid over the features.
    feature_weights_ : ndarray of shape (n_features,)
        The diagonal of ``W``; ``sum(feature_weights_ ** alpha) == 1``.
    feature_residuals_ : ndarray of shape (n_features,)
        Each feature's squared residual ``b_j``, from which eq. 2 computes the weight.
    feature_ranking_ : ndarray of shape (n_features,)
        Feature indices from the highest weight down (see :func:`rank_features`).
    loss_history_ : ndarray
        Objective (eq. 1) per round of the kept restart.
    restart_losses_ : ndarray of shape (n_init,)
    n_iter_ : int
    objective_ : float

    Notes
    -----
    Eq. 1 is bounded below by 0 and that bound is reached trivially: give one
    feature all the weight and fit that single column exactly with ``G F^T``.
    The alternating updates move towards such solutions, because eq. 2 gives
    more weight to better-fitted features (``W_j ~ b_j^(-1/(1-alpha))``, a
    power of -3.3 at alpha = 0.7) and the next ``G, F`` steps then fit those
    features better still. On real text (CSTR, 475 x 1000) all the weight
    sits on one term within about 20 rounds and the objective is exactly 0.
    The weights and labels after convergence therefore describe that
    degenerate fit; ``max_iter`` bounds how far the run goes.

    References
    ----------
    D. Wang, C. Ding & T. Li, Feature subset non-negative matrix factorization
    and its applications to document understanding, SIGIR 2010, Section 2.

    Examples
    --------
    >>> X = np.array([[3, 1, 0, 0, 1], [2, 2, 0, 0, 1], [0, 0, 1, 3, 1], [0, 0, 2, 2, 1.]])
    >>> model = FSNMFClustering(n_clusters=2, max_iter=20, random_state=0).fit(X)
    >>> model.feature_weights_.shape, round(float(np.sum(model.feature_weights_ ** 0.7)), 9)
    ((5,), 1.0)
    """

    def __init__(self, n_clusters: int = 8, *, alpha: float = 0.7, n_init: int = 10,
                 max_iter: int = 300, tol: float = 1e-5, random_state=None, verbose: int = 0):
        self.n_clusters = n_clusters
        self.alpha = alpha
        self.n_init = n_init
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state
        self.verbose = verbose

    def _validate_params(self, n_docs: int) -> None:
        if not isinstance(self.n_clusters, (int, np.integer)) or self.n_clusters < 1:
            raise ValueError(f"n_clusters must be a positive integer, got {self.n_clusters!r}")
        if self.n_clusters > n_docs:
            raise ValueError(f"n_clusters={self.n_clusters} is larger than the {n_docs} documents")
        if not 0.0 < float(self.alpha) < 1.0:
            raise ValueError(f"alpha must lie in (0, 1), got {self.alpha!r}")
        if int(self.n_init) < 1 or int(self.max_iter) < 1:
            raise ValueError("n_init and max_iter must be at least 1")

    def fit(self, X, y=None):
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        check_non_negative(X, f"{type(self).__name__} (input X)")
        self._validate_params(X.shape[0])
        rng = as_generator(self.random_state)
        best, losses = best_of_restarts(
            lambda child: fit_fsnmf(X, *random_init(X, self.n_clusters, child),
                                    alpha=float(self.alpha), max_iter=int(self.max_iter),
                                    tol=float(self.tol)),
            rng, int(self.n_init), name="FS-NMF", tol=self.tol, max_iter=self.max_iter,
            verbose=self.verbose)
        self.components_ = best.F.T.copy()
        self.embedding_ = best.G
        self.memberships_ = memberships_from(best.G)
        self.labels_ = np.argmax(best.G, axis=1)
        self.feature_weights_ = best.w
        self.feature_residuals_ = feature_residuals(X, best.F, best.G)
        self.feature_ranking_ = rank_features(best.w, self.feature_residuals_)
        self.loss_history_ = best.losses
        self.objective_ = float(best.losses[-1])
        self.restart_losses_ = losses
        self.n_iter_ = best.n_iter
        return self

    def fit_transform(self, X, y=None):
        return self.fit(X).memberships_

    def transform(self, X):
        """Soft memberships of new documents with ``F`` and ``W`` held fixed (eq. 3 alone)."""
        check_is_fitted(self, "components_")
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False)
        check_non_negative(X, f"{type(self).__name__}.transform (input X)")
        G0 = np.full((X.shape[0], self.n_clusters), 1.0 / self.n_clusters)
        return memberships_from(solve_g(X, self.components_.T, self.feature_weights_, G0))

    def predict(self, X):
        """Cluster of each new document: the argmax of its memberships."""
        return np.argmax(self.transform(X), axis=1)

    def top_keywords(self, feature_names: Sequence[str], n: int = 10) -> list[list[str]]:
        """The ``n`` features with the largest entries in each cluster's centroid (column of F)."""
        check_is_fitted(self, "components_")
        return top_terms(self.components_, feature_names, n)

    def collection_keywords(self, feature_names: Sequence[str], n: int = 10) -> list[str]:
        """The ``n`` highest-weighted features of the whole collection (the diagonal of W)."""
        check_is_fitted(self, "feature_ranking_")
        names = np.asarray(feature_names, dtype=object)
        if len(names) != self.feature_weights_.shape[0]:
            raise ValueError(f"{len(names)} feature names for {self.feature_weights_.shape[0]} "
                             "features")
        return [str(names[j]) for j in self.feature_ranking_[:n]]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.positive_only = True
        return tags
