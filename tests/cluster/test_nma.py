"""NMAClustering: planted disjoint and overlapping clusters, the three input forms, the contract."""

import itertools
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

from docnmf.cluster.nma import NMAClustering
from docnmf.metrics import clustering_accuracy


def _vocabularies(n_topics: int, size: int, seed: int) -> list[list[str]]:
    """Distinct pronounceable pseudo-words per topic (letters only, so they survive tokenizing)."""
    rng = np.random.default_rng(seed)
    consonants, vowels = "bcdfgklmnprstvz", "aeiou"
    words: set[str] = set()
    while len(words) < n_topics * size:
        words.add("".join(rng.choice(list(consonants)) + rng.choice(list(vowels))
                          for _ in range(3)))
    words = sorted(words)
    rng.shuffle(words)
    return [words[t * size:(t + 1) * size] for t in range(n_topics)]


class PlantedText:
    """Sentences drawn from one topic's vocabulary plus a few words shared by all topics."""

    def __init__(self, n_topics=4, seed=0):
        vocab = _vocabularies(n_topics + 1, 25, seed)
        self.topics, self.common = vocab[:n_topics], vocab[n_topics]
        self.rng = np.random.default_rng(seed + 1)

    def sentence(self, topic: int) -> str:
        words = list(self.rng.choice(self.topics[topic], 7)) + list(self.rng.choice(self.common, 2))
        self.rng.shuffle(words)
        return " ".join(words).capitalize() + "."

    def segment(self, topic: int, n_sentences: int = 3) -> str:
        return " ".join(self.sentence(topic) for _ in range(n_sentences))


def _same_partition(truth, found) -> bool:
    return clustering_accuracy(np.asarray(truth), np.asarray(found)) == 1.0


def test_disjoint_planted_recovery_from_raw_texts():
    gen = PlantedText(n_topics=3, seed=1)
    y = np.repeat(np.arange(3), 12)
    texts = [" ".join(gen.segment(t) for _ in range(3)) for t in y]
    model = NMAClustering(3, n_topics=4, n_segments=3, n_init=3, random_state=0).fit(texts)
    assert _same_partition(y, model.labels_)
    assert model.memberships_.shape == (36, 3)
    assert model.topic_distributions_.shape == (36, 4)
    np.testing.assert_allclose(model.topic_distributions_.sum(axis=1), 1.0)
    assert len(model.segments_) == 36 and all(len(s) == 3 for s in model.segments_)
    assert not hasattr(model, "overlapping_labels_")
    # cluster keywords come from the planted vocabularies (stemmed forms)
    stems = model.vectorizer_.get_feature_names_out()
    assert all(len(words) == 5 for words in model.top_keywords(n=5))
    assert set(model.top_keywords(n=5)[0]) <= set(stems)


def test_overlapping_clustering_gives_every_document_both_of_its_topics():
    gen = PlantedText(n_topics=4, seed=2)
    pairs = list(itertools.combinations(range(4), 2)) * 6     # 36 documents, two topics each
    docs = [[gen.segment(a), gen.segment(b), gen.segment(a if i % 2 else b)]
            for i, (a, b) in enumerate(pairs)]
    model = NMAClustering(4, n_topics=6, n_segments=3, overlapping=True, n_init=3,
                          random_state=0).fit(docs)
    # segment labels must follow the planted topics up to one relabelling
    truth = np.array([[a, b, a if i % 2 else b] for i, (a, b) in enumerate(pairs)])
    assert _same_partition(truth.ravel(), model.segment_labels_.ravel())
    mapping = {int(t): int(c) for t, c in zip(truth.ravel(), model.segment_labels_.ravel())}
    for (a, b), found in zip(pairs, model.overlapping_labels_):
        assert found == {mapping[a], mapping[b]}
    # the single label is the majority segment label; memberships count segments
    for i, (a, b) in enumerate(pairs):
        assert model.labels_[i] == mapping[a if i % 2 else b]
    np.testing.assert_allclose(model.memberships_.sum(axis=1), 1.0)
    assert set(np.unique(model.memberships_)) <= {0.0, 1 / 3, 2 / 3}


def test_overlapping_from_raw_texts_with_the_sentence_segmenter():
    gen = PlantedText(n_topics=3, seed=3)
    pairs = list(itertools.combinations(range(3), 2)) * 6
    texts = [gen.segment(a, 3) + " " + gen.segment(b, 3) for a, b in pairs]
    model = NMAClustering(3, n_topics=4, n_segments=2, overlapping=True, n_init=2,
                          random_state=1).fit(texts)
    assert all(len(labels) == 2 for labels in model.overlapping_labels_)
    truth = np.array(pairs)
    assert _same_partition(truth.ravel(), model.segment_labels_.ravel())


