"""The extrapolation between HALS rounds: step sizes, rounds and time to the same objective.

HALS extrapolates between rounds (after Ang & Gillis 2019) with a step that
starts at ``BETA0``, shrinks by ``ETA`` after a dropped round and grows by
``GAMMA`` (its ceiling by ``GAMMA_CEILING``) after a kept one. This script fits
every labelled corpus, weighted as ``docnmf cluster`` weighs it, with k = its
number of classes, from the default NNDSVDa start, on one thread: first plain
HALS to a tight tolerance (1e-9), whose objective is the target; then plain
HALS and each set of step sizes, recording the rounds and seconds until the
kept objective is within 1e-6 of the target, and the rounds, objective and
accuracy at the default tolerance. The sets of one corpus run one after
another in the same process, so a busy machine slows them alike. Prints the
totals on the corpora used to choose and on those held back (the split of
``benchmarks/solver_defaults.py``).

Usage::

    python benchmarks/hals_extrapolation.py --jobs 2 -o results/hals_extrapolation.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import numpy as np

import docnmf.factor.hals as hals
from docnmf.metrics import clustering_accuracy

sys.path.insert(0, str(Path(__file__).parent))
from solver_defaults import HOLD_OUT, SELECT, run_corpora, weighted_starts  # noqa: E402

#: name -> (BETA0, ETA, GAMMA, GAMMA_CEILING), or None for plain HALS.
STEPS = {
    "plain": None,
    "0.5, 1.5, 1.01, 1.005 (Ang & Gillis)": (0.5, 1.5, 1.01, 1.005),
    "0.5, 1.5, 1.05, 1.01": (0.5, 1.5, 1.05, 1.01),
    "1.0, 1.5, 1.01, 1.005": (1.0, 1.5, 1.01, 1.005),
}
REACHED = 1e-6


@contextmanager
def step_sizes(values):
    saved = (hals.BETA0, hals.ETA, hals.GAMMA, hals.GAMMA_CEILING)
    if values is not None:
        hals.BETA0, hals.ETA, hals.GAMMA, hals.GAMMA_CEILING = values
    try:
        yield
    finally:
        hals.BETA0, hals.ETA, hals.GAMMA, hals.GAMMA_CEILING = saved


def _fit(data, start, steps, tol, max_iter, target=None):
    trace = []
    t0 = time.perf_counter()
    with step_sizes(STEPS[steps]):
        res, = hals.fit_nmf_hals_batched(
            data, [start], max_iter=max_iter, tol=tol, extrapolate=STEPS[steps] is not None,
            threads=1, callback=lambda it, losses: trace.append((time.perf_counter() - t0,
                                                                 float(losses[0]))))
    reach = None if target is None else next(
        ((i + 1, s) for i, (s, loss) in enumerate(trace) if loss <= target * (1 + REACHED)), None)
    return res, time.perf_counter() - t0, reach


def run_corpus(name: str, weightings: list[str], tol: float, max_iter: int) -> list[dict]:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        records = []
        for weighting, y, _, k, data, start in weighted_starts(name, weightings):
            best, _, _ = _fit(data, start, "plain", 1e-9, 5000)
            target = float(best.losses[-1])
            for steps in STEPS:
                _, _, reach = _fit(data, start, steps, 0.0, max_iter, target)
                res, seconds, _ = _fit(data, start, steps, tol, max_iter)
                records.append(dict(
                    corpus=name, weighting=weighting, steps=steps, k=k, target=target,
                    reach_rounds=None if reach is None else reach[0],
                    reach_s=None if reach is None else round(reach[1], 4),
                    rounds=int(res.n_iter), seconds=round(seconds, 4),
                    objective=float(res.losses[-1]),
                    accuracy=round(clustering_accuracy(y, np.argmax(res.V, axis=1)), 4)))
                print(f"{name} {weighting} {steps}: reach {records[-1]['reach_rounds']} rounds "
                      f"{records[-1]['reach_s']} s; at tol {res.n_iter} rounds "
                      f"{seconds:.2f} s", file=sys.stderr, flush=True)
        return records


def summarise(records: list[dict], corpora: list[str], title: str) -> str:
    rows = [r for r in records if r["corpus"] in corpora]
    lines = [f"### {title} ({len({r['corpus'] for r in rows})} corpora)", "",
             "| weighting | steps | reached | rounds to reach | s to reach | s to reach / plain | "
             "rounds at tol | s at tol | objective at tol / plain's | mean AC |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for weighting in sorted({r["weighting"] for r in rows}):
        plain = {r["corpus"]: r for r in rows if r["weighting"] == weighting
                 and r["steps"] == "plain"}
        for steps in STEPS:
            sel = [r for r in rows if r["weighting"] == weighting and r["steps"] == steps]
            both = [r for r in sel if r["reach_s"] is not None
                    and plain[r["corpus"]]["reach_s"] is not None]
            reach_s = sum(r["reach_s"] for r in both)
            plain_s = sum(plain[r["corpus"]]["reach_s"] for r in both)
            ratio = np.mean([r["objective"] / plain[r["corpus"]]["objective"] for r in sel])
            lines.append(
                f"| {weighting} | {steps} | {sum(r['reach_s'] is not None for r in sel)}/"
                f"{len(sel)} | {sum(r['reach_rounds'] for r in both)} | {reach_s:.1f} | "
                f"{reach_s / plain_s:.2f} | {sum(r['rounds'] for r in sel)} | "
                f"{sum(r['seconds'] for r in sel):.1f} | {ratio:.6f} | "
                f"{np.mean([r['accuracy'] for r in sel]):.3f} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", nargs="+", default=SELECT + HOLD_OUT)
    parser.add_argument("--weightings", nargs="+", default=["ncw", "none"])
    parser.add_argument("--tol", type=float, default=1e-5)
    parser.add_argument("--max-iter", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path,
                        default=Path("results/hals_extrapolation.json"))
    args = parser.parse_args(argv)
    records = run_corpora(run_corpus, args.corpora, args.jobs, args.weightings, args.tol,
                          args.max_iter)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(records, indent=1))
    print(summarise(records, SELECT, "Chosen on"))
    print()
    print(summarise(records, HOLD_OUT, "Held back"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
