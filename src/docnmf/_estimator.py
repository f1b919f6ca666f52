"""What every clustering estimator shares: parameter checks, restarts, keywords, tags.

Both :mod:`docnmf.cluster` and :mod:`docnmf.baselines` build on this module,
which imports neither. An estimator mixes in :class:`DocumentClusterer`
(before scikit-learn's bases), checks its parameters in ``_check_params``
(``n_docs``), keeps the best of its restarts with :func:`best_restart` and
records every restart's objective as ``restart_objectives_``.
"""

from __future__ import annotations

import contextvars
import functools
import inspect
import logging
import os
import sys
import time
import warnings
from typing import Any, Callable, Iterable, Sequence, TypeVar

import numpy as np
import scipy.sparse as sp
from sklearn.base import TransformerMixin
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted, validate_data

from ._rng import child_generators
from .constraints import ConstraintWarning, build_constraints, labels_every_document

__all__ = ["KEYWORD_FLOOR", "DocumentClusterer", "FewerClustersWarning", "SoftClusterer",
           "best_restart", "check_fit_input", "check_n_clusters", "check_positive_ints",
           "cluster_means", "distance_memberships", "fit_restarts", "heaviest_columns",
           "held_only", "kmeans_restarts", "memberships_from", "representative_documents",
           "store_params", "terms_held", "top_terms"]

logger = logging.getLogger("docnmf.cluster")

Result = TypeVar("Result")


def store_params(estimator, params: dict[str, Any]) -> None:
    """Keep an ``__init__``'s arguments (its ``locals()``) as attributes, exactly as given.

    scikit-learn's contract: ``__init__`` stores its parameters and does
    nothing else; validation waits for ``fit``.

    Examples
    --------
    >>> class E:
    ...     def __init__(self, n_clusters=8, *, tol=1e-4):
    ...         store_params(self, locals())
    >>> vars(E(3))
    {'n_clusters': 3, 'tol': 0.0001}
    """
    for name, value in params.items():
        if name != "self":
            setattr(estimator, name, value)


def check_positive_ints(estimator, *names: str) -> None:
    """A ValueError naming the first of ``names`` that is not a positive integer.

    Examples
    --------
    >>> class E: n_init, max_iter = 3, 0
    >>> check_positive_ints(E(), "n_init", "max_iter")
    Traceback (most recent call last):
    ...
    ValueError: max_iter must be a positive integer, got 0
    """
    for name in names:
        value = getattr(estimator, name)
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")


def check_numbers(estimator, *names: str, nonnegative: bool = True, optional: bool = False,
                  finite: bool = False) -> None:
    """A ValueError naming the first of ``names`` that is not a number (not NaN), or with
    ``nonnegative`` not one >= 0, or with ``finite`` not a finite one; None is allowed when
    ``optional`` (a weight left to its default), and refused otherwise (a tolerance: it went
    on to ``float(None)``).

    Examples
    --------
    >>> class E: tol, reg, reward = -1.0, "x", None
    >>> check_numbers(E(), "tol", nonnegative=False)
    >>> check_numbers(E(), "reward", optional=True)
    >>> check_numbers(E(), "tol", "reg")
    Traceback (most recent call last):
    ...
    ValueError: tol must be a non-negative number, got -1.0
    >>> check_numbers(E(), "reward")
    Traceback (most recent call last):
    ...
    ValueError: reward must be a non-negative number, got None
    """
    for name in names:
        value = getattr(estimator, name)
        if value is None and optional:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
                or np.isnan(value) or (nonnegative and value < 0):
            raise ValueError(f"{name} must be a {'non-negative ' if nonnegative else ''}number, "
                             f"got {value!r}")
        if finite and not np.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value!r}")


def check_n_clusters(n_clusters, n_docs: int) -> int:
    """``n_clusters`` as an int, or a ValueError naming the problem.

    Examples
    --------
    >>> check_n_clusters(3, 10)
    3
    """
    if isinstance(n_clusters, bool) or not isinstance(n_clusters, (int, np.integer)) \
            or n_clusters < 1:
        raise ValueError(f"n_clusters must be a positive integer, got {n_clusters!r}")
    if n_clusters > n_docs:
        # "n_samples=<n>" is the wording scikit-learn's common checks look for
        raise ValueError(f"n_clusters={n_clusters} is larger than n_samples={n_docs}")
    return int(n_clusters)


#: The largest absolute entry of X fitted as given. Outside this range the products the methods
#: form (X X^T, a squared kernel, the multiplicative updates' denominators beside their 1e-12)
#: overflow, underflow or drown in the constants: tf-idf rows (entries up to 1) and raw counts
#: sit well inside it, so no ordinary input is touched.
FIT_RANGE = (2.0**-20, 2.0**64)


