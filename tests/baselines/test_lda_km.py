"""LDA-Km (Ding & Li 2007): Fisher LDA against the scatter matrices, descent, fixed point, recovery."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.baselines import LDAKMeansClustering, PCAClustering
from docnmf.baselines.lda_km import lda_subspace, within_scatter
from docnmf.cluster import FewerClustersWarning
from docnmf.methods import METHODS, make_estimator
from docnmf.metrics import clustering_accuracy


def short_documents(n_docs=150, n_terms=60, k=3, length=8, seed=0):
    """Unit-length documents of ``length`` words from overlapping topics."""
    rng = np.random.default_rng(seed)
    y = rng.integers(k, size=n_docs)
    topics = rng.dirichlet(np.full(n_terms, 0.3), size=k)
    X = np.array([rng.multinomial(length, topics[c]) for c in y], dtype=float)
    return X / np.linalg.norm(X, axis=1, keepdims=True), y


# --- slow references from the definitions -------------------------------------------------------


def scatter_by_loops(Z, labels):
    """S_w and S_b (divided by n) as sums over points and clusters."""
    n, d = Z.shape
    m = Z.mean(axis=0)
    S_w, S_b = np.zeros((d, d)), np.zeros((d, d))
    for c in np.unique(labels):
        members = Z[labels == c]
        mc = members.mean(axis=0)
        for z in members:
            S_w += np.outer(z - mc, z - mc)
        S_b += len(members) * np.outer(mc - m, mc - m)
    return S_w / n, S_b / n


def fisher_directions(Z, labels, n_components):
    """Leading eigenvectors of S_w^{-1} S_b: Fisher's discriminant directions."""
    S_w, S_b = scatter_by_loops(Z, labels)
    values, vectors = np.linalg.eig(np.linalg.solve(S_w, S_b))
    order = np.argsort(-values.real)[:n_components]
    return vectors[:, order].real


def projector(B, metric):
    """The metric-orthogonal projector onto the span of the columns of B."""
    return B @ np.linalg.solve(B.T @ metric @ B, B.T @ metric)


def principal_scores(X, r):
    """Top r principal component scores by numpy's SVD of the centred matrix."""
    Xc = X - X.mean(axis=0)
    U, s, _ = np.linalg.svd(Xc, full_matrices=False)
    return U[:, :r] * s[:r]


# --- LDA step -------------------------------------------------------------------------------------


def test_lda_subspace_is_fisher_lda():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((120, 6)) @ rng.standard_normal((6, 6))
    labels = rng.integers(4, size=120)
    Z[labels == 1] += 1.5
    W = lda_subspace(Z, labels, 3)
    S_w, S_b = scatter_by_loops(Z, labels)
    S_t = S_w + S_b
    np.testing.assert_allclose(W.T @ S_t @ W, np.eye(3), atol=1e-10)  # S_t-orthonormal
    # the same subspace as the eigenvectors of S_w^{-1} S_b
    F = fisher_directions(Z, labels, 3)
    np.testing.assert_allclose(projector(W, S_t), projector(F, S_t), atol=1e-8)
    # and within it, Tr(W^T S_w W) is smaller than for any other S_t-orthonormal basis tried
    best = np.trace(W.T @ S_w @ W)
    L = np.linalg.cholesky(S_t)
    for _ in range(20):
        Q, _ = np.linalg.qr(rng.standard_normal((6, 3)))
        V = np.linalg.solve(L.T, Q)  # V^T S_t V = I
        assert np.trace(V.T @ S_w @ V) >= best - 1e-10
    assert within_scatter(Z @ W, labels) == pytest.approx(best, rel=1e-10)


def test_within_scatter_is_the_k_means_objective_over_n():
    Y = np.array([[0.0, 1.0], [2.0, 1.0], [5.0, 5.0], [5.0, 7.0]])
    # cluster 0: 1 + 1, cluster 1: 1 + 1
    assert within_scatter(Y, np.array([0, 0, 1, 1])) == pytest.approx(4.0 / 4)


