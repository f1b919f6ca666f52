"""The distributed solvers against the in-memory ones, from the same starts, on a LocalCluster."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.distributed import RowPartitions, dask_starts, fit_nmf_hals_dask, fit_nmf_mu_dask
from docnmf.distributed.init import randomized_svd_rows
from docnmf.factor.hals import fit_nmf_hals_batched
from docnmf.factor.init import make_starts, truncated_svd
from docnmf.factor.nmf import fit_nmf_mu_batched
from docnmf.text.weighting import ncw_weights

from ..conftest import make_planted


def _matrix(n_docs=150, n_terms=60, k=3, seed=0):
    """Planted clusters under uniform noise: slow enough to converge that the runs are long."""
    X, _ = make_planted(n_docs, n_terms, k, seed, noise=0.5)
    return sp.csr_matrix(X)


def _blocks(client, X, rows):
    """``X`` as RowPartitions with the given rows per block."""
    import dask.array as da

    return RowPartitions.from_array(da.from_array(X, chunks=(tuple(rows), X.shape[1]),
                                                  asarray=False), client)


def _scatter_v0(client, starts, Xd):
    V = np.stack([v for _, v in starts])
    o = Xd.offsets
    return client.scatter([V[:, a:b] for a, b in zip(o[:-1], o[1:])], hash=False)


def assert_same(got, expected, tol=1e-8):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.n_iter == e.n_iter and g.converged == e.converged
        np.testing.assert_allclose(g.losses, e.losses, rtol=tol, atol=0)
        assert np.abs(g.U - e.U).max() <= tol * np.abs(e.U).max()
        V = g.V.compute()
        assert V.shape == e.V.shape
        assert np.abs(V - e.V).max() <= tol * np.abs(e.V).max()


ROWS = (40, 1, 59, 50)   # uneven blocks, one of a single row


def test_mu_equals_in_memory_from_the_same_starts(client, tol=1e-4):
    X = _matrix()
    starts = make_starts(X, 3, "random", np.random.default_rng(1).spawn(3))
    expected = fit_nmf_mu_batched(X, starts, max_iter=150, tol=tol)
    Xd = _blocks(client, X, ROWS)
    got = fit_nmf_mu_dask(Xd, [u for u, _ in starts], _scatter_v0(client, starts, Xd),
                          max_iter=150, tol=tol)
    assert_same(got, expected)
    assert len({r.n_iter for r in got}) > 1   # each restart stopped on its own criterion


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("tol", [1e-7, 1e-4])
def test_hals_equals_in_memory_from_the_same_starts(client, weighted, tol):
    X = _matrix(seed=2)
    w = np.sqrt(ncw_weights(X)) if weighted else None
    starts = make_starts(X, 3, "random", np.random.default_rng(3).spawn(3))
    expected = fit_nmf_hals_batched(X, starts, max_iter=60, tol=tol, row_weights=w, threads=1)
    Xd = _blocks(client, X, ROWS)
    weights = None
    if weighted:
        o = Xd.offsets
        weights = client.scatter([w[a:b] for a, b in zip(o[:-1], o[1:])], hash=False)
    got = fit_nmf_hals_dask(Xd, [u for u, _ in starts], _scatter_v0(client, starts, Xd),
                            max_iter=60, tol=tol, row_weights=weights)
    assert_same(got, expected)


@pytest.mark.parametrize("extrapolate", [False, True])
def test_hals_rounds_kept_and_dropped_as_in_memory(client, monkeypatch, extrapolate):
    """Plain rounds, and extrapolated ones with steps bold enough that restarts drop rounds at
    different times, one stops early and one ends on a dropped round (all checked): the same
    as in memory."""
    import docnmf.factor.hals as hals

    monkeypatch.setattr(hals, "BETA0", 1.0)
    monkeypatch.setattr(hals, "GAMMA", 1.3)
    X = _matrix(seed=1)
    starts = make_starts(X, 4, "random", np.random.default_rng(5).spawn(4))
    expected = fit_nmf_hals_batched(X, starts, max_iter=30, tol=1e-9, threads=1,
                                    extrapolate=extrapolate)
    if extrapolate:
        dropped = [tuple(np.flatnonzero(np.diff(r.losses) == 0)) for r in expected]
        assert len(set(dropped)) > 2, dropped
        assert any(r.n_iter == 30 and r.losses[-1] == r.losses[-2] for r in expected)
        assert any(r.converged for r in expected)
    Xd = _blocks(client, X, ROWS)
    got = fit_nmf_hals_dask(Xd, [u for u, _ in starts], _scatter_v0(client, starts, Xd),
                            max_iter=30, tol=1e-9, extrapolate=extrapolate)
    assert_same(got, expected)


def test_hals_objective_never_increases(client):
    X = _matrix(n_docs=90, seed=5)
    Xd = _blocks(client, X, (30, 30, 30))
    U0, V0 = dask_starts(Xd, 4, "random", np.random.default_rng(0).spawn(2))
    for res in fit_nmf_hals_dask(Xd, U0, V0, max_iter=12, tol=-1.0):
        assert np.all(np.diff(res.losses) <= 1e-12 * res.losses[0])


@pytest.mark.parametrize("init", ["random", "nndsvd", "nndsvda", "nndsvdar"])
@pytest.mark.parametrize("shape", [(150, 60), (40, 90)])   # more documents than terms, and fewer
def test_starts_equal_the_in_memory_starts(client, init, shape):
    # singular values well apart (3 clusters, k = 3): the SVD's rounding is not amplified
    X = sp.csr_matrix(make_planted(*shape, 3, seed=7)[0])
    rows = (shape[0] // 3, shape[0] // 3, shape[0] - 2 * (shape[0] // 3))
    Xd = _blocks(client, X, rows)
    expected = make_starts(X, 3, init, np.random.default_rng(11).spawn(2))
    U0, V0 = dask_starts(Xd, 3, init, np.random.default_rng(11).spawn(2))
    V0 = np.concatenate(client.gather(V0), axis=1)
    for r, (U, V) in enumerate(expected):
        exact = init == "random"
        tol = 1e-15 if exact else 1e-8
        assert np.abs(U0[r] - U).max() <= tol * np.abs(U).max()
        assert np.abs(V0[r] - V).max() <= tol * np.abs(V).max()


def test_randomized_svd_matches_scikit_learn(client):
    for shape in [(150, 60), (40, 90)]:
        X = _matrix(*shape, seed=3)
        Xd = _blocks(client, X, (shape[0] // 2, shape[0] - shape[0] // 2))
        P, s, Qt = randomized_svd_rows(Xd, 5, np.random.default_rng(4))
        P = np.vstack(client.gather(P))
        Pe, se, Qte = truncated_svd(X, 5, np.random.default_rng(4))
        np.testing.assert_allclose(s, se, rtol=1e-10)
        # the same singular vectors with the same signs (svd_flip's)
        np.testing.assert_allclose(P, Pe, atol=1e-8)
        np.testing.assert_allclose(Qt, Qte, atol=1e-8)
