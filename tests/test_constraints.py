"""Pairwise constraints: closure, propagation, contradictions, partial labels, files, sampling."""

import itertools
import warnings

import numpy as np
import pytest

from docnmf.constraints import (ConstraintError, Constraints, read_constraint_pairs,
                                        sample_constraints)


def brute_force_closure(n, must_link, cannot_link):
    """All implied pairs by repeated application of the two rules, on sets."""
    same = {(min(a, b), max(a, b)) for a, b in must_link}
    changed = True
    while changed:
        changed = False
        for (a, b), (c, d) in itertools.product(list(same), repeat=2):
            ends = {a, b} ^ {c, d}
            if len({a, b} & {c, d}) == 1 and len(ends) == 2:
                pair = tuple(sorted(ends))
                if pair not in same:
                    same.add(pair)
                    changed = True

    def group(i):
        return {i} | {b for a, b in same if a == i} | {a for a, b in same if b == i}

    apart = set()
    for a, b in cannot_link:
        for i in group(a):
            for j in group(b):
                apart.add((min(i, j), max(i, j)))
    return sorted(same), sorted(apart)


def test_closure_and_propagation_match_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(20):
        n = 12
        y = rng.integers(3, size=n)
        pairs = [tuple(p) for p in rng.integers(n, size=(10, 2)) if p[0] != p[1]]
        ml = [p for p in pairs if y[p[0]] == y[p[1]]]
        cl = [p for p in pairs if y[p[0]] != y[p[1]]]
        c = Constraints(n, must_link=ml, cannot_link=cl)
        exp_ml, exp_cl = brute_force_closure(n, ml, cl)
        got_ml, got_cl = c.pairs()
        assert [tuple(p) for p in got_ml.tolist()] == exp_ml
        assert [tuple(p) for p in got_cl.tolist()] == exp_cl
        assert c.n_pairs() == (len(exp_ml), len(exp_cl))


def test_given_pairs_are_canonical_and_kept_without_closure():
    c = Constraints(5, must_link=[(3, 1), (1, 3), (1, 2)], cannot_link=np.array([[4, 0]]))
    assert c.must_link.tolist() == [[1, 2], [1, 3]]
    assert c.cannot_link.tolist() == [[0, 4]]
    ml, cl = c.pairs(closure=False)
    assert ml.tolist() == [[1, 2], [1, 3]] and cl.tolist() == [[0, 4]]
    assert c.n_pairs(closure=False) == (2, 1)
    assert c.pairs()[0].tolist() == [[1, 2], [1, 3], [2, 3]]
    assert [g.tolist() for g in c.groups()] == [[1, 2, 3]]
    assert not c.is_empty and Constraints(3).is_empty
    assert "3 must-link" not in repr(c) and "2 must-link" in repr(c)


def test_cannot_link_inside_a_must_link_group_names_the_chain():
    with pytest.raises(ConstraintError) as err:
        Constraints(8, must_link=[(0, 1), (1, 2), (2, 5), (6, 7)], cannot_link=[(5, 0), (3, 4)])
    msg = str(err.value)
    assert "(0, 5)" in msg and "0-1, 1-2, 2-5" in msg
    assert "(3, 4)" not in msg
    assert isinstance(err.value, ValueError)


def test_same_pair_in_both_lists_is_a_contradiction():
    with pytest.raises(ConstraintError, match=r"\(2, 4\)"):
        Constraints(5, must_link=[(2, 4)], cannot_link=[(4, 2)])


@pytest.mark.parametrize("pairs, match", [
    ([(0, 5)], r"unknown document.*0 \.\. 4.*\(0, 5\)"),
    ([(-1, 2)], r"unknown document.*\(-1, 2\)"),
    ([(3, 3)], r"itself: \(3, 3\)"),
])
@pytest.mark.parametrize("kind", ["must_link", "cannot_link"])
def test_bad_pairs_are_named(pairs, match, kind):
    with pytest.raises(ConstraintError, match=match):
        Constraints(5, **{kind: pairs})


