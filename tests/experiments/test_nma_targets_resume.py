"""The NMA targets' results file: resume, reuse on more runs, refusal, same numbers in parallel.

A planted corpus stands in for the paper's data sets (three topics with
their own words, six documents each), so every test runs in seconds.
"""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from docnmf.cli import main
from docnmf.cluster.nma import NMAClustering
from docnmf.experiments import nma_runner as runner
from docnmf.experiments import nma_targets as nt
from docnmf.experiments.conditions import ProtocolError
from docnmf.experiments.runner import derive_seed
from docnmf.experiments.targets import TARGETS, Target, TargetOptions, all_targets
from docnmf.metrics import purity

TOPICS = {
    "space": "orbit rocket launch planet astronaut telescope galaxy comet lunar satellite",
    "finance": "bank stock market interest loan bond investor dividend currency inflation",
    "medicine": "patient doctor disease vaccine surgery hospital symptom therapy virus dose",
}
SHARED = "report people today week time group number result public large".split()


def planted_corpus(n_per_class: int = 6, seed: int = 0) -> nt.NMACorpus:
    """Texts of six eight-word sentences, 80% of the words from the document's topic."""
    rng = np.random.default_rng(seed)
    texts, y = [], []
    for c, words in enumerate(TOPICS.values()):
        words = words.split()
        for _ in range(n_per_class):
            sentences = [" ".join(str(rng.choice(words if rng.random() < 0.8 else SHARED))
                                  for _ in range(8)).capitalize() + "." for _ in range(6)]
            texts.append(" ".join(sentences))
            y.append(c)
    return nt.NMACorpus("planted", tuple(texts), np.array(y), tuple(TOPICS))


#: Handed in as "Classic" (three classes, tables up to k = 3).
CORPORA = {"Classic": planted_corpus()}


def options(runs: int = 1, restarts: int = 1, seed: int = 0, jobs: int = 1) -> TargetOptions:
    return TargetOptions(runs=runs, restarts=restarts, seed=seed, jobs=jobs)


def lines(folder) -> list[dict]:
    """The records of ``folder/results.jsonl`` (its header dropped)."""
    rows = [json.loads(s) for s in (folder / "results.jsonl").read_text().splitlines()]
    assert rows[0]["kind"] == "header"
    return rows[1:]


@pytest.fixture
def computed(monkeypatch):
    """The settings each ``run_subset`` call computes, as (data set, k, run, settings)."""
    calls = []
    real = runner.run_subset

    def spy(data, task, **kwargs):
        calls.append((task.dataset, task.k, task.run, task.settings))
        return real(data, task, **kwargs)

    monkeypatch.setattr(runner, "run_subset", spy)
    return calls


def test_more_runs_reuse_the_earlier_ones(tmp_path, computed, caplog):
    nt.run_tables(tmp_path, options(runs=1), ks=(2,), corpora=CORPORA)
    first = (tmp_path / "results.jsonl").read_text()
    assert len(lines(tmp_path)) == len(nt.METHODS) and len(computed) == 1
    computed.clear()
    with caplog.at_level(logging.INFO, logger="docnmf"):
        nt.run_tables(tmp_path, options(runs=2), ks=(2,), corpora=CORPORA)
    # only run 1 is computed; run 0's lines stay as they were, byte for byte
    assert [(k, run) for _, k, run, _ in computed] == [(2, 1)]
    assert (tmp_path / "results.jsonl").read_text().startswith(first)
    records = lines(tmp_path)
    assert len(records) == 2 * len(nt.METHODS)
    report = json.loads((tmp_path / "results.json").read_text())["runs"]
    old = {nt.record_key(r): r["seconds"] for r in records[:len(nt.METHODS)]}
    assert {nt.record_key(r): r["seconds"] for r in report if r["run"] == 0} == old
    assert {r["method"] for r in report} == set(nt.METHODS)
    assert "reusing 6 of 12 records" in caplog.text and "[1/1] Classic k=2 run 1" in caplog.text
    text = (tmp_path / "report.md").read_text()
    assert "NMA (C99)" in text and "6 computed by the last invocation" in text
    assert "6 reused" in text
    computed.clear()
    nt.run_tables(tmp_path, options(runs=2), ks=(2,), corpora=CORPORA)
    assert computed == [] and len(lines(tmp_path)) == 2 * len(nt.METHODS)


def test_interrupted_run_continues_where_it_stopped(tmp_path, computed):
    nt.run_tables(tmp_path, options(runs=2), ks=(2,), corpora=CORPORA)
    full = lines(tmp_path)
    # as if killed while writing the fourth record: three complete lines and a torn one
    path = tmp_path / "results.jsonl"
    kept = path.read_text().splitlines()[:4]
    path.write_text("\n".join(kept) + "\n" + kept[-1][:20])
    computed.clear()
    nt.run_tables(tmp_path, options(runs=2), ks=(2,), corpora=CORPORA)
    redone = {run: [m for m, _, _ in settings] for _, _, run, settings in computed}
    assert len(computed) == 2 and redone == {0: list(nt.METHODS[3:]), 1: list(nt.METHODS)}
    again = lines(tmp_path)
    assert again[:3] == full[:3] and len(again) == len(full)
    strip = {"seconds", "segment_seconds"}
    assert (sorted(({k: v for k, v in r.items() if k not in strip} for r in again),
                   key=nt.record_key)
            == sorted(({k: v for k, v in r.items() if k not in strip} for r in full),
                      key=nt.record_key))


