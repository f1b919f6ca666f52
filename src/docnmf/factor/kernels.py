"""Kernels known by their products: the linear kernel of sparse documents, never formed; dense ones.

A :class:`KernelOperator` knows an n x n kernel ``K`` (optionally weighted,
``diag(g) K diag(g)``) only by products ``K @ A``. For the linear kernel on
non-negative data :class:`LinearKernel` keeps the sparse ``X`` and computes
``K @ A = X @ (X.T @ A)``: the n x n matrix is never formed, and time and
memory per product grow with the non-zeros of ``X``. Other kernels
(degree-2 polynomial, a user function, a precomputed Gram matrix) and the
linear kernel on data with negative entries (whose ``K`` must be split into
positive and negative parts, Cai et al. 2011, eqs. 22-28) are held as a
dense n x n array by :class:`DenseKernel`. CF/LCCF, kernel k-means and the
kernelised graph cuts all take their kernels from here.
"""

from __future__ import annotations

import copy
import warnings
from typing import Callable, Literal, Sequence, Union

import numpy as np
import scipy.sparse as sp

from .nmf import side_by_side
from .sparse import SparseProducts, thread_pool

__all__ = ["KernelOperator", "LinearKernel", "DenseKernel", "dense_gram", "make_kernel",
           "poly2_kernel", "symmetric_gram", "KernelSpec"]

KernelSpec = Union[Literal["linear", "poly2", "precomputed"], Callable[..., np.ndarray]]



def poly2_kernel(A, B) -> np.ndarray:
    """``<a_i, b_j>^2``, the degree-2 polynomial kernel of the paper's Tables 4-7 (dense result).

    Examples
    --------
    >>> poly2_kernel(np.array([[1.0, 2.0]]), np.array([[3.0, 1.0], [0.0, 1.0]])).tolist()
    [[25.0, 4.0]]
    """
    G = A @ B.T
    G = G.toarray() if sp.issparse(G) else np.asarray(G)
    return G * G


