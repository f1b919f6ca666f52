"""Baseline clustering methods of the papers' tables.

KM, KM-NCW, AA, NC, LSI + KM, PCA + KM, LDA-Km, kernel k-means, kernelized
AA/NC, the co-clustering ECC and MSRC, the semi-supervised SS-KK and SS-SNC,
and the topic models PLSI and LDA.

All are scikit-learn style estimators on documents as rows (dense or CSR)
with the same interface as :class:`docnmf.cluster.NMFClustering`:
``fit``, ``fit_predict``, ``labels_``, ``memberships_``, ``objective_``;
``top_keywords`` where the method weighs terms (kernel k-means, SS-KK and
SS-SNC cluster a kernel or a graph and have none); ``predict`` where new
documents have a natural place.
"""

from .coclustering import CoClustering
from .kernel import KernelGraphCutClustering
from .kernel_kmeans import KernelKMeansClustering
from .kmeans import KMeansClustering
from .lda_km import LDAKMeansClustering
from .lsi import LSIClustering, PCAClustering
from .semi_supervised import SSKernelKMeansClustering, SSNormalizedCutClustering
from .spectral import GraphCutClustering, graph_cut_criterion
from .topic_models import LDAClustering, PLSIClustering

__all__ = ["KMeansClustering", "GraphCutClustering", "LSIClustering", "PCAClustering",
           "KernelKMeansClustering", "KernelGraphCutClustering", "SSKernelKMeansClustering",
           "SSNormalizedCutClustering", "PLSIClustering", "LDAClustering", "graph_cut_criterion",
           "LDAKMeansClustering", "CoClustering"]