def check_fit_input(estimator, X):
    """``X`` as ``estimator`` can fit it meaningfully, or a ValueError that says why not.

    ``X`` (validated: finite, dense or CSR) must have a non-zero entry. When
    its largest absolute entry lies outside :data:`FIT_RANGE`, an estimator
    whose labels do not depend on the scale of ``X`` (``_scale_free()``:
    NMF, NMF-NCW, CF/LCCF with lambda in units of the data term, FS-NMF,
    SS-NMF with its default weights, k-means, spectral, LSI, PCA, the
    co-clusterings, kernel k-means, PLSI) gets ``X`` times a power of two
    that brings that entry into [0.5, 1) (exact in floating point), with a
    warning; any other (the paper's absolute lambda, SS-NMF with given
    weights, LDA) is refused.

    Examples
    --------
    >>> check_fit_input(DocumentClusterer(), np.zeros((2, 2)))
    Traceback (most recent call last):
    ...
    ValueError: DocumentClusterer: X is all zero; there is nothing to cluster
    """
    name = type(estimator).__name__
    X = _int32_indices(_canonical(X))
    values = X.data if sp.issparse(X) else np.asarray(X)
    top = float(np.max(np.abs(values), initial=0.0))
    if top == 0.0:
        raise ValueError(f"{name}: X is all zero; there is nothing to cluster")
    _warn_empty_rows(name, X)
    estimator.scale_exponent_ = fit_scale_exponent(estimator, top)
    return _scaled(X, estimator.scale_exponent_) if estimator.scale_exponent_ else X


def fit_scale_exponent(estimator, top: float) -> int:
    """0 when ``top``, the largest absolute entry of a fit's ``X``, lies in :data:`FIT_RANGE`;
    otherwise the power of two that brings it into [0.5, 1), with a warning, or a ValueError
    for an estimator whose result depends on the scale (see :func:`check_fit_input`)."""
    low, high = FIT_RANGE
    if low <= top <= high:
        return 0
    name = type(estimator).__name__
    exponent = int(np.frexp(top)[1])
    why = f"its largest entry, {top:.3g}, makes the products the fit forms " + (
        "overflow" if top > high else "underflow or vanish beside the solvers' constants")
    if not estimator._scale_free():
        raise ValueError(f"{name}: {why}, and with these parameters the result depends on the "
                         "scale of X: divide X by its largest entry before fitting")
    warnings.warn(f"{name}: X was multiplied by 2**{-exponent} before fitting, since {why}; "
                  "the labels are those of X (the method is scale-free), the objective and "
                  "factors those of the scaled X, and new documents are scaled alike",
                  UserWarning, stacklevel=_caller_outside_docnmf())
    return -exponent


def _canonical(X):
    """``X``, or a copy of it whose duplicate sparse entries are summed and indices sorted: many
    scipy operations (``max``, ``abs``, ``power``) sum them in place, which changed the caller's
    matrix, and its largest entry was read before they were summed."""
    if not sp.issparse(X) or X.has_canonical_format:
        return X
    X = X.copy()
    X.sum_duplicates()
    return X


def _int32_indices(E):
    """``E`` with 32-bit sparse indices where they fit (scikit-learn's KMeans takes no other; a
    matrix built from numpy's default integers has 64-bit ones)."""
    if not sp.issparse(E) or E.format != "csr" or E.indices.dtype == np.int32 \
            or max(E.nnz, *E.shape) >= np.iinfo(np.int32).max:
        return E
    return sp.csr_matrix((E.data, E.indices.astype(np.int32), E.indptr.astype(np.int32)),
                         shape=E.shape)


def _scaled(X, exponent: int):
    """``X`` times ``2**exponent``, exactly (a new matrix)."""
    if sp.issparse(X):
        X = X.copy()
        X.data = np.ldexp(X.data, exponent)
        return X
    return np.ldexp(X, exponent)


def check_new_input(estimator, X):
    """New documents ``X`` for a fitted ``estimator``'s ``transform``/``predict``: validated
    against the fit (finite, as many columns, dense or CSR float64) and scaled as
    :func:`check_fit_input` scaled the fitted ``X``, so that the fitted documents placed
    again land where the fit put them."""
    X = _int32_indices(_canonical(validate_data(estimator, X, accept_sparse="csr",
                                                dtype=np.float64, reset=False)))
    _warn_empty_rows(type(estimator).__name__, X, placing=True)
    exponent = getattr(estimator, "scale_exponent_", 0)
    return _scaled(X, exponent) if exponent else X


def _caller_outside_docnmf() -> int:
    """The ``stacklevel`` that names the first caller outside docnmf (and scikit-learn's
    wrappers of its methods), for a warning given here: placing goes through more or fewer
    of their calls depending on the estimator."""
    import sklearn

    ours = tuple(os.path.dirname(os.path.abspath(m.__file__)) + os.sep
                 for m in (sys.modules[__package__], sklearn))
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(ours):
        frame, level = frame.f_back, level + 1
    return level


