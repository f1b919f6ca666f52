"""One home for each objective: solvers use these for convergence, tests to check monotonicity.

Rows of ``X`` are documents (scikit-learn's orientation); the papers'
term-document matrix is ``X.T``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def squared_norm(X) -> float:
    """``||X||_F^2`` for dense or sparse ``X``."""
    if sp.issparse(X):
        return float(X.multiply(X).sum())
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
    # single-precision factors are summed in double: the stopping test compares sums
    # whose relative change is near float32's resolution
    in_double = {} if V.dtype == np.float64 else {"dtype": np.float64}
    cross = float(np.einsum("ij,ij->", np.asarray(XU), V, **in_double))
    gram = float(np.einsum("ij,ij->", U.T @ U, V.T @ V, **in_double))
    # clip: rounding can make a perfect fit slightly negative
    return max(0.5 * (X_sqnorm - 2.0 * cross + gram), 0.0)
