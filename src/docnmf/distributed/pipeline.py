"""From a partitioned corpus to the result folder of ``docnmf cluster``, on a Dask cluster.

The files are those of the in-memory run (:func:`docnmf.pipeline.write_run`):
``assignments.csv``, ``clusters.csv``, ``run.json`` and, for a labelled
corpus, ``metrics.json``; the assignments also come one file per partition
(``assignments/part-00000.csv``, ...), each written as soon as its partition's
labels are known, with the merged file put together from them. The client
holds one partition's assignments at a time. The folder is published whole
(:class:`docnmf.io.OutputFolder`, as the in-memory run's).

Documents left with no term after preprocessing are in no cluster (label -1,
``unassigned.csv``) and, as in memory, left out of the fit: their empty rows changed its
start (the mean NNDSVDA fills zeros with, the random draws of the SVD), and with five of
them in 20 Newsgroups the clusters (accuracy 0.44 against 0.40 in memory).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import dask
import dask.array as da
import dask.bag
import numpy as np
from distributed import Client, as_completed

from .._estimator import heaviest_columns, held_only
from ..corpus._corpus import Corpus
from ..corpus._errors import CorpusError
from ..corpus._text_io import readable_name
from ..diagnostics import (FOREIGN_SAMPLE, copies_finding, documents_phrase,
                           small_clusters_of_sizes, warning_lines)
from ..io import write_csv, write_json, writes_folder
from ..metrics import NMI_NORMALIZATION, confusion_matrix, score_all
from ..model import ClusteringModel, save
from ..pipeline import (cluster_sums, cluster_table, similarity_to_centres, software_record,
                        text_findings, weighed_out_phrase)
from ..text.boilerplate import BOILERPLATE_SAMPLE
from ..text.coherence import keyword_cooccurrence, npmi_from_counts
from ..corpus.readers import note_tagged, warn_skipped
from .corpus import PartitionedCorpus, _read_notes, _text_digests, _text_sample, digests
from ._rows import DistributedFitError, Unrecoverable, add_tree, gather
from .estimator import DaskNMFClustering
from .text import DaskVectorizer

__all__ = ["DASK_METHODS", "PartitionedRun", "cluster_partitioned", "format_partitioned_summary",
           "write_partitioned_run"]

logger = logging.getLogger(__name__)

#: The methods the Dask path runs, and the NMFClustering parameters each name stands for.
DASK_METHODS = {"nmf": {"weighting": "none"}, "nmf-ncw": {"weighting": "ncw"}}


@dataclass
class PartitionedRun:
    """What a clustering run on the cluster produced: the model and per-partition summaries."""

    corpus: PartitionedCorpus
    method: str
    n_clusters: int
    model: DaskNMFClustering
    vectorizer: DaskVectorizer
    meta: list          # futures: (ids, first labels) of each partition
    feature_names: np.ndarray
    keywords: list[list[str]]
    sizes: np.ndarray
    representatives: list[list[str]]
    metrics: dict[str, Any] | None
    params: dict[str, Any]
    client: Client
    timings: dict[str, Any] = field(default_factory=dict)
    labels: list = field(default_factory=list)          # futures: each partition's labels
    unassigned: list[str] = field(default_factory=list)  # ids of documents in no cluster
    coherence: np.ndarray | None = None                  # NPMI of each cluster's keywords
    diagnostics: dict[str, Any] = field(default_factory=dict)   # as the in-memory run's
    memberships: list = field(default_factory=list)     # delayed: each partition's memberships


def _texts(part: Corpus) -> list[str]:
    return part.texts


def _meta(part: Corpus) -> tuple[list[str], list[str]]:
    """A partition's ids and each document's labels joined by ``|`` ("" when unlabelled)."""
    return part.ids, ["|".join(labels) for labels in part.labels]


def _id_digests(meta) -> np.ndarray:
    """The digest of each id of a partition (:func:`~docnmf.distributed.corpus.digests`)."""
    return digests(meta[0])


def _ids_at(meta, at: Sequence[int]) -> list[str]:
    return [meta[0][i] for i in at]


def _copies(found: Sequence[np.ndarray], meta, client: Client) -> dict[str, Any]:
    """The diagnostics report's entry on documents repeating another exactly, from the digests
    of each partition's texts (:func:`~docnmf.distributed.corpus._text_digests`): the groups
    ordered as :func:`docnmf.diagnostics.duplicate_groups` orders them, their first ids
    fetched from the partitions' ``meta``."""
    every = np.concatenate(found) if found else np.zeros(0, dtype=np.uint64)
    values, first, inverse, counts = np.unique(every, return_index=True, return_inverse=True,
                                               return_counts=True)
    repeated = np.flatnonzero((counts > 1) & (values != 0))
    if not len(repeated):
        return copies_finding([], [])
    order = repeated[np.lexsort((first[repeated], -counts[repeated]))]
    shown = [np.flatnonzero(inverse == g)[:5] for g in order[:20]]
    starts = np.cumsum([0] + [len(f) for f in found])
    wanted: dict[int, list[int]] = {}
    for i in np.concatenate(shown):
        p = int(np.searchsorted(starts, i, side="right")) - 1
        wanted.setdefault(p, []).append(int(i - starts[p]))
    fetched = gather(client, [client.submit(_ids_at, meta[p], at, pure=False)
                              for p, at in wanted.items()], "the copies' ids")
    ids = {int(starts[p] + i): doc_id for (p, at), names in zip(wanted.items(), fetched)
           for i, doc_id in zip(at, names)}
    return copies_finding(counts[order].tolist(),
                          [[ids[int(i)] for i in members] for members in shown])


