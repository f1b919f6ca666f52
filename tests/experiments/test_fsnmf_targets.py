"""The FS-NMF paper's targets: Figure 1 (CSTR similarity matrices) and Table 2 (accuracy)."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.corpus._paths import data_dir
from docnmf.experiments import fsnmf_targets as ft
from docnmf.experiments.targets import TargetOptions, all_targets

PAPER_TEXT = data_dir().parent / "papers" / "wang2010_feature_subset_nmf.md"


def test_targets_are_registered():
    targets = all_targets()
    assert {"wang2010-fig1", "wang2010-table2"} <= set(targets)


def test_published_table2_is_transcribed_from_the_paper():
    if not PAPER_TEXT.exists():
        pytest.skip(f"{PAPER_TEXT} not found")
    text = PAPER_TEXT.read_text(encoding="utf-8")
    # the conversion prints Table 2 column by column, eight rows each
    for col in ft.COLUMNS:
        column = "\n".join(f"{ft.PAPER_TABLE2[row][col]:.4f}" for row in ft.ROWS)
        assert column in text, col
    assert set(ft.NOT_IMPLEMENTED) | set(ft.METHODS) == set(ft.ROWS)


def test_reuters_subset_is_class_proportional_and_exact():
    y = np.repeat(np.arange(12), np.arange(12, 0, -1) * 50)
    idx = ft.reuters_subset(y, n_docs=290, n_classes=10, seed=1)
    assert len(idx) == len(set(idx.tolist())) == 290
    assert set(np.unique(y[idx])) == set(range(10))
    assert np.array_equal(idx, ft.reuters_subset(y, n_docs=290, n_classes=10, seed=1))


def test_round_robin_takes_each_row_in_turn():
    scores = np.array([[5.0, 4.0, 0.0, 0.0], [5.0, 0.0, 3.0, 1.0]])
    assert ft._round_robin(scores, 3).tolist() == [0, 2, 1]


def test_similarity_matrix_is_cosine_on_chosen_features():
    X = sp.csr_matrix(np.array([[1.0, 0, 2], [0, 1.0, 0], [2.0, 0, 0]]))
    S = ft.similarity_matrix(X, np.array([0, 1]), np.array([2, 0, 1]))
    assert np.allclose(S, [[1, 1, 0], [1, 1, 0], [0, 0, 1]])


def test_figure1_end_to_end_on_cstr(datasets_dir, tmp_path):
    report = ft.run_figure1(tmp_path, TargetOptions(seed=0, restarts=1), data_home=datasets_dir)
    text = report.read_text(encoding="utf-8")
    assert "Figure 1" in text and "(c) LSI" in text
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    for method, _ in ft.FIG1_PANELS:
        panel = results["panels"][method]
        assert len(panel["features"]) == len(set(panel["features"])) == 20
    # the default solver's features separate CSTR's classes better than the degenerate fit's
    fix, raw = results["panels"]["fsnmf"], results["panels"]["fsnmf-paper"]
    assert fix["within"] - fix["between"] > raw["within"] - raw["between"]
    pytest.importorskip("matplotlib")
    assert (tmp_path / "fig1.png").read_bytes()[:4] == b"\x89PNG"


def test_table2_end_to_end_on_cstr(datasets_dir, tmp_path):
    data = {"CSTR": ft.prepare_cstr(datasets_dir)}
    assert data["CSTR"].X.shape == (475, 1000) and data["CSTR"].n_classes == 4
    methods = ("km", "lda-km", "ecc", "msrc", "nmf", "fsnmf-paper", "fsnmf")
    report = ft.run_table2(tmp_path, TargetOptions(runs=1, restarts=1, seed=0), datasets=data,
                           methods=methods)
    text = report.read_text(encoding="utf-8")
    assert "not implemented" not in text
    for row in ("LDA-Km", "ECC", "MSRC"):
        line = next(t for t in text.splitlines() if t.startswith(f"| {row} |"))
        assert " ± " in line, line
    assert "(0.6996)" in text  # the paper's FS-NMF accuracy on CSTR
    runs = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["runs"]
    assert {r["method"] for r in runs} == set(methods)
    assert all(0.25 <= r["accuracy"] <= 1.0 for r in runs)


def test_every_row_of_table2_has_a_method():
    from docnmf.methods import METHODS as REGISTRY

    assert ft.NOT_IMPLEMENTED == ()
    assert set(ft.METHODS) == set(ft.ROWS)
    assert all(m in REGISTRY for m in ft.METHODS.values() if not m.startswith("fsnmf"))


def small_datasets():
    rng = np.random.default_rng(0)
    out = {}
    for name, n in (("CSTR", 40), ("WebACE", 50)):
        y = np.arange(n) % 2
        X = rng.random((n, 12)) * 0.2
        X[y == 0, :6] += 1.0
        X[y == 1, 6:] += 1.0
        X /= np.linalg.norm(X, axis=1, keepdims=True)
        out[name] = ft.Dataset(name, sp.csr_matrix(X), y, ["a", "b"], None, f"{name} stand-in")
    return out


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_table2_appends_runs_and_resumes(tmp_path):
    data = small_datasets()
    methods = ("km", "ecc", "msrc", "lda-km")
    ft.run_table2(tmp_path, TargetOptions(runs=2, restarts=1, seed=0), datasets=data,
                  methods=methods)
    lines = read_jsonl(tmp_path / "results.jsonl")
    assert lines[0]["kind"] == "header" and lines[0]["params"]["seed"] == 0
    first = lines[1:]
    assert len(first) == 2 * 4 * 2
    assert {ft.table2_key(r) for r in first} == {(d, m, r) for d in data for m in methods
                                                 for r in range(2)}
    # an interrupted run: drop the last two records; the next invocation computes only those
    path = tmp_path / "results.jsonl"
    kept = path.read_text(encoding="utf-8").splitlines()[:-2]
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    ft.run_table2(tmp_path, TargetOptions(runs=2, restarts=1, seed=0), datasets=data,
                  methods=methods)
    again = read_jsonl(path)[1:]
    assert len(again) == len(first)
    assert again[:-2] == first[:-2]  # reused as they were, timings included
    recomputed = {ft.table2_key(r): r["accuracy"] for r in again[-2:]}
    assert recomputed == {ft.table2_key(r): r["accuracy"] for r in first[-2:]}
    # more runs reuse the first ones; other parameters are refused
    ft.run_table2(tmp_path, TargetOptions(runs=3, restarts=1, seed=0), datasets=data,
                  methods=("ecc",))
    assert len(read_jsonl(path)) == 1 + len(first) + 2
    from docnmf.experiments.conditions import ProtocolError

    with pytest.raises(ProtocolError, match="other parameters"):
        ft.run_table2(tmp_path, TargetOptions(runs=1, restarts=2, seed=0), datasets=data)


def test_table2_worker_processes_give_the_same_numbers(tmp_path):
    data = small_datasets()
    options = {"runs": 2, "restarts": 1, "seed": 3}
    ft.run_table2(tmp_path / "one", TargetOptions(**options), datasets=data,
                  methods=("ecc", "lda-km"))
    ft.run_table2(tmp_path / "two", TargetOptions(**options, jobs=2), datasets=data,
                  methods=("ecc", "lda-km"))

    def accuracies(folder):
        runs = json.loads((folder / "results.json").read_text(encoding="utf-8"))["runs"]
        return [(ft.table2_key(r), r["accuracy"]) for r in runs]

    assert accuracies(tmp_path / "one") == accuracies(tmp_path / "two")
