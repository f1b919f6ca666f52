"""The SS-NMF tri-factorization against a slow dense reference from Chen et al., eqs. 3-6."""

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.factor import ssnmf as ssnmf_module
from docnmf.factor.ssnmf import (ConstrainedSimilarity, constrained_similarity, fit_ssnmf,
                                 fit_ssnmf_restarts, gram_sqnorm, normalize_gs, pair_similarities,
                                 random_init, solve_g, tri_factor_loss)


def text_like(n_docs=30, n_terms=40, k=3, seed=0):
    """Sparse non-negative documents on k term blocks; some pairs share no term (min A = 0)."""
    rng = np.random.default_rng(seed)
    y = np.arange(n_docs) % k
    blocks = np.array_split(np.arange(n_terms), k)
    X = np.zeros((n_docs, n_terms))
    for i, c in enumerate(y):
        X[i, blocks[c]] = rng.random(len(blocks[c])) * (rng.random(len(blocks[c])) < 0.6)
        X[i, rng.integers(n_terms)] += 0.2
    X[X.sum(axis=1) == 0, 0] = 1.0
    return X / np.linalg.norm(X, axis=1, keepdims=True), y


def paper_similarity(X_paper, must_link, cannot_link):
    """Section 4.3 densely: A = X^T X (terms x docs), must-link -> max A, cannot-link -> min A."""
    A = X_paper.T @ X_paper
    A_tilde = A.copy()
    for i, j in must_link:
        A_tilde[i, j] = A_tilde[j, i] = A.max()
    for i, j in cannot_link:
        A_tilde[i, j] = A_tilde[j, i] = A.min()
    return A_tilde


def reference_ssnmf(A, G, S, n_iter):
    """Algorithm 1, eqs. 5 and 6 element by element, objective eq. 3 formed densely."""
    G, S = G.copy(), S.copy()
    n, k = G.shape
    losses = [np.sum((A - G @ S @ G.T) ** 2)]
    for _ in range(n_iter):
        GtAG, GtGSGtG = G.T @ A @ G, G.T @ G @ S @ G.T @ G
        newS = np.empty_like(S)
        for i in range(k):
            for h in range(k):
                newS[i, h] = S[i, h] * GtAG[i, h] / GtGSGtG[i, h] if GtGSGtG[i, h] > 0 else 0.0
        S = newS
        AG, GSGtG = A @ G, G @ S @ G.T @ G
        newG = np.empty_like(G)
        for i in range(n):
            for h in range(k):
                newG[i, h] = G[i, h] * AG[i, h] / GSGtG[i, h]
        G = newG
        losses.append(np.sum((A - G @ S @ G.T) ** 2))
    return G, S, np.array(losses)


# --- the similarity, its norm and the objective -------------------------------------------------


@pytest.mark.parametrize("shape", [(25, 60), (60, 25)])
def test_gram_sqnorm_matches_dense(shape, monkeypatch):
    rng = np.random.default_rng(1)
    X = rng.random(shape) * (rng.random(shape) < 0.3)
    expected = np.sum((X @ X.T) ** 2)
    assert np.isclose(np.sum((X.T @ X) ** 2), expected)  # the identity the code relies on
    # tiny blocks, so that the block loops really run over several blocks
    monkeypatch.setattr(ssnmf_module, "_BLOCK_ENTRIES", 50)
    assert gram_sqnorm(X) == pytest.approx(expected, rel=1e-12)
    assert gram_sqnorm(sp.csr_matrix(X)) == pytest.approx(expected, rel=1e-12)
    assert gram_sqnorm(sp.csc_matrix(X)) == pytest.approx(expected, rel=1e-12)


def test_pair_similarities(container):
    X, _ = text_like()
    A = X @ X.T
    rows, cols = np.array([0, 3, 7, 29]), np.array([1, 3, 20, 0])
    np.testing.assert_allclose(pair_similarities(container(X), rows, cols), A[rows, cols])
    np.testing.assert_allclose(pair_similarities(container(A), rows, cols, precomputed=True),
                               A[rows, cols])


