"""Does refining the consensus by spherical k-means on tf-idf help? The suite's corpora, both halves.

For each corpus and seed of the suite (``docnmf.experiments.suite``), the
consensus is fitted once (``ConsensusClustering(refine=None)``, the suite's
documents and seeds) and then refined as ``refine="sublinear"`` and
``refine="raw"`` refine it (spherical k-means on that tf-idf, started from the
consensus); scikit-learn's TfidfVectorizer + KMeans(n_init=10) runs beside it.
The report gives, per half, the mean accuracy, the mean gain over the peer,
wins and the worst shortfall, and the accuracy per corpus.

Usage::

    python benchmarks/suite_consensus_refine.py --runs 3 --jobs 2 -o reports/benchmark-suite/tuning-refine
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from solver_defaults import run_corpora

from docnmf.cluster._labels import spherical_kmeans_from
from docnmf.cluster.consensus import ConsensusClustering, _weigh
from docnmf.experiments.benchmark import parse_entry, prepare_corpus
from docnmf.experiments.runner import derive_seed
from docnmf.experiments.suite import SUITE_CORPORA
from docnmf.metrics import clustering_accuracy

DESIGNS = ["consensus", "refine=sublinear", "refine=raw"]


def run_corpus(name: str, runs: int) -> list[dict]:
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    corpus = next(c for c in SUITE_CORPORA if c.name == name)
    out = []
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = prepare_corpus(corpus, [parse_entry("consensus"), parse_entry("sklearn-km")])
        weighted = {tf: _weigh(data.counts, tf)[0] for tf in ("sublinear", "raw")}
        for run in range(runs):
            seed = derive_seed(0, name, run)
            model = ConsensusClustering(data.k, random_state=seed).fit(data.counts)
            scores = {"consensus": clustering_accuracy(data.y, model.consensus_labels_)}
            for tf, W in weighted.items():
                labels, _, rounds = spherical_kmeans_from(W, model.consensus_labels_, data.k)
                scores[f"refine={tf}"] = clustering_accuracy(data.y, labels)
            scores["sklearn-km"] = clustering_accuracy(
                data.y, KMeans(data.k, n_init=10, random_state=seed).fit_predict(data.peer_tfidf))
            out.append({"corpus": name, "role": corpus.role, "run": run, "accuracy": scores})
            print(f"{name} run {run}: " + ", ".join(f"{d} {v:.3f}" for d, v in scores.items()),
                  file=sys.stderr, flush=True)
    return out


def table(records: list[dict], role: str) -> list[str]:
    corpora = sorted({r["corpus"] for r in records if r["role"] == role})

    def mean(corpus, design):
        return float(np.mean([r["accuracy"][design] for r in records if r["corpus"] == corpus]))

    lines = [f"### {role.replace('_', ' ')}: {len(corpora)} corpora", "",
             "| design | mean accuracy | vs TfidfVectorizer+KMeans | wins | worst |",
             "|---|---:|---:|---:|---|"]
    for design in DESIGNS:
        d = {c: mean(c, design) - mean(c, "sklearn-km") for c in corpora}
        worst = min(d, key=d.get)
        lines.append(f"| {design} | {np.mean([mean(c, design) for c in corpora]):.3f} | "
                     f"{np.mean(list(d.values())):+.3f} | "
                     f"{sum(x > 0.005 for x in d.values())}/{len(d)} | "
                     f"{d[worst]:+.3f} ({worst}) |")
    lines += ["", "| corpus | " + " | ".join(DESIGNS) + " | sklearn-km |",
              "|---|" + "---:|" * (len(DESIGNS) + 1)]
    lines += [f"| {c} | " + " | ".join(f"{mean(c, d):.3f}" for d in [*DESIGNS, "sklearn-km"])
              + " |" for c in corpora]
    return lines + [""]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    names = [c.name for c in SUITE_CORPORA]
    order = sorted(names, key=lambda n: -next(c.n_docs for c in SUITE_CORPORA if c.name == n))
    t0 = time.perf_counter()
    records = run_corpora(run_corpus, order, args.jobs, args.runs)
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "results.json").write_text(json.dumps(records, indent=1))
    lines = ["# Refining the consensus by spherical k-means on tf-idf", "",
             f"`python benchmarks/suite_consensus_refine.py {' '.join(argv or sys.argv[1:])}` "
             f"({(time.perf_counter() - t0) / 60:.1f} min). Accuracy, mean over "
             f"{args.runs} runs; the suite's documents and seeds.", ""]
    lines += table(records, "tuning") + table(records, "held_back")
    (args.output / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
