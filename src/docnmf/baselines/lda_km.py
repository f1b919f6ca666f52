"""LDA-Km (Ding & Li 2007): k-means and linear discriminant analysis choosing each other's input.

K-means needs a subspace where the clusters separate; LDA needs cluster
labels to find such a subspace. LDA-Km alternates the two: k-means in a
(k-1)-dimensional subspace gives labels, Fisher's LDA with those labels
gives the next subspace, starting from the principal subspace, until the
labels stop changing.
"""

from __future__ import annotations

import logging
import warnings

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.cluster import KMeans
from sklearn.decomposition import PCA
from sklearn.metrics import euclidean_distances
from sklearn.utils.validation import validate_data

from .._estimator import (DocumentClusterer, FewerClustersWarning, _caller_outside_docnmf,
                          best_restart, check_fit_input, check_n_clusters, check_numbers,
                          check_positive_ints, distance_memberships, fit_restarts, store_params)
from .._rng import as_generator
from ._common import (MEMBERSHIP_ATTRIBUTES, NearestCentre, cluster_means, int_seed, no_variance,
                      pca_solver)

__all__ = ["lda_subspace", "within_scatter", "LDAKMeansClustering"]

logger = logging.getLogger(__name__)

#: Lloyd iterations of each k-means step.
_KMEANS_MAX_ITER = 300


