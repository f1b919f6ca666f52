"""Non-negative matrix approximation (NMA) of documents as term x segment matrices.

Wang, Tang & Liu (2011) represent document ``i`` as a matrix ``A_i`` (terms
x segments) and approximate every one of them with two shared non-negative
bases, ``A_i ~ L M_i R^T`` with ``L`` (n_terms x l1), ``R`` (c x l2) and a
small non-negative core ``M_i`` (l1 x l2) per document, minimising the sum
of reconstruction errors ``SRE = sum_i ||A_i - L M_i R^T||_F^2`` (eqs. 1, 17).

Orientation: the collection is passed as one matrix ``X`` of shape
(n_docs * c, n_terms) whose rows are segments, document after document
(rows ``i*c .. i*c + c - 1`` are document ``i``'s segments in order), so
``A_i = X[i*c:(i+1)*c].T``. Every document has the same number ``c`` of
segment slots because ``R``'s rows are indexed by segment position; a
document with fewer segments leaves the remaining rows empty (zero).

Algorithm 1 of the paper runs in two stages, each an alternating
non-negative least-squares loop solved exactly with block principal
pivoting (:mod:`docnmf.factor.nnls`):

1. ``A_i ~ L B_i`` (eq. 3): ``B_i`` given ``L`` column by column (eq. 5),
   then ``L`` given all ``B_i`` row by row (eqs. 6-12).
2. ``B_i ~ M_i R^T`` (eq. 4): every ``M_i`` given ``R``, then ``R`` given all
   ``M_i`` (eq. 13).

Each stage's own objective never increases. Stage 2 minimises
``sum ||B_i - M_i R^T||^2``, not eq. 17, so the SRE may rise during it. An
optional third stage (``joint_max_iter > 0``) continues from Algorithm 1's
answer with exact block-coordinate steps on eq. 17 itself (``L``; all
``M_i``; ``R``), along which the SRE never increases.

Eqs. 8-12 reach the rows of ``L`` through ``M^{1/2}`` and ``M^{-1/2}``; the
least-squares problem there has the Gram matrix ``M = sum B_i B_i^T`` and
right-hand sides ``N = sum B_i A_i^T``, which is what the NNLS solver takes
directly (no inverse square root, so a singular ``M`` is no problem).
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np
import scipy.sparse as sp

from ._losses import has_converged, squared_norm
from .nnls import nnls_bpp_gram

__all__ = ["NMAResult", "fit_nma", "fold_in_cores", "nma_random_init", "nma_loss",
           "segment_topic_weights"]


class NMAResult(NamedTuple):
    """What :func:`fit_nma` returns.

    ``L`` (n_terms, l1) has columns summing to one and ``R`` (c, l2) too,
    their scale moved into ``M`` (n_docs, l1, l2); ``L M_i R^T`` is
    unchanged by that. ``n_iter`` counts the iterations of stages 1, 2 and
    the joint stage. ``losses`` is the SRE (eq. 17) after every iteration
    of stage 2 and of the joint stage. ``stage_losses`` holds each stage's
    own objective from its start: ``"LB"`` = ``sum ||A_i - L B_i||^2``,
    ``"MR"`` = ``sum ||B_i - M_i R^T||^2``, ``"joint"`` = eq. 17.
    """

    L: np.ndarray
    R: np.ndarray
    M: np.ndarray
    n_iter: tuple[int, int, int]
    losses: np.ndarray
    stage_losses: dict
    converged: bool


def nma_random_init(X, n_segments: int, l1: int, l2: int,
                    rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Uniform random ``L0`` (n_terms, l1) scaled to ``X``'s mean entry and ``R0`` (c, l2).

    Stage 1 solves for ``B_i`` exactly given ``L0``, so only the direction
    of ``L0``'s columns matters; the scale keeps the numbers near the data's.
    """
    n_terms = X.shape[1]
    mean = float(X.sum()) / max(X.shape[0] * n_terms, 1)
    L0 = max(mean, 1e-12) * rng.random((n_terms, l1))
    R0 = rng.random((n_segments, l2))
    return L0, R0


def nma_loss(X, n_segments: int, L: np.ndarray, M: np.ndarray, R: np.ndarray, *,
             X_sqnorm: float | None = None, XL: np.ndarray | None = None) -> float:
    """Eq. 17: ``SRE = sum_i ||A_i - L M_i R^T||_F^2`` without densifying ``X``.

    Expanded as ``||X||^2 - 2 <X L, C> + <L^T L, C^T C>`` where row ``s`` of
    ``C`` (n_docs * c, l1) is segment ``s``'s column of ``M_i R^T``.
    ``XL = X @ L`` may be passed when the caller has it.

    Examples
    --------
    >>> import numpy as np
    >>> L, R = np.eye(2), np.eye(2)
    >>> M = np.array([[[1.0, 0.0], [0.0, 2.0]]])
    >>> X = np.array([[1.0, 0.0], [0.0, 3.0]])   # one document, A_1 = X.T
    >>> nma_loss(X, 2, L, M, R)
    1.0
    """
    if X_sqnorm is None:
        X_sqnorm = squared_norm(X)
    if XL is None:
        XL = np.asarray(X @ L)
    Ct = _stacked_cores(M, R)
    return _expanded_loss(X_sqnorm, XL, L.T @ L, Ct)


