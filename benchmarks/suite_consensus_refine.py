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
import warnings

from suite_consensus_tuning import designs_main

from docnmf.cluster.consensus import ConsensusClustering, refine_labels
from docnmf.experiments.benchmark import parse_entry, prepare_corpus
from docnmf.experiments.runner import derive_seed
from docnmf.experiments.suite import SUITE_CORPORA
from docnmf.metrics import clustering_accuracy

DESIGNS = ["consensus", "refine=sublinear", "refine=raw"]


def run_corpus(name: str, runs: int) -> list[dict]:
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
            scores = {"consensus": clustering_accuracy(data.y, model.consensus_labels_)}
            for tf in ("sublinear", "raw"):     # what ConsensusClustering(refine=tf) does
                labels, _ = refine_labels(data.counts, model.consensus_labels_, data.k, tf)
                scores[f"refine={tf}"] = clustering_accuracy(data.y, labels)
            scores["sklearn-km"] = clustering_accuracy(
                data.y, KMeans(data.k, n_init=10, random_state=seed).fit_predict(data.peer_tfidf))
            out.append({"corpus": name, "role": corpus.role, "run": run, "accuracy": scores})
            print(f"{name} run {run}: " + ", ".join(f"{d} {v:.3f}" for d, v in scores.items()),
                  file=sys.stderr, flush=True)
    return out


def main(argv=None) -> int:
    return designs_main(argv, "suite_consensus_refine.py", "Refining the consensus by spherical k-means on tf-idf", run_corpus, DESIGNS)


if __name__ == "__main__":
    sys.exit(main())
