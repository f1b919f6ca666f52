"""NMF by hierarchical alternating least squares (HALS), accelerated, restarts side by side.

Minimises the same objective as :mod:`docnmf.factor.nmf`, ``J = 1/2 ||X - V U^T||^2``
(rows of ``X`` are documents; the papers' ``X ~ U V^T`` with terms as rows),
by exact coordinate minimisation over one column of a factor at a time
(Cichocki & Phan 2009): with ``G = U^T U`` and ``A = X U`` fixed,

    v_j <- max(0, v_j + (a_j - V g_j) / g_jj),    j = 1..k,

and likewise for ``U`` with ``V^T V`` and ``X^T V``. Each step minimises ``J``
exactly over ``v_j``, so ``J`` never increases. The two sparse products are
by far the dearest part, so each is reused for several sweeps over the
columns while those still change much (Gillis & Glineur 2012): at most
``1 + alpha * (cost of the products) / (cost of a sweep)`` sweeps, stopping
early once a sweep changes the factor by less than ``delta`` times the first.

Several restarts run as one batch: factors are stored as stacks of shape
(restarts, k, n), so each sparse product covers every restart at once (split
by rows over the threads); each restart's column steps run on its own block,
the restarts on a thread pool. A restart leaves the batch when its own
relative decrease of ``J`` falls below ``tol``.
"""

from __future__ import annotations

from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Callable

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_info, threadpool_limits

from ._losses import has_converged, nmf_losses_stacked, squared_norm
from .nmf import FactorResult, normalize_uv

__all__ = ["fit_nmf_hals", "fit_nmf_hals_batched", "hals_sweeps"]

#: Gillis & Glineur (2012)'s choices: sweeps per product in proportion to their costs, and
#: an early stop once a sweep moves the factor less than a tenth of the first sweep.
ALPHA = 0.5
DELTA = 0.1


#: Bytes of a factor block and its data block swept together: small enough to stay in a
#: core's cache through all k column steps (one step across the whole factor streams all of
#: it from memory, k times a sweep: 2.4x slower on 20 Newsgroups), large enough that NumPy's
#: per-call cost stays small.
BLOCK_BYTES = 1 << 21


def hals_sweeps(Ft: np.ndarray, At: np.ndarray, G: np.ndarray, max_sweeps: int,
                delta: float = DELTA, pool: Executor | None = None) -> None:
    """Update the stacked factor ``Ft`` (r, k, n) in place by HALS column steps.

    Minimises ``1/2 ||M - F H^T||^2`` over ``F >= 0`` for each restart, given
    ``At = (M H)^T`` of shape (r, k, n) and ``G = H^T H`` of shape (r, k, k).
    ``pool`` runs the restarts concurrently (NumPy releases the GIL in the
    array operations).
    """
    work = [(Ft[i], At[i], G[i]) for i in range(Ft.shape[0])]
    if pool is None or len(work) == 1:
        for F, A, Gi in work:
            _sweeps(F, A, Gi, max_sweeps, delta)
    else:
        list(pool.map(lambda args: _sweeps(*args, max_sweeps, delta), work))