def _ids_of(meta, digest: int) -> list[str]:
    return [i for i, d in zip(meta[0], _id_digests(meta)) if int(d) == digest]


def _check_unique_ids(corpus: PartitionedCorpus, meta: list, client: Client) -> None:
    """A CorpusError naming an id that two documents share, as the in-memory reader's (each
    file is checked as it is read; this looks across them)."""
    digests = gather(client, [client.submit(_id_digests, m, pure=False) for m in meta],
                     "checking the ids")
    values, counts = np.unique(np.concatenate(digests or [np.zeros(0, np.uint64)]),
                               return_counts=True)
    for digest in map(int, values[counts > 1]):
        where = [p for p, d in enumerate(digests) if (d == digest).any()]
        ids = gather(client, [client.submit(_ids_of, meta[p], digest, pure=False)
                              for p in where], "checking the ids")
        seen: dict[str, int] = {}
        for p, found in zip(where, ids):
            for doc_id in found:
                if doc_id in seen:       # not two ids of one digest (1 in 2^64 pairs)
                    names = list(dict.fromkeys(corpus.part_names[q] for q in (seen[doc_id], p)))
                    raise CorpusError(
                        f"duplicate document id {doc_id!r} across the files ({', '.join(names)})"
                        if len(names) > 1 else
                        f"duplicate document id {doc_id!r} in {names[0]}")
                seen[doc_id] = p


class TooFewDocuments(CorpusError):
    """More clusters were asked for than the corpus has documents."""

    def __init__(self, n_clusters: int, n_docs: int):
        super().__init__(f"{n_clusters} clusters need at least as many documents, and the "
                         f"corpus has {documents_phrase(n_docs)}")
        self.n_clusters, self.n_docs = n_clusters, n_docs


#: Why a document is in no cluster (the in-memory pipeline's reason).
EMPTY_REASON = "no index term left after preprocessing"


def _with_terms(X_p) -> int:
    """How many of a block's documents hold a stored term."""
    return int(np.count_nonzero(np.diff(X_p.indptr)))


def _with_terms_only(X_p):
    """A block's rows that hold a stored term: the documents the fit sees, as in memory."""
    return X_p[np.flatnonzero(np.diff(X_p.indptr))]


def _assigned(labels: np.ndarray | None, X_p) -> np.ndarray:
    """A block's labels from those of its documents with terms (None: it has none), -1 for the
    others (the in-memory run leaves them out of every cluster: nothing places them)."""
    out = np.full(X_p.shape[0], -1, dtype=np.intp)
    if labels is not None:
        out[np.diff(X_p.indptr) > 0] = labels
    return out


