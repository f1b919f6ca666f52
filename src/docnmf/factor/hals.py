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
(restarts, k, n), so the sparse products cover every restart at once and the
column steps are batched matrix products. A restart leaves the batch when
its own relative decrease of ``J`` falls below ``tol``.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
import scipy.sparse as sp

from ._losses import squared_norm
from .nmf import FactorResult, normalize_uv

__all__ = ["fit_nmf_hals", "fit_nmf_hals_batched", "hals_sweeps"]

#: Gillis & Glineur (2012)'s choices: sweeps per product in proportion to their costs, and
#: an early stop once a sweep moves the factor less than a tenth of the first sweep.
ALPHA = 0.5
DELTA = 0.1


def hals_sweeps(Ft: np.ndarray, At: np.ndarray, G: np.ndarray, max_sweeps: int,
                delta: float = DELTA) -> int:
    """Update the stacked factor ``Ft`` (r, k, n) in place by HALS column steps.

    Minimises ``1/2 ||M - F H^T||^2`` over ``F >= 0`` for each restart, given
    ``At = (M H)^T`` of shape (r, k, n) and ``G = H^T H`` of shape (r, k, k).
    Runs up to ``max_sweeps`` sweeps over the k columns; a restart whose
    sweep changed its factor by at most ``delta`` times its first sweep's
    change stops sweeping (its factor is left as it is). A column whose
    ``g_jj`` is zero (an all-zero partner column) is left unchanged.
    Returns the number of sweeps made.
    """
    r, k, _ = Ft.shape
    diag = np.einsum("rjj->rj", G)
    scale = np.divide(1.0, diag, out=np.zeros_like(diag), where=diag > 0)
    active = np.ones(r, dtype=bool)
    first = None
    sweep = 0
    for sweep in range(1, max_sweeps + 1):
        idx = np.flatnonzero(active)
        F = Ft if len(idx) == r else Ft[idx]
        A, Gi, s = (At, G, scale) if len(idx) == r else (At[idx], G[idx], scale[idx])
        change = np.zeros(len(idx))
        for j in range(k):
            # the exact minimiser over column j: f_j + (a_j - F g_j) / g_jj, clipped at zero
            step = (A[:, j] - np.matmul(Gi[:, j:j + 1], F)[:, 0]) * s[:, j:j + 1]
            new = np.maximum(F[:, j] + step, 0.0)
            delta_j = new - F[:, j]
            change += np.einsum("rn,rn->r", delta_j, delta_j)
            F[:, j] = new
        if len(idx) < r:
            Ft[idx] = F
        if first is None:
            first = change
        else:
            active[idx[change <= delta * delta * first[idx]]] = False
        if not active.any():
            break
    return sweep


def _transposed(P: np.ndarray, r: int, k: int) -> np.ndarray:
    """A product ``(n, r*k)`` of restarts side by side as a contiguous (r, k, n) stack."""
    return np.ascontiguousarray(P.T).reshape(r, k, P.shape[0])


def _wide(Ft: np.ndarray) -> np.ndarray:
    """The stack (r, k, n) as the (n, r*k) matrix ``[F_1 ... F_r]``."""
    r, k, n = Ft.shape
    return np.ascontiguousarray(Ft.reshape(r * k, n).T)


def _loss(X_sqnorm: float, XUt: np.ndarray, Vt: np.ndarray, UtU: np.ndarray,
          VtV: np.ndarray) -> np.ndarray:
    """``1/2 ||X - V U^T||^2`` per restart from products already at hand (float64 sums)."""
    cross = np.einsum("rkn,rkn->r", XUt, Vt, dtype=np.float64)
    gram = np.einsum("rkl,rkl->r", UtU, VtV, dtype=np.float64)
    return np.maximum(0.5 * (X_sqnorm - 2.0 * cross + gram), 0.0)


def fit_nmf_hals_batched(X, starts: list[tuple[np.ndarray, np.ndarray]], *, max_iter: int = 300,
                         tol: float = 1e-4, dtype=np.float64, alpha: float = ALPHA,
                         delta: float = DELTA, sweeps: tuple[int, int] | None = None,
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
    X_sqnorm = squared_norm(X)
    X = X.astype(dtype) if sp.issparse(X) else np.asarray(X, dtype=dtype)
    Xt = X.T.tocsr() if sp.issparse(X) else np.ascontiguousarray(X.T)
    n_docs, n_terms = X.shape
    r, k = len(starts), starts[0][0].shape[1]
    Ut = np.stack([np.asarray(U0, dtype=dtype).T for U0, _ in starts])   # (r, k, n_terms)
    Vt = np.stack([np.asarray(V0, dtype=dtype).T for _, V0 in starts])   # (r, k, n_docs)
    nnz = X.nnz if sp.issparse(X) else n_docs * n_terms
    # sweeps per product: the products cost ~nnz k (+ the Gram), a sweep ~n k^2
    sweeps_v, sweeps_u = sweeps or (
        1 + int(alpha * (nnz * k + n_terms * k * k) / max(n_docs * k * k, 1)),
        1 + int(alpha * (nnz * k + n_docs * k * k) / max(n_terms * k * k, 1)))

    UtU = np.matmul(Ut, Ut.transpose(0, 2, 1))
    VtV = np.matmul(Vt, Vt.transpose(0, 2, 1))
    XUt = _transposed(X @ _wide(Ut), r, k)
    losses = [[float(x)] for x in _loss(X_sqnorm, XUt, Vt, UtU, VtV)]
    done_U, done_V = np.empty_like(Ut), np.empty_like(Vt)
    n_iter = np.zeros(r, dtype=int)
    converged = np.zeros(r, dtype=bool)
    active = np.arange(r)
    for it in range(1, max_iter + 1):
        a = len(active)
        if it > 1:
            XUt = _transposed(X @ _wide(Ut), a, k)
        # documents first, then terms: the loss then comes from X^T V, which the U step needs
        hals_sweeps(Vt, XUt, UtU, sweeps_v, delta)
        VtV = np.matmul(Vt, Vt.transpose(0, 2, 1))
        XtVt = _transposed(Xt @ _wide(Vt), a, k)
        hals_sweeps(Ut, XtVt, VtV, sweeps_u, delta)
        UtU = np.matmul(Ut, Ut.transpose(0, 2, 1))
        current = _loss(X_sqnorm, XtVt, Ut, VtV, UtU)
        if callback is not None:
            callback(it, current)
        stop = np.zeros(a, dtype=bool)
        for i, rr in enumerate(active):
            previous = losses[rr][-1]
            losses[rr].append(float(current[i]))
            n_iter[rr] = it
            stop[i] = previous <= 0 or (previous - current[i]) < tol * previous
        if stop.any():
            converged[active[stop]] = True
            done_U[active[stop]], done_V[active[stop]] = Ut[stop], Vt[stop]
            keep = ~stop
            active, Ut, Vt = active[keep], Ut[keep], Vt[keep]
            UtU, VtV = UtU[keep], VtV[keep]
        if not len(active):
            break
    done_U[active], done_V[active] = Ut, Vt
    results = []
    for rr in range(r):
        U, V = normalize_uv(done_U[rr].T, done_V[rr].T)
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
