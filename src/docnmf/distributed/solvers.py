"""NMF solvers on a Dask cluster: ``V`` partitioned like the rows of ``X``, ``U`` broadcast.

The objective is the in-memory solvers', ``J = 1/2 ||X - V U^T||^2`` with
documents as rows (the papers' ``X ~ U V^T`` transposed), and so are the
updates: each solver does per round what its in-memory twin does, in the
same order, with the sums over documents split over the row blocks.

One round has the same shape for every solver:

- the client broadcasts ``U`` (terms x k, every active restart side by side)
  and ``U^T U``;
- a task per row block ``p`` updates that block's rows ``V_p`` from its own
  ``X_p U`` (a row of ``V`` depends on nothing but its own row of ``X U``
  and on ``U^T U``) and returns its partial sums: ``X_p^T V_p`` (terms x k),
  ``V_p^T V_p`` (k x k) and its part of the objective;
- the partials are added on the workers (a tree) and the client updates
  ``U`` from the sums, in memory, as the in-memory solver does.

Restarts run side by side: one broadcast, one pass over each block and one
reduction per round for all of them, each stopping on its own criterion.
HALS sweeps each row of ``V`` until that row's own early stop, so its inner
sweeps need no exchange either. Results equal the in-memory solvers' to
rounding (tested to 1e-8 on a ``LocalCluster``); the sums are only taken in
another order.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from distributed import Future

from ..factor._losses import has_converged, squared_norm
from threadpoolctl import threadpool_limits

from ..factor._kernels import hals_blocks, hals_rows
from ..factor.hals import (ALPHA, DELTA, StepSizes, _grams, _loss, end_round,
                           extrapolate_factor, restart_columns, sweep_budget)
from ..factor.nmf import EPS, FactorResult, flush_tiny, wide_product
from ..factor.sparse import row_blocks, thread_pool
from ._rows import RowPartitions, add_partials, add_tree, gather, stack_rows

__all__ = ["DASK_SOLVERS", "fit_nmf_mu_dask", "fit_nmf_hals_dask"]


def _reduce(client, states: Sequence[Future], index: int, what: str) -> dict:
    """The sum over the blocks of item ``index`` of each block's state (its partial sums)."""
    return gather(client, add_tree(client, states, add_partials, index), what)


def _weighted_squared_norm(X_p, w_p) -> float:
    """``||diag(w_p) X_p||^2``: each row's sum of squares, weighted."""
    return float(np.asarray(X_p.multiply(X_p).sum(axis=1)).ravel() @ np.square(w_p))


def _squared_norm(X: RowPartitions, weights: Sequence[Future] | None) -> float:
    parts = X.map(squared_norm) if weights is None else X.map(_weighted_squared_norm, weights)
    return float(sum(gather(X.client, parts, "the squared norm of X")))


def _unit_columns(U: np.ndarray) -> np.ndarray:
    """The column norms eqs. 10-11 divide ``U`` by (1 for an all-zero column)."""
    norms = np.sqrt((U * U).sum(axis=0))
    return np.where(norms > 0, norms, 1.0)


def _scaled_rows(state, r: int, norms: np.ndarray, wide: bool) -> np.ndarray:
    """Restart ``r``'s rows of ``V`` in a block's state (a list of restarts, or side by side)."""
    k = len(norms)
    V = state[0][:, r * k:(r + 1) * k] if wide else state[0][r]
    return np.ascontiguousarray(V * norms)


def _results(X: RowPartitions, Us: list[np.ndarray], V_final: list[Future], n_iter, losses,
             converged, wide: bool) -> list[FactorResult]:
    """Per restart: ``U`` with unit columns, ``V`` rescaled (eqs. 10-11) as a Dask array."""
    client, k = X.client, Us[0].shape[1]
    out = []
    for r, U in enumerate(Us):
        norms = _unit_columns(U)
        blocks = [client.submit(_scaled_rows, V_p, r, norms, wide, pure=False)
                  for V_p in V_final]
        V = stack_rows(client, blocks, X.rows, k)
        out.append(FactorResult(U / norms, V, int(n_iter[r]), np.asarray(losses[r]),
                                bool(converged[r])))
    return out


# ---------------------------------------------------------------- multiplicative updates

