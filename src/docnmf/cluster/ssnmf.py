"""Semi-supervised NMF document clustering with pairwise constraints (SS-NMF) as an estimator."""

from __future__ import annotations

import logging
import warnings
from typing import Literal

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin, TransformerMixin
from sklearn.metrics import euclidean_distances
from sklearn.utils.validation import check_is_fitted, check_non_negative, validate_data

from .._estimator import (SoftClusterer, _caller_outside_docnmf, best_restart, check_fit_input,
                          check_n_clusters, check_new_input, check_numbers, check_positive_ints,
                          cluster_means, distance_memberships, fit_constraints, fit_restarts,
                          memberships_from, store_params, warn_broken_pairs)
from .._rng import as_generator, child_generators
from ..constraints import constrained_pairs
from ..factor.ssnmf import (UPDATES, ConstrainedSimilarity, constrained_similarity, fit_ssnmf,
                            fit_ssnmf_restarts, random_init, solve_g)
from ._labels import _aligned, _unit_rows, constrained_spherical_kmeans, rule_memberships
from .nmf import NMFClustering, new_document_factor

__all__ = ["SSNMFClustering", "constraint_f1"]

logger = logging.getLogger(__name__)

ConstraintMode = Literal["extreme", "cost"]
#: How SS-NMF clusters: the consensus (its default), NMF-NCW's factor, or the paper's similarity.
FACTORIZATIONS = ("consensus", "ncw", "similarity")
Affinity = Literal["linear", "precomputed"]

#: The options of factorization="similarity" alone, with their defaults.
_SIMILARITY_ONLY = {"constraint_mode": "extreme", "reward": None, "penalty": None,
                    "closure": True, "update": "paper"}

#: The fitted attributes that some factorizations or affinities set and others do not.
_CONDITIONAL = ("cluster_centers_", "components_", "selected_", "candidate_agreement_",
                "member_labels_", "idf_", "ncw_column_sums_")


