"""Non-negative least squares with many right-hand sides by block principal pivoting.

``min_X ||C X - B||_F^2`` subject to ``X >= 0``, one independent problem per
column of ``B``. The columns share the design ``C``, so the work is done on
the normal equations ``G = C^T C`` (q x q) and ``H = C^T B`` (q x r), and
all columns whose current passive set is the same are solved together with
one factorisation of ``G[F, F]`` (Kim & Park 2011, Section 3.2). The
alternating least-squares solvers of NMA and NMF need thousands of small
problems with the same design: one call here replaces a Python loop over
:func:`scipy.optimize.nnls`.
"""

from __future__ import annotations

import logging

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
from scipy.optimize import nnls as _scipy_nnls

__all__ = ["nnls_bpp", "nnls_bpp_gram"]

logger = logging.getLogger(__name__)

#: Relative size below which a Cholesky pivot counts as zero: ``G[F, F]`` is then
#: treated as singular and solved by its pseudo-inverse (minimum-norm solution).
_SINGULAR_RTOL = 1e-10

#: Infeasibility tolerance, relative to the scale of ``H`` (for the dual ``Y``) and of
#: ``X``: values within rounding of zero must not count as violations, or the pivoting
#: can flip a variable back and forth forever.
_FEASIBILITY_RTOL = 1e-10


def nnls_bpp(C, B, *, init: np.ndarray | None = None, max_iter: int | None = None) -> np.ndarray:
    """Solve ``min ||C x_j - b_j||_2`` subject to ``x_j >= 0`` for every column ``b_j`` of ``B``.

    Parameters
    ----------
    C : {ndarray, sparse matrix} of shape (m, q)
        The shared design matrix. Any rank: zero, duplicate or dependent
        columns are allowed.
    B : {ndarray, sparse matrix} of shape (m, r) or (m,)
        Right-hand sides, one per column (any sign).
    init : ndarray of shape (q, r), optional
        A previous solution; its positive entries give the starting passive
        sets (a warm start for alternating least squares).
    max_iter : int, optional
        Pivoting rounds before the columns still infeasible are handed to the
        Lawson-Hanson active-set method. Default ``5 * q + 20``.

    Notes
    -----
    Block pivoting pays off for few unknowns and many right-hand sides (the
    alternating least-squares regime: q up to a few tens, thousands of
    columns), where many columns share a passive set. For a handful of
    columns with many unknowns a loop over :func:`scipy.optimize.nnls` on
    the reduced q x q problem is faster (``benchmarks/nnls_speed.py``).

    Returns
    -------
    X : ndarray of shape (q, r) or (q,)
        A minimiser for each column. When ``C`` is rank deficient the
        minimiser need not be unique; the residual is.

    References
    ----------
    Kim & Park, Fast nonnegative matrix factorization: an active-set-like
    method and comparisons, SIAM J. Sci. Comput. 33(6), 2011, Algorithm 2
    and Section 3.2 (grouping columns with the same passive set).
    Portugal, Judice & Vicente, A comparison of block pivoting and interior
    point algorithms for linear least squares problems with nonnegative
    variables, Math. Comp. 63, 1994.

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> B = np.array([[2.0, -1.0], [1.0, 3.0], [3.0, 1.0]])
    >>> nnls_bpp(C, B).round(6).tolist()   # the second column: unconstrained x_1 = -4/3
    [[2.0, 0.0], [1.0, 2.0]]
    """
    one_column = not sp.issparse(B) and np.ndim(B) == 1
    if sp.issparse(C):
        G = np.asarray((C.T @ C).toarray(), dtype=np.float64)
    else:
        C = np.asarray(C, dtype=np.float64)
        G = C.T @ C
    if not sp.issparse(B):
        B = np.asarray(B, dtype=np.float64)
        B = B[:, None] if one_column else B
    H = C.T @ B
    H = np.asarray(H.toarray() if sp.issparse(H) else H, dtype=np.float64)
    if init is not None and one_column:
        init = np.asarray(init)[:, None]
    X = nnls_bpp_gram(G, H, init=init, max_iter=max_iter)
    return X[:, 0] if one_column else X


