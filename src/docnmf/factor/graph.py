"""The p-nearest-neighbour document graph with cosine weights (Cai, He & Han 2011, eq. 8).

Rows of ``X`` are documents (scikit-learn's orientation); the paper's
documents are the columns of its ``X``. Nothing here forms a dense
n x n similarity. For sparse documents a compiled kernel gathers each row of
the sparse product ``X X^T`` and keeps its ``p`` largest entries, so memory
grows with ``n * p`` (and three arrays of ``n`` per thread). Dense documents
and kernels go by blocks of rows of the similarity: the ``p`` largest of each
row are kept and the block is discarded, so memory grows with
``block_size * n + n * p``. Either way the
rows run on the threads BLAS may use (the kernel and scipy's products release
the GIL; BLAS itself is held to one thread meanwhile), and every row's
neighbours are those it would have alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from ._kernels import top_p_blocks
from .sparse import blas_threads, thread_pool

__all__ = ["knn_cosine_graph", "knn_kernel_graph", "cosine_neighbours", "kernel_neighbours",
           "graph_laplacian", "GraphLaplacian"]

#: Rows of a dense similarity computed at once (dense documents and kernels):
#: ``block_size * n`` floats live at a time. When 20 Newsgroups' sparse rows went this way
#: (18,846 documents, 2 threads; ``benchmarks/knn_graph.py``), 128 rows built the graph in
#: 5.7 s with a peak of 97 MiB, 512 rows in 6.8 s with 262 MiB.
DEFAULT_BLOCK = 128


def _row_norms(X) -> np.ndarray:
    if sp.issparse(X):
        return np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    return np.sqrt(np.einsum("ij,ij->i", X, X))


def _unit_rows(X):
    norms = _row_norms(X)
    inv = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    if sp.issparse(X):
        return sp.csr_matrix(sp.diags(inv) @ X)
    return X * inv[:, None]


def _top_p(sim: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Column indices and values of the ``p`` largest entries of each row (any order)."""
    p = min(p, sim.shape[1])
    if p == sim.shape[1]:
        cols = np.broadcast_to(np.arange(p), sim.shape).copy()
    else:
        cols = np.argpartition(-sim, p - 1, axis=1)[:, :p]
    return cols, np.take_along_axis(sim, cols, axis=1)


def _blocked_top_p(similarity_block, n_rows: int, n_cols: int, p: int, block_size: int,
                   exclude_self: bool) -> sp.csr_matrix:
    """The ``p``-largest-per-row pattern of a similarity given block by block, as CSR.

    ``similarity_block(start, stop)`` returns the dense rows ``start:stop``.
    Entries that are not positive are dropped: they would be edges of
    weight zero (or negative, which a graph Laplacian cannot use).
    """
    def edges(start: int, stop: int):
        sim = np.asarray(similarity_block(start, stop), dtype=np.float64)  # a new array
        if exclude_self:
            # a document is not its own neighbour (eq. 8 has S_jj = 0)
            sim[np.arange(stop - start), np.arange(start, stop)] = -np.inf
        c, v = _top_p(sim, p)
        r = np.repeat(np.arange(start, stop), c.shape[1])
        keep = v.ravel() > 0
        return r[keep], c.ravel()[keep], v.ravel()[keep]

    threads = blas_threads()
    step = max(1, block_size // threads)
    spans = [(start, min(start + step, n_rows)) for start in range(0, n_rows, step)]
    # the threads share the cores: a dense block's product must not start BLAS threads of its own
    with thread_pool(threads) as pool, threadpool_limits(limits=1, user_api="blas"):
        found = list((pool.map if pool is not None else map)(lambda span: edges(*span), spans))
    rows, cols, vals = (list(part) for part in zip(*found)) if found else ([], [], [])
    rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
    cols = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
    vals = np.concatenate(vals) if vals else np.zeros(0)
    return sp.csr_matrix((vals, (rows, cols)), shape=(n_rows, n_cols))


#: Rows of a block of the compiled top-p product (:func:`_sparse_top_p`): blocks enough for
#: the threads to share the rows evenly; the workspace does not grow with it.
SPARSE_BLOCK = 64


def _sparse_top_p(A: sp.csr_matrix, B: sp.csr_matrix, p: int, exclude_self: bool,
                  progress: Callable[[int, int], None] | None = None) -> sp.csr_matrix:
    """:func:`_blocked_top_p` of the rows of ``A @ B.T``, both sparse, entry for entry.

    A compiled kernel (:func:`~docnmf.factor._kernels.top_p_blocks`) gathers each row of the
    product and keeps its ``p`` largest on the BLAS threads: no dense row is formed or
    scanned. The few rows with a tie for the ``p``-th place (duplicate documents) are made
    dense and chosen by partition, as the blocks choose them, so the graph does not depend on
    which way it was built. ``progress(rows done, rows)`` is called as the blocks end.
    """
    index = np.int64 if max(A.nnz, B.nnz, *A.shape, *B.shape) > np.iinfo(np.int32).max \
        else np.int32
    a = sp.csr_matrix(A, dtype=np.float64)
    bt = sp.csr_matrix(B.T, dtype=np.float64)
    for m in (a, bt):
        m.indptr = m.indptr.astype(index, copy=False)
        m.indices = m.indices.astype(index, copy=False)
    n, n_cols = a.shape[0], bt.shape[1]
    blocks = [(start, min(start + SPARSE_BLOCK, n)) for start in range(0, n, SPARSE_BLOCK)]
    told = None if progress is None else (lambda b, _: progress(blocks[b - 1][1], n))
    with thread_pool(blas_threads()) as pool:
        rows, cols, vals, tied = top_p_blocks(a, bt, min(p, n_cols), 0 if exclude_self else None,
                                              blocks, pool, told)
    if tied.size:
        def dense_rows(start, stop):
            sim = (a[tied[start:stop]] @ bt).toarray()
            if exclude_self:
                sim[np.arange(stop - start), tied[start:stop]] = -np.inf
            return sim

        again = _blocked_top_p(dense_rows, tied.size, n_cols, p, DEFAULT_BLOCK,
                               exclude_self=False).tocoo()
        keep = ~np.isin(rows, tied)
        rows = np.concatenate([rows[keep], tied[again.row]])
        cols = np.concatenate([cols[keep], again.col])
        vals = np.concatenate([vals[keep], again.data])
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n_cols))