def _scatter_matrices(Z: np.ndarray, labels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Between-cluster and total scatter ``S_b, S_t`` of the centred rows of ``Z``, divided by n."""
    n = Z.shape[0]
    counts = np.bincount(labels, minlength=k).astype(np.float64)
    sums = np.zeros((k, Z.shape[1]))
    np.add.at(sums, labels, Z)
    means = np.divide(sums, counts[:, None], out=np.zeros_like(sums), where=counts[:, None] > 0)
    mean = Z.mean(axis=0)
    centred = means - mean
    S_b = (centred * counts[:, None]).T @ centred / n
    Zc = Z - mean
    S_t = Zc.T @ Zc / n
    return S_b, S_t


def lda_subspace(Z, labels, n_components: int, reg: float = 0.0) -> np.ndarray:
    """Fisher's discriminant directions of ``Z`` for the partition ``labels``.

    The ``n_components`` leading generalized eigenvectors of
    ``S_b w = lambda S_t w`` (``S_t = S_b + S_w``; the same vectors as
    ``S_b w = lambda' S_w w`` with ``lambda' = lambda / (1 - lambda)``),
    scaled so that ``W^T S_t W = I``. They maximise
    ``Tr[(W^T S_t W)^{-1} W^T S_b W]`` (the LDA criterion of Ding & Li 2007
    in its total scatter form) and so minimise ``Tr(W^T S_w W)`` among ``S_t``-orthonormal
    bases. ``reg`` adds ``reg * trace(S_t) / d`` to the diagonal of ``S_t``
    for data whose total scatter is singular.

    Parameters
    ----------
    Z : ndarray of shape (n, d)
    labels : ndarray of shape (n,)
    n_components : int
        At most ``d``.
    reg : float

    Returns
    -------
    W : ndarray of shape (d, n_components)

    Examples
    --------
    >>> Z = np.array([[0.0, 0.0], [0.0, 2.0], [4.0, 0.0], [4.0, 2.0]])
    >>> W = lda_subspace(Z, np.array([0, 0, 1, 1]), 1)
    >>> np.abs(W.ravel() * 2).round(6).tolist()   # the first axis, S_t-normalised
    [1.0, 0.0]
    """
    Z = np.asarray(Z, dtype=np.float64)
    labels = np.asarray(labels)
    d = Z.shape[1]
    S_b, S_t = _scatter_matrices(Z, labels, int(labels.max()) + 1)
    if reg > 0:
        S_t = S_t + reg * np.trace(S_t) / d * np.eye(d)
    _, W = scipy.linalg.eigh(S_b, S_t, subset_by_index=(d - n_components, d - 1))
    W = W[:, ::-1]
    rows = np.argmax(np.abs(W), axis=0)
    signs = np.sign(W[rows, np.arange(W.shape[1])])
    signs[signs == 0] = 1.0
    return W * signs


def within_scatter(Y: np.ndarray, labels: np.ndarray) -> float:
    """``Tr(S_w)`` of the rows of ``Y``: the k-means objective divided by n.

    Examples
    --------
    >>> within_scatter(np.array([[0.0], [2.0], [10.0]]), np.array([0, 0, 1]))   # (1 + 1) / 3
    0.6666666666666666
    """
    labels = np.asarray(labels)
    k = int(labels.max()) + 1
    means = cluster_means(Y, labels, k)
    return float(np.sum((Y - means[labels]) ** 2) / Y.shape[0])


def _principal_coordinates(X, r: int, rng: np.random.Generator) -> PCA:
    """A fitted PCA with ``r`` components; sparse input is centred implicitly (ARPACK)."""
    if no_variance(X):
        # documents all alike centre to zero, where ARPACK stops (its start vector is zero);
        # any r + 1 of them have the same mean and no variance, and the full SVD takes them
        X, solver = (X[:r + 1].toarray() if sp.issparse(X) else X[:r + 1]), "full"
    else:
        X, solver = pca_solver(X, r)
    # documents all alike have no variance: the explained variance ratio (not used) is 0 / 0
    with np.errstate(invalid="ignore", divide="ignore"):
        return PCA(r, svd_solver=solver, random_state=int_seed(rng)).fit(X)


#: Within-cluster scatter (out of k - 1, with W^T S_t W = I) at which LDA has separated the
#: clusters completely.
_SEPARATED = 1e-9


class LDAKMeansClustering(NearestCentre, DocumentClusterer, ClusterMixin, BaseEstimator):
    __doc__ = """LDA-Km: k-means in a discriminant subspace chosen by LDA on k-means' own labels.

    Ding & Li (2007) maximise ``J(W, H) = Tr[(W^T S_w W)^{-1} W^T S_b W]``
    over the projection ``W`` (d x (k-1)) and the cluster labels ``H`` by
    alternating

    (a) k-means on the projected documents ``W^T x_i`` (new ``H``, ``W`` fixed);
    (b) LDA with the labels ``H``: the leading generalized eigenvectors of
        ``S_b w = lambda S_w w`` (new ``W``, ``H`` fixed; :func:`lda_subspace`),

    starting from the principal subspace (PCA-Km, Ding & He 2004) and
    stopping when the labels do not change or after ``max_iter`` rounds.

    What is done here, and why:

    * Scatter matrices of 1000 terms are singular for a few hundred
      documents (and LDA on them overfits any partition), so the documents
      are first reduced to their top ``r`` principal components,
      ``r = min(n_components, n_docs - 1, n_terms)``, components with
      numerically zero variance dropped; LDA-Km then runs in those
      coordinates. ``X`` (documents as rows; the paper's matrix transposed)
      stays sparse: scikit-learn's ARPACK PCA centres it implicitly.
    * LDA's directions are scaled so that ``W^T S_t W = I``. For fixed
      ``W``, k-means then minimises ``Tr(W^T S_w W) = (k - 1) - Tr(W^T S_b W)``,
      and step (b) minimises the same quantity for fixed labels, so with
      step (a) started from the current clusters' means the within-cluster
      scatter ``Tr(W^T S_w W)`` (``loss_history_``) never increases.
    * Each of the ``n_init`` restarts begins with k-means++ in the first
      ``k - 1`` principal component scores (unscaled, as PCA-Km); its later
      k-means steps start from the current clusters. The restart with the
      lowest final ``Tr(W^T S_w W)`` is kept.

    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``; the subspaces have ``k - 1`` dimensions
        (at most ``r``).
    n_components : int
        Principal components ``r`` LDA works in (capped as above).
    reg : float
        Ridge ``reg * trace(S_t) / r`` added to ``S_t`` before LDA.
    n_init : int
        Restarts; the lowest within-cluster scatter is kept.
    max_iter : int
        Rounds of (a) and (b) per restart.
    tol : float
        scikit-learn's k-means tolerance on the centre shift.
    random_state : None, int or numpy Generator
    verbose : int

""" + MEMBERSHIP_ATTRIBUTES + """    components_ : ndarray of shape (n_dims, n_terms)
        The discriminant directions in term space (``W`` composed with the
        principal axes); ``embedding_ = (X - mean_) @ components_.T``.
    embedding_ : ndarray of shape (n_docs, n_dims)
        The documents in the final subspace, where k-means ran.
    mean_ : ndarray of shape (n_terms,)
    n_components_ : int
        Principal components used (``r``).
    cluster_centers_ : ndarray of shape (n_clusters, n_dims)
    centroids_ : ndarray of shape (n_clusters, n_terms)
        Mean document of each cluster; the source of keywords.
    objective_ : float
        ``Tr(W^T S_w W)`` of the kept restart, with ``W^T S_t W = I``.
    loss_history_ : ndarray
        That quantity after every k-means and every LDA step of the kept restart.
    restart_objectives_ : ndarray of shape (n_init,)
    n_iter_ : int
        Rounds of the kept restart.
    converged_ : bool
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Ding & Li, Adaptive dimension reduction using discriminant analysis and
    K-means clustering, ICML 2007 (the LDA-Km framework).
    Ding & He, K-means clustering via principal component analysis, ICML 2004.
    Wang, Ding & Li, Feature subset non-negative matrix factorization and
    its applications to document understanding, SIGIR 2010, Table 2.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> labels = LDAKMeansClustering(2, random_state=0).fit_predict(X)
    >>> bool(labels[0] == labels[1] != labels[2] == labels[3])
    True
    """

    #: its labels are k-means' (scikit-learn's, in the subspace), which warns of fewer clusters
    _kmeans_warns_fewer_clusters = True
    _placement_state = ("n_features_in_", "cluster_centers_", "centroids_", "components_",
                        "mean_", "n_components_")

    def __init__(self, n_clusters: int = 8, *, n_components: int = 100, reg: float = 0.0,
                 n_init: int = 10, max_iter: int = 50, tol: float = 1e-4, random_state=None,
                 verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        check_positive_ints(self, "n_components", "n_init", "max_iter")
        check_numbers(self, "reg", finite=True)   # S_t + inf I: numpy's 'must not contain infs'
        check_numbers(self, "tol")

    def _kmeans(self, Y, k, init, seed):
        km = KMeans(k, init=init, n_init=1, max_iter=_KMEANS_MAX_ITER, tol=float(self.tol),
                    random_state=seed).fit(Y)
        return km.labels_.astype(np.intp)

    def _run(self, Z, k, dims, rng):
        """One restart: PCA-Km, then rounds of LDA and warm-started k-means."""
        labels = self._kmeans(Z[:, :dims], k, "k-means++", int_seed(rng))
        # the principal subspace, S_t-orthonormal like every later subspace
        W = np.eye(Z.shape[1])[:, :dims] / Z[:, :dims].std(axis=0)
        history = [within_scatter(Z @ W, labels)]
        converged, n_iter = False, 0
        for n_iter in range(1, int(self.max_iter) + 1):
            W = lda_subspace(Z, labels, dims, float(self.reg))  # (b)
            Y = Z @ W
            history.append(within_scatter(Y, labels))
            centres = cluster_means(Y, labels, k)
            new = self._kmeans(Y, k, centres, int_seed(rng))  # (a), from the current clusters
            history.append(within_scatter(Y, new))
            if np.array_equal(new, labels):
                converged = True
                break
            labels = new
        return labels, W, history, n_iter, converged

    def fit(self, X, y=None):
        """Cluster the documents ``X`` of shape (n_docs, n_terms), dense or CSR."""
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        X = check_fit_input(self, X)
        self._check_params(X.shape[0])
        k = int(self.n_clusters)
        rng = as_generator(self.random_state)
        r = max(1, min(int(self.n_components), X.shape[0] - 1, X.shape[1]))
        pca = _principal_coordinates(X, r, rng)
        keep = pca.explained_variance_ > pca.explained_variance_[0] * 1e-10 \
            if pca.explained_variance_[0] > 0 and not no_variance(X) else np.zeros(r, dtype=bool)
        if not keep.any() or k == 1:  # no variance to discriminate, or nothing to separate
            self._set_fitted(X, pca, np.zeros((pca.n_components_, 1)), np.zeros(X.shape[0], int),
                             [0.0], 0, True, np.zeros(1), k)
            if k > 1:   # no k-means ran to warn of it
                warnings.warn(f"{type(self).__name__} put the documents in 1 of the {k} clusters "
                              "asked, the others left empty: the documents are all the same "
                              "vector, with no variance to discriminate", FewerClustersWarning,
                              stacklevel=_caller_outside_docnmf())
            return self
        Z = pca.transform(X)[:, keep]
        dims = min(k - 1, Z.shape[1])
        best, objectives = best_restart(
            fit_restarts(lambda child: self._run(Z, k, dims, child), rng, int(self.n_init)),
            key=lambda run: run[2][-1])
        labels, W, history, n_iter, converged = best
        W_full = np.zeros((pca.n_components_, W.shape[1]))
        W_full[keep] = W
        self._set_fitted(X, pca, W_full, labels, history, n_iter, converged,
                         np.asarray(objectives), k)
        if Z.shape[1] > X.shape[0] - k and self.objective_ <= _SEPARATED * (k - 1):
            # LDA in nearly as many dimensions as documents parts any partition cleanly: the
            # loop stopped after one round, at PCA-Km's k-means, and the restarts tied at ~1e-30
            warnings.warn(f"LDA-Km: in {Z.shape[1]} principal components of {X.shape[0]} "
                          f"documents LDA separates any partition into {k} clusters "
                          f"(within-cluster scatter {self.objective_:.1g}), so the clusters are "
                          f"PCA-Km's first k-means; LDAKMeansClustering's n_components (in "
                          f"Python) below {X.shape[0] - k}, the documents less the clusters, "
                          f"leaves LDA a choice", UserWarning,
                          stacklevel=_caller_outside_docnmf())
        if self.verbose:
            logger.info("LDA-Km: best of %d restarts has within-cluster scatter %.6g after %d "
                        "round%s", self.n_init, self.objective_, self.n_iter_,
                        "s" * (self.n_iter_ != 1))
        return self

    def _set_fitted(self, X, pca, W, labels, history, n_iter, converged, objectives, k):
        self.n_components_ = int(pca.n_components_)
        self.mean_ = pca.mean_
        self.components_ = W.T @ pca.components_
        self.embedding_ = pca.transform(X) @ W
        self.labels_ = np.asarray(labels, dtype=np.int64)
        self.cluster_centers_ = cluster_means(self.embedding_, self.labels_, k)
        self.memberships_ = distance_memberships(
            euclidean_distances(self.embedding_, self.cluster_centers_, squared=True))
        self.centroids_ = cluster_means(X, self.labels_, k)
        self.loss_history_ = np.asarray(history, dtype=np.float64)
        self.objective_ = float(self.loss_history_[-1])
        self.restart_objectives_ = objectives
        self.n_iter_ = int(n_iter)
        self.converged_ = bool(converged)

    def _embed_new(self, X) -> np.ndarray:
        """New documents in the discriminant subspace, projected as the fitted ones were."""
        return np.asarray(X @ self.components_.T) - self.mean_ @ self.components_.T

    _keyword_attribute = "centroids_"

    def _positive_only(self) -> bool:
        return False