def fit_constraints(n_docs: int, y=None, must_link=None, cannot_link=None):
    """:func:`~docnmf.constraints.build_constraints` for a ``fit`` call, with a
    ConstraintWarning when ``y`` labels every document: scikit-learn's clusterers ignore ``y``,
    so ``fit(X, y)`` of a pipeline or ``cross_validate`` passes the classes themselves, and
    every pair of documents became a constraint without a word (an accuracy of 1.0). A ``y``
    of another length than ``n_docs`` is refused without the warning."""
    if y is not None and np.asarray(y).shape == (n_docs,) and labels_every_document(y):
        warnings.warn(f"y labels all {n_docs} documents (none is -1, unlabelled): every pair of "
                      "them is a constraint, and the clusters are the labels given. To cluster "
                      "with a few labels, give -1 for the others; to cluster without, fit(X) "
                      "alone", ConstraintWarning, stacklevel=_caller_outside_docnmf())
    return build_constraints(n_docs, y, must_link, cannot_link)


def warn_broken_pairs(constraints, labels) -> None:
    """A ConstraintWarning when ``labels`` split must-link pairs or join cannot-link ones (they
    went by without a word: 7 documents pairwise cannot-linked into 5 clusters)."""
    split, joined = constraints.violations(labels)
    if not (split or joined):
        return
    parts = [f"splits {split} of the {len(constraints.must_link)} must-link pairs"] * bool(split) \
        + [f"joins {joined} of the {len(constraints.cannot_link)} cannot-link pairs"] * bool(joined)
    warnings.warn(f"the result {' and '.join(parts)} (constraints_.violations(labels_))"
                  + ("; if more documents are pairwise cannot-linked than there are clusters, "
                     "no result keeps them all apart"
                     if joined else ""), ConstraintWarning, stacklevel=_caller_outside_docnmf())


def _warn_empty_rows(name: str, X, placing: bool = False) -> None:
    """Documents without a term have nothing to be clustered by: say so (their labels come from
    ties, usually cluster 0, which they swell), once, in the outermost fit, or when new
    documents are placed outside any fit."""
    if _FIT_DEPTH.get() > (0 if placing else 1):
        return
    warn_empty_documents(name, rows_without_entries(X).size, X.shape[0], placing)


def rows_without_entries(X) -> np.ndarray:
    """Indices of the rows of ``X`` (dense or sparse) with no non-zero entry; a row that stores
    zeros only (scipy keeps explicit zeros) is one. ``X`` is left as it is.

    >>> import scipy.sparse as sp
    >>> rows_without_entries(sp.csr_matrix(([0.0, 1.0], [0, 1], [0, 1, 2]), shape=(2, 2)))
    array([0])
    """
    if not sp.issparse(X):
        return np.flatnonzero(~np.any(np.asarray(X) != 0, axis=1))
    if X.format != "csr" or not X.has_canonical_format:
        # on a copy: abs() sums a CSC or COO matrix's duplicate entries in place, and a sum of
        # integers can wrap to 0 (int8's abs(-128) is -128, uint64's 2**63 twice is 0); the
        # duplicates are summed in float64, as the estimators read them (uint8's 128 twice is
        # 256 there, 0 in uint8), and a CSR matrix's as a CSC matrix's
        X = (X.astype(np.float64) if X.dtype.kind in "biu" else X.copy()).tocsr()
        X.sum_duplicates()
    stored = X.data != 0
    held = np.diff(X.indptr) if stored.all() else np.diff(
        np.concatenate([[0], np.cumsum(stored)])[X.indptr])
    return np.flatnonzero(held == 0)


def warn_empty_documents(name: str, empty: int, n_docs: int, placing: bool = False) -> None:
    """:func:`_warn_empty_rows`' warning, for ``empty`` of ``n_docs`` documents counted where
    they are (the blocks of a matrix on Dask)."""
    if empty and placing:
        warnings.warn(f"{name}: {empty} of the {n_docs} documents placed have no terms the "
                      "model knows (all-zero rows); their labels come from ties, not content "
                      "(ClusteringModel.place and docnmf assign label them -1)",
                      UserWarning, stacklevel=_caller_outside_docnmf())
    elif empty:
        warnings.warn(f"{name}: {empty} of the {n_docs} documents have no terms (all-zero "
                      "rows); their labels come from ties, not content: leave them out before "
                      "fitting (docnmf.cluster_corpus and docnmf cluster label them -1)",
                      UserWarning, stacklevel=_caller_outside_docnmf())


def _final_loss(result) -> float:
    return float(result.losses[-1])


