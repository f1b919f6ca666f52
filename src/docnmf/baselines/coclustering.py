"""Minimum sum-squared residue co-clustering (Cho, Dhillon, Guan & Sra 2004): ECC and MSRC.

Rows (documents) and columns (terms) are partitioned at the same time so
that the residues of the co-clusters have the smallest sum of squares.
For an entry ``a_ij`` in row cluster ``I`` and column cluster ``J``, with
``a_IJ`` the mean of the block, ``a_iJ`` the mean of row ``i`` over the
columns of ``J`` and ``a_Ij`` the mean of column ``j`` over the rows of
``I``, the two residues of the paper are

* type I (eq. 2.1): ``h_ij = a_ij - a_IJ``, each block replaced by its mean
  (the Euclidean co-clustering "ECC" of Wang, Ding & Li 2010, Table 2);
* type II (eq. 2.2): ``h_ij = a_ij - a_iJ - a_Ij + a_IJ``, each block's
  row and column effects removed (Cheng & Church's residue; "MSRC").

With ``R`` (n_docs x k) and ``C`` (n_terms x l) the cluster indicator
matrices scaled to unit-length columns, ``H = A - R R^T A C C^T`` for type
I and ``H = (I - R R^T) A (I - C C^T)`` for type II (the paper's eqs. 2.3
and 2.4), so ``||H||^2 = ||A||^2 - ||R^T A C||^2`` and
``||A||^2 - ||R^T A||^2 - ||A C||^2 + ||R^T A C||^2``.

Everything here works from products of the sparse ``A`` with indicator
matrices and with k (or l) dense vectors; neither residue is ever formed.
For type II that rests on one identity: the row-cluster "centroids"
``mu_r`` (below) sum to zero within each column cluster, so their inner
product with a row of ``A (I - C C^T)`` is their inner product with the row
of ``A`` itself.
"""

from __future__ import annotations

import logging
from typing import Literal, NamedTuple

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.cluster import kmeans_plusplus
from sklearn.metrics import pairwise_distances_argmin
from sklearn.utils.validation import validate_data

from .._estimator import (DocumentClusterer, best_restart, check_fit_input, check_n_clusters,
                          check_numbers, check_positive_ints, distance_memberships,
                          fit_restarts, store_params)
from .._rng import as_generator
from ._common import cluster_means, int_seed

__all__ = ["Residue", "CoclusteringResult", "residue_distances", "sum_squared_residue",
           "coclustering_mssr", "CoClustering"]

logger = logging.getLogger(__name__)

Residue = Literal["I", "II"]
Init = Literal["k-means++", "random"]


class CoclusteringResult(NamedTuple):
    """What :func:`coclustering_mssr` returns for the best restart, and every restart's objective."""

    row_labels: np.ndarray
    col_labels: np.ndarray
    objective: float
    n_iter: int
    converged: bool
    loss_history: np.ndarray
    restart_objectives: np.ndarray


def _indicator(labels: np.ndarray, k: int) -> sp.csr_matrix:
    n = len(labels)
    return sp.csr_matrix((np.ones(n), (np.arange(n), labels)), shape=(n, k))


def _dense(M) -> np.ndarray:
    return M.toarray() if sp.issparse(M) else np.asarray(M)


def _row_sq_norms(A) -> np.ndarray:
    if sp.issparse(A):
        return np.asarray(A.multiply(A).sum(axis=1)).ravel()
    return np.einsum("ij,ij->i", A, A)


