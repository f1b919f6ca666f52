"""Why ``docnmf summarize`` was slow on a collection; what the cap and per-cluster summaries buy.

A summary ranks sentences by NMF on the document-sentence matrix ``D S^T``
(documents x sentences, dense), ten restarts of up to 300 multiplicative
updates: its cost grows with documents times sentences, i.e. with the square
of the collection. Profiled on 737 Reuters-21578 documents (3,201 candidate
sentences) nearly all the time is in the two products of each update.

This script times, in one run on the same documents:

- ``all``: one summary of every document (``--max-documents 0``, the former behaviour);
- ``capped``: one summary of 100 documents drawn at random (the default cap);
- ``per-cluster``: NMF-NCW clusters (k = 5) and one summary of each cluster's
  100 most representative documents (``summarize --per-cluster -k 5``),
  clustering included;

and prints the times and their ratios to ``all`` as JSON.

Usage::

    python benchmarks/summarize_scale.py [--n-docs 737] [--dataset reuters21578_single]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from docnmf.corpus import load_dataset
from docnmf.pipeline import cluster_corpus
from docnmf.summarize.api import pick_documents, summarize_clusters, summarize_texts
from docnmf.summarize.matrices import build_pool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="reuters21578_single")
    parser.add_argument("--n-docs", type=int, default=737)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    corpus = load_dataset(args.dataset)
    rng = np.random.default_rng(args.seed)
    corpus = corpus.subset(np.sort(rng.choice(len(corpus), args.n_docs, replace=False)))
    texts = corpus.texts
    out = {"dataset": args.dataset, "n_docs": len(texts),
           "sentences": len(build_pool(texts, min_words=5))}

    t0 = time.perf_counter()
    summarize_texts(texts, length="665b", method="nmf", policy="skip")
    out["all_s"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    picked = pick_documents(len(texts), 100, random_state=args.seed)
    summarize_texts([texts[i] for i in picked], length="665b", method="nmf", policy="skip")
    out["capped_s"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    run = cluster_corpus(corpus, args.k, "nmf-ncw")
    summarize_clusters(texts, run.labels, run.memberships, args.k, length="665b",
                       max_documents=100, policy="skip")
    out["per_cluster_s"] = time.perf_counter() - t0

    out["capped_speedup"] = out["all_s"] / out["capped_s"]
    out["per_cluster_speedup"] = out["all_s"] / out["per_cluster_s"]
    print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in out.items()},
                     indent=1))


if __name__ == "__main__":
    main()
