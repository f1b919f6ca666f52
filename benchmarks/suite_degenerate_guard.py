"""The default against the consensus on fresh draws, and when a guard on degenerate results fires.

Each draw is clustered by ``docnmf cluster``'s own path (:func:`docnmf.pipeline.cluster_corpus`)
with the default method and with the consensus, from the same seed; one JSON line per draw on
standard output: accuracies, the default's cluster sizes, how many of them are nearly empty
(fewer than ``n / (20 k)`` documents, :func:`docnmf.diagnostics.nearly_empty_clusters`) and
whether each rule of ``reports/benchmark-suite/degenerate-guard/DECISION.md`` fires: rule 1,
at least half of the ``k`` clusters nearly empty; rule 2, at least ``min(2, ceil(k / 2))`` of
them. The draws, none
of them clustered before their set was declared:

- ``--set first`` (seeds 300-): ``20ng-strip``, five 20 Newsgroups groups of 150 posts, test
  split, headers cut off (15 draws); ``20ng-headers``, the same with headers (5); ``tdt2``,
  five TDT2 classes (Cai's matrices, classes of at least 10 documents; 10); ``reuters``, five
  Reuters-21578 topics (raw text, single-topic documents, topics of at least 10; 10);
- ``--set second`` (seeds 400-): the same 40 kinds of draws, and ten-class draws of TDT2 and of
  Reuters-21578 (5 each).

Usage::

    PYTHONPATH=src python benchmarks/suite_degenerate_guard.py --set first > draws.jsonl
    PYTHONPATH=src python benchmarks/suite_degenerate_guard.py --set second > draws-second.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import warnings
from concurrent.futures import ProcessPoolExecutor

#: The two rules of the DECISION, on the count of nearly empty clusters
#: (:func:`docnmf.diagnostics.nearly_empty_clusters`); rule 2 is
#: :func:`docnmf.diagnostics.degenerate`, which ``docnmf cluster`` now applies.
RULES = {"rule1": lambda empty, k: empty >= k / 2,
         "rule2": lambda empty, k: empty >= min(2, math.ceil(k / 2))}


def suite_draw(parent: str, k: int, seed: int):
    from docnmf.experiments.benchmark import load_suite_corpus
    from docnmf.experiments.suite import SuiteCorpus

    return load_suite_corpus(SuiteCorpus(f"{parent}_{k}c_{seed}", "draws", parent, "news",
                                         "counts", 0, k, parent=parent, draw=seed))


def score(draw: tuple[str, int, int]) -> dict:
    from threadpoolctl import threadpool_limits

    from docnmf.diagnostics import nearly_empty_clusters
    from docnmf.experiments.suite import newsgroups_draw
    from docnmf.methods import DEFAULT_METHOD
    from docnmf.pipeline import cluster_corpus

    family, k, seed = draw
    warnings.simplefilter("ignore")
    corpus = {"20ng-strip": lambda: newsgroups_draw(seed),
              "20ng-headers": lambda: newsgroups_draw(seed, strip_headers=False),
              "tdt2": lambda: suite_draw("tdt2", k, seed),
              "reuters": lambda: suite_draw("reuters21578_single", k, seed)}[family]()
    out = {"family": family, "k": k, "seed": seed, "docs": len(corpus)}
    with threadpool_limits(1):
        default = cluster_corpus(corpus, k, DEFAULT_METHOD, random_state=seed)
        consensus = cluster_corpus(corpus, k, "consensus", random_state=seed)
    sizes = [int(s) for s in default.sizes]
    empty = nearly_empty_clusters(sizes)
    out.update({"default": default.metrics["accuracy"], "consensus": consensus.metrics["accuracy"],
                "default_sizes": sorted(sizes), "nearly_empty": empty,
                **{name: bool(rule(empty, k)) for name, rule in RULES.items()}})
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=["first", "second"], required=True)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    base = 300 if args.set == "first" else 400
    draws = ([("20ng-strip", 5, s) for s in range(base, base + 15)]
             + [("20ng-headers", 5, s) for s in range(base, base + 5)]
             + [("tdt2", 5, s) for s in range(base, base + 10)]
             + [("reuters", 5, s) for s in range(base, base + 10)])
    if args.set == "second":
        draws += ([("tdt2", 10, s) for s in range(base, base + 5)]
                  + [("reuters", 10, s) for s in range(base, base + 5)])
    with ProcessPoolExecutor(args.jobs) as pool:
        for record in pool.map(score, draws):
            print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
