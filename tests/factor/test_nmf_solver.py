"""The NMF solver against a slow dense reference written from Xu et al. (2003), eqs. 1, 8-11."""

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.factor._losses import nmf_loss
from docnmf.factor.nmf import fit_nmf_mu, normalize_uv, random_init, solve_v
from docnmf.factor.solvers import SOLVERS


def reference_nmf(X_paper, U, V, n_iter):
    """Eqs. 8-9 element by element, terms x documents as in the paper, then eqs. 10-11."""
    X_paper, U, V = X_paper.copy(), U.copy(), V.copy()
    m, n = X_paper.shape
    k = U.shape[1]
    losses = [0.5 * np.sum((X_paper - U @ V.T) ** 2)]
    for _ in range(n_iter):
        XV, UVtV = X_paper @ V, U @ V.T @ V
        newU = np.empty_like(U)
        for i in range(m):
            for j in range(k):
                newU[i, j] = U[i, j] * XV[i, j] / UVtV[i, j]
        U = newU
        XtU, VUtU = X_paper.T @ U, V @ U.T @ U
        newV = np.empty_like(V)
        for i in range(n):
            for j in range(k):
                newV[i, j] = V[i, j] * XtU[i, j] / VUtU[i, j]
        V = newV
        losses.append(0.5 * np.sum((X_paper - U @ V.T) ** 2))
    norms = np.sqrt((U ** 2).sum(axis=0))
    return U / norms, V * norms, np.array(losses)


