"""Baselines KM, KM-NCW, AA, NC, LSI + KM, PCA + KM: recovery, dense references, contract."""

import tracemalloc
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf.baselines import (GraphCutClustering, KMeansClustering, LSIClustering, PCAClustering,
                              graph_cut_criterion)
from docnmf.methods import METHODS, make_estimator
from docnmf.metrics import clustering_accuracy

BASELINES = ["km", "km-ncw", "aa", "nc", "lsi-km", "pca-km"]


def short_documents(n_docs=150, n_terms=60, k=3, length=6, seed=0):
    """Unit-length documents of ``length`` words drawn from overlapping topics: hard to cluster."""
    rng = np.random.default_rng(seed)
    y = rng.integers(k, size=n_docs)
    topics = rng.dirichlet(np.full(n_terms, 0.3), size=k)
    X = np.array([rng.multinomial(length, topics[c]) for c in y], dtype=float)
    return X / np.linalg.norm(X, axis=1, keepdims=True), y


def unit_rows(X):
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def top_eigenvectors(M, k):
    """Dense reference: eigenvectors of the k largest eigenvalues of a symmetric matrix."""
    w, V = np.linalg.eigh(M)
    return w[::-1][:k], V[:, ::-1][:, :k]


def match_signs(A, B):
    """``A`` with each column's sign flipped to agree with ``B``."""
    return A * np.sign(np.sum(A * B, axis=0))


# --- recovery and common behaviour -------------------------------------------------------------


def test_registry_names():
    assert list(METHODS)[:2] == ["nmf", "nmf-ncw"]
    assert set(BASELINES) <= set(METHODS)
    assert make_estimator("km-ncw", 4).weighting == "ncw"
    assert make_estimator("nc", 4).criterion == "nc"
    assert isinstance(make_estimator("lsi-km", 4), LSIClustering)
    assert isinstance(make_estimator("pca-km", 4), PCAClustering)


@pytest.mark.parametrize("method", BASELINES)
def test_recovers_planted_clusters(planted, container, method, distance_memberships_check):
    X, y = planted(150, 90, 3, seed=7)
    model = make_estimator(method, 3, random_state=0)
    labels = model.fit_predict(container(unit_rows(X)))
    assert clustering_accuracy(y, labels) == 1.0
    assert np.array_equal(labels, model.labels_)
    E = unit_rows(X) if method in ("km", "km-ncw") else model.embedding_
    D = [[np.sum((e - c) ** 2) for c in model.cluster_centers_] for e in np.asarray(E)]
    distance_memberships_check(model.memberships_, D, labels)
    assert model.centroids_.shape == (3, 90)
    assert model.objective_ >= 0 and model.n_iter_ >= 1
    # the keywords of a cluster come from its topic's block of terms
    blocks = np.array_split(np.arange(90), 3)
    names = [f"t{j}" for j in range(90)]
    for c, words in enumerate(model.top_keywords(names, 5)):
        topic = np.bincount(y[labels == c]).argmax()
        assert {int(w[1:]) for w in words} <= set(blocks[topic])


@pytest.mark.parametrize("method", BASELINES)
def test_sparse_equals_dense(method):
    X, _ = short_documents(seed=1)
    a = make_estimator(method, 3, random_state=5).fit(X)
    b = make_estimator(method, 3, random_state=5).fit(sp.csr_matrix(X))
    assert np.array_equal(a.labels_, b.labels_)
    assert a.objective_ == pytest.approx(b.objective_, rel=1e-8)


@pytest.mark.parametrize("method", BASELINES)
def test_same_seed_same_labels_and_clone(method):
    X, _ = short_documents(seed=2)
    a = make_estimator(method, 3, random_state=11).fit(X)
    b = clone(a).fit(X)
    assert np.array_equal(a.labels_, b.labels_)
    assert clone(a).get_params() == a.get_params()
    # a Generator is accepted and used inside fit only
    c = make_estimator(method, 3, random_state=np.random.default_rng(11)).fit(X)
    assert c.labels_.shape == a.labels_.shape