def _memberships(memberships: np.ndarray | None, labels: np.ndarray, k: int) -> np.ndarray:
    """A block's memberships from those of its documents with terms (those with a cluster in
    its ``labels``, from :func:`_assigned`), 0 for the others."""
    out = np.zeros((len(labels), k))
    if memberships is not None:
        out[labels >= 0] = memberships
    return out


def _strength(labels: np.ndarray, memberships: np.ndarray) -> np.ndarray:
    return np.where(labels >= 0, memberships[np.arange(len(labels)), np.maximum(labels, 0)], 0.0)


def _summary(labels: np.ndarray, memberships: np.ndarray, meta, X_p, centroids: np.ndarray,
             part: int, k: int, n_rep: int):
    """Sizes, strongest members, the class x cluster counts, the unassigned documents (ids,
    and how many of them are labelled), the unlabelled documents and the assigned ones with
    several labels, of one partition.

    The strongest members are ranked as :func:`docnmf._estimator.representative_documents`
    ranks them: membership, then the similarity to the cluster's centre, then the order.
    """
    ids, labels_text = meta
    strength = _strength(labels, memberships)
    tie = similarity_to_centres(X_p, labels, centroids)
    best = []
    for c in range(k):
        members = np.flatnonzero(labels == c)
        order = members[np.lexsort((members, -tie[members], -strength[members]))[:n_rep]]
        best.append([(float(strength[i]), float(tie[i]), part, int(i), ids[i]) for i in order])
    table: dict[str, np.ndarray] = {}
    for text, c in zip(labels_text, labels):
        if text and c >= 0:
            table.setdefault(text.split("|")[0], np.zeros(k, dtype=np.int64))[c] += 1
    unassigned = np.flatnonzero(labels < 0)
    return (np.bincount(labels[labels >= 0], minlength=k), best, table,
            [ids[i] for i in unassigned], sum(bool(labels_text[i]) for i in unassigned),
            sum(not text for text in labels_text),
            sum("|" in text and c >= 0 for text, c in zip(labels_text, labels)))


def _rows(labels: np.ndarray, memberships: np.ndarray, meta) -> list[list]:
    ids, labels_text = meta
    strength = _strength(labels, memberships)
    return [[ids[i], int(labels[i]), f"{strength[i]:.6f}", labels_text[i]]
            for i in range(len(labels))]


def _scores(table: dict[str, np.ndarray], unassigned: int = 0, unlabelled: int = 0,
            multi_label: int = 0) -> dict[str, Any] | None:
    """score_labels' numbers from the class x cluster counts (the same functions, on expanded
    counts); ``unassigned`` labelled documents in no cluster are left out and counted, as are
    the ``unlabelled`` documents; ``multi_label`` scored documents had several labels."""
    if not table:
        return None
    classes = sorted(table)
    C = np.array([table[c] for c in classes])
    k = C.shape[1]
    y_true = np.repeat(np.repeat(np.array(classes, dtype=object), k), C.ravel())
    y_pred = np.repeat(np.tile(np.arange(k), len(classes)), C.ravel())
    out: dict[str, Any] = score_all(y_true, y_pred)
    counts, names, clusters = confusion_matrix(y_true, y_pred)
    out.update({"nmi_normalization": NMI_NORMALIZATION, "n_scored": int(C.sum()),
                "n_classes": len(classes),
                "multi_label_documents": int(multi_label),
                "confusion": {"classes": names.tolist(), "clusters": clusters.tolist(),
                              "counts": counts.tolist()}})
    if unassigned:
        out["n_unassigned"] = int(unassigned)
        out["accuracy_all_documents"] = out["accuracy"] * out["n_scored"] / (
            out["n_scored"] + unassigned)
    if unlabelled:
        out["n_unlabelled"] = int(unlabelled)
    return out


#: Partitions under this many documents on average, and more of them than this many per
#: worker thread, spend an iteration scheduling tasks rather than computing them.
SMALL_PARTITION_DOCS, PARTITIONS_PER_THREAD = 100, 4


