"""Reproduction targets of the LCCF paper: Figures 1-3 (Cai, He & Han 2011, Sections 4.4-4.5).

- ``cai2011-fig1``: accuracy (and NMI) of LCCF and LCCF-NCW against the
  regularization parameter ``lambda`` on TDT2 and Reuters, ``p = 5``;
- ``cai2011-fig2``: the same against the number of nearest neighbours ``p``,
  ``lambda = 100``;
- ``cai2011-fig3``: the objective against the iteration number for NMF, CF
  and LCCF on a TDT2 subset.

Figures 1 and 2 use the protocol of the tables: run ``r`` at cluster number
``k`` clusters the documents of the classes
:func:`~docnmf.experiments.protocol.choose_classes` picks for ``(seed, k, r)``,
weighted as in :func:`~docnmf.experiments.conditions.weigh_subset`, and each
method's ``random_state`` is :func:`~docnmf.experiments.protocol.method_seed`
of its name and the parameter value, so a point does not depend on the other
points computed. The paper's figures give neither their grid nor the cluster
numbers averaged; the grids below span the ranges the text discusses
("lambda varying from 50 to 10000"; p from 1 up), and each point averages
over ``k = 2..10``. Each target writes ``report.md``, its results and a
PNG into its folder (written atomically); Figures 1 and 2 keep one line per
fitted point in ``results.jsonl`` and reuse it when run again (an interrupted
run resumes; more runs or grid values add to it).
"""

from __future__ import annotations

import io
import logging
import os
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..io import atomic_write_bytes, atomic_write_text, write_json
from ..methods import make_estimator
from ..metrics import score_all
from .conditions import DataCondition, PreparedData, prepare_data, subset_indices, weigh_subset
from .protocol import choose_classes, method_seed
from .report import _duration, _fmt
from .results import ResultsFile
from .runner import run_tasks
from .tables import CAI2011, REUTERS_CAI, TDT2_CAI, display_name
from .targets import Target, TargetOptions, register_target

__all__ = ["LAMBDA_GRID", "P_GRID", "CurveSettings", "run_curve", "run_fig1", "run_fig2",
           "run_fig3", "objective_curves"]

logger = logging.getLogger(__name__)

#: lambda values of Figure 1 (log-spaced over the range the text discusses).
LAMBDA_GRID: tuple[float, ...] = (1.0, 10.0, 50.0, 100.0, 500.0, 1000.0, 5000.0, 10000.0)
#: p values of Figure 2.
P_GRID: tuple[int, ...] = (1, 3, 5, 7, 9, 11, 13, 15, 17, 19)
#: The methods of Figures 1 and 2: LCCF with the paper's settings, lambda and p varied.
CURVE_METHODS: tuple[str, ...] = ("lccf-paper", "lccf-ncw-paper")
CONDITIONS: dict[str, DataCondition] = {"TDT2": TDT2_CAI, "Reuters": REUTERS_CAI}


@dataclass(frozen=True)
class CurveSettings:
    """What one figure target computes; the defaults are a few runs, not the paper's 50.

    ``max_docs_per_class`` (None: all) keeps a random sample of each chosen
    class, to make smoke runs fast.
    """

    k_values: tuple[int, ...] = tuple(range(2, 11))
    runs: int = 2
    restarts: int = 3
    seed: int = 0
    weighting: str = "cai-global"
    datasets: tuple[str, ...] = ("TDT2", "Reuters")
    max_docs_per_class: int | None = None
    max_iter: int = 1000   # LCCFClustering's default, as in the tables


def _subset(data: PreparedData, k: int, run: int, settings: CurveSettings) -> tuple[np.ndarray, Any]:
    classes = choose_classes(data.n_classes, k, settings.seed, run)
    idx = subset_indices(data.y, classes)
    if settings.max_docs_per_class is not None:
        rng = np.random.default_rng(np.random.SeedSequence([settings.seed, k, run, 1]))
        keep = []
        for c in classes:
            members = idx[data.y[idx] == c]
            take = min(len(members), settings.max_docs_per_class)
            keep.append(np.sort(rng.choice(members, size=take, replace=False)))
        idx = np.sort(np.concatenate(keep))
    return idx, weigh_subset(data, idx, settings.weighting)


