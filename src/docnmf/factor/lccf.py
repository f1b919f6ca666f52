"""Concept factorization (CF) and locally consistent CF (LCCF) by multiplicative updates.

Cai, He & Han (2011) minimise (eq. 10)

    O = ||X - X W V^T||^2 + lam Tr(V^T L V),   W, V >= 0,

over ``W`` (documents x concepts: each concept ``u_k = X w_k`` is a
combination of documents) and ``V`` (documents x concepts: each document's
coordinates). ``lam = 0`` is CF (Xu & Gong 2003). Everything depends on the
data only through the kernel ``K`` (the paper's ``X^T X``), so the same
updates run in any kernel's feature space.

Orientation: rows of ``X`` are documents here, the columns in the paper.
``K``, ``W``, ``V``, ``S``, ``D`` and ``L`` are documents x something in both,
so every equation reads the same; only ``K = X^T X`` (paper) becomes
``K = X X^T`` (here), and the concept vectors ``X W`` become ``X^T W``
(terms x concepts).

Kernels enter through a :class:`~docnmf.factor.kernels.KernelOperator`, which knows ``K`` only by
its products ``K @ A``. For the linear kernel on non-negative data the
operator keeps the sparse ``X`` and computes ``K @ A = X @ (X.T @ A)``: the
n x n matrix is never formed, and time and memory per iteration grow with the
non-zeros of ``X``. Other kernels (degree-2 polynomial, a user function, a
precomputed Gram matrix) and the linear kernel on data with negative entries
(whose ``K`` must be split into positive and negative parts, eqs. 22-28)
hold ``K`` as a dense n x n array: that is unavoidable there.
"""

from __future__ import annotations

from typing import Callable, Literal, NamedTuple, Sequence

import numpy as np

from .graph import GraphLaplacian
from ._restarts import Start, run_starts
from .kernels import KernelOperator
from .nmf import EPS, flush_tiny, side_by_side

__all__ = ["ConceptResult", "lccf_loss", "fit_lccf", "fit_lccf_restarts", "normalize_wv",
           "random_init_concepts", "fold_in"]

# --- objective and updates ----------------------------------------------------------------------


class ConceptResult(NamedTuple):
    """What :func:`fit_lccf` returns.

    ``W`` and ``V`` as the last update left them (not normalised: with
    ``lam > 0`` the normalisation of Section 3.2 changes the objective);
    ``losses[0]`` is eq. 10 at the start and ``losses[t]`` after round ``t``.
    """

    W: np.ndarray
    V: np.ndarray
    n_iter: int
    losses: np.ndarray
    converged: bool


def _graph_term(graph: GraphLaplacian | None, V: np.ndarray, SV: np.ndarray | None = None) -> float:
    """``Tr(V^T L V) = sum_j D_jj |v_j|^2 - sum_js S_js v_j^T v_s`` (eq. 9); ``SV``: ``S V``."""
    if graph is None:
        return 0.0
    if SV is None:
        SV = graph.S @ V
    return float(np.einsum("j,jk,jk->", graph.degrees, V, V) - np.einsum("jk,jk->", V, SV))


def _loss(trace: float, W, V, KW, WKW, SV, graph, lam) -> float:
    """Eq. 10 by eq. 11's traces from ``K W``, ``W^T K W`` and (for ``lam > 0``) ``S V``."""
    if V.dtype != np.float64:
        # factors held in lower precision: their products summed in float64, so that the
        # objective (and the convergence test on it) is not the precision's rounding noise
        W, V, KW = W.astype(np.float64), V.astype(np.float64), KW.astype(np.float64)
        SV = None if SV is None else SV.astype(np.float64)
        WKW = W.T @ KW
    data = trace - 2.0 * float(np.einsum("jk,jk->", KW, V)) \
        + float(np.einsum("kl,kl->", WKW, V.T @ V))
    # clip: rounding can make a perfect fit slightly negative
    return max(data, 0.0) + (lam * _graph_term(graph, V, SV) if lam else 0.0)


