"""NMF by hierarchical alternating least squares (HALS), accelerated, restarts side by side.

Minimises the same objective as :mod:`docnmf.factor.nmf`, ``J = 1/2 ||X - V U^T||^2``
(rows of ``X`` are documents; the papers' ``X ~ U V^T`` with terms as rows),
by exact coordinate minimisation over one entry of a factor at a time
(Cichocki & Phan 2009): with ``G = U^T U`` and ``A = X U`` fixed,

    v_ij <- max(0, v_ij + (a_ij - (V G)_ij) / g_jj),    j = 1..k,

and likewise for ``U`` with ``V^T V`` and ``X^T V``. Each step minimises ``J``
exactly over ``v_ij``, so ``J`` never increases. The step for ``v_ij`` reads
only row ``i`` of ``V`` and ``A``: a sweep over the columns is the same as
sweeping each row on its own, which is how it runs here, fused with the
product. Row ``i``'s ``a_i = x_i U`` is gathered from its stored entries, its
``k`` coordinates are swept at most ``s`` times while they still move (the
budget of Gillis & Glineur 2012: ``s = 1 + alpha * cost(product) /
cost(sweep)``; a row stops once a sweep moves it by less than ``delta`` times
its first), and the new row adds its part of ``V^T V`` and of the objective.
Then the same over the rows of ``X^T`` for ``U``. Each round thus reads ``X``
twice and nothing of size documents x k beyond the factors themselves.

Between rounds the factors are extrapolated (after Ang & Gillis 2019): a
round that lowered the objective is kept, and the next starts from
``max(0, F + beta (F - F_kept))`` for both factors, with ``beta`` growing
while that pays; a round from an extrapolated point that did not lower the
objective is dropped, ``beta`` shrinks, and the next round starts from the
kept factors, as plain HALS (which never increases ``J``). The objective
recorded after each round is the kept factors', so it never increases; on
20 Newsgroups and TDT2 the objective scikit-learn's coordinate descent stops
at is reached in about half the rounds (``benchmarks/solvers.py``).

Restarts run side by side: the factors of ``r`` starts are stored as one wide
matrix (rows x ``r k``), so each stored entry of ``X`` is read once for all of
them; each restart has its own Gram matrices and leaves the batch when its
own relative decrease of ``J`` falls below ``tol``. A restart's numbers do
not depend on the others, nor on the number of threads (fixed row blocks,
partial sums added in block order).
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Callable

import numpy as np
import scipy.sparse as sp
from threadpoolctl import threadpool_limits

from ._kernels import hals_blocks
from ._losses import has_converged, squared_norm
from .nmf import FactorResult, normalize_uv
from .sparse import SparseProducts, as_products, blas_threads, row_blocks, thread_pool

__all__ = ["fit_nmf_hals", "fit_nmf_hals_batched", "blas_threads"]

#: Gillis & Glineur (2012)'s choices: sweeps per product in proportion to their costs, and
#: an early stop once a sweep moves the row less than a tenth of the first sweep.
ALPHA = 0.5
DELTA = 0.1

#: The extrapolation's step size: its start, the factor it shrinks by after a dropped round,
#: and the factors by which it and its ceiling grow after a kept one. Ang & Gillis (2019) use
#: growth factors 1.01 and 1.005; 1.05 and 1.01 reached plain HALS's converged objective in
#: 0.51 and 0.56 of plain HALS's time on the 19 CLUTO sets (with and without NCW) against 0.58
#: and 0.55, and in 0.20 and 0.51 against 0.31 and 0.60 on the six corpora held back
#: (``benchmarks/hals_extrapolation.py``, ``reports/solver-defaults``).
BETA0, ETA, GAMMA, GAMMA_CEILING = 0.5, 1.5, 1.05, 1.01
#: A round from an extrapolated point is kept unless it raises the objective by more than
#: this (relative): where the objective has stopped moving, rounding alone (a dense or a
#: sparse X, say) must not decide whether a round is dropped.
ROUNDING = 1e-12


def sweep_budget(n_rows: int, n_other: int, nnz: int, k: int, alpha: float = ALPHA) -> int:
    """Sweeps per product for a factor of ``n_rows`` rows (Gillis & Glineur 2012, eq. 13).

    The product ``X W`` costs about ``nnz k`` plus the Gram matrix of the
    other factor, ``n_other k^2``; one sweep ``n_rows k^2``.
    """
    return 1 + int(alpha * (nnz * k + n_other * k * k) / max(n_rows * k * k, 1))


class _Side:
    """One side of the factorization: the rows of ``M`` (``X`` or ``X^T``) and their factor."""

    def __init__(self, indptr, indices, data, row_scale, col_scale, dense, blocks, dtype,
                 product):
        self.arrays = (indptr, indices, data, row_scale, col_scale)
        self.dense = dense        # M itself when X is dense (products by BLAS), else None
        self.blocks = blocks
        self.dtype = dtype
        self.product = product    # product(W, pool) = M W

    def update(self, W: np.ndarray, F: np.ndarray, G: np.ndarray, sweeps: int, delta: float,
               pool: Executor | None) -> tuple[np.ndarray, np.ndarray]:
        """HALS on every row of ``F`` given the other factor ``W``; returns ``(F^T F, cross)``.

        ``G`` (r, k, k) are the restarts' Gram matrices of ``W``. The new Gram
        matrices of ``F`` and the cross terms ``<M W, F>`` come back in float64.
        """
        r, k = G.shape[0], G.shape[1]
        A = self._product(W, r, k)
        Gd = np.ascontiguousarray(G, dtype=self.dtype)
        diag = np.diagonal(G, axis1=1, axis2=2).copy()
        inv_diag = np.divide(1.0, diag, out=np.zeros_like(diag), where=diag > 0).astype(self.dtype)
        cross = np.zeros((len(self.blocks), r))
        grams = np.zeros((len(self.blocks), r, k, k))
        hals_blocks(*self.arrays, W, A, F, Gd, inv_diag, sweeps, delta * delta, cross, grams,
                    self.blocks, pool)
        # the blocks' partial sums added in block order: the same bits on any number of threads
        return grams.sum(axis=0), cross.sum(axis=0)

    def _product(self, W: np.ndarray, r: int, k: int) -> np.ndarray:
        """``M W`` restart by restart for a dense ``M``; an empty array for the sparse kernel."""
        if self.dense is None:
            return np.empty((0, r * k), dtype=self.dtype)
        return np.hstack([self.dense @ np.ascontiguousarray(W[:, t * k:(t + 1) * k])
                          for t in range(r)]).astype(self.dtype, copy=False)


def _sides(X, dtype, row_weights):
    """The two sides (rows of ``X``, rows of ``X^T``) and ``||diag(w) X||^2``."""
    if isinstance(X, SparseProducts) or sp.issparse(X):
        ops = as_products(X, dtype=dtype, row_weights=row_weights)
        none = np.empty(0, dtype=ops.dtype)
        return (_Side(ops.indptr, ops.indices, ops.data, ops.row_weights, none, None,
                      ops.blocks, ops.dtype, ops.dot),
                _Side(ops.t_indptr, ops.t_indices, ops.t_data, none, ops.row_weights, None,
                      ops.t_blocks, ops.dtype, ops.tdot),
                ops.squared_norm, ops.nnz)
    X = np.asarray(X, dtype=np.float64)
    if row_weights is not None:
        X = X * np.asarray(row_weights, dtype=np.float64)[:, None]
    X_sqnorm = squared_norm(X)
    X = X.astype(dtype, copy=False)
    empty_i, empty_f = np.zeros(1, dtype=np.int32), np.empty(0, dtype=dtype)
    n, m = X.shape
    Xt = np.ascontiguousarray(X.T)
    whole = lambda n_rows: row_blocks(np.zeros(n_rows + 1, dtype=np.int64))  # noqa: E731
    return (_Side(empty_i, empty_i, empty_f, empty_f, empty_f, X, whole(n), dtype,
                  lambda W, pool: X @ W),
            _Side(empty_i, empty_i, empty_f, empty_f, empty_f, Xt, whole(m), dtype,
                  lambda W, pool: Xt @ W),
            X_sqnorm, n * m)


def fit_nmf_hals_batched(X, starts: list[tuple[np.ndarray, np.ndarray]], *, max_iter: int = 300,
                         tol: float = 1e-4, dtype=np.float64, alpha: float = ALPHA,
                         delta: float = DELTA, sweeps: tuple[int, int] | None = None,
                         threads: int | None = None, row_weights: np.ndarray | None = None,
                         extrapolate: bool = True,
                         callback: Callable[[int, np.ndarray], None] | None = None
                         ) -> list[FactorResult]:
    """Accelerated HALS from each ``(U0, V0)`` in ``starts``, all restarts in one batch.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_docs, n_terms), or SparseProducts
        Non-negative data, documents as rows; sparse stays sparse (a prepared
        :class:`~docnmf.factor.sparse.SparseProducts` is used as it is).
    starts : list of (U0 of shape (n_terms, k), V0 of shape (n_docs, k))
    max_iter : int
        Maximum rounds (one ``V`` and one ``U`` update, each on fresh products).
    tol : float
        A restart stops when ``(J_prev - J) / J_prev`` falls below ``tol``.
    dtype : {numpy.float64, numpy.float32}
        Precision of the factors and products; Gram matrices and objectives
        are summed in float64.
    alpha, delta : float
        Inner-sweep budget and a row's early stop (Gillis & Glineur 2012).
    sweeps : (int, int), optional
        At most this many sweeps over each row of ``V`` and of ``U`` per
        product, instead of the budget that ``alpha`` gives.
    threads : int, optional
        Threads for the row blocks; default: as many as BLAS may use
        (threadpoolctl sets both). The result does not depend on it.
    row_weights : ndarray of shape (n_docs,), optional
        Factorize ``diag(row_weights) @ X`` without forming it. NCW
        (``D^{-1/2} X``) fits this way.
    extrapolate : bool
        Extrapolate between rounds (default), or plain accelerated HALS.
    callback : callable(iteration, losses of the active restarts), optional
        The losses are those of the kept factors.

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
    Ang & Gillis, Accelerating nonnegative matrix factorization algorithms
    using extrapolation, Neural Computation 31, 2019.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((8, 6))
    >>> res, = fit_nmf_hals_batched(X, [(rng.random((6, 2)), rng.random((8, 2)))], max_iter=50)
    >>> bool(np.all(np.diff(res.losses) <= 1e-12 * res.losses[0]))
    True
    """
    dtype = np.dtype(dtype)
    if isinstance(X, SparseProducts):
        dtype = X.dtype
    docs, terms, X_sqnorm, nnz = _sides(X, dtype, row_weights)
    n_docs, n_terms = len(starts[0][1]), len(starts[0][0])
    r, k = len(starts), starts[0][0].shape[1]
    # the starts as the solver's own wide factors; a caller that passed its list without keeping
    # it (as NMFClustering does) then holds the starts' memory no longer
    U = np.hstack([np.asarray(U0, dtype=dtype) for U0, _ in starts])   # (n_terms, r k)
    V = np.hstack([np.asarray(V0, dtype=dtype) for _, V0 in starts])   # (n_docs, r k)
    del starts
    sweeps_v, sweeps_u = sweeps or (sweep_budget(n_docs, n_terms, nnz, k, alpha),
                                    sweep_budget(n_terms, n_docs, nnz, k, alpha))
    # the kernels are the threads: BLAS threads on top of them only contend
    with thread_pool(threads) as pool, threadpool_limits(limits=1, user_api="blas"):
        return _fit(docs, terms, U, V, r, k, X_sqnorm, pool, max_iter=max_iter, tol=tol,
                    delta=delta, sweeps=(sweeps_v, sweeps_u), extrapolate=extrapolate,
                    callback=callback)


def _per_restart(fn, F: np.ndarray, r: int, k: int) -> np.ndarray:
    """``fn(t, F_t)`` of each restart's own contiguous ``F_t`` (n, k), side by side again.

    Each restart's BLAS call sees the same array as it would alone, so side by
    side and one at a time give the same bits.
    """
    if r == 1:
        return np.ascontiguousarray(fn(0, F))
    return np.hstack([fn(t, np.ascontiguousarray(F[:, t * k:(t + 1) * k])) for t in range(r)])


def _grams(F: np.ndarray, r: int, k: int) -> np.ndarray:
    """The restarts' Gram matrices ``F_t^T F_t`` (r, k, k) in float64."""
    F64 = F.astype(np.float64, copy=False)
    return np.ascontiguousarray(
        _per_restart(lambda t, Ft: Ft.T @ Ft, F64, r, k).reshape(k, r, k).transpose(1, 0, 2))


