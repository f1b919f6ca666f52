"""Reproduction targets of the NMA paper: Tables II-V and Figures 2-10.

Wang, Tang & Liu, "Document clustering via matrix representation" (ICDM
2011), Section V. Protocol (Section V-B):

1. keep the single-label documents of at least 1,000 characters (Reuters:
   of topics with at least 10 of them, which gives the paper's 26 topics);
2. draw ``k`` classes at random (run ``r`` of ``k`` uses
   ``SeedSequence([seed, k, r])``, so every method and setting sees the same
   subsets) and take all their documents;
3. run each method with ``restarts`` different initializations (the paper:
   10) and average the accuracy, which is purity (eq. 18);
4. average over the runs (the paper: 50).

Data per subset: k-means and NMF cluster the tf-idf vectors (unit length),
PLSI and LDA the raw counts, NMA the texts cut into segments (equal
sentence runs for "nma", C99 as in the paper for "nma-c99"; each subset is
cut once, not once per restart) and weighted by
:class:`~docnmf.cluster.nma.NMAClustering` itself. The vocabulary is learnt
from the subset.

Execution: the unit of work is one (data set, k, run) subset with the
settings it still lacks; ``options.jobs`` worker processes (default: one per
CPU) with one BLAS thread each run the subsets. Every finished record is
appended to ``results.jsonl`` (:class:`~docnmf.experiments.results.ResultsFile`),
keyed by (data set, method, k, run, l, segments, segmenter), so an
interrupted target resumes where it stopped and a rerun with more runs
reuses the earlier ones; a file made with another seed, restart count,
subset cap or LDA setting is refused. The numbers of a record depend only
on its key, the seed and the restarts, never on ``jobs`` or on order.
``results.json`` holds the records of the latest report.
"""

from __future__ import annotations

import io
import logging
import os
import time
import warnings
import zlib
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Hashable, Iterable, Mapping, Sequence

import numpy as np

from ..baselines.kmeans import KMeansClustering
from ..baselines.topic_models import LDAClustering, PLSIClustering
from ..cluster.nma import NMAClustering
from ..cluster.nmf import NMFClustering
from ..corpus import load_dataset
from ..corpus._paths import data_dir
from ..factor.nma import fit_nma, nma_loss, nma_random_init
from ..io import atomic_write_bytes, atomic_write_text, write_json
from ..metrics import purity
from ..text.segment import segment_text
from ..text.vectorize import DocumentVectorizer
from .conditions import ProtocolError
from .report import _duration, _fmt
from .results import ResultsFile
from .targets import Target, TargetOptions, register_target

__all__ = ["PAPER", "PAPER_TABLES", "PAPER_TABLE2", "PAPER_STATEMENTS", "NMACorpus",
           "SubsetTask", "prepare_corpus", "draw_subset", "record_key", "run_tables",
           "run_segments", "run_topics", "run_fig2", "synthetic_matrices"]

logger = logging.getLogger(__name__)

PAPER = "Wang, Tang & Liu, Document Clustering via Matrix Representation, ICDM 2011"

#: The columns of Tables III-V as printed; the paper's NMA segments with C99.
PAPER_METHODS = ("kmeans", "nmf", "plsi", "lda", "nma")
#: Our rows: the paper's five, NMA twice (equal sentence runs, and C99 as in the paper).
METHODS = ("kmeans", "nmf", "plsi", "lda", "nma", "nma-c99")
NAMES = {"kmeans": "k-means", "nmf": "NMF", "plsi": "PLSI", "lda": "LDA",
         "nma": "NMA (sentences)", "nma-c99": "NMA (C99)"}
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
KS = (2, 3, 4, 5)


def _table(rows: Mapping[int, Sequence[float]]) -> dict[str, dict[int, float]]:
    return {m: {k: v[i] for k, v in rows.items()} for i, m in enumerate(PAPER_METHODS)}


