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
    X, _ = _planted(k=2, n=2 * (MAX_K_VALUES + 3), per=MAX_K_VALUES)   # terms enough too
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


def test_choose_k_takes_threads_as_cluster_does(demo_jsonl, tmp_path, blas_threads_restored):
    """choose-k fits NMF-NCW for every k and restart, a run longer than cluster's, and had no
    --threads to leave cores to other work."""
    from docnmf.factor.sparse import blas_threads

    code = main(["-q", "choose-k", demo_jsonl, "--k-range", "2,3", "--restarts", "2",
                 "--threads", "1", "-o", str(tmp_path / "ck")])
    assert (code, blas_threads()) == (0, 1)
    assert (tmp_path / "ck" / "choose_k.json").exists()


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


def test_a_generator_seed_is_kept_out_of_the_record_and_the_folder_written_whole(tmp_path):
    """A Generator (a documented random_state) stayed in params: write_selection then failed
    on the JSON after writing the CSV, leaving a folder holding the CSV alone."""
    from docnmf.selection import write_selection

    X, _ = _planted(k=2, n=30)
    sel = select_k(X, [2, 3], n_runs=2, random_state=np.random.default_rng(1))
    assert sel.params["random_state"] is None
    assert select_k(X, [2], n_runs=2, random_state=np.int64(5)).params["random_state"] == 5
    (tmp_path / "a").mkdir()
    written = write_selection(sel, tmp_path / "a")
    assert sorted(p.name for p in written) == ["choose_k.csv", "choose_k.json", "choose_k.png"]
    assert json.loads((tmp_path / "a" / "choose_k.json").read_text())["k"] == sel.k
    # a record JSON cannot hold is refused before any file is written
    (tmp_path / "b").mkdir()
    with pytest.raises(TypeError):
        write_selection(sel, tmp_path / "b", context={"corpus": object()})
    assert list((tmp_path / "b").iterdir()) == []


def test_selections_with_an_undefined_criterion_are_equal_to_themselves():
    X = sp.csr_matrix(np.tile([[0.6, 0.8]], (12, 1)))
    a, b = (select_k(X, [2], n_runs=2, random_state=0) for _ in range(2))
    assert np.isnan(a.table[0]["silhouette"]) and a == b


@pytest.mark.parametrize("kwargs, error, message", [
    ({"X": [[1.0, 0.0]] * 8}, TypeError, "not list"),
    ({"k_values": "2-5"}, TypeError, "not the string '2-5'"),
    ({"max_documents": -1}, ValueError, ("max_documents .--max-documents. must be a whole "
                                         "number of at least 4")),
    ({"max_documents": None}, ValueError, "got None"),
    ({"max_documents": 2.5}, ValueError, "got 2.5"),
    ({"max_documents": 0}, ValueError, "got 0"),
])
def test_select_k_names_a_bad_argument(kwargs, error, message):
    """A list, "2-5" and max_documents of -1, None or 2.5 failed inside numpy ("negative
    dimensions are not allowed", "got '2'")."""
    X, _ = _planted(k=2, n=30)
    args = {"X": X, "k_values": [2, 3], **kwargs}
    with pytest.raises(error, match=message):
        select_k(args.pop("X"), args.pop("k_values"), n_runs=2, **args)


def test_k_above_the_index_terms_is_not_tried(caplog):
    X = sp.csr_matrix(_planted(k=3, n=60)[0].toarray()[:, :4])
    X = X[np.diff(X.indptr) > 0]
    with caplog.at_level("WARNING", logger="docnmf"):
        sel = select_k(X, range(2, 9), n_runs=2, random_state=0)
    assert sel.k_values == [2, 3, 4]
    assert f"not trying k=5-8: above the 4 index terms of the {X.shape[0]} documents" \
        in caplog.text
    with pytest.raises(ValueError, match="k=2 is more than the 1 index term of"):
        select_k(X[:, :1][np.diff(X[:, :1].indptr) > 0], [2, 3], n_runs=2)


def test_a_flat_table_or_a_single_k_is_said_to_choose_nothing():
    """Stability 0 at every k (documents of one index term) was read as "the k where it is
    highest"; a range of one k was said to have no k stable enough."""
    rows = [{"k": k, "cophenetic": 0.7, "stability": 0.0, "stability_mean": 0.0,
             "silhouette": float("nan")} for k in (2, 3, 4)]
    chosen, k, reason = _choose(rows)
    assert k == 2 and chosen["stability"] == 2
    assert reason == ("stability: the restarts' topic vectors score the same at every k tried "
                      "(0): no k stands out, k = 2 is the smallest tried")
    high = [{**row, "stability_mean": 1.0} for row in rows]    # the same, however high
    assert _choose(high)[1] == 2
    assert _choose(rows[1:2])[1:] == (3, "only k = 3 was tried")


