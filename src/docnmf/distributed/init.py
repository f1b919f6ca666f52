"""Starting factors on a cluster: the in-memory starts, with ``V`` made block by block.

- ``"random"``: :func:`~docnmf.factor.nmf.random_init`'s numbers exactly. ``U``
  is drawn on the client; each block draws its own rows of ``V`` from a copy
  of the restart's generator moved ahead past the rows before it
  (``PCG64.advance``), so no process draws or holds all of ``V``.
- ``"nndsvd"``, ``"nndsvda"``, ``"nndsvdar"``: :func:`~docnmf.factor.init.nndsvd_init`
  on :func:`randomized_svd_rows`, scikit-learn's randomized SVD (the same
  random matrix, power iterations and oversampling) with the products split
  by row blocks and the tall factors orthonormalized by TSQR, each singular
  vector's sign fixed as ``svd_flip`` does, and each run of repeated singular
  values given the basis :func:`~docnmf.factor.init.canonical_rotation`
  fixes, as in memory. It spans the same subspace as scikit-learn's; the
  starts agree to rounding (tested).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from distributed import Future
from scipy import linalg

from ..factor.init import INITS, canonical_rotation, repeated_values
from ._rows import RowPartitions, gather

__all__ = ["dask_starts", "randomized_svd_rows"]

#: What scikit-learn's randomized_svd uses when called as factor.init.truncated_svd calls it.
N_OVERSAMPLES = 10
N_POWER_ITER = 7


# ---------------------------------------------------------------- tall-skinny helpers

def _times(X_p, B):
    return np.asarray(X_p @ B)


def _t_times(X_p, Y_p):
    return np.asarray(X_p.T @ Y_p)


def _matmul(Y_p, B):
    return Y_p @ B


def _local_qr(Y_p):
    return np.linalg.qr(Y_p)


def _pick(pair, i):
    return pair[i]


def _tsqr(client, Y: Sequence[Future]) -> tuple[list[Future], np.ndarray]:
    """An orthonormal basis (as blocks) and ``R`` of a tall matrix held as row blocks (TSQR)."""
    qr = [client.submit(_local_qr, y, pure=False) for y in Y]
    Rs = gather(client, [client.submit(_pick, f, 1, pure=False) for f in qr], "a TSQR")
    Q2, R = np.linalg.qr(np.vstack(Rs))
    edges = np.cumsum([0] + [r.shape[0] for r in Rs])
    Q = [client.submit(_matmul, client.submit(_pick, f, 0, pure=False), Q2[a:b], pure=False)
         for f, a, b in zip(qr, edges[:-1], edges[1:])]
    return Q, R


def _lu(Y: np.ndarray) -> np.ndarray:
    return linalg.lu(Y, permute_l=True, check_finite=False)[0]


def _sum(client, parts, what) -> np.ndarray:
    return np.sum(gather(client, parts, what), axis=0)


def _largest(P_p: np.ndarray) -> np.ndarray:
    """Each column's entry of largest magnitude (the first such), as a row."""
    if P_p.shape[0] == 0:
        return np.zeros(P_p.shape[1])
    return P_p[np.argmax(np.abs(P_p), axis=0), np.arange(P_p.shape[1])]


def _flipped(client, P: list[Future], Qt: np.ndarray) -> tuple[list[Future], np.ndarray]:
    """scikit-learn's ``svd_flip`` as :func:`~docnmf.factor.init.truncated_svd` applies it: each
    left singular vector's largest entry (the first, over the blocks in order) made positive."""
    tops = np.array(gather(client, [client.submit(_largest, p, pure=False) for p in P],
                           "the SVD's signs"))
    signs = np.sign(tops[np.argmax(np.abs(tops), axis=0), np.arange(tops.shape[1])])
    signs[signs == 0] = 1.0
    return [client.submit(np.multiply, p, signs, pure=False) for p in P], Qt * signs[:, None]


def _canonical(client, Y: Sequence[Future], inner: np.ndarray, s: np.ndarray,
               Qt: np.ndarray) -> np.ndarray | None:
    """:func:`~docnmf.factor.init.canonical_rotation` of the SVD ``(Y inner, s, Qt)``."""
    if not repeated_values(s):
        return None
    sums = _sum(client, [client.submit(np.sum, y, axis=0, pure=False) for y in Y],
                "the SVD's repeated values") @ inner
    return canonical_rotation(s, sums, Qt)


