"""Baseline clustering methods of the papers' tables: KM, KM-NCW, AA, NC, LSI + KM, PCA + KM.

All are scikit-learn style estimators on documents as rows (dense or CSR)
with the same interface as :class:`docnmf.cluster.NMFClustering`:
``fit``, ``fit_predict``, ``labels_``, ``memberships_``, ``objective_``,
``top_keywords``; ``predict`` where new documents have a natural place.
"""

from .kmeans import KMeansClustering
from .lsi import LSIClustering, PCAClustering
from .spectral import GraphCutClustering, graph_cut_criterion

__all__ = ["KMeansClustering", "GraphCutClustering", "LSIClustering", "PCAClustering",
           "graph_cut_criterion"]