#: Tables III-V as printed: accuracy (%) by data set, method and k.
PAPER_TABLES: dict[str, dict[str, dict[int, float]]] = {
    "Newsgroup": _table({2: (69.77, 72.04, 84.87, 88.66, 88.97),
                         3: (49.58, 60.98, 76.39, 84.84, 82.14),
                         4: (40.43, 49.93, 71.64, 81.14, 77.79),
                         5: (34.52, 41.92, 69.91, 78.73, 69.72)}),
    "Reuters": _table({2: (77.68, 86.68, 79.08, 83.33, 94.47),
                       3: (70.37, 81.75, 72.49, 80.95, 91.32),
                       4: (75.96, 82.25, 77.27, 81.57, 86.95),
                       5: (73.85, 83.09, 73.78, 79.11, 85.94)}),
    "Classic": _table({2: (76.71, 87.88, 97.49, 97.78, 98.36),
                       3: (77.26, 86.29, 96.60, 97.57, 96.45)}),
}
TABLE_NUMBERS = {"Newsgroup": "III", "Reuters": "IV", "Classic": "V"}

#: Table II as printed: relative improvement (%) of matrix over vector representation,
#: averaged over 2..6 segments.
PAPER_TABLE2: dict[str, dict[int, float]] = {
    "Newsgroup": {2: 22.85, 3: 52.71, 4: 59.07, 5: 51.3},
    "Reuters": {2: 7.61, 3: 13.38, 4: 7.55, 5: 7.44},
    "Classic": {2: 11.74, 3: 11.70},
}

#: What the text states about the figures (their curves are images, lost in the text).
PAPER_STATEMENTS = {
    "fig2": "500 matrices of 100 x 100 with entries between 0 and 255; l1 + l2 = 100; "
            "\"the minimum reconstruction error is achieved when l1 ≈ l2\".",
    "fig3-6": "l from k to 3k + 3; \"the average relative improvements are 17.7%, 9.75%, 22.0% "
              "when the number of latent topics are set to at least k + 1 on the Newsgroup, "
              "Reuters, and Classic datasets\"; the gain is steep at l = k + 1, k + 2, then flat.",
    "fig7-10": "1 to 6 segments; \"a relative improvement up to 66% on Newsgroup dataset when k "
               "and l are set to 4 and 3 (Figure 9)\"; the improvement peaks at 2 or 3 segments.",
}
PAPER_TOPIC_GAIN = {"Newsgroup": 17.7, "Reuters": 9.75, "Classic": 22.0}

#: Defaults small enough for a few minutes (the paper: 50 runs, 10 initializations).
DEFAULT_RUNS, DEFAULT_RESTARTS, DEFAULT_SEED = 5, 2, 0
PAPER_RUNS, PAPER_RESTARTS = 50, 10
#: NMA settings of Tables III-V, which the paper does not state: 3 segments (where
#: Figures 7-10 peak) and l = k + 2 (where Figures 3-6 flatten).
TABLE_SEGMENTS, TABLE_EXTRA_TOPICS = 3, 2


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
    return [n for n, (loader, _, _) in DATASETS.items() if (root / paths[loader]).exists()]


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


def _seed(*parts: int | str) -> int:
    words = [zlib.crc32(p.encode("utf-8")) if isinstance(p, str) else int(p) for p in parts]
    return int(np.random.SeedSequence(words).generate_state(1, dtype=np.uint32)[0])


# --- one subset, one method ------------------------------------------------------------------

#: (method, n_topics, n_segments): one column of a table or one point of a figure.
Setting = tuple[str, int, int]


def _make(method: str, k: int, rs: int, n_topics: int, n_segments: int):
    if method == "kmeans":
        return KMeansClustering(k, n_init=1, random_state=rs)
    if method == "nmf":
        return NMFClustering(k, n_init=1, random_state=rs)
    if method == "plsi":
        return PLSIClustering(k, n_init=1, random_state=rs)
    if method == "lda":
        return LDAClustering(k, n_init=1, random_state=rs, **LDA_OPTIONS)
    if method in NMA_SEGMENTERS:
        return NMAClustering(k, n_topics=n_topics, n_segments=n_segments,
                             segmenter=NMA_SEGMENTERS[method], n_init=1, random_state=rs)
    raise ValueError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")


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
                rs = _seed(seed, k, run, method, n_topics, n_segments, init)
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


_WORKER: dict[str, Any] = {}


