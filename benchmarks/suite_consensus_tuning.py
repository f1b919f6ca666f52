"""The evidence behind the default method: consensus designs against NMF-NCW and k-means.

For each suite corpus and run (the suite's documents and seeds, ``derive_seed(0, corpus, run)``)
this fits every candidate *member* once, on docnmf's term counts:

- ``nmf-ncw``, ``nmf``: NMFClustering (HALS, NNDSVDa) on raw or sublinear tf-idf;
- ``skm10``, ``skm2``: spherical k-means (k-means on unit rows, 10 or 2 restarts);
- ``lsaA`` (100 LSI dimensions, 5 power steps, k-means with 10 restarts; scikit-learn's text
  clustering example), ``lsaB`` (100, 2 steps, 3 restarts), ``lsaC`` (50, 2, 3; the estimator's),
  ``lsaD`` (100, 5, 3): k-means on the unit rows of the LSI coordinates;

each on ``raw`` and ``sublinear`` tf-idf, and the peer scikit-learn TfidfVectorizer + KMeans.
The *designs* (:data:`DESIGNS`, declared before they were scored) are consensuses of a subset
of members (k-means, 10 restarts, on their concatenated indicators) and single members; each is
scored against the peer as the suite's goals read: mean accuracy, wins (> +0.005), the worst
shortfall and the corpora more than 0.03 below. ``consensus (estimator)`` is
:class:`~docnmf.cluster.ConsensusClustering` at its defaults, fitted as ``docnmf cluster`` fits
it: it must equal the ``cons6-lsaC`` design it was built from.

Usage::

    python benchmarks/suite_consensus_tuning.py --role tuning --runs 2 --jobs 2 \\
        -o reports/benchmark-suite/tuning-consensus
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from functools import partial
from pathlib import Path

import numpy as np
from solver_defaults import run_corpora

from docnmf._estimator import kmeans_restarts
from docnmf.cluster.consensus import ConsensusClustering, _member_labels, _weigh, indicator_matrix
from docnmf.experiments.benchmark import parse_entry, prepare_corpus
from docnmf.experiments.runner import derive_seed
from docnmf.experiments.suite import SUITE_CORPORA
from docnmf.factor.init import truncated_svd
from docnmf.metrics import clustering_accuracy

LSA = {"lsaA": (100, 5, 10), "lsaB": (100, 2, 3), "lsaC": (50, 2, 3), "lsaD": (100, 5, 3)}
NMF4 = ["nmf-ncw/raw", "nmf/raw", "nmf-ncw/sublinear", "nmf/sublinear"]


def _both(kind: str) -> list[str]:
    return [f"{kind}/raw", f"{kind}/sublinear"]


#: The designs scored: a consensus of members (a list) or a single member (a string).
DESIGNS = {
    "nmf-ncw (the earlier default)": "nmf-ncw/raw",
    "cons6-skm10": NMF4 + _both("skm10"),
    "cons6-skm2": NMF4 + _both("skm2"),
    "cons6-lsaA": NMF4 + _both("lsaA"),
    "cons6-lsaB": NMF4 + _both("lsaB"),
    "cons6-lsaC": NMF4 + _both("lsaC"),
    "cons6-lsaD": NMF4 + _both("lsaD"),
    "cons8-lsaA-skm2": NMF4 + _both("lsaA") + _both("skm2"),
    "cons4-nmf": NMF4,
    "cons4-ncw-lsaA": ["nmf-ncw/raw", "nmf-ncw/sublinear"] + _both("lsaA"),
    "lsaA/raw": "lsaA/raw",
    "lsaA/sublinear": "lsaA/sublinear",
    "skm10/sublinear": "skm10/sublinear",
}


def _unit(Z):
    norms = np.linalg.norm(Z, axis=1, keepdims=True)
    return np.divide(Z, norms, out=np.zeros_like(Z), where=norms > 0)


def _members(counts, k: int, seed: int) -> tuple[dict, dict, int]:
    """Every member's labels and seconds, and the consensus k-means seed.

    The estimator's own members (``nmf-ncw``, ``nmf``, ``lsaC``) get the generators
    ConsensusClustering gives them for ``random_state=seed``, so ``cons6-lsaC`` is what it fits.
    """
    from sklearn.cluster import KMeans

    from docnmf._rng import child_generators
    from docnmf.cluster._labels import _unit_rows

    children = child_generators(np.random.default_rng(seed), 7)
    own = {"nmf-ncw/raw": 0, "nmf/raw": 1, "lsaC/raw": 2, "nmf-ncw/sublinear": 3,
           "nmf/sublinear": 4, "lsaC/sublinear": 5}
    other = np.random.default_rng([seed, 1])
    labels, seconds = {}, {}
    for tf in ("raw", "sublinear"):
        W, _ = _weigh(counts, tf)
        for kind in ("nmf-ncw", "nmf", "lsaC"):
            t0 = time.perf_counter()
            labels[f"{kind}/{tf}"] = _member_labels(kind.replace("lsaC", "lsa"), W, k, 50,
                                                    children[own[f"{kind}/{tf}"]])
            seconds[f"{kind}/{tf}"] = time.perf_counter() - t0
        for name, n_init in (("skm10", 10), ("skm2", 2)):
            t0 = time.perf_counter()
            labels[f"{name}/{tf}"] = KMeans(k, n_init=n_init, random_state=seed).fit_predict(
                _unit_rows(W))
            seconds[f"{name}/{tf}"] = time.perf_counter() - t0
        for name, (r, steps, n_init) in LSA.items():
            if name == "lsaC":
                continue
            t0 = time.perf_counter()
            r = max(1, min(max(r, k), min(W.shape) - 1))
            P, s, _ = truncated_svd(W, r, other, n_iter=steps)
            labels[f"{name}/{tf}"] = KMeans(k, n_init=n_init, random_state=seed).fit_predict(
                _unit(P * s))
            seconds[f"{name}/{tf}"] = time.perf_counter() - t0
    return labels, seconds, int(children[6].integers(np.iinfo(np.int32).max))


def run_corpus(name: str, runs: int) -> list[dict]:
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    corpus = next(c for c in SUITE_CORPORA if c.name == name)
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = prepare_corpus(corpus, [parse_entry("consensus"), parse_entry("sklearn-km")])
        out = []
        for run in range(runs):
            seed = derive_seed(0, name, run)
            labels, seconds, consensus_seed = _members(data.counts, data.k, seed)
            scores = {m: clustering_accuracy(data.y, lab) for m, lab in labels.items()}
            for design, members in DESIGNS.items():
                if isinstance(members, list):
                    B = indicator_matrix(np.column_stack([labels[m] for m in members]), data.k)
                    km, _ = kmeans_restarts(B, data.k, n_init=10, max_iter=300, tol=1e-4,
                                            seed=consensus_seed)
                    scores[design] = clustering_accuracy(data.y, km.labels_)
                else:
                    scores[design] = scores[members]
            t0 = time.perf_counter()
            estimator = ConsensusClustering(data.k, random_state=seed).fit(data.counts)
            seconds["consensus (estimator)"] = time.perf_counter() - t0
            scores["consensus (estimator)"] = clustering_accuracy(data.y, estimator.labels_)
            scores["sklearn-km"] = clustering_accuracy(
                data.y, KMeans(data.k, n_init=10, random_state=seed).fit_predict(data.peer_tfidf))
            out.append({"corpus": name, "role": corpus.role, "run": run, "accuracy": scores,
                        "seconds": seconds})
            print(f"{name} run {run}: " + ", ".join(
                f"{d} {scores[d]:.3f}" for d in ("nmf-ncw (the earlier default)", "cons6-lsaC",
                                                 "consensus (estimator)", "sklearn-km")),
                file=sys.stderr, flush=True)
    return out


def table(records: list[dict], role: str, designs: list[str] | None = None) -> list[str]:
    """One half's summary against TfidfVectorizer + KMeans and its accuracy per corpus."""
    designs = [*DESIGNS, "consensus (estimator)"] if designs is None else designs
    corpora = sorted({r["corpus"] for r in records if r["role"] == role})
    if not corpora:
        return []

    def mean(corpus, design):
        return float(np.mean([r["accuracy"][design] for r in records if r["corpus"] == corpus]))

    runs = sum(r["corpus"] == corpora[0] for r in records)
    lines = [f"### {role.replace('_', ' ')}: {len(corpora)} corpora, {runs} runs each", "",
             ("| design | mean accuracy | vs TfidfVectorizer+KMeans | wins | worst | "
              "corpora more than 0.03 below |"), "|---|---:|---:|---:|---|---|"]
    for design in designs:
        d = {c: mean(c, design) - mean(c, "sklearn-km") for c in corpora}
        worst = min(d, key=d.get)
        below = ", ".join(f"{c} ({x:+.3f})" for c, x in d.items() if x < -0.03) or "none"
        lines.append(f"| {design} | {np.mean([mean(c, design) for c in corpora]):.3f} | "
                     f"{np.mean(list(d.values())):+.3f} | "
                     f"{sum(x > 0.005 for x in d.values())}/{len(d)} | "
                     f"{d[worst]:+.3f} ({worst}) | {below} |")
    lines += ["", "| corpus | " + " | ".join(designs) + " | sklearn-km |",
              "|---|" + "---:|" * (len(designs) + 1)]
    for c in corpora:
        lines.append(f"| {c} | " + " | ".join(
            f"{mean(c, d):.3f}" for d in [*designs, "sklearn-km"]) + " |")
    return lines + [""]


