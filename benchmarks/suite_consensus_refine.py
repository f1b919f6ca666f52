"""Does refining the consensus by spherical k-means on tf-idf help? The suite's corpora, both halves.

For each corpus and seed of the suite (``docnmf.experiments.suite``), the
consensus is fitted once (``ConsensusClustering(refine=None)``, the suite's
documents and seeds) and then refined as ``refine="sublinear"`` and
``refine="raw"`` refine it (spherical k-means on that tf-idf, started from the
consensus); scikit-learn's TfidfVectorizer + KMeans(n_init=10) runs beside it.
The report gives, per half, the mean accuracy, the mean gain over the peer,
wins and the worst shortfall, and the accuracy per corpus.

Usage::

    python benchmarks/suite_consensus_refine.py --runs 3 --jobs 2 -o reports/benchmark-suite/tuning-refine
"""

from __future__ import annotations

import sys

from suite_consensus_tuning import designs_main

from docnmf.cluster.consensus import ConsensusClustering, refine_labels
from docnmf.metrics import clustering_accuracy

TITLE = "Refining the consensus by spherical k-means on tf-idf"
DESIGNS = ["consensus", "refine=sublinear", "refine=raw"]


def score(model: ConsensusClustering, data, seed: int) -> dict[str, float]:
    """The consensus, and the consensus refined as ``ConsensusClustering(refine=tf)`` does."""
    scores = {"consensus": clustering_accuracy(data.y, model.consensus_labels_)}
    for tf in ("sublinear", "raw"):
        labels, _ = refine_labels(data.counts, model.consensus_labels_, data.k, tf)
        scores[f"refine={tf}"] = clustering_accuracy(data.y, labels)
    return scores


def main(argv=None) -> int:
    return designs_main(argv, "suite_consensus_refine.py", TITLE, score, DESIGNS)


if __name__ == "__main__":
    sys.exit(main())
