"""docnmf: document clustering with the non-negative matrix factorization family.

The public API: corpus readers (:mod:`docnmf.corpus`), the text pipeline
(:class:`DocumentVectorizer`, :class:`TfidfWeighting`), clustering estimators
(:class:`LCCFClustering`, whose NC-weighted form ``weighting="ncw"`` is the default of
``docnmf cluster``; :class:`NMFClustering`; :class:`ConsensusClustering`), metrics, the
end-to-end :func:`cluster_corpus`, and saved models (:class:`ClusteringModel`,
:func:`save`, :func:`load`). Every method by name: :data:`docnmf.methods.METHODS`.
"""

from ._version import __version__
from .cluster import ConsensusClustering, LCCFClustering, NMFClustering
from .corpus import Corpus, CorpusError, list_datasets, load_dataset, read_corpus
from .corpus.demo import load_demo
from .metrics import clustering_accuracy, confusion_matrix, nmi, purity, score_all
from .model import ClusteringModel, load, save
from .pipeline import cluster_corpus
from .text.vectorize import DocumentVectorizer
from .text.weighting import TfidfWeighting, ncw_weights, tfidf_xu2003

__all__ = [
    "__version__", "Corpus", "CorpusError", "read_corpus", "load_dataset", "list_datasets",
    "load_demo", "DocumentVectorizer", "TfidfWeighting", "tfidf_xu2003", "ncw_weights",
    "ConsensusClustering", "LCCFClustering", "NMFClustering", "cluster_corpus",
    "clustering_accuracy", "nmi", "purity", "confusion_matrix", "score_all", "ClusteringModel",
    "save", "load",
]