def randomized_svd_rows(X: RowPartitions, k: int, rng: np.random.Generator
                        ) -> tuple[list[Future], np.ndarray, np.ndarray]:
    """:func:`~docnmf.factor.init.truncated_svd` of a matrix in row blocks: ``(P, s, Qt)``.

    ``P`` (documents x k) comes back as one future per block of ``X``; ``s``
    and ``Qt`` (k x terms) in memory. Every product with ``X`` is a map over
    the blocks (``X_p B``) or a sum over them (``sum_p X_p^T Y_p``); a
    documents-side factor is only ever held in blocks.
    """
    client = X.client
    n_docs, n_terms = X.shape
    seed = int(rng.integers(np.iinfo(np.int32).max))
    state = np.random.RandomState(seed)
    size = k + N_OVERSAMPLES
    if n_docs >= n_terms:
        # scikit-learn's A = X: Q over terms, A Q over documents
        Q = state.normal(size=(n_terms, size))
        for _ in range(N_POWER_ITER):
            Y, _ = _tsqr(client, X.map(_times, B=Q))
            Q = _lu(_sum(client, X.map(_t_times, Y), "a power iteration"))
        Y, _ = _tsqr(client, X.map(_times, B=Q))
        B = _sum(client, X.map(_t_times, Y), "the projection").T   # Q^T X, size x terms
        Uhat, s, Vt = linalg.svd(B, full_matrices=False, lapack_driver="gesdd")
        M = _canonical(client, Y, Uhat, s, Vt)
        if M is not None:
            Uhat, Vt = Uhat @ M, M.T @ Vt
        P = [client.submit(_matmul, y, Uhat[:, :k], pure=False) for y in Y]
        P, Qt = _flipped(client, P, Vt[:k])
        return P, s[:k], Qt
    # scikit-learn's A = X^T: Q over documents (drawn here, then split into the blocks)
    Q_all = state.normal(size=(n_docs, size))
    offsets = X.offsets
    Y = client.scatter([Q_all[a:b] for a, b in zip(offsets[:-1], offsets[1:])], hash=False)
    del Q_all
    for i in range(N_POWER_ITER + 1):
        Z = _sum(client, X.map(_t_times, Y), "a power iteration")   # X^T Y, terms x size
        if i == N_POWER_ITER:
            break
        Y, _ = _tsqr(client, X.map(_times, B=_lu(Z)))
    Q = linalg.qr(Z, mode="economic", check_finite=False)[0]        # terms x size
    # B = Q^T X^T = (X Q)^T: its SVD from a TSQR of X Q
    C, R = _tsqr(client, X.map(_times, B=Q))
    Ur, s, Vrt = linalg.svd(R, full_matrices=False, lapack_driver="gesdd")
    Qt = (Q @ Vrt.T).T
    M = _canonical(client, C, Ur, s, Qt)
    if M is not None:
        Ur, Qt = Ur @ M, M.T @ Qt
    P = [client.submit(_matmul, c, Ur[:, :k], pure=False) for c in C]
    P, Qt = _flipped(client, P, Qt[:k])
    return P, s[:k], Qt


# ---------------------------------------------------------------- starts

def _random_rows(states: list[dict], scales: list[float], skip: int, rows: int,
                 k: int) -> np.ndarray:
    """Rows ``skip // k`` on of each restart's ``V``: its generator moved ``skip`` draws ahead."""
    out = np.empty((len(states), rows, k))
    for r, (state, scale) in enumerate(zip(states, scales)):
        bits = getattr(np.random, state["bit_generator"])()
        bits.state = state
        bits.advance(skip)
        out[r] = scale * np.random.Generator(bits).random((rows, k))
    return out


def _nndsvd_rows(P_p: np.ndarray, choices: list[tuple[int, float, float]],
                 s: np.ndarray) -> np.ndarray:
    """A block's rows of NNDSVD's ``V`` before the small entries are cut (nndsvd_init's loop)."""
    V = np.zeros((P_p.shape[0], len(choices)))
    for j, (sign, norm, scale) in enumerate(choices):
        if sign == 0:
            p = np.abs(P_p[:, 0])
        elif norm == 0.0:
            continue
        else:
            p = np.maximum(sign * P_p[:, j], 0.0) / norm
        V[:, j] = np.sqrt(s[j] * scale) * p
    return V


def _sign_norms(P_p: np.ndarray) -> np.ndarray:
    """Squared norms of the positive and negative parts of each column (2, k)."""
    return np.array([np.square(np.maximum(P_p, 0.0)).sum(axis=0),
                     np.square(np.maximum(-P_p, 0.0)).sum(axis=0)])


def _max(V_p) -> float:
    return float(V_p.max(initial=0.0))


def _cut(V_p: np.ndarray, top: float) -> np.ndarray:
    V_p = V_p.copy()
    V_p[V_p < 1e-12 * max(top, 1e-300)] = 0.0
    return V_p


def _n_zeros(V_p) -> int:
    return int((V_p == 0.0).sum())