def _warn_small_partitions(n_docs: int, n_partitions: int, client: Client) -> None:
    """Say when the partitions are too many and too small for the cluster to be quick: each
    iteration runs several tasks per partition (600 partitions of one document each took 86 s
    where 6 of 100 took 6.0 s, on a local cluster of 2 workers, its start included)."""
    threads = max(1, sum(client.nthreads().values()))
    if n_partitions > PARTITIONS_PER_THREAD * threads and n_docs < SMALL_PARTITION_DOCS * n_partitions:
        mean = n_docs / n_partitions
        logger.warning("%d partitions of %.3g document%s on average, for %d worker thread%s: "
                       "each iteration runs tasks per partition, and tasks this small spend "
                       "their time being scheduled; fewer, larger partitions are faster "
                       "(--files-per-partition, or larger CSV/JSONL files)", n_partitions,
                       mean, "" if mean == 1 else "s", threads, "s" if threads != 1 else "")


def cluster_partitioned(corpus: PartitionedCorpus, n_clusters: int, method: str = "nmf-ncw", *,
                        client: Client, random_state: int | None = 0,
                        estimator_params: dict | None = None,
                        vectorizer_params: dict | None = None, n_keywords: int = 10,
                        n_representatives: int = 3) -> PartitionedRun:
    """Vectorize ``corpus`` and cluster it with ``method`` on the cluster of ``client``.

    Parameters as :func:`docnmf.pipeline.cluster_corpus`; ``method`` is one of
    :data:`DASK_METHODS`.
    """
    if method not in DASK_METHODS:
        raise ValueError(f"the Dask path runs {', '.join(DASK_METHODS)}, not {method}")
    timings: dict[str, Any] = {}
    t0 = time.perf_counter()
    # ids and labels are kept; the texts are read again for counting, from the same graph, so
    # a block of X lost with a worker can be recomputed from the files (its lineage)
    n_parts = len(corpus.parts)
    # a sample of the texts for the diagnostics that read them, as many as in memory
    per_part = -(-max(BOILERPLATE_SAMPLE, FOREIGN_SAMPLE) // max(n_parts, 1))
    read = client.compute([dask.delayed(_meta)(p) for p in corpus.parts]
                          + [dask.delayed(_read_notes)(p) for p in corpus.parts]
                          + [dask.delayed(_text_sample)(p, per_part) for p in corpus.parts]
                          + [dask.delayed(_text_digests)(p) for p in corpus.parts])
    meta = read[:n_parts]
    # binary files are found as the workers read them: named, as read_folder names them; and
    # what the readers said there is said here, once
    notes = gather(client, read[n_parts:2 * n_parts], "reading the files")
    sample = gather(client, read[2 * n_parts:3 * n_parts], "reading the files")
    copies = _copies(gather(client, read[3 * n_parts:], "reading the files"), meta, client)
    binary = sorted(s for skipped, *_ in notes for s in skipped)
    for message in dict.fromkeys(m for _, said, *_ in notes for m in said):
        warnings.warn(message, UserWarning, stacklevel=2)
    warn_skipped(Path(corpus.source), binary, "run.json")
    note_tagged(Path(corpus.source), sum(n[2] for n in notes), sum(n[3] for n in notes),
                sum(n[4] for n in notes))
    corpus.skipped = sorted(set(corpus.skipped) | set(binary))     # once, if run again
    if not sum(n[3] for n in notes):     # as in memory (not "empty after preprocessing")
        raise CorpusError("the corpus has no documents")
    if n_clusters > sum(n[3] for n in notes):    # as in memory, before any vectorizing
        raise TooFewDocuments(n_clusters, sum(n[3] for n in notes))
    _check_unique_ids(corpus, meta, client)
    texts = dask.bag.from_delayed([dask.delayed(_texts)(p) for p in corpus.parts])
    vectorizer = DaskVectorizer(client=client, **(vectorizer_params or {}))
    X = vectorizer.fit_transform(texts)
    # a partition without documents (a CSV part of a header only) is no block of X
    meta = [m for m, rows in zip(meta, vectorizer.partition_rows_) if rows]
    sources = [name for name, rows in zip(corpus.part_names, vectorizer.partition_rows_) if rows]
    emptied = [name for name, rows in zip(corpus.part_names, vectorizer.partition_rows_)
               if not rows]
    if emptied:     # the part files number the others: said, and in run.json part by part
        logger.warning("%d of the %d partitions %s no documents (%s): assignments/ has a "
                       "part file for each of the others, in order (run.json's "
                       "partition_sources)", len(emptied), len(corpus.part_names),
                       "holds" if len(emptied) == 1 else "hold",
                       ", ".join(emptied[:5]) + (" ..." if len(emptied) > 5 else ""))
    timings["vectorize_s"] = time.perf_counter() - t0
    logger.info("%d documents x %d terms in %d partition%s (%.1fs)", vectorizer.n_docs_,
                X.shape[1], X.numblocks[0], "s" if X.numblocks[0] != 1 else "",
                timings["vectorize_s"])
    _warn_small_partitions(vectorizer.n_docs_, X.numblocks[0], client)
    # as in memory: documents without a term are left out, and the rest must fill k clusters
    with_terms = gather(client, client.compute([dask.delayed(_with_terms)(x)
                                                for x in X.to_delayed().ravel()]),
                        "counting the documents with terms")
    active = sum(with_terms)
    if active < n_clusters:
        # a term of idf 0 is in every document: each document without a weight holds one
        weighed_out = (int(X.shape[0]) - active
                       if vectorizer.idf == "xu" and not np.all(vectorizer.idf_) else 0)
        raise CorpusError(f"only {active} of the {int(X.shape[0])} documents have index terms "
                          f"left after preprocessing; {n_clusters} clusters need at least as "
                          f"many{weighed_out_phrase(weighed_out)}")
    if n_clusters > X.shape[1]:     # as in memory: more topics than terms leave some empty
        raise CorpusError(f"{n_clusters} clusters need at least as many index terms with "
                          f"{method}, and preprocessing left {X.shape[1]}: ask for fewer "
                          "clusters or keep more terms (--min-df, --max-df, --max-features)")
    params = {**DASK_METHODS[method], **(estimator_params or {})}
    model = DaskNMFClustering(n_clusters, random_state=random_state, client=client, **params)
    blocks = X.to_delayed().ravel()
    fitted = X if active == X.shape[0] else da.concatenate([
        da.from_delayed(dask.delayed(_with_terms_only)(x), shape=(n, X.shape[1]),
                        dtype=X.dtype, meta=X._meta)
        for x, n in zip(blocks, with_terms) if n])
    for attempt in range(model.retries + 1):
        t0 = time.perf_counter()
        model.fit(fitted)
        timings["fit_s"] = time.perf_counter() - t0
        # each block's results for its documents with terms, those of a block without any
        # None; the labels as futures, so that they outlive X (released after this function)
        found = iter(zip(model.labels_.to_delayed().ravel(),
                         model.memberships_.to_delayed().ravel()))
        fits = [next(found) if n else (None, None) for n in with_terms]
        labels = client.compute([dask.delayed(_assigned)(lab, x)
                                 for (lab, _), x in zip(fits, blocks)])
        memberships = [dask.delayed(_memberships)(mem, lab, n_clusters)
                       for (_, mem), lab in zip(fits, labels)]
        try:
            # the clusters' centres, for the representatives' tie-break (as in memory)
            sums = client.compute([dask.delayed(cluster_sums)(x, lab, n_clusters)
                                   for x, lab in zip(blocks, labels)])
            centroids = gather(client, add_tree(client, sums), "the clusters' centres")
            del sums
            centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-300)
            [centres] = client.scatter([centroids], hash=False)
            summaries = gather(client, client.compute(
                [dask.delayed(_summary)(lab, mem, m, x, centres, p, n_clusters,
                                        n_representatives)
                 for p, (lab, mem, m, x) in enumerate(zip(labels, memberships, meta, blocks))]),
                "summarizing the clusters")
            break
        except Unrecoverable:
            raise
        except DistributedFitError:
            # a worker died as the fit ended, taking blocks of its results along
            if attempt == model.retries:
                raise
            logger.warning("the fit's results were lost with a worker; fitting again")
    timings["init_s"] = model.init_time_
    timings["iterations_s"] = model.iteration_times_.tolist()
    names = vectorizer.readable_feature_names()
    sizes = np.sum([s[0] for s in summaries], axis=0)
    representatives = []
    for c in range(n_clusters):
        best = sorted((item for s in summaries for item in s[1][c]),
                      key=lambda x: (-x[0], -x[1], x[2], x[3]))
        representatives.append([item[-1] for item in best[:n_representatives]])
    table: dict[str, np.ndarray] = {}
    for s in summaries:
        for name, counts in s[2].items():
            table[name] = table.get(name, 0) + counts
    unassigned = [doc_id for s in summaries for doc_id in s[3]]
    # the in-memory run's findings but those that need the whole matrix (small groups of
    # documents sharing no term with the rest); those on the texts from a sample of them
    report = {
        "unassigned": {"count": len(unassigned), "ids": unassigned, "reason": EMPTY_REASON},
        "small_clusters": small_clusters_of_sizes(sizes, representatives),
        "duplicates": copies,
        **text_findings([t for _, texts in sample for t in texts],
                        [i for ids, _ in sample for i in ids], vectorizer_params,
                        n_documents=vectorizer.n_docs_)}
    del sample
    for line in warning_lines(report, method):
        logger.warning("%s", line)
    metrics = _scores(table, sum(s[4] for s in summaries), sum(s[5] for s in summaries),
                      sum(s[6] for s in summaries))
    # as in memory: of a cluster with documents, the words some of them hold (its centre's)
    columns = heaviest_columns(held_only(model._keyword_weights(), centroids > 0), n_keywords)
    counts = gather(client, client.compute([dask.delayed(keyword_cooccurrence)(x, columns)
                                            for x in X.to_delayed().ravel()]),
                    "the keywords' coherence")
    coherence = npmi_from_counts([sum(c[t] for c in counts) for t in range(n_clusters)],
                                 int(X.shape[0]))
    run_params = {"method": method, "n_clusters": n_clusters, "random_state": random_state,
                  "estimator": {k: v for k, v in model.get_params().items() if k != "client"},
                  "vectorizer": vectorizer_params or {}, "n_docs": int(X.shape[0]),
                  "n_terms": int(X.shape[1]), "empty_documents": len(unassigned),
                  "partitions": int(X.numblocks[0]),
                  # what each part file of assignments/ was read from
                  "partition_sources": {f"part-{p:05d}.csv": name
                                        for p, name in enumerate(sources)},
                  "workers": len(client.scheduler_info()["workers"]),
                  "dashboard": client.dashboard_link}
    return PartitionedRun(corpus, method, n_clusters, model, vectorizer, meta, names,
                          [[str(names[j]) for j in cols] for cols in columns], sizes,
                          representatives,
                          metrics, run_params, client, timings, labels, unassigned, coherence,
                          report, memberships)


