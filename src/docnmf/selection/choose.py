"""Choose the number of clusters without labels: fit NMF for each k on a document sample, score
each k by several criteria, and pick one k by a stated rule."""

from __future__ import annotations

import logging
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.metrics import silhouette_score

from .._estimator import FewerClustersWarning
from .._rng import as_generator, child_generators
from ..cluster import NMFClustering
from ..diagnostics import duplicate_groups
from ..io import to_jsonable
from .criteria import consensus_matrix, cophenetic_correlation, topic_stability

__all__ = ["KSelection", "select_k", "sample_documents", "kmeans_silhouette_curve",
           "CRITERIA", "MAX_K_VALUES"]

logger = logging.getLogger(__name__)

#: The criteria and what each column of the table means.
CRITERIA = {
    "cophenetic": "cophenetic correlation of the consensus of the random restarts (Brunet 2004)",
    "stability": "lowest mean silhouette of the restarts' topic vectors, grouped one per "
                 "restart (NMFk)",
    "stability_mean": "mean silhouette of the same topic vectors; the default rule reads it",
    "silhouette": "silhouette (cosine, tf-idf) of the documents under NMF's clusters",
}

#: At most this many values of k are tried in one selection.
MAX_K_VALUES = 200


@dataclass
class KSelection:
    """Criteria per k and the chosen k.

    ``table`` holds one dict per k (``k``, one column per criterion, the
    relative reconstruction error and the seconds spent); ``chosen`` the k
    each criterion's rule picks; ``k`` and ``reason`` the final choice.
    """

    table: list[dict[str, Any]]
    chosen: dict[str, int | None]
    k: int
    reason: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def k_values(self) -> list[int]:
        return [row["k"] for row in self.table]

    def __eq__(self, other) -> bool:
        """The same criteria, choice and parameters; the seconds each k took may differ."""
        if not isinstance(other, KSelection):
            return NotImplemented

        def untimed(sel):
            # as JSON holds them: a criterion that is NaN at some k (no silhouette for
            # documents all alike) equals itself
            return to_jsonable(([{c: v for c, v in row.items() if c != "seconds"}
                                 for row in sel.table], sel.chosen, sel.k, sel.reason,
                                sel.params))

        return untimed(self) == untimed(other)


def _nonzeros_only(X) -> sp.csr_matrix:
    """``X`` as CSR without stored zeros (a copy when it holds any, ``X`` itself is left as it
    is): a row of stored zeros alone is a document without index terms, as ``empty_rows``
    reads it."""
    X = sp.csr_matrix(X)
    if X.nnz and not X.data.all():
        X = X.copy()
        X.eliminate_zeros()
    return X


def sample_documents(X, max_documents: int, rng: np.random.Generator) -> np.ndarray:
    """Sorted indices of at most ``max_documents`` documents with index terms, drawn at random."""
    nonempty = np.flatnonzero(np.diff(_nonzeros_only(X).indptr) > 0)
    if len(nonempty) <= max_documents:
        return nonempty
    return np.sort(rng.choice(nonempty, size=max_documents, replace=False))


def _restrict(X, rows: np.ndarray) -> sp.csr_matrix:
    """The sampled rows, without the columns they never use (less work, same factorization)."""
    Xs = sp.csr_matrix(X)[rows]
    used = np.flatnonzero(np.diff(Xs.tocsc().indptr) > 0)
    return sp.csr_matrix(Xs[:, used])


def _score_k(Xs, k: int, n_runs: int, weighting: str, rng: np.random.Generator,
             max_iter: int, tol: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    labelings, topics = [], []
    with warnings.catch_warnings():
        # too many clusters is what the criteria measure, not something to warn of k by k
        warnings.simplefilter("ignore", FewerClustersWarning)
        for child in child_generators(rng, n_runs):
            model = NMFClustering(k, weighting=weighting, init="random", n_init=1,
                                  max_iter=max_iter, tol=tol, random_state=child).fit(Xs)
            labelings.append(model.labels_)
            topics.append(model.components_)
    cophenetic = cophenetic_correlation(consensus_matrix(labelings))
    stability_min, stability_mean = topic_stability(topics)
    # the clustering 'docnmf cluster' would make (NNDSVDa start) for the silhouette; its
    # randomized SVD draws from the same generator, so a seed gives the same table
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewerClustersWarning)
        model = NMFClustering(k, weighting=weighting, max_iter=max_iter, tol=tol,
                              random_state=rng).fit(Xs)
    labels = model.labels_
    silhouette = (float(silhouette_score(Xs, labels, metric="cosine"))
                  if 1 < len(np.unique(labels)) < Xs.shape[0] else float("nan"))
    A = model.embedding_
    if weighting == "ncw":       # the factors approximate D^-1/2 X; undo the row weights
        A = A / np.sqrt(_ncw_row_weights(Xs))[:, None]
    error = _relative_error(Xs, A, model.components_)
    return {"k": k, "cophenetic": cophenetic, "stability": stability_min,
            "stability_mean": stability_mean, "silhouette": silhouette,
            "relative_error": error, "seconds": time.perf_counter() - t0}


