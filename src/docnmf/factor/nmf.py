"""NMF by the multiplicative updates of Xu, Liu & Gong (2003), eqs. 8-11.

Orientation: rows of ``X`` are documents, so the paper's ``X ~ U V^T``
(terms x documents) reads ``X ~ V U^T`` here, with ``U`` of shape
(n_terms, k) the topic (basis) factor and ``V`` of shape (n_docs, k) the
document factor. Equation numbers refer to the paper.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np
import scipy.sparse as sp

from ._losses import nmf_loss, squared_norm

__all__ = ["FactorResult", "fit_nmf_mu", "random_init", "normalize_uv", "solve_v", "SOLVERS"]

#: Keeps 0/0 at 0 in the updates: a factor entry that reaches zero stays zero (Lee & Seung).
EPS = 1e-12


#: Entries this far below a factor's largest are set to zero. Multiplicative updates drive
#: unused entries towards zero geometrically; left alone they become subnormal floats,
#: which makes every later product several times slower, yet they carry no information
#: (1e-100 is far below double precision relative to the other entries).
FLUSH_RELATIVE = 1e-100


def flush_tiny(A: np.ndarray) -> np.ndarray:
    """Zero the entries of ``A`` below ``FLUSH_RELATIVE`` times its maximum, in place."""
    top = A.max(initial=0.0)
    if top > 0:
        A[A < top * FLUSH_RELATIVE] = 0.0
    return A


class FactorResult(NamedTuple):
    """What a solver returns: the factors, iterations, objective history, convergence."""

    U: np.ndarray
    V: np.ndarray
    n_iter: int
    losses: np.ndarray
    converged: bool


def random_init(X, k: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Uniform random non-negative ``U`` (n_terms, k), ``V`` (n_docs, k) scaled to ``X``'s mean.

    The scale makes ``V U^T`` start with the same mean entry as ``X`` so the
    first multiplicative steps are not spent fixing the magnitude.
    """
    n_docs, n_terms = X.shape
    mean = float(X.sum()) / (n_docs * n_terms)
    scale = np.sqrt(max(mean, 1e-12) / k) * 2.0  # E[u v] = scale^2 / 4 per term
    U = scale * rng.random((n_terms, k))
    V = scale * rng.random((n_docs, k))
    return U, V


def normalize_uv(U: np.ndarray, V: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eqs. 10-11: scale each column of ``U`` to unit length and ``V`` inversely.

    ``V U^T`` is unchanged. A column of ``U`` that is all zero is left alone.
    """
    norms = np.sqrt((U * U).sum(axis=0))
    norms = np.where(norms > 0, norms, 1.0)
    return U / norms, V * norms


def fit_nmf_mu(X, U0: np.ndarray, V0: np.ndarray, *, max_iter: int = 300, tol: float = 1e-4,
               callback: Callable[[int, float], None] | None = None) -> FactorResult:
    """Minimise ``J = 1/2 ||X^T - U V^T||^2`` by eqs. 8 and 9, then normalise by eqs. 10-11.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_docs, n_terms)
        Non-negative data, documents as rows. Sparse input stays sparse: the
        updates use only ``X @ U`` and ``X.T @ V``.
    U0 : ndarray of shape (n_terms, k)
    V0 : ndarray of shape (n_docs, k)
        Non-negative starting factors (not modified).
    max_iter : int
        Maximum number of (U, V) update rounds.
    tol : float
        Stop when the relative decrease ``(J_prev - J) / J_prev`` falls below
        ``tol`` (scale-free).
    callback : callable(iteration, loss), optional

    Returns
    -------
    FactorResult
        ``U`` with unit-length columns, ``V`` rescaled (eqs. 10-11),
        ``losses[0]`` the objective at the start and ``losses[t]`` after
        round ``t``.

    References
    ----------
    Xu, Liu & Gong, Document clustering based on NMF, SIGIR 2003, eqs. (1), (8)-(11).
    Lee & Seung, Algorithms for non-negative matrix factorization, NIPS 2001.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((6, 4))
    >>> res = fit_nmf_mu(X, *random_init(X, 2, rng)[::1], max_iter=50)
    >>> bool(np.all(np.diff(res.losses) <= 1e-12)), res.U.shape, res.V.shape
    (True, (4, 2), (6, 2))
    """
    U = np.array(U0, dtype=np.float64, copy=True)
    V = np.array(V0, dtype=np.float64, copy=True)
    Xt = X.T.tocsr() if sp.issparse(X) else np.asarray(X).T
    X_sqnorm = squared_norm(X)
    losses = [nmf_loss(X, U, V, X_sqnorm=X_sqnorm)]
    converged = False
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        # eq. 8: u_ij <- u_ij (X V)_ij / (U V^T V)_ij   (paper's X is our X.T)
        U *= (Xt @ V) / (U @ (V.T @ V) + EPS)
        flush_tiny(U)
        # eq. 9: v_ij <- v_ij (X^T U)_ij / (V U^T U)_ij
        XU = X @ U
        V *= XU / (V @ (U.T @ U) + EPS)
        flush_tiny(V)
        losses.append(nmf_loss(X, U, V, X_sqnorm=X_sqnorm, XU=XU))
        if callback is not None:
            callback(n_iter, losses[-1])
        previous = losses[-2]
        if previous <= 0 or (previous - losses[-1]) < tol * previous:
            converged = True
            break
    U, V = normalize_uv(U, V)
    return FactorResult(U, V, n_iter, np.asarray(losses), converged)


def solve_v(X, U: np.ndarray, V0: np.ndarray, *, n_iter: int = 300) -> np.ndarray:
    """With ``U`` fixed, minimise ``1/2 ||X^T - U V^T||^2`` over ``V >= 0`` by eq. 9 alone.

    Used to place new documents in a fitted topic space. A fixed number of
    steps (no data-dependent stopping) keeps each document's answer
    independent of the other documents passed with it.
    """
    V = np.array(V0, dtype=np.float64, copy=True)
    XU = np.asarray(X @ U)
    UtU = U.T @ U
    for _ in range(n_iter):
        V *= XU / (V @ UtU + EPS)
        flush_tiny(V)
    return V


#: Registry of NMF solvers by name, so tests and estimators can enumerate them.
SOLVERS: dict[str, Callable[..., FactorResult]] = {"mu": fit_nmf_mu}
