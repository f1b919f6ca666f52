"""The report's data of a clustering run, as plain JSON: written once beside the CSV files so
that ``docnmf report OUTDIR`` can rebuild ``report.html`` from the folder alone."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..text.posts import body_of, post_subject
from .data import (MAP_MAX_DOCUMENTS, cluster_similarity, distinguishing_terms, map_layout,
                   map_sample, snippet)

__all__ = ["REPORT_DATA_FORMAT", "collect_report_data"]


#: Version of the layout of ``report_data.json``.
REPORT_DATA_FORMAT = 1

_SNIPPET = 240          # characters of a representative document's text
_MAP_SNIPPET = 100      # characters of a map point's text (shown on hover and in search)


def _readable(text: str) -> str:
    """``text`` as :func:`_document_text` shows it: every 20 Newsgroups snippet and map label
    began "From: nfotis@ntua.gr (Nick C. Fotis) Subject: ... Lines: 1566"."""
    if not isinstance(text, str):
        return text
    body = body_of(text)
    if body is text:
        return text
    subject = post_subject(text)
    return " — ".join(part for part in (subject, body.strip()) if part) or text


def _document_text(run, i: int, length: int) -> str:
    """The start of document ``i`` as a reader sees it (a post's subject and its own words, not
    its header block, quotes or signature; a web page's text, not its markup); for a count
    matrix, its heaviest terms."""
    texts = run.corpus.texts
    if texts is not None:
        return snippet(_readable(texts[i]), length)
    row = run.X.getrow(i)
    order = np.argsort(-row.data, kind="stable")[:12]
    return "terms: " + " ".join(str(run.feature_names[row.indices[j]]) for j in order)


def collect_report_data(run, *, max_map_documents: int = MAP_MAX_DOCUMENTS) -> dict[str, Any]:
    """Everything ``report.html`` needs that the CSV/JSON result files do not hold.

    Parameters
    ----------
    run : docnmf.pipeline.ClusterRun

    Returns
    -------
    dict, fit for JSON: keywords with weights, keyword coherence, terms that
    set each cluster apart, representative documents with snippets, the
    cluster similarity matrix and the 2-D map of (a sample of) the documents.
    """
    k, ids = run.n_clusters, run.corpus.ids
    names = run.feature_names
    # documents in no cluster (nothing left to cluster them by) are listed apart, not drawn
    assigned = np.flatnonzero(run.labels >= 0)
    labels, X = run.labels[assigned], run.X[assigned]
    seed = run.params.get("random_state")
    rng = np.random.default_rng(0 if seed is None else seed)
    sample = assigned[map_sample(labels, rng, max_map_documents)]
    xy, method = map_layout(run.memberships[sample], random_state=0 if seed is None else seed)
    if len(xy):     # scaled into the unit square
        span = np.ptp(xy, axis=0)
        xy = (xy - xy.min(axis=0)) / np.where(span > 0, span, 1.0)
    distinct = distinguishing_terms(X, labels, k, 10)
    strength = run.memberships[np.arange(len(run.labels)), np.maximum(run.labels, 0)]
    coherence = run.coherence if run.coherence is not None else np.full(k, np.nan)
    clusters = []
    for c in range(k):
        clusters.append({
            "keywords": [{"term": str(names[j]), "weight": w}
                         for j, w in zip(run.keyword_columns[c], run.keyword_weights[c])],
            "coherence": None if np.isnan(coherence[c]) else float(coherence[c]),
            "distinguishing": [{"term": str(names[j]), "inside": a, "outside": b}
                               for j, a, b in distinct[c]],
            "representatives": [{"id": ids[i], "membership": float(strength[i]),
                                 "snippet": _document_text(run, i, _SNIPPET)}
                                for i in run.representatives[c]],
        })
    return {
        "format": REPORT_DATA_FORMAT,
        "keyword_weights": "the model's term weights of each cluster (topic vector or centroid)",
        "coherence_measure": "NPMI of keyword pairs, boolean co-occurrence in the corpus's "
                             "documents (Röder et al. 2015; gensim c_npmi with one window per "
                             "document)",
        "clusters": clusters,
        "similarity": {"measure": "cosine similarity of the clusters' mean documents",
                       "matrix": np.round(cluster_similarity(X, labels, k), 4)},
        "map": {"method": method, "n_documents": len(labels), "n_shown": int(len(sample)),
                "n_unassigned": int(len(run.labels) - len(assigned)),
                "sampling": ("all documents" if len(sample) == len(labels) else
                             f"{len(sample)} of {len(labels)} documents, drawn at random within "
                             "each cluster in proportion to its size (at least one each)"),
                "x": np.round(xy[:, 0], 4), "y": np.round(xy[:, 1], 4),
                "cluster": run.labels[sample], "id": [ids[i] for i in sample],
                "text": [_document_text(run, i, _MAP_SNIPPET) for i in sample]},
    }