def best_restart(results: Iterable[Result], *, key: Callable[[Result], float] = _final_loss,
                 name: str = "", total: int | None = None, verbose: int = 0,
                 tol: float | None = None, max_iter: int | None = None,
                 timed: bool = True) -> tuple[Result, np.ndarray]:
    """The restart with the lowest objective ``key(result)``; the first of equals is kept.

    ``results`` may be a generator (restarts fitted as it is consumed); only
    the best result so far is kept. Returns it and every restart's objective
    in order (``restart_objectives_``). With ``verbose``, each restart is
    logged with its time (``timed=False``: without, for restarts fitted side by side and
    handed over together). With ``tol`` given, a kept result whose
    ``converged`` is false raises a ``ConvergenceWarning``.

    Examples
    --------
    >>> best_restart([3.0, 1.0, 2.0, 1.0], key=float)
    (1.0, array([3., 1., 2., 1.]))
    """
    best, best_value, values = None, None, []
    t0 = time.perf_counter()
    for r, result in enumerate(results):
        value = key(result)
        values.append(value)
        if verbose:
            n_iter = getattr(result, "n_iter", None)
            logger.info("%s restart %d/%s: objective %.6g%s%s", name, r + 1,
                        total if total is not None else "?", value,
                        f" after {n_iter} iterations" if n_iter is not None else "",
                        f" ({time.perf_counter() - t0:.2f}s)" if timed else "")
            t0 = time.perf_counter()
        # a NaN objective (an overflow) never beats a number
        if best is None or value < best_value or (np.isnan(best_value) and not np.isnan(value)):
            best, best_value = result, value
    if best is None:
        raise ValueError("no restarts to choose from")
    if not np.isfinite(best_value):
        raise ValueError(f"{name} objective is {best_value} in every restart: the input "
                         "overflows the computation; divide X by its largest entry")
    if tol is not None and not best.converged:
        warn_unconverged(name, tol, max_iter)
    return best, np.asarray(values, dtype=np.float64)


def warn_unconverged(name: str, tol, max_iter) -> None:
    """The ConvergenceWarning of a fit that ran ``max_iter`` iterations without reaching
    ``tol``; none for a negative ``tol``, which asks for every iteration."""
    if float(tol) < 0:
        return
    # a change of exactly nothing, which rounding may never give: more iterations will not do
    advice = (f"more iterations may never reach tol={tol}, no change at all; give a larger one"
              if float(tol) == 0 else "raise max_iter")
    warnings.warn(f"{name} did not converge to tol={tol} in max_iter={max_iter} iterations; "
                  f"{advice}", ConvergenceWarning, stacklevel=_caller_outside_docnmf())


def fit_restarts(fit_once: Callable[[np.random.Generator], Result], rng: np.random.Generator,
                 n_init: int) -> Iterable[Result]:
    """``fit_once(child)`` for the ``n_init`` children of ``rng``, one after another, lazily.

    Restart ``r`` gets the ``r``-th child, so it does not depend on how the
    others went. Feed it to :func:`best_restart`.
    """
    return (fit_once(child) for child in child_generators(rng, int(n_init)))


def cluster_means(X, labels: np.ndarray, n_clusters: int) -> np.ndarray:
    """Mean of the rows of ``X`` in each cluster; an empty cluster gets a zero row.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [3.0, 2.0], [0.0, 5.0]])
    >>> cluster_means(X, np.array([0, 0, 1]), 3).tolist()
    [[2.0, 1.0], [0.0, 5.0], [0.0, 0.0]]
    """
    n = X.shape[0]
    S = sp.csr_matrix((np.ones(n), (labels, np.arange(n))), shape=(n_clusters, n))
    sums = np.asarray((S @ X).toarray() if sp.issparse(X) else S @ X)
    counts = np.bincount(labels, minlength=n_clusters)[:, None].astype(np.float64)
    return np.divide(sums, counts, out=np.zeros_like(sums), where=counts > 0)


def memberships_from(V: np.ndarray) -> np.ndarray:
    """Rows of a non-negative factor scaled to sum to one; an all-zero row becomes uniform.

    Examples
    --------
    >>> memberships_from(np.array([[1.0, 3.0], [0.0, 0.0]])).tolist()
    [[0.25, 0.75], [0.5, 0.5]]
    """
    V = np.asarray(V, dtype=np.float64)
    sums = V.sum(axis=1, keepdims=True)
    out = np.full_like(V, 1.0 / V.shape[1])
    np.divide(V, sums, out=out, where=sums > 0)
    return out


def top_terms(components: np.ndarray, feature_names: Sequence[str], n: int = 10) -> list[list[str]]:
    """The ``n`` highest-weighted names in each row of ``components`` (ties: column order).

    Examples
    --------
    >>> top_terms(np.array([[0.1, 0.9, 0.5], [1.0, 0.0, 0.2]]), ["a", "b", "c"], 2)
    [['b', 'c'], ['a', 'c']]
    """
    names = np.asarray(feature_names, dtype=object)
    if len(names) != components.shape[1]:
        raise ValueError(f"{len(names)} feature names for {components.shape[1]} terms")
    return [[str(names[j]) for j in row] for row in heaviest_columns(components, n)]


