"""K-means after a linear projection: LSI (truncated SVD) and PCA (centred SVD)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.decomposition import PCA, TruncatedSVD

from .._estimator import store_params
from ._common import (
    MEMBERSHIP_ATTRIBUTES,
    EmbeddingKMeans,
    NearestCentre,
    int_seed,
    no_variance,
    pca_solver,
)

__all__ = ["LSIClustering", "PCAClustering"]

_PARAMETERS = """
    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``.
    n_components : int or None
        Dimension of the projection; None means ``n_clusters``. Capped at
        ``min(n_docs, n_terms)``.
    n_init, max_iter, tol : int, int, float
        K-means restarts (the lowest objective is kept), Lloyd iterations
        per restart and scikit-learn's centre-shift tolerance.
    random_state : None, int or numpy Generator
        Seeds the ARPACK start vector and the k-means starts.
    verbose : int
        Log the kept restart at INFO level when > 0.
"""


class _ProjectedKMeans(NearestCentre, EmbeddingKMeans):
    """K-means on a linear projection ``E = (X - 1 m^T) V`` learnt on the fitted documents."""

    _placement_state = ("n_features_in_", "cluster_centers_", "centroids_", "components_",
                        "mean_", "n_components_")

    def __init__(self, n_clusters: int = 8, *, n_components: int | None = None, n_init: int = 10,
                 max_iter: int = 300, tol: float = 1e-4, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        super()._check_params(n_docs)
        c = self.n_components
        if c is not None and (isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 1):
            raise ValueError(f"n_components must be None or a positive integer, got {c!r}")

    def _n_components(self, X) -> int:
        wanted = self.n_clusters if self.n_components is None else self.n_components
        return min(int(wanted), min(X.shape))

    def _projected(self, X) -> np.ndarray:
        """The fitted documents projected as new ones are (:meth:`_embed_new`), after the
        directions of a zero singular value (below NumPy's rank tolerance, ``s_max max(shape)
        eps``) are set to 0. The solver's own ``U S`` gave copies of a document rows that
        differed by rounding (1e-16, and beyond the matrix's rank a direction of noise), which
        changed from process to process: k-means split identical documents at random, the same
        seed giving other clusters. A product row by row gives copies the same row."""
        s = np.asarray(self.singular_values_, dtype=np.float64)
        null = s <= (s.max(initial=0.0) * max(X.shape) * np.finfo(np.float64).eps)
        if null.any():
            self.components_ = np.array(self.components_, dtype=np.float64)
            self.components_[null] = 0.0
        self.embedding_ = self._embed_new(X)
        return self.embedding_

    def _embed_new(self, X) -> np.ndarray:
        """New documents projected as the fitted ones were: ``(X - 1 m^T) V_r``."""
        E = np.asarray(X @ self.components_.T)
        return E - self.mean_ @ self.components_.T


class LSIClustering(_ProjectedKMeans):
    __doc__ = """Latent semantic indexing followed by k-means (LSI + KM).

    ``X`` (documents as rows; the papers' terms x documents matrix
    transposed) is reduced by a truncated SVD, ``X ~ U_r S_r V_r^T``, and
    k-means runs on the document coordinates ``E = X V_r = U_r S_r``. This
    is the LSI baseline of Xu et al. (2003), Sections 2 and 3.3; with
    ``n_components = k`` and inner-product similarity its relaxed criterion
    is that of AA (Zha et al.). The SVD is scikit-learn's
    :class:`~sklearn.decomposition.TruncatedSVD` on ``X`` as given, sparse
    kept sparse: ARPACK when ``n_components < min(X.shape)``, otherwise the
    randomized solver, which is exact once it spans the whole row space.
""" + _PARAMETERS + """
""" + MEMBERSHIP_ATTRIBUTES + """    embedding_ : ndarray of shape (n_docs, n_components_)
        ``U_r S_r``, the documents in the latent semantic space.
    components_ : ndarray of shape (n_components_, n_terms)
        ``V_r^T``: the latent semantic directions over terms.
    singular_values_ : ndarray of shape (n_components_,)
    mean_ : ndarray of shape (n_terms,)
        Zeros: LSI does not centre.
    n_components_ : int
    cluster_centers_ : ndarray of shape (n_clusters, n_components_)
    centroids_ : ndarray of shape (n_clusters, n_terms)
        Mean document of each cluster; the source of keywords.
    objective_ : float
        K-means objective in the latent space.
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
    factorization, SIGIR 2003, Sections 2, 3.3 and 4.3.
    Deerwester et al., Indexing by latent semantic analysis, JASIS 1990.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = LSIClustering(n_clusters=2, random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    >>> bool(np.all(model.predict(X) == model.labels_))
    True
    """

    def _embed(self, X, rng):
        r = self._n_components(X)
        if X.shape[1] == 1:     # one term: the column is its own SVD (TruncatedSVD needs two)
            column = np.asarray(X.toarray() if sp.issparse(X) else X, dtype=np.float64)
            self.embedding_, self.components_ = column, np.ones((1, 1))
            self.singular_values_ = np.array([np.linalg.norm(column)])
        else:
            algorithm = "arpack" if r < min(X.shape) else "randomized"
            svd = TruncatedSVD(r, algorithm=algorithm, random_state=int_seed(rng))
            # one document, or documents all alike: the explained variance ratio (not used)
            # is 0 / 0
            with np.errstate(invalid="ignore", divide="ignore"):
                self.embedding_ = svd.fit_transform(X)
            self.components_ = svd.components_
            self.singular_values_ = svd.singular_values_
        self.mean_ = np.zeros(X.shape[1])
        self.n_components_ = r
        return self._projected(X), None


class PCAClustering(_ProjectedKMeans):
    __doc__ = """Principal component analysis followed by k-means (PCA + KM).

    ``X`` (documents as rows; the papers' terms x documents matrix
    transposed) is centred, ``X - 1 m^T`` with ``m`` the mean document, and
    k-means runs on its leading principal component scores
    ``E = (X - 1 m^T) V_r = U_r S_r``. The SVD is scikit-learn's
    :class:`~sklearn.decomposition.PCA`; for sparse ``X`` its ARPACK solver
    centres implicitly (products with ``X`` and ``m`` only), so the matrix
    is never densified. Only when ``n_components`` reaches ``min(X.shape)``,
    where ARPACK does not apply, is the full problem solved densely: through
    the n_terms x n_terms covariance if terms are the smaller side,
    otherwise on a dense copy of ``X`` (then at most ``n_components`` rows).
""" + _PARAMETERS + """
""" + MEMBERSHIP_ATTRIBUTES + """    embedding_ : ndarray of shape (n_docs, n_components_)
        Principal component scores.
    components_ : ndarray of shape (n_components_, n_terms)
        Principal axes.
    singular_values_ : ndarray of shape (n_components_,)
    mean_ : ndarray of shape (n_terms,)
        The mean document ``m``.
    n_components_ : int
    cluster_centers_ : ndarray of shape (n_clusters, n_components_)
    centroids_ : ndarray of shape (n_clusters, n_terms)
        Mean document of each cluster; the source of keywords.
    objective_ : float
        K-means objective in the principal subspace.
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
    Ding & He, K-means clustering via principal component analysis, ICML 2004.
    Xu, Liu & Gong, Document clustering based on non-negative matrix
    factorization, SIGIR 2003, Section 2 (k-means after a projection).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = PCAClustering(n_clusters=2, random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    """

    def _embed(self, X, rng):
        r = self._n_components(X)
        if X.shape[0] > 1 and no_variance(X):   # centred, X is 0: ARPACK stops at a zero start
            raise ValueError(f"{type(self).__name__}: all {X.shape[0]} documents are the same "
                             "vector, so their principal components are undefined")
        X, solver = pca_solver(X, r)
        pca = PCA(r, svd_solver=solver, random_state=int_seed(rng))
        with np.errstate(invalid="ignore", divide="ignore"):   # one document: as LSI's
            self.embedding_ = pca.fit_transform(X)
        self.components_ = pca.components_
        self.singular_values_ = pca.singular_values_
        self.mean_ = pca.mean_
        self.n_components_ = r
        return self._projected(X), None
