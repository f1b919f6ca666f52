"""SS-NMF fit time against collection size: growth with nnz(X), not with n_docs**2.

Takes random subsets of 1,000 to 10,000 documents from TDT2 (Cai's matrix,
``load_dataset("tdt2")``, tf-idf by :class:`~docnmf.text.weighting.TfidfWeighting`)
or 20 Newsgroups (``--corpus 20newsgroups``, vectorized by
:class:`~docnmf.text.vectorize.DocumentVectorizer`), adds a fixed number of
must-link and cannot-link pairs drawn from the labels, and times one SS-NMF
run with a fixed number of iterations (``tol=0``), so every size does the
same amount of work per document. Times are CPU seconds of this process
(BLAS limited to one thread), so other jobs on a shared machine do not
inflate them. Prints a markdown table (and JSON with
``--json``): the time to build the sparse constraint correction, to compute
``||A~||^2`` (once per fit, shared by the restarts; its cost grows with
``sum_i nnz(x_i)^2`` and the size of the terms Gram, see
:func:`~docnmf.factor.ssnmf.gram_sqnorm`), the time per iteration and per
nnz, and the whole fit. Growth linear in nnz shows as a flat "per nnz"
column; a method that formed ``A = X X^T`` would grow with ``n_docs**2``
(last column: the memory that dense ``A`` would take).

Usage::

    python benchmarks/ssnmf_scaling.py
    python benchmarks/ssnmf_scaling.py --corpus 20newsgroups --sizes 1000 5000 10000 --json out.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits

from docnmf.constraints import Constraints
from docnmf.corpus import load_dataset
from docnmf.factor.ssnmf import constrained_similarity, fit_ssnmf, random_init
from docnmf.text.vectorize import DocumentVectorizer
from docnmf.text.weighting import TfidfWeighting


def fixed_constraints(y: np.ndarray, n_pairs: int, rng: np.random.Generator):
    """``n_pairs`` must-link and ``n_pairs`` cannot-link pairs drawn at random from the labels."""
    n = len(y)
    ml, cl = [], []
    while len(ml) < n_pairs or len(cl) < n_pairs:
        i, j = rng.integers(n, size=2)
        if i == j:
            continue
        if y[i] == y[j] and len(ml) < n_pairs:
            ml.append((i, j))
        elif y[i] != y[j] and len(cl) < n_pairs:
            cl.append((i, j))
    return Constraints(n, must_link=ml, cannot_link=cl).pairs(closure=False)


def load(corpus: str, n_max: int, rng: np.random.Generator):
    """Documents and labels of a random subset of ``n_max`` documents (weighted later, per size)."""
    c = load_dataset(corpus)
    idx = rng.permutation(len(c))[:n_max]
    c = c.subset(idx)
    y, _ = c.label_array()
    return c, y


def matrix(corpus, n: int):
    sub = corpus.subset(np.arange(n))
    if sub.counts is not None:
        return TfidfWeighting().fit_transform(sub.counts)
    return DocumentVectorizer().fit_transform(sub.texts)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="tdt2", help="tdt2 or 20newsgroups")
    parser.add_argument("--sizes", type=int, nargs="+",
                        default=[1000, 2000, 4000, 6000, 8000, 10000])
    parser.add_argument("-k", type=int, default=20, help="number of clusters")
    parser.add_argument("--pairs", type=int, default=100,
                        help="must-link pairs, and as many cannot-link pairs")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS threads; with 1, the CPU time reported is the work done, "
                             "undisturbed by other processes competing for the cores")
    parser.add_argument("--json", help="also write the rows as JSON to this file")
    args = parser.parse_args(argv)
    with threadpool_limits(limits=args.threads):
        return run(args)


def run(args) -> int:
    rng = np.random.default_rng(args.seed)
    corpus, y = load(args.corpus, max(args.sizes), rng)
    rows = []
    print(f"{args.corpus}: k={args.k}, {args.pairs} must-link + {args.pairs} cannot-link pairs, "
          f"{args.iterations} iterations, 1 restart")
    print("| n_docs | n_terms | nnz(X) | constraints s | norm s | s / iteration "
          "| iteration ns / nnz | fit s | dense A would need |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in sorted(args.sizes):
        X = matrix(corpus, n)
        ml, cl = fixed_constraints(y[:n], args.pairs, np.random.default_rng(args.seed + n))
        t0 = time.process_time()
        A = constrained_similarity(X, ml, cl)
        t1 = time.process_time()
        A.sqnorm()  # ||A~||^2: once per fit, shared by all restarts
        t2 = time.process_time()
        G0, S0 = random_init(A, args.k, np.random.default_rng(args.seed))
        res = fit_ssnmf(A, G0, S0, max_iter=args.iterations, tol=0.0)
        t3 = time.process_time()
        per_iter = (t3 - t2) / res.n_iter
        row = dict(n_docs=n, n_terms=X.shape[1], nnz=int(X.nnz), constraints_s=t1 - t0,
                   norm_s=t2 - t1, iteration_s=per_iter, fit_s=t3 - t0,
                   iteration_ns_per_nnz=1e9 * per_iter / X.nnz, dense_A_mb=n * n * 8 / 2**20)
        rows.append(row)
        print(f"| {n} | {row['n_terms']} | {row['nnz']} | {row['constraints_s']:.3f} "
              f"| {row['norm_s']:.2f} | {per_iter:.4f} | {row['iteration_ns_per_nnz']:.1f} "
              f"| {row['fit_s']:.2f} | {row['dense_A_mb']:.0f} MB |", flush=True)
    if len(rows) > 1:
        a, b = rows[0], rows[-1]
        print(f"\nfrom {a['n_docs']} to {b['n_docs']} documents: nnz x{b['nnz'] / a['nnz']:.1f}, "
              f"n^2 x{(b['n_docs'] / a['n_docs']) ** 2:.0f}; time per iteration "
              f"x{b['iteration_s'] / a['iteration_s']:.1f}, "
              f"||A~||^2 x{b['norm_s'] / a['norm_s']:.1f}, "
              f"whole fit x{b['fit_s'] / a['fit_s']:.1f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(dict(corpus=args.corpus, k=args.k, pairs=args.pairs,
                           iterations=args.iterations, rows=rows), fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
