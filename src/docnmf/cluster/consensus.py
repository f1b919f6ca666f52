"""The consensus of several clusterings of the same documents (``--method consensus``).

Each *member* clusters the documents its own way: NMF and NMF-NCW (Xu et al.
2003) and k-means on LSI coordinates (latent semantic analysis), each on two
weightings of the term counts, ``tf * log(n / df)`` (Xu et al.'s tf-idf) and
``(1 + log tf) * log(n / df)``. Document ``i`` is then written as the
concatenation ``b_i`` of its members' one-hot cluster indicators (``m`` members,
``m k`` columns), and k-means on these rows gives the consensus. Two documents'
squared distance in that space is ``2 (m - a_ij)``, with ``a_ij`` the number of
members that put them together, so k-means on ``B`` clusters the co-association
matrix ``B B^T`` without forming it (k-means on the members' indicators is the
consensus function of Topchy, Jain & Punch 2005, there on standardized ones).

Why a consensus: on the evaluation suite (``reports/benchmark-suite``) every
single member fails badly somewhere (NMF-NCW spends clusters on a handful of
outlying documents on 20 Newsgroups rec and CLUTO classic; LSI k-means merges
classes on k1b; raw tf loses to sublinear tf on the newsgroups and the reverse
on the TREC sets), and rarely in the same place; the consensus follows the
members that agree. On the suite's 29 corpora it is 0.085 above scikit-learn's
TfidfVectorizer + KMeans on average and at worst 0.068 below it, where NMF-NCW
alone is 0.064 above and at worst 0.22 below; where NMF-NCW alone is far ahead
of the other members (many classes of very unequal size: TDT2, Reuters, k1b,
tr12) the consensus follows the others and loses 0.13-0.21 to it.

It was docnmf's default until a confirmation set declared afterwards (draws
of five classes from TDT2 and Reuters, most with one large class) showed
that failure to be common: its LSI members, and the k-means that forms the
consensus, split a large class that NMF-NCW keeps whole. The default is now
LCCF-NCW (``reports/benchmark-suite/confirm/DECISION.md``); the consensus
stays the better choice for balanced classes that NMF-NCW splits badly, such
as 20 Newsgroups' hierarchies.
"""

from __future__ import annotations

import logging
import time
import warnings
from typing import Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.cluster import KMeans
from sklearn.metrics import euclidean_distances, normalized_mutual_info_score
from sklearn.utils.validation import check_is_fitted, check_non_negative, validate_data

from .._estimator import (DocumentClusterer, _caller_outside_docnmf, check_fit_input,
                          check_n_clusters, check_new_input, check_positive_ints, cluster_means,
                          distance_memberships, kmeans_restarts, store_params)
from .._rng import as_generator, child_generators
from ..factor.init import truncated_svd
from ..text.weighting import TfidfWeighting
from ._labels import _unit_rows, constrained_spherical_kmeans
from .nmf import NMFClustering

__all__ = ["ConsensusClustering", "MEMBER_KINDS", "TF_SCHEMES", "indicator_matrix", "refine_labels",
           "unit_tfidf"]

logger = logging.getLogger(__name__)

#: The kinds of member and how each clusters a weighted matrix.
MEMBER_KINDS = {
    "nmf-ncw": "NMF on normalized-cut weighted documents, argmax labels (Xu et al. 2003)",
    "nmf": "NMF, argmax labels (Xu et al. 2003)",
    "lsa": "k-means on the unit-length rows of the leading LSI coordinates",
}
#: The term frequencies the members see: the count itself, or 1 + log of it.
TF_SCHEMES = ("raw", "sublinear")


