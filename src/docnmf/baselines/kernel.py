"""Kernelized spectral baselines: average association (AA) and normalized cut (NC) on a kernel K.

Cai, He & Han (2011), Tables 4-7, run AA and NC with the degree-2
polynomial kernel ``<x_i, x_j>^2`` as well as with inner products. With
documents as rows of ``X`` and ``K`` the kernel between them, the relaxed
problems of Xu et al. (2003), eq. 18, are

- AA: the top-k eigenvectors of ``K``;
- NC: the top-k eigenvectors of ``D^{-1/2} K D^{-1/2}``, ``D = diag(K e)``,

followed by k-means on the rows of the eigenvector matrix. With the linear
kernel these are :class:`~docnmf.baselines.GraphCutClustering`'s AA and NC.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigsh

from .._estimator import store_params
from ..factor.kernels import KernelOperator, KernelSpec, make_kernel
from ._common import MEMBERSHIP_ATTRIBUTES, EmbeddingKMeans

__all__ = ["KernelGraphCutClustering", "top_kernel_eigenvectors"]

Criterion = Literal["aa", "nc"]


def top_kernel_eigenvectors(K: KernelOperator, k: int, rng: np.random.Generator
                            ) -> tuple[np.ndarray, np.ndarray]:
    """The ``r = min(k, n)`` eigenvectors of the largest eigenvalues of a symmetric kernel.

    ARPACK (``eigsh``) with products by ``K`` only, started from a ``v0``
    drawn from ``rng``; LAPACK on the dense matrix when ``n <= 2 r + 1``.
    Columns sorted by decreasing eigenvalue, signs fixed so each column's
    largest-magnitude entry is positive.

    Examples
    --------
    >>> from docnmf.factor.kernels import DenseKernel
    >>> vals, vecs = top_kernel_eigenvectors(DenseKernel(np.diag([1.0, 3.0, 2.0])), 2,
    ...                                      np.random.default_rng(0))
    >>> vals.round(6).tolist(), np.abs(vecs).round(6).tolist()
    ([3.0, 2.0], [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    """
    n = K.n
    r = min(int(k), n)
    if n <= 2 * r + 1:
        vals, vecs = np.linalg.eigh(K.dense())
        vals, vecs = vals[::-1][:r], vecs[:, ::-1][:, :r]
    else:
        op = LinearOperator((n, n), matvec=lambda x: K.matmul(x.reshape(n, -1)).ravel(),
                            matmat=K.matmul, dtype=np.float64)
        vals, vecs = eigsh(op, k=r, which="LA", v0=rng.uniform(-1.0, 1.0, n))
        order = np.argsort(-vals, kind="stable")
        vals, vecs = vals[order], vecs[:, order]
    rows = np.argmax(np.abs(vecs), axis=0)
    signs = np.sign(vecs[rows, np.arange(vecs.shape[1])])
    signs[signs == 0] = 1.0
    return vals, vecs * signs


class KernelGraphCutClustering(EmbeddingKMeans):
    __doc__ = """
    Spectral clustering by AA or NC on a kernel ``K`` between the documents (kernelized AA / NC).

    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``; also the number of eigenvectors.
    criterion : {"aa", "nc"}
        Average association (top eigenvectors of ``K``) or normalized cut
        (top eigenvectors of ``D^{-1/2} K D^{-1/2}``, ``D = diag(K e)``).
    kernel : {"poly2", "linear", "precomputed"} or callable
        ``<x_i, x_j>^2`` as in the paper's tables, inner products (never
        formed for non-negative data), ``kernel(A, B) -> Gram matrix``, or
        ``X`` is the n x n Gram matrix itself. All but ``"linear"`` hold a
        dense n x n matrix.
    row_normalize : bool
        Scale each eigenvector row to unit length before k-means (Ng, Jordan & Weiss).
    n_init, max_iter, tol : int, int, float
        K-means restarts (lowest objective kept), Lloyd iterations, centre-shift tolerance.
    random_state : None, int or numpy Generator
        Seeds the ARPACK start vector and the k-means starts.
    verbose : int

""" + MEMBERSHIP_ATTRIBUTES + """    embedding_ : ndarray of shape (n_docs, n_eigenvectors)
    eigenvalues_ : ndarray of shape (n_eigenvectors,)
    cluster_centers_ : ndarray
        K-means centres in the eigenvector space.
    centroids_ : ndarray of shape (n_clusters, n_features)
        Mean row of ``X`` per cluster (term space; rows of the Gram matrix
        when precomputed), the source of keywords.
    objective_ : float
        K-means objective in the eigenvector space.
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
    Cai, He & Han, Locally consistent concept factorization for document
    clustering, IEEE TKDE 2011, Section 4.3 and Tables 4-7 (kernelized AA, NC).
    Xu, Liu & Gong, Document clustering based on NMF, SIGIR 2003, eqs. 15-18.
    Shi & Malik, Normalized cuts and image segmentation, IEEE PAMI 2000.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = KernelGraphCutClustering(2, criterion="nc", random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    """

    def __init__(self, n_clusters: int = 8, *, criterion: Criterion = "nc",
                 kernel: KernelSpec = "poly2", row_normalize: bool = False, n_init: int = 10,
                 max_iter: int = 300, tol: float = 1e-4, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        super()._check_params(n_docs)
        if self.criterion not in ("aa", "nc"):
            raise ValueError(f"criterion must be 'aa' or 'nc', got {self.criterion!r}")
        if not (callable(self.kernel) or self.kernel in ("linear", "poly2", "precomputed")):
            raise ValueError(f"kernel must be 'linear', 'poly2', 'precomputed' or a callable, "
                             f"got {self.kernel!r}")

    def _embed(self, X, rng):
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(f"a precomputed kernel must be square, got shape {X.shape}")
        K = make_kernel(X, self.kernel)
        if self.criterion == "nc":
            d = K.row_sums()
            if np.any(d < 0):
                raise ValueError("NC needs non-negative degrees d = K e; this kernel gives some "
                                 "documents a negative one")
            # a document with no similarity to any other (d = 0) gets weight 0, i.e. a zero row
            K = K.weighted(np.divide(1.0, np.sqrt(d), out=np.zeros_like(d), where=d > 0))
        vals, Y = top_kernel_eigenvectors(K, int(self.n_clusters), rng)
        if self.row_normalize:
            norms = np.linalg.norm(Y, axis=1, keepdims=True)
            Y = np.divide(Y, norms, out=np.zeros_like(Y), where=norms > 0)
        self.embedding_ = Y
        self.eigenvalues_ = vals
        return Y, None