# --- the alternation ------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_objective_never_increases(seed):
    X, _ = short_documents(seed=seed)
    model = LDAKMeansClustering(3, n_components=20, n_init=1, random_state=seed).fit(X)
    h = model.loss_history_
    assert len(h) >= 3
    assert np.all(np.diff(h) <= 1e-12), h
    assert model.objective_ == h[-1]


def test_result_matches_dense_reference_and_is_a_fixed_point(container):
    """The kept labels and subspace are a fixed point of both steps, computed by hand."""
    X, _ = short_documents(n_docs=120, n_terms=40, seed=3)
    r, k = 15, 3
    model = LDAKMeansClustering(k, n_components=r, random_state=0).fit(container(X))
    assert model.converged_ and model.n_components_ == r
    Z = principal_scores(X, r)
    labels = model.labels_
    # LDA on the final labels, by hand from the scatter matrices, spans the final subspace
    F = fisher_directions(Z, labels, k - 1)
    S_w, S_b = scatter_by_loops(Z, labels)
    W = F @ np.linalg.inv(np.linalg.cholesky(F.T @ (S_w + S_b) @ F)).T  # S_t-orthonormal
    E = Z @ W
    # the embedding equals the reference up to the sign of each direction
    np.testing.assert_allclose(model.embedding_ @ model.embedding_.T, E @ E.T, atol=1e-7)
    np.testing.assert_allclose(model.embedding_,
                               (X - model.mean_) @ model.components_.T, atol=1e-10)
    # k-means' fixed point there: every document is nearest its own cluster's mean
    means = np.array([E[labels == c].mean(axis=0) for c in range(k)])
    dist = ((E[:, None, :] - means[None]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(dist.argmin(axis=1), labels)
    assert model.objective_ == pytest.approx(np.trace(W.T @ S_w @ W), rel=1e-8)
    np.testing.assert_array_equal(model.predict(container(X)), labels)


def test_best_restart_is_kept():
    X, _ = short_documents(seed=4)
    model = LDAKMeansClustering(3, n_components=20, n_init=4, random_state=0).fit(X)
    assert model.objective_ == pytest.approx(model.restart_objectives_.min())


def test_recovers_planted_clusters(planted, container, distance_memberships_check):
    X, y = planted(150, 90, 3, seed=7)
    X = X / np.linalg.norm(X, axis=1, keepdims=True)
    model = make_estimator("lda-km", 3, random_state=0)
    labels = model.fit_predict(container(X))
    assert clustering_accuracy(y, labels) == 1.0
    D = [[np.sum((e - c) ** 2) for c in model.cluster_centers_] for e in model.embedding_]
    distance_memberships_check(model.memberships_, D, labels)
    assert model.embedding_.shape == (150, 2) and model.centroids_.shape == (3, 90)


def test_no_worse_than_its_pca_km_start():
    """The first k-means is PCA-Km's; LDA rounds only lower Tr(W^T S_w W) from there."""
    X, y = short_documents(n_docs=300, n_terms=80, length=12, seed=5)
    lda = LDAKMeansClustering(3, n_components=30, n_init=1, random_state=0).fit(X)
    assert lda.loss_history_[-1] <= lda.loss_history_[0]
    pca = PCAClustering(3, n_components=2, random_state=0).fit(X)
    assert clustering_accuracy(y, lda.labels_) > 0.5 and clustering_accuracy(y, pca.labels_) > 0.5


def test_sparse_equals_dense():
    X, _ = short_documents(seed=6)
    a = LDAKMeansClustering(3, n_components=20, n_init=3, random_state=5).fit(X)
    b = LDAKMeansClustering(3, n_components=20, n_init=3, random_state=5).fit(sp.csr_matrix(X))
    assert np.array_equal(a.labels_, b.labels_)
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-6)


def test_same_seed_same_labels_and_clone():
    X, _ = short_documents(seed=7)
    a = LDAKMeansClustering(3, n_components=20, random_state=11).fit(X)
    b = clone(a).fit(X)
    assert np.array_equal(a.labels_, b.labels_)
    assert clone(a).get_params() == a.get_params()


def test_principal_components_are_capped_and_degenerate_cases():
    X, _ = short_documents(n_docs=30, n_terms=5, seed=8)
    model = LDAKMeansClustering(3, random_state=0).fit(sp.csr_matrix(X))
    assert model.n_components_ == 5
    assert LDAKMeansClustering(1, random_state=0).fit(X).labels_.tolist() == [0] * 30
    # more clusters than principal directions: the subspace has all of them
    model = LDAKMeansClustering(4, n_components=2, random_state=0).fit(X)
    assert model.embedding_.shape == (30, 2) and len(np.unique(model.labels_)) == 4


def test_says_when_lda_separates_any_partition():
    """In n - 1 principal components of n documents LDA parts any partition cleanly: the
    scatter was ~1e-30, the loop stopped at PCA-Km's k-means and the restarts tied, in silence."""
    X, _ = short_documents(n_docs=40, n_terms=60, seed=3)
    with pytest.warns(UserWarning, match=r"LDA-Km: in 39 principal components of 40 documents "
                                         r"LDA separates any partition into 3 clusters .* "
                                         r"n_components \(in Python\) below 37"):
        model = LDAKMeansClustering(3, random_state=0).fit(X)
    assert model.objective_ < 1e-9 and model.n_iter_ == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        model = LDAKMeansClustering(3, n_components=20, random_state=0).fit(X)
    assert model.objective_ > 1e-3


@pytest.mark.parametrize("X", [np.ones((6, 1)), np.tile([[0.2, 0.5, 0.3]], (6, 1)) / 0.62,
                               np.ones((6, 10)), np.ones((2, 3))],
                         ids=["one-term", "three-terms", "more-terms-than-documents", "two"])
def test_identical_documents_are_one_cluster_not_a_linear_algebra_error(X, container):
    # the implicitly centred sparse PCA leaves ~1e-16 of variance from rounding; the
    # discriminant problem on it has no positive definite scatter (LinAlgError before)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        model = LDAKMeansClustering(2, random_state=0).fit(container(X))
    assert model.labels_.tolist() == [0] * X.shape[0]


def test_identical_documents_in_fewer_clusters_than_asked_are_warned_of(container):
    # every other estimator says so (FewerClustersWarning, or k-means' own warning); the
    # one-cluster result for documents without variance ran no k-means and said nothing
    with pytest.warns(FewerClustersWarning, match="1 of the 2 clusters"):
        model = LDAKMeansClustering(2, random_state=0).fit(container(np.ones((10, 3))))
    assert model.labels_.tolist() == [0] * 10
    with warnings.catch_warnings():
        warnings.simplefilter("error", FewerClustersWarning)
        LDAKMeansClustering(1, random_state=0).fit(container(np.ones((10, 3))))


def test_bad_parameters():
    X, _ = short_documents(n_docs=20, seed=9)
    with pytest.raises(ValueError, match="n_components"):
        LDAKMeansClustering(2, n_components=0).fit(X)
    with pytest.raises(ValueError, match="reg"):
        LDAKMeansClustering(2, reg=-1.0).fit(X)
    with pytest.raises(ValueError, match="^reg must be a finite number"):   # numpy's inf error
        LDAKMeansClustering(2, reg=float("inf")).fit(X)
    with pytest.raises(ValueError, match="n_init"):
        LDAKMeansClustering(2, n_init=0).fit(X)
    with pytest.raises(ValueError, match="max_iter"):
        LDAKMeansClustering(2, max_iter=True).fit(X)
    with pytest.raises(ValueError, match="tol"):
        LDAKMeansClustering(2, tol=-1.0).fit(X)
    with pytest.raises(ValueError, match="larger than"):
        LDAKMeansClustering(21).fit(X)
    with pytest.raises(ValueError, match="n_clusters"):
        LDAKMeansClustering(0).fit(X)


def test_registry():
    model = make_estimator("lda-km", 4, n_init=2, random_state=0)
    assert isinstance(model, LDAKMeansClustering) and model.n_init == 2
    assert METHODS["lda-km"].input == "tfidf"


@parametrize_with_checks([LDAKMeansClustering(3, n_init=2, random_state=0)])
def test_sklearn_contract(estimator, check):
    check(estimator)
