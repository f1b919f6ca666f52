"""Clustering methods by name, as the command line and the experiment runner know them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal

from .baselines import GraphCutClustering, KMeansClustering, LSIClustering, PCAClustering
from .baselines.coclustering import CoClustering
from .baselines.kernel import KernelGraphCutClustering
from .baselines.kernel_kmeans import KernelKMeansClustering
from .baselines.lda_km import LDAKMeansClustering
from .baselines.semi_supervised import SSKernelKMeansClustering, SSNormalizedCutClustering
from .baselines.topic_models import LDAClustering, PLSIClustering
from .factor.lccf import poly2_kernel
from .cluster.lccf import LCCFClustering
from .cluster.nma import NMAClustering
from .cluster.nmf import NMFClustering
from .cluster.ssnmf import SSNMFClustering

__all__ = ["Method", "METHODS", "PAPER_SOLVER", "make_estimator"]


@dataclass(frozen=True)
class Method:
    """A named way to build an estimator for ``n_clusters`` clusters.

    ``constraints`` says whether the estimator's ``fit`` takes ``must_link``
    and ``cannot_link`` pairs; ``input`` what it is fitted on: the weighted
    documents x terms matrix (``"tfidf"``), raw term counts (``"counts"``,
    topic models) or the texts themselves (``"texts"``, methods that segment
    documents).
    """

    name: str
    description: str
    factory: Callable[..., Any]
    constraints: bool = False
    input: Literal["tfidf", "counts", "texts"] = "tfidf"


#: LCCF as Cai et al. (2011) ran it: lambda = 100 as is (not scaled to the data), p = 5,
#: k-means on the rows of V.
_LCCF_PAPER = dict(lam=100.0, lam_scale="none", n_neighbors=5, labels="kmeans")

METHODS: dict[str, Method] = {
    "nmf": Method("nmf", "NMF with argmax labels (Xu et al. 2003)",
                  lambda k, **kw: NMFClustering(k, weighting="none", **kw)),
    "nmf-ncw": Method("nmf-ncw", "NMF on normalized-cut weighted data (Xu et al. 2003, App. B)",
                      lambda k, **kw: NMFClustering(k, weighting="ncw", **kw)),
    "km": Method("km", "k-means on the documents, best of n_init restarts",
                 lambda k, **kw: KMeansClustering(k, weighting="none", **kw)),
    "km-ncw": Method("km-ncw", "k-means weighted by 1/d_ii (Xu et al. 2003, App. A, eq. 19)",
                     lambda k, **kw: KMeansClustering(k, weighting="ncw", **kw)),
    "aa": Method("aa", "spectral clustering, average association (Xu et al. 2003, eqs. 15, 18)",
                 lambda k, **kw: GraphCutClustering(k, criterion="aa", **kw)),
    "nc": Method("nc", "spectral clustering, normalized cut (Xu et al. 2003, eqs. 16, 18)",
                 lambda k, **kw: GraphCutClustering(k, criterion="nc", **kw)),
    "lsi-km": Method("lsi-km", "k-means on the LSI (truncated SVD) coordinates, k dimensions",
                     lambda k, **kw: LSIClustering(k, **kw)),
    "pca-km": Method("pca-km", "k-means on the first k principal component scores",
                     lambda k, **kw: PCAClustering(k, **kw)),
    "lda-km": Method("lda-km", "k-means and LDA alternating on the subspace (Ding & Li 2007)",
                     lambda k, **kw: LDAKMeansClustering(k, **kw)),
    "ecc": Method("ecc", "co-clustering, residue a_ij - a_IJ (Cho et al. 2004, type I)",
                  lambda k, **kw: CoClustering(k, residue="I", **kw)),
    "msrc": Method("msrc", "co-clustering, residue a_ij - a_iJ - a_Ij + a_IJ (Cho et al. 2004, "
                   "type II)", lambda k, **kw: CoClustering(k, residue="II", **kw)),
    "cf": Method("cf", "concept factorization (Xu & Gong 2004; LCCF with lambda = 0)",
                 lambda k, **kw: LCCFClustering(k, lam=0.0, weighting="none", **kw)),
    "cf-ncw": Method("cf-ncw", "concept factorization on NC-weighted data",
                     lambda k, **kw: LCCFClustering(k, lam=0.0, weighting="ncw", **kw)),
    "lccf": Method("lccf", "locally consistent concept factorization (Cai et al. 2011)",
                   lambda k, **kw: LCCFClustering(k, weighting="none", **kw)),
    "lccf-ncw": Method("lccf-ncw", "LCCF on NC-weighted data (Cai et al. 2011, App. B)",
                       lambda k, **kw: LCCFClustering(k, weighting="ncw", **kw)),
    # Cai et al. (2011)'s settings: lambda = 100 as is, p = 5, k-means on V (their published code)
    "cf-paper": Method("cf-paper", "CF, k-means on V (Cai et al. 2011, Tables 4-7)",
                       lambda k, **kw: LCCFClustering(k, lam=0.0, weighting="none",
                                                      labels="kmeans", **kw)),
    "cf-ncw-paper": Method("cf-ncw-paper", "CF-NCW, k-means on V (Cai et al. 2011, Tables 4-7)",
                           lambda k, **kw: LCCFClustering(k, lam=0.0, weighting="ncw",
                                                          labels="kmeans", **kw)),
    "lccf-paper": Method("lccf-paper", "LCCF, lambda = 100, p = 5 (Cai et al. 2011, Sec. 4.3)",
                         lambda k, **kw: LCCFClustering(k, **_LCCF_PAPER, weighting="none", **kw)),
    "lccf-ncw-paper": Method("lccf-ncw-paper",
                             "LCCF-NCW, lambda = 100, p = 5 (Cai et al. 2011, Sec. 4.3)",
                             lambda k, **kw: LCCFClustering(k, **_LCCF_PAPER, weighting="ncw",
                                                            **kw)),
    # the kernelised rows of Cai et al. (2011), Tables 4-7: K = <x_i, x_j>^2 (dense n x n)
    "km-poly2": Method("km-poly2", "kernel k-means, K = <x, y>^2 (Cai et al. 2011)",
                       lambda k, **kw: KernelKMeansClustering(k, kernel=poly2_kernel, **kw)),
    "km-ncw-poly2": Method("km-ncw-poly2",
                           "weighted kernel k-means, weights 1/d, d = K e, K = <x, y>^2",
                           lambda k, **kw: KernelKMeansClustering(k, kernel=poly2_kernel,
                                                                  weighting="ncw", **kw)),
    "aa-poly2": Method("aa-poly2", "average association on K = <x, y>^2 (Cai et al. 2011)",
                       lambda k, **kw: KernelGraphCutClustering(k, criterion="aa",
                                                                kernel="poly2", **kw)),
    "nc-poly2": Method("nc-poly2", "normalized cut on K = <x, y>^2 (Cai et al. 2011)",
                       lambda k, **kw: KernelGraphCutClustering(k, criterion="nc",
                                                                kernel="poly2", **kw)),
    "cf-poly2": Method("cf-poly2", "CF with K = <x, y>^2, k-means on V (Cai et al. 2011)",
                       lambda k, **kw: LCCFClustering(k, lam=0.0, weighting="none",
                                                      kernel="poly2", labels="kmeans", **kw)),
    "cf-ncw-poly2": Method("cf-ncw-poly2", "CF-NCW with K = <x, y>^2, k-means on V",
                           lambda k, **kw: LCCFClustering(k, lam=0.0, weighting="ncw",
                                                          kernel="poly2", labels="kmeans",
                                                          **kw)),
    "lccf-poly2": Method("lccf-poly2", "LCCF with K = <x, y>^2, lambda = 100, p = 5",
                         lambda k, **kw: LCCFClustering(k, **_LCCF_PAPER, weighting="none",
                                                        kernel="poly2", **kw)),
    "lccf-ncw-poly2": Method("lccf-ncw-poly2", "LCCF-NCW with K = <x, y>^2, lambda = 100, p = 5",
                             lambda k, **kw: LCCFClustering(k, **_LCCF_PAPER, weighting="ncw",
                                                            kernel="poly2", **kw)),
    "kernel-km": Method("kernel-km", "kernel k-means, Gaussian kernel (Dhillon et al. 2004)",
                        lambda k, **kw: KernelKMeansClustering(k, **kw)),
    "ssnmf": Method("ssnmf", "semi-supervised NMF with must-/cannot-links (Chen et al. 2008)",
                    lambda k, **kw: SSNMFClustering(k, **kw), constraints=True),
    "ss-kk": Method("ss-kk", "semi-supervised kernel k-means (Kulis et al. 2005)",
                    lambda k, **kw: SSKernelKMeansClustering(k, **kw), constraints=True),
    "ss-snc": Method("ss-snc", "semi-supervised spectral normalized cut (Ji & Xu 2006)",
                     lambda k, **kw: SSNormalizedCutClustering(k, **kw), constraints=True),
    "nma": Method("nma", "documents as term x segment matrices, A_i ~ L M_i R^T (Wang et al. 2011)",
                  lambda k, **kw: NMAClustering(k, **kw), input="texts"),
    "plsi": Method("plsi", "probabilistic latent semantic indexing by EM (Hofmann 1999)",
                   lambda k, **kw: PLSIClustering(k, **kw), input="counts"),
    "lda": Method("lda", "latent Dirichlet allocation, argmax topic (scikit-learn)",
                  lambda k, **kw: LDAClustering(k, **kw), input="counts"),
}


#: How the papers fit their factorizations: multiplicative updates from random starts. The
#: experiments that reproduce them ask for it, whatever the estimators' own (faster) defaults.
PAPER_SOLVER = {"solver": "mu", "init": "random"}


def make_estimator(method: str, n_clusters: int, *, as_published: bool = False, **params):
    """Build the estimator registered as ``method``; ``params`` it does not have are ignored.

    ``as_published=True`` fits as the papers did (:data:`PAPER_SOLVER`), unless
    ``params`` say otherwise.

    Examples
    --------
    >>> make_estimator("nmf-ncw", 3, random_state=0).weighting
    'ncw'
    """
    if method not in METHODS:
        raise KeyError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    estimator = METHODS[method].factory(n_clusters)
    if as_published:
        params = {**PAPER_SOLVER, **params}
    # common options (n_init, max_iter, tol, verbose, ...) go to the methods that have them
    accepted = estimator.get_params()
    return estimator.set_params(**{k: v for k, v in params.items() if k in accepted})
