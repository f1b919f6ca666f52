"""LCCF-NCW against LCCF on NC-weighted tf-idf whose degrees are floored, one seed per corpus.

NC weighting scales document ``i`` by ``d_i^{-1/2}``, ``d_i`` its total similarity to the
collection. Two floors under ``d`` are scored against ``lccf-ncw`` at its defaults:
``q10`` (the tenth percentile of ``d``) and ``med/4`` (a quarter of the median). Each variant
is ``LCCFClustering(weighting="none")`` on the rows scaled by ``max(d_i, floor)^{-1/2}``,
which is ``lccf-ncw`` exactly when the floor is 0. The rule these numbers were judged by is
``reports/benchmark-suite/ncw-floor/DECISION.md``.

Two sets, one JSON line per corpus or draw on standard output:

- ``suite``: every corpus of the four sets of the evaluation suite (70), with the seed of the
  suite's run 0 and the suite's docnmf tf-idf;
- ``draws``: ten draws (seeds 200-209) of five 20 Newsgroups groups with 150 posts each,
  from the train split with the headers cut off, through docnmf's text pipeline.

Usage::

    PYTHONPATH=src python benchmarks/suite_ncw_floor.py suite > suite.jsonl
    PYTHONPATH=src python benchmarks/suite_ncw_floor.py draws > draws.jsonl
"""

from __future__ import annotations

import argparse
import json
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np

FLOORS = {"q10": lambda d: np.quantile(d, 0.1), "med/4": lambda d: np.median(d) / 4}


def scores(X, y, k: int, seed: int) -> dict:
    """Accuracy of ``lccf-ncw`` and of each floored variant on the documents of ``X``."""
    from docnmf.cluster.lccf import LCCFClustering
    from docnmf.metrics import clustering_accuracy

    keep = np.asarray(X.sum(axis=1)).ravel() > 0
    X, y = X[keep], y[keep]
    out = {"docs": int(X.shape[0]),
           "lccf-ncw": clustering_accuracy(
               y, LCCFClustering(k, weighting="ncw", random_state=seed).fit_predict(X))}
    d = X @ np.asarray(X.sum(axis=0)).ravel()
    for name, floor in FLOORS.items():
        Xw = X.multiply((1.0 / np.sqrt(np.maximum(d, floor(d))))[:, None]).tocsr()
        out[name] = clustering_accuracy(
            y, LCCFClustering(k, weighting="none", random_state=seed).fit_predict(Xw))
    return out


def suite_corpus(name: str) -> dict:
    from threadpoolctl import threadpool_limits

    from docnmf.experiments import benchmark
    from docnmf.experiments.runner import derive_seed
    from docnmf.experiments.suite import CONFIRM_CORPORA, SUITE_CORPORA

    corpus = next(c for c in [*SUITE_CORPORA, *CONFIRM_CORPORA] if c.name == name)
    warnings.simplefilter("ignore")
    with threadpool_limits(1):
        entry = benchmark.parse_entry("lccf-ncw")
        data = benchmark.prepare_corpus(corpus, [entry])
        X = data.matrices[entry.vectorizer]
        return {"corpus": name, "role": corpus.role,
                **scores(X, data.y, data.k, derive_seed(0, name, 0))}


def newsgroups_draw(seed: int) -> dict:
    from threadpoolctl import threadpool_limits

    from docnmf.corpus import load_dataset
    from docnmf.text.vectorize import DocumentVectorizer

    warnings.simplefilter("ignore")
    corpus = load_dataset("20newsgroups", subset="train", strip_headers=True)
    y = np.array([labels[0] for labels in corpus.labels])
    rng = np.random.default_rng(seed)
    groups = rng.choice(np.unique(y), 5, replace=False)
    keep = np.concatenate([rng.choice(np.flatnonzero(y == g), 150, replace=False)
                           for g in groups])
    with threadpool_limits(1):
        X = DocumentVectorizer().fit_transform([corpus.texts[i] for i in keep])
        return {"seed": seed, "groups": [str(g) for g in groups],
                **scores(X, y[keep], 5, seed)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=["suite", "draws"])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.set == "suite":
        from docnmf.experiments.suite import CONFIRM_CORPORA, SUITE_CORPORA

        corpora = sorted([*SUITE_CORPORA, *CONFIRM_CORPORA], key=lambda c: -c.n_docs)
        task, items = suite_corpus, [c.name for c in corpora]
    else:
        task, items = newsgroups_draw, range(200, 210)
    with ProcessPoolExecutor(args.jobs) as pool:
        for record in pool.map(task, items):
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