@pytest.mark.parametrize("pairs", [[(0, 1, 2)], [[0.5, 1]], [("a", "b")]])
def test_malformed_pairs(pairs):
    with pytest.raises(ConstraintError):
        Constraints(5, must_link=pairs)


def test_partial_labels_expand_to_all_pairs():
    y = np.array([0, -1, 1, 0, 2, -1, 1, 0])
    c = Constraints.from_labels(y)
    labelled = np.flatnonzero(y >= 0)
    expected_ml = [(i, j) for i, j in itertools.combinations(labelled, 2) if y[i] == y[j]]
    expected_cl = [(i, j) for i, j in itertools.combinations(labelled, 2) if y[i] != y[j]]
    assert [tuple(p) for p in c.must_link.tolist()] == expected_ml
    assert [tuple(p) for p in c.cannot_link.tolist()] == expected_cl
    assert len(expected_ml) + len(expected_cl) == 6 * 5 // 2
    ml, cl = c.pairs()
    assert [tuple(p) for p in ml.tolist()] == expected_ml
    # extra pairs are merged; pairs touching unlabelled documents propagate through the classes
    c2 = Constraints.from_labels(y, must_link=[(1, 2)])
    assert (1, 6) in {tuple(p) for p in c2.pairs()[0].tolist()}
    assert (0, 1) in {tuple(p) for p in c2.pairs()[1].tolist()}
    with pytest.raises(ConstraintError, match=r"\(0, 3\)"):
        Constraints.from_labels(y, cannot_link=[(0, 3)])


@pytest.mark.parametrize("y", [[0, -2, 1], [0.5, 1.0], ["a", "b"], [[0, 1]]])
def test_invalid_partial_labels(y):
    with pytest.raises(ValueError):
        Constraints.from_labels(y)


def test_violations():
    c = Constraints(6, must_link=[(0, 1), (1, 2)], cannot_link=[(3, 4)])
    labels = np.array([0, 0, 1, 1, 1, 0])
    assert c.violations(labels) == (1, 1)
    assert c.violations(labels, closure=True) == (2, 1)


# --- files --------------------------------------------------------------------------------------

IDS = ["sport/001", "sport/002", "news/001", "news/002", "tech/001"]


@pytest.mark.parametrize("text", [
    "doc_a,doc_b\nsport/001,sport/002\nnews/002,news/001\n",
    "sport/001,sport/002\nnews/002,news/001\n",
    "# reviewed by hand\n\nsport/001\tsport/002\nnews/002\tnews/001\n",
    "first second\nsport/001  sport/002\r\nnews/002 news/001\n",
    '"sport/001","sport/002"\n"news/002","news/001"\n',
])
def test_read_pairs_with_and_without_header(tmp_path, text):
    path = tmp_path / "ml.csv"
    path.write_text(text, encoding="utf-8")
    assert read_constraint_pairs(path, IDS).tolist() == [[0, 1], [3, 2]]


def test_read_pairs_explicit_header_and_indices(tmp_path):
    path = tmp_path / "cl.csv"
    path.write_text("3,4\n0,2\n")
    assert read_constraint_pairs(path).tolist() == [[3, 4], [0, 2]]
    assert read_constraint_pairs(path, header=True).tolist() == [[0, 2]]
    path.write_text("i,j\n3,4\n")
    assert read_constraint_pairs(path).tolist() == [[3, 4]]
    for empty in ("", "# only a comment\n\n", "i,j\n"):  # a file of no pairs is a mistake
        path.write_text(empty)
        with pytest.raises(ConstraintError, match="holds no pair of documents"):
            read_constraint_pairs(path)


def test_read_pairs_unknown_ids_are_named_with_lines(tmp_path):
    path = tmp_path / "ml.csv"
    path.write_text("doc_a,doc_b\nsport/001,sport/002\nsport/001,sport/999\nnews/7,news/001\n")
    with pytest.raises(ConstraintError) as err:
        read_constraint_pairs(path, IDS)
    msg = str(err.value)
    assert "line 3: 'sport/999'" in msg and "line 4: 'news/7'" in msg and "2 unknown" in msg


