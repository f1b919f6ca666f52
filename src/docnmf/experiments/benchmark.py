"""The evaluation suite's runner: docnmf's methods and scikit-learn peers on every suite corpus.

Each corpus of :data:`~docnmf.experiments.suite.SUITE_CORPORA` is clustered
with ``k`` = its number of classes, ``runs`` times (seeds), by every entry:

- a docnmf method at its defaults, ``"nmf-ncw"``, or with options,
  ``"nmf-ncw:labels=kmeans,tf=sublinear"`` (options of
  :class:`~docnmf.text.vectorize.DocumentVectorizer` / :class:`~docnmf.text.
  weighting.TfidfWeighting` change the matrix, the others the estimator);
  ``"default"`` is what ``docnmf cluster`` runs when given no option: the
  default method, clustered again with the fallback when its result is
  degenerate (the record's ``replaced`` then holds the sizes it had);
- a peer (:data:`PEERS`), the few lines of scikit-learn a user would write.

docnmf's entries see the corpus as ``docnmf cluster`` does: raw texts go
through its whole text pipeline, count matrices (CLUTO, MATLAB) through its
weighting. The scikit-learn peers see the same documents: texts through
``TfidfVectorizer(sublinear_tf=True, stop_words="english", min_df=2)``, count
matrices (whose tokens were made upstream) through the closest equivalent,
terms in fewer than 2 documents dropped and ``TfidfTransformer(sublinear_tf=True)``;
LDA gets the counts of the same vocabulary.

Every matrix a corpus needs is made once per run, in this process, and sent
to the workers with the corpus; each finished fit is appended to the results
file at once, so an interrupted run resumes where it stopped. Run ``r`` of a
corpus gives every entry the same ``random_state``, ``derive_seed(seed,
corpus, r)``.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Sequence

import numpy as np
import scipy.sparse as sp

from .._catalog import DEFAULT_ENTRIES, PEERS
from ..constraints import ConstraintWarning, sample_constraints
from ..corpus import Corpus, load_dataset
from ..diagnostics import degenerate
from ..methods import DEFAULT_FALLBACK, DEFAULT_METHOD, METHODS, make_estimator, options_not_taken
from ..metrics import clustering_accuracy, nmi
from ..text.vectorize import DocumentVectorizer
from ..text.weighting import TfidfWeighting
from .conditions import ProtocolError
from .results import ResultsFile
from .runner import derive_seed, run_tasks
from .suite import MIN_CLASS_SIZE, SUITE_CORPORA, SuiteCorpus, draw_classes

__all__ = ["PEERS", "DEFAULT_ENTRIES", "Entry", "parse_entry", "SuiteTask", "PreparedCorpus",
           "prepare_corpus", "pair_constraints", "run_task", "run_suite", "suite_key"]

logger = logging.getLogger(__name__)

#: Options that make the matrix rather than the estimator.
VECTORIZER_OPTIONS = ("tf", "idf", "norm", "min_df", "max_df", "max_features", "stem",
                      "stop_words")
#: ``pairs=f``: must-/cannot-links on a fraction ``f`` of all document pairs, drawn from the
#: labels (the same pairs for every entry of a run), for the semi-supervised methods.
PAIRS_OPTION = "pairs"

@dataclass(frozen=True)
class Entry:
    """A parsed suite entry: a peer, or a docnmf method with estimator and vectorizer options."""

    name: str
    method: str | None
    estimator: tuple[tuple[str, Any], ...] = ()
    vectorizer: tuple[tuple[str, Any], ...] = ()
    pairs: float | None = None

    @property
    def is_peer(self) -> bool:
        return self.method is None

    @property
    def input(self) -> str:
        """What the entry is fitted on: ``"tfidf"``, ``"counts"`` or ``"texts"``."""
        return "peer" if self.is_peer else METHODS[self.method].input

    def applies_to(self, corpus: SuiteCorpus) -> bool:
        """Methods that segment documents need texts; everything else runs everywhere."""
        return self.input != "texts" or corpus.form == "texts"


def _value(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered == "none":
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_entry(spec: str) -> Entry:
    """An :class:`Entry` from ``"peer"``, ``"method"`` or ``"method:option=value,..."``.

    Examples
    --------
    >>> parse_entry("lccf:lam=0.1,tf=sublinear")
    Entry(name='lccf:lam=0.1,tf=sublinear', method='lccf', estimator=(('lam', 0.1),), \
vectorizer=(('tf', 'sublinear'),), pairs=None)
    >>> parse_entry("sklearn-km").is_peer
    True
    >>> parse_entry("nmf,nmf-ncw")
    Traceback (most recent call last):
    ...
    docnmf.experiments.conditions.ProtocolError: unknown suite entry 'nmf,nmf-ncw': give the entries separated by spaces (nmf nmf-ncw); a comma separates an entry's options (lccf:lam=0.1,tf=sublinear)
    """
    given = spec.strip()            # as the user wrote it, in the errors
    head, colon, tail = given.partition(":")
    # "NMF" and "SKLEARN-KM" are nmf and sklearn-km, as cluster's --method takes names; the
    # options keep their case, and the entry is recorded (and resumed) under the lower-case name
    head = head.strip().lower()
    spec = head + colon + tail
    if spec in PEERS:
        return Entry(spec, None)
    method = DEFAULT_METHOD if head == "default" else head
    if method not in METHODS:
        listed = [p.strip() for p in head.split(",")]
        if len(listed) > 1 and all(p in METHODS or p in PEERS or p == "default" for p in listed):
            # evaluate takes --methods nmf,nmf-ncw; here a comma starts an entry's options
            raise ProtocolError(f"unknown suite entry {given!r}: give the entries separated by "
                                f"spaces ({' '.join(listed)}); a comma separates an entry's "
                                "options (lccf:lam=0.1,tf=sublinear)")
        raise ProtocolError(f"unknown suite entry {given!r}; give a method "
                            f"({', '.join(METHODS)}), 'default' or a peer ({', '.join(PEERS)})")
    options: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in tail.split(","))):
        key, eq, value = part.partition("=")
        if not eq:
            raise ProtocolError(f"suite entry {given!r}: options are written name=value")
        key = key.strip()
        if key in options:          # (the last one was kept, without a word)
            raise ProtocolError(f"suite entry {given!r}: {key} is given twice")
        if key in _SET_BY_THE_SUITE:
            raise ProtocolError(f"suite entry {given!r}: the suite sets {key} "
                                f"({_SET_BY_THE_SUITE[key]})")
        options[key] = _value(value.strip())
    pairs = options.pop(PAIRS_OPTION, None)
    if pairs is not None and not (METHODS[method].constraints and 0 <= pairs <= 1):
        raise ProtocolError(f"suite entry {given!r}: pairs= takes a fraction in [0, 1] and a "
                            "semi-supervised method")
    vectorizer = {k: v for k, v in options.items() if k in VECTORIZER_OPTIONS}
    estimator = {k: v for k, v in options.items() if k not in VECTORIZER_OPTIONS}
    try:
        METHODS[method].check_options(estimator)
        # the values too, as a fit would check them, before any corpus is read
        make_estimator(method, 2, **estimator)._check_params(_MANY_DOCUMENTS)
    except (TypeError, ValueError) as exc:
        raise ProtocolError(f"suite entry {given!r}: {exc}") from None
    return Entry(spec, method, tuple(sorted(estimator.items())), tuple(sorted(vectorizer.items())),
                 None if pairs is None else float(pairs))


#: Options an entry may not set, and what sets them (random_state passed the option check and
#: failed in the first fit, "got multiple values for keyword argument").
_SET_BY_THE_SUITE = {"random_state": "--seed and --runs", "n_clusters": "k is the number of "
                     "classes of each corpus"}

#: The documents the values of an entry's options are checked for: enough for any k or
#: neighbourhood an option can name.
_MANY_DOCUMENTS = 10 ** 9


@dataclass(frozen=True)
class SuiteTask:
    """One fit: an entry on a corpus, run ``run``."""

    corpus: str
    entry: str
    run: int


def suite_key(record: dict[str, Any]) -> tuple[str, str, int]:
    """What identifies a finished fit in the results file."""
    return (record["corpus"], record["entry"], int(record["run"]))


@dataclass
class PreparedCorpus:
    """A corpus with every matrix its planned entries need, made once.

    ``matrices`` maps a vectorizer option tuple to docnmf's weighted
    matrix; ``peer_tfidf`` and ``peer_counts`` are the peers' inputs.
    """

    corpus: SuiteCorpus
    y: np.ndarray
    k: int
    texts: list[str] | None
    counts: sp.csr_matrix | None
    matrices: dict[tuple, sp.csr_matrix] = field(default_factory=dict)
    peer_tfidf: sp.csr_matrix | None = None
    peer_counts: sp.csr_matrix | None = None
    seconds: float = 0.0


def _docnmf_matrix(texts, counts, options: dict[str, Any]) -> sp.csr_matrix:
    """The matrix ``docnmf cluster`` makes with these text options (its defaults otherwise)."""
    if texts is not None:
        return DocumentVectorizer(**options).fit_transform(texts)
    weighting = {k: v for k, v in options.items() if k in ("tf", "idf", "norm")}
    return TfidfWeighting(**weighting).fit_transform(counts)


def _peer_inputs(texts, counts) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """The peers' tf-idf and counts: scikit-learn's text pipeline, or its closest equivalent."""
    from sklearn.feature_extraction.text import (CountVectorizer, TfidfTransformer,
                                                 TfidfVectorizer)

    if texts is not None:
        # the vocabulary TfidfVectorizer keeps, counted as CountVectorizer counts it
        counts = CountVectorizer(stop_words="english", min_df=2).fit_transform(texts)
        tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english",
                                min_df=2).fit_transform(texts)
        return sp.csr_matrix(tfidf), sp.csr_matrix(counts, dtype=np.float64)
    counts = sp.csr_matrix(counts, dtype=np.float64)
    counts = counts[:, np.flatnonzero(counts.getnnz(axis=0) >= 2)]
    return sp.csr_matrix(TfidfTransformer(sublinear_tf=True).fit_transform(counts)), counts


def load_suite_corpus(corpus: SuiteCorpus,
                      data_home: str | os.PathLike | None = None) -> Corpus:
    """The documents of ``corpus``, each with one label.

    A corpus with a parent keeps the parent's classes of at least
    :data:`~docnmf.experiments.suite.MIN_CLASS_SIZE` documents, or the
    ``n_classes`` of them its ``draw`` picks.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnicodeWarning)
        loaded = load_dataset(corpus.dataset, data_home=data_home)
    if corpus.parent is not None:
        loaded = loaded.filter_min_class_size(MIN_CLASS_SIZE)
        if corpus.draw is not None:
            chosen = set(draw_classes(loaded.classes, corpus.n_classes, corpus.draw))
            loaded = loaded.subset([i for i, labels in enumerate(loaded.labels)
                                    if labels[0] in chosen])
    elif any(len(labels) != 1 for labels in loaded.labels):
        loaded = loaded.single_label()
    return loaded


