"""K-means on the documents (KM) and its normalized-cut weighted form (KM-NCW)."""

from __future__ import annotations

import numpy as np

from .._estimator import store_params
from ..text.weighting import ncw_weights
from ._common import MEMBERSHIP_ATTRIBUTES, EmbeddingKMeans, NearestCentre, Weighting

__all__ = ["KMeansClustering"]


class KMeansClustering(NearestCentre, EmbeddingKMeans):
    __doc__ = """
    K-means on the rows of ``X`` (KM), optionally weighted by ``gamma_i = 1 / d_ii`` (KM-NCW).

    ``X`` holds documents as rows (the papers write its transpose, terms x
    documents). KM minimises the sum of squared distances of the documents
    to their cluster means. KM-NCW minimises the weighted criterion of
    Xu et al. (2003), Appendix A, eq. 19,
    ``J = sum_k sum_{i in C_k} gamma_i ||x_i - mu_k||^2`` with weighted
    means ``mu_k`` (eq. 20) and ``gamma_i = 1 / d_ii``,
    ``D = diag(X X^T e)``. The degrees are computed as ``X (X^T e)``,
    never forming the n x n similarity matrix. This is scikit-learn's
    k-means with ``sample_weight=gamma``: its centres are the weighted
    means of eq. 20 and its ``inertia_`` is ``J``; by eqs. 21-24 the
    relaxed problem is the normalized-cut eigenproblem.

    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``.
    weighting : {"none", "ncw"}
        KM or KM-NCW.
    n_init : int
        K-means restarts (k-means++ starts); the lowest objective is kept.
    max_iter : int
        Lloyd iterations per restart.
    tol : float
        scikit-learn's k-means tolerance on the centre shift.
    random_state : None, int or numpy Generator
    verbose : int
        Log the kept restart at INFO level when > 0.

""" + MEMBERSHIP_ATTRIBUTES + """    cluster_centers_ : ndarray of shape (n_clusters, n_terms)
        K-means centres (weighted means, eq. 20, for KM-NCW).
    centroids_ : ndarray of shape (n_clusters, n_terms)
        Unweighted mean document of each cluster; the source of keywords.
    sample_weight_ : ndarray of shape (n_docs,)
        ``gamma`` for KM-NCW, ones for KM.
    objective_ : float
        The (weighted) sum of squared errors, eq. 19.
    n_iter_ : int
    restart_objectives_ : ndarray of shape (n_init,)
        Every k-means restart's objective, in order; the kept restart's is ``objective_``.
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Xu, Liu & Gong, Document clustering based on non-negative matrix
    factorization, SIGIR 2003, Appendix A, eqs. 19-24.
    Cai, He & Han, Locally consistent concept factorization for document
    clustering, IEEE TKDE 2011, Section 4.3 (KM and KM-NCW baselines).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = KMeansClustering(n_clusters=2, weighting="ncw", random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    >>> model.top_keywords(["a", "b", "c", "d"], 1)[model.labels_[0]]
    ['a']
    """

    _placement_state = ("n_features_in_", "cluster_centers_", "centroids_")

    def __init__(self, n_clusters: int = 8, *, weighting: Weighting = "none", n_init: int = 10,
                 max_iter: int = 300, tol: float = 1e-4, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _positive_only(self) -> bool:
        # degrees d = X X^T e are only meaningful similarities for non-negative data
        return self.weighting == "ncw"

    def _check_params(self, n_docs: int) -> None:
        super()._check_params(n_docs)
        if self.weighting not in ("none", "ncw"):
            raise ValueError(f"weighting must be 'none' or 'ncw', got {self.weighting!r}")

    def _embed(self, X, rng):
        if self.weighting == "ncw":
            self.sample_weight_ = ncw_weights(X)
        else:
            self.sample_weight_ = np.ones(X.shape[0])
        return X, self.sample_weight_

    def _embed_new(self, X):
        # k-means ran on the documents themselves; weights do not change assignment
        return X