def residue_distances(A, row_labels, col_labels, n_row_clusters: int, n_col_clusters: int,
                      residue: Residue = "I", row_sq_norms=None) -> np.ndarray:
    """Squared residue of every row of ``A`` placed in every row cluster, columns held fixed.

    Entry ``(i, r)`` is ``sum_j h_ij^2`` for row ``i`` with the residue
    taken against the current statistics (block means, row-cluster means)
    of row cluster ``r``: the quantity the batch row update of Cho et al.
    compares. The distances of the columns are those of ``A^T`` with the
    roles swapped.

    * Type I: ``sum_c sum_{j in c} (a_ij - m_rc)^2
      = ||a_i||^2 - 2 z_i . m_r + sum_c n_c m_rc^2``, where ``z_ic`` is the
      sum of row ``i`` over column cluster ``c`` (``Z = A C``, unscaled
      indicators), ``m_rc`` the block mean and ``n_c`` the cluster size.
    * Type II: row ``i`` of ``B = A (I - C C^T)`` (``b_ij = a_ij - a_iJ``)
      against the mean ``mu_r`` of the rows of ``B`` in cluster ``r``,
      ``mu_rj = a_rj - a_rJ``: ``||b_i||^2 - 2 a_i . mu_r + ||mu_r||^2`` with
      ``||b_i||^2 = ||a_i||^2 - sum_c z_ic^2 / n_c``.

    Row clusters with no member are at infinite distance.

    Parameters
    ----------
    A : {ndarray, sparse matrix} of shape (m, n)
    row_labels : ndarray of shape (m,)
    col_labels : ndarray of shape (n,)
        Every one of the ``n_col_clusters`` column clusters must be non-empty.
    n_row_clusters, n_col_clusters : int
    residue : {"I", "II"}
    row_sq_norms : ndarray of shape (m,), optional
        ``||a_i||^2``, when already known.

    Returns
    -------
    D : ndarray of shape (m, n_row_clusters)

    Examples
    --------
    >>> A = np.array([[1.0, 1.0, 0.0], [3.0, 3.0, 0.0], [0.0, 0.0, 5.0]])
    >>> residue_distances(A, np.array([0, 0, 1]), np.array([0, 0, 1]), 2, 2).tolist()
    [[2.0, 27.0], [2.0, 43.0], [33.0, 0.0]]
    """
    k, l = int(n_row_clusters), int(n_col_clusters)
    row_labels, col_labels = np.asarray(row_labels), np.asarray(col_labels)
    sq = _row_sq_norms(A) if row_sq_norms is None else row_sq_norms
    C = _indicator(col_labels, l)
    n_c = np.bincount(col_labels, minlength=l).astype(np.float64)
    m_r = np.bincount(row_labels, minlength=k).astype(np.float64)
    safe_r = np.where(m_r > 0, m_r, 1.0)
    Z = _dense(A @ C)  # row sums within column clusters
    R = _indicator(row_labels, k)
    if residue == "I":
        M = _dense(R.T @ Z) / safe_r[:, None] / n_c[None, :]  # block means m_rc
        D = sq[:, None] - 2.0 * (Z @ M.T) + (M**2) @ n_c
    elif residue == "II":
        row_means = _dense(R.T @ A) / safe_r[:, None]  # a_rj
        block_means = (row_means @ C) / n_c[None, :]  # a_rJ
        mu = row_means - block_means[:, col_labels]  # mu_rj = a_rj - a_rJ(j)
        b_sq = sq - (Z**2 / n_c[None, :]).sum(axis=1)
        D = b_sq[:, None] - 2.0 * _dense(A @ mu.T) + np.einsum("rj,rj->r", mu, mu)[None, :]
    else:
        raise ValueError(f"residue must be 'I' or 'II', got {residue!r}")
    # rounding can leave -1e-16 where the residue is exactly zero
    np.maximum(D, 0.0, out=D)
    D[:, m_r == 0] = np.inf
    return D


def sum_squared_residue(A, row_labels, col_labels, residue: Residue = "I") -> float:
    """``||H||^2``, the sum of the squared residues (type I or II) of a co-clustering.

    Examples
    --------
    >>> A = np.array([[1.0, 1.0, 0.0], [3.0, 3.0, 0.0], [0.0, 0.0, 5.0]])
    >>> sum_squared_residue(A, np.array([0, 0, 1]), np.array([0, 0, 1]))  # a_IJ = 2 on [1 1; 3 3]
    4.0
    >>> sum_squared_residue(A, np.array([0, 0, 1]), np.array([0, 0, 1]), "II")
    0.0
    """
    row_labels, col_labels = np.asarray(row_labels), np.asarray(col_labels)
    k = int(row_labels.max()) + 1
    _, cols = np.unique(col_labels, return_inverse=True)  # empty column clusters add nothing
    cols = cols.ravel()
    D = residue_distances(A, row_labels, cols, k, int(cols.max()) + 1, residue)
    return float(D[np.arange(len(row_labels)), row_labels].sum())