def prepare_corpus(corpus: SuiteCorpus, entries: Iterable[Entry],
                   data_home: str | os.PathLike | None = None) -> PreparedCorpus:
    """Load ``corpus`` and make the matrices ``entries`` need."""
    t0 = time.perf_counter()
    loaded = load_suite_corpus(corpus, data_home)
    y, names = loaded.label_array()
    counts = None if loaded.counts is None else sp.csr_matrix(loaded.counts, dtype=np.float64)
    data = PreparedCorpus(corpus, y, len(names), loaded.texts, counts)
    entries = list(entries)
    options = {e.vectorizer for e in entries if e.input == "tfidf"}
    if any(e.name == "spherical-km" for e in entries):
        options.add(())
    for option in sorted(options):
        data.matrices[option] = _docnmf_matrix(data.texts, data.counts, dict(option))
    if any(e.is_peer for e in entries):
        data.peer_tfidf, data.peer_counts = _peer_inputs(data.texts, data.counts)
    if data.texts is not None and any(e.input == "counts" for e in entries):
        # docnmf's topic models on texts: the counts of docnmf's own vocabulary
        data.counts = DocumentVectorizer().fit(data.texts).count(data.texts)
    data.seconds = time.perf_counter() - t0
    logger.info("%s: %d documents, %d classes (prepared in %.1fs)", corpus.name, len(y),
                data.k, data.seconds)
    return data


