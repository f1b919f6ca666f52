"""The NMA paper's experiments, subset by subset: data, methods, a resumable parallel runner.

Wang, Tang & Liu, "Document clustering via matrix representation" (ICDM
2011), Section V-B. :mod:`.nma_targets` builds the paper's tables and
figures on top of this module.

Data per subset: k-means and NMF cluster the tf-idf vectors (unit length),
PLSI and LDA the raw counts, NMA the texts cut into segments (equal
sentence runs for "nma", C99 as in the paper for "nma-c99"; each subset is
cut once, not once per restart) and weighted by
:class:`~docnmf.cluster.nma.NMAClustering` itself. The vocabulary is learnt
from the subset.

Execution: the unit of work is one (data set, k, run) subset with the
settings it still lacks; ``jobs`` worker processes (default: one per CPU)
with one BLAS thread each run the subsets. Every finished record is
appended to ``results.jsonl`` (:class:`~docnmf.experiments.results.ResultsFile`),
keyed by (data set, method, k, run, l, segments, segmenter), so an
interrupted target resumes where it stopped and a rerun with more runs
reuses the earlier ones; a file made with another seed, restart count,
subset cap or LDA setting is refused. The numbers of a record depend only
on its key, the seed and the restarts, never on ``jobs`` or on order.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
import zlib
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Hashable, Iterable, Mapping, Sequence

import numpy as np

from ..corpus import load_dataset
from ..corpus._paths import data_dir
from ..methods import make_estimator
from ..metrics import purity
from ..text.segment import segment_text
from ..text.vectorize import DocumentVectorizer
from .conditions import ProtocolError
from .report import _duration
from .results import ResultsFile
from .runner import derive_seed, run_tasks

__all__ = ["NMACorpus", "SubsetTask", "Setting", "prepare_corpus", "available_datasets",
           "draw_subset", "record_key", "run_subset", "METHODS", "DATASETS", "NMA_SEGMENTERS",
           "LDA_OPTIONS", "MIN_CHARS", "LOAD_OPTIONS"]

logger = logging.getLogger(__name__)

#: Our rows: the paper's five, NMA twice (equal sentence runs, and C99 as in the paper).
METHODS = ("kmeans", "nmf", "plsi", "lda", "nma", "nma-c99")
#: How each NMA method cuts a text (:func:`docnmf.text.segment.segment_text`).
NMA_SEGMENTERS = {"nma": "sentences", "nma-c99": "c99"}
#: LDA's fitting options, spelled out so that the results header records them. Batch
#: variational Bayes runs all ``max_iter`` passes (no perplexity check). On three Newsgroup
#: k = 5 subsets, 20 passes instead of 50 cost 1.5-2.6 points of accuracy (labels at NMI
#: 0.82-0.91 to the 50-pass ones) and online learning with 10 passes 13-26 points: fewer
#: passes would handicap the baseline, so it keeps LDAClustering's 50 batch passes.
LDA_OPTIONS: dict[str, Any] = {"learning_method": "batch", "max_iter": 50}

#: The paper's data sets: (loader name, largest k the tables report, smallest class kept).
#: Reuters keeps topics of >= 10 documents: 26 topics, 1,954 documents (the paper: 26, 1,964).
DATASETS: dict[str, tuple[str, int, int]] = {
    "Newsgroup": ("20newsgroups", 5, 1), "Reuters": ("reuters21578", 5, 10),
    "Classic": ("classic3", 3, 1)}
MIN_CHARS = 1000
#: Newsgroup headers name the group (a leak of the label) and are not text: dropped, as the
#: paper's preprocessing removes "header and footer".
LOAD_OPTIONS: dict[str, dict[str, Any]] = {"20newsgroups": {"strip_headers": True}}


# --- data ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NMACorpus:
    """A corpus filtered as in Section V-B: texts, integer classes, class names."""

    name: str
    texts: tuple[str, ...]
    y: np.ndarray
    classes: tuple[str, ...]

    def summary(self) -> str:
        sizes = np.bincount(self.y, minlength=len(self.classes))
        return (f"{len(self.texts)} documents, {len(self.classes)} classes (sizes {sizes.max()} "
                f"max, {sizes.mean():.0f} mean, {sizes.min()} min)")

    @cached_property
    def fingerprint(self) -> str:
        """Document count and a CRC-32 of texts, labels and class names.

        Stored in every record, so results of another version of the corpus
        are never mixed with this one's.
        """
        crc = zlib.crc32(np.asarray(self.y, dtype=np.int64).tobytes())
        crc = zlib.crc32("\n".join(self.classes).encode("utf-8"), crc)
        for text in self.texts:
            crc = zlib.crc32(text.encode("utf-8", "surrogatepass"), crc)
        return f"{len(self.texts)}:{crc:08x}"


_CACHE: dict[tuple[str, str], NMACorpus] = {}


def prepare_corpus(name: str, data_home: str | os.PathLike | None = None) -> NMACorpus:
    """Load ``name`` (a key of :data:`DATASETS`): single-label texts of >= 1,000 characters."""
    key = (name, str(data_home))
    if key not in _CACHE:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnicodeWarning)
            loader = DATASETS[name][0]
            corpus = load_dataset(loader, data_home=data_home, **LOAD_OPTIONS.get(loader, {}))
        keep = [i for i, (t, labels) in enumerate(zip(corpus.texts, corpus.labels))
                if len(labels) == 1 and len(t) >= MIN_CHARS]
        sizes = Counter(corpus.labels[i][0] for i in keep)
        keep = [i for i in keep if sizes[corpus.labels[i][0]] >= DATASETS[name][2]]
        names = sorted({corpus.labels[i][0] for i in keep})
        code = {c: j for j, c in enumerate(names)}
        y = np.array([code[corpus.labels[i][0]] for i in keep], dtype=np.int64)
        _CACHE[key] = NMACorpus(name, tuple(corpus.texts[i] for i in keep), y, tuple(names))
    return _CACHE[key]


def available_datasets(data_home: str | os.PathLike | None = None) -> list[str]:
    root = Path(data_home) if data_home is not None else data_dir()
    paths = {"20newsgroups": "20newsgroups_bydate", "reuters21578": "reuters21578",
             "classic3": "classic4_smart"}
    return [n for n, (loader, _, _) in DATASETS.items() if os.path.exists(root / paths[loader])]


def draw_subset(data: NMACorpus, k: int, run: int, seed: int,
                max_per_class: int | None = None) -> tuple[list[str], np.ndarray, list[str]]:
    """Run ``run``'s ``k`` random classes: texts, labels 0..k-1, class names.

    ``max_per_class`` (for quick checks) keeps a random sample of each class.
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, k, run]))
    chosen = np.sort(rng.choice(len(data.classes), size=k, replace=False))
    idx = []
    for c in chosen:
        members = np.flatnonzero(data.y == c)
        if max_per_class is not None and len(members) > max_per_class:
            members = np.sort(rng.choice(members, size=max_per_class, replace=False))
        idx.append(members)
    idx = np.concatenate(idx)
    remap = {int(c): j for j, c in enumerate(chosen)}
    return ([data.texts[i] for i in idx], np.array([remap[int(data.y[i])] for i in idx]),
            [data.classes[c] for c in chosen])


