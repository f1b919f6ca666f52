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
HALS adds one exchange per inner sweep over ``V``: its early stop compares the
whole factor's change with the first sweep's, a sum over all blocks.
Results equal the in-memory solvers' to rounding (tested to 1e-8 on a
``LocalCluster``); the sums are only taken in another order.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from distributed import Future

from ..factor._losses import has_converged, nmf_losses_stacked, squared_norm
from ..factor.hals import (ALPHA, BLOCK_BYTES, DELTA, _sweep_block, _transposed,
                           _weighted_squared_norm, _wide, hals_sweeps)
from ..factor.nmf import EPS, FactorResult, flush_tiny, wide_product
from ._rows import RowPartitions, add_partials, add_tree, gather, stack_rows

__all__ = ["DASK_SOLVERS", "fit_nmf_mu_dask", "fit_nmf_hals_dask"]


def _reduce(client, states: Sequence[Future], index: int, what: str) -> dict:
    """The sum over the blocks of item ``index`` of each block's state (its partial sums)."""
    return gather(client, add_tree(client, states, add_partials, index), what)


def _squared_norm(X: RowPartitions, weights: Sequence[Future] | None) -> float:
    parts = X.map(squared_norm) if weights is None else X.map(_weighted_squared_norm, weights)
    return float(sum(gather(X.client, parts, "the squared norm of X")))


def _unit_columns(U: np.ndarray) -> np.ndarray:
    """The column norms eqs. 10-11 divide ``U`` by (1 for an all-zero column)."""
    norms = np.sqrt((U * U).sum(axis=0))
    return np.where(norms > 0, norms, 1.0)


def _scaled_rows(state, r: int, norms: np.ndarray, transposed: bool) -> np.ndarray:
    V = state[0][r].T if transposed else state[0][r]
    return np.ascontiguousarray(V * norms)