def test_read_pairs_bad_lines_and_ambiguous_ids(tmp_path):
    path = tmp_path / "ml.csv"
    path.write_text("sport/001,sport/002,news/001\n")
    with pytest.raises(ConstraintError, match="two fields.*line 1"):
        read_constraint_pairs(path, IDS)
    path.write_text("sport/001,sport/002\n")
    with pytest.raises(ConstraintError, match="not unique.*sport/001"):
        read_constraint_pairs(path, IDS + ["sport/001"])
    path.write_text("a,b\n0,x\n")
    with pytest.raises(ConstraintError, match="line 2: 'x'"):
        read_constraint_pairs(path)


def test_ids_as_docnmf_csv_output_writes_them_are_read(tmp_path):
    """An id a spreadsheet would run as a formula is written with a ' before it; a pair
    file made from assignments.csv holds it so."""
    ids = ["=1+1", "-x", "'q", "plain", "'quoted"]
    path = tmp_path / "ml.csv"
    path.write_text("# pairs\n'=1+1,'-x\n''q,plain\n'quoted,plain\n")
    assert read_constraint_pairs(path, ids).tolist() == [[0, 1], [2, 3], [4, 3]]
    # with documents of both ids ("=1+1" and "'=1+1", "'" and "''"), a field reads as docnmf's
    # files write ids: they write "''=1+1" for the second (it read as the first: a document
    # paired with itself), and "''" for "'"
    both = ["=1+1", "'=1+1", "'", "''", "z"]
    path.write_text("# pairs\n'=1+1,''=1+1\n'',z\n")
    with pytest.warns(UserWarning, match="read \"'=1\\+1\" as '=1\\+1', \"''\" as \"'\", as "
                                         "docnmf's CSV files write those ids"):
        assert read_constraint_pairs(path, both).tolist() == [[0, 1], [2, 4]]
    path.write_text("'plain,'=1+1\n")      # "plain" is never written with a '
    with pytest.raises(ConstraintError, match="line 1: \"'plain\""):
        read_constraint_pairs(path, ids)


def test_file_pairs_feed_constraints(tmp_path):
    ml_file, cl_file = tmp_path / "ml.csv", tmp_path / "cl.csv"
    ml_file.write_text("a,b\nsport/001,sport/002\n")
    cl_file.write_text("a,b\nsport/002,sport/002\n")
    with pytest.raises(ConstraintError, match=r"itself: \(1, 1\)"):
        Constraints(len(IDS), must_link=read_constraint_pairs(ml_file, IDS),
                    cannot_link=read_constraint_pairs(cl_file, IDS))


# --- sampling -----------------------------------------------------------------------------------


def test_sample_constraints_draws_the_fraction_of_all_pairs():
    rng = np.random.default_rng(0)
    y = rng.integers(4, size=200)
    y[:10] = -1
    ml, cl = sample_constraints(y, 0.03, rng=1)
    L = 190
    assert len(ml) + len(cl) == round(0.03 * L * (L - 1) / 2)
    pairs = np.vstack([ml, cl])
    assert len(np.unique(pairs, axis=0)) == len(pairs)
    assert np.all(pairs[:, 0] < pairs[:, 1]) and pairs.min() >= 10
    assert np.all(y[ml[:, 0]] == y[ml[:, 1]]) and np.all(y[cl[:, 0]] != y[cl[:, 1]])
    again = sample_constraints(y, 0.03, rng=1)
    assert np.array_equal(again[0], ml) and np.array_equal(again[1], cl)
    # roughly uniform over pairs: the share of must-links matches the share of same-class pairs
    same = np.mean([y[i] == y[j] for i, j in itertools.combinations(range(10, 200), 2)])
    assert abs(len(ml) / len(pairs) - same) < 0.05


