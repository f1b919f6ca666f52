"""Check docnmf's ROUGE against published ROUGE-1.5.5 figures on DUC 2004 Task 2.

The 13 systems of ``duc2004/stuartmackie/peers-txt`` are scored against the 4
human summaries per topic (``models-txt``) with the settings of that
repository's ``rouge.sh``::

    ROUGE-1.5.5.pl -n 2 -x -m -l 100 -p 0.5 -c 95 -r 1000 -f A -t 0 -a

i.e. Porter stemming with ROUGE's WordNet exception table, no stop-word
removal, peers and models cut to their first 100 words, model-average
scoring, no jackknifing, and the average over topics reported as ROUGE's
bootstrap mean. Printed: recall x 100 per system, ours beside the published
figure (README.txt), and two ablations: the plain mean over topics instead of
the bootstrap mean, and stemming without the exception table.

Usage::

    python benchmarks/rouge_validation.py [--json results/rouge_validation.json]
"""

from __future__ import annotations

import argparse
import sys
import time

from docnmf.io import write_json
from docnmf.summarize.duc import DUC2004_SYSTEMS, read_duc2004, read_duc2004_peers
from docnmf.summarize.rouge import Rouge

#: ROUGE-1 / ROUGE-2 recall x 100 from duc2004/stuartmackie/README.txt (ROUGE-1.5.5).
PUBLISHED = {
    "Lead": (31.46, 6.13), "LexRank": (36.00, 7.51), "Centroid": (36.42, 7.98),
    "FreqSum": (35.31, 8.12), "TsSum": (35.93, 8.16), "GreedyKL": (38.03, 8.56),
    "CLASSY04": (37.71, 9.02), "CLASSY11": (37.21, 9.21), "Submodular": (39.23, 9.37),
    "DPP": (39.84, 9.62), "OCCAMS_V": (38.50, 9.75), "RegSum": (38.60, 9.78),
    "ICSISumm": (38.44, 9.81),
}

#: The settings that reproduce the published figures.
SETTINGS = dict(metrics=("1", "2"), stem=True, remove_stopwords=False, length="100w",
                scoring="average", jackknife=False, stem_exceptions="wordnet")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the numbers to this JSON file")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    topics = read_duc2004()
    models = {t.id: list(t.models.values()) for t in topics}
    peers = read_duc2004_peers()
    exact = Rouge(**SETTINGS)
    porter_only = Rouge(**{**SETTINGS, "stem_exceptions": None})
    rows = []
    for system in DUC2004_SYSTEMS:
        ours, per_topic = exact.evaluate(peers[system], models, average="rouge155",
                                         peer_id=system)
        mean, _ = exact.evaluate(peers[system], models, average="mean")
        plain, _ = porter_only.evaluate(peers[system], models, average="rouge155",
                                        peer_id=system)
        pub = PUBLISHED[system]
        row = {"system": system, "topics": len(per_topic)}
        for metric, p in zip(("ROUGE-1", "ROUGE-2"), pub):
            # printed as the published table was: sprintf("%.2f", recall * 100)
            printed = float(f"{ours[metric].recall * 100:.2f}")
            row[metric] = {"published": p, "ours": printed, "diff": round(printed - p, 2),
                           "recall": ours[metric].recall,
                           "plain_mean": 100 * mean[metric].recall,
                           "porter_only": 100 * plain[metric].recall}
        rows.append(row)
    print(f"DUC 2004 Task 2, {len(topics)} topics, 4 models each; settings: "
          "-m (WordNet exceptions + Porter) -l 100 -f A, bootstrap mean\n")
    print("| system | R-1 published | R-1 ours | diff | R-2 published | R-2 ours | diff "
          "| R-1 plain mean | R-1 Porter only | R-2 Porter only |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst = 0.0
    for row in sorted(rows, key=lambda r: r["ROUGE-2"]["published"]):
        r1, r2 = row["ROUGE-1"], row["ROUGE-2"]
        worst = max(worst, abs(r1["diff"]), abs(r2["diff"]))
        print(f"| {row['system']} | {r1['published']:.2f} | {r1['ours']:.2f} | {r1['diff']:+.2f} "
              f"| {r2['published']:.2f} | {r2['ours']:.2f} | {r2['diff']:+.2f} "
              f"| {r1['plain_mean']:.2f} | {r1['porter_only']:.2f} | {r2['porter_only']:.2f} |")
    print(f"\nlargest |difference| (ours, rounded as published): {worst:.2f} points; "
          f"{time.perf_counter() - t0:.1f}s")
    if args.json:
        write_json(args.json, {"settings": SETTINGS, "systems": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
