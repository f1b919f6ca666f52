"""LCCF at corpus scale: the linear kernel kept as sparse products vs a dense n x n kernel.

On all of TDT2 (Cai's file, classes with >= 10 documents: 10021 documents,
56 classes) with k = 56, time the multiplicative updates (eqs. 17-18, NCW form,
p = 5, the paper's lambda = 100) per iteration and record peak memory
(tracemalloc, every numpy and scipy allocation, over kernel construction
and two iterations; times come from a separate run without tracemalloc) for

- ``sparse``: ``LinearKernel`` -- ``K W = X (X^T W)`` with the sparse ``X``; ``K`` never formed;
- ``dense``: ``K = X X^T`` formed as a dense n x n array first and multiplied directly,
  as the authors' MATLAB code does (``constructKernel`` then ``K*U``).

Both run the same solver from the same start, so their factors must agree to
rounding; the script checks that and prints the ratios dense / sparse.

Usage::

    python benchmarks/lccf_scale.py --iterations 10 -o results/lccf_scale.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from docnmf.corpus import load_dataset
from docnmf.factor.graph import graph_laplacian, knn_cosine_graph
from docnmf.factor.kernels import DenseKernel, LinearKernel
from docnmf.factor.lccf import fit_lccf, random_init_concepts
from docnmf.text.weighting import TfidfWeighting


def measure(build, graph, W0, V0, lam, iterations):
    """Build the kernel operator and run the updates: once timed, once under tracemalloc.

    tracemalloc slows every allocation, so times come from a run without it
    and peak memory (kernel construction included) from a second, shorter run.
    """
    def run(n_iter):
        t0 = time.perf_counter()
        K = build()
        d = K.row_sums()
        Kw = K.weighted(1.0 / np.sqrt(d))
        setup = time.perf_counter() - t0
        t1 = time.perf_counter()
        res = fit_lccf(Kw, W0, V0, graph=graph, lam=lam, max_iter=n_iter, tol=0.0,
                       normalize="v")
        return res, setup, (time.perf_counter() - t1) / res.n_iter

    res, setup, per_iteration = run(iterations)
    tracemalloc.start()
    run(2)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return res, {"setup_seconds": setup, "seconds_per_iteration": per_iteration,
                 "iterations": res.n_iter, "peak_mib": peak / 2**20}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("-k", type=int, default=56)
    ap.add_argument("--lam", type=float, default=100.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-o", "--output", default="results/lccf_scale.json")
    args = ap.parse_args(argv)

    corpus = load_dataset("tdt2")
    X = TfidfWeighting(tf="sublinear", idf="xu").fit_transform(sp.csr_matrix(corpus.counts))
    n = X.shape[0]
    tracemalloc.start()
    t0 = time.perf_counter()
    graph = graph_laplacian(knn_cosine_graph(X, 5))
    graph_seconds = time.perf_counter() - t0
    _, graph_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    rng = np.random.default_rng(args.seed)
    W0, V0 = random_init_concepts(n, args.k, rng)
    norms = np.linalg.norm(V0, axis=0)
    W0, V0 = W0 * norms, V0 / norms

    sparse_res, sparse = measure(lambda: LinearKernel(X), graph, W0, V0, args.lam, args.iterations)
    dense_res, dense = measure(lambda: DenseKernel((X @ X.T).toarray()), graph, W0, V0, args.lam,
                               args.iterations)
    agree = float(max(np.max(np.abs(sparse_res.V - dense_res.V)) / np.max(np.abs(dense_res.V)),
                      np.max(np.abs(sparse_res.losses - dense_res.losses) / dense_res.losses)))
    out = {"n_docs": n, "n_terms": X.shape[1], "nnz": int(X.nnz), "k": args.k,
           "graph": {"seconds": graph_seconds, "peak_mib": graph_peak / 2**20,
                     "edges": int(graph.S.nnz)},
           "sparse": sparse, "dense": dense, "max_relative_difference": agree,
           "ratios_dense_over_sparse": {
               "seconds_per_iteration": dense["seconds_per_iteration"]
               / sparse["seconds_per_iteration"],
               "peak_memory": dense["peak_mib"] / sparse["peak_mib"],
               "setup_seconds": dense["setup_seconds"] / max(sparse["setup_seconds"], 1e-9)}}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(out, indent=2))
    r = out["ratios_dense_over_sparse"]
    print(f"TDT2: {n} docs, {X.shape[1]} terms, {X.nnz} non-zeros, k = {args.k}, "
          f"{args.iterations} LCCF-NCW iterations (lambda = {args.lam:g}, p = 5)")
    print(f"graph (blocked, sparse): {graph_seconds:.1f}s, peak {graph_peak / 2**20:.0f} MiB, "
          f"{graph.S.nnz} stored weights")
    print("| path | setup (s) | s / iteration | peak memory (MiB) |")
    print("|---|---|---|---|")
    for name, m in (("sparse X, K never formed", sparse), ("dense K = X X^T", dense)):
        print(f"| {name} | {m['setup_seconds']:.2f} | {m['seconds_per_iteration']:.3f} | "
              f"{m['peak_mib']:.0f} |")
    print(f"| ratio dense / sparse | {r['setup_seconds']:.1f} | "
          f"{r['seconds_per_iteration']:.1f} | {r['peak_memory']:.1f} |")
    print(f"largest relative difference between the two paths: {agree:.1e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
