"""The CF/LCCF solver against slow dense references written from Cai et al. (2011), eqs. 10-30."""

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.factor.graph import GraphLaplacian, graph_laplacian, knn_cosine_graph
from docnmf.factor.kernels import DenseKernel, LinearKernel, make_kernel
from docnmf.factor.lccf import (fit_lccf, fit_lccf_restarts, fold_in, lccf_loss, normalize_wv,
                                random_init_concepts)


def documents(n=30, m=20, seed=0):
    """Non-negative, sparse-ish unit-length documents as rows."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, m))
    X[rng.random((n, m)) > 0.5] = 0.0
    X[:, 0] += 0.05
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def paper_kernel(X_paper, kernel):
    """The paper's K = X^T X for a terms x documents X, or its square entrywise (poly2)."""
    K = X_paper.T @ X_paper
    return K if kernel == "linear" else K**2


def paper_objective(K, W, V, S, lam):
    """Eq. 10 in eq. 11's form, explicit: Tr((I - W V^T)^T K (I - W V^T)) + lam Tr(V^T L V)."""
    n = K.shape[0]
    R = np.eye(n) - W @ V.T
    L = np.diag(S.sum(axis=1)) - S
    return np.trace(R.T @ K @ R) + lam * np.trace(V.T @ L @ V)


def reference_lccf(K, W, V, S, lam, n_iter):
    """Eqs. 18 then 17, entry by entry, straight from the paper (D, S dense)."""
    W, V = W.copy(), V.copy()
    n, k = W.shape
    D = np.diag(S.sum(axis=1))
    losses = [paper_objective(K, W, V, S, lam)]
    for _ in range(n_iter):
        KW, VWKW, SV, DV = K @ W, V @ W.T @ K @ W, S @ V, D @ V
        newV = np.empty_like(V)
        for j in range(n):
            for c in range(k):
                newV[j, c] = V[j, c] * (KW[j, c] + lam * SV[j, c]) / (VWKW[j, c] + lam * DV[j, c])
        V = newV
        KV, KWVV = K @ V, K @ W @ V.T @ V
        newW = np.empty_like(W)
        for j in range(n):
            for c in range(k):
                newW[j, c] = W[j, c] * KV[j, c] / KWVV[j, c]
        W = newW
        losses.append(paper_objective(K, W, V, S, lam))
    return W, V, np.array(losses)


def reference_negative(K, W, V, S, lam, n_iter):
    """Eqs. 28 then 25 with K+ and K- the positive and negative parts of K (Section 3.5)."""
    W, V = W.copy(), V.copy()
    Kp, Km = np.where(K > 0, K, 0.0), np.where(K < 0, -K, 0.0)
    D = np.diag(S.sum(axis=1))
    n, k = W.shape
    losses = [paper_objective(K, W, V, S, lam)]
    for _ in range(n_iter):
        KW = K @ W
        Qp = V @ W.T @ Kp @ W + lam * D @ V
        Qm = V @ W.T @ Km @ W + lam * S @ V
        newV = np.empty_like(V)
        for j in range(n):
            for c in range(k):
                b = KW[j, c]
                root = np.sqrt(b * b + 4 * Qp[j, c] * Qm[j, c])
                newV[j, c] = V[j, c] * (b + root) / (2 * Qp[j, c])
        V = newV
        KV = K @ V
        Pp, Pm = Kp @ W @ V.T @ V, Km @ W @ V.T @ V
        newW = np.empty_like(W)
        for j in range(n):
            for c in range(k):
                b = KV[j, c]
                root = np.sqrt(b * b + 4 * Pp[j, c] * Pm[j, c])
                newW[j, c] = W[j, c] * (b + root) / (2 * Pp[j, c])
        W = newW
        losses.append(paper_objective(K, W, V, S, lam))
    return W, V, np.array(losses)


def graph_of(X, p=4):
    return graph_laplacian(knn_cosine_graph(X, p))


@pytest.mark.parametrize("kernel", ["linear", "poly2"])
@pytest.mark.parametrize("lam", [0.0, 0.7])
def test_matches_dense_reference(kernel, lam):
    X = documents(seed=1)
    g = graph_of(X)
    W0, V0 = random_init_concepts(30, 3, np.random.default_rng(2))
    K_paper = paper_kernel(X.T, kernel)   # the paper's terms x documents matrix is X.T
    W_ref, V_ref, losses_ref = reference_lccf(K_paper, W0, V0, g.S.toarray(), lam, 6)
    res = fit_lccf(make_kernel(sp.csr_matrix(X), kernel), W0, V0, graph=g, lam=lam,
                   max_iter=6, tol=0.0)
    assert res.n_iter == 6
    np.testing.assert_allclose(res.W, W_ref, rtol=1e-8)
    np.testing.assert_allclose(res.V, V_ref, rtol=1e-8)
    np.testing.assert_allclose(res.losses, losses_ref, rtol=1e-9)