# -- one fit --------------------------------------------------------------------------------------

def _fit_peer(name: str, data: PreparedCorpus, k: int, seed: int) -> np.ndarray:
    from sklearn.cluster import KMeans
    from sklearn.decomposition import NMF, LatentDirichletAllocation

    if name == "sklearn-km":
        return KMeans(k, n_init=10, random_state=seed).fit_predict(data.peer_tfidf)
    if name == "sklearn-nmf":
        W = NMF(k, init="nndsvda", random_state=seed, max_iter=500).fit_transform(data.peer_tfidf)
        return np.argmax(W, axis=1)
    if name == "sklearn-lda":
        lda = LatentDirichletAllocation(k, random_state=seed)
        return np.argmax(lda.fit_transform(data.peer_counts), axis=1)
    if name == "spherical-km":
        return KMeans(k, n_init=10, random_state=seed).fit_predict(_unit_rows(data.matrices[()]))
    raise ProtocolError(f"unknown peer {name!r}")


def _unit_rows(X: sp.csr_matrix) -> sp.csr_matrix:
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    return sp.csr_matrix(sp.diags(np.divide(1.0, norms, out=np.zeros_like(norms),
                                            where=norms > 0)) @ X)


def pair_constraints(data: PreparedCorpus, fraction: float, seed: int, run: int):
    """The must-/cannot-link pairs of run ``run`` at ``fraction``: one draw per run and fraction."""
    rng = np.random.default_rng(derive_seed(seed, data.corpus.name, run, "pairs",
                                            int(round(fraction * 1e6))))
    must, cannot = sample_constraints(data.y, fraction, rng)
    return {"must_link": must, "cannot_link": cannot}


