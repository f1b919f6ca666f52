"""NNDSVD starts against Boutsidis & Gallopoulos (2008), Table 1, written from a full dense SVD."""

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.factor.init import make_starts, nndsvd_init
from docnmf.factor.nmf import random_init


def reference_nndsvd(A, k):
    """Table 1 of the paper on the documents x terms matrix, terms x k and docs x k factors."""
    P, s, Qt = np.linalg.svd(A, full_matrices=False)
    W, H = np.zeros((A.shape[0], k)), np.zeros((k, A.shape[1]))
    W[:, 0] = np.sqrt(s[0]) * np.abs(P[:, 0])
    H[0] = np.sqrt(s[0]) * np.abs(Qt[0])
    for j in range(1, k):
        x, y = P[:, j], Qt[j]
        xp, xn, yp, yn = np.maximum(x, 0), np.maximum(-x, 0), np.maximum(y, 0), np.maximum(-y, 0)
        mp = np.linalg.norm(xp) * np.linalg.norm(yp)
        mn = np.linalg.norm(xn) * np.linalg.norm(yn)
        if mp >= mn:
            u, v, sigma = xp / np.linalg.norm(xp), yp / np.linalg.norm(yp), mp
        else:
            u, v, sigma = xn / np.linalg.norm(xn), yn / np.linalg.norm(yn), mn
        W[:, j] = np.sqrt(s[j] * sigma) * u
        H[j] = np.sqrt(s[j] * sigma) * v
    return H.T, W


@pytest.mark.parametrize("sparse", [False, True])
def test_nndsvd_matches_table_1(planted, sparse):
    X, _ = planted(40, 30, 3, seed=5)
    U_ref, V_ref = reference_nndsvd(X, 3)
    data = sp.csr_matrix(X) if sparse else X
    U, V = nndsvd_init(data, 3, np.random.default_rng(0), variant="nndsvd")
    # the randomized SVD is exact here up to rounding (rank 3 of a 40 x 30 matrix with 3 planted blocks matrix, power steps)
    np.testing.assert_allclose(U, U_ref, atol=1e-6)
    np.testing.assert_allclose(V, V_ref, atol=1e-6)


def test_leading_term_is_the_best_rank_one_fit(planted):
    X, _ = planted(30, 20, 2, seed=1)
    U, V = nndsvd_init(X, 1, np.random.default_rng(0))
    P, s, Qt = np.linalg.svd(X)
    np.testing.assert_allclose(V @ U.T, s[0] * np.outer(P[:, 0], Qt[0]), atol=1e-8)


def test_variants_fill_the_zeros(planted):
    X, _ = planted(40, 30, 3, seed=2)
    U, V = nndsvd_init(X, 3, np.random.default_rng(0), variant="nndsvd")
    Ua, Va = nndsvd_init(X, 3, np.random.default_rng(0), variant="nndsvda")
    Ur, Vr = nndsvd_init(X, 3, np.random.default_rng(0), variant="nndsvdar")
    assert (U == 0).any() and (V == 0).any()
    mean = X.mean()
    np.testing.assert_allclose(Ua[U == 0], mean)
    np.testing.assert_array_equal(Ua[U > 0], U[U > 0])
    assert np.all((Ur[U == 0] >= 0) & (Ur[U == 0] < mean / 100))
    np.testing.assert_array_equal(Vr[V > 0], V[V > 0])


def test_random_starts_are_drawn_as_one_restart_at_a_time_would():
    X = sp.random(20, 15, density=0.3, random_state=0, format="csr")
    rngs = np.random.default_rng(4).spawn(3)
    starts = make_starts(X, 2, "random", rngs)
    again = [random_init(X, 2, g) for g in np.random.default_rng(4).spawn(3)]
    for (U, V), (U2, V2) in zip(starts, again):
        np.testing.assert_array_equal(U, U2)
        np.testing.assert_array_equal(V, V2)


def test_unknown_init_is_refused():
    with pytest.raises(ValueError, match="unknown init"):
        make_starts(np.ones((3, 3)), 2, "svd", [np.random.default_rng(0)])


@pytest.mark.parametrize("shape", [(40, 60), (60, 40)])
def test_the_rows_side_alone_is_the_same_svd(shape):
    """right=False leaves out Qt and nothing else: P and s to the bit, both orientations, and
    the triplets reproduce a dense SVD of a low-rank matrix (no singular value repeats, so
    there is no run for right=True to rotate)."""
    from docnmf.factor.init import truncated_svd

    rng = np.random.default_rng(3)
    X = sp.csr_matrix(rng.random((shape[0], 4)) @ rng.random((4, shape[1])))
    P, s, Qt = truncated_svd(X, 4, np.random.default_rng(0))
    P1, s1, none = truncated_svd(X, 4, np.random.default_rng(0), right=False)
    assert none is None
    np.testing.assert_array_equal(P1, P)
    np.testing.assert_array_equal(s1, s)
    np.testing.assert_allclose(s, np.linalg.svd(X.toarray(), compute_uv=False)[:4], rtol=1e-10)
    np.testing.assert_allclose((P * s) @ Qt, X.toarray(), atol=1e-10)


