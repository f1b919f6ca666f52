"""Clustering estimators (fit / fit_predict / transform) wrapping the solvers in ``docnmf.factor``."""

from .nmf import NMFClustering

__all__ = ["NMFClustering"]
