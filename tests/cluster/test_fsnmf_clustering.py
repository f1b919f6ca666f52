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


@parametrize_with_checks([FSNMFClustering(n_clusters=3, n_init=2, max_iter=30, random_state=0)],
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
    assert model.objective_ == model.loss_history_[-1] == min(model.restart_losses_)
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