class KernelOperator:
    """An n x n kernel ``K`` (optionally weighted, ``diag(g) K diag(g)``) known by products.

    Subclasses implement ``matmul``; those whose ``K`` may have negative
    entries also ``matmul_positive`` (``K^+ @ A``, eqs. 25 and 28).
    """

    n: int
    has_negative: bool = False
    dtype: np.dtype = np.dtype(np.float64)
    #: Tr(K) when known more precisely than the operator's own dtype gives it (see astype)
    _trace: float | None = None

    def matmul(self, A: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def __matmul__(self, A: np.ndarray) -> np.ndarray:
        return self.matmul(A)

    @property
    def shape(self) -> tuple[int, int]:
        """``(n, n)``, so an operator stands where an n x n Gram matrix would."""
        return (self.n, self.n)

    def matmul_blocks(self, blocks: Sequence[np.ndarray]) -> list[np.ndarray]:
        """``[K @ A for A in blocks]``, bit for bit; subclasses may do it in one product."""
        return [self.matmul(A) for A in blocks]

    def matmul_positive_blocks(self, blocks: Sequence[np.ndarray]) -> list[np.ndarray]:
        """``[K^+ @ A for A in blocks]``, bit for bit."""
        return [self.matmul_positive(A) for A in blocks]

    def matmul_positive(self, A: np.ndarray) -> np.ndarray:
        """``K^+ @ A`` with ``K^+`` the positive entries of ``K`` (Section 3.5)."""
        if not self.has_negative:
            return self.matmul(A)
        raise NotImplementedError

    def diagonal(self) -> np.ndarray:
        raise NotImplementedError

    def trace(self) -> float:
        if self._trace is not None:
            return self._trace
        return float(self.diagonal().sum())

    def astype(self, dtype) -> "KernelOperator":
        """The same kernel with its data and products in ``dtype`` (``Tr(K)`` kept as is)."""
        raise NotImplementedError

    def row_sums(self) -> np.ndarray:
        """``K e``: each document's total kernel similarity, the NC degrees."""
        return self.matmul(np.ones((self.n, 1))).ravel()

    def weighted(self, g: np.ndarray) -> "KernelOperator":
        """The operator of ``diag(g) K diag(g)`` (Appendix B with ``g = gamma^{1/2}``)."""
        raise NotImplementedError

    def dense(self) -> np.ndarray:
        """``K`` as an n x n array (for tests and small problems)."""
        return self.matmul(np.eye(self.n))


class LinearKernel(KernelOperator):
    """``K = diag(g) X X^T diag(g)`` for non-negative ``X``, never formed.

    ``K @ A = g * (X @ (X.T @ (g * A)))``: two sparse products. For sparse
    ``X``, :meth:`matmul_blocks` makes them two products for all the blocks
    together (:func:`side_by_side`).
    """

    def __init__(self, X, g: np.ndarray | None = None, *, dtype=np.float64):
        self.dtype = np.dtype(dtype)
        self.X = sp.csr_matrix(X, dtype=self.dtype) if sp.issparse(X) \
            else np.asarray(X, self.dtype)
        # sparse products by the compiled kernels, which sum each entry in scipy's order:
        # the same bits, on every core
        self._ops = SparseProducts(self.X, dtype=self.dtype) if sp.issparse(self.X) else None
        self.Xt = None if self._ops is not None else self.X.T
        self.n = self.X.shape[0]
        self.g = None if g is None else np.asarray(g, dtype=self.dtype)

    def _product(self, transposed: bool, A: np.ndarray) -> np.ndarray:
        """``X^T @ A`` or ``X @ A``."""
        if np.ndim(A) == 1:
            return self._product(transposed, np.reshape(A, (-1, 1))).ravel()
        if self._ops is None:
            return np.asarray((self.Xt if transposed else self.X) @ A)
        if A.dtype != self.dtype:   # as scipy would: the wider type
            return np.asarray((self.X.T if transposed else self.X) @ A)
        with thread_pool() as pool:
            return self._ops.tdot(A, pool) if transposed else self._ops.dot(A, pool)

    def concepts(self, A: np.ndarray) -> np.ndarray:
        """``X^T diag(g) A``: the term vectors of the concepts (the paper's ``X W``)."""
        if self.g is not None:
            A = A * self.g[:, None]
        return self._product(True, A)

    def matmul(self, A):
        out = self._product(False, self.concepts(A))
        return out if self.g is None else out * self.g[:, None]

    def matmul_blocks(self, blocks):
        if sp.issparse(self.X):
            return side_by_side(self.matmul, blocks)
        return super().matmul_blocks(blocks)

    def diagonal(self):
        X = self.X
        sq = np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X) \
            else np.einsum("ij,ij->i", X, X)
        return sq if self.g is None else sq * self.g**2

    def weighted(self, g):
        # the same X, and so the same prepared products (X^T, as large as X): shared, not
        # built again; the weights go onto the dense side of each product
        out = copy.copy(self)
        out.g = np.asarray(g if self.g is None else g * self.g, dtype=self.dtype)
        out._trace = None
        return out

    def astype(self, dtype):
        out = LinearKernel(self.X, self.g, dtype=dtype)
        out._trace = self.trace()
        return out