def centred_kernel(X):
    Xc = X - X.mean(axis=0)
    return Xc, Xc @ Xc.T


@pytest.mark.parametrize("lam", [0.0, 0.5])
def test_negative_updates_match_dense_reference(lam):
    X = documents(seed=3)
    Xc, K = centred_kernel(X)
    assert (K < 0).any()
    g = graph_of(X)
    W0, V0 = random_init_concepts(30, 3, np.random.default_rng(4))
    W_ref, V_ref, losses_ref = reference_negative(K, W0, V0, g.S.toarray(), lam, 6)
    op = make_kernel(Xc, "linear")
    assert op.has_negative
    res = fit_lccf(op, W0, V0, graph=g, lam=lam, max_iter=6, tol=0.0)
    np.testing.assert_allclose(res.W, W_ref, rtol=1e-8)
    np.testing.assert_allclose(res.V, V_ref, rtol=1e-8)
    np.testing.assert_allclose(res.losses, losses_ref, rtol=1e-9)


def ncw(K, graph, appendix_b):
    """Appendix B: K' = Gamma^1/2 K Gamma^1/2, gamma = 1 / (K e); L or Gamma^-1/2 L Gamma^-1/2."""
    d = K.row_sums()
    Kw = K.weighted(1.0 / np.sqrt(d))
    if not appendix_b:
        return Kw, graph
    S = sp.csr_matrix(sp.diags(np.sqrt(d)) @ graph.S @ sp.diags(np.sqrt(d)))
    deg = graph.degrees * d
    return Kw, GraphLaplacian(S, deg, (sp.diags(deg) - S).tocsr())


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kernel", ["linear", "poly2"])
@pytest.mark.parametrize("form", ["cf", "lccf", "cf-ncw", "lccf-ncw", "lccf-ncw-appendix-b"])
def test_objective_never_increases(seed, kernel, form):
    X = documents(60, 40, seed=seed)
    K, g = make_kernel(sp.csr_matrix(X), kernel), graph_of(X, 5)
    if "ncw" in form:
        K, g = ncw(K, g, appendix_b=form.endswith("appendix-b"))
    lam = 0.0 if form.startswith("cf") else 10.0 * K.trace() / (g.degrees.sum() / 60)
    W0, V0 = random_init_concepts(60, 4, np.random.default_rng(seed))
    res = fit_lccf(K, W0, V0, graph=g, lam=lam, max_iter=150, tol=0.0)
    assert np.all(np.diff(res.losses) <= 1e-10 * res.losses[0])
    assert res.losses[-1] < res.losses[0]
    assert res.W.min() >= 0 and res.V.min() >= 0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("lam", [0.0, 1.0])
def test_negative_updates_never_increase(seed, lam):
    X = documents(50, 30, seed=seed)
    Xc, _ = centred_kernel(X)
    K = make_kernel(Xc, "linear")
    W0, V0 = random_init_concepts(50, 3, np.random.default_rng(seed))
    res = fit_lccf(K, W0, V0, graph=graph_of(X), lam=lam, max_iter=150, tol=0.0)
    assert np.all(np.diff(res.losses) <= 1e-10 * res.losses[0])
    assert res.W.min() >= 0 and res.V.min() >= 0


def test_linear_kernel_never_formed_gives_the_same_numbers():
    X = sp.csr_matrix(documents(40, 30, seed=5))
    g = graph_of(X)
    fast = make_kernel(X, "linear")
    assert isinstance(fast, LinearKernel)
    dense = DenseKernel((X @ X.T).toarray())
    W0, V0 = random_init_concepts(40, 3, np.random.default_rng(6))
    a = fit_lccf(fast, W0, V0, graph=g, lam=0.3, max_iter=40, tol=0.0)
    b = fit_lccf(dense, W0, V0, graph=g, lam=0.3, max_iter=40, tol=0.0)
    np.testing.assert_allclose(a.W, b.W, rtol=1e-9)
    np.testing.assert_allclose(a.V, b.V, rtol=1e-9)
    np.testing.assert_allclose(a.losses, b.losses, rtol=1e-11)
    np.testing.assert_allclose(fast.row_sums(), dense.row_sums(), rtol=1e-12)
    np.testing.assert_allclose(fast.weighted(np.arange(1, 41.0)).dense(),
                               dense.weighted(np.arange(1, 41.0)).dense(), rtol=1e-12)


