"""Reproduction targets of the SS-NMF paper: Table 3, Table 4 and Figures 3-4.

Chen, Rege, Dong & Hua, "Incorporating user provided constraints into
document clustering" (ICDM 2007), Section 4. The data sets are those of its
Table 2 that can be built (:mod:`.ssnmf_data`). Every run of the protocol:

1. draws ``p``% of all ``n (n - 1) / 2`` document pairs at random and labels
   them from the classes (must-link for the same class, cannot-link
   otherwise; :func:`~docnmf.constraints.sample_constraints`);
2. gives the same pairs to SS-KK, SS-SNC and SS-NMF, applied as drawn
   (``closure=False``: the paper draws pairs and sets their entries; it
   never mentions implied pairs). SS-NMF sets a must-link entry of
   ``A = X X^T`` to the largest similarity and a cannot-link entry to the
   smallest (``constraint_mode="extreme"``, Section 4.3); SS-KK and SS-SNC
   add or subtract the largest kernel / similarity entry;
3. scores accuracy (Kuhn-Munkres) and NMI.

Seeds: the pairs of run ``r`` at ``p``% on data set ``d`` come from
``SeedSequence([seed, crc32(d), 100 p, r])`` and a method's ``random_state``
from the same list plus ``crc32(method)``, so numbers do not depend on
execution order, on ``jobs``, or on the other methods run. Each record in
``results.json`` carries both seeds; records are reused by a later
invocation with the same seed, restarts and data.
"""

from __future__ import annotations

import io
import logging
import math
import os
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..constraints import ConstraintWarning, sample_constraints
from ..io import atomic_write_bytes, atomic_write_text, write_json
from ..methods import make_estimator, options_for
from ..metrics import clustering_accuracy, nmi
from .report import _duration, _fmt, plots_available
from .results import ResultsFile
from .runner import derive_seed
from .runner import run_tasks as run_in_workers
from .ssnmf_data import DATA_SEED, DATASETS, ConstraintDataset, available_datasets, prepare_dataset
from .targets import Target, TargetOptions, register_target

__all__ = ["PAPER", "PAPER_TABLE3", "PAPER_TABLE4", "PAPER_FIGURE_POINTS", "RunTask",
           "run_task", "run_tasks", "matched_confusion", "run_table3", "run_table4",
           "run_figures", "FIGURE_PERCENTS"]

logger = logging.getLogger(__name__)

PAPER = ("Chen, Rege, Dong & Hua, Incorporating User Provided Constraints into Document "
         "Clustering, ICDM 2007")

NAMES = {"km": "K-means", "kernel-km": "Kernel k-means", "nc": "SNC (normalized cut)",
         "nmf": "NMF", "ss-kk": "SS-KK", "ss-snc": "SS-SNC", "ssnmf": "SS-NMF"}
SEMI_SUPERVISED = ("ss-kk", "ss-snc", "ssnmf")
#: The registered method each row is fitted with: SS-NMF as the paper defines it.
PAPER_METHODS = {"ssnmf": "ssnmf-paper"}

#: Table 3 as printed: accuracy by method and data set (SS-NMF with 3% of pairs constrained).
PAPER_TABLE3: dict[str, dict[str, float]] = {
    method: dict(zip(("Graft-Phos", "England-Heart", "Interest-Trade", "Fbis2", "Fbis3",
                      "Fbis4", "Fbis5"), values))
    for method, values in {
        "km": (0.6849, 0.7108, 0.7228, 0.5650, 0.4728, 0.4620, 0.4180),
        "kernel-km": (0.7986, 0.7147, 0.7420, 0.5700, 0.5533, 0.5525, 0.5140),
        "nc": (0.6553, 0.6320, 0.7032, 0.9900, 0.6367, 0.5975, 0.5420),
        "nmf": (0.8157, 0.7840, 0.9566, 0.9950, 0.6533, 0.6125, 0.5900),
        "ssnmf": (0.9932, 0.9973, 1.0000, 1.0000, 0.8833, 0.8775, 0.7520),
    }.items()
}