def _relative_error(X, A: np.ndarray, B: np.ndarray) -> float:
    """``||X - A B||_F / ||X||_F`` without forming the dense product."""
    xx = float(X.multiply(X).sum())
    cross = float(np.sum(np.asarray(X @ B.T) * A))
    ff = float(np.sum((A.T @ A) * (B @ B.T)))
    return float(np.sqrt(max(xx - 2 * cross + ff, 0.0) / xx)) if xx > 0 else 0.0


def _ncw_row_weights(X) -> np.ndarray:
    from ..text.weighting import ncw_weights

    return ncw_weights(X)


def _where_it_begins_to_fall(ks: Sequence[int], values: Sequence[float]) -> int:
    """Brunet's rule, "the k where the cophenetic correlation begins to fall": the first k
    whose value the next k does not reach (the last k when it never falls).

    Examples
    --------
    >>> _where_it_begins_to_fall([2, 3, 4, 5], [0.96, 0.98, 0.99, 0.97])
    4
    """
    v = np.asarray(values, dtype=float)
    falls = np.flatnonzero(v[1:] < v[:-1])
    return int(ks[falls[0]]) if falls.size else int(ks[-1])


def _largest_above(ks: Sequence[int], values: Sequence[float], threshold: float) -> int:
    """NMFk's rule: the largest k whose value reaches ``threshold`` (else the best k)."""
    v = np.asarray(values, dtype=float)
    ok = np.flatnonzero(v >= threshold)
    return int(ks[ok[-1]]) if ok.size else _best(ks, v)


def _best(ks: Sequence[int], values) -> int | None:
    """The k of the highest value; None when no value is a number (documents all alike
    have no silhouette at any k)."""
    v = np.asarray(values, dtype=float)
    return None if np.isnan(v).all() else int(ks[int(np.nanargmax(v))])


#: The restarts' topic vectors count as stable when their mean silhouette reaches this. Chosen
#: on the tuning corpora of ``benchmarks/choose_k.py`` (the CLUTO sets) among the rules of
#: ``benchmarks/choose_k_rules.py``: 5 of 19 within 30% of the number of classes, against 2 of
#: 19 for NMFk's own rule (the lowest group's mean silhouette >= 0.6, declared first), with
#: plain HALS; with HALS extrapolating between rounds 2 of 19 (``reports/choose-k/rules.md``).
STABILITY_THRESHOLD = 0.8


def _flat(table: list[dict[str, Any]]) -> bool:
    """Every k scores the same stability (documents with one index term, or all alike)."""
    stability = [row["stability_mean"] for row in table]
    return len(stability) > 1 and max(stability) - min(stability) < 1e-9


def _choose(table: list[dict[str, Any]], different: int | None = None
            ) -> tuple[dict[str, int | None], int, str]:
    """The chosen k and why; ``different``, when the documents' different texts cut the range,
    their number (a k there is the most clusters they fill, not the top of a range)."""
    ks = [row["k"] for row in table]
    chosen = {
        "cophenetic": _where_it_begins_to_fall(ks, [row["cophenetic"] for row in table]),
        "stability": _largest_above(ks, [row["stability_mean"] for row in table],
                                    STABILITY_THRESHOLD),
        "silhouette": _best(ks, [row["silhouette"] for row in table]),
    }
    k = chosen["stability"] if chosen["stability"] is not None else ks[0]
    stability = [row["stability_mean"] for row in table]
    if len(ks) == 1:
        return chosen, k, f"only k = {k} was tried"
    if _flat(table):
        chosen["stability"] = k = ks[0]
        return chosen, k, (f"stability: the restarts' topic vectors score the same at every k "
                           f"tried ({stability[0]:.4g}): no k stands out, k = {k} is the "
                           "smallest tried")
    reached = max(stability) >= STABILITY_THRESHOLD
    if reached:
        reason = (f"stability: the largest k whose restarts' topic vectors, grouped one per "
                  f"restart, keep a mean silhouette >= {STABILITY_THRESHOLD} (NMFk-style)")
    else:
        reason = (f"stability: no k keeps the restarts' topic vectors, grouped one per restart, "
                  f"at a mean silhouette >= {STABILITY_THRESHOLD} (NMFk-style); the k where it "
                  "is highest")
    if k == ks[-1] and k == different:
        reason += f"; k = {k} is the number of different documents, the most clusters they fill"
    elif k == ks[-1]:
        # stability often creeps up to the threshold at the top of the range (many small,
        # trivially stable clusters): the choice is then the range's, not the documents'
        reason += (f"; k = {k} is the largest k tried"
                   + (", where finer splits of the same topics can look stable" if reached
                      else "") + f" (the other criteria pick {_other_picks(chosen)})")
    return chosen, k, reason


