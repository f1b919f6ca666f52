"""Concept factorization (CF, the linear kernel) on a Dask cluster, both factors in row blocks.

:func:`~docnmf.factor.lccf.fit_lccf_restarts` with ``lam = 0`` on
:class:`~docnmf.factor.kernels.LinearKernel`: ``W`` and ``V`` are both
documents x k, so both stay in ``X``'s row blocks, and every product with the
kernel ``K = diag(g) X X^T diag(g)`` is a reduction and a map,

    K A = g * (X Z),   Z = X^T (g * A) = sum_p X_p^T (g_p * A_p)   (terms x k).

One round of eqs. 18 and 17 for every running start:

1. each block updates its rows of ``V`` (eq. 18, from its ``K W`` rows and the
   broadcast ``W^T K W``) and returns ``X_p^T (g_p V_p)`` and ``V_p^T V_p``;
2. each block makes its rows of ``K V`` from the sum, updates its rows of
   ``W`` (eq. 17, with the summed ``V^T V``), rescales (``normalize="v"``: the
   column norms of ``V`` are the diagonal of ``V^T V``) and returns
   ``X_p^T (g_p W_p)``;
3. each block makes its rows of ``K W`` and returns its part of the objective
   (eq. 11: ``W^T K W``, ``<K W, V>``, ``V^T V``).

Three reductions of terms x k (or k x k) partials a round; nothing of size
documents crosses the network. Results equal the in-memory solver's to
rounding (the sums are taken in another order), except that ``flush_tiny``
compares each entry with its block's largest rather than the whole factor's:
the two differ only for entries below 1e-100 of the largest.

Graph-regularised LCCF (``lam > 0``) is not here: its term needs each
document's nearest neighbours over the whole corpus and, each round, their
rows of ``V``, which lie in other blocks.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from distributed import Future

from ..factor._losses import has_converged
from ..factor.lccf import ConceptResult
from ..factor.nmf import EPS, flush_tiny, wide_product
from ._rows import RowPartitions, add_partials, add_tree, gather, stack_rows

__all__ = ["fit_cf_dask"]


def _weighted(A: np.ndarray, g_p) -> np.ndarray:
    return A if g_p is None else A * g_p[:, None]


def _concepts(X_p, g_p, blocks: list[np.ndarray]) -> np.ndarray:
    """``X_p^T (g_p * A)`` for the blocks side by side (terms x restarts * k)."""
    return np.hstack(wide_product(X_p.T, [_weighted(A, g_p) for A in blocks]))


def _kernel_rows(X_p, g_p, Z: np.ndarray, a: int) -> list[np.ndarray]:
    """The block's rows of ``K A`` from ``Z = X^T (g * A)`` of the ``a`` starts side by side."""
    k = Z.shape[1] // a
    return [_weighted(B, g_p) for B in wide_product(X_p, [np.ascontiguousarray(
        Z[:, i * k:(i + 1) * k]) for i in range(a)])]


def _start(X_p, W0_p, V0_p, g_p):
    """A block's state ``{"W", "V", "KW"}`` (every start's rows), and ``X_p^T (g_p W_p)``."""
    W = [np.array(w, dtype=np.float64, copy=True) for w in W0_p]
    V = [np.array(v, dtype=np.float64, copy=True) for v in V0_p]
    return {"W": W, "V": V, "KW": None}, {"Z": _concepts(X_p, g_p, W)}


def _products(X_p, state, g_p, Z, active: list[int]):
    """The block's rows of ``K W`` and its part of eq. 11's traces."""
    state = dict(state[0])
    KW = _kernel_rows(X_p, g_p, Z, len(active))
    state["KW"] = KW
    W = [state["W"][r] for r in active]
    V = [state["V"][r] for r in active]
    return state, {"WKW": [w.T @ kw for w, kw in zip(W, KW)],
                   "cross": np.array([float(np.einsum("jk,jk->", kw, v))
                                      for kw, v in zip(KW, V)]),
                   "VtV": [v.T @ v for v in V]}


def _update_v(X_p, state, g_p, WKW: list[np.ndarray], active: list[int]):
    """Eq. 18 on the block's rows of ``V``; ``X_p^T (g_p V_p)`` and ``V_p^T V_p`` of the new rows."""
    state = dict(state[0])
    V = list(state["V"])
    for i, r in enumerate(active):
        V[r] = flush_tiny(V[r] * (state["KW"][i] / (V[r] @ WKW[i] + EPS)))
    state["V"] = V
    new = [V[r] for r in active]
    return state, {"Z": _concepts(X_p, g_p, new), "VtV": [v.T @ v for v in new]}


def _update_w(X_p, state, g_p, sums: dict, active: list[int], normalize: str):
    """Eq. 17 on the block's rows of ``W`` (``K V`` from the summed ``X^T (g V)``), the rescaling,
    and ``X_p^T (g_p W_p)`` of the new rows."""
    state = dict(state[0])
    W, V = list(state["W"]), list(state["V"])
    KV = _kernel_rows(X_p, g_p, sums["Z"], len(active))
    for i, r in enumerate(active):
        VtV = sums["VtV"][i]
        W[r] = flush_tiny(W[r] * (KV[i] / (state["KW"][i] @ VtV + EPS)))
        if normalize == "v":
            norms = np.sqrt(np.diagonal(VtV))
            norms = np.where(norms > 0, norms, 1.0)
            V[r] = V[r] / norms
            W[r] = W[r] * norms
    state["W"], state["V"] = W, V
    return state, {"Z": _concepts(X_p, g_p, [W[r] for r in active])}


