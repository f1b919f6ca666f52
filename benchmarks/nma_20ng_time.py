"""Time NMA (Wang, Tang & Liu 2011) on the whole 20 Newsgroups collection, 3 segments per post.

Loads ``load_dataset("20newsgroups")`` (18,846 posts of the bydate split,
headers stripped), cuts every post into 3 segments, and reports

- the segmentation time;
- one end-to-end ``NMAClustering(n_clusters=20, n_topics=6, n_segments=3)``
  fit on the pre-segmented posts (tf-idf on the segments, the factorisation
  with ``n_init`` restarts, k-means on the topic distributions);
- the factorisation alone (:func:`docnmf.factor.nma.fit_nma`, one restart)
  on the same segment matrix, with its iterations per stage;
- accuracy and NMI of the labels, for orientation only (the paper clusters
  random subsets of 2-5 groups, not all 20 at once).

Usage::

    PYTHONPATH=src python benchmarks/nma_20ng_time.py [--segmenter sentences|c99|words]
        [--n-init 1] [--topics 6] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from docnmf.cluster.nma import NMAClustering
from docnmf.corpus import load_dataset
from docnmf.factor.nma import fit_nma, nma_random_init
from docnmf.metrics import clustering_accuracy, nmi
from docnmf.text.segment import segment_text
from docnmf.text.vectorize import DocumentVectorizer


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--segmenter", default="sentences",
                        choices=["sentences", "words", "c99", "texttiling"])
    parser.add_argument("--segments", type=int, default=3)
    parser.add_argument("--topics", type=int, default=6)
    parser.add_argument("--clusters", type=int, default=20)
    parser.add_argument("--n-init", type=int, default=1)
    parser.add_argument("--max-iter", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="write the numbers here")
    args = parser.parse_args(argv)
    c = args.segments

    t0 = time.perf_counter()
    corpus = load_dataset("20newsgroups", strip_headers=True)
    t_load = time.perf_counter() - t0
    y = np.array([labels[0] for labels in corpus.labels])

    t0 = time.perf_counter()
    segments = [segment_text(text, c, method=args.segmenter) for text in corpus.texts]
    t_segment = time.perf_counter() - t0

    warnings.simplefilter("ignore", ConvergenceWarning)
    model = NMAClustering(args.clusters, n_topics=args.topics, n_segments=c,
                          n_init=args.n_init, max_iter=args.max_iter, random_state=args.seed)
    t0 = time.perf_counter()
    model.fit(segments)
    t_fit = time.perf_counter() - t0

    # the factorisation alone, on the matrix the estimator builds by default
    # (tf-idf learnt on the non-empty segments, every segment scaled to unit length)
    flat = [s for segs in model.segments_ for s in segs]
    t0 = time.perf_counter()
    vectorizer = DocumentVectorizer().fit([s for s in flat if s.strip()])
    S = vectorizer.transform(flat)
    t_vectorize = time.perf_counter() - t0
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    result = fit_nma(S, c, *nma_random_init(S, c, args.topics, args.topics, rng),
                     max_iter=args.max_iter, tol=model.tol)
    t_solver = time.perf_counter() - t0

    out = dict(
        documents=len(corpus), segments_per_document=c, segmenter=args.segmenter,
        empty_segment_slots=int(sum(not s.strip() for s in flat)),
        terms=int(S.shape[1]), nonzeros=int(S.nnz), topics=args.topics, clusters=args.clusters,
        n_init=args.n_init, load_s=t_load, segment_s=t_segment, estimator_fit_s=t_fit,
        vectorize_s=t_vectorize, factorisation_s=t_solver,
        iterations_per_stage=list(result.n_iter), sre=float(result.losses[-1]),
        accuracy=float(clustering_accuracy(y, model.labels_)), nmi=float(nmi(y, model.labels_)),
    )
    print("| quantity | value |\n|---|---|")
    for key, value in out.items():
        shown = f"{value:.2f}" if isinstance(value, float) else str(value)
        print(f"| {key} | {shown} |")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, indent=2)


if __name__ == "__main__":
    main()