def _results(X: RowPartitions, Us: list[np.ndarray], V_final: list[Future], n_iter, losses,
             converged, transposed: bool) -> list[FactorResult]:
    """Per restart: ``U`` with unit columns, ``V`` rescaled (eqs. 10-11) as a Dask array."""
    client, k = X.client, Us[0].shape[1]
    out = []
    for r, U in enumerate(Us):
        norms = _unit_columns(U)
        blocks = [client.submit(_scaled_rows, V_p, r, norms, transposed, pure=False)
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
    return _results(X, U, V, n_iter, losses, converged, transposed=False)


# ---------------------------------------------------------------- HALS

def _hals_products(X_p, state, w_p, Ut, active: list[int], with_objective: bool):
    """One block's ``(X_p U)^T`` for the active restarts (weighted rows), kept with its ``V_p``.

    A block's state is ``(Vt_p, XUt_p, last)``: every restart's rows of ``V``
    (transposed, as in memory), the product, and the last task's partial sums.
    """
    Vt_p = state[0]
    a, k = len(active), Ut.shape[1] // len(active)
    XU = X_p @ Ut
    if w_p is not None:
        XU *= w_p[:, None]
    XUt = _transposed(XU, a, k)
    if not with_objective:
        return Vt_p, XUt, None
    Vt = Vt_p[active]
    return Vt_p, XUt, {"cross": np.einsum("rkn,rkn->r", XUt, Vt, dtype=np.float64),
                         "VtV": np.matmul(Vt, Vt.transpose(0, 2, 1))}


def _sweep_rows(F: np.ndarray, A: np.ndarray, G: np.ndarray) -> float:
    """One HALS sweep over the rows of ``F`` (k, n) in place (as factor.hals); its squared move."""
    diag = np.diagonal(G)
    scale = np.divide(1.0, diag, out=np.zeros_like(diag), where=diag > 0)
    k, n = F.shape
    width = max(256, BLOCK_BYTES // (2 * k * F.itemsize))
    return sum(_sweep_block(F[:, a:min(a + width, n)], A[:, a:min(a + width, n)], G, scale)
               for a in range(0, n, width))


def _hals_sweep(state, UtU: np.ndarray, sweeping: np.ndarray, active: list[int]):
    """One sweep over a block's rows of ``V`` for the restarts still sweeping; their moves."""
    Vt_p, XUt, _ = state
    Vt_p = Vt_p.copy()
    moved = np.zeros(len(active))
    for i, r in enumerate(active):
        if sweeping[i]:
            moved[i] = _sweep_rows(Vt_p[r], XUt[i], UtU[i])
    return Vt_p, XUt, moved


def _hals_partials(X_p, state, w_p, active: list[int]):
    """A block's ``X_p^T V_p`` (restarts side by side, weighted rows) and ``V_p^T V_p``."""
    Vt_p = state[0]
    Vt = Vt_p[active]
    B = _wide(Vt)
    if w_p is not None:
        B = w_p[:, None] * B
    return Vt_p, None, {"XtV": np.asarray(X_p.T @ B), "VtV": np.matmul(Vt, Vt.transpose(0, 2, 1))}


def _as_stack(V0_p) -> tuple[np.ndarray, None, None]:
    return np.ascontiguousarray(np.asarray(V0_p, dtype=np.float64).transpose(0, 2, 1)), None, None


def fit_nmf_hals_dask(X: RowPartitions, U0: Sequence[np.ndarray], V0: Sequence[Future], *,
                      max_iter: int = 300, tol: float = 1e-4, alpha: float = ALPHA,
                      delta: float = DELTA, row_weights: Sequence[Future] | None = None,
                      callback: Callable[[int, np.ndarray], None] | None = None
                      ) -> list[FactorResult]:
    """:func:`~docnmf.factor.hals.fit_nmf_hals_batched` on a cluster (float64).

    Parameters as :func:`fit_nmf_mu_dask`, plus the in-memory solver's
    ``alpha`` and ``delta`` (Gillis & Glineur 2012) and ``row_weights``: one
    future per block of ``X``, the weights of its rows (NCW's ``D^{-1/2}``),
    put on the dense side of each product as in memory.

    The rows of ``V`` are swept on the workers, ``U`` on the client, with the
    in-memory solver's sweep budgets and early stop; the stop for ``V`` needs
    the whole factor's move, so each sweep over ``V`` ends with a sum over
    the blocks.
    """
    client = X.client
    Ut = np.stack([np.asarray(U, dtype=np.float64).T for U in U0])   # (r, k, n_terms)
    r_all, k = Ut.shape[:2]
    n_docs, n_terms = X.shape
    weights = row_weights if row_weights is not None else [None] * len(X.blocks)
    X_sqnorm = _squared_norm(X, row_weights)
    nnz = X.nnz
    sweeps_v = 1 + int(alpha * (nnz * k + n_terms * k * k) / max(n_docs * k * k, 1))
    sweeps_u = 1 + int(alpha * (nnz * k + n_docs * k * k) / max(n_terms * k * k, 1))
    state = [client.submit(_as_stack, v, pure=False) for v in V0]
    active = np.arange(r_all)

    def broadcast(value) -> Future:
        [future] = client.scatter([value], hash=False)
        return future

    def products(with_objective: bool):
        return X.map(_hals_products, state, weights, Ut=broadcast(_wide(Ut)),
                     active=active.tolist(), with_objective=with_objective)

    UtU = np.matmul(Ut, Ut.transpose(0, 2, 1))
    state = products(with_objective=True)
    P = _reduce(client, state, 2, "the starting objective")
    losses = [[float(x)] for x in np.maximum(
        0.5 * (X_sqnorm - 2.0 * P["cross"] + np.einsum("rkl,rkl->r", UtU, P["VtV"])), 0.0)]
    done: dict[int, np.ndarray] = {}
    n_iter = np.zeros(r_all, dtype=int)
    converged = np.zeros(r_all, dtype=bool)
    for it in range(1, max_iter + 1):
        a = len(active)
        if it > 1:
            state = products(with_objective=False)
        # the rows of V on the workers, sweep by sweep, each restart stopping as in memory
        UtU_f, sweeping, first = broadcast(UtU), np.ones(a, dtype=bool), None
        for _ in range(sweeps_v):
            state = [client.submit(_hals_sweep, s, UtU_f, sweeping.copy(), active.tolist(),
                                   pure=False) for s in state]
            moved = gather(client, add_tree(client, state, index=2), "a HALS sweep")
            if first is None:
                first = moved
            else:
                sweeping &= ~(moved <= delta * delta * first)
                if not sweeping.any():
                    break
        state = X.map(_hals_partials, state, weights, active=active.tolist())
        P = _reduce(client, state, 2, "a HALS round")
        XtVt = _transposed(P["XtV"], a, k)
        hals_sweeps(Ut, XtVt, P["VtV"], sweeps_u, delta, None)
        UtU = np.matmul(Ut, Ut.transpose(0, 2, 1))
        current = nmf_losses_stacked(X_sqnorm, XtVt, Ut, P["VtV"], UtU)
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
            done.update((int(rr), Ut[i].copy()) for i, rr in enumerate(active) if stop[i])
            keep = ~stop
            active, Ut, UtU = active[keep], Ut[keep], UtU[keep]
        if not len(active):
            break
    done.update((int(rr), Ut[i]) for i, rr in enumerate(active))
    Us = [np.ascontiguousarray(done[rr].T) for rr in range(r_all)]
    return _results(X, Us, state, n_iter, losses, converged, transposed=True)


#: The distributed solvers by name, as :data:`docnmf.factor.solvers.BATCHED_SOLVERS`.
DASK_SOLVERS: dict[str, Callable[..., list[FactorResult]]] = {
    "mu": fit_nmf_mu_dask,
    "hals": fit_nmf_hals_dask,
}
