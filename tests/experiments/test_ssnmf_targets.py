"""The SS-NMF paper's targets: data sets of Table 2, published numbers, Tables 3-4, Figures 3-4."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_selection import mutual_info_classif

from docnmf.cli import main
from docnmf.corpus._paths import data_dir
from docnmf.experiments import ssnmf_targets as st
from docnmf.experiments.ssnmf_data import (
    DATASETS,
    ConstraintDataset,
    available_datasets,
    prepare_dataset,
    presence_mutual_information,
    top_fraction,
)
from docnmf.experiments.targets import TargetOptions

PAPER_TEXT = data_dir().parent / "papers" / "chen2008_ssnmf_constraints.md"


def planted(name: str, k: int, per_class: int = 12, n_terms: int = 30, seed: int = 0
            ) -> ConstraintDataset:
    """Poisson counts with one block of terms per class, as a prepared data set."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), per_class)
    rate = np.full((k, n_terms), 0.1)
    for c, block in enumerate(np.array_split(np.arange(n_terms), k)):
        rate[c, block] = 2.0
    X = sp.csr_matrix(rng.poisson(rate[y]).astype(np.float64))
    names = tuple(f"class_{c:02d}" for c in range(k))
    return ConstraintDataset(name, X, y, names, names, np.arange(len(y)), np.arange(n_terms),
                             n_terms, {})


@pytest.fixture
def tiny_sets():
    return {"Interest-Trade": planted("Interest-Trade", 2), "Fbis3": planted("Fbis3", 3, seed=1)}


FAST = TargetOptions(runs=2, restarts=1, seed=5)


# --- feature selection ---------------------------------------------------------------------------


def test_presence_mutual_information_equals_sklearn():
    rng = np.random.default_rng(0)
    X = sp.random(80, 40, density=0.15, random_state=3, format="csr")
    y = rng.integers(0, 3, 80)
    expected = mutual_info_classif((X > 0).astype(int), y, discrete_features=True)
    np.testing.assert_allclose(presence_mutual_information(X, y), expected, atol=1e-12)


def test_top_fraction_keeps_ten_percent_of_the_most_informative_words():
    data = planted("x", 2, per_class=20, n_terms=50)
    mi = presence_mutual_information(data.X, data.y)
    kept = top_fraction(mi, 0.10)
    assert len(kept) == 5 and np.all(np.diff(kept) > 0)
    assert mi[kept].min() >= np.delete(mi, kept).max()


# --- published numbers ---------------------------------------------------------------------------


def test_published_tables_are_consistent():
    assert st.PAPER_TABLE3["ssnmf"]["Fbis5"] == 0.7520
    assert st.PAPER_TABLE3["km"]["Interest-Trade"] == 0.7228
    assert list(st.PAPER_TABLE3["nc"]) == ["Graft-Phos", "England-Heart", "Interest-Trade",
                                           "Fbis2", "Fbis3", "Fbis4", "Fbis5"]
    for pct, (c_text, s_text) in st.PAPER_TABLE4["Interest-Trade"].items():
        assert st.paper_matrix(c_text).sum(axis=0).tolist() == [219, 219]
        S = st.paper_matrix(s_text)
        assert S[0, 1] == S[1, 0] == 0
    assert st.paper_matrix(st.PAPER_TABLE4["Fbis5"][0][0]) is None
    # Table 4's 0% and 3% matrices have the accuracies of Table 3's NMF and SS-NMF rows
    for name in ("Graft-Phos", "England-Heart", "Interest-Trade"):
        points = st.PAPER_FIGURE_POINTS[name]
        assert points[3.0] == (st.PAPER_TABLE3["ssnmf"][name], "Table 3")
        C0 = st.paper_matrix(st.PAPER_TABLE4[name][0][0])
        assert st._matrix_accuracy(C0) == pytest.approx(st.PAPER_TABLE3["nmf"][name], abs=5e-5)
    assert points[1.0][0] == pytest.approx(434 / 438)


