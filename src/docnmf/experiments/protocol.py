"""The papers' evaluation protocol: random k-class subsets, several methods, resumable.

For each cluster number ``k`` and run ``r`` (Xu, Liu & Gong 2003, Section
4.3; Cai et al. 2011, Section 4.3): pick ``k`` classes at random, take all
their documents, weight them, cluster them into ``k`` groups with every
method, and score accuracy, NMI and purity against the classes. The
classes of run ``(k, r)`` come from ``SeedSequence([seed, k, r])`` and each
method's ``random_state`` from ``SeedSequence([seed, k, r, crc32(method)])``,
so a run's numbers do not depend on execution order, on the number of
worker processes, or on which other methods are run.

Every finished run is appended to a results file (see
:class:`~docnmf.experiments.results.ResultsFile`); runs already there are
not computed again.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from ..methods import METHODS, make_estimator
from ..metrics import score_all
from ..text.vectorize import DocumentVectorizer
from .conditions import (
    WEIGHTINGS,
    DataCondition,
    PreparedData,
    ProtocolError,
    prepare_data,
    subset_counts,
    subset_indices,
    weigh_subset,
)
from .results import ResultsFile, RunKey, run_key
from .runner import derive_seed, run_tasks

__all__ = ["Protocol", "Task", "ProtocolResult", "choose_classes", "method_seed", "run_task",
           "run_protocol"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Protocol:
    """What to run: a data condition, methods, cluster numbers, runs, restarts, seed, weightings.

    Parameters
    ----------
    condition : DataCondition
    methods : tuple of str
        Names registered in :data:`docnmf.methods.METHODS`.
    k_values : tuple of int
        Cluster numbers, each at least 2 and at most the number of classes.
    runs : int
        Test runs (random class subsets) per ``k``; the papers use 50.
    restarts : int
        ``n_init`` of every estimator; the papers' NMF keeps the best of 10.
    seed : int
    weightings : tuple of {"xu-subset", "cai-global", "cluster"}
    as_published : bool
        Fit every method as the papers did (``make_estimator(...,
        as_published=True)``: multiplicative updates from random starts), or
        with the estimators' own defaults, as ``docnmf cluster`` does.
    """

    condition: DataCondition
    methods: tuple[str, ...]
    k_values: tuple[int, ...]
    runs: int
    restarts: int = 10
    seed: int = 0
    weightings: tuple[str, ...] = ("xu-subset",)
    as_published: bool = True

    def __post_init__(self) -> None:
        # a plain string was iterated ('nmf': "unknown method 'n'"), a number not at all
        for name in ("methods", "weightings", "k_values"):
            value = getattr(self, name)
            if isinstance(value, (str, bytes, Integral)) or not hasattr(value, "__iter__"):
                raise ProtocolError(f"{name} must be a sequence (e.g. ({value!r},)), got "
                                    f"{type(value).__name__} {value!r}")
            object.__setattr__(self, name, tuple(value))
        # (k = 2.5 passed here and failed in the first fit: "seed must be integer")
        bad = [k for k in self.k_values
               if isinstance(k, bool) or not isinstance(k, Integral) or k < 2]
        if bad:
            raise ProtocolError(f"k_values must be whole numbers of at least 2, got {bad[0]!r}")
        for name in ("runs", "restarts", "seed"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, Integral) or value < 0:
                raise ProtocolError(f"{name} must be an integer >= 0, got {value!r}")

    def tasks(self) -> list["Task"]:
        """Every (weighting, method, k, run) of the plan, in a fixed order."""
        return [Task(w, m, k, r) for w in self.weightings for k in self.k_values
                for r in range(self.runs) for m in self.methods]

    def result_params(self, data: PreparedData) -> dict[str, Any]:
        """What a results file must agree on to be resumed (methods, k and runs may grow)."""
        params = {"condition": self.condition.identity(), "data": data.fingerprint(),
                  "seed": int(self.seed), "restarts": int(self.restarts),
                  "nmi_normalization": "max"}
        if not self.as_published:   # absent otherwise, so earlier results files still resume
            params["as_published"] = False
        return params


@dataclass(frozen=True)
class Task:
    """One run of one method: the unit of work and of the results file."""

    weighting: str
    method: str
    k: int
    run: int

    def key(self, condition: str) -> RunKey:
        return (condition, self.weighting, self.method, self.k, self.run)


@dataclass
class ProtocolResult:
    """What :func:`run_protocol` did.

    Attributes
    ----------
    records : list of dict
        One per planned run (reused and new), sorted by run key.
    computed : list of tuple
        Keys of the runs computed by this call, in completion order.
    n_reused : int
        Planned runs found in the results file.
    elapsed : float
        Wall-clock seconds of this call.
    params : dict
        The results file header parameters.
    path : Path
        The results file.
    """

    records: list[dict[str, Any]]
    computed: list[RunKey]
    n_reused: int
    elapsed: float
    params: dict[str, Any]
    path: Path


def choose_classes(n_classes: int, k: int, seed: int, run: int) -> np.ndarray:
    """The ``k`` class codes of run ``run``: a function of ``(seed, k, run)`` only.

    Examples
    --------
    >>> a, b = choose_classes(56, 3, seed=0, run=4), choose_classes(56, 3, seed=0, run=4)
    >>> bool((a == b).all())
    True
    >>> len(set(choose_classes(56, 5, seed=0, run=0).tolist()))
    5
    """
    rng = np.random.default_rng(np.random.SeedSequence([seed, k, run]))
    return np.sort(rng.choice(n_classes, size=k, replace=False))


def method_seed(seed: int, k: int, run: int, method: str) -> int:
    """The ``random_state`` of ``method`` in run ``(k, run)``; independent of the method list.

    Examples
    --------
    >>> nmf, ncw = method_seed(0, 2, 0, "nmf"), method_seed(0, 2, 0, "nmf-ncw")
    >>> nmf == method_seed(0, 2, 0, "nmf") != ncw
    True
    """
    return derive_seed(seed, k, run, method)


def run_task(data: PreparedData, condition: str, task: Task, *, seed: int,
             restarts: int, as_published: bool = True) -> dict[str, Any]:
    """Compute one run and return its record (scores, sizes, seconds, warnings)."""
    classes = choose_classes(data.n_classes, task.k, seed, task.run)
    idx = subset_indices(data.y, classes)
    random_state = method_seed(seed, task.k, task.run, task.method)
    model = make_estimator(task.method, task.k, random_state=random_state, n_init=restarts,
                           as_published=as_published)
    # each method reads what docnmf cluster gives it: tf-idf, the counts it weighs itself, or
    # the texts it segments (through the "cluster" weighting's vectorizer)
    kind = METHODS[task.method].input
    if kind == "texts":
        X = [data.texts[i] for i in idx]
        model.set_params(vectorizer=DocumentVectorizer(**data.cluster_options))
    elif kind == "counts":
        X = subset_counts(data, idx, task.weighting)
    else:
        X = weigh_subset(data, idx, task.weighting)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t0 = time.perf_counter()
        labels = model.fit_predict(X)
        seconds = time.perf_counter() - t0
    scores = score_all(data.y[idx], labels)
    n_terms = len(model.vectorizer_.vocabulary_) if kind == "texts" else X.shape[1]
    return {
        "condition": condition, "weighting": task.weighting, "method": task.method,
        "k": task.k, "run": task.run, "classes": [data.class_names[c] for c in classes],
        "n_docs": len(idx), "n_terms": int(n_terms), "random_state": random_state,
        **scores, "seconds": round(seconds, 4),
        "warnings": sorted({f"{w.category.__name__}: {w.message}" for w in caught}),
    }


def _task_in(context: tuple[PreparedData, str, int, int, bool], task: Task) -> dict[str, Any]:
    data, condition, seed, restarts, as_published = context
    return run_task(data, condition, task, seed=seed, restarts=restarts,
                    as_published=as_published)


# -- the runner ---------------------------------------------------------------------------------

def validate(protocol: Protocol, data: PreparedData) -> None:
    """Raise :class:`ProtocolError` for anything the protocol cannot run."""
    if not protocol.methods:
        raise ProtocolError("no methods given")
    unknown = [m for m in protocol.methods if m not in METHODS]
    if unknown:
        raise ProtocolError(f"unknown method {unknown[0]!r}; choose from {', '.join(METHODS)}")
    segmenting = [m for m in protocol.methods if METHODS[m].input == "texts"]
    if segmenting and data.texts is None:
        raise ProtocolError(f"{segmenting[0]} segments the documents' texts, but "
                            f"{protocol.condition.name!r} comes as term counts")
    bad = [w for w in protocol.weightings if w not in WEIGHTINGS]
    if bad or not protocol.weightings:
        raise ProtocolError(f"unknown weighting {bad[0] if bad else None!r}; choose from "
                            f"{', '.join(WEIGHTINGS)}")
    if not protocol.k_values or min(protocol.k_values) < 2:
        raise ProtocolError("cluster numbers k must be at least 2")
    if max(protocol.k_values) > data.n_classes:
        raise ProtocolError(f"k={max(protocol.k_values)} is more than the {data.n_classes} "
                            f"classes of {protocol.condition.name!r}")
    if protocol.runs < 1 or protocol.restarts < 1:
        raise ProtocolError("runs and restarts must be at least 1")


def _work(k: int) -> float:
    """A run's share of the work, for the ETA: a subset of k classes has about k times the
    documents of one, and its fits cost more per document as k grows. On 20 Newsgroups with
    k = 2-10, runs at k = 10 took 5 to 11 times those at k = 2, and counting every run alike
    put the ETA at a fifth to a half of the time left; k^1.5 puts it within 0.8-1.5 times."""
    return k ** 1.5


class _Progress:
    def __init__(self, tasks: Sequence[Task]):
        self.total, self.done, self.t0 = len(tasks), 0, time.perf_counter()
        self.work_left, self.work_done = sum(_work(t.k) for t in tasks), 0

    def step(self, record: dict[str, Any]) -> None:
        self.done += 1
        self.work_done += _work(record["k"])
        self.work_left -= _work(record["k"])
        elapsed = time.perf_counter() - self.t0
        eta = elapsed / self.work_done * self.work_left
        logger.info("[%d/%d] %s %s k=%d run %d: AC %.3f NMI %.3f (%d docs, %.1fs); ETA %s",
                    self.done, self.total, record["weighting"], record["method"], record["k"],
                    record["run"], record["accuracy"], record["nmi"], record["n_docs"],
                    record["seconds"], _duration(eta))


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m" if h else (f"{m}m{s:02d}s" if m else f"{s}s")


def run_protocol(protocol: Protocol, results_path: str | os.PathLike, *, jobs: int | None = None,
                 data_home: str | os.PathLike | None = None,
                 data: PreparedData | None = None) -> ProtocolResult:
    """Run every planned run missing from ``results_path`` and return all planned records.

    Parameters
    ----------
    protocol : Protocol
    results_path : path-like
        The JSON-lines results file; created if absent, resumed if present.
    jobs : int, optional
        Worker processes (default ``os.cpu_count()``); 1 runs in this process.
    data_home : path-like, optional
        The corpora folder for registered dataset names.
    data : PreparedData, optional
        Already prepared counts of ``protocol.condition`` (skips loading).

    Raises
    ------
    ProtocolError
        Unknown method or weighting, k above the number of classes,
        unlabelled corpus, or a results file made with other parameters.
    """
    t0 = time.perf_counter()
    if data is None:
        data = prepare_data(protocol.condition, data_home)
    validate(protocol, data)
    name = protocol.condition.name
    params = protocol.result_params(data)
    plan = protocol.tasks()
    with ResultsFile(results_path, params) as results:
        done = {run_key(r): r for r in results.open()}
        todo = [t for t in plan if t.key(name) not in done]
        n_reused = len(plan) - len(todo)
        if n_reused:
            logger.info("%s: reusing %d of %d runs; %d to compute", results.path, n_reused,
                        len(plan), len(todo))
        computed = []
        progress = _Progress(todo)
        for record in _execute(todo, data, protocol, jobs):
            results.append(record)
            key = run_key(record)
            done[key] = record
            computed.append(key)
            progress.step(record)
        records = sorted((done[t.key(name)] for t in plan), key=run_key)
        if len(done) > len(records):    # resumed from a run of more methods, k or runs
            logger.warning("%s: %d records of runs outside this plan (other methods, k or runs) "
                           "are dropped: the folder holds this plan's runs only (write to another "
                           "folder with -o to keep both)", results.path, len(done) - len(records))
            results.keep_only(records)
    return ProtocolResult(records, computed, n_reused, time.perf_counter() - t0, params,
                          Path(results_path))


def _execute(todo: list[Task], data: PreparedData, protocol: Protocol,
             jobs: int | None) -> Iterable[dict[str, Any]]:
    """Yield the record of every task as it finishes, in this process or in a pool."""
    context = (data, protocol.condition.name, protocol.seed, protocol.restarts,
               protocol.as_published)
    for _, record in run_tasks(_task_in, todo, context, jobs=jobs,
                               describe=lambda t: f"{t.weighting} k={t.k} run {t.run} with "
                                                  f"{t.method}"):
        yield record
