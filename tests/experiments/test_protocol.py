"""The protocol runner: seeded subsets, weightings, parallel = serial, resume, refusal."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

from docnmf.experiments import (
    Protocol,
    ProtocolError,
    aggregate,
    choose_classes,
    method_seed,
    run_protocol,
)
from docnmf.experiments import protocol as protocol_module
from docnmf.experiments.conditions import subset_indices, weigh_subset
from docnmf.experiments.results import run_key

SCORES = ("accuracy", "nmi", "purity", "n_docs", "n_terms", "classes", "random_state")


def small_protocol(condition, **overrides) -> Protocol:
    params = dict(condition=condition, methods=("nmf", "nmf-ncw"), k_values=(2, 3), runs=3,
                  restarts=2, seed=7, weightings=("xu-subset", "cai-global"))
    params.update(overrides)
    return Protocol(**params)


def scores_by_key(records):
    return {run_key(r): {f: r[f] for f in SCORES} for r in records}


def test_class_choice_is_seeded_and_independent_of_order():
    plan = [(k, r) for k in range(2, 8) for r in range(10)]
    forward = {(k, r): choose_classes(56, k, 3, r).tolist() for k, r in plan}
    backward = {(k, r): choose_classes(56, k, 3, r).tolist() for k, r in reversed(plan)}
    assert forward == backward
    assert all(len(set(v)) == k and v == sorted(v) for (k, _), v in forward.items())
    assert len({tuple(v) for (k, _), v in forward.items() if k == 3}) > 5  # runs differ
    assert choose_classes(56, 3, 4, 0).tolist() != forward[(3, 0)] or \
        choose_classes(56, 3, 4, 1).tolist() != forward[(3, 1)]  # the seed matters


def test_method_seed_depends_on_the_method_not_on_the_method_list():
    seeds = {m: method_seed(0, 3, 1, m) for m in ("nmf", "nmf-ncw", "km")}
    assert len(set(seeds.values())) == 3
    assert seeds["nmf"] == method_seed(0, 3, 1, "nmf")
    assert method_seed(0, 3, 1, "nmf") != method_seed(0, 3, 2, "nmf")


def test_weightings_on_a_subset(planted_data):
    idx = subset_indices(planted_data.y, np.array([0, 2]))
    assert set(planted_data.y[idx]) == {0, 2}
    for weighting in ("xu-subset", "cai-global"):
        X = weigh_subset(planted_data, idx, weighting)
        assert X.shape[0] == len(idx)
        assert (X.getnnz(axis=0) > 0).all()  # all-zero columns dropped
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
        np.testing.assert_allclose(norms[norms > 0], 1.0)
    # xu-subset: idf from the subset; a term in every subset document weighs 0
    counts = planted_data.counts[idx].toarray()
    df = (counts > 0).sum(axis=0)
    X = weigh_subset(planted_data, idx, "xu-subset")
    assert X.shape[1] == int(((df > 0) & (df < len(idx))).sum())
    with pytest.raises(ProtocolError, match="unknown weighting"):
        weigh_subset(planted_data, idx, "bm25")


def test_parallel_equals_serial(planted_data, planted_condition, tmp_path):
    p = small_protocol(planted_condition, weightings=("xu-subset",))
    serial = run_protocol(p, tmp_path / "serial.jsonl", jobs=1, data=planted_data)
    parallel = run_protocol(p, tmp_path / "parallel.jsonl", jobs=2, data=planted_data)
    assert len(serial.records) == len(p.tasks()) == 12
    assert scores_by_key(serial.records) == scores_by_key(parallel.records)
    assert {r["accuracy"] for r in serial.records} != {0.0}


def test_results_file_layout(planted_data, planted_condition, tmp_path):
    p = small_protocol(planted_condition, runs=1)
    result = run_protocol(p, tmp_path / "r.jsonl", jobs=1, data=planted_data)
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    assert header["kind"] == "header"
    assert header["params"]["seed"] == 7 and header["params"]["restarts"] == 2
    assert header["params"]["data"]["n_docs"] == planted_data.counts.shape[0]
    records = [json.loads(line) for line in lines[1:]]
    assert len(records) == len(result.computed) == 8
    for r in records:
        assert 0 <= r["accuracy"] <= 1 and 0 <= r["nmi"] <= 1 and 0 <= r["purity"] <= 1
        assert r["seconds"] >= 0 and r["n_docs"] > 0 and len(r["classes"]) == r["k"]


def test_a_run_of_fewer_methods_keeps_only_its_own_records(planted_data, planted_condition,
                                                            tmp_path, caplog):
    """Resumed from a file of more methods, a run reuses their runs and writes its own only:
    the published results.jsonl is one run's, and the records dropped are said to be."""
    path = tmp_path / "results.jsonl"
    both = run_protocol(small_protocol(planted_condition), path, jobs=1, data=planted_data)
    with caplog.at_level("WARNING", logger="docnmf"):
        one = run_protocol(small_protocol(planted_condition, methods=("nmf",)), path, jobs=1,
                           data=planted_data)
    dropped = len(both.records) - len(one.records)
    assert f"{dropped} records of runs outside this plan (other methods, k or runs) are " \
        "dropped" in caplog.text
    assert one.n_reused == len(one.records) and not one.computed
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["kind"] == "header"
    assert sorted(map(run_key, lines[1:])) == sorted(map(run_key, one.records))
    assert {r["method"] for r in lines[1:]} == {"nmf"}
    assert scores_by_key(one.records) == {k: v for k, v in scores_by_key(both.records).items()
                                          if k in set(map(run_key, one.records))}


