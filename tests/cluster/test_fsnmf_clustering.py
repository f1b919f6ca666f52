"""FSNMFClustering: scikit-learn contract, fitted attributes, restarts, keywords."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.cluster.fsnmf import FSNMFClustering, rank_features


def _expected_failures(estimator):
    why = "fit_transform gives the jointly fitted G, transform the G for fixed F and W"
    return {"check_transformer_data_not_an_array": why, "check_transformer_general": why,
            "check_clustering": "NMF needs non-negative data; the check ignores positive_only"}


@parametrize_with_checks([FSNMFClustering(n_clusters=3, n_init=2, max_iter=30, random_state=0),
                          FSNMFClustering(n_clusters=3, solver="alternating", n_init=2,
                                          max_iter=30, random_state=0)],
                         expected_failed_checks=_expected_failures)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_fitted_attributes(planted, container):
    X, _ = planted(60, 30, 3, seed=5)
    model = FSNMFClustering(3, n_init=3, max_iter=50, random_state=0).fit(container(X))
    assert model.labels_.shape == (60,)
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.linalg.norm(model.components_, axis=1), 1.0)
    assert np.sum(model.feature_weights_ ** 0.7) == pytest.approx(1.0)
    assert sorted(model.feature_ranking_) == list(range(30))
    assert model.objective_ == model.loss_history_[-1] == min(model.restart_objectives_)
    assert np.all(np.diff(model.loss_history_) <= 1e-10 * model.loss_history_[0])
    assert model.transform(X[:5]).shape == (5, 3)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_same_seed_same_result_sparse_equals_dense(planted):
    X, _ = planted(40, 20, 2, seed=6)
    # a few rounds only: near the degenerate optimum (objective ~ 0) the two residual
    # formulas round differently and the runs part
    a = FSNMFClustering(2, n_init=2, max_iter=4, random_state=3).fit(X)
    b = clone(a).fit(sp.csr_matrix(X))
    np.testing.assert_allclose(a.embedding_, b.embedding_, rtol=1e-6)
    np.testing.assert_array_equal(a.feature_ranking_, b.feature_ranking_)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_keywords():
    X = np.array([[3, 1, 0, 0, 1], [2, 2, 0, 0, 1], [0, 0, 1, 3, 1], [0, 0, 2, 2, 1.]])
    names = ["star", "planet", "bread", "oven", "the"]
    model = FSNMFClustering(2, n_init=2, max_iter=10, random_state=0).fit(X)
    assert all(len(kw) == 2 for kw in model.top_keywords(names, 2))
    top = model.collection_keywords(names, 5)
    assert sorted(top) == sorted(names)
    assert top[0] == names[int(np.argmax(model.feature_weights_))]
    with pytest.raises(ValueError):
        model.collection_keywords(names[:3])


def test_rank_features_puts_empty_columns_last():
    order = rank_features(np.array([0.0, 0.3, 0.0]), np.array([0.0, 1.0, 5.0]))
    assert order.tolist() == [1, 2, 0]


@pytest.mark.parametrize("alpha", [0.0, 1.0, 1.3])
def test_rejects_alpha_outside_unit_interval(alpha):
    with pytest.raises(ValueError, match="alpha"):
        FSNMFClustering(2, alpha=alpha).fit(np.ones((4, 3)))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_default_solver_ranks_informative_terms_first(seed, planted_terms):
    """The estimator itself, default settings: clusters recovered, informative terms on top."""
    from docnmf.metrics import clustering_accuracy

    X, y, informative = planted_terms(seed)
    model = FSNMFClustering(3, random_state=seed).fit(X)
    assert clustering_accuracy(y, model.labels_) == 1.0
    assert set(model.feature_ranking_[:len(informative)]) == set(informative)
    assert np.sum(model.feature_weights_ ** 0.7) == pytest.approx(1.0)
    assert np.all(np.diff(model.loss_history_) <= 1e-12 * model.loss_history_[0])


def test_alternating_solver_collapses_on_the_same_corpus(planted_terms):
    """The paper's alternation on that corpus: the weight on one term, the clusters lost.

    The documented reason the default solver weighs after the fit (see the
    class docstring); kept as a test so that the claim stays true.
    """
    from docnmf.metrics import clustering_accuracy

    X, y, informative = planted_terms(0)
    model = FSNMFClustering(3, solver="alternating", random_state=0).fit(X)
    assert model.feature_weights_.max() > 0.99
    assert model.objective_ < 1e-6 * model.loss_history_[0]
    assert clustering_accuracy(y, model.labels_) < 0.8
    assert np.all(np.diff(model.loss_history_) <= 1e-12 * model.loss_history_[0])


def test_fit_then_weigh_is_nmf_then_eq2(planted):
    """Its G, F are NMF's from the same start; its weights are eq. 2 on that fit."""
    from docnmf.factor.fsnmf import fsnmf_loss, uniform_weights, weigh_fit
    from docnmf.factor.nmf import fit_nmf_mu, random_init

    X, _ = planted(50, 24, 3, seed=2)
    model = FSNMFClustering(3, n_init=1, max_iter=200, random_state=7).fit(X)
    rng = np.random.default_rng(7)
    (child,) = rng.spawn(1)
    ref = fit_nmf_mu(X, *random_init(X, 3, child), max_iter=200, tol=1e-5)
    np.testing.assert_allclose(model.embedding_, ref.V, rtol=1e-10)
    w, r = weigh_fit(X, ref.U, ref.V, 0.7, relative=True)
    np.testing.assert_allclose(model.feature_weights_, w, rtol=1e-10)
    np.testing.assert_allclose(model.feature_residuals_, r, rtol=1e-10)
    # the history is eq. 1 at the equal starting weights
    u = uniform_weights(np.ones(24, dtype=bool), 0.7)
    assert model.objective_ == pytest.approx(fsnmf_loss(X, ref.U, ref.V, u), rel=1e-9)
    # absolute residuals: eq. 2 as printed on the same fit
    absolute = FSNMFClustering(3, n_init=1, max_iter=200, residuals="absolute",
                               random_state=7).fit(X)
    np.testing.assert_allclose(absolute.feature_weights_,
                               weigh_fit(X, ref.U, ref.V, 0.7, relative=False)[0], rtol=1e-10)


def test_new_documents_are_placed_under_the_weights_of_the_fit(planted):
    X, _ = planted(60, 30, 3, seed=5)
    model = FSNMFClustering(3, n_init=2, random_state=0).fit(X)
    # fit-then-weigh: G came from equal weights, so a fitted document is placed where it was
    assert np.mean(model.predict(X) == model.labels_) > 0.95


@pytest.mark.parametrize("params", [dict(solver="paper"), dict(residuals="squared")])
def test_rejects_unknown_options(params):
    with pytest.raises(ValueError, match=next(iter(params))):
        FSNMFClustering(2, **params).fit(np.ones((4, 3)))
