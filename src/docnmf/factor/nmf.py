"""NMF by the multiplicative updates of Xu, Liu & Gong (2003), eqs. 8-11.

Orientation: rows of ``X`` are documents, so the paper's ``X ~ U V^T``
(terms x documents) reads ``X ~ V U^T`` here, with ``U`` of shape
(n_terms, k) the topic (basis) factor and ``V`` of shape (n_docs, k) the
document factor. Equation numbers refer to the paper.
"""

from __future__ import annotations

from functools import partial
from typing import Callable, NamedTuple, Sequence

import numpy as np
import scipy.sparse as sp

from ._losses import has_converged, nmf_loss, squared_norm
from .sparse import SparseProducts, thread_pool

__all__ = ["FactorResult", "fit_nmf_mu", "fit_nmf_mu_batched", "random_init", "normalize_uv",
           "solve_v", "fixed_mu_steps", "side_by_side", "wide_product"]

#: Keeps 0/0 at 0 in the updates: a factor entry that reaches zero stays zero (Lee & Seung).
EPS = 1e-12


#: Entries this far below a factor's largest are set to zero. Multiplicative updates drive
#: unused entries towards zero geometrically; left alone they become subnormal floats,
#: which makes every later product several times slower, yet they carry no information
#: (1e-100 is far below double precision relative to the other entries).
FLUSH_RELATIVE = 1e-100


#: The same for single precision, whose 24-bit mantissa carries nothing 1e-30 below the maximum.
FLUSH_RELATIVE_FLOAT32 = 1e-30


def flush_tiny(A: np.ndarray) -> np.ndarray:
    """Zero the entries of ``A`` below ``FLUSH_RELATIVE`` times its maximum, in place."""
    top = A.max(initial=0.0)
    if top > 0:
        relative = FLUSH_RELATIVE_FLOAT32 if A.dtype == np.float32 else FLUSH_RELATIVE
        A[A < top * relative] = 0.0
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
    each = None if callback is None else (lambda _, n_iter, loss: callback(n_iter, loss))
    return fit_nmf_mu_batched(X, [(U0, V0)], max_iter=max_iter, tol=tol, callback=each)[0]


def side_by_side(product: Callable[[np.ndarray], np.ndarray],
                 blocks: Sequence[np.ndarray]) -> list[np.ndarray]:
    """``[product(B) for B in blocks]``, computed as one ``product`` of the blocks side by side.

    For a product that is linear column by column (``M @ B``), one product
    of ``[B_1 ... B_r]`` costs one pass over ``M`` instead of ``r``. Use it
    only where each output entry is accumulated in the same order whatever
    the width of the right operand, so that every block's columns come out
    bit for bit as ``product(B_i)``: scipy's CSR times dense does (one pass
    over a row's stored entries per output row, each entry added into all
    columns in turn); a dense BLAS product does not (OpenBLAS blocks and
    splits the work among threads by the width). The blocks are returned as
    contiguous copies, so that later BLAS products on them see the same
    memory layout as on ``product(B_i)`` itself.

    Examples
    --------
    >>> M = sp.csr_matrix(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> a, b = side_by_side(lambda B: M @ B, [np.eye(2), np.ones((2, 2))])
    >>> a.tolist(), b.tolist()
    ([[1.0, 2.0], [0.0, 3.0]], [[3.0, 3.0], [3.0, 3.0]])
    """
    if len(blocks) == 1:
        return [product(blocks[0])]
    wide = np.asarray(product(np.hstack(blocks)))
    edges = np.cumsum([0] + [B.shape[1] for B in blocks])
    return [np.ascontiguousarray(wide[:, a:b]) for a, b in zip(edges[:-1], edges[1:])]


def wide_product(A, blocks: list[np.ndarray]) -> list[np.ndarray]:
    """``[A @ B for B in blocks]``: one product of the blocks side by side when ``A`` is sparse.

    Dense ``A`` goes block by block, since BLAS may sum in another order for
    another width (see :func:`side_by_side`).
    """
    if sp.issparse(A):
        return side_by_side(A.__matmul__, blocks)
    return [np.ascontiguousarray(A @ B) for B in blocks]