# --- one subset, one method ------------------------------------------------------------------

#: (method, n_topics, n_segments): one column of a table or one point of a figure.
Setting = tuple[str, int, int]


#: This experiment's method names, as registered in :data:`docnmf.methods.METHODS`.
_REGISTERED = {"kmeans": "km", "nmf": "nmf", "plsi": "plsi", "lda": "lda"}


def _make(method: str, k: int, rs: int, n_topics: int, n_segments: int):
    options = {"n_init": 1, "random_state": rs}
    if method in NMA_SEGMENTERS:
        return make_estimator("nma", k, n_topics=n_topics, n_segments=n_segments,
                              segmenter=NMA_SEGMENTERS[method], **options)
    if method not in _REGISTERED:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    extra = LDA_OPTIONS if method == "lda" else {}
    return make_estimator(_REGISTERED[method], k, as_published=True, **extra, **options)


def _evaluate(texts: list[str], y: np.ndarray, settings: Sequence[Setting],
              k: int, run: int, seed: int, restarts: int) -> list[dict[str, Any]]:
    """Each (method, n_topics, n_segments) setting on one subset, ``restarts`` initializations.

    NMA gets the texts already cut (once per segmenter and segment count):
    the segmenters are deterministic, so the labels are those of
    ``NMAClustering(segmenter=...)`` on the raw texts, without cutting every
    text again at every restart. ``segment_seconds`` is that cut's time.
    """
    from threadpoolctl import threadpool_limits

    inputs: dict[Hashable, Any] = {}
    cut_seconds: dict[Hashable, float] = {}
    records = []
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if any(m not in NMA_SEGMENTERS for m, _, _ in settings):
            vec = DocumentVectorizer()
            inputs["tfidf"] = vec.fit_transform(texts)
            inputs["counts"] = vec.count(texts)
        for method, n_topics, n_segments in settings:
            segmenter = NMA_SEGMENTERS.get(method)
            if segmenter is None:
                source: Hashable = "tfidf" if method in ("kmeans", "nmf") else "counts"
            else:
                source = (segmenter, n_segments)
                if source not in inputs:
                    t0 = time.perf_counter()
                    inputs[source] = [segment_text(t, n_segments, method=segmenter)
                                      for t in texts]
                    cut_seconds[source] = time.perf_counter() - t0
            accs, t0 = [], time.perf_counter()
            for init in range(restarts):
                rs = derive_seed(seed, k, run, method, n_topics, n_segments, init)
                labels = _make(method, k, rs, n_topics, n_segments).fit_predict(inputs[source])
                accs.append(purity(y, labels))
            record = {"method": method, "k": k, "run": run, "n_topics": n_topics,
                      "n_segments": n_segments, "segmenter": segmenter, "n_docs": len(y),
                      "accuracy": float(np.mean(accs)), "accuracies": accs,
                      "seconds": round(time.perf_counter() - t0, 3)}
            if segmenter is not None:
                record["segment_seconds"] = round(cut_seconds[source], 3)
            records.append(record)
    return records