def _sweeps(F: np.ndarray, A: np.ndarray, G: np.ndarray, max_sweeps: int, delta: float) -> None:
    """At most ``max_sweeps`` sweeps over the rows of ``F`` (k, n); stop once a sweep moves ``F``
    by at most ``delta`` times the first.

    The columns of ``F`` do not interact within a sweep (the step for column
    ``i`` reads only column ``i`` of ``F`` and ``A``, and ``G``), so a sweep
    is done a cache-sized block of columns at a time, all k row steps on one
    block before the next.
    """
    diag = np.diagonal(G)
    scale = np.divide(1.0, diag, out=np.zeros_like(diag), where=diag > 0)
    k, n = F.shape
    width = max(256, BLOCK_BYTES // (2 * k * F.itemsize))
    blocks = [(a, min(a + width, n)) for a in range(0, n, width)]
    first = None
    for _ in range(max_sweeps):
        change = 0.0
        for a, b in blocks:
            change += _sweep_block(F[:, a:b], A[:, a:b], G, scale)
        if first is None:
            first = change
        elif change <= delta * delta * first:
            return


def _sweep_block(F: np.ndarray, A: np.ndarray, G: np.ndarray, scale: np.ndarray) -> float:
    """One sweep over the rows of ``F`` (k, m), in place; returns the squared size of the move.

    A row whose ``g_jj`` is zero (an all-zero partner column) is left unchanged.
    """
    moved = 0.0
    for j in range(F.shape[0]):
        # the exact minimiser over row j: f_j + (a_j - g_j F) / g_jj, clipped at zero
        new = np.maximum(F[j] + (A[j] - G[j] @ F) * scale[j], 0.0)
        step = new - F[j]
        moved += float(step @ step)
        F[j] = new
    return moved


def blas_threads() -> int:
    """The number of threads BLAS may use here (as threadpoolctl limits it), at least 1."""
    counts = [info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"]
    return max(1, min(counts)) if counts else 1


class RowBlocks:
    """A CSR matrix cut into row blocks, multiplied block by block on a thread pool.

    Rows of a sparse-times-dense product are independent, so the stacked
    blocks equal the whole product bit for bit; scipy releases the GIL while
    it multiplies, so the blocks run on as many cores as the pool has.
    """

    def __init__(self, A, n_blocks: int):
        self.shape, self.nnz = A.shape, A.nnz
        edges = np.linspace(0, A.shape[0], max(1, n_blocks) + 1).astype(int)
        self.blocks = [_rows(A, a, b) for a, b in zip(edges[:-1], edges[1:])] \
            if n_blocks > 1 else [A]

    def dot(self, B: np.ndarray, pool: Executor | None = None) -> np.ndarray:
        if len(self.blocks) == 1:
            return self.blocks[0] @ B
        parts = pool.map(lambda block: block @ B, self.blocks) if pool is not None else \
            (block @ B for block in self.blocks)
        return np.vstack(list(parts))


def _rows(A: sp.csr_matrix, a: int, b: int) -> sp.csr_matrix:
    """Rows ``a:b`` of ``A`` as a CSR matrix over ``A``'s own arrays (no copy)."""
    start, stop = A.indptr[a], A.indptr[b]
    return sp.csr_matrix((A.data[start:stop], A.indices[start:stop], A.indptr[a:b + 1] - start),
                         shape=(b - a, A.shape[1]), copy=False)


def _transposed(P: np.ndarray, r: int, k: int) -> np.ndarray:
    """A product ``(n, r*k)`` of restarts side by side as a contiguous (r, k, n) stack."""
    return np.ascontiguousarray(P.T).reshape(r, k, P.shape[0])


def _wide(Ft: np.ndarray) -> np.ndarray:
    """The stack (r, k, n) as the (n, r*k) matrix ``[F_1 ... F_r]``."""
    r, k, n = Ft.shape
    return np.ascontiguousarray(Ft.reshape(r * k, n).T)


def fit_nmf_hals_batched(X, starts: list[tuple[np.ndarray, np.ndarray]], *, max_iter: int = 300,
                         tol: float = 1e-4, dtype=np.float64, alpha: float = ALPHA,
                         delta: float = DELTA, sweeps: tuple[int, int] | None = None,
                         threads: int | None = None, row_weights: np.ndarray | None = None,
                         callback: Callable[[int, np.ndarray], None] | None = None
                         ) -> list[FactorResult]:
    """Accelerated HALS from each ``(U0, V0)`` in ``starts``, all restarts in one batch.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_docs, n_terms)
        Non-negative data, documents as rows; sparse stays sparse.
    starts : list of (U0 of shape (n_terms, k), V0 of shape (n_docs, k))
    max_iter : int
        Maximum rounds (one ``U`` and one ``V`` update, each on fresh products).
    tol : float
        A restart stops when ``(J_prev - J) / J_prev`` falls below ``tol``.
    dtype : {numpy.float64, numpy.float32}
        Precision of the factors and products; objectives are summed in float64.
    alpha, delta : float
        Inner-sweep budget and early stop (Gillis & Glineur 2012).
    sweeps : (int, int), optional
        At most this many sweeps over the columns of ``V`` and of ``U`` per
        product, instead of the budget that ``alpha`` gives.
    threads : int, optional
        Threads for the sparse products (row blocks) and the restarts' sweeps;
        default: as many as BLAS may use (threadpoolctl sets both).
    row_weights : ndarray of shape (n_docs,), optional
        Factorize ``diag(row_weights) @ X`` without forming it: the weights go
        onto the dense side of each product. NCW (``D^{-1/2} X``) fits this way
        with no weighted copy of ``X`` held during the fit.
    callback : callable(iteration, losses of the active restarts), optional

    Returns
    -------
    list of FactorResult
        One per start, in order: ``U`` with unit-length columns and ``V``
        rescaled (as eqs. 10-11 of Xu et al. 2003), so ``V U^T`` is the fit.

    References
    ----------
    Cichocki & Phan, Fast local algorithms for large scale nonnegative matrix
    and tensor factorizations, IEICE Trans. Fundamentals E92-A, 2009.
    Gillis & Glineur, Accelerated multiplicative updates and hierarchical ALS
    algorithms for nonnegative matrix factorization, Neural Computation 24, 2012.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((8, 6))
    >>> res, = fit_nmf_hals_batched(X, [(rng.random((6, 2)), rng.random((8, 2)))], max_iter=50)
    >>> bool(np.all(np.diff(res.losses) <= 1e-12 * res.losses[0]))
    True
    """
    dtype = np.dtype(dtype)
    # the starts as the solver's own stacks; a caller that passed its list without keeping it
    # (as NMFClustering does) then holds the starts' memory no longer
    Ut = np.stack([np.asarray(U0, dtype=dtype).T for U0, _ in starts])   # (r, k, n_terms)
    Vt = np.stack([np.asarray(V0, dtype=dtype).T for _, V0 in starts])   # (r, k, n_docs)
    del starts
    X_sqnorm = squared_norm(X) if row_weights is None else _weighted_squared_norm(X, row_weights)
    X = X.astype(dtype, copy=False) if sp.issparse(X) else np.asarray(X, dtype=dtype)
    threads = blas_threads() if threads is None else int(threads)
    pool = ThreadPoolExecutor(threads) if threads > 1 else None
    if sp.issparse(X):
        X, Xt = RowBlocks(X, threads), RowBlocks(X.T.tocsr(), threads)
        product = lambda A, B: A.dot(B, pool)  # noqa: E731
    else:
        Xt = np.ascontiguousarray(X.T)
        product = lambda A, B: A @ B  # noqa: E731
    if row_weights is not None:
        product = _row_weighted(product, X, np.asarray(row_weights, dtype=dtype))
    # the threads are ours: BLAS threads on top of them only contend (measured on 20 Newsgroups:
    # 1.7x slower with both than with ours alone)
    with threadpool_limits(limits=1 if pool is not None else None, user_api="blas"):
        try:
            return _fit(X, Xt, Ut, Vt, product, pool, X_sqnorm, max_iter=max_iter, tol=tol,
                        dtype=dtype, alpha=alpha, delta=delta, sweeps=sweeps, callback=callback)
        finally:
            if pool is not None:
                pool.shutdown()


def _weighted_squared_norm(X, w: np.ndarray) -> float:
    """``||diag(w) X||_F^2``, without a weighted copy of a sparse ``X``."""
    w = np.asarray(w, dtype=np.float64)
    if not sp.issparse(X):
        return squared_norm(np.asarray(X) * w[:, None])
    X = sp.csr_matrix(X)
    if not X.has_canonical_format:  # duplicates are summed before they are squared
        X = X.copy()
        X.sum_duplicates()
    return float(np.square(X.data) @ np.repeat(np.square(w), np.diff(X.indptr)))


def _row_weighted(product, X, w: np.ndarray):
    """``product`` for ``diag(w) X`` and its transpose, given the one for ``X``."""
    def weighted(A, B):
        if A is X:  # (W X) B = W (X B)
            out = product(A, B)
            out *= w[:, None]
            return out
        return product(A, w[:, None] * B)  # (W X)^T B = X^T (W B)
    return weighted


def _fit(X, Xt, Ut, Vt, product, pool, X_sqnorm, *, max_iter, tol, dtype, alpha, delta, sweeps,
         callback):
    n_docs, n_terms = X.shape
    r, k = Ut.shape[:2]
    nnz = X.nnz if isinstance(X, RowBlocks) else n_docs * n_terms
    # sweeps per product: the products cost ~nnz k (+ the Gram), a sweep ~n k^2
    sweeps_v, sweeps_u = sweeps or (
        1 + int(alpha * (nnz * k + n_terms * k * k) / max(n_docs * k * k, 1)),
        1 + int(alpha * (nnz * k + n_docs * k * k) / max(n_terms * k * k, 1)))

    UtU = np.matmul(Ut, Ut.transpose(0, 2, 1))
    VtV = np.matmul(Vt, Vt.transpose(0, 2, 1))
    XUt = _transposed(product(X, _wide(Ut)), r, k)
    losses = [[float(x)] for x in nmf_losses_stacked(X_sqnorm, XUt, Vt, UtU, VtV)]
    done: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    n_iter = np.zeros(r, dtype=int)
    converged = np.zeros(r, dtype=bool)
    active = np.arange(r)
    for it in range(1, max_iter + 1):
        a = len(active)
        if it > 1:
            XUt = _transposed(product(X, _wide(Ut)), a, k)
        # documents first, then terms: the loss then comes from X^T V, which the U step needs
        hals_sweeps(Vt, XUt, UtU, sweeps_v, delta, pool)
        VtV = np.matmul(Vt, Vt.transpose(0, 2, 1))
        XtVt = _transposed(product(Xt, _wide(Vt)), a, k)
        hals_sweeps(Ut, XtVt, VtV, sweeps_u, delta, pool)
        UtU = np.matmul(Ut, Ut.transpose(0, 2, 1))
        current = nmf_losses_stacked(X_sqnorm, XtVt, Ut, VtV, UtU)
        if callback is not None:
            callback(it, current)
        stop = np.zeros(a, dtype=bool)
        for i, rr in enumerate(active):
            previous = losses[rr][-1]
            losses[rr].append(float(current[i]))
            n_iter[rr] = it
            stop[i] = has_converged(previous, current[i], tol)
        if stop.any():
            converged[active[stop]] = True
            # copies: views would keep the whole stack alive after the batch shrinks
            done.update((int(rr), (Ut[i].copy(), Vt[i].copy()))
                        for i, rr in enumerate(active) if stop[i])
            keep = ~stop
            active, Ut, Vt = active[keep], Ut[keep], Vt[keep]
            UtU, VtV = UtU[keep], VtV[keep]
        if not len(active):
            break
    done.update((int(rr), (Ut[i], Vt[i])) for i, rr in enumerate(active))
    results = []
    for rr in range(r):
        U, V = normalize_uv(done[rr][0].T, done[rr][1].T)
        results.append(FactorResult(np.ascontiguousarray(U), np.ascontiguousarray(V),
                                    int(n_iter[rr]), np.asarray(losses[rr]), bool(converged[rr])))
    return results


def fit_nmf_hals(X, U0: np.ndarray, V0: np.ndarray, *, max_iter: int = 300, tol: float = 1e-4,
                 dtype=np.float64, callback: Callable[[int, float], None] | None = None
                 ) -> FactorResult:
    """Accelerated HALS from one start; see :func:`fit_nmf_hals_batched`.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> X = rng.random((8, 6))
    >>> res = fit_nmf_hals(X, rng.random((6, 2)), rng.random((8, 2)), max_iter=30)
    >>> res.U.shape, res.V.shape
    ((6, 2), (8, 2))
    """
    each = None if callback is None else (lambda it, losses: callback(it, float(losses[0])))
    return fit_nmf_hals_batched(X, [(U0, V0)], max_iter=max_iter, tol=tol, dtype=dtype,
                                callback=each)[0]
