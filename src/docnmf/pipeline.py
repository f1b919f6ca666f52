"""From a corpus to readable clusters: vectorize, fit, summarise, score, write.

This is what ``docnmf cluster`` and ``docnmf demo`` run; it is public so the
same result can be had from Python.
"""

from __future__ import annotations

import logging
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from ._estimator import representative_documents
from .corpus._corpus import Corpus
from .corpus._errors import CorpusError
from .io import write_csv, write_json
from .methods import METHODS, make_estimator
from .metrics import confusion_matrix, score_all
from .text.vectorize import DocumentVectorizer
from .text.weighting import TfidfWeighting

__all__ = ["ClusterRun", "vectorize_corpus", "cluster_corpus", "write_run", "format_summary"]

logger = logging.getLogger(__name__)


@dataclass
class ClusterRun:
    """Everything a clustering run produced, ready to print or write."""

    corpus: Corpus
    method: str
    n_clusters: int
    model: Any
    X: sp.csr_matrix
    feature_names: np.ndarray
    labels: np.ndarray
    memberships: np.ndarray
    keywords: list[list[str]]
    representatives: list[list[int]]
    metrics: dict[str, Any] | None
    params: dict[str, Any]
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def sizes(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=self.n_clusters)


def vectorize_corpus(corpus: Corpus, **options) -> tuple[sp.csr_matrix, np.ndarray]:
    """Weighted documents x terms matrix and readable term names for ``corpus``.

    Text corpora go through :class:`DocumentVectorizer` (``options`` are its
    parameters); matrix-only corpora (MATLAB, CLUTO) are weighted with
    :class:`TfidfWeighting` (``tf``, ``idf``, ``norm`` apply, the rest are
    ignored because tokenization already happened upstream).
    """
    if corpus.texts is not None:
        vectorizer = DocumentVectorizer(**options)
        X = vectorizer.fit_transform(corpus.texts)
        return X, vectorizer.readable_feature_names(corpus.texts)
    weighting = TfidfWeighting(**{k: v for k, v in options.items() if k in ("tf", "idf", "norm")})
    X = weighting.fit_transform(corpus.counts)
    names = corpus.vocabulary or [f"term{j}" for j in range(X.shape[1])]
    return X, np.asarray(names, dtype=object)


def cluster_corpus(corpus: Corpus, n_clusters: int, method: str = "nmf", *,
                   random_state: int | None = 0, estimator_params: dict | None = None,
                   vectorizer_params: dict | None = None, fit_params: dict | None = None,
                   n_keywords: int = 10, n_representatives: int = 3) -> ClusterRun:
    """Vectorize ``corpus``, cluster it with ``method`` and summarise the clusters.

    Parameters
    ----------
    corpus : Corpus
    n_clusters : int
    method : str
        A name in :data:`docnmf.methods.METHODS` (``"nmf"``, ``"nmf-ncw"``, ...).
    random_state : int or None
        Seed for the restarts.
    estimator_params, vectorizer_params : dict
        Passed to the estimator and to :func:`vectorize_corpus`.
    fit_params : dict
        Passed to ``fit`` (e.g. ``must_link`` / ``cannot_link`` index pairs).

    Returns
    -------
    ClusterRun
    """
    timings: dict[str, float] = {}
    spec = METHODS[method] if method in METHODS else None
    kind = spec.input if spec is not None else "tfidf"
    params = dict(estimator_params or {})
    t0 = time.perf_counter()
    if kind == "texts":
        if corpus.texts is None:
            raise CorpusError(f"method {method} segments raw texts, but "
                              f"{corpus.metadata.get('name', 'this corpus')} is a count matrix")
        params["vectorizer"] = DocumentVectorizer(**(vectorizer_params or {}))
        data = corpus.texts
    else:
        X, names = vectorize_corpus(corpus, **(vectorizer_params or {}))
        data = X if kind == "tfidf" else _counts(corpus, vectorizer_params)
        timings["vectorize_s"] = time.perf_counter() - t0
        _log_matrix(X)
    model = make_estimator(method, n_clusters, random_state=random_state, **params)
    t0 = time.perf_counter()
    labels = np.asarray(model.fit_predict(data, **(fit_params or {})))
    timings["fit_s"] = time.perf_counter() - t0
    if kind == "texts":
        # document-level view on the segments' vocabulary, for keywords and sizes
        X = model.vectorizer_.transform(corpus.texts)
        names = model.vectorizer_.readable_feature_names(corpus.texts)
        _log_matrix(X)
    empty = int(np.sum(np.diff(X.indptr) == 0))
    memberships = getattr(model, "memberships_", None)
    if memberships is None:
        memberships = np.eye(n_clusters)[labels]
    keywords = _cluster_keywords(model, X, labels, names, n_keywords)
    reps = representative_documents(memberships, labels, n_representatives)
    metrics = score_labels(corpus, labels)
    params = {"method": method, "n_clusters": n_clusters, "random_state": random_state,
              "estimator": _plain_params(model.get_params()),
              "vectorizer": vectorizer_params or {},
              "n_docs": X.shape[0], "n_terms": X.shape[1], "nnz": X.nnz,
              "empty_documents": empty}
    return ClusterRun(corpus, method, n_clusters, model, X, names, labels, memberships,
                      keywords, reps, metrics, params, timings)