def segment_topic_weights(M: np.ndarray, R: np.ndarray) -> np.ndarray:
    """``M_i R^T`` for every document, as an array of shape (n_docs, c, l1).

    Entry ``[i, j, t]`` is the weight of topic ``t`` (column ``t`` of ``L``)
    in segment ``j`` of document ``i``: the paper's ``d_ij`` before
    normalisation (Section II).

    Examples
    --------
    >>> segment_topic_weights(np.ones((1, 2, 2)), np.array([[1.0, 0.0], [0.0, 2.0]])).tolist()
    [[[1.0, 1.0], [2.0, 2.0]]]
    """
    return np.einsum("ca,nla->ncl", R, M)


def fit_nma(X, n_segments: int, L0: np.ndarray, R0: np.ndarray, *, max_iter: int = 100,
            tol: float = 1e-4, joint_max_iter: int = 0,
            callback: Callable[[str, int, float], None] | None = None) -> NMAResult:
    """Algorithm 1 of Wang, Tang & Liu (2011), optionally followed by joint descent on eq. 17.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_docs * n_segments, n_terms)
        Non-negative (e.g. tf-idf) segment vectors as rows, document after
        document; empty segment slots are zero rows. Sparse stays sparse.
    n_segments : int
        ``c``, the segment slots per document.
    L0 : ndarray of shape (n_terms, l1)
    R0 : ndarray of shape (n_segments, l2)
        Non-negative starting bases (not modified).
    max_iter : int
        Maximum iterations of each of the two stages.
    tol : float
        A stage stops when its objective's relative decrease falls below
        ``tol``, or the objective below ``tol`` times the squared norm of
        what it approximates.
    joint_max_iter : int
        Iterations of the joint stage (0: Algorithm 1 only).
    callback : callable(stage, iteration, loss), optional
        Called after each iteration with ``stage`` in ``{"LB", "MR",
        "joint"}`` and that stage's objective.

    Returns
    -------
    NMAResult

    References
    ----------
    Wang, Tang & Liu, Document clustering via matrix representation, ICDM
    2011, Section III, eqs. (1)-(14), (17) and Algorithm 1.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((3 * 4, 10))          # 4 documents of 3 segments, 10 terms
    >>> res = fit_nma(X, 3, *nma_random_init(X, 3, 2, 2, rng), joint_max_iter=5)
    >>> res.L.shape, res.R.shape, res.M.shape
    ((10, 2), (3, 2), (4, 2, 2))
    >>> bool(np.all(np.diff(res.stage_losses["joint"]) <= 1e-9 * res.stage_losses["joint"][0]))
    True
    """
    X = X.tocsr() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    c = int(n_segments)
    if X.shape[0] % c:
        raise ValueError(f"{X.shape[0]} segment rows is not a multiple of n_segments={c}")
    n_docs = X.shape[0] // c
    L = np.array(L0, dtype=np.float64, copy=True)
    R = np.array(R0, dtype=np.float64, copy=True)
    if L.shape[0] != X.shape[1] or R.shape[0] != c:
        raise ValueError(f"L0 {L.shape} and R0 {R.shape} do not fit X {X.shape} with c={c}")
    l1, l2 = L.shape[1], R.shape[1]
    Xt = X.T.tocsr() if sp.issparse(X) else X.T
    X_sqnorm = squared_norm(X)
    notify = callback or (lambda stage, it, loss: None)

    # Stage 1 (eqs. 3, 5, 6-12): A_i ~ L B_i. Bt holds the columns of all B_i as rows.
    XL = np.asarray(X @ L)
    Bt = np.zeros((X.shape[0], l1))
    losses_lb: list[float] = []
    done1, n1 = False, 0
    for n1 in range(1, max_iter + 1):
        Bt = nnls_bpp_gram(L.T @ L, XL.T, init=Bt.T if n1 > 1 else None).T      # eq. 5
        if n1 == 1:
            losses_lb.append(_expanded_loss(X_sqnorm, XL, L.T @ L, Bt))
        L = nnls_bpp_gram(Bt.T @ Bt, np.asarray(Xt @ Bt).T, init=L.T).T         # eq. 12
        XL = np.asarray(X @ L)
        losses_lb.append(_expanded_loss(X_sqnorm, XL, L.T @ L, Bt))
        notify("LB", n1, losses_lb[-1])
        if _small_decrease(losses_lb, tol, X_sqnorm):
            done1 = True
            break

    # Stage 2 (eqs. 4, 13): B_i ~ M_i R^T with L fixed.
    B3 = Bt.reshape(n_docs, c, l1)          # B3[i] = B_i^T
    B_sqnorm = float(np.vdot(Bt, Bt))
    M = np.zeros((n_docs, l1, l2))
    LtL = L.T @ L
    losses_mr: list[float] = []
    sre: list[float] = []
    done2, n2 = False, 0
    for n2 in range(1, max_iter + 1):
        M = _solve_cores_given_r(B3, R, M if n2 > 1 else None)               # eq. 13, first line
        if n2 == 1:
            losses_mr.append(_core_loss(B3, M, R, B_sqnorm))
        P = np.einsum("nla,nlb->ab", M, M)                                    # P = sum M_i^T M_i
        Q = np.einsum("nla,ncl->ac", M, B3)                                   # Q = sum M_i^T B_i
        R = nnls_bpp_gram(P, Q, init=R.T).T                                   # eq. 13, second line
        losses_mr.append(_core_loss(B3, M, R, B_sqnorm))
        sre.append(_expanded_loss(X_sqnorm, XL, LtL, _stacked_cores(M, R)))
        notify("MR", n2, losses_mr[-1])
        if _small_decrease(losses_mr, tol, B_sqnorm):
            done2 = True
            break

    # Optional joint stage: exact block-coordinate descent on eq. 17 itself.
    losses_joint = [sre[-1]]
    done3, n3 = True, 0
    if joint_max_iter > 0:
        done3 = False
        for n3 in range(1, int(joint_max_iter) + 1):
            Ct = _stacked_cores(M, R)
            L = nnls_bpp_gram(Ct.T @ Ct, np.asarray(Xt @ Ct).T, init=L.T).T
            XL = np.asarray(X @ L)
            M = _solve_cores_joint(XL.reshape(n_docs, c, l1), L.T @ L, R, M)
            # rows of R: Gram sum M_i^T L^T L M_i, right-hand sides sum M_i^T L^T A_i
            LM = np.einsum("ab,nbc->nac", L.T @ L, M)
            P = np.einsum("nla,nlb->ab", M, LM)
            Q = np.einsum("nla,ncl->ac", M, XL.reshape(n_docs, c, l1))
            R = nnls_bpp_gram(P, Q, init=R.T).T
            losses_joint.append(_expanded_loss(X_sqnorm, XL, L.T @ L, _stacked_cores(M, R)))
            sre.append(losses_joint[-1])
            notify("joint", n3, losses_joint[-1])
            if _small_decrease(losses_joint, tol, X_sqnorm):
                done3 = True
                break

    L, M, R = _normalise(L, M, R)
    return NMAResult(L, R, M, (n1, n2, n3), np.asarray(sre),
                     {"LB": np.asarray(losses_lb), "MR": np.asarray(losses_mr),
                      "joint": np.asarray(losses_joint)},
                     done1 and done2 and done3)


