"""NMF document clustering (Xu, Liu & Gong 2003) as a scikit-learn estimator."""

from __future__ import annotations

import logging
from functools import partial
from typing import Literal

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin, TransformerMixin
from sklearn.utils.validation import check_is_fitted, check_non_negative, validate_data

from .._estimator import (SoftClusterer, best_restart, check_fit_input, check_new_input,
                          check_n_clusters, check_numbers, check_positive_ints, store_params)
from .._rng import as_generator, child_generators
from ..factor.init import INITS, make_starts, truncated_svd
from ..factor.nmf import solve_v
from ..factor.solvers import BATCHED_SOLVERS
from ..factor.sparse import SparseProducts
from ..text.weighting import ncw_weights
from ._labels import LABEL_RULES, labels_from_factor, rule_memberships

__all__ = ["NMFClustering"]

logger = logging.getLogger(__name__)

Weighting = Literal["none", "ncw"]

#: Starts that do not depend on the generator: one restart from them is all there is.
DETERMINISTIC_INITS = ("nndsvd", "nndsvda")
DTYPES = {"float64": np.float64, "float32": np.float32}


def _dtype_name(dtype) -> str | None:
    """"float64" or "float32" for a ``dtype`` naming either ("float32", np.float32,
    np.dtype("float32")), else None."""
    try:
        name = np.dtype(dtype).name
    except TypeError:
        return None
    return name if name in DTYPES and dtype is not None else None


