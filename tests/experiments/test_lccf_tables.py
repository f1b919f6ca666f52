"""Cai et al. (2011): the CF/LCCF and kernelised rows of Tables 4-7, their presets, Figures 1-3."""

from __future__ import annotations

import json

import numpy as np
import pytest

from docnmf.baselines.kernel import KernelGraphCutClustering
from docnmf.baselines.kernel_kmeans import KernelKMeansClustering
from docnmf.cli import main
from docnmf.cluster import LCCFClustering
from docnmf.methods import METHODS, make_estimator
from docnmf.corpus._paths import data_dir
from docnmf.experiments import get_table
from docnmf.experiments.tables import display_name
from docnmf.factor.kernels import poly2_kernel

PAPER_NAMES = ("cf", "cf-ncw", "lccf", "lccf-ncw")
KERNEL_NAMES = ("km", "km-ncw", "aa", "nc", "cf", "cf-ncw", "lccf", "lccf-ncw")
NEW_METHODS = tuple(f"{m}-paper" for m in PAPER_NAMES) + tuple(f"{m}-poly2" for m in KERNEL_NAMES)
TABLES_BY_LABEL = [("cai2011-tdt2", "TABLE 4", "accuracy"), ("cai2011-tdt2", "TABLE 5", "nmi"),
                   ("cai2011-reuters", "TABLE 6", "accuracy"),
                   ("cai2011-reuters", "TABLE 7", "nmi")]


def _printed(label: str) -> tuple[dict, dict]:
    """The plain and the kernelised rows of one printed table, by lower-case method name."""
    path = data_dir().parent / "papers" / "cai2011_lccf.md"
    if not path.exists():
        pytest.skip(f"{path} not found")
    text = path.read_text(encoding="utf-8")
    block = text[text.index(label):]
    plain, kernel = block.split("following are", 1)
    kernel = kernel.split("TABLE", 1)[0].split("## 4.5", 1)[0]
    parts = []
    for part in (plain, kernel):
        rows = {}
        for line in part.splitlines():
            cells = line.split("\t")
            name = cells[0].lower()
            if len(cells) == 11 and name in set(KERNEL_NAMES) | {"nmf", "nmf-ncw"} \
                    and name not in rows:
                rows[name] = tuple(float(c) for c in cells[1:])
        parts.append(rows)
    return parts[0], parts[1]


@pytest.mark.parametrize("table, label, metric", TABLES_BY_LABEL)
def test_new_rows_match_the_paper_text(table, label, metric):
    plain, kernel = _printed(label)
    spec = get_table(table)
    assert set(kernel) == set(KERNEL_NAMES)
    for name in PAPER_NAMES:
        assert spec.row(metric, f"{name}-paper").values == plain[name], name
    for name in KERNEL_NAMES:
        assert spec.row(metric, f"{name}-poly2").values == kernel[name], name
    for name in ("km", "km-ncw", "aa", "nc", "nmf", "nmf-ncw"):  # the rows there before
        assert spec.row(metric, name).values == plain[name], name


def test_full_method_list_is_the_default_and_registered():
    for name in ("cai2011-tdt2", "cai2011-reuters"):
        spec = get_table(name)
        assert spec.methods == ("km", "km-ncw", "aa", "nc", "nmf", "nmf-ncw") + NEW_METHODS
        assert spec.protocol().methods == spec.methods
        assert all(m in METHODS for m in spec.methods)
    # printed identically in both parts of Tables 6 and 7; kept as printed
    reuters = get_table("cai2011-reuters")
    for metric in ("accuracy", "nmi"):
        assert reuters.row(metric, "lccf-poly2").values == reuters.row(metric, "lccf-paper").values
    assert get_table("cai2011-tdt2").value("accuracy", "lccf-ncw-paper", 10) == 0.957
    assert get_table("cai2011-reuters").average("nmi", "aa-poly2") == 0.171


def test_display_names():
    assert display_name("nmf-ncw") == "NMF-NCW"
    assert display_name("lccf-ncw-paper") == "LCCF-NCW (paper)"
    assert display_name("km-poly2") == "KM (poly2)"


@pytest.mark.parametrize("method", ["cf-paper", "cf-ncw-paper", "lccf-paper", "lccf-ncw-paper",
                                    "cf-poly2", "cf-ncw-poly2", "lccf-poly2", "lccf-ncw-poly2"])