def nnls_bpp_gram(G: np.ndarray, H: np.ndarray, *, init: np.ndarray | None = None,
                  max_iter: int | None = None) -> np.ndarray:
    """Block principal pivoting on the normal equations: ``G = C^T C``, ``H = C^T B``.

    Each column solves ``min_x 1/2 x^T G x - h^T x`` subject to ``x >= 0``,
    the same problem as :func:`nnls_bpp` up to a constant. ``G`` must be
    symmetric positive semidefinite and each ``h`` in its range (true when
    they come from some ``C`` and ``B``).

    A column is optimal when ``x >= 0``, ``y = G x - h >= 0`` and
    ``x_i y_i = 0``. Starting from the passive set ``F`` of the unconstrained
    solution's positive entries (or of ``init``), each round exchanges the
    infeasible variables between ``F`` (``x_F`` free, ``y_F = 0``) and its
    complement (``x = 0``): all of them while that shrinks the count of
    infeasible variables (or up to three times without progress), otherwise
    only the one with the largest index (Murty's rule, which guarantees
    termination for positive definite ``G``).

    Degenerate problems:

    - a variable with ``G_ii = 0`` (a zero column of ``C``) does not enter
      the objective and is set to 0;
    - a singular ``G`` (dependent columns of ``C``) is pivoted as above with
      ``G_FF`` solved by its pseudo-inverse (the minimum-norm solution) when
      it has at most 16 variables. Pivoting may then cycle, so problems that
      stop making progress, and all problems of larger singular ``G``, are
      solved by :func:`scipy.optimize.nnls` on the equivalent design
      ``D^{1/2} V^T`` from ``G = V D V^T`` (the form of Wang et al.'s
      eqs. 10-12), which is exact for any rank.

    Parameters
    ----------
    G : ndarray of shape (q, q)
    H : ndarray of shape (q, r)
    init : ndarray of shape (q, r), optional
        Warm start: the passive sets start as ``init > 0``.
    max_iter : int, optional
        Default ``5 * q + 20`` rounds.

    Returns
    -------
    X : ndarray of shape (q, r)

    Examples
    --------
    >>> import numpy as np
    >>> G = np.array([[2.0, 1.0], [1.0, 2.0]])
    >>> nnls_bpp_gram(G, np.array([[3.0], [-3.0]])).round(6).tolist()
    [[1.5], [0.0]]
    """
    G = np.asarray(G, dtype=np.float64)
    H = np.asarray(H, dtype=np.float64)
    q, r = H.shape
    if G.shape != (q, q):
        raise ValueError(f"G has shape {G.shape}, expected ({q}, {q}) to match H {H.shape}")
    if init is not None and np.shape(init) != (q, r):
        raise ValueError(f"init has shape {np.shape(init)}, expected {(q, r)}")
    X = np.zeros((q, r))
    diag = np.diag(G)
    # a zero column of C leaves its variable out of the objective: x = 0 is a minimiser
    used = np.flatnonzero(diag > _SINGULAR_RTOL * max(float(diag.max(initial=0.0)), 0.0))
    if used.size == 0 or r == 0:
        return X
    Gu, Hu = G[np.ix_(used, used)], H[used]
    init_u = None if init is None else np.asarray(init)[used]
    eigenvalues = np.linalg.eigvalsh(Gu)
    singular = eigenvalues[0] <= _SINGULAR_RTOL * max(eigenvalues[-1], 0.0)
    if singular and used.size > _MAX_SINGULAR_BPP:
        # rank-deficient with many variables: every passive block would need an
        # eigendecomposition and the pivoting may cycle; Lawson-Hanson is exact and faster
        X[used] = _lawson_hanson_from_gram(Gu, Hu)
    else:
        X[used] = _bpp(Gu, Hu, init_u, max_iter, singular)
    return X


#: Largest number of variables for which a singular ``G`` still goes to block pivoting.
_MAX_SINGULAR_BPP = 16