def _symmetrize(G: sp.csr_matrix) -> sp.csr_matrix:
    # eq. 8's "x_j in N_p(x_s) or x_s in N_p(x_j)": the union of the two directed graphs; the
    # weight is the same cosine either way, so the elementwise maximum is that union
    S = G.maximum(G.T).tocsr()
    S.sort_indices()
    return S


def knn_cosine_graph(X, p: int = 5, *, block_size: int = DEFAULT_BLOCK,
                     progress: Callable[[int, int], None] | None = None) -> sp.csr_matrix:
    """Weight matrix ``S`` of the symmetric p-nearest-neighbour graph with cosine weights (eq. 8).

    ``S_js = cos(x_j, x_s)`` when ``x_j`` is among the ``p`` documents most
    cosine-similar to ``x_s`` or ``x_s`` among those of ``x_j``, and 0
    otherwise; ``S_jj = 0``. Built from blocks of rows of the cosine
    matrix (``block_size`` rows at a time), never the whole n x n matrix.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_docs, n_terms)
        Documents as rows (the paper's columns).
    p : int
        Neighbours per document (5 in the paper).
    block_size : int
        Rows of similarities computed at once (dense ``X``; sparse rows need no
        dense block).
    progress : callable, optional
        ``progress(documents done, documents)``, called as the neighbours of sparse ``X``'s
        rows are found (a few minutes for 100,000 documents).

    Returns
    -------
    S : csr_matrix of shape (n_docs, n_docs)
        Symmetric, non-negative, zero diagonal. Ties at the p-th place are
        broken arbitrarily; documents of zero length have no edges, and
        neighbours with a cosine of zero or less give no edge.

    References
    ----------
    Cai, He & Han, Locally consistent concept factorization for document
    clustering, IEEE TKDE 2011, eq. (8).

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]])
    >>> S = knn_cosine_graph(X, p=1)
    >>> S.toarray().round(3).tolist()
    [[0.0, 0.994, 0.0, 0.0], [0.994, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.994], [0.0, 0.0, 0.994, 0.0]]
    """
    _check_p(p)
    Xn = _unit_rows(sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X)
                    else np.asarray(X, dtype=np.float64))
    if sp.issparse(Xn):
        return _symmetrize(_sparse_top_p(Xn, Xn, p, exclude_self=True, progress=progress))
    XnT = Xn.T
    n = Xn.shape[0]

    def block(start, stop):
        B = Xn[start:stop] @ XnT
        return B.toarray() if sp.issparse(B) else B

    return _symmetrize(_blocked_top_p(block, n, n, p, int(block_size), exclude_self=True))


