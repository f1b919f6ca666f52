"""The p-nearest-neighbour cosine graph LCCF builds, beside scikit-learn's, on a named corpus.

docnmf's :func:`~docnmf.factor.graph.knn_cosine_graph` (eq. 8 of Cai et al.
2011) on sparse documents: a compiled kernel gathers each row of the sparse
product ``X X^T`` and keeps its ``p`` largest entries, on one thread and on
all of them. Beside it, on the same unit-length tf-idf rows:

- scikit-learn's ``NearestNeighbors(n_neighbors=p + 1, metric="cosine",
  algorithm="brute")`` ``.kneighbors_graph`` (its rows hold each document
  itself; the graphs are compared on their neighbour sets);
- the straightforward way docnmf took before, still its way for dense rows:
  blocks of rows of scipy's sparse product, made dense, ``p`` largest by
  partition (``--blocks`` rows per block, shared by the threads).

Prints wall seconds, peak traced memory (tracemalloc: numpy and scipy
allocations), the ratios to scikit-learn, and whether each graph is the
blocked one's, entry for entry (both keep the earlier documents at a tie).

Usage::

    python benchmarks/knn_graph.py [20newsgroups] [--blocks 512 128 32]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
import warnings

import numpy as np
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from docnmf.corpus import load_dataset
from docnmf.factor.graph import _blocked_top_p, _symmetrize, _unit_rows, knn_cosine_graph
from docnmf.factor.sparse import blas_threads
from docnmf.pipeline import vectorize_corpus


def measured(fn):
    """``fn()``'s result, wall seconds (a run of its own) and peak traced MiB (another)."""
    t0 = time.perf_counter()
    result = fn()
    seconds = time.perf_counter() - t0
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1] / 2 ** 20
    tracemalloc.stop()
    return result, seconds, peak


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", default="20newsgroups")
    parser.add_argument("--blocks", nargs="+", type=int, default=[512, 128, 32])
    parser.add_argument("-p", type=int, default=5)
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnicodeWarning)
        X, _ = vectorize_corpus(load_dataset(args.corpus), min_df=2, max_df=0.95)
    nn = NearestNeighbors(n_neighbors=args.p + 1, metric="cosine", algorithm="brute")
    peer, peer_s, peer_mb = measured(lambda: nn.fit(X).kneighbors_graph(X))
    peer_sets = [set(row) - {i} for i, row in enumerate(np.split(peer.indices, peer.indptr[1:-1]))]
    print(f"{args.corpus}: {X.shape[0]:,} documents x {X.shape[1]:,} terms, p = {args.p}, "
          f"{blas_threads()} threads\n")
    Xn = _unit_rows(X.astype(np.float64))
    XnT = Xn.T.tocsr()

    def blocked(block):
        rows = (lambda start, stop: (Xn[start:stop] @ XnT).toarray())
        return _symmetrize(_blocked_top_p(rows, X.shape[0], X.shape[0], args.p, block, True))

    print("| graph | threads | block rows | seconds | peak MiB | seconds / scikit-learn | "
          "peak / scikit-learn | same neighbours | same graph as blocks |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| scikit-learn brute cosine | all | – | {peer_s:.2f} | {peer_mb:.0f} | 1 | 1 | – | – |")
    reference = None
    for threads in sorted({1, blas_threads()}):
        runs = [("docnmf eq. 8, blocks of sparse products", block,
                 lambda block=block: blocked(block)) for block in args.blocks]
        runs.append(("docnmf eq. 8, compiled top-p", "–", lambda: knn_cosine_graph(X, args.p)))
        for name, block, build in runs:
            with threadpool_limits(threads, user_api="blas"):
                S, s, mb = measured(build)
            reference = S if reference is None else reference
            # docnmf's graph is symmetrized (eq. 8's "or"): each row's own p neighbours are in it
            same = np.mean([peer_sets[i] <= set(S.indices[S.indptr[i]:S.indptr[i + 1]])
                            for i in range(X.shape[0])])
            differ = (S != reference).nnz
            print(f"| {name} | {threads} | {block} | {s:.2f} | {mb:.0f} | "
                  f"{s / peer_s:.2f} | {mb / peer_mb:.2f} | {100 * same:.1f}% | "
                  + ("yes |" if not differ else f"{differ} entries differ |"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