def suite_parser(doc: str, runs: int, jobs: int) -> argparse.ArgumentParser:
    """The options every suite script of this kind takes (the first line of ``doc`` describes)."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--jobs", type=int, default=jobs)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--report-only", action="store_true",
                        help="write report.md again from the folder's results.json")
    return parser


def main(argv=None) -> int:
    parser = suite_parser(__doc__, runs=2, jobs=1)
    parser.add_argument("--role", choices=["tuning", "held_back", "all"], default="tuning")
    parser.add_argument("--corpora", nargs="*", default=None)
    args = parser.parse_args(argv)
    if args.report_only:
        records = json.loads((args.output / "results.json").read_text())
        header = (args.output / "report.md").read_text().splitlines()[:4]
        write_report(args.output, records, header)
        return 0
    names = args.corpora or [c.name for c in SUITE_CORPORA if args.role in ("all", c.role)]
    records, minutes = run_suite(run_corpus, names, args.jobs, args.runs, args.output)
    header = ["# Consensus designs against NMF-NCW and TfidfVectorizer + KMeans", "",
              (f"`python benchmarks/suite_consensus_tuning.py {' '.join(argv or sys.argv[1:])}`"
               f" ({minutes:.1f} min). Accuracy, mean over runs; the "
               "suite's documents and seeds."), ""]
    write_report(args.output, records, header)
    return 0


def run_suite(run_corpus, names: list[str], jobs: int, runs: int, output: Path
              ) -> tuple[list[dict], float]:
    """``run_corpus(name, runs)`` for every suite corpus in ``names``, largest first (so the pool
    is not left waiting on one big corpus at the end); the records, also written to
    ``output/results.json``, and the minutes taken."""
    order = sorted(names, key=lambda n: -next(c.n_docs for c in SUITE_CORPORA if c.name == n))
    t0 = time.perf_counter()
    records = run_corpora(run_corpus, order, jobs, runs)
    output.mkdir(parents=True, exist_ok=True)
    (output / "results.json").write_text(json.dumps(records, indent=1))
    return records, (time.perf_counter() - t0) / 60


def score_consensus_fits(name: str, runs: int, score, designs: list[str]) -> list[dict]:
    """Fit the default consensus for each run of suite corpus ``name`` (the suite's documents and
    seeds) and score it: ``score(model, data, seed)`` gives the accuracy of each design, and
    scikit-learn's TfidfVectorizer + KMeans(n_init=10) is scored beside them."""
    from sklearn.cluster import KMeans
    from threadpoolctl import threadpool_limits

    corpus = next(c for c in SUITE_CORPORA if c.name == name)
    out = []
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = prepare_corpus(corpus, [parse_entry("consensus"), parse_entry("sklearn-km")])
        for run in range(runs):
            seed = derive_seed(0, name, run)
            model = ConsensusClustering(data.k, random_state=seed).fit(data.counts)
            scores = score(model, data, seed)
            scores["sklearn-km"] = clustering_accuracy(
                data.y, KMeans(data.k, n_init=10, random_state=seed).fit_predict(data.peer_tfidf))
            out.append({"corpus": name, "role": corpus.role, "run": run, "accuracy": scores})
            print(f"{name} run {run}: " + ", ".join(f"{d} {scores[d]:.3f}" for d in designs),
                  file=sys.stderr, flush=True)
    return out