def _bpp(G: np.ndarray, H: np.ndarray, init: np.ndarray | None, max_iter: int | None,
         singular: bool) -> np.ndarray:
    q, r = H.shape
    if max_iter is None:
        max_iter = 5 * q + 20
    # one problem per row from here on: gathering rows of C-ordered arrays is cheap
    Ht = np.ascontiguousarray(H.T)
    Xt = np.zeros((r, q))
    Yt = -Ht  # x = 0 is optimal already for a zero (or non-positive) right-hand side
    y_tol = _FEASIBILITY_RTOL * np.maximum(np.abs(Ht).max(axis=1), np.finfo(float).tiny)
    if init is None:
        # start from the signs of the unconstrained solution: usually one or two
        # exchanges from the answer, where x = 0 needs several
        init = (Ht @ _spd_pinv(G)).T
    Ft = np.ascontiguousarray(np.asarray(init).T > 0)
    start = np.flatnonzero(Ft.any(axis=1))
    if start.size:
        _solve_passive(G, Ht, Ft, start, Xt, Yt)

    # Kim & Park's alpha (full exchanges left without progress) and beta (fewest
    # infeasible variables seen so far), per problem
    alpha = np.full(r, 3, dtype=np.int64)
    beta = np.full(r, q + 1, dtype=np.int64)
    todo = np.arange(r)
    # Murty's single exchanges terminate for positive definite G; for singular G they can
    # cycle, and Lawson-Hanson finishes such problems sooner than waiting for them
    patience = 5 if singular else q + 3
    stalled = np.zeros(r, dtype=np.int64)
    give_up = []
    for _ in range(max_iter):
        V = _infeasible(Xt[todo], Yt[todo], Ft[todo], y_tol[todo])
        n_bad = V.sum(axis=1)
        keep = n_bad > 0
        todo, V, n_bad = todo[keep], V[keep], n_bad[keep]
        if todo.size == 0:
            break
        progress = n_bad < beta[todo]
        beta[todo[progress]] = n_bad[progress]
        alpha[todo[progress]] = 3
        stalled[todo] = np.where(progress, 0, stalled[todo] + 1)
        stuck = stalled[todo] > patience
        if stuck.any():
            give_up.append(todo[stuck])
            todo, V, n_bad, progress = todo[~stuck], V[~stuck], n_bad[~stuck], progress[~stuck]
            if todo.size == 0:
                break
        full = progress | (alpha[todo] >= 1)
        alpha[todo[~progress & full]] -= 1
        # backup rule: exchange only the infeasible variable with the largest index
        single = np.flatnonzero(~full)
        if single.size:
            last = q - 1 - np.argmax(V[single, ::-1], axis=1)
            V[single] = False
            V[single, last] = True
        Ft[todo] ^= V
        _solve_passive(G, Ht, Ft, todo, Xt, Yt)
    else:
        V = _infeasible(Xt[todo], Yt[todo], Ft[todo], y_tol[todo])
        give_up.append(todo[V.any(axis=1)])
    todo = np.concatenate(give_up) if give_up else todo[:0]
    if todo.size:
        logger.debug("block pivoting left %d of %d columns infeasible; finishing them with "
                     "Lawson-Hanson", todo.size, r)
        Xt[todo] = _lawson_hanson_from_gram(G, Ht[todo].T).T
    np.maximum(Xt, 0.0, out=Xt)
    return Xt.T.copy()


def _infeasible(X, Y, F, y_tol):
    x_tol = _FEASIBILITY_RTOL * np.maximum(np.abs(X).max(axis=1, initial=0.0),
                                           np.finfo(float).tiny)
    return (F & (X < -x_tol[:, None])) | (~F & (Y < -y_tol[:, None]))


