"""The default (LCCF-NCW) against the consensus, split by how evenly each corpus's classes are sized.

Reads the stored fits of the evaluation suite (``final/``, ``confirm/``, ``confirm2/`` under
``reports/benchmark-suite``; there the entry ``default`` is the consensus, the default when
they were run) and the class sizes of each corpus, and prints a markdown table: the mean
accuracy of ``lccf-ncw`` and of the consensus (each the mean of its three seeds) by class
balance. A corpus's balance is ``exp(H) / k``, ``H`` the entropy of its class sizes: 1 when
every class is as large as the others, small when a few classes hold most documents. No fit
is run.

Usage::

    PYTHONPATH=src python benchmarks/suite_class_balance.py > reports/benchmark-suite/class-balance.md
"""

from __future__ import annotations

import argparse
import json
import warnings
from collections import defaultdict
from pathlib import Path

import numpy as np

FOLDERS = ("final", "confirm", "confirm2")
#: Bounds of the balance bands of the table (lower bound included).
BANDS = ((0.9, "about equal (>= 0.9)"), (0.7, "unequal (0.7-0.9)"), (0.0, "very unequal (< 0.7)"))


def balance(y) -> float:
    """``exp(entropy of the class sizes) / number of classes``, in (0, 1]."""
    p = np.bincount(np.unique(y, return_inverse=True)[1]) / len(y)
    return float(np.exp(-np.sum(p * np.log(p))) / p.size)


def stored_means(root: Path) -> dict[str, dict[str, float]]:
    fits = defaultdict(lambda: defaultdict(list))
    for folder in FOLDERS:
        for line in (root / folder / "results.jsonl").read_text().splitlines():
            r = json.loads(line)
            if "corpus" in r:
                fits[r["corpus"]][r["entry"]].append(r["accuracy"])
    return {c: {e: float(np.mean(a)) for e, a in entries.items()} for c, entries in fits.items()}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("reports/benchmark-suite"))
    args = parser.parse_args(argv)
    from docnmf.experiments.benchmark import load_suite_corpus
    from docnmf.experiments.suite import CONFIRM_CORPORA, SUITE_CORPORA

    means = stored_means(args.results)
    rows = []
    for corpus in [*SUITE_CORPORA, *CONFIRM_CORPORA]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            y, _ = load_suite_corpus(corpus).label_array()
        m = means[corpus.name]
        rows.append((corpus.name, balance(y), m["lccf-ncw"], m["default"], m["sklearn-km"]))
    print("# The default against the consensus, by class balance\n")
    print("Made by `benchmarks/suite_class_balance.py` from the stored three-seed means of "
          f"{', '.join(f'`{f}/`' for f in FOLDERS)} ({len(rows)} corpora; there `default` is the "
          "consensus). Balance: exp(entropy of the class sizes) / k.\n")
    print("| classes | corpora | lccf-ncw (default) | consensus | consensus - default | "
          "consensus better / worse (> 0.005) | TfidfVectorizer + KMeans |")
    print("|---|---:|---:|---:|---:|---|---:|")
    taken = set()
    for low, name in BANDS:
        band = [r for r in rows if r[1] >= low and r[0] not in taken]
        taken.update(r[0] for r in band)
        d = np.array([r[3] - r[2] for r in band])
        print(f"| {name} | {len(band)} | {np.mean([r[2] for r in band]):.3f} | "
              f"{np.mean([r[3] for r in band]):.3f} | {d.mean():+.3f} | {(d > 0.005).sum()} / "
              f"{(d < -0.005).sum()} | {np.mean([r[4] for r in band]):.3f} |")
    print("\n| corpus | balance | lccf-ncw (default) | consensus | TfidfVectorizer + KMeans |")
    print("|---|---:|---:|---:|---:|")
    for name, b, default, consensus, km in sorted(rows, key=lambda r: -r[1]):
        print(f"| {name} | {b:.2f} | {default:.3f} | {consensus:.3f} | {km:.3f} |")


if __name__ == "__main__":
    main()