def _ncw_disconnected(seed=0, sizes=(30, 25, 20, 1, 1), n_terms=24):
    """NCW's ``D^{-1/2} X`` for groups of documents on disjoint terms (two single documents).

    ``A A^T`` is then D^{-1/2} X X^T D^{-1/2}: ``D^{1/2} 1_g`` is an eigenvector
    of eigenvalue 1 for each group ``g``, so the leading singular value 1
    repeats once per group.
    """
    rng = np.random.default_rng(seed)
    blocks = np.array_split(rng.permutation(n_terms), len(sizes))
    X = np.zeros((sum(sizes), n_terms))
    rows = np.split(rng.permutation(sum(sizes)), np.cumsum(sizes)[:-1])
    for docs, terms in zip(rows, blocks):
        X[np.ix_(docs, terms)] = rng.random((len(docs), len(terms))) + 0.1
    d = X @ X.sum(axis=0)
    return X / np.sqrt(d)[:, None], np.sqrt(d), rows


@pytest.mark.parametrize("shape", ["tall", "wide"])
def test_a_repeated_singular_value_gets_one_basis_whatever_the_rounding(shape):
    """The same matrix stored sparse, dense, or with its rows and columns permuted gives one
    start: before the basis of the repeated value 1 was fixed, sparse and dense differed by
    0.19 on a corpus like this."""
    from docnmf.factor.init import truncated_svd

    A, sqrt_d, groups = _ncw_disconnected(n_terms=24 if shape == "tall" else 200)
    k = 4
    P, s, Qt = truncated_svd(sp.csr_matrix(A), k, np.random.default_rng(2))
    np.testing.assert_allclose(s[:4], [1, 1, 1, 1], atol=1e-12)
    rows, cols = np.random.default_rng(3).permutation(A.shape[0]), \
        np.random.default_rng(4).permutation(A.shape[1])
    for other, r, c in [(A, slice(None), slice(None)), (A[rows][:, cols], rows, cols)]:
        P2, s2, Qt2 = truncated_svd(other, k, np.random.default_rng(2))
        np.testing.assert_allclose(s2, s, rtol=1e-12)
        np.testing.assert_allclose(P2, P[r], atol=1e-9)
        np.testing.assert_allclose(Qt2, Qt[:, c], atol=1e-9)
    # the first vector: the documents' sum projected on the groups' vectors D^{1/2} 1_g,
    # positive on every document (so NNDSVD's first factor covers the whole collection)
    u = [np.where(np.isin(np.arange(len(sqrt_d)), g), sqrt_d, 0.0) for g in groups]
    first = sum(v * v.sum() / (v @ v) for v in u)
    np.testing.assert_allclose(P[:, 0], first / np.linalg.norm(first), atol=1e-10)
    # the others still span groups' vectors: each column constant on a group up to D^{1/2}
    for g in groups:
        for j in range(4):
            ratio = P[g, j] / sqrt_d[g]
            np.testing.assert_allclose(ratio, ratio[0], atol=1e-9)


def test_the_rotation_depends_on_the_span_alone():
    """Any rotation of a run's singular vectors is mapped to the same basis; other vectors and
    matrices whose singular values do not repeat are left as they are."""
    from docnmf.factor.init import canonical_rotation, repeated_values

    rng = np.random.default_rng(0)
    P = np.linalg.qr(rng.normal(size=(50, 6)))[0]
    Qt = np.linalg.qr(rng.normal(size=(40, 6)))[0].T
    s = np.array([3.0, 2.0, 2.0, 2.0, 1.0, 0.5])
    assert repeated_values(s) == [(1, 4)]
    assert canonical_rotation(np.array([3.0, 2.0, 1.0]), P[:, :3].sum(0), Qt[:3]) is None
    M = canonical_rotation(s, P.sum(axis=0), Qt)
    np.testing.assert_allclose(M @ M.T, np.eye(6), atol=1e-12)
    np.testing.assert_array_equal(M[[0, 4, 5]][:, [0, 4, 5]], np.eye(3))
    for seed in range(5):
        R = np.eye(6)
        R[1:4, 1:4] = np.linalg.qr(np.random.default_rng(seed).normal(size=(3, 3)))[0]
        P2, Qt2 = P @ R, R.T @ Qt       # the same SVD: P2 diag(s) Qt2 == P diag(s) Qt
        M2 = canonical_rotation(s, P2.sum(axis=0), Qt2)
        np.testing.assert_allclose(P2 @ M2, P @ M, atol=1e-12)
        np.testing.assert_allclose(M2.T @ Qt2, M.T @ Qt, atol=1e-12)