def _solve_passive(G, Ht, Ft, rows, Xt, Yt) -> None:
    """For each problem (row) in ``rows``: ``x_F = G_FF^+ h_F``, 0 elsewhere; ``y = G x - h``.

    Problems with the same passive set share one factorisation of ``G_FF``
    (Kim & Park's grouping). Passive sets shared by only a few problems
    would cost one Python-level factorisation each, so those problems are
    solved together as stacks of their passive blocks by numpy's batched LAPACK.
    """
    # a shared factorisation costs ~50 us of Python overhead; a problem in a batched
    # stack costs ~2 us plus its own factorisation (~p^3 / 3 flops for p passive variables,
    # p = q in the padded stack)
    q = G.shape[0]
    sizes = Ft[rows].sum(axis=1) if q > _PADDED_STACK_MAX_Q else np.full(rows.size, q)
    min_group = np.maximum(2, (50.0 / (2.0 + sizes ** 3 / 3000.0)).astype(np.int64))
    keys = _pattern_keys(Ft[rows])
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    inverse = inverse.ravel()
    in_big = counts[inverse] >= min_group
    big = np.flatnonzero(in_big)
    order = big[np.argsort(inverse[big], kind="stable")]
    bounds = np.flatnonzero(np.diff(inverse[order])) + 1
    for members in np.split(order, bounds) if order.size else []:
        rr = rows[members]
        passive = np.flatnonzero(Ft[rr[0]])
        Hr = Ht[rr]
        if passive.size == 0:
            Xt[rr] = 0.0
            Yt[rr] = -Hr
            continue
        # G_FF^+ is symmetric, so x_F^T = h_F^T G_FF^+
        XF = Hr[:, passive] @ _spd_pinv(G[np.ix_(passive, passive)])
        Xr = np.zeros_like(Hr)
        Xr[:, passive] = XF
        Yr = XF @ G[passive] - Hr
        Yr[:, passive] = 0.0
        Xt[rr] = Xr
        Yt[rr] = Yr
    rr = rows[~in_big]
    for start in range(0, rr.size, _BATCH_ROWS):
        part = rr[start:start + _BATCH_ROWS]
        Fp = Ft[part]
        Xr = _masked_batch_solve(G, Ht[part], Fp)
        Yr = Xr @ G - Ht[part]
        Yr[Fp] = 0.0
        Xt[part] = Xr
        Yt[part] = Yr


#: Problems per call of the batched path (bounds the memory of its p x p stacks).
_BATCH_ROWS = 2048


#: Up to this many variables the batched path solves one stack of padded q x q systems.
#: Stacking by passive-set size gains nothing measurable there (NMA with the paper's l = 7:
#: 0.93-1.02 of the time), and the padded stack keeps the rounding, so reruns of the
#: tables in ``reports/`` give the numbers shown there.
_PADDED_STACK_MAX_Q = 16


def _masked_batch_solve(G: np.ndarray, Hr: np.ndarray, Fr: np.ndarray) -> np.ndarray:
    """``x_F = G_FF^+ h_F`` for each row of ``Hr``, as stacks of small systems.

    Rows with the same number ``p`` of passive variables form one stack of
    ``p x p`` blocks ``G_FF`` gathered from ``G`` (each row its own ``F``),
    solved by numpy's batched LAPACK; the other variables are 0. A block
    costs ``p^3`` rather than ``q^3``: in alternating least squares on text
    most passive sets hold a small share of the ``q`` variables. A block
    whose Cholesky pivots show it singular is solved by its pseudo-inverse.
    For ``q <= 16`` every row is one padded ``q x q`` system instead
    (:func:`_padded_stack_solve`).
    """
    n, q = Hr.shape
    if q <= _PADDED_STACK_MAX_Q:
        return _padded_stack_solve(G, Hr, Fr)
    x = np.zeros((n, q))
    sizes = Fr.sum(axis=1)
    for p in np.unique(sizes):
        if p == 0:
            continue
        rows = np.flatnonzero(sizes == p)
        idx = np.nonzero(Fr[rows])[1].reshape(rows.size, p)   # each row's passive set, sorted
        A = G[idx[:, :, None], idx[:, None, :]]
        b = np.take_along_axis(Hr[rows], idx, axis=1)
        x[rows[:, None], idx] = _solve_spd_stack(A, b)
    return x


def _padded_stack_solve(G: np.ndarray, Hr: np.ndarray, Fr: np.ndarray) -> np.ndarray:
    """Row ``j`` solves ``(D G D + s (I - D)) x = D h`` with ``D = diag(F_j)``.

    The passive block is ``G_FF`` and the other variables decouple with
    solution 0. ``s`` (the largest diagonal entry of ``G``) keeps that
    identity block on ``G``'s scale; the singularity test reads the passive
    pivots only.
    """
    q = G.shape[0]
    f = Fr.astype(np.float64)
    s = max(float(np.max(np.diag(G), initial=0.0)), np.finfo(float).tiny)
    A = G[None, :, :] * f[:, :, None] * f[:, None, :]
    A[:, np.arange(q), np.arange(q)] += s * (1.0 - f)
    return _solve_spd_stack(A, Hr * f, Fr)


