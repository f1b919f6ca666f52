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
  Reuters-21578 (5 each);
- ``--set suite``: the 70 suite corpora, each stored run of the default refitted from its seed
  for the cluster sizes; then the default with and without the guard against k-means, from the
  stored accuracies (no other fit).

Usage::

    PYTHONPATH=src python benchmarks/suite_degenerate_guard.py --set first > draws.jsonl
    PYTHONPATH=src python benchmarks/suite_degenerate_guard.py --set second > draws-second.jsonl
    PYTHONPATH=src python benchmarks/suite_degenerate_guard.py --set suite > suite.md
"""

from __future__ import annotations

import argparse
import json
import math
import warnings
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

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


#: The stored fits of the suite (``default`` there is the consensus) and the seed of each run.
SUITE_FOLDERS = ("final", "confirm", "confirm2")


def stored_fits(root: Path) -> dict:
    """``{corpus: {entry: {run: record}}}`` of the stored suite fits."""
    fits: dict = defaultdict(lambda: defaultdict(dict))
    for folder in SUITE_FOLDERS:
        for line in (root / folder / "results.jsonl").read_text().splitlines():
            r = json.loads(line)
            if "corpus" in r:
                fits[r["corpus"]][r["entry"]][r["run"]] = r
    return fits


def suite_sizes(item: tuple[str, int, int]) -> dict:
    """The default's cluster sizes on a suite corpus, refitted from a stored run's seed."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    from docnmf.cluster.lccf import LCCFClustering
    from docnmf.experiments import benchmark
    from docnmf.experiments.suite import CONFIRM_CORPORA, SUITE_CORPORA

    name, run, seed = item
    warnings.simplefilter("ignore")
    corpus = next(c for c in [*SUITE_CORPORA, *CONFIRM_CORPORA] if c.name == name)
    with threadpool_limits(1):
        entry = benchmark.parse_entry("lccf-ncw")
        data = benchmark.prepare_corpus(corpus, [entry])
        X = data.matrices[entry.vectorizer]
        X = X[np.asarray(X.sum(axis=1)).ravel() > 0]
        labels = LCCFClustering(data.k, weighting="ncw", random_state=seed).fit_predict(X)
    return {"corpus": name, "run": run, "role": corpus.role,
            "sizes": [int(n) for n in np.bincount(labels, minlength=data.k)]}


def suite(root: Path, jobs: int) -> None:
    """Where rule 2 fires on the suite (each stored run of the default refitted for its sizes),
    and the default with the guard against k-means, from the stored accuracies."""
    import numpy as np

    from docnmf.diagnostics import degenerate

    fits = stored_fits(root)
    items = [(c, run, r["random_state"]) for c, entries in fits.items()
             for run, r in sorted(entries["lccf-ncw"].items())]
    with ProcessPoolExecutor(jobs) as pool:
        found = list(pool.map(suite_sizes, items))
    fires = {(r["corpus"], r["run"]) for r in found if degenerate(r["sizes"])}
    roles = {r["corpus"]: r["role"] for r in found}
    print("# Rule 2 on the suite\n")
    print(f"Made by `benchmarks/suite_degenerate_guard.py --set suite`: each of the {len(found)} "
          "stored runs of the default (`lccf-ncw`) refitted from its seed for its cluster sizes; "
          "accuracies are the stored ones (the consensus's where the guard fires), means of the "
          "three runs.\n")
    print("It fires on:\n")
    for r in found:
        if (r["corpus"], r["run"]) in fires:
            print(f"- {r['corpus']}, run {r['run']}: sizes {sorted(r['sizes'])}")

    def mean(c, entry, guarded=False):
        runs = fits[c]["lccf-ncw"]
        return float(np.mean([fits[c]["default" if guarded and (c, run) in fires else entry]
                              [run]["accuracy"] for run in runs]))
    print("\n| corpora | default vs k-means | wins | more than 0.03 below | worst |")
    print("|---|---|---|---|---|")
    for half in ("all", "tuning", "held_back"):
        names = [c for c in roles if half == "all" or roles[c] == half]
        for guarded in (False, True):
            d = np.array([mean(c, "lccf-ncw", guarded)
                          - float(np.mean([r["accuracy"] for r in fits[c]["sklearn-km"].values()]))
                          for c in names])
            print(f"| {half} ({len(names)}), {'with' if guarded else 'without'} the guard | "
                  f"{d.mean():+.3f} | {(d > 0.005).sum()}/{len(d)} | {(d < -0.03).sum()} | "
                  f"{d.min():+.3f} ({names[int(np.argmin(d))]}) |")
    gain = np.array([mean(c, "lccf-ncw", True) - mean(c, "lccf-ncw") for c in roles])
    print(f"\nWith the guard against without, over the {gain.size} corpora: {gain.mean():+.4f}; "
          f"lower on {(gain < -0.005).sum()}, higher on {(gain > 0.005).sum()}.")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=["first", "second", "suite"], required=True)
    parser.add_argument("--results", type=Path, default=Path("reports/benchmark-suite"),
                        help="suite: the folder of the stored fits")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.set == "suite":
        suite(args.results, args.jobs)
        return
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