#: A term weighs in a cluster above this share of the cluster's heaviest term: the solvers
#: keep factors a hair above zero (1e-10 of the largest), terms the cluster has nothing of.
KEYWORD_FLOOR = 1e-6


def held_only(W: np.ndarray, held: np.ndarray) -> np.ndarray:
    """``W`` (clusters x terms) with each cluster's weight on a term none of its documents
    holds (``held`` False) set to 0; a cluster left with no weight (no document, or documents
    whose words all weigh 0 in it, as a k-means model can place them) keeps its own.

    A topic is a mixture over the whole corpus: a cluster of two documents on fruit listed
    "elder", a word of another cluster's documents only, among its keywords.

    Examples
    --------
    >>> held_only(np.array([[0.5, 0.2], [0.1, 0.3]]), np.array([[True, False], [False, False]]))
    array([[0.5, 0. ],
           [0.1, 0.3]])
    >>> held_only(np.array([[0.0, 0.2]]), np.array([[True, False]]))
    array([[0. , 0.2]])
    """
    W = np.asarray(W, dtype=np.float64)
    kept = np.where(np.asarray(held, dtype=bool), W, 0.0)
    weightless = ~(kept > 0).any(axis=1)
    kept[weightless] = W[weightless]
    return kept


def terms_held(X, labels: np.ndarray, k: int) -> np.ndarray:
    """(k, terms): whether some document of cluster c (``labels``; -1 for none) holds term j
    with a weight above 0 in ``X`` (documents x terms, non-negative)."""
    labels = np.asarray(labels)
    assigned = np.flatnonzero(labels >= 0)
    members = sp.csr_matrix((np.ones(assigned.size), (labels[assigned], assigned)),
                            shape=(k, X.shape[0]))
    return (members @ (sp.csr_matrix(X) > 0).astype(np.float64)).toarray() > 0


def heaviest_columns(W: np.ndarray, n: int) -> list[list[int]]:
    """The ``n`` heaviest columns of each row of ``W`` (ties: column order), leaving out those
    at or under ``KEYWORD_FLOOR`` of the row's largest: a cluster of two documents on giraffes
    listed butter and flour after them, other clusters' words at 1e-10 of its own."""
    W = np.asarray(W, dtype=np.float64)
    order = np.argsort(-W, axis=1, kind="stable")[:, :n]
    floor = np.maximum(W.max(axis=1, initial=0.0), 0.0) * KEYWORD_FLOOR
    return [[int(j) for j in row if W[i, j] > floor[i]] for i, row in enumerate(order)]


def distance_memberships(sq_distances: np.ndarray) -> np.ndarray:
    """Memberships from squared distances to cluster centres: fuzzy c-means with ``m = 2``.

    ``u_ic = (1 / d_ic) / sum_j (1 / d_ij)`` for the squared distances
    ``d_ic`` of document ``i`` to centre ``c``: the memberships that minimise
    the fuzzy c-means objective ``sum_ic u_ic^2 d_ic`` for the given centres
    (Bezdek 1981). They are the methods' own geometry read softly: the
    largest is the nearest centre (the k-means label), a document at a
    centre belongs wholly to it (shared equally among centres it coincides
    with), and they do not change when every distance is scaled alike, so
    they need no temperature and mean the same in any space k-means ran in
    (tf-idf vectors, LSI coordinates, topic distributions, kernel feature
    space). An infinite distance (an empty cluster) gives 0.

    Examples
    --------
    >>> distance_memberships(np.array([[1.0, 3.0], [0.0, 2.0], [4.0, 4.0]])).tolist()
    [[0.75, 0.25], [1.0, 0.0], [0.5, 0.5]]
    """
    D = np.maximum(np.asarray(sq_distances, dtype=np.float64), 0.0)   # rounding: -1e-16
    at_centre = D == 0
    with np.errstate(divide="ignore"):
        inverse = np.where(at_centre, 0.0, 1.0 / np.where(at_centre, 1.0, D))
    inverse = np.where(at_centre.any(axis=1, keepdims=True), at_centre.astype(np.float64),
                       inverse)
    return memberships_from(inverse)


def representative_documents(memberships: np.ndarray, labels: np.ndarray, n: int = 3, *,
                             tiebreak: np.ndarray | None = None) -> list[list[int]]:
    """For each cluster, the indices of its ``n`` members with the strongest membership.

    Members with equal membership are ordered by ``tiebreak`` (larger first,
    e.g. each document's similarity to its cluster's mean), then by index.

    Examples
    --------
    >>> M = np.array([[0.9, 0.1], [0.6, 0.4], [0.2, 0.8], [0.95, 0.05]])
    >>> representative_documents(M, np.array([0, 0, 1, 0]), 2)
    [[3, 0], [2]]
    >>> representative_documents(np.ones((3, 1)), np.zeros(3, int), 2,
    ...                          tiebreak=np.array([0.1, 0.7, 0.3]))
    [[1, 2]]
    """
    second = np.zeros(len(labels)) if tiebreak is None else np.asarray(tiebreak, dtype=np.float64)
    out = []
    for c in range(memberships.shape[1]):
        members = np.flatnonzero(labels == c)
        # np.lexsort sorts by its last key first: membership, then the tie-break, then index
        order = np.lexsort((members, -second[members], -memberships[members, c]))
        out.append(members[order[:n]].tolist())
    return out