@pytest.mark.parametrize("change", [{"seed": 1}, {"restarts": 2}])
def test_other_parameters_are_refused(tmp_path, change):
    nt.run_tables(tmp_path, options(), ks=(2,), methods=("kmeans",), corpora=CORPORA)
    before = (tmp_path / "results.jsonl").read_text()
    with pytest.raises(ProtocolError, match=f"other parameters.*{next(iter(change))}"):
        nt.run_tables(tmp_path, options(**change), ks=(2,), methods=("kmeans",),
                      corpora=CORPORA)
    assert (tmp_path / "results.jsonl").read_text() == before


def test_another_version_of_a_corpus_is_refused(tmp_path):
    nt.run_topics(tmp_path, options(), ks=(2,), n_segments=2, corpora=CORPORA)
    with pytest.raises(ProtocolError, match="another version of that corpus"):
        nt.run_topics(tmp_path, options(), ks=(2,), n_segments=2,
                      corpora={"Classic": planted_corpus(seed=1)})


def test_cli_reports_refusal_as_an_error(tmp_path, monkeypatch, capsys):
    all_targets()
    real = TARGETS["wang2011-tables3-5"]
    monkeypatch.setitem(TARGETS, real.name, Target(
        real.name, real.title, real.paper, lambda: True,
        lambda outdir, opts: nt.run_tables(outdir, opts, ks=(2,), methods=("kmeans", "nmf"),
                                           corpora=CORPORA)))
    argv = ["reproduce", real.name, "--runs", "1", "--restarts", "1", "--jobs", "1",
            "-o", str(tmp_path)]
    assert main(argv + ["--seed", "0"]) == 0
    capsys.readouterr()
    assert main(argv + ["--seed", "3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("docnmf: error: ") and "seed: 0 there, 3 now" in err
    assert "Traceback" not in err


def test_two_jobs_give_the_numbers_of_one(tmp_path):
    opts = dict(ks=(2, 3), methods=("kmeans", "plsi", "nma", "nma-c99"), corpora=CORPORA)
    nt.run_tables(tmp_path / "one", options(runs=2, jobs=1), **opts)
    nt.run_tables(tmp_path / "two", options(runs=2, jobs=2), **opts)

    def numbers(folder):
        return sorted((nt.record_key(r), r["accuracies"], r["n_docs"], r["classes"])
                      for r in lines(folder))

    assert len(numbers(tmp_path / "one")) == 2 * 2 * 4
    assert numbers(tmp_path / "one") == numbers(tmp_path / "two")


def test_segments_and_topics_resume(tmp_path, computed):
    nt.run_segments(tmp_path / "seg", options(runs=1), ks=(2,), segments=(1, 2),
                    corpora=CORPORA)
    nt.run_topics(tmp_path / "top", options(runs=1), ks=(2,), n_segments=2, method="nma-c99",
                  corpora=CORPORA)
    assert len(lines(tmp_path / "seg")) == 2 and len(lines(tmp_path / "top")) == 8
    assert {r["segmenter"] for r in lines(tmp_path / "top")} == {"c99"}
    computed.clear()
    nt.run_segments(tmp_path / "seg", options(runs=2), ks=(2,), segments=(1, 2),
                    corpora=CORPORA)
    nt.run_topics(tmp_path / "top", options(runs=1), ks=(2,), n_segments=2, method="nma-c99",
                  corpora=CORPORA)
    assert [(k, run) for _, k, run, _ in computed] == [(2, 1)]
    assert "C99" in (tmp_path / "top" / "report.md").read_text()


def test_presegmented_nma_matches_nma_on_texts():
    # _evaluate cuts each subset once; the labels must be those of NMAClustering on texts
    texts, y, _ = nt.draw_subset(CORPORA["Classic"], 2, 0, 0)
    record = runner._evaluate(texts, y, [("nma-c99", 3, 3)], 2, 0, 0, 1)[0]
    rs = derive_seed(0, 2, 0, "nma-c99", 3, 3, 0)
    labels = NMAClustering(2, n_topics=3, n_segments=3, segmenter="c99", n_init=1,
                           random_state=rs).fit_predict(texts)
    assert record["accuracies"] == [purity(y, labels)]
    assert record["segmenter"] == "c99" and record["segment_seconds"] >= 0


def test_unknown_method_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown method 'nma-tt'"):
        nt.run_tables(tmp_path, options(), methods=("nma-tt",), corpora=CORPORA)
    with pytest.raises(ValueError, match="method must be one of"):
        nt.run_topics(tmp_path, options(), method="lda", corpora=CORPORA)
