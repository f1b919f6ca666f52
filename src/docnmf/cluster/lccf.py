"""Concept factorization (CF) and locally consistent CF (LCCF) as a scikit-learn estimator."""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable
from numbers import Real
from typing import Literal

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin, TransformerMixin
from sklearn.cluster import KMeans
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.validation import check_is_fitted, check_non_negative, validate_data

from .._estimator import (SoftClusterer, _caller_outside_docnmf, best_restart, check_fit_input,
                          check_n_clusters, check_new_input, check_numbers, check_positive_ints,
                          distance_memberships, fit_restarts, memberships_from, store_params,
                          warn_unconverged)
from .._rng import as_generator, child_generators
from ..factor.graph import (GraphLaplacian, cosine_neighbours, graph_laplacian, kernel_neighbours,
                            knn_cosine_graph, knn_kernel_graph)
from ..factor.kernels import KernelSpec, LinearKernel, dense_gram, make_kernel, poly2_kernel, \
    symmetric_gram
from ..factor.lccf import (fit_lccf, fit_lccf_restarts, fold_in, normalize_wv,
                           random_init_concepts)
from .nmf import NMFClustering

__all__ = ["LCCFClustering"]

logger = logging.getLogger(__name__)

#: Seconds between two progress lines while the nearest neighbours are found (230 s went by
#: without a word on 94,000 documents).
PROGRESS_SECONDS = 10.0


def _said_every(seconds: float) -> Callable[[int, int], None]:
    """A ``progress(done, total)`` that logs how many documents' neighbours are found, at most
    every ``seconds``."""
    start = time.monotonic()
    said = [start]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - said[0] >= seconds:
            said[0] = now
            logger.info("LCCF: nearest neighbours of %s of %s documents (%.0fs)", f"{done:,}",
                        f"{total:,}", now - start)
    return progress

Weighting = Literal["none", "ncw"]
LabelRule = Literal["auto", "kmeans", "skmeans", "argmax"]
LamScale = Literal["data", "none"]
NCWGraph = Literal["weighted", "appendix_b"]
ConceptInit = Literal["auto", "nmf", "random"]
FactorDtype = Literal["float64", "float32"]