def _summed_in_float(X):
    """``X``, or for a COO matrix of integers or booleans the same matrix in float64: its
    duplicate entries (one per token, say) are summed when it is made CSR, which
    scikit-learn's validation does before it converts the type, so int8's 7 + 127 was -122
    and uint8's 128 + 128 was 0. Summed in float64 they are what docnmf's diagnostics read."""
    if sp.issparse(X) and X.format == "coo" and X.dtype.kind in "biu":
        return X.astype(np.float64)
    return X


def _looks_like_texts(X) -> bool:
    if isinstance(X, str):
        return True
    if isinstance(X, (list, tuple)) or (isinstance(X, np.ndarray) and X.ndim == 1
                                        and X.dtype.kind in "OUS"):
        return len(X) > 0 and isinstance(X[0], (str, bytes))
    if getattr(X, "ndim", None) == 1 and hasattr(X, "iloc"):     # a pandas Series, df["text"]
        return len(X) > 0 and isinstance(X.iloc[0], (str, bytes))
    return False


#: How many docnmf fits are running in this context: a fit inside another (LCCF's NMF start,
#: the consensus's members) leaves what it notices about the input to the outermost one.
_FIT_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("docnmf_fit_depth", default=0)


def _checked_fit(fit: Callable) -> Callable:
    """``fit`` saying what to do when given raw texts instead of a matrix (scikit-learn's own
    message quotes a whole document that could not be read as a number), and counting the
    fits it runs within (:data:`_FIT_DEPTH`)."""

    @functools.wraps(fit)
    def wrapper(self, X=None, *args, **kwargs):
        if not self._reads_texts and _looks_like_texts(X):
            raise TypeError(f"{type(self).__name__} clusters a documents x terms matrix, not "
                            "texts: make one with docnmf.DocumentVectorizer().fit_transform("
                            "texts) (or scikit-learn's TfidfVectorizer) and fit on it")
        token = _FIT_DEPTH.set(_FIT_DEPTH.get() + 1)
        try:
            fitted = fit(self, _summed_in_float(X), *args, **kwargs)
            if _FIT_DEPTH.get() == 1:       # a consensus's members are its own business
                _warn_fewer_clusters(self)
            return fitted
        finally:
            _FIT_DEPTH.reset(token)

    return wrapper


class FewerClustersWarning(UserWarning):
    """A fit whose documents fell into fewer clusters than ``n_clusters``: some are empty."""


def _warn_fewer_clusters(estimator) -> None:
    """Warn when the fitted ``labels_`` use fewer clusters than asked. NMF, CF and LCCF put 20
    identical documents in 1 cluster of the 3 asked, and said nothing; scikit-learn's k-means
    warns of it itself (estimators whose labels are its say so by
    ``_kmeans_warns_fewer_clusters``)."""
    labels = getattr(estimator, "labels_", None)
    k = getattr(estimator, "n_clusters", None)
    if estimator._kmeans_warns_fewer_clusters or not isinstance(labels, np.ndarray) \
            or isinstance(k, bool) or not isinstance(k, (int, np.integer)):
        return
    found = np.unique(labels[labels >= 0]).size
    if found < k:
        warnings.warn(f"{type(estimator).__name__} put the documents in {found} of the {k} "
                      f"clusters asked, {k - found} left empty: the documents may be too alike "
                      "(duplicates, very short texts) or have too few terms for that many "
                      "clusters; ask for fewer", FewerClustersWarning,
                      stacklevel=_caller_outside_docnmf())


def _texts_refused(method: Callable) -> Callable:
    """``predict``/``transform`` saying what to do when given raw texts (as :func:`_checked_fit`
    does for ``fit``)."""

    @functools.wraps(method)
    def wrapper(self, X=None, *args, **kwargs):
        if not self._reads_texts and _looks_like_texts(X):
            # .transform alone was named: of an estimator fitted on counts (the consensus,
            # SS-NMF), it gives tf-idf, and memberships off by a little, without a word
            raise TypeError(f"{type(self).__name__}.{method.__name__} takes a documents x terms "
                            "matrix, not texts: make one as the fitted one was made, with the "
                            "same vectorizer (vectorizer.transform(texts) for tf-idf, "
                            "vectorizer.count(texts) for counts), or place texts with "
                            "docnmf.ClusteringModel(estimator, vectorizer).place(texts), which "
                            "knows which the method takes")
        return method(self, _summed_in_float(X), *args, **kwargs)

    wrapper._refuses_texts = True
    return wrapper