@pytest.mark.parametrize("method", BASELINES)
def test_errors(method):
    X, _ = short_documents(n_docs=20, seed=3)
    with pytest.raises(ValueError, match="larger than"):
        make_estimator(method, 21).fit(X)
    with pytest.raises(ValueError, match="n_clusters"):
        make_estimator(method, 0).fit(X)
    if method in ("km-ncw", "nc"):
        with pytest.raises(ValueError, match="Negative"):
            make_estimator(method, 2).fit(-X)
    else:
        make_estimator(method, 2, random_state=0).fit(X - X.mean())


def test_bad_options():
    X, _ = short_documents(n_docs=20, seed=3)
    with pytest.raises(ValueError, match="weighting"):
        KMeansClustering(2, weighting="bogus").fit(X)
    with pytest.raises(ValueError, match="criterion"):
        GraphCutClustering(2, criterion="bogus").fit(X)
    with pytest.raises(ValueError, match="n_components"):
        LSIClustering(2, n_components=0).fit(X)
    with pytest.raises(ValueError, match="n_init"):
        PCAClustering(2, n_init=0).fit(X)


# --- KM-NCW against Appendix A of Xu et al. ------------------------------------------------------


def weighted_lloyd(X, gamma, centers, n_iter=100):
    """Eqs. 19-20 by hand: assign to the nearest centre, move centres to weighted means."""
    for _ in range(n_iter):
        dist = ((X[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
        labels = dist.argmin(axis=1)
        new = np.array([np.average(X[labels == c], axis=0, weights=gamma[labels == c])
                        if np.any(labels == c) else centers[c] for c in range(len(centers))])
        if np.allclose(new, centers, rtol=0, atol=1e-14):
            break
        centers = new
    return labels, centers


def weighted_sse(X, gamma, labels, k):
    """J of eq. 19 with the weighted means of eq. 20."""
    J = 0.0
    for c in range(k):
        members = labels == c
        if members.any():
            mu = np.average(X[members], axis=0, weights=gamma[members])
            J += float(np.sum(gamma[members] * ((X[members] - mu) ** 2).sum(axis=1)))
    return J


def test_km_ncw_is_the_weighted_criterion_of_eq_19(container):
    X, _ = short_documents(n_docs=60, n_terms=30, seed=4)
    k = 3
    gamma = 1.0 / (X @ X.T @ np.ones(len(X)))  # D = diag(W e), the n x n form, fine here
    model = KMeansClustering(k, weighting="ncw", random_state=0).fit(container(X))
    np.testing.assert_allclose(model.sample_weight_, gamma, rtol=1e-12)
    # objective_ is J (eq. 19) of the returned partition, the centres its weighted means (eq. 20)
    assert model.objective_ == pytest.approx(weighted_sse(X, gamma, model.labels_, k), rel=1e-9)
    for c in range(k):
        members = model.labels_ == c
        np.testing.assert_allclose(model.cluster_centers_[c],
                                   np.average(X[members], axis=0, weights=gamma[members]),
                                   atol=1e-12)
    # a fixed point of the hand-written weighted Lloyd iteration
    labels, _ = weighted_lloyd(X, gamma, model.cluster_centers_.copy())
    assert np.array_equal(labels, model.labels_)
    # eq. 23: J = sum_i gamma_i |x_i|^2 - sum_k Y_k^T G^1/2 W G^1/2 Y_k,
    # with Y_k = G^1/2 S_k / |G^1/2 S_k| (G = diag(gamma))
    S = np.eye(k)[model.labels_]
    Y = np.sqrt(gamma)[:, None] * S
    Y /= np.linalg.norm(Y, axis=0)
    M = np.sqrt(gamma)[:, None] * (X @ X.T) * np.sqrt(gamma)[None, :]
    J23 = np.sum(gamma * (X**2).sum(axis=1)) - np.trace(Y.T @ M @ Y)
    assert model.objective_ == pytest.approx(J23, rel=1e-9)


def test_km_ncw_no_worse_than_weighted_lloyd(planted):
    X, _ = planted(60, 30, 3, seed=4, noise=0.3)
    X = unit_rows(X)
    gamma = 1.0 / (X @ X.T @ np.ones(len(X)))
    model = KMeansClustering(3, weighting="ncw", random_state=0).fit(sp.csr_matrix(X))
    rng = np.random.default_rng(0)
    starts = [X[rng.choice(60, 3, replace=False)] for _ in range(10)]
    best = min(weighted_sse(X, gamma, weighted_lloyd(X, gamma, c)[0], 3) for c in starts)
    assert model.objective_ <= best * (1 + 1e-9)


def test_sklearn_sample_weight_is_eq_19_lloyd():
    """From one start, scikit-learn's weighted k-means takes exactly the steps of eqs. 19-20."""
    X, _ = short_documents(n_docs=60, n_terms=30, seed=5)
    gamma = 1.0 / (X @ X.T @ np.ones(len(X)))
    start = X[[0, 20, 40]]
    labels, centers = weighted_lloyd(X, gamma, start.copy())
    km = KMeans(3, init=start, n_init=1, tol=0.0, max_iter=100).fit(X, sample_weight=gamma)
    assert np.array_equal(km.labels_, labels)
    np.testing.assert_allclose(km.cluster_centers_, centers, atol=1e-10)
    assert km.inertia_ == pytest.approx(weighted_sse(X, gamma, labels, 3), rel=1e-9)


def test_km_predict_places_new_documents(planted):
    X, y = planted(200, 60, 3, seed=9)
    X = unit_rows(X)
    for weighting in ("none", "ncw"):
        model = KMeansClustering(3, weighting=weighting, random_state=0).fit(X[:150])
        np.testing.assert_array_equal(model.predict(X[:150]), model.labels_)
        mapping = {c: np.bincount(y[:150][model.labels_ == c]).argmax() for c in range(3)}
        predicted = model.predict(sp.csr_matrix(X[150:]))
        assert np.mean([mapping[c] for c in predicted] == y[150:]) == 1.0


# --- AA and NC against the dense n x n eigenproblems of eq. 18 --------------------------------


@pytest.mark.parametrize("criterion", ["aa", "nc"])
def test_graph_cut_matches_dense_eigendecomposition(container, criterion):
    X, y = short_documents(seed=0)
    k = 3
    W = X @ X.T
    if criterion == "nc":
        d = W @ np.ones(len(X))
        W = W / np.sqrt(np.outer(d, d))
    values, Y = top_eigenvectors(W, k)
    model = GraphCutClustering(k, criterion=criterion, random_state=0).fit(container(X))
    E = model.embedding_
    np.testing.assert_allclose(E.T @ E, np.eye(k), atol=1e-10)
    np.testing.assert_allclose(E @ E.T, Y @ Y.T, atol=1e-8)  # same subspace
    np.testing.assert_allclose(model.eigenvalues_, values, rtol=1e-8)
    # k-means is rotation invariant, so clustering the reference eigenvectors gives the same
    # partition, even on data hard enough that neither finds the true classes
    reference = KMeans(k, n_init=10, random_state=123).fit(Y).labels_
    assert clustering_accuracy(reference, model.labels_) == 1.0
    assert clustering_accuracy(y, model.labels_) < 1.0


def test_nc_is_aa_on_weighted_documents():
    """Xu et al. App. A / Cai et al. 4.3: NC is AA applied to D^-1/2 X."""
    X, _ = short_documents(seed=6)
    d = X @ (X.T @ np.ones(len(X)))
    nc = GraphCutClustering(3, criterion="nc", random_state=2).fit(X)
    aa = GraphCutClustering(3, criterion="aa", random_state=2).fit(X / np.sqrt(d)[:, None])
    np.testing.assert_allclose(nc.embedding_, aa.embedding_, atol=1e-10)
    assert np.array_equal(nc.labels_, aa.labels_)


@pytest.mark.parametrize("criterion", ["aa", "nc"])
def test_graph_cut_criterion_matches_dense_cuts(criterion):
    X, _ = short_documents(n_docs=40, seed=7)
    labels = np.random.default_rng(0).integers(3, size=40)
    W = X @ X.T

    def cut(a, b):  # eq. 17
        return W[np.ix_(a, b)].sum()

    everything = np.arange(40)
    blocks = [np.flatnonzero(labels == c) for c in range(3)]
    if criterion == "aa":  # eq. 15, k-way
        expected = sum(cut(A, A) / len(A) for A in blocks)
    else:  # eq. 16, k-way
        expected = sum(cut(A, np.setdiff1d(everything, A)) / cut(A, everything) for A in blocks)
    assert graph_cut_criterion(sp.csr_matrix(X), labels, criterion) == pytest.approx(expected)
    model = GraphCutClustering(3, criterion=criterion, random_state=0).fit(X)
    assert model.criterion_ == pytest.approx(graph_cut_criterion(X, model.labels_, criterion))


def test_nc_row_normalize(planted):
    X, y = planted(150, 90, 3, seed=7)
    model = GraphCutClustering(3, criterion="nc", row_normalize=True, random_state=0).fit(X)
    np.testing.assert_allclose(np.linalg.norm(model.embedding_, axis=1), 1.0)
    assert clustering_accuracy(y, model.labels_) == 1.0


def test_more_clusters_than_terms():
    X, _ = short_documents(n_docs=30, n_terms=4, seed=8)
    model = GraphCutClustering(6, random_state=0).fit(sp.csr_matrix(X))
    assert model.embedding_.shape == (30, 4)  # W has rank 4: its other eigenvectors are arbitrary
    assert model.labels_.max() < 6


@pytest.mark.parametrize("method", ["aa", "nc", "km-ncw", "pca-km"])
def test_sparse_input_never_forms_n_by_n(method):
    n = 20000
    X = sp.random(n, 500, density=0.01, random_state=0, format="csr")
    model = make_estimator(method, 3, n_init=2, random_state=0)
    tracemalloc.start()
    try:
        model.fit(X)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64e6, peak  # an n x n float64 matrix would be 3.2e9 bytes
    assert model.labels_.shape == (n,)


# --- LSI and PCA against numpy's SVD -------------------------------------------------------------


def test_lsi_embedding_is_truncated_svd(container):
    X, _ = short_documents(seed=9)
    model = LSIClustering(3, n_components=4, random_state=0).fit(container(X))
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    E = match_signs(model.embedding_, U[:, :4])
    np.testing.assert_allclose(E, U[:, :4] * s[:4], atol=1e-8)
    np.testing.assert_allclose(model.singular_values_, s[:4], rtol=1e-8)
    np.testing.assert_array_equal(model.predict(container(X)), model.labels_)


def test_lsi_of_one_term_is_k_means_on_that_term(container):
    """TruncatedSVD refuses a single column; its SVD is the column itself (U S = x, V = 1)."""
    x = np.array([1.0, 1.1, 5.0, 5.2, 9.0, 9.3])[:, None]
    model = LSIClustering(3, random_state=0).fit(container(x))
    np.testing.assert_allclose(model.embedding_, x)
    np.testing.assert_allclose(model.singular_values_, [np.linalg.norm(x)])
    assert model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3] \
        != model.labels_[4] == model.labels_[5] != model.labels_[0]
    np.testing.assert_array_equal(model.predict(container(x)), model.labels_)


def test_pca_embedding_is_centred_svd(container):
    X, _ = short_documents(seed=10)
    model = PCAClustering(3, random_state=0).fit(container(X))
    Xc = X - X.mean(axis=0)
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    E = match_signs(model.embedding_, U[:, :3])
    np.testing.assert_allclose(E, U[:, :3] * s[:3], atol=1e-8)
    np.testing.assert_allclose(model.mean_, X.mean(axis=0), atol=1e-12)
    np.testing.assert_array_equal(model.predict(container(X)), model.labels_)


@pytest.mark.parametrize("cls", [LSIClustering, PCAClustering])
def test_projection_with_all_components(cls, container):
    """n_components >= min(X.shape): the full solvers, same coordinates as k-means sees."""
    X, _ = short_documents(n_docs=40, n_terms=5, seed=11)
    model = cls(3, n_components=10, random_state=0).fit(container(X))
    assert model.n_components_ == 5
    Xc = X - model.mean_
    # a full rotation: pairwise distances are those of the (centred) documents
    G = model.embedding_ @ model.embedding_.T
    np.testing.assert_allclose(G, Xc @ Xc.T, atol=1e-8)


# --- scikit-learn's estimator contract -----------------------------------------------------------


def _expected_failures(estimator):
    params = estimator.get_params()
    if params.get("weighting") == "ncw" or params.get("criterion") == "nc":
        # this check feeds standardized (negative) blobs and ignores the positive_only tag;
        # normalized-cut degrees need non-negative similarities, so the fit rightly refuses
        return {"check_clustering": "NC weights need non-negative data; the check ignores "
                                    "positive_only"}
    return {}


@parametrize_with_checks([KMeansClustering(3, n_init=2, random_state=0),
                          KMeansClustering(3, weighting="ncw", n_init=2, random_state=0),
                          GraphCutClustering(3, n_init=2, random_state=0),
                          GraphCutClustering(3, criterion="nc", n_init=2, random_state=0),
                          LSIClustering(3, n_init=2, random_state=0),
                          PCAClustering(3, n_init=2, random_state=0)],
                         expected_failed_checks=_expected_failures)
def test_sklearn_contract(estimator, check):
    check(estimator)


@pytest.mark.parametrize("sparse", [False, True])
def test_pca_on_identical_documents_says_why(sparse):
    from docnmf.baselines.lsi import PCAClustering

    X = np.tile([[1.0, 2.0, 0.0, 3.0]], (5, 1))
    with pytest.raises(ValueError, match="all 5 documents are the same vector"):
        PCAClustering(3, random_state=0).fit(sp.csr_matrix(X) if sparse else X)


_COPIES_SCRIPT = """
import json
from docnmf import DocumentVectorizer
from docnmf.baselines.lsi import LSIClustering, PCAClustering
texts = ["planet star telescope galaxy orbit"] * 10 + ["bank bonds shares market rates"] * 10
X = DocumentVectorizer(min_df=1).fit_transform(texts)
print(json.dumps([E(3, random_state=0).fit(X).labels_.tolist()
                  for E in (LSIClustering, PCAClustering)]))
"""


def test_lsi_and_pca_km_give_copies_one_cluster_the_same_in_every_process():
    """Copies' rows of U S differed by rounding, and the direction beyond the rank was noise
    that changed from process to process: the same seed split the copies differently."""
    import json
    import subprocess
    import sys

    runs = [json.loads(subprocess.run([sys.executable, "-c", _COPIES_SCRIPT], check=True,
                                      capture_output=True, text=True).stdout)
            for _ in range(4)]
    assert all(run == runs[0] for run in runs)
    for labels in runs[0]:
        assert len(set(labels[:10])) == 1 and len(set(labels[10:])) == 1


@pytest.mark.parametrize("method", ["km", "lsi-km", "nc"])
def test_kmeans_stopped_by_max_iter_says_so_as_the_factorizations_do(method):
    """scikit-learn's Lloyd loop ends at max_iter in silence; a factorization stopped there
    warns that it did not converge, and the k-means baselines said nothing."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning

    X, _ = short_documents()
    name = type(make_estimator(method, 3)).__name__
    # a matrix one iteration does not settle (short_documents' settle in one with nc)
    noise = np.random.RandomState(0).rand(60, 20)
    with pytest.warns(ConvergenceWarning, match=rf"^{name}: k-means ran all max_iter=1 "
                                                r"iterations and may not have converged; "
                                                r"raise max_iter$"):
        make_estimator(method, 3, n_init=2, max_iter=1, random_state=0).fit(noise)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = make_estimator(method, 3, n_init=2, random_state=0).fit(X)
    assert model.n_iter_ < 300


def test_kmeans_settled_on_its_last_allowed_iteration_does_not_warn():
    """A start whose labels stop changing on iteration max_iter has converged: n_iter_ ==
    max_iter alone said it "may not have converged" (a fit to 11 iterations that settles in
    11 warned, one to 300 with the same start did not)."""
    import warnings

    from sklearn.datasets import make_blobs
    from sklearn.exceptions import ConvergenceWarning

    from docnmf._estimator import kmeans_restarts

    E, _ = make_blobs(300, centers=4, random_state=1, cluster_std=3.0)
    free, _ = kmeans_restarts(E, 4, n_init=1, max_iter=300, tol=0.0, seed=0, name="T")
    m = int(free.n_iter_)
    assert 2 < m < 300
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        settled, _ = kmeans_restarts(E, 4, n_init=1, max_iter=m, tol=0.0, seed=0, name="T")
    np.testing.assert_array_equal(settled.labels_, free.labels_)
    # stopped while the labels still move: that is warned of
    with pytest.warns(ConvergenceWarning, match="^T: k-means ran all max_iter=3 "):
        kmeans_restarts(E, 4, n_init=1, max_iter=3, tol=0.0, seed=0, name="T")


def test_kmeans_with_settled_labels_but_moving_centres_is_warned_of():
    """Stopped two iterations before the labels are found unchanged, the last assignment
    already gives the converged labels, but the centres are the means of the one before: one
    more step leaves the labels and moves the centres (and the inertia, the memberships). Such
    a fit is not the converged one and went unwarned."""
    from sklearn.datasets import make_blobs
    from sklearn.exceptions import ConvergenceWarning

    from docnmf._estimator import kmeans_restarts

    E, _ = make_blobs(300, centers=4, random_state=1, cluster_std=3.0)
    free, _ = kmeans_restarts(E, 4, n_init=1, max_iter=300, tol=0.0, seed=0, name="T")
    m = int(free.n_iter_)
    assert m > 3
    with pytest.warns(ConvergenceWarning, match=rf"^T: k-means ran all max_iter={m - 2} "):
        early, _ = kmeans_restarts(E, 4, n_init=1, max_iter=m - 2, tol=0.0, seed=0, name="T")
    # the case in point: the labels are the converged ones, the centres and inertia are not
    np.testing.assert_array_equal(early.labels_, free.labels_)
    assert early.inertia_ > free.inertia_


@pytest.mark.parametrize("make, X", [
    (lambda: LSIClustering(1, random_state=0), np.array([[1.0, 2.0, 0.0, 3.0]])),
    (lambda: LSIClustering(2, random_state=0), np.ones((6, 10))),
    (lambda: PCAClustering(1, random_state=0), np.array([[1.0, 2.0, 0.0, 3.0]])),
])
def test_no_variance_to_explain_raises_no_numpy_warning(make, X, container):
    # the explained variance ratio the projections do not use is 0 / 0 for one document or
    # identical ones: numpy's 'invalid value encountered in divide' from inside scikit-learn
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", ConvergenceWarning)   # k-means: fewer clusters
        assert make().fit(container(X)).labels_.tolist() == [0] * X.shape[0]
