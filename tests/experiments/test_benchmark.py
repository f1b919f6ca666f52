"""The evaluation suite's machinery on two tiny corpora written here: plan, resume, split, report.

The corpora are planted: a CLUTO count set (held back, as ``cluto_tr31``) and a
20 Newsgroups-style folder of texts (tuning, as ``20newsgroups_rec``), laid in a
temporary data folder under the registered names. Nothing here is timed and no
accuracy is required of any method.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from docnmf.cli import main
from docnmf.experiments import ProtocolError
from docnmf.experiments import benchmark
from docnmf.experiments.benchmark import parse_entry, run_suite
from docnmf.experiments.benchmark_report import (TIE, Cell, format_benchmark_report,
                                                 head_to_head, write_benchmark_report)
from docnmf.experiments.suite import SUITE_CORPORA, SuiteCorpus
from docnmf.corpus import Corpus
from docnmf.diagnostics import degenerate
from docnmf.methods import DEFAULT_FALLBACK, DEFAULT_METHOD

TOPICS = {
    "rec.autos": "engine car wheel brake tire dealer sedan gearbox clutch mileage",
    "rec.sport.hockey": "puck goalie hockey rink skate stick period playoff ice penalty",
    "rec.sport.baseball": "pitcher inning bat homer catcher bullpen glove umpire base strike",
}


def _write_newsgroups(root, rng):
    for split in ("train", "test"):
        for group, words in TOPICS.items():
            folder = root / "20newsgroups_bydate" / f"20news-bydate-{split}" / group
            folder.mkdir(parents=True)
            vocab = words.split()
            for i in range(6):
                body = " ".join(rng.choice(vocab, size=25)) + " the and of news today"
                (folder / str(100 + i)).write_text(f"Subject: post {i}\n\n{body}\n")


def _write_cluto(root, name, rng, k=3, per=12, terms=30):
    folder = root / "cluto" / name
    folder.mkdir(parents=True)
    y = np.repeat(np.arange(k), per)
    lines = [f"{len(y)} {terms}"]
    for c in y:
        block = np.arange(c * (terms // k), (c + 1) * (terms // k))
        cols = np.unique(np.concatenate([rng.choice(block, 6), rng.choice(terms, 2)]))
        lines.append(" ".join(f"{j} {rng.integers(1, 4)}" for j in cols))
    (folder / f"sparse_{name}.txt").write_text("\n".join(lines) + "\n")
    onehot = np.eye(k, dtype=int)[y].T
    (folder / f"{name}_correct.txt").write_text(
        "\n".join(" ".join(map(str, row)) for row in onehot) + "\n")


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    rng = np.random.default_rng(7)
    root = tmp_path / "data"
    _write_newsgroups(root, rng)
    _write_cluto(root, "tr31", rng)
    monkeypatch.setenv("DOCNMF_DATA", str(root))
    return root


CORPORA = [c for c in SUITE_CORPORA if c.name in ("20newsgroups_rec", "cluto_tr31")]
ENTRIES = ["default", "nmf:labels=kmeans", "nma:n_topics=2", "sklearn-km", "sklearn-nmf",
           "sklearn-lda", "spherical-km"]


def _fits(path):
    return [json.loads(line) for line in path.read_text().splitlines()[1:] if line.strip()]


def test_tiny_suite_fits_every_entry_on_every_corpus_it_applies_to(data_home, tmp_path):
    records = run_suite(tmp_path / "out" / "results.jsonl", ENTRIES, corpora=CORPORA, runs=2,
                        data_home=data_home)
    keys = {(r["corpus"], r["entry"], r["run"]) for r in records}
    # nma segments texts: not run on the count matrix
    assert len(records) == len(keys) == 2 * (2 * len(ENTRIES) - 1)
    assert not any(r["corpus"] == "cluto_tr31" and r["entry"].startswith("nma") for r in records)
    assert {r["role"] for r in records if r["corpus"] == "cluto_tr31"} == {"held_back"}
    assert all(0 <= r["accuracy"] <= 1 and 0 <= r["nmi"] <= 1 for r in records)
    assert all(r["k"] == 3 and r["n_docs"] == 36 for r in records)
    # the same run gives every entry the same seed; another run another one
    seeds = {(r["corpus"], r["run"]): r["random_state"] for r in records}
    assert all(r["random_state"] == seeds[r["corpus"], r["run"]] for r in records)
    assert seeds["cluto_tr31", 0] != seeds["cluto_tr31", 1]
    assert len(_fits(tmp_path / "out" / "results.jsonl")) == len(records)


def test_an_entry_a_corpus_cannot_take_is_said_and_nothing_to_run_is_an_error(
        data_home, tmp_path, capsys, caplog):
    """nma was left out of count-matrix corpora without a word, and with nothing left to run
    the report's plot failed with a traceback, after results.jsonl and report.md were written."""
    with caplog.at_level("WARNING", logger="docnmf"):
        run_suite(tmp_path / "r.jsonl", ["nmf", "nma"], corpora=CORPORA, runs=1,
                  data_home=data_home)
    assert "nma needs raw texts: not run on cluto_tr31 (a count matrix)" in caplog.text
    out = tmp_path / "none"
    assert main(["-q", "benchmark", "--corpora", "cluto_tr31", "--methods", "nma", "--runs", "1",
                 "-o", str(out)]) == 2
    assert "nothing to run: no entry applies to these corpora" in capsys.readouterr().err
    assert not out.exists()


