"""Starting factors for NMF: uniform random, and NNDSVD and its variants (Boutsidis & Gallopoulos).

Orientation: rows of ``X`` are documents, ``X ~ V U^T`` with ``U`` of shape
(n_terms, k) and ``V`` of shape (n_docs, k), as in :mod:`docnmf.factor.nmf`.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from .nmf import random_init
from .sparse import SparseProducts, thread_pool

__all__ = ["INITS", "Init", "canonical_rotation", "make_starts", "nndsvd_init", "repeated_values"]

Init = Literal["random", "nndsvd", "nndsvda", "nndsvdar"]


def _split_signs(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """The dominant sign pair of ``x y^T`` (Boutsidis & Gallopoulos 2008, Table 1, lines 5-10).

    ``x y^T = (x+ - x-)(y+ - y-)^T``; of the two non-negative rank-one parts
    ``x+ y+^T`` and ``x- y-^T`` keep the one with the larger norm, returned as
    unit vectors and that norm.
    """
    xp, xn = np.maximum(x, 0.0), np.maximum(-x, 0.0)
    yp, yn = np.maximum(y, 0.0), np.maximum(-y, 0.0)
    nxp, nyp, nxn, nyn = (float(np.linalg.norm(a)) for a in (xp, yp, xn, yn))
    if nxp * nyp >= nxn * nyn:
        x, y, nx, ny = xp, yp, nxp, nyp
    else:
        x, y, nx, ny = xn, yn, nxn, nyn
    if nx == 0.0 or ny == 0.0:
        return np.zeros_like(x), np.zeros_like(y), 0.0
    return x / nx, y / ny, nx * ny


def nndsvd_init(X, k: int, rng: np.random.Generator, *, variant: Init = "nndsvd",
                svd: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Non-negative double SVD starting factors ``U`` (n_terms, k) and ``V`` (n_docs, k).

    Each singular triplet ``(s_j, p_j, q_j)`` of ``X ~ P S Q^T`` (truncated,
    computed on the sparse matrix) gives one non-negative rank-one term: the
    leading one ``sqrt(s_0) |p_0| |q_0|^T`` (Perron-Frobenius), each later one
    the dominant sign part of ``p_j q_j^T``.

    Parameters
    ----------
    X : {ndarray, sparse matrix} of shape (n_docs, n_terms)
    k : int
    rng : numpy Generator
        Seeds the randomized SVD and, for ``"nndsvdar"``, the fill.
    variant : {"nndsvd", "nndsvda", "nndsvdar"}
        ``"nndsvd"`` keeps the zeros (they stay zero under multiplicative
        updates); ``"nndsvda"`` sets them to the mean entry of ``X``;
        ``"nndsvdar"`` to uniform random values in ``[0, mean / 100)``.
    svd : (P, s, Qt), optional
        A truncated SVD of ``X`` already computed (shared by several starts).

    References
    ----------
    Boutsidis & Gallopoulos, SVD based initialization: a head start for
    nonnegative matrix factorization, Pattern Recognition 41, 2008, Table 1.

    Examples
    --------
    >>> X = np.array([[3.0, 1, 0], [2, 2, 0], [0, 0, 4]])
    >>> U, V = nndsvd_init(X, 2, np.random.default_rng(0))
    >>> U.shape, V.shape, bool(U.min() >= 0 and V.min() >= 0)
    ((3, 2), (3, 2), True)
    """
    P, s, Qt = svd if svd is not None else truncated_svd(X, k, rng)
    n_docs, n_terms = X.shape
    U = np.zeros((n_terms, k))
    V = np.zeros((n_docs, k))
    for j in range(min(k, len(s))):
        if j == 0:
            # the leading singular vectors of a non-negative matrix can be taken non-negative
            p, q, scale = np.abs(P[:, 0]), np.abs(Qt[0]), 1.0
        else:
            p, q, scale = _split_signs(P[:, j], Qt[j])
        V[:, j] = np.sqrt(s[j] * scale) * p
        U[:, j] = np.sqrt(s[j] * scale) * q
    U[U < 1e-12 * max(U.max(initial=0.0), 1e-300)] = 0.0
    V[V < 1e-12 * max(V.max(initial=0.0), 1e-300)] = 0.0
    if variant == "nndsvd":
        return U, V
    mean = float(X.sum()) / (n_docs * n_terms)
    for A in (U, V):
        zeros = A == 0.0
        if variant == "nndsvda":
            A[zeros] = mean
        elif variant == "nndsvdar":
            A[zeros] = mean / 100.0 * rng.random(int(zeros.sum()))
        else:
            raise ValueError(f"unknown NNDSVD variant {variant!r}")
    return U, V


