"""From a corpus to readable clusters: vectorize, fit, summarise, score, check, write.

This is what ``docnmf cluster``, ``docnmf demo`` and ``docnmf assign`` run;
it is public so the same result can be had from Python.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import sys
import time
import warnings
from dataclasses import dataclass, field
from numbers import Integral
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import scipy.sparse as sp

from . import diagnostics
from ._estimator import (
    FewerClustersWarning,
    check_n_clusters,
    heaviest_columns,
    held_only,
    representative_documents,
    terms_held,
)
from ._version import software_versions
from .cluster import LCCFClustering, NMFClustering
from .constraints import Constraints, ConstraintWarning, as_pair_array
from .corpus._corpus import Corpus
from .corpus._errors import CorpusError
from .corpus._text_io import readable_name
from .io import atomic_write_bytes, one_line, write_csv, write_json, writes_folder
from .methods import (
    DEFAULT_FALLBACK,
    DEFAULT_METHOD,
    METHODS,
    make_estimator,
    method_spec,
    options_not_taken,
)
from .metrics import NMI_NORMALIZATION, confusion_matrix, score_all
from .model import ClusteringModel, save
from .report import write_report
from .report.collect import collect_report_data
from .report.data import cluster_centroids
from .text.coherence import npmi_coherence
from .text.vectorize import DocumentVectorizer, EmptyVocabularyError
from .text.weighting import TfidfWeighting

__all__ = ["ClusterRun", "vectorize_corpus", "cluster_corpus", "assign_corpus", "write_run",
           "format_summary"]

logger = logging.getLogger(__name__)


@dataclass
class ClusterRun:
    """Everything a clustering run produced, ready to print or write.

    ``labels`` is -1 for a document left unassigned (no index term after
    preprocessing, or none a saved model knows), whose row of
    ``memberships`` is zero. ``saved_model`` is what ``write_run`` saves
    in ``model/`` (None when the method cannot place new documents or the
    corpus has no texts).
    """

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
    diagnostics: dict[str, Any] = field(default_factory=dict)
    saved_model: ClusteringModel | None = None
    #: per cluster, the matrix columns of ``keywords`` and the weights that ranked them
    keyword_columns: list[list[int]] = field(default_factory=list)
    keyword_weights: list[list[float]] = field(default_factory=list)
    #: per cluster, NPMI coherence of its keywords over the corpus (see ``text.coherence``)
    coherence: np.ndarray | None = None

    @property
    def sizes(self) -> np.ndarray:
        return np.bincount(self.labels[self.labels >= 0], minlength=self.n_clusters)

    @property
    def with_segments(self) -> np.ndarray | None:
        """Per cluster, the documents with a share in it, for methods whose clusters overlap
        (overlapping NMA); None for the others."""
        return _with_segments(self.model, self.memberships, self.labels)

    @property
    def unassigned(self) -> np.ndarray:
        """Indices of the documents in no cluster."""
        return np.flatnonzero(self.labels < 0)


def overlaps(model, memberships: np.ndarray, labels: np.ndarray) -> np.ndarray | None:
    """When ``model``'s clusters overlap (NMA with ``overlapping=True``): which clusters each
    document has a share in (its segments' clusters, fitted or placed), none for a document in
    no cluster; None for other models."""
    if getattr(model, "overlapping", False) is not True:
        return None
    return (memberships > 0) & (labels >= 0)[:, None]


def _with_segments(model, memberships: np.ndarray, labels: np.ndarray) -> np.ndarray | None:
    shares = overlaps(model, memberships, labels)
    return None if shares is None else shares.sum(axis=0)


def vectorize_corpus(corpus: Corpus, **options) -> tuple[sp.csr_matrix, np.ndarray]:
    """Weighted documents x terms matrix and readable term names for ``corpus``.

    Text corpora go through :class:`DocumentVectorizer` (``options`` are its
    parameters); matrix-only corpora (MATLAB, CLUTO) are weighted with
    :class:`TfidfWeighting` (``tf``, ``idf``, ``norm`` apply, the rest are
    ignored because tokenization already happened upstream).
    """
    X, names, _, _ = _vectorize(corpus, options)
    return X, names


def _vectorize(corpus: Corpus, options: Mapping[str, Any]):
    """``vectorize_corpus``, the fitted vectorizer (None for a count matrix) and the raw
    counts on the same terms."""
    if corpus.texts is not None:
        vectorizer = DocumentVectorizer(**options)
        try:
            counts = vectorizer.fit_count(corpus.texts)
        except EmptyVocabularyError as exc:
            hint = diagnostics.empty_vocabulary_hint(corpus.texts)
            raise EmptyVocabularyError(f"{exc}; {hint}" if hint else str(exc)) from None
        X = vectorizer.weighting_.transform(counts)
        return X, vectorizer.readable_feature_names(corpus.texts), vectorizer, counts
    weighting = TfidfWeighting(**{k: v for k, v in options.items() if k in ("tf", "idf", "norm")})
    counts = sp.csr_matrix(corpus.counts)
    X = weighting.fit_transform(counts)
    names = corpus.vocabulary or [f"term{j}" for j in range(X.shape[1])]
    return X, np.asarray(names, dtype=object), None, counts


def _weighed_out(counts: sp.csr_matrix, empty: np.ndarray, options: Mapping[str, Any]) -> str:
    """Why some of the ``empty`` rows of the weighted matrix are empty though they have
    ``counts``: their terms are in every document, where idf "xu" is log(n / n) = 0 (the
    error said only that no index term was left, of documents whose term was kept)."""
    if options.get("idf", "xu") != "xu" or not empty.size:
        return ""
    return weighed_out_phrase(int(np.count_nonzero(np.diff(counts[empty].indptr))))


def weighed_out_phrase(weighed_out: int) -> str:
    """The end of a too-few-documents error when ``weighed_out`` documents have terms, all of
    them terms of every document, which idf "xu" weighs 0 ("" when there are none)."""
    if not weighed_out:
        return ""
    one = weighed_out == 1
    return (f": {weighed_out} document{' has' if one else 's have'} terms, but only terms of "
            f"every document, which weigh 0 under idf 'xu', log(n / n); idf 'smooth' (--idf "
            f"smooth) keeps them")


def cluster_corpus(corpus: Corpus, n_clusters: int, method: str | None = None, *,
                   random_state: int | None = 0, estimator_params: dict | None = None,
                   vectorizer_params: dict | None = None, fit_params: dict | None = None,
                   constraint_files: Mapping[str, str | Path] | None = None,
                   n_keywords: int = 10, n_representatives: int = 3,
                   fallback: str | None = None) -> ClusterRun:
    """Vectorize ``corpus``, cluster it with ``method``, summarise and check the clusters.

    Documents with no index term left after preprocessing are kept out of
    the fit and left unassigned (label -1); the findings of
    :mod:`docnmf.diagnostics` are logged as warnings and kept in
    ``run.diagnostics``.

    Parameters
    ----------
    corpus : Corpus
    n_clusters : int
    method : str, optional
        A name in :data:`docnmf.methods.METHODS` (``"nmf"``, ``"nmf-ncw"``, ...). By default
        what ``docnmf cluster`` runs without ``--method``: :data:`~docnmf.methods.DEFAULT_METHOD`,
        its degenerate results clustered again with ``fallback`` (by default
        :data:`~docnmf.methods.DEFAULT_FALLBACK`). Naming the method keeps its own result.
    random_state : int or None
        Seed for the restarts.
    estimator_params, vectorizer_params : dict
        Passed to the estimator and to :func:`vectorize_corpus`.
    fit_params : dict
        Passed to ``fit`` (e.g. ``must_link`` / ``cannot_link`` index pairs
        into ``corpus``).
    constraint_files : mapping, optional
        ``must_link`` / ``cannot_link`` -> the file the pairs were read from,
        recorded with its SHA-256.
    fallback : str, optional
        A method to cluster with instead when ``method``'s result is degenerate
        (:func:`docnmf.diagnostics.degenerate`: two clusters, or one of two,
        nearly empty); the consensus when ``method`` is not given. The result
        then is the fallback's, with the replaced
        result's sizes in ``run.diagnostics["replaced"]``. Options of
        ``estimator_params`` that the fallback does not take keep the result
        as it is (with a warning).

    Returns
    -------
    ClusterRun
    """
    return _cluster_corpus(corpus, n_clusters, method, random_state=random_state,
                           estimator_params=estimator_params, vectorizer_params=vectorizer_params,
                           fit_params=fit_params, constraint_files=constraint_files,
                           n_keywords=n_keywords, n_representatives=n_representatives,
                           fallback=fallback)


def _cluster_corpus(corpus: Corpus, n_clusters: int, method: str | None, *,
                    random_state: int | None, estimator_params: dict | None,
                    vectorizer_params: dict | None, fit_params: dict | None,
                    constraint_files: Mapping[str, str | Path] | None, n_keywords: int,
                    n_representatives: int, fallback: str | None,
                    vectorized: tuple | None = None) -> ClusterRun:
    """:func:`cluster_corpus`; ``vectorized``, what :func:`_vectorize` gave for ``corpus`` and
    ``vectorizer_params`` (the run a fallback replaces read them already)."""
    if not isinstance(corpus, Corpus):
        raise TypeError(f"cluster_corpus takes a docnmf.Corpus, not {type(corpus).__name__}: "
                        "read one with docnmf.read_corpus(path), or make one with "
                        "docnmf.Corpus(texts, labels, ids)")
    if method is None:
        method, fallback = DEFAULT_METHOD, fallback or DEFAULT_FALLBACK
    for name, value in (("n_keywords", n_keywords), ("n_representatives", n_representatives)):
        # a negative count sliced all but the last keywords off, without a word
        if isinstance(value, bool) or not isinstance(value, Integral) or value < 0:
            raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
    if "random_state" in (estimator_params or {}):
        raise ValueError("give the seed as cluster_corpus(random_state=...), not in "
                         "estimator_params")
    timings: dict[str, float] = {}
    if fallback is not None:
        method_spec(fallback)      # an unknown name said so only once a result was degenerate
    spec = method_spec(method)
    check_n_clusters(n_clusters, len(corpus))      # before any work
    _check_pairs(fit_params, corpus, method, spec.constraints)
    kind = spec.input
    params = dict(estimator_params or {})
    options = dict(vectorizer_params or {})
    if kind == "texts" and corpus.texts is None:
        raise CorpusError(f"method {method} segments raw texts, but "
                          f"{corpus.metadata.get('name', 'this corpus')} is a count matrix")
    t0 = time.perf_counter()
    # for methods that read texts this is the documents' view, for empties and keywords
    if vectorized is None:
        vectorized = _vectorize(corpus, options)
    X, names, vectorizer, counts = vectorized
    # a fallback reads the same texts with the same options: kept for it (tokenizing and
    # stemming 20 Newsgroups again took as long as reading it the first time)
    again = vectorized if fallback not in (None, method) else None
    del vectorized
    empty = diagnostics.empty_rows(X)
    active = np.setdiff1d(np.arange(len(corpus)), empty)
    if active.size < n_clusters:
        raise CorpusError(f"only {active.size} of the {len(corpus)} documents have index terms "
                          f"left after preprocessing; {n_clusters} clusters need at least as many"
                          f"{_weighed_out(counts, empty, options)}")
    if kind == "texts":
        params["vectorizer"] = DocumentVectorizer(**options)
        data = [corpus.texts[i] for i in active]
    else:
        data = X if kind == "tfidf" else counts
        if active.size < data.shape[0]:    # a copy only when some document is left out
            data = data[active]
    del counts    # the fit holds what it needs; the counts are not kept beside X (but for a
    # fallback, in `again`)
    timings["vectorize_s"] = time.perf_counter() - t0
    _log_matrix(X, empty.size)
    model = make_estimator(method, n_clusters, random_state=random_state, **params)
    if n_clusters > X.shape[1] and (isinstance(model, NMFClustering) or (
            isinstance(model, LCCFClustering) and model.kernel == "linear")):
        # a factorization of that rank has more topics than terms: it ran for minutes and
        # overflowed, or ended with fewer clusters than asked, without a word (a kernel's
        # feature space has more dimensions than the terms)
        # consensus weighs one term, which every document left holds, by log(n / n) = 0
        others = "consensus or km, which" if X.shape[1] > 1 else "km, which"
        raise CorpusError(f"{n_clusters} clusters need at least as many index terms with "
                          f"{method}, and preprocessing left {X.shape[1]}: ask for fewer "
                          "clusters, keep more terms (--min-df, --max-df, --max-features), or "
                          f"use --method {others} may find more clusters than terms")
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConstraintWarning)    # the diagnostics count broken pairs
        warnings.simplefilter("ignore", FewerClustersWarning)   # and name the empty clusters
        fitted = np.asarray(model.fit_predict(data, **_pairs_among(fit_params, active,
                                                                   len(corpus))))
    timings["fit_s"] = time.perf_counter() - t0
    labels = np.full(len(corpus), -1, dtype=np.int64)
    labels[active] = fitted
    sizes = [int(n) for n in np.bincount(fitted, minlength=n_clusters)]
    if fallback not in (None, method) and diagnostics.degenerate(sizes) \
            and _fall_back(method, sizes, fallback, estimator_params or {}):
        try:
            replaced = _cluster_corpus(corpus, n_clusters, fallback, random_state=random_state,
                                       estimator_params=estimator_params,
                                       vectorizer_params=vectorizer_params,
                                       fit_params=fit_params, constraint_files=constraint_files,
                                       n_keywords=n_keywords,
                                       n_representatives=n_representatives, fallback=None,
                                       vectorized=again)
        except ValueError as exc:   # the fallback's own input checks: the result is kept
            logger.warning("%s could not cluster these documents (%s): the result of %s is "
                           "kept", fallback, exc, method)
        else:
            replaced.diagnostics["replaced"] = {"method": method, "by": fallback,
                                                "cluster_sizes": sizes,
                                                "fit_s": timings["fit_s"]}
            # the texts were read once, for both
            replaced.timings["vectorize_s"] += timings["vectorize_s"]
            return replaced
    del again     # the counts, unless the method's data
    memberships = np.zeros((len(corpus), n_clusters))
    memberships[active] = (model.memberships_ if hasattr(model, "memberships_")
                           else np.eye(n_clusters)[fitted])
    copies_moved = 0
    if kind != "texts" and not spec.constraints:    # a pair may keep copies apart on purpose
        copies_moved = _copies_together(data, labels, memberships, active)
    if kind == "texts":
        # document-level view on the segments' vocabulary, for keywords and sizes
        X = model.vectorizer_.transform(corpus.texts)
        names = model.vectorizer_.readable_feature_names(corpus.texts)
    columns, weights = _keyword_columns(model, X, labels, n_clusters, n_keywords)
    keywords = [[str(names[j]) for j in cols] for cols in columns]
    reps = representative_documents(memberships, labels, n_representatives,
                                    tiebreak=centroid_similarity(X, labels, n_clusters))
    metrics = score_labels(corpus, labels)
    report = _diagnose(corpus, labels, n_clusters, fit_params, constraint_files,
                       {"count": int(empty.size), "ids": [corpus.ids[i] for i in empty],
                        "reason": "no index term left after preprocessing"}, reps, method, X,
                       overlap=_with_segments(model, memberships, labels),
                       text_options=vectorizer_params, copies_moved=copies_moved,
                       memberships=memberships)
    record = {"method": method, "n_clusters": n_clusters, "random_state": random_state,
              "estimator": _plain_params(model.get_params()),
              "vectorizer": vectorizer_params or {},
              "n_docs": X.shape[0], "n_terms": X.shape[1], "nnz": X.nnz,
              "empty_documents": int(empty.size), "fitted_documents": int(active.size)}
    saved = None
    if corpus.texts is not None and spec.places_new_documents \
            and model._placement_blocker() is None:
        saved = ClusteringModel(model, vectorizer if kind != "texts" else None, method,
                                {"corpus": corpus.metadata.get("name"),
                                 "n_documents": len(corpus), "fitted_documents": int(active.size),
                                 "vectorizer": vectorizer_params or {}})
    pairs = {k: len(v) for k, v in (fit_params or {}).items() if k in ("must_link", "cannot_link")}
    if pairs:
        record["constraint_pairs"] = pairs
    return ClusterRun(corpus, method, n_clusters, model, X, names, labels, memberships,
                      keywords, reps, metrics, record, timings, report, saved,
                      keyword_columns=columns, keyword_weights=weights,
                      coherence=npmi_coherence(X, columns))


def _copies_together(data, labels: np.ndarray, memberships: np.ndarray,
                     active: np.ndarray) -> int:
    """Put each group of documents the fit saw alike (identical rows of ``data``, the fitted
    documents ``active``) in the cluster most of them got, the lowest on a tie, with the
    memberships of its first member there; returns how many documents moved. The consensus
    and LSI k-means split 50 copies of a text over three clusters (more clusters asked than
    distinct texts, and rows of copies that differed by rounding), and NMF gave copies
    memberships that differed in the last digits: copies share a cluster and memberships."""
    moved = 0
    for group in diagnostics.duplicate_groups(counts=data):
        rows = active[np.asarray(group)]
        got = labels[rows]
        winner = int(np.bincount(got).argmax())
        first = rows[np.flatnonzero(got == winner)[0]]
        moved += int(np.sum(got != winner))
        labels[rows] = winner
        memberships[rows] = memberships[first]
    return moved


def _fall_back(method: str, sizes: list[int], fallback: str,
               estimator_params: dict) -> bool:
    """Whether ``fallback`` replaces ``method``'s degenerate result (the options given apply to
    it), saying why either way."""
    what = f"{method} gave a degenerate result: {diagnostics.degenerate_sizes(sizes)}"
    others = options_not_taken(fallback, estimator_params)
    if others:
        logger.warning("%s; %s, less prone to it, does not take %s: the result is kept", what,
                       fallback, ", ".join(others))
        return False
    logger.warning("%s; clustering again with %s, less prone to it", what, fallback)
    return True


def assign_corpus(model: ClusteringModel, corpus: Corpus, *, n_keywords: int = 10,
                  n_representatives: int = 3) -> ClusterRun:
    """Place the documents of ``corpus`` with a saved model, without refitting.

    The result has the shape of :func:`cluster_corpus`'s, so :func:`write_run`
    writes the same files. Documents with no index term the model knows are
    left unassigned (label -1) and reported.
    """
    if corpus.texts is None:
        raise CorpusError(f"{corpus.metadata.get('name', 'the input')} is a count matrix; a "
                          "saved model places texts")
    t0 = time.perf_counter()
    placed = model.place(corpus.texts)
    timings = {"assign_s": time.perf_counter() - t0}
    k, labels = model.n_clusters, placed.labels
    names = model.feature_names
    # of the placed documents, as cluster's keywords are of the fitted ones
    columns, weights = _keyword_columns(model.estimator, placed.X, labels, k, n_keywords)
    keywords = [[str(names[j]) for j in cols] for cols in columns]
    reps = representative_documents(placed.memberships, labels, n_representatives,
                                    tiebreak=centroid_similarity(placed.X, labels, k))
    unplaced = placed.unplaced
    # cluster sizes describe the model's fit, not the new documents: no small-cluster check
    report = _diagnose(corpus, labels, None, None, None,
                       {"count": int(unplaced.size), "ids": [corpus.ids[i] for i in unplaced],
                        "reason": "no index term the model knows"},
                       text_options=(model.vectorizer.get_params()
                                     if model.vectorizer is not None else None))
    if unplaced.size * 2 > len(corpus):
        logger.warning("most documents (%d of %d) have no term the model knows: is it a model "
                       "of documents like these (their language, their subject)?",
                       unplaced.size, len(corpus))
    placed_rows = placed.memberships[labels >= 0]
    if _alike_and_unsure(placed_rows, placed.X[labels >= 0]):
        # an edited model (zeroed term weights, centres scaled by 2^5000) put every document
        # in cluster 0 with the same memberships, and exited 0
        logger.warning("each of the %d documents placed has the same memberships (%s), none "
                       "above %.0f%%: the model tells none apart; were its files edited, or "
                       "is it a model of other documents?", len(placed_rows),
                       ", ".join(f"{v:.3g}" for v in placed_rows[0]), _SURE * 100)
    record = {"method": model.method, "n_clusters": k, "source_model": model.info,
              "n_docs": placed.X.shape[0], "n_terms": placed.X.shape[1], "nnz": placed.X.nnz,
              "unassigned_documents": int(unplaced.size)}
    return ClusterRun(corpus, model.method or type(model.estimator).__name__, k, model.estimator,
                      placed.X, names, labels, placed.memberships, keywords, reps,
                      score_labels(corpus, labels), record, timings, report,
                      keyword_columns=columns, keyword_weights=weights,
                      coherence=npmi_coherence(placed.X, columns))


#: A membership at or above this is a placement a model is sure of.
_SURE = 0.9


def _alike_and_unsure(memberships: np.ndarray, X) -> bool:
    """Documents of different term vectors (rows of ``X``) all given the same memberships,
    none of them ``_SURE``: what a model whose numbers place nothing gives. (Documents of one
    topic placed surely in its cluster have the same memberships too, 1 and 0s, and are no
    sign of it; nor are texts that differ only in words the model does not know.)"""
    if len(memberships) < 2 or float(memberships.max()) >= _SURE \
            or len(np.unique(memberships.round(12), axis=0)) > 1:
        return False
    X = sp.csr_matrix(X)
    copies = sum(len(g) - 1 for g in diagnostics.duplicate_groups(counts=X))
    return X.shape[0] - copies > 1


def _check_pairs(fit_params: dict | None, corpus: Corpus, method: str,
                 takes_pairs: bool) -> None:
    """Refuse constraint pairs a method cannot follow, or that name no document of ``corpus``
    (a negative index, a float, an index past the end), before they are renumbered."""
    given = {key: (fit_params or {}).get(key) for key in ("must_link", "cannot_link")}
    if all(pairs is None for pairs in given.values()):
        return
    if not takes_pairs:
        supported = ", ".join(name for name, spec in METHODS.items() if spec.constraints)
        raise ValueError(f"must_link/cannot_link need a semi-supervised method ({supported}), "
                         f"not {method}")
    Constraints(len(corpus), given["must_link"], given["cannot_link"], names=corpus.ids)


def _pairs_among(fit_params: dict | None, active: np.ndarray, n: int) -> dict:
    """``fit_params`` with constraint pairs (checked by :func:`_check_pairs`) renumbered to the
    fitted documents; pairs that involve a document left out of the fit are dropped."""
    out = dict(fit_params or {})
    position = np.full(n, -1)
    position[active] = np.arange(active.size)
    for key in ("must_link", "cannot_link"):
        if out.get(key) is not None:
            pairs = position[as_pair_array(out[key], key)]
            out[key] = pairs[(pairs >= 0).all(axis=1)]
    return out


def centroid_similarity(X, labels: np.ndarray, n_clusters: int) -> np.ndarray:
    """Cosine of each document to the mean document of its cluster (0 when unassigned).

    Ranks members whose memberships tie (the tie-break of the representatives).

    Examples
    --------
    >>> X = sp.csr_matrix(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]))
    >>> centroid_similarity(X, np.array([0, 0, -1]), 1).round(3).tolist()
    [0.894, 0.949, 0.0]
    """
    centroids = cluster_sums(X, labels, n_clusters)
    centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-300)
    return similarity_to_centres(X, labels, centroids)


def cluster_sums(X, labels: np.ndarray, n_clusters: int) -> np.ndarray:
    """The sum of each cluster's documents (rows of ``X``; label -1: in none), dense (k, terms).
    Sums over row blocks of ``X`` add up to the whole's."""
    X = sp.csr_matrix(X)
    labels = np.asarray(labels)
    assigned = np.flatnonzero(labels >= 0)
    S = sp.csr_matrix((np.ones(assigned.size), (labels[assigned], assigned)),
                      shape=(n_clusters, X.shape[0]))
    return np.asarray((S @ X).todense())


