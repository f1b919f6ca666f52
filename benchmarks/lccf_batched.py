"""Restarts side by side vs one after another: CF-NCW, LCCF-NCW and SS-NMF on a real corpus.

LCCFClustering and SSNMFClustering run their ``n_init`` random starts side
by side (``batch_restarts=True``): each round's products with the sparse
documents (``K W = X (X^T W)``, ``K V``, ``S V``; for SS-NMF ``A~ G``) are
one product of the starts' factors placed side by side instead of one per
start. The numbers must not change, only the time. On a random subset of
``--classes`` classes of TDT2 (Cai's matrix, ``load_dataset("tdt2")``) or
20 Newsgroups, weighted as the experiments weight it (sublinear tf, Xu's
idf, unit-length documents), this times, in the same run:

- the restart phase alone: ``n_init`` starts for ``init_rounds = 30``
  rounds (LCCF's start selection), side by side with
  :func:`~docnmf.factor.lccf.fit_lccf_restarts` vs one by one with
  :func:`~docnmf.factor.lccf.fit_lccf`;
- whole ``fit`` calls of CF-NCW, LCCF-NCW (the default ``lam``) and SS-NMF
  (constraints on ``--pairs`` of the document pairs), ``batch_restarts``
  True vs False. For CF/LCCF the kept start's continuation to convergence,
  the graph and k-means are the same work in both, so the ratio is smaller
  than the restart phase's; SS-NMF runs every restart to convergence.

and checks that both paths give identical results (labels, objectives,
every restart's objective, the embedding). Times are CPU seconds of this
process with BLAS limited to ``--threads`` threads (default 1; scipy's
sparse products use one), so other jobs on a shared machine inflate them
less than wall-clock time; each is the best of ``--repeats``, the two
paths alternating.

Usage::

    python benchmarks/lccf_batched.py
    python benchmarks/lccf_batched.py --corpus 20newsgroups --classes 5 --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from threadpoolctl import threadpool_limits

from docnmf.constraints import sample_constraints
from docnmf.cluster.lccf import LCCFClustering
from docnmf.cluster.ssnmf import SSNMFClustering
from docnmf.corpus import load_dataset
from docnmf.factor.graph import graph_laplacian, knn_cosine_graph
from docnmf.factor.kernels import LinearKernel
from docnmf.factor.lccf import fit_lccf, fit_lccf_restarts, random_init_concepts
from docnmf.text.vectorize import DocumentVectorizer
from docnmf.text.weighting import TfidfWeighting


def documents(corpus_name: str, n_classes: int, seed: int):
    """Documents of ``n_classes`` random classes (tf-idf rows, unit length) and their labels."""
    corpus = load_dataset(corpus_name)
    y, _ = corpus.label_array()
    rng = np.random.default_rng(seed)
    classes = rng.choice(np.unique(y[y >= 0]), size=n_classes, replace=False)
    idx = np.flatnonzero(np.isin(y, classes))
    sub = corpus.subset(idx)
    if sub.counts is not None:
        X = TfidfWeighting(tf="sublinear", idf="xu", norm="l2").fit_transform(
            sp.csr_matrix(sub.counts))
    else:
        X = DocumentVectorizer().fit_transform(sub.texts)
    return sp.csr_matrix(X), np.unique(y[idx], return_inverse=True)[1]


def best_times(side, one, repeats: int):
    """Best CPU seconds of ``side()`` and ``one()``, run alternately, and their last results."""
    best, out = [np.inf, np.inf], [None, None]
    for _ in range(repeats):
        for i, fn in enumerate((side, one)):
            t0 = time.process_time()
            out[i] = fn()
            best[i] = min(best[i], time.process_time() - t0)
    return best[0], best[1], out[0], out[1]


def restart_phase(X, k, n_init, lam_rel, seed, repeats):
    """LCCF-NCW's start selection: n_init starts, 30 rounds each, side by side vs one by one."""
    K = LinearKernel(X)
    d = K.row_sums()
    Kw = K.weighted(np.divide(1.0, np.sqrt(d), out=np.zeros_like(d), where=d > 0))
    graph = graph_laplacian(knn_cosine_graph(X, 5))
    lam = lam_rel * Kw.trace() / (graph.degrees.sum() / Kw.n)
    starts = []
    for child in np.random.default_rng(seed).spawn(n_init):
        W0, V0 = random_init_concepts(Kw.n, k, child)
        norms = np.linalg.norm(V0, axis=0)
        starts.append((W0 * norms, V0 / norms))
    run = dict(graph=graph, lam=lam, max_iter=30, tol=0.0, normalize="v")
    t_side, t_one, side, one = best_times(
        lambda: fit_lccf_restarts(Kw, starts, **run),
        lambda: [fit_lccf(Kw, W0, V0, **run) for W0, V0 in starts], repeats)
    same = all(np.array_equal(a.W, b.W) and np.array_equal(a.V, b.V)
               and np.array_equal(a.losses, b.losses) for a, b in zip(side, one))
    return t_side, t_one, same