def test_peers_see_the_same_documents_through_scikit_learn(data_home):
    corpus = next(c for c in CORPORA if c.form == "texts")
    data = benchmark.prepare_corpus(corpus, [parse_entry("sklearn-km")], data_home=data_home)
    from sklearn.feature_extraction.text import TfidfVectorizer

    expected = TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2).fit_transform(
        data.texts)
    assert (abs(data.peer_tfidf - expected)).max() == 0
    assert data.peer_counts.shape == expected.shape


def test_an_interrupted_run_resumes_with_the_fits_it_lacks(data_home, tmp_path, monkeypatch):
    path = tmp_path / "out" / "results.jsonl"
    calls = []
    real = benchmark.run_task

    def interrupted(data, task, seed):
        if len(calls) == 5:
            raise KeyboardInterrupt
        calls.append(task)
        return real(data, task, seed)

    monkeypatch.setattr(benchmark, "run_task", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_suite(path, ENTRIES, corpora=CORPORA, runs=1, data_home=data_home)
    assert len(_fits(path)) == 5
    # killed while writing: a torn last line is dropped and computed again
    with open(path, "a") as fh:
        fh.write('{"corpus": "cluto_tr31", "entry": "defa')
    monkeypatch.setattr(benchmark, "run_task", real)
    computed = []
    monkeypatch.setattr(benchmark, "run_task",
                        lambda data, task, seed: computed.append(task) or real(data, task, seed))
    resumed = run_suite(path, ENTRIES, corpora=CORPORA, runs=1, data_home=data_home)
    assert len(resumed) == 2 * len(ENTRIES) - 1 and len(computed) == len(resumed) - 5
    assert not {(t.corpus, t.entry) for t in computed} & {(t.corpus, t.entry) for t in calls}
    clean = run_suite(tmp_path / "clean.jsonl", ENTRIES, corpora=CORPORA, runs=1,
                      data_home=data_home)
    assert [(r["corpus"], r["entry"], r["accuracy"]) for r in resumed] == \
        [(r["corpus"], r["entry"], r["accuracy"]) for r in clean]


def test_a_results_file_of_another_seed_is_refused(data_home, tmp_path):
    path = tmp_path / "results.jsonl"
    run_suite(path, ["default"], corpora=CORPORA[:1], runs=1, data_home=data_home)
    with pytest.raises(ProtocolError, match="seed"):
        run_suite(path, ["default"], corpora=CORPORA[:1], runs=1, seed=1, data_home=data_home)


def test_fits_of_an_earlier_default_are_not_reused_as_the_default(data_home, tmp_path):
    path = tmp_path / "results.jsonl"
    records = run_suite(path, ["default"], corpora=CORPORA[1:], runs=1, data_home=data_home)
    assert records[0]["method"] == DEFAULT_METHOD
    # the same file, as if written when the default was another method
    lines = path.read_text().splitlines()
    fit = json.loads(lines[1])
    for method in ("some-other-method", None):
        fit.pop("method", None)
        if method:
            fit["method"] = method
        path.write_text("\n".join([lines[0], json.dumps(fit)]) + "\n")
        with pytest.raises(ProtocolError, match="made when the default method was"):
            run_suite(path, ["default"], corpora=CORPORA[1:], runs=1, data_home=data_home)
        # entries by name still reuse the file
        assert run_suite(path, ["nmf"], corpora=CORPORA[1:], runs=1, data_home=data_home)


def test_the_command_runs_one_half_only_and_reports_it(data_home, tmp_path, capsys):
    out = tmp_path / "bench"
    status = main(["-q", "benchmark", "--role", "held_back", "--corpora", "cluto_tr31",
                   "--methods", "default", "nmf", "sklearn-km", "--runs", "2", "--jobs", "1",
                   "-o", str(out)])
    assert status == 0
    records = _fits(out / "results.jsonl")
    assert {r["corpus"] for r in records} == {"cluto_tr31"} and len(records) == 6
    report = (out / "report.md").read_text()
    assert "Held-back half" in report and "Tuning half" not in report
    assert (out / "summary.json").exists()
    # a tuning corpus is not in the held-back half
    assert main(["-q", "benchmark", "--role", "held_back", "--corpora", "20newsgroups_rec",
                 "-o", str(out)]) == 2
    assert ("20newsgroups_rec is a corpus of --role tuning, not of --role held_back: name it "
            "with its role") in capsys.readouterr().err
    assert main(["-q", "benchmark", "--corpora", "no_such_corpus", "-o", str(out)]) == 2
    assert "unknown corpus 'no_such_corpus'" in capsys.readouterr().err


def test_the_confirmation_sets_are_listed_and_run_by_their_role(data_home, tmp_path, capsys):
    assert main(["benchmark", "--list"]) == 0
    header, _, *rows = capsys.readouterr().out.splitlines()
    assert header.startswith(f"data folder: {data_home}  ")
    listed = {line.split()[0]: line.split()[1:3] for line in rows}
    assert listed["cluto_tr31"] == ["held_back", "found"]
    # a draw is found when its parent is: none of this folder's corpora is a parent
    assert listed["tdt2_5c_1"] == ["confirm", "missing"]
    assert listed["fbis_10c_123"] == ["confirm2", "missing"]
    # --role lists that role's corpora (it listed all of them)
    assert main(["benchmark", "--list", "--role", "confirm2"]) == 0
    roles = {line.split()[1] for line in capsys.readouterr().out.splitlines()[2:]}
    assert roles == {"confirm2"}
    assert main(["-q", "benchmark", "--role", "confirm", "--corpora", "tdt2_5c_1",
                 "-o", str(tmp_path)]) == 2
    assert "corpora not found: tdt2_5c_1" in capsys.readouterr().err
    # the whole suite is both halves; a confirmation corpus is named with its role
    assert main(["-q", "benchmark", "--corpora", "tdt2_5c_1", "-o", str(tmp_path)]) == 2
    assert "tdt2_5c_1 is a corpus of --role confirm, not of --role all: name it with its role" \
        in capsys.readouterr().err


def test_the_folder_is_a_benchmarks_own_or_new(data_home, tmp_path, capsys):
    """benchmark wrote its files into any folder: over a user's report.md, into another
    command's result folder (one run's, whole), which the next run of that command then
    replaced whole with the user's files in it."""
    def bench(out):
        return main(["-q", "benchmark", "--role", "held_back", "--corpora", "cluto_tr31",
                     "--methods", "nmf", "--runs", "1", "--jobs", "1", "-o", str(out)])

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "report.md").write_text("my report")
    assert bench(mine) == 2
    assert "holds report.md, which benchmark would overwrite" in capsys.readouterr().err
    assert (mine / "report.md").read_text() == "my report"
    result = tmp_path / "result"
    assert main(["-q", "demo", "-o", str(result)]) == 0
    assert bench(result) == 2
    assert "is the result folder of another docnmf command" in capsys.readouterr().err
    assert not (result / "results.jsonl").exists()
    # nor inside one: that folder could then not be written again
    assert bench(result / "sub") == 2
    assert f"is inside {result.resolve()}, a folder docnmf wrote" in capsys.readouterr().err
    assert not (result / "sub").exists()
    # a folder with other files but none of benchmark's takes them beside its own, and again
    (mine / "report.md").unlink()
    (mine / "notes.txt").write_text("my notes")
    assert bench(mine) == 0 and bench(mine) == 0
    assert (mine / "notes.txt").read_text() == "my notes" and (mine / "report.md").exists()


