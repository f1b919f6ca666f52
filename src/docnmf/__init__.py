"""docnmf: document clustering with the non-negative matrix factorization family.

The public API: corpus readers (:mod:`docnmf.corpus`), the text pipeline
(:class:`DocumentVectorizer`, :class:`TfidfWeighting`), clustering estimators
(:class:`LCCFClustering`, whose NC-weighted form ``weighting="ncw"`` is the default of
``docnmf cluster``; :class:`NMFClustering`; :class:`ConsensusClustering`), metrics, the
end-to-end :func:`cluster_corpus`, and saved models (:class:`ClusteringModel`,
:func:`save`, :func:`load`). Every method by name: :data:`docnmf.methods.METHODS`.
"""

from importlib import import_module as _import_module
from importlib.util import find_spec as _find_spec

from ._version import __version__

#: Each public name and the module it comes from. They are imported when first used, so that
#: ``import docnmf`` (and the ``docnmf`` command, whose own imports then run inside its handler
#: of Ctrl-C) does not load scikit-learn and SciPy before it needs them.
_EXPORTS = {
    "Corpus": ".corpus", "CorpusError": ".corpus", "read_corpus": ".corpus",
    "load_dataset": ".corpus", "list_datasets": ".corpus", "load_demo": ".corpus.demo",
    "DocumentVectorizer": ".text.vectorize", "TfidfWeighting": ".text.weighting",
    "tfidf_xu2003": ".text.weighting", "ncw_weights": ".text.weighting",
    "ConsensusClustering": ".cluster", "LCCFClustering": ".cluster", "NMFClustering": ".cluster",
    "FewerClustersWarning": ".cluster",
    "cluster_corpus": ".pipeline", "clustering_accuracy": ".metrics", "nmi": ".metrics",
    "purity": ".metrics", "confusion_matrix": ".metrics", "score_all": ".metrics",
    "ClusteringModel": ".model", "save": ".model", "load": ".model",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str):
    """A public name, or a submodule (``docnmf.methods``), imported on first use."""
    if name in _EXPORTS:
        value = getattr(_import_module(_EXPORTS[name], __name__), name)
    elif not name.startswith("_") and _find_spec(f"{__name__}.{name}"):
        value = _import_module(f".{name}", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
