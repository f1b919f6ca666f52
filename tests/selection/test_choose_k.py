"""Choosing k: the criteria against obvious references, and the choice on planted clusters."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.spatial.distance import squareform
from sklearn.metrics import silhouette_samples

from docnmf.cli import main
from docnmf.selection import kmeans_silhouette_curve, select_k
from docnmf.selection.choose import MAX_K_VALUES, STABILITY_THRESHOLD, _choose
from docnmf.selection.criteria import (_silhouette_samples, consensus_matrix,
                                       cophenetic_correlation, match_topics, topic_stability)


def test_consensus_counts_pairs_together():
    runs = [np.array([0, 0, 1, 1]), np.array([1, 1, 0, 0]), np.array([0, 1, 1, 1])]
    C = consensus_matrix(runs)
    for i in range(4):
        for j in range(4):
            assert C[i, j] == np.mean([r[i] == r[j] for r in runs])


def test_cophenetic_matches_scipy_on_a_noisy_consensus():
    rng = np.random.default_rng(3)
    runs = [np.where(rng.random(30) < 0.1, rng.integers(0, 3, 30), np.arange(30) % 3)
            for _ in range(10)]
    C = consensus_matrix(runs)
    D = squareform(1 - C, checks=False)
    assert cophenetic_correlation(C) == pytest.approx(cophenet(linkage(D, "average"), D)[0])
    assert 0.5 < cophenetic_correlation(C) < 1.0


def test_silhouette_matches_scikit_learn():
    rng = np.random.default_rng(0)
    P = rng.random((40, 5))
    labels = rng.integers(0, 4, 40)
    D = np.linalg.norm(P[:, None] - P[None], axis=2)
    np.testing.assert_allclose(_silhouette_samples(D, labels, 4),
                               silhouette_samples(D, labels, metric="precomputed"), atol=1e-12)


def test_match_topics_undoes_permutations():
    rng = np.random.default_rng(1)
    T = rng.random((4, 30)) ** 4
    perms = [rng.permutation(4) for _ in range(5)]
    runs = [T[p] + 0.01 * rng.random(T.shape) for p in perms]
    groups = match_topics(runs)
    for r, p in enumerate(perms):   # row i of run r is topic p[i]; same topic, same group
        assert len(set(groups[r][np.argsort(p)])) == 4
        assert np.array_equal(groups[r][np.argsort(p)], groups[0][np.argsort(perms[0])])
    assert topic_stability(runs)[0] > 0.95


def _planted(k=4, n=160, per=15, seed=0):
    """Documents on k disjoint vocabularies (plus light shared noise), unit rows."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    X = 0.02 * (rng.random((n, k * per)) < 0.1)
    for i, c in enumerate(y):
        X[i, c * per:(c + 1) * per] += rng.random(per) * (rng.random(per) < 0.5)
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return sp.csr_matrix(X), y


def test_planted_clusters_are_found():
    X, _ = _planted(k=4)
    sel = select_k(X, range(2, 9), n_runs=5, random_state=0)
    assert sel.chosen["stability"] == 4 and sel.k == 4
    assert sel.chosen["silhouette"] == 4
    table = {row["k"]: row for row in sel.table}
    assert table[4]["stability"] > 0.9 > table[6]["stability"]
    assert table[4]["stability_mean"] > 0.8 > table[6]["stability_mean"]
    assert table[4]["cophenetic"] > 0.99
    # more topics fit better
    errors = [row["relative_error"] for row in sel.table]
    assert errors == sorted(errors, reverse=True)


def test_bad_ranges_are_refused():
    X, _ = _planted(k=2, n=20)
    with pytest.raises(ValueError, match="at least 2"):
        select_k(X, [1, 2])
    with pytest.raises(ValueError, match="k=11 is more than half of the 20 documents with "
                                         "index terms"):
        select_k(X, [11, 30])
    for runs in (1, 0, True):
        with pytest.raises(ValueError, match="n_runs .--restarts. must be at least 2"):
            select_k(X, [2, 3], n_runs=runs)
    X, _ = _planted(k=2, n=2 * (MAX_K_VALUES + 3))
    with pytest.raises(ValueError, match=f"at most {MAX_K_VALUES}"):
        select_k(X, range(2, 3 + MAX_K_VALUES))


def test_the_bound_on_k_values_counts_those_left_after_the_cut():
    X, _ = _planted(k=2, n=20)
    sel = select_k(X, range(2, 3 + MAX_K_VALUES), n_runs=2, random_state=0)
    assert sel.k_values == list(range(2, 11))