def _mu_rows(X_p, state, UU, active: list[int], update: bool):
    """One block's MU round: its rows of ``V`` by eq. 9 (``update``), then its partial sums.

    A block's state is ``(V_p, partials)``; ``V_p`` holds every restart's
    rows, those of ``active`` restarts are updated, on new arrays (a task
    never changes its inputs: Dask may run it again). ``flush_tiny`` is
    relative to the block's largest entry.
    """
    U, UtU = UU
    V_p = list(state[0])
    XU = wide_product(X_p, U)
    for i, r in enumerate(active):
        if update:
            V_p[r] = flush_tiny(V_p[r] * (XU[i] / (V_p[r] @ UtU[i] + EPS)))
    V = [V_p[r] for r in active]
    partials = {"XtV": wide_product(X_p.T, V), "VtV": [v.T @ v for v in V],
                "cross": np.array([np.einsum("ij,ij->", XU[i], V[i]) for i in range(len(V))])}
    return V_p, partials


def _as_list(V0_p) -> tuple[list[np.ndarray], None]:
    return [np.array(v, dtype=np.float64, copy=True) for v in V0_p], None


def fit_nmf_mu_dask(X: RowPartitions, U0: Sequence[np.ndarray], V0: Sequence[Future], *,
                    max_iter: int = 300, tol: float = 1e-4,
                    callback: Callable[[int, np.ndarray], None] | None = None
                    ) -> list[FactorResult]:
    """:func:`~docnmf.factor.nmf.fit_nmf_mu_batched` on a cluster: eqs. 8-11 of Xu et al. (2003).

    Parameters
    ----------
    X : RowPartitions
        Documents x terms, in row blocks on the cluster.
    U0 : list of ndarray of shape (n_terms, k)
        One per restart.
    V0 : list of Future
        One per row block of ``X``: an array (restarts, rows of the block, k).
    max_iter, tol :
        As in memory; each restart stops on its own relative decrease.
    callback : callable(iteration, losses of the restarts still running), optional

    Returns
    -------
    list of FactorResult
        One per restart; ``V`` is a Dask array with ``X``'s row blocks.
    """
    client = X.client
    U = [np.array(u, dtype=np.float64, copy=True) for u in U0]
    r_all = len(U)
    X_sqnorm = _squared_norm(X, None)
    V = [client.submit(_as_list, v, pure=False) for v in V0]
    active = list(range(r_all))

    def round_(update: bool) -> dict:
        nonlocal V
        Ua = [U[r] for r in active]
        [UU] = client.scatter([(Ua, [u.T @ u for u in Ua])], hash=False)
        V = X.map(_mu_rows, V, UU=UU, active=list(active), update=update)
        return _reduce(client, V, 1, "an MU round")

    P = round_(update=False)
    losses = [[max(0.5 * (X_sqnorm - 2.0 * P["cross"][r]
                          + float(np.einsum("ij,ij->", U[r].T @ U[r], P["VtV"][r]))), 0.0)]
              for r in range(r_all)]
    n_iter, converged = [0] * r_all, [False] * r_all
    for it in range(1, max_iter + 1):
        if not active:
            break
        # eq. 8 on the client, from the reduced X^T V and V^T V
        for i, r in enumerate(active):
            U[r] *= P["XtV"][i] / (U[r] @ P["VtV"][i] + EPS)
            flush_tiny(U[r])
        P = round_(update=True)   # eq. 9 on the workers
        still, current = [], []
        for i, r in enumerate(active):
            gram = float(np.einsum("ij,ij->", U[r].T @ U[r], P["VtV"][i]))
            losses[r].append(max(0.5 * (X_sqnorm - 2.0 * P["cross"][i] + gram), 0.0))
            current.append(losses[r][-1])
            n_iter[r] = it
            if has_converged(losses[r][-2], losses[r][-1], tol):
                converged[r] = True
            else:
                still.append(i)
        if callback is not None:
            callback(it, np.asarray(current))
        if len(still) < len(active):
            P = {"XtV": [P["XtV"][i] for i in still], "VtV": [P["VtV"][i] for i in still]}
            active = [active[i] for i in still]
    return _results(X, U, V, n_iter, losses, converged, wide=False)


# ---------------------------------------------------------------- HALS

def _hals_start(X_p, V0_p, w_p, U: np.ndarray, extrapolate: bool):
    """A block's state ``(V_p, partials, kept)`` before the first round, with the starting
    objective's partial sums: ``V_p`` holds every restart's rows side by side (rows,
    restarts * k); ``kept`` is a copy of them when the rounds are extrapolated, else None."""
    r, _, k = V0_p.shape
    V_p = np.ascontiguousarray(np.asarray(V0_p, dtype=np.float64).transpose(1, 0, 2)
                               .reshape(V0_p.shape[1], r * k))
    XU = np.asarray(X_p @ U)
    if w_p is not None:
        XU *= w_p[:, None]
    return V_p, {"cross": np.einsum("nrk,nrk->r", XU.reshape(-1, r, k), V_p.reshape(-1, r, k)),
                 "VtV": _grams(V_p, r, k)}, (V_p.copy() if extrapolate else None)


