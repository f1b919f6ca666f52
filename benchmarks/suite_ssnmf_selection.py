"""The evidence behind SS-NMF's default: how the pairs choose among the consensus and its members.

For each suite corpus (its documents, the suite's seed of run 0 and the suite's pairs of
``pairs=f``), the default consensus is fitted once; every candidate (the consensus and its six
members) is scored against the pairs by each rule of :data:`RULES`, and the chosen candidate is
repaired to keep them (:func:`~docnmf.cluster._labels.constrained_spherical_kmeans` over its
cluster indicators, as ``SSNMFClustering`` does). The table is the mean gain in accuracy over the
unconstrained consensus, per half of the suite and share of pairs, with the worst corpus;
``consensus, repaired`` (no choice) and ``best candidate, repaired`` (an oracle, for scale) frame
it, and ``F-measure, repaired over the documents`` repairs the chosen clustering by spherical
k-means on the tf-idf rows instead of its indicators.

Usage::

    python benchmarks/suite_ssnmf_selection.py --jobs 2 -o reports/benchmark-suite/tuning-ssnmf
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from solver_defaults import run_corpora

from docnmf.cluster._labels import _unit_rows, constrained_spherical_kmeans
from docnmf.cluster.consensus import ConsensusClustering, indicator_matrix, unit_tfidf
from docnmf.constraints import build_constraints
from docnmf.experiments.benchmark import pair_constraints, parse_entry, prepare_corpus
from docnmf.experiments.runner import derive_seed
from docnmf.experiments.suite import SUITE_CORPORA
from docnmf.metrics import clustering_accuracy

FRACTIONS = (0.0005, 0.001, 0.005, 0.01)


def _counts(labels, must, cannot) -> dict:
    same_ml = labels[must[:, 0]] == labels[must[:, 1]]
    same_cl = labels[cannot[:, 0]] == labels[cannot[:, 1]]
    return {"tp": int(same_ml.sum()), "fn": int((~same_ml).sum()),
            "fp": int(same_cl.sum()), "tn": int((~same_cl).sum())}


def _balanced(c):
    ml = c["tp"] / (c["tp"] + c["fn"]) if c["tp"] + c["fn"] else 1.0
    cl = c["tn"] / (c["tn"] + c["fp"]) if c["tn"] + c["fp"] else 1.0
    return (ml + cl) / 2


def _mcc(c):
    tp, fn, fp, tn = c["tp"], c["fn"], c["fp"], c["tn"]
    den = np.sqrt(float((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
    return (tp * tn - fp * fn) / den if den else 0.0


def _f1(c):
    if c["tp"] + c["fn"] == 0:
        return c["tn"] / (c["tn"] + c["fp"]) if c["tn"] + c["fp"] else 1.0
    return 2 * c["tp"] / (2 * c["tp"] + c["fp"] + c["fn"])


def _pair_accuracy(c):
    total = sum(c.values())
    return (c["tp"] + c["tn"]) / total if total else 1.0


#: How a candidate is scored against the pairs: the default is the F-measure (CVCP's measure).
RULES = {"F-measure (the default)": _f1, "balanced share kept": _balanced,
         "Matthews correlation": _mcc, "share of pairs kept": _pair_accuracy}


def run_corpus(name: str) -> list[dict]:
    from threadpoolctl import threadpool_limits

    corpus = next(c for c in SUITE_CORPORA if c.name == name)
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = prepare_corpus(corpus, [parse_entry("ssnmf")])
        k = data.k
        consensus = ConsensusClustering(k, random_state=derive_seed(0, name, 0)).fit(data.counts)
        names = ["consensus", *consensus.members_]
        candidates = [consensus.labels_, *consensus.member_labels_.T]
        D = unit_tfidf(data.counts, consensus.idf_)
        base = clustering_accuracy(data.y, consensus.labels_)
        out = []
        for fraction in FRACTIONS:
            pairs = pair_constraints(data, fraction, 0, 0)
            must, cannot = pairs["must_link"], pairs["cannot_link"]
            c = build_constraints(len(data.y), None, must, cannot)
            cannot_groups = c.group[c.cannot_link]
            repaired = [constrained_spherical_kmeans(indicator_matrix(lab[:, None], k), k,
                                                     c.group, cannot_groups, lab)
                        for lab in candidates]
            counts = [_counts(lab, must, cannot) for lab in candidates]
            gains = {}
            for rule, score in RULES.items():
                best = int(np.argmax([score(x) for x in counts]))
                gains[rule] = clustering_accuracy(data.y, repaired[best]) - base
                if rule.startswith("F-measure"):
                    over_docs = constrained_spherical_kmeans(_unit_rows(D), k, c.group,
                                                             cannot_groups, candidates[best])
                    gains["F-measure, repaired over the documents"] = (
                        clustering_accuracy(data.y, over_docs) - base)
                    gains["chosen"] = names[best]
            gains["consensus, repaired"] = clustering_accuracy(data.y, repaired[0]) - base
            gains["best candidate, repaired"] = max(clustering_accuracy(data.y, r)
                                                    for r in repaired) - base
            out.append({"corpus": name, "role": corpus.role, "fraction": fraction,
                        "pairs": [len(must), len(cannot)], "unconstrained": base,
                        "gains": gains})
        print(f"{name}: chosen " + ", ".join(f"{r['fraction']:g} {r['gains']['chosen']}"
                                              for r in out), file=sys.stderr, flush=True)
    return out


def report(records: list[dict]) -> list[str]:
    rows = [*RULES, "F-measure, repaired over the documents", "consensus, repaired",
            "best candidate, repaired"]
    lines = []
    for role in ("tuning", "held_back"):
        rs = [r for r in records if r["role"] == role]
        n = len({r["corpus"] for r in rs})
        lines += [f"### {role.replace('_', ' ')} ({n} corpora): gain over the consensus without "
                  "pairs, mean (worst corpus)", "",
                  "| rule | " + " | ".join(f"{100 * f:g}%" for f in FRACTIONS) + " |",
                  "|---|" + "---:|" * len(FRACTIONS)]
        for rule in rows:
            cells = []
            for f in FRACTIONS:
                g = [r["gains"][rule] for r in rs if r["fraction"] == f]
                cells.append(f"{np.mean(g):+.3f} ({np.min(g):+.3f})")
            lines.append(f"| {rule} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", nargs="*", default=None)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("-o", "--output", type=Path, required=True)
    args = parser.parse_args(argv)
    names = args.corpora or [c.name for c in SUITE_CORPORA]
    order = sorted(names, key=lambda n: -next(c.n_docs for c in SUITE_CORPORA if c.name == n))
    t0 = time.perf_counter()
    records = run_corpora(run_corpus, order, args.jobs)
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "results.json").write_text(json.dumps(records, indent=1))
    lines = ["# How the pairs choose among the consensus and its members", "",
             f"`python benchmarks/suite_ssnmf_selection.py {' '.join(argv or sys.argv[1:])}` "
             f"({(time.perf_counter() - t0) / 60:.1f} min); the suite's seed of run 0 and its "
             "pairs.", "", *report(records)]
    (args.output / "report.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
