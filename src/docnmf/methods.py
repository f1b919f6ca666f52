"""Clustering methods by name, as the command line and the experiment runner know them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping

from ._catalog import DEFAULT_FALLBACK, DEFAULT_METHOD, METHOD_NAMES, in_order
from .baselines import GraphCutClustering, KMeansClustering, LSIClustering, PCAClustering
from .baselines.coclustering import CoClustering
from .baselines.kernel import KernelGraphCutClustering
from .baselines.kernel_kmeans import KernelKMeansClustering
from .baselines.lda_km import LDAKMeansClustering
from .baselines.semi_supervised import SSKernelKMeansClustering, SSNormalizedCutClustering
from .baselines.topic_models import LDAClustering, PLSIClustering
from .cluster.consensus import ConsensusClustering
from .cluster.fsnmf import FSNMFClustering
from .cluster.lccf import LCCFClustering
from .cluster.nma import NMAClustering
from .cluster.nmf import NMFClustering
from .cluster.ssnmf import SSNMFClustering
from .factor.kernels import poly2_kernel

__all__ = ["DEFAULT_FALLBACK", "DEFAULT_METHOD", "Method", "METHODS", "MethodOptionError",
           "PAPER_SOLVER", "make_estimator", "method_spec", "options_for"]


@dataclass(frozen=True)
class Method:
    """A named way to build a clustering estimator, with the options it takes.

    ``fixed`` are the parameters the name stands for (``nmf-ncw`` is
    ``NMFClustering`` with ``weighting="ncw"``); they cannot be changed
    through :func:`make_estimator`. ``preset`` are defaults of this name
    that may be changed (``lccf-paper``'s lambda). ``published`` is how the
    papers fitted it, applied by ``make_estimator(..., as_published=True)``.
    ``constraints`` says whether ``fit`` takes ``must_link`` and
    ``cannot_link`` pairs; ``input`` what the estimator is fitted on: the
    weighted documents x terms matrix (``"tfidf"``), raw term counts
    (``"counts"``, topic models) or the texts themselves (``"texts"``,
    methods that segment documents).
    """

    name: str
    estimator: type
    description: str
    fixed: Mapping[str, Any] = field(default_factory=dict)
    preset: Mapping[str, Any] = field(default_factory=dict)
    published: Mapping[str, Any] = field(default_factory=dict)
    constraints: bool = False
    input: Literal["tfidf", "counts", "texts"] = "tfidf"

    def parameters(self) -> dict[str, Any]:
        """The options this method takes, with their defaults (``n_clusters`` aside).

        Examples
        --------
        >>> "lam" in METHODS["lccf"].parameters(), "lam" in METHODS["cf"].parameters()
        (True, False)

        CF has no graph (lambda = 0), so none of its options: they were taken and did nothing.

        >>> "n_neighbors" in METHODS["cf"].parameters()
        False
        """
        defaults = self.estimator(**self.fixed, **self.preset).get_params(deep=False)
        inert = _GRAPH_OPTIONS if self.fixed.get("lam") == 0 else ()
        return {k: v for k, v in defaults.items()
                if k != "n_clusters" and k not in self.fixed and k not in inert}

    @property
    def places_new_documents(self) -> bool:
        """Whether a fitted estimator places new documents (``predict``, ``predict_memberships``).

        Examples
        --------
        >>> METHODS["lccf"].places_new_documents, METHODS["aa"].places_new_documents
        (True, False)
        """
        return hasattr(self.estimator, "predict_memberships")

    def check_options(self, params: Mapping[str, Any]) -> None:
        """A :class:`MethodOptionError` naming the options in ``params`` this method does not take."""
        taken = self.parameters()
        fixed = sorted(set(params) & set(self.fixed))
        unknown = sorted(set(params) - set(taken) - set(self.fixed))
        if fixed:
            setting = ", ".join(f"{k}={self.fixed[k]!r}" for k in fixed)
            raise MethodOptionError(self.name, fixed, f"{self.name} is defined by {setting}")
        if unknown:
            raise MethodOptionError(self.name, unknown,
                                    f"{self.name} takes no {', '.join(unknown)} "
                                    f"(its options: {', '.join(sorted(taken))})")

    def build(self, n_clusters: int, **params):
        """The estimator for ``n_clusters`` clusters; refuses options it does not take."""
        self.check_options(params)
        return self.estimator(n_clusters, **self.fixed, **{**self.preset, **params})


class MethodOptionError(ValueError):
    """An option given to a method that does not take it; ``options`` names them."""

    def __init__(self, method: str, options: list[str], message: str):
        super().__init__(message)
        self.method = method
        self.options = options


#: How the papers fit their factorizations: multiplicative updates from random starts. The
#: experiments that reproduce them ask for it, whatever the estimators' own (faster) defaults.
PAPER_SOLVER = {"solver": "mu", "init": "random"}

#: CF and LCCF as Cai et al. (2011) start them: random starts (the estimator starts from NMF's
#: solution where it can). Published for the plain names, preset for the ``-paper`` ones.
_CONCEPT_PAPER = dict(init="random")

#: LCCF as Cai et al. (2011) ran it: lambda = 100 as is (not scaled to the data), p = 5,
#: k-means on the rows of V, random starts.
_LCCF_PAPER = dict(lam=100.0, lam_scale="none", n_neighbors=5, labels="kmeans", **_CONCEPT_PAPER)
_CF_PAPER = dict(labels="kmeans", **_CONCEPT_PAPER)

#: NMF as Xu et al. (2003) read its clusters: argmax of the document factor.
_NMF_PAPER = {**PAPER_SOLVER, "labels": "argmax"}

#: The options of LCCF's graph, which CF (lambda = 0) does not have.
_GRAPH_OPTIONS = ("n_neighbors", "lam_scale", "ncw_graph")

_NONE, _NCW = dict(weighting="none"), dict(weighting="ncw")
_CF, _POLY2 = dict(lam=0.0), dict(kernel="poly2")

_METHODS = [
    Method("nmf", NMFClustering, "NMF (Xu et al. 2003)", _NONE, published=_NMF_PAPER),
    Method("nmf-ncw", NMFClustering,
           "NMF on normalized-cut weighted data (Xu et al. 2003, App. B)", _NCW,
           published=_NMF_PAPER),
    Method("consensus", ConsensusClustering,
           "consensus of NMF, NMF-NCW and LSI k-means on raw and sublinear tf-idf",
           input="counts"),
    Method("km", KMeansClustering, "k-means on the documents, best of n_init restarts", _NONE),
    Method("km-ncw", KMeansClustering,
           "k-means weighted by 1/d_ii (Xu et al. 2003, App. A, eq. 19)", _NCW),
    Method("aa", GraphCutClustering,
           "spectral clustering, average association (Xu et al. 2003, eqs. 15, 18)",
           dict(criterion="aa")),
    Method("nc", GraphCutClustering,
           "spectral clustering, normalized cut (Xu et al. 2003, eqs. 16, 18)",
           dict(criterion="nc")),
    Method("lsi-km", LSIClustering,
           "k-means on the LSI (truncated SVD) coordinates, k dimensions"),
    Method("pca-km", PCAClustering, "k-means on the first k principal component scores"),
    Method("lda-km", LDAKMeansClustering,
           "k-means and LDA alternating on the subspace (Ding & Li 2007)"),
    Method("ecc", CoClustering, "co-clustering, residue a_ij - a_IJ (Cho et al. 2004, type I)",
           dict(residue="I")),
    Method("msrc", CoClustering,
           "co-clustering, residue a_ij - a_iJ - a_Ij + a_IJ (Cho et al. 2004, type II)",
           dict(residue="II")),
    Method("cf", LCCFClustering, "concept factorization (Xu & Gong 2004; LCCF with lambda = 0)",
           {**_CF, **_NONE}, published=_CONCEPT_PAPER),
    Method("cf-ncw", LCCFClustering, "concept factorization on NC-weighted data",
           {**_CF, **_NCW}, published=_CONCEPT_PAPER),
    Method("lccf", LCCFClustering, "locally consistent concept factorization (Cai et al. 2011)",
           _NONE, published=_CONCEPT_PAPER),
    Method("lccf-ncw", LCCFClustering,
           "LCCF on NC-weighted data (Cai et al. 2011, App. B weights; the graph on V', as the "
           "authors' code)", _NCW, published=_CONCEPT_PAPER),
    # Cai et al. (2011)'s settings: lambda = 100 as is, p = 5, k-means on V (their published code)
    Method("cf-paper", LCCFClustering, "CF, k-means on V (Cai et al. 2011, Tables 4-7)",
           {**_CF, **_NONE}, _CF_PAPER),
    Method("cf-ncw-paper", LCCFClustering, "CF-NCW, k-means on V (Cai et al. 2011, Tables 4-7)",
           {**_CF, **_NCW}, _CF_PAPER),
    Method("lccf-paper", LCCFClustering, "LCCF, lambda = 100, p = 5 (Cai et al. 2011, Sec. 4.3)",
           _NONE, _LCCF_PAPER),
    Method("lccf-ncw-paper", LCCFClustering,
           "LCCF-NCW, lambda = 100, p = 5, the graph on V' (Cai et al. 2011, Sec. 4.3; the "
           "authors' code)", _NCW, _LCCF_PAPER),
    # the kernelised rows of Cai et al. (2011), Tables 4-7: K = <x_i, x_j>^2 (dense n x n)
    Method("km-poly2", KernelKMeansClustering, "kernel k-means, K = <x, y>^2 (Cai et al. 2011)",
           dict(kernel=poly2_kernel)),
    Method("km-ncw-poly2", KernelKMeansClustering,
           "weighted kernel k-means, weights 1/d, d = K e, K = <x, y>^2",
           dict(kernel=poly2_kernel, **_NCW)),
    Method("aa-poly2", KernelGraphCutClustering,
           "average association on K = <x, y>^2 (Cai et al. 2011)",
           dict(criterion="aa", **_POLY2)),
    Method("nc-poly2", KernelGraphCutClustering,
           "normalized cut on K = <x, y>^2 (Cai et al. 2011)", dict(criterion="nc", **_POLY2)),
    Method("cf-poly2", LCCFClustering, "CF with K = <x, y>^2, k-means on V (Cai et al. 2011)",
           {**_CF, **_NONE, **_POLY2}, _CF_PAPER),
    Method("cf-ncw-poly2", LCCFClustering, "CF-NCW with K = <x, y>^2, k-means on V",
           {**_CF, **_NCW, **_POLY2}, _CF_PAPER),
    Method("lccf-poly2", LCCFClustering, "LCCF with K = <x, y>^2, lambda = 100, p = 5",
           {**_NONE, **_POLY2}, _LCCF_PAPER),
    Method("lccf-ncw-poly2", LCCFClustering, "LCCF-NCW with K = <x, y>^2, lambda = 100, p = 5",
           {**_NCW, **_POLY2}, _LCCF_PAPER),
    Method("kernel-km", KernelKMeansClustering,
           "kernel k-means, Gaussian kernel (Dhillon et al. 2004)"),
    Method("fsnmf", FSNMFClustering,
           "feature subset NMF: clusters and the terms that separate them (Wang et al. 2010)"),
    Method("fsnmf-paper", FSNMFClustering,
           "FS-NMF by the paper's alternating updates (Wang et al. 2010, eqs. 2-4)",
           dict(solver="alternating")),
    Method("ssnmf", SSNMFClustering,
           "semi-supervised: of the consensus and its members the clustering that keeps the "
           "most must-/cannot-links, repaired to keep them",
           # the repair keeps every must-link, the implied ones too: closure is no option here
           dict(factorization="consensus", closure=True),
           constraints=True, input="counts"),
    Method("ssnmf-ncw", SSNMFClustering,
           "semi-supervised NMF-NCW: the constraints applied as labels are read from V",
           dict(factorization="ncw", closure=True), constraints=True),
    Method("ssnmf-paper", SSNMFClustering,
           "semi-supervised NMF of the changed similarity, A ~ G S G^T (Chen et al. 2008)",
           # the pairs as drawn, as the paper's experiments apply them
           dict(factorization="similarity"), dict(closure=False), constraints=True),
    Method("ss-kk", SSKernelKMeansClustering, "semi-supervised kernel k-means (Kulis et al. 2005)",
           published=dict(closure=False), constraints=True),
    Method("ss-snc", SSNormalizedCutClustering,
           "semi-supervised spectral normalized cut (Ji & Xu 2006)",
           published=dict(closure=False), constraints=True),
    Method("nma", NMAClustering,
           "documents as term x segment matrices, A_i ~ L M_i R^T (Wang et al. 2011)",
           input="texts"),
    Method("plsi", PLSIClustering, "probabilistic latent semantic indexing by EM (Hofmann 1999)",
           input="counts"),
    Method("lda", LDAClustering, "latent Dirichlet allocation, argmax topic (scikit-learn)",
           input="counts"),
]

#: Each method by name, in the order of :data:`docnmf._catalog.METHOD_NAMES` (the command
#: line's choices, read without importing the estimators).
METHODS: dict[str, Method] = in_order({m.name: m for m in _METHODS}, METHOD_NAMES, "the methods")


def options_not_taken(method: str, estimator_params) -> list[str]:
    """The options of ``estimator_params`` that ``method`` does not take, sorted: a fallback
    that does not take every option given cannot stand in for the method they were given to.

    Examples
    --------
    >>> options_not_taken("consensus", {"lam": 0.1, "n_init": 4})
    ['lam']
    """
    return sorted(set(estimator_params) - set(method_spec(method).parameters()))


def make_estimator(method: str, n_clusters: int, *, as_published: bool = False, **params):
    """Build the estimator registered as ``method`` with the options ``params``.

    An option the method does not take raises :class:`MethodOptionError`
    (a ``ValueError``); runners that hand one set of options to many methods
    pick each method's share with :func:`options_for`. ``as_published=True``
    fits as the papers did (the method's ``published`` settings, e.g.
    :data:`PAPER_SOLVER`), unless ``params`` say otherwise.

    Examples
    --------
    >>> make_estimator("nmf-ncw", 3, random_state=0).weighting
    'ncw'
    >>> make_estimator("kernel-km", 3, tol=1e-4)
    Traceback (most recent call last):
    ...
    docnmf.methods.MethodOptionError: kernel-km takes no tol (its options: ...)
    """
    spec = method_spec(method)
    if as_published:
        params = {**spec.published, **params}
    return spec.build(n_clusters, **params)


def options_for(method: str, **params) -> dict[str, Any]:
    """The part of ``params`` that ``method`` takes as options.

    Examples
    --------
    >>> options_for("kernel-km", n_init=3, tol=1e-4, closure=False)
    {'n_init': 3}
    """
    taken = method_spec(method).parameters()
    return {k: v for k, v in params.items() if k in taken}


class UnknownMethodError(KeyError, ValueError):
    """A method name that is not registered: a bad value (ValueError) and a failed lookup
    (KeyError, as raised before); the message lists the names."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def method_spec(method: str) -> Method:
    """The :class:`Method` registered as ``method``, or an :class:`UnknownMethodError` listing
    the names.

    Examples
    --------
    >>> method_spec("nfm")
    Traceback (most recent call last):
    ...
    docnmf.methods.UnknownMethodError: unknown method 'nfm'; choose from nmf, nmf-ncw, ...
    """
    if method not in METHODS:
        raise UnknownMethodError(f"unknown method {method!r}; choose from {', '.join(METHODS)}")
    return METHODS[method]