def _curve_key(record: dict[str, Any]) -> tuple:
    """What identifies one point of a curve: (data set, method, parameter value, k, run)."""
    param = record["param"]
    return (record["dataset"], record["method"], param, float(record[param]), int(record["k"]),
            int(record["run"]))


def _fit_group(name: str, data: PreparedData, k: int, run: int, settings: CurveSettings,
               param: str, points: Sequence[tuple[str, float]]) -> list[dict[str, Any]]:
    """Fit every (method, value) in ``points`` on run ``run``'s subset of ``k`` classes."""
    idx, X = _subset(data, k, run, settings)
    y = data.y[idx]
    records = []
    for method, value in points:
        key = f"{method}:{param}={value}"
        model = make_estimator(method, k, random_state=method_seed(settings.seed, k, run, key),
                               n_init=settings.restarts, max_iter=settings.max_iter,
                               as_published=True)
        model.set_params(**{param: value})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t0 = time.perf_counter()
            labels = model.fit_predict(X)
            seconds = time.perf_counter() - t0
        records.append({"dataset": name, "method": method, "param": param, param: value,
                        "k": k, "run": run, "n_docs": int(X.shape[0]),
                        **score_all(y, labels), "seconds": round(seconds, 4),
                        "warnings": sorted({f"{w.category.__name__}: {w.message}"
                                            for w in caught})})
    return records


def _group_in(context, group) -> list[dict[str, Any]]:
    cache, settings, param = context
    (name, k, run), points = group
    if name not in cache:  # a worker loads a data set once, when it first needs it
        cache[name] = prepare_data(CONDITIONS[name])
    return _fit_group(name, cache[name], k, run, settings, param, points)


def _curve_params(param: str, settings: CurveSettings) -> dict[str, Any]:
    """What changes the numbers of a point; a results file made with other values is refused."""
    return {"param": param, "seed": settings.seed, "restarts": settings.restarts,
            "weighting": settings.weighting, "max_iter": settings.max_iter,
            "max_docs_per_class": settings.max_docs_per_class}


def run_curve(param: str, values: Sequence[float], settings: CurveSettings,
              data: dict[str, PreparedData] | None = None, *,
              results_path: str | os.PathLike | None = None,
              jobs: int | None = 1) -> list[dict[str, Any]]:
    """Score LCCF and LCCF-NCW for every value of ``param`` (``"lam"`` or ``"n_neighbors"``).

    Returns one record per (data set, method, value, k, run), in that
    order. With ``results_path`` every finished record is appended to that
    results file and the records already in it are reused, so an
    interrupted run resumes and a rerun with more runs or values only
    computes what is new. ``jobs`` > 1 fits the subsets in worker processes
    (``None``: one per CPU).
    """
    plan = [(name, k, run, method, value) for name in settings.datasets
            for k in settings.k_values for run in range(settings.runs)
            for method in CURVE_METHODS for value in values]
    done: dict[tuple, dict[str, Any]] = {}
    results = None
    if results_path is not None:
        results = ResultsFile(results_path, _curve_params(param, settings), key=_curve_key)
        done = {_curve_key(r): r for r in results.open()}
    try:
        groups: dict[tuple[str, int, int], list[tuple[str, float]]] = {}
        for name, k, run, method, value in plan:
            if (name, method, param, float(value), k, run) not in done:
                groups.setdefault((name, k, run), []).append((method, value))
        if done:
            logger.info("%s: reusing %d of %d points; %d to compute", results_path,
                        len(plan) - sum(map(len, groups.values())), len(plan),
                        sum(map(len, groups.values())))
        progress = _CurveProgress(sum(map(len, groups.values())))
        for record in _execute_groups(groups, settings, param, data, jobs):
            if results is not None:
                results.append(record)
            done[_curve_key(record)] = record
            progress.step(record, param)
    finally:
        if results is not None:
            results.close()
    return [done[(name, method, param, float(value), k, run)]
            for name, k, run, method, value in sorted(
                plan, key=lambda t: (settings.datasets.index(t[0]), t[3], t[4], t[1], t[2]))]