def fold_in_cores(X, n_segments: int, L: np.ndarray, R: np.ndarray, *,
                  joint: bool = False) -> np.ndarray:
    """The cores ``M_i`` of new documents, the bases ``L`` and ``R`` held fixed.

    Each new document is treated as Algorithm 1 treats a fitted one, with
    the fitted bases: ``B_i`` given ``L`` (eq. 5), then ``M_i`` given ``R``
    (eq. 13, first line). With ``joint=True`` (models fitted with the joint
    stage) ``M_i`` minimises eq. 17 itself, ``||A_i - L M_i R^T||_F``, as
    the joint stage's core step does.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_new * n_segments, n_terms)
        The new documents' segment vectors as rows, as :func:`fit_nma` takes them.
    n_segments : int
    L : ndarray of shape (n_terms, l1)
    R : ndarray of shape (n_segments, l2)
    joint : bool

    Returns
    -------
    M : ndarray of shape (n_new, l1, l2)

    Examples
    --------
    >>> L, R = np.eye(2), np.eye(2)
    >>> X = np.array([[1.0, 0.0], [0.0, 3.0]])       # one document, A_1 = X.T
    >>> fold_in_cores(X, 2, L, R).tolist()
    [[[1.0, 0.0], [0.0, 3.0]]]
    """
    c = int(n_segments)
    if X.shape[0] % c:
        raise ValueError(f"{X.shape[0]} segment rows is not a multiple of n_segments={c}")
    n_new, l1 = X.shape[0] // c, L.shape[1]
    XL = np.asarray(X @ L)
    if joint:
        return _solve_cores_joint(XL.reshape(n_new, c, l1), L.T @ L, R,
                                  np.zeros((n_new, l1, R.shape[1])))
    Bt = nnls_bpp_gram(L.T @ L, XL.T).T                                       # eq. 5
    return _solve_cores_given_r(Bt.reshape(n_new, c, l1), R, None)            # eq. 13


