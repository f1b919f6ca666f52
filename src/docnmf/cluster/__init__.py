"""Clustering estimators (fit / fit_predict, and transform or predict_memberships for new
documents) wrapping the solvers in ``docnmf.factor``."""

from .._estimator import FewerClustersWarning
from .consensus import ConsensusClustering
from .fsnmf import FSNMFClustering
from .lccf import LCCFClustering
from .nma import NMAClustering
from .nmf import NMFClustering
from .ssnmf import SSNMFClustering

__all__ = ["ConsensusClustering", "NMFClustering", "LCCFClustering", "SSNMFClustering", "FSNMFClustering",
           "NMAClustering", "FewerClustersWarning"]