def test_bad_entries_are_one_line_errors(data_home, tmp_path, capsys):
    for entry, message in [("nmf-xyz", "unknown suite entry"),
                           ("cf:lam=1", "cf is defined by lam=0.0"),
                           ("nmf:labels", "options are written name=value"),
                           # values as a fit checks them, before any corpus is read
                           ("nmf:tol=abc", "suite entry 'nmf:tol=abc': tol must be a number"),
                           ("lccf:n_neighbors=0", "suite entry 'lccf:n_neighbors=0': "),
                           ("nmf:solver=newton", "unknown solver 'newton'"),
                           # passed the option check, then failed in the first fit
                           ("nmf-ncw:random_state=5", ("the suite sets random_state (--seed "
                                                       "and --runs)")),
                           ("nmf:n_clusters=3", "the suite sets n_clusters"),
                           # the last one was kept, without a word
                           ("nmf:tf=sublinear,tf=binary", "tf is given twice")]:
        assert main(["-q", "benchmark", "--methods", entry, "-o", str(tmp_path)]) == 2
        assert message in capsys.readouterr().err


def test_entry_names_are_taken_in_any_case_and_recorded_in_lower_case():
    # cluster's --method takes NMF; benchmark refused it as an unknown suite entry
    assert parse_entry("NMF:tf=sublinear") == parse_entry("nmf:tf=sublinear")
    assert parse_entry(" Default ").method == parse_entry("default").method
    peer = parse_entry("SKLEARN-KM")
    assert peer.is_peer and peer.name == "sklearn-km"
    with pytest.raises(ProtocolError, match="separated by spaces"):
        parse_entry("NMF,NMF-NCW")
    # an error quotes the entry as it was written
    with pytest.raises(ProtocolError, match="unknown suite entry 'Foo'"):
        parse_entry("Foo")
    with pytest.raises(ProtocolError, match="suite entry 'NMF:tol=abc': tol must be a number"):
        parse_entry("NMF:tol=abc")


