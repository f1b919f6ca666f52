"""Metrics: permutation invariance, bounds, perfect match, hand-computed values."""

import math

import numpy as np
import pytest

from docnmf.metrics import best_mapping, clustering_accuracy, confusion_matrix, nmi, purity


def test_hand_computed_example():
    # classes a a a b b c ; clusters 0 0 1 1 1 2
    y = list("aaabbc")
    p = [0, 0, 1, 1, 1, 2]
    # best map: 0->a (2), 1->b (2), 2->c (1) => 5/6
    assert clustering_accuracy(y, p) == pytest.approx(5 / 6)
    assert purity(y, p) == pytest.approx(5 / 6)
    # MI by hand (bits): joint cells 2/6, 1/6, 2/6, 1/6
    pa, pb, pc = 3 / 6, 2 / 6, 1 / 6
    q0, q1, q2 = 2 / 6, 3 / 6, 1 / 6
    mi = (2 / 6) * math.log2((2 / 6) / (pa * q0)) + (1 / 6) * math.log2((1 / 6) / (pa * q1)) \
        + (2 / 6) * math.log2((2 / 6) / (pb * q1)) + (1 / 6) * math.log2((1 / 6) / (pc * q2))
    h = -sum(x * math.log2(x) for x in (pa, pb, pc))
    assert nmi(y, p) == pytest.approx(mi / h)  # both entropies equal here
    assert best_mapping(y, p) == {0: "a", 1: "b", 2: "c"}


def test_textbook_nmi_value():
    # Manning, Raghavan & Schuetze, Introduction to IR, Fig. 16.4 example: NMI (arithmetic) = 0.36
    y = ["x"] * 5 + ["o"] * 1 + ["x"] * 1 + ["o"] * 4 + ["d"] * 1 + ["x"] * 2 + ["d"] * 3
    p = [0] * 6 + [1] * 6 + [2] * 5
    assert nmi(y, p, normalization="arithmetic") == pytest.approx(0.36, abs=0.005)
    assert purity(y, p) == pytest.approx(12 / 17)


def test_perfect_and_permutation_invariance():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 200)
    perm = np.array([2, 0, 3, 1])
    for f in (clustering_accuracy, nmi, purity):
        assert f(y, perm[y]) == pytest.approx(1.0)
    p = rng.integers(0, 4, 200)
    for f in (clustering_accuracy, nmi, purity):
        assert f(y, p) == pytest.approx(f(y, perm[p]))
        assert 0.0 <= f(y, p) <= 1.0


def test_unequal_cluster_and_class_counts():
    y = [0, 0, 0, 1, 1, 1]
    assert clustering_accuracy(y, [0, 0, 1, 2, 2, 3]) == pytest.approx(4 / 6)
    assert clustering_accuracy(y, [0] * 6) == pytest.approx(0.5)
    assert purity(y, [0, 1, 2, 3, 4, 5]) == 1.0


def test_nmi_normalizations_ordered():
    y = [0, 0, 1, 1, 2, 2, 2]
    p = [0, 0, 0, 1, 1, 1, 1]
    vals = {n: nmi(y, p, n) for n in ("max", "min", "arithmetic", "geometric", "joint")}
    assert vals["joint"] <= vals["max"] <= vals["arithmetic"] <= vals["min"]
    assert vals["max"] <= vals["geometric"] <= vals["min"]
    with pytest.raises(ValueError, match="unknown normalization"):
        nmi(y, p, "bogus")


@pytest.mark.parametrize("normalization", ["max", "min", "arithmetic", "geometric", "joint"])
@pytest.mark.filterwarnings("error")
def test_one_cluster_scores_zero_without_warnings(normalization):
    # 9 documents of 7 classes in one cluster: its share sums to just above 1 in floating point
    for n, k in ((9, 7), (37, 5), (58, 7)):
        y = np.arange(n) % k
        assert nmi(y, np.zeros(n, dtype=int), normalization) == 0.0


def test_confusion_and_length_check():
    C, rows, cols = confusion_matrix(["a", "b", "b"], ["z", "z", "y"])
    assert C.tolist() == [[0, 1], [1, 1]] and rows.tolist() == ["a", "b"] and cols.tolist() == ["y", "z"]
    with pytest.raises(ValueError):
        confusion_matrix([1, 2], [1])


