"""Feature-subset NMF (FS-NMF) of Wang, Ding & Li (2010), eqs. 1-4.

FS-NMF factorises the data while weighting its features::

    min_{W, F, G >= 0}  ||X - F G^T||_W^2 = sum_j W_j sum_i (X - F G^T)_ji^2
    subject to          sum_j W_j^alpha = 1,                              (eq. 1)

with ``W`` diagonal over the features, ``F`` the cluster centroids and ``G``
the cluster indicators; the weights rank the features.

Orientation: the paper's ``X`` is features x data points (``m x n``, terms x
documents); here rows of ``X`` are documents (scikit-learn's orientation), so
our ``X`` is the paper's ``X^T`` and the model reads ``X ~ G F^T`` with ``G``
of shape (n_docs, k), ``F`` of shape (n_features, k) and the weights ``w``
(the diagonal of ``W``) over the columns of ``X``.

Each step of :func:`fit_fsnmf` does not increase the objective:

* ``G`` (eq. 3) and ``F`` (eq. 4) are Lee & Seung's multiplicative updates of
  a least-squares problem whose columns are scaled by ``sqrt(w)``, so their
  auxiliary-function argument applies unchanged. In eq. 4 the weight of a
  feature multiplies both the numerator and the denominator of its row, so it
  cancels: the ``F`` update is plain NMF's.
* ``W`` (eq. 2) is the exact minimiser over ``W`` for fixed ``F, G`` when
  ``0 < alpha < 1``: minimising the linear function ``sum_j W_j b_j`` (``b_j``
  the residual of feature ``j``, all ``>= 0``) over ``{W >= 0 : sum_j W_j^alpha
  >= 1}``, a convex set because ``W^alpha`` is concave, is a convex problem
  whose solution lies on the constraint ``sum_j W_j^alpha = 1`` and satisfies
  the stationarity condition that eq. 2 solves. For ``alpha > 1`` the same
  formula is the *maximiser* on that surface (and the minimum puts all weight
  on the single best-fitted feature), so ``alpha`` must lie in (0, 1).
  When some features are fitted exactly (``b_j = 0``) the formula divides by
  zero; the minimum is then 0, reached by sharing the weight equally among
  those features, which is what :func:`feature_weights` returns.

All-zero columns of ``X`` are left out (weight 0): a zero column is fitted
exactly by a zero row of ``F``, so the objective could be driven to 0 by
weighting it alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.special import logsumexp

from ._losses import has_converged
from .nmf import EPS, fixed_mu_steps, flush_tiny, normalize_uv

__all__ = [
    "FSNMFResult",
    "feature_residuals",
    "feature_weights",
    "fit_fsnmf",
    "fsnmf_loss",
    "solve_g",
    "uniform_weights",
    "weigh_fit",
]


class FSNMFResult(NamedTuple):
    """What :func:`fit_fsnmf` returns.

    ``F`` (n_features, k) with unit-length columns, ``G`` (n_docs, k) scaled
    inversely, ``w`` (n_features,) the feature weights, the objective history
    ``losses`` (``losses[0]`` at the start, ``losses[t]`` after round ``t``).
    """

    F: np.ndarray
    G: np.ndarray
    w: np.ndarray
    n_iter: int
    losses: np.ndarray
    converged: bool


def _column_sqnorms(X) -> np.ndarray:
    if sp.issparse(X):
        return np.asarray(X.multiply(X).sum(axis=0)).ravel()
    X = np.asarray(X)
    return np.einsum("ij,ij->j", X, X)


def feature_residuals(X, F: np.ndarray, G: np.ndarray, *, col_sqnorms: np.ndarray | None = None,
                      XtG: np.ndarray | None = None) -> np.ndarray:
    """``b_j = sum_i (X - G F^T)_ij^2`` for every feature (column) ``j`` of ``X``.

    For a sparse ``X`` it is expanded as ``||X_j||^2 - 2 (X^T G)_j . F_j +
    F_j (G^T G) F_j^T`` so ``X`` is never densified (rounding can then make an
    exact fit slightly negative; it is clipped at 0). A dense ``X`` gets the
    residual itself, which keeps its digits when the fit becomes very close.
    """
    if not sp.issparse(X):
        R = np.asarray(X) - G @ F.T
        return np.einsum("ij,ij->j", R, R)
    if col_sqnorms is None:
        col_sqnorms = _column_sqnorms(X)
    if XtG is None:
        XtG = np.asarray(X.T @ G)
    cross = np.einsum("jk,jk->j", XtG, F)
    gram = np.einsum("jk,jk->j", F @ (G.T @ G), F)
    return np.maximum(col_sqnorms - 2.0 * cross + gram, 0.0)


def fsnmf_loss(X, F: np.ndarray, G: np.ndarray, w: np.ndarray, **kwargs) -> float:
    """Eq. 1: ``||X - G F^T||_W^2 = sum_j w_j b_j`` (documents as rows of ``X``)."""
    return float(np.dot(w, feature_residuals(X, F, G, **kwargs)))


def uniform_weights(active: np.ndarray, alpha: float) -> np.ndarray:
    """Equal weights ``m^(-1/alpha)`` on the ``m`` active features, so ``sum w^alpha = 1``."""
    w = np.zeros(active.shape, dtype=np.float64)
    m = int(active.sum())
    if m:
        w[active] = m ** (-1.0 / alpha)
    return w


def feature_weights(b: np.ndarray, alpha: float, active: np.ndarray | None = None) -> np.ndarray:
    """Eq. 2: ``W_j = b_j^(1/(alpha-1)) / (sum_i b_i^(alpha/(alpha-1)))^(1/alpha)``.

    The exact minimiser of ``sum_j W_j b_j`` subject to ``sum_j W_j^alpha = 1``
    for ``0 < alpha < 1``. Computed in logarithms, since ``1/(alpha-1)`` is a
    large negative power (-3.3 at alpha = 0.7). Features outside ``active``
    get 0; when some active ``b_j`` are 0 the weight is shared equally among
    those (the objective is then 0).

    Examples
    --------
    >>> w = feature_weights(np.array([1.0, 2.0, 4.0]), 0.5)
    >>> float(np.sum(w ** 0.5)).__round__(12), bool(w[0] > w[1] > w[2])
    (1.0, True)
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    b = np.asarray(b, dtype=np.float64)
    if active is None:
        active = np.ones(b.shape, dtype=bool)
    w = np.zeros_like(b)
    exact = active & (b <= 0.0)
    if exact.any():
        return uniform_weights(exact, alpha)
    if not active.any():
        return w
    logb = np.log(b[active])
    p = 1.0 / (alpha - 1.0)
    w[active] = np.exp(p * logb - logsumexp(alpha * p * logb) / alpha)
    return w