class StepSizes:
    """The restarts' extrapolation steps and kept objectives (after Ang & Gillis 2019).

    :meth:`judge` takes the objective each restart reached in a round: the
    round is kept if it started from the kept factors (plain HALS) or did not
    raise the kept objective (beyond ``ROUNDING``). After a kept round the next starts from the
    extrapolated factors with step ``beta`` (returned), and ``beta`` grows by
    ``GAMMA`` up to a ceiling that itself grows by ``GAMMA_CEILING`` up to 1;
    after a dropped round the ceiling falls to ``beta``, ``beta`` shrinks by
    ``ETA`` and the next round starts from the kept factors.
    """

    def __init__(self, objectives: np.ndarray):
        r = len(objectives)
        self.kept = np.asarray(objectives, dtype=np.float64).copy()
        self.beta = np.full(r, BETA0)
        self.ceiling = np.ones(r)
        self.extrapolated = np.zeros(r, dtype=bool)

    def judge(self, current: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(kept, beta)``: which restarts keep this round, and their next step (0 if not)."""
        current = np.asarray(current, dtype=np.float64)
        kept = ~self.extrapolated | (current <= self.kept * (1 + ROUNDING))
        step = np.where(kept, self.beta, 0.0)
        self.kept = np.where(kept, current, self.kept)
        self.ceiling = np.where(kept, np.minimum(1.0, GAMMA_CEILING * self.ceiling), self.beta)
        self.beta = np.where(kept, np.minimum(self.ceiling, GAMMA * self.beta), self.beta / ETA)
        self.extrapolated = kept
        return kept, step

    def select(self, keep: np.ndarray) -> None:
        """Only the restarts ``keep`` (indices) go on."""
        for name in ("kept", "beta", "ceiling", "extrapolated"):
            setattr(self, name, getattr(self, name)[keep])


def extrapolate_factor(F: np.ndarray, kept: np.ndarray, judged: np.ndarray, step: np.ndarray,
                       k: int) -> tuple[np.ndarray, np.ndarray]:
    """After a round: ``(next start, kept factor)`` of each restart's columns.

    ``F`` holds the round's factors, ``kept`` the factors kept before it (both
    rows x restarts * k, reused as the outputs). A restart that keeps the round
    (``judged``) starts next from ``max(0, F + step (F - kept))`` and keeps
    ``F``; one that drops it starts again from its kept factors. The same bits
    for a restart whether it runs alone or side by side.
    """
    if judged.all():
        # kept <- step * (F - kept) + F, clipped: the next start, in the old kept buffer
        np.subtract(F, kept, out=kept)
        kept *= np.repeat(step, k).astype(F.dtype)
        kept += F
        np.maximum(kept, 0, out=kept)
        return kept, F
    for t in range(len(judged)):
        columns = slice(t * k, (t + 1) * k)
        if judged[t]:
            Ft = F[:, columns].copy()
            start = (Ft - kept[:, columns]) * F.dtype.type(step[t])
            start += Ft
            F[:, columns] = np.maximum(start, 0)
            kept[:, columns] = Ft
        else:
            F[:, columns] = kept[:, columns]
    return F, kept


def _fit(docs: _Side, terms: _Side, U, V, r, k, X_sqnorm, pool, *, max_iter, tol, delta, sweeps,
         extrapolate, callback):
    sweeps_v, sweeps_u = sweeps
    UtU = _grams(U, r, k)
    # the starting objective: one product, of the documents' side
    XU = docs.product(U, pool)
    cross0 = [float(np.sum(XU[:, t * k:(t + 1) * k].astype(np.float64)
                           * V[:, t * k:(t + 1) * k])) for t in range(r)]
    del XU
    VtV = _grams(V, r, k)
    losses = [[_loss(X_sqnorm, cross0[t], UtU[t], VtV[t])] for t in range(r)]
    steps = StepSizes([lo[0] for lo in losses]) if extrapolate else None
    # the kept factors, when the rounds start from extrapolated ones
    U_kept, V_kept = (U.copy(), V.copy()) if extrapolate else (None, None)
    done: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    n_iter = np.zeros(r, dtype=int)
    converged = np.zeros(r, dtype=bool)
    active = np.arange(r)
    for it in range(1, max_iter + 1):
        # documents first, then terms: the objective comes from the terms' side
        VtV, _ = docs.update(U, V, UtU, sweeps_v, delta, pool)
        UtU, cross = terms.update(V, U, VtV, sweeps_u, delta, pool)
        current = np.array([_loss(X_sqnorm, cross[i], UtU[i], VtV[i]) for i in range(len(active))])
        stop, judged, step = end_round(steps, losses, n_iter, active, current, it, tol, callback)
        if stop.any():
            converged[active[stop]] = True
            done.update((int(rr), (U[:, i * k:(i + 1) * k].copy(), V[:, i * k:(i + 1) * k].copy()))
                        for i, rr in enumerate(active) if stop[i])
            keep = np.flatnonzero(~stop)
            columns = restart_columns(keep, k)
            active = active[keep]
            U, V = np.ascontiguousarray(U[:, columns]), np.ascontiguousarray(V[:, columns])
            UtU = UtU[keep]
            if steps is not None:
                steps.select(keep)
                judged, step = judged[keep], step[keep]
                U_kept = np.ascontiguousarray(U_kept[:, columns])
                V_kept = np.ascontiguousarray(V_kept[:, columns])
        if not len(active):
            break
        if steps is not None:
            U, U_kept = extrapolate_factor(U, U_kept, judged, step, k)
            V, V_kept = extrapolate_factor(V, V_kept, judged, step, k)
            UtU = _grams(U, len(active), k)
    if steps is not None:
        U, V = U_kept, V_kept
    done.update((int(rr), (U[:, i * k:(i + 1) * k], V[:, i * k:(i + 1) * k]))
                for i, rr in enumerate(active))
    results = []
    for rr in range(r):
        Uf, Vf = normalize_uv(*done[rr])
        results.append(FactorResult(np.ascontiguousarray(Uf), np.ascontiguousarray(Vf),
                                    int(n_iter[rr]), np.asarray(losses[rr]), bool(converged[rr])))
    return results


def end_round(steps: StepSizes | None, losses: list[list[float]], n_iter: np.ndarray,
              active: np.ndarray, current: np.ndarray, it: int, tol: float,
              callback: Callable[[int, np.ndarray], None] | None):
    """After round ``it`` with objectives ``current``: ``(stop, judged, step)``.

    With extrapolation (``steps``) the round is judged first and the kept
    objectives stand in for ``current``; a dropped round stops no restart.
    ``judged`` and ``step`` are None without extrapolation.
    """
    judged = step = None
    if steps is not None:
        judged, step = steps.judge(current)
        current = steps.kept
    if callback is not None:
        callback(it, current)
    stop = record_round(losses, n_iter, active, current, it, tol)
    if judged is not None:
        stop &= judged   # a dropped round says nothing of convergence
    return stop, judged, step


def record_round(losses: list[list[float]], n_iter: np.ndarray, active: np.ndarray,
                 current: np.ndarray, it: int, tol: float) -> np.ndarray:
    """After round ``it``, each running restart's objective (``current[i]`` of restart
    ``active[i]``) appended to its ``losses``; which of them stop (relative decrease < ``tol``)."""
    stop = np.zeros(len(active), dtype=bool)
    for i, rr in enumerate(active):
        previous = losses[rr][-1]
        losses[rr].append(float(current[i]))
        n_iter[rr] = it
        stop[i] = has_converged(previous, current[i], tol)
    return stop


def restart_columns(restarts: np.ndarray, k: int) -> np.ndarray:
    """The columns of the given restarts in factors stored side by side (rows x restarts*k)."""
    return (np.asarray(restarts)[:, None] * k + np.arange(k)).ravel()


def _loss(X_sqnorm: float, cross: float, UtU: np.ndarray, VtV: np.ndarray) -> float:
    """``1/2 ||X - V U^T||^2 = 1/2 (||X||^2 - 2 <X U, V> + <U^T U, V^T V>)``, clipped at zero."""
    return max(0.5 * (X_sqnorm - 2.0 * float(cross) + float(np.sum(UtU * VtV))), 0.0)


def fit_nmf_hals(X, U0: np.ndarray, V0: np.ndarray, *, max_iter: int = 300, tol: float = 1e-4,
                 dtype=np.float64, extrapolate: bool = True,
                 callback: Callable[[int, float], None] | None = None) -> FactorResult:
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
                                extrapolate=extrapolate, callback=each)[0]
