"""Semi-supervised baselines of the SS-NMF paper: SS-KK and SS-SNC, with pairwise constraints.

Both add a constraint matrix ``W`` to a similarity: ``W_ij = +reward`` for a
must-link pair and ``-penalty`` for a cannot-link pair (must-links make two
documents more similar, cannot-links less; the signs of Kulis et al.'s
``K = S + W``). Both form dense n x n matrices, which suits the paper's
data sets (a few hundred documents) and nothing much larger.
"""

from __future__ import annotations

import logging
from typing import Literal

import numpy as np
import scipy.sparse as sp
from scipy.linalg import eigh
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils.validation import check_non_negative, validate_data

from .._estimator import (DocumentClusterer, check_fit_input, check_n_clusters, check_numbers,
                          check_positive_ints, distance_memberships, fit_constraints,
                          store_params, warn_broken_pairs)
from .._rng import as_generator
from ..constraints import Constraints, constrained_pairs
from ._common import int_seed, kmeans_restarts, one_hot
from .kernel_kmeans import (Kernel, kernel_kmeans, kernel_kmeans_objective, kernel_matrix,
                            kernel_memberships)

__all__ = ["constraint_matrix", "SSKernelKMeansClustering", "SSNormalizedCutClustering",
           "farthest_first_labels"]

logger = logging.getLogger(__name__)


def constraint_matrix(n: int, must_link: np.ndarray, cannot_link: np.ndarray, reward: float,
                      penalty: float) -> sp.csr_matrix:
    """Symmetric ``W`` with ``+reward`` at must-link pairs and ``-penalty`` at cannot-link pairs.

    Examples
    --------
    >>> constraint_matrix(3, np.array([[0, 1]]), np.array([[1, 2]]), 2.0, 1.0).toarray().tolist()
    [[0.0, 2.0, 0.0], [2.0, 0.0, -1.0], [0.0, -1.0, 0.0]]
    """
    ml = np.asarray(must_link, dtype=np.intp).reshape(-1, 2)
    cl = np.asarray(cannot_link, dtype=np.intp).reshape(-1, 2)
    i = np.concatenate([ml[:, 0], ml[:, 1], cl[:, 0], cl[:, 1]])
    j = np.concatenate([ml[:, 1], ml[:, 0], cl[:, 1], cl[:, 0]])
    v = np.concatenate([np.full(2 * len(ml), float(reward)), np.full(2 * len(cl), -float(penalty))])
    return sp.csr_matrix((v, (i, j)), shape=(n, n))


class _SemiSupervised(DocumentClusterer):
    """What the semi-supervised baselines share: their checks; keywords from mean documents."""

    _keyword_attribute = None   # no term weights: the pipeline uses the clusters' mean documents

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        check_positive_ints(self, "n_init", "max_iter")
        check_numbers(self, "reward", "penalty", optional=True, finite=True)


def farthest_first_labels(K: np.ndarray, constraints: Constraints, k: int) -> np.ndarray | None:
    """SS-KK's start (Kulis et al. 2005): farthest-first over the must-link neighbourhoods.

    The must-link groups are the neighbourhoods. The largest is the first
    centre; further centres are the groups farthest (in feature space,
    between group means) from the chosen ones; when there are fewer than
    ``k`` groups the remaining centres are single documents chosen the same
    way. Every document then joins its nearest centre. Returns None when
    there are no must-link groups.
    """
    groups = sorted(constraints.groups(), key=len, reverse=True)
    if not groups:
        return None
    n = K.shape[0]
    diag = np.diag(K)
    M = np.zeros((n, len(groups)))
    for g, members in enumerate(groups):
        M[members, g] = 1.0 / len(members)
    KM = K @ M
    MKM = M.T @ KM
    self_sim = np.diag(MKM)
    between = self_sim[:, None] + self_sim[None, :] - 2.0 * MKM
    chosen = [0]
    while len(chosen) < min(k, len(groups)):
        gap = between[:, chosen].min(axis=1)
        gap[chosen] = -np.inf
        chosen.append(int(np.argmax(gap)))
    # squared distance of every document to every chosen centre
    D = diag[:, None] - 2.0 * KM[:, chosen] + self_sim[chosen][None, :]
    in_groups = np.zeros(n, dtype=bool)
    for g in chosen:
        in_groups[groups[g]] = True
    while D.shape[1] < k:
        gap = D.min(axis=1)
        gap[in_groups] = -np.inf
        i = int(np.argmax(gap))
        in_groups[i] = True
        D = np.column_stack([D, diag - 2.0 * K[:, i] + K[i, i]])
    return np.argmin(D, axis=1)