# --- many subsets: resumable, in parallel ----------------------------------------------------


def record_key(record: Mapping[str, Any]) -> tuple:
    """What identifies a record: (data set, method, k, run, n_topics, n_segments, segmenter).

    Examples
    --------
    >>> record_key({"dataset": "Classic", "method": "nma-c99", "k": 2, "run": 0,
    ...             "n_topics": 4, "n_segments": 3, "segmenter": "c99"})
    ('Classic', 'nma-c99', 2, 0, 4, 3, 'c99')
    """
    return (record["dataset"], record["method"], int(record["k"]), int(record["run"]),
            int(record["n_topics"]), int(record["n_segments"]), record["segmenter"])


@dataclass(frozen=True)
class SubsetTask:
    """One (data set, k, run) subset and the settings to run on it: the unit of work."""

    dataset: str
    k: int
    run: int
    settings: tuple[Setting, ...]

    def record_keys(self) -> list[tuple]:
        return [(self.dataset, m, self.k, self.run, ell, c, NMA_SEGMENTERS.get(m))
                for m, ell, c in self.settings]


def run_subset(data: Mapping[str, NMACorpus], task: SubsetTask, *, seed: int, restarts: int,
               max_per_class: int | None = None) -> list[dict[str, Any]]:
    """The records of ``task``'s settings on its subset (``draw_subset`` then every setting)."""
    corpus = data[task.dataset]
    texts, y, classes = draw_subset(corpus, task.k, task.run, seed, max_per_class)
    return [{"dataset": task.dataset, **r, "classes": classes, "corpus": corpus.fingerprint}
            for r in _evaluate(texts, y, task.settings, task.k, task.run, seed, restarts)]


def _subset_in(context, task: SubsetTask) -> list[dict[str, Any]]:
    data, seed, restarts, max_per_class = context
    return run_subset(data, task, seed=seed, restarts=restarts, max_per_class=max_per_class)


def _execute(tasks: list[SubsetTask], data: Mapping[str, NMACorpus], seed: int, restarts: int,
             max_per_class: int | None, jobs: int | None
             ) -> Iterable[tuple[SubsetTask, list[dict[str, Any]]]]:
    """Yield every task with its records as it finishes, in this process or in a pool."""
    needed = {t.dataset: data[t.dataset] for t in tasks}
    return run_tasks(_subset_in, tasks, (needed, seed, restarts, max_per_class), jobs=jobs,
                     describe=lambda t: f"{t.dataset} k={t.k} run {t.run}")


