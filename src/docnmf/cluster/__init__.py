"""Clustering estimators (fit / fit_predict / transform) wrapping the solvers in ``docnmf.factor``."""

from .fsnmf import FSNMFClustering
from .lccf import LCCFClustering
from .nma import NMAClustering
from .nmf import NMFClustering
from .ssnmf import SSNMFClustering

__all__ = ["NMFClustering", "LCCFClustering", "SSNMFClustering", "FSNMFClustering",
           "NMAClustering"]
