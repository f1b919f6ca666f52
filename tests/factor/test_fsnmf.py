"""FS-NMF solver against a slow dense reference written from Wang, Ding & Li (2010), eqs. 1-4."""

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.factor.fsnmf import (
    feature_residuals,
    feature_weights,
    fit_fsnmf,
    fsnmf_loss,
    uniform_weights,
)
from docnmf.factor.nmf import fit_nmf_mu, random_init



def reference_fsnmf(X_paper, F, G, alpha, n_iter):
    """Eqs. 3, 4, 2 element by element, features x samples as in the paper.

    ``X_paper`` is m x n (features as rows), ``X ~ F G^T``, ``W`` an m x m
    diagonal matrix; starts from equal weights on the non-zero rows.
    """
    X_paper, F, G = X_paper.copy(), F.copy(), G.copy()
    m, n = X_paper.shape
    k = F.shape[1]
    Wd = np.full(m, m ** (-1.0 / alpha))
    W = np.diag(Wd)
    losses = [np.trace((X_paper - F @ G.T).T @ W @ (X_paper - F @ G.T))]
    for _ in range(n_iter):
        num, den = X_paper.T @ W @ F, G @ F.T @ W @ F               # eq. 3
        G = np.array([[G[i, c] * num[i, c] / den[i, c] for c in range(k)] for i in range(n)])
        num, den = W @ X_paper @ G, W @ F @ G.T @ G                 # eq. 4
        F = np.array([[F[j, c] * num[j, c] / den[j, c] for c in range(k)] for j in range(m)])
        R = X_paper - F @ G.T
        b = np.array([sum(R[j, i] ** 2 for i in range(n)) for j in range(m)])
        denom = sum(bj ** (alpha / (alpha - 1)) for bj in b) ** (1 / alpha)   # eq. 2
        Wd = np.array([bj ** (1 / (alpha - 1)) / denom for bj in b])
        W = np.diag(Wd)
        losses.append(np.trace(R.T @ W @ R))                       # eq. 1
    norms = np.sqrt((F ** 2).sum(axis=0))
    return F / norms, G * norms, Wd, np.array(losses)