class SSNMFClustering(SoftClusterer, ClusterMixin, TransformerMixin, BaseEstimator):
    """Cluster documents with must-link / cannot-link pairs: SS-NMF and docnmf's default form.

    By default (``factorization="consensus"``) the constraints choose among the
    consensus and its members' clusterings and the choice is repaired to keep them; see
    ``factorization``. The paper's SS-NMF (``factorization="similarity"``):
    the document similarity ``A = X X^T`` (``X``: documents as rows,
    typically unit-length tf-idf; the paper's ``X^T X``) is changed at the
    constrained pairs into ``A~`` and factorised as ``G S G^T`` by the
    multiplicative updates of eqs. 5-6 (Algorithm 1). Document ``i`` goes
    to cluster ``argmax_h G_ih``; ``G`` has unit-length columns, as in the
    paper's Table 1. ``A`` is used only through products ``X (X^T G)`` plus
    a sparse correction at the constrained pairs, so memory grows with
    ``nnz(X)`` and the number of constrained pairs, not ``n_docs**2``. How
    constrained entries are set, their signs and how negative values are
    avoided is described in :mod:`docnmf.factor.ssnmf`. Without constraints
    this is unconstrained symmetric tri-factorization of ``A``.

    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``.
    factorization : {"consensus", "ncw", "similarity"}
        ``"similarity"``: the paper's, described above. ``"consensus"``
        (default): ``X`` holds term counts, clustered as ``--method consensus``
        does (:class:`~docnmf.cluster.consensus.ConsensusClustering`: NMF,
        NMF-NCW and LSI k-means on raw and sublinear tf-idf, and their
        consensus); the constraints then choose among the consensus and its
        members the clustering that reproduces them best (:func:`constraint_f1`:
        the F-measure of "same cluster" as a prediction of "must-link"; the
        consensus when none does better), and that clustering is repaired to keep every
        must-link, a price on every broken cannot-link
        (:func:`~docnmf.cluster._labels.constrained_spherical_kmeans` over its
        cluster indicators, so a document no pair names keeps its cluster).
        Without constraints it is the consensus. ``"ncw"`` (the default
        before): the documents are factorised as NMF-NCW does
        (:class:`~docnmf.cluster.nmf.NMFClustering` with
        ``weighting="ncw"``, ``labels="skmeans"``), and the constraints act when
        labels are read: spherical k-means on the rows of ``V`` over the
        must-link groups, which move as one, with a price on every broken
        cannot-link, started from NMF's own labels. On the evaluation suite's
        tuning corpora the paper's factorization of the changed similarity was
        well below unconstrained NMF-NCW at every share of constrained pairs
        (e.g. CSTR 0.69 vs 0.91 with 0.1%) and broke a third of the
        must-links. With constraints on 0.1% of all document pairs,
        ``"consensus"`` gains 0.134 over its unconstrained self on the suite's
        29 corpora (``"ncw"`` 0.122) and reaches 0.770 (``"ncw"`` 0.730); see
        ``reports/benchmark-suite``. The options below up to ``update``
        concern ``"similarity"`` only; ``max_iter`` and ``tol`` concern
        ``"similarity"`` and ``"ncw"``, ``n_init`` is the consensus's
        k-means restarts.
    constraint_mode : {"extreme", "cost"}
        ``"extreme"``: a must-link pair gets the largest similarity and a
        cannot-link pair the smallest (the paper's experiments).
        ``"cost"``: ``A_ij + reward`` and ``max(A_ij - penalty, 0)``.
    reward, penalty : float, optional
        Weights of ``constraint_mode="cost"``; default the largest
        similarity (``max_i ||x_i||^2``). Must be None in ``"extreme"`` mode.
    affinity : {"linear", "precomputed"}
        ``A = X X^T``, or ``X`` is itself the n x n non-negative symmetric
        similarity (e.g. a Gaussian kernel).
    closure : bool
        ``factorization="similarity"`` only (the others keep every must-link,
        implied ones included): apply every pair the constraints imply
        (transitive must-links, cannot-links between must-link groups), or
        only the pairs given. The paper's experiments draw pairs
        independently and apply them as drawn (``closure=False``, the
        ``ssnmf-paper`` method's default); with many random pairs the
        closure reaches most documents of a class, and the changed
        similarity can lose to no pairs at all (20 Newsgroups, four groups,
        0.5% of pairs: accuracy 0.49 with it, 0.83 without, 0.79 with none).
    update : {"paper", "sqrt"}
        Eq. 6 as printed, or its square-root form (smaller steps, same fixed points).
    n_init : int
        Restarts from independent random starts; the lowest objective is kept.
    max_iter : int
        Maximum update rounds per restart.
    tol : float
        Relative objective change below which a restart stops.
    batch_restarts : bool
        Run the ``n_init`` restarts side by side
        (:func:`~docnmf.factor.ssnmf.fit_ssnmf_restarts`): each round's
        ``A~ G`` is one product for all restarts instead of one per restart
        (for sparse documents; a dense ``X`` keeps one per restart). The
        results are bit for bit those of running the restarts one after
        another (``False``, kept for comparison).
    random_state : None, int or numpy Generator
    verbose : int
        Log one line per restart at INFO level when > 0.

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        Soft memberships: rows of ``G`` scaled to sum to one; for ``"ncw"``
        read from the squared distances to ``cluster_centers_``, for
        ``"consensus"`` from those to the clusters' means in the consensus's
        indicator space (how far each document's member clusterings side with
        each cluster); both fuzzy c-means with m = 2
        (:func:`~docnmf._estimator.distance_memberships`), so that a document
        no constraint moved has its label as its largest membership. With
        ``"consensus"``, ``transform`` reads new documents from their distances
        to ``cluster_centers_`` in tf-idf instead: the same clusters, on a
        flatter scale than a fitted document's (compare memberships of fitted
        and of placed documents only through their largest).
    cluster_centers_ : ndarray of shape (n_clusters, n_coordinates)
        ``"ncw"``: each cluster's mean direction among the unit rows of ``V``;
        ``"consensus"``: its unit mean tf-idf document. New documents go to
        the nearest. Absent with ``factorization="similarity"``.
    embedding_ : ndarray of shape (n_docs, n_clusters)
        The cluster indicator ``G`` (unit-length columns); with
        ``factorization="ncw"`` NMF-NCW's document factor ``V``.
    S_ : ndarray of shape (n_clusters, n_clusters) or None
        The cluster centroid matrix ``S`` (diagonal; see :mod:`docnmf.factor.ssnmf`);
        None with ``factorization="ncw"`` or ``"consensus"``.
    components_ : ndarray of shape (n_clusters, n_terms)
        ``G^T X``: each cluster's membership-weighted sum of documents
        (``affinity="linear"`` only), NMF-NCW's topics, or (``"consensus"``) each
        cluster's mean tf-idf document; the source of keywords.
    selected_ : str
        Only with ``factorization="consensus"``: the clustering the constraints chose
        (``"consensus"`` or a member, ``"<kind>/<tf>"``).
    candidate_agreement_ : dict of str -> float
        Only with ``factorization="consensus"``: how well each candidate reproduces the
        pairs (:func:`constraint_f1`).
    member_labels_ : ndarray of shape (n_docs, n_members)
        Only with ``factorization="consensus"``: each member's clusters, as the
        consensus's ``member_labels_`` (the candidates besides the consensus).
    idf_ : ndarray of shape (n_terms,)
        Only with ``factorization="consensus"``: the consensus's idf weights, which weigh
        new documents for ``cluster_centers_``.
    ncw_column_sums_ : ndarray of shape (n_terms,)
        Only with ``factorization="ncw"``: the column sums of ``X``, from which new
        documents' NCW degrees are computed (as NMFClustering's).
    constraints_ : Constraints
        The checked constraints; ``constraints_.violations(labels_)`` counts the
        must-link pairs the result splits and the cannot-link pairs it joins (with
        more cannot-linked groups than clusters some must be joined, and nothing
        warns of it).
    n_constrained_pairs_ : tuple of int
        Must-link and cannot-link pairs applied to ``A`` (as given, for ``"ncw"``).
    loss_history_ : ndarray
        Objective (eq. 3) per iteration of the kept restart.
    restart_objectives_ : ndarray
        Final objective of each restart: ``n_init`` of them, but for ``"ncw"`` NMF-NCW's
        (one, from its NNDSVDa start) and for ``"consensus"`` the consensus k-means'.
    objective_ : float
    n_iter_ : int
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Chen, Rege, Dong & Hua, Incorporating user provided constraints into
    document clustering (SS-NMF), Sections 3.1-3.2, eqs. (2)-(6), Algorithm 1.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])
    >>> model = SSNMFClustering(n_clusters=2, random_state=0)
    >>> labels = model.fit_predict(X, must_link=[(0, 1)], cannot_link=[(1, 2)])
    >>> bool(labels[0] == labels[1] != labels[2] == labels[3])
    True
    """

    _placement_state = ("n_features_in_", "embedding_", "components_", "S_", "_GtG",
                        "ncw_column_sums_", "idf_", "cluster_centers_")
    _non_negative_state = ("idf_", "ncw_column_sums_")

    def _placement_blocker(self) -> str | None:
        if self.affinity == "precomputed":
            return "an SS-NMF fitted on a precomputed similarity cannot place new texts"
        return super()._placement_blocker()

    def __init__(self, n_clusters: int = 8, *, factorization: str = "consensus",
                 constraint_mode: ConstraintMode = "extreme",
                 reward: float | None = None, penalty: float | None = None,
                 affinity: Affinity = "linear", closure: bool = True, update: str = "paper",
                 n_init: int = 10, max_iter: int = 500, tol: float = 1e-5,
                 batch_restarts: bool = True, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        if self.factorization not in FACTORIZATIONS:
            raise ValueError(f"factorization must be one of {FACTORIZATIONS}, "
                             f"got {self.factorization!r}")
        if self.factorization != "similarity" and self.affinity == "precomputed":
            raise ValueError("affinity='precomputed' needs factorization='similarity' "
                             f"({self.factorization!r} clusters the documents themselves)")
        if self.constraint_mode not in ("extreme", "cost"):
            raise ValueError("constraint_mode must be 'extreme' or 'cost', "
                             f"got {self.constraint_mode!r}")
        if self.affinity not in ("linear", "precomputed"):
            raise ValueError(f"affinity must be 'linear' or 'precomputed', got {self.affinity!r}")
        if self.update not in UPDATES:
            raise ValueError(f"update must be one of {sorted(UPDATES)}, got {self.update!r}")
        check_positive_ints(self, "n_init", "max_iter")
        check_numbers(self, "tol")
        # here, in the estimator's names, and with or without constraints (the solver checks
        # them as ``mode``'s weights, and only when there are pairs to weigh)
        check_numbers(self, "reward", "penalty", optional=True, finite=True)
        if self.factorization == "similarity" and self.constraint_mode == "extreme" \
                and (self.reward is not None or self.penalty is not None):
            raise ValueError("reward and penalty are the weights of constraint_mode='cost'; "
                             "constraint_mode='extreme' sets constrained pairs to the largest "
                             "and smallest similarity")
        unused = {name: getattr(self, name) for name, default in _SIMILARITY_ONLY.items()
                  if getattr(self, name) != default}
        if self.factorization != "similarity" and unused:
            # constraint_mode="cost" with the default factorization was ignored without a word
            warnings.warn(f"{type(self).__name__}: "
                          f"{', '.join(f'{k}={v!r}' for k, v in unused.items())} concern "
                          f"factorization='similarity' only; factorization="
                          f"{self.factorization!r} does not use them",
                          UserWarning, stacklevel=_caller_outside_docnmf())

    def _similarity(self, X, must_link, cannot_link) -> ConstrainedSimilarity:
        if self.affinity == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError("affinity='precomputed' needs a square similarity matrix, "
                                 f"got shape {X.shape}")
            asym = abs(X - X.T)
            scale = max(abs(X).max(), 1e-300)
            if (asym.max() if sp.issparse(asym) else np.max(asym)) > 1e-8 * scale:
                raise ValueError("affinity='precomputed' needs a symmetric similarity matrix")
        return constrained_similarity(X, must_link, cannot_link, mode=self.constraint_mode,
                                      reward=self.reward, penalty=self.penalty,
                                      precomputed=self.affinity == "precomputed")

    def fit(self, X, y=None, *, must_link=None, cannot_link=None):
        """Cluster ``X`` under the constraints.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_docs, n_terms)
            Non-negative documents as rows: term counts for
            ``factorization="consensus"``, tf-idf otherwise; with
            ``affinity="precomputed"`` the (n_docs, n_docs) similarity matrix.
        y : array-like of shape (n_docs,), optional
            Partial labels, ``-1`` for an unlabelled document; expanded to
            the must-link and cannot-link pairs they imply.
        must_link, cannot_link : sequence of (i, j) or array of shape (m, 2), optional
            Document index pairs (see :func:`docnmf.constraints.read_constraint_pairs`
            for files of document ids).
        """
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        check_non_negative(X, f"{type(self).__name__} (input X)")
        X = check_fit_input(self, X)
        n = X.shape[0]
        self._check_params(n)
        for stale in _CONDITIONAL:    # an earlier fit's, under another factorization: saved
            self.__dict__.pop(stale, None)        # with the model, they described no fit of it
        self.constraints_ = fit_constraints(n, y, must_link, cannot_link)
        fit = {"ncw": self._fit_ncw, "consensus": self._fit_consensus}.get(self.factorization,
                                                                           self._fit_similarity)
        fit(X)
        warn_broken_pairs(self.constraints_, self.labels_)
        return self

    def _fit_similarity(self, X):
        """Chen et al.'s SS-NMF: the constraints as rewards and penalties in the similarity."""
        ml, cl = constrained_pairs(self.constraints_, bool(self.closure))
        self.n_constrained_pairs_ = (len(ml), len(cl))
        A = self._similarity(X, ml, cl)
        rng = as_generator(self.random_state)
        k = int(self.n_clusters)
        if self.batch_restarts:
            # the same child generators, in the same order, as one restart after another
            starts = [random_init(A, k, child) for child in child_generators(rng, int(self.n_init))]
            results = fit_ssnmf_restarts(A, starts, update=self.update,
                                         max_iter=int(self.max_iter), tol=float(self.tol))
        else:
            results = fit_restarts(
                lambda child: fit_ssnmf(A, *random_init(A, k, child), update=self.update,
                                        max_iter=int(self.max_iter), tol=float(self.tol)),
                rng, int(self.n_init))
        # restarts side by side are handed over together ("(0.00s)" each): no time of their own
        best, losses = best_restart(results, name="SS-NMF", total=int(self.n_init),
                                    verbose=self.verbose, tol=self.tol, max_iter=self.max_iter,
                                    timed=not self.batch_restarts)
        G, S = best.G, best.S
        self.embedding_ = G
        self.S_ = S
        self.memberships_ = memberships_from(G)
        self.labels_ = np.argmax(G, axis=1)
        self.loss_history_ = best.losses
        self.objective_ = float(best.losses[-1])
        self.restart_objectives_ = np.asarray(losses)
        self.n_iter_ = best.n_iter
        self._GtG = G.T @ G
        if self.affinity == "linear":
            self.components_ = np.asarray(X.T @ G).T
        return self

    def _fit_ncw(self, X):
        """NMF-NCW of the documents, the constraints applied as labels are read."""
        k = int(self.n_clusters)
        # started from spherical k-means on V, as on the suite (reports/benchmark-suite)
        nmf = NMFClustering(k, weighting="ncw", labels="skmeans", n_init=int(self.n_init),
                            max_iter=int(self.max_iter),
                            tol=float(self.tol), random_state=as_generator(self.random_state),
                            verbose=self.verbose).fit(X)
        c = self.constraints_
        V = nmf.embedding_
        labels = constrained_spherical_kmeans(V, k, c.group, c.group[c.cannot_link], nmf.labels_)
        self.n_constrained_pairs_ = (len(c.must_link), len(c.cannot_link))
        self.embedding_ = V
        self.S_ = None
        self.labels_ = _aligned(labels, np.argmax(V, axis=1), k)
        # placed as the labels were read: the nearest mean direction of the unit rows of V
        self.cluster_centers_ = _unit_rows(cluster_means(_unit_rows(V), self.labels_, k))
        self.memberships_ = rule_memberships(V, "skmeans", self.cluster_centers_)
        self.components_ = nmf.components_
        self.ncw_column_sums_ = nmf.ncw_column_sums_
        self.loss_history_ = nmf.loss_history_
        self.objective_ = nmf.objective_
        self.restart_objectives_ = nmf.restart_objectives_
        self.n_iter_ = nmf.n_iter_
        return self

    def _fit_consensus(self, X):
        """The consensus and its members; the one that keeps most constraints, repaired."""
        from .consensus import ConsensusClustering, indicator_matrix, unit_tfidf

        k = int(self.n_clusters)
        # the consensus unrefined: the candidates the pairs choose among were measured so
        # (reports/benchmark-suite/tuning-ssnmf)
        own = (ConsensusClustering.__name__, type(self).__name__)
        try:
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always")
                consensus = ConsensusClustering(k, n_init=int(self.n_init), refine=None,
                                                random_state=as_generator(self.random_state),
                                                verbose=self.verbose).fit(X)
        except ValueError as exc:       # its input checks, said of this estimator
            raise ValueError(str(exc).replace(*own)) from None
        for w in said:                  # its warnings too, of the user's call
            warnings.warn(str(w.message).replace(*own), w.category,
                          stacklevel=_caller_outside_docnmf())
        c = self.constraints_
        names = ["consensus", *consensus.members_]
        candidates = [consensus.labels_, *consensus.member_labels_.T]
        agreement = [constraint_f1(labels, c.must_link, c.cannot_link) for labels in candidates]
        best = int(np.argmax(agreement))      # the first of equals: the consensus
        chosen = candidates[best]
        labels = constrained_spherical_kmeans(indicator_matrix(chosen[:, None], k), k,
                                              c.group, c.group[c.cannot_link], chosen)
        if self.verbose and not (len(c.must_link) or len(c.cannot_link)):
            logger.info("SS-NMF: no pairs to choose by: the consensus, as it is")
        elif self.verbose:
            logger.info("SS-NMF: %s reproduces the pairs best (F-measure: %s)",
                        names[best], ", ".join(f"{n} {a:.3f}" for n, a in zip(names, agreement)))
        self.selected_ = names[best]
        self.candidate_agreement_ = dict(zip(names, map(float, agreement)))
        self.member_labels_ = consensus.member_labels_
        self.n_constrained_pairs_ = (len(c.must_link), len(c.cannot_link))
        # memberships: how far each document's members side with each cluster (the squared
        # distances to the clusters' centres in the consensus's indicator space)
        B = indicator_matrix(consensus.member_labels_, k)
        self.memberships_ = distance_memberships(
            euclidean_distances(B, cluster_means(B, labels, k), squared=True))
        self.labels_ = labels.astype(np.int64)
        self.embedding_ = self.memberships_
        self.S_ = None
        self.idf_ = consensus.idf_
        self.components_ = cluster_means(unit_tfidf(X, self.idf_), self.labels_, k)
        self.cluster_centers_ = _unit_rows(self.components_)
        self.loss_history_ = np.array([])
        self.objective_ = consensus.objective_
        self.restart_objectives_ = consensus.restart_objectives_
        self.n_iter_ = consensus.n_iter_
        return self

    def transform(self, X):
        """Soft memberships of new documents, ``G`` and ``S`` held fixed.

        Each new document's similarities ``a`` to the fitted documents
        (``X_new X^T``, or the rows of ``X`` for ``affinity="precomputed"``,
        shape (n_new, n_fitted)) are approximated as ``g S G^T`` with
        ``g >= 0``. Constraints concern fitted documents only and play no part.
        """
        check_is_fitted(self, "embedding_")
        X = check_new_input(self, X)
        check_non_negative(X, f"{type(self).__name__}.transform (input X)")
        if self.factorization == "ncw":    # NMF-NCW's placement, its factors held
            # a model saved before the centres were kept places by the argmax, as it did
            V = new_document_factor(X, self.components_, self.ncw_column_sums_)
            return rule_memberships(V, "skmeans", getattr(self, "cluster_centers_", None))
        if self.factorization == "consensus":     # the most similar mean document
            from .consensus import unit_tfidf

            return distance_memberships(euclidean_distances(
                unit_tfidf(X, self.idf_), self.cluster_centers_, squared=True))
        if self.affinity == "linear":
            AG = np.asarray(X @ self.components_.T)
        else:
            AG = np.asarray(X @ self.embedding_)
        return memberships_from(solve_g(AG, self.S_, self._GtG))

    _keyword_attribute = "embedding_"

    def _keyword_weights(self) -> np.ndarray:
        """Each cluster's row of ``G^T X``."""
        if self.affinity != "linear":
            raise ValueError("keywords need documents as term vectors (affinity='linear')")
        return self.components_

    def _pairwise(self) -> bool:
        return self.affinity == "precomputed"

    def _scale_free(self) -> bool:
        # the default weights are the largest similarity, so they scale with X; given ones do not
        return self.reward is None and self.penalty is None


def constraint_f1(labels: np.ndarray, must_link: np.ndarray, cannot_link: np.ndarray) -> float:
    """How well ``labels`` reproduce the pairs: the F-measure of "same cluster" as a prediction
    of "must-link" over the constrained pairs, ``2 TP / (2 TP + FP + FN)`` (CVCP's measure,
    Pourrajabi et al. 2014); with no must-link, the share of cannot-links kept apart; with no
    pair at all, 1.

    Examples
    --------
    >>> constraint_f1(np.array([0, 0, 1, 1]), np.array([[0, 1], [2, 3]]), np.array([[1, 2]]))
    1.0
    >>> constraint_f1(np.array([0, 0, 0]), np.array([[0, 1]]), np.array([[0, 2], [1, 2]]))
    0.5
    """
    labels = np.asarray(labels)
    must = np.asarray(must_link, dtype=np.intp).reshape(-1, 2)
    cannot = np.asarray(cannot_link, dtype=np.intp).reshape(-1, 2)
    together = labels[cannot[:, 0]] == labels[cannot[:, 1]]
    if not len(must):
        return float(1.0 - np.mean(together)) if len(cannot) else 1.0
    tp = int(np.sum(labels[must[:, 0]] == labels[must[:, 1]]))
    return 2 * tp / (2 * tp + int(together.sum()) + (len(must) - tp))