def test_matrix_input_pads_short_documents():
    rng = np.random.default_rng(4)
    blocks = np.zeros((3, 30))
    for t in range(3):
        blocks[t, 10 * t:10 * t + 10] = 1.0
    y = np.repeat(np.arange(3), 8)
    docs = []
    for i, t in enumerate(y):
        n_seg = 3 if i % 3 else 2                           # some documents have 2 segments
        A = blocks[t] * rng.random((n_seg, 30)) + 0.01 * rng.random((n_seg, 30))
        docs.append(sp.csr_matrix(A) if i % 2 else A)
    model = NMAClustering(3, n_topics=3, n_segments=3, overlapping=True, n_init=2,
                          random_state=0).fit(docs)
    assert _same_partition(y, model.labels_)
    assert np.all(model.segment_labels_[::3, 2] == -1)       # the padded slots
    assert all(len(s) == 1 for s in model.overlapping_labels_)
    with pytest.raises(ValueError, match="feature_names"):
        model.top_keywords()
    assert len(model.top_keywords([f"t{j}" for j in range(30)], n=3)) == 3


def test_same_seed_same_result_and_clone():
    gen = PlantedText(n_topics=2, seed=5)
    docs = [[gen.segment(t), gen.segment(t)] for t in [0, 1] * 6]
    a = NMAClustering(2, n_topics=3, n_segments=2, n_init=2, random_state=7).fit(docs)
    b = clone(a).fit(docs)
    assert np.array_equal(a.labels_, b.labels_)
    np.testing.assert_allclose(a.loss_history_, b.loss_history_)
    assert clone(a).get_params() == a.get_params()
    assert a.restart_objectives_.shape == (2,) and a.objective_ == a.restart_objectives_.min()
    assert np.array_equal(a.fit_predict(docs), a.labels_)


def test_objective_never_increases_in_each_stage():
    gen = PlantedText(n_topics=3, seed=6)
    docs = [[gen.segment(t), gen.segment((t + 1) % 3), gen.segment(t)] for t in [0, 1, 2] * 5]
    model = NMAClustering(3, n_topics=(3, 2), n_segments=3, n_init=1, joint_max_iter=20,
                          tol=1e-8, random_state=0).fit(docs)
    for stage, losses in model.stage_loss_history_.items():
        assert np.all(np.diff(losses) <= 1e-10 * losses[0]), stage
    assert model.cores_.shape == (15, 3, 2) and model.segment_basis_.shape == (3, 2)


@pytest.mark.parametrize("params, message", [
    ({"n_topics": (2,)}, "n_topics must be a positive integer or a pair, got (2,)"),
    ({"n_topics": (2, 2, 2)}, "n_topics must be a positive integer or a pair, got (2, 2, 2)"),
    ({"joint_max_iter": 1.5}, "joint_max_iter must be a non-negative integer, got 1.5"),
    ({"joint_max_iter": None}, "joint_max_iter must be a non-negative integer, got None"),
    ({"joint_max_iter": "x"}, "joint_max_iter must be a non-negative integer, got 'x'"),
    ({"joint_max_iter": -1}, "joint_max_iter must be a non-negative integer, got -1"),
])
def test_topic_counts_and_joint_rounds_are_named_when_wrong(params, message):
    # a pair of the wrong length was Python's own unpacking error, 1.5 joint rounds ran as 1,
    # and None a TypeError from int() that named nothing
    with pytest.raises(ValueError, match=re.escape(message)):
        NMAClustering(2, n_segments=1, **params).fit([np.ones((1, 3)), np.eye(1, 3)])


def test_input_errors():
    with pytest.raises(ValueError, match="at most 2"):
        NMAClustering(2, n_segments=2).fit([["a b", "c d", "e f"], ["a", "b"]])
    with pytest.raises(ValueError, match="unknown segmenter"):
        NMAClustering(2, segmenter="magic").fit(["a b. c d.", "e f. g h."])
    with pytest.raises(ValueError, match="n_topics"):
        NMAClustering(2, n_topics=0).fit(["a b. c d.", "e f. g h."])
    with pytest.raises(TypeError):
        NMAClustering(2).fit("just one string")
    with pytest.raises(ValueError, match="larger than"):
        NMAClustering(5, n_segments=1).fit([np.ones((1, 3)), np.ones((1, 3))])
    # a missing text was the word "nan", in every document that lacked one
    with pytest.raises(ValueError, match="document 2 is float nan, not a string"):
        NMAClustering(2).fit(["a b. c d.", "e f. g h.", float("nan")])
    with pytest.raises(ValueError, match="segment 1 of document 1 is NoneType"):
        NMAClustering(2, n_segments=2).fit([["a b", "c d"], ["e f", None]])
    with pytest.raises(TypeError, match="document 1 is str 'e f'"):
        NMAClustering(2, n_segments=2).fit([["a b", "c d"], "e f"])
    # more term topics than terms: minutes of fitting for a worse result, without a word
    with pytest.raises(ValueError, match="n_topics=500 asks for 500 term topics of documents "
                                         "with 3 terms: at most 3 can differ"):
        NMAClustering(2, n_topics=500).fit([np.ones((1, 3)), np.eye(1, 3)])
    # the default (3 k) is left to the data
    assert NMAClustering(2, n_init=1).fit([np.ones((1, 3)), np.eye(1, 3)]).labels_.shape == (2,)