def test_a_choice_at_the_top_of_a_range_where_nothing_is_stable_does_not_say_it_is():
    """"no k keeps ... at a mean silhouette >= 0.8 ...; k = 3 is the largest k tried, where
    finer splits of the same topics can look stable": both, in one sentence."""
    rows = [{"k": 2, "cophenetic": 0.9, "stability": 0.1, "stability_mean": 0.3,
             "silhouette": 0.2},
            {"k": 3, "cophenetic": 0.8, "stability": 0.2, "stability_mean": 0.5,
             "silhouette": 0.3}]
    _, k, reason = _choose(rows)
    assert k == 3 and reason.endswith("the k where it is highest; k = 3 is the largest k tried "
                                      "(the other criteria pick cophenetic k = 2, silhouette "
                                      "k = 3)")
    stable = [{**row, "stability_mean": 0.9} if row["k"] == 3 else row for row in rows]
    assert "k = 3 is the largest k tried, where finer splits of the same topics can look " \
           "stable" in _choose(stable)[2]


def _choose_k_cli(tmp_path, texts, *options):
    folder = tmp_path / "docs"
    folder.mkdir(exist_ok=True)
    for i, text in enumerate(texts):
        (folder / f"{i:02d}.txt").write_text(text)
    return main(["-q", "choose-k", str(folder), "-o", str(tmp_path / "ck"), *options])


@pytest.mark.parametrize("texts, options, message", [
    (["stars and planets"], (), "on 4 documents or more: the corpus has 1"),
    (["stars and planets"] * 10, ("--idf", "smooth", "--max-df", "1.0"),
     "on 4 different documents or more: the 10 documents are copies of 1"),
    (["stars planets moon", "stars planets moon sun", "stars planets moon sky",
      "stars planets moon dust"], ("--min-df", "1", "--max-df", "1.0"),
     ("on 4 documents with index terms or more: 3 of the 4 have any: 1 document has terms, "
      "but only terms of every document, which weigh 0 under idf 'xu'")),
    # the hint only where idf is why (it was given of documents emptied by --max-features too)
    (["stars planets", "moon sun", "comet", "rain snow", "stars comet"],
     ("--min-df", "1", "--max-features", "2"),
     "on 4 documents with index terms or more: 3 of the 5 have any\n"),
    # settings the corpus refutes: a --min-df above its size (a traceback)
    ([f"planet number {i}" for i in range(40)], ("--min-df", "600"),
     ("error: --max-df 0.95, the default (38 of the 40 documents) is below --min-df 600 "
      "(clipped to the 40 documents)")),
    # four different texts, and copies of the first, whose words alone pass --min-df
    (["comet orbit", "comet orbit", "comet orbit", "comet orbit", "tulip", "bread", "goal"],
     ("--idf", "smooth"),
     ("on 4 different documents with index terms or more: the 4 with index terms read as 1 "
      "different one")),
])
def test_choose_k_says_why_a_corpus_is_too_small(tmp_path, capsys, texts, options, message):
    """One document full of words was "more than half of the 0 documents with index terms"."""
    assert _choose_k_cli(tmp_path, texts, *options) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "ck").exists()


def test_choose_k_warns_of_documents_it_leaves_out_and_of_copies(tmp_path, capsys):
    """It chose k on 20 of 80 documents, said only in a progress line; cluster warned."""
    topics = ["stars planets telescope orbit", "goal match league striker",
              "garden soil compost seeds", "bank rates shares market"]
    # each its own extra word (too rare to be an index term): no two alike
    texts = [f"{topics[i % 4]} {topics[i % 4].split()[i % 3]} w{chr(97 + i)}" for i in range(24)]
    texts += ["", "12 34", texts[0], texts[0]]
    assert _choose_k_cli(tmp_path, texts, "--k-range", "2-4", "--restarts", "2") == 0
    err = capsys.readouterr().err
    assert "2 documents with no index term left after preprocessing: k is chosen on the " \
           "other 26" in err
    assert "2 documents repeating another exactly (1 group)" in err
    record = json.loads((tmp_path / "ck" / "choose_k.json").read_text())
    # what a choose_k.json found later needs to be run again
    assert record["corpus"]["n_documents"] == 28 and record["k_range"] == "2-4"
    assert record["text_pipeline"]["min_df"] == 2 and record["docnmf_version"]
    assert record["packages"]["scikit-learn"] and "command" in record