class NMFClustering(SoftClusterer, ClusterMixin, TransformerMixin, BaseEstimator):
    """Cluster documents by non-negative matrix factorization (NMF) or its NC-weighted form.

    ``X`` (documents as rows, typically unit-length tf-idf) is factorised as
    ``X ~ V U^T`` (by HALS, the default solver, or by the paper's multiplicative updates
    of eqs. 8-9, ``solver="mu"``: both minimise the same objective), ``U`` is
    normalised to unit columns (eqs. 10-11), and document ``i`` goes to
    cluster ``argmax_j V_ij``. With ``weighting="ncw"`` the factorisation is
    applied to ``X' = D^{-1/2} X`` with ``D = diag(X X^T e)`` (Appendix B:
    the paper's ``X D^{-1/2}`` in its terms-as-rows orientation) and the
    labels are read from the weighted factor ``V'``, as the paper does.

    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``.
    weighting : {"none", "ncw"}
        Plain NMF or NMF-NCW.
    n_init : int
        Restarts from independent starts; the one with the lowest objective
        is kept (the paper uses 10). They run one after another (the
        solvers can run them side by side, with the same results, but that
        was slower; see ``_restarts``). The ``"nndsvd"`` and ``"nndsvda"``
        starts run once: each is a single point, from a randomized SVD drawn
        from ``random_state`` (fix it for the same start every time).
    max_iter : int
        Maximum update rounds per restart.
    tol : float
        Relative objective decrease below which a restart stops (negative: every one of
        ``max_iter`` rounds runs).
    solver : {"hals", "mu"}
        ``"hals"`` (default): accelerated hierarchical alternating least
        squares, the same objective minimised by exact coordinate steps, in
        compiled row kernels on every core, with the factors extrapolated
        between rounds (:mod:`docnmf.factor.hals`).
        ``"mu"``: the paper's multiplicative updates (eqs. 8-9).
    init : {"nndsvda", "nndsvd", "nndsvdar", "random"}
        Starting factors: non-negative double SVD (Boutsidis & Gallopoulos
        2008) with zeros set to the mean (default), kept, or set to small
        random values; or uniform random (the paper). The defaults were chosen
        on 25 labelled corpora against the paper's MU from 10 random starts:
        as accurate on average at a small fraction of the time
        (``benchmarks/solver_defaults.py``). ``solver="mu", init="random"``
        fits as the paper does.
    dtype : {"float64", "float32"}
        Precision of the factorization; float32 (``solver="hals"`` only)
        halves the factors' memory and is faster, with the objective within
        1e-4 of float64's.
    labels : {"argmax", "kmeans", "skmeans", "refine"}
        How labels are read from the document factor: ``argmax_j V_ij`` (the
        paper), k-means on the rows of ``V``, spherical k-means on them
        (unit rows), or spherical k-means on the documents started from the
        argmax clusters (:mod:`docnmf.cluster._labels`). Argmax stays the
        default: on the evaluation suite (``reports/benchmark-suite``)
        spherical k-means was ahead by 0.004 on the tuning half (3 seeds)
        and behind by 0.005 on the held-back half (worst -0.065, TDT2);
        ``"refine"`` lost 0.019 on the tuning half.
    random_state : None, int or numpy Generator
    verbose : int
        Log one line per restart at INFO level when > 0.

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        Soft memberships. For argmax labels the rows of ``V`` scaled to sum
        to one; for the k-means rules read from the squared distances to
        ``cluster_centers_`` (fuzzy c-means with m = 2,
        :func:`~docnmf._estimator.distance_memberships`). The largest is the label.
    cluster_centers_ : ndarray of shape (n_clusters, n_coordinates)
        The k-means rules' centres, numbered as the clusters, in the
        coordinates they ran in: ``V`` (``"kmeans"``), its unit rows
        (``"skmeans"``), or the unit rows of ``X`` (``"refine"``). New
        documents go to the nearest. Absent for argmax labels.
    embedding_ : ndarray of shape (n_docs, n_clusters)
        The document factor ``V`` (``V'`` for NCW) after eqs. 10-11.
    components_ : ndarray of shape (n_clusters, n_terms)
        ``U^T``: each row a unit-length topic vector over terms.
    ncw_column_sums_ : ndarray of shape (n_terms,)
        Only with ``weighting="ncw"``: the column sums of ``X``, from which new documents'
        NCW degrees ``d = x (X^T e)`` are computed.
    loss_history_ : ndarray
        Objective (eq. 1) per iteration of the kept restart.
    restart_objectives_ : ndarray of shape (n_restarts,)
        Final objective of each restart: ``n_init`` from random starts, one from the
        NNDSVDa start (``init="nndsvda"``, the default).
    n_iter_ : int
    objective_ : float
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Xu, Liu & Gong, Document clustering based on non-negative matrix
    factorization, SIGIR 2003, Sections 3.1-3.2 and Appendix B.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = NMFClustering(n_clusters=2, random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    """

    _placement_state = ("n_features_in_", "components_", "ncw_column_sums_", "cluster_centers_")
    _non_negative_state = ("components_", "ncw_column_sums_")

    def __init__(self, n_clusters: int = 8, *, weighting: Weighting = "none", n_init: int = 10,
                 max_iter: int = 500, tol: float = 1e-5, solver: str = "hals",
                 init: str = "nndsvda", dtype: str = "float64", labels: str = "argmax",
                 random_state=None, verbose: int = 0):
        store_params(self, locals())

    #: The values ``labels`` takes.
    LABEL_RULES = LABEL_RULES
    #: The starts ``init`` names.
    INITS = INITS

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        check_positive_ints(self, "n_init", "max_iter")
        check_numbers(self, "tol", nonnegative=False)   # < 0: every iteration
        if self.weighting not in ("none", "ncw"):
            raise ValueError(f"weighting must be 'none' or 'ncw', got {self.weighting!r}")
        if self.solver not in BATCHED_SOLVERS:
            raise ValueError(f"unknown solver {self.solver!r}; "
                             f"choose from {sorted(BATCHED_SOLVERS)}")
        if self.init not in INITS:
            raise ValueError(f"unknown init {self.init!r}; choose from {INITS}")
        if _dtype_name(self.dtype) is None:
            raise ValueError(f"dtype must be one of {sorted(DTYPES)}, got {self.dtype!r}")
        if self.labels not in LABEL_RULES:
            raise ValueError(f"labels must be one of {LABEL_RULES}, got {self.labels!r}")
        if _dtype_name(self.dtype) != "float64" and self.solver == "mu":
            raise ValueError("solver='mu' runs in float64 only; use solver='hals' for float32")

    def _row_weights(self, X):
        """``None``, or NCW's ``D^{-1/2}`` (and remember what new documents will need)."""
        if self.weighting == "none":
            self.__dict__.pop("ncw_column_sums_", None)     # an earlier NCW fit's
            return None
        self.ncw_column_sums_ = np.asarray(X.sum(axis=0)).ravel()
        return np.sqrt(ncw_weights(X))

    def fit(self, X, y=None):
        """Factorize ``X`` (n_documents, n_terms; non-negative, e.g. tf-idf) and label the
        documents: sets ``components_``, ``embedding_``, ``labels_``, ``memberships_``,
        ``objective_`` and ``loss_history_``. ``y`` is ignored. Returns ``self``.
        """
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        check_non_negative(X, f"{type(self).__name__} (input X)")
        X = check_fit_input(self, X)
        self._check_params(X.shape[0])
        weights = self._row_weights(X)
        rng = as_generator(self.random_state)
        n_init = 1 if self.init in DETERMINISTIC_INITS else int(self.n_init)
        best, objectives = best_restart(self._restarts(X, weights, rng, n_init), name="NMF",
                                        total=n_init, verbose=self.verbose, tol=self.tol,
                                        max_iter=self.max_iter)
        self.components_ = best.U.T.copy()
        self.embedding_ = best.V
        labels, centres = labels_from_factor(best.V, self.labels, rng, X=X)
        self.memberships_ = rule_memberships(best.V, self.labels, centres, X)
        # the k-means rules: the nearest centre, as new documents are placed (and their
        # largest membership), which k-means' own labels are but for rounding
        self.labels_ = labels if centres is None else np.argmax(self.memberships_, axis=1)
        if centres is None:
            self.__dict__.pop("cluster_centers_", None)
        else:
            self.cluster_centers_ = centres
        self.loss_history_ = best.losses
        self.objective_ = float(best.losses[-1])
        self.restart_objectives_ = objectives
        self.n_iter_ = best.n_iter
        return self

    def _restarts(self, X, weights, rng, n_init: int):
        """Fit every restart, one after another; yield each result as it finishes.

        Restart ``r`` starts from the ``r``-th child of ``rng``. The solvers
        can run several starts side by side, reading each stored entry of
        ``X`` once for all of them, but the products are bound by fetching the
        factor's rows, which side by side are as many bytes: of ten random
        starts of NCW on 20 Newsgroups, two side by side were at most 12%
        faster than one at a time on the same threads, ten side by side 24-28%
        slower (``benchmarks/solvers.py --sections restarts``). One at a time,
        each result is there as soon as it is done, and only one start's
        factors are held.
        HALS on a sparse ``X`` prepares it once (``X^T``, row blocks, the NCW
        weights on the dense side of each product) for the SVD and every
        restart; MU fits the weighted copy, as the paper.
        """
        children = child_generators(rng, n_init)
        dtype = DTYPES[_dtype_name(self.dtype)]
        solve = partial(BATCHED_SOLVERS[self.solver], max_iter=int(self.max_iter),
                        tol=float(self.tol), dtype=dtype)
        if self.solver == "hals" and sp.issparse(X):
            data = SparseProducts(X, dtype=dtype, row_weights=weights)
            solve_data = partial(solve, data)
        elif self.solver == "hals":
            data = X if weights is None else _scale_rows(X, weights)
            solve_data = partial(solve, X, row_weights=weights)
        else:
            data = X if weights is None else _scale_rows(X, weights)
            solve_data = partial(solve, data)
        svd = truncated_svd(data, self.n_clusters, children[0]) if self.init != "random" else None
        for child in children:
            yield from solve_data(make_starts(data, self.n_clusters, self.init, [child], svd=svd))

    def transform(self, X):
        """Soft memberships of new documents, the topic factor ``U`` held fixed (eq. 9 alone),
        read as ``memberships_`` are: by the label rule's centres, if it has them."""
        check_is_fitted(self, "components_")
        X = check_new_input(self, X)
        check_non_negative(X, f"{type(self).__name__}.transform (input X)")
        column_sums = self.ncw_column_sums_ if self.weighting == "ncw" else None
        # a model saved before the centres were kept places by the argmax, as it did
        return rule_memberships(new_document_factor(X, self.components_, column_sums),
                                self.labels, getattr(self, "cluster_centers_", None), X)


def new_document_factor(X, components: np.ndarray, ncw_column_sums: np.ndarray | None = None
                        ) -> np.ndarray:
    """The document factor of new documents ``X`` in a fitted NMF: eq. 9 alone, ``U`` held fixed.

    ``components`` is ``U^T`` (k, n_terms); with ``ncw_column_sums`` (the
    fitted matrix's column sums) each new row is first weighted as NMF-NCW
    weighs a document: by its degree against the whole fitted collection.
    """
    if ncw_column_sums is not None:
        d = np.asarray(X @ ncw_column_sums).ravel()
        X = _scale_rows(X, np.sqrt(np.divide(1.0, d, out=np.zeros_like(d), where=d > 0)))
    k = components.shape[0]
    V0 = np.full((X.shape[0], k), 1.0 / k)
    return solve_v(X, components.T, V0)


def _scale_rows(X, s: np.ndarray):
    if sp.issparse(X):
        return sp.csr_matrix(sp.diags(s) @ X)
    return X * s[:, None]
