"""Label rules on a fitted document factor: argmax, spherical k-means on V, refined k-means."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.cluster._labels import labels_from_factor
from docnmf.cluster.nmf import NMFClustering
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
    labels = labels_from_factor(V, "skmeans", np.random.default_rng(0))
    assert labels[0] == labels[3] == labels[4]


def test_refine_moves_a_document_argmax_misplaced():
    X = np.array([[1.0, 0, 0], [0.9, 0.1, 0], [0, 1.0, 0.1], [0, 0.9, 0], [0.95, 0.05, 0]])
    V = np.array([[1.0, 0], [1.0, 0], [0, 1.0], [0, 1.0], [0.1, 0.9]])  # the last is wrong
    labels = labels_from_factor(V, "refine", np.random.default_rng(0), X=X)
    assert labels[4] == labels[0] == labels[1] != labels[2]


def test_refine_fills_clusters_argmax_left_empty():
    X = np.eye(4) + 0.01
    V = np.array([[1.0, 0, 0], [1.0, 0, 0], [1.0, 0, 0], [1.0, 0, 0]])
    labels = labels_from_factor(V, "refine", np.random.default_rng(0), X=X)
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
