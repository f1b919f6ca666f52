"""Accuracy against the share of constrained pairs, as the SS-NMF paper's Figures 3-4, on suite corpora.

Reads the results of a ``docnmf benchmark`` run whose entries carry
``pairs=f`` (e.g. ``ssnmf:pairs=0.001``) and writes ``curves.md`` (mean
accuracy and broken must-links per method and share: on the corpora every
method ran on, and for the SS-NMF forms on every corpus, by half of the
suite; the issue's goals at 0.1% of the pairs; per corpus) and ``curves.png``
beside it.

Usage::

    docnmf benchmark --runs 1 -o reports/benchmark-suite/ssnmf-pairs \\
        --methods ssnmf:pairs=0 ssnmf:pairs=0.001 ssnmf-ncw:pairs=0.001 ss-kk:pairs=0.001 ...
    python benchmarks/suite_ssnmf_curves.py reports/benchmark-suite/ssnmf-pairs
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

NAMES = {"ssnmf": "SS-NMF (defaults: the constraints choose among the consensus and its members)",
         "ssnmf-ncw": "SS-NMF on NMF-NCW's factor (the default before)",
         "ss-kk": "SS-KK (Gaussian kernel)",
         "ss-kk:kernel=linear": "penalised k-means (SS-KK, linear kernel)",
         "ssnmf-paper": "SS-NMF, the paper's factorization",
         "ss-snc": "SS-SNC (semi-supervised normalized cut)",
         # the same, as named in reports/benchmark-suite/ssnmf-pairs-before: an entry that a
         # benchmark now refuses (ssnmf's factorization is not an option of the method)
         "ssnmf:factorization=similarity": "SS-NMF, the paper's factorization"}
SHORT = {"ssnmf": "SS-NMF (default)", "ssnmf-ncw": "SS-NMF on NMF-NCW (before)",
         "ss-kk": "SS-KK", "ss-kk:kernel=linear": "penalised k-means"}
OURS = ("ssnmf", "ssnmf-ncw")
PEERS = ("ss-kk", "ss-kk:kernel=linear")
GOAL_SHARE = 0.001


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("folder", help="a `docnmf benchmark` output folder; its results.jsonl is "
                                       "read, curves.md and curves.png are written into it")
    return curves(parser.parse_args(argv).folder)


def curves(folder: str) -> int:
    folder = Path(folder)
    lines = (folder / "results.jsonl").read_text().splitlines()[1:]
    records = [json.loads(line) for line in lines if line.strip()]
    acc, broken, role = defaultdict(dict), defaultdict(dict), {}
    for r in records:
        # the share wherever it stands among the entry's options ('ss-kk:pairs=0.001,kernel=
        # linear' failed to parse): the method is the entry without it
        share = re.search(r"(?:^|[:,])pairs=([^,]+)", r["entry"]).group(1)
        method = re.sub(r"([:,])pairs=[^,]+,?", r"\1", r["entry"]).rstrip(":,")
        key = (method, float(share))
        acc[key][r["corpus"]] = r["accuracy"]
        broken[key][r["corpus"]] = (r.get("broken_must_links", 0), r["pairs"][0])
        role[r["corpus"]] = r["role"]
    ran = sorted({m for m, _ in acc}, key=lambda m: (m not in OURS, m))
    shares = sorted({s for _, s in acc})
    # a curve needs every share: a method run at some of them alone made every mean NaN
    methods = [m for m in ran if all((m, s) in acc for s in shares)]
    left_out = [f"{m} (at {', '.join(f'{100 * s:g}%' for s in shares if (m, s) in acc)})"
                for m in ran if m not in methods]

    def covered(ms):
        if not ms:
            return []
        return sorted(set.intersection(*(set(acc[m, s]) for m in ms for s in shares)),
                      key=lambda c: (role[c], c))

    def table(ms, corpora, gain=False):
        rows = ["| method | " + " | ".join(f"{100 * s:g}%" for s in shares) + " |",
                "|---|" + "---:|" * len(shares)]
        for m in ms:
            cells = []
            for s in shares:
                a = np.mean([acc[m, s][c] for c in corpora])
                g = a - np.mean([acc[m, shares[0]][c] for c in corpora])
                b = sum(broken[m, s][c][0] for c in corpora)
                t = sum(broken[m, s][c][1] for c in corpora)
                cells.append(f"{a:.3f}" + (f" ({g:+.3f})" if gain and s else "")
                             + (f" ({b}/{t} ML broken)" if t and not gain else ""))
            rows.append(f"| {NAMES.get(m, m)} | " + " | ".join(cells) + " |")
        return rows

    everyone = covered(methods)
    ours = [m for m in OURS if m in methods]
    wide = covered(ours)
    out = ["# Accuracy against constrained pairs (share of all document pairs)", "",
           "Mean accuracy, one run each; the same pairs for every method of a corpus and share "
           "(`pairs=f` draws `f` of all document pairs and labels them from the classes).", "",
           f"## Every method: {len(everyone)} corpora ({', '.join(everyone)})", ""]
    if left_out:
        out += [(f"Not in the tables, as they ran at only some of the shares "
                 f"({', '.join(f'{100 * s:g}%' for s in shares)}): {', '.join(left_out)}."), ""]
    if everyone:
        out += ["Must-links broken / given, summed over the corpora, in brackets.", ""]
        out += table(methods, everyone)
    else:
        out += ["No corpus on which every method ran at every share."]
    out += ["", f"## The SS-NMF forms on every corpus they ran on: {len(wide)}", "",
            "Gain over the same method without pairs in brackets.", ""]
    for half in ("tuning", "held_back"):
        corpora = [c for c in wide if role[c] == half]
        if corpora:
            out += [f"### {half.replace('_', ' ')} ({len(corpora)} corpora)", ""]
            out += table(ours, corpora, gain=True) + [""]
    if wide:
        out += [f"### whole ({len(wide)} corpora)", ""] + table(ours, wide, gain=True)
    if GOAL_SHARE in shares and "ssnmf" in methods and wide:
        out += ["", f"## Goals at {100 * GOAL_SHARE:g}% of the pairs", "",
                "| goal | measured | met |", "|---|---|---|"]
        for label, corpora in (("tuning", [c for c in wide if role[c] == "tuning"]),
                               ("held back", [c for c in wide if role[c] == "held_back"]),
                               ("whole suite", wide)):
            if not corpora:
                continue
            gain = np.mean([acc["ssnmf", GOAL_SHARE][c] - acc["ssnmf", 0.0][c] for c in corpora])
            out.append(f"| SS-NMF gains >= +0.03 over unconstrained, {label} ({len(corpora)}) | "
                       f"{gain:+.3f} | {'yes' if gain >= 0.03 else '**no**'} |")
        peers = [p for p in PEERS if p in methods]
        if peers and everyone:
            ours_mean = np.mean([acc["ssnmf", GOAL_SHARE][c] for c in everyone])
            best = max(peers, key=lambda p: np.mean([acc[p, GOAL_SHARE][c] for c in everyone]))
            best_mean = np.mean([acc[best, GOAL_SHARE][c] for c in everyone])
            wins = sum(acc["ssnmf", GOAL_SHARE][c] >= max(acc[p, GOAL_SHARE][c] for p in peers)
                       for c in everyone)
            out.append(f"| SS-NMF >= the better of SS-KK and penalised k-means ({len(everyone)} "
                       f"corpora) | {ours_mean:.3f} vs {best_mean:.3f} ({NAMES[best]}); at least "
                       f"the better peer on {wins}/{len(everyone)} corpora | "
                       f"{'yes' if ours_mean >= best_mean else '**no**'} |")
    out += ["", "## Per corpus", "", "| corpus | half | method | " +
            " | ".join(f"{100 * s:g}%" for s in shares) + " |",
            "|---|---|---|" + "---:|" * len(shares)]
    for c in wide:
        for m in methods:
            if all(c in acc.get((m, s), {}) for s in shares):
                out.append(f"| {c} | {role[c]} | {m} | "
                           + " | ".join(f"{acc[m, s][c]:.3f}" for s in shares) + " |")
    (folder / "curves.md").write_text("\n".join(out) + "\n")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return 0
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    x = np.arange(len(shares))
    for ax, ms, corpora in ((axes[0], methods, everyone), (axes[1], ours, wide)):
        if not corpora:
            ax.set_axis_off()
            continue
        for m in ms:
            ax.plot(x, [np.mean([acc[m, s][c] for c in corpora]) for s in shares], marker="o",
                    label=SHORT.get(m, m))
        ax.set_title(f"{len(corpora)} corpora", fontsize=9)
        ax.set_xticks(x, [f"{100 * s:g}%" for s in shares])
        ax.set_xlabel("constrained pairs (share of all document pairs)")
        ax.set_ylabel(f"mean accuracy over {len(corpora)} corpora")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(folder / "curves.png", dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
