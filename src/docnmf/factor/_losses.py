"""One home for each objective: solvers use these for convergence, tests to check monotonicity.

Rows of ``X`` are documents (scikit-learn's orientation); the papers'
term-document matrix is ``X.T``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def has_converged(previous: float, current: float, tol: float, *,
                  floor: float | None = None, stop_on_rise: bool = True) -> bool:
    """The one stopping rule of the iterative solvers: a scale-free relative decrease.

    True once the objective falls by less than ``tol`` times its previous
    value, reaches ``floor`` (an absolute level for solvers whose loss can
    shrink geometrically towards zero), or when ``previous`` is not positive
    (nothing left to fit). A rise stops the run too, unless
    ``stop_on_rise=False``: then only a rise smaller than ``tol`` times the
    previous value counts as converged. Where the updates are proven
    monotone the objective rises by rounding at most and the choice changes
    nothing; the solvers that do rise in practice differ, and their
    published reproductions depend on it: FS-NMF's alternating updates stop
    at a rise, a graph-regularised LCCF (p = 1 on TDT2) rises and goes on.

    Examples
    --------
    >>> has_converged(100.0, 99.0, 1e-3), has_converged(100.0, 99.99, 1e-3)
    (False, True)
    >>> has_converged(100.0, 101.0, 1e-3), has_converged(100.0, 101.0, 1e-3, stop_on_rise=False)
    (True, False)
    >>> has_converged(1.0, 0.5, 1e-3, floor=0.6)
    True
    """
    change = previous - current
    if not stop_on_rise:
        change = abs(change)
    return previous <= 0 or change < tol * previous or (floor is not None and current <= floor)


def squared_norm(X) -> float:
    """``||X||_F^2`` for dense or sparse ``X``."""
    if sp.issparse(X):
        if X.format not in ("csr", "csc"):
            return float(X.multiply(X).sum())
        if not X.has_canonical_format:  # multiply sums duplicates before squaring
            X = X.copy()
            X.sum_duplicates()
        # the entries of X.multiply(X) without its copy of X's indices: products that are zero
        # are not entries of it, and the pairwise sum's rounding depends on how many there are
        squares = np.square(X.data)
        if not squares.all():
            squares = squares[squares != 0]
        return float(squares.sum())
    X = np.asarray(X)
    return float(np.vdot(X, X).real)


def nmf_loss(X, U: np.ndarray, V: np.ndarray, *, X_sqnorm: float | None = None,
             XU: np.ndarray | None = None) -> float:
    """Xu et al. (2003) eq. 1-2: ``J = 1/2 ||X^T - U V^T||^2`` with documents as rows of ``X``.

    Expanded as ``1/2 (||X||^2 - 2 tr(V^T X U) + tr(U^T U V^T V))`` so a sparse
    ``X`` is never densified. ``XU = X @ U`` may be passed when the caller
    already has it.
    """
    if X_sqnorm is None:
        X_sqnorm = squared_norm(X)
    if XU is None:
        XU = X @ U
    cross = float(np.einsum("ij,ij->", np.asarray(XU), V))
    gram = float(np.einsum("ij,ij->", U.T @ U, V.T @ V))
    # clip: rounding can make a perfect fit slightly negative
    return max(0.5 * (X_sqnorm - 2.0 * cross + gram), 0.0)


def nmf_losses_stacked(X_sqnorm: float, XUt: np.ndarray, Vt: np.ndarray, UtU: np.ndarray,
                       VtV: np.ndarray) -> np.ndarray:
    """:func:`nmf_loss` of each restart in a stack, from products already at hand.

    ``XUt`` (r, k, n_docs) holds ``(X U_i)^T``, ``Vt`` (r, k, n_docs) ``V_i^T``,
    ``UtU`` and ``VtV`` (r, k, k) the Gram matrices; sums are taken in float64
    whatever the factors' precision, so a stopping test on them is not rounding noise.
    """
    cross = np.einsum("rkn,rkn->r", XUt, Vt, dtype=np.float64)
    gram = np.einsum("rkl,rkl->r", UtU, VtV, dtype=np.float64)
    return np.maximum(0.5 * (X_sqnorm - 2.0 * cross + gram), 0.0)