class _CurveProgress:
    def __init__(self, total: int):
        self.total, self.done, self.t0 = total, 0, time.perf_counter()

    def step(self, record: dict[str, Any], param: str) -> None:
        self.done += 1
        eta = (time.perf_counter() - self.t0) / self.done * (self.total - self.done)
        logger.info("[%d/%d] %s %s %s=%g k=%d run %d: AC %.3f (%.1fs); ETA %s", self.done,
                    self.total, record["dataset"], record["method"], param, record[param],
                    record["k"], record["run"], record["accuracy"], record["seconds"],
                    _duration(eta))


def _execute_groups(groups: dict[tuple[str, int, int], list[tuple[str, float]]],
                    settings: CurveSettings, param: str, data: dict[str, PreparedData] | None,
                    jobs: int | None):
    """Yield every record as it is computed, here or in a pool of worker processes."""
    context = (dict(data or {}), settings, param)
    for _, records in run_tasks(_group_in, list(groups.items()), context, jobs=jobs,
                                describe=lambda g: f"{g[0][0]} k={g[0][1]} run {g[0][2]}"):
        yield from records


def _means(records, param, metric):
    """{(dataset, method): [(value, mean over k and runs), ...]} in value order."""
    cells: dict[tuple[str, str], dict[float, list[float]]] = {}
    for r in records:
        cells.setdefault((r["dataset"], r["method"]), {}).setdefault(r[param], []).append(r[metric])
    return {key: sorted((v, float(np.mean(s))) for v, s in by_value.items())
            for key, by_value in cells.items()}