def _other_picks(chosen: dict[str, int | None]) -> str:
    return ", ".join(f"{name} k = {pick}" for name, pick in chosen.items()
                     if name != "stability" and pick is not None)


def select_k(X, k_values: Sequence[int], *, n_runs: int = 8, max_documents: int = 1000,
             weighting: str = "ncw", random_state=0, max_iter: int = 200,
             tol: float = 1e-4) -> KSelection:
    """Score each k of ``k_values`` on a sample of the documents and choose one.

    For each k: ``n_runs`` NMF fits from random starts (HALS) give the
    consensus matrix (its cophenetic correlation) and the topic vectors
    (their stability); the deterministic NNDSVDa fit gives the documents'
    silhouette and the relative reconstruction error. The criteria are
    computed on at most ``max_documents`` documents drawn at random (the
    consensus matrix is n x n).

    Parameters
    ----------
    X : sparse matrix of shape (n_docs, n_terms)
        Weighted documents (tf-idf), rows unit length.
    k_values : sequence of int
        Candidate numbers of clusters, each >= 2.
    n_runs : int
        Random restarts per k.
    max_documents : int
        Documents the criteria are computed on.
    weighting : {"ncw", "none"}
        NMF-NCW (the start of the default LCCF-NCW, and the default on Dask) or plain NMF.
    random_state : int, Generator or None
    max_iter, tol : int, float
        Per fit; looser than a final clustering, which the criteria do not need.

    Returns
    -------
    KSelection
        Its ``params`` record ``random_state`` as given when it is an int or
        None, and as None for a Generator (which a record cannot hold).
    """
    if not (sp.issparse(X) or isinstance(X, np.ndarray)) or len(X.shape) != 2:
        raise TypeError(f"X must be a 2-D sparse matrix or array of weighted documents (e.g. "
                        f"from docnmf.pipeline.vectorize_corpus), not {type(X).__name__}")
    ks = sorted(set(_check_k_values(k_values)))
    X = _nonzeros_only(X)       # stored zeros counted rows of zeros as documents with terms
    if isinstance(n_runs, bool) or not isinstance(n_runs, (int, np.integer)) or n_runs < 2:
        raise ValueError(f"the criteria compare restarts: n_runs (--restarts) must be at least "
                         f"2, got {n_runs!r}")
    if (isinstance(max_documents, bool) or not isinstance(max_documents, (int, np.integer))
            or max_documents < 4):
        raise ValueError(f"max_documents (--max-documents) must be a whole number of at least "
                         f"4 (k = 2 on at least twice as many documents), got {max_documents!r}")
    rng = as_generator(random_state)
    rows = sample_documents(X, max_documents, rng)
    # as evaluated (benchmarks/choose_k.py): k up to half the documents used; above it clusters
    # of one or two documents are trivially stable
    with_terms = int(np.count_nonzero(np.diff(sp.csr_matrix(X).indptr)))
    used = (f"the {len(rows)} documents drawn (--max-documents)" if len(rows) < with_terms
            else f"the {len(rows)} documents with index terms")
    fits = [k for k in ks if k <= len(rows) // 2]
    if not fits:
        raise ValueError(f"k={ks[0]} is more than half of {used}: too few to choose k among")
    if len(fits) < len(ks):
        logger.warning("not trying k=%s: above half (%d) of %s, clusters of one or two "
                       "documents are trivially stable", _describe(ks[len(fits):]),
                       len(rows) // 2, used)
        ks = fits
    Xs = _restrict(X, rows)
    # more topics than index terms: the restarts' topic vectors cannot differ as topics do
    fits = [k for k in ks if k <= Xs.shape[1]]
    if not fits:
        raise ValueError(f"k={ks[0]} is more than the {Xs.shape[1]} index term"
                         f"{'s' * (Xs.shape[1] != 1)} of {used}: too few to choose k among")
    if len(fits) < len(ks):
        logger.warning("not trying k=%s: above the %d index terms of %s",
                       _describe(ks[len(fits):]), Xs.shape[1], used)
        ks = fits
    # nor more clusters than different documents: copies fill them only by being split (6
    # different texts among 104 were tried up to k=27, each fit short of converging)
    # (documents all alike are scored as they are: the command refuses them before; but not
    # a sample drawn all alike from documents that are not, nor a range wholly above them)
    different = Xs.shape[0] - sum(len(g) - 1 for g in duplicate_groups(counts=Xs))
    fits = [k for k in ks if k <= different]
    if not fits and (different > 1 or len(rows) < with_terms):
        raise ValueError(f"k={ks[0]} is more than the {different} different document"
                         f"{'s' * (different != 1)} of {used} (the others are copies): too few "
                         "to choose k among")
    capped = None       # the number of different documents, when it cut the range
    if fits and len(fits) < len(ks):
        capped = different
        logger.warning("not trying k=%s: above the %d different documents of %s (the others "
                       "are copies)", _describe(ks[len(fits):]), different, used)
        ks = fits
    # counted after the trim: a range written wide (2-250) on a few hundred documents is fine
    if len(ks) > MAX_K_VALUES:
        raise ValueError(f"{len(ks)} values of k to try; at most {MAX_K_VALUES}")
    logger.info("choosing k among %s on %d of %d documents, %d restarts per k",
                _describe(ks), len(rows), X.shape[0], n_runs)
    table = []
    # each k its own stream, the (k-2)-th child whatever else is tried: the scores at k do not
    # move when the range does (they did: the i-th k tried drew the i-th child)
    children = child_generators(rng, max(ks) - 1)
    for k in ks:
        row = _score_k(Xs, k, n_runs, weighting, children[k - 2], max_iter, tol)
        logger.info("k=%d: cophenetic %.3f, stability %.3f (mean %.3f), silhouette %.3f "
                    "(%.1fs)", k, row["cophenetic"], row["stability"], row["stability_mean"],
                    row["silhouette"], row["seconds"])
        table.append(row)
    chosen, k, reason = _choose(table, capped)
    if _flat(table):
        logger.warning("every k tried scores the same stability (%.4g): the documents show no "
                       "number of clusters to choose; check their index terms (%d in %d "
                       "documents)", table[0]["stability_mean"], Xs.shape[1], Xs.shape[0])
    elif k == ks[-1] and len(ks) > 1 and k != capped:
        logger.warning("k = %d is the largest k tried: the stability rule may be reading the "
                       "range, not the documents; the other criteria pick %s", k,
                       _other_picks(chosen))
    params = {"n_runs": n_runs, "max_documents": max_documents, "n_documents_used": len(rows),
              "weighting": weighting,
              "random_state": (int(random_state) if isinstance(random_state, (int, np.integer))
                               else None),
              "max_iter": max_iter,
              "tol": tol, "stability_threshold": STABILITY_THRESHOLD}
    return KSelection(table, chosen, k, reason, params)


def _describe(ks: Sequence[int]) -> str:
    if len(ks) > 2 and ks == list(range(ks[0], ks[-1] + 1)):
        return f"{ks[0]}-{ks[-1]}"
    return ",".join(map(str, ks))


def _check_k_values(k_values) -> list[int]:
    """``k_values`` as ints, each at least 2, or a ValueError naming the first that is not."""
    if isinstance(k_values, (str, bytes)):        # "2-5" was read as the digits 2, -, 5
        raise TypeError(f"k_values must be a sequence of whole numbers, e.g. range(2, 11), not "
                        f"the string {k_values!r}")
    ks = list(k_values)
    if not ks:
        raise ValueError("no value of k to try")
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 2:
            raise ValueError(f"k must be a whole number of at least 2, got {k!r}")
    return [int(k) for k in ks]


def kmeans_silhouette_curve(X, k_values: Sequence[int], *, max_documents: int = 1000,
                            random_state=0) -> list[float]:
    """The plain baseline: silhouette (cosine) of k-means on the tf-idf documents, per k."""
    from sklearn.cluster import KMeans

    ks = _check_k_values(k_values)
    rng = as_generator(random_state)
    X = _nonzeros_only(X)
    Xs = _restrict(X, sample_documents(X, max_documents, rng))
    if max(ks) >= Xs.shape[0]:
        raise ValueError(f"k={max(ks)} leaves no two documents together: the silhouette needs "
                         f"k below the {Xs.shape[0]} documents it is computed on")
    seed = int(rng.integers(2**31 - 1))
    out = []
    for k in ks:
        labels = KMeans(k, n_init=3, random_state=seed).fit_predict(Xs)
        out.append(float(silhouette_score(Xs, labels, metric="cosine"))
                   if len(np.unique(labels)) > 1 else float("nan"))
    return out