#: Table 4 as printed (text conversion of the paper): (C, S) per data set and percentage.
#: Cells are the printed number sequences; for Fbis5 the conversion split each 5 x 5 matrix
#: into three overlapping pieces (30 numbers for 25 entries), kept as printed, separated by " / ".
PAPER_TABLE4: dict[str, dict[int, tuple[str, str]]] = {
    "Graft-Phos": {0: ("116 21 33 123", "0.7771 0 0 0.7733"),
                   1: ("130 3 19 141", "0.9143 0 0 0.9442"),
                   3: ("147 0 2 144", "1.2317 0 0 1.3005"),
                   5: ("149 0 0 144", "1.6094 0 0 1.5981")},
    "England-Heart": {0: ("181 81 0 113", "1.0364 0 0 1.1500"),
                      1: ("181 31 0 163", "1.2164 0 0 1.5346"),
                      3: ("193 0 1 181", "2.5813 0 0 2.7989"),
                      5: ("194 0 0 181", "3.4279 0 0 2.5649")},
    "Interest-Trade": {0: ("215 15 4 204", "2.2788 0 0 2.0855"),
                       1: ("216 1 3 218", "2.6920 0 0 2.4075"),
                       3: ("219 0 0 219", "3.3250 0 0 3.7290"),
                       5: ("219 0 0 219", "4.1829 0 0 4.5167")},
    "Fbis5": {
        0: ("1 1 84 95 14 1 0 0 1 3 / 4 1 0 0 11 1 0 96 85 2 / 1 4 0 0 1 0 96 3 2 92",
            "1.0695 0 0 0.8690 0 0 0 0 0 0 / 0 0 0 1.0392 0 0.87 0 0 / "
            "0 0 0 0 0 0 0 0 0 1.0416"),
        1: ("92 17 0 0 0 0 0 0 8 83 / 0 8 22 0 64 0 1 89 13 3 / 0 0 0 0 0 1 89 0 3 99",
            "2.5203 0 0 2.4751 0 0 0 0 0 0 / 0 0 0 2.4251 0 2.6532 0 0 / "
            "0 0 0 0 0 0 2.6532 0 0 2.8233"),
        3: ("55 0 33 99 0 0 0 0 72 1 / 0 7 0 0 0 0 90 89 10 4 / 0 0 0 0 0 0 89 0 4 100",
            "4.2578 0 0 4.6787 0 0 0 0 0 0 / 0 0 0 4.2349 0 4.0898 0 0 / "
            "0 0 0 0 0 0 4.0898 0 0 4.0951"),
        5: ("100 0 0 100 0 0 0 0 0 0 / 0 0 0 100 0 100 0 100 0 0 / 0 0 0 0 0 0 100 0 0 100",
            "6.5171 0 0 6.3111 0 0 0 0 0 0 / 0 0 0 6.0427 0 6.7312 0 0 / "
            "0 0 0 0 6.7312 0 0 5.9222"),
    },
}


def paper_matrix(text: str) -> np.ndarray | None:
    """A printed 2 x 2 cell of Table 4 as a matrix (rows: clusters), None for other sizes.

    Examples
    --------
    >>> paper_matrix("215 15 4 204").tolist()
    [[215.0, 15.0], [4.0, 204.0]]
    """
    if "/" in text:
        return None
    values = np.array(text.split(), dtype=np.float64)
    return values.reshape(2, 2) if values.size == 4 else None


def _matrix_accuracy(C: np.ndarray) -> float:
    rows, cols = linear_sum_assignment(C, maximize=True)
    return float(C[rows, cols].sum() / C.sum())


def _figure_points() -> dict[str, dict[float, tuple[float, str]]]:
    """SS-NMF accuracies the paper states: Table 3 (3%) and Table 4's 2 x 2 confusion matrices."""
    points: dict[str, dict[float, tuple[float, str]]] = {}
    for name, value in PAPER_TABLE3["ssnmf"].items():
        points.setdefault(name, {})[3.0] = (value, "Table 3")
    for name, cells in PAPER_TABLE4.items():
        for pct, (c_text, _) in cells.items():
            C = paper_matrix(c_text)
            if C is not None and float(pct) not in points.get(name, {}):
                points.setdefault(name, {})[float(pct)] = (_matrix_accuracy(C), "Table 4 C")
    return points


#: SS-NMF accuracies stated in the paper's text and tables (the curves themselves are images).
PAPER_FIGURE_POINTS = _figure_points()

#: Percentages of constrained pairs on the x axis of Figures 3-4 (the figures' own axes were
#: lost in the text conversion; 0-5% is the range of Table 4).
FIGURE_PERCENTS = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0)
#: Test runs (the paper: 20 for k-means and NMF) and trials per run (the paper: 3).
PAPER_RUNS, PAPER_TRIALS = 20, 3


# --- one run ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunTask:
    """One method on one data set at one percentage of constrained pairs, run ``run``."""

    dataset: str
    method: str
    percent: float
    run: int


def _percent_code(percent: float) -> int:
    return int(round(percent * 100))