def _small_decrease(losses: list[float], tol: float, scale: float) -> bool:
    """Relative decrease below ``tol``, or a loss below ``tol`` times the data's ``scale``.

    The second test ends stage 2 when ``l2 >= c``: ``B_i = M_i R^T`` can then
    be met exactly, and the loss shrinks geometrically towards 0 without its
    relative decrease ever getting small.
    """
    previous, current = losses[-2], losses[-1]
    return has_converged(previous, current, tol, floor=tol * scale)


def _expanded_loss(X_sqnorm: float, XL: np.ndarray, LtL: np.ndarray, Ct: np.ndarray) -> float:
    """``||X - Ct L^T||^2`` (rows of X are segments) from ``X L`` and ``L^T L``."""
    cross = float(np.einsum("ij,ij->", XL, Ct))
    gram = float(np.einsum("ij,ij->", LtL, Ct.T @ Ct))
    # clip: rounding can make a perfect fit slightly negative
    return max(X_sqnorm - 2.0 * cross + gram, 0.0)


def _stacked_cores(M: np.ndarray, R: np.ndarray) -> np.ndarray:
    """Rows ``i*c + j`` = segment ``j``'s column of ``M_i R^T``: shape (n_docs * c, l1)."""
    n_docs, l1 = M.shape[0], M.shape[1]
    return segment_topic_weights(M, R).reshape(n_docs * R.shape[0], l1)


def _core_loss(B3: np.ndarray, M: np.ndarray, R: np.ndarray, B_sqnorm: float) -> float:
    """Stage 2's objective ``sum_i ||B_i - M_i R^T||_F^2``."""
    cross = float(np.einsum("ncl,nla,ca->", B3, M, R))
    gram = float(np.einsum("nla,nlb,ab->", M, M, R.T @ R))
    return max(B_sqnorm - 2.0 * cross + gram, 0.0)


def _solve_cores_given_r(B3: np.ndarray, R: np.ndarray, M_prev: np.ndarray | None) -> np.ndarray:
    """Eq. 13, first line: ``min ||R M_i^T - B_i^T||`` for every document at once.

    The columns of every ``M_i^T`` share the design ``R``: one NNLS call with
    Gram ``R^T R`` and right-hand sides ``R^T B_i^T`` for all ``i``.
    """
    n_docs, _, l1 = B3.shape
    l2 = R.shape[1]
    H = np.einsum("ca,ncl->anl", R, B3).reshape(l2, n_docs * l1)
    init = None if M_prev is None else M_prev.transpose(2, 0, 1).reshape(l2, n_docs * l1)
    Mt = nnls_bpp_gram(R.T @ R, H, init=init).reshape(l2, n_docs, l1)
    return np.ascontiguousarray(Mt.transpose(1, 2, 0))


def _solve_cores_joint(XL3: np.ndarray, LtL: np.ndarray, R: np.ndarray,
                       M_prev: np.ndarray) -> np.ndarray:
    """``min ||A_i - L M_i R^T||`` over every ``M_i >= 0`` with ``L`` and ``R`` fixed.

    ``vec(L M R^T) = (R kron L) vec(M)`` (column-major ``vec``), so each
    document is an NNLS with Gram ``(R^T R) kron (L^T L)`` and right-hand
    side ``vec(L^T A_i R)``; ``XL3[i] = (L^T A_i)^T``.
    """
    n_docs, _, l1 = XL3.shape
    l2 = R.shape[1]
    K = np.kron(R.T @ R, LtL)
    T = np.einsum("ncl,cb->nbl", XL3, R).reshape(n_docs, l2 * l1)   # index b * l1 + a
    init = M_prev.transpose(0, 2, 1).reshape(n_docs, l2 * l1).T
    vecM = nnls_bpp_gram(K, T.T, init=init).T
    return np.ascontiguousarray(vecM.reshape(n_docs, l2, l1).transpose(0, 2, 1))


def _normalise(L: np.ndarray, M: np.ndarray, R: np.ndarray):
    """Scale ``L``'s and ``R``'s columns to sum to one, moving the scale into every ``M_i``.

    ``L diag(1/s) (diag(s) M_i diag(r)) diag(1/r) R^T = L M_i R^T``; an
    all-zero column is left alone.
    """
    s = L.sum(axis=0)
    s = np.where(s > 0, s, 1.0)
    r = R.sum(axis=0)
    r = np.where(r > 0, r, 1.0)
    return L / s, M * s[None, :, None] * r[None, None, :], R / r