def _fit_docnmf(entry: Entry, data: PreparedCorpus, k: int, seed: int,
                fit_params: dict | None = None) -> np.ndarray:
    model = make_estimator(entry.method, k, random_state=seed, **dict(entry.estimator))
    fit_params = fit_params or {}
    if entry.input == "texts":
        params = model.get_params()
        if entry.vectorizer and "vectorizer" in params:
            model.set_params(vectorizer=DocumentVectorizer(**{"norm": None,
                                                              **dict(entry.vectorizer)}))
        return np.asarray(model.fit_predict(data.texts, **fit_params))
    if entry.input == "counts":
        return np.asarray(model.fit_predict(data.counts, **fit_params))
    return np.asarray(model.fit_predict(data.matrices[entry.vectorizer], **fit_params))


def _is_default(entry: Entry) -> bool:
    return entry.name.split(":")[0] == "default"


def _guarded_default(entry: Entry, data: PreparedCorpus, seed: int, fit_params: dict | None,
                     labels: np.ndarray) -> tuple[np.ndarray, dict[str, Any]]:
    """What ``docnmf cluster`` keeps of the default method's ``labels``: a degenerate result is
    clustered again with :data:`~docnmf.methods.DEFAULT_FALLBACK`, when it takes the options
    given and accepts the documents."""
    sizes = [int(n) for n in np.bincount(labels, minlength=data.k)]
    if not degenerate(sizes) or options_not_taken(DEFAULT_FALLBACK, dict(entry.estimator)):
        return labels, {}
    try:
        again = _fit_docnmf(replace(entry, method=DEFAULT_FALLBACK), data, data.k, seed,
                            fit_params)
    except ValueError:
        return labels, {}
    return again, {"replaced": {"method": entry.method, "by": DEFAULT_FALLBACK,
                                "cluster_sizes": sizes}}


def run_task(data: PreparedCorpus, task: SuiteTask, seed: int) -> dict[str, Any]:
    """Fit one entry once and return its record (scores, seconds, warnings)."""
    entry = parse_entry(task.entry)
    random_state = derive_seed(seed, task.corpus, task.run)
    extra: dict[str, Any] = {"fallback": DEFAULT_FALLBACK} if _is_default(entry) else {}
    fit_params = None
    if entry.pairs is not None:
        fit_params = pair_constraints(data, entry.pairs, seed, task.run)
        extra["pairs"] = [len(fit_params["must_link"]), len(fit_params["cannot_link"])]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.simplefilter("ignore", ConstraintWarning)    # counted: broken_must_links
        t0 = time.perf_counter()
        if entry.is_peer:
            labels = _fit_peer(entry.name, data, data.k, random_state)
        else:
            labels = _fit_docnmf(entry, data, data.k, random_state, fit_params)
            if _is_default(entry):
                labels, replaced = _guarded_default(entry, data, random_state, fit_params,
                                                    labels)
                extra.update(replaced)
        seconds = time.perf_counter() - t0
    if fit_params:
        must = fit_params["must_link"]
        extra["broken_must_links"] = int(np.sum(labels[must[:, 0]] != labels[must[:, 1]]))
    return {"corpus": task.corpus, "role": data.corpus.role, "entry": task.entry,
            "method": entry.method, "run": task.run, "k": data.k, "n_docs": int(len(data.y)),
            "random_state": random_state, **extra,
            "accuracy": clustering_accuracy(data.y, labels), "nmi": nmi(data.y, labels),
            "n_clusters_found": int(len(np.unique(labels))), "seconds": round(seconds, 3),
            "warnings": sorted({f"{w.category.__name__}: {str(w.message)[:120]}"
                                for w in caught})}