def similarity_to_centres(X, labels: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """Cosine of each document to its cluster's unit-length centre ``centroids[label]`` (0 when
    unassigned), for :func:`centroid_similarity`: rows of ``X`` are independent here."""
    X = sp.csr_matrix(X)
    labels = np.asarray(labels)
    assigned = np.flatnonzero(labels >= 0)
    # each document against its own centre, entry by entry: memory of X's size, never the
    # documents x terms matrix of centres (a document in no cluster gets a number, unused)
    rows = np.repeat(np.arange(X.shape[0], dtype=np.int32), np.diff(X.indptr))
    norms = np.sqrt(np.bincount(rows, weights=np.square(X.data), minlength=X.shape[0]))
    mine = labels.astype(np.int32)[rows]
    dots = np.bincount(rows, weights=X.data * centroids[mine, X.indices], minlength=X.shape[0])
    del rows, mine
    out = np.zeros(X.shape[0])
    out[assigned] = np.divide(dots[assigned], norms[assigned], out=np.zeros(assigned.size),
                              where=norms[assigned] > 0)
    return out


def _diagnose(corpus: Corpus, labels: np.ndarray, n_clusters: int | None,
              fit_params: dict | None,
              constraint_files: Mapping[str, str | Path] | None,
              unassigned: dict[str, Any], representatives=None,
              method: str | None = None, X=None, overlap=None,
              text_options: Mapping[str, Any] | None = None,
              copies_moved: int = 0, memberships: np.ndarray | None = None) -> dict[str, Any]:
    """The findings of :mod:`docnmf.diagnostics` on a result; each logged as a warning.

    ``X``, the matrix clustered, adds the small groups of documents sharing no term with the
    rest (:func:`docnmf.diagnostics.small_isolated_groups`); ``overlap``, the documents with
    a share in each cluster of overlapping clusters, what a small cluster holds besides;
    ``text_options``, the vectorizer's settings, which options a finding still advises;
    ``copies_moved``, the documents :func:`_copies_together` put with their copies;
    ``memberships``, the documents that belong to every cluster alike (their label a tie).
    """
    ids = corpus.ids
    groups = diagnostics.duplicate_groups(corpus.texts, corpus.counts
                                          if corpus.texts is None else None)
    report: dict[str, Any] = {
        "unassigned": unassigned,
        "small_clusters": ([] if n_clusters is None
                           else diagnostics.small_clusters(labels, n_clusters, ids,
                                                           examples=representatives,
                                                           overlap=overlap)),
        "duplicates": diagnostics.duplicates_finding(groups, ids),
        **({} if X is None or n_clusters is None else {"isolated": _isolated(X, ids,
                                                                              n_clusters)}),
        **(text_findings(corpus.texts, ids, text_options) if corpus.texts is not None
           else {"vocabulary": diagnostics.vocabulary_hints(corpus.vocabulary)
                 if corpus.vocabulary else {}}),
    }
    ties = {} if memberships is None or n_clusters is None \
        else diagnostics.tied_memberships(memberships, labels, ids)
    if ties:    # a run without (most) records none
        report["ties"] = ties
    if copies_moved:
        report["copies_moved"] = copies_moved
    if fit_params and any(fit_params.get(k) is not None for k in ("must_link", "cannot_link")):
        report["constraints"] = diagnostics.constraint_report(
            labels, fit_params.get("must_link"), fit_params.get("cannot_link"), ids)
        report["constraints"]["files"] = {
            key: {"name": str(path), "sha256": hashlib.sha256(Path(path).read_bytes()).hexdigest()}
            for key, path in (constraint_files or {}).items() if path is not None}
        for key, label in (("must_link", "must-link"), ("cannot_link", "cannot-link")):
            c = report["constraints"][key]
            if c["given"]:
                away = c.get("with_unassigned_document", 0)
                logger.info("%d of %d %s pairs kept by the result%s", c["satisfied"], c["given"],
                            label, f" ({away} with a document left unassigned, in no cluster)"
                            if away else "")
    for line in diagnostics.warning_lines(report, method):
        logger.warning("%s", line)
    return report


def text_findings(texts: Sequence[str], ids: Sequence[str],
                  text_options: Mapping[str, Any] | None = None,
                  n_documents: int | None = None) -> dict[str, Any]:
    """The diagnostics report's findings on the texts themselves (all of them, or a sample):
    whether they look stemmed or not English (``vocabulary``), lines repeated across them
    (``boilerplate``) and documents in another language (``languages``); ``text_options``, the
    vectorizer's settings, which options a finding still advises; ``n_documents``, the
    collection's size when ``texts`` are a sample (a --max-df given as a count is its)."""
    options = {**DocumentVectorizer().get_params(), **(text_options or {})}
    report: dict[str, Any] = {"vocabulary": diagnostics.text_hints(texts)}
    if report["vocabulary"].get("not_english"):
        report["vocabulary"]["read_with"] = {"stem": bool(options["stem"]),
                                             "max_df": options["max_df"]}
    report["boilerplate"] = diagnostics.boilerplate(texts, options["max_df"], n_documents)
    # a collection not English as a whole is said so already
    report["languages"] = ({} if report["vocabulary"].get("not_english")
                           else diagnostics.foreign_documents(texts, ids))
    return report


def _isolated(X, ids: Sequence[str], n_clusters: int) -> dict[str, Any]:
    """:func:`docnmf.diagnostics.small_isolated_groups` for ``run.json``: counts, the first
    groups."""
    groups = diagnostics.small_isolated_groups(X, n_clusters)
    return {"groups": len(groups), "documents": sum(len(g) for g in groups),
            "sizes": [len(g) for g in groups[:20]],
            "examples": [[ids[i] for i in g[:5]] for g in groups[:20]]}


def _plain_params(params: dict) -> dict:
    """Estimator parameters fit for JSON: objects (a vectorizer, a callable) by their repr."""
    plain = (str, int, float, bool, type(None), list, tuple, np.generic)
    return {k: v if isinstance(v, plain) else repr(v) for k, v in params.items()}


def _log_matrix(X, empty: int) -> None:
    logger.info("%d documents x %d terms, %d non-zeros%s", X.shape[0], X.shape[1], X.nnz,
                f"; {diagnostics.documents_phrase(empty)} without index terms" if empty else "")


def _keyword_columns(model, X, labels, k: int, n: int) -> tuple[list[list[int]], list[list[float]]]:
    """Each cluster's ``n`` heaviest columns and their weights, as ``top_keywords`` ranks them.

    The weights are the model's term weights (topic vectors, centroids; for
    NMA the cluster centres mapped to terms); methods without term weights
    use the mean of each cluster's documents (unassigned documents left out). Of a cluster
    with documents (``X``'s, as ``labels`` cluster them) only the terms some of them hold
    are ranked (:func:`~docnmf._estimator.held_only`).
    """
    if hasattr(model, "topic_keywords"):        # NMA: a cluster is a centre in topic space
        W = model.cluster_centers_ @ model.components_
    elif hasattr(model, "top_keywords"):
        W = model._keyword_weights()
    else:
        W = cluster_centroids(X, labels, k)
    W = held_only(W, terms_held(X, labels, k))
    columns = heaviest_columns(W, n)
    return columns, [[float(W[c, j]) for j in cols] for c, cols in enumerate(columns)]


def score_labels(corpus: Corpus, labels: np.ndarray) -> dict[str, Any] | None:
    """Accuracy, NMI, purity and the confusion matrix over the labelled documents.

    A document with several labels is scored against its first one; unlabelled
    documents are left out and counted in ``n_unlabelled``. Unassigned documents
    (label -1: nothing to cluster them by) are left out too and counted in
    ``n_unassigned``; ``accuracy_all_documents`` then counts them as errors.
    Returns None for an unlabelled corpus (or one with no labelled document
    assigned).
    """
    known = [i for i, labs in enumerate(corpus.labels) if labs]
    scored = [i for i in known if labels[i] >= 0]
    if not scored:
        return None
    y_true = [corpus.labels[i][0] for i in scored]
    y_pred = labels[scored]
    C, classes, clusters = confusion_matrix(y_true, y_pred)
    out: dict[str, Any] = score_all(y_true, y_pred)
    out.update({"nmi_normalization": NMI_NORMALIZATION, "n_scored": len(scored),
                "n_classes": len(classes),
                "multi_label_documents": sum(len(corpus.labels[i]) > 1 for i in scored),
                "confusion": {"classes": classes.tolist(), "clusters": clusters.tolist(),
                              "counts": C.tolist()}})
    if len(scored) < len(known):
        out["n_unassigned"] = len(known) - len(scored)
        out["accuracy_all_documents"] = out["accuracy"] * len(scored) / len(known)
    if len(known) < len(corpus):
        out["n_unlabelled"] = len(corpus) - len(known)
    return out


def software_record(**packages: str) -> dict[str, Any]:
    """The versions a run record names (docnmf, Python, numpy, scipy, scikit-learn and
    ``packages``) and the command line."""
    return {**software_versions(**packages),
            "command": [readable_name(arg) for arg in sys.argv]}


def run_record(run: ClusterRun) -> dict[str, Any]:
    """The JSON run record: parameters, versions, seed, objective history, timings."""
    model = run.model
    return {
        **software_record(),
        "corpus": {"name": run.corpus.metadata.get("name"),
                   "source": str(run.corpus.metadata.get("source", "")),
                   **({"path": readable_name(run.corpus.metadata["path"])}
                      if run.corpus.metadata.get("path") else {}),
                   **({"reader_options": run.corpus.metadata["reader_options"]}
                      if run.corpus.metadata.get("reader_options") else {}),
                   "n_documents": len(run.corpus),
                   # entries of a folder left out (links, binary files), each with why
                   **({"skipped": list(run.corpus.metadata["skipped"])}
                      if run.corpus.metadata.get("skipped") else {})},
        "parameters": run.params,
        "seed": run.params.get("random_state"),
        "objective": getattr(model, "objective_", None),
        "objective_history": getattr(model, "loss_history_", None),
        "restart_objectives": getattr(model, "restart_objectives_", None),
        **({"start_restart_objectives": model.start_restart_objectives_}
           if getattr(model, "start_restart_objectives_", None) is not None else {}),
        "n_iter": getattr(model, "n_iter_", None),
        # docnmf assign fits nothing: the objectives above are those of the model's own fit
        **({"objectives_of": "the fit of the model that placed these documents"}
           if "assign_s" in run.timings else {}),
        **({"consensus_members": {name: round(float(a), 6) for name, a in
                                  zip(model.members_, model.member_agreement_)}}
           if hasattr(model, "member_agreement_") else {}),
        "timings": run.timings,
        "cluster_sizes": run.sizes,
        "metrics": run.metrics,
        "diagnostics": run.diagnostics,
    }


@writes_folder
def write_run(run: ClusterRun, outdir: str | Path, *, report: bool = True) -> list[Path]:
    """Write assignments.csv, clusters.csv, memberships.npz, run.json, metrics.json (with
    labels), overlapping.csv (methods with overlapping clusters), unassigned.csv (when some
    documents are in no cluster), the saved model in ``model/`` (methods that place new
    documents) and, with ``report``, report_data.json and the self-contained report.html.

    The folder is published whole (:class:`docnmf.io.OutputFolder`): it holds
    this run's files and nothing else. Text cells are made spreadsheet-safe
    (:func:`docnmf.io.spreadsheet_safe`); each cluster's representative
    documents are a JSON list of ids, since an id may hold any character.
    """
    outdir = Path(outdir)
    ids = run.corpus.ids
    labels = run.labels
    strength = np.where(labels >= 0, run.memberships[np.arange(len(labels)),
                                                     np.maximum(labels, 0)], 0.0)
    has_labels = run.corpus.is_labelled
    header = ["id", "cluster", "membership"] + (["label"] if has_labels else [])
    rows = ([ids[i], int(labels[i]), f"{strength[i]:.6f}"]
            + (["|".join(run.corpus.labels[i])] if has_labels else []) for i in range(len(ids)))
    paths = [write_csv(outdir / "assignments.csv", header, rows)]
    coherence = run.coherence if run.coherence is not None else np.full(run.n_clusters, np.nan)
    overlap = run.with_segments
    rows = ([c, int(run.sizes[c]), " ".join(run.keywords[c]),
             json.dumps([ids[i] for i in run.representatives[c]], ensure_ascii=False),
             "" if np.isnan(coherence[c]) else f"{coherence[c]:.4f}"]
            + ([] if overlap is None else [int(overlap[c])])
            for c in range(run.n_clusters))
    paths.append(write_csv(outdir / "clusters.csv",
                           ["cluster", "size", "top_keywords", "representative_documents",
                            "coherence"]
                           + ([] if overlap is None else ["documents_with_segments"]), rows))
    paths.append(write_memberships(outdir / "memberships.npz", run.memberships, ids))
    unassigned = run.unassigned
    if unassigned.size:
        reason = run.diagnostics.get("unassigned", {}).get("reason", "")
        paths.append(write_csv(outdir / "unassigned.csv", ["id", "reason"],
                               ([ids[i], reason] for i in unassigned)))
    if run.saved_model is not None:
        paths.append(save(run.saved_model, outdir / "model"))
    record = run_record(run)
    record["model"] = "model" if run.saved_model is not None else None
    if run.saved_model is None:
        record["no_model_because"] = why_no_model(run)
    paths.append(write_json(outdir / "run.json", record))
    shares = overlaps(run.model, run.memberships, labels)
    if shares is not None:
        # one row per (document, cluster) for methods that let a document sit in several;
        # the documents placed by docnmf assign too
        rows = ([ids[i], int(c), f"{run.memberships[i, c]:.6f}"]
                for i, c in zip(*np.nonzero(shares)))
        paths.append(write_csv(outdir / "overlapping.csv", ["id", "cluster", "share"], rows))
    if run.metrics is not None:
        paths.append(write_json(outdir / "metrics.json", run.metrics))
    if report:
        paths += _write_report_files(run, outdir)
    return paths


def why_no_model(run: ClusterRun) -> str:
    """Why ``run`` saved no model that places new texts."""
    if "assign_s" in run.timings:
        return ("it holds documents placed by docnmf assign, which saves no model: give the "
                "model they were placed with (the folder docnmf cluster wrote)")
    if run.corpus.texts is None:
        return "the corpus is a count matrix, and a saved model places texts"
    spec = METHODS.get(run.method)
    if spec is not None and not spec.places_new_documents:
        able = ", ".join(m for m, s in METHODS.items() if s.places_new_documents)
        return f"{run.method} cannot place new documents (methods that can: {able})"
    return run.model._placement_blocker() or "this model cannot place new documents"


def _write_report_files(run: ClusterRun, outdir: Path) -> list[Path]:
    """report_data.json, then report.html built from the folder."""
    t0 = time.perf_counter()
    paths = [write_json(outdir / "report_data.json", collect_report_data(run))]
    paths.append(write_report(outdir))
    # the folder is published after the last file: name the page, not a path that may not exist
    logger.info("report made in %.1fs (report.html)", time.perf_counter() - t0)
    return paths


def write_memberships(path: str | Path, memberships: np.ndarray, ids) -> Path:
    """``memberships`` (documents x clusters) and the document ``ids`` as an NPZ of plain arrays.

    Read it with ``np.load(path)`` (no pickles: ``allow_pickle=False`` works):
    keys ``memberships`` and ``ids``.
    """
    buf = io.BytesIO()
    np.savez_compressed(buf, memberships=np.asarray(memberships, dtype=np.float64),
                        ids=np.array([str(i) for i in ids], dtype=str))
    return atomic_write_bytes(path, buf.getvalue())


def format_summary(run: ClusterRun, n_keywords: int = 8) -> str:
    """A plain-text table of clusters: size, keywords, representative documents, and scores."""
    replaced = run.diagnostics.get("replaced")
    if "fit_s" not in run.timings:
        took = f"placed in {run.timings.get('assign_s', 0):.2f}s"
    elif replaced:     # the time of the fit it replaced counts too
        took = (f"fit {run.timings['fit_s']:.2f}s, after {replaced['fit_s']:.2f}s of "
                f"{replaced['method']}")
    else:
        took = f"fit {run.timings['fit_s']:.2f}s"
    title = (f"{run.method} on {run.corpus.metadata.get('name', 'corpus')}: "
             f"{diagnostics.documents_phrase(run.X.shape[0])}, {run.X.shape[1]} "
             f"term{'s' if run.X.shape[1] != 1 else ''}, k={run.n_clusters} ({took})")
    representatives = [[run.corpus.ids[i] for i in reps] for reps in run.representatives]
    unassigned = None
    if run.unassigned.size:
        unassigned = (run.unassigned.size,
                      run.diagnostics.get("unassigned", {}).get("reason", ""))
    return cluster_table(title, run.sizes, run.keywords, representatives, run.metrics,
                         n_keywords, unassigned=unassigned, with_segments=run.with_segments)


def _docs(n: int) -> str:
    # "1 docs" was printed; "doc " keeps the columns of the table aligned
    return "doc " if n == 1 else "docs"


def cluster_table(title: str, sizes, keywords: list[list[str]],
                  representatives: list[list[str]], metrics: dict[str, Any] | None,
                  n_keywords: int = 8, unassigned: tuple[int, str] | None = None,
                  with_segments=None) -> str:
    """The summary's lines: a title, each cluster's size, keywords and example ids, the scores.

    ``unassigned``, (count, reason), adds a line for documents left out of every cluster;
    ``with_segments``, of overlapping clusters, the documents with a share in each.
    """
    lines = [one_line(title), ""]
    for c in range(len(sizes)):
        also = "" if with_segments is None else f" ({with_segments[c]} with segments)"
        lines.append(f"cluster {c:>2}  {sizes[c]:>5} {_docs(sizes[c])}{also}  "
                     f"{', '.join(keywords[c][:n_keywords])}")
        if representatives[c]:
            lines.append(f"{'':>22}e.g. {', '.join(map(one_line, representatives[c]))}")
    if unassigned is not None:
        lines.append(f"{'':>9}{unassigned[0]:>5} {_docs(unassigned[0])}  unassigned "
                     f"({unassigned[1]})")
    if metrics is not None:
        m = metrics
        unlabelled = (f"; {m['n_unlabelled']} without a label not scored"
                      if m.get("n_unlabelled") else "")
        classes = f"{m['n_classes']} labelled class" + ("es" if m["n_classes"] != 1 else "")
        lines += ["", f"against {classes} ({diagnostics.documents_phrase(m['n_scored'])}"
                      f"{unlabelled}): accuracy {m['accuracy']:.3f}  NMI {m['nmi']:.3f}  "
                      f"purity {m['purity']:.3f}"]
    return "\n".join(lines)



