"""NMF and NMF-NCW on TDT2 under a reduced form of the papers' protocol.

For k = 2..10, draw R random subsets of k classes from Cai's TDT2 file
(classes with >= 10 documents: 10021 documents, 56 classes), weight the
subset, cluster it with N restarts (lowest objective kept), and score
accuracy and NMI. Prints a markdown table beside Cai et al. (2011) Tables 4/5
(rows NMF and NMF-NCW) and writes the per-run numbers as JSON.

Two weightings are run (``--weighting both``):
- ``xu``:  tf * log(n / df) on the subset being clustered, unit rows (Xu 2003, Section 3.1);
- ``cai``: (1 + log tf) * log(N / df) with the idf over the whole collection, unit rows
  (Cai's published preprocessing).

Usage::

    python benchmarks/nmf_tdt2_protocol.py --runs 10 --restarts 10 --jobs 2 -o results/tdt2_nmf.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import scipy.sparse as sp

from docnmf.cluster import NMFClustering
from docnmf.corpus import load_dataset
from docnmf.io import write_json
from docnmf.metrics import clustering_accuracy, nmi
from docnmf.text.weighting import TfidfWeighting

# Cai, He & Han (2011), Table 4 (accuracy) and Table 5 (NMI), k = 2..10 and the average.
PAPER = {
    ("nmf", "accuracy"): [0.866, 0.804, 0.755, 0.705, 0.699, 0.681, 0.608, 0.611, 0.578, 0.701],
    ("nmf-ncw", "accuracy"): [0.984, 0.959, 0.949, 0.885, 0.910, 0.878, 0.844, 0.824, 0.809, 0.894],
    ("nmf", "nmi"): [0.687, 0.678, 0.667, 0.625, 0.661, 0.648, 0.593, 0.616, 0.596, 0.641],
    ("nmf-ncw", "nmi"): [0.947, 0.903, 0.891, 0.807, 0.863, 0.832, 0.797, 0.792, 0.781, 0.846],
}

_STATE: dict = {}


def _init(counts, labels, cai_matrix):
    _STATE.update(counts=counts, labels=labels, cai=cai_matrix)


def _one_run(task):
    k, run, classes, weighting, restarts, seed = task
    labels = _STATE["labels"]
    idx = np.flatnonzero(np.isin(labels, classes))
    if weighting == "xu":
        X = TfidfWeighting(tf="raw", idf="xu").fit_transform(_STATE["counts"][idx])
    else:
        X = _STATE["cai"][idx]
    X = X[:, np.flatnonzero(X.getnnz(axis=0))]  # drop terms absent from the subset
    y = labels[idx]
    out = []
    for method, w in (("nmf", "none"), ("nmf-ncw", "ncw")):
        t0 = time.perf_counter()
        model = NMFClustering(k, weighting=w, n_init=restarts, random_state=seed).fit(X)
        out.append({"k": k, "run": run, "weighting": weighting, "method": method,
                    "n_docs": int(X.shape[0]), "accuracy": clustering_accuracy(y, model.labels_),
                    "nmi": nmi(y, model.labels_), "seconds": time.perf_counter() - t0,
                    "n_iter": int(model.n_iter_)})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10, help="random class subsets per k")
    ap.add_argument("--restarts", type=int, default=10)
    ap.add_argument("--k", type=int, nargs="+", default=list(range(2, 11)))
    ap.add_argument("--weighting", choices=["xu", "cai", "both"], default="both")
    ap.add_argument("--seed", type=int, default=2003)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-o", "--output", default="results/tdt2_nmf_protocol.json")
    args = ap.parse_args(argv)

    corpus = load_dataset("tdt2")
    labels, classes = corpus.label_array()
    counts = sp.csr_matrix(corpus.counts)
    cai = TfidfWeighting(tf="sublinear", idf="xu").fit_transform(counts)
    weightings = ["xu", "cai"] if args.weighting == "both" else [args.weighting]
    rng = np.random.default_rng(args.seed)
    tasks = []
    for k in args.k:
        for run in range(args.runs):
            picked = rng.choice(len(classes), size=k, replace=False)
            for w in weightings:
                tasks.append((k, run, picked, w, args.restarts, int(rng.integers(2**31))))
    t0 = time.perf_counter()
    results = []
    with ProcessPoolExecutor(args.jobs, initializer=_init, initargs=(counts, labels, cai)) as pool:
        for i, out in enumerate(pool.map(_one_run, tasks, chunksize=1), 1):
            results.extend(out)
            print(f"\r{i}/{len(tasks)} runs", end="", file=sys.stderr, flush=True)
    wall = time.perf_counter() - t0
    print(file=sys.stderr)
    write_json(args.output, {"args": vars(args), "wall_seconds": wall, "runs": results})
    print(report(results, args, wall))
    return 0


def report(results, args, wall) -> str:
    lines = [f"TDT2 (Cai's file, classes >= 10 docs): {args.runs} subsets per k, "
             f"{args.restarts} restarts, wall time {wall:.0f}s", ""]
    ks = sorted({r["k"] for r in results})
    for metric in ("accuracy", "nmi"):
        head = "| k | " + " | ".join(f"{m} ({w})" for w in sorted({r['weighting'] for r in results})
                                     for m in ("nmf", "nmf-ncw")) + " | paper NMF | paper NMF-NCW |"
        lines += [f"**{metric}** (mean ± std over subsets)", "", head,
                  "|" + "---|" * (head.count("|") - 1)]
        rows = ks + ["avg"]
        for i, k in enumerate(rows):
            cells = []
            for w in sorted({r["weighting"] for r in results}):
                for m in ("nmf", "nmf-ncw"):
                    vals = [r[metric] for r in results if r["weighting"] == w and r["method"] == m
                            and (k == "avg" or r["k"] == k)]
                    if k == "avg":
                        per_k = [np.mean([r[metric] for r in results if r["weighting"] == w
                                          and r["method"] == m and r["k"] == kk]) for kk in ks]
                        cells.append(f"{np.mean(per_k):.3f}")
                    else:
                        cells.append(f"{np.mean(vals):.3f} ± {np.std(vals):.3f}")
            paper_index = 9 if k == "avg" else k - 2
            paper = [f"{PAPER[(m, metric)][paper_index]:.3f}" if len(ks) == 9 or k != "avg" else "-"
                     for m in ("nmf", "nmf-ncw")]
            lines.append(f"| {k} | " + " | ".join(cells + paper) + " |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