def _hals_rows(X_p, state, w_p, UU, active: list[int], sweeps: int, delta: float,
               judged: np.ndarray | None = None, step: np.ndarray | None = None):
    """One block's HALS round: its rows of ``V`` for the ``active`` restarts, and its partial
    sums ``X_p^T diag(w_p) V_p`` (terms x active restarts * k) and ``V_p^T V_p``.

    Each row is updated by the in-memory kernel (:func:`~docnmf.factor._kernels.hals_rows`)
    from its own stored entries, ``U`` and ``U^T U``, sweeping at most ``sweeps`` times
    and stopping on its own: the same numbers as in memory for the same ``U``. With
    ``judged`` and ``step`` (how the client judged the last round), the rows start from
    their extrapolated or kept values first, as in memory. A task never changes its inputs
    (Dask may run it again), so the new rows go into copies.
    """
    U, UtU = UU
    a, k = UtU.shape[:2]
    columns = restart_columns(active, k)
    V_all, kept_all = state[0].copy(), state[2]
    V = np.ascontiguousarray(V_all[:, columns])
    if judged is not None:
        kept_all = kept_all.copy()
        V, kept = extrapolate_factor(V, np.ascontiguousarray(kept_all[:, columns]), judged,
                                     step, k)
        kept_all[:, columns] = kept
    diag = np.diagonal(UtU, axis1=1, axis2=2)
    inv_diag = np.divide(1.0, diag, out=np.zeros_like(diag), where=diag > 0)
    none = np.empty(0)
    cross, gram = np.zeros(a), np.zeros((a, k, k))
    hals_rows(X_p.indptr, X_p.indices, X_p.data, none if w_p is None else w_p, none, U,
              np.empty((0, a * k)), V, UtU, inv_diag, sweeps, delta * delta, cross, gram,
              0, X_p.shape[0])
    V_all[:, columns] = V
    B = V if w_p is None else w_p[:, None] * V
    return V_all, {"XtV": np.ascontiguousarray(X_p.T @ B), "VtV": gram}, kept_all


def _kept_rows(state, active: list[int], judged: np.ndarray, k: int):
    """The block's state with the kept rows of the restarts whose last round was dropped."""
    V_all = state[0].copy()
    for t, rr in enumerate(active):
        if not judged[t]:
            V_all[:, rr * k:(rr + 1) * k] = state[2][:, rr * k:(rr + 1) * k]
    return V_all, state[1], state[2]


def _as_csr_arrays(X_p):
    """The block as CSR whose index arrays share one integer type, as the kernels take."""
    if X_p.indptr.dtype != X_p.indices.dtype:
        X_p = X_p.copy()
        X_p.indptr = X_p.indptr.astype(X_p.indices.dtype)
    X_p.data = np.ascontiguousarray(X_p.data, dtype=np.float64)
    return X_p


def _update_terms(U: np.ndarray, XtV: np.ndarray, VtV: np.ndarray, sweeps: int, delta: float,
                  blocks, pool) -> tuple[np.ndarray, np.ndarray]:
    """HALS on the rows of ``U`` from the reduced ``X^T V`` and ``V^T V``: ``(U^T U, cross)``.

    The in-memory kernel in its dense mode (the product given), on the
    client's threads; the cross terms ``<X^T V, U>`` give the objective.
    """
    a, k = VtV.shape[:2]
    diag = np.diagonal(VtV, axis1=1, axis2=2)
    inv_diag = np.divide(1.0, diag, out=np.zeros_like(diag), where=diag > 0)
    cross, grams = np.zeros((len(blocks), a)), np.zeros((len(blocks), a, k, k))
    none_i, none = np.zeros(1, dtype=np.int64), np.empty(0)
    hals_blocks(none_i, none_i, none, none, none, U, XtV, U, np.ascontiguousarray(VtV),
                inv_diag, sweeps, delta * delta, cross, grams, blocks, pool)
    return grams.sum(axis=0), cross.sum(axis=0)