def _init_worker(data: Mapping[str, NMACorpus], seed: int, restarts: int,
                 max_per_class: int | None) -> None:
    # The corpora reach each worker once, at start-up, not with every task. One BLAS
    # thread per process: the processes already use the cores.
    from threadpoolctl import threadpool_limits

    _WORKER.update(data=data, seed=seed, restarts=restarts, max_per_class=max_per_class,
                   limits=threadpool_limits(limits=1))


def _worker_run(task: SubsetTask) -> list[dict[str, Any]]:
    return run_subset(_WORKER["data"], task, seed=_WORKER["seed"],
                      restarts=_WORKER["restarts"], max_per_class=_WORKER["max_per_class"])


def _execute(tasks: list[SubsetTask], data: Mapping[str, NMACorpus], seed: int, restarts: int,
             max_per_class: int | None, jobs: int | None
             ) -> Iterable[tuple[SubsetTask, list[dict[str, Any]]]]:
    """Yield every task with its records as it finishes, in this process or in a pool."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    if jobs == 1:
        for task in tasks:
            yield task, run_subset(data, task, seed=seed, restarts=restarts,
                                   max_per_class=max_per_class)
        return
    needed = {t.dataset: data[t.dataset] for t in tasks}
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker,
                               initargs=(needed, seed, restarts, max_per_class))
    try:
        pending = {pool.submit(_worker_run, task): task for task in tasks}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                task = pending.pop(future)
                try:
                    records = future.result()
                except Exception:
                    logger.error("%s k=%d run %d failed", task.dataset, task.k, task.run)
                    raise
                yield task, records
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


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


def _settings(options: TargetOptions) -> tuple[int, int, int]:
    runs = DEFAULT_RUNS if options.runs is None else int(options.runs)
    restarts = DEFAULT_RESTARTS if options.restarts is None else int(options.restarts)
    seed = DEFAULT_SEED if options.seed is None else int(options.seed)
    if runs < 1 or restarts < 1:
        raise ValueError("runs and restarts must be positive")
    if options.jobs is not None and int(options.jobs) < 1:
        raise ValueError("jobs must be positive")
    return runs, restarts, seed


def _protocol(runs: int, restarts: int, seed: int, max_per_class: int | None,
              outcome: _Outcome) -> list[str]:
    cap = ("all documents of each drawn class" if max_per_class is None
           else f"at most {max_per_class} random documents per drawn class (a reduced run)")
    fit = sum(r["seconds"] for r in outcome.records)
    return [f"- {runs} random class subsets per k (the paper: {PAPER_RUNS}), "
            f"`SeedSequence([{seed}, k, run])`; {cap}.",
            f"- {restarts} initializations per method and subset, accuracy averaged (the paper: "
            f"{PAPER_RESTARTS}).",
            "- Accuracy = purity (eq. 18), in %.",
            "- Documents: single-label, at least 1,000 characters (Section V-B), Newsgroup "
            "headers removed (still more documents than the paper's 6,038). Newsgroup is "
            "the 18,846-post bydate release (the paper used 19,997 posts); tf-idf of Porter "
            "stems.",
            f"- Records: {outcome.n_computed} computed by the last invocation "
            f"({_duration(outcome.elapsed)} wall time), {outcome.n_reused} reused from "
            f"`results.jsonl`; fit time summed over all records: {_duration(fit)}."]


def _data_lines(data: Mapping[str, NMACorpus]) -> list[str]:
    return [f"- {n}: {d.summary()}" for n, d in data.items()]


def _load(names: Sequence[str] | None, data_home,
          corpora: Mapping[str, NMACorpus] | None = None) -> dict[str, NMACorpus]:
    """The named corpora: ``corpora`` when given (already prepared), else loaded."""
    if corpora is not None:
        data = dict(corpora)
    else:
        names = available_datasets(data_home) if names is None else list(names)
        data = {n: prepare_corpus(n, data_home) for n in names}
    unknown = [n for n in data if n not in DATASETS]
    if unknown:
        raise ValueError(f"unknown data set {unknown[0]!r}; choose from {', '.join(DATASETS)}")
    return data


def _check_methods(methods: Sequence[str]) -> None:
    unknown = [m for m in methods if m not in METHODS]
    if unknown or not methods:
        raise ValueError(f"unknown method {unknown[0] if unknown else None!r}; "
                         f"choose from {', '.join(METHODS)}")


def _segmenter_line(method: str) -> str:
    if NMA_SEGMENTERS[method] == "c99":
        return ("- NMA segments each text with C99 (Choi 2000) at the fixed segment count, "
                "as the paper.")
    return ("- NMA segments each text into runs of equal sentence counts (the paper: C99; "
            "`method=\"nma-c99\"` uses it).")


def _c99_cost(records: list[dict]) -> str | None:
    cut = {(r["dataset"], r["k"], r["run"], r["n_segments"]): (r["segment_seconds"], r["n_docs"])
           for r in records if r["segmenter"] == "c99"}
    if not cut:
        return None
    seconds, docs = (sum(v) for v in zip(*cut.values()))
    return f"{1000.0 * seconds / docs:.2f} ms per document"


def _mean(records: list[dict], **match) -> float | None:
    values = [r["accuracy"] for r in records if all(r[f] == v for f, v in match.items())]
    return 100.0 * float(np.mean(values)) if values else None


def _figure(panels: Sequence[tuple[str, list[tuple[str, list, list, str]]]], xlabel: str,
            title: str) -> bytes:
    """One panel per (title, lines); a line is (label, xs, ys, matplotlib format with colour)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    ncols = min(len(panels), 2) or 1
    nrows = -(-len(panels) // ncols) or 1
    fig = Figure(figsize=(5.2 * ncols, 3.6 * nrows + 0.5), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
    for ax, (panel_title, lines) in zip(axes, panels):
        for label, xs, ys, style in lines:
            pts = [(x, y) for x, y in zip(xs, ys) if y is not None]
            if pts:
                ax.plot(*zip(*pts), style, ms=4, label=label)
        ax.set_title(panel_title)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("accuracy (%)")
        ax.grid(alpha=0.3)
        if ax.lines:
            ax.legend(fontsize=7)
    for ax in axes[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(title)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    return buf.getvalue()


def _plots_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        logger.warning("matplotlib is not installed: no plots (pip install 'docnmf[plot]')")
        return False
    return True


def _ks(name: str, ks: Sequence[int]) -> list[int]:
    return [k for k in ks if k <= DATASETS[name][1]]


# --- Tables III-V ----------------------------------------------------------------------------

#: The paper's column each of our rows is compared with (its NMA segments with C99).
PAPER_COLUMN = {"nma-c99": "nma"}


def run_tables(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
               datasets: Sequence[str] | None = None, data_home=None,
               ks: Sequence[int] = KS, methods: Sequence[str] = METHODS,
               max_per_class: int | None = None,
               corpora: Mapping[str, NMACorpus] | None = None) -> Path:
    """Tables III-V: accuracy of k-means, NMF, PLSI, LDA and NMA on random k-class subsets.

    NMA runs twice: on equal sentence runs ("nma") and on C99 segments
    ("nma-c99", the paper's). ``corpora`` hands in prepared corpora by data
    set name instead of loading ``datasets``. Resumes from
    ``outdir/results.jsonl`` (see the module docstring).
    """
    outdir = Path(outdir)
    runs, restarts, seed = _settings(options)
    _check_methods(methods)
    data = _load(datasets, data_home, corpora)
    plan = [SubsetTask(name, k, run, tuple((m, k + TABLE_EXTRA_TOPICS, TABLE_SEGMENTS)
                                           for m in methods))
            for name in data for k in _ks(name, ks) for run in range(runs)]
    outcome = _run_plan(outdir, "wang2011-tables3-5", data, plan, seed=seed, restarts=restarts,
                        max_per_class=max_per_class, jobs=options.jobs)
    records = outcome.records
    write_json(outdir / "results.json", {"target": "wang2011-tables3-5", "paper": PAPER,
                                         "seed": seed, "restarts": restarts, "runs": records})
    out = ["# Tables III-V of the NMA paper: accuracy (%) on random k-class subsets", "",
           f"Paper: {PAPER}, Section V-F, Tables III, IV and V. The paper's NMA segments "
           "with C99; its number stands under both of our NMA columns.", ""]
    for name in PAPER_TABLES:
        out += [f"## Table {TABLE_NUMBERS[name]}: {name}", ""]
        if name not in data:
            out += ["Ours: not run (data not available). The paper's numbers:", ""]
        out += ["| k | | " + " | ".join(NAMES[m] for m in METHODS) + " |",
                "|---|---|" + "---:|" * len(METHODS)]
        for k in PAPER_TABLES[name]["nma"]:
            paper = [PAPER_TABLES[name][PAPER_COLUMN.get(m, m)][k] for m in METHODS]
            ours = [_mean(records, dataset=name, k=k, method=m) for m in METHODS]
            out.append(f"| {k} | paper | " + " | ".join(f"{v:.2f}" for v in paper) + " |")
            if any(v is not None for v in ours):
                out.append("| | ours | " + " | ".join(_fmt(v, 2) for v in ours) + " |")
                out.append("| | ours − paper | " + " | ".join(
                    _fmt(o - p, 2, sign=True) if o is not None else "–"
                    for o, p in zip(ours, paper)) + " |")
        out.append("")
    if _plots_available() and records:
        colour = {m: f"C{i}" for i, m in enumerate(METHODS)}
        colour["nma"] = "C6"   # the paper's NMA (C99) keeps the colour of our C99 row
        panels = []
        for name in data:
            ks_paper = list(PAPER_TABLES[name]["nma"])
            lines = []
            for m in METHODS:
                ours = [_mean(records, dataset=name, k=k, method=m) for k in ks_paper]
                if any(v is not None for v in ours):
                    lines.append((f"{NAMES[m]} (ours)", ks_paper, ours, f"{colour[m]}-o"))
            for m in PAPER_METHODS:
                style = colour["nma-c99" if m == "nma" else m]
                lines.append((f"{NAMES['nma-c99'] if m == 'nma' else NAMES[m]} (paper)",
                              ks_paper, [PAPER_TABLES[name][m][k] for k in ks_paper],
                              f"{style}--"))
            panels.append((f"{name} (Table {TABLE_NUMBERS[name]})", lines))
        png = _figure(panels, "k", "Tables III-V: accuracy, ours (solid) and paper (dashed)")
        atomic_write_bytes(outdir / "tables3-5.png", png)
        out += ["![accuracy by method](tables3-5.png)", ""]
    out += ["## Data", ""] + _data_lines(data) + ["", "## Protocol", ""]
    out += _protocol(runs, restarts, seed, max_per_class, outcome)
    out += [f"- NMA: {TABLE_SEGMENTS} segments, l = k + {TABLE_EXTRA_TOPICS} latent topics "
            "(the paper does not state its table settings); NMA (sentences) cuts each text "
            "into runs of equal sentence counts, NMA (C99) with C99 (Choi 2000) at the fixed "
            "segment count, as the paper" + (f" (cutting cost {_c99_cost(records)})"
                                             if _c99_cost(records) else "") + ".",
            "- k-means and NMF on unit tf-idf vectors; PLSI and LDA on counts, one topic per "
            f"cluster; LDA by scikit-learn, {LDA_OPTIONS['learning_method']} variational Bayes, "
            f"{LDA_OPTIONS['max_iter']} passes."]
    cost = [(NAMES[m], [r["seconds"] for r in records if r["method"] == m]) for m in METHODS]
    if records:
        out.append("- Mean fit time per subset, all initializations, one core: " + ", ".join(
            f"{name} {np.mean(s):.1f} s" for name, s in cost if s) + ".")
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


# --- Table II and Figures 7-10 ---------------------------------------------------------------

SEGMENTS = (1, 2, 3, 4, 5, 6)


def run_segments(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
                 datasets: Sequence[str] | None = None, data_home=None,
                 ks: Sequence[int] = KS, segments: Sequence[int] = SEGMENTS,
                 extra_topics: int = 1, max_per_class: int | None = None,
                 method: str = "nma", corpora: Mapping[str, NMACorpus] | None = None) -> Path:
    """Table II and Figures 7-10: NMA accuracy against the number of segments (1 = vectors).

    ``method`` is "nma" (equal sentence runs) or "nma-c99" (C99, as the paper).
    """
    outdir = Path(outdir)
    runs, restarts, seed = _settings(options)
    if method not in NMA_SEGMENTERS:
        raise ValueError(f"method must be one of {', '.join(NMA_SEGMENTERS)}, got {method!r}")
    data = _load(datasets, data_home, corpora)
    plan = [SubsetTask(name, k, run, tuple((method, k + extra_topics, c) for c in segments))
            for name in data for k in _ks(name, ks) for run in range(runs)]
    outcome = _run_plan(outdir, "wang2011-table2-fig7-10", data, plan, seed=seed,
                        restarts=restarts, max_per_class=max_per_class, jobs=options.jobs)
    records = outcome.records
    write_json(outdir / "results.json", {"target": "wang2011-table2-fig7-10", "paper": PAPER,
                                         "seed": seed, "restarts": restarts, "runs": records})

    def gain(name: str, k: int) -> float | None:
        base = _mean(records, dataset=name, k=k, n_segments=1)
        more = [_mean(records, dataset=name, k=k, n_segments=c) for c in segments if c > 1]
        more = [v for v in more if v is not None]
        if base is None or not more or base == 0:
            return None
        return float(np.mean([100.0 * (v - base) / base for v in more]))

    out = ["# Table II and Figures 7-10 of the NMA paper: matrix vs vector representation", "",
           f"Paper: {PAPER}, Section V-E.", "",
           "## Table II: relative improvement (%) of matrix over vector representation", "",
           "Averaged over 2..6 segments against 1 segment (the vector representation).", "",
           "| data set | | " + " | ".join(f"k = {k}" for k in KS) + " |",
           "|---|---|" + "---:|" * len(KS)]
    for name, row in PAPER_TABLE2.items():
        out.append(f"| {name} | paper | " + " | ".join(
            f"{row[k]:.2f}" if k in row else "–" for k in KS) + " |")
        if name in data:
            out.append("| | ours | " + " | ".join(_fmt(gain(name, k), 2) for k in KS) + " |")
    out += ["", f"Paper on Figures 7-10: {PAPER_STATEMENTS['fig7-10']}", "",
            "## Figures 7-10: accuracy (%) against the number of segments", ""]
    if _plots_available() and records:
        panels = []
        for k in ks:
            lines = [(n, list(segments), [_mean(records, dataset=n, k=k, n_segments=c)
                                          for c in segments], f"C{i}-o")
                     for i, n in enumerate(data) if k <= DATASETS[n][1]]
            if any(r["k"] == k for r in records):
                panels.append((f"k = {k}", lines))
        atomic_write_bytes(outdir / "fig7-10.png", _figure(
            panels, "number of segments (1 = vector representation)",
            "Figures 7-10 (ours): NMA accuracy"))
        out += ["![Figures 7-10](fig7-10.png)", ""]
    for name in data:
        out += [f"### {name}", "", "| k | " + " | ".join(f"c = {c}" for c in segments) + " |",
                "|---|" + "---:|" * len(segments)]
        for k in _ks(name, ks):
            out.append(f"| {k} | " + " | ".join(
                _fmt(_mean(records, dataset=name, k=k, n_segments=c), 2) for c in segments)
                + " |")
        out.append("")
    out += ["## Data", ""] + _data_lines(data) + ["", "## Protocol", ""]
    out += _protocol(runs, restarts, seed, max_per_class, outcome)
    out += [f"- l = k + {extra_topics} latent topics for every k (the paper fixes l per figure "
            "but states it only for Figure 9).", _segmenter_line(method)]
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


# --- Figures 3-6 -----------------------------------------------------------------------------


def run_topics(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
               datasets: Sequence[str] | None = None, data_home=None,
               ks: Sequence[int] = KS, n_segments: int = TABLE_SEGMENTS,
               max_per_class: int | None = None, method: str = "nma",
               corpora: Mapping[str, NMACorpus] | None = None) -> Path:
    """Figures 3-6: NMA accuracy against the number of latent topics l = k .. 3k + 3.

    ``method`` is "nma" (equal sentence runs) or "nma-c99" (C99, as the paper).
    """
    outdir = Path(outdir)
    runs, restarts, seed = _settings(options)
    if method not in NMA_SEGMENTERS:
        raise ValueError(f"method must be one of {', '.join(NMA_SEGMENTERS)}, got {method!r}")
    data = _load(datasets, data_home, corpora)
    plan = [SubsetTask(name, k, run, tuple((method, ell, n_segments)
                                           for ell in range(k, 3 * k + 4)))
            for name in data for k in _ks(name, ks) for run in range(runs)]
    outcome = _run_plan(outdir, "wang2011-fig3-6", data, plan, seed=seed, restarts=restarts,
                        max_per_class=max_per_class, jobs=options.jobs)
    records = outcome.records
    write_json(outdir / "results.json", {"target": "wang2011-fig3-6", "paper": PAPER,
                                         "seed": seed, "restarts": restarts, "runs": records})
    out = ["# Figures 3-6 of the NMA paper: accuracy against the number of latent topics", "",
           f"Paper: {PAPER}, Section V-D.", "", f"Paper: {PAPER_STATEMENTS['fig3-6']}", "",
           "## Relative improvement (%) for l >= k + 1 over l = k, averaged over k and l", "",
           "| data set | paper | ours |", "|---|---:|---:|"]
    for name, paper in PAPER_TOPIC_GAIN.items():
        gains = []
        for k in _ks(name, ks):
            base = _mean(records, dataset=name, k=k, n_topics=k)
            for ell in range(k + 1, 3 * k + 4):
                v = _mean(records, dataset=name, k=k, n_topics=ell)
                if base and v is not None:
                    gains.append(100.0 * (v - base) / base)
        out.append(f"| {name} | {paper:.2f} | "
                   f"{_fmt(float(np.mean(gains)), 2) if gains else '–'} |")
    out.append("")
    if _plots_available() and records:
        panels = []
        for k in ks:
            ls = list(range(k, 3 * k + 4))
            lines = [(n, ls, [_mean(records, dataset=n, k=k, n_topics=ell) for ell in ls],
                      f"C{i}-o") for i, n in enumerate(data) if k <= DATASETS[n][1]]
            if any(r["k"] == k for r in records):
                panels.append((f"k = {k}", lines))
        atomic_write_bytes(outdir / "fig3-6.png", _figure(
            panels, "number of latent topics l", "Figures 3-6 (ours): NMA accuracy"))
        out += ["![Figures 3-6](fig3-6.png)", ""]
    for name in data:
        out += [f"## {name}", ""]
        for k in _ks(name, ks):
            ls = list(range(k, 3 * k + 4))
            out += [f"k = {k}:", "", "| l | " + " | ".join(str(ell) for ell in ls) + " |",
                    "|---|" + "---:|" * len(ls),
                    "| accuracy | " + " | ".join(
                        _fmt(_mean(records, dataset=name, k=k, n_topics=ell), 2) for ell in ls)
                    + " |", ""]
    out += ["## Data", ""] + _data_lines(data) + ["", "## Protocol", ""]
    out += _protocol(runs, restarts, seed, max_per_class, outcome)
    out += [f"- NMA with {n_segments} segments.", _segmenter_line(method)]
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


# --- Figure 2 --------------------------------------------------------------------------------


def synthetic_matrices(n: int, size: int, seed: int) -> np.ndarray:
    """``n`` matrices ``size x size`` of uniform integers in [0, 255], stacked as segment rows.

    Returns an array of shape (n * size, size): rows ``i*size .. (i+1)*size - 1``
    are ``A_i^T`` (documents' segments as rows, the solvers' orientation).
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, n, size]))
    return rng.integers(0, 256, size=(n * size, size)).astype(np.float64)


def run_fig2(outdir: str | os.PathLike, options: TargetOptions = TargetOptions(), *,
             size: int = 100, l_sum: int = 100, l1_values: Sequence[int] | None = None,
             max_iter: int = 50, n_matrices: int | None = None) -> Path:
    """Figure 2: SRE (eq. 17) against l1 / l2 with l1 + l2 fixed, on random matrices.

    ``options.runs`` (or ``n_matrices``) is the number of matrices (the
    paper: 500; default 20, a few minutes); ``options.restarts`` the
    initializations per point, the lowest SRE kept.
    """
    outdir = Path(outdir)
    seed = DEFAULT_SEED if options.seed is None else int(options.seed)
    n = n_matrices or (20 if options.runs is None else int(options.runs))
    restarts = 1 if options.restarts is None else int(options.restarts)
    if l1_values is None:
        step = max(l_sum // 10, 1)
        l1_values = list(range(step, l_sum, step))
    X = synthetic_matrices(n, size, seed)
    total = float(np.square(X).sum())
    t0 = time.perf_counter()
    records = []
    for l1 in l1_values:
        l2 = l_sum - l1
        best = np.inf
        for init in range(restarts):
            rng = np.random.default_rng(np.random.SeedSequence([seed, l1, l2, init]))
            L0, R0 = nma_random_init(X, size, l1, l2, rng)
            res = fit_nma(X, size, L0, R0, max_iter=max_iter)
            best = min(best, nma_loss(X, size, res.L, res.M, res.R))
        records.append({"l1": int(l1), "l2": int(l2), "sre": float(best),
                        "relative_sre": float(best / total)})
        logger.info("l1=%d l2=%d SRE %.4g", l1, l2, best)
    elapsed = time.perf_counter() - t0
    write_json(outdir / "results.json", {"target": "wang2011-fig2", "paper": PAPER, "seed": seed,
                                         "n_matrices": n, "size": size, "l_sum": l_sum,
                                         "restarts": restarts, "points": records})
    best_point = min(records, key=lambda r: r["sre"])
    out = ["# Figure 2 of the NMA paper: reconstruction error against l1 / l2", "",
           f"Paper: {PAPER}, Section V-A, Figure 2.", "", f"Paper: {PAPER_STATEMENTS['fig2']}",
           "", f"Ours: {n} matrices of {size} x {size}, uniform integers 0..255, "
           f"l1 + l2 = {l_sum}; minimum SRE at l1 = {best_point['l1']}, l2 = {best_point['l2']}.",
           ""]
    if _plots_available():
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=(6, 4), layout="constrained")
        FigureCanvasAgg(fig)
        ax = fig.subplots()
        ax.plot([r["l1"] / r["l2"] for r in records], [r["sre"] for r in records], "-o")
        ax.set_xscale("log")
        ax.set_xlabel("l1 / l2")
        ax.set_ylabel("SRE (eq. 17)")
        ax.set_title(f"Figure 2 (ours): l1 + l2 = {l_sum}")
        ax.grid(alpha=0.3)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100)
        atomic_write_bytes(outdir / "fig2.png", buf.getvalue())
        out += ["![Figure 2](fig2.png)", ""]
    out += ["| l1 | l2 | l1 / l2 | SRE | SRE / ‖A‖² |", "|---:|---:|---:|---:|---:|"]
    out += [f"| {r['l1']} | {r['l2']} | {r['l1'] / r['l2']:.3f} | {r['sre']:.6g} | "
            f"{r['relative_sre']:.4f} |" for r in records]
    out += ["", "## Protocol", "",
            f"- Algorithm 1 (`fit_nma`, {max_iter} iterations per stage), {restarts} random "
            f"initialization(s) per point, lowest SRE kept; seed {seed}.",
            "- The paper does not say how the entries are drawn; uniform integers are assumed.",
            f"- Elapsed: {_duration(elapsed)}."]
    return atomic_write_text(outdir / "report.md", "\n".join(out) + "\n")


# --- registration ----------------------------------------------------------------------------


def _available() -> bool:
    return bool(available_datasets())


_SOURCE = "20 Newsgroups bydate, Reuters-21578 SGML, SMART Classic3"

register_target(Target("wang2011-tables3-5", "NMA paper, Tables III-V: accuracy of k-means, "
                       "NMF, PLSI, LDA, NMA (sentence runs and C99)", PAPER, _available,
                       run_tables, _SOURCE))
register_target(Target("wang2011-table2-fig7-10", "NMA paper, Table II and Figures 7-10: "
                       "accuracy vs number of segments", PAPER, _available, run_segments,
                       _SOURCE))
register_target(Target("wang2011-fig3-6", "NMA paper, Figures 3-6: accuracy vs number of "
                       "latent topics", PAPER, _available, run_topics, _SOURCE))
register_target(Target("wang2011-fig2", "NMA paper, Figure 2: reconstruction error vs l1/l2 "
                       "(synthetic)", PAPER, lambda: True, run_fig2, "synthetic matrices"))
