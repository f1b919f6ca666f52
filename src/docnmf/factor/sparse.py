"""A sparse matrix prepared for the fast NMF path: ``X`` and ``X^T`` in CSR, cut into row blocks.

The products ``X @ B`` and ``X^T @ B`` (and the HALS row updates built on
them, :mod:`docnmf.factor.hals`) run block by block on a thread pool, each
block a compiled kernel that releases the GIL. The blocks are fixed by the
matrix alone (rows of about equal work), not by the number of threads, and
partial sums are added in block order: results are the same bits on one
thread or many.

Row weights ``w`` make the object stand for ``diag(w) X`` without a weighted
copy: the weights go onto the dense side of each product. NMF-NCW
(``D^{-1/2} X``) is fitted this way.
"""

from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Iterator

import numpy as np
import scipy.sparse as sp
from threadpoolctl import ThreadpoolController

from ._kernels import csr_row_sums, csr_transpose, spmm_blocks

__all__ = ["SparseProducts", "blas_threads", "thread_pool"]

#: Work (stored entries, plus a few per row) of a row block. Large enough that a kernel call's
#: fixed cost (tens of microseconds) is small beside it, small enough for 2-8 cores to share
#: the blocks of 20 Newsgroups evenly.
BLOCK_WORK = 1 << 16

#: The most blocks a matrix is cut into.
MAX_BLOCKS = 64


_BLAS: list = []


def blas_threads() -> int:
    """The number of threads BLAS may use here (as threadpoolctl limits it), at least 1.

    The compiled kernels are not BLAS, but take the same limit: a process
    pinned to one BLAS thread (as the experiment runner's workers are) runs
    them on one thread too. The BLAS libraries are found once (a scan of the
    loaded libraries costs milliseconds); their limits are read each time.
    """
    if not _BLAS:
        _BLAS.extend(ThreadpoolController().select(user_api="blas").lib_controllers)
    counts = [lib.num_threads for lib in _BLAS]
    return max(1, min(counts)) if counts else 1


@contextmanager
def thread_pool(threads: int | None = None) -> Iterator[Executor | None]:
    """A pool of ``threads`` workers (default :func:`blas_threads`), or None for one thread."""
    threads = blas_threads() if threads is None else int(threads)
    if threads <= 1:
        yield None
        return
    pool = ThreadPoolExecutor(threads)
    try:
        yield pool
    finally:
        pool.shutdown()


def row_blocks(indptr: np.ndarray, per_row: int = 8) -> list[tuple[int, int]]:
    """Consecutive row ranges of about ``BLOCK_WORK`` work each (at most ``MAX_BLOCKS``)."""
    n = len(indptr) - 1
    if n == 0:
        return []
    work = indptr.astype(np.int64) + per_row * np.arange(n + 1)
    n_blocks = max(1, min(MAX_BLOCKS, n, int(work[-1]) // BLOCK_WORK))
    cuts = np.searchsorted(work, np.linspace(0, work[-1], n_blocks + 1)[1:-1])
    edges = np.unique(np.concatenate([[0], cuts, [n]]))
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:])]


#: Products with at most this many columns run on one thread through scipy's loop: the
#: compiled kernel was 10-80% slower on them (6 and 10 columns), 20-40% faster from 20 on
#: (TDT2 and a 2597-document subset of it, one thread).
NARROW = 12


