"""Kernelized AA and NC: dense eigenvector references, the linear case, recovery, contract."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.baselines import GraphCutClustering
from docnmf.baselines.kernel import KernelGraphCutClustering
from docnmf.metrics import clustering_accuracy


def unit_rows(X):
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def dense_reference(X, criterion, kernel, k):
    """Top-k eigenvectors of K or D^-1/2 K D^-1/2 from the explicit n x n kernel."""
    K = X @ X.T
    if kernel == "poly2":
        K = K**2
    if criterion == "nc":
        d = K.sum(axis=1)
        K = K / np.sqrt(np.outer(d, d))
    vals, vecs = np.linalg.eigh(K)
    return vals[::-1][:k], vecs[:, ::-1][:, :k]


@pytest.mark.parametrize("criterion", ["aa", "nc"])
@pytest.mark.parametrize("kernel", ["linear", "poly2"])
def test_embedding_matches_dense_eigenvectors(container, criterion, kernel):
    # unstructured documents: distinct eigenvalues, so the eigenvectors are defined up to sign
    rng = np.random.default_rng(1)
    X = rng.random((60, 30))
    X[rng.random((60, 30)) > 0.5] = 0.0
    X = unit_rows(X + 0.01)
    model = KernelGraphCutClustering(3, criterion=criterion, kernel=kernel, random_state=0)
    model.fit(container(X))
    vals, vecs = dense_reference(X, criterion, kernel, 3)
    np.testing.assert_allclose(model.eigenvalues_, vals, rtol=1e-8)
    signs = np.sign(np.sum(model.embedding_ * vecs, axis=0))
    np.testing.assert_allclose(model.embedding_, vecs * signs, atol=1e-7)


@pytest.mark.parametrize("criterion", ["aa", "nc"])
def test_linear_kernel_is_graph_cut_clustering(planted, criterion):
    X, _ = planted(90, 40, 3, seed=2)
    X = sp.csr_matrix(unit_rows(X))
    a = KernelGraphCutClustering(3, criterion=criterion, kernel="linear", random_state=0).fit(X)
    b = GraphCutClustering(3, criterion=criterion, random_state=0).fit(X)
    np.testing.assert_allclose(a.eigenvalues_, b.eigenvalues_, rtol=1e-8)
    assert clustering_accuracy(a.labels_, b.labels_) == 1.0


@pytest.mark.parametrize("criterion", ["aa", "nc"])
@pytest.mark.parametrize("kernel", ["poly2", "precomputed"])
def test_recovers_planted_clusters(planted, criterion, kernel, distance_memberships_check):
    X, y = planted(150, 90, 3, seed=7)
    X = unit_rows(X)
    data = (X @ X.T) ** 2 if kernel == "precomputed" else X
    model = KernelGraphCutClustering(3, criterion=criterion, kernel=kernel, random_state=0)
    assert clustering_accuracy(y, model.fit_predict(data)) == 1.0
    D = [[np.sum((e - c) ** 2) for c in model.cluster_centers_] for e in model.embedding_]
    distance_memberships_check(model.memberships_, D, model.labels_)


def test_callable_kernel_and_errors(planted):
    X, _ = planted(40, 20, 2, seed=3)
    a = KernelGraphCutClustering(2, kernel=lambda A, B: (A @ B.T) ** 2, random_state=0).fit(X)
    b = KernelGraphCutClustering(2, kernel="poly2", random_state=0).fit(X)
    np.testing.assert_allclose(a.embedding_, b.embedding_, atol=1e-10)
    with pytest.raises(ValueError, match="criterion"):
        KernelGraphCutClustering(2, criterion="rc").fit(X)
    with pytest.raises(ValueError, match="kernel"):
        KernelGraphCutClustering(2, kernel="rbf").fit(X)
    with pytest.raises(ValueError, match="square"):
        KernelGraphCutClustering(2, kernel="precomputed").fit(X)
    with pytest.raises(ValueError, match="negative"):
        K = np.array([[1.0, -0.9, -0.5], [-0.9, 1, 0], [-0.5, 0, 1]])   # first row sums to -0.4
        KernelGraphCutClustering(2, kernel="precomputed").fit(K)


@parametrize_with_checks([KernelGraphCutClustering(3, criterion="aa", n_init=2, random_state=0),
                          KernelGraphCutClustering(3, criterion="nc", kernel="poly2", n_init=2,
                                                   random_state=0)])
def test_sklearn_contract(estimator, check):
    check(estimator)
