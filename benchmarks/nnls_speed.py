"""Block principal pivoting NNLS (many right-hand sides) against a loop over scipy.optimize.nnls.

Each problem is ``min ||C x_j - b_j||, x_j >= 0`` for every column ``b_j`` of
``B`` with a shared ``C``, the shape of the sub-problems in alternating least
squares (NMA's eqs. 5 and 12; NMF by ANLS). Two loops are timed:

- ``scipy loop``: ``scipy.optimize.nnls(C, b_j)`` for each column, the
  obvious code;
- ``scipy loop (QR)``: the same on the reduced q x q problem ``(R, Q^T b_j)``
  from one thin QR of ``C`` (same minimisers, much cheaper per column; the QR
  and ``Q^T B`` are timed too), so the comparison is not won by the tall
  design alone.

Times are the best of ``--repeats`` runs (the plain loop runs once); BPP's
include forming ``C^T C`` and ``C^T B``. BLAS runs single-threaded by default
(``--threads``): the products here are small, and on a shared machine waking
BLAS threads costs more than the arithmetic and makes the timings erratic.

Both loops and :func:`docnmf.factor.nnls.nnls_bpp` reach the same
objective (checked). Prints a markdown table; ``--json`` writes the numbers.

Usage::

    PYTHONPATH=src python benchmarks/nnls_speed.py [--repeats 5] [--threads 1] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from scipy.optimize import nnls
from threadpoolctl import threadpool_limits

from docnmf.factor.nnls import nnls_bpp

#: (label, m rows, q unknowns, r right-hand sides, kind)
CASES = [
    ("NMA eq. 5 (B_i given L)", 3000, 6, 6000, "nonneg"),
    ("NMA eq. 12 (rows of L)", 6000, 6, 3000, "nonneg"),
    ("ANLS, k = 20", 2000, 20, 4000, "nonneg"),
    ("ANLS, k = 50", 2000, 50, 1000, "nonneg"),
    ("random signs, q = 10", 500, 10, 5000, "normal"),
    ("rank-deficient (rank 5 of 15)", 500, 15, 2000, "rank5"),
]


def make_problem(m: int, q: int, r: int, kind: str, rng: np.random.Generator):
    if kind == "nonneg":
        # sparse non-negative data and a non-negative basis, as in text factorisations
        C = rng.random((m, q)) * (rng.random((m, q)) < 0.3)
        B = rng.random((m, r)) * (rng.random((m, r)) < 0.05)
    elif kind == "normal":
        C = rng.standard_normal((m, q))
        B = rng.standard_normal((m, r))
    else:
        C = rng.random((m, 5)) @ rng.random((5, q))
        B = rng.standard_normal((m, r))
    return C, B


def objective(C, B, X) -> float:
    return float(((C @ X - B) ** 2).sum())


def best_time(fn, repeats: int):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def run(repeats: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    rows = []
    for label, m, q, r, kind in CASES:
        C, B = make_problem(m, q, r, kind, rng)
        t_bpp, X = best_time(lambda: nnls_bpp(C, B), repeats)
        t_loop, X_loop = best_time(
            lambda: np.column_stack([nnls(C, B[:, j], maxiter=50 * q)[0] for j in range(r)]), 1)
        def qr_loop():
            Q, R = np.linalg.qr(C)
            QtB = Q.T @ B
            return np.column_stack([nnls(R, QtB[:, j], maxiter=50 * q)[0] for j in range(r)])

        t_qr, X_qr = best_time(qr_loop, repeats)
        f_bpp, f_loop, f_qr = objective(C, B, X), objective(C, B, X_loop), objective(C, B, X_qr)
        rows.append(dict(case=label, m=m, q=q, r=r, bpp_s=t_bpp, scipy_loop_s=t_loop,
                         scipy_qr_loop_s=t_qr, speedup_vs_loop=t_loop / t_bpp,
                         speedup_vs_qr_loop=t_qr / t_bpp,
                         rel_objective_gap=(f_bpp - min(f_loop, f_qr)) / max(f_loop, 1e-300)))
    return rows


def markdown(rows: list[dict]) -> str:
    out = ["| problem | m x q, r columns | BPP (s) | scipy loop (s) | ratio | scipy loop on QR (s) "
           "| ratio | objective gap |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r['case']} | {r['m']} x {r['q']}, {r['r']} | {r['bpp_s']:.3f} | "
                   f"{r['scipy_loop_s']:.3f} | {r['speedup_vs_loop']:.1f}x | "
                   f"{r['scipy_qr_loop_s']:.3f} | {r['speedup_vs_qr_loop']:.1f}x | "
                   f"{r['rel_objective_gap']:.1e} |")
    return "\n".join(out)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the numbers here")
    args = parser.parse_args(argv)
    with threadpool_limits(limits=args.threads, user_api="blas"):
        rows = run(args.repeats, args.seed)
    print(markdown(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    main()
