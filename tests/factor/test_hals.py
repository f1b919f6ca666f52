"""HALS against a slow dense reference written from its coordinate steps (Cichocki & Phan 2009).

The accelerated form (Gillis & Glineur 2012) repeats the sweeps over a row's
coordinates on the same products while they still move the row by more than
``delta`` times its first sweep; the reference does the same, entry by entry.
The extrapolation between rounds (after Ang & Gillis 2019) has its own
reference, written from its rule, on top of the same rounds.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.factor.hals import fit_nmf_hals, fit_nmf_hals_batched
from docnmf.factor.nmf import random_init


def reference_sweeps(F, A, G, n_sweeps, delta):
    """Minimise 1/2||M - F H^T||^2 one entry at a time, given A = M H and G = H^T H.

    Each row of F is swept over its k entries at most n_sweeps times, and no
    more once a sweep moves the row by at most delta times its first sweep.
    """
    F = F.copy()
    n, k = F.shape
    for i in range(n):
        first = None
        for _ in range(n_sweeps):
            old = F[i].copy()
            for j in range(k):
                if G[j, j] <= 0:
                    continue
                # the exact minimiser of the objective over F[i, j] with the rest fixed
                grad = A[i, j] - sum(F[i, l] * G[l, j] for l in range(k))
                F[i, j] = max(0.0, F[i, j] + grad / G[j, j])
            change = np.sum((F[i] - old) ** 2)
            if first is None:
                first = change
            elif change <= delta ** 2 * first:
                break
    return F


def reference_round(X, U, V, sweeps_v, sweeps_u, delta):
    """One round: V from X U and U^T U, then U from X^T V and V^T V."""
    V = reference_sweeps(V, X @ U, U.T @ U, sweeps_v, delta)
    U = reference_sweeps(U, X.T @ V, V.T @ V, sweeps_u, delta)
    return U, V


def objective(X, U, V):
    return 0.5 * np.sum((X - V @ U.T) ** 2)


def normalized(U, V):
    norms = np.sqrt((U ** 2).sum(axis=0))
    return U / norms, V * norms


def reference_hals(X, U, V, n_iter, sweeps_v, sweeps_u, delta):
    """Rounds one after another; losses after each."""
    losses = [objective(X, U, V)]
    for _ in range(n_iter):
        U, V = reference_round(X, U, V, sweeps_v, sweeps_u, delta)
        losses.append(objective(X, U, V))
    return (*normalized(U, V), np.array(losses))


def reference_extrapolated(X, U, V, n_iter, sweeps_v, sweeps_u, delta,
                           beta=0.5, eta=1.5, gamma=1.05, gamma_ceiling=1.01):
    """Rounds from extrapolated points: a round is kept if it started from the kept factors or
    did not raise their objective (by more than 1e-12, relative); then the next starts at
    max(0, F + beta (F - F_kept before)) and beta grows (by gamma, up to a ceiling growing by
    gamma_ceiling up to 1). Otherwise the next starts from the kept factors, the ceiling
    becomes beta and beta shrinks by eta. The losses are the kept factors'."""
    kept, kept_loss = (U, V), objective(X, U, V)
    start, from_kept, ceiling = (U, V), True, 1.0
    losses = [kept_loss]
    for _ in range(n_iter):
        U1, V1 = reference_round(X, *start, sweeps_v, sweeps_u, delta)
        loss = objective(X, U1, V1)
        if from_kept or loss <= kept_loss * (1 + 1e-12):
            (U0, V0), kept, kept_loss = kept, (U1, V1), loss
            start = (np.maximum(U1 + beta * (U1 - U0), 0), np.maximum(V1 + beta * (V1 - V0), 0))
            from_kept = False
            ceiling = min(1.0, gamma_ceiling * ceiling)
            beta = min(ceiling, gamma * beta)
        else:
            start, from_kept = kept, True
            ceiling, beta = beta, beta / eta
        losses.append(kept_loss)
    return (*normalized(*kept), np.array(losses))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("sweeps", [(1, 1), (3, 2)])
def test_matches_dense_reference(planted, sparse, sweeps):
    X, _ = planted(25, 18, 3, seed=4)
    U0, V0 = random_init(X, 3, np.random.default_rng(6))
    U_ref, V_ref, losses_ref = reference_hals(X, U0, V0, 6, *sweeps, delta=0.1)
    data = sp.csr_matrix(X) if sparse else X
    res, = fit_nmf_hals_batched(data, [(U0, V0)], max_iter=6, tol=-1.0, sweeps=sweeps, delta=0.1,
                                extrapolate=False)
    assert res.n_iter == 6
    np.testing.assert_allclose(res.U, U_ref, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.V, V_ref, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.losses, losses_ref, rtol=1e-9)