@pytest.mark.parametrize("sparse", [False, True])
def test_matches_dense_reference(planted, sparse):
    X, _ = planted(30, 20, 3, seed=1)
    rng = np.random.default_rng(5)
    U0, V0 = random_init(X, 3, rng)
    U_ref, V_ref, losses_ref = reference_nmf(X.T, U0, V0, 8)
    data = sp.csr_matrix(X) if sparse else X
    res = fit_nmf_mu(data, U0, V0, max_iter=8, tol=0.0)
    assert res.n_iter == 8
    np.testing.assert_allclose(res.U, U_ref, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(res.V, V_ref, rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(res.losses, losses_ref, rtol=1e-9)


@pytest.mark.parametrize("solver", sorted(SOLVERS))
@pytest.mark.parametrize("seed", range(5))
def test_objective_never_increases(planted, solver, seed):
    X, _ = planted(60, 40, 4, seed=seed)
    rng = np.random.default_rng(seed)
    res = SOLVERS[solver](sp.csr_matrix(X), *random_init(X, 4, rng), max_iter=200, tol=0.0)
    assert np.all(np.diff(res.losses) <= 1e-12 * res.losses[0])
    assert res.losses[-1] < res.losses[0]


def test_loss_matches_dense_formula(planted):
    X, _ = planted(20, 15, 2, seed=3)
    rng = np.random.default_rng(0)
    U, V = rng.random((15, 2)), rng.random((20, 2))
    dense = 0.5 * np.sum((X.T - U @ V.T) ** 2)
    assert nmf_loss(sp.csr_matrix(X), U, V) == pytest.approx(dense, rel=1e-10)


def test_normalization_keeps_product_and_unit_columns():
    rng = np.random.default_rng(1)
    U, V = rng.random((7, 3)), rng.random((5, 3))
    Un, Vn = normalize_uv(U, V)
    np.testing.assert_allclose(Un @ Vn.T, U @ V.T)
    np.testing.assert_allclose(np.linalg.norm(Un, axis=0), 1.0)


def test_zero_stays_zero_and_factors_nonnegative(planted):
    X, _ = planted(30, 20, 3, seed=2)
    rng = np.random.default_rng(2)
    U0, V0 = random_init(X, 3, rng)
    U0[0, 0] = 0.0
    res = fit_nmf_mu(X, U0, V0, max_iter=30, tol=0.0)
    assert res.U[0, 0] == 0.0
    assert res.U.min() >= 0 and res.V.min() >= 0


def test_solve_v_recovers_exact_coefficients():
    rng = np.random.default_rng(4)
    U = rng.random((12, 3))
    V_true = rng.random((6, 3))
    X = V_true @ U.T
    V = solve_v(X, U, np.full((6, 3), 0.5), n_iter=3000)
    np.testing.assert_allclose(V @ U.T, X, atol=1e-3)


def test_no_subnormal_entries_after_long_runs():
    """Unused entries decay geometrically; they must reach zero, not crawl through subnormals.

    On the demo corpus 1500 plain rounds leave over a hundred subnormal entries.
    """
    from docnmf import DocumentVectorizer, load_demo

    X = DocumentVectorizer().fit_transform(load_demo().texts)
    rng = np.random.default_rng(8)
    res = fit_nmf_mu(X, *random_init(X, 5, rng), max_iter=1500, tol=-1.0)  # tol < 0: run them all
    assert res.n_iter == 1500
    tiny = np.finfo(np.float64).tiny
    for A in (res.U, res.V):
        assert not np.any((A > 0) & (A < tiny))
    assert np.all(np.diff(res.losses) <= 1e-12 * res.losses[0])


# -- restarts side by side ------------------------------------------------------------------------

from docnmf.factor.solvers import BATCHED_SOLVERS  # noqa: E402


def _starts(X, k, n, seed=0):
    return [random_init(X, k, g) for g in np.random.default_rng(seed).spawn(n)]


@pytest.mark.parametrize("sparse", [False, True])
def test_batched_mu_is_bit_for_bit_the_one_at_a_time_solver(planted, sparse):
    """The presets' results must not move: batched MU == fit_nmf_mu from the same starts."""
    X, _ = planted(50, 40, 3, seed=7)
    data = sp.csr_matrix(X) if sparse else X
    starts = _starts(X, 3, 4)
    batch = BATCHED_SOLVERS["mu"](data, starts, max_iter=300, tol=1e-4)
    alone = [fit_nmf_mu(data, U0, V0, max_iter=300, tol=1e-4) for U0, V0 in starts]
    assert len({r.n_iter for r in alone}) > 1, "the restarts should stop at different rounds"
    for b, a in zip(batch, alone):
        assert b.n_iter == a.n_iter and b.converged == a.converged
        np.testing.assert_array_equal(b.U, a.U)
        np.testing.assert_array_equal(b.V, a.V)
        np.testing.assert_array_equal(b.losses, a.losses)


@pytest.mark.parametrize("solver", sorted(BATCHED_SOLVERS))
def test_batched_equals_one_by_one(planted, solver):
    """Each restart stops on its own criterion; the batch gives what each gives alone."""
    X, _ = planted(80, 60, 4, seed=3)
    data = sp.csr_matrix(X)
    starts = _starts(X, 4, 5, seed=1)
    batch = BATCHED_SOLVERS[solver](data, starts, max_iter=400, tol=1e-5)
    alone = [BATCHED_SOLVERS[solver](data, [s], max_iter=400, tol=1e-5)[0] for s in starts]
    assert len({r.n_iter for r in alone}) > 1, "the restarts should stop at different rounds"
    for b, a in zip(batch, alone):
        assert b.n_iter == a.n_iter
        np.testing.assert_allclose(b.U, a.U, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(b.V, a.V, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(b.losses, a.losses, rtol=1e-10)


@pytest.mark.parametrize("tol", [1e-4, 1e-5, 1e-6])
def test_float32_objective_within_1e4_of_float64(tol):
    """Same start, each run to convergence: single precision ends within 1e-4 of double."""
    from docnmf import DocumentVectorizer, load_demo

    X = DocumentVectorizer().fit_transform(load_demo().texts)
    for seed in range(4):
        starts = _starts(X, 5, 1, seed=seed)
        r64, = BATCHED_SOLVERS["hals"](X, starts, max_iter=2000, tol=tol)
        r32, = BATCHED_SOLVERS["hals"](X, starts, max_iter=2000, tol=tol, dtype=np.float32)
        assert r32.U.dtype == np.float32 and r64.converged and r32.converged
        assert abs(r32.losses[-1] - r64.losses[-1]) <= 1e-4 * r64.losses[-1]


def test_mu_refuses_float32():
    X = sp.random(10, 8, density=0.5, random_state=0, format="csr")
    with pytest.raises(ValueError, match="float64 only"):
        BATCHED_SOLVERS["mu"](X, _starts(X, 2, 1), dtype=np.float32)


@pytest.mark.parametrize("solver", sorted(SOLVERS))
def test_callback_sees_every_round(planted, solver):
    X, _ = planted(40, 30, 3, seed=2)
    seen = []
    res = SOLVERS[solver](sp.csr_matrix(X), *random_init(X, 3, np.random.default_rng(0)),
                          max_iter=25, tol=-1.0, callback=lambda it, loss: seen.append((it, loss)))
    assert [it for it, _ in seen] == list(range(1, 26))
    np.testing.assert_array_equal([loss for _, loss in seen], res.losses[1:])