def weigh_fit(X, F: np.ndarray, G: np.ndarray, alpha: float = 0.7, *,
              relative: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Eq. 2 for a fixed fit ``X ~ G F^T``: the feature weights and the residuals they rank.

    With ``relative=False`` this is the paper's W step as printed: weights
    from the squared residuals ``b_j``. With ``relative=True`` each residual
    is divided by its feature's squared norm, ``r_j = b_j / ||x_j||^2``, the
    share of the feature the fit leaves unexplained; the weights are then the
    exact minimiser of ``sum_j W_j r_j`` under ``sum_j W_j^alpha = 1``, i.e.
    eq. 2 for the data with unit-length feature columns (scaling a column of
    ``X`` scales the same row of ``F`` and leaves ``G`` a solution). Without
    it, rare features win merely because their small norm makes their
    residual small.

    Returns ``(w, r)``: weights with ``sum(w ** alpha) == 1`` over the non-zero
    features (0 on all-zero ones) and the residuals used (``inf`` on all-zero
    features, so that :func:`~docnmf.cluster.fsnmf.rank_features` puts them last).

    Examples
    --------
    >>> X = np.array([[2.0, 0.1, 1.0], [0.0, 0.1, 1.0]])
    >>> G, F = np.array([[1.0], [0.0]]), np.array([[2.0], [0.1], [1.0]])
    >>> w, r = weigh_fit(X, F, G)          # column 0 fitted exactly: all weight on it
    >>> w.round(6).tolist(), r.round(3).tolist()
    ([1.0, 0.0, 0.0], [0.0, 0.5, 0.5])
    """
    norms = _column_sqnorms(X)
    active = norms > 0
    b = feature_residuals(X, F, G, col_sqnorms=norms)
    r = np.where(active, b / np.where(active, norms, 1.0), np.inf) if relative \
        else np.where(active, b, np.inf)
    w = feature_weights(np.where(active, r, 0.0), alpha, active)
    return w, r


def solve_g(X, F: np.ndarray, w: np.ndarray, G0: np.ndarray, *, n_iter: int = 300) -> np.ndarray:
    """With ``F`` and ``w`` fixed, minimise eq. 1 over ``G >= 0`` by eq. 3 alone.

    Places new documents among fitted clusters; a fixed number of steps keeps
    each document's answer independent of the others passed with it.
    """
    wF = F * w[:, None]
    return fixed_mu_steps(np.array(G0, dtype=np.float64, copy=True), np.asarray(X @ wF), F.T @ wF,
                          n_iter)


def fit_fsnmf(X, F0: np.ndarray, G0: np.ndarray, *, alpha: float = 0.7,
              w0: np.ndarray | None = None, max_iter: int = 300, tol: float = 1e-5,
              callback: Callable[[int, float], None] | None = None) -> FSNMFResult:
    """Minimise eq. 1 by alternating eq. 3 (``G``), eq. 4 (``F``) and eq. 2 (``W``).

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_docs, n_features)
        Non-negative data, documents as rows (the paper's ``X^T``). Sparse
        input stays sparse: the updates use ``X @ (w F)``, ``X.T @ G`` and
        the column norms of ``X``.
    F0 : ndarray of shape (n_features, k)
    G0 : ndarray of shape (n_docs, k)
        Non-negative starting factors (not modified).
    alpha : float in (0, 1)
        Exponent of the weight constraint ``sum_j W_j^alpha = 1`` (0.7 in the paper).
    w0 : ndarray of shape (n_features,), optional
        Starting weights; default equal weights on the non-zero columns. They
        are used by the first ``G`` and ``F`` steps. A ``W`` computed from
        random starting factors would favour whichever features the random
        start happens to fit, and the closed form rewards a good fit with more
        weight, so the run starts from equal weights instead.
    max_iter : int
        Maximum number of (G, F, W) rounds.
    tol : float
        Stop when the relative decrease of the objective in a round falls
        below ``tol``.
    callback : callable(iteration, loss), optional

    Returns
    -------
    FSNMFResult
        ``F`` is normalised to unit-length columns and ``G`` scaled inversely
        at the end (``G F^T`` and the objective are unchanged).

    References
    ----------
    D. Wang, C. Ding & T. Li, Feature subset non-negative matrix factorization
    and its applications to document understanding, SIGIR 2010, eqs. (1)-(4).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((8, 5))
    >>> res = fit_fsnmf(X, rng.random((5, 2)), rng.random((8, 2)), max_iter=50)
    >>> bool(np.all(np.diff(res.losses) <= 1e-12 * res.losses[0]))
    True
    >>> round(float(np.sum(res.w ** 0.7)), 12)
    1.0
    """
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1), got {alpha}")
    F = np.array(F0, dtype=np.float64, copy=True)
    G = np.array(G0, dtype=np.float64, copy=True)
    Xt = X.T.tocsr() if sp.issparse(X) else np.asarray(X).T
    col_sqnorms = _column_sqnorms(X)
    active = col_sqnorms > 0
    w = uniform_weights(active, alpha) if w0 is None else np.array(w0, dtype=np.float64)
    F[~active] = 0.0
    losses = [fsnmf_loss(X, F, G, w, col_sqnorms=col_sqnorms)]
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        # eq. 3: G <- G (X^T W F) / (G F^T W F)            (paper's X is our X.T)
        wF = F * w[:, None]
        G *= np.asarray(X @ wF) / (G @ (F.T @ wF) + EPS)
        flush_tiny(G)
        # eq. 4: F <- F (W X G) / (W F G^T G); w_j cancels within row j
        XtG = np.asarray(Xt @ G)
        F *= XtG / (F @ (G.T @ G) + EPS)
        F[~active] = 0.0
        flush_tiny(F)
        # eq. 2: the closed-form weights for the current fit
        b = feature_residuals(X, F, G, col_sqnorms=col_sqnorms, XtG=XtG)
        w = feature_weights(b, alpha, active)
        losses.append(float(np.dot(w, b)))
        if callback is not None:
            callback(n_iter, losses[-1])
        previous = losses[-2]
        if has_converged(previous, losses[-1], tol):
            converged = True
            break
    F, G = normalize_uv(F, G)
    return FSNMFResult(F, G, w, n_iter, np.asarray(losses), converged)