def _reassign(D: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Batch update: every row to its nearest cluster; empty clusters re-seeded.

    A row stays where it is when its own cluster is as close as the best (no
    ping-pong on ties). Each cluster left empty gets the row with the largest
    residue in its new cluster, taken from a cluster with more than one
    member; alone in a cluster that row's residue is as small as it can be,
    so the objective still does not increase.
    """
    n = len(labels)
    rows = np.arange(n)
    new = np.argmin(D, axis=1)
    stay = D[rows, labels] <= D[rows, new] * (1.0 + 1e-12)
    new[stay] = labels[stay]
    k = D.shape[1]
    counts = np.bincount(new, minlength=k)
    for c in np.flatnonzero(counts == 0):
        cost = D[rows, new].copy()
        cost[counts[new] <= 1] = -np.inf  # never empty another cluster
        i = int(np.argmax(cost))
        counts[new[i]] -= 1
        new[i] = c
        counts[c] += 1
    return new


def _initial_labels(A, k: int, init: Init, rng: np.random.Generator) -> np.ndarray:
    n = A.shape[0]
    if init == "k-means++":
        centers, seeds = kmeans_plusplus(A, k, random_state=int_seed(rng))
        labels = pairwise_distances_argmin(A, centers)
        labels[seeds] = np.arange(k)  # each seed in its own cluster, even among duplicate rows
        if len(np.unique(labels)) == k:
            return labels.astype(np.intp)
    # a random balanced partition: also the fall-back when seeds coincide
    return (rng.permutation(n) % k).astype(np.intp)


def _run(A, At, sq_rows, sq_cols, rows, cols, k, l, residue, max_iter, tol, total):
    """Alternate batch row and column updates from one start; return labels and the history."""
    D = residue_distances(A, rows, cols, k, l, residue, sq_rows)
    history = [float(D[np.arange(len(rows)), rows].sum())]
    converged, n_iter = False, 0
    for n_iter in range(1, max_iter + 1):
        new_rows = _reassign(D, rows)
        Dc = residue_distances(At, cols, new_rows, l, k, residue, sq_cols)
        history.append(float(Dc[np.arange(len(cols)), cols].sum()))
        new_cols = _reassign(Dc, cols)
        D = residue_distances(A, new_rows, new_cols, k, l, residue, sq_rows)
        history.append(float(D[np.arange(len(new_rows)), new_rows].sum()))
        unchanged = np.array_equal(new_rows, rows) and np.array_equal(new_cols, cols)
        rows, cols = new_rows, new_cols
        if unchanged or history[-3] - history[-1] <= tol * total:
            converged = True
            break
    return rows, cols, history[-1], n_iter, converged, np.asarray(history)


def coclustering_mssr(A, n_row_clusters: int, n_col_clusters: int, *, residue: Residue = "I",
                      init: Init = "k-means++", n_init: int = 10, max_iter: int = 100,
                      tol: float = 1e-7, rng=None) -> CoclusteringResult:
    """Minimum sum-squared residue co-clustering by batch updates (Cho et al. 2004, Algorithm 1).

    From a start, alternately move every row to the row cluster where its
    residue (:func:`residue_distances`) is smallest, the column clusters
    fixed, then every column likewise. For fixed column clusters the
    objective is a k-means objective on the rows of ``A C`` (type I) or of
    ``A (I - C C^T)`` (type II), so each half step can only lower ``||H||^2``.
    Stops when no row or column moves, or when a round lowers ``||H||^2``
    by at most ``tol * ||A||^2`` (the paper's stopping rule).

    Parameters
    ----------
    A : {ndarray, sparse matrix} of shape (m, n)
    n_row_clusters, n_col_clusters : int
        ``1 <= k <= m`` and ``1 <= l <= n``.
    residue : {"I", "II"}
        ``a_ij - a_IJ`` or ``a_ij - a_iJ - a_Ij + a_IJ``.
    init : {"k-means++", "random"}
        Start of each restart: k-means++ seeds among the rows (and, on
        ``A^T``, among the columns) with every row joining its nearest seed,
        or random balanced partitions.
    n_init : int
        Restarts; the lowest ``||H||^2`` is kept.
    max_iter : int
        Rounds (a row update and a column update) per restart.
    tol : float
    rng : None, int or numpy Generator

    Returns
    -------
    CoclusteringResult
        ``loss_history`` holds ``||H||^2`` at the start and after every half
        step of the kept restart.

    References
    ----------
    Cho, Dhillon, Guan & Sra, Minimum sum-squared residue co-clustering of
    gene expression data, SIAM SDM 2004, eqs. (2.1)-(2.4) and Algorithm 1.

    Examples
    --------
    >>> A = np.kron(np.eye(2), np.ones((3, 2))) * 5.0
    >>> res = coclustering_mssr(A, 2, 2, rng=0)
    >>> res.row_labels.tolist() in ([0, 0, 0, 1, 1, 1], [1, 1, 1, 0, 0, 0]), res.objective
    (True, 0.0)
    """
    m, n = A.shape
    k, l = int(n_row_clusters), int(n_col_clusters)
    if not 1 <= k <= m:
        raise ValueError(f"n_row_clusters must be between 1 and {m}, got {k}")
    if not 1 <= l <= n:
        raise ValueError(f"n_col_clusters must be between 1 and {n}, got {l}")
    if residue not in ("I", "II"):
        raise ValueError(f"residue must be 'I' or 'II', got {residue!r}")
    if init not in ("k-means++", "random"):
        raise ValueError(f"init must be 'k-means++' or 'random', got {init!r}")
    if sp.issparse(A):
        A = sp.csr_matrix(A, dtype=np.float64)
        At = A.T.tocsr()
    else:
        A = np.asarray(A, dtype=np.float64)
        At = np.ascontiguousarray(A.T)
    sq_rows, sq_cols = _row_sq_norms(A), _row_sq_norms(At)
    total = float(sq_rows.sum())

    def run_once(child):
        rows = _initial_labels(A, k, init, child)
        cols = _initial_labels(At, l, init, child)
        return _run(A, At, sq_rows, sq_cols, rows, cols, k, l, residue, int(max_iter),
                    float(tol), total)

    best, objectives = best_restart(fit_restarts(run_once, as_generator(rng), n_init),
                                    key=lambda run: run[2])
    return CoclusteringResult(*best, objectives)


class CoClustering(DocumentClusterer, ClusterMixin, BaseEstimator):
    """Documents and terms co-clustered by minimum sum-squared residue (ECC or MSRC).

    Rows of ``X`` are documents and columns terms (the paper's genes and
    conditions); ``labels_`` are the document clusters, ``column_labels_``
    the term clusters. See :func:`coclustering_mssr` for the algorithm and
    the module docstring for the two residues. Sparse input stays sparse
    for both residues: the work per round is a few products of ``X`` with
    n_docs x l, n_terms x k and k x n_terms dense matrices.

    Parameters
    ----------
    n_clusters : int
        Number of document (row) clusters ``k``.
    n_col_clusters : int or None
        Number of term (column) clusters ``l``; None means ``n_clusters``.
        Capped at the number of terms.
    residue : {"I", "II"}
        ``"I"``: ``h_ij = a_ij - a_IJ`` (ECC); ``"II"``:
        ``h_ij = a_ij - a_iJ - a_Ij + a_IJ`` (MSRC).
    init : {"k-means++", "random"}
    n_init : int
        Restarts; the lowest ``||H||^2`` is kept.
    max_iter : int
        Rounds of row and column updates per restart.
    tol : float
        Stop when a round lowers ``||H||^2`` by at most ``tol * ||X||^2``.
    random_state : None, int or numpy Generator
    verbose : int

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    column_labels_ : ndarray of shape (n_terms,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        Soft memberships from each document's squared residue in every row
        cluster, the column clusters held (:func:`residue_distances`; fuzzy
        c-means with m = 2, :func:`~docnmf._estimator.distance_memberships`).
    n_col_clusters_ : int
    objective_ : float
        ``||H||^2`` of the kept restart.
    loss_history_ : ndarray
        ``||H||^2`` at the start and after each half step of the kept restart.
    restart_objectives_ : ndarray of shape (n_init,)
    centroids_ : ndarray of shape (n_clusters, n_terms)
        Mean document of each cluster; the source of keywords.
    n_iter_ : int
    converged_ : bool
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Cho, Dhillon, Guan & Sra, Minimum sum-squared residue co-clustering of
    gene expression data, SIAM SDM 2004.
    Wang, Ding & Li, Feature subset non-negative matrix factorization and
    its applications to document understanding, SIGIR 2010, Table 2 (ECC, MSRC).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = CoClustering(2, residue="I", random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    >>> bool(model.column_labels_[0] == model.column_labels_[1] != model.column_labels_[2])
    True
    """

    #: The starts ``init`` names.
    INITS = ("k-means++", "random")

    def __init__(self, n_clusters: int = 8, *, n_col_clusters: int | None = None,
                 residue: Residue = "I", init: Init = "k-means++", n_init: int = 10,
                 max_iter: int = 100, tol: float = 1e-7, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        check_positive_ints(self, "n_init", "max_iter")
        l = self.n_col_clusters
        if l is not None and (isinstance(l, bool) or not isinstance(l, (int, np.integer))
                              or l < 1):
            raise ValueError(f"n_col_clusters must be None or a positive integer, got {l!r}")
        if self.residue not in ("I", "II"):
            raise ValueError(f"residue must be 'I' or 'II', got {self.residue!r}")
        if self.init not in self.INITS:
            raise ValueError(f"init must be 'k-means++' or 'random', got {self.init!r}")
        check_numbers(self, "tol")

    def fit(self, X, y=None):
        """Co-cluster the documents ``X`` of shape (n_docs, n_terms), dense or CSR."""
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        X = check_fit_input(self, X)
        self._check_params(X.shape[0])
        k = int(self.n_clusters)
        l = min(k if self.n_col_clusters is None else int(self.n_col_clusters), X.shape[1])
        result = coclustering_mssr(X, k, l, residue=self.residue, init=self.init,
                                   n_init=int(self.n_init), max_iter=int(self.max_iter),
                                   tol=float(self.tol), rng=as_generator(self.random_state))
        self.labels_ = result.row_labels.astype(np.int64)
        self.column_labels_ = result.col_labels.astype(np.int64)
        self.n_col_clusters_ = l
        # each row's squared residue in every row cluster, the columns' clusters held: the
        # quantity the row updates assign by (empty column clusters add nothing)
        _, cols = np.unique(self.column_labels_, return_inverse=True)
        self.memberships_ = distance_memberships(residue_distances(
            X, self.labels_, cols.ravel(), k, int(cols.max()) + 1, self.residue))
        self.objective_ = result.objective
        self.loss_history_ = result.loss_history
        self.restart_objectives_ = result.restart_objectives
        self.n_iter_ = result.n_iter
        self.converged_ = result.converged
        self.centroids_ = cluster_means(X, self.labels_, k)
        if self.verbose:
            logger.info("co-clustering (residue %s): best of %d restarts has ||H||^2 = %.6g "
                        "after %d rounds", self.residue, self.n_init, self.objective_,
                        self.n_iter_)
        return self

    _keyword_attribute = "centroids_"

    def _positive_only(self) -> bool:
        return False
