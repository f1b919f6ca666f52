"""Symmetric non-negative tri-factorization ``A~ ~ G S G^T`` of SS-NMF (Chen et al., eqs. 3-6).

Orientation: rows of ``X`` are documents, so the paper's document
similarity ``A = X^T X`` (its ``X`` is terms x documents) is ``A = X X^T``
here. ``A`` is never formed: the updates need ``A~ G`` only, computed as
``X (X^T G) + C G`` with ``C`` the sparse matrix of constraint adjustments
(``A~ = A + C``), so memory grows with ``nnz(X)`` and the number of
constrained pairs, not with ``n_docs**2``.

Constraint weighting
--------------------
The paper writes ``A~ = A - W_reward + W_penalty`` (eqs. 3-4), with the
signs of the SS-KK *cost* it cites (eq. 18, a distortion to minimise, where
a satisfied must-link earns a reward and a violated cannot-link pays a
penalty). ``A~`` is a *similarity* that ``G S G^T`` reproduces, so with those
signs a must-link would make two documents less similar. SS-KK itself adds
the weights to the kernel, ``K = A + W`` with ``W`` positive on must-links
and negative on cannot-links (eq. 20, Kulis et al. 2005), and the paper's
Proposition 1 equates ``A~`` with that ``K``; that is the reading used here,
and it is what the experiments do (must-link pairs get the largest
similarity). Two settings:

- ``mode="extreme"`` (default; the paper's experiments, Section 4.3): a
  must-link pair gets the largest similarity and a cannot-link pair the
  smallest. For ``A = X X^T`` the largest entry is ``max_i ||x_i||^2`` (by
  Cauchy-Schwarz no off-diagonal entry exceeds it; 1 for unit-length
  documents) and the smallest is taken as 0: non-negative documents cannot
  be less similar than that, and two documents without a common term are
  exactly that dissimilar (finding the exact minimum of ``X X^T`` would
  take all ``n**2`` entries). For a precomputed similarity the exact
  extreme entries are used.
- ``mode="cost"``: the general form ``A~_ij = A_ij + reward`` on must-links
  and ``A~_ij = A_ij - penalty`` on cannot-links.

Non-negativity: the multiplicative updates need ``A~ >= 0`` (a negative
``(A~ G)_ih`` would make ``G`` negative). Of the paper's two remedies
(Section 3.4: "normalization" or a Semi-NMF relaxation), the first is used:
a cannot-link entry that would go below zero is set to zero, the least
similarity ``G S G^T >= 0`` can express. This keeps eqs. 5-6 unchanged
and ``C`` as sparse as the constraints; it differs from leaving the entry
negative only in the linear pull a negative target would add, and
``penalty >= A_ij`` gives the extreme setting's 0. ``clip_negative=False``
leaves such entries negative, for methods that accept an indefinite
similarity (the SS-SNC baseline); the updates here refuse it.

The updates
-----------
Eqs. 5-6 as printed: ``S <- S * (G^T A~ G) / (G^T G S G^T G)`` then
``G <- G * (A~ G) / (G S G^T G)``. Eq. 6 lacks the factor ``S`` that the
KKT condition eq. 15 has on both sides; the two agree when ``S`` is
diagonal, and a diagonal start stays diagonal under eq. 5 (a
multiplicative update keeps zeros), which is why :func:`random_init`
starts from a diagonal ``S``, as the diagonal ``S`` of the paper's Table 4
suggests. Eq. 6 at full strength can still raise the objective on small,
heavily constrained problems; ``update="sqrt"`` applies the square root of
the same ratio (same fixed points, smaller steps), which keeps it
non-increasing on such problems (see the tests). After each round the
columns of ``G`` are scaled to unit length and ``S`` inversely (``G S G^T``
unchanged; the updates commute with this scaling), which keeps the factors
from drifting in scale and gives the unit-length columns of the paper's
Table 1.
"""

from __future__ import annotations

from typing import Callable, Literal, NamedTuple, Sequence