class SparseProducts:
    """``diag(w) X`` for a sparse ``X``, ready for threaded products with dense matrices.

    Parameters
    ----------
    X : sparse matrix of shape (n_rows, n_cols)
        Kept as CSR arrays (duplicates summed); the values cast to ``dtype``.
    dtype : {numpy.float64, numpy.float32}
    row_weights : ndarray of shape (n_rows,), optional

    Attributes
    ----------
    shape : (int, int)
    nnz : int
    squared_norm : float
        ``||diag(w) X||_F^2``, summed in float64.

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 3, 0]]))
    >>> ops = SparseProducts(X, row_weights=np.array([1.0, 0.5]))
    >>> ops.dot(np.eye(3)).tolist()
    [[1.0, 0.0, 2.0], [0.0, 1.5, 0.0]]
    >>> ops.tdot(np.ones((2, 1))).ravel().tolist(), ops.squared_norm
    ([1.0, 1.5, 2.0], 7.25)
    """

    def __init__(self, X, *, dtype=np.float64, row_weights: np.ndarray | None = None):
        X = sp.csr_matrix(X)
        if not X.has_canonical_format:
            X = X.copy()
            X.sum_duplicates()
        if X.nnz and (X.indices.min() < 0 or X.indices.max() >= X.shape[1]):
            raise ValueError("the sparse matrix has column indices out of range")
        self.dtype = np.dtype(dtype)
        self.shape = X.shape
        self.nnz = int(X.nnz)
        index = np.int32 if max(X.nnz, *X.shape) < np.iinfo(np.int32).max else np.int64
        self.indptr = X.indptr.astype(index, copy=False)
        self.indices = X.indices.astype(index, copy=False)
        self.data = X.data.astype(self.dtype, copy=False)
        self.t_indptr, self.t_indices, self.t_data = csr_transpose(
            self.indptr, self.indices, self.data, X.shape[1])
        # sums from the given values, before any cast to single precision
        self._row_sums, squares = csr_row_sums(self.indptr, X.data.astype(np.float64, copy=False))
        weights = None if row_weights is None else np.asarray(row_weights, dtype=np.float64)
        self._weights64 = weights
        self.row_weights = (np.empty(0, dtype=self.dtype) if weights is None
                            else weights.astype(self.dtype))
        self.squared_norm = float(squares @ np.square(weights) if weights is not None
                                  else squares.sum())
        self.blocks = row_blocks(self.indptr)
        self.t_blocks = row_blocks(self.t_indptr)

    def sum(self) -> float:
        """The sum of the entries of ``diag(w) X``."""
        if self._weights64 is not None:
            return float(self._row_sums @ self._weights64)
        return float(self._row_sums.sum())

    def dot(self, B: np.ndarray, pool: Executor | None = None) -> np.ndarray:
        """``diag(w) X @ B`` for a dense ``B`` (n_cols, width), row blocks on ``pool``."""
        return self._product(self.indptr, self.indices, self.data, self.blocks,
                             self.row_weights, self._none, B, pool)

    def tdot(self, B: np.ndarray, pool: Executor | None = None) -> np.ndarray:
        """``(diag(w) X)^T @ B = X^T diag(w) B`` for a dense ``B`` (n_rows, width)."""
        return self._product(self.t_indptr, self.t_indices, self.t_data, self.t_blocks,
                             self._none, self.row_weights, B, pool)

    @property
    def _none(self) -> np.ndarray:
        return np.empty(0, dtype=self.dtype)

    def _product(self, indptr, indices, data, blocks, row_scale, col_scale, B, pool):
        B = np.ascontiguousarray(B, dtype=self.dtype)
        shape = (len(indptr) - 1, B.shape[0])
        if pool is None and B.shape[1] <= NARROW and not row_scale.size and not col_scale.size:
            # the same sums in the same order, so the same bits; scipy's loop is the faster here
            return sp.csr_matrix((data, indices, indptr), shape=shape, copy=False) @ B
        out = np.empty((shape[0], B.shape[1]), dtype=self.dtype)
        spmm_blocks(indptr, indices, data, row_scale, col_scale, B, out, blocks, pool)
        return out


def as_products(X, *, dtype=np.float64, row_weights=None) -> SparseProducts:
    """``X`` if it is already prepared (with the same dtype), else ``SparseProducts(X, ...)``."""
    if isinstance(X, SparseProducts):
        if X.dtype != np.dtype(dtype) or row_weights is not None:
            raise ValueError("a prepared SparseProducts carries its own dtype and row weights")
        return X
    return SparseProducts(X, dtype=dtype, row_weights=row_weights)