def test_lccf_presets(method):
    model = make_estimator(method, 3, random_state=0, n_init=2)
    assert isinstance(model, LCCFClustering)
    assert model.labels == "kmeans" and model.n_init == 2 and model.init == "random"
    assert model.weighting == ("ncw" if "-ncw" in method else "none")
    assert model.kernel == ("poly2" if method.endswith("poly2") else "linear")
    if method.startswith("lccf"):
        assert (model.lam, model.lam_scale, model.n_neighbors) == (100.0, "none", 5)
    else:
        assert model.lam == 0.0


def test_user_facing_defaults_are_the_suite_s():
    # chosen on the evaluation suite's tuning half (reports/benchmark-suite)
    lccf = make_estimator("lccf", 3)
    assert (lccf.lam, lccf.lam_scale, lccf.labels, lccf.init) == (0.01, "data", "argmax", "auto")
    assert make_estimator("cf", 3).labels == "argmax"
    for method in ("cf", "cf-ncw", "lccf", "lccf-ncw"):
        assert make_estimator(method, 3).init == "auto"
        # the reproductions start as Cai et al. did
        assert make_estimator(method, 3, as_published=True).init == "random"


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_kernel_presets(planted):
    X, y = planted()
    km = make_estimator("km-poly2", 3, random_state=0)
    assert isinstance(km, KernelKMeansClustering) and km.kernel is poly2_kernel
    assert km.weighting == "none"
    assert make_estimator("km-ncw-poly2", 3).weighting == "ncw"
    for name, criterion in (("aa-poly2", "aa"), ("nc-poly2", "nc")):
        model = make_estimator(name, 3)
        assert isinstance(model, KernelGraphCutClustering)
        assert (model.criterion, model.kernel) == (criterion, "poly2")
    for name in ("km-poly2", "km-ncw-poly2", "aa-poly2", "nc-poly2", "lccf-ncw-poly2"):
        labels = make_estimator(name, 3, random_state=0, n_init=2, max_iter=50).fit_predict(X)
        assert labels.shape == (X.shape[0],) and len(np.unique(labels)) == 3


def test_kernel_kmeans_ncw_weights_are_inverse_degrees():
    X = np.abs(np.random.default_rng(0).normal(size=(12, 5)))
    K = poly2_kernel(X, X)
    w = 1.0 / K.sum(axis=1)
    a = KernelKMeansClustering(2, kernel=poly2_kernel, weighting="ncw", n_init=3,
                               random_state=0).fit(X)
    b = KernelKMeansClustering(2, kernel=poly2_kernel, n_init=3, random_state=0).fit(
        X, sample_weight=w)
    assert np.array_equal(a.labels_, b.labels_) and a.objective_ == pytest.approx(b.objective_)
    with pytest.raises(ValueError, match="weighting"):
        KernelKMeansClustering(2, kernel="linear", weighting="nope").fit(X)


def test_reproduce_list_shows_the_figures(capsys):
    assert main(["reproduce", "--list"]) == 0
    out = capsys.readouterr().out
    for name in ("cai2011-fig1", "cai2011-fig2", "cai2011-fig3"):
        assert name in out


# -- the figure targets end to end on tiny settings ---------------------------------------------

TINY = dict(k_values=(2,), runs=1, restarts=1, max_docs_per_class=40, max_iter=30)


@pytest.mark.parametrize("fig, values, param", [("fig1", (10.0, 100.0), "lam"),
                                                ("fig2", (3, 5), "n_neighbors")])
def test_curve_targets_end_to_end(datasets_dir, tmp_path, fig, values, param):
    from docnmf.experiments import lccf_targets as lt
    from docnmf.experiments.targets import TargetOptions

    if not lt._both_available():
        pytest.skip("TDT2 / Reuters matrices not found")
    run = {"fig1": lt.run_fig1, "fig2": lt.run_fig2}[fig]
    report = run(tmp_path, TargetOptions(seed=1), settings=lt.CurveSettings(**TINY),
                 values=values)
    assert report == tmp_path / "report.md" and report.exists()
    assert (tmp_path / f"cai2011-{fig}.png").stat().st_size > 0
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    header, runs = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert header["params"]["param"] == param and header["params"]["seed"] == 1
    assert len(runs) == 2 * 2 * len(values)  # data sets x methods x values
    assert {r[param] for r in runs} == set(values)
    assert all(0 <= r["accuracy"] <= 1 for r in runs)
    text = report.read_text()
    assert "## TDT2" in text and "## Reuters" in text and "LCCF-NCW (paper)" in text


