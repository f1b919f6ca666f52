"""NMA's fit with passive blocks stacked by size, against masked q x q stacks, on real texts.

NMA's alternating least squares (Algorithm 1 of Wang, Tang & Liu 2011) solves
thousands of small non-negative least-squares problems per round by block
principal pivoting (:mod:`docnmf.factor.nnls`). Problems whose passive set
few others share are solved together on numpy's batched LAPACK. Two ways of
stacking them are timed here, in the same run on the same documents:

- ``masked q x q`` (the straightforward form, and docnmf's for ``q <= 16``):
  every problem is the full ``q x q`` system ``D G D + s (I - D)``, its
  inactive variables decoupled on the diagonal, so each costs ``q^3``
  (run here by raising ``nnls._PADDED_STACK_MAX_Q`` past every ``q``);
- ``by passive size`` (now): problems with ``p`` passive variables are
  stacked as their ``p x p`` blocks ``G_FF`` gathered from ``G``; each
  costs ``p^3``, and on text most passive sets are a small share of ``q``.

Both solve the same systems exactly; the script checks that the two fits
give the same labels and objective. The corpus is a seeded draw of
``--groups`` 20 Newsgroups groups, ``--posts`` posts each, headers kept (as
``docnmf cluster`` reads a folder of posts), and, with ``--duc``, DUC 2004
(500 articles, 50 topics) at ``k = 50``.
``NMAClustering`` runs at its defaults (whole documents, ``l1 = l2 = 3k``,
10 restarts) but for ``--restarts``.

Usage::

    PYTHONPATH=src python benchmarks/nma_speed.py [--k 5 10 20] [--restarts 2] [--duc]
        [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings
from contextlib import contextmanager

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from docnmf.cluster.nma import NMAClustering
from docnmf.corpus import load_dataset
from docnmf.factor import nnls


@contextmanager
def stacking(kind: str):
    """Run :mod:`docnmf.factor.nnls` with the given stacking of its batched systems."""
    saved = nnls._PADDED_STACK_MAX_Q
    if kind == "masked":
        nnls._PADDED_STACK_MAX_Q = 1 << 30      # every q: the padded q x q stack
    try:
        yield
    finally:
        nnls._PADDED_STACK_MAX_Q = saved


def newsgroups_draw(groups: int, posts: int, seed: int) -> tuple[list[str], np.ndarray]:
    corpus = load_dataset("20newsgroups", subset="test")
    y = np.array([labels[0] for labels in corpus.labels])
    rng = np.random.default_rng(seed)
    chosen = rng.choice(np.unique(y), groups, replace=False)
    keep = np.concatenate([rng.choice(np.flatnonzero(y == g), posts, replace=False)
                           for g in chosen])
    return [corpus.texts[i] for i in keep], y[keep]


def time_fit(texts, k: int, restarts: int, kind: str, seed: int) -> dict:
    model = NMAClustering(k, n_init=restarts, random_state=seed)
    with stacking(kind):
        t0 = time.perf_counter()
        model.fit(texts)
        seconds = time.perf_counter() - t0
    return {"seconds": seconds, "labels": model.labels_, "objective": float(model.objective_)}


def compare(name: str, texts, k: int, restarts: int, seed: int) -> dict:
    before = time_fit(texts, k, restarts, "masked", seed)
    now = time_fit(texts, k, restarts, "by-size", seed)
    return {"corpus": name, "documents": len(texts), "k": k, "topics": 3 * k,
            "restarts": restarts, "masked_s": before["seconds"], "by_size_s": now["seconds"],
            "speedup": before["seconds"] / now["seconds"],
            "same_labels": bool(np.array_equal(before["labels"], now["labels"])),
            "objective_rel_diff": abs(before["objective"] - now["objective"])
            / max(abs(before["objective"]), 1e-300)}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="*", default=[5, 10, 20],
                        help="numbers of clusters on the 20 Newsgroups draw (none: skip it)")
    parser.add_argument("--groups", type=int, default=5)
    parser.add_argument("--posts", type=int, default=150)
    parser.add_argument("--restarts", type=int, default=2)
    parser.add_argument("--duc", action="store_true", help="also DUC 2004 at k = 50")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the numbers here")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", ConvergenceWarning)

    rows = []
    if args.k:
        texts, _ = newsgroups_draw(args.groups, args.posts, args.seed)
        name = f"20 Newsgroups, {args.groups} groups x {args.posts} posts"
        rows += [compare(name, texts, k, args.restarts, args.seed) for k in args.k]
    if args.duc:
        duc = load_dataset("duc2004")
        rows.append(compare("DUC 2004", duc.texts, 50, args.restarts, args.seed))

    print("| corpus | docs | k (topics) | restarts | masked q x q (s) | by passive size (s) "
          "| speed-up | same labels | objective rel. diff |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    for r in rows:
        print(f"| {r['corpus']} | {r['documents']} | {r['k']} ({r['topics']}) | {r['restarts']} "
              f"| {r['masked_s']:.2f} | {r['by_size_s']:.2f} | {r['speedup']:.1f}x "
              f"| {'yes' if r['same_labels'] else 'no'} | {r['objective_rel_diff']:.1e} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()