def test_several_row_blocks_on_threads_match_the_reference(planted, monkeypatch):
    """Rows cut into blocks, swept on two threads: the same steps as the reference, any order."""
    import docnmf.factor.sparse as sparse

    monkeypatch.setattr(sparse, "BLOCK_WORK", 64)
    X, _ = planted(600, 300, 3, seed=2)
    U0, V0 = random_init(X, 3, np.random.default_rng(1))
    U_ref, V_ref, losses_ref = reference_hals(X, U0, V0, 3, 3, 2, delta=0.1)
    res, = fit_nmf_hals_batched(sp.csr_matrix(X), [(U0, V0)], max_iter=3, tol=-1.0,
                                sweeps=(3, 2), delta=0.1, threads=2, extrapolate=False)
    np.testing.assert_allclose(res.U, U_ref, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.V, V_ref, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.losses, losses_ref, rtol=1e-9)


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("steps", ["default", "bold"])
def test_extrapolated_rounds_match_their_reference(planted, monkeypatch, sparse, seed, steps):
    """The default step sizes, and bolder ones under which some rounds are dropped well
    before convergence (checked), so both branches of the rule are compared."""
    import docnmf.factor.hals as hals

    X, _ = planted(30, 22, 4, seed=seed)
    X = X + np.random.default_rng(seed).random(X.shape) * X.mean()
    U0, V0 = random_init(X, 4, np.random.default_rng(10 + seed))
    n_rounds, sizes = (20, {}) if steps == "default" else (15, {"beta": 1.0, "gamma": 1.3})
    if sizes:
        monkeypatch.setattr(hals, "BETA0", sizes["beta"])
        monkeypatch.setattr(hals, "GAMMA", sizes["gamma"])
    U_ref, V_ref, losses_ref = reference_extrapolated(X, U0, V0, n_rounds, 2, 2, delta=0.1,
                                                      **sizes)
    if sizes:
        dropped = np.flatnonzero(np.diff(losses_ref) == 0)
        assert len(dropped) and losses_ref[dropped[0] - 1] > losses_ref[-1] * (1 + 1e-8)
    data = sp.csr_matrix(X) if sparse else X
    res, = fit_nmf_hals_batched(data, [(U0, V0)], max_iter=n_rounds, tol=-1.0, sweeps=(2, 2),
                                delta=0.1)
    assert res.n_iter == n_rounds
    np.testing.assert_allclose(res.losses, losses_ref, rtol=1e-12)
    np.testing.assert_allclose(res.U, U_ref, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.V, V_ref, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_extrapolation_reaches_plain_hals_objective_in_fewer_rounds(planted, seed):
    """The reason for it: plain HALS's objective after 60 rounds, reached in well under 60
    (15-16 on these problems), the kept objective never rising (beyond rounding) on the way."""
    X, _ = planted(200, 150, 6, seed=seed)
    X = X + np.random.default_rng(seed).random(X.shape) * X.mean()
    start = random_init(X, 6, np.random.default_rng(1))
    plain = fit_nmf_hals(sp.csr_matrix(X), *start, max_iter=60, tol=-1.0, extrapolate=False)
    fast = fit_nmf_hals(sp.csr_matrix(X), *start, max_iter=60, tol=-1.0)
    assert np.all(np.diff(fast.losses) <= 1e-12 * fast.losses[0])
    assert np.argmax(fast.losses <= plain.losses[-1]) <= 30


@pytest.mark.parametrize("extrapolate", [True, False])
@pytest.mark.parametrize("seed", range(5))
def test_objective_never_increases(planted, seed, extrapolate):
    X, _ = planted(60, 40, 4, seed=seed)
    res = fit_nmf_hals(sp.csr_matrix(X), *random_init(X, 4, np.random.default_rng(seed)),
                       max_iter=200, tol=0.0, extrapolate=extrapolate)
    assert np.all(np.diff(res.losses) <= 1e-12 * res.losses[0])
    assert res.losses[-1] < res.losses[0]


def test_factors_stay_nonnegative_and_fit_is_v_ut(planted):
    X, _ = planted(40, 30, 3, seed=9)
    res = fit_nmf_hals(X, *random_init(X, 3, np.random.default_rng(1)), max_iter=50)
    assert res.U.min() >= 0 and res.V.min() >= 0
    np.testing.assert_allclose(np.linalg.norm(res.U, axis=0), 1.0)
    assert 0.5 * np.sum((X - res.V @ res.U.T) ** 2) == pytest.approx(res.losses[-1], rel=1e-9)


def test_zero_column_is_left_alone():
    """An all-zero topic gives g_jj = 0: its column keeps its value instead of becoming NaN."""
    rng = np.random.default_rng(3)
    X = rng.random((12, 8))
    U0, V0 = rng.random((8, 3)), rng.random((12, 3))
    U0[:, 2] = 0.0
    res = fit_nmf_hals(X, U0, V0, max_iter=20, tol=0.0)
    assert np.all(np.isfinite(res.U)) and np.all(np.isfinite(res.V))
    assert np.all(np.diff(res.losses) <= 1e-12 * res.losses[0])


def test_beats_multiplicative_updates_per_round(planted):
    """The reason HALS is the fast path: per round on the same products it fits better."""
    from docnmf.factor.nmf import fit_nmf_mu

    X, _ = planted(80, 60, 4, seed=2)
    start = random_init(X, 4, np.random.default_rng(0))
    hals = fit_nmf_hals(sp.csr_matrix(X), *start, max_iter=20, tol=-1.0)
    mu = fit_nmf_mu(sp.csr_matrix(X), *start, max_iter=20, tol=-1.0)
    assert hals.losses[-1] < mu.losses[-1]


def test_threads_do_not_change_the_result(planted):
    X, _ = planted(120, 70, 3, seed=8)
    starts = [random_init(X, 3, g) for g in np.random.default_rng(3).spawn(3)]
    one = fit_nmf_hals_batched(sp.csr_matrix(X), starts, max_iter=100, threads=1)
    two = fit_nmf_hals_batched(sp.csr_matrix(X), starts, max_iter=100, threads=2)
    for a, b in zip(one, two):
        np.testing.assert_array_equal(a.U, b.U)
        np.testing.assert_array_equal(a.losses, b.losses)


@pytest.mark.parametrize("sparse", [True, False])
def test_row_weights_fit_the_weighted_matrix_without_forming_it(planted, sparse):
    """HALS on (X, w) is HALS on diag(w) X: the weights only move to the dense side."""
    X, _ = planted(90, 60, 3, seed=5)
    w = np.random.default_rng(1).uniform(0.2, 3.0, X.shape[0])
    Xw = X * w[:, None]
    starts = [random_init(Xw, 3, g) for g in np.random.default_rng(2).spawn(3)]
    as_given = (lambda A: sp.csr_matrix(A)) if sparse else np.asarray
    weighted = fit_nmf_hals_batched(as_given(X), starts, max_iter=80, tol=-1.0, threads=1,
                                    row_weights=w)
    copied = fit_nmf_hals_batched(as_given(Xw), starts, max_iter=80, tol=-1.0, threads=1)
    for a, b in zip(weighted, copied):
        np.testing.assert_allclose(a.losses, b.losses, rtol=1e-10)
        np.testing.assert_allclose(a.U, b.U, rtol=1e-8, atol=1e-12)
        np.testing.assert_allclose(a.V, b.V, rtol=1e-8, atol=1e-12)


def test_side_by_side_restarts_keep_and_drop_rounds_on_their_own(planted, monkeypatch):
    """Restarts that drop rounds at different times, side by side: each as it runs alone."""
    import docnmf.factor.hals as hals

    monkeypatch.setattr(hals, "BETA0", 1.0)
    monkeypatch.setattr(hals, "GAMMA", 1.3)
    X, _ = planted(60, 45, 5, seed=1)
    X = sp.csr_matrix(X + np.random.default_rng(1).random(X.shape) * X.mean())
    starts = [random_init(X, 5, g) for g in np.random.default_rng(4).spawn(4)]
    batch = fit_nmf_hals_batched(X, starts, max_iter=40, tol=1e-9)
    alone = [fit_nmf_hals_batched(X, [s], max_iter=40, tol=1e-9)[0] for s in starts]
    dropped = [tuple(np.flatnonzero(np.diff(r.losses) == 0)) for r in alone]
    assert len(set(dropped)) > 2, dropped   # in different rounds: some keep as others drop
    assert len({r.n_iter for r in alone}) > 1   # and leave the batch at different rounds
    for b, a in zip(batch, alone):
        assert b.n_iter == a.n_iter
        np.testing.assert_allclose(b.losses, a.losses, rtol=1e-12)
        np.testing.assert_allclose(b.U, a.U, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(b.V, a.V, rtol=1e-10, atol=1e-12)
