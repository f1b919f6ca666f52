"""How NMA's segment scaling interacts with the number of segments (Wang, Tang & Liu 2011).

Table II of the paper reports that 2-6 segments beat the 1-segment (vector)
case; ``reports/wang2011-table2-fig7-10`` finds the opposite with the default
``norm="segment"`` (every segment a unit tf-idf vector). This probe refits
NMA on a few random Newsgroup subsets with 1 and ``--segments`` segments under
each ``norm`` (``segment``, ``document``: each document's matrix of unit
Frobenius norm, ``none``) and prints mean purity.

Usage::

    python benchmarks/nma_segment_norm.py --k 4 --runs 3 --restarts 3 --segments 3
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np

from docnmf.cluster.nma import NMAClustering
from docnmf.experiments.nma_runner import draw_subset, prepare_corpus
from docnmf.metrics import purity
from docnmf.text.segment import segment_text

NORMS = ("segment", "document", None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", default="Newsgroup", choices=["Newsgroup", "Reuters", "Classic"])
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--restarts", type=int, default=3)
    parser.add_argument("--segments", type=int, default=3)
    parser.add_argument("--extra-topics", type=int, default=1, help="l = k + this")
    args = parser.parse_args(argv)

    t_start = time.perf_counter()
    data = prepare_corpus(args.dataset)
    scores: dict[tuple[int, str | None], list[float]] = {}
    for run in range(args.runs):
        texts, y, _ = draw_subset(data, args.k, run, seed=0)
        for c in (1, args.segments):
            segments = [segment_text(t, c, method="sentences") for t in texts]
            for norm in NORMS:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    accs = [purity(y, NMAClustering(args.k, n_topics=args.k + args.extra_topics,
                                                    n_segments=c, norm=norm, n_init=1,
                                                    random_state=i).fit_predict(segments))
                            for i in range(args.restarts)]
                scores.setdefault((c, norm), []).append(float(np.mean(accs)))
                print(f"run {run}, {c} segment(s), norm={norm}: {np.mean(accs):.3f}",
                      file=sys.stderr)
    print(f"{args.dataset}, k = {args.k}, l = k + {args.extra_topics}, {args.runs} subsets "
          f"(the tables' first ones), {args.restarts} initializations; mean purity\n")
    print("| norm | 1 segment | " + f"{args.segments} segments |")
    print("|---|---:|---:|")
    for norm in NORMS:
        print(f"| {norm} | {np.mean(scores[(1, norm)]):.3f} | "
              f"{np.mean(scores[(args.segments, norm)]):.3f} |")
    print(f"\nwall time {time.perf_counter() - t_start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