def test_resume_computes_only_missing_runs(planted_data, planted_condition, tmp_path,
                                           monkeypatch, caplog):
    p = small_protocol(planted_condition)
    clean = run_protocol(p, tmp_path / "clean.jsonl", jobs=1, data=planted_data)

    path = tmp_path / "damaged.jsonl"
    lines = (tmp_path / "clean.jsonl").read_text().splitlines(keepends=True)
    header, body = lines[0], lines[1:]
    deleted = [body[3], body[10]]
    kept = [line for line in body if line not in deleted]
    torn = kept[-1]
    # two lines deleted, the last one cut in the middle as by a kill during the write
    path.write_text(header + "".join(kept[:-1]) + torn[: len(torn) // 2])
    missing = {run_key(json.loads(line)) for line in deleted + [torn]}

    calls = []
    real = protocol_module.run_task

    def counting(*args, **kwargs):
        record = real(*args, **kwargs)
        calls.append(run_key(record))
        return record

    monkeypatch.setattr(protocol_module, "run_task", counting)
    with caplog.at_level(logging.INFO, logger="docnmf"):
        resumed = run_protocol(p, path, jobs=1, data=planted_data)
    assert set(calls) == set(resumed.computed) == missing and len(calls) == 3
    assert resumed.n_reused == len(p.tasks()) - 3
    assert "reusing 21 of 24 runs" in caplog.text
    assert scores_by_key(resumed.records) == scores_by_key(clean.records)
    strip = ("seconds",)
    assert _without(aggregate(resumed.records), strip) == _without(aggregate(clean.records), strip)
    # the torn line is gone and every line is whole
    text = path.read_text()
    assert text.endswith("\n")
    assert len([json.loads(line) for line in text.splitlines()]) == 1 + len(p.tasks())

    calls.clear()
    again = run_protocol(p, path, jobs=1, data=planted_data)
    assert calls == [] and again.computed == [] and again.n_reused == len(p.tasks())


def _without(rows, metrics):
    return {key: row for key, row in rows.items() if key[2] not in metrics}


def test_more_runs_and_methods_extend_the_file(planted_data, planted_condition, tmp_path):
    path = tmp_path / "r.jsonl"
    run_protocol(small_protocol(planted_condition, runs=2, methods=("nmf",)), path, jobs=1,
                 data=planted_data)
    more = run_protocol(small_protocol(planted_condition, runs=3), path, jobs=1,
                        data=planted_data)
    assert len(more.computed) == len(more.records) - 2 * 2 * 2
    assert all(key[2] == "nmf-ncw" or key[4] == 2 for key in more.computed)
    fewer = run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1,
                         data=planted_data)
    assert fewer.computed == [] and len(fewer.records) == 2 * 2 * 2  # only the planned runs


@pytest.mark.parametrize("change, message", [
    ({"seed": 8}, "seed: 7 there, 8 now"),
    ({"restarts": 3}, "restarts: 2 there, 3 now"),
])
def test_resume_with_other_parameters_is_refused(change, message, planted_data,
                                                 planted_condition, tmp_path):
    path = tmp_path / "r.jsonl"
    run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1, data=planted_data)
    before = path.read_text()
    with pytest.raises(ProtocolError, match=message):
        run_protocol(small_protocol(planted_condition, runs=1, **change), path, jobs=1,
                     data=planted_data)
    assert path.read_text() == before  # nothing mixed in


def test_resume_on_other_data_is_refused(planted_data, planted_condition, tmp_path):
    from dataclasses import replace

    path = tmp_path / "r.jsonl"
    run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1, data=planted_data)
    other = replace(planted_data, counts=planted_data.counts[:, :-1])
    with pytest.raises(ProtocolError, match="data.n_terms"):
        run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1, data=other)


