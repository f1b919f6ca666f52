"""Scale out on Dask: the text pipeline, the NMF solvers and the estimator over a cluster.

Everything here runs on a ``distributed.Client``: a ``LocalCluster`` on a
laptop, a scheduler on an HPC allocation or on Kubernetes. A corpus is read
and vectorized partition by partition (:class:`PartitionedCorpus`,
:class:`DaskVectorizer`) into a Dask array of ``scipy.sparse`` CSR row
blocks; :class:`DaskNMFClustering` factorizes it with the document factor
``V`` partitioned like the rows of ``X`` and the term factor ``U`` (terms x
k) broadcast each iteration. Nothing in the in-memory path imports this
subpackage; it needs the ``dask`` extra (``pip install 'docnmf[dask]'``).
"""

from __future__ import annotations

try:
    import dask  # noqa: F401
    import distributed  # noqa: F401
except ImportError as exc:  # pragma: no cover - the message is the point
    raise ImportError("docnmf.distributed needs Dask: pip install 'docnmf[dask]' "
                      f"({exc})") from exc

from ._rows import DistributedFitError, RowPartitions
from .concept import fit_cf_dask
from .concept_clustering import DaskCFClustering
from .corpus import PartitionedCorpus
from .estimator import DaskNMFClustering
from .init import dask_starts, randomized_svd_rows
from .solvers import DASK_SOLVERS, fit_nmf_hals_dask, fit_nmf_mu_dask
from .text import DaskVectorizer

__all__ = ["DASK_SOLVERS", "DaskCFClustering", "DaskNMFClustering", "DaskVectorizer", "DistributedFitError",
           "PartitionedCorpus", "RowPartitions", "dask_starts", "fit_cf_dask",
           "fit_nmf_hals_dask", "fit_nmf_mu_dask", "randomized_svd_rows"]