def test_report_counts_ties_within_the_tie_width():
    cells = {("a", "x"): Cell(0.80, 0, 0, 0, 1, 0), ("a", "sklearn-km"): Cell(0.80 + TIE / 2, 0, 0,
                                                                              0, 1, 0),
             ("b", "x"): Cell(0.70, 0, 0, 0, 1, 0), ("b", "sklearn-km"): Cell(0.60, 0, 0, 0, 1, 0),
             ("c", "x"): Cell(0.40, 0, 0, 0, 1, 0), ("c", "sklearn-km"): Cell(0.50, 0, 0, 0, 1, 0)}
    cmp = head_to_head(cells, "x", "sklearn-km", ["a", "b", "c"])
    assert (cmp.wins, cmp.ties, cmp.losses) == (1, 1, 1)
    assert cmp.worst == ("c", pytest.approx(-0.1))


def test_report_has_both_halves_the_whole_and_the_goals(data_home, tmp_path):
    records = run_suite(tmp_path / "r.jsonl", ["default", "nmf", "lccf", "sklearn-km",
                                               "sklearn-nmf"], corpora=CORPORA, runs=1,
                        data_home=data_home)
    text = format_benchmark_report(records)
    for title in ("Tuning half", "Held-back half", "Whole suite", "Mean rank", "Goals",
                  "Shortfall to the best peer"):
        assert title in text
    # the spread is said to be the population's (evaluate's is the sample's); one is a corpus
    assert "### Accuracy (mean ± population std, ddof 0, over runs;" in text
    assert ": 1 corpus\n" in text and "1 corpora" not in text
    # two corpora are not the suite: the goals say so
    assert "Measured on 1 of the 15 corpora declared here: a partial run" in text
    assert "Measured on 2 of the 29 corpora declared here" in text
    paths = write_benchmark_report(tmp_path / "rep", records)
    assert [p.name for p in paths][:2] == ["report.md", "summary.json"]