def _fill(V_p: np.ndarray, variant: str, mean: float, state: dict | None, skip: int):
    """nndsvd_init's fill of ``V``'s zeros, the random ones from a generator moved ``skip`` ahead."""
    V_p = V_p.copy()
    zeros = V_p == 0.0
    if variant == "nndsvda":
        V_p[zeros] = mean
    else:
        bits = getattr(np.random, state["bit_generator"])()
        bits.state = state
        bits.advance(skip)
        V_p[zeros] = mean / 100.0 * np.random.Generator(bits).random(int(zeros.sum()))
    return V_p


def _stack(*blocks) -> np.ndarray:
    return np.stack(blocks)


def _advanceable(rng: np.random.Generator) -> dict:
    if not hasattr(rng.bit_generator, "advance"):
        raise ValueError("random starts on a cluster need a generator that can jump ahead "
                         f"(PCG64, numpy's default), not {type(rng.bit_generator).__name__}")
    return rng.bit_generator.state


def _nndsvd(X: RowPartitions, k: int, rng: np.random.Generator, variant: str, svd
            ) -> tuple[np.ndarray, list[Future]]:
    """nndsvd_init, with the documents' side in blocks."""
    client = X.client
    P, s, Qt = svd
    n_docs, n_terms = X.shape
    norms = np.sqrt(_sum(client, [client.submit(_sign_norms, p, pure=False) for p in P],
                         "NNDSVD's signs"))
    U = np.zeros((n_terms, k))
    choices = []
    for j in range(min(k, len(s))):
        if j == 0:
            U[:, 0] = np.sqrt(s[0]) * np.abs(Qt[0])
            choices.append((0, 1.0, 1.0))
            continue
        yp, yn = np.maximum(Qt[j], 0.0), np.maximum(-Qt[j], 0.0)
        nxp, nxn = norms[0, j], norms[1, j]
        nyp, nyn = float(np.linalg.norm(yp)), float(np.linalg.norm(yn))
        sign, nx, y, ny = (1, nxp, yp, nyp) if nxp * nyp >= nxn * nyn else (-1, nxn, yn, nyn)
        if nx == 0.0 or ny == 0.0:
            choices.append((sign, 0.0, 0.0))
            continue
        U[:, j] = np.sqrt(s[j] * nx * ny) * (y / ny)
        choices.append((sign, nx, nx * ny))
    choices += [(1, 0.0, 0.0)] * (k - len(choices))
    V = [client.submit(_nndsvd_rows, p, choices, s, pure=False) for p in P]
    U[U < 1e-12 * max(U.max(initial=0.0), 1e-300)] = 0.0
    top = max(gather(client, [client.submit(_max, v, pure=False) for v in V], "NNDSVD"))
    V = [client.submit(_cut, v, top, pure=False) for v in V]
    if variant == "nndsvd":
        return U, V
    mean = X.sum / (n_docs * n_terms)
    state, skips = None, [0] * len(V)
    zeros = U == 0.0
    if variant == "nndsvda":
        U[zeros] = mean
    else:
        U[zeros] = mean / 100.0 * rng.random(int(zeros.sum()))
        state = _advanceable(rng)
        counts = gather(client, [client.submit(_n_zeros, v, pure=False) for v in V], "NNDSVD")
        skips = np.concatenate(([0], np.cumsum(counts)[:-1])).tolist()
    V = [client.submit(_fill, v, variant, mean, state, skip, pure=False)
         for v, skip in zip(V, skips)]
    return U, V


def dask_starts(X: RowPartitions, k: int, init: str, rngs: Sequence[np.random.Generator], *,
                svd=None) -> tuple[list[np.ndarray], list[Future]]:
    """:func:`~docnmf.factor.init.make_starts` for a matrix in row blocks.

    Returns
    -------
    U0 : list of ndarray of shape (n_terms, k)
        One per generator in ``rngs``.
    V0 : list of Future
        One per block of ``X``: an array (restarts, rows of the block, k).
    """
    if init not in INITS:
        raise ValueError(f"unknown init {init!r}; choose from {INITS}")
    client = X.client
    n_docs, n_terms = X.shape
    if init == "random":
        mean = X.sum / (n_docs * n_terms)
        scale = np.sqrt(max(mean, 1e-12) / k) * 2.0
        Us = [scale * rng.random((n_terms, k)) for rng in rngs]
        states = [_advanceable(rng) for rng in rngs]
        offsets = X.offsets
        V0 = [client.submit(_random_rows, states, [scale] * len(rngs), int(a) * k, int(b - a), k,
                            pure=False)
              for a, b in zip(offsets[:-1], offsets[1:])]
        return Us, V0
    svd = randomized_svd_rows(X, k, rngs[0]) if svd is None else svd
    starts = [_nndsvd(X, k, rng, init, svd) for rng in rngs]
    V0 = [client.submit(_stack, *blocks, pure=False) for blocks in zip(*(v for _, v in starts))]
    return [u for u, _ in starts], V0
