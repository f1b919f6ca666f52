"""Distributed CF (linear kernel) against the in-memory solver, from the same starts."""

from __future__ import annotations

import numpy as np
import pytest

from docnmf.distributed.concept import fit_cf_dask
from docnmf.factor.kernels import LinearKernel
from docnmf.factor.lccf import fit_lccf_restarts, random_init_concepts

from .test_solvers import ROWS, _blocks, _matrix


def _split(client, Xd, arrays):
    """Each start's (n, k) array cut into the blocks of ``Xd``: (starts, rows, k) per block."""
    A = np.stack(arrays)
    o = Xd.offsets
    return client.scatter([A[:, a:b] for a, b in zip(o[:-1], o[1:])], hash=False)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("normalize", ["none", "v"])
def test_cf_equals_in_memory_from_the_same_starts(client, weighted, normalize):
    X = _matrix(seed=4)
    K = LinearKernel(X)
    g = np.sqrt(1.0 / K.row_sums()) if weighted else None
    Kw = K if g is None else K.weighted(g)
    starts = [random_init_concepts(X.shape[0], 3, rng)
              for rng in np.random.default_rng(8).spawn(3)]
    expected = fit_lccf_restarts(Kw, starts, max_iter=80, tol=1e-4, normalize=normalize)
    Xd = _blocks(client, X, ROWS)
    weights = None
    if weighted:
        o = Xd.offsets
        weights = client.scatter([g[a:b] for a, b in zip(o[:-1], o[1:])], hash=False)
    got = fit_cf_dask(Xd, _split(client, Xd, [w for w, _ in starts]),
                      _split(client, Xd, [v for _, v in starts]), g=weights, max_iter=80,
                      tol=1e-4, normalize=normalize)
    assert len({r.n_iter for r in expected}) > 1     # the starts stop on their own
    for res, ref in zip(got, expected):
        assert res.n_iter == ref.n_iter and res.converged == ref.converged
        np.testing.assert_allclose(res.losses, ref.losses, rtol=1e-8, atol=0)
        for name in ("W", "V"):
            A, B = getattr(res, name).compute(), getattr(ref, name)
            assert np.abs(A - B).max() <= 1e-8 * np.abs(B).max(), name


def test_cf_objective_never_increases_without_rescaling(client):
    X = _matrix(n_docs=90, seed=6)
    Xd = _blocks(client, X, (30, 30, 30))
    starts = [random_init_concepts(90, 4, rng) for rng in np.random.default_rng(1).spawn(2)]
    for res in fit_cf_dask(Xd, _split(client, Xd, [w for w, _ in starts]),
                           _split(client, Xd, [v for _, v in starts]), max_iter=15, tol=0.0):
        assert np.all(np.diff(res.losses) <= 1e-12 * res.losses[0])


@pytest.mark.parametrize("exponent", [-700, 300])
def test_cf_clustering_scales_entries_out_of_range_as_in_memory(client, exponent):
    """It did not: at 2**-700 every document fell in one cluster (objective 0), without a
    word; at 2**300 the objective, near 1e183, was a few powers short of overflowing."""
    import dask.array as da

    from docnmf.cluster.lccf import LCCFClustering
    from docnmf.distributed.concept_clustering import DaskCFClustering

    X = _matrix(seed=9) * 2.0**exponent
    common = {"n_clusters": 3, "n_init": 2, "init_rounds": 5, "max_iter": 40, "tol": 1e-5,
              "random_state": 2}
    with pytest.warns(UserWarning, match=r"X was multiplied by 2\*\*") as said:
        memory = LCCFClustering(lam=0.0, init="random", **common).fit(X)
    with pytest.warns(UserWarning, match=r"X was multiplied by 2\*\*") as said_dask:
        dist = DaskCFClustering(client=client, **common).fit(
            da.from_array(X, chunks=(ROWS, X.shape[1]), asarray=False))
    assert str(said_dask[0].message).replace("DaskCFClustering", "LCCFClustering") == \
        str(said[0].message)
    assert dist.scale_exponent_ == memory.scale_exponent_ != 0
    np.testing.assert_array_equal(dist.labels_.compute(), memory.labels_)
    np.testing.assert_allclose(dist.restart_objectives_, memory.restart_objectives_, rtol=1e-8)
    with pytest.raises(ValueError, match="X is all zero; there is nothing to cluster"):
        DaskCFClustering(2, client=client).fit(da.zeros((20, 5), chunks=(10, 5)))


@pytest.mark.parametrize("weighting", ["none", "ncw"])
def test_cf_clustering_equals_lccf_with_lam_0(client, weighting):
    import dask.array as da

    from docnmf.cluster.lccf import LCCFClustering
    from docnmf.distributed.concept_clustering import DaskCFClustering

    X = _matrix(seed=9)
    common = dict(n_clusters=3, weighting=weighting, n_init=3, init_rounds=5, max_iter=60,
                  tol=1e-5, random_state=2)
    memory = LCCFClustering(lam=0.0, init="random", **common).fit(X)
    dist = DaskCFClustering(client=client, **common).fit(
        da.from_array(X, chunks=(ROWS, X.shape[1]), asarray=False))
    np.testing.assert_array_equal(dist.labels_.compute(), memory.labels_)
    assert dist.n_iter_ == memory.n_iter_
    np.testing.assert_allclose(dist.loss_history_, memory.loss_history_, rtol=1e-8)
    np.testing.assert_allclose(dist.restart_objectives_, memory.restart_objectives_, rtol=1e-8)
    for got, ref in [(dist.embedding_.compute(), memory.embedding_),
                     (dist.memberships_.compute(), memory.memberships_),
                     (dist.components_, memory.components_)]:
        assert np.abs(got - ref).max() <= 1e-8 * np.abs(ref).max()


@pytest.mark.parametrize("tol", [None, "x", float("nan")])
def test_cf_clustering_names_a_tolerance_that_is_no_number(client, tol):
    """As LCCFClustering does; float(None) raised a TypeError naming nothing, after the
    statistics of X had been gathered."""
    import dask.array as da

    from docnmf.distributed.concept_clustering import DaskCFClustering

    X = _matrix(seed=9)
    with pytest.raises(ValueError, match="^tol must be a number"):
        DaskCFClustering(3, client=client, n_init=1, max_iter=5, tol=tol).fit(
            da.from_array(X, chunks=(ROWS, X.shape[1]), asarray=False))
