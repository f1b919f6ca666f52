"""Accuracy against the share of constrained pairs, as the SS-NMF paper's Figures 3-4, on suite corpora.

Reads the results of a ``docnmf benchmark`` run whose entries carry
``pairs=f`` (e.g. ``ssnmf:pairs=0.001``) and writes ``curves.md`` (mean
accuracy and broken must-links per method and share, and per corpus) and
``curves.png`` beside it.

Usage::

    docnmf benchmark --corpora cluto_tr23,cstr,... --runs 1 -o reports/benchmark-suite/ssnmf-pairs \\
        --methods ssnmf:pairs=0 ssnmf:pairs=0.001 ss-kk:pairs=0.001 ...
    python benchmarks/suite_ssnmf_curves.py reports/benchmark-suite/ssnmf-pairs
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

NAMES = {"ssnmf": "SS-NMF (defaults)", "ss-kk": "SS-KK (Gaussian kernel)",
         "ss-kk:kernel=linear": "penalised k-means (SS-KK, linear kernel)",
         "ssnmf:factorization=similarity": "SS-NMF, the paper's factorization (the earlier default)"}


def main(folder: str) -> int:
    folder = Path(folder)
    lines = (folder / "results.jsonl").read_text().splitlines()[1:]
    records = [json.loads(line) for line in lines if line.strip()]
    acc, broken = defaultdict(dict), defaultdict(dict)
    for r in records:
        method, share = r["entry"].rsplit("pairs=", 1)
        key = (method.rstrip(":,"), float(share))
        acc[key][r["corpus"]] = r["accuracy"]
        broken[key][r["corpus"]] = (r.get("broken_must_links", 0), r["pairs"][0])
    methods = sorted({m for m, _ in acc})
    shares = sorted({s for _, s in acc})

    def covered(ms):
        return sorted(set.intersection(*(set(acc[m, s]) for m in ms for s in shares
                                         if (m, s) in acc)))

    def table(ms, corpora):
        rows = ["| method | " + " | ".join(f"{100 * s:g}%" for s in shares) + " |",
                "|---|" + "---:|" * len(shares)]
        for m in ms:
            cells = []
            for s in shares:
                a = np.mean([acc[m, s][c] for c in corpora])
                b = sum(broken[m, s][c][0] for c in corpora)
                t = sum(broken[m, s][c][1] for c in corpora)
                cells.append(f"{a:.3f}" + (f" ({b}/{t} ML broken)" if t else ""))
            rows.append(f"| {NAMES.get(m, m)} | " + " | ".join(cells) + " |")
        return rows

    main_methods = [m for m in methods if "factorization" not in m]
    corpora = covered(methods)
    wide = covered(main_methods)
    out = ["# Accuracy against constrained pairs (share of all document pairs)", "",
           "Mean accuracy (and must-links broken / given, summed over corpora); one run each.", "",
           f"## Every method: {len(corpora)} corpora ({', '.join(corpora)})", ""]
    out += table(methods, corpora)
    if wide != corpora:
        out += ["", f"## Without the paper's factorization: {len(wide)} corpora "
                    f"({', '.join(wide)})", ""]
        out += table(main_methods, wide)
    out += ["", "## Per corpus", "", "| corpus | method | " +
            " | ".join(f"{100 * s:g}%" for s in shares) + " |",
            "|---|---|" + "---:|" * len(shares)]
    for c in wide:
        for m in methods:
            if all(c in acc.get((m, s), {}) for s in shares):
                out.append(f"| {c} | {m} | "
                           + " | ".join(f"{acc[m, s][c]:.3f}" for s in shares) + " |")
    (folder / "curves.md").write_text("\n".join(out) + "\n")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return 0
    fig, ax = plt.subplots(figsize=(6, 4))
    x = np.arange(len(shares))
    for m in methods:
        ax.plot(x, [np.mean([acc[m, s][c] for c in corpora]) for s in shares], marker="o",
                label=NAMES.get(m, m))
    ax.set_title(f"{len(corpora)} corpora", fontsize=9)
    ax.set_xticks(x, [f"{100 * s:g}%" for s in shares])
    ax.set_xlabel("constrained pairs (share of all document pairs)")
    ax.set_ylabel(f"mean accuracy over {len(corpora)} corpora")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(folder / "curves.png", dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