@pytest.mark.parametrize("normalization", ["max", "min", "arithmetic", "geometric"])
def test_nmi_is_scikit_learns(normalization):
    from sklearn.metrics import normalized_mutual_info_score

    rng = np.random.default_rng(4)
    for _ in range(50):
        n = int(rng.integers(2, 60))
        a, b = rng.integers(0, rng.integers(1, 6), n), rng.integers(0, rng.integers(1, 6), n)
        expected = normalized_mutual_info_score(a, b, average_method=normalization)
        assert nmi(a, b, normalization) == pytest.approx(expected, abs=1e-12)


def test_nmi_joint_normalization_by_hand():
    # one split of four documents against two: MI = 1 bit, H(C, C') = 2 bits
    assert nmi([0, 0, 1, 1], [0, 1, 2, 3], "joint") == pytest.approx(0.5)


@pytest.mark.parametrize("score", [clustering_accuracy, nmi, purity])
def test_labels_that_name_no_cluster_are_refused(score):
    with pytest.raises(ValueError, match="y_pred holds NaN or infinite labels"):
        score([0, 0, 1, 1], [0, 1, 2, math.nan])
    with pytest.raises(ValueError, match="y_true must be 1-d"):
        score([[0, 0], [1, 1]], [0, 1])


@pytest.mark.parametrize("score", [clustering_accuracy, nmi, purity])
@pytest.mark.parametrize("missing", [None, float("nan")])
def test_text_labels_with_some_missing_are_refused_in_words(score, missing):
    """None or NaN among text labels (a column read with gaps) was a TypeError from sorting,
    or NaN became the label "nan"."""
    with pytest.raises(ValueError, match="y_true has no label for 1 documents .* at 2"):
        score(["a", "b", missing, "a"], [0, 1, 1, 0])
    assert score(["a", 1, "a", 1], [0, 1, 0, 1]) == 1.0     # mixed kinds: told apart by text


@pytest.mark.parametrize("score", [clustering_accuracy, nmi, purity])
@pytest.mark.parametrize("first, second", [(1, "1"), (b"a", "a"), (2.5, "2.5")])
def test_labels_of_two_types_that_read_alike_are_refused_not_merged(score, first, second):
    """numpy turns [1, "1"] into ["1", "1"]: two classes scored as one, silently."""
    with pytest.raises(ValueError, match=r"y_true holds .* labels of different types that "
                                         r"would be read as one"):
        score([first, second, "b", "b"], [0, 1, 2, 2])
    with pytest.raises(ValueError, match="y_pred holds"):
        score([0, 1, 2, 2], np.array([first, second, "b", "b"], dtype=object))


def test_nmi_reads_mixed_labels_as_the_confusion_matrix_does():
    y_true, y_pred = ["a", 1, "a", 1, 2, 2], [0, 0, 1, 1, 2, 2]
    _, classes, _ = confusion_matrix(y_true, y_pred)
    assert classes.tolist() == ["1", "2", "a"]
    # the same partition in plain integers
    assert nmi(y_true, y_pred) == nmi([0, 1, 0, 1, 2, 2], y_pred)


@pytest.mark.parametrize("given", [(x for x in [0, 1]), "ab", 3])
def test_labels_that_are_not_a_sequence_are_refused_in_words(given):
    with pytest.raises(TypeError, match="y_true must be a list or an array of labels"):
        clustering_accuracy(given, [0, 1])


@pytest.mark.parametrize("score", [clustering_accuracy, nmi, purity])
def test_equal_numbers_are_one_label_beside_text_as_without_it(score):
    """[1, 1.0, 2] is two classes, but [1, 1.0, "x"] was three: str() read 1 and 1.0 apart."""
    pred = [0, 1, 1, 1]
    assert score([1, 1.0, "x", "x"], pred) == score([1, 1.0, 2, 2], pred) \
        == score(["a", "a", "x", "x"], pred)
    assert score(np.array([1, 1.0, 2, 2], dtype=object), pred) == score([1, 1, 2, 2], pred)
    assert list(confusion_matrix([1, 1.0, "x", "x"], pred)[1]) == ["1", "x"]