@pytest.mark.parametrize("overlapping", [False, True])
@pytest.mark.parametrize("joint_max_iter", [0, 5])
def test_new_documents_go_to_their_topics_cluster(overlapping, joint_max_iter):
    gen = PlantedText(n_topics=3, seed=6)
    y = np.repeat(np.arange(3), 12)
    texts = [" ".join(gen.segment(t) for _ in range(3)) for t in y]
    model = NMAClustering(3, n_topics=4, n_segments=3, overlapping=overlapping, n_init=3,
                          joint_max_iter=joint_max_iter, random_state=0).fit(texts)
    assert _same_partition(y, model.labels_)
    mapping = {int(t): int(c) for t, c in zip(y, model.labels_)}
    # fitted documents placed again land where the fit put them
    assert np.mean(model.predict(texts) == model.labels_) >= 0.9
    y_new = np.array([2, 0, 1, 1, 0, 2])
    new = [" ".join(gen.segment(t) for _ in range(3)) for t in y_new]
    np.testing.assert_array_equal(model.predict(new), [mapping[t] for t in y_new])
    M = model.predict_memberships(new)
    assert M.shape == (6, 3)
    np.testing.assert_allclose(M.sum(axis=1), 1.0)
    if not overlapping:
        np.testing.assert_array_equal(np.argmax(M, axis=1), model.predict(new))


def test_its_tags_say_it_reads_texts_not_matrices():
    """It declared 2-d and sparse input, which it refuses: scikit-learn's checks then failed
    about 20 times feeding it matrices."""
    import warnings

    from sklearn.utils import get_tags
    from sklearn.utils.estimator_checks import check_estimator

    tags = get_tags(NMAClustering(2)).input_tags
    assert tags.string and not tags.two_d_array and not tags.sparse
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(NMAClustering(2, n_init=1), on_fail=None)
    assert [r["check_name"] for r in results if r["status"] == "failed"] == []


def test_segments_of_a_word_or_two_are_warned_of():
    long_text = ("Rates rose again today. The bank lifted rates. Inflation and rates fell. "
                 "Bond yields fell too.")
    docs = ["The cat sat on the mat. Dogs ran.", long_text, long_text.lower()]
    with pytest.warns(UserWarning, match=r"1 of the 3 documents has fewer than 3 words per "
                                         r"segment with n_segments=4 \(the shortest has 8 "
                                         r"words\)"):
        NMAClustering(2, n_segments=4, n_init=1, random_state=0).fit(docs)
    # long enough for two segments (one of them a short sentence): no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NMAClustering(2, n_segments=2, n_init=1, random_state=0).fit(docs)
        # segments given, fewer than n_segments: the empty slots padding them are no segments
        given = [["the cat sat on the mat", "dogs ran far away today"]] * 2 + \
            [["rates rose again this week", "the bank cut its rates"]] * 2
        NMAClustering(2, n_segments=4, n_init=1, random_state=0).fit(given)


def test_fewer_topics_than_clusters_are_warned_of():
    gen = PlantedText(n_topics=3, seed=2)
    texts = [gen.segment(t) for t in np.repeat(np.arange(3), 6)]
    with pytest.warns(UserWarning, match="n_topics=2 gives each document a mixture of 2 topics, "
                                         "fewer than the n_clusters=3 clusters"):
        NMAClustering(3, n_topics=2, n_init=1, random_state=0).fit(texts)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        NMAClustering(3, n_topics=3, n_init=1, random_state=0).fit(texts)


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_matrices_with_nan_inf_or_nothing_are_refused_as_the_other_methods_refuse_them(value):
    """Per-document matrices holding NaN or inf were clustered, and all-zero ones fitted with
    only scikit-learn's warning; the README says such input is refused."""
    rng = np.random.default_rng(0)
    docs = [rng.random((2, 5)) for _ in range(6)]
    docs[1][0, 0] = value
    with pytest.raises(ValueError, match="NaN or infinite"):
        NMAClustering(2, n_segments=2).fit(docs)
    for zeros in (sp.csr_matrix((2, 5)), sp.csr_matrix((np.zeros(1), ([0], [0])), shape=(2, 5))):
        with pytest.raises(ValueError, match="all zero"):
            NMAClustering(2, n_segments=2).fit([zeros] * 6)