def test_resume_on_documents_moved_between_classes_is_refused(planted_data, planted_condition,
                                                              tmp_path, caplog):
    """The header held the data's sizes alone: with two documents' classes swapped the old
    scores were reused."""
    from dataclasses import replace

    path = tmp_path / "r.jsonl"
    run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1, data=planted_data)
    y = planted_data.y.copy()
    first, other = 0, int(np.flatnonzero(y != y[0])[0])
    y[[first, other]] = y[[other, first]]
    with pytest.raises(ProtocolError, match="data.digest"):
        run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1,
                     data=replace(planted_data, y=y))
    # a file written before the header held a digest is still taken up
    header, *records = path.read_text().splitlines()
    old = json.loads(header)
    del old["params"]["data"]["digest"]
    path.write_text("\n".join([json.dumps(old), *records]) + "\n")
    with caplog.at_level(logging.INFO, logger="docnmf"):
        again = run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1,
                             data=planted_data)
    assert again.computed == [] and "without checking that the data are the same" in caplog.text
    # the header holds the digest from then on: moved documents are refused again
    assert "digest" in json.loads(path.read_text().splitlines()[0])["params"]["data"]
    assert len(path.read_text().splitlines()) == 1 + len(records)
    with pytest.raises(ProtocolError, match="data.digest"):
        run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1,
                     data=replace(planted_data, y=y))


def test_damaged_middle_line_and_foreign_file_are_refused(planted_data, planted_condition,
                                                          tmp_path):
    path = tmp_path / "r.jsonl"
    p = small_protocol(planted_condition, runs=1)
    run_protocol(p, path, jobs=1, data=planted_data)
    lines = path.read_text().splitlines(keepends=True)
    lines[2] = lines[2][:20] + "\n"
    path.write_text("".join(lines))
    with pytest.raises(ProtocolError, match="line 3, is not valid JSON"):
        run_protocol(p, path, jobs=1, data=planted_data)
    path.write_text('{"accuracy": 1}\n')
    with pytest.raises(ProtocolError, match="not a docnmf results file"):
        run_protocol(p, path, jobs=1, data=planted_data)


def test_a_torn_header_starts_afresh(planted_data, planted_condition, tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"format": 1, "kind": "hea')
    result = run_protocol(small_protocol(planted_condition, runs=1), path, jobs=1,
                          data=planted_data)
    assert len(result.computed) == 8


@pytest.mark.parametrize("change, message", [
    ({"k_values": (2, 7)}, "k=7 is more than the 6 classes"),
    ({"k_values": (1, 2)}, "at least 2"),
    # passed, and failed in the first fit: "seed must be integer"
    ({"k_values": (2.5,)}, "k_values must be whole numbers of at least 2, got 2.5"),
    ({"methods": ("nmf", "nope")}, "unknown method 'nope'"),
    ({"weightings": ("tfidf",)}, "unknown weighting 'tfidf'"),
])
def test_invalid_protocols(change, message, planted_data, planted_condition, tmp_path):
    with pytest.raises(ProtocolError, match=message):
        run_protocol(small_protocol(planted_condition, **change), tmp_path / "r.jsonl",
                     data=planted_data)
    assert not (tmp_path / "r.jsonl").exists()


def test_a_method_that_segments_texts_is_refused_on_a_count_matrix(planted_data,
                                                                   planted_condition, tmp_path):
    with pytest.raises(ProtocolError, match="nma segments the documents' texts, but 'planted' "
                                            "comes as term counts"):
        run_protocol(small_protocol(planted_condition, methods=("nmf", "nma"), runs=1),
                     tmp_path / "r.jsonl", jobs=1, data=planted_data)
    assert not (tmp_path / "r.jsonl").exists()


def test_the_eta_counts_larger_subsets_as_more_work(monkeypatch, caplog):
    """Runs at larger k take longer (5-11 times from k = 2 to 10 on 20 Newsgroups); counting
    runs alike put the ETA at a fifth to a half of the time left."""
    clock = iter([0.0, 1.0, 2.0, 3.0, 4.0])
    monkeypatch.setattr(protocol_module.time, "perf_counter", lambda: next(clock))
    tasks = [protocol_module.Task("tfidf", "km", k, r) for k in (2, 8) for r in range(2)]
    progress = protocol_module._Progress(tasks)
    with caplog.at_level(logging.INFO, logger="docnmf"):
        for t in tasks[:2]:         # the two runs at k = 2, one second each
            progress.step({"weighting": t.weighting, "method": t.method, "k": t.k, "run": t.run,
                           "accuracy": 1.0, "nmi": 1.0, "n_docs": 10, "seconds": 1.0})
    # 2 s for work 2 * 2^1.5; left: 2 * 8^1.5, eight times as much: 16 s, not 2 s
    assert caplog.records[-1].getMessage().endswith("ETA 16s")