@pytest.mark.parametrize("precomputed", [False, True])
def test_extreme_mode_is_the_papers_setting(container, precomputed):
    X, _ = text_like()
    A = X @ X.T
    assert A.min() == 0.0  # two documents without a common term: the dense minimum is 0 too
    ml, cl = [(0, 3), (4, 5), (7, 1)], [(0, 1), (2, 6), (9, 12)]
    source = A if precomputed else X
    At = constrained_similarity(container(source), ml, cl, precomputed=precomputed)
    expected = paper_similarity(X.T, ml, cl)
    np.testing.assert_allclose(At.toarray(), expected, atol=1e-14)
    G = np.random.default_rng(0).random((30, 3))
    np.testing.assert_allclose(At.dot(G), expected @ G, rtol=1e-12)
    assert At.sqnorm() == pytest.approx(np.sum(expected**2), rel=1e-12)
    assert At.total() == pytest.approx(expected.sum(), rel=1e-12)


def test_cost_mode_signs_and_clipping():
    X, _ = text_like()
    A = X @ X.T
    ml, cl = [(0, 3), (1, 4)], [(0, 6), (3, 9)]  # (0, 6) and (3, 9) share terms: A > 0
    assert A[0, 6] > 0 and A[3, 9] > 0
    reward, penalty = 0.5, 0.1
    At = constrained_similarity(X, ml, cl, mode="cost", reward=reward, penalty=penalty).toarray()
    assert At[0, 3] == pytest.approx(A[0, 3] + reward)       # a must-link makes them more similar
    assert At[3, 0] == pytest.approx(A[0, 3] + reward)
    assert At[0, 6] == pytest.approx(max(A[0, 6] - penalty, 0))  # a cannot-link less similar
    # a large penalty is clipped at 0, the least similarity G S G^T can express
    clipped = constrained_similarity(X, ml, cl, mode="cost", penalty=10.0)
    assert clipped.toarray()[0, 6] == 0.0 and not clipped.has_negative
    raw = constrained_similarity(X, ml, cl, mode="cost", penalty=10.0, clip_negative=False)
    assert raw.toarray()[0, 6] == pytest.approx(A[0, 6] - 10.0) and raw.has_negative
    assert raw.sqnorm() == pytest.approx(np.sum(raw.toarray() ** 2), rel=1e-12)
    with pytest.raises(ValueError, match="negative"):
        fit_ssnmf(raw, *random_init(clipped, 3, np.random.default_rng(0)), max_iter=2)
    # default weights: the largest similarity
    default = constrained_similarity(X, ml, cl, mode="cost").toarray()
    assert default[0, 3] == pytest.approx(A[0, 3] + np.max(np.diag(A)))


def test_similarity_argument_errors():
    X, _ = text_like()
    with pytest.raises(ValueError, match="mode='cost'"):
        constrained_similarity(X, [(0, 1)], mode="extreme", reward=1.0)
    with pytest.raises(ValueError, match="both"):
        constrained_similarity(X, [(0, 1)], [(1, 0)])
    with pytest.raises(ValueError, match="different indices"):
        constrained_similarity(X, [(2, 2)])
    with pytest.raises(ValueError, match="non-negative"):
        constrained_similarity(-X, [(0, 1)])


def test_loss_matches_dense():
    X, _ = text_like()
    At = constrained_similarity(X, [(0, 1), (2, 5)], [(0, 2)])
    rng = np.random.default_rng(3)
    G, S = rng.random((30, 3)), rng.random((3, 3))
    dense = At.toarray()
    assert tri_factor_loss(At.sqnorm(), G, S, At.dot(G)) == pytest.approx(
        np.sum((dense - G @ S @ G.T) ** 2), rel=1e-10)


# --- the updates --------------------------------------------------------------------------------


