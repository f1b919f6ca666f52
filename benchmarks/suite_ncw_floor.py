"""LCCF-NCW against LCCF on tf-idf weighted by softened NC degrees, one seed per corpus.

NC weighting scales document ``i`` by ``d_i^{-1/2}``, ``d_i`` its total similarity to the
collection. Two families of softer weights are scored against ``lccf-ncw`` at its defaults,
each variant ``LCCFClustering(weighting="none")`` on the rows so scaled:

- ``--family floor`` (the default): ``max(d_i, floor)^{-1/2}`` with two floors, ``q10`` (the
  tenth percentile of ``d``) and ``med/4`` (a quarter of the median). The rule these numbers
  were judged by is ``reports/benchmark-suite/ncw-floor/DECISION.md``.
- ``--family tempered``: ``d_i^{-a}`` for ``a`` = 3/8 and 1/4, and ``a = 0`` (no NC
  weighting: ``lccf`` on the same matrix).

Either is ``lccf-ncw`` exactly at floor 0 or ``a = 1/2``. Three sets, one JSON line per corpus
or draw on standard output:

- ``suite``: every corpus of the four sets of the evaluation suite (70), with the seed of the
  suite's run 0 and the suite's docnmf tf-idf; ``--role tuning`` keeps the tuning half;
- ``draws``: ten draws (seeds 200-209) of five 20 Newsgroups groups with 150 posts each,
  from the train split with the headers cut off, through docnmf's text pipeline.

Usage::

    PYTHONPATH=src python benchmarks/suite_ncw_floor.py suite > suite.jsonl
    PYTHONPATH=src python benchmarks/suite_ncw_floor.py draws > draws.jsonl
    PYTHONPATH=src python benchmarks/suite_ncw_floor.py suite --family tempered --role tuning
"""

from __future__ import annotations

import argparse
import json
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np

FAMILIES = {
    # each variant maps the degrees d to the rows' scale
    "floor": {"q10": lambda d: 1.0 / np.sqrt(np.maximum(d, np.quantile(d, 0.1))),
              "med/4": lambda d: 1.0 / np.sqrt(np.maximum(d, np.median(d) / 4))},
    "tempered": {"a=3/8": lambda d: d ** -0.375, "a=1/4": lambda d: d ** -0.25,
                 "a=0": lambda d: np.ones_like(d)},
}


def scores(X, y, k: int, seed: int, family: str = "floor") -> dict:
    """Accuracy of ``lccf-ncw`` and of each variant of ``family`` on the documents of ``X``."""
    from docnmf.cluster.lccf import LCCFClustering
    from docnmf.metrics import clustering_accuracy

    keep = np.asarray(X.sum(axis=1)).ravel() > 0
    X, y = X[keep], y[keep]
    out = {"docs": int(X.shape[0]),
           "lccf-ncw": clustering_accuracy(
               y, LCCFClustering(k, weighting="ncw", random_state=seed).fit_predict(X))}
    d = X @ np.asarray(X.sum(axis=0)).ravel()
    for name, scale in FAMILIES[family].items():
        Xw = X.multiply(scale(d)[:, None]).tocsr()
        out[name] = clustering_accuracy(
            y, LCCFClustering(k, weighting="none", random_state=seed).fit_predict(Xw))
    return out


def suite_corpus(name: str, family: str) -> dict:
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
                **scores(X, data.y, data.k, derive_seed(0, name, 0), family)}


def newsgroups_draw(seed: int, family: str) -> dict:
    from threadpoolctl import threadpool_limits

    from docnmf.experiments.suite import newsgroups_draw
    from docnmf.text.vectorize import DocumentVectorizer

    warnings.simplefilter("ignore")
    corpus = newsgroups_draw(seed, subset="train")
    y = np.array([labels[0] for labels in corpus.labels])
    groups = list(dict.fromkeys(y))      # in the order they were drawn
    with threadpool_limits(1):
        X = DocumentVectorizer().fit_transform(corpus.texts)
        return {"seed": seed, "groups": [str(g) for g in groups],
                **scores(X, y, 5, seed, family)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", choices=["suite", "draws"])
    parser.add_argument("--family", choices=list(FAMILIES), default="floor")
    parser.add_argument("--role", help="suite: only the corpora of this set (tuning, ...)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.set == "suite":
        from docnmf.experiments.suite import CONFIRM_CORPORA, SUITE_CORPORA

        corpora = sorted([*SUITE_CORPORA, *CONFIRM_CORPORA], key=lambda c: -c.n_docs)
        task, items = suite_corpus, [c.name for c in corpora if args.role in (None, c.role)]
        if not items:
            parser.error(f"no suite corpus has the role {args.role!r}")
    else:
        task, items = newsgroups_draw, range(200, 210)
    with ProcessPoolExecutor(args.jobs) as pool:
        for record in pool.map(task, items, [args.family] * len(items)):
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