class LCCFClustering(SoftClusterer, ClusterMixin, TransformerMixin, BaseEstimator):
    """Cluster documents by concept factorization (CF) or locally consistent CF (LCCF).

    The documents ``X`` (rows; typically unit-length tf-idf) are factorised
    in a kernel's feature space as ``X ~ X W V^T``: each of the ``k``
    concepts is a non-negative combination of documents (``W``) and each
    document a non-negative combination of concepts (``V``). LCCF adds
    ``lam Tr(V^T L V)``, with ``L`` the Laplacian of the p-nearest-neighbour
    cosine graph (eqs. 8-10), so that neighbouring documents get similar
    coordinates; ``lam = 0`` is CF. With ``weighting="ncw"`` each document
    is weighted by ``gamma_j = 1 / d_j``, ``d = K e`` (Appendix B).

    Eq. 10 alone does not fix how ``W V^T`` is split: ``W c, V / c`` fit the
    data equally well and shrink the graph term without bound as ``c``
    grows. As in the authors' reference code, the columns of ``V`` are
    rescaled to unit length (``W`` inversely) after every round of updates,
    which fixes the scale ``lam`` acts on; the output is then normalised to
    ``w^T K w = 1`` (Section 3.2). The rescaling can in principle raise
    eq. 10; the updates themselves never do (Theorem 1). Restarts are
    compared by eq. 10 at unit-length ``V`` columns.

    Parameters
    ----------
    n_clusters : int
        Number of clusters and concepts ``k``.
    lam : float
        Weight of the graph term. With ``lam_scale="data"`` (default) it is
        relative to the data: the ``lambda`` of eq. 10 becomes
        ``lam * Tr(K_w) / (Tr(L_w) / n)``, the data term's total energy over
        the graph's mean degree (``K_w``, ``L_w`` after any NC weighting), so
        that ``lam`` is the price, in units of the whole data term, of a
        unit-length coordinate vector whose neighbours disagree completely.
        That keeps it comparable across collection sizes, weightings and
        kernels (NCW shrinks the data term by about the mean degree ``d``;
        the paper's lambda = 100 is about ``lam`` = 10 for LCCF-NCW on TDT2
        subsets, and 0.2 for LCCF). The default 0.01, with argmax labels, was
        chosen on the tuning half of the evaluation suite
        (:mod:`docnmf.experiments.suite`, ``reports/benchmark-suite``) by the
        smallest worst shortfall to NMF at its defaults: stronger graphs fell
        further below NMF on some corpora, where the graph of five nearest
        neighbours joins documents of different classes (LCCF-NCW at 0.03
        and 0.1 up to 0.07 and 0.14 on CLUTO tr12; the earlier default 0.3
        with k-means labels, chosen on class subsets of six corpora,
        ``reports/lccf-defaults``, up to 0.15 for LCCF on wap and 0.20 for
        LCCF-NCW on tr12).
        With ``lam_scale="none"`` it is the paper's
        ``lambda`` as is (100 in Cai et al.'s experiments).
    n_neighbors : int
        ``p`` of the p-nearest-neighbour graph (5 in the paper).
    weighting : {"none", "ncw"}
        CF/LCCF or their normalized-cut weighted forms (CF-NCW, LCCF-NCW).
    kernel : {"linear", "poly2", "precomputed"} or callable
        ``K = X X^T`` (never formed for non-negative data), ``<x_i, x_j>^2``
        (the paper's kernelised rows), ``kernel(A, B) -> Gram matrix``, or
        ``X`` itself is the n x n Gram matrix. All but the first hold a dense
        n x n matrix. The graph's cosines (eq. 8) are between the rows of ``X``
        for all but ``"precomputed"``, where ``X`` holds no rows and they are
        the kernel's, ``K_ij / sqrt(K_ii K_jj)``: ``"poly2"`` and its own Gram
        matrix given as precomputed make different graphs.
    labels : {"auto", "kmeans", "skmeans", "argmax"}
        Clusters by k-means on the rows of ``V`` (as Cai et al.'s published
        experiments cluster the new representation), by spherical k-means on
        them (k-means on the unit-length rows) or by ``argmax_j V_ij``;
        ``"auto"`` uses k-means when there is a graph term (``lam > 0``) and
        argmax for CF. The default is argmax: with the default graph weight
        it was as accurate as k-means on ``V`` on the suite's tuning half and
        never collapsed; k-means on ``V`` is what Cai et al.'s experiments
        use (the ``*-paper`` methods), and ``"auto"`` was the default before
        (``reports/lccf-defaults``).
    lam_scale : {"data", "none"}
        How ``lam`` is read; see ``lam``.
    ncw_graph : {"weighted", "appendix_b"}
        How NCW treats the graph term. ``"weighted"``: the graph acts on the
        weighted coordinates ``V' = Gamma^{1/2} V`` with ``L`` unchanged, as
        the authors' reference implementation does (with it the paper's
        lambda = 100 reproduces their TDT2 figures). ``"appendix_b"``: the
        graph acts on ``V``, i.e. ``L' = Gamma^{-1/2} L Gamma^{-1/2}`` on
        ``V'``, as Appendix B derives; it clustered markedly worse on TDT2,
        Reuters and 20 Newsgroups.
    init : {"auto", "nmf", "random"}
        ``"nmf"``: one start from NMF's solution on the same (weighted)
        documents, :class:`~docnmf.cluster.NMFClustering` at its defaults
        (NNDSVDa, HALS): ``V`` is its document factor and each concept ``w_j``
        its column ``j`` scaled so the concept's term vector ``X^T w_j`` has
        unit length, as NMF's topics do; zeros, which multiplicative updates
        never move, are lifted to 1% of their column's mean. ``"random"``:
        ``n_init`` uniform random starts chosen as ``init_rounds`` says, as
        Cai et al. start (the ``*-paper`` methods). ``"auto"`` (default):
        ``"nmf"`` for the linear kernel on non-negative documents, where NMF
        applies, ``"random"`` otherwise. From random starts LCCF fell up to
        0.19 below NMF on the evaluation suite (20 Newsgroups; CF 0.13 on
        CLUTO la2), from NMF's solution at most 0.022 on all 29 corpora, at
        half the time; random starts do better on some corpora where the graph
        leads them away from NMF's minimum (TDT2, Reuters), and worse on others
        (``reports/benchmark-suite``).
    n_init : int
        Random starts; see ``init_rounds`` for how one is chosen.
    init_rounds : int or None
        How the start is chosen, as in the authors' reference implementation:
        every one of the ``n_init`` random starts runs ``init_rounds`` rounds
        of updates, and the one with the lowest objective (eq. 10) is then
        continued to convergence. ``None`` runs every start to convergence and
        keeps the lowest final objective (``n_init`` times the work). With a
        strong graph term the updates approach the clustering slowly (the
        graph term spreads coordinates one neighbour per round), so one start
        run long beats many stopped early at the same cost.
    max_iter : int
        Maximum update rounds of the kept start, ``init_rounds`` included.
    tol : float
        Relative objective decrease in one round below which the updates stop.
        On TDT2 subsets with the paper's lambda, LCCF-NCW's accuracy was still
        rising at a decrease of 1e-4 per round (about 40 rounds: 0.63 on a
        9-class subset) and settled by 1e-5 (100-200 rounds: 0.93-0.99).
    batch_restarts : bool
        Run the ``n_init`` starts side by side
        (:func:`~docnmf.factor.lccf.fit_lccf_restarts`): each round's kernel
        and graph products are one product for all starts instead of one per
        start (for the linear kernel on sparse documents; kernels held as
        dense matrices keep one product per start). The results are bit for
        bit those of running the starts one after another (``False``, kept
        for comparison).
    dtype : {"float64", "float32"}
        Precision of the factors and of the kernel products during the
        updates. ``"float32"`` halves their memory and speeds up the
        products; the kernel's trace, ``lam`` and the objective's sums stay
        in float64, and the fitted attributes are float64. Its results
        differ from float64's by rounding, which the updates can carry to
        other local minima: the paper presets keep float64.
    random_state : None, int or numpy Generator
    verbose : int
        Log one line per restart at INFO level when > 0.

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    label_rule_ : {"kmeans", "skmeans", "argmax"}
        The rule ``labels`` resolved to.
    memberships_ : ndarray of shape (n_docs, n_clusters)
        For argmax labels the rows of ``V`` scaled to sum to one; for
        k-means labels read from the squared distances of the rows of ``V``
        to the centres (fuzzy c-means with m = 2,
        :func:`~docnmf._estimator.distance_memberships`).
    embedding_ : ndarray of shape (n_docs, n_clusters)
        ``V`` (``V'`` for NCW) with ``W`` normalised to ``w^T K w = 1`` (Section 3.2).
    cluster_centers_ : ndarray of shape (n_clusters, n_clusters)
        Each cluster's centre in the embedding (the unit vectors for argmax).
    components_ : ndarray of shape (n_clusters, n_terms)
        The term profile of each cluster, ``X^T W c`` for its centre ``c``:
        for argmax the concept vectors ``X^T W`` (Section 2, eq. 4). For
        non-linear kernels this is the same combination of the input
        documents, not the concept in feature space. Absent for precomputed kernels.
    graph_ : scipy.sparse.csr_matrix or None
        The p-nearest-neighbour weights ``S`` (eq. 8); None when ``lam = 0``.
    lam_effective_ : float
        The ``lambda`` of eq. 10 actually used.
    ncw_scale_ : ndarray of shape (n_docs,) or None
        ``gamma^{1/2} = (K e)^{-1/2}`` for NCW (0 for documents of degree 0).
    loss_history_ : ndarray
        Objective (eq. 10) per iteration of the kept restart. After each round
        the columns of ``V`` are scaled to unit length (``W`` inversely), as the
        authors' code does; the updates alone never raise eq. 10 (Theorem 1),
        but the rescaling can, so the history need not fall at every step, and
        can end above the NMF start's value.
    init_ : str
        The start used: ``"nmf"`` or ``"random"`` (what ``init="auto"`` chose).
    restart_objectives_ : ndarray of shape (n_init,) or (1,)
        Each random start's objective after ``init_rounds`` rounds (after
        convergence when ``init_rounds`` is None); the final objective alone
        when the start is NMF's.
    start_restart_objectives_ : ndarray of shape (n_restarts,) or None
        When the start is NMF's: the NMF objective each of NMF's restarts ended
        at (the lowest gave the start); None for random starts.
    objective_ : float
        The last value of ``loss_history_``: eq. 10 with ``V``'s columns at unit
        length, not at ``embedding_``'s ``w^T K w = 1`` scale (a different split
        of the same ``W V^T``, whose graph term differs).
    n_iter_ : int
        Update rounds of the kept start, ``init_rounds`` included.
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Cai, He & Han, Locally consistent concept factorization for document
    clustering, IEEE TKDE 2011, Sections 2-3 and Appendix B.
    Xu & Gong, Document clustering by concept factorization, SIGIR 2004.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = LCCFClustering(n_clusters=2, n_neighbors=1, random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    """

    _placement_state = ("n_features_in_", "embedding_", "cluster_centers_", "components_",
                        "label_rule_", "lam_effective_", "ncw_scale_", "_degrees", "_p", "_W",
                        "_V", "_norms", "_WKW", "_WKW_pos", "_linear", "_concepts_W",
                        "_concepts_V", "_column_sums", "_X_fit", "_fit_kernel_diag")
    #: (``components_`` is negative for data with negative entries, which the unweighted forms
    #: take)
    _non_negative_state = ("_concepts_W",)

    def _keyword_weights(self) -> np.ndarray:
        if not hasattr(self, "components_"):
            raise ValueError(f"{type(self).__name__} fitted on a precomputed kernel has no term "
                             "weights to rank keywords by; fit it on the documents x terms "
                             "matrix for keywords")
        return self.components_

    def _placement_blocker(self) -> str | None:
        if callable(self.kernel) or self._precomputed():
            return ("a CF/LCCF with a precomputed or callable kernel cannot be saved to place "
                    "new texts")
        return super()._placement_blocker()

    def __init__(self, n_clusters: int = 8, *, lam: float = 0.01, n_neighbors: int = 5,
                 weighting: Weighting = "none", kernel: KernelSpec = "linear",
                 labels: LabelRule = "argmax", lam_scale: LamScale = "data",
                 ncw_graph: NCWGraph = "weighted", init: ConceptInit = "auto",
                 n_init: int = 10, init_rounds: int | None = 30, max_iter: int = 1000,
                 tol: float = 1e-5,
                 batch_restarts: bool = True, dtype: FactorDtype = "float64",
                 random_state=None, verbose: int = 0):
        store_params(self, locals())

    # --- validation and set-up -----------------------------------------------------------------

    #: The values ``labels`` takes.
    LABEL_RULES = ("argmax", "skmeans", "kmeans", "auto")
    #: The starts ``init`` names.
    INITS = ("auto", "nmf", "random")

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        choices = {"weighting": ("none", "ncw"), "labels": self.LABEL_RULES,
                   "lam_scale": ("data", "none"), "ncw_graph": ("weighted", "appendix_b"),
                   "init": self.INITS}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")
        if not (callable(self.kernel) or self.kernel in ("linear", "poly2", "precomputed")):
            raise ValueError(f"kernel must be 'linear', 'poly2', 'precomputed' or a callable, "
                             f"got {self.kernel!r}")
        lam = self.lam
        if isinstance(lam, bool) or not isinstance(lam, Real) or not np.isfinite(lam) or lam < 0:
            raise ValueError(f"lam must be a non-negative number, got {self.lam!r}")
        check_positive_ints(self, "n_init", "max_iter", "n_neighbors")
        check_numbers(self, "tol", nonnegative=False)   # < 0: every iteration
        r = self.init_rounds
        if r is not None and (isinstance(r, bool) or not isinstance(r, (int, np.integer))
                              or r < 1):
            raise ValueError(f"init_rounds must be a positive integer or None, got {r!r}")
        if self._dtype() is None:
            raise ValueError(f"dtype must be 'float64' or 'float32', got {self.dtype!r}")

    def _dtype(self) -> np.dtype | None:
        try:
            dtype = np.dtype(self.dtype)
        except TypeError:
            return None
        return dtype if dtype in (np.float64, np.float32) else None

    def _precomputed(self) -> bool:
        return isinstance(self.kernel, str) and self.kernel == "precomputed"

    def _graph(self, X, K) -> GraphLaplacian | None:
        self.graph_ = None
        if self.lam == 0:
            return None
        p = self._p = min(int(self.n_neighbors), max(X.shape[0] - 1, 1))
        if p < self.n_neighbors:
            warnings.warn(f"{type(self).__name__}: n_neighbors={self.n_neighbors} is more than "
                          f"the {p} other documents: each takes all of them as neighbours",
                          UserWarning, stacklevel=_caller_outside_docnmf())
        if self._precomputed():
            S = knn_kernel_graph(K.dense(), p)
        else:
            S = knn_cosine_graph(X, p, progress=_said_every(PROGRESS_SECONDS) if self.verbose
                                 else None)
        self.graph_ = S
        return graph_laplacian(S)

    def _weigh(self, K, graph):
        """NCW (Appendix B): ``K' = Gamma^{1/2} K Gamma^{1/2}``, and the graph as chosen."""
        if self.weighting == "none":
            self.ncw_scale_ = None
            return K, graph
        d = K.row_sums()
        if np.any(d < 0):
            raise ValueError("NC weighting needs non-negative degrees d = K e; this kernel gives "
                             "some documents a negative one")
        # as in ncw_weights: a document with no similarity to any other (d = 0) gets weight 0
        self.ncw_scale_ = np.divide(1.0, np.sqrt(d), out=np.zeros_like(d), where=d > 0)
        self._degrees = d
        Kw = K.weighted(self.ncw_scale_)
        if graph is not None and self.ncw_graph == "appendix_b":
            sd = np.sqrt(d)
            S = sp.csr_matrix(sp.diags(sd) @ graph.S @ sp.diags(sd))
            # D' = Gamma^{-1/2} D Gamma^{-1/2}: L' = D' - S' keeps the form of eq. 9
            degrees = graph.degrees * d
            graph = GraphLaplacian(S, degrees, (sp.diags(degrees) - S).tocsr())
        return Kw, graph

    def _effective_lam(self, K, graph) -> float:
        if graph is None or self.lam == 0:
            return 0.0
        if self.lam_scale == "none":
            return float(self.lam)
        mean_degree = float(graph.degrees.sum()) / K.n
        if mean_degree <= 0:
            return 0.0
        return float(self.lam) * K.trace() / mean_degree

    # --- fitting -------------------------------------------------------------------------------

    def fit(self, X, y=None):
        """Factorise the documents ``X`` of shape (n_docs, n_terms), dense or CSR.

        With ``kernel="precomputed"``, ``X`` is the (n_docs, n_docs) Gram matrix.
        """
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        if self._precomputed() and X.shape[0] != X.shape[1]:
            raise ValueError(f"a precomputed kernel must be square, got shape {X.shape}")
        if self._precomputed():     # the start reads X too, not only the kernel made of it
            X = symmetric_gram(X.toarray() if sp.issparse(X) else X)
        self._check_params(X.shape[0])
        if self.weighting == "ncw" and not self._precomputed():
            check_non_negative(X, f"{type(self).__name__} with weighting='ncw' (input X)")
        X = check_fit_input(self, X)
        K = make_kernel(X, self.kernel)
        graph = self._graph(X, K)
        Kw, graph = self._weigh(K, graph)
        lam = self._effective_lam(Kw, graph)
        self.lam_effective_ = lam
        rng = as_generator(self.random_state)
        self.init_ = self._start_kind(Kw)
        self.start_restart_objectives_ = None
        if self.init_ == "nmf":
            best, losses = self._factorize_from_nmf(X, Kw, graph, lam, rng)
        else:
            best, losses = self._factorize(Kw, graph, lam, rng)
        self._finish(X, Kw, best, rng, losses)
        return self

    def _start_kind(self, Kw) -> str:
        """``"nmf"`` or ``"random"``: what ``init`` asks for, where it applies."""
        applies = isinstance(Kw, LinearKernel) and not Kw.has_negative
        if self.init == "nmf" and not applies:
            raise ValueError("init='nmf' starts from NMF of the documents, which needs the "
                             "linear kernel on non-negative documents; use init='random'")
        return "nmf" if self.init == "nmf" or (self.init == "auto" and applies) else "random"

    def _factorize_from_nmf(self, X, Kw, graph, lam, rng):
        """Eqs. 17-18 from one start: NMF's solution on the same weighted documents."""
        k, dtype = int(self.n_clusters), self._dtype()
        seed = int(rng.integers(np.iinfo(np.int32).max))
        t0 = time.perf_counter()
        nmf = NMFClustering(k, weighting=self.weighting, dtype=np.dtype(dtype).name,
                            random_state=seed).fit(X)
        if self.verbose:    # (on 20 Newsgroups 40 s went by without a line, start and rounds)
            logger.info("%s: starting from NMF's solution (%d iterations, %.1fs)",
                        "LCCF" if self.lam else "CF", nmf.n_iter_, time.perf_counter() - t0)
        self.start_restart_objectives_ = np.asarray(nmf.restart_objectives_, dtype=np.float64)
        V0 = np.asarray(nmf.embedding_, dtype=np.float64)
        norms = np.linalg.norm(Kw.concepts(V0), axis=0)
        W0 = V0 / np.where(norms > 0, norms, 1.0)
        V0, W0 = _lift_zeros(V0), _lift_zeros(W0)
        K = Kw if dtype == np.float64 else Kw.astype(dtype)
        best = fit_lccf(K, W0.astype(dtype), V0.astype(dtype), graph=graph, lam=lam,
                        max_iter=int(self.max_iter), tol=float(self.tol), normalize="v")
        if self.verbose:
            logger.info("%s from NMF's solution: %d rounds, objective %.6g",
                        "LCCF" if self.lam else "CF", best.n_iter, best.losses[-1])
        if not best.converged:
            warn_unconverged("LCCF", self.tol, self.max_iter)
        if dtype != np.float64:
            best = best._replace(W=best.W.astype(np.float64), V=best.V.astype(np.float64))
        return best, np.array([best.losses[-1]])

    def _factorize(self, Kw, graph, lam, rng):
        """Eqs. 17-18 from ``n_init`` random starts, chosen as ``init_rounds`` says."""
        k, max_iter, tol = int(self.n_clusters), int(self.max_iter), float(self.tol)
        select = self.init_rounds is not None and int(self.n_init) > 1 \
            and int(self.init_rounds) < max_iter
        rounds = int(self.init_rounds) if select else max_iter
        dtype = self._dtype()
        K = Kw if dtype == np.float64 else Kw.astype(dtype)
        run = dict(graph=graph, lam=lam, normalize="v")

        def start(child):
            W0, V0 = random_init_concepts(Kw.n, k, child)
            norms = np.linalg.norm(V0, axis=0)
            return W0 * norms, V0 / norms

        name = "LCCF start" if select else "LCCF"
        with warnings.catch_warnings():
            if select:
                # the starts stop after init_rounds on purpose
                warnings.simplefilter("ignore", ConvergenceWarning)
            if self.batch_restarts:
                # the same child generators, in the same order, as one start after another
                starts = [start(child) for child in child_generators(rng, int(self.n_init))]
                results = fit_lccf_restarts(K, starts, max_iter=rounds,
                                            tol=0.0 if select else tol, **run)
            else:
                results = fit_restarts(
                    lambda child: fit_lccf(K, *start(child), max_iter=rounds,
                                           tol=0.0 if select else tol, **run),
                    rng, int(self.n_init))
            # restarts side by side are handed over together: no time of their own
            best, losses = best_restart(results, name=name, total=int(self.n_init),
                                        verbose=self.verbose, tol=tol, max_iter=rounds,
                                        timed=not self.batch_restarts)
        if select:
            rest = fit_lccf(K, best.W, best.V, max_iter=max_iter - rounds, tol=tol, **run)
            if self.verbose:
                logger.info("LCCF: the best start continued for %d rounds, objective %.6g",
                            rest.n_iter, rest.losses[-1])
            if not rest.converged:
                warn_unconverged("LCCF", tol, max_iter)
            best = rest._replace(n_iter=rounds + rest.n_iter,
                                 losses=np.concatenate([best.losses, rest.losses[1:]]))
        if dtype != np.float64:
            best = best._replace(W=best.W.astype(np.float64), V=best.V.astype(np.float64))
        return best, losses

    def _finish(self, X, Kw, best, rng, losses) -> None:
        k = int(self.n_clusters)
        KW = Kw.matmul(best.W)
        W, V, norms = normalize_wv(Kw, best.W, best.V, KW)
        # what new documents need: the factors as the updates left them (eqs. 29-30 continue
        # the fitted problem) and the output scaling of Section 3.2 to apply afterwards
        self._W, self._V, self._norms = best.W, best.V, norms
        self._WKW = best.W.T @ KW
        self._WKW_pos = best.W.T @ Kw.matmul_positive(best.W) if Kw.has_negative else None
        self._linear = isinstance(Kw, LinearKernel)
        if self._linear:
            self._concepts_W, self._concepts_V = Kw.concepts(best.W), Kw.concepts(best.V)
            self._column_sums = np.asarray(X.sum(axis=0)).ravel()   # K e = X (X^T e)
        self._X_fit = None if self._precomputed() else X
        self._fit_kernel_diag = np.diag(X).copy() if self._precomputed() else None
        self.embedding_ = V
        self.label_rule_ = self.labels
        if self.labels == "auto":
            self.label_rule_ = "kmeans" if self.lam_effective_ > 0 else "argmax"
        if self.label_rule_ == "argmax":
            self.labels_ = np.argmax(V, axis=1).astype(np.int64)
            self.memberships_ = memberships_from(V)
            self.cluster_centers_ = np.eye(k)
        else:
            seed = int(rng.integers(np.iinfo(np.int32).max))
            km = KMeans(n_clusters=k, n_init=10, random_state=seed).fit(self._label_space(V))
            self.labels_ = km.labels_.astype(np.int64)
            self.memberships_ = distance_memberships(km.transform(self._label_space(V)) ** 2)
            self.cluster_centers_ = km.cluster_centers_
        if not self._precomputed():
            g = np.ones(X.shape[0]) if self.ncw_scale_ is None else self.ncw_scale_
            concepts = np.asarray(X.T @ (W * g[:, None]))   # terms x k: eq. 4, u_k = X w_k
            self.components_ = (concepts @ self.cluster_centers_.T).T
        else:       # no terms: an earlier fit's must not stand for this one's
            self.__dict__.pop("components_", None)
        self.loss_history_ = best.losses
        self.objective_ = float(best.losses[-1])
        self.restart_objectives_ = losses
        self.n_iter_ = best.n_iter

    # --- new documents -------------------------------------------------------------------------

    def _cross_kernel(self, X, kernel_diag):
        """Kernel rows ``K(new, fitted)`` and ``k(x', x')`` for the kernels held densely."""
        if self._precomputed():
            Kn = X.toarray() if sp.issparse(X) else np.asarray(X)
            if Kn.shape[1] != self._W.shape[0]:
                raise ValueError(f"a precomputed kernel for new documents needs "
                                 f"{self._W.shape[0]} columns, got {Kn.shape[1]}")
            if kernel_diag is None:
                raise ValueError("kernel='precomputed' needs kernel_diag, k(x, x) of each new "
                                 "document, to place new documents")
            given = np.asarray(kernel_diag, dtype=np.float64)
            # a column or a row of them as well (a row was taken before the check)
            if given.size != Kn.shape[0] or sum(n > 1 for n in given.shape) > 1:
                raise ValueError(f"kernel_diag must hold one value per new document "
                                 f"({Kn.shape[0]}), got shape {given.shape}")
            if not np.all(np.isfinite(given)):
                raise ValueError("kernel_diag must be finite: k(x, x) of each new document")
            return Kn, given.ravel()
        kernel = {"linear": _linear_kernel, "poly2": poly2_kernel}.get(self.kernel, self.kernel) \
            if isinstance(self.kernel, str) else self.kernel
        Kn = dense_gram(kernel(X, self._X_fit))
        k_self = np.array([float(dense_gram(kernel(X[i:i + 1], X[i:i + 1])).ravel()[0])
                           for i in range(X.shape[0])])
        return Kn, k_self

    def _new_embedding(self, X, kernel_diag=None) -> np.ndarray:
        """Eqs. 29-30 for each new document, then the output scaling of Section 3.2."""
        check_is_fitted(self, "embedding_")
        X = check_new_input(self, X)
        if self.weighting == "ncw" and not self._precomputed():
            check_non_negative(X, f"{type(self).__name__}.transform (input X)")
        W, V, g = self._W, self._V, self.ncw_scale_
        positive, Kn = None, None
        if self._linear:
            KnW, KnV = np.asarray(X @ self._concepts_W), np.asarray(X @ self._concepts_V)
            k_self = (np.asarray(X.multiply(X).sum(axis=1)).ravel() if sp.issparse(X)
                      else np.einsum("ij,ij->i", X, X))
            d_new = np.asarray(X @ self._column_sums).ravel()
        else:
            Kn, k_self = self._cross_kernel(X, kernel_diag)
            gW, gV = (W, V) if g is None else (W * g[:, None], V * g[:, None])
            KnW, KnV, d_new = Kn @ gW, Kn @ gV, Kn.sum(axis=1)
            if self._WKW_pos is not None:
                positive = (np.maximum(Kn, 0.0) @ gW, self._WKW_pos)
        k_raw = k_self
        if g is not None:
            # a new document's NC weight: its kernel similarity to the fitted collection
            g_new = np.divide(1.0, np.sqrt(d_new), out=np.zeros_like(d_new), where=d_new > 0)
            KnW, KnV, k_self = KnW * g_new[:, None], KnV * g_new[:, None], k_self * g_new**2
            if positive is not None:
                positive = (positive[0] * g_new[:, None], positive[1])
        s_new = d_graph = None
        if self.lam_effective_ > 0:
            if self._precomputed():
                s_new = kernel_neighbours(Kn, k_raw, self._fit_kernel_diag, self._p)
            else:
                s_new = cosine_neighbours(X, self._X_fit, self._p)
            d_graph = np.asarray(s_new.sum(axis=1)).ravel()
            if g is not None and self.ncw_graph == "appendix_b":
                # the new row of Gamma^-1/2 S Gamma^-1/2 and entry of Gamma^-1/2 D Gamma^-1/2
                d_graph = d_graph * d_new
                s_new = sp.csr_matrix(sp.diags(np.sqrt(d_new)) @ s_new
                                      @ sp.diags(np.sqrt(self._degrees)))
        _, v = fold_in(KnW, KnV, k_self, W, V, self._WKW, s_new=s_new, d_new=d_graph,
                       lam=self.lam_effective_, positive=positive)
        return v * self._norms

    def transform(self, X, *, kernel_diag=None):
        """Memberships of new documents by the out-of-sample updates (eqs. 29-30), no refit.

        Each new document is appended to the fit as one more document, with a
        concept weight ``w'`` of its own (Section 3.6), so a fitted document
        placed again is not its fitted row: a few change cluster (more with
        the squared kernel and no graph, where a document's similarity to itself
        weighs most: 15 of the demo's 80 with CF, none with LCCF).

        With ``kernel="precomputed"``, ``X`` is the (n_new, n_docs) kernel
        between the new and the fitted documents and ``kernel_diag`` the
        (n_new,) values ``k(x', x')``.
        """
        V = self._new_embedding(X, kernel_diag)
        if self.label_rule_ == "argmax":
            return memberships_from(V)
        return distance_memberships(self._centre_distances(V))

    def predict(self, X, *, kernel_diag=None):
        """Cluster of each new document: argmax of its ``v'``, or its nearest k-means centre."""
        V = self._new_embedding(X, kernel_diag)
        if self.label_rule_ == "argmax":
            return np.argmax(V, axis=1).astype(np.int64)
        return self._nearest_centre(V)

    def _label_space(self, V):
        """The coordinates k-means labels are read in: ``V``, or its unit rows for skmeans."""
        if self.label_rule_ != "skmeans":
            return V
        norms = np.linalg.norm(V, axis=1, keepdims=True)
        return np.divide(V, norms, out=np.zeros_like(V), where=norms > 0)

    def _centre_distances(self, V):
        V = self._label_space(V)
        return ((V[:, None, :] - self.cluster_centers_[None, :, :]) ** 2).sum(axis=2)

    def _nearest_centre(self, V):
        return np.argmin(self._centre_distances(V), axis=1).astype(np.int64)

    def _pairwise(self) -> bool:
        return self._precomputed()

    def _scale_free(self) -> bool:
        # lambda in units of the data term scales with X; the paper's absolute lambda does not
        return self.lam_scale != "none" or self.lam == 0

    def _positive_only(self) -> bool:
        # NC weights 1 / (K e) need positive degrees, which non-negative documents give; the
        # unweighted forms take any data (Section 3.5's updates for kernels with negative entries)
        return self.weighting == "ncw"


#: The share of its column's mean that a zero of NMF's start is lifted to.
LIFT = 0.01


def _lift_zeros(F: np.ndarray) -> np.ndarray:
    """``F`` with each zero raised to ``LIFT`` times its column's mean (of all of ``F`` for an
    all-zero column): multiplicative updates keep a zero a zero."""
    means = F.mean(axis=0)
    means = np.where(means > 0, means, F.mean() if F.mean() > 0 else 1.0)
    return np.where(F > 0, F, LIFT * means)


def _linear_kernel(A, B):
    G = A @ B.T
    return G.toarray() if sp.issparse(G) else np.asarray(G)
