"""Choosing the number of clusters without labels (``docnmf choose-k``, ``cluster -k auto``)."""

from .choose import CRITERIA, KSelection, kmeans_silhouette_curve, select_k
from .output import format_selection, write_selection

__all__ = ["CRITERIA", "KSelection", "select_k", "kmeans_silhouette_curve", "write_selection",
           "format_selection"]
