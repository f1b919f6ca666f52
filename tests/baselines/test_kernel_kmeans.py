"""Weighted kernel k-means against brute force, Lloyd's k-means and explicit feature maps."""

import itertools
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.cluster import KMeans
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.factor.kernels import LinearKernel
from docnmf.baselines.kernel_kmeans import (KernelKMeansClustering, kernel_kmeans,
                                            kernel_kmeans_objective, kernel_matrix, median_gamma,
                                            spectral_start)
from docnmf.metrics import clustering_accuracy


def poly2_features(P):
    """The explicit feature map of (x . y)^2 for 2-d points."""
    x1, x2 = P[:, 0], P[:, 1]
    return np.c_[x1**2, x2**2, np.sqrt(2.0) * x1 * x2]


def feature_space_objective(Phi, labels, w):
    """sum_i w_i ||phi_i - m_c||^2 with weighted means, computed on explicit features."""
    total = 0.0
    for c in np.unique(labels):
        idx = labels == c
        m = (w[idx, None] * Phi[idx]).sum(axis=0) / w[idx].sum()
        total += float(np.sum(w[idx] * np.sum((Phi[idx] - m) ** 2, axis=1)))
    return total


def brute_force(Phi, k, w):
    """Global minimum over every partition of the points into k non-empty clusters."""
    n = len(Phi)
    best = np.inf
    for labels in itertools.product(range(k), repeat=n - 1):
        labels = np.array((0,) + labels)  # point 0 in cluster 0: each partition up to relabelling
        if len(np.unique(labels)) < k:
            continue
        best = min(best, feature_space_objective(Phi, labels, w))
    return best


@pytest.mark.parametrize("k", [2, 3])
@pytest.mark.parametrize("weighted", [False, True])
def test_reaches_brute_force_optimum_on_a_tiny_example(k, weighted):
    rng = np.random.default_rng(k)
    P = rng.normal(size=(8, 2))
    w = rng.uniform(0.5, 3.0, 8) if weighted else np.ones(8)
    Phi = poly2_features(P)
    K, _ = kernel_matrix(P, "poly2")
    np.testing.assert_allclose(K, Phi @ Phi.T, rtol=1e-12)
    res = kernel_kmeans(K, k, weights=w, n_init=40, rng=0)
    assert res.objective == pytest.approx(brute_force(Phi, k, w), rel=1e-9)
    assert res.objective == pytest.approx(feature_space_objective(Phi, res.labels, w), rel=1e-9)
    assert res.objective == pytest.approx(kernel_kmeans_objective(K, res.labels, w), rel=1e-12)
    assert res.objective == pytest.approx(res.restart_objectives.min())
    assert len(res.restart_objectives) == 40


