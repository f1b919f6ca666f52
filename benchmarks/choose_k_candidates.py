"""Further criteria for choosing k, scored as ``choose_k_rules.py`` scores the first ones.

``docnmf choose-k``'s criteria (consensus of restarts, stability of topic
vectors, silhouettes) either fall early or grow with k on the suite's corpora
(``reports/choose-k/report.md``). This script measures three other kinds, on
the same document samples and k-ranges as ``choose_k.py``, without labels:

* **keyword coherence**: the mean NPMI of each topic's ten keywords over the
  sample's documents (``docnmf.text.coherence``), as topic-model users pick k;
* **a null reference** (after Tibshirani, Walther & Hastie's gap statistic):
  the same fit on the sample with each term's entries moved to documents drawn
  at random (term frequencies kept, co-occurrence destroyed), ``--nulls``
  draws; the gap is ``mean log(null error) - log(error)`` of NMF-NCW's relative
  reconstruction error;
* **null-corrected consensus and stability**: the cophenetic correlation and
  the topic stability of ``--runs`` random restarts, minus the same on the
  first null draw.

The rules were declared in two rounds before they were scored (the round is
in the table): the first after one tuning corpus's table (cluto_tr12) had
been looked at, the second after the first round had been scored on all 25.
Each is scored by the share of corpora whose pick is within 30% of the number
of classes, on the tuning split and on the held-out one (``choose_k.py``'s).

Usage::

    nice -n 19 python benchmarks/choose_k_candidates.py -o reports/choose-k/candidates

Each corpus's table is kept in ``<out>/results/<name>.json`` (a rerun skips
those); ``<out>/README.md`` is rewritten from all of them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from choose_k import HOLD_OUT, K_VALUES, K_VALUES_WIDE, SELECT, TOLERANCE
from solver_defaults import run_corpora

from docnmf._rng import as_generator, child_generators
from docnmf.cluster import NMFClustering
from docnmf.corpus import list_datasets, load_dataset
from docnmf.pipeline import vectorize_corpus
from docnmf.selection.choose import _ncw_row_weights, _relative_error, _restrict, sample_documents
from docnmf.selection.criteria import consensus_matrix, cophenetic_correlation, topic_stability
from docnmf.text.coherence import npmi_coherence


def null_reference(X, rng: np.random.Generator) -> sp.csr_matrix:
    """Each term's stored entries moved to as many documents drawn at random without
    replacement; rows scaled to unit length again, empty rows dropped."""
    C = sp.csc_matrix(X, copy=True)
    n = C.shape[0]
    for j in range(C.shape[1]):
        lo, hi = C.indptr[j], C.indptr[j + 1]
        C.indices[lo:hi] = np.sort(rng.choice(n, size=hi - lo, replace=False))
    R = sp.csr_matrix(C)
    norms = np.sqrt(np.asarray(R.multiply(R).sum(axis=1)).ravel())
    keep = norms > 0
    return sp.csr_matrix(sp.diags(1.0 / norms[keep]) @ R[keep])


def _deterministic(M, k: int) -> dict:
    """The fit ``docnmf cluster --method nmf-ncw`` would make: its error and keyword NPMI."""
    model = NMFClustering(k, weighting="ncw", max_iter=200, tol=1e-4).fit(M)
    A = model.embedding_ / np.sqrt(_ncw_row_weights(M))[:, None]
    keywords = [np.argsort(-topic)[:10] for topic in model.components_]
    return {"error": _relative_error(M, A, model.components_),
            "npmi": float(np.nanmean(npmi_coherence(M, keywords)))}


def _restarts(M, k: int, runs: int) -> dict:
    labelings, topics = [], []
    for child in child_generators(np.random.default_rng(k), runs):
        model = NMFClustering(k, weighting="ncw", init="random", n_init=1, max_iter=200,
                              tol=1e-4, random_state=child).fit(M)
        labelings.append(model.labels_)
        topics.append(model.components_)
    return {"cophenetic": cophenetic_correlation(consensus_matrix(labelings)),
            "stability": topic_stability(topics)[1]}


def run_corpus(name: str, args) -> list[dict]:
    from threadpoolctl import threadpool_limits

    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus = load_dataset(name)
        t0 = time.perf_counter()
        X, _ = vectorize_corpus(corpus, min_df=2, max_df=0.95)
        grid = K_VALUES_WIDE if corpus.n_classes > K_VALUES[-1] else K_VALUES
        Xs = _restrict(X, sample_documents(X, args.max_documents, as_generator(args.seed)))
        nulls = [null_reference(Xs, np.random.default_rng(args.seed + 100 + b))
                 for b in range(args.nulls)]
        table = []
        for k in (k for k in grid if k <= Xs.shape[0] // 2):
            fit, fits_null = _deterministic(Xs, k), [_deterministic(N, k) for N in nulls]
            row = {"k": k, **fit, "null_error": [f["error"] for f in fits_null],
                   "null_npmi": fits_null[0]["npmi"]}
            row.update(_restarts(Xs, k, args.runs))
            row.update({f"null_{c}": v for c, v in _restarts(nulls[0], k, args.runs).items()})
            table.append(row)
        result = {"corpus": name, "n_classes": corpus.n_classes, "n_documents": X.shape[0],
                  "n_sampled": Xs.shape[0], "table": table,
                  "seconds": time.perf_counter() - t0}
    (args.output / "results" / f"{name}.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"{name}: {time.perf_counter() - t0:.0f}s", file=sys.stderr, flush=True)
    return [result]


def _column(result: dict, name: str) -> np.ndarray:
    return np.array([row[name] for row in result["table"]], dtype=float)


def _gap(result: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """k, the gap and Tibshirani's s_k = sd * sqrt(1 + 1/B) of the null draws."""
    ks = _column(result, "k").astype(int)
    null = np.log(np.array([row["null_error"] for row in result["table"]]))
    gap = null.mean(axis=1) - np.log(_column(result, "error"))
    return ks, gap, null.std(axis=1) * np.sqrt(1 + 1 / null.shape[1])