class SSKernelKMeansClustering(_SemiSupervised, ClusterMixin, BaseEstimator):
    """SS-KK: semi-supervised kernel k-means (Kulis, Basu, Dhillon & Mooney 2005).

    The kernel ``K`` of the documents is combined with the constraint matrix,
    ``K~ = K + W`` (:func:`constraint_matrix`), the diagonal is shifted by
    ``sigma = max(0, -lambda_min(K~))`` so that ``sigma I + K~`` is positive
    semi-definite (Kulis et al.; the shift changes every partition's
    objective by the same ``sigma (n - k)``, and makes the local search
    monotone), and kernel k-means runs on the result. The shift does change
    the search: a document is ``sigma (1/|c| + 1/|c'|)`` nearer its own
    cluster ``c`` than another ``c'``, and where ``sigma`` exceeds the
    kernel's diagonal (1 for the Gaussian kernel; sigma was 1.4-5.6 on
    subsets of TDT2 and CSTR with a few hundred pairs) few documents move from
    where a start put them, so the result stays near its start and its
    objective above what a search on the unshifted ``K~`` reaches. With
    unit weights this minimises the k-means distortion minus the rewards of
    satisfied must-links plus the penalties of violated cannot-links, each
    counted twice (``W`` is symmetric: pair ``(i, j)`` is both ``W_ij`` and
    ``W_ji``) and divided by the size of its cluster (Kulis et al.'s
    ratio-association form; the SS-NMF paper's eq. 18 without the sizes,
    each pair once). The first start is
    farthest-first over the must-link groups (:func:`farthest_first_labels`),
    the others k-means++; the lowest objective is kept.

    Dense n x n kernel: for collections of a few thousand documents at most.

    Parameters
    ----------
    n_clusters : int
    kernel : {"gaussian", "linear", "poly2", "precomputed"} or callable
        The SS-NMF paper uses a Gaussian kernel (see
        :class:`~docnmf.baselines.kernel_kmeans.KernelKMeansClustering` on its width).
    gamma : float, optional
        Gaussian ``gamma``; default the median heuristic.
    reward, penalty : float, optional
        Constraint weights; default the largest kernel entry (1 for the Gaussian kernel).
    closure : bool
        Apply the pairs the constraints imply, or only those given.
    n_init, max_iter : int
    random_state : None, int or numpy Generator
    verbose : int

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        From the squared distances to the cluster means in the shifted feature space.
    objective_ : float
        Kernel k-means objective of ``labels_`` on the unshifted ``K~``.
    shift_ : float
        The diagonal shift ``sigma``.
    gamma_ : float or None
        The Gaussian ``gamma`` used; None for the other kernels.
    constraints_ : Constraints
        The checked constraints: ``constraints_.violations(labels_)`` counts the pairs the
        result breaks.
    n_constrained_pairs_ : tuple of int
        Must-link and cannot-link pairs added to the kernel (with ``closure``, the implied
        ones too).
    restart_objectives_ : ndarray of shape (n_init,)
        Every start's objective on the shifted kernel, the farthest-first start first when
        there are must-links: each is its partition's objective on ``K~`` plus
        ``sigma (n - k)``.
    n_iter_ : int
        Iterations of the kept start.
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Kulis, Basu, Dhillon & Mooney, Semi-supervised graph clustering: a
    kernel approach, ICML 2005.
    Chen, Rege, Dong & Hua, Incorporating user provided constraints into
    document clustering (SS-NMF), eqs. (18)-(20) and Section 4.3.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0.0, 0.0], [0.1, 0.0], [5.0, 0.0], [5.1, 0.0]])
    >>> model = SSKernelKMeansClustering(2, kernel="linear", random_state=0)
    >>> model.fit_predict(X, must_link=[(1, 2)], cannot_link=[(0, 1)]).tolist()
    [1, 0, 0, 0]
    """

    def __init__(self, n_clusters: int = 8, *, kernel: Kernel = "gaussian",
                 gamma: float | None = None, reward: float | None = None,
                 penalty: float | None = None, closure: bool = True, n_init: int = 10,
                 max_iter: int = 300, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def fit(self, X, y=None, *, must_link=None, cannot_link=None):
        """Cluster ``X`` (documents as rows, or a Gram matrix) under the constraints."""
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        X = check_fit_input(self, X)
        n = X.shape[0]
        self._check_params(n)
        k = int(self.n_clusters)
        self.constraints_ = fit_constraints(n, y, must_link, cannot_link)
        ml, cl = constrained_pairs(self.constraints_, bool(self.closure))
        self.n_constrained_pairs_ = (len(ml), len(cl))
        K, self.gamma_ = kernel_matrix(X, self.kernel, self.gamma)
        if not isinstance(K, np.ndarray):
            K = K @ np.eye(n)  # the linear kernel, formed: the shift needs its spectrum
        K = 0.5 * (K + K.T)
        top = float(np.abs(K).max(initial=0.0)) or 1.0
        reward = top if self.reward is None else float(self.reward)
        penalty = top if self.penalty is None else float(self.penalty)
        K = K + constraint_matrix(n, ml, cl, reward, penalty).toarray()
        lam_min = float(eigh(K, eigvals_only=True, subset_by_index=[0, 0])[0])
        self.shift_ = max(0.0, -lam_min)
        shifted = K + self.shift_ * np.eye(n)
        init = farthest_first_labels(K, self.constraints_, k)
        n_random = int(self.n_init) - (init is not None)
        result = kernel_kmeans(shifted, k, init_labels=init, n_init=n_random,
                               max_iter=int(self.max_iter), rng=as_generator(self.random_state))
        self.labels_ = result.labels.astype(np.int64)
        # in the shifted feature space kernel k-means assigned in
        self.memberships_ = kernel_memberships(shifted, self.labels_, k)
        self.objective_ = kernel_kmeans_objective(K, self.labels_)
        self.restart_objectives_ = result.restart_objectives
        self.n_iter_ = result.n_iter
        if self.verbose:
            logger.info("SS-KK: objective %.6g, diagonal shift %.3g, %d iterations",
                        self.objective_, self.shift_, self.n_iter_)
        warn_broken_pairs(self.constraints_, self.labels_)
        return self

    def _positive_only(self) -> bool:
        return False

    def _pairwise(self) -> bool:
        return self.kernel == "precomputed"

    def _scale_free(self) -> bool:
        return (self.kernel != "gaussian" or self.gamma is None) and self.reward is None \
            and self.penalty is None


class SSNormalizedCutClustering(_SemiSupervised, ClusterMixin, BaseEstimator):
    """SS-SNC: normalized cut with constraint penalties (Ji & Xu 2006), as the SS-NMF paper has it.

    The SS-NMF paper (eqs. 21-22) writes SS-SNC as the normalized cut of
    the constrained similarity,
    ``J = sum_h g_h^T (D - A~) g_h / g_h^T D g_h``, relaxed to the top-k
    eigenvectors ``Z`` of ``D^{-1/2} A~ D^{-1/2}``. Here
    ``A~ = A + W`` with ``W`` from :func:`constraint_matrix` (its eq. 21
    prints ``A - W_reward - W_penalty``; rewards are added so that a
    must-link pulls two documents together), and ``D = diag(A 1)`` are the
    degrees of the unconstrained similarity, as in the paper's ``D^{-1/2}``
    (it also writes ``D~`` in eq. 21; the degrees of ``A~`` can be zero or
    negative once cannot-links subtract weight, so they are not used). In
    this form a must-linked pair splits at a cost of ``reward`` and a
    cannot-linked pair joined gains ``penalty``, each relative to the
    cluster's volume ``g_h^T D g_h``. Ji & Xu's own paper may differ in such
    details. ``A~`` may be indefinite; the relaxation does not mind.
    K-means on the rows of ``Z`` gives the labels.

    ``A = X X^T`` (documents as rows) or a precomputed similarity; dense
    n x n: for collections of a few thousand documents at most.

    Parameters
    ----------
    n_clusters : int
    affinity : {"linear", "precomputed"}
    reward, penalty : float, optional
        Constraint weights; default the largest entry of ``A``.
    closure : bool
    row_normalize : bool
        Scale the rows of ``Z`` to unit length before k-means (Ng, Jordan & Weiss).
    n_init, max_iter : int
        K-means restarts on the eigenvectors and their iterations.
    tol : float
    random_state : None, int or numpy Generator
    verbose : int

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        From the squared distances to the k-means centres in ``Z``.
    embedding_ : ndarray of shape (n_docs, n_clusters)
        ``Z``, the top eigenvectors (rows unit length with ``row_normalize``).
    eigenvalues_ : ndarray of shape (n_clusters,)
        Their eigenvalues, decreasing.
    objective_ : float
        K-means objective on ``Z``.
    restart_objectives_ : ndarray of shape (n_init,)
        Every k-means restart's objective, in order; the kept restart's is ``objective_``.
    criterion_ : float
        ``J`` of eq. 21 for ``labels_``.
    constraints_ : Constraints
        The checked constraints: ``constraints_.violations(labels_)`` counts the pairs the
        result breaks.
    n_constrained_pairs_ : tuple of int
        Must-link and cannot-link pairs added to ``A`` (with ``closure``, the implied ones too).
    n_iter_ : int
        Lloyd iterations of the kept k-means restart.
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Ji & Xu, Document clustering with prior knowledge, SIGIR 2006.
    Chen, Rege, Dong & Hua, Incorporating user provided constraints into
    document clustering (SS-NMF), eqs. (21)-(22).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> labels = SSNormalizedCutClustering(2, random_state=0).fit_predict(X, must_link=[(0, 1)])
    >>> bool(labels[0] == labels[1] != labels[2] == labels[3])
    True
    """

    _kmeans_warns_fewer_clusters = True

    def __init__(self, n_clusters: int = 8, *,
                 affinity: Literal["linear", "precomputed"] = "linear",
                 reward: float | None = None, penalty: float | None = None, closure: bool = True,
                 row_normalize: bool = False, n_init: int = 10, max_iter: int = 300,
                 tol: float = 1e-4, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        super()._check_params(n_docs)
        check_numbers(self, "tol")

    def fit(self, X, y=None, *, must_link=None, cannot_link=None):
        """Cluster ``X`` (non-negative documents as rows, or a similarity) under the constraints."""
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        check_non_negative(X, f"{type(self).__name__} (input X)")
        X = check_fit_input(self, X)
        n = X.shape[0]
        self._check_params(n)
        if self.affinity not in ("linear", "precomputed"):
            raise ValueError(f"affinity must be 'linear' or 'precomputed', got {self.affinity!r}")
        k = int(self.n_clusters)
        self.constraints_ = fit_constraints(n, y, must_link, cannot_link)
        ml, cl = constrained_pairs(self.constraints_, bool(self.closure))
        self.n_constrained_pairs_ = (len(ml), len(cl))
        if self.affinity == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(f"affinity='precomputed' needs a square similarity, got {X.shape}")
            A = X.toarray() if sp.issparse(X) else np.array(X)
            A = 0.5 * (A + A.T)
        else:
            A = X @ X.T
            A = A.toarray() if sp.issparse(A) else np.asarray(A)
        top = float(A.max(initial=0.0)) or 1.0
        reward = top if self.reward is None else float(self.reward)
        penalty = top if self.penalty is None else float(self.penalty)
        degrees = A.sum(axis=1)
        inv_sqrt = np.divide(1.0, np.sqrt(degrees), out=np.zeros(n), where=degrees > 0)
        A_tilde = A + constraint_matrix(n, ml, cl, reward, penalty).toarray()
        M = inv_sqrt[:, None] * A_tilde * inv_sqrt[None, :]
        r = min(k, n)
        values, Z = eigh(M, subset_by_index=[n - r, n - 1])
        values, Z = values[::-1], Z[:, ::-1]
        rows = np.argmax(np.abs(Z), axis=0)
        signs = np.sign(Z[rows, np.arange(r)])
        Z = Z * np.where(signs == 0, 1.0, signs)
        if self.row_normalize:
            norms = np.linalg.norm(Z, axis=1, keepdims=True)
            Z = np.divide(Z, norms, out=np.zeros_like(Z), where=norms > 0)
        rng = as_generator(self.random_state)
        km, self.restart_objectives_ = kmeans_restarts(
            Z, k, n_init=int(self.n_init), max_iter=int(self.max_iter), tol=float(self.tol),
            seed=int_seed(rng), name=type(self).__name__)
        self.labels_ = km.labels_.astype(np.int64)
        self.memberships_ = distance_memberships(km.transform(Z) ** 2)
        self.embedding_ = Z
        self.eigenvalues_ = values
        self.objective_ = float(km.inertia_)
        self.n_iter_ = int(km.n_iter_)
        self.criterion_ = normalized_cut_criterion(A_tilde, degrees, self.labels_, k)
        if self.verbose:
            logger.info("SS-SNC: normalized cut %.6g", self.criterion_)
        warn_broken_pairs(self.constraints_, self.labels_)
        return self

    def _pairwise(self) -> bool:
        return self.affinity == "precomputed"

    def _scale_free(self) -> bool:
        return self.reward is None and self.penalty is None


def normalized_cut_criterion(A_tilde: np.ndarray, degrees: np.ndarray, labels: np.ndarray,
                             k: int) -> float:
    """Eq. 21 for a hard partition: ``sum_h (g_h^T D g_h - g_h^T A~ g_h) / g_h^T D g_h``.

    Empty clusters and clusters of zero volume contribute nothing.

    Examples
    --------
    >>> A = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    >>> normalized_cut_criterion(A, A.sum(axis=1), np.array([0, 0, 1]), 2)
    0.0
    """
    Z = one_hot(np.asarray(labels), k)
    volume = Z.T @ degrees
    within = np.einsum("ic,ic->c", Z, A_tilde @ Z)
    cut = volume - within
    return float(np.sum(np.divide(cut, volume, out=np.zeros_like(cut), where=volume > 0)))
