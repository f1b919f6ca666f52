"""Label rules on a fitted document factor: argmax, spherical k-means on V, refined k-means."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.cluster._labels import labels_from_factor
from docnmf.cluster.nmf import NMFClustering, new_document_factor
from docnmf.metrics import clustering_accuracy


def test_argmax_reads_the_factor_and_the_rules_share_one_factorization(planted):
    X, _ = planted(90, 45, 3, seed=1)
    argmax = NMFClustering(3, labels="argmax", random_state=0).fit(X)
    np.testing.assert_array_equal(argmax.labels_, np.argmax(argmax.embedding_, axis=1))
    skmeans = NMFClustering(3, labels="skmeans", random_state=0).fit(X)
    assert NMFClustering(3).labels == "argmax"
    np.testing.assert_array_equal(skmeans.embedding_, argmax.embedding_)


def test_the_paper_presets_keep_argmax():
    from docnmf.methods import make_estimator

    for method in ("nmf", "nmf-ncw"):
        assert make_estimator(method, 3, as_published=True).labels == "argmax"
        assert make_estimator(method, 3, labels="skmeans").labels == "skmeans"


@pytest.mark.parametrize("rule", ["kmeans", "skmeans", "refine"])
@pytest.mark.parametrize("weighting", ["none", "ncw"])
def test_rules_recover_planted_clusters(planted, rule, weighting):
    X, y = planted(120, 60, 4, seed=3)
    X = sp.csr_matrix(X)
    model = NMFClustering(4, weighting=weighting, labels=rule, random_state=0).fit(X)
    assert model.labels_.shape == (120,) and model.labels_.dtype == np.int64
    assert clustering_accuracy(y, model.labels_) > 0.95
    again = NMFClustering(4, weighting=weighting, labels=rule, random_state=0).fit(X)
    np.testing.assert_array_equal(model.labels_, again.labels_)


def test_skmeans_reads_the_mix_of_topics_not_the_length():
    # rows 0 and 3 have the same direction at very different lengths
    V = np.array([[1.0, 1.0], [1.0, 0.0], [0.0, 1.0], [10.0, 10.0], [0.9, 1.1], [2.0, 0.1]])
    labels, _ = labels_from_factor(V, "skmeans", np.random.default_rng(0))
    assert labels[0] == labels[3] == labels[4]


def test_refine_moves_a_document_argmax_misplaced():
    X = np.array([[1.0, 0, 0], [0.9, 0.1, 0], [0, 1.0, 0.1], [0, 0.9, 0], [0.95, 0.05, 0]])
    V = np.array([[1.0, 0], [1.0, 0], [0, 1.0], [0, 1.0], [0.1, 0.9]])  # the last is wrong
    labels, _ = labels_from_factor(V, "refine", np.random.default_rng(0), X=X)
    assert labels[4] == labels[0] == labels[1] != labels[2]


def test_refine_fills_clusters_argmax_left_empty():
    X = np.eye(4) + 0.01
    V = np.array([[1.0, 0, 0], [1.0, 0, 0], [1.0, 0, 0], [1.0, 0, 0]])
    labels, _ = labels_from_factor(V, "refine", np.random.default_rng(0), X=X)
    assert len(np.unique(labels)) == 3


def test_unknown_rule_is_refused(planted):
    X, _ = planted(30, 20, 2, seed=0)
    with pytest.raises(ValueError, match="labels must be one of"):
        NMFClustering(2, labels="vote").fit(X)
    with pytest.raises(ValueError, match="needs the documents"):
        labels_from_factor(np.ones((3, 2)), "refine", np.random.default_rng(0))


@pytest.mark.parametrize("rule", ["kmeans", "skmeans", "refine"])
def test_clusters_are_numbered_after_the_topics_they_match(planted, rule):
    X, _ = planted(120, 60, 4, seed=5)
    model = NMFClustering(4, labels=rule, random_state=0).fit(X)
    argmax = np.argmax(model.embedding_, axis=1)
    # the same partition as argmax on this planted data, and the same numbers
    assert np.mean(model.labels_ == argmax) > 0.95


def _mixed_topics(seed=0, n=300, n_terms=200, k=4):
    """Counts of documents that mix k topics (Dirichlet 0.3): the k-means rules and the argmax
    part ways on many of them."""
    rng = np.random.default_rng(seed)
    topics = rng.gamma(0.3, 1.0, (n_terms, k))
    mix = rng.dirichlet([0.3] * k, n)
    X = rng.poisson(30 * mix @ topics.T / topics.sum(axis=0).mean()).astype(float)
    return X[X.sum(axis=1) > 0]


def _nearest_by_hand(points, centres) -> np.ndarray:
    """Index of the nearest centre of each point, one distance at a time."""
    nearest = []
    for p in points:
        distances = [sum((a - b) ** 2 for a, b in zip(p, c)) for c in centres]
        nearest.append(distances.index(min(distances)))
    return np.array(nearest)


def _unit(A):
    A = np.asarray(A.toarray() if sp.issparse(A) else A, dtype=float)
    return A / np.linalg.norm(A, axis=1, keepdims=True)


@pytest.mark.parametrize("rule", ["kmeans", "skmeans", "refine"])
@pytest.mark.parametrize("weighting", ["none", "ncw"])
def test_k_means_rules_place_documents_by_the_centres_their_labels_came_from(rule, weighting):
    X = _mixed_topics()
    fit, new = X[:240], X[240:]
    model = NMFClustering(4, weighting=weighting, labels=rule, random_state=0).fit(fit)
    assert model.cluster_centers_.shape[0] == 4
    # the largest membership is the label, in the fit and in fit_transform
    np.testing.assert_array_equal(np.argmax(model.memberships_, axis=1), model.labels_)
    # new documents go to the nearest centre in the rule's coordinates
    V = new_document_factor(new, model.components_,
                            model.ncw_column_sums_ if weighting == "ncw" else None)
    points = {"kmeans": V, "skmeans": _unit(V), "refine": _unit(new)}[rule]
    np.testing.assert_array_equal(model.predict(new),
                                  _nearest_by_hand(points, model.cluster_centers_))
    # so the fitted documents, placed again, keep (nearly all) their labels
    assert np.mean(model.predict(fit) == model.labels_) > 0.99


def test_argmax_keeps_no_centres_and_a_refit_drops_them():
    X = _mixed_topics(n=80)
    model = NMFClustering(4, labels="skmeans", random_state=0).fit(X)
    assert hasattr(model, "cluster_centers_")
    model.set_params(labels="argmax").fit(X)
    assert not hasattr(model, "cluster_centers_")
    np.testing.assert_array_equal(model.predict(X[:5]), np.argmax(model.transform(X[:5]), axis=1))


@pytest.mark.parametrize("rule", ["kmeans", "refine"])
def test_a_saved_k_means_rule_places_as_the_fitted_one(rule, tmp_path):
    import docnmf

    X = sp.csr_matrix(_mixed_topics(n=120))
    model = NMFClustering(4, labels=rule, random_state=0).fit(X)
    loaded = docnmf.load(docnmf.save(model, tmp_path / "model"))
    np.testing.assert_array_equal(loaded.cluster_centers_, model.cluster_centers_)
    np.testing.assert_array_equal(loaded.predict_memberships(X), model.predict_memberships(X))
