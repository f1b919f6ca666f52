"""ConsensusClustering: its members are what they say, the consensus clusters the co-association,
placement, checks, and the scikit-learn contract."""

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.cluster import KMeans
from sklearn.utils.estimator_checks import parametrize_with_checks

from docnmf._rng import child_generators
from docnmf.cluster import ConsensusClustering, NMFClustering
from docnmf.cluster._labels import constrained_spherical_kmeans
from docnmf.cluster.consensus import _weigh, indicator_matrix
from docnmf.corpus.synthetic import planted_topic_model, topic_documents
from docnmf.metrics import clustering_accuracy
from docnmf.text.vectorize import DocumentVectorizer
from docnmf.text.weighting import TfidfWeighting


def _expected_failures(estimator):
    return {"check_clustering": "the members need non-negative counts; the check ignores "
                                "positive_only"}


@parametrize_with_checks([ConsensusClustering(n_clusters=3, n_components=5, n_init=2,
                                              random_state=0)],
                         expected_failed_checks=_expected_failures)
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_sklearn_contract(estimator, check):
    check(estimator)


def _counts(seed=0, n=150, k=3):
    """Integer term counts with k planted topics (a Poisson draw around each topic's terms)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), n // k)
    rates = np.full((k, 60), 0.05)
    for c, block in enumerate(np.array_split(np.arange(60), k)):
        rates[c, block] = 1.5
    return rng.poisson(rates[y]).astype(float), y


def _children(seed, n_members):
    return child_generators(np.random.default_rng(seed), n_members + 1)


def test_each_nmf_member_is_nmf_on_its_weighting():
    X, _ = _counts()
    model = ConsensusClustering(3, random_state=5).fit(X)
    assert model.members_ == ["nmf-ncw/raw", "nmf/raw", "lsa/raw",
                              "nmf-ncw/sublinear", "nmf/sublinear", "lsa/sublinear"]
    children = _children(5, 6)
    sublinear = X.copy()
    sublinear[X > 0] = 1.0 + np.log(X[X > 0])
    for column, (name, child) in enumerate(zip(model.members_, children)):
        kind, tf = name.split("/")
        if kind == "lsa":
            continue
        W = TfidfWeighting().fit_transform(X if tf == "raw" else sublinear)
        expected = NMFClustering(3, weighting="ncw" if kind == "nmf-ncw" else "none",
                                 random_state=child).fit(W).labels_
        np.testing.assert_array_equal(model.member_labels_[:, column], expected, err_msg=name)


def test_the_lsa_member_is_kmeans_on_unit_lsi_coordinates():
    # rank 6 < the randomized SVD's 6 + 10 columns: its subspace is exact, as a dense SVD's
    rng = np.random.default_rng(3)
    topics = rng.random((6, 30)) * (rng.random((6, 30)) < 0.4)
    mix = rng.random((40, 6)) * (rng.random((40, 6)) < 0.5)
    mix[np.arange(40), rng.integers(0, 6, 40)] += 1.0       # no empty document
    X = mix @ topics
    assert np.linalg.matrix_rank(X) == 6
    model = ConsensusClustering(3, members=["lsa"], tf=["raw"], n_components=6,
                                random_state=9).fit(X)
    W = TfidfWeighting().fit_transform(X).toarray()
    U, s, _ = np.linalg.svd(W, full_matrices=False)
    Z = U[:, :6] * s[:6]
    Z /= np.linalg.norm(Z, axis=1, keepdims=True)
    child = _children(9, 1)[0]
    child.integers(np.iinfo(np.int32).max)       # the SVD's draw
    seed = int(child.integers(np.iinfo(np.int32).max))
    expected = KMeans(3, n_init=3, random_state=seed).fit_predict(Z)
    np.testing.assert_array_equal(model.member_labels_[:, 0], expected)


def test_consensus_is_kmeans_on_the_co_association_distances():
    """Squared distances between rows of B are 2 (m - a_ij), a_ij the members agreeing on i, j."""
    rng = np.random.default_rng(0)
    members = rng.integers(0, 4, size=(25, 5))
    B = indicator_matrix(members, 4).toarray()
    together = sum((members[:, [j]] == members[:, j]).astype(float) for j in range(5))
    D = ((B[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)
    np.testing.assert_array_equal(D, 2 * (5 - together))


def test_the_consensus_is_the_kept_kmeans_restart_on_the_indicators():
    X, _ = _counts(seed=4)
    model = ConsensusClustering(3, random_state=2, n_init=4, refine=None).fit(X)
    np.testing.assert_array_equal(model.consensus_labels_, model.labels_)
    B = indicator_matrix(model.member_labels_, 3).toarray()
    centres = np.array([B[model.labels_ == c].mean(axis=0) for c in range(3)])
    nearest = np.argmin(((B[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
    np.testing.assert_array_equal(nearest, model.labels_)
    assert model.objective_ == pytest.approx(((B - centres[model.labels_]) ** 2).sum())
    assert model.objective_ == pytest.approx(model.restart_objectives_.min())
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)
    np.testing.assert_array_equal(np.argmax(model.memberships_, axis=1), model.labels_)


def test_sublinear_counts_below_one_count_as_one():
    X = np.array([[0.5, 2.0, 0.0], [1.0, 0.0, 3.0], [0.0, 1.0, 1.0]])
    a = ConsensusClustering(2, members=["nmf"], tf=["sublinear"], random_state=0).fit(X)
    b = ConsensusClustering(2, members=["nmf"], tf=["sublinear"], random_state=0).fit(
        np.where(X == 0.5, 1.0, X))
    np.testing.assert_array_equal(a.member_labels_, b.member_labels_)


def test_recovers_planted_topics_of_a_synthetic_corpus():
    topics = planted_topic_model(n_topics=4, vocabulary_size=2000, mean_length=60, seed=1)
    texts, y = topic_documents(topics, 300, np.random.default_rng(1))
    counts = DocumentVectorizer().fit_count(texts)
    model = ConsensusClustering(4, random_state=0).fit(counts)
    assert clustering_accuracy(y, model.labels_) > 0.95
    assert model.member_agreement_.shape == (6,)
    assert np.all((0 <= model.member_agreement_) & (model.member_agreement_ <= 1))


def test_a_weighted_matrix_for_counts_is_named():
    import warnings

    topics = planted_topic_model(n_topics=3, vocabulary_size=300, mean_length=40, seed=2)
    texts, _ = topic_documents(topics, 60, np.random.default_rng(2))
    vectorizer = DocumentVectorizer()
    counts, tfidf = vectorizer.fit_count(texts), vectorizer.transform(texts)
    with pytest.warns(UserWarning, match="weighs term counts itself .* but X has fractional "
                                         "entries"):
        ConsensusClustering(3, n_init=2, random_state=0).fit(tfidf)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ConsensusClustering(3, n_init=2, random_state=0).fit(counts)


def test_the_counts_the_warning_asks_for_can_be_made_as_it_says():
    # the warning's advice, run as written on a new vectorizer, gives the counts: it named
    # DocumentVectorizer().count, which needs a fitted vectorizer and raised NotFittedError
    import re

    topics = planted_topic_model(n_topics=3, vocabulary_size=300, mean_length=40, seed=2)
    texts, _ = topic_documents(topics, 60, np.random.default_rng(2))
    tfidf = DocumentVectorizer().fit_transform(texts)
    with pytest.warns(UserWarning, match="fractional entries") as caught:
        ConsensusClustering(3, n_init=2, random_state=0).fit(tfidf)
    advice = re.search(r"\((DocumentVectorizer\(\)\.\w+)\(texts\)\)", str(caught[0].message))
    assert advice is not None, str(caught[0].message)
    counts = eval(advice.group(1), {"DocumentVectorizer": DocumentVectorizer})(texts)
    assert counts.shape == tfidf.shape
    assert np.array_equal(counts.data, np.round(counts.data))


def test_new_documents_go_to_the_most_similar_mean_document():
    X, y = _counts(seed=2)
    model = ConsensusClustering(3, random_state=0).fit(sp.csr_matrix(X))
    assert clustering_accuracy(y, model.labels_) == 1.0
    W = TfidfWeighting().fit(X)
    new = np.round(np.random.default_rng(8).poisson(np.full((5, 60), 0.3)) + X[[0, 60, 120, 1, 2]])
    D = W.transform(new).toarray()
    cosine = D @ (model.centroids_ / np.linalg.norm(model.centroids_, axis=1, keepdims=True)).T
    np.testing.assert_array_equal(model.predict(new), np.argmax(cosine, axis=1))
    M = model.predict_memberships(new)
    np.testing.assert_allclose(M.sum(axis=1), 1.0)
    np.testing.assert_array_equal(np.argmax(M, axis=1), model.predict(new))


def test_same_seed_same_result_and_sparse_equals_dense():
    X, _ = _counts(seed=6)
    a = ConsensusClustering(3, random_state=11).fit(X)
    b = ConsensusClustering(3, random_state=11).fit(sp.csr_matrix(X))
    np.testing.assert_array_equal(a.member_labels_, b.member_labels_)
    np.testing.assert_array_equal(a.labels_, b.labels_)


@pytest.mark.parametrize("params, message", [
    ({"members": ["nmf", "svd"]}, "members must be"),
    ({"members": "nmf"}, "members must be"),
    ({"tf": []}, "tf must be"),
    ({"tf": ["raw", "raw"]}, "tf must be"),
    ({"members": None}, "members must be"),       # len(None): a TypeError naming nothing
    ({"tf": 1.5}, "tf must be"),
    ({"members": [["nmf"]]}, "members must be"),  # set([["nmf"]]): unhashable list
    ({"n_components": 0}, "n_components must be a positive integer"),
    ({"n_init": 1.5}, "n_init must be a positive integer"),
])
def test_bad_parameters_are_refused(params, message):
    X, _ = _counts()
    with pytest.raises(ValueError, match=message):
        ConsensusClustering(3, **params).fit(X)


def test_negative_counts_are_refused():
    with pytest.raises(ValueError, match="Negative values"):
        ConsensusClustering(2).fit(np.array([[1.0, -1.0], [0.0, 2.0], [1.0, 1.0]]))


def test_terms_in_every_document_leave_nothing_to_cluster():
    with pytest.raises(ValueError, match="every term occurs in every one of the n_samples=3"):
        ConsensusClustering(2).fit(np.array([[1.0, 2.0], [3.0, 1.0], [1.0, 1.0]]))


def reference_spherical_kmeans(X, labels, k, rounds=30):
    """Dense, from the definition: unit documents, unit mean directions, most similar wins."""
    X = np.asarray(X, dtype=float)
    X = X / np.linalg.norm(X, axis=1, keepdims=True)
    labels = labels.copy()
    for _ in range(rounds):
        centres = np.zeros((k, X.shape[1]))
        for c in range(k):
            if np.any(labels == c):
                total = X[labels == c].sum(axis=0)
                centres[c] = total / np.linalg.norm(total)
        sims = X @ centres.T
        new = sims.argmax(axis=1)
        if np.array_equal(new, labels):
            break
        labels = new
    return labels


@pytest.mark.parametrize("tf", ["sublinear", "raw"])
def test_refining_is_spherical_kmeans_on_tfidf_from_the_consensus(tf):
    # topics that overlap (rates 0.5 against 0.25), so the refinement has documents to move
    rng = np.random.default_rng(0)
    rates = np.full((4, 60), 0.25)
    for c, block in enumerate(np.array_split(np.arange(60), 4)):
        rates[c, block] = 0.5
    X = rng.poisson(rates[np.repeat(np.arange(4), 40)]).astype(float)
    plain = ConsensusClustering(4, random_state=2, n_init=4, refine=None).fit(X)
    model = ConsensusClustering(4, random_state=2, n_init=4, refine=tf).fit(X)
    np.testing.assert_array_equal(model.consensus_labels_, plain.labels_)
    W, _ = _weigh(sp.csr_matrix(X, dtype=float), tf)
    expected = reference_spherical_kmeans(W.toarray(), plain.labels_, 4)
    assert np.sum(expected != plain.labels_) >= 3
    np.testing.assert_array_equal(model.labels_, expected)
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)
    np.testing.assert_array_equal(np.argmax(model.memberships_, axis=1), model.labels_)


def test_groups_without_cannot_links_move_as_the_one_by_one_visit_would_move_them():
    """Groups with no cannot-link are placed all at once; the result is the visit in order."""
    rng = np.random.default_rng(3)
    E = rng.random((40, 6)) ** 3
    group = rng.integers(0, 25, size=40)
    cannot = rng.integers(0, 25, size=(6, 2))
    cannot = cannot[cannot[:, 0] != cannot[:, 1]]
    start = rng.integers(0, 3, size=40)

    def one_by_one(E, k, group, cannot, start, penalty=1.0, max_iter=50):
        E = E / np.linalg.norm(E, axis=1, keepdims=True)
        m = group.max() + 1
        P = np.zeros((m, E.shape[1]))
        np.add.at(P, group, E)
        votes = np.zeros((m, k))
        np.add.at(votes, (group, start), 1)
        labels = votes.argmax(axis=1)
        sizes = np.bincount(group, minlength=m)
        for _ in range(max_iter):
            centres = np.zeros((k, E.shape[1]))
            for c in range(k):
                total = P[labels == c].sum(axis=0)
                if np.linalg.norm(total) > 0:
                    centres[c] = total / np.linalg.norm(total)
            sims = P @ centres.T
            moved = 0
            for a in np.argsort(-sizes, kind="stable"):
                cost = -sims[a].copy()
                for x, y in cannot:
                    if a in (x, y):
                        cost[labels[y if a == x else x]] += penalty
                best = int(np.argmin(cost))
                moved += best != labels[a]
                labels[a] = best
            if not moved:
                break
        return labels[group]

    got = constrained_spherical_kmeans(E, 3, group, cannot, start)
    np.testing.assert_array_equal(got, one_by_one(E, 3, group, cannot, start))
    got = constrained_spherical_kmeans(E, 3, group, np.empty((0, 2), int), start)
    np.testing.assert_array_equal(got, one_by_one(E, 3, group, np.empty((0, 2), int), start))