def _plain_params(params: dict) -> dict:
    """Estimator parameters fit for JSON: objects (a vectorizer, a callable) by their repr."""
    plain = (str, int, float, bool, type(None), list, tuple, np.generic)
    return {k: v if isinstance(v, plain) else repr(v) for k, v in params.items()}


def _log_matrix(X) -> None:
    empty = int(np.sum(np.diff(X.indptr) == 0))
    logger.info("%d documents x %d terms, %d non-zeros%s", X.shape[0], X.shape[1], X.nnz,
                f"; {empty} documents have no index terms left" if empty else "")


def _counts(corpus: Corpus, vectorizer_params: dict | None) -> sp.csr_matrix:
    """Raw term counts on the same vocabulary rules, for the topic models."""
    if corpus.texts is None:
        return sp.csr_matrix(corpus.counts)
    options = {k: v for k, v in (vectorizer_params or {}).items() if k not in ("tf", "idf", "norm")}
    return DocumentVectorizer(**options).fit(corpus.texts).count(corpus.texts)


def _cluster_keywords(model, X, labels, names, n) -> list[list[str]]:
    if hasattr(model, "top_keywords"):
        return model.top_keywords(names, n)
    # methods without a topic factor: the heaviest terms of each cluster's centroid
    k = int(labels.max()) + 1 if labels.size else 0
    out = []
    for c in range(k):
        centroid = np.asarray(X[labels == c].mean(axis=0)).ravel()
        order = np.argsort(-centroid, kind="stable")[:n]
        out.append([str(names[j]) for j in order if centroid[j] > 0])
    return out


def score_labels(corpus: Corpus, labels: np.ndarray) -> dict[str, Any] | None:
    """Accuracy, NMI, purity and the confusion matrix over the labelled documents.

    A document with several labels is scored against its first one; unlabelled
    documents are left out. Returns None for an unlabelled corpus.
    """
    known = [i for i, labs in enumerate(corpus.labels) if labs]
    if not known:
        return None
    y_true = [corpus.labels[i][0] for i in known]
    y_pred = labels[known]
    C, classes, clusters = confusion_matrix(y_true, y_pred)
    out: dict[str, Any] = score_all(y_true, y_pred)
    out.update({"n_scored": len(known), "n_classes": len(classes),
                "multi_label_documents": sum(len(corpus.labels[i]) > 1 for i in known),
                "confusion": {"classes": classes.tolist(), "clusters": clusters.tolist(),
                              "counts": C.tolist()}})
    return out