def matched_confusion(y: np.ndarray, labels: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The paper's confusion matrix: ``C[i, j]`` documents of cluster i in class j.

    Clusters are ordered so that row j is the cluster matched to class j by
    Kuhn-Munkres, so a perfect clustering is diagonal. Returns ``C`` and the
    cluster order (row j of ``C`` is cluster ``order[j]``).

    Examples
    --------
    >>> C, order = matched_confusion(np.array([0, 0, 1, 1]), np.array([1, 1, 0, 1]), 2)
    >>> C.tolist(), order.tolist()
    ([[2, 1], [0, 1]], [1, 0])
    """
    C = np.zeros((k, k), dtype=np.int64)
    np.add.at(C, (np.asarray(labels), np.asarray(y)), 1)
    rows, cols = linear_sum_assignment(C, maximize=True)
    order = rows[np.argsort(cols)]
    return C[order], order


def run_task(data: ConstraintDataset, task: RunTask, *, seed: int, restarts: int
             ) -> dict[str, Any]:
    """Compute one run and return its record."""
    k = data.n_classes
    code = _percent_code(task.percent)
    constraint_seed = derive_seed(seed, data.name, code, task.run)
    random_state = derive_seed(seed, data.name, code, task.run, task.method)
    pairs = {}
    if task.percent > 0:
        if task.method not in SEMI_SUPERVISED:
            raise ValueError(f"{task.method} takes no constraints; run it at 0%")
        ml, cl = sample_constraints(data.y, task.percent / 100.0, rng=constraint_seed)
        pairs = {"must_link": ml, "cannot_link": cl}
    method = PAPER_METHODS.get(task.method, task.method)
    model = make_estimator(method, k, as_published=True,
                           **options_for(method, random_state=random_state, n_init=restarts,
                                         closure=False))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", ConstraintWarning)    # the tables count broken pairs
        t0 = time.perf_counter()
        labels = model.fit_predict(data.X, **pairs)
        seconds = time.perf_counter() - t0
    C, order = matched_confusion(data.y, labels, k)
    record = {
        "dataset": data.name, "data": data.fingerprint(), "method": task.method,
        "percent": float(task.percent), "run": int(task.run), "seed": int(seed),
        "restarts": int(restarts), "constraint_seed": constraint_seed if pairs else None,
        "random_state": random_state, "n_docs": int(data.X.shape[0]),
        "n_terms": int(data.X.shape[1]), "k": k,
        "n_must_link": len(pairs.get("must_link", ())),
        "n_cannot_link": len(pairs.get("cannot_link", ())),
        "accuracy": clustering_accuracy(data.y, labels), "nmi": nmi(data.y, labels),
        "confusion": C.tolist(), "seconds": round(seconds, 4),
        "warnings": sorted({f"{w.category.__name__}: {w.message}" for w in caught}),
    }
    if hasattr(model, "S_"):
        record["S"] = np.asarray(model.S_)[np.ix_(order, order)].tolist()
        record["objective"] = float(model.objective_)
    return record


# --- the results file and the runner ---------------------------------------------------------


def _key(dataset: str, data: str, method: str, percent: float, run: int, seed: int,
         restarts: int) -> tuple:
    return (dataset, data, method, round(float(percent), 6), int(run), int(seed), int(restarts))


def _record_key(r: Mapping[str, Any]) -> tuple:
    return _key(r["dataset"], r["data"], r["method"], r["percent"], r["run"], r["seed"],
                r["restarts"])


def _task_in(context, task: RunTask) -> dict[str, Any]:
    datasets, seed, restarts = context
    return run_task(datasets[task.dataset], task, seed=seed, restarts=restarts)


@dataclass
class _Outcome:
    records: list[dict[str, Any]]
    n_computed: int
    n_reused: int
    elapsed: float


def run_tasks(tasks: Sequence[RunTask], datasets: Mapping[str, ConstraintDataset], outdir: Path,
              target: str, *, seed: int, restarts: int, jobs: int = 1) -> _Outcome:
    """Run the tasks missing from the folder's results and return the records of all of them.

    Every finished run is appended to ``outdir/results.jsonl`` (so an
    interrupted invocation resumes); ``results.json`` then lists every run
    in the folder.
    """
    t0 = time.perf_counter()
    results = ResultsFile(Path(outdir) / "results.jsonl", {"target": target, "paper": PAPER},
                          key=_record_key)
    store = {_record_key(r): r for r in results.open()}
    prints = {name: data.fingerprint() for name, data in datasets.items()}

    def key(t: RunTask) -> tuple:
        return _key(t.dataset, prints[t.dataset], t.method, t.percent, t.run, seed, restarts)

    todo = [t for t in tasks if key(t) not in store]
    if len(todo) < len(tasks):
        logger.info("%s: reusing %d of %d runs", results.path, len(tasks) - len(todo), len(tasks))
    started = time.perf_counter()
    needed = {t.dataset: datasets[t.dataset] for t in todo}
    try:
        # one BLAS thread here too: on matrices of a few hundred rows, more threads only contend
        runs = run_in_workers(_task_in, todo, (needed, seed, restarts), jobs=jobs, one_thread=True,
                              describe=lambda t: f"{t.dataset} {t.method} {t.percent}% run {t.run}")
        for done, (_, record) in enumerate(runs, start=1):
            results.append(record)
            store[_record_key(record)] = record
            eta = (time.perf_counter() - started) / done * (len(todo) - done)
            logger.info("[%d/%d] %s %s %g%% run %d: AC %.3f (%.1fs); ETA %s", done, len(todo),
                        record["dataset"], record["method"], record["percent"], record["run"],
                        record["accuracy"], record["seconds"], _duration(eta))
    finally:  # an interrupted invocation keeps what it computed
        results.close()
        write_json(Path(outdir) / "results.json", {
            "target": target, "paper": PAPER,
            "runs": sorted(store.values(), key=lambda r: (r["dataset"], r["method"],
                                                          r["percent"], r["seed"], r["run"]))})
    records = [store[key(t)] for t in tasks]
    return _Outcome(records, len(todo), len(tasks) - len(todo), time.perf_counter() - t0)


# --- shared report pieces --------------------------------------------------------------------


def _mean_std(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = math.fsum(values) / n
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, std


def _cells(records: Iterable[dict[str, Any]]) -> dict[tuple[str, str, float], list[dict]]:
    cells: dict[tuple[str, str, float], list[dict]] = {}
    for r in records:
        cells.setdefault((r["dataset"], r["method"], r["percent"]), []).append(r)
    return cells


def _ms(runs: Sequence[dict] | None, field: str = "accuracy") -> str:
    if not runs:
        return "–"
    mean, std = _mean_std([r[field] for r in runs])
    return f"{mean:.4f} ± {std:.4f}"


def _load(names: Sequence[str], datasets: Mapping[str, ConstraintDataset] | None,
          data_home) -> dict[str, ConstraintDataset]:
    if datasets is not None:
        return {n: datasets[n] for n in names if n in datasets}
    return {n: prepare_dataset(n, data_home=data_home) for n in names}


def _settings(options: TargetOptions, runs: int) -> tuple[int, int, int, int]:
    return (options.runs or runs, options.restarts or PAPER_TRIALS,
            0 if options.seed is None else options.seed, options.jobs or 1)


def _data_lines(datasets: Mapping[str, ConstraintDataset]) -> list[str]:
    out = ["| data set | classes (corpus classes) | docs per class | words present | words kept "
           "| largest / median self-similarity | Table 2: clusters / words / docs |",
           "|---|---|---|---:|---:|---:|---|"]
    for name, plan in DATASETS.items():
        table2 = f"{plan.clusters} / {plan.words} / {plan.docs}"
        if name not in datasets:
            why = "not available (OHSUMED)" if plan.source is None else "not run"
            out.append(f"| {name} | {why} | | | | | {table2} |")
            continue
        d = datasets[name]
        classes = ", ".join(f"{c} ({s})" if c != s else c
                            for c, s in zip(d.class_names, d.source_classes))
        sizes = "/".join(str(s) for s in d.class_sizes())
        # the largest entry of A = X X^T is the largest ||x_i||^2: the weight of a constraint
        self_sim = np.asarray(d.X.multiply(d.X).sum(axis=1)).ravel()
        out.append(f"| {name} | {classes} | {sizes} | {d.n_words_present} | {d.X.shape[1]} "
                   f"| {self_sim.max():.4g} / {np.median(self_sim):.4g} | {table2} |")
    return out


def _common_notes(datasets: Mapping[str, ConstraintDataset]) -> list[str]:
    notes = [
        "- Words: those occurring in the set's documents; the top 10% (rounded) by the mutual "
        "information between a word's presence and the class are kept (hand-written, equal to "
        "scikit-learn's `mutual_info_classif` on binary presence with `discrete_features=True`). "
        "Table 2's word counts are before this selection.",
        "- Weighting: raw term counts of the kept words (the paper: entries are \"the frequency "
        "of the word appearing in the document\"; it mentions no tf-idf or normalization); "
        "`A = X X^T` on documents as rows.",
        f"- Data sets are fixed by the data seed {DATA_SEED} (class order of fbis, document "
        "draws); see `ssnmf_data.py`.",
    ]
    if "Interest-Trade" in datasets:
        d = datasets["Interest-Trade"]
        notes.append(
            "- Interest-Trade: the CLUTO copy of re0 has unnamed classes. Interest is class_05, "
            "the only class of 219 documents (Table 4's Interest-Trade columns sum to 219); Trade "
            f"is class_02: the words of class_02 and class_05 together number "
            f"{d.info.get('words_in_both_full_classes')}, Table 2's 2682. Table 2 gives 438 "
            "documents, so 219 of Trade's 319 are drawn.")
    fbis = [d for n, d in datasets.items() if n.startswith("Fbis")]
    if fbis:
        order = fbis[0].info.get("class_order", [])
        notes.append(
            "- Fbis-k: the paper selects classes at random; here the fbis classes with at least "
            f"100 documents are put in one random order ({', '.join(order)}) and Fbis-k takes "
            "the first k (nested sets), 100 documents drawn from each.")
    return notes


def _protocol_lines(runs: int, restarts: int, seed: int, outcome: _Outcome) -> list[str]:
    fit = math.fsum(r["seconds"] for r in outcome.records)
    warned = sum(1 for r in outcome.records if r["warnings"])
    lines = [
        f"- Runs: {runs} per cell, each the best of {restarts} restarts (lowest objective); "
        f"seed {seed} (per-run constraint seeds and `random_state`s are in `results.json`).",
        f"- This invocation: {outcome.n_computed} runs computed, {outcome.n_reused} reused from "
        f"`results.json`; wall time {_duration(outcome.elapsed)}; fit time over all runs "
        f"{_duration(fit)}.",
        "- Constraints: pairs drawn from all n(n-1)/2 document pairs, labelled from the classes, "
        "applied as drawn (`closure=False`); the three semi-supervised methods get the same "
        "pairs in a run.",
    ]
    if warned:
        lines.append(f"- {warned} run{'s' if warned > 1 else ''} raised warnings (e.g. SS-NMF "
                     "not converged within max_iter; see `warnings` in `results.json`).")
    return lines


def _methods_lines() -> list[str]:
    return [
        "- Methods (docnmf estimators, `n_init` = restarts): K-means on the documents; kernel "
        "k-means and SS-KK with a Gaussian kernel of median-heuristic width (the paper's "
        "sigma = 1e-5 / 0.01 makes every off-diagonal kernel entry 0 on these counts); SNC = "
        "normalized cut of `X X^T`; NMF `X ~ V U^T` (Xu et al.); SS-SNC = normalized cut of "
        "`A + W`; SS-NMF = `A~ ~ G S G^T` (eqs. 5-6), must-links set to the largest, "
        "cannot-links to the smallest similarity. SS-KK and SS-SNC weigh a constraint by the "
        "largest kernel / similarity entry. On raw counts the largest similarity is set by a "
        "few long documents (see the data table), so a constrained entry outweighs almost "
        "every other entry of `A`.",
    ]


# --- Table 3 -----------------------------------------------------------------------------------

TABLE3_UNSUPERVISED = ("km", "kernel-km", "nc", "nmf")
TABLE3_PERCENT = 3.0


def table3_tasks(names: Sequence[str], runs: int) -> list[RunTask]:
    """Unsupervised methods at 0%, the semi-supervised ones at 3%, and SS-NMF at 0%."""
    plan = [(m, 0.0) for m in TABLE3_UNSUPERVISED] + [("ssnmf", 0.0)]
    plan += [(m, TABLE3_PERCENT) for m in SEMI_SUPERVISED]
    return [RunTask(d, m, p, r) for d in names for m, p in plan for r in range(runs)]


def run_table3(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
               datasets: Mapping[str, ConstraintDataset] | None = None,
               data_home: str | os.PathLike | None = None) -> Path:
    """Table 3: accuracy of the unsupervised methods and of SS-NMF with 3% of pairs constrained."""
    outdir = Path(outdir)
    runs, restarts, seed, jobs = _settings(options, PAPER_RUNS)
    data = _load(available_datasets(data_home) if datasets is None else list(datasets),
                 datasets, data_home)
    outcome = run_tasks(table3_tasks(list(data), runs), data, outdir, "chen2008-table3",
                        seed=seed, restarts=restarts, jobs=jobs)
    cells = _cells(outcome.records)
    names = list(PAPER_TABLE3["km"])
    # (method, percent, label, the Table 3 row it is compared with)
    rows = [(m, 0.0, NAMES[m], m) for m in TABLE3_UNSUPERVISED]
    rows += [("ssnmf", TABLE3_PERCENT, "SS-NMF, 3%", "ssnmf"),
             ("ss-kk", TABLE3_PERCENT, "SS-KK, 3%", None),
             ("ss-snc", TABLE3_PERCENT, "SS-SNC, 3%", None), ("ssnmf", 0.0, "SS-NMF, 0%", None)]
    out = [f"# Table 3 of the SS-NMF paper: accuracy, SS-NMF with {TABLE3_PERCENT:g}% of pairs "
           "constrained", "", f"Paper: {PAPER}, Section 4.3, Table 3.", ""]
    out += ["## Accuracy, ours (mean ± sample std over runs) vs paper", "",
            "| method | | " + " | ".join(names) + " |", "|---|---|" + "---:|" * len(names)]
    for method, pct, label, paper_key in rows:
        ours = [_ms(cells.get((n, method, pct))) if n in data else "n/a" for n in names]
        out.append(f"| {label} | ours | " + " | ".join(ours) + " |")
        if paper_key is None:
            out.append("| | paper | " + " | ".join("not in Table 3" for _ in names) + " |")
            continue
        paper_row = PAPER_TABLE3[paper_key]
        out.append("| | paper | " + " | ".join(f"{paper_row[n]:.4f}" for n in names) + " |")
        diffs = []
        for n in names:
            runs_ = cells.get((n, method, pct))
            diffs.append(_fmt(_mean_std([r["accuracy"] for r in runs_])[0] - paper_row[n], 4,
                              sign=True) if runs_ else "–")
        out.append("| | ours − paper | " + " | ".join(diffs) + " |")
    out += ["", "n/a: the data set needs OHSUMED (oh0, oh5), which is not available. SS-KK and "
            "SS-SNC at 3% are not in Table 3 (the paper plots them in Figures 3-4); SS-NMF at 0% "
            "is shown because Table 4's 0% confusion matrices have exactly the accuracies of "
            "Table 3's NMF row (Graft-Phos 239/293 = 0.8157, England-Heart 294/375 = 0.7840, "
            "Interest-Trade 419/438 = 0.9566), and its 3% matrices those of the SS-NMF row.", ""]
    out += ["## Data", ""] + _data_lines(data) + [""] + _common_notes(data)
    out += ["", "## Protocol", ""] + _protocol_lines(runs, restarts, seed, outcome)
    out += _methods_lines() + [
        f"- The paper: \"for a given k, we conducted {PAPER_RUNS} test runs. {PAPER_TRIALS} "
        "trials are performed in each of the 20 test runs and final accuracy value is the "
        "average of all the test runs\" (stated for NMF and k-means; used for every method "
        "here)."]
    report = atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")
    return report


# --- Table 4 -----------------------------------------------------------------------------------

TABLE4_PERCENTS = (0.0, 1.0, 3.0, 5.0)
TABLE4_DATASETS = ("Interest-Trade", "Fbis5")


def _matrix_block(M: Sequence[Sequence[float]], fmt: str) -> str:
    return "<br>".join(" ".join(format(v, fmt) for v in row) for row in M)


def _median_run(runs: list[dict]) -> dict:
    """The run whose accuracy is closest to the median (lowest run number on ties)."""
    med = float(np.median([r["accuracy"] for r in runs]))
    return min(runs, key=lambda r: (abs(r["accuracy"] - med), r["run"]))


def run_table4(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
               datasets: Mapping[str, ConstraintDataset] | None = None,
               data_home: str | os.PathLike | None = None) -> Path:
    """Table 4: confusion matrices and S of SS-NMF at 0, 1, 3 and 5% of pairs constrained."""
    outdir = Path(outdir)
    runs, restarts, seed, jobs = _settings(options, PAPER_RUNS)
    names = [n for n in TABLE4_DATASETS
             if (n in datasets if datasets is not None else n in available_datasets(data_home))]
    data = _load(names, datasets, data_home)
    tasks = [RunTask(d, "ssnmf", p, r) for d in data for p in TABLE4_PERCENTS
             for r in range(runs)]
    outcome = run_tasks(tasks, data, outdir, "chen2008-table4", seed=seed, restarts=restarts,
                        jobs=jobs)
    cells = _cells(outcome.records)
    out = ["# Table 4 of the SS-NMF paper: confusion matrix C and centroid matrix S of SS-NMF",
           "", f"Paper: {PAPER}, Section 4.3, Table 4.", "",
           "C[i, j] = documents of cluster i in class j (the paper's convention); our clusters "
           "are ordered by their Kuhn-Munkres match, so a perfect clustering is diagonal, and S "
           "is reordered the same way. Our C and S are those of the run whose accuracy is the "
           "median over the runs (the paper shows one matrix per cell and does not say which "
           "run). S is on the scale of `A = X X^T` for raw counts with unit-length columns of G "
           "(the paper's normalization of G and A is not stated), so compare its pattern and its "
           "growth with the constraints, not its values.", ""]
    for name in list(PAPER_TABLE4):
        out += [f"## {name}", ""]
        if name not in data:
            why = ("not available (needs OHSUMED)" if DATASETS[name].source is None
                   else "not run")
            out += [f"Ours: {why}. The paper's cells:", ""]
        out += ["| % pairs | paper C | paper S | ours C (median run) | ours S (median run) "
                "| ours accuracy (mean ± std) | ours diag(S) mean | paper AC from C |",
                "|---:|---|---|---|---|---|---|---:|"]
        base_ours = base_paper = None
        for pct in TABLE4_PERCENTS:
            c_text, s_text = PAPER_TABLE4[name][int(pct)]
            C_paper, S_paper = paper_matrix(c_text), paper_matrix(s_text)
            paper_c = _matrix_block(C_paper, ".0f") if C_paper is not None else c_text
            paper_s = _matrix_block(S_paper, ".4f") if S_paper is not None else s_text
            paper_ac = _fmt(_matrix_accuracy(C_paper), 4) if C_paper is not None else "–"
            ours_c = ours_s = ours_ac = ours_diag = "–"
            runs_ = cells.get((name, "ssnmf", pct))
            if runs_:
                rep = _median_run(runs_)
                ours_c = _matrix_block(rep["confusion"], "d") + f"<br>(run {rep['run']})"
                ours_s = _matrix_block(rep["S"], ".4g")
                ours_ac = _ms(runs_)
                diag = np.mean([np.diag(r["S"]) for r in runs_], axis=0)
                base_ours = diag if pct == 0 else base_ours
                ours_diag = " ".join(f"{v:.4g}" for v in diag)
                if base_ours is not None and pct > 0:
                    ours_diag += f" (×{np.mean(diag / base_ours):.2f} of 0%)"
            if S_paper is not None:
                base_paper = np.diag(S_paper) if pct == 0 else base_paper
                if pct > 0:
                    paper_s += f"<br>(×{np.mean(np.diag(S_paper) / base_paper):.2f} of 0%)"
            out.append(f"| {pct:g}% | {paper_c} | {paper_s} | {ours_c} | {ours_s} | {ours_ac} "
                       f"| {ours_diag} | {paper_ac} |")
        if name == "Fbis5":
            out += ["", "Fbis5's 5 x 5 cells lost their layout in the paper's text conversion "
                    "(each C cell has 30 numbers for 25 entries, and the 5% cell seven entries "
                    "of 100 for 500 documents); they are shown as printed, pieces separated by "
                    "` / `, and no accuracy is derived from them."]
        out.append("")
    out += ["## Data", ""] + _data_lines(data) + [""] + _common_notes(data)
    out += ["", "## Protocol", ""] + _protocol_lines(runs, restarts, seed, outcome)
    out += ["- SS-NMF only (`SSNMFClustering`, `constraint_mode=\"extreme\"`, `update=\"paper\"`, "
            "`closure=False`); 0% is the unconstrained symmetric tri-factorization of A."]
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


# --- Figures 3-4 -------------------------------------------------------------------------------

FIGURE_PANELS = {"fig3": ("Graft-Phos", "England-Heart", "Interest-Trade"),
                 "fig4": ("Fbis2", "Fbis3", "Fbis4", "Fbis5")}


def _plot_figure(panels: Sequence[str], cells, percents: Sequence[float], title: str) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    ncols = 2 if len(panels) > 1 else 1
    nrows = math.ceil(len(panels) / ncols)
    fig = Figure(figsize=(max(5.0 * ncols, 7.0), 3.9 * nrows + 0.6), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, name in zip(axes, panels):
        for colour, method in zip(("C0", "C1", "C2"), SEMI_SUPERVISED):
            xs = [p for p in percents if cells.get((name, method, p))]
            stats = [_mean_std([r["accuracy"] for r in cells[(name, method, p)]]) for p in xs]
            if xs:
                mean = np.array([s[0] for s in stats])
                std = np.array([s[1] for s in stats])
                ax.plot(xs, mean, "-o", color=colour, ms=4, label=f"{NAMES[method]} (ours)")
                ax.fill_between(xs, mean - std, mean + std, color=colour, alpha=0.15, lw=0)
        points = PAPER_FIGURE_POINTS.get(name, {})
        if points:
            ax.plot(list(points), [v for v, _ in points.values()], "k*", ms=9, ls="none",
                    label="SS-NMF (paper, Tables 3-4)")
        ax.set_title(name)
        ax.set_xlabel("% of document pairs constrained")
        ax.set_ylabel("accuracy (AC)")
        ax.set_ylim(0.0, 1.02)
        ax.grid(alpha=0.3)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center", ncol=2 * ncols, fontsize=8)
    fig.suptitle(title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


def run_figures(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
                datasets: Mapping[str, ConstraintDataset] | None = None,
                data_home: str | os.PathLike | None = None,
                percents: Sequence[float] = FIGURE_PERCENTS) -> Path:
    """Figures 3-4: accuracy of SS-KK, SS-SNC and SS-NMF against the share of constrained pairs."""
    outdir = Path(outdir)
    runs, restarts, seed, jobs = _settings(options, PAPER_RUNS)
    data = _load(available_datasets(data_home) if datasets is None else list(datasets),
                 datasets, data_home)
    tasks = [RunTask(d, m, float(p), r) for d in data for m in SEMI_SUPERVISED for p in percents
             for r in range(runs)]
    outcome = run_tasks(tasks, data, outdir, "chen2008-fig3-4", seed=seed, restarts=restarts,
                        jobs=jobs)
    cells = _cells(outcome.records)
    images = {}
    if plots_available():
        for fig_name, panels in FIGURE_PANELS.items():
            shown = [p for p in panels if p in data]
            if shown:
                title = (f"Figure {fig_name[-1]}: SS-KK, SS-SNC, SS-NMF (ours, mean ± std over "
                         f"{runs} runs)")
                png = _plot_figure(shown, cells, percents, title)
                atomic_write_bytes(outdir / f"{fig_name}.png", png)
                images[fig_name] = shown
    out = ["# Figures 3-4 of the SS-NMF paper: accuracy against the percentage of constrained "
           "pairs", "", f"Paper: {PAPER}, Section 4.3, Figures 3 and 4.", "",
           "The paper's curves are images lost in its text conversion; the accuracies it states "
           "for SS-NMF (Table 3 at 3%; Table 4's 2 x 2 confusion matrices at 0, 1, 3, 5%) are "
           "drawn as black stars. The figures' x values are not recoverable; "
           f"{', '.join(f'{p:g}' for p in percents)}% spans Table 4's range.", ""]
    for fig_name, panels in FIGURE_PANELS.items():
        missing = [p for p in panels if p not in data]
        out += [f"## Figure {fig_name[-1]}", ""]
        if fig_name in images:
            out += [f"![Figure {fig_name[-1]}]({fig_name}.png)", ""]
        if missing:
            out += [f"Not available: {', '.join(missing)} (OHSUMED).", ""]
        for name in panels:
            if name not in data:
                continue
            out += [f"### {name}", "", "| method | " + " | ".join(f"{p:g}%" for p in percents)
                    + " |", "|---|" + "---:|" * len(percents)]
            for method in SEMI_SUPERVISED:
                out.append(f"| {NAMES[method]} | "
                           + " | ".join(_ms(cells.get((name, method, float(p))))
                                        for p in percents) + " |")
            points = PAPER_FIGURE_POINTS.get(name, {})
            out.append("| SS-NMF (paper) | " + " | ".join(
                f"{points[float(p)][0]:.4f} ({points[float(p)][1]})" if float(p) in points
                else "" for p in percents) + " |")
            out.append("")
    out += ["## Data", ""] + _data_lines(data) + [""] + _common_notes(data)
    out += ["", "## Protocol", ""] + _protocol_lines(runs, restarts, seed, outcome)
    out += _methods_lines()
    out.append(f"- {runs} runs per point ({PAPER_RUNS} by default, the paper's number of test "
               "runs for Table 3; it does not say how many runs its figures average).")
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


# --- registration ------------------------------------------------------------------------------


def _available() -> bool:
    return bool(available_datasets())


_SOURCE = "CLUTO re0 and fbis (cluto/re0, cluto/fbis); OHSUMED oh0/oh5 not available"

register_target(Target("chen2008-table3", "SS-NMF paper, Table 3: accuracy with 3% of pairs "
                       "constrained", PAPER, _available, run_table3, _SOURCE))
register_target(Target("chen2008-table4", "SS-NMF paper, Table 4: confusion and S matrices at "
                       "0/1/3/5% constrained", PAPER, _available, run_table4, _SOURCE))
register_target(Target("chen2008-fig3-4", "SS-NMF paper, Figures 3-4: accuracy vs % of pairs "
                       "constrained", PAPER, _available, run_figures, _SOURCE))