def same_fit(a, b, names) -> bool:
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in names) \
        and a.n_iter_ == b.n_iter_


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="tdt2", help="tdt2 or 20newsgroups")
    ap.add_argument("--classes", type=int, default=10, help="random classes drawn (k)")
    ap.add_argument("--n-init", type=int, default=10)
    ap.add_argument("--pairs", type=float, default=0.002,
                    help="fraction of document pairs constrained for SS-NMF")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--threads", type=int, default=1, help="BLAS threads")
    ap.add_argument("--json", help="also write the rows as JSON to this file")
    args = ap.parse_args(argv)
    warnings.simplefilter("ignore", ConvergenceWarning)
    with threadpool_limits(limits=args.threads):
        return run(args)


def run(args) -> int:
    X, y = documents(args.corpus, args.classes, args.seed)
    k = args.classes
    print(f"{args.corpus}: {args.classes} random classes, {X.shape[0]} documents, "
          f"{X.shape[1]} terms, {X.nnz} non-zeros; k = {k}, n_init = {args.n_init}, "
          f"{args.threads} BLAS thread(s)")
    rows = []
    t_side, t_one, same = restart_phase(X, k, args.n_init, 0.3, args.seed, args.repeats)
    rows.append(dict(what="LCCF-NCW restart phase (30 rounds x n_init)", side_by_side_s=t_side,
                     one_by_one_s=t_one, identical=same))
    ml, cl = sample_constraints(y, args.pairs, rng=args.seed)
    lccf_names = ("labels_", "embedding_", "loss_history_", "restart_objectives_")
    fits = [
        ("CF-NCW fit", lambda batch: LCCFClustering(
            k, lam=0.0, weighting="ncw", n_init=args.n_init, random_state=args.seed,
            batch_restarts=batch).fit(X), lccf_names),
        ("LCCF-NCW fit", lambda batch: LCCFClustering(
            k, weighting="ncw", n_init=args.n_init, random_state=args.seed,
            batch_restarts=batch).fit(X), lccf_names),
        ("SS-NMF fit", lambda batch: SSNMFClustering(
            k, n_init=args.n_init, random_state=args.seed, batch_restarts=batch).fit(
                X, must_link=ml, cannot_link=cl), lccf_names + ("S_",)),
    ]
    for what, make, names in fits:
        t_side, t_one, side, one = best_times(lambda: make(True), lambda: make(False),
                                              args.repeats)
        rows.append(dict(what=what, side_by_side_s=t_side, one_by_one_s=t_one,
                         identical=same_fit(side, one, names), n_iter=int(side.n_iter_)))
    print("| what | side by side (s) | one by one (s) | one by one / side by side | identical |")
    print("|---|---:|---:|---:|---|")
    for r in rows:
        r["ratio"] = r["one_by_one_s"] / r["side_by_side_s"]
        print(f"| {r['what']} | {r['side_by_side_s']:.2f} | {r['one_by_one_s']:.2f} | "
              f"{r['ratio']:.2f} | {'yes' if r['identical'] else 'NO'} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(corpus=args.corpus, classes=args.classes, n_docs=X.shape[0],
                           n_terms=X.shape[1], nnz=int(X.nnz), n_init=args.n_init,
                           threads=args.threads, rows=rows), f, indent=2)
    return 0 if all(r["identical"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
