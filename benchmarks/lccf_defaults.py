"""Evidence for LCCFClustering's defaults: label rule (argmax vs k-means on V) and lambda.

For each corpus, draw random subsets of k classes (k from ``--k``), weight
each subset, and cluster it with CF, CF-NCW, LCCF and LCCF-NCW for a grid of
``lam`` (read relative to the data term, ``lam_scale="data"``) and with the
paper's setting (``lam_scale="none"``, lambda = 100). Every fit gives both
label rules: ``argmax`` of the embedding and k-means on its rows. Prints
mean accuracy and NMI per corpus and variant as markdown and writes the
per-run numbers as JSON.

Weightings (``--weighting``):
- ``subset``: ``TfidfWeighting()`` fitted on the subset (tf * log(n / df), unit rows), what
  ``docnmf cluster`` does to a collection it is given;
- ``cai``: ``(1 + log tf) * log(N / df)`` with the idf over the whole collection, unit rows
  (Cai's published TDT2 / Reuters files).

Usage::

    python benchmarks/lccf_defaults.py --corpora tdt2 reuters_cai --weighting cai subset \\
        --runs 3 --jobs 2 -o results/lccf_defaults.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from docnmf.cluster.lccf import LCCFClustering
from docnmf.corpus import load_dataset
from docnmf.metrics import clustering_accuracy, nmi
from docnmf.text.vectorize import DocumentVectorizer
from docnmf.text.weighting import TfidfWeighting

CACHE = Path("results/cache")


def load_counts(name: str) -> tuple[sp.csr_matrix, np.ndarray]:
    """Count matrix and integer labels of a corpus (texts vectorized once and cached)."""
    cache = CACHE / f"{name}_counts.npz"
    corpus = load_dataset(name)
    y, _ = corpus.label_array()
    if corpus.counts is not None:
        return sp.csr_matrix(corpus.counts, dtype=np.float64), np.asarray(y)
    if cache.exists():
        return sp.load_npz(cache).tocsr(), np.asarray(y)
    vec = DocumentVectorizer().fit(corpus.texts)
    counts = vec.count(corpus.texts)
    CACHE.mkdir(parents=True, exist_ok=True)
    sp.save_npz(cache, counts)
    return counts, np.asarray(y)


def variants(lams, paper_lam, ncw_graphs=("weighted",), plain=True):
    """(name, weighting, lam, lam_scale, ncw_graph) of every fit made on each subset."""
    out = [("cf", "none", 0.0, "data", "weighted"), ("cf-ncw", "ncw", 0.0, "data", "weighted")]
    forms = ([("none", "lccf", "weighted")] if plain else []) + \
        [("ncw", "lccf-ncw" + ("" if g == "weighted" else f" ({g})"), g) for g in ncw_graphs]
    for w, name, g in forms:
        out += [(f"{name} lam={lam:g}", w, lam, "data", g) for lam in lams]
        if paper_lam > 0:
            out.append((f"{name} paper lam={paper_lam:g}", w, paper_lam, "none", g))
    return out


_STATE: dict = {}


def _init(data):
    _STATE.update(data)


def _one_run(task):
    corpus, weighting, k, run, idx, seed, restarts, spec = task
    counts, y_all, cai = _STATE[corpus]
    y = y_all[idx]
    X = cai[idx] if weighting == "cai" else TfidfWeighting().fit_transform(counts[idx])
    X = X[:, np.flatnonzero(X.getnnz(axis=0))]
    out = []
    for name, w, lam, scale, graph in variants(*spec):
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = LCCFClustering(k, lam=lam, weighting=w, lam_scale=scale, ncw_graph=graph,
                                   labels="kmeans", n_init=restarts, random_state=seed).fit(X)
        argmax = np.argmax(model.embedding_, axis=1)
        for rule, labels in (("argmax", argmax), ("kmeans", model.labels_)):
            out.append({"corpus": corpus, "weighting": weighting, "k": k, "run": run,
                        "variant": name, "rule": rule, "n_docs": int(X.shape[0]),
                        "accuracy": clustering_accuracy(y, labels), "nmi": nmi(y, labels),
                        "lam_effective": model.lam_effective_, "n_iter": int(model.n_iter_),
                        "seconds": time.perf_counter() - t0})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpora", nargs="+", default=["tdt2", "reuters_cai"])
    ap.add_argument("--weighting", nargs="+", choices=["subset", "cai"], default=["subset"])
    ap.add_argument("--runs", type=int, default=3, help="random class subsets per k")
    ap.add_argument("--k", type=int, nargs="+", default=[2, 4, 6, 8, 10])
    ap.add_argument("--restarts", type=int, default=3)
    ap.add_argument("--lams", type=float, nargs="+", default=[0.03, 0.1, 0.3, 1.0, 3.0, 10.0])
    ap.add_argument("--paper-lam", type=float, default=100.0, help="0: no paper-setting fit")
    ap.add_argument("--ncw-graph", nargs="+", choices=["weighted", "appendix_b"],
                    default=["weighted"])
    ap.add_argument("--no-plain", action="store_true", help="skip unweighted LCCF")
    ap.add_argument("--max-per-class", type=int, default=0,
                    help="sample at most this many documents of each class (0: all)")
    ap.add_argument("--seed", type=int, default=2011)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-o", "--output", default="results/lccf_defaults.json")
    args = ap.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    data, tasks = {}, []
    for corpus in args.corpora:
        counts, y = load_counts(corpus)
        cai = TfidfWeighting(tf="sublinear", idf="xu").fit_transform(counts)
        data[corpus] = (counts, y, cai)
        classes = np.unique(y)
        for k in [k for k in args.k if k <= len(classes)]:
            for run in range(args.runs):
                picked = rng.choice(classes, size=k, replace=False)
                idx = []
                for c in picked:
                    members = np.flatnonzero(y == c)
                    if args.max_per_class and len(members) > args.max_per_class:
                        members = np.sort(rng.choice(members, args.max_per_class, replace=False))
                    idx.append(members)
                idx = np.sort(np.concatenate(idx))
                seed = int(rng.integers(2**31))
                for w in args.weighting:
                    spec = (args.lams, args.paper_lam, args.ncw_graph, not args.no_plain)
                    tasks.append((corpus, w, k, run, idx, seed, args.restarts, spec))
    t0 = time.perf_counter()
    results = []
    with ProcessPoolExecutor(args.jobs, initializer=_init, initargs=(data,)) as pool:
        for i, out in enumerate(pool.map(_one_run, tasks, chunksize=1), 1):
            results.extend(out)
            print(f"\r{i}/{len(tasks)} runs", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps({"args": vars(args), "runs": results}))
    print(report(results, time.perf_counter() - t0))
    return 0


def report(results, wall) -> str:
    """Mean accuracy / NMI (over k and subsets) per corpus+weighting, variant and label rule."""
    groups = sorted({(r["corpus"], r["weighting"]) for r in results})
    names = list(dict.fromkeys(r["variant"] for r in results))
    lines = [f"wall time {wall:.0f}s", ""]
    for metric in ("accuracy", "nmi"):
        head = "| variant | rule | " + " | ".join(f"{c} ({w})" for c, w in groups) + " | mean |"
        lines += [f"**{metric}**", "", head, "|" + "---|" * (head.count("|") - 1)]
        for name in names:
            for rule in ("argmax", "kmeans"):
                cells = []
                for c, w in groups:
                    vals = [r[metric] for r in results if r["corpus"] == c and r["weighting"] == w
                            and r["variant"] == name and r["rule"] == rule]
                    cells.append(np.mean(vals) if vals else np.nan)
                lines.append(f"| {name} | {rule} | " + " | ".join(f"{v:.3f}" for v in cells)
                             + f" | {np.nanmean(cells):.3f} |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