class ConsensusClustering(DocumentClusterer, ClusterMixin, BaseEstimator):
    """Cluster documents by the consensus of NMF, NMF-NCW and LSI k-means on two weightings.

    ``X`` holds term counts, documents as rows. Every kind of member in
    ``members`` runs on every weighting in ``tf`` (by default 3 x 2 = 6
    members); see the module for the consensus.

    Parameters
    ----------
    n_clusters : int
        Number of clusters ``k``.
    members : sequence of {"nmf-ncw", "nmf", "lsa"}
        The kinds of member (:data:`MEMBER_KINDS`).
    tf : sequence of {"raw", "sublinear"}
        Term frequencies the members run on: the count ``t``, or ``1 + log t``
        (counts below 1 count as 1); the idf is ``log(n / df)`` and documents
        are scaled to unit length, as in Xu et al. (2003).
    n_components : int
        LSI dimensions of the ``"lsa"`` members (at least ``k``; at most the
        matrix allows).
    n_init : int
        Restarts of the consensus k-means; the lowest objective is kept.
    refine : {"sublinear", "raw"} or None
        Spherical k-means on the documents' tf-idf with this term frequency,
        started from the consensus, moves the documents the consensus placed
        badly (None, the default: the consensus as it is). Off by default:
        on the suite it gained 0.01 on the tuning half but drifted to
        k-means's split of CLUTO cacmcisi on the held-back half (0.97 to
        0.62; ``reports/benchmark-suite/tuning-refine``).
    random_state : None, int or numpy Generator
    verbose : int
        Log each member and the consensus at INFO level when > 0.

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    consensus_labels_ : ndarray of shape (n_docs,)
        The consensus before ``refine`` (the same as ``labels_`` without it).
    memberships_ : ndarray of shape (n_docs, n_clusters)
        Fuzzy c-means memberships (m = 2) of the squared distances to the
        clusters' mean directions in the refining tf-idf (without ``refine``: to
        the consensus centres, the share of members that side with each
        cluster, read softly); the largest is the label. New documents
        (:meth:`predict_memberships`) are read from their distances to the mean
        directions in tf-idf: the same clusters, on a flatter scale than a
        fitted document's without ``refine``.
    member_labels_ : ndarray of shape (n_docs, n_members)
        Each member's clusters.
    members_ : list of str
        The members, as ``"<kind>/<tf>"``, in the columns' order.
    member_agreement_ : ndarray of shape (n_members,)
        NMI of each member's clusters with the consensus.
    centroids_ : ndarray of shape (n_clusters, n_terms)
        Mean tf-idf document (raw tf) of each cluster; the source of keywords.
    cluster_centers_ : ndarray of shape (n_clusters, n_terms)
        The same, scaled to unit length: new documents go to the most similar (cosine).
    idf_ : ndarray of shape (n_terms,)
    objective_ : float
        The consensus k-means objective (before ``refine``): summed over documents, twice the
        number of members that disagree with its cluster's majority, on average.
    restart_objectives_ : ndarray of shape (n_init,)
    n_iter_ : int
        Iterations of the kept consensus restart.
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Xu, Liu & Gong, Document clustering based on non-negative matrix
    factorization, SIGIR 2003. Strehl & Ghosh, Cluster ensembles, JMLR 3,
    2002. Topchy, Jain & Punch, Clustering ensembles: models of consensus and
    weak partitions, IEEE TPAMI 27, 2005.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[3, 1, 0, 0], [2, 2, 0, 0], [4, 1, 0, 1],
    ...               [0, 0, 1, 3], [0, 0, 2, 2], [1, 0, 3, 3]])
    >>> labels = ConsensusClustering(2, random_state=0).fit_predict(X)
    >>> bool(len(set(labels[:3])) == len(set(labels[3:])) == 1 and labels[0] != labels[3])
    True
    """

    _keyword_attribute = "centroids_"
    _placement_state = ("n_features_in_", "idf_", "centroids_", "cluster_centers_")
    _non_negative_state = ("idf_", "centroids_", "cluster_centers_")

    def __init__(self, n_clusters: int = 8, *, members: Sequence[str] = ("nmf-ncw", "nmf", "lsa"),
                 tf: Sequence[str] = TF_SCHEMES, n_components: int = 50, n_init: int = 10,
                 refine: str | None = None, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        check_positive_ints(self, "n_components", "n_init")
        for name, allowed in (("members", tuple(MEMBER_KINDS)), ("tf", TF_SCHEMES)):
            value = getattr(self, name)
            # not a sequence (None, 1.5), or one of unhashable entries: refused as the rest
            items = list(value) if hasattr(value, "__len__") else None
            if isinstance(value, str) or not items \
                    or not all(isinstance(v, str) for v in items) \
                    or len(set(items)) != len(items) or not set(items) <= set(allowed):
                raise ValueError(f"{name} must be a sequence of distinct values from {allowed}, "
                                 f"got {value!r}")
        if self.refine is not None and self.refine not in TF_SCHEMES:
            raise ValueError(f"refine must be one of {TF_SCHEMES} or None, got {self.refine!r}")

    def fit(self, X, y=None):
        """Cluster the documents ``X`` (term counts, shape (n_docs, n_terms), dense or CSR)."""
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        check_non_negative(X, f"{type(self).__name__} (input X)")
        values = X.data if sp.issparse(X) else X
        if np.any(values != np.round(values)):
            warnings.warn(f"{type(self).__name__} weighs term counts itself (raw and sublinear "
                          "tf-idf), but X has fractional entries, a weighted matrix perhaps: its "
                          "members then see those as counts; give counts "
                          "(DocumentVectorizer().fit_count(texts))", UserWarning,
                          stacklevel=_caller_outside_docnmf())
        X = sp.csr_matrix(check_fit_input(self, X))
        self._check_params(X.shape[0])
        k = int(self.n_clusters)
        rng = as_generator(self.random_state)
        children = iter(child_generators(rng, len(self.tf) * len(self.members) + 1))
        columns, names = [], []
        for tf in self.tf:
            # one weighting at a time: the members' own copies of it are what holds memory
            W, _ = _weigh(X, tf)
            if not W.nnz:
                raise ValueError(f"{type(self).__name__}: every term occurs in every one of the "
                                 f"n_samples={X.shape[0]} documents, so every tf-idf weight "
                                 "log(n / df) is 0; there is nothing to cluster")
            for kind in self.members:
                t0 = time.perf_counter()
                columns.append(_member_labels(kind, W, k, int(self.n_components), next(children)))
                names.append(f"{kind}/{tf}")
                if self.verbose:
                    logger.info("consensus member %s: %.2fs", names[-1], time.perf_counter() - t0)
            del W
        self.member_labels_ = np.column_stack(columns).astype(np.int64)
        self.members_ = names
        B = indicator_matrix(self.member_labels_, k)
        km, self.restart_objectives_ = kmeans_restarts(
            B, k, n_init=int(self.n_init), max_iter=300, tol=1e-4,
            seed=int(next(children).integers(np.iinfo(np.int32).max)))
        self.consensus_labels_ = km.labels_.astype(np.int64)
        self.objective_ = float(km.inertia_)
        self.n_iter_ = int(km.n_iter_)
        if self.refine is None:
            self.labels_ = self.consensus_labels_
            self.memberships_ = distance_memberships(km.transform(B) ** 2)
        else:
            self.labels_, self.memberships_ = refine_labels(X, self.consensus_labels_, k,
                                                            self.refine)
        self.member_agreement_ = np.array([normalized_mutual_info_score(self.labels_, c)
                                           for c in self.member_labels_.T])
        raw, self.idf_ = _weigh(X, "raw")
        self.centroids_ = cluster_means(raw, self.labels_, k)
        self.cluster_centers_ = _unit_rows(self.centroids_)
        if self.verbose:
            moved = ("" if self.refine is None else
                     f", {int(np.sum(self.labels_ != self.consensus_labels_))} documents moved "
                     "by refining")
            logger.info("consensus of %d members: objective %.6g%s; agreement with each (NMI) "
                        "%s", len(names), self.objective_, moved,
                        ", ".join(f"{n} {a:.2f}" for n, a in zip(names, self.member_agreement_)))
        return self

    def _centre_sq_distances(self, X) -> np.ndarray:
        check_is_fitted(self, "cluster_centers_")
        X = check_new_input(self, X)
        check_non_negative(X, f"{type(self).__name__}.predict (input X: term counts)")
        return euclidean_distances(unit_tfidf(X, self.idf_), self.cluster_centers_, squared=True)

    def predict_memberships(self, X):
        """Soft memberships of new documents (term counts), read from their squared distances
        to the clusters' mean directions, as the k-means-based methods read theirs."""
        return distance_memberships(self._centre_sq_distances(X))

    def predict(self, X):
        """Cluster of each new document (term counts): the most similar mean document."""
        return np.argmin(self._centre_sq_distances(X), axis=1).astype(np.int64)


def refine_labels(X, labels: np.ndarray, k: int, tf: str) -> tuple[np.ndarray, np.ndarray]:
    """Spherical k-means on the unit tf-idf (term frequency ``tf``) of the counts ``X``, started
    from ``labels`` (each document its own group of :func:`constrained_spherical_kmeans`, no
    constraint, at most 30 rounds); the labels and their memberships (fuzzy c-means of the
    squared distances ``2 - 2 cos`` to the clusters' mean directions)."""
    W, _ = _weigh(sp.csr_matrix(X), tf)
    refined = constrained_spherical_kmeans(W, k, np.arange(W.shape[0]), np.empty((0, 2), np.intp),
                                           labels, max_iter=30)
    sims = np.asarray(W @ _unit_rows(cluster_means(W, refined, k)).T)
    return refined, distance_memberships(2.0 - 2.0 * sims)


def indicator_matrix(member_labels: np.ndarray, k: int) -> sp.csr_matrix:
    """``B``: each row the concatenated one-hot cluster indicators of a document's members.

    Examples
    --------
    >>> indicator_matrix(np.array([[0, 1], [1, 1]]), 2).toarray().tolist()
    [[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]]
    """
    member_labels = np.asarray(member_labels, dtype=np.int64)
    n, m = member_labels.shape
    cols = (member_labels + k * np.arange(m)).ravel()
    return sp.csr_matrix((np.ones(n * m), (np.repeat(np.arange(n), m), cols)), shape=(n, m * k))


def unit_tfidf(X, idf: np.ndarray) -> sp.csr_matrix:
    """Counts ``X`` weighted by ``idf`` (raw tf), each document scaled to unit length."""
    return _unit_rows(sp.csr_matrix(sp.csr_matrix(X) @ sp.diags(idf)))


def _weigh(X: sp.csr_matrix, tf: str) -> tuple[sp.csr_matrix, np.ndarray]:
    """Unit-length tf-idf of the counts ``X`` with term frequency ``tf``, and the idf."""
    if tf == "sublinear":
        X = X.copy()
        X.data = 1.0 + np.log(np.maximum(X.data, 1.0))
    weighting = TfidfWeighting(tf="raw", idf="xu").fit(X)
    return weighting.transform(X), weighting.idf_


def _member_labels(kind: str, W: sp.csr_matrix, k: int, n_components: int,
                   rng: np.random.Generator) -> np.ndarray:
    """One member's clusters of the weighted documents ``W``."""
    if kind in ("nmf", "nmf-ncw"):
        weighting = "ncw" if kind == "nmf-ncw" else "none"
        return NMFClustering(k, weighting=weighting, random_state=rng).fit(W).labels_
    # LSI: a quick randomized SVD (two power steps) is enough for k-means to separate topics
    r = max(1, min(max(n_components, k), min(W.shape) - 1))
    if W.nnz == 0 or min(W.shape) < 2:
        Z = W.toarray()
    else:
        P, s, _ = truncated_svd(W, r, rng, n_iter=2, right=False)
        Z = P * s
    Z = _unit_rows(Z)
    seed = int(rng.integers(np.iinfo(np.int32).max))
    return KMeans(k, n_init=3, random_state=seed).fit_predict(Z).astype(np.int64)