class DenseKernel(KernelOperator):
    """``K = diag(g) G diag(g)`` with a dense Gram matrix ``G`` held in memory.

    Its products with several blocks stay one product per block: a dense
    product of the blocks side by side would not give the same bits
    (see :func:`side_by_side`).
    """

    def __init__(self, G: np.ndarray, g: np.ndarray | None = None, *, dtype=np.float64):
        self.dtype = np.dtype(dtype)
        self.G = np.asarray(G, dtype=self.dtype)
        if self.G.ndim != 2 or self.G.shape[0] != self.G.shape[1]:
            raise ValueError(f"a kernel matrix must be square, got shape {self.G.shape}")
        self.n = self.G.shape[0]
        self.g = None if g is None else np.asarray(g, dtype=self.dtype)
        self.has_negative = bool((self.G < 0).any())
        self._positive = None

    def _apply(self, M, A):
        if self.g is None:
            return M @ A
        return (M @ (A * self.g[:, None])) * self.g[:, None]

    def matmul(self, A):
        return self._apply(self.G, A)

    def matmul_positive(self, A):
        if not self.has_negative:
            return self.matmul(A)
        if self._positive is None:
            self._positive = np.maximum(self.G, 0.0)
        return self._apply(self._positive, A)

    def diagonal(self):
        d = np.diag(self.G).copy()
        return d if self.g is None else d * self.g**2

    def weighted(self, g):
        return DenseKernel(self.G, g if self.g is None else g * self.g, dtype=self.dtype)

    def astype(self, dtype):
        out = DenseKernel(self.G, self.g, dtype=dtype)
        out._trace = self.trace()
        return out

    def dense(self):
        return self.G.copy() if self.g is None else self.G * np.outer(self.g, self.g)


def dense_gram(G) -> np.ndarray:
    """A Gram matrix a callable kernel returned, dense float64: scikit-learn's kernels give
    a sparse one for sparse documents (``linear_kernel(..., dense_output=False)``, or ``A @
    B.T``), which ``np.asarray`` would make an array of one object."""
    return G.toarray().astype(np.float64, copy=False) if sp.issparse(G) \
        else np.asarray(G, dtype=np.float64)


def symmetric_gram(K: np.ndarray) -> np.ndarray:
    """A precomputed Gram matrix, made symmetric (``(K + K^T) / 2``, with a warning) when it
    is not: the updates and the cuts read ``K_ij`` and ``K_ji`` as one similarity (a
    similarity to each document's nearest neighbours only, say, is one-sided)."""
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.size == 0:
        return K                          # refused by the estimator, in its words
    gap = float(np.max(np.abs(K - K.T)))
    if gap <= 1e-10 * max(1.0, float(np.max(np.abs(K)))):
        return K
    warnings.warn(f"the precomputed kernel is not symmetric (|K_ij - K_ji| up to {gap:.3g}): "
                  "it is replaced by (K + K^T) / 2", UserWarning, stacklevel=4)
    return (K + K.T) / 2


def make_kernel(X, kernel: KernelSpec = "linear") -> KernelOperator:
    """The kernel operator for documents ``X`` (rows), or for a Gram matrix when precomputed.

    ``"linear"`` on non-negative data gives a :class:`LinearKernel` (``K``
    never formed); on data with negative entries ``K`` may have negative
    entries, which the updates of Section 3.5 need split into parts, so it is
    formed densely. ``"poly2"`` and a callable ``kernel(A, B) -> Gram`` are
    evaluated into a dense matrix; ``"precomputed"`` takes ``X`` as ``K``.

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0], [1.0, 1.0]]))
    >>> make_kernel(X).dense().tolist(), make_kernel(X, "poly2").dense().tolist()
    ([[1.0, 1.0], [1.0, 2.0]], [[1.0, 1.0], [1.0, 4.0]])
    """
    if isinstance(kernel, str) and kernel == "precomputed":
        return DenseKernel(symmetric_gram(X.toarray() if sp.issparse(X) else np.asarray(X)))
    if isinstance(kernel, str) and kernel == "linear":
        negative = (X.data < 0).any() if sp.issparse(X) else (np.asarray(X) < 0).any()
        if not negative:
            return LinearKernel(X)
        G = X @ X.T
        return DenseKernel(G.toarray() if sp.issparse(G) else G)
    if isinstance(kernel, str) and kernel == "poly2":
        return DenseKernel(poly2_kernel(X, X))
    if callable(kernel):
        return DenseKernel(dense_gram(kernel(X, X)))
    raise ValueError(f"kernel must be 'linear', 'poly2', 'precomputed' or a callable, "
                     f"got {kernel!r}")