def fit_nmf_hals_dask(X: RowPartitions, U0: Sequence[np.ndarray], V0: Sequence[Future], *,
                      max_iter: int = 300, tol: float = 1e-4, alpha: float = ALPHA,
                      delta: float = DELTA, row_weights: Sequence[Future] | None = None,
                      threads: int | None = None, extrapolate: bool = True,
                      callback: Callable[[int, np.ndarray], None] | None = None
                      ) -> list[FactorResult]:
    """:func:`~docnmf.factor.hals.fit_nmf_hals_batched` on a cluster (float64).

    Parameters as :func:`fit_nmf_mu_dask`, plus the in-memory solver's
    ``alpha``, ``delta`` (Gillis & Glineur 2012) and ``extrapolate`` (Ang &
    Gillis 2019: the client judges each round and extrapolates ``U``, each
    block its own rows of ``V`` at the start of the next round), ``row_weights``: one
    future per block of ``X``, the weights of its rows (NCW's ``D^{-1/2}``),
    put on the dense side of each product as in memory, and ``threads`` for
    the update of ``U`` on the client.

    One round: each block updates its rows of ``V`` with the in-memory row
    kernel (``U`` and ``U^T U`` broadcast) and returns ``X_p^T V_p`` and
    ``V_p^T V_p``; their sums, added in a tree on the workers, are all the
    update of ``U`` needs, done on the client by the same kernel. A row stops
    sweeping on its own criterion, so no exchange is needed between sweeps.
    The objective comes from the sums and the update of ``U`` (its cross
    term and ``U^T U``), as in memory.
    """
    client = X.client
    U = np.hstack([np.asarray(u, dtype=np.float64) for u in U0])     # (n_terms, r k)
    r_all, k = len(U0), U0[0].shape[1]
    n_docs, n_terms = X.shape
    weights = row_weights if row_weights is not None else [None] * len(X.blocks)
    X_sqnorm = _squared_norm(X, row_weights)
    sweeps_v = sweep_budget(n_docs, n_terms, X.nnz, k, alpha)
    sweeps_u = sweep_budget(n_terms, n_docs, X.nnz, k, alpha)
    blocks = row_blocks(np.zeros(n_terms + 1, dtype=np.int64))
    Xc = X.map(_as_csr_arrays)
    state = X.map(_hals_start, V0, weights, U=U, extrapolate=extrapolate)
    P = _reduce(client, state, 1, "the starting objective")
    UtU = _grams(U, r_all, k)
    losses = [[_loss(X_sqnorm, P["cross"][t], UtU[t], P["VtV"][t])] for t in range(r_all)]
    steps = StepSizes([lo[0] for lo in losses]) if extrapolate else None
    U_kept = U.copy() if extrapolate else None
    judged = step = None
    done: dict[int, np.ndarray] = {}
    n_iter = np.zeros(r_all, dtype=int)
    converged = np.zeros(r_all, dtype=bool)
    active = np.arange(r_all)
    with thread_pool(threads) as pool, threadpool_limits(limits=1, user_api="blas"):
        for it in range(1, max_iter + 1):
            [UU] = client.scatter([(U, UtU)], hash=False)
            state = [client.submit(_hals_rows, x, s, w, UU, active.tolist(), sweeps_v, delta,
                                   judged, step, pure=False)
                     for x, s, w in zip(Xc, state, weights)]
            P = _reduce(client, state, 1, "a HALS round")
            UtU, cross = _update_terms(U, P["XtV"], P["VtV"], sweeps_u, delta, blocks, pool)
            current = np.array([_loss(X_sqnorm, cross[i], UtU[i], P["VtV"][i])
                                for i in range(len(active))])
            stop, judged, step = end_round(steps, losses, n_iter, active, current, it, tol,
                                           callback)
            if stop.any():
                converged[active[stop]] = True
                done.update((int(rr), U[:, i * k:(i + 1) * k].copy())
                            for i, rr in enumerate(active) if stop[i])
                keep = np.flatnonzero(~stop)
                columns = restart_columns(keep, k)
                active = active[keep]
                U, UtU = np.ascontiguousarray(U[:, columns]), UtU[keep]
                if steps is not None:
                    steps.select(keep)
                    judged, step = judged[keep], step[keep]
                    U_kept = np.ascontiguousarray(U_kept[:, columns])
            if not len(active):
                break
            if steps is not None:
                U, U_kept = extrapolate_factor(U, U_kept, judged, step, k)
                UtU = _grams(U, len(active), k)
    if steps is not None and len(active):
        # the restarts still running end on their kept factors
        U = U_kept
        if not judged.all():
            state = [client.submit(_kept_rows, s, active.tolist(), judged, k, pure=False)
                     for s in state]
    done.update((int(rr), U[:, i * k:(i + 1) * k]) for i, rr in enumerate(active))
    Us = [np.ascontiguousarray(done[rr]) for rr in range(r_all)]
    return _results(X, Us, state, n_iter, losses, converged, wide=True)


#: The distributed solvers by name, as :data:`docnmf.factor.solvers.BATCHED_SOLVERS`.
DASK_SOLVERS: dict[str, Callable[..., list[FactorResult]]] = {
    "mu": fit_nmf_mu_dask,
    "hals": fit_nmf_hals_dask,
}