def _coherence_reaches(share: float):
    def rule(result):
        npmi = _column(result, "npmi")
        return int(result["table"][int(np.flatnonzero(npmi >= share * np.nanmax(npmi))[0])]["k"])
    return rule


def _argmax_of(value):
    def rule(result):
        return int(result["table"][int(np.nanargmax(value(result)))]["k"])
    return rule


def _gap_knee(result: dict) -> int:
    """Kneedle on the gap: the k farthest above the line from its first to its last value."""
    ks, gap, _ = _gap(result)
    x = (ks - ks[0]) / max(ks[-1] - ks[0], 1)
    y = (gap - gap.min()) / (np.ptp(gap) or 1.0)
    return int(ks[int(np.argmax(y - x))])


def _gap_flattens(result: dict) -> int:
    """The first k after which the gap grows by less than half its mean growth per step of k."""
    ks, gap, _ = _gap(result)
    growth = np.diff(gap) / np.diff(ks)
    slow = np.flatnonzero(growth < 0.5 * growth.mean())
    return int(ks[slow[0]]) if slow.size else int(ks[-1])


def _tibshirani(result: dict) -> int:
    """Tibshirani et al.'s rule: the smallest k with gap(k) >= gap(k+1) - s(k+1)."""
    ks, gap, s = _gap(result)
    ok = np.flatnonzero(gap[:-1] >= gap[1:] - s[1:])
    return int(ks[ok[0]]) if ok.size else int(ks[-1])


#: (round declared, rule)
RULES = {
    "keyword NPMI >= 0.90 of its largest, smallest k": (1, _coherence_reaches(0.90)),
    "keyword NPMI >= 0.95 of its largest, smallest k": (1, _coherence_reaches(0.95)),
    "keyword NPMI, argmax": (1, _argmax_of(lambda r: _column(r, "npmi"))),
    "keyword NPMI minus null's, argmax":
        (1, _argmax_of(lambda r: _column(r, "npmi") - _column(r, "null_npmi"))),
    "stability minus null's, argmax":
        (1, _argmax_of(lambda r: _column(r, "stability") - _column(r, "null_stability"))),
    "cophenetic minus null's, argmax":
        (1, _argmax_of(lambda r: _column(r, "cophenetic") - _column(r, "null_cophenetic"))),
    "gap, knee": (1, _gap_knee),
    "gap, first k where its growth halves": (1, _gap_flattens),
    "gap, Tibshirani's rule": (2, _tibshirani),
    "gap, argmax": (2, _argmax_of(lambda r: _gap(r)[1])),
}


def write_report(out: Path, results: list[dict], args) -> Path:
    def within(result, k):
        return abs(k - result["n_classes"]) / result["n_classes"] <= TOLERANCE + 1e-12

    splits = {"tuning": [r for r in results if r["corpus"] not in HOLD_OUT],
              "held out": [r for r in results if r["corpus"] in HOLD_OUT]}
    lines = ["# Further criteria for choosing k", "",
             f"Made by `benchmarks/choose_k_candidates.py` ({' '.join(sys.argv[1:])}): samples "
             f"of at most {args.max_documents} documents (seed {args.seed}), the k-ranges of "
             f"`choose_k.py`, {args.nulls} null draws, {args.runs} random restarts per k on "
             "the sample and on the first null draw. See the script for the criteria.", "",
             "| rule | round | tuning within 30% | held out within 30% | all | held-out picks "
             "(k / classes) |", "|---|---:|---:|---:|---:|---|"]
    for name, (declared, rule) in RULES.items():
        hits = {s: sum(within(r, rule(r)) for r in rs) for s, rs in splits.items()}
        picks = ", ".join(f"{r['corpus']} {rule(r)}/{r['n_classes']}" for r in splits["held out"])
        lines.append(f"| {name} | {declared} | {hits['tuning']}/{len(splits['tuning'])} | "
                     f"{hits['held out']}/{len(splits['held out'])} | "
                     f"{sum(hits.values())}/{len(results)} | {picks} |")
    lines += ["", "Picks per tuning corpus (k / classes):", "",
              "| corpus | classes | " + " | ".join(f"r{i + 1}" for i in range(len(RULES)))
              + " |", "|---|---:|" + "---:|" * len(RULES)]
    for r in splits["tuning"]:
        lines.append(f"| {r['corpus']} | {r['n_classes']} | "
                     + " | ".join(str(rule(r)) for _, rule in RULES.values()) + " |")
    lines += ["", "r1, r2, ...: the rules in the order of the first table.", "",
              f"Total time {sum(r['seconds'] for r in results) / 60:.1f} minutes of one core."]
    path = out / "README.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora", nargs="*", help="dataset names (default: choose_k.py's)")
    parser.add_argument("-o", "--output", type=Path,
                        default=Path("reports/choose-k/candidates"))
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--nulls", type=int, default=4)
    parser.add_argument("--max-documents", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    found = {info.name for info in list_datasets() if info.found}
    names = args.corpora or [n for n in SELECT + HOLD_OUT if n in found]
    (args.output / "results").mkdir(parents=True, exist_ok=True)
    todo = [n for n in names if not (args.output / "results" / f"{n}.json").is_file()]
    run_corpora(run_corpus, todo, args.jobs, args)
    results = [json.loads((args.output / "results" / f"{n}.json").read_text()) for n in names]
    print(write_report(args.output, results, args).read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