@pytest.mark.parametrize("sparse", [False, True])
def test_matches_dense_reference(sparse):
    X, _ = text_like(seed=2)
    ml, cl = [(0, 3), (1, 4), (2, 8)], [(0, 1), (3, 5), (10, 20)]
    At = constrained_similarity(sp.csr_matrix(X) if sparse else X, ml, cl)
    G0, S0 = random_init(At, 3, np.random.default_rng(5))
    res = fit_ssnmf(At, G0, S0, max_iter=12, tol=0.0)
    G_ref, S_ref, losses_ref = reference_ssnmf(paper_similarity(X.T, ml, cl), G0, S0, 12)
    np.testing.assert_allclose(res.losses, losses_ref, rtol=1e-9)
    # the fast path keeps G's columns at unit length; G S G^T and the direction of G are the same
    np.testing.assert_allclose(res.G @ res.S @ res.G.T, G_ref @ S_ref @ G_ref.T,
                               rtol=1e-8, atol=1e-12)
    G_unit, _ = normalize_gs(G_ref, S_ref)
    np.testing.assert_allclose(res.G, G_unit, rtol=1e-8, atol=1e-12)
    assert res.n_iter == 12 and not res.converged


def test_objective_non_increasing_and_s_stays_diagonal(planted):
    X, y = planted(90, 45, 3, seed=3)
    rng = np.random.default_rng(0)
    ml = [(i, j) for i, j in rng.integers(90, size=(40, 2)) if i != j and y[i] == y[j]]
    cl = [(i, j) for i, j in rng.integers(90, size=(40, 2)) if y[i] != y[j]]
    for constraints in [([], []), (ml, cl)]:
        At = constrained_similarity(X, *constraints)
        res = fit_ssnmf(At, *random_init(At, 3, rng), max_iter=300, tol=1e-7)
        assert np.all(np.diff(res.losses) <= 1e-10 * res.losses[0])
        assert np.count_nonzero(res.S - np.diag(np.diag(res.S))) == 0
        np.testing.assert_allclose(np.linalg.norm(res.G, axis=0), 1.0)
        assert np.all(res.G >= 0) and np.all(res.S >= 0)


def test_sqrt_update_non_increasing_on_small_heavily_constrained_problems():
    rng = np.random.default_rng(11)
    for trial in range(15):
        n = int(rng.integers(8, 25))
        X = rng.random((n, 6)) ** 3
        pairs = rng.integers(n, size=(n, 2))
        pairs = pairs[pairs[:, 0] != pairs[:, 1]]
        pairs = np.unique(np.sort(pairs, axis=1), axis=0)
        is_ml = rng.random(len(pairs)) < 0.3
        At = constrained_similarity(X, pairs[is_ml], pairs[~is_ml])
        res = fit_ssnmf(At, *random_init(At, 3, rng), update="sqrt", max_iter=200, tol=0.0)
        assert np.all(np.diff(res.losses) <= 1e-10 * res.losses[0]), trial


@pytest.mark.parametrize("update", ["paper", "sqrt"])
def test_a_cannot_link_rounded_below_zero_leaves_the_fit_finite(update):
    """``A~ G`` at a cannot-linked document is ``X (X^T G) - A_01 G_1``: exactly 0 here, but
    -5.6e-17 as rounded, and the square-root update took the root of a negative ratio; the
    NaN spread to every entry of G and S."""
    X = np.zeros((4, 3))
    X[:2, :2] = [[0.7296554464299441, 0.17565562060255901],
                 [0.8631789223498866, 0.5414612202490917]]
    X[2:, 2] = [0.2997118905373848, 0.42268722119765845]
    G0 = np.array([[0.0, 0.12428327649956394], [0.6706244146936303, 0.6471895115742501],
                   [0.6153851114812539, 0.38367755426188344],
                   [0.997209935789211, 0.9808353387762301]])
    At = constrained_similarity(X, cannot_link=[(0, 1)])
    assert At.dot(G0)[0, 0] < 0            # the rounding this test is about
    res = fit_ssnmf(At, G0, np.eye(2), update=update, max_iter=50, tol=0.0)
    assert np.isfinite(res.G).all() and np.isfinite(res.S).all() and np.isfinite(res.losses).all()
    assert (res.G >= 0).all() and (res.S >= 0).all()