def _trace(X_p, g_p) -> float:
    sq = np.asarray(X_p.multiply(X_p).sum(axis=1)).ravel()
    return float(sq.sum() if g_p is None else (sq * g_p**2).sum())


def _factor(state, name: str, r: int) -> np.ndarray:
    return state[0][name][r]


def fit_cf_dask(X: RowPartitions, W0: Sequence[Future], V0: Sequence[Future], *,
                g: Sequence[Future] | None = None, max_iter: int = 500, tol: float = 1e-5,
                normalize: str = "none",
                callback: Callable[[int, np.ndarray], None] | None = None
                ) -> list[ConceptResult]:
    """CF (eqs. 17-18 with ``lam = 0``) on a cluster, from several starts side by side.

    Parameters
    ----------
    X : RowPartitions
        Documents x terms, non-negative, in row blocks.
    W0, V0 : list of Future
        One per block of ``X``: its rows of every start, an array (starts, rows, k).
    g : list of Future, optional
        One per block: its rows' weights (the kernel ``diag(g) X X^T diag(g)``,
        NCW's ``Gamma^{1/2}``).
    max_iter, tol, normalize :
        As :func:`~docnmf.factor.lccf.fit_lccf_restarts` (each start stops on
        its own relative change, ``stop_on_rise=False``).
    callback : callable(iteration, losses of the starts that ran the round), optional

    Returns
    -------
    list of ConceptResult
        One per start, ``W`` and ``V`` as Dask arrays in ``X``'s row blocks.
    """
    if normalize not in ("none", "v"):
        raise ValueError(f"normalize must be 'none' or 'v', got {normalize!r}")
    client = X.client
    weights = list(g) if g is not None else [None] * len(X.blocks)
    trace = float(sum(gather(client, X.map(_trace, weights), "the kernel's trace")))

    def reduce(states, what):
        return gather(client, add_tree(client, states, add_partials, 1), what)

    def broadcast(value) -> Future:
        [future] = client.scatter([value], hash=False)
        return future

    state = [client.submit(_start, x, w, v, gp, pure=False)
             for x, w, v, gp in zip(X.blocks, W0, V0, weights)]
    Z = reduce(state, "CF's start")["Z"]
    n_starts, _, k = gather(client, client.submit(np.shape, W0[0], pure=False), "CF's start")
    active = list(range(n_starts))
    losses: list[list[float]] = [[] for _ in range(n_starts)]
    n_iter, converged = [0] * n_starts, [False] * n_starts

    def products() -> dict:
        nonlocal state
        Zf = broadcast(Z)
        state = [client.submit(_products, x, s, gp, Zf, list(active), pure=False)
                 for x, s, gp in zip(X.blocks, state, weights)]
        P = reduce(state, "CF's objective")
        for i, r in enumerate(active):
            data = trace - 2.0 * float(P["cross"][i]) + float(np.einsum(
                "kl,kl->", P["WKW"][i], P["VtV"][i]))
            losses[r].append(max(data, 0.0))
        return P

    P = products()
    for it in range(1, max_iter + 1):
        if not active:
            break
        WKW = broadcast(P["WKW"])
        state = [client.submit(_update_v, x, s, gp, WKW, list(active), pure=False)
                 for x, s, gp in zip(X.blocks, state, weights)]
        sums = broadcast(reduce(state, "CF's update of V"))
        state = [client.submit(_update_w, x, s, gp, sums, list(active), normalize, pure=False)
                 for x, s, gp in zip(X.blocks, state, weights)]
        Z = reduce(state, "CF's update of W")["Z"]
        P = products()
        if callback is not None:
            callback(it, np.array([losses[r][-1] for r in active]))
        still = []
        for i, r in enumerate(active):
            n_iter[r] = it
            if has_converged(losses[r][-2], losses[r][-1], tol, stop_on_rise=False):
                converged[r] = True
            else:
                still.append(i)
        if len(still) < len(active):
            # the objective's parts and the blocks' rows of K W follow the running starts
            P = {"WKW": [P["WKW"][i] for i in still]}
            state = [client.submit(_keep_kw, s, still, pure=False) for s in state]
            active = [active[i] for i in still]
    out = []
    for r in range(n_starts):
        W = stack_rows(client, [client.submit(_factor, s, "W", r, pure=False) for s in state],
                       X.rows, k)
        V = stack_rows(client, [client.submit(_factor, s, "V", r, pure=False) for s in state],
                       X.rows, k)
        out.append(ConceptResult(W, V, n_iter[r], np.asarray(losses[r]), converged[r]))
    return out


def _keep_kw(state, keep: list[int]):
    new = dict(state[0])
    new["KW"] = [new["KW"][i] for i in keep]
    return new, None