def test_sample_constraints_edges():
    y = [0, 0, 1, 1]
    ml, cl = sample_constraints(y, 1.0, rng=0)
    assert ml.tolist() == [[0, 1], [2, 3]] and len(cl) == 4
    ml, cl = sample_constraints(y, 0.0, rng=0)
    assert ml.shape == cl.shape == (0, 2)
    with pytest.raises(ValueError):
        sample_constraints(y, 1.5)
    # the sampled pairs are always consistent
    Constraints(4, *sample_constraints(y, 0.5, rng=3))


def test_tab_separated_ids_may_hold_commas(tmp_path):
    # found by tests/test_fuzz.py: the comma in "x,y" was taken for the delimiter
    path = tmp_path / "ml.tsv"
    path.write_text("x,y\ta\nb\tx,y\n")
    assert read_constraint_pairs(path, ["a", "b", "x,y"]).tolist() == [[2, 0], [1, 2]]
    path.write_text('"x,y",a\n')
    assert read_constraint_pairs(path, ["a", "x,y"]).tolist() == [[1, 0]]


def test_an_id_holding_a_line_break_is_read_as_the_input_reader_reads_it(tmp_path):
    """The CSV corpus reader keeps a quoted id with a line break; the pair file was split into
    lines before its fields were read, so the same id could not be named there."""
    import csv

    ids = ["a\nb", "c", "d\r\ne"]
    path = tmp_path / "ml.csv"
    with open(path, "w", newline="") as fh:
        csv.writer(fh).writerows([["a\nb", "c"], ["c", "a\nb"]])
    assert read_constraint_pairs(path, ids).tolist() == [[0, 1], [1, 0]]
    path.write_text('# a comment\n"a\nb"\tc\nc\td\n')
    with pytest.raises(ConstraintError, match="line 4: 'd'"):     # numbered as in the file
        read_constraint_pairs(path, ids)
    path.write_text('"a\nb",c,d\n')
    with pytest.raises(ConstraintError, match=r"two fields .* line 1: '\"a\\nb\",c,d'"):
        read_constraint_pairs(path, ids)


@pytest.mark.parametrize("method", ["ssnmf", "ssnmf-paper", "ss-kk", "ss-snc"])
def test_every_document_labelled_in_y_is_said(method):
    """Pipeline.fit(X, y) or cross_validate passes the classes as y, as scikit-learn's
    clusterers ignore it: here every pair became a constraint, and the accuracy was 1.0 with
    no word."""
    import warnings

    from docnmf.constraints import ConstraintWarning
    from docnmf.methods import make_estimator

    rng = np.random.default_rng(0)
    y = np.arange(12) % 3
    X = np.kron(np.eye(3), np.ones((1, 2)))[y] * rng.integers(1, 4, size=(12, 6))
    with pytest.warns(ConstraintWarning, match="y labels all 12 documents") as said:
        make_estimator(method, 3, random_state=0, n_init=1).fit(X, y)
    # at the caller's line, not docnmf's fit wrapper
    assert [w.filename for w in said if "labels all" in str(w.message)] == [__file__]
    y[::2] = -1
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConstraintWarning)
        try:
            make_estimator(method, 3, random_state=0, n_init=1).fit(X, y)
        except ConstraintWarning as exc:
            assert "labels all" not in str(exc), exc


class _OnlyArray:
    """An array-like with ``__array__`` and nothing else (no ``len``), as scikit-learn's
    common checks pass ``y``."""

    def __init__(self, values):
        self.values = np.asarray(values)

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __array_function__(self, func, types, args, kwargs):
        raise TypeError(f"numpy's {func.__name__} is not for this array-like")


def test_fit_takes_y_as_any_array_like_and_refuses_a_short_one_without_a_wrong_warning():
    from docnmf.baselines import SSKernelKMeansClustering

    X = np.random.default_rng(0).random((12, 5))
    y = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1])
    y[::3] = -1
    labels = SSKernelKMeansClustering(2, random_state=0).fit(X, _OnlyArray(y)).labels_
    assert labels.shape == (12,)
    # a y of the wrong length is refused, without first warning that it labels all 12
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"one partial label per document \(12\)"):
            SSKernelKMeansClustering(2, random_state=0).fit(X, np.zeros(5, dtype=int))