def test_the_default_entry_clusters_a_degenerate_result_again_as_the_command_does(
        outlier_topics, tmp_path, monkeypatch):
    """The default is what ``docnmf cluster`` keeps: where LCCF-NCW's clusters are degenerate
    (two nearly empty) it is the fallback's result from the same seed."""
    topics = {**outlier_topics}
    junk = topics.pop("junk")
    topics["t0"] = topics["t0"] + junk      # three classes, the four odd documents in one
    texts = [t for label in topics for t in topics[label]]
    corpus = Corpus(texts=texts, labels=[(label,) for label in topics for _ in topics[label]],
                    ids=[f"d{i}" for i in range(len(texts))])
    monkeypatch.setattr(benchmark, "load_suite_corpus", lambda corpus_, data_home=None: corpus)
    records = run_suite(tmp_path / "r.jsonl", ["default", DEFAULT_METHOD, DEFAULT_FALLBACK],
                        corpora=CORPORA[:1], runs=1)
    fit = {r["entry"]: r for r in records}
    default, plain = fit["default"], fit[DEFAULT_METHOD]
    assert default["fallback"] == DEFAULT_FALLBACK and "fallback" not in plain
    replaced = default["replaced"]
    assert replaced["method"] == DEFAULT_METHOD and replaced["by"] == DEFAULT_FALLBACK
    assert degenerate(replaced["cluster_sizes"]) and sum(replaced["cluster_sizes"]) == len(texts)
    assert "replaced" not in plain
    assert default["accuracy"] == fit[DEFAULT_FALLBACK]["accuracy"] > plain["accuracy"]
    text = format_benchmark_report(records)
    assert ("The default's result was degenerate on 1 of its 1 fits, which consensus clustered "
            "again (as `docnmf cluster` does): 20newsgroups_rec.") in text
    # fits of the default made before it had this fallback are not reused as the default
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    old = [json.loads(line) for line in lines[1:]]
    for r in old:
        r.pop("fallback", None)
    (tmp_path / "r.jsonl").write_text("\n".join([lines[0], *map(json.dumps, old)]) + "\n")
    with pytest.raises(ProtocolError, match="fallback for degenerate results was none"):
        run_suite(tmp_path / "r.jsonl", ["default"], corpora=CORPORA[:1], runs=1)


def test_a_drawn_corpus_keeps_its_classes_and_reports_apart(data_home, tmp_path):
    drawn = SuiteCorpus("tr31_2c", "confirm", "trec-tr31", "TREC", "counts", 24, 2,
                        parent="cluto_tr31", draw=1)
    records = run_suite(tmp_path / "r.jsonl", ["default", "sklearn-km"],
                        corpora=[drawn, *CORPORA], runs=1, data_home=data_home)
    mine = [r for r in records if r["corpus"] == "tr31_2c"]
    assert len(mine) == 2 and all(r["k"] == 2 and r["n_docs"] == 24 for r in mine)
    assert {r["role"] for r in mine} == {"confirm"}
    text = format_benchmark_report(records)
    confirm = text.split("## Confirmation set")[1]
    assert "tr31_2c" in confirm and "cluto_tr31" not in confirm
    # the whole suite is both halves: the confirmation set stays out of it
    assert "tr31_2c" not in text.split("## Whole suite")[1].split("## Confirmation set")[0]
    # with one half only, the whole suite would repeat it and is left out
    one_half = format_benchmark_report([r for r in records if r["corpus"] != "20newsgroups_rec"])
    assert "## Held-back half" in one_half and "## Whole suite" not in one_half