@pytest.mark.parametrize("argv, message", [
    (["-k", "4"], ("docnmf choose-k: error: unrecognized arguments: -k 4\n"
                   "(see 'docnmf choose-k --help')")),
    (["--seed", "-1"], "--seed: expected a seed from 0 to 2**32 - 1, got -1"),
    (["-o", ""], "-o/--output: expected a folder's name, got ''"),
    (["-o", " "], "-o/--output: expected a folder's name, got ' '"),
])
def test_choose_k_command_line_mistakes_are_told_briefly(demo_jsonl, capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        main(["-q", "choose-k", demo_jsonl, *argv])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err and len(err) < 200


def test_a_long_range_is_counted_once_per_k_and_not_echoed_whole(demo_jsonl, tmp_path, capsys):
    """"5" three thousand times was "more than 1,000 cluster numbers", and a mistake in a long
    range echoed all of it."""
    from docnmf.cli import _k_range

    assert _k_range(",".join(["5"] * 3000)) == (5,)
    assert _k_range("2-10,5-12,20") == (*range(2, 13), 20)
    assert main(["-q", "choose-k", demo_jsonl, "--k-range", "5," * 3000,
                 "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"got {'5,' * 25!r} (and 5,950 more characters)" in err and len(err) < 200


def test_the_plot_ticks_whole_ks_and_names_a_criterion_undefined_everywhere():
    """The k axis was ticked at 2.5; a silhouette undefined at every k (documents all alike)
    was in the legend with no line."""
    from docnmf.selection.output import selection_figure

    X = sp.csr_matrix(np.tile([[0.6, 0.8, 0.0]], (12, 1)) + 1e-9)     # all alike, 3 terms
    for ks in ([2, 3], [2]):
        ax = selection_figure(select_k(X, ks, n_runs=2, random_state=0)).axes[0]
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert "silhouette (undefined at every k)" in labels and "cophenetic" in labels
        assert list(ax.get_xticks()) == ks
    X, _ = _planted(k=2, n=60)
    ax = selection_figure(select_k(X, range(2, 16), n_runs=2, random_state=0)).axes[0]
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert "silhouette" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_no_k_above_the_different_documents_is_tried(caplog):
    """6 different texts among 104 were tried up to k=27: copies fill clusters only by being
    split, and every fit ran short of converging."""
    rng = np.random.default_rng(0)
    distinct = sp.csr_matrix(rng.random((6, 40)) * (rng.random((6, 40)) < 0.3))
    X = sp.vstack([distinct[[i % 6]] for i in range(60)]).tocsr()
    selection = select_k(X, range(2, 12), n_runs=2, random_state=0)
    assert max(selection.k_values) == 6
    assert "not trying k=7-11: above the 6 different documents" in caplog.text


def test_a_k_at_the_number_of_different_documents_is_not_called_the_range_s():
    """With the range cut at the 4 different documents, k=4 was said to be "the largest k
    tried: the stability rule may be reading the range, not the documents"."""
    table = [{"k": k, "cophenetic": 0.99, "stability": 0.9, "stability_mean": 0.9 + k / 100,
              "silhouette": 0.5} for k in (2, 3, 4)]
    _, k, reason = _choose(table, different=4)
    assert k == 4 and "the number of different documents" in reason
    assert "largest k tried" not in reason
    assert "largest k tried" in _choose(table)[2]


def test_a_range_wholly_above_the_different_documents_is_refused_not_tried():
    """60 copies of 6 texts: --k-range 6-9 tried k=6 alone, but 7-9 tried all three, above the
    6 different documents, and chose k=7 without a word."""
    rng = np.random.default_rng(0)
    distinct = sp.csr_matrix(rng.random((6, 40)) * (rng.random((6, 40)) < 0.3))
    X = sp.vstack([distinct[[i % 6]] for i in range(60)]).tocsr()
    with pytest.raises(ValueError, match="k=7 is more than the 6 different documents of the 60 "
                                         "documents with index terms"):
        select_k(X, range(7, 10), n_runs=2, random_state=0)


def test_a_sample_drawn_all_alike_is_refused_not_scored():
    """50 copies of one text and 4 others, --max-documents 6: the 6 drawn were all copies of the
    one, scored at k=2 and 3 (relative error 0, no silhouette) and k=2 'chosen'."""
    rng = np.random.default_rng(0)
    others = sp.csr_matrix(rng.random((4, 30)) * (rng.random((4, 30)) < 0.3))
    X = sp.vstack([others[[0]]] * 50 + [others]).tocsr()
    with pytest.raises(ValueError, match="k=2 is more than the 1 different document of the 6 "
                                         r"documents drawn \(--max-documents\)"):
        select_k(X, [2, 3], n_runs=2, max_documents=6, random_state=0)


def test_an_empty_k_range_is_refused_by_cluster_k_auto_as_by_choose_k(demo_jsonl, tmp_path,
                                                                        capsys):
    """choose-k --k-range '' was refused, cluster -k auto --k-range '' (an unset shell variable)
    tried 2-30 in its place without a word."""
    for command in (["choose-k"], ["cluster", "-k", "auto"]):
        assert main(["-q", *command, demo_jsonl, "--k-range", "", "-o",
                     str(tmp_path / "x")]) == 2
        assert "--k-range expects e.g. 2-10 or 2,4,6, got ''" in capsys.readouterr().err
        assert not (tmp_path / "x").exists()


def test_stored_zeros_are_not_index_terms():
    """A sparse matrix holding explicit zeros (data thresholded in place) counted rows of zeros
    alone as documents with index terms: their cosine silhouette was scored, the relative
    error divided 0 by 0 (NaN), and the table differed from that of the same matrix without
    the stored zeros."""
    X, _ = _planted(k=3, n=45)
    X = X.tolil()
    X[:9] = 0
    X = X.tocsr()
    X.eliminate_zeros()
    coo = X.tocoo()
    zero_rows, zero_cols = np.repeat(np.arange(9), 3), np.tile([0, 1, 2], 9)
    stored = sp.csr_matrix((np.r_[coo.data, np.zeros(27)],
                            (np.r_[coo.row, zero_rows], np.r_[coo.col, zero_cols])),
                           shape=X.shape)
    assert stored.nnz == X.nnz + 27 and (stored != X).nnz == 0
    before = stored.data.copy()
    a = select_k(X, [2, 3, 4], n_runs=2, random_state=0)
    b = select_k(stored, [2, 3, 4], n_runs=2, random_state=0)
    assert b.params["n_documents_used"] == 36
    assert all(np.isfinite(row["relative_error"]) for row in b.table)
    assert a == b
    assert stored.nnz == X.nnz + 27 and np.array_equal(stored.data, before)   # not changed


def test_one_restart_is_refused_before_the_corpus_is_read(capsys):
    """--restarts 1 passed the command's parser and was refused by select_k, after the corpus
    was read, weighted and its text warnings printed."""
    with pytest.raises(SystemExit) as stop:
        main(["choose-k", "demo", "--restarts", "1"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "reading" not in err
    assert "--restarts/--runs: expected at least 2 (the criteria compare restarts), got 1" in err


@pytest.mark.parametrize("value", ["2", "3"])
def test_too_few_documents_to_sample_are_refused_before_the_corpus_is_read(capsys, value):
    """--max-documents 2 or 3 passed the command's parser and was refused by select_k, after
    the corpus was read and weighted, in select_k's own words (max_documents)."""
    with pytest.raises(SystemExit) as stop:
        main(["choose-k", "demo", "--max-documents", value])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "reading" not in err and "max_documents" not in err
    assert f"--max-documents: expected at least 4 (k = 2 on at least twice as many " \
           f"documents), got {value}" in err


def test_without_the_plot_extra_choose_k_and_k_auto_write_all_but_the_png(demo_jsonl, tmp_path,
                                                                          capsys, monkeypatch):
    """`pip install .` alone (no matplotlib): the table and the choice are written whole, the
    figure is left out with one line naming the extra, and nothing ends in a traceback."""
    import sys

    for name in ["matplotlib", *(m for m in sys.modules if m.startswith("matplotlib."))]:
        monkeypatch.setitem(sys.modules, name, None)    # as where it is not installed
    advice = "matplotlib is not installed: no choose_k.png (pip install 'docnmf[plot]')"
    out = tmp_path / "ck"
    assert main(["choose-k", demo_jsonl, "--k-range", "3-5", "--restarts", "3",
                 "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count(advice) == 1 and "Traceback" not in err
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "choose_k.csv", "choose_k.json"]
    auto = tmp_path / "auto"
    assert main(["cluster", demo_jsonl, "-k", "auto", "--k-range", "3-5", "-o", str(auto)]) == 0
    err = capsys.readouterr().err
    assert err.count(advice) == 1 and "Traceback" not in err
    assert {"assignments.csv", "clusters.csv", "memberships.npz", "model", "run.json",
            "report.html", "choose_k.csv", "choose_k.json"} <= {p.name for p in auto.iterdir()}
    assert not (auto / "choose_k.png").exists()
