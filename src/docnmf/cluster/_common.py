"""Pieces shared by the clustering estimators: restarts, memberships, keywords, summaries."""

from __future__ import annotations

import logging
import time
import warnings
from typing import Any, Callable, Iterable, Sequence

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .._rng import child_generators

logger = logging.getLogger("docnmf.cluster")


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


def best_of_restarts(fit_once: Callable[[np.random.Generator], Any], rng: np.random.Generator,
                     n_init: int, *, name: str, tol: float, max_iter: int,
                     verbose: int = 0) -> tuple[Any, np.ndarray]:
    """Run ``fit_once`` from ``n_init`` independent starts; keep the lowest final objective.

    ``fit_once(generator)`` returns a solver result with ``losses`` (the
    objective history), ``n_iter`` and ``converged``. Restart ``r`` gets the
    ``r``-th child of ``rng``, so a restart does not depend on how the others
    went. Warns (``ConvergenceWarning``) when the kept restart did not
    converge. Returns the kept result and every restart's final objective.
    """
    best, losses = None, []
    for r, child in enumerate(child_generators(rng, int(n_init))):
        t0 = time.perf_counter()
        result = fit_once(child)
        losses.append(float(result.losses[-1]))
        if verbose:
            logger.info("%s restart %d/%d: objective %.6g after %d iterations (%.2fs)", name,
                        r + 1, n_init, result.losses[-1], result.n_iter,
                        time.perf_counter() - t0)
        if best is None or result.losses[-1] < best.losses[-1]:
            best = result
    if not best.converged:
        warnings.warn(f"{name} did not converge to tol={tol} in max_iter={max_iter} iterations; "
                      "raise max_iter", ConvergenceWarning, stacklevel=3)
    return best, np.asarray(losses)


def best_result(results: Iterable[Any], *, name: str, tol: float, max_iter: int,
                total: int, verbose: int = 0) -> tuple[Any, np.ndarray]:
    """The result with the lowest final objective among restarts fitted side by side.

    The counterpart of :func:`best_of_restarts`: the same choice (the first of
    equal objectives), log lines and warning. ``results`` may be a generator;
    only the best result so far is kept.
    """
    best, losses = None, []
    for r, result in enumerate(results):
        losses.append(float(result.losses[-1]))
        if verbose:
            logger.info("%s restart %d/%d: objective %.6g after %d iterations", name, r + 1,
                        total, result.losses[-1], result.n_iter)
        if best is None or result.losses[-1] < best.losses[-1]:
            best = result
    if not best.converged:
        warnings.warn(f"{name} did not converge to tol={tol} in max_iter={max_iter} iterations; "
                      "raise max_iter", ConvergenceWarning, stacklevel=3)
    return best, np.asarray(losses)


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
    order = np.argsort(-components, axis=1, kind="stable")[:, :n]
    return [[str(names[j]) for j in row if components[i, j] > 0] for i, row in enumerate(order)]


def representative_documents(memberships: np.ndarray, labels: np.ndarray, n: int = 3) -> list[list[int]]:
    """For each cluster, the indices of its ``n`` members with the strongest membership.

    Examples
    --------
    >>> M = np.array([[0.9, 0.1], [0.6, 0.4], [0.2, 0.8], [0.95, 0.05]])
    >>> representative_documents(M, np.array([0, 0, 1, 0]), 2)
    [[3, 0], [2]]
    """
    out = []
    for c in range(memberships.shape[1]):
        members = np.flatnonzero(labels == c)
        order = np.argsort(-memberships[members, c], kind="stable")
        out.append(members[order[:n]].tolist())
    return out
