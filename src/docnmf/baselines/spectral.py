"""Spectral clustering by average association (AA) and normalized cut (NC) on W = X X^T."""

from __future__ import annotations

from typing import Literal

import numpy as np
import scipy.sparse as sp

from .._estimator import store_params
from ..text.weighting import ncw_weights
from ._common import MEMBERSHIP_ATTRIBUTES, EmbeddingKMeans, scale_rows, top_left_singular_vectors

__all__ = ["GraphCutClustering", "graph_cut_criterion"]

Criterion = Literal["aa", "nc"]


class GraphCutClustering(EmbeddingKMeans):
    __doc__ = """
    Spectral document clustering by the AA or NC criterion (Xu et al. 2003, eqs. 15-18).

    The graph has the documents as nodes and inner products as weights,
    ``W = X X^T`` (``X`` holds documents as rows; the papers write
    ``X^T X`` for their terms x documents matrix). The relaxed problems of
    eq. 18 are

    - AA (eq. 15): the top-k eigenvectors of ``W``;
    - NC (eq. 16): the top-k eigenvectors of ``D^{-1/2} W D^{-1/2}``,
      ``D = diag(W e)``,

    and k-means on the rows of the eigenvector matrix gives the clusters.
    ``W`` is never formed: the top-k eigenvectors of ``A A^T`` are the
    top-k left singular vectors of ``A``, with ``A = X`` for AA and
    ``A = D^{-1/2} X`` for NC (degrees ``d = X (X^T e)``), found by ARPACK
    from products with ``A`` and ``A^T`` only. NC is therefore AA on the
    NC-weighted documents, as Xu et al. (Section 4.3, Appendix A) and
    Cai et al. (Section 4.3) put it.

    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``; also the number of eigenvectors, capped at
        ``min(n_docs, n_terms)`` (further eigenvectors of ``W`` have
        eigenvalue 0 and an arbitrary basis).
    criterion : {"aa", "nc"}
        Average association or normalized cut.
    row_normalize : bool
        Scale each row of the eigenvector matrix to unit length before
        k-means (Ng, Jordan & Weiss). Off by default: the papers take the
        eigenvectors and cluster them (Xu et al., eq. 18), and they treat
        NC as exactly AA on the weighted data (Cai et al., Section 4.3),
        which a normalisation applied to NC alone would break. Worth trying
        for NC on collections with very unequal degrees, whose eigenvector
        rows spread along rays from the origin.
    n_init, max_iter, tol : int, int, float
        K-means restarts (the lowest objective is kept), Lloyd iterations
        per restart and scikit-learn's centre-shift tolerance.
    random_state : None, int or numpy Generator
        Seeds the ARPACK start vector and the k-means starts.
    verbose : int
        Log the kept restart at INFO level when > 0.

""" + MEMBERSHIP_ATTRIBUTES + """    embedding_ : ndarray of shape (n_docs, n_eigenvectors)
        The eigenvectors ``Y`` of eq. 18 as columns (rows unit length with
        ``row_normalize``); column signs fixed so the largest-magnitude
        entry is positive.
    eigenvalues_ : ndarray of shape (n_eigenvectors,)
        Their eigenvalues, decreasing (squared singular values of ``A``).
    cluster_centers_ : ndarray of shape (n_clusters, n_eigenvectors)
        K-means centres in the eigenvector space.
    centroids_ : ndarray of shape (n_clusters, n_terms)
        Mean document of each cluster; the source of keywords.
    objective_ : float
        K-means objective in the eigenvector space (what the restarts minimise).
    criterion_ : float
        The k-way criterion of the final partition on ``W``: for AA
        ``sum_c cut(A_c, A_c) / |A_c|`` (eq. 15, to be maximised), for NC
        ``sum_c cut(A_c, V - A_c) / cut(A_c, V)`` (eq. 16, to be minimised).
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
    factorization, SIGIR 2003, Section 4.3, eqs. 15-18, and Appendix A.
    Shi & Malik, Normalized cuts and image segmentation, IEEE PAMI 2000.
    Zha, Ding, Gu, He & Simon, Spectral relaxation for k-means clustering,
    NIPS 2001.
    Cai, He & Han, Locally consistent concept factorization for document
    clustering, IEEE TKDE 2011, Section 4.3 (AA and NC baselines).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = GraphCutClustering(n_clusters=2, criterion="nc", random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    >>> round(model.criterion_, 12)   # no edge crosses the two clusters
    0.0
    """

    def __init__(self, n_clusters: int = 8, *, criterion: Criterion = "aa",
                 row_normalize: bool = False, n_init: int = 10, max_iter: int = 300,
                 tol: float = 1e-4, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _positive_only(self) -> bool:
        # D^{-1/2} needs positive degrees, which only non-negative data guarantee
        return self.criterion == "nc"

    def _check_params(self, n_docs: int) -> None:
        super()._check_params(n_docs)
        if self.criterion not in ("aa", "nc"):
            raise ValueError(f"criterion must be 'aa' or 'nc', got {self.criterion!r}")

    def _embed(self, X, rng):
        A = X
        if self.criterion == "nc":
            # a document with no similarity to any other (d = 0) gets weight 0, i.e. a zero row
            A = scale_rows(X, np.sqrt(ncw_weights(X)))
        Y, s = top_left_singular_vectors(A, int(self.n_clusters), rng)
        if self.row_normalize:
            norms = np.linalg.norm(Y, axis=1, keepdims=True)
            Y = np.divide(Y, norms, out=np.zeros_like(Y), where=norms > 0)
        self.embedding_ = Y
        self.eigenvalues_ = s**2
        return Y, None

    def _after_fit(self, X) -> None:
        self.criterion_ = graph_cut_criterion(X, self.labels_, self.criterion)


def graph_cut_criterion(X, labels: np.ndarray, criterion: Criterion = "aa") -> float:
    """The k-way AA (eq. 15) or NC (eq. 16) value of a partition on ``W = X X^T``.

    With ``s_c`` the sum of the documents in cluster ``c`` and
    ``d = X (X^T e)`` the degrees, ``cut(A_c, A_c) = ||s_c||^2`` and
    ``cut(A_c, V) = sum_{i in c} d_i``, so no n x n matrix is needed.
    Empty clusters contribute nothing.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_docs, n_terms)
    labels : array-like of shape (n_docs,)
    criterion : {"aa", "nc"}

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> graph_cut_criterion(X, np.array([0, 0, 1]), "aa")   # 4 / 2 + 1 / 1
    3.0
    >>> round(graph_cut_criterion(X, np.array([0, 1, 1]), "nc"), 6)   # 1/2 + 1/3
    0.833333
    """
    labels = np.asarray(labels)
    _, codes = np.unique(labels, return_inverse=True)
    codes = codes.ravel()
    n, k = X.shape[0], int(codes.max()) + 1 if codes.size else 0
    S = sp.csr_matrix((np.ones(n), (codes, np.arange(n))), shape=(k, n))
    sums = S @ X
    sums = sums.toarray() if sp.issparse(sums) else np.asarray(sums)
    within = np.einsum("ij,ij->i", sums, sums)
    if criterion == "aa":
        return float(np.sum(within / np.bincount(codes, minlength=k)))
    if criterion == "nc":
        column_sums = np.asarray(X.sum(axis=0)).ravel()
        volume = sums @ column_sums
        cut = volume - within
        return float(np.sum(np.divide(cut, volume, out=np.zeros_like(cut), where=volume > 0)))
    raise ValueError(f"criterion must be 'aa' or 'nc', got {criterion!r}")
