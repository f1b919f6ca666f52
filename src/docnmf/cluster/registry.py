"""Clustering methods by name, as the command line and the experiment runner know them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .nmf import NMFClustering

__all__ = ["Method", "METHODS", "make_estimator"]


@dataclass(frozen=True)
class Method:
    """A named way to build an estimator for ``n_clusters`` clusters."""

    name: str
    description: str
    factory: Callable[..., Any]


METHODS: dict[str, Method] = {
    "nmf": Method("nmf", "NMF with argmax labels (Xu et al. 2003)",
                  lambda k, **kw: NMFClustering(k, weighting="none", **kw)),
    "nmf-ncw": Method("nmf-ncw", "NMF on normalized-cut weighted data (Xu et al. 2003, App. B)",
                      lambda k, **kw: NMFClustering(k, weighting="ncw", **kw)),
}


def make_estimator(method: str, n_clusters: int, **params):
    """Build the estimator registered as ``method``.

    Examples
    --------
    >>> make_estimator("nmf-ncw", 3, random_state=0).weighting
    'ncw'
    """
    if method not in METHODS:
        raise KeyError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    return METHODS[method].factory(n_clusters, **params)