@pytest.mark.parametrize("sparse", [False, True])
def test_matches_dense_reference(planted, sparse):
    X, _ = planted(24, 15, 3, seed=1)
    X = X + 0.01  # no zero columns, so the reference's plain formulas apply everywhere
    rng = np.random.default_rng(3)
    F0, G0 = random_init(X, 3, rng)
    F_ref, G_ref, w_ref, losses_ref = reference_fsnmf(X.T, F0, G0, 0.7, 6)
    res = fit_fsnmf(sp.csr_matrix(X) if sparse else X, F0, G0, alpha=0.7, max_iter=6, tol=0)
    # the fast path expands ||X_j - G F_j||^2, which loses digits as the fit gets close
    np.testing.assert_allclose(res.losses, losses_ref, rtol=1e-6)
    np.testing.assert_allclose(res.F, F_ref, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(res.G, G_ref, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(res.w, w_ref, rtol=1e-6)


def test_weight_constraint_holds_after_every_update(planted):
    X, _ = planted(40, 25, 3, seed=2)
    rng = np.random.default_rng(0)
    F0, G0 = random_init(X, 3, rng)
    for alpha in (0.3, 0.7, 0.95):
        for t in range(1, 8):
            w = fit_fsnmf(X, F0, G0, alpha=alpha, max_iter=t, tol=0).w
            assert np.all(w >= 0)
            assert np.sum(w ** alpha) == pytest.approx(1.0, abs=1e-12)


def test_weight_step_is_the_exact_minimiser():
    rng = np.random.default_rng(7)
    b = rng.random(30) + 0.01
    for alpha in (0.2, 0.7, 0.9):
        w = feature_weights(b, alpha)
        best = float(w @ b)
        for _ in range(200):  # random feasible points of sum W^alpha = 1 never do better
            v = rng.random(30) ** 3
            v /= np.sum(v ** alpha) ** (1 / alpha)
            assert v @ b >= best - 1e-12
        # stationarity (the paper's derivation): b_j = lambda alpha W_j^(alpha - 1)
        lam = b / (alpha * w ** (alpha - 1))
        np.testing.assert_allclose(lam, lam[0], rtol=1e-9)


def test_weight_step_edge_cases():
    with pytest.raises(ValueError):
        feature_weights(np.ones(3), 1.0)
    with pytest.raises(ValueError):
        feature_weights(np.ones(3), 1.5)
    # exactly fitted features share the weight; inactive ones get none
    w = feature_weights(np.array([0.0, 2.0, 0.0, 1.0]), 0.5, np.array([True, True, True, True]))
    np.testing.assert_allclose(w, [0.25, 0.0, 0.25, 0.0])
    w = feature_weights(np.array([0.0, 2.0, 1.0]), 0.5, np.array([False, True, True]))
    assert w[0] == 0 and np.sum(w ** 0.5) == pytest.approx(1.0)
    # huge spreads of residuals do not overflow (powers of -3.3 at alpha = 0.7)
    w = feature_weights(np.array([1e-200, 1.0, 1e200]), 0.7)
    assert np.all(np.isfinite(w)) and np.sum(w ** 0.7) == pytest.approx(1.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_objective_never_increases(planted, container, seed):
    X, _ = planted(60, 40, 4, seed=seed)
    rng = np.random.default_rng(seed)
    F0, G0 = random_init(X, 4, rng)
    res = fit_fsnmf(container(X), F0, G0, max_iter=150, tol=0)
    steps = np.diff(res.losses)
    assert np.all(steps <= 1e-10 * res.losses[0])
    assert fsnmf_loss(X, res.F, res.G, res.w) == pytest.approx(res.losses[-1], rel=1e-6,
                                                               abs=1e-12)


def test_zero_columns_get_no_weight(planted):
    X, _ = planted(30, 20, 2, seed=4)
    X[:, [3, 11]] = 0.0
    rng = np.random.default_rng(0)
    res = fit_fsnmf(X, *random_init(X, 2, rng), max_iter=5, tol=0)
    assert res.w[3] == 0 and res.w[11] == 0
    assert np.all(res.F[[3, 11]] == 0)
    assert res.losses[-1] > 0  # not the trivial zero of weighting an empty column


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_informative_terms_rank_first_given_the_cluster_fit(seed, planted_terms):
    """Eq. 2 on a fit that captures the clusters weights the informative terms highest.

    The fit is FS-NMF's own first phase: with equal weights, eqs. 3-4 are
    plain NMF, run here to convergence; one eq. 2 step then ranks the terms.
    """
    X, _, informative = planted_terms(seed)
    rng = np.random.default_rng(seed)
    best = min((fit_nmf_mu(X, *random_init(X, 3, child), max_iter=500, tol=1e-8)
                for child in rng.spawn(5)), key=lambda r: r.losses[-1])
    w = feature_weights(feature_residuals(X, best.U, best.V), 0.7)
    top = np.argsort(-w)[:len(informative)]
    assert set(top) == set(informative)


def test_full_alternation_drifts_to_the_trivial_minimum(planted_terms):
    """Eq. 1 has minimum 0 (all weight on one feature, fitted exactly); the updates go there.

    Documented behaviour (see docnmf.factor.fsnmf): the weights concentrate and
    the objective vanishes, whatever the data.
    """
    X, _, _ = planted_terms(0)
    rng = np.random.default_rng(0)
    start = uniform_weights(np.ones(X.shape[1], dtype=bool), 0.7)
    res = fit_fsnmf(X, *random_init(X, 3, rng), max_iter=300, tol=0)
    assert res.losses[-1] < 1e-6 * res.losses[0]
    assert res.w.max() > 0.99 and start.max() < 0.01
