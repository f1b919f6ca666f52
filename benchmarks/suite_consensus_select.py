"""Would another consensus function beat k-means on the members' indicators? The suite, both halves.

For each corpus and seed of the suite the default consensus is fitted once
(``ConsensusClustering``, the suite's documents and seeds); from its six members' labels
three other consensus functions, declared before any was scored, give labels too:

- ``anmi``: Strehl & Ghosh's supra-consensus, the candidate (the consensus or one member) with
  the highest mean NMI to the members, a member's own column left out of its mean;
- ``anmi-literal``: the same with a member's NMI to itself (1) counted, as their ANMI reads;
- ``weighted``: k-means (10 restarts, the consensus's seed) on the indicators with each member's
  columns scaled by the square root of its mean NMI to the other members (over their mean).

scikit-learn's TfidfVectorizer + KMeans(n_init=10) runs beside them, and each member's
accuracy is recorded. The tuning half decides; the held-back half is reported beside it.

Usage::

    python benchmarks/suite_consensus_select.py --runs 3 --jobs 2 -o reports/benchmark-suite/tuning-select
"""

from __future__ import annotations

import sys

import numpy as np
import scipy.sparse as sp
from sklearn.metrics import normalized_mutual_info_score as nmi
from suite_consensus_tuning import designs_main

from docnmf._estimator import kmeans_restarts
from docnmf.cluster.consensus import ConsensusClustering, indicator_matrix
from docnmf.metrics import clustering_accuracy

TITLE = "Other consensus functions on the default's six members"
DESIGNS = ["consensus", "anmi", "anmi-literal", "weighted"]


def consensus_functions(model: ConsensusClustering, k: int, seed: int) -> dict[str, np.ndarray]:
    """The labels of each design from a fitted consensus's members."""
    M = model.member_labels_
    m = M.shape[1]
    A = np.array([[nmi(M[:, a], M[:, b]) for b in range(m)] for a in range(m)])
    consensus = model.consensus_labels_
    own = np.mean([nmi(consensus, M[:, q]) for q in range(m)])
    others = (A.sum(axis=1) - 1.0) / (m - 1)        # each member's mean NMI to the others
    literal = A.mean(axis=1)
    weights = np.repeat(np.sqrt(others / others.mean()), k)
    km, _ = kmeans_restarts(sp.csr_matrix(indicator_matrix(M, k) @ sp.diags(weights)), k,
                            n_init=10, max_iter=300, tol=1e-4, seed=seed)
    return {"consensus": consensus,
            "anmi": consensus if own >= others.max() else M[:, int(np.argmax(others))],
            "anmi-literal": consensus if own >= literal.max() else M[:, int(np.argmax(literal))],
            "weighted": km.labels_}


def score(model: ConsensusClustering, data, seed: int) -> dict[str, float]:
    """Each design, and each member alone."""
    scores = {d: clustering_accuracy(data.y, labels)
              for d, labels in consensus_functions(model, data.k, seed).items()}
    return scores | {member: clustering_accuracy(data.y, labels)
                     for member, labels in zip(model.members_, model.member_labels_.T)}


def main(argv=None) -> int:
    return designs_main(argv, "suite_consensus_select.py", TITLE, score, DESIGNS)


if __name__ == "__main__":
    sys.exit(main())