def _record(run: PartitionedRun) -> dict[str, Any]:
    import distributed

    model = run.model
    return {
        **software_record(dask=dask.__version__, distributed=distributed.__version__),
        # names as the in-memory record writes them: bytes not UTF-8 as \xNN
        "corpus": {"name": readable_name(run.corpus.name),
                   "source": readable_name(str(run.corpus.source)),
                   # as the in-memory run's record: where the input is, and how it was read
                   **({"path": readable_name(run.corpus.path)}
                      if getattr(run.corpus, "path", None) else {}),
                   **({"reader_options": run.corpus.reader_options}
                      if getattr(run.corpus, "reader_options", None) else {}),
                   "n_documents": run.params["n_docs"],
                   **({"skipped": run.corpus.skipped} if run.corpus.skipped else {})},
        "parameters": run.params,
        "seed": run.params.get("random_state"),
        "objective": model.objective_,
        "objective_history": model.loss_history_,
        "restart_objectives": model.restart_objectives_,
        "n_iter": model.n_iter_,
        "timings": run.timings,
        "cluster_sizes": run.sizes,
        "metrics": run.metrics,
        "diagnostics": run.diagnostics,
    }


@writes_folder
def write_partitioned_run(run: PartitionedRun, outdir: str | os.PathLike) -> list[Path]:
    """Write the result folder; the assignments stream in partition by partition.

    The folder is published whole (:class:`docnmf.io.OutputFolder`), as the
    in-memory :func:`docnmf.pipeline.write_run`'s.
    """
    outdir = Path(outdir)
    t0 = time.perf_counter()
    logger.info("writing the assignments of %d partition%s", len(run.labels),
                "s" * (len(run.labels) != 1))
    labelled = run.metrics is not None
    header = ["id", "cluster", "membership"] + (["label"] if labelled else [])
    client = run.client
    futures = client.compute([dask.delayed(_rows)(lab, mem, m) for lab, mem, m
                              in zip(run.labels, run.memberships, run.meta)])
    index = {f.key: p for p, f in enumerate(futures)}
    parts = outdir / "assignments"
    for future in as_completed(futures):
        p = index[future.key]
        rows = gather(client, future, "writing the assignments")
        future.release()
        write_csv(parts / f"part-{p:05d}.csv", header,
                  (row if labelled else row[:3] for row in rows))
    with open(outdir / "assignments.csv", "w", encoding="utf-8", newline="") as out:
        out.write(",".join(header) + "\n")
        for p in range(len(futures)):
            with open(parts / f"part-{p:05d}.csv", encoding="utf-8") as part:
                next(part)
                shutil.copyfileobj(part, out)
    coherence = run.coherence if run.coherence is not None else np.full(run.n_clusters, np.nan)
    rows = ([c, int(run.sizes[c]), " ".join(run.keywords[c]),
             json.dumps(run.representatives[c], ensure_ascii=False),
             "" if np.isnan(coherence[c]) else f"{coherence[c]:.4f}"]
            for c in range(run.n_clusters))
    write_csv(outdir / "clusters.csv", ["cluster", "size", "top_keywords",
                                        "representative_documents", "coherence"], rows)
    if run.unassigned:
        write_csv(outdir / "unassigned.csv", ["id", "reason"],
                  ([doc_id, EMPTY_REASON] for doc_id in run.unassigned))
    run.timings["write_s"] = time.perf_counter() - t0
    write_json(outdir / "run.json", _record(run))
    if run.metrics is not None:
        write_json(outdir / "metrics.json", run.metrics)
    # the topics and the vocabulary place new documents one by one, as in memory
    # (docnmf assign): the model is the in-memory one the fit stands for
    info = {"corpus": run.corpus.name, "n_documents": run.params["n_docs"],
            "fitted_documents": run.params["n_docs"] - run.params["empty_documents"],
            "vectorizer": run.params["vectorizer"]}
    save(ClusteringModel(run.model._in_memory(), run.vectorizer._in_memory(), run.method, info),
         outdir / "model")
    names = ["assignments.csv", "assignments", "clusters.csv", "model", "run.json"] + \
        (["unassigned.csv"] if run.unassigned else []) + \
        (["metrics.json"] if run.metrics is not None else [])
    return [outdir / name for name in names]


def format_partitioned_summary(run: PartitionedRun, n_keywords: int = 8) -> str:
    """The in-memory run's plain-text table, from the per-partition summaries."""
    title = (f"{run.method} on {run.corpus.name}: {run.params['n_docs']} documents, "
             f"{run.params['n_terms']} terms, k={run.n_clusters}, {run.params['partitions']} "
             f"partition{'s' * (run.params['partitions'] != 1)} on {run.params['workers']} "
             f"worker{'s' * (run.params['workers'] != 1)} ({run.timings['fit_s']:.2f}s)")
    unassigned = (len(run.unassigned), EMPTY_REASON) if run.unassigned else None
    return cluster_table(title, run.sizes, run.keywords, run.representatives, run.metrics,
                         n_keywords, unassigned=unassigned)

