"""LCCF's graph weight and label rule on the evaluation suite's tuning corpora.

One LCCF / LCCF-NCW fit per (corpus, weighting, lam), seed ``derive_seed(0,
corpus, 0)`` (the suite's run 0), the corpus weighted as ``docnmf cluster``
weighs it; every label rule (argmax, k-means on V, spherical k-means on V,
k-means on the documents refined from the argmax clusters) is read from the
same fit. Appends one JSON line per fit (resumable) and prints, per
(weighting, lam, rule), the mean and worst accuracy difference to NMF at the
same seed, read from the suite's results files.

Usage::

    python benchmarks/suite_lccf_tuning.py --corpora cluto_tr23 cluto_tr12 ... \\
        --lams 0.01 0.03 0.1 -o reports/benchmark-suite/tuning-lccf/results.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from docnmf.cluster._labels import labels_from_factor
from docnmf.cluster.lccf import LCCFClustering
from docnmf.corpus import load_dataset
from docnmf.experiments.runner import derive_seed
from docnmf.metrics import clustering_accuracy
from docnmf.pipeline import vectorize_corpus

RULES = ("argmax", "kmeans", "skmeans", "refine")


def fit_all(names, lams, out: Path) -> None:
    done = set()
    if out.exists():
        for line in out.read_text().splitlines():
            r = json.loads(line)
            done.add((r["corpus"], r["weighting"], r["lam"]))
    out.parent.mkdir(parents=True, exist_ok=True)
    with threadpool_limits(1), open(out, "a") as fh, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in names:
            corpus = load_dataset(name)
            X, _ = vectorize_corpus(corpus)
            y, _ = corpus.label_array()
            k, seed = len(set(y)), derive_seed(0, name, 0)
            for weighting in ("none", "ncw"):
                for lam in lams:
                    if (name, weighting, lam) in done:
                        continue
                    t0 = time.perf_counter()
                    model = LCCFClustering(k, lam=lam, weighting=weighting, labels="argmax",
                                           random_state=seed).fit(X)
                    rec = dict(corpus=name, weighting=weighting, lam=lam,
                               seconds=round(time.perf_counter() - t0, 1))
                    for rule in RULES:
                        labels, _ = labels_from_factor(model.embedding_, rule,
                                                       np.random.default_rng(seed), X=X)
                        rec[rule] = round(clustering_accuracy(y, labels), 4)
                    fh.write(json.dumps(rec) + "\n")
                    fh.flush()
                    print(rec, file=sys.stderr, flush=True)


def summarise(out: Path, nmf_files: list[Path]) -> None:
    fits = [json.loads(line) for line in out.read_text().splitlines()]
    nmf = {}
    for path in nmf_files:
        for line in path.read_text().splitlines()[1:]:
            r = json.loads(line)
            if r["run"] == 0:
                nmf[r["corpus"], r["entry"]] = r["accuracy"]
    reference = {"none": "nmf:labels=argmax", "ncw": "nmf-ncw:labels=argmax"}
    print("| weighting | lam | labels | corpora | mean vs NMF | worst vs NMF |")
    print("|---|---:|---|---:|---:|---|")
    for weighting in ("none", "ncw"):
        for lam in sorted({r["lam"] for r in fits}):
            for rule in RULES:
                d = [(r["corpus"], r[rule] - nmf[r["corpus"], reference[weighting]])
                     for r in fits if r["weighting"] == weighting and r["lam"] == lam
                     and (r["corpus"], reference[weighting]) in nmf]
                if d:
                    c, worst = min(d, key=lambda t: t[1])
                    print(f"| {weighting} | {lam} | {rule} | {len(d)} | "
                          f"{np.mean([t[1] for t in d]):+.3f} | {worst:+.3f} ({c}) |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", nargs="+", default=[])
    parser.add_argument("--lams", nargs="+", type=float, default=[0.01, 0.03, 0.1])
    parser.add_argument("--nmf-results", nargs="+", type=Path,
                        default=[Path("reports/benchmark-suite/tuning/results.jsonl")])
    parser.add_argument("-o", "--output", type=Path,
                        default=Path("reports/benchmark-suite/tuning-lccf/results.jsonl"))
    args = parser.parse_args(argv)
    fit_all(args.corpora, args.lams, args.output)
    summarise(args.output, args.nmf_results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