def run_record(run: ClusterRun) -> dict[str, Any]:
    """The JSON run record: parameters, versions, seed, objective history, timings."""
    import scipy
    import sklearn

    from ._version import __version__

    model = run.model
    return {
        "docnmf_version": __version__,
        "python": platform.python_version(),
        "packages": {"numpy": np.__version__, "scipy": scipy.__version__,
                     "scikit-learn": sklearn.__version__},
        "command": sys.argv,
        "corpus": {"name": run.corpus.metadata.get("name"),
                   "source": str(run.corpus.metadata.get("source", "")),
                   "n_documents": len(run.corpus)},
        "parameters": run.params,
        "seed": run.params.get("random_state"),
        "objective": getattr(model, "objective_", None),
        "objective_history": getattr(model, "loss_history_", None),
        "restart_objectives": getattr(model, "restart_objectives_", None),
        "n_iter": getattr(model, "n_iter_", None),
        "timings": run.timings,
        "cluster_sizes": run.sizes,
        "metrics": run.metrics,
    }


def write_run(run: ClusterRun, outdir: str | Path) -> list[Path]:
    """Write assignments.csv, clusters.csv, run.json, metrics.json (with labels) and
    overlapping.csv (methods with overlapping clusters)."""
    outdir = Path(outdir)
    ids = run.corpus.ids
    strength = run.memberships[np.arange(len(run.labels)), run.labels]
    has_labels = run.corpus.is_labelled
    header = ["id", "cluster", "membership"] + (["label"] if has_labels else [])
    rows = ([ids[i], int(run.labels[i]), f"{strength[i]:.6f}"]
            + (["|".join(run.corpus.labels[i])] if has_labels else []) for i in range(len(ids)))
    paths = [write_csv(outdir / "assignments.csv", header, rows)]
    rows = ([c, int(run.sizes[c]), " ".join(run.keywords[c]),
             " ".join(ids[i] for i in run.representatives[c])] for c in range(run.n_clusters))
    paths.append(write_csv(outdir / "clusters.csv",
                           ["cluster", "size", "top_keywords", "representative_documents"], rows))
    paths.append(write_json(outdir / "run.json", run_record(run)))
    overlapping = getattr(run.model, "overlapping_labels_", None)
    if overlapping is not None:
        # one row per (document, cluster) for methods that let a document sit in several
        rows = ([ids[i], c, f"{run.memberships[i, c]:.6f}"]
                for i, clusters in enumerate(overlapping) for c in sorted(clusters))
        paths.append(write_csv(outdir / "overlapping.csv", ["id", "cluster", "share"], rows))
    if run.metrics is not None:
        paths.append(write_json(outdir / "metrics.json", run.metrics))
    return paths


def format_summary(run: ClusterRun, n_keywords: int = 8) -> str:
    """A plain-text table of clusters: size, keywords, representative documents, and scores."""
    title = (f"{run.method} on {run.corpus.metadata.get('name', 'corpus')}: "
             f"{run.X.shape[0]} documents, {run.X.shape[1]} terms, k={run.n_clusters} "
             f"({run.timings.get('fit_s', 0):.2f}s)")
    representatives = [[run.corpus.ids[i] for i in reps] for reps in run.representatives]
    return cluster_table(title, run.sizes, run.keywords, representatives, run.metrics, n_keywords)


def cluster_table(title: str, sizes, keywords: list[list[str]],
                  representatives: list[list[str]], metrics: dict[str, Any] | None,
                  n_keywords: int = 8) -> str:
    """The summary's lines: a title, each cluster's size, keywords and example ids, the scores."""
    lines = [title, ""]
    for c in range(len(sizes)):
        lines.append(f"cluster {c:>2}  {sizes[c]:>5} docs  {', '.join(keywords[c][:n_keywords])}")
        if representatives[c]:
            lines.append(f"{'':>22}e.g. {', '.join(representatives[c])}")
    if metrics is not None:
        m = metrics
        lines += ["", f"against {m['n_classes']} labelled classes ({m['n_scored']} documents): "
                      f"accuracy {m['accuracy']:.3f}  NMI {m['nmi']:.3f}  purity {m['purity']:.3f}"]
    return "\n".join(lines)