def knn_kernel_graph(K: np.ndarray, p: int = 5, *,
                     block_size: int = DEFAULT_BLOCK) -> sp.csr_matrix:
    """Eq. 8 in a kernel's feature space: cosine ``K_js / sqrt(K_jj K_ss)`` from a Gram matrix.

    For precomputed kernels, where the documents themselves are not at hand.

    Examples
    --------
    >>> K = np.array([[1.0, 0.9, 0.0], [0.9, 1.0, 0.1], [0.0, 0.1, 1.0]])
    >>> knn_kernel_graph(K, p=1).toarray().tolist()
    [[0.0, 0.9, 0.0], [0.9, 0.0, 0.1], [0.0, 0.1, 0.0]]
    """
    _check_p(p)
    K = np.asarray(K, dtype=np.float64)
    d = np.sqrt(np.clip(np.diag(K), 0.0, None))
    inv = np.divide(1.0, d, out=np.zeros_like(d), where=d > 0)
    n = K.shape[0]

    def block(start, stop):
        return K[start:stop] * inv[start:stop, None] * inv[None, :]

    return _symmetrize(_blocked_top_p(block, n, n, p, int(block_size), exclude_self=True))


def cosine_neighbours(X_new, X, p: int = 5, *, block_size: int = DEFAULT_BLOCK) -> sp.csr_matrix:
    """Cosine weights of each new document to its ``p`` nearest fitted documents.

    Row ``i`` is the vector ``s~`` of Section 3.6 for new document ``i``:
    ``cos(x_j, x'_i)`` for the ``p`` fitted documents ``x_j`` nearest to it,
    0 elsewhere (a new document is never its own neighbour).

    Returns
    -------
    csr_matrix of shape (n_new, n_docs)

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> cosine_neighbours(np.array([[2.0, 0.1]]), X, p=1).toarray().round(3).tolist()
    [[0.999, 0.0]]
    """
    _check_p(p)

    def as_unit(A):
        return _unit_rows(sp.csr_matrix(A, dtype=np.float64) if sp.issparse(A)
                          else np.asarray(A, dtype=np.float64))

    An, Bn = as_unit(X_new), as_unit(X)
    if sp.issparse(An) and sp.issparse(Bn):
        return _sparse_top_p(An, Bn, p, exclude_self=False)
    BnT = Bn.T.tocsr() if sp.issparse(Bn) else Bn.T

    def block(start, stop):
        B = An[start:stop] @ BnT
        return B.toarray() if sp.issparse(B) else B

    return _blocked_top_p(block, An.shape[0], Bn.shape[0], p, int(block_size), exclude_self=False)


def kernel_neighbours(K_new: np.ndarray, diag_new: np.ndarray, diag_fit: np.ndarray,
                      p: int = 5) -> sp.csr_matrix:
    """:func:`cosine_neighbours` in a kernel's feature space, from new-to-fitted kernel values.

    ``cos = K_new[i, j] / sqrt(k(x'_i, x'_i) k(x_j, x_j))``, top ``p`` per row.

    Examples
    --------
    >>> K_new, diag_new, diag_fit = np.array([[0.5, 2.0]]), np.array([1.0]), np.array([1.0, 16.0])
    >>> kernel_neighbours(K_new, diag_new, diag_fit, 1).toarray()
    array([[0.5, 0. ]])
    """
    _check_p(p)
    K_new = np.asarray(K_new, dtype=np.float64)

    def inv_sqrt(d):
        d = np.sqrt(np.clip(np.asarray(d, dtype=np.float64), 0.0, None))
        return np.divide(1.0, d, out=np.zeros_like(d), where=d > 0)

    a, b = inv_sqrt(diag_new), inv_sqrt(diag_fit)

    def block(start, stop):
        return K_new[start:stop] * a[start:stop, None] * b[None, :]

    return _blocked_top_p(block, K_new.shape[0], K_new.shape[1], p, DEFAULT_BLOCK,
                          exclude_self=False)


class GraphLaplacian(NamedTuple):
    """The pieces of ``L = D - S`` the multiplicative updates use separately (eqs. 9, 18)."""

    S: sp.csr_matrix
    degrees: np.ndarray
    L: sp.csr_matrix


def graph_laplacian(S) -> GraphLaplacian:
    """Degrees ``D_jj = sum_s S_js`` and the Laplacian ``L = D - S`` (eq. 9), all sparse.

    Examples
    --------
    >>> g = graph_laplacian(sp.csr_matrix(np.array([[0.0, 2.0], [2.0, 0.0]])))
    >>> g.degrees.tolist(), g.L.toarray().tolist()
    ([2.0, 2.0], [[2.0, -2.0], [-2.0, 2.0]])
    """
    S = sp.csr_matrix(S, dtype=np.float64)
    degrees = np.asarray(S.sum(axis=1)).ravel()
    L = (sp.diags(degrees) - S).tocsr()
    return GraphLaplacian(S, degrees, L)


def _check_p(p) -> None:
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 1:
        raise ValueError(f"the number of neighbours p must be a positive integer, got {p!r}")
