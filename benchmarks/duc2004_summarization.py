"""FS-NMF summarization and the baselines on DUC 2004 Task 2, beside Wang, Ding & Li (2010) Table 3.

Every method summarizes each of the 50 ten-document clusters in at most 665
bytes (``docnmf.summarize``: sentences of >= 5 words, tf-idf cosine above 0.5
counts as a near-duplicate, the last sentence cut at a word boundary to fill
the limit). Summaries are scored against the 4 human summaries with the ROUGE
settings validated in ``benchmarks/rouge_validation.py`` but cut at 665 bytes
as in DUC 2004 (``-m -b 665 -f A``, WordNet exceptions, no stop-word removal,
bootstrap mean). Printed: recall of ROUGE-1, -2, -L, -W-1.2 and -SU4 for each
method and the paper's figures. CLASSY04, the best DUC 2004 participant
(the paper's "DUC Best"), is scored from ``peers-txt`` the same way.

Usage::

    python benchmarks/duc2004_summarization.py [--clusters 3] [--json results/duc2004.json]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: threads only contend
os.environ.setdefault("OMP_NUM_THREADS", "1")

from docnmf.io import write_json
from docnmf.summarize.api import summarize_documents
from docnmf.summarize.duc import read_duc2004, read_duc2004_peers
from docnmf.summarize.rouge import Rouge

METRICS = ("1", "2", "L", "W-1.2", "SU4")
COLUMNS = ("R-1", "R-2", "R-L", "R-W", "R-SU")

#: Wang, Ding & Li (2010), Table 3 (DUC 2004; ROUGE settings not stated).
PAPER = {
    "DUC Best": (0.382, 0.092, 0.386, 0.133, 0.132),
    "Random": (0.318, 0.063, 0.345, 0.117, 0.117),
    "Centroid": (0.367, 0.073, 0.361, 0.124, 0.125),
    "LexPageRank": (0.378, 0.085, 0.375, 0.131, 0.130),
    "LSA": (0.341, 0.065, 0.349, 0.120, 0.119),
    "NMF": (0.367, 0.072, 0.367, 0.129, 0.129),
    "FS-NMF": (0.388, 0.101, 0.381, 0.139, 0.134),
}

#: Our method name -> row name in the paper's table.
ROWS = [("classy04", "DUC Best"), ("random", "Random"), ("centroid", "Centroid"),
        ("lexpagerank", "LexPageRank"), ("lsa", "LSA"), ("nmf", "NMF"),
        ("fsnmf-paper", "FS-NMF"), ("fsnmf", None), ("fsnmf-unit", None), ("lead", None)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clusters", type=int, default=3,
                        help="k for NMF and FS-NMF on the document-sentence matrix")
    parser.add_argument("--restarts", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the numbers to this JSON file")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    topics = read_duc2004()
    models = {t.id: list(t.models.values()) for t in topics}
    rouge = Rouge(METRICS, stem=True, length="665b")
    results, timings = {}, {}
    for method, _ in ROWS:
        t1 = time.perf_counter()
        if method == "classy04":
            peers = read_duc2004_peers(systems=("CLASSY04",))["CLASSY04"]
        else:
            peers = {t.id: summarize_documents(t.documents, "665b", method=method,
                                               random_state=args.seed, n_clusters=args.clusters,
                                               n_init=args.restarts)
                     for t in topics}
            assert all(len("\n".join(p).encode("utf-8")) <= 665 for p in peers.values())
        avg, _ = rouge.evaluate(peers, models, average="rouge155", peer_id=method)
        results[method] = [avg[Rouge.name(m)].recall for m in METRICS]
        timings[method] = time.perf_counter() - t1
        print(f"  {method}: done in {timings[method]:.1f}s", file=sys.stderr)
    print(f"DUC 2004 Task 2: {len(topics)} clusters, 665-byte summaries, ROUGE recall "
          f"(-m -b 665 -f A); NMF/FS-NMF with k={args.clusters}, {args.restarts} restarts\n")
    head = " | ".join(f"{c} ours | {c} paper" for c in COLUMNS)
    print(f"| method | {head} |")
    print("|---|" + "---:|" * (2 * len(COLUMNS)))
    for method, paper_row in ROWS:
        ours = results[method]
        paper = PAPER.get(paper_row) if paper_row else None
        cells = " | ".join(f"{o:.3f} | {paper[i]:.3f}" if paper else f"{o:.3f} | -"
                           for i, o in enumerate(ours))
        label = f"{method} ({paper_row})" if paper_row else method
        print(f"| {label} | {cells} |")
    print(f"\ntotal {time.perf_counter() - t0:.0f}s")
    if args.json:
        write_json(args.json, {"settings": {"metrics": METRICS, "rouge": repr(rouge),
                                            "clusters": args.clusters,
                                            "restarts": args.restarts, "seed": args.seed},
                               "ours": results, "paper": PAPER, "seconds": timings})
    return 0


if __name__ == "__main__":
    sys.exit(main())