def test_loss_is_eq_10():
    X = documents(25, 15, seed=7)
    g = graph_of(X)
    rng = np.random.default_rng(8)
    W, V = rng.random((25, 3)), rng.random((25, 3))
    direct = np.sum((X.T - X.T @ W @ V.T) ** 2) + 2.5 * np.trace(V.T @ g.L.toarray() @ V)
    assert lccf_loss(make_kernel(sp.csr_matrix(X)), W, V, graph=g, lam=2.5) == \
        pytest.approx(direct, rel=1e-10)


def test_normalization_keeps_product_and_unit_concepts():
    X = documents(20, 10, seed=9)
    K = make_kernel(X)
    rng = np.random.default_rng(1)
    W, V = rng.random((20, 3)), rng.random((20, 3))
    Wn, Vn, norms = normalize_wv(K, W, V)
    np.testing.assert_allclose(Wn @ Vn.T, W @ V.T)
    np.testing.assert_allclose(np.einsum("jk,jk->k", Wn, K.matmul(Wn)), 1.0)


def test_fold_in_is_the_last_row_of_the_augmented_updates():
    """Eqs. 29-30 equal eqs. 17-18 on [X, x'] with only the last rows of W and V updated."""
    X = documents(31, 20, seed=10)
    # the new document's neighbours are its own p nearest (s~ of Section 3.6)
    n = 30
    cos = (X[n] @ X[:n].T)
    s_tilde = np.zeros(n)
    top = np.argsort(-cos)[:4]
    s_tilde[top] = cos[top]
    S = knn_cosine_graph(X[:n], 4).toarray()
    S_hat = np.zeros((n + 1, n + 1))
    S_hat[:n, :n], S_hat[n, :n], S_hat[:n, n] = S, s_tilde, s_tilde
    K_hat = X @ X.T
    rng = np.random.default_rng(11)
    W, V = rng.random((n, 3)), rng.random((n, 3))
    w, v = rng.random(3), rng.random(3)
    lam = 0.8
    W_hat, V_hat = np.vstack([W, w]), np.vstack([V, v])
    D_hat = np.diag(S_hat.sum(axis=1))
    for _ in range(5):
        # eq. 17 / 29 on the last row only
        num = (K_hat @ V_hat)[n]
        den = (K_hat @ W_hat @ V_hat.T @ V_hat)[n]
        W_hat[n] *= num / den
        # eq. 18 / 30 on the last row only
        num = (K_hat @ W_hat + lam * S_hat @ V_hat)[n]
        den = (V_hat @ W_hat.T @ K_hat @ W_hat + lam * D_hat @ V_hat)[n]
        V_hat[n] *= num / den
    K = K_hat[:n, :n]
    k_new = K_hat[n:, :n]
    w_new, v_new = fold_in(k_new @ W, k_new @ V, K_hat[n:, n], W, V, W.T @ K @ W,
                           s_new=sp.csr_matrix(s_tilde[None, :]), d_new=np.array([s_tilde.sum()]),
                           lam=lam, w0=w[None, :], v0=v[None, :], n_iter=5)
    np.testing.assert_allclose(w_new[0], W_hat[n], rtol=1e-10)
    np.testing.assert_allclose(v_new[0], V_hat[n], rtol=1e-10)


def test_fold_in_rows_are_independent():
    X = documents(40, 20, seed=12)
    K = X[:30] @ X[:30].T
    rng = np.random.default_rng(13)
    W, V = rng.random((30, 2)), rng.random((30, 2))
    Kn = X[30:] @ X[:30].T
    kself = (X[30:] ** 2).sum(axis=1)
    _, v_all = fold_in(Kn @ W, Kn @ V, kself, W, V, W.T @ K @ W)
    _, v_two = fold_in(Kn[:2] @ W, Kn[:2] @ V, kself[:2], W, V, W.T @ K @ W)
    np.testing.assert_allclose(v_all[:2], v_two)


def test_lam_without_graph_is_an_error():
    X = documents(10, 5)
    with pytest.raises(ValueError, match="graph"):
        fit_lccf(make_kernel(X), *random_init_concepts(10, 2, np.random.default_rng(0)), lam=1.0)