def lloyd(X, labels, k, n_iter):
    """Plain batch k-means from given labels (no empty clusters arise on the test data)."""
    for _ in range(n_iter):
        centres = np.array([X[labels == c].mean(axis=0) for c in range(k)])
        new = np.argmin(((X[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
    return labels


def test_linear_kernel_is_lloyds_kmeans(planted):
    X, y = planted(90, 30, 3, seed=4)
    rng = np.random.default_rng(0)
    start = np.where(rng.random(90) < 0.5, rng.integers(3, size=90), y)  # half scrambled
    expected = lloyd(X, start, 3, 100)
    for K in [X @ X.T, LinearKernel(X), LinearKernel(sp.csr_matrix(X)), sp.csr_matrix(X @ X.T)]:
        res = kernel_kmeans(K, 3, init_labels=start, n_init=0, max_iter=100)
        assert np.array_equal(res.labels, expected)
        assert res.converged


def test_operator_and_matrix_give_the_same_result(planted):
    X, y = planted(80, 40, 4, seed=2)
    a = kernel_kmeans(X @ X.T, 4, n_init=5, rng=3)
    b = kernel_kmeans(LinearKernel(sp.csr_matrix(X)), 4, n_init=5, rng=3)
    assert np.array_equal(a.labels, b.labels)
    assert a.objective == pytest.approx(b.objective)
    assert clustering_accuracy(y, a.labels) == 1.0


def test_init_labels_and_empty_clusters():
    X = np.array([[0.0], [0.1], [5.0], [5.1], [9.0]])
    K = X @ X.T
    # all points start in cluster 0: the empty clusters are refilled and the run still converges
    res = kernel_kmeans(K, 3, init_labels=np.zeros(5, dtype=int), n_init=0)
    assert len(np.unique(res.labels)) == 3 and res.converged
    several = kernel_kmeans(K, 2, init_labels=[[0, 0, 1, 1, 1], [0, 1, 0, 1, 0]], n_init=2, rng=0)
    assert len(several.restart_objectives) == 4
    with pytest.raises(ValueError, match="init_labels"):
        kernel_kmeans(K, 2, init_labels=[0, 0, 2, 1, 1], n_init=0)
    with pytest.raises(ValueError, match="n_init"):
        kernel_kmeans(K, 2, n_init=0)
    with pytest.raises(ValueError, match="weights"):
        kernel_kmeans(K, 2, weights=[1, 1, -1, 1, 1])
    with pytest.raises(ValueError, match="non-zero"):
        kernel_kmeans(K, 2, weights=np.zeros(5))
    # a zero weight: the sample does not move the means, and joins its nearest cluster
    zero = kernel_kmeans(K, 2, weights=[1, 1, 1, 1, 0], n_init=5, rng=0)
    assert zero.labels[4] == zero.labels[3] != zero.labels[0]
    with pytest.raises(ValueError, match="between 1 and"):
        kernel_kmeans(K, 6)


def test_gaussian_kernel_and_median_heuristic():
    rng = np.random.default_rng(0)
    P = rng.normal(size=(12, 3))
    D = np.sqrt(((P[:, None] - P[None]) ** 2).sum(axis=2))
    sigma = np.sqrt(np.median(D[np.triu_indices(12, 1)] ** 2))
    assert median_gamma(P) == pytest.approx(1 / (2 * sigma**2))
    K, gamma = kernel_matrix(P, "gaussian")
    np.testing.assert_allclose(K, np.exp(-D**2 / (2 * sigma**2)), atol=1e-12)
    K2, gamma2 = kernel_matrix(sp.csr_matrix(P), "gaussian", gamma=0.3)
    assert gamma2 == 0.3
    np.testing.assert_allclose(K2, np.exp(-0.3 * D**2), atol=1e-12)
    with pytest.raises(ValueError):
        kernel_matrix(P, "cosine")


def test_estimator_kernels_agree(planted, distance_memberships_check):
    X, y = planted(60, 30, 3, seed=3)
    K, gamma = kernel_matrix(X, "gaussian")
    a = KernelKMeansClustering(3, random_state=0).fit(X)
    b = KernelKMeansClustering(3, kernel="precomputed", random_state=0).fit(K)
    c = KernelKMeansClustering(3, kernel=lambda A, B: np.exp(-gamma * ((A[:, None] - B[None]) ** 2)
                                                            .sum(axis=2)), random_state=0).fit(X)
    assert a.gamma_ == pytest.approx(gamma)
    assert np.array_equal(a.labels_, b.labels_) and np.array_equal(a.labels_, c.labels_)
    assert clustering_accuracy(y, a.labels_) == 1.0
    assert a.memberships_.shape == (60, 3)
    np.testing.assert_allclose(a.memberships_, b.memberships_)
    lin = KernelKMeansClustering(3, kernel="linear", random_state=0).fit(sp.csr_matrix(X))
    assert clustering_accuracy(y, lin.labels_) == 1.0
    # linear kernel: feature space is the rows themselves; distances to each cluster's mean row
    means = np.array([X[lin.labels_ == c].mean(axis=0) for c in range(3)])
    D = np.array([[np.sum((x - m) ** 2) for m in means] for x in X])
    distance_memberships_check(lin.memberships_, D, lin.labels_)
    weighted = KernelKMeansClustering(3, kernel="linear", random_state=0).fit(
        X, sample_weight=np.linspace(1, 2, 60))
    assert weighted.objective_ == pytest.approx(
        kernel_kmeans_objective(X @ X.T, weighted.labels_, np.linspace(1, 2, 60)))


def test_clone_get_params_round_trip():
    model = KernelKMeansClustering(5, kernel="poly2", gamma=0.2, n_init=3, max_iter=7,
                                   random_state=1, verbose=1)
    assert clone(model).get_params() == model.get_params()
    assert KernelKMeansClustering(**model.get_params()).get_params() == model.get_params()


@parametrize_with_checks([KernelKMeansClustering(n_clusters=3, n_init=2, random_state=0),
                          KernelKMeansClustering(n_clusters=3, kernel="linear", n_init=2,
                                                 random_state=0)])
def test_sklearn_contract(estimator, check):
    check(estimator)


def test_spectral_start_is_kept_when_it_is_the_best(planted):
    """The spectral start enters the restarts: never a higher objective than without it."""
    X, y = planted(120, 40, 4, seed=9)
    for weighting in ("none", "ncw"):
        with_start = KernelKMeansClustering(4, kernel="poly2", weighting=weighting, n_init=2,
                                            random_state=0).fit(X)
        without = KernelKMeansClustering(4, kernel="poly2", weighting=weighting, n_init=2,
                                         spectral_init=False, random_state=0).fit(X)
        assert len(with_start.restart_objectives_) == 3 and len(without.restart_objectives_) == 2
        assert with_start.objective_ <= without.objective_ + 1e-9
        assert with_start.objective_ == with_start.restart_objectives_.min()


def test_spectral_start_is_the_nc_embedding_for_ncw_weights(planted):
    """w = 1/d: the start is k-means on the top eigenvectors of D^-1/2 K D^-1/2 (NC)."""
    X, y = planted(90, 30, 3, seed=4)
    K = (X @ X.T) ** 2
    d = K.sum(axis=1)
    labels = spectral_start(K, 3, weights=1.0 / d, rng=0)
    vals, vecs = np.linalg.eigh(K / np.sqrt(np.outer(d, d)))
    top = vecs[:, -3:]
    reference = KMeans(3, n_init=10, random_state=0).fit_predict(top)
    assert clustering_accuracy(reference, labels) == 1.0
    assert clustering_accuracy(y, labels) == 1.0


def test_spectral_start_rejects_bad_weights():
    K = np.eye(4) + 0.1
    for bad in (np.zeros(4), -np.ones(4), np.ones(3)):
        with pytest.raises(ValueError, match="weights|Sample weights"):
            spectral_start(K, 2, weights=bad, rng=0)


def _kernel_estimators():
    from docnmf.baselines import KernelGraphCutClustering, SSKernelKMeansClustering
    from docnmf.cluster.lccf import LCCFClustering

    return [KernelKMeansClustering(2, kernel="precomputed", random_state=0),
            KernelGraphCutClustering(2, kernel="precomputed", random_state=0),
            SSKernelKMeansClustering(2, kernel="precomputed", random_state=0),
            LCCFClustering(2, kernel="precomputed", random_state=0)]


@pytest.mark.parametrize("estimator", _kernel_estimators(), ids=lambda e: type(e).__name__)
def test_a_one_sided_precomputed_kernel_is_made_symmetric_and_said_to_be(estimator):
    """A similarity to each document's nearest neighbours only is one-sided: K_ij and K_ji
    were read as they came, without a word (SS-KK made K symmetric silently)."""
    rng = np.random.default_rng(0)
    blocks = np.kron(np.eye(2), np.ones((10, 10)))
    K = blocks + 0.3 * rng.random((20, 20))
    with pytest.warns(UserWarning, match=r"precomputed kernel is not symmetric .* replaced by "
                                         r"\(K \+ K\^T\) / 2"):
        one_sided = clone(estimator).fit(K).labels_
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # a symmetric kernel: nothing to say
        symmetric = clone(estimator).fit((K + K.T) / 2).labels_
    np.testing.assert_array_equal(one_sided, symmetric)
    assert clustering_accuracy(np.repeat([0, 1], 10), symmetric) == 1.0
