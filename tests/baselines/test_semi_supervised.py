"""SS-KK and SS-SNC: constraint matrices, diagonal shift, dense references, constraints help."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.baselines.kernel_kmeans import kernel_kmeans_objective, kernel_matrix
from docnmf.baselines.semi_supervised import (SSKernelKMeansClustering, SSNormalizedCutClustering,
                                              constraint_matrix, farthest_first_labels,
                                              normalized_cut_criterion)
from docnmf.constraints import Constraints, sample_constraints
from docnmf.metrics import clustering_accuracy

ESTIMATORS = [SSKernelKMeansClustering, SSNormalizedCutClustering]


def two_facets(n_per=15, style_weight=1.1, seed=0, m=10):
    """Two topics (the truth) crossed with two slightly stronger styles, on separate term blocks."""
    rng = np.random.default_rng(seed)
    rows, topic, style = [], [], []
    for t in range(2):
        for s in range(2):
            for _ in range(n_per):
                x = 0.05 * rng.random(4 * m)
                x[t * m:(t + 1) * m] += rng.random(m)
                x[(2 + s) * m:(3 + s) * m] += style_weight * rng.random(m)
                rows.append(x)
                topic.append(t)
                style.append(s)
    X = np.array(rows)
    return X / np.linalg.norm(X, axis=1, keepdims=True), np.array(topic), np.array(style)


def test_constraint_matrix_signs():
    W = constraint_matrix(4, np.array([[0, 1], [2, 3]]), np.array([[1, 2]]), 0.7, 0.4).toarray()
    np.testing.assert_allclose(W, W.T)
    assert W[0, 1] == 0.7 and W[2, 3] == 0.7          # must-links add similarity
    assert W[1, 2] == -0.4                             # cannot-links remove it
    assert np.count_nonzero(W) == 6 and np.all(np.diag(W) == 0)


def test_sskk_shift_and_objective(planted):
    X, y = planted(40, 20, 2, seed=1)
    ml, cl = sample_constraints(y, 0.05, rng=0)
    model = SSKernelKMeansClustering(2, kernel="linear", random_state=0).fit(
        X, must_link=ml, cannot_link=cl)
    K = X @ X.T
    top = np.abs(K).max()
    closed_ml, closed_cl = Constraints(40, ml, cl).pairs()   # the closure is applied by default
    K_tilde = K + constraint_matrix(40, closed_ml, closed_cl, top, top).toarray()
    lam = np.linalg.eigvalsh(K_tilde)
    assert lam[0] < 0  # the cannot-links made it indefinite
    assert model.shift_ == pytest.approx(-lam[0])
    assert np.linalg.eigvalsh(K_tilde + model.shift_ * np.eye(40))[0] >= -1e-9
    assert model.objective_ == pytest.approx(kernel_kmeans_objective(K_tilde, model.labels_))
    assert clustering_accuracy(y, model.labels_) == 1.0
    assert model.n_constrained_pairs_ == model.constraints_.n_pairs()
    # as documented: the restarts' objectives are on the shifted kernel, sigma (n - k) above
    assert model.restart_objectives_.min() == pytest.approx(model.objective_
                                                            + model.shift_ * (40 - 2))
    # and the objective is the distortion less each satisfied must-link's reward, plus each
    # broken cannot-link's penalty, counted twice and divided by its cluster's size
    sizes = np.bincount(model.labels_)
    same = model.labels_[:, None] == model.labels_[None, :]
    distortion = kernel_kmeans_objective(K, model.labels_)
    rewards = sum(top / sizes[model.labels_[i]] for i, j in closed_ml if same[i, j])
    penalties = sum(top / sizes[model.labels_[i]] for i, j in closed_cl if same[i, j])
    assert model.objective_ == pytest.approx(distortion - 2 * rewards + 2 * penalties)


def test_farthest_first_start():
    # three tight must-link groups on a line, and a stray point
    P = np.array([[0.0], [0.1], [5.0], [5.1], [5.2], [10.0], [10.1], [2.4]])
    c = Constraints(8, must_link=[(0, 1), (2, 3), (3, 4), (5, 6)])
    K = P @ P.T
    labels = farthest_first_labels(K, c, 2)
    # the largest group (2, 3, 4) first, then the farthest group from it: (0, 1) at distance 25
    assert labels[2] == labels[3] == labels[4] != labels[0] == labels[1]
    assert len(np.unique(farthest_first_labels(K, c, 3))) == 3
    assert len(np.unique(farthest_first_labels(K, Constraints(8, must_link=[(0, 1)]), 3))) == 3
    assert farthest_first_labels(K, Constraints(8), 2) is None


def test_ssnc_matches_dense_reference(planted):
    X, y = planted(50, 25, 3, seed=2)
    ml, cl = sample_constraints(y, 0.02, rng=1)
    model = SSNormalizedCutClustering(3, reward=0.5, penalty=0.25, random_state=0).fit(
        X, must_link=ml, cannot_link=cl)
    # eqs. 21-22 written densely: top-3 eigenvectors of D^-1/2 (A + W) D^-1/2, D from A
    A = X @ X.T
    D = np.diag(A.sum(axis=1) ** -0.5)
    A_tilde = A + constraint_matrix(50, *Constraints(50, ml, cl).pairs(), 0.5, 0.25).toarray()
    w, V = np.linalg.eigh(D @ A_tilde @ D)
    np.testing.assert_allclose(model.eigenvalues_, w[::-1][:3], rtol=1e-10)
    # same subspace: projections agree
    Z = model.embedding_
    np.testing.assert_allclose(Z @ Z.T, V[:, -3:] @ V[:, -3:].T, atol=1e-8)
    criterion = sum((Z_h @ np.diag(A.sum(axis=1)) @ Z_h - Z_h @ A_tilde @ Z_h)
                    / (Z_h @ np.diag(A.sum(axis=1)) @ Z_h)
                    for Z_h in np.eye(3)[model.labels_].T)
    assert model.criterion_ == pytest.approx(criterion)
    assert clustering_accuracy(y, model.labels_) == 1.0


def test_normalized_cut_criterion_by_hand():
    A = np.array([[0.0, 2.0, 1.0], [2.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    # clusters {0, 1} and {2}: volumes 5 and 1, within 4 and 0 -> 1/5 + 1
    assert normalized_cut_criterion(A, A.sum(axis=1), np.array([0, 0, 1]), 2) == pytest.approx(1.2)


@pytest.mark.parametrize("Estimator", ESTIMATORS)
def test_constraints_fix_a_wrong_clustering(Estimator):
    X, topic, style = two_facets()
    kw = dict(kernel="linear") if Estimator is SSKernelKMeansClustering else {}
    plain = Estimator(2, random_state=0, **kw).fit(X)
    assert clustering_accuracy(topic, plain.labels_) < 0.75
    ml, cl = sample_constraints(topic, 0.05, rng=0)
    model = Estimator(2, random_state=0, **kw).fit(X, must_link=ml, cannot_link=cl)
    assert clustering_accuracy(topic, model.labels_) == 1.0


@pytest.mark.parametrize("Estimator", ESTIMATORS)
def test_partial_labels_and_pairs_agree(Estimator):
    X, topic, _ = two_facets()
    y = np.full(60, -1)
    y[::6] = topic[::6]
    kw = dict(kernel="linear") if Estimator is SSKernelKMeansClustering else {}
    a = Estimator(2, random_state=0, **kw).fit(X, y)
    ml, cl = Constraints.from_labels(y).pairs()
    b = Estimator(2, random_state=0, **kw).fit(X, must_link=ml, cannot_link=cl)
    assert np.array_equal(a.labels_, b.labels_)
    assert np.array_equal(Estimator(2, random_state=0, **kw).fit_predict(X, y), a.labels_)


def test_gaussian_sskk_on_the_rings():
    t = np.arange(10) * 2 * np.pi / 10
    P = np.vstack([np.c_[r * np.cos(t), r * np.sin(t)] for r in (1.0, 2.0)])
    y = np.repeat([0, 1], 10)
    ml, cl = sample_constraints(y, 0.3, rng=0)
    model = SSKernelKMeansClustering(2, random_state=0).fit(P, must_link=ml, cannot_link=cl)
    assert clustering_accuracy(y, model.labels_) == 1.0 and model.gamma_ > 0
    K, _ = kernel_matrix(P, "gaussian")
    pre = SSKernelKMeansClustering(2, kernel="precomputed", random_state=0).fit(
        K, must_link=ml, cannot_link=cl)
    assert np.array_equal(pre.labels_, model.labels_)


@pytest.mark.parametrize("Estimator", ESTIMATORS)
def test_clone_get_params_round_trip(Estimator):
    model = Estimator(3, reward=0.2, penalty=0.1, closure=False, n_init=2, max_iter=9,
                      random_state=4)
    assert clone(model).get_params() == model.get_params()
    assert Estimator(**model.get_params()).get_params() == model.get_params()


@pytest.mark.parametrize("Estimator", ESTIMATORS)
def test_argument_errors(Estimator):
    X, _, _ = two_facets(n_per=3)
    with pytest.raises(ValueError, match="reward"):
        Estimator(2, reward=-1.0).fit(X, must_link=[(0, 1)])
    with pytest.raises(ValueError, match="n_samples"):
        Estimator(20).fit(X)
    with pytest.raises(ValueError, match="one group"):
        Estimator(2).fit(X, must_link=[(0, 1)], cannot_link=[(1, 0)])


def _expected_failures(estimator):
    if isinstance(estimator, SSNormalizedCutClustering):
        return {"check_clustering": "needs non-negative data; the check ignores positive_only"}
    return {}


@parametrize_with_checks([SSKernelKMeansClustering(3, n_init=2, random_state=0),
                          SSNormalizedCutClustering(3, n_init=2, random_state=0)],
                         expected_failed_checks=_expected_failures)
def test_sklearn_contract(estimator, check):
    check(estimator)