def test_normalize_gs_keeps_the_model():
    rng = np.random.default_rng(0)
    G, S = rng.random((7, 3)), np.diag(rng.random(3))
    G[:, 1] = 0.0
    G2, S2 = normalize_gs(G, S)
    np.testing.assert_allclose(G2 @ S2 @ G2.T, G @ S @ G.T)
    np.testing.assert_allclose(np.linalg.norm(G2, axis=0), [1.0, 0.0, 1.0])


def test_random_init_matches_mean_similarity():
    X, _ = text_like()
    At = constrained_similarity(X, [(0, 1)], [(0, 2)])
    G, S = random_init(At, 4, np.random.default_rng(0))
    assert (G @ S @ G.T).mean() == pytest.approx(At.toarray().mean())
    assert np.count_nonzero(S - np.diag(np.diag(S))) == 0


def test_solve_g_recovers_a_fitted_row():
    X, y = text_like(seed=4)
    At = constrained_similarity(X)
    res = fit_ssnmf(At, *random_init(At, 3, np.random.default_rng(1)), max_iter=300)
    # documents similar to cluster members land in the same cluster
    new = X[:6] * 1.0
    g = solve_g(new @ (X.T @ res.G), res.S, res.G.T @ res.G)
    assert np.array_equal(np.argmax(g, axis=1), np.argmax(res.G[:6], axis=1))


def test_never_forms_the_document_similarity():
    rng = np.random.default_rng(0)
    n = 4000
    X = sp.random(n, 2000, density=0.005, random_state=0, format="csr")
    pairs = rng.integers(n, size=(200, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    tracemalloc.start()
    At = constrained_similarity(X, pairs[:100], pairs[100:])
    fit_ssnmf(At, *random_init(At, 5, rng), max_iter=5)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 0.1 * n * n * 8  # an n x n float matrix would be 128 MB


def test_precomputed_must_be_square():
    with pytest.raises(ValueError, match="square"):
        ConstrainedSimilarity(np.ones((3, 4)), precomputed=True)


# --- several starts side by side ----------------------------------------------------------------


@pytest.mark.parametrize("form", ["sparse", "dense", "precomputed"])
@pytest.mark.parametrize("constrained", [False, True])
@pytest.mark.parametrize("update", ["paper", "sqrt"])
def test_restarts_side_by_side_equal_one_by_one(form, constrained, update):
    X, y = text_like(60, 45, 3, seed=2)
    ml = [(i, i + 3) for i in range(0, 30, 2)] if constrained else []
    cl = [(i, i + 1) for i in range(0, 30, 3)] if constrained else []
    if form == "precomputed":
        A = constrained_similarity(X @ X.T, ml, cl, precomputed=True)
    else:
        A = constrained_similarity(sp.csr_matrix(X) if form == "sparse" else X, ml, cl)
    rng = np.random.default_rng(0)
    starts = [random_init(A, 3, rng) for _ in range(5)]
    kw = dict(update=update, max_iter=300, tol=1e-6)
    batched = fit_ssnmf_restarts(A, starts, **kw)
    for (G0, S0), a in zip(starts, batched):
        b = fit_ssnmf(A, G0, S0, **kw)
        np.testing.assert_array_equal(a.G, b.G)
        np.testing.assert_array_equal(a.S, b.S)
        np.testing.assert_array_equal(a.losses, b.losses)
        assert (a.n_iter, a.converged) == (b.n_iter, b.converged)
        assert np.all(np.diff(a.losses) <= 1e-10 * a.losses[0])
    # the restarts stop at different rounds: finished ones leave the shared product
    assert len({r.n_iter for r in batched}) > 1


def test_sparse_similarity_products_side_by_side_are_bit_for_bit():
    X, _ = text_like(80, 50, 3, seed=4)
    A = constrained_similarity(sp.csr_matrix(X), [(0, 3), (5, 9)], [(1, 2)])
    rng = np.random.default_rng(1)
    blocks = [rng.random((80, k)) for k in (3, 3, 3, 1)]
    for G, AG in zip(blocks, A.dot_blocks(blocks)):
        np.testing.assert_array_equal(AG, A.dot(G))