def test_a_range_beyond_the_documents_is_cut_short(caplog):
    X, _ = _planted(k=2, n=12)
    with caplog.at_level("WARNING", logger="docnmf"):
        sel = select_k(X, range(2, 31), n_runs=2, random_state=0)
    assert sel.k_values == list(range(2, 7))       # as benchmarks/choose_k.py evaluated it
    assert "not trying k=7-30: above half (6) of the 12 documents with index terms" \
        in caplog.text
    caplog.clear()
    X, _ = _planted(k=2, n=40)
    with caplog.at_level("WARNING", logger="docnmf"):
        sel = select_k(X, range(2, 31), n_runs=2, max_documents=10, random_state=0)
    assert sel.k_values == list(range(2, 6))
    assert "above half (5) of the 10 documents drawn (--max-documents)" in caplog.text
    caplog.clear()
    # the limit is half the documents, not the largest k below it that was asked for
    X60, _ = _planted(k=2, n=60)
    with caplog.at_level("WARNING", logger="docnmf"):
        assert select_k(X60, [2, 3, 40], n_runs=2, random_state=0).k_values == [2, 3]
    assert "not trying k=40: above half (30) of the 60 documents" in caplog.text
    # documents without index terms are not a draw: they are left out, and said to be
    X = sp.vstack([X[:5], sp.csr_matrix((35, X.shape[1]))]).tocsr()
    with pytest.raises(ValueError, match="half of the 5 documents with index terms"):
        select_k(X, range(3, 31), n_runs=2, random_state=0)


def test_the_reason_says_when_no_k_is_stable_enough():
    X, _ = _planted(k=3, n=60)
    sel = select_k(X, [2, 3, 4], n_runs=3, random_state=0)
    stable = max(row["stability_mean"] for row in sel.table) >= STABILITY_THRESHOLD
    assert ("keep a mean silhouette >=" in sel.reason) is stable
    # a table where no k reaches the threshold: the most stable k, said as such
    table = [{**row, "stability_mean": 0.5 + 0.1 * i} for i, row in enumerate(sel.table)]
    _, k, reason = _choose(table)
    assert k == 4 and "no k keeps the restarts' topic vectors" in reason
    assert "the k where it is highest" in reason


def test_the_same_seed_gives_the_same_table():
    X, _ = _planted(k=3, n=60)

    def table(seed):
        return [{c: v for c, v in row.items() if c != "seconds"}
                for row in select_k(X, [2, 3, 4], n_runs=3, random_state=seed).table]

    assert table(7) == table(7)
    assert table(7) != table(8)


def test_the_scores_at_a_k_do_not_depend_on_the_other_ks_tried():
    """The i-th k tried drew the i-th random stream: narrowing --k-range to check a candidate
    gave that k other scores (cophenetic 0.97 in 2-30, 0.85 in 4-12)."""
    X, _ = _planted(k=3, n=60)

    def rows(ks):
        return {row["k"]: {c: v for c, v in row.items() if c != "seconds"}
                for row in select_k(X, ks, n_runs=3, random_state=7).table}

    wide = rows([2, 3, 4, 5])
    assert rows([4, 5]) == {4: wide[4], 5: wide[5]}
    assert rows([3]) == {3: wide[3]} and rows([5, 3]) == {3: wide[3], 5: wide[5]}


@pytest.fixture(scope="module")
def demo_jsonl():
    from importlib import resources

    return str(resources.files("docnmf").joinpath("data/demo.jsonl"))