def repeated_values(s: np.ndarray) -> list[tuple[int, int]]:
    """The runs ``[i, j)`` of two or more singular values equal to rounding (decreasing ``s``).

    Equal means within ``sqrt(eps)`` of the largest, for ``s``'s precision:
    closer than that, which singular vectors of the run come out depends on
    rounding (their span does not).
    """
    s = np.asarray(s)
    if s.size < 2:
        return []
    close = (s[:-1] - s[1:]) <= np.sqrt(np.finfo(s.dtype).eps) * abs(s[0])
    runs, start = [], None
    for i, tied in enumerate(close):
        if tied and start is None:
            start = i
        elif not tied and start is not None:
            runs.append((start, i + 1))
            start = None
    if start is not None:
        runs.append((start, s.size))
    return runs


def canonical_rotation(s: np.ndarray, doc_sums: np.ndarray, Qt: np.ndarray
                       ) -> np.ndarray | None:
    """An orthogonal ``M`` that picks one basis in each run of repeated singular values.

    Within a run of equal singular values any rotation of the singular vectors
    is as good, and which one an SVD returns depends on rounding: the same
    matrix stored sparse or dense, or held in row blocks on a cluster, gives
    different vectors, and NNDSVD different starts. That happens in practice
    with NCW weighting, whose leading singular value 1 repeats once per group
    of documents sharing no term with the rest. ``P @ M`` and ``M.T @ Qt``
    (``P``: the left vectors, documents x len(s); ``Qt``: len(s) x terms) are
    the same SVD with, in each run, a basis fixed by the span alone:

    1. the documents' sum (the all-ones vector) projected on the run
       (``doc_sums = P.sum(axis=0)``): for NCW, a vector positive on every
       document, so NNDSVD's first factor covers the whole collection;
    2. then pivoted Gram-Schmidt on the terms' side: the term whose residual
       in the run is longest (the first of those within ``1e-9`` of it).

    Returns None when no singular value repeats (nothing to rotate).
    """
    runs = repeated_values(s)
    if not runs:
        return None
    M = np.eye(len(s))
    for i, j in runs:
        G = np.asarray(Qt[i:j], dtype=np.float64)       # the run's term vectors, as rows
        m = j - i
        residual = G.copy()
        basis = []
        a = np.asarray(doc_sums[i:j], dtype=np.float64)
        if np.linalg.norm(a) > 1e-6 * np.abs(doc_sums).max(initial=0.0):
            basis.append(a / np.linalg.norm(a))
        while len(basis) < m:
            for _ in range(2):                  # Gram-Schmidt twice: orthogonal to rounding
                for b in basis:
                    residual -= np.outer(b, b @ residual)
            norms = np.einsum("ij,ij->j", residual, residual)
            t = int(np.argmax(norms >= norms.max() * (1.0 - 1e-9)))
            basis.append(residual[:, t] / np.sqrt(norms[t]))
        M[i:j, i:j] = np.array(basis).T
    return M