def lccf_loss(K: KernelOperator, W: np.ndarray, V: np.ndarray, *,
              graph: GraphLaplacian | None = None, lam: float = 0.0,
              KW: np.ndarray | None = None, trace: float | None = None) -> float:
    """Eq. 10, ``||X - X W V^T||^2 + lam Tr(V^T L V)``, by eq. 11's traces.

    ``Tr(K) - 2 Tr(V^T K W) + Tr(W^T K W V^T V) + lam Tr(V^T L V)`` needs
    only ``K W`` (passed as ``KW`` when the caller has it), so the linear
    kernel's ``K`` is never formed. Documents are rows in both ``X`` and the
    factors, which leaves eq. 11 unchanged.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 1.0]])
    >>> from docnmf.factor.kernels import make_kernel
    >>> lccf_loss(make_kernel(X), np.eye(2), np.eye(2))   # X W V^T = X exactly
    0.0
    """
    if KW is None:
        KW = K.matmul(W)
    if trace is None:
        trace = K.trace()
    SV = graph.S @ V if lam and graph is not None else None
    return _loss(trace, W, V, KW, W.T @ KW, SV, graph, lam)


def normalize_wv(K: KernelOperator, W: np.ndarray, V: np.ndarray,
                 KW: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Section 3.2: scale each ``w`` to ``w^T K w = 1`` and ``V`` inversely (``W V^T`` kept).

    Returns ``(W, V, norms)`` with ``norms = diag(W^T K W)^{1/2}`` of the input; a
    column with ``w^T K w = 0`` is left alone.
    """
    if KW is None:
        KW = K.matmul(W)
    sq = np.einsum("jk,jk->k", W, KW)
    norms = np.sqrt(np.where(sq > 0, sq, 1.0))
    return W / norms, V * norms, norms


def random_init_concepts(n_docs: int, k: int,
                         rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Uniform random non-negative ``W``, ``V`` of shape (n_docs, k)."""
    return rng.random((n_docs, k)), rng.random((n_docs, k))


def _update_v(K, W, V, KW, KpW, WKW, SV, graph, lam):
    """Eq. 18 (eq. 28 for kernels with negative entries) in place, given ``W^T K W`` and ``S V``."""
    if not K.has_negative:
        # eq. 18: v <- v (K W + lam S V) / (V W^T K W + lam D V)
        num, den = KW, V @ WKW
        if lam:
            num = num + lam * SV
            den = den + lam * graph.degrees[:, None] * V
        V *= num / (den + EPS)
        return V
    # eq. 28 with Q+ = V W^T K+ W + lam D V and Q- = V W^T K- W + lam S V (K- = K+ - K)
    WKpW = W.T @ KpW
    Qp = V @ WKpW
    Qm = V @ (WKpW - WKW)
    if lam:
        Qp += lam * graph.degrees[:, None] * V
        Qm += lam * SV
    V *= (KW + np.sqrt(KW * KW + 4.0 * Qp * np.maximum(Qm, 0.0))) / (2.0 * Qp + EPS)
    return V


def _update_w(K, W, V, KW, KpW, KV):
    """Eq. 17 (eq. 25 for kernels with negative entries) in place; ``KV = K V`` of the new ``V``."""
    VtV = V.T @ V
    if not K.has_negative:
        # eq. 17: w <- w (K V) / (K W V^T V)
        W *= KV / (KW @ VtV + EPS)
        return W
    # eq. 25 with P+ = K+ W V^T V and P- = K- W V^T V
    Pp = KpW @ VtV
    Pm = np.maximum(Pp - KW @ VtV, 0.0)
    W *= (KV + np.sqrt(KV * KV + 4.0 * Pp * Pm)) / (2.0 * Pp + EPS)
    return W


def _graph_in(graph: GraphLaplacian | None, dtype) -> GraphLaplacian | None:
    """The graph with ``S`` and ``D`` in the factors' precision (products stay in it)."""
    if graph is None or graph.S.dtype == dtype:
        return graph
    return GraphLaplacian(graph.S.astype(dtype), graph.degrees.astype(dtype), graph.L.astype(dtype))


class _Start(Start):
    """One start's factors and current products, while it runs."""

    def __init__(self, W, V):
        super().__init__()
        self.W, self.V = W, V
        self.KW = self.KpW = self.WKW = self.SV = None


def fit_lccf_restarts(K: KernelOperator, starts: Sequence[tuple[np.ndarray, np.ndarray]], *,
                      graph: GraphLaplacian | None = None, lam: float = 0.0, max_iter: int = 500,
                      tol: float = 1e-5, normalize: Literal["none", "v"] = "none",
                      callback: Callable[[int, int, float], None] | None = None
                      ) -> list[ConceptResult]:
    """:func:`fit_lccf` from several starts at once, with one kernel product per step for all.

    The starts run side by side: each round, ``K V``, ``K W`` and ``S V`` of
    all running starts are one product of the factors placed side by side
    (``[V_1 ... V_r]``) when the operator allows it bit for bit
    (:meth:`KernelOperator.matmul_blocks`; the linear kernel on sparse
    documents and the sparse graph do), the time-consuming part for
    documents. Everything else (the k x k products, the updates,
    :func:`~docnmf.factor.nmf.flush_tiny`, the rescaling, the objective, the
    stopping test) is done start by start on contiguous arrays exactly as
    :func:`fit_lccf` does, and a start that has stopped leaves the products.
    Each result is therefore bit for bit ``fit_lccf`` from that start with
    the same arguments.

    Parameters
    ----------
    K : KernelOperator
        The factors are held and updated in ``K.dtype`` (see :meth:`KernelOperator.astype`).
    starts : sequence of (W0, V0)
        Non-negative starting factors (not modified), all of shape (n_docs, k).
    graph, lam, max_iter, tol, normalize
        As for :func:`fit_lccf`, shared by all starts.
    callback : callable(start, iteration, loss), optional

    Returns
    -------
    list of ConceptResult
        One per start, in order.
    """
    if lam and graph is None:
        raise ValueError("lam > 0 needs the graph")
    graph = _graph_in(graph, K.dtype)
    runs = [_Start(np.array(W0, dtype=K.dtype, copy=True), np.array(V0, dtype=K.dtype, copy=True))
            for W0, V0 in starts]
    trace = K.trace()

    def products(active):
        # K W (and K+ W) of each start's new W, and S V for the objective and the next V update
        Ws = [run.W for run in active]
        KpWs = K.matmul_positive_blocks(Ws) if K.has_negative else [None] * len(active)
        SVs = side_by_side(graph.S.__matmul__, [run.V for run in active]) if lam \
            else [None] * len(active)
        for run, KW, KpW, SV in zip(active, K.matmul_blocks(Ws), KpWs, SVs):
            run.KW, run.KpW, run.SV = KW, KpW, SV
            run.WKW = run.W.T @ KW
            run.losses.append(_loss(trace, run.W, run.V, KW, run.WKW, SV, graph, lam))

    def step(active):
        for run in active:
            run.V = flush_tiny(_update_v(K, run.W, run.V, run.KW, run.KpW, run.WKW, run.SV,
                                         graph, lam))
        for run, KV in zip(active, K.matmul_blocks([run.V for run in active])):
            run.W = flush_tiny(_update_w(K, run.W, run.V, run.KW, run.KpW, KV))
            if normalize == "v":
                norms = np.sqrt((run.V * run.V).sum(axis=0))
                norms = np.where(norms > 0, norms, 1.0)
                run.V /= norms
                run.W *= norms

    run_starts(runs, step=step, products=products, max_iter=max_iter, tol=tol, callback=callback)
    return [ConceptResult(run.W, run.V, run.n_iter, np.asarray(run.losses), run.converged)
            for run in runs]


def fit_lccf(K: KernelOperator, W0: np.ndarray, V0: np.ndarray, *,
             graph: GraphLaplacian | None = None, lam: float = 0.0, max_iter: int = 500,
             tol: float = 1e-5, normalize: Literal["none", "v"] = "none",
             callback: Callable[[int, float], None] | None = None) -> ConceptResult:
    """Minimise eq. 10 by the multiplicative updates of eqs. 18 and 17 (V, then W).

    Orientation: documents are the rows of the data here and the columns in
    the paper; ``K``, ``W``, ``V``, ``S`` and ``D`` are documents x something
    in both, so eqs. 17-18 and 25/28 read unchanged. When ``K`` has negative entries the updates of Section 3.5 are used
    instead, eqs. 28 and 25, which keep the factors non-negative and the
    objective non-increasing for any symmetric positive semi-definite ``K``.

    Parameters
    ----------
    K : KernelOperator
        The (possibly NC-weighted) kernel over the n documents. The factors
        are held in ``K.dtype`` (float64 unless made by :meth:`KernelOperator.astype`).
    W0, V0 : ndarray of shape (n_docs, k)
        Non-negative starting factors (not modified).
    graph : GraphLaplacian, optional
        ``S``, degrees ``D`` and ``L = D - S`` (eq. 9); needed when ``lam > 0``.
    lam : float
        The regularisation weight ``lambda`` of eq. 10; 0 gives CF (eq. 6, 7).
    max_iter : int
        Maximum number of (V, W) update rounds.
    tol : float
        Stop when the relative decrease ``(O_prev - O) / O_prev`` falls below ``tol``.
    normalize : {"none", "v"}
        ``"none"``: the updates alone, under which eq. 10 never increases
        (Theorem 1). ``"v"``: after every round rescale each column of ``V`` to
        unit length (``W`` inversely), the scale convention of the authors'
        reference code; eq. 10 may then rise at a rescaling.
    callback : callable(iteration, loss), optional

    Returns
    -------
    ConceptResult

    See Also
    --------
    fit_lccf_restarts : the same from several starts, sharing the kernel products.

    References
    ----------
    Cai, He & Han, Locally consistent concept factorization for document
    clustering, IEEE TKDE 2011, eqs. (10), (11), (17), (18), (25), (28).
    Xu & Gong, Document clustering by concept factorization, SIGIR 2004.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((8, 5))
    >>> from docnmf.factor.kernels import make_kernel
    >>> res = fit_lccf(make_kernel(X), *random_init_concepts(8, 2, rng), max_iter=50)
    >>> bool(np.all(np.diff(res.losses) <= 1e-12 * res.losses[0]))
    True
    """
    each = None if callback is None else (lambda _, n_iter, loss: callback(n_iter, loss))
    return fit_lccf_restarts(K, [(W0, V0)], graph=graph, lam=lam, max_iter=max_iter, tol=tol,
                             normalize=normalize, callback=each)[0]


# --- new documents ------------------------------------------------------------------------------


def _hat_wkw(v, w, KnW, WKW, kk):
    """``v' W^T K^ W^`` for each new row, without forming the per-document k x k matrices."""
    vw = np.einsum("ik,ik->i", v, w)[:, None]
    vB = np.einsum("ik,ik->i", v, KnW)[:, None]
    return v @ WKW + vw * KnW + vB * w + kk * vw * w


def fold_in(KnW: np.ndarray, KnV: np.ndarray, k_self: np.ndarray, W: np.ndarray, V: np.ndarray,
            WKW: np.ndarray, *, s_new=None, d_new: np.ndarray | None = None, lam: float = 0.0,
            positive: tuple[np.ndarray, np.ndarray] | None = None, w0: np.ndarray | None = None,
            v0: np.ndarray | None = None, n_iter: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """Out-of-sample rows ``w'``, ``v'`` of new documents by eqs. 29-30, the fit held fixed.

    Each new document ``x'`` is appended as the (N+1)-th document with the
    first N rows of ``W`` and ``V`` fixed; with ``k'`` its kernel row,
    ``s'`` its neighbour weights and ``d'`` its degree,

    - eq. 29: ``w' <- w' (k' V^) / (k' W^ V^T V^)``
    - eq. 30: ``v' <- v' (k' W^ + lam s' V^) / (v' W^T K^ W^ + lam d' v')``

    where the hatted matrices include the new row, so that
    ``k' W^ = k'_{1:N} W + k(x', x') w'``, ``V^T V^ = V^T V + v'^T v'`` and
    ``W^T K^ W^ = W^T K W + w'^T (k'_{1:N} W) + (k'_{1:N} W)^T w' + k(x', x') w'^T w'``.
    Every new document is solved on its own (the rows do not interact), for a
    fixed number of rounds, so a document's answer does not depend on the
    others passed with it. When the kernel has negative entries, pass the
    positive parts and the rules become those of Section 3.5 (eqs. 25, 28)
    restricted to the new row.

    Parameters
    ----------
    KnW, KnV : ndarray of shape (n_new, k)
        ``K(new, fitted) @ W`` and ``@ V``.
    k_self : ndarray of shape (n_new,)
        ``k(x', x')``.
    W, V : ndarray of shape (n_docs, k)
        The fitted factors, as the updates left them.
    WKW : ndarray of shape (k, k)
        ``W^T K W`` of the fit.
    s_new : sparse matrix of shape (n_new, n_docs), optional
        Neighbour weights ``s~`` of the new documents (Section 3.6).
    d_new : ndarray of shape (n_new,), optional
        Their degrees (the new row's diagonal entry of ``D``).
    lam : float
    positive : (KnW_pos, WKW_pos), optional
        ``K^+(new, fitted) @ W`` and ``W^T K^+ W``, for kernels with negative entries.
    w0, v0 : ndarray of shape (n_new, k), optional
        Starting rows; by default the mean row of ``W`` and of ``V``.
    n_iter : int

    Returns
    -------
    w_new, v_new : ndarray of shape (n_new, k)

    References
    ----------
    Cai, He & Han (2011), Section 3.6, eqs. (29)-(30).
    """
    m = KnW.shape[0]
    w = np.tile(W.mean(axis=0), (m, 1)) if w0 is None else np.array(w0, dtype=np.float64)
    v = np.tile(V.mean(axis=0), (m, 1)) if v0 is None else np.array(v0, dtype=np.float64)
    VtV = V.T @ V
    use_graph = bool(lam) and s_new is not None and d_new is not None
    SV = np.asarray(s_new @ V) if use_graph else np.zeros_like(v)
    dd = d_new[:, None] if use_graph else np.zeros((m, 1))
    kk = np.asarray(k_self, dtype=np.float64)[:, None]
    for _ in range(n_iter):
        # eq. 29 / 25 for the new row of W
        b = KnV + kk * v
        if positive is None:
            kW = KnW + kk * w
            w *= b / (kW @ VtV + np.einsum("ik,ik->i", kW, v)[:, None] * v + EPS)
        else:
            kW, kWp = KnW + kk * w, positive[0] + kk * w
            Pp = kWp @ VtV + np.einsum("ik,ik->i", kWp, v)[:, None] * v
            P = kW @ VtV + np.einsum("ik,ik->i", kW, v)[:, None] * v
            w *= (b + np.sqrt(b * b + 4.0 * Pp * np.maximum(Pp - P, 0.0))) / (2.0 * Pp + EPS)
        flush_tiny(w)
        # eq. 30 / 28 for the new row of V
        b = KnW + kk * w
        if positive is None:
            v *= (b + lam * SV) / (_hat_wkw(v, w, KnW, WKW, kk) + lam * dd * v + EPS)
        else:
            Qp = _hat_wkw(v, w, positive[0], positive[1], kk)
            Qm = Qp - _hat_wkw(v, w, KnW, WKW, kk)
            Qp = Qp + lam * dd * v
            Qm = np.maximum(Qm, 0.0) + lam * SV
            v *= (b + np.sqrt(b * b + 4.0 * Qp * Qm)) / (2.0 * Qp + EPS)
        flush_tiny(v)
    return w, v