def _shown_when_verbose(fit: Callable) -> Callable:
    """``fit`` showing docnmf's progress messages on standard error when the estimator's
    ``verbose`` is set and logging is not configured (no handler would show them): scikit-learn's
    ``verbose`` prints, and a user who sets it expects to see something. Configured logging
    (the command line's, an application's) is left to decide."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        root = logging.getLogger("docnmf")
        if not getattr(self, "verbose", 0) or root.hasHandlers():
            return fit(self, *args, **kwargs)
        handler = logging.StreamHandler()           # sys.stderr at the time of the fit
        handler.setFormatter(logging.Formatter("docnmf: %(message)s"))
        level = root.level
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        try:
            return fit(self, *args, **kwargs)
        finally:
            root.removeHandler(handler)
            root.setLevel(level)

    wrapper._shows_progress = True
    return wrapper


class DocumentClusterer:
    """What the clustering estimators share; mix in before scikit-learn's bases.

    - ``top_keywords``: the heaviest terms of each row of the matrix
      :meth:`_keyword_weights` returns (by default the fitted attribute named
      by ``_keyword_attribute``, ``components_``); an estimator with no term
      weights sets ``_keyword_attribute = None`` and has no ``top_keywords``.
    - ``fit_predict`` passes ``y`` and fit parameters (``must_link``,
      ``cannot_link``) on to ``fit``.
    - ``_placement_state``: the fitted attributes a saved model needs; ``_fit_results``, those
      it keeps besides (labels and memberships of the fitted documents, objectives).
    - Tags: sparse input; ``_positive_only()`` and ``_pairwise()`` say the
      rest.
    """

    _keyword_attribute: str | None = "components_"

    #: Whether ``fit`` reads raw texts (NMA) rather than a documents x terms matrix.
    _reads_texts = False

    #: Whether the fitted labels are scikit-learn k-means' own, which warns when it finds fewer
    #: clusters than asked; the others are warned of by ``fit`` (:class:`FewerClustersWarning`).
    _kmeans_warns_fewer_clusters = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fit = cls.__dict__.get("fit")
        if fit is not None and not getattr(fit, "_shows_progress", False):
            cls.fit = _shown_when_verbose(_checked_fit(fit))
        for name in ("predict", "transform", "predict_memberships"):
            # inherited too (k-means' predict comes from a base outside this class tree); plain
            # functions only, not scikit-learn's conditional methods
            method = inspect.getattr_static(cls, name, None)
            if inspect.isfunction(method) and not getattr(method, "_refuses_texts", False):
                setattr(cls, name, _texts_refused(method))

    #: The fitted attributes that placing new documents (``predict``,
    #: ``predict_memberships``) and keywords need: what a saved model keeps
    #: (:mod:`docnmf.model`). An attribute a fit did not set is left out.
    _placement_state: tuple[str, ...] = ()
    #: Of the placement state, the arrays a fit gives without a negative number (a loaded model
    #: whose arrays hold one is refused: it was edited).
    _non_negative_state: tuple[str, ...] = ()
    #: What a fit found about the documents it was fitted on, kept beside the placement
    #: state in a saved model when numeric, so that a loaded estimator reads as the fitted one
    #: did (a list comes back as an array).
    _fit_results: tuple[str, ...] = ("labels_", "memberships_", "objective_", "n_iter_",
                                     "restart_objectives_", "loss_history_")

    def _placement_blocker(self) -> str | None:
        """Why this fitted estimator cannot be saved to place new documents, or None."""
        if not hasattr(self, "predict_memberships"):
            return f"{type(self).__name__} cannot place new documents"
        return None

    def _keyword_weights(self) -> np.ndarray:
        return getattr(self, self._keyword_attribute)

    @available_if(lambda self: self._keyword_attribute is not None)
    def top_keywords(self, feature_names, n: int = 10) -> list[list[str]]:
        """The ``n`` heaviest terms of each cluster (see the class's ``_keyword_weights``)."""
        check_is_fitted(self)
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
        return top_terms(self._keyword_weights(), feature_names, n)

    def fit_predict(self, X, y=None, **fit_params):
        """``fit`` (``y`` and fit parameters passed on), then ``labels_``."""
        return self.fit(X, y, **fit_params).labels_

    def _positive_only(self) -> bool:
        return True

    def _scale_free(self) -> bool:
        """Whether the labels are the same for ``X`` and ``c * X`` (see :func:`check_fit_input`)."""
        return True

    def _pairwise(self) -> bool:
        return False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self._reads_texts:   # a list of texts (or of segment lists), not a matrix
            tags.input_tags.two_d_array = False
            tags.input_tags.string = True
            return tags
        tags.input_tags.sparse = True
        tags.input_tags.positive_only = self._positive_only()
        tags.input_tags.pairwise = self._pairwise()
        return tags


class SoftClusterer(DocumentClusterer, TransformerMixin):
    """A :class:`DocumentClusterer` whose ``transform`` gives soft memberships of new documents.

    ``fit_transform`` returns the fitted documents' ``memberships_``;
    ``predict`` is the argmax of ``transform``. Being a scikit-learn
    transformer here (not only in the estimators' own bases) lets
    ``set_output`` reach this ``fit_transform`` as well as ``transform``.
    """

    def fit_transform(self, X, y=None, **fit_params):
        """``fit`` (``y`` and fit parameters passed on), then the soft ``memberships_``."""
        return self.fit(X, y, **fit_params).memberships_

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Names of ``transform``'s columns, one per cluster: the class's name in lower case and
        the cluster's number (``nmfclustering0``, ...), as scikit-learn's decompositions name
        theirs. ``input_features`` is not used (the columns are clusters, not terms)."""
        check_is_fitted(self)
        prefix = type(self).__name__.lower()
        # the fitted number, not the parameter: set_params(n_clusters=7) does not refit
        n_clusters = np.shape(self.memberships_)[1] if hasattr(self, "memberships_") \
            else self.n_clusters
        return np.asarray([f"{prefix}{c}" for c in range(n_clusters)], dtype=object)

    def predict(self, X):
        """Cluster of each new document: the argmax of its memberships."""
        return np.argmax(self.transform(X), axis=1)

    def predict_memberships(self, X):
        """Soft memberships of new documents (``transform``)."""
        return self.transform(X)


def kmeans_restarts(E, k: int, *, n_init: int, max_iter: int, tol: float, seed: int,
                    sample_weight=None, name: str | None = None) -> tuple[KMeans, np.ndarray]:
    """``KMeans(k, n_init=n_init, random_state=seed)`` one start at a time, keeping each objective.

    The starts draw from one ``RandomState(seed)`` in turn, as scikit-learn's
    own restart loop does, and the kept start is chosen by its rule (a lower
    inertia and a different partition), so the fitted model is the one
    ``KMeans(n_init=n_init)`` gives; what this adds is every start's
    inertia. Warnings are those of the kept start, and, given the ``name`` of
    an estimator whose ``max_iter`` this is, a ConvergenceWarning when it ran
    all ``max_iter`` iterations (scikit-learn says nothing then, where the
    factorizations say they did not converge).
    """
    state = np.random.RandomState(seed)
    best, best_warnings, objectives = None, [], []
    for _ in range(n_init):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            km = KMeans(n_clusters=k, n_init=1, max_iter=max_iter, tol=tol,
                        random_state=state).fit(E, sample_weight=sample_weight)
        objectives.append(float(km.inertia_))
        if best is None or (km.inertia_ < best.inertia_
                            and not _refines(km.labels_, best.labels_, k)):
            best, best_warnings = km, caught
    for w in best_warnings:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if name is not None and best.n_iter_ >= max_iter and not _kmeans_settled(best, E,
                                                                             sample_weight):
        # Lloyd's loop stops at max_iter whether or not its last step settled the labels
        warnings.warn(f"{name}: k-means ran all max_iter={max_iter} iterations and may not "
                      "have converged; raise max_iter", ConvergenceWarning,
                      stacklevel=_caller_outside_docnmf())
    return best, np.asarray(objectives)


def _kmeans_settled(km: KMeans, E, sample_weight=None) -> bool:
    """Whether one more Lloyd step would leave ``km`` as it is, its labels and its centres:
    ``n_iter_`` is ``max_iter`` also when the labels stopped changing on that last iteration
    (scikit-learn counts the iteration that finds them unchanged), which has converged.

    The labels alone do not tell: stopped two iterations before they would be found
    unchanged, the final assignment already gives the converged labels, but the centres are
    still the means of the assignment before (the inertia, ``transform`` and the memberships
    from them are not the converged ones)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        step = KMeans(n_clusters=km.n_clusters, init=km.cluster_centers_, n_init=1, max_iter=1,
                      tol=0.0).fit(E, sample_weight=sample_weight)
    return bool(np.array_equal(step.labels_, km.labels_)
                and np.allclose(step.cluster_centers_, km.cluster_centers_, rtol=1e-9,
                                atol=1e-12))


def _refines(labels: np.ndarray, other: np.ndarray, k: int) -> bool:
    """True when every cluster of ``labels`` lies inside one cluster of ``other``.

    Examples
    --------
    >>> _refines(np.array([0, 0, 1]), np.array([1, 1, 0]), 2)
    True
    """
    first = np.full(k, -1)
    first[labels[::-1]] = other[::-1]   # for each cluster, the other label of its first member
    return bool(np.all(first[labels] == other))
