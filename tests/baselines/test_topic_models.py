"""PLSI (EM) and LDA baselines: monotone EM, a dense reference step, planted recovery, contract."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.baselines.topic_models import LDAClustering, PLSIClustering, plsi_em
from docnmf.metrics import clustering_accuracy


def _planted_counts(planted, n_docs=90, n_terms=60, k=3, seed=0):
    X, y = planted(n_docs, n_terms, k, seed=seed)
    return np.round(10 * X), y      # the topic models want counts


def _random_start(X, k, seed):
    rng = np.random.default_rng(seed)
    theta = rng.random((X.shape[0], k)) + 0.1
    phi = rng.random((k, X.shape[1])) + 0.1
    return theta / theta.sum(1, keepdims=True), phi / phi.sum(1, keepdims=True)


def test_em_log_likelihood_never_decreases():
    rng = np.random.default_rng(1)
    X = sp.csr_matrix(rng.poisson(0.7, size=(40, 30)).astype(float))
    theta, phi, ll, n_iter, _ = plsi_em(X, *_random_start(X, 4, 2), max_iter=60, tol=0.0)
    assert n_iter == 60 and len(ll) == 61
    assert np.all(np.diff(ll) >= -1e-9 * abs(ll[0]))
    np.testing.assert_allclose(theta.sum(axis=1), 1.0)
    np.testing.assert_allclose(phi.sum(axis=1), 1.0)


def test_one_em_step_matches_the_dense_equations():
    """Hofmann's E-step P(z|d,w) and M-step, written out with a full (d, w, z) array."""
    rng = np.random.default_rng(3)
    N = rng.poisson(1.0, size=(6, 8)).astype(float)
    theta0, phi0 = _random_start(N, 3, 4)
    for beta in (1.0, 0.7):
        post = (theta0[:, None, :] * phi0.T[None, :, :]) ** beta       # (d, w, z)
        post /= post.sum(axis=2, keepdims=True)
        weighted = N[:, :, None] * post
        phi_ref = weighted.sum(axis=0).T
        phi_ref /= phi_ref.sum(axis=1, keepdims=True)
        theta_ref = weighted.sum(axis=1)
        theta_ref /= theta_ref.sum(axis=1, keepdims=True)
        theta, phi, ll, _, _ = plsi_em(sp.csr_matrix(N), theta0, phi0, max_iter=1, beta=beta)
        np.testing.assert_allclose(theta, theta_ref, rtol=1e-10)
        np.testing.assert_allclose(phi, phi_ref, rtol=1e-10)
        ll_ref = float((N * np.log(np.maximum(theta0 @ phi0, 1e-300))).sum())
        np.testing.assert_allclose(ll[0], ll_ref, rtol=1e-12)


@pytest.mark.parametrize("Model", [PLSIClustering, LDAClustering])
def test_recovers_planted_clusters(planted, container, Model):
    X, y = _planted_counts(planted, seed=5)
    # a single variational LDA fit can stop in a poor optimum; the best bound of 3 does not
    model = Model(3, n_init=3, random_state=0).fit(container(X))
    assert clustering_accuracy(y, model.labels_) == 1.0
    assert model.memberships_.shape == (90, 3)
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)
    np.testing.assert_allclose(model.components_.sum(axis=1), 1.0)
    names = [f"w{j}" for j in range(60)]
    assert all(len(words) == 4 for words in model.top_keywords(names, n=4))


def test_plsi_keeps_the_best_restart_and_is_reproducible(planted):
    X, _ = _planted_counts(planted, seed=6)
    a = PLSIClustering(3, n_init=4, max_iter=50, random_state=3).fit(X)
    b = clone(a).fit(sp.csr_matrix(X))
    assert np.array_equal(a.labels_, b.labels_)
    assert a.objective_ == pytest.approx(a.restart_objectives_.min())
    assert np.all(np.diff(a.loss_history_) <= 1e-9 * abs(a.loss_history_[0]))
    np.testing.assert_allclose(a.loss_history_, -a.log_likelihood_history_)


def test_tempered_plsi_and_input_checks(planted):
    X, y = _planted_counts(planted, seed=7)
    model = PLSIClustering(3, beta=0.8, random_state=0).fit(X)
    assert clustering_accuracy(y, model.labels_) == 1.0
    with pytest.raises(ValueError, match="beta"):
        PLSIClustering(3, beta=1.5).fit(X)
    with pytest.raises(ValueError, match="Negative values"):
        PLSIClustering(2).fit(-X)
    with pytest.raises(ValueError, match="Negative values"):
        LDAClustering(2).fit(-X)


def _expected_failures(estimator):
    # the check feeds standardized (negative) blobs and ignores the positive_only tag
    return {"check_clustering": "topic models need counts; the check ignores positive_only"}


@parametrize_with_checks([PLSIClustering(n_clusters=3, n_init=2, max_iter=30, random_state=0),
                          LDAClustering(n_clusters=3, max_iter=10, random_state=0)],
                         expected_failed_checks=_expected_failures)
def test_sklearn_contract(estimator, check):
    check(estimator)


def test_plsi_stopped_by_max_iter_says_so_as_the_factorizations_do(planted):
    from sklearn.exceptions import ConvergenceWarning

    X, _ = _planted_counts(planted, seed=6)
    with pytest.warns(ConvergenceWarning, match="PLSI did not converge to tol=1e-06 in max_iter=3"):
        PLSIClustering(3, n_init=1, max_iter=3, tol=1e-6, random_state=0).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        PLSIClustering(3, n_init=1, max_iter=3, tol=-1, random_state=0).fit(X)  # every one
        PLSIClustering(3, n_init=1, max_iter=500, tol=1e-3, random_state=0).fit(X)


@pytest.mark.parametrize("prior", ["doc_topic_prior", "topic_word_prior"])
def test_a_zero_dirichlet_prior_is_named_not_blamed_on_the_input(planted, prior):
    # scikit-learn's range for the priors includes 0, where every bound is NaN; the message
    # was that the input overflows, with the advice to divide X by its largest entry
    X, _ = planted(30, 20, 3, seed=0)
    with pytest.raises(ValueError, match=f"{prior} must be a positive number"):
        LDAClustering(3, max_iter=5, random_state=0, **{prior: 0}).fit(X)