def _solve_spd_stack(A: np.ndarray, b: np.ndarray, pivots: np.ndarray | None = None
                     ) -> np.ndarray:
    """``A_j^+ b_j`` for a stack of symmetric positive semidefinite ``A_j``.

    ``pivots`` (boolean, like ``b``) restricts the singularity test to those pivots.
    """
    try:
        chol = np.linalg.cholesky(A)
        d = np.diagonal(chol, axis1=1, axis2=2) ** 2  # pivots squared scale like eigenvalues
        if pivots is None:
            ok = d.min(axis=1) > _SINGULAR_RTOL * d.max(axis=1)
        else:
            d_min = np.where(pivots, d, np.inf).min(axis=1)
            d_max = np.where(pivots, d, 0.0).max(axis=1)
            ok = d_min > _SINGULAR_RTOL * d_max
    except np.linalg.LinAlgError:
        ok = np.zeros(A.shape[0], dtype=bool)
    x = np.zeros_like(b)
    if ok.any():
        x[ok] = np.linalg.solve(A[ok], b[ok][:, :, None])[:, :, 0]
    bad = np.flatnonzero(~ok)
    if bad.size:
        w, V = np.linalg.eigh(A[bad])
        cutoff = _SINGULAR_RTOL * np.maximum(w.max(axis=1, keepdims=True), 0.0)
        inv = np.divide(1.0, w, out=np.zeros_like(w), where=w > cutoff)
        x[bad] = np.einsum("nij,nj,nkj,nk->ni", V, inv, V, b[bad], optimize=True)
    return x


def _pattern_keys(P: np.ndarray) -> np.ndarray:
    """One integer per row of the boolean matrix ``P``, equal for equal rows."""
    q = P.shape[1]
    if q <= 62:
        return P.astype(np.int64) @ (1 << np.arange(q, dtype=np.int64))
    packed = np.packbits(P, axis=1)
    return np.unique(packed, axis=0, return_inverse=True)[1].ravel()


def _spd_pinv(A: np.ndarray) -> np.ndarray:
    """Inverse of a small symmetric positive semidefinite matrix; pseudo-inverse if singular.

    The explicit inverse then one matrix product beats LAPACK's triangular
    solves with thousands of right-hand sides by a wide margin.
    """
    try:
        factor, lower = sla.cho_factor(A, lower=False, check_finite=False)
        d = np.diag(factor) ** 2  # the pivots squared scale like A's eigenvalues
        if d.min() > _SINGULAR_RTOL * d.max():
            return sla.cho_solve((factor, lower), np.eye(A.shape[0]), check_finite=False)
    except np.linalg.LinAlgError:
        pass
    w, V = np.linalg.eigh(A)
    cutoff = _SINGULAR_RTOL * max(w.max(initial=0.0), 0.0)
    inv = np.divide(1.0, w, out=np.zeros_like(w), where=w > cutoff)
    return (V * inv) @ V.T


def _lawson_hanson_from_gram(G: np.ndarray, H: np.ndarray) -> np.ndarray:
    """Columns of ``H`` solved by Lawson-Hanson on the design ``D^{1/2} V^T`` (``G = V D V^T``).

    ``||D^{1/2} V^T x - D^{-1/2} V^T h||^2 = x^T G x - 2 h^T x + const`` for
    ``h`` in the range of ``G``, so the minimisers are the same.
    """
    w, V = np.linalg.eigh(G)
    keep = w > _SINGULAR_RTOL * max(w.max(initial=0.0), 0.0)
    root = np.sqrt(w[keep])
    E = root[:, None] * V[:, keep].T
    Fr = (V[:, keep].T @ H) / root[:, None]
    out = np.empty((G.shape[0], H.shape[1]))
    for j in range(H.shape[1]):
        out[:, j] = _scipy_nnls(E, Fr[:, j], maxiter=50 * G.shape[0])[0]
    return out