def test_choose_k_command_writes_table_plot_and_choice(demo_jsonl, tmp_path, capsys):
    out = tmp_path / "ck"
    assert main(["-q", "choose-k", demo_jsonl, "--k-range", "2-7", "--restarts", "4",
                 "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    record = json.loads((out / "choose_k.json").read_text())
    assert f"chosen k = {record['k']}" in printed
    assert [row["k"] for row in record["table"]] == [2, 3, 4, 5, 6, 7]
    # the row the stability rule picks is marked with the column it reads (the lowest
    # group's, beside it, was often under the threshold there)
    pick = record["chosen_by_criterion"]["stability"]
    if pick is not None:
        (line,) = [x for x in printed.splitlines() if x.split()[:1] == [str(pick)]]
        assert "<- stability (mean)" in line
    assert (out / "choose_k.csv").read_text().startswith("k,cophenetic,stability")
    assert (out / "choose_k.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("k_range, message", [("1-5", "at least 2"), ("90-100", "more than")])
def test_choose_k_command_refuses_bad_ranges(demo_jsonl, tmp_path, capsys, k_range, message):
    assert main(["-q", "choose-k", demo_jsonl, "--k-range", k_range,
                 "-o", str(tmp_path / "x")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_choose_k_command_bounds_the_k_values_it_would_try(demo_jsonl, tmp_path, capsys):
    # wide on few documents: cut to half the documents used, then run
    out = tmp_path / "wide"
    assert main(["-q", "choose-k", demo_jsonl, "--k-range", "2-500", "--restarts", "2",
                 "--max-documents", "20", "-o", str(out)]) == 0
    record = json.loads((out / "choose_k.json").read_text())
    assert [row["k"] for row in record["table"]] == list(range(2, 11))
    # wide on enough documents to try them all: refused before anything is read into a matrix
    many = tmp_path / "many.jsonl"
    many.write_text("".join(json.dumps({"text": f"word{i} other{i % 7}"}) + "\n"
                            for i in range(2 * MAX_K_VALUES + 10)))
    assert main(["-q", "choose-k", str(many), "--k-range", "2-500", "--max-documents", "5000",
                 "-o", str(tmp_path / "x")]) == 2
    assert f"at most {MAX_K_VALUES}" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_cluster_with_k_auto(demo_jsonl, tmp_path, capsys):
    out = tmp_path / "auto"
    assert main(["-q", "cluster", demo_jsonl, "-k", "auto", "--k-range", "3-6",
                 "-o", str(out)]) == 0
    run = json.loads((out / "run.json").read_text())
    chosen = json.loads((out / "choose_k.json").read_text())["k"]
    assert run["parameters"]["n_clusters"] == chosen
    assert run["parameters"]["k_selection"]["k"] == chosen
    assert "k chosen by" in (out / "report.html").read_text()
    with pytest.raises(SystemExit) as exc:
        main(["-q", "cluster", demo_jsonl, "-k", "many"])
    assert exc.value.code == 2 and "a whole number or 'auto'" in capsys.readouterr().err


def test_k_values_that_are_not_whole_numbers_are_refused_not_truncated():
    X, _ = _planted(k=2, n=30)
    for ks in ([2.9, 3.7], [2, 3.0], [True, 3], ["3"]):
        with pytest.raises(ValueError, match="k must be a whole number of at least 2"):
            select_k(X, ks, n_runs=2)
        with pytest.raises(ValueError, match="k must be a whole number of at least 2"):
            kmeans_silhouette_curve(X, ks)
    assert select_k(X, [np.int64(2), 3], n_runs=2, random_state=0).k_values == [2, 3]


def test_the_baseline_checks_k_as_the_selection_does():
    X, _ = _planted(k=2, n=30)
    with pytest.raises(ValueError, match="k must be a whole number of at least 2, got 1"):
        kmeans_silhouette_curve(X, [1, 2])
    with pytest.raises(ValueError, match="k=30 leaves no two documents together"):
        kmeans_silhouette_curve(X, [30])
    assert len(kmeans_silhouette_curve(X, [2, 29])) == 2


def test_two_selections_alike_but_for_their_timings_are_equal():
    X, _ = _planted(k=2, n=30)
    a, b = (select_k(X, [2, 3], n_runs=2, random_state=0) for _ in range(2))
    b.table[0]["seconds"] += 1.0
    assert a == b
    b.table[0]["cophenetic"] += 0.5
    assert a != b


def test_documents_all_alike_are_scored_without_a_silhouette_not_a_crash():
    """Every k computed, then 'All-NaN slice encountered' and nothing written."""
    X = sp.csr_matrix(np.tile([[0.6, 0.8, 0.0]], (30, 1)))
    selection = select_k(X, [2, 3], n_runs=2, random_state=0)
    assert all(np.isnan(row["silhouette"]) for row in selection.table)
    assert selection.chosen["silhouette"] is None and selection.k in (2, 3)


def test_a_choice_at_the_top_of_the_range_says_so(caplog):
    """300 five-word texts of 3 topics: k = 30, the top of 2-30, where every criterion but
    the stability rule's pick was 3, and nothing said the choice was the range's edge."""
    import logging

    X, _ = _planted(k=3, n=60)
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        selection = select_k(X, [2, 3], n_runs=3, random_state=0)
    assert selection.k == 3
    assert "k = 3 is the largest k tried" in selection.reason
    assert any("k = 3 is the largest k tried" in r.getMessage() for r in caplog.records)
    assert "largest k tried" not in select_k(X, [2, 3, 4], n_runs=3, random_state=0).reason