def _png(panels: dict[str, list[tuple[str, list[tuple[float, float]]]]], xlabel: str,
         ylabel: str, title: str, logx: bool = False, logy: bool = False,
         style: str = "-o") -> bytes | None:
    """One panel per entry: lines of (x, y) points. None when matplotlib is missing."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        logger.warning("matplotlib is not installed: no plot (pip install 'docnmf[plot]')")
        return None
    fig = Figure(figsize=(5.0 * len(panels), 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(panels), squeeze=False).ravel()
    for ax, (panel, lines) in zip(axes, panels.items()):
        for label, points in lines:
            ax.plot([p[0] for p in points], [p[1] for p in points], style, ms=4, label=label)
        if logx:
            ax.set_xscale("log")
        if logy:
            ax.set_yscale("log")
        ax.set_title(panel)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


def _settings(options: TargetOptions, settings: CurveSettings) -> CurveSettings:
    from dataclasses import replace

    return replace(settings, runs=options.runs or settings.runs,
                   restarts=options.restarts or settings.restarts,
                   seed=settings.seed if options.seed is None else options.seed)


def _curve_target(outdir: Path, options: TargetOptions, *, name: str, param: str,
                  values: Sequence[float], label: str, settings: CurveSettings, logx: bool,
                  paper_text: str) -> Path:
    settings = _settings(options, settings)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    records = run_curve(param, values, settings, results_path=outdir / "results.jsonl",
                        jobs=options.jobs)
    elapsed = time.perf_counter() - t0
    acc, nmi = _means(records, param, "accuracy"), _means(records, param, "nmi")
    panels = {ds: [(display_name(m), acc[(ds, m)]) for m in CURVE_METHODS if (ds, m) in acc]
              for ds in settings.datasets}
    png = _png(panels, label, "accuracy (AC)", f"Cai et al. 2011: accuracy against {label}",
               logx=logx)
    if png is not None:
        atomic_write_bytes(outdir / f"{name}.png", png)
    out = [f"# {name}: LCCF accuracy against {label}", "", f"Paper: {CAI2011}.", "",
           paper_text, "",
           f"Settings: k = {', '.join(map(str, settings.k_values))}, {settings.runs} run(s) per k, "
           f"{settings.restarts} restart(s), seed {settings.seed}, weighting {settings.weighting}"
           + (f", at most {settings.max_docs_per_class} documents per class"
              if settings.max_docs_per_class else "")
           + f"; {len(records)} fits (`results.jsonl`, one line each, reused when the "
           f"command is run again), last invocation {_duration(elapsed)}. Means over k and "
           "runs.", ""]
    for ds in settings.datasets:
        out += [f"## {ds}", "", f"| {label} | " + " | ".join(
            f"{display_name(m)} AC | {display_name(m)} NMI" for m in CURVE_METHODS) + " |",
            "|---|" + "---|---|" * len(CURVE_METHODS)]
        for value in values:
            cells = []
            for m in CURVE_METHODS:
                a = dict(acc.get((ds, m), [])).get(value)
                n = dict(nmi.get((ds, m), [])).get(value)
                cells += [_fmt(a), _fmt(n)]
            out.append(f"| {value:g} | " + " | ".join(cells) + " |")
        out.append("")
    if png is not None:
        out += [f"![{name}]({name}.png)", ""]
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


#: The point both figures share with the paper's Tables 4 and 6 (10 restarts there).
_TABLE_POINT = ("At lambda = 100, p = 5 the paper's tables give average accuracies of "
                "LCCF 0.811 and LCCF-NCW 0.976 on TDT2, 0.679 and 0.767 on Reuters.")


def run_fig1(outdir: Path, options: TargetOptions = TargetOptions(),
             settings: CurveSettings = CurveSettings(),
             values: Sequence[float] = LAMBDA_GRID) -> Path:
    """Figure 1: accuracy of LCCF and LCCF-NCW against lambda (p = 5); returns the report."""
    return _curve_target(outdir, options, name="cai2011-fig1", param="lam", values=values,
                         label="lambda", settings=settings, logx=True, paper_text=(
                             "The paper: performance is stable for lambda from 50 to 10000 on "
                             "TDT2 and from 50 to 1000 on Reuters (p = 5). lambda is used as "
                             "is (lam_scale='none'). " + _TABLE_POINT))


def run_fig2(outdir: Path, options: TargetOptions = TargetOptions(),
             settings: CurveSettings = CurveSettings(),
             values: Sequence[int] = P_GRID) -> Path:
    """Figure 2: accuracy of LCCF and LCCF-NCW against p (lambda = 100); returns the report."""
    return _curve_target(outdir, options, name="cai2011-fig2", param="n_neighbors",
                         values=values, label="p", settings=settings, logx=False, paper_text=(
                             "The paper: performance decreases as p grows, much more on "
                             "Reuters than on TDT2 (lambda = 100). " + _TABLE_POINT))


# -- Figure 3 -----------------------------------------------------------------------------------

FIG3_METHODS: tuple[str, ...] = ("nmf", "cf-paper", "lccf-paper")


def objective_curves(X, k: int, *, seed: int = 0, max_iter: int = 200) -> dict[str, list[float]]:
    """The objective of NMF, CF and LCCF (lambda = 100, p = 5) from one start each: at the start,
    then after each iteration.

    ``tol = 0`` keeps every method iterating for ``max_iter`` rounds. NMF's is Cai et al.'s
    eq. 1, ``||X - U V^T||^2``: twice the ``1/2 ||X - U V^T||^2`` (Xu et al.'s) that
    :class:`~docnmf.cluster.nmf.NMFClustering` records.
    """
    curves = {}
    for method in FIG3_METHODS:
        model = make_estimator(method, k, random_state=method_seed(seed, k, 0, method),
                               n_init=1, max_iter=max_iter, tol=0.0, as_published=True)
        with warnings.catch_warnings():
            # tol = 0 never "converges": the warning says nothing here
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(X)
        scale = 2.0 if method == "nmf" else 1.0
        curves[method] = [scale * float(v) for v in model.loss_history_]
    return curves


def run_fig3(outdir: Path, options: TargetOptions = TargetOptions(), *, k: int = 10,
             max_docs_per_class: int | None = None, max_iter: int = 200,
             datasets: Sequence[str] = ("TDT2", "Reuters")) -> Path:
    """Figure 3: objective against iteration for NMF, CF and LCCF on a subset of each corpus.

    Each subset is the ``k`` classes of run 0 of the tables' protocol (seed
    ``options.seed``), weighted as in Cai et al. (cai-global).
    """
    seed = 0 if options.seed is None else options.seed
    settings = CurveSettings(k_values=(k,), runs=1, seed=seed, datasets=tuple(datasets),
                             max_docs_per_class=max_docs_per_class, max_iter=max_iter)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    results, panels, rows = {}, {}, []
    for name in datasets:
        data = prepare_data(CONDITIONS[name])
        idx, X = _subset(data, k, 0, settings)
        classes = sorted({data.class_names[c] for c in data.y[idx]})
        curves = objective_curves(X, k, seed=seed, max_iter=max_iter)
        results[name] = {"classes": classes, "n_docs": int(X.shape[0]),
                         "n_terms": int(X.shape[1]), "curves": curves}
        panels[f"{name}: {k} classes, {X.shape[0]} documents"] = [
            (display_name(m), list(enumerate(c))) for m, c in curves.items()]
        rows.append((name, classes, X.shape, curves))
    elapsed = time.perf_counter() - t0
    write_json(outdir / "results.json", {"target": "cai2011-fig3", "paper": CAI2011, "k": k,
                                         "seed": seed, "max_iter": max_iter,
                                         "datasets": results})
    png = _png(panels, "iteration", "objective", "Cai et al. 2011, Figure 3",
               # CF/LCCF start far above where they settle (random W): a log axis shows both
               logy=True, style="-")
    if png is not None:
        atomic_write_bytes(outdir / "cai2011-fig3.png", png)
    out = ["# cai2011-fig3: objective against iteration (NMF, CF, LCCF)", "",
           f"Paper: {CAI2011}. The paper: all three multiplicative updates converge within "
           "about 100 iterations, on both corpora.", "",
           f"One start per method, {max_iter} iterations, tol = 0; {_duration(elapsed)}. NMF's "
           "objective is ||X - U V^T||^2 (eq. 1); CF's and LCCF's are eq. 10 (lambda = 100, "
           "p = 5) at unit-length V columns. Cai-global weighting. Iteration 0 is the start; "
           "\"iter. n\" is the objective after n iterations.", ""]
    for name, classes, shape, curves in rows:
        out += [f"## {name}: {k} classes ({', '.join(classes)}), {shape[0]} documents x "
                f"{shape[1]} terms", "",
                "| method | start | iter. 10 | iter. 50 | iter. 100 | last | iters to within "
                "1% of last |", "|---|---|---|---|---|---|---|"]
        for m, c in curves.items():
            arr = np.asarray(c)
            near = np.flatnonzero(arr <= arr[-1] + 0.01 * abs(arr[-1]))
            at = [_fmt(arr[i], 4) if len(arr) > i else "–" for i in (10, 50, 100)]
            out.append(f"| {display_name(m)} | {_fmt(arr[0], 4)} | " + " | ".join(at)
                       + f" | {_fmt(arr[-1], 4)} | {int(near[0])} |")
        out.append("")
    if png is not None:
        out += ["![cai2011-fig3](cai2011-fig3.png)", ""]
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


def _both_available() -> bool:
    return TDT2_CAI.available() and REUTERS_CAI.available()


_SOURCE = "D. Cai's TDT2 and Reuters-21578 matrices (tdt2, reuters_cai)"

register_target(Target("cai2011-fig1", "LCCF paper, Figure 1: accuracy against lambda "
                       "(LCCF, LCCF-NCW; TDT2, Reuters)", CAI2011, _both_available,
                       lambda outdir, options: run_fig1(outdir, options), _SOURCE))
register_target(Target("cai2011-fig2", "LCCF paper, Figure 2: accuracy against p "
                       "(LCCF, LCCF-NCW; TDT2, Reuters)", CAI2011, _both_available,
                       lambda outdir, options: run_fig2(outdir, options), _SOURCE))
register_target(Target("cai2011-fig3", "LCCF paper, Figure 3: objective against iteration "
                       "(NMF, CF, LCCF; TDT2 and Reuters subsets)", CAI2011, _both_available,
                       lambda outdir, options: run_fig3(outdir, options), _SOURCE))