@dataclass
class _Outcome:
    """The planned records (reused and new, sorted by key) and what this call did."""

    records: list[dict[str, Any]]
    n_reused: int
    n_computed: int
    elapsed: float


def _result_params(target: str, seed: int, restarts: int, max_per_class: int | None
                   ) -> dict[str, Any]:
    """What a ``results.jsonl`` must agree on to be resumed (data sets, k and runs may grow)."""
    return {"target": target, "seed": int(seed), "restarts": int(restarts),
            "max_per_class": max_per_class, "min_chars": MIN_CHARS,
            "load_options": LOAD_OPTIONS, "lda": LDA_OPTIONS}


def _run_plan(outdir: Path, target: str, data: Mapping[str, NMACorpus], plan: list[SubsetTask],
              *, seed: int, restarts: int, max_per_class: int | None,
              jobs: int | None) -> _Outcome:
    """Compute the settings of ``plan`` missing from ``outdir/results.jsonl``, appending each.

    Raises
    ------
    ProtocolError
        When the file was made with other parameters, or a reused record
        was computed on another version of a corpus.
    """
    t0 = time.perf_counter()
    params = _result_params(target, seed, restarts, max_per_class)
    with ResultsFile(outdir / "results.jsonl", params, key=record_key) as store:
        done = {}
        for record in store.open():
            corpus = data.get(record["dataset"])
            if corpus is not None and record.get("corpus") != corpus.fingerprint:
                raise ProtocolError(
                    f"{store.path} holds {record['dataset']} results computed on another "
                    f"version of that corpus ({record.get('corpus')} there, "
                    f"{corpus.fingerprint} now); use another output folder")
            done[record_key(record)] = record
        todo = []
        for task in plan:
            missing = tuple(s for s, key in zip(task.settings, task.record_keys())
                            if key not in done)
            if missing:
                todo.append(SubsetTask(task.dataset, task.k, task.run, missing))
        n_planned = sum(len(t.settings) for t in plan)
        n_todo = sum(len(t.settings) for t in todo)
        if n_planned > n_todo:
            logger.info("%s: reusing %d of %d records; %d subsets to compute", store.path,
                        n_planned - n_todo, n_planned, len(todo))
        # documents x settings: the work of a subset, for the ETA and to start the largest
        # subsets first (fewer idle workers at the end)
        work = {t: len(draw_subset(data[t.dataset], t.k, t.run, seed, max_per_class)[1])
                * len(t.settings) for t in todo}
        todo.sort(key=lambda t: -work[t])
        progress = _Progress(work)
        for task, records in _execute(todo, data, seed, restarts, max_per_class, jobs):
            for record in records:
                store.append(record)
                done[record_key(record)] = record
            progress.step(task, records)
    records = sorted((done[key] for task in plan for key in task.record_keys()),
                     key=lambda r: (*record_key(r)[:-1], r["segmenter"] or ""))
    return _Outcome(records, n_planned - n_todo, n_todo, time.perf_counter() - t0)


class _Progress:
    """One line per finished subset on the ``docnmf`` logger: count, accuracies, ETA.

    The ETA scales the time so far by the work left, counted in documents x settings.
    """

    def __init__(self, work: Mapping[SubsetTask, int]):
        self.work, self.total = work, max(sum(work.values()), 1)
        self.done, self.done_work, self.t0 = 0, 0, time.perf_counter()

    def step(self, task: SubsetTask, records: list[dict[str, Any]]) -> None:
        self.done += 1
        self.done_work += self.work[task]
        elapsed = time.perf_counter() - self.t0
        eta = elapsed / max(self.done_work, 1) * (self.total - self.done_work)
        scores = ", ".join(f"{r['method']}" + (f" l={r['n_topics']} c={r['n_segments']}"
                                               if r["segmenter"] else "")
                           + f" {r['accuracy']:.3f}" for r in records)
        cuts = {(r["segmenter"], r["n_segments"]): r["segment_seconds"]
                for r in records if r["segmenter"]}   # one cut serves several settings
        seconds = sum(r["seconds"] for r in records) + sum(cuts.values())
        logger.info("[%d/%d] %s k=%d run %d (%d docs, %s): %s; ETA %s", self.done, len(self.work),
                    task.dataset, task.k, task.run, records[0]["n_docs"], _duration(seconds),
                    scores, _duration(eta))
