"""docnmf's NMF solvers beside scikit-learn's, on the same matrix, k and machine, in one run.

Sections (``--sections``, all by default):

- ``objective``: TDT2 (Cai's TDT2.mat: 9394 docs of the 30 largest classes, empty
  terms dropped, unit rows, k = 30) and all of 20 Newsgroups (docnmf's vectorizer,
  k = 20). scikit-learn ``NMF(solver="cd", init="nndsvda")`` runs to its own
  stopping rule; its final objective ``1/2 ||X - W H||^2`` is the target. Then
  the seconds (start included) that docnmf's default solver and start take to
  reach that target, beside scikit-learn cd's own seconds; also scikit-learn
  ``mu``, docnmf MU from a random start (the paper) and docnmf in float32. Where the default
  stops above cd's final objective (at larger k, from the same start), the measure the other
  way round: cd's seconds to reach the default's end. ``--ks 50 100`` adds 20 Newsgroups at
  those k (``--sample N``: on N of its documents).
- ``restarts``: ten restarts of NMF-NCW on 20 Newsgroups, one at a time vs two and ten side
  by side, for HALS and MU, same starts (the results are checked equal).
- ``end-to-end``: ``docnmf cluster 20newsgroups -k 20`` as a subprocess (read,
  vectorize, fit the default restarts, write) beside scikit-learn
  ``TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2)`` +
  ``KMeans(n_clusters=20, n_init=10)`` on the same texts (reading included for both),
  with each side's peak memory (VmHWM of its process; ru_maxrss would carry this
  script's own peak over exec).
- ``reproduce``: ``docnmf reproduce cai2011-tdt2 --methods nmf,nmf-ncw,cf-ncw-paper,
  lccf-ncw-paper --runs 5`` with this checkout and with ``--before DIR`` (a checkout of an
  earlier commit), wall time each. The ``-paper`` names: ``cf-ncw`` and ``lccf-ncw`` now
  stand for the suite's defaults (another lambda and label rule), so only the papers'
  presets compute the same thing in both checkouts.

Ratios are docnmf / peer (below 1: docnmf faster). Threads: whatever BLAS uses by
default, the same limit for every side (``--threads`` to pin); but scikit-learn's ``cd`` on a
sparse matrix runs mostly on one core whatever the limit (its coordinate loop and scipy's
sparse products are single-threaded; only its Gram matrices go through BLAS), while docnmf's
kernels split the rows over every thread, so the objective section prints CPU seconds
beside wall seconds, and ``--threads 1`` compares one core with one core. The objective
section also times cd to its own final objective (within the same relative distance that
counts as reaching it for docnmf): cd's stopping rule runs it on past that point, and its
seconds to stop are not the same measure as docnmf's seconds to reach. Prints markdown.

Usage::

    python benchmarks/solvers.py [--sections objective restarts end-to-end reproduce]
        [--before /path/to/older/checkout] [--threads N] [--ks 50 100 [--sample 5000]]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from docnmf import DocumentVectorizer, load_dataset
from docnmf.cluster.nmf import NMFClustering
from docnmf.factor._losses import nmf_loss
from docnmf.factor.init import make_starts
from docnmf.factor.solvers import BATCHED_SOLVERS
from docnmf.factor.sparse import SparseProducts, thread_pool

DEFAULTS = NMFClustering().get_params()

#: Relative distance to scikit-learn cd's final objective that counts as reaching it.
REACHED = 1e-6


def tdt2_matrix() -> sp.csr_matrix:
    from sklearn.preprocessing import normalize

    X = sp.csr_matrix(load_dataset("tdt2_top30").counts, dtype=np.float64)
    X = X[:, np.flatnonzero(X.getnnz(axis=0))]
    return normalize(X).tocsr()


def newsgroups_matrix() -> sp.csr_matrix:
    return DocumentVectorizer().fit_transform(load_dataset("20newsgroups").texts)


def warm_up() -> None:
    """Load the compiled kernels once, as any process does on its first fit."""
    X = sp.random(60, 40, density=0.2, format="csr", random_state=0)
    for dtype in (np.float64, np.float32):
        NMFClustering(3, dtype=np.dtype(dtype).name, random_state=0).fit(X)


def time_to_target(X, k: int, *, solver: str, init: str, dtype, target: float, seed: int = 0,
                   max_iter: int = 1000, tol: float = 1e-7, extrapolate: bool = True) -> dict:
    """Seconds from nothing (start included) until the objective is at most ``target``.

    HALS prepares the sparse matrix once (``X^T``, row blocks) for its SVD and
    its rounds, as ``NMFClustering`` does; the preparation is timed.
    """
    trace = []
    t0, c0 = time.perf_counter(), time.process_time()
    data = SparseProducts(X, dtype=dtype) if solver == "hals" else X
    start = make_starts(data, k, init, [np.random.default_rng(seed)])[0]
    init_s = time.perf_counter() - t0
    if solver == "hals":
        result = BATCHED_SOLVERS["hals"](data, [start], max_iter=max_iter, tol=tol, dtype=dtype,
                                         extrapolate=extrapolate,
                                         callback=lambda it, losses: trace.append(
                                             (time.perf_counter() - t0, float(losses[0]),
                                              time.process_time() - c0)))[0]
    else:
        from docnmf.factor.nmf import fit_nmf_mu

        result = fit_nmf_mu(X, *start, max_iter=max_iter, tol=tol,
                            callback=lambda it, loss: trace.append((time.perf_counter() - t0,
                                                                    loss,
                                                                    time.process_time() - c0)))
    total = time.perf_counter() - t0
    # "reached": within REACHED relative of the target (two runs that settle in the same minimum
    # differ by their stopping rules in the last digits)
    reached = [i for i, (s, loss, _) in enumerate(trace) if loss <= target * (1 + REACHED)]
    return dict(final=float(result.losses[-1]), n_iter=result.n_iter, total_s=total,
                init_s=init_s, reach_s=trace[reached[0]][0] if reached else None,
                reach_cpu=trace[reached[0]][2] if reached else None,
                reach_round=reached[0] + 1 if reached else "-")


def _sklearn_nmf(X, k: int, solver: str, dtype=np.float64,
                 max_iter: int = 1000) -> tuple[float, float, int]:
    from sklearn.decomposition import NMF

    model = NMF(k, solver=solver, init="nndsvda", tol=1e-4, max_iter=max_iter, random_state=0)
    X_in = X.astype(dtype)       # the conversion is not scikit-learn's work: outside the clock
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0, c0 = time.perf_counter(), time.process_time()
        W = model.fit_transform(X_in)
        seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
    return (seconds, nmf_loss(X, model.components_.T.astype(np.float64), W), model.n_iter_,
            cpu)


def cd_time_to(X, k: int, target: float, n_iter: int) -> tuple[float, int] | None:
    """scikit-learn cd's seconds (its start included) to an objective at most ``target``, and
    its iterations: the fewest ``max_iter`` whose fit gets there (its first iterations are the
    same whatever ``max_iter``), found by bisection up to its own ``n_iter``; None if never.
    The measure the other way round, where docnmf stops above cd's final objective (at larger
    k HALS settles 0.03-0.12% above it from the same start)."""
    def reaches(n):
        seconds, loss, *_ = _sklearn_nmf(X, k, "cd", max_iter=n)
        return seconds if loss <= target * (1 + REACHED) else None

    if reaches(n_iter) is None:
        return None
    lo, hi = 0, n_iter              # cd with lo iterations does not get there, with hi it does
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if reaches(mid) is not None else (mid, hi)
    return reaches(hi), hi


def objective_section(name: str, X, k: int, repeats: int = 3) -> list[str]:
    """Each run ``repeats`` times, interleaved (cd, then each docnmf run, then cd again...), so a
    machine that slows down slows both sides alike; medians, and the median of the ratios of
    docnmf's seconds to reach cd's objective to cd's seconds in the same repetition.

    Two cd times per repetition: to its stopping rule (tol 1e-4), and to its own final objective
    within ``REACHED`` (its first iterations are the same whatever ``max_iter``: the fewest that
    get there are found once by bisection), the measure docnmf's seconds to reach are; wall and
    CPU seconds (scikit-learn's cd runs mostly on one core, docnmf's kernels on every thread)."""
    lines = [f"#### {name}: {X.shape[0]} x {X.shape[1]}, {X.nnz} non-zeros, k = {k} "
             f"(medians of {repeats} interleaved repetitions)", "",
             "| solver | seconds | final objective | rounds (to reach) | seconds to reach "
             f"sklearn cd's final (within {REACHED:g} relative) | CPU seconds to reach | "
             "ratio to sklearn cd (wall, to its stop) | ratio to sklearn cd (wall / CPU, to its "
             "final) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    runs = [("docnmf default: hals, " + DEFAULTS["init"] + f", {DEFAULTS['dtype']}", "hals",
             DEFAULTS["init"], np.dtype(DEFAULTS["dtype"]).type, True),
            ("docnmf hals, " + DEFAULTS["init"] + ", float32", "hals", DEFAULTS["init"],
             np.float32, True),
            ("docnmf hals without extrapolation, " + DEFAULTS["init"] + ", float64", "hals",
             DEFAULTS["init"], np.float64, False)]
    first = _sklearn_nmf(X, k, "cd")
    found = cd_time_to(X, k, first[1], first[2])
    own = found[1] if found else first[2]
    cd, cd_own, mu, ours = [], [], [], {label: [] for label, *_ in runs}
    for _ in range(repeats):
        cd.append(_sklearn_nmf(X, k, "cd"))
        cd_own.append(_sklearn_nmf(X, k, "cd", max_iter=own))
        for label, solver, init, dtype, extrapolate in runs:
            ours[label].append(time_to_target(X, k, solver=solver, init=init, dtype=dtype,
                                              target=cd[-1][1], tol=1e-7,
                                              extrapolate=extrapolate))
    mu.append(_sklearn_nmf(X, k, "mu"))
    paper = time_to_target(X, k, solver="mu", init="random", dtype=np.float64, target=cd[0][1],
                           tol=1e-5)
    cd_s = float(np.median([c[0] for c in cd]))
    own_s, own_cpu = (float(np.median([c[i] for c in cd_own])) for i in (0, 3))
    lines.append(f"| scikit-learn cd (nndsvda) | {cd_s:.2f} | {cd[0][1]:.4f} | {cd[0][2]} "
                 f"({own}) | {own_s:.2f} | {own_cpu:.2f} | 1.00 | 1.00 / 1.00 |")
    lines.append(f"| scikit-learn mu (nndsvda), once | {mu[0][0]:.2f} | {mu[0][1]:.4f} | "
                 f"{mu[0][2]} |  |  | {mu[0][0] / cd_s:.2f} |  |")
    for label, results in ours.items():
        reached = [r["reach_s"] for r in results]
        if all(s is not None for s in reached):
            reach = f"{np.median(reached):.2f}"
            cpu = f"{np.median([r['reach_cpu'] for r in results]):.2f}"
            ratio = f"{np.median([s / c[0] for s, c in zip(reached, cd)]):.2f}"
            cpu_own = np.median([r["reach_cpu"] / c[3] for r, c in zip(results, cd_own)])
            ratio_own = (f"{np.median([s / c[0] for s, c in zip(reached, cd_own)]):.2f} / "
                         f"{cpu_own:.2f}")
        else:
            reach, cpu, ratio, ratio_own = (f"never in {sum(s is None for s in reached)} of "
                                            f"{repeats}", "-", "-", "-")
        r = results[0]
        lines.append(f"| {label} | {np.median([x['total_s'] for x in results]):.2f} | "
                     f"{r['final']:.4f} | {r['n_iter']} ({r['reach_round']}) | {reach} | {cpu} | "
                     f"{ratio} | {ratio_own} |")
    reach = f"{paper['reach_s']:.2f}" if paper["reach_s"] is not None else "never"
    lines.append(f"| docnmf MU, random (the paper), once | {paper['total_s']:.2f} | "
                 f"{paper['final']:.4f} | {paper['n_iter']} | {reach} |  | - | - |")
    lines += ["", "Single runs of each repetition (seconds to reach / cd seconds): " + "; ".join(
        f"{label}: " + ", ".join(f"{r['reach_s'] or float('nan'):.2f}/{c[0]:.2f}"
                                 for r, c in zip(results, cd)) for label, results in ours.items())]
    default = ours[runs[0][0]]
    if any(r["reach_s"] is None for r in default):
        # the other way round: how long cd takes to reach where the default stops
        final = default[0]["final"]
        found = cd_time_to(X, k, final, cd[0][2])
        ours_s = float(np.median([r["total_s"] for r in default]))
        lines += ["", f"The default (run to tol 1e-7 here) stops above cd's final objective "
                  f"({final:.4f} against {cd[0][1]:.4f}, {100 * (final / cd[0][1] - 1):+.3f}%). "
                  + (f"scikit-learn cd reaches {final:.4f} after {found[1]} of its iterations, "
                     f"in {found[0]:.2f} s: the default's {ours_s:.2f} s to its end is "
                     f"{ours_s / found[0]:.2f} of that." if found else
                     "scikit-learn cd does not reach it either.")]
    return lines


def restarts_section(X) -> list[str]:
    """Ten restarts one at a time vs side by side, same starts, results checked equal."""
    from docnmf.text.weighting import ncw_weights

    Xw = sp.csr_matrix(sp.diags(np.sqrt(ncw_weights(X))) @ X)
    k, n = 20, 10
    options = dict(max_iter=DEFAULTS["max_iter"], tol=DEFAULTS["tol"])
    lines = [f"#### Ten restarts of NMF-NCW on 20 Newsgroups ({Xw.shape[0]} x {Xw.shape[1]}, "
             f"k = {k}, random starts, tol {options['tol']})", "",
             "| run | seconds | ratio to one at a time, one thread | best objective | "
             "max abs difference of U to one at a time |", "|---|---:|---:|---:|---:|"]
    starts = make_starts(Xw, k, "random", list(np.random.default_rng(0).spawn(n)))
    runs = [("HALS one at a time, products on one thread (plain)", "hals", 1, 1, np.float64),
            ("HALS one at a time, products on every core (default)", "hals", 1, None,
             np.float64),
            ("HALS two side by side", "hals", 2, None, np.float64),
            ("HALS all ten side by side", "hals", n, None, np.float64),
            ("HALS one at a time, float32", "hals", 1, None, np.float32),
            ("MU one at a time (the paper's default)", "mu", 1, None, np.float64),
            ("MU two side by side", "mu", 2, None, np.float64),
            ("MU all ten side by side", "mu", n, None, np.float64)]
    reference, base = {}, None
    for label, solver, width, threads, dtype in runs:
        extra = {"dtype": dtype} | ({"threads": threads} if solver == "hals" else {})
        t0 = time.perf_counter()
        # HALS prepares X once for every restart, as NMFClustering does
        data = SparseProducts(Xw, dtype=dtype) if solver == "hals" else Xw
        results = []
        for first in range(0, n, width):
            results += BATCHED_SOLVERS[solver](data, starts[first:first + width], **options,
                                               **extra)
        seconds = time.perf_counter() - t0
        base = base or seconds
        ref = reference.setdefault(solver, results)
        diff = max(float(np.max(np.abs(a.U - b.U))) for a, b in zip(ref, results))
        lines.append(f"| {label} | {seconds:.2f} | {base / seconds:.2f}x | "
                     f"{min(r.losses[-1] for r in results):.4f} | {diff:.1e} |")
    return lines + [""] + products_lines(Xw, k, n)


def products_lines(X, k: int, n: int, repeats: int = 5) -> list[str]:
    """Why side by side does not pay: the products of ``n`` restarts as one product of ``n k``
    columns and as ``n`` products of ``k``, on every core; medians of ``repeats``. Each stored
    entry of ``X`` fetches its row of the factor: ``8 k`` bytes per restart either way, against
    the 12 bytes of the entry itself (value and column index) that side by side saves."""
    data = SparseProducts(X)
    rng = np.random.default_rng(0)
    lines = ["The products alone (a round's two, `X W` and `X^T H`, for the ten restarts):", "",
             "| product | one of 10 k columns, s | ten of k columns, s | ten / one | "
             "factor rows gathered, GB/s (one / ten) |", "|---|---:|---:|---:|---:|"]
    with thread_pool(None) as pool:
        for name, product, rows in (("X W", data.dot, X.shape[1]),
                                    ("X^T H", data.tdot, X.shape[0])):
            W = rng.random((rows, n * k))
            parts = [np.ascontiguousarray(W[:, t * k:(t + 1) * k]) for t in range(n)]
            one, ten = [], []
            for _ in range(repeats):
                t0 = time.perf_counter()
                product(W, pool)
                one.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                for part in parts:
                    product(part, pool)
                ten.append(time.perf_counter() - t0)
            one_s, ten_s = float(np.median(one)), float(np.median(ten))
            gathered = X.nnz * n * k * 8 / 1e9
            lines.append(f"| {name} | {one_s:.3f} | {ten_s:.3f} | {ten_s / one_s:.2f} | "
                         f"{gathered / one_s:.1f} / {gathered / ten_s:.1f} |")
    share = 12 / (12 + 8 * k)
    lines += ["", f"One at a time, the entries of `X` are {share:.0%} of the bytes a product reads "
              f"(12 per entry against {8 * k} of factor row): reading them once instead of "
              f"{n} times can save at most that share, so side by side cannot be 2x faster "
              "unless the gathers themselves get faster, and wider rows make them slower once "
              "the factor no longer fits in cache."]
    return lines


def _docnmf_cluster(root: Path, threads: int | None, env: dict,
                    method: str | None = None) -> tuple[dict, dict]:
    """Wall seconds and peak MB of ``docnmf cluster 20newsgroups -k 20`` from checkout ``root``
    (with ``--method method`` when given)."""
    measure = ("import json, sys, time\nt0 = time.perf_counter()\n"
               "from docnmf.cli import main\nstatus = main(sys.argv[1:])\n"
               "print(json.dumps({'seconds': time.perf_counter() - t0, 'peak_mb': "
               "[int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0]"
               " / 1024, 'status': status}))\n")
    with tempfile.TemporaryDirectory() as tmp:
        args = ["-q", "cluster", "20newsgroups", "-k", "20", "-o", str(Path(tmp) / "out")]
        if threads:
            args += ["--threads", str(threads)]
        if method:
            args += ["--method", method]
        out = subprocess.run([sys.executable, "-c", measure, *args], capture_output=True,
                             text=True, check=True, env={**env, "PYTHONPATH": str(root / "src")})
        timings = json.loads((Path(tmp) / "out" / "run.json").read_text())["timings"]
    return json.loads(out.stdout.strip().splitlines()[-1]), timings


def end_to_end_section(threads: int | None, before: Path | None = None,
                       methods: Sequence[str] = ()) -> list[str]:
    script = (
        "import time, json\n"
        "t0 = time.perf_counter()\n"
        "from sklearn.feature_extraction.text import TfidfVectorizer\n"
        "from sklearn.cluster import KMeans\n"
        "from docnmf import load_dataset\n"
        "texts = load_dataset('20newsgroups').texts\n"
        "X = TfidfVectorizer(sublinear_tf=True, stop_words='english', min_df=2)"
        ".fit_transform(texts)\n"
        "labels = KMeans(n_clusters=20, n_init=10, random_state=0).fit_predict(X)\n"
        "print(json.dumps({'seconds': time.perf_counter() - t0, 'peak_mb': "
        "[int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')][0]"
        " / 1024}))\n")
    env = dict(os.environ)
    if threads:
        env.update(OMP_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env=env)
    peer = json.loads(out.stdout.strip().splitlines()[-1])
    here = Path(__file__).resolve().parents[1]
    ours, fit_s = _docnmf_cluster(here, threads, env)
    rows = []
    for method in methods:
        other, other_s = _docnmf_cluster(here, threads, env, method)
        rows.append(f"| docnmf cluster --method {method} (its run.json timings: {other_s}) | "
                    f"{other['seconds']:.1f} | {other['peak_mb']:.0f} |")
    if before is not None:
        old, old_timings = _docnmf_cluster(before.resolve(), None, env)
        rows.append(f"| docnmf cluster at {before} (before; {old_timings}) | "
                    f"{old['seconds']:.1f} | {old['peak_mb']:.0f} |")
    return ["#### docnmf cluster 20newsgroups -k 20, end to end", "",
            "| run | wall s | peak MB |", "|---|---:|---:|",
            f"| scikit-learn TfidfVectorizer + KMeans(n_init=10) | {peer['seconds']:.1f} | "
            f"{peer['peak_mb']:.0f} |",
            f"| docnmf cluster (default method; its run.json timings: {fit_s}) | "
            f"{ours['seconds']:.1f} | {ours['peak_mb']:.0f} |",
            *rows,
            f"| ratio docnmf / scikit-learn | {ours['seconds'] / peer['seconds']:.2f} | |"]


#: The papers' presets: the same computation in any checkout (``cf-ncw``, ``lccf-ncw`` are ours).
REPRODUCE_METHODS = "nmf,nmf-ncw,cf-ncw-paper,lccf-ncw-paper"


def reproduce_section(before: Path | None) -> list[str]:
    lines = [f"#### docnmf reproduce cai2011-tdt2 --methods {REPRODUCE_METHODS} --runs 5",
             "", "| checkout | wall s |", "|---|---:|"]
    checkouts = [("this", Path(__file__).resolve().parents[1])]
    if before is not None:
        checkouts.insert(0, ("before", before.resolve()))
    for label, root in checkouts:
        env = dict(os.environ, PYTHONPATH=str(root / "src"))
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "docnmf", "-q", "reproduce", "cai2011-tdt2",
                            "--methods", REPRODUCE_METHODS, "--runs", "5",
                            "-o", str(Path(tmp) / "rep")], check=True, env=env,
                           capture_output=True)
            lines.append(f"| {label} ({root}) | {time.perf_counter() - t0:.1f} |")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", nargs="+",
                        default=["objective", "restarts", "end-to-end", "reproduce"])
    parser.add_argument("--before", type=Path, default=None,
                        help="an older checkout for the reproduce wall time")
    parser.add_argument("--threads", type=int, default=None, help="BLAS threads for every side")
    parser.add_argument("--methods", nargs="*", default=[],
                        help="end-to-end: also time docnmf cluster with each of these --method")
    parser.add_argument("--repeats", type=int, default=3,
                        help="interleaved repetitions of the objective section")
    parser.add_argument("--ks", type=int, nargs="*", default=[],
                        help="objective: also 20 Newsgroups at each of these k (e.g. 50 100)")
    parser.add_argument("--sample", type=int, default=None,
                        help="objective: 20 Newsgroups' --ks runs on this many documents drawn "
                             "at random (seed 0), for a shorter run")
    args = parser.parse_args(argv)
    if args.threads:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=args.threads)
    print(f"docnmf defaults: solver={DEFAULTS['solver']} init={DEFAULTS['init']} "
          f"n_init={DEFAULTS['n_init']} tol={DEFAULTS['tol']} dtype={DEFAULTS['dtype']}\n")
    warm_up()
    news = None
    if "objective" in args.sections:
        print("\n".join(objective_section("TDT2 (TDT2.mat, unit rows)", tdt2_matrix(), 30,
                                          args.repeats)),
              end="\n\n", flush=True)
        news = newsgroups_matrix()
        print("\n".join(objective_section("20 Newsgroups (docnmf's tf-idf)", news, 20,
                                          args.repeats)),
              end="\n\n", flush=True)
        part = news
        if args.sample:
            rows = np.sort(np.random.default_rng(0).choice(news.shape[0], args.sample,
                                                           replace=False))
            part = news[rows]
        for k in args.ks:
            name = "20 Newsgroups" + (f", {args.sample} documents drawn" if args.sample else "")
            print("\n".join(objective_section(name, part, k, args.repeats)), end="\n\n",
                  flush=True)
    if "restarts" in args.sections:
        news = news if news is not None else newsgroups_matrix()
        print("\n".join(restarts_section(news)), end="\n\n", flush=True)
    if "end-to-end" in args.sections:
        print("\n".join(end_to_end_section(args.threads, args.before, args.methods)), end="\n\n",
              flush=True)
    if "reproduce" in args.sections:
        print("\n".join(reproduce_section(args.before)), end="\n\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