def test_curve_target_resumes_and_pools(datasets_dir, tmp_path):
    from docnmf.experiments import lccf_targets as lt
    from docnmf.experiments.conditions import ProtocolError
    from docnmf.experiments.targets import TargetOptions

    if not lt._both_available():
        pytest.skip("TDT2 / Reuters matrices not found")
    tiny = dict(TINY, datasets=("TDT2",))

    def records(folder):
        lines = (folder / "results.jsonl").read_text().splitlines()
        return {(r["method"], r["lam"], r["k"], r["run"]): r for r in map(json.loads, lines[1:])}

    lt.run_fig1(tmp_path, TargetOptions(seed=1), settings=lt.CurveSettings(**tiny), values=(10.0,))
    first = records(tmp_path)
    assert len(first) == 2
    # more runs and another value: the first points are read back, not fitted again
    lt.run_fig1(tmp_path, TargetOptions(seed=1, runs=2), settings=lt.CurveSettings(**tiny),
                values=(10.0, 100.0))
    second = records(tmp_path)
    assert len(second) == 2 * 2 * 2
    assert all(second[key] == record for key, record in first.items())
    # two worker processes compute the same numbers as one
    pooled = tmp_path / "pooled"
    lt.run_fig1(pooled, TargetOptions(seed=1, runs=2, jobs=2), settings=lt.CurveSettings(**tiny),
                values=(10.0, 100.0))
    third = records(pooled)
    assert third.keys() == second.keys()
    for key, record in second.items():
        assert third[key]["accuracy"] == record["accuracy"] and third[key]["nmi"] == record["nmi"]
    # another seed in the same folder is refused rather than mixed in
    with pytest.raises(ProtocolError, match="seed"):
        lt.run_fig1(tmp_path, TargetOptions(seed=2), settings=lt.CurveSettings(**tiny),
                    values=(10.0,))


def test_fig3_end_to_end(datasets_dir, tmp_path):
    from docnmf.experiments import lccf_targets as lt
    from docnmf.experiments.targets import TargetOptions

    if not lt._both_available():
        pytest.skip("TDT2 / Reuters matrices not found")
    report = lt.run_fig3(tmp_path, TargetOptions(), k=3, max_docs_per_class=40, max_iter=25)
    assert report.exists() and (tmp_path / "cai2011-fig3.png").stat().st_size > 0
    results = json.loads((tmp_path / "results.json").read_text())["datasets"]
    assert set(results) == {"TDT2", "Reuters"}
    for name, result in results.items():
        assert result["n_docs"] <= 3 * 40
        assert set(result["curves"]) == {"nmf", "cf-paper", "lccf-paper"}
        for method, values in result["curves"].items():
            assert len(values) in (25, 26), (name, method)  # NMF's starts at the initial loss
            assert values[-1] < values[0], (name, method)
    text = report.read_text()
    assert "| NMF |" in text and "## TDT2" in text and "## Reuters" in text
    # "iter. 10" is the objective after ten iterations: the curve's eleventh value (the first
    # is the start)
    row = next(line for line in text.splitlines() if line.startswith("| NMF |"))
    nmf = results["TDT2"]["curves"]["nmf"]
    assert row.split(" | ")[1:3] == [f"{nmf[0]:.4f}", f"{nmf[10]:.4f}"]


def test_fig3_nmf_curve_is_cai_s_eq_1_not_half_of_it(planted):
    """The report called NMF's curve ||X - U V^T||^2 and drew the 1/2 ||.||^2 NMF records,
    half of CF's scale on the same plot."""
    from docnmf.experiments.lccf_targets import objective_curves
    from docnmf.experiments.protocol import method_seed
    from docnmf.methods import make_estimator

    X, _ = planted(60, 40, 3, seed=1)
    curves = objective_curves(X, 3, seed=0, max_iter=15)
    model = make_estimator("nmf", 3, random_state=method_seed(0, 3, 0, "nmf"), n_init=1,
                           max_iter=15, tol=0.0, as_published=True).fit(X)
    residual = np.asarray(X.toarray() if hasattr(X, "toarray") else X) \
        - model.embedding_ @ model.components_
    assert curves["nmf"][-1] == pytest.approx(float((residual ** 2).sum()), rel=1e-9)