def _task_in(context: tuple[PreparedCorpus, int], task: SuiteTask) -> dict[str, Any]:
    data, seed = context
    return run_task(data, task, seed)


# -- the run --------------------------------------------------------------------------------------

def _check_default_fits(path, records, planned: Sequence[Entry]) -> None:
    """Refuse to reuse fits of ``default`` made when the default was another method, or had
    another fallback (or none)."""
    wanted = {e.name: e.method for e in planned}
    for r in records:
        entry = r["entry"]
        if entry not in wanted or entry.split(":")[0] != "default":
            continue
        if r.get("method") != wanted[entry]:
            made = r.get("method") or "not recorded (before docnmf recorded it)"
            raise ProtocolError(
                f"{path} holds fits of {r['entry']!r} made when the default method was {made}; "
                f"it is {DEFAULT_METHOD} now: name the method (--methods {DEFAULT_METHOD}) or "
                "use another output folder")
        if r.get("fallback") != DEFAULT_FALLBACK:
            made = r.get("fallback") or "none"
            raise ProtocolError(
                f"{path} holds fits of {r['entry']!r} made when the default's fallback for "
                f"degenerate results was {made}; it is {DEFAULT_FALLBACK} now: use another "
                "output folder")


def run_suite(results_path: str | os.PathLike, entries: Sequence[str] = DEFAULT_ENTRIES, *,
              corpora: Sequence[SuiteCorpus] = SUITE_CORPORA, runs: int = 3, seed: int = 0,
              jobs: int | None = 1, data_home: str | os.PathLike | None = None,
              prepare: Callable[..., PreparedCorpus] = prepare_corpus
              ) -> list[dict[str, Any]]:
    """Fit every entry ``runs`` times on every corpus; return all planned records.

    Fits already in ``results_path`` are not computed again (the file's
    header holds ``seed``; a file made with another seed is refused).
    Corpora run smallest first, so a partial run has covered the most
    corpora; within a corpus the fits run on ``jobs`` worker processes.
    """
    parsed = list({e.name: e for e in map(parse_entry, entries)}.values())
    if len(parsed) < len(entries):      # each fit was made, and counted, once per mention
        logger.warning("an entry given more than once runs once")
    if runs < 1:
        raise ProtocolError("runs must be at least 1")
    params = {"suite": "docnmf-benchmark", "seed": int(seed)}
    order = sorted(corpora, key=lambda c: c.n_docs)
    plan = [SuiteTask(c.name, e.name, r) for c in order for e in parsed if e.applies_to(c)
            for r in range(runs)]
    for e in parsed:
        left_out = [c.name for c in order if not e.applies_to(c)]
        if left_out:
            logger.warning("%s needs raw texts: not run on %s (a count matrix%s)", e.name,
                           ", ".join(left_out), "" if len(left_out) == 1 else " each")
    if not plan:
        raise ProtocolError("nothing to run: no entry applies to these corpora")
    with ResultsFile(results_path, params, key=suite_key) as results:
        done = {suite_key(r): r for r in results.open()}
        _check_default_fits(results.path, done.values(), parsed)
        todo = [t for t in plan if (t.corpus, t.entry, t.run) not in done]
        if len(todo) < len(plan):
            logger.info("%s: reusing %d of %d fits; %d to compute", results.path,
                        len(plan) - len(todo), len(plan), len(todo))
        t0, n_done = time.perf_counter(), 0
        for corpus in order:
            tasks = [t for t in todo if t.corpus == corpus.name]
            if not tasks:
                continue
            needed = [e for e in parsed if any(t.entry == e.name for t in tasks)]
            data = prepare(corpus, needed, data_home=data_home)
            for task, record in run_tasks(_task_in, tasks, (data, seed), jobs=jobs,
                                          describe=lambda t: f"{t.corpus} {t.entry} run {t.run}",
                                          one_thread=True):
                results.append(record)
                done[suite_key(record)] = record
                n_done += 1
                logger.info("[%d/%d] %s %s run %d: AC %.3f NMI %.3f (%.1fs; %.0fs so far)",
                            n_done, len(todo), task.corpus, task.entry, task.run,
                            record["accuracy"], record["nmi"], record["seconds"],
                            time.perf_counter() - t0)
    return [done[(t.corpus, t.entry, t.run)] for t in plan]