def truncated_svd(X, k: int, rng: np.random.Generator, *, n_iter: int = 7,
                  n_oversamples: int = 10, threads: int | None = None, right: bool = True):
    """The ``k`` leading singular triplets ``(P, s, Qt)`` of ``X`` by a randomized range finder.

    With ``right=False`` only ``P`` and ``s`` are formed (``Qt`` is None), which
    spares a dense (k, columns) array and its copies when only the rows' coordinates
    are wanted (LSI of documents).

    Halko, Martinsson & Tropp (2011), Algorithm 4.4, with the choices of
    scikit-learn's ``randomized_svd`` (its Gaussian test matrix from a
    ``RandomState``, ``k + n_oversamples`` columns, ``n_iter`` power steps
    each normalised by an LU factorization, a QR basis of the range, the
    shorter side of ``X`` as the range, the sign of each left singular vector
    fixed by its largest entry): the same start as scikit-learn's NNDSVD for
    the same seed, to rounding. Where singular values repeat, each run's basis
    is the one :func:`canonical_rotation` fixes (read from ``Qt``, so only
    with ``right=True``): the start then does not depend on rounding. A sparse
    ``X`` (or a prepared :class:`~docnmf.factor.sparse.SparseProducts`, which
    may carry row weights and single precision) is multiplied in threaded row
    blocks, never densified.

    References
    ----------
    Halko, Martinsson & Tropp, Finding structure with randomness: probabilistic
    algorithms for constructing approximate matrix decompositions, SIAM Review
    53, 2011.
    """
    seed = int(rng.integers(np.iinfo(np.int32).max))
    if not isinstance(X, SparseProducts):
        X = SparseProducts(X) if sp.issparse(X) else np.asarray(X, dtype=np.float64)
    n_rows, n_cols = X.shape
    size = k + n_oversamples
    transpose = n_rows < n_cols     # find the range of the shorter side's products
    with thread_pool(threads) as pool:
        if isinstance(X, SparseProducts):
            dot, tdot = (lambda B: X.dot(B, pool)), (lambda B: X.tdot(B, pool))
        else:
            dot, tdot = X.__matmul__, X.T.__matmul__
        if transpose:      # A = X^T
            dot, tdot = tdot, dot
        Q = np.random.RandomState(seed).normal(size=(n_rows if transpose else n_cols, size))
        Q = Q.astype(X.dtype, copy=False)
        # each product is factored in place (overwrite_a): the same numbers, one copy less
        for _ in range(n_iter):
            Q = scipy.linalg.lu(dot(Q), permute_l=True, overwrite_a=True)[0]
            Q = scipy.linalg.lu(tdot(Q), permute_l=True, overwrite_a=True)[0]
        Q = scipy.linalg.qr(dot(Q), mode="economic", overwrite_a=True, check_finite=False)[0]
        B = tdot(Q).T                                   # Q^T A, (size, columns of A)
    Ub, s, Vt = scipy.linalg.svd(B, full_matrices=False)
    if transpose:                                       # back to X = P diag(s) Qt
        P, Qt = Vt.T, ((Q @ Ub).T if right else None)
    else:
        P, Qt = Q @ Ub, (Vt if right else None)
    del Q
    M = None if Qt is None else canonical_rotation(s, P.sum(axis=0), Qt)
    if M is not None:                                   # a repeated singular value
        P, Qt = P @ M.astype(P.dtype), M.T.astype(Qt.dtype) @ Qt
    # each left singular vector's largest entry positive (scikit-learn's svd_flip)
    signs = np.sign(P[np.argmax(np.abs(P), axis=0), np.arange(P.shape[1])])
    signs[signs == 0] = 1.0
    P = (P[:, :k] * signs[:k]).astype(np.float64, copy=False)
    if Qt is not None:
        Qt = (Qt[:k] * signs[:k, None]).astype(np.float64, copy=False)
    return P, s[:k].astype(np.float64), Qt


def make_starts(X, k: int, init: Init, rngs: list[np.random.Generator], *,
                svd: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                ) -> list[tuple[np.ndarray, np.ndarray]]:
    """One ``(U0, V0)`` per generator in ``rngs``: each restart's own start.

    Random starts draw from their own generator exactly as one restart at a
    time would, so restarts run side by side start where they would alone.
    The NNDSVD starts share one SVD (``svd``, or computed with the first
    generator); ``"nndsvdar"`` fills each start's zeros with its own generator.
    """
    if init == "random":
        return [random_init(X, k, rng) for rng in rngs]
    if init not in INITS:
        raise ValueError(f"unknown init {init!r}; choose from {INITS}")
    svd = truncated_svd(X, k, rngs[0]) if svd is None else svd
    return [nndsvd_init(X, k, rng, variant=init, svd=svd) for rng in rngs]


#: Starting points by name.
INITS: tuple[str, ...] = ("random", "nndsvd", "nndsvda", "nndsvdar")