# --- several starts side by side ----------------------------------------------------------------


@pytest.mark.parametrize("k", [1, 2, 5])
def test_sparse_products_side_by_side_are_bit_for_bit(k):
    """What fit_lccf_restarts rests on: CSR @ [B_1 ... B_r] gives each CSR @ B_i exactly."""
    rng = np.random.default_rng(k)
    X = sp.random(300, 500, density=0.03, random_state=k, format="csr")
    blocks = [rng.random((300, k)) for _ in range(7)]
    K = LinearKernel(X, g=rng.random(300) + 0.5)
    for B, KB in zip(blocks, K.matmul_blocks(blocks)):
        assert KB.flags.c_contiguous
        np.testing.assert_array_equal(KB, K.matmul(B))


def starts_for(n, k, r, seed=0):
    rng = np.random.default_rng(seed)
    return [random_init_concepts(n, k, rng) for _ in range(r)]


# NC weights need non-negative degrees, so the kernel with negative entries goes plain only
@pytest.mark.parametrize("kernel, form", [("linear", "plain"), ("linear", "ncw"),
                                          ("poly2", "plain"), ("poly2", "ncw"),
                                          ("negative", "plain")])
@pytest.mark.parametrize("lam", [0.0, 0.02])
@pytest.mark.parametrize("normalize", ["none", "v"])
def test_restarts_side_by_side_equal_one_by_one(kernel, form, lam, normalize):
    X = documents(60, 40, seed=7)
    if kernel == "negative":
        K = make_kernel(centred_kernel(X)[0], "linear")
    else:
        K = make_kernel(sp.csr_matrix(X), kernel)
    g = graph_of(X, 5)
    if form == "ncw":
        K, g = ncw(K, g, appendix_b=False)
    lam = lam * K.trace()
    starts = starts_for(60, 4, 5)
    kw = dict(graph=g, lam=lam, max_iter=200, tol=1e-3, normalize=normalize)
    batched = fit_lccf_restarts(K, starts, **kw)
    one_by_one = [fit_lccf(K, W0, V0, **kw) for W0, V0 in starts]
    for a, b in zip(batched, one_by_one):
        np.testing.assert_array_equal(a.W, b.W)
        np.testing.assert_array_equal(a.V, b.V)
        np.testing.assert_array_equal(a.losses, b.losses)
        assert (a.n_iter, a.converged) == (b.n_iter, b.converged)
    # the starts stop at different rounds: finished ones leave the shared products
    assert len({r.n_iter for r in batched}) > 1


def test_restarts_side_by_side_objective_never_increases():
    X = documents(60, 40, seed=1)
    K, g = make_kernel(sp.csr_matrix(X), "linear"), graph_of(X, 5)
    for res in fit_lccf_restarts(K, starts_for(60, 4, 3), graph=g, lam=3.0 * K.trace(),
                                 max_iter=100, tol=0.0):
        assert np.all(np.diff(res.losses) <= 1e-10 * res.losses[0])
        assert res.n_iter == 100


@pytest.mark.parametrize("kernel", ["linear", "poly2"])
@pytest.mark.parametrize("lam", [0.0, 0.5])
def test_float32_factors_reach_the_float64_objective(kernel, lam):
    """Same start, 150 rounds: float32 factors and products end within 1e-4 of float64's eq. 10."""
    X = documents(80, 50, seed=2)
    K, g = make_kernel(sp.csr_matrix(X), kernel), graph_of(X, 5)
    K, g = ncw(K, g, appendix_b=False)
    lam = lam * K.trace()
    (W0, V0), = starts_for(80, 4, 1, seed=3)
    kw = dict(graph=g, lam=lam, max_iter=150, tol=0.0, normalize="v")
    r64 = fit_lccf(K, W0, V0, **kw)
    r32 = fit_lccf(K.astype(np.float32), W0, V0, **kw)
    assert r32.W.dtype == r32.V.dtype == np.float32
    assert r64.losses[-1] < 0.9 * r64.losses[0]          # the rounds did real work
    assert not np.array_equal(r32.losses, r64.losses)    # float32 did run in float32
    assert r32.losses[-1] == pytest.approx(r64.losses[-1], rel=1e-4)
    # and its objective is eq. 10 of its factors, up to the float32 rounding of K W
    W, V = r32.W.astype(np.float64), r32.V.astype(np.float64)
    assert r32.losses[-1] == pytest.approx(lccf_loss(K, W, V, graph=g, lam=lam), rel=1e-6)
