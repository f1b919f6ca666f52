"""The default against the consensus on fresh draws, and when a guard on degenerate results fires.

Each draw is clustered by ``docnmf cluster``'s own path (:func:`docnmf.pipeline.cluster_corpus`)
with the default method and with the consensus, from the same seed; one JSON line per draw on
standard output: accuracies, the default's cluster sizes and whether the guard of
``reports/benchmark-suite/degenerate-guard/DECISION.md`` fires (at least half of the ``k``
clusters hold fewer than ``n / (20 k)`` documents). The draws, none of them clustered before:

- ``20ng-strip``: five 20 Newsgroups groups, 150 posts each, test split, headers cut off,
  seeds 300-314; ``20ng-headers``: the same with headers, seeds 300-304;
- ``tdt2``: five TDT2 classes (Cai's matrices, classes of at least 10 documents), seeds 300-309;
- ``reuters``: five Reuters-21578 topics (raw text, single-topic documents, topics of at least
  10), seeds 300-309.

Usage::

    PYTHONPATH=src python benchmarks/suite_degenerate_guard.py > draws.jsonl
"""

from __future__ import annotations

import argparse
import json
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np

#: A cluster is nearly empty below this share of the mean cluster size.
NEARLY_EMPTY = 1 / 20


def degenerate(sizes, k: int) -> bool:
    """At least half of the ``k`` clusters hold fewer than ``NEARLY_EMPTY * n / k`` documents."""
    sizes = np.asarray(sizes)
    return bool(np.sum(sizes < NEARLY_EMPTY * sizes.sum() / k) >= k / 2)


def newsgroups(seed: int, strip: bool):
    from docnmf.corpus import load_dataset

    corpus = load_dataset("20newsgroups", subset="test", strip_headers=strip)
    y = np.array([labels[0] for labels in corpus.labels])
    rng = np.random.default_rng(seed)
    groups = rng.choice(np.unique(y), 5, replace=False)
    keep = np.concatenate([rng.choice(np.flatnonzero(y == g), 150, replace=False)
                           for g in groups])
    return corpus.subset([int(i) for i in keep])


def suite_draw(parent: str, seed: int):
    from docnmf.experiments.benchmark import load_suite_corpus
    from docnmf.experiments.suite import SuiteCorpus

    return load_suite_corpus(SuiteCorpus(f"{parent}_5c_{seed}", "draws", parent, "news",
                                         "counts", 0, 5, parent=parent, draw=seed))


def score(draw: tuple[str, int]) -> dict:
    from threadpoolctl import threadpool_limits

    from docnmf.methods import DEFAULT_METHOD
    from docnmf.pipeline import cluster_corpus

    family, seed = draw
    warnings.simplefilter("ignore")
    corpus = {"20ng-strip": lambda: newsgroups(seed, True),
              "20ng-headers": lambda: newsgroups(seed, False),
              "tdt2": lambda: suite_draw("tdt2", seed),
              "reuters": lambda: suite_draw("reuters21578_single", seed)}[family]()
    out = {"family": family, "seed": seed, "docs": len(corpus)}
    with threadpool_limits(1):
        default = cluster_corpus(corpus, 5, DEFAULT_METHOD, random_state=seed)
        consensus = cluster_corpus(corpus, 5, "consensus", random_state=seed)
    sizes = [int(s) for s in default.sizes]
    fires = degenerate(sizes, 5)
    out.update({"default": default.metrics["accuracy"], "consensus": consensus.metrics["accuracy"],
                "default_sizes": sorted(sizes), "fires": fires})
    out["guarded"] = out["consensus"] if fires else out["default"]
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    draws = ([("20ng-strip", s) for s in range(300, 315)]
             + [("20ng-headers", s) for s in range(300, 305)]
             + [("tdt2", s) for s in range(300, 310)]
             + [("reuters", s) for s in range(300, 310)])
    with ProcessPoolExecutor(args.jobs) as pool:
        for record in pool.map(score, draws):
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