def test_pairs_entries_share_one_draw_per_run_and_count_broken_must_links(data_home, tmp_path):
    entries = ["ssnmf:pairs=0.05", "ss-kk:kernel=linear,pairs=0.05", "ssnmf:pairs=0"]
    records = run_suite(tmp_path / "r.jsonl", entries, corpora=CORPORA[1:], runs=2,
                        data_home=data_home)
    by = {(r["entry"], r["run"]): r for r in records}
    for run in (0, 1):
        a, b = by["ssnmf:pairs=0.05", run], by["ss-kk:kernel=linear,pairs=0.05", run]
        assert a["pairs"] == b["pairs"] and sum(a["pairs"]) == round(0.05 * 36 * 35 / 2)
        assert 0 <= a["broken_must_links"] <= a["pairs"][0]
        assert by["ssnmf:pairs=0", run]["pairs"] == [0, 0]
    assert by["ssnmf:pairs=0.05", 0]["pairs"] != by["ssnmf:pairs=0.05", 1]["pairs"] or \
        by["ssnmf:pairs=0.05", 0]["random_state"] != by["ssnmf:pairs=0.05", 1]["random_state"]
    with pytest.raises(ProtocolError, match="semi-supervised"):
        parse_entry("nmf:pairs=0.1")


def test_an_empty_list_is_no_list_and_a_repeated_name_runs_once(data_home, tmp_path, capsys):
    """An unset shell variable ('--corpora ""') started the whole suite, hours of it; and
    '--methods nmf,nmf' ran and reported NMF twice."""
    from docnmf.cli import _comma_list

    assert main(["-q", "benchmark", "--corpora", "", "-o", str(tmp_path / "b")]) == 2
    assert "no corpus given" in capsys.readouterr().err
    for methods in ("", ","):
        assert main(["-q", "reproduce", "cai2011-tdt2", "--methods", methods,
                     "-o", str(tmp_path / "r")]) == 2
        assert "no method given" in capsys.readouterr().err
    assert not (tmp_path / "b").exists() and not (tmp_path / "r").exists()
    assert _comma_list("nmf, nmf,nmf-ncw,nmf", "method", ["nmf", "nmf-ncw"]) == ["nmf", "nmf-ncw"]


def test_an_entry_named_twice_is_fitted_and_counted_once(data_home, tmp_path, caplog):
    """'--methods nmf-ncw nmf-ncw' made every fit twice and the report counted 4 fits of 2."""
    with caplog.at_level("WARNING", logger="docnmf"):
        records = run_suite(tmp_path / "results.jsonl", ["nmf", "nmf", "sklearn-km"],
                            corpora=CORPORA[1:], runs=2, data_home=data_home)
    assert sorted((r["entry"], r["run"]) for r in records) == [
        ("nmf", 0), ("nmf", 1), ("sklearn-km", 0), ("sklearn-km", 1)]
    assert len(_fits(tmp_path / "results.jsonl")) == 4
    assert "an entry given more than once runs once" in caplog.text


def test_the_file_system_s_root_and_the_home_folder_are_refused(data_home, tmp_path, capsys,
                                                                monkeypatch):
    """As root, -o / wrote the four files into the file system's root."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for folder, what in (("/", "a mount point"), (str(tmp_path), "the home folder")):
        assert main(["-q", "benchmark", "--corpora", "cluto_tr31", "--role", "held_back",
                     "--methods", "nmf", "--runs", "1", "-o", folder]) == 2
        assert f"{folder} is {what}; give benchmark a folder of its own" in \
            capsys.readouterr().err
    assert not (tmp_path / "results.jsonl").exists()


def test_without_matplotlib_the_missing_figure_is_said(monkeypatch, caplog):
    """benchmark left accuracy.png out without a word, where the other commands say so."""
    import logging
    import sys

    from docnmf.experiments.benchmark_report import _plot

    for name in ("matplotlib", "matplotlib.pyplot"):
        monkeypatch.setitem(sys.modules, name, None)    # as where it is not installed
    with caplog.at_level(logging.WARNING, logger="docnmf"):
        assert _plot({}, [], []) is None
    assert "matplotlib is not installed: no accuracy.png (pip install 'docnmf[plot]')" in caplog.text