def test_transcription_matches_the_paper_text():
    if not PAPER_TEXT.exists():
        pytest.skip(f"{PAPER_TEXT} not found")
    lines = PAPER_TEXT.read_text(encoding="utf-8").splitlines()
    labels = {"km": "$k$ -means", "kernel-km": "kernel $k$ -means", "nc": "SNC", "nmf": "NMF",
              "ssnmf": "SS-NMF"}
    for method, row in st.PAPER_TABLE3.items():
        printed = "\t".join([labels[method], *(f"{v:.4f}" for v in row.values())])
        assert printed in lines
    table4 = [line.split("\t") for line in lines if "<b>C</b>" in line or "<b>S</b>" in line]
    for name, cells in st.PAPER_TABLE4.items():
        column = list(st.PAPER_TABLE4).index(name)
        for n, pct in enumerate(sorted(cells)):
            for m, text in enumerate(cells[pct]):
                fields = table4[2 * n + m][2:]
                printed = fields[column] if column < 3 else " / ".join(fields[3:6])
                assert printed == text, (name, pct, m)


def test_matched_confusion_orders_clusters_by_their_class():
    y = np.array([0, 0, 0, 1, 1, 2, 2, 2])
    labels = np.array([2, 2, 1, 0, 0, 1, 1, 1])
    C, order = st.matched_confusion(y, labels, 3)
    assert order.tolist() == [2, 0, 1]
    assert C.tolist() == [[2, 0, 0], [0, 2, 0], [1, 0, 3]]


# --- the targets end to end (planted data: seconds) --------------------------------------------


def test_table3_end_to_end(tiny_sets, tmp_path):
    report = st.run_table3(tmp_path, FAST, datasets=tiny_sets)
    text = report.read_text()
    for value in ("0.7228", "0.4728", "0.9950", "0.7520", "1.0000"):
        assert value in text
    assert "n/a" in text and "not available (OHSUMED)" in text
    runs = json.loads((tmp_path / "results.json").read_text())["runs"]
    assert len(runs) == 2 * 8 * 2  # data sets x (method, %) cells x runs
    semi = [r for r in runs if r["method"] in st.SEMI_SUPERVISED and r["percent"] == 3.0]
    assert all(r["constraint_seed"] is not None and r["n_must_link"] > 0 for r in semi)
    # the three semi-supervised methods of a run get the same pairs
    for name in tiny_sets:
        for run in range(2):
            seeds = {r["constraint_seed"] for r in semi if r["dataset"] == name and r["run"] == run}
            assert len(seeds) == 1
    assert {r["seed"] for r in runs} == {5} and all(r["restarts"] == 1 for r in runs)
    # a second invocation reuses every run
    assert "0 runs computed, 32 reused" in st.run_table3(tmp_path, FAST, datasets=tiny_sets
                                                        ).read_text()


def test_table4_end_to_end(tiny_sets, tmp_path):
    report = st.run_table4(tmp_path, FAST, datasets=tiny_sets)
    text = report.read_text()
    assert "215 15<br>4 204" in text and "2.2788 0.0000<br>0.0000 2.0855" in text
    assert "0 0 0 0 6.7312 0 0 5.9222" in text  # Fbis5, as printed
    assert "(run " in text and "Ours: not available" in text
    runs = json.loads((tmp_path / "results.json").read_text())["runs"]
    assert len(runs) == 4 * 2  # only Interest-Trade of the planted sets is a Table 4 set
    assert all(np.asarray(r["S"]).shape == (2, 2) for r in runs)


