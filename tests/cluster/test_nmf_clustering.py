"""NMFClustering: planted recovery, NCW form, restarts, transform, keywords, scikit-learn contract."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.cluster import NMFClustering
from docnmf.factor.nmf import fit_nmf_mu, random_init
from docnmf.metrics import clustering_accuracy
from docnmf.text.weighting import ncw_weights


def _expected_failures(estimator):
    # this check feeds standardized (negative) blobs and ignores the positive_only tag
    return {"check_clustering": "NMF needs non-negative data; the check ignores positive_only"}


@parametrize_with_checks([NMFClustering(n_clusters=3, n_init=2, max_iter=100, random_state=0),
                          NMFClustering(n_clusters=3, weighting="ncw", n_init=2, max_iter=100,
                                        random_state=0)],
                         expected_failed_checks=_expected_failures)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.mark.parametrize("weighting", ["none", "ncw"])
def test_recovers_planted_clusters(planted, container, weighting):
    X, y = planted(150, 90, 3, seed=7)
    model = NMFClustering(3, weighting=weighting, random_state=0).fit(container(X))
    assert clustering_accuracy(y, model.labels_) == 1.0
    assert model.memberships_.shape == (150, 3)
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.linalg.norm(model.components_, axis=1), 1.0)


def test_sparse_equals_dense(planted):
    X, _ = planted(60, 30, 3, seed=1)
    a = NMFClustering(3, n_init=3, random_state=4).fit(X)
    b = NMFClustering(3, n_init=3, random_state=4).fit(sp.csr_matrix(X))
    # the products differ in rounding (BLAS beside the sparse kernel): entries of 1e-29 may be 0
    np.testing.assert_allclose(a.embedding_, b.embedding_, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(a.loss_history_, b.loss_history_, rtol=1e-9)


def test_same_seed_same_result_and_clone(planted):
    X, _ = planted(60, 30, 3, seed=2)
    a = NMFClustering(3, random_state=11).fit(X)
    b = clone(a).fit(X)
    assert np.array_equal(a.labels_, b.labels_)
    assert clone(a).get_params() == a.get_params()


def test_keeps_lowest_objective_restart(planted):
    X, _ = planted(80, 40, 4, seed=3)
    model = NMFClustering(4, init="random", n_init=6, random_state=0).fit(X)
    assert model.objective_ == pytest.approx(model.restart_objectives_.min())
    assert len(model.restart_objectives_) == 6
    assert np.all(np.diff(model.loss_history_) <= 1e-12 * model.loss_history_[0])


def test_ncw_is_nmf_on_weighted_data(planted):
    """Appendix B: NMF-NCW equals plain NMF on X' = D^-1/2 X with the same starts."""
    X, _ = planted(40, 25, 2, seed=4)
    gamma = ncw_weights(X)
    d = X @ X.T @ np.ones(40)  # the n x n form, fine at this size
    np.testing.assert_allclose(gamma, 1.0 / d)
    Xw = X / np.sqrt(d)[:, None]
    ncw = NMFClustering(2, weighting="ncw", solver="mu", init="random", n_init=1, max_iter=300,
                        tol=1e-4, random_state=3).fit(X)
    rng = np.random.default_rng(3)
    child = rng.spawn(1)[0]
    res = fit_nmf_mu(Xw, *random_init(Xw, 2, child), max_iter=300, tol=1e-4)
    np.testing.assert_allclose(ncw.embedding_, res.V, rtol=1e-9)
    assert np.array_equal(ncw.labels_, np.argmax(res.V, axis=1))


@pytest.mark.parametrize("weighting", ["none", "ncw"])
def test_transform_places_new_documents(planted, weighting):
    X, y = planted(200, 90, 3, seed=9)
    model = NMFClustering(3, weighting=weighting, random_state=0).fit(X[:150])
    pred = model.predict(X[150:])
    mapping = {c: np.bincount(y[:150][model.labels_ == c]).argmax() for c in range(3)}
    assert np.mean([mapping[c] for c in pred] == y[150:]) == 1.0
    # new documents do not influence each other
    np.testing.assert_allclose(model.transform(X[150:160])[:5], model.transform(X[150:155]))


def test_top_keywords_and_errors(planted):
    X, _ = planted(60, 6, 2, seed=0)
    names = [f"w{j}" for j in range(6)]
    model = NMFClustering(2, random_state=0).fit(X)
    kws = model.top_keywords(names, 3)
    assert sorted(sorted(k) for k in kws) == [["w0", "w1", "w2"], ["w3", "w4", "w5"]]
    with pytest.raises(ValueError, match="larger than"):
        NMFClustering(100).fit(X)
    with pytest.raises(ValueError, match="weighting"):
        NMFClustering(2, weighting="bogus").fit(X)
    with pytest.raises(ValueError, match="Negative"):
        NMFClustering(2).fit(-X)


@pytest.mark.parametrize("solver, init", [("mu", "random"), ("hals", "random"),
                                          ("hals", "nndsvdar")])
def test_result_does_not_depend_on_the_threads(planted, solver, init):
    """The products run on as many threads as BLAS may use; the answer must not depend on it."""
    from threadpoolctl import threadpool_limits

    X, _ = planted(90, 50, 3, seed=4)
    fits = []
    for threads in (1, 3):
        with threadpool_limits(limits=threads):
            fits.append(NMFClustering(3, solver=solver, init=init, n_init=5,
                                      random_state=2).fit(sp.csr_matrix(X)))
    a, b = fits
    np.testing.assert_array_equal(a.labels_, b.labels_)
    np.testing.assert_allclose(a.restart_objectives_, b.restart_objectives_, rtol=1e-10)
    assert len(a.restart_objectives_) == 5


def test_paper_solver_matches_restarts_one_by_one(planted):
    """solver='mu', init='random' is the paper's fit: the best of n_init fit_nmf_mu runs."""
    X, _ = planted(60, 40, 3, seed=6)
    model = NMFClustering(3, solver="mu", init="random", n_init=4, random_state=5).fit(X)
    children = np.random.default_rng(5).spawn(4)
    alone = [fit_nmf_mu(X, *random_init(X, 3, child), max_iter=500, tol=1e-5) for child in children]
    np.testing.assert_array_equal(model.restart_objectives_, [r.losses[-1] for r in alone])
    best = min(alone, key=lambda r: r.losses[-1])
    np.testing.assert_array_equal(model.embedding_, best.V)


def test_float32_needs_hals():
    with pytest.raises(ValueError, match="float64 only"):
        NMFClustering(2, solver="mu", dtype="float32").fit(np.ones((4, 3)))