def fit_nmf_mu_batched(X, starts: list[tuple[np.ndarray, np.ndarray]], *, max_iter: int = 300,
                       tol: float = 1e-4, dtype=np.float64,
                       callback: Callable[[int, int, float], None] | None = None
                       ) -> list[FactorResult]:
    """:func:`fit_nmf_mu` from each ``(U0, V0)`` in ``starts``, side by side, with the same results.

    The restarts share the two sparse products of each round (``X^T V`` and
    ``X U`` for all of them at once, see :func:`wide_product`); everything
    else is computed per restart on arrays of the same shapes as when it runs
    alone, so each result equals this function from that start alone, bit for
    bit. Each restart stops on its own criterion and then leaves the batch.
    ``callback(start, iteration, loss)`` is called after every round of every
    running start.
    Only double precision (``dtype``): in single precision a slow MU run's relative
    decrease sinks into the products' rounding and the run may stop on a plateau
    far from where double precision goes (seen on the demo corpus: 5e-4 apart).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = sp.random(30, 20, density=0.3, random_state=0, format="csr")
    >>> starts = [random_init(X, 3, g) for g in rng.spawn(3)]
    >>> batch = fit_nmf_mu_batched(X, starts, max_iter=40)
    >>> alone = [fit_nmf_mu_batched(X, [start], max_iter=40)[0] for start in starts]
    >>> all(np.array_equal(a.U, b.U) and np.array_equal(a.losses, b.losses)
    ...     for a, b in zip(batch, alone))
    True
    """
    if np.dtype(dtype) != np.float64:
        raise ValueError("the multiplicative updates run in float64 only; "
                         "use solver='hals' for float32")
    U = [np.array(U0, dtype=np.float64, copy=True) for U0, _ in starts]
    V = [np.array(V0, dtype=np.float64, copy=True) for _, V0 in starts]
    X_sqnorm = squared_norm(X)
    with thread_pool() as pool:
        if sp.issparse(X):
            # the compiled products sum each entry in scipy's order: the same bits, sooner
            ops = SparseProducts(X)
            X_prod = partial(side_by_side, lambda B: ops.dot(B, pool))
            Xt_prod = partial(side_by_side, lambda B: ops.tdot(B, pool))
        else:
            X_prod = partial(wide_product, np.asarray(X))
            Xt_prod = partial(wide_product, np.asarray(X).T)
        return _fit_mu(X, U, V, X_sqnorm, X_prod, Xt_prod, max_iter=max_iter, tol=tol,
                       callback=callback)


def _fit_mu(X, U, V, X_sqnorm, X_prod, Xt_prod, *, max_iter, tol, callback):
    XU = X_prod(U)
    losses = [[nmf_loss(X, U[r], V[r], X_sqnorm=X_sqnorm, XU=XU[r])] for r in range(len(U))]
    n_iter = [0] * len(U)
    converged = [False] * len(U)
    active = list(range(len(U)))
    for it in range(1, max_iter + 1):
        if not active:
            break
        # eq. 8 for every active restart, on one product X^T [V_1 ... V_r]
        for r, XV in zip(active, Xt_prod([V[r] for r in active])):
            U[r] *= XV / (U[r] @ (V[r].T @ V[r]) + EPS)
            flush_tiny(U[r])
        still = []
        # eq. 9 likewise, on X [U_1 ... U_r]
        for r, XUr in zip(active, X_prod([U[r] for r in active])):
            V[r] *= XUr / (V[r] @ (U[r].T @ U[r]) + EPS)
            flush_tiny(V[r])
            losses[r].append(nmf_loss(X, U[r], V[r], X_sqnorm=X_sqnorm, XU=XUr))
            n_iter[r] = it
            if callback is not None:
                callback(r, it, losses[r][-1])
            previous = losses[r][-2]
            if has_converged(previous, losses[r][-1], tol):
                converged[r] = True
            else:
                still.append(r)
        active = still
    results = []
    for r in range(len(U)):
        Ur, Vr = normalize_uv(U[r], V[r])
        results.append(FactorResult(Ur, Vr, n_iter[r], np.asarray(losses[r]), converged[r]))
    return results


def solve_v(X, U: np.ndarray, V0: np.ndarray, *, n_iter: int = 300) -> np.ndarray:
    """With ``U`` fixed, minimise ``1/2 ||X^T - U V^T||^2`` over ``V >= 0`` by eq. 9 alone.

    Used to place new documents in a fitted topic space. A fixed number of
    steps (no data-dependent stopping) keeps each document's answer
    independent of the other documents passed with it.
    """
    return fixed_mu_steps(np.array(V0, dtype=np.float64, copy=True), np.asarray(X @ U), U.T @ U,
                          n_iter)


def fixed_mu_steps(R: np.ndarray, numerator: np.ndarray, gram: np.ndarray,
                   n_iter: int) -> np.ndarray:
    """``n_iter`` steps of ``R <- R numerator / (R gram)`` in place, each then :func:`flush_tiny`.

    The multiplicative rule for ``min ||A - R B||^2`` over rows ``R >= 0``
    with ``B`` fixed (``numerator = A B^T``, ``gram = B B^T``) that places
    new documents in a fitted model (NMF, FS-NMF, SS-NMF). A fixed number of
    steps, with no data-dependent stopping, keeps each row independent of
    the other rows passed with it.

    Examples
    --------
    >>> R = fixed_mu_steps(np.ones((1, 1)), np.array([[6.0]]), np.array([[2.0]]), 5)
    >>> round(float(R[0, 0]), 6)   # the minimiser 6 / 2, reached in one step
    3.0
    """
    for _ in range(n_iter):
        R *= numerator / (R @ gram + EPS)
        flush_tiny(R)
    return R