def test_figures_end_to_end_and_reproducible(tiny_sets, tmp_path):
    report = st.run_figures(tmp_path / "a", FAST, datasets=tiny_sets, percents=(0.0, 3.0))
    text = report.read_text()
    assert (tmp_path / "a" / "fig3.png").stat().st_size > 1000
    assert (tmp_path / "a" / "fig4.png").exists()
    assert "0.9566 (Table 4 C)" in text and "1.0000 (Table 3)" in text
    assert "Not available: Graft-Phos, England-Heart" in text
    again = st.run_figures(tmp_path / "b", FAST, datasets=tiny_sets, percents=(0.0, 3.0))
    first = json.loads((tmp_path / "a" / "results.json").read_text())["runs"]
    second = json.loads((again.parent / "results.json").read_text())["runs"]
    assert [r["accuracy"] for r in first] == [r["accuracy"] for r in second]


def test_reproduce_lists_the_targets(capsys):
    assert main(["reproduce", "--list"]) == 0
    out = capsys.readouterr().out
    for name in ("chen2008-table3", "chen2008-table4", "chen2008-fig3-4"):
        assert re.search(rf"^{name}\s+(found|missing)", out, re.MULTILINE)


# --- real data -----------------------------------------------------------------------------------


@pytest.mark.datasets
def test_data_sets_have_the_papers_sizes(datasets_dir):
    names = available_datasets(datasets_dir)
    assert names == ["Interest-Trade", "Fbis2", "Fbis3", "Fbis4", "Fbis5"]
    sets = {n: prepare_dataset(n, data_home=datasets_dir) for n in names}
    for name, data in sets.items():
        plan = DATASETS[name]
        assert data.X.shape[0] == plan.docs and data.n_classes == plan.clusters
        assert data.X.shape[1] == round(0.1 * data.n_words_present)
        assert data.X.nnz > 0 and data.X.data.min() >= 1  # raw counts
    assert sets["Interest-Trade"].class_sizes() == [219, 219]
    assert sets["Interest-Trade"].source_classes == ("class_05", "class_02")
    assert sets["Interest-Trade"].info["words_in_both_full_classes"] == 2682  # Table 2
    for k in (2, 3, 4, 5):
        fbis = sets[f"Fbis{k}"]
        assert fbis.class_sizes() == [100] * k
        assert fbis.source_classes == sets["Fbis5"].source_classes[:k]
        rows = dict(zip(fbis.source_classes, np.split(fbis.documents, k)))
        for cls, docs in rows.items():  # a class gives the same documents to every Fbis-k
            five = dict(zip(sets["Fbis5"].source_classes, np.split(sets["Fbis5"].documents, 5)))
            assert np.array_equal(docs, five[cls])
    with pytest.raises(Exception, match="OHSUMED"):
        prepare_dataset("Graft-Phos", data_home=datasets_dir)


@pytest.mark.datasets
def test_targets_on_real_data(datasets_dir, tmp_path):
    real = {n: prepare_dataset(n, data_home=datasets_dir) for n in ("Interest-Trade", "Fbis2")}
    one = TargetOptions(runs=1, restarts=1)
    text = st.run_table3(tmp_path / "t3", one, datasets=real).read_text()
    assert "Interest (class_05), Trade (class_02) | 219/219" in text
    assert "| 2 / 2682 / 438 |" in text
    text = st.run_figures(tmp_path / "f", one, datasets=real, percents=(0.0, 3.0)).read_text()
    assert "### Fbis2" in text and (tmp_path / "f" / "fig4.png").exists()


@pytest.mark.datasets
def test_reproduce_table4_from_the_command_line(datasets_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DOCNMF_DATA", str(datasets_dir))
    out = tmp_path / "t4"
    assert main(["reproduce", "chen2008-table4", "--runs", "1", "--restarts", "1", "--jobs", "1",
                 "-o", str(out)]) == 0
    assert f"report: {out / 'report.md'}" in capsys.readouterr().out
    text = (out / "report.md").read_text()
    assert "## Fbis5" in text and "216 1<br>3 218" in text
    runs = json.loads((out / "results.json").read_text())["runs"]
    assert {(r["dataset"], r["percent"]) for r in runs} == {
        (d, p) for d in ("Interest-Trade", "Fbis5") for p in (0.0, 1.0, 3.0, 5.0)}