import numpy as np
import scipy.sparse as sp

from ._restarts import Start, run_starts
from .nmf import EPS, fixed_mu_steps, flush_tiny, side_by_side
from .sparse import SparseProducts, thread_pool

__all__ = ["TriFactorResult", "ConstrainedSimilarity", "constrained_similarity", "gram_sqnorm",
           "pair_similarities", "tri_factor_loss", "random_init", "normalize_gs", "fit_ssnmf",
           "fit_ssnmf_restarts", "solve_g", "UPDATES"]

ConstraintMode = Literal["extreme", "cost"]
Update = Literal["paper", "sqrt"]

#: Entries of a dense block held at once when summing squares of a Gram matrix.
_BLOCK_ENTRIES = 10_000_000
#: Constrained pairs whose similarity is computed at once.
_PAIR_CHUNK = 50_000


class TriFactorResult(NamedTuple):
    """What :func:`fit_ssnmf` returns: the factors, iterations, objective history, convergence."""

    G: np.ndarray
    S: np.ndarray
    n_iter: int
    losses: np.ndarray
    converged: bool


# --- the similarity and its norm ---------------------------------------------------------------


def gram_sqnorm(X) -> float:
    """``||X X^T||_F^2`` without forming the n x n matrix.

    ``||X X^T||_F^2 = tr(X X^T X X^T) = ||X^T X||_F^2``, so either Gram
    matrix will do. For sparse ``X`` each is summed block by block from
    sparse products, choosing the cheaper side: the terms Gram ``X^T X``
    costs about ``sum_i nnz(row_i)^2`` multiplications (linear in the number
    of documents for documents of bounded length), the documents Gram about
    ``sum_t nnz(column_t)^2``. Dense ``X`` uses the smaller Gram, in blocks.

    Examples
    --------
    >>> X = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 3.0]])
    >>> float(np.sum((X @ X.T) ** 2)), gram_sqnorm(X), gram_sqnorm(sp.csr_matrix(X))
    (133.0, 133.0, 133.0)
    """
    if sp.issparse(X):
        X = sp.csr_matrix(X)
        row_nnz = np.diff(X.indptr).astype(np.float64)
        col_nnz = np.bincount(X.indices, minlength=X.shape[1]).astype(np.float64)
        if row_nnz @ row_nnz <= col_nnz @ col_nnz:
            left, right = X.T.tocsr(), X  # rows of X^T X: blocks of terms
        else:
            left, right = X, X.T.tocsr()  # rows of X X^T: blocks of documents
        step = max(1, _BLOCK_ENTRIES // max(right.shape[1], 1))
        total = 0.0
        for start in range(0, left.shape[0], step):
            P = left[start:start + step] @ right
            total += float(P.data @ P.data)
        return total
    X = np.asarray(X, dtype=np.float64)
    Y = X if X.shape[1] <= X.shape[0] else X.T  # Y^T Y is the smaller Gram
    step = max(1, _BLOCK_ENTRIES // max(Y.shape[1], 1))
    total = 0.0
    for start in range(0, Y.shape[1], step):
        P = Y[:, start:start + step].T @ Y
        total += float(np.vdot(P, P))
    return total


def pair_similarities(X, rows: np.ndarray, cols: np.ndarray, *,
                      precomputed: bool = False) -> np.ndarray:
    """``A_ij`` for the given index pairs: ``x_i . x_j``, or ``X[i, j]`` when ``X`` is ``A``.

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [3.0, 0.0], [1.0, 1.0]])
    >>> pair_similarities(X, np.array([0, 1]), np.array([2, 2])).tolist()
    [3.0, 3.0]
    """
    rows = np.asarray(rows, dtype=np.intp)
    cols = np.asarray(cols, dtype=np.intp)
    if precomputed:
        if sp.issparse(X):
            return np.asarray(sp.csr_matrix(X)[rows, cols], dtype=np.float64).ravel()
        return np.asarray(X, dtype=np.float64)[rows, cols]
    out = np.empty(len(rows))
    for s in range(0, len(rows), _PAIR_CHUNK):
        r, c = rows[s:s + _PAIR_CHUNK], cols[s:s + _PAIR_CHUNK]
        if sp.issparse(X):
            out[s:s + _PAIR_CHUNK] = np.asarray(X[r].multiply(X[c]).sum(axis=1)).ravel()
        else:
            out[s:s + _PAIR_CHUNK] = np.einsum("ij,ij->i", X[r], X[c])
    return out


class ConstrainedSimilarity:
    """The constrained similarity ``A~ = A + C``, used only through products.

    ``A = X X^T`` (documents as rows of ``X``) or, with ``precomputed``, the
    given n x n matrix ``X`` itself; ``C`` is a sparse symmetric n x n
    matrix (the constraint adjustments). Build one with
    :func:`constrained_similarity`.

    Parameters
    ----------
    X : {ndarray, sparse matrix}
        Documents as rows, or the similarity matrix when ``precomputed``.
    correction : sparse matrix of shape (n_docs, n_docs), optional
        ``C``; must be symmetric with a zero diagonal.
    base_at_correction : ndarray, optional
        ``A_ij`` at the stored entries of ``C`` (CSR order), for ``||A~||^2``.
    precomputed : bool

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    >>> A = constrained_similarity(X, must_link=[(0, 2)])
    >>> A.toarray().tolist()    # the must-linked pair gets the largest similarity, 2
    [[1.0, 1.0, 2.0], [1.0, 2.0, 1.0], [2.0, 1.0, 1.0]]
    >>> G = np.ones((3, 1))
    >>> A.dot(G).ravel().tolist(), A.sqnorm() == float(np.sum(A.toarray() ** 2))
    ([4.0, 4.0, 4.0], True)
    """

    def __init__(self, X, correction=None, base_at_correction=None, *, precomputed: bool = False):
        self.precomputed = bool(precomputed)
        if sp.issparse(X):
            X = sp.csr_matrix(X, dtype=np.float64)
        else:
            X = np.asarray(X, dtype=np.float64)
        self.X = X
        self.n = X.shape[0]
        if self.precomputed and X.shape != (self.n, self.n):
            raise ValueError(f"a precomputed similarity must be square, got shape {X.shape}")
        # the documents' sparse products by the compiled kernels: scipy's bits, on every core
        self._ops = SparseProducts(X) if sp.issparse(X) and not self.precomputed else None
        if correction is None:
            correction = sp.csr_matrix((self.n, self.n))
            base_at_correction = np.empty(0)
        self.C = sp.csr_matrix(correction, dtype=np.float64)
        if self.C.shape != (self.n, self.n):
            raise ValueError(f"correction must have shape ({self.n}, {self.n}), got {self.C.shape}")
        self._base_at_C = np.asarray(base_at_correction, dtype=np.float64)
        if self._base_at_C.shape != self.C.data.shape:
            raise ValueError("base_at_correction must give A_ij at every stored entry "
                             "of correction")
        #: whether some constrained entry of A~ is negative (A itself is taken as non-negative)
        self.has_negative = bool(np.any(self._base_at_C + self.C.data < 0))
        self._sqnorm = None

    def dot(self, G: np.ndarray) -> np.ndarray:
        """``A~ @ G`` for ``G`` of shape (n, k): ``X (X^T G) + C G``."""
        if self.precomputed:
            AG = self.X @ G
        elif self._ops is not None and np.ndim(G) == 2:
            with thread_pool() as pool:
                AG = self._ops.dot(self._ops.tdot(G, pool), pool)
        else:
            AG = self.X @ (self.X.T @ G)
        return np.asarray(AG) + self.C @ G

    def dot_blocks(self, blocks: Sequence[np.ndarray]) -> list[np.ndarray]:
        """``[A~ @ G for G in blocks]``, bit for bit as :meth:`dot` on each.

        With sparse ``X`` every product involved is sparse times dense, so
        the blocks go side by side through one product
        (:func:`~docnmf.factor.nmf.side_by_side`); dense ``X`` keeps one
        product per block (a dense BLAS product depends on the width).
        """
        if sp.issparse(self.X):
            return side_by_side(self.dot, blocks)
        return [self.dot(G) for G in blocks]

    def base_sqnorm(self) -> float:
        """``||A||_F^2`` of the unconstrained similarity."""
        if self.precomputed:
            X = self.X
            return float(X.multiply(X).sum()) if sp.issparse(X) else float(np.vdot(X, X))
        return gram_sqnorm(self.X)

    def sqnorm(self) -> float:
        """``||A~||_F^2 = ||A||_F^2 + sum over constrained entries of (A~_ij^2 - A_ij^2)``."""
        if self._sqnorm is None:
            new = self._base_at_C + self.C.data
            self._sqnorm = self.base_sqnorm() + float(new @ new - self._base_at_C @ self._base_at_C)
        return self._sqnorm

    def total(self) -> float:
        """``1^T A~ 1``, the sum of all entries."""
        if self.precomputed:
            base = float(self.X.sum())
        else:
            s = np.asarray(self.X.sum(axis=0)).ravel()
            base = float(s @ s)
        return base + float(self.C.sum())

    def toarray(self) -> np.ndarray:
        """The dense n x n ``A~``, for tests and the baselines that need it."""
        if self.precomputed:
            A = self.X.toarray() if sp.issparse(self.X) else np.array(self.X)
        else:
            A = self.X @ (self.X.T.tocsr() if sp.issparse(self.X) else self.X.T)
            A = A.toarray() if sp.issparse(A) else np.asarray(A)
        return A + self.C.toarray()


def constrained_similarity(X, must_link=None, cannot_link=None, *, mode: ConstraintMode = "extreme",
                           reward: float | None = None, penalty: float | None = None,
                           precomputed: bool = False, clip_negative: bool = True
                           ) -> ConstrainedSimilarity:
    """Build ``A~`` from ``A`` and the constrained pairs (see the module docstring for the rules).

    Parameters
    ----------
    X : {ndarray, sparse matrix}
        Non-negative documents as rows (``A = X X^T``), or the similarity
        matrix itself when ``precomputed``.
    must_link, cannot_link : array-like of shape (m, 2), optional
        Document index pairs, ``i != j``; a pair may not be in both lists.
        Pass the transitive closure if it should apply (see
        :class:`docnmf.constraints.Constraints`).
    mode : {"extreme", "cost"}
        Extreme similarities (the paper's experiments) or ``A +/- weight``.
    reward, penalty : float, optional
        The weights of ``mode="cost"``; default the largest similarity.
        Not used by ``mode="extreme"``.
    precomputed : bool
    clip_negative : bool
        Set cannot-link entries that would be negative to zero.

    Returns
    -------
    ConstrainedSimilarity
    """
    if mode not in ("extreme", "cost"):
        raise ValueError(f"mode must be 'extreme' or 'cost', got {mode!r}")
    if mode == "extreme" and (reward is not None or penalty is not None):
        raise ValueError("reward and penalty are the weights of mode='cost'; mode='extreme' sets "
                         "constrained pairs to the largest and smallest similarity")
    n = X.shape[0]
    if sp.issparse(X):
        values = sp.csr_matrix(X).data
    else:
        values = np.asarray(X)
    if values.size and np.min(values) < 0:
        raise ValueError("the similarity must be non-negative: documents with negative entries "
                         "or a precomputed similarity with negative entries")
    ml = _pairs(must_link, n, "must_link")
    cl = _pairs(cannot_link, n, "cannot_link")
    if len(ml) and len(cl):
        both = set(map(tuple, ml.tolist())) & set(map(tuple, cl.tolist()))  # both canonical
        if both:
            raise ValueError(f"pairs both must-linked and cannot-linked: {sorted(both)[:10]}")
    if len(ml) == 0 and len(cl) == 0:
        return ConstrainedSimilarity(X, precomputed=precomputed)
    a_max, a_min = _extreme_similarities(X, precomputed)
    base_ml = pair_similarities(X, ml[:, 0], ml[:, 1], precomputed=precomputed)
    base_cl = pair_similarities(X, cl[:, 0], cl[:, 1], precomputed=precomputed)
    if mode == "extreme":
        new_ml = np.full(len(ml), a_max)
        new_cl = np.full(len(cl), a_min)
    else:
        reward = a_max if reward is None else float(reward)
        penalty = a_max if penalty is None else float(penalty)
        if not (reward >= 0 and penalty >= 0):
            raise ValueError(f"reward and penalty must be non-negative, got {reward}, {penalty}")
        new_ml = base_ml + reward
        new_cl = base_cl - penalty
        if clip_negative:
            new_cl = np.maximum(new_cl, 0.0)
    i = np.concatenate([ml[:, 0], cl[:, 0], ml[:, 1], cl[:, 1]])
    j = np.concatenate([ml[:, 1], cl[:, 1], ml[:, 0], cl[:, 0]])
    base = np.concatenate([base_ml, base_cl] * 2)
    delta = np.concatenate([new_ml, new_cl] * 2) - base
    # CSR built by hand so that base[t] stays aligned with C.data[t]; pairs are unique and
    # off-diagonal, so each (i, j) occurs once
    order = np.lexsort((j, i))
    indptr = np.concatenate([[0], np.cumsum(np.bincount(i, minlength=n))])
    C = sp.csr_matrix((delta[order], j[order], indptr), shape=(n, n))
    return ConstrainedSimilarity(X, C, base[order], precomputed=precomputed)


def _pairs(pairs, n: int, name: str) -> np.ndarray:
    if pairs is None:
        return np.empty((0, 2), dtype=np.intp)
    arr = np.asarray(pairs, dtype=np.intp).reshape(-1, 2)
    if len(arr) == 0:
        return arr
    if np.any(arr < 0) or np.any(arr >= n) or np.any(arr[:, 0] == arr[:, 1]):
        raise ValueError(f"{name} needs pairs of two different indices in 0 .. {n - 1}")
    lo, hi = np.minimum(arr[:, 0], arr[:, 1]), np.maximum(arr[:, 0], arr[:, 1])
    return np.unique(np.column_stack([lo, hi]), axis=0)


def _extreme_similarities(X, precomputed: bool) -> tuple[float, float]:
    """Largest and smallest similarity (for ``X X^T``: ``max ||x_i||^2`` and 0)."""
    if precomputed:
        return float(X.max()), float(X.min())
    if sp.issparse(X):
        norms = np.asarray(sp.csr_matrix(X).multiply(X).sum(axis=1)).ravel()
    else:
        X = np.asarray(X, dtype=np.float64)
        norms = np.einsum("ij,ij->i", X, X)
    return float(norms.max(initial=0.0)), 0.0


# --- objective, initialisation, updates ---------------------------------------------------------


def tri_factor_loss(A_sqnorm: float, G: np.ndarray, S: np.ndarray, AG: np.ndarray) -> float:
    """Eq. 3: ``||A~ - G S G^T||_F^2`` from k x k quantities, given ``||A~||^2`` and ``A~ G``.

    ``||A~||^2 - 2 <G^T A~ G, S> + <S^T (G^T G) S, G^T G>`` for symmetric ``A~``.
    """
    return _loss(A_sqnorm, S, G.T @ G, G.T @ AG)


def _loss(A_sqnorm: float, S: np.ndarray, GtG: np.ndarray, GtAG: np.ndarray) -> float:
    """Eq. 3 from ``G^T G`` and ``G^T A~ G``."""
    cross = float(np.einsum("ij,ij->", GtAG, S))
    model = float(np.einsum("ij,ij->", S.T @ GtG @ S, GtG))
    # clip: rounding can make a perfect fit slightly negative
    return max(A_sqnorm - 2.0 * cross + model, 0.0)


def normalize_gs(G: np.ndarray, S: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Scale the columns of ``G`` to unit length and ``S`` inversely: ``G S G^T`` is unchanged.

    A column of ``G`` that is all zero is left alone.
    """
    norms = np.sqrt((G * G).sum(axis=0))
    norms = np.where(norms > 0, norms, 1.0)
    return G / norms, S * np.outer(norms, norms)


def random_init(A: ConstrainedSimilarity, k: int, rng: np.random.Generator
                ) -> tuple[np.ndarray, np.ndarray]:
    """Uniform random ``G`` (n, k) with unit columns and a random diagonal ``S`` (k, k).

    ``S`` is scaled so that ``G S G^T`` starts with the same mean entry as
    ``A~`` (from ``1^T A~ 1``, no n x n matrix needed). It is diagonal
    because eq. 6 matches the KKT condition eq. 15 only for diagonal ``S``
    (module docstring).
    """
    G = rng.random((A.n, k))
    S = np.diag(rng.uniform(0.5, 1.5, k))
    G, S = normalize_gs(G, S)
    g = G.sum(axis=0)
    model_total = float(g @ S @ g)
    target = A.total()
    if model_total > 0 and target > 0:
        S *= target / model_total
    return G, S


def fit_ssnmf(A: ConstrainedSimilarity, G0: np.ndarray, S0: np.ndarray, *, update: Update = "paper",
              max_iter: int = 500, tol: float = 1e-5,
              callback: Callable[[int, float], None] | None = None) -> TriFactorResult:
    """Minimise eq. 3, ``J = ||A~ - G S G^T||_F^2`` over ``G, S >= 0``, by eqs. 5-6 (Algorithm 1).

    Parameters
    ----------
    A : ConstrainedSimilarity
        ``A~`` (documents as rows: the paper's ``X^T X`` is ``X X^T`` here),
        with non-negative entries.
    G0 : ndarray of shape (n_docs, k)
    S0 : ndarray of shape (k, k)
        Non-negative starting factors (not modified); ``S0`` diagonal for
        the updates to match eq. 15 (see :func:`random_init`).
    update : {"paper", "sqrt"}
        Eq. 6 as printed, or its square-root (damped) form.
    max_iter : int
        Maximum number of (S, G) update rounds.
    tol : float
        Stop when the relative change ``|J_prev - J| / J_prev`` falls below
        ``tol`` (scale-free).
    callback : callable(iteration, loss), optional

    Returns
    -------
    TriFactorResult
        ``G`` with unit-length columns and ``S`` scaled to match;
        ``losses[0]`` the objective at the start and ``losses[t]`` after round ``t``.

    References
    ----------
    Chen, Rege, Dong & Hua, Incorporating user provided constraints into
    document clustering (SS-NMF), eqs. (3)-(6) and Algorithm 1.

    See Also
    --------
    fit_ssnmf_restarts : the same from several starts, sharing the products with ``A~``.

    Examples
    --------
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> A = constrained_similarity(X)
    >>> res = fit_ssnmf(A, *random_init(A, 2, np.random.default_rng(0)), max_iter=200)
    >>> bool(np.all(np.diff(res.losses) <= 1e-9 * res.losses[0])), np.argmax(res.G, axis=1).tolist()
    (True, [0, 0, 1, 1])
    """
    each = None if callback is None else (lambda _, n_iter, loss: callback(n_iter, loss))
    return fit_ssnmf_restarts(A, [(G0, S0)], update=update, max_iter=max_iter, tol=tol,
                              callback=each)[0]


class _Start(Start):
    """One start's factors and current products, while it runs."""

    def __init__(self, G, S):
        super().__init__()
        self.G, self.S = G, S
        self.AG = self.GtG = self.GtAG = None


def fit_ssnmf_restarts(A: ConstrainedSimilarity, starts: Sequence[tuple[np.ndarray, np.ndarray]],
                       *, update: Update = "paper", max_iter: int = 500, tol: float = 1e-5,
                       callback: Callable[[int, int, float], None] | None = None
                       ) -> list[TriFactorResult]:
    """:func:`fit_ssnmf` from several starts at once, with one product ``A~ G`` per round for all.

    Each round, ``A~ G`` of all running starts is one product of their
    ``G`` side by side (:meth:`ConstrainedSimilarity.dot_blocks`), the
    time-consuming part for documents. The k x k products, the updates,
    :func:`~docnmf.factor.nmf.flush_tiny`, the rescaling, the objective and
    the stopping test are done start by start exactly as :func:`fit_ssnmf`
    does, and a start that has stopped leaves the product, so each result is
    bit for bit ``fit_ssnmf`` from that start. ``G^T G`` and ``G^T A~ G``
    serve both the objective after a round and the next round's eq. 5.

    Parameters
    ----------
    A : ConstrainedSimilarity
    starts : sequence of (G0, S0)
        Starting factors (not modified), all with the same number of clusters.
    update, max_iter, tol
        As for :func:`fit_ssnmf`, shared by all starts.
    callback : callable(start, iteration, loss), optional

    Returns
    -------
    list of TriFactorResult
        One per start, in order.
    """
    if update not in UPDATES:
        raise ValueError(f"update must be one of {sorted(UPDATES)}, got {update!r}")
    power = UPDATES[update]
    runs = [_Start(np.array(G0, dtype=np.float64, copy=True),
                   np.array(S0, dtype=np.float64, copy=True)) for G0, S0 in starts]
    if A.has_negative:
        raise ValueError("A~ has negative entries; the multiplicative updates need A~ >= 0")
    A_sqnorm = A.sqnorm()

    def products(active):
        for run, AG in zip(active, A.dot_blocks([run.G for run in active])):
            run.AG, run.GtG, run.GtAG = AG, run.G.T @ run.G, run.G.T @ AG
            run.losses.append(_loss(A_sqnorm, run.S, run.GtG, run.GtAG))

    def step(active):
        for run in active:
            G, S, GtG = run.G, run.S, run.GtG
            # eq. 5: S <- S (G^T A~ G) / (G^T G S G^T G); eps keeps 0/0 at 0
            S *= run.GtAG / (GtG @ S @ GtG + EPS)
            flush_tiny(S)
            # eq. 6: G <- G (A~ G) / (G S G^T G), with the new S (Algorithm 1, step 3b)
            ratio = run.AG / (G @ (S @ GtG) + EPS)
            # A~ G is X (X^T G) + C G: at a cannot-link, an exact 0 can round to -1e-17, whose
            # square root was NaN (the paper's update leaves a -1e-17 that flush_tiny zeroes)
            np.maximum(ratio, 0.0, out=ratio)
            G *= ratio if power == 1.0 else np.sqrt(ratio)
            flush_tiny(G)
            run.G, run.S = normalize_gs(G, S)

    run_starts(runs, step=step, products=products, max_iter=max_iter, tol=tol, callback=callback)
    return [TriFactorResult(run.G, run.S, run.n_iter, np.asarray(run.losses), run.converged)
            for run in runs]


def solve_g(AG: np.ndarray, S: np.ndarray, GtG: np.ndarray, *, n_iter: int = 300) -> np.ndarray:
    """Memberships of new documents: ``min ||a - g S G^T||^2`` over ``g >= 0`` with ``G, S`` fixed.

    ``AG`` holds ``a G`` for each new document's similarities ``a`` to the
    fitted ones. The multiplicative rule ``g <- g (a G S) / (g S G^T G S)``
    runs a fixed number of steps from a uniform start, so each document's
    answer does not depend on the others passed with it.
    """
    k = S.shape[0]
    return fixed_mu_steps(np.full((AG.shape[0], k), 1.0 / k), np.maximum(AG @ S, 0.0),
                          S @ GtG @ S, n_iter)


#: Update rules by name, with the power applied to eq. 6's ratio.
UPDATES: dict[str, float] = {"paper": 1.0, "sqrt": 0.5}
