"""How many HALS sweeps per product: time, rounds, objective and accuracy per labelled corpus.

HALS may sweep a factor's coordinates several times on the same sparse
product (Gillis & Glineur 2012 budget them in proportion to the costs of the
product and of a sweep: ``alpha``). This script fits every labelled corpus,
weighted as ``docnmf cluster`` weighs it, with k = its number of classes, from
the default NNDSVDa start, under each budget, to the default tolerance, on one
thread, the budgets of one corpus one after another in the same process (so
a busy machine slows them alike). Prints per budget: total CPU seconds,
rounds, mean accuracy and the objective relative to the best budget's, on the
corpora used to choose and on those held back (the split of
``benchmarks/solver_defaults.py``).

Usage::

    python benchmarks/hals_sweeps.py --jobs 2 -o results/hals_sweeps.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from docnmf.factor.hals import fit_nmf_hals_batched
from docnmf.metrics import clustering_accuracy

sys.path.insert(0, str(Path(__file__).parent))
from solver_defaults import HOLD_OUT, SELECT, run_corpora, weighted_starts  # noqa: E402

#: name -> keyword arguments of the solver.
BUDGETS = {
    "alpha=0.5 (Gillis & Glineur)": dict(alpha=0.5),
    "alpha=0.1": dict(alpha=0.1),
    "1,1": dict(sweeps=(1, 1)),
    "2,2": dict(sweeps=(2, 2)),
    "3,3": dict(sweeps=(3, 3)),
}


def run_corpus(name: str, weightings: list[str], tol: float, max_iter: int) -> list[dict]:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        records = []
        for weighting, y, X, k, ops, start in weighted_starts(name, weightings):
            for budget, options in BUDGETS.items():
                t0 = time.process_time()
                res, = fit_nmf_hals_batched(ops, [start], max_iter=max_iter, tol=tol, threads=1,
                                            **options)
                seconds = time.process_time() - t0
                records.append(dict(corpus=name, weighting=weighting, budget=budget, k=k,
                                    nnz=int(X.nnz), cpu_s=round(seconds, 4), rounds=res.n_iter,
                                    objective=float(res.losses[-1]),
                                    accuracy=round(clustering_accuracy(y, res.V.argmax(1)), 4)))
            print(f"{name} {weighting}: " + " ".join(
                f"{r['budget']}={r['cpu_s']:.2f}s/{r['rounds']}" for r in records[-len(BUDGETS):]),
                file=sys.stderr, flush=True)
        return records


def summarise(records: list[dict], corpora: list[str], title: str) -> str:
    rows = [r for r in records if r["corpus"] in corpora]
    best = {}
    for r in rows:
        key = (r["corpus"], r["weighting"])
        best[key] = min(best.get(key, np.inf), r["objective"])
    lines = [f"### {title} ({len({r['corpus'] for r in rows})} corpora, both weightings)", "",
             "| budget | CPU s | s / alpha=0.5 | rounds | mean accuracy | mean objective / best - 1 |",
             "|---|---:|---:|---:|---:|---:|"]
    base = sum(r["cpu_s"] for r in rows if r["budget"].startswith("alpha=0.5"))
    for budget in BUDGETS:
        sel = [r for r in rows if r["budget"] == budget]
        if not sel:
            continue
        seconds = sum(r["cpu_s"] for r in sel)
        excess = np.mean([r["objective"] / best[(r["corpus"], r["weighting"])] - 1 for r in sel])
        lines.append(f"| {budget} | {seconds:.1f} | {seconds / base:.2f} | "
                     f"{sum(r['rounds'] for r in sel)} | "
                     f"{np.mean([r['accuracy'] for r in sel]):.4f} | {excess:.2e} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", nargs="+", default=SELECT + HOLD_OUT)
    parser.add_argument("--weightings", nargs="+", default=["ncw", "none"])
    parser.add_argument("--tol", type=float, default=1e-5)
    parser.add_argument("--max-iter", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path, default=Path("results/hals_sweeps.json"))
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