def designs_main(argv, script: str, title: str, score, designs: list[str]) -> int:
    """The command line of a script that scores ``designs`` of the default consensus per suite
    corpus (:func:`score_consensus_fits`) and reports both halves (``title`` heads report.md)."""
    run_corpus = partial(score_consensus_fits, score=score, designs=designs)
    args = suite_parser(sys.modules[score.__module__].__doc__, runs=3, jobs=2).parse_args(argv)
    if args.report_only:                # the header of the run that made results.json
        records = json.loads((args.output / "results.json").read_text())
        lines = (args.output / "report.md").read_text(encoding="utf-8").splitlines()[:4]
    else:
        records, minutes = run_suite(run_corpus, [c.name for c in SUITE_CORPORA], args.jobs,
                                     args.runs, args.output)
        lines = [f"# {title}", "",
                 (f"`python benchmarks/{script} --runs {args.runs} --jobs {args.jobs} -o "
                  f"{args.output}` ({minutes:.1f} min). Accuracy, mean over runs; the suite's "
                  "documents and seeds."), ""]
    lines += table(records, "tuning", designs) + table(records, "held_back", designs)
    (args.output / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


def write_report(folder: Path, records: list[dict], header: list[str]) -> None:
    seconds = {}
    for r in records:
        for m, s in r["seconds"].items():
            seconds[m] = seconds.get(m, 0.0) + s
    lines = list(header)
    for role in ("tuning", "held_back"):
        lines += table(records, role)
    lines += ["Seconds per member, summed over corpora and runs (one thread): " + ", ".join(
        f"{m} {s:.0f}" for m, s in sorted(seconds.items())), ""]
    (folder / "report.md").write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
