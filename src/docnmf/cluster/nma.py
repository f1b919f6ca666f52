"""Document clustering via matrix representation (NMA; Wang, Tang & Liu 2011) as an estimator."""

from __future__ import annotations

import logging
import warnings
from typing import Callable, Literal

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin, clone
from sklearn.cluster import KMeans
from sklearn.utils.validation import check_is_fitted

from .._memory import refuse_beyond_memory
from .._estimator import (DocumentClusterer, _caller_outside_docnmf, best_restart,
                          check_n_clusters, check_numbers, check_positive_ints,
                          distance_memberships, fit_restarts, store_params, top_terms)
from .._rng import as_generator
from ..factor.nma import fit_nma, fold_in_cores, nma_random_init, segment_topic_weights
from ..text.segment import SEGMENTERS, segment_text
from ..text.vectorize import DocumentVectorizer, as_text_list, refuse_table

__all__ = ["NMAClustering"]

logger = logging.getLogger(__name__)

Norm = Literal["document", "segment"]


#: Segments of fewer words than this, from texts too short for ``n_segments``, are warned of.
_FEW_WORDS = 3

#: What a padded segment costs before the factorization at least (its text, its row of the
#: stacked matrix); used only to refuse sizes no machine could hold.
_BYTES_PER_SEGMENT = 64


def _segment_texts(doc, i: int) -> list[str]:
    """Document ``i`` given as its segments' texts, checked to be strings."""
    if isinstance(doc, (str, bytes)) or not hasattr(doc, "__iter__"):
        raise TypeError(f"document {i} is {type(doc).__name__} {doc!r:.40}: give every "
                        "document as a text, or every one as a list of its segments' texts")
    segments = list(doc)
    for j, s in enumerate(segments):
        if not isinstance(s, str):
            raise ValueError(f"segment {j} of document {i} is {type(s).__name__} {s!r:.40}, "
                             "not a string")
    return segments


class NMAClustering(DocumentClusterer, ClusterMixin, BaseEstimator):
    """Cluster documents represented as term x segment matrices (NMA), disjoint or overlapping.

    Each document is cut into ``n_segments`` segments; its tf-idf segment
    vectors form the matrix ``A_i`` (terms x segments). Algorithm 1 of the
    paper factorises all of them at once, ``A_i ~ L M_i R^T``
    (:func:`docnmf.factor.nma.fit_nma`). Column ``j`` of ``M_i R^T`` holds
    the weights of segment ``j`` on the ``n_topics`` latent topics (columns
    of ``L``, scaled to sum to one); normalised to sum to one it is the
    segment's topic distribution ``d_ij``, and ``d_i = mean_j d_ij`` over the
    document's non-empty segments is the document's (Section II; the paper
    writes the unnormalised sum, which differs only for documents with
    empty segments).

    - Disjoint clustering (``overlapping=False``): k-means on the ``d_i``.
    - Overlapping clustering: k-means on the segments' ``d_ij``; a document
      belongs to every cluster one of its segments falls in
      (``overlapping_labels_``), and its single label ``labels_`` is the
      cluster most of its segments fall in (ties: the cluster centre nearest
      to ``d_i``).

    ``fit`` takes any of

    - raw texts (a list of str): segmented by ``segmenter``, then tf-idf
      weighted with one vocabulary learnt from all segments;
    - pre-segmented documents (a list of lists of str, at most
      ``n_segments`` each), weighted the same way;
    - weighted matrices (a list of sparse or dense arrays, one per document,
      of shape (segments, n_terms), segments as rows), used as they are
      apart from ``norm``.

    A document with fewer than ``n_segments`` segments gets empty (zero)
    segment slots at the end, since ``R``'s rows are segment positions.

    Parameters
    ----------
    n_clusters : int
    n_topics : int, (int, int) or None
        ``l`` (then ``l1 = l2 = l``, as in the paper's experiments), or
        ``(l1, l2)``; None (default) is ``3 n_clusters``. On the tuning
        corpora of the evaluation suite with raw texts (20 Newsgroups' talk
        and rec hierarchies, 4 classes each; ``reports/benchmark-suite``), with
        whole documents, ``l = 12`` and the earlier default ``l = 6`` were
        even (talk 0.538 vs 0.478, rec 0.890 vs 0.932); ``l`` grows with
        ``k`` so that it never falls below the number of clusters.
    n_segments : int
        ``c``, segment slots per document (the paper uses 1 to 6). The
        default 1 leaves documents whole: on those corpora three segments cut
        at sentence boundaries (the earlier default) lost 0.13 and 0.45 in
        accuracy against whole documents (20 Newsgroups talk: 0.347 vs 0.478;
        rec: 0.483 vs 0.932), and NMA fell 0.04-0.14 below NMF on the
        collections of issue 14; segments help where documents are
        concatenations of topics (the paper's setting, ``docnmf reproduce``).
    segmenter : {"sentences", "words", "c99", "texttiling"} or callable
        How raw texts are cut (:func:`docnmf.text.segment.segment_text`);
        a callable takes ``(text, n_segments)`` and returns segment texts.
        The paper uses C99; ``"sentences"`` (equal sentence counts) is the
        cheap default.
    overlapping : bool
        Cluster segments rather than documents.
    n_init : int
        Restarts of the factorisation; the lowest SRE (eq. 17) is kept.
    max_iter : int
        Iterations of each stage of Algorithm 1.
    tol : float
        Relative decrease that ends a stage.
    joint_max_iter : int
        Iterations of descent on eq. 17 after Algorithm 1 (0: the paper's
        algorithm only).
    norm : {"segment", "document"} or None
        Scale each segment to unit length (each a tf-idf vector as in the
        vector space model, the default), each document's matrix to unit
        Frobenius norm, or neither.
    vectorizer : DocumentVectorizer, optional
        Used (cloned) to weight text input. Default: Porter-stemmed tf-idf
        of Xu et al. without row normalisation
        (``DocumentVectorizer(norm=None)``); ``norm`` does the scaling.
    kmeans_n_init : int
        Restarts of the final k-means.
    random_state : None, int or numpy Generator
    verbose : int

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        Disjoint: read from the squared distances of ``d_i`` to the k-means
        centres (fuzzy c-means with m = 2,
        :func:`~docnmf._estimator.distance_memberships`). Overlapping: the
        fraction of the document's non-empty segments in each cluster.
    overlapping_labels_ : list of set of int
        Only with ``overlapping=True``.
    segment_labels_ : ndarray of shape (n_docs, n_segments)
        Only with ``overlapping=True``; -1 marks an empty segment slot.
    topic_distributions_ : ndarray of shape (n_docs, l1)
        ``d_i``.
    segment_topic_distributions_ : ndarray of shape (n_docs, n_segments, l1)
        ``d_ij`` (zero rows for empty slots).
    cluster_centers_ : ndarray of shape (n_clusters, l1)
    components_ : ndarray of shape (l1, n_terms)
        ``L^T``: each row a topic, summing to one.
    segment_basis_ : ndarray of shape (n_segments, l2)
        ``R``.
    cores_ : ndarray of shape (n_docs, l1, l2)
        The ``M_i``.
    loss_history_ : ndarray
        SRE (eq. 17) after each iteration of stage 2 and of the joint stage.
    stage_loss_history_ : dict
        Each stage's own objective (see :class:`docnmf.factor.nma.NMAResult`).
    objective_ : float
        Final SRE of the kept restart.
    restart_objectives_ : ndarray of shape (n_init,)
    n_iter_ : int
        Iterations of the kept restart over all stages.
    segments_ : list of list of str
        The segment texts (text input only).
    vectorizer_ : DocumentVectorizer
        Fitted on the segments (text input only).

    References
    ----------
    Wang, Tang & Liu, Document clustering via matrix representation, ICDM
    2011, Sections II-III.

    Examples
    --------
    >>> docs = ["Goals and goals. The keeper saved. Fans cheered the goal.",
    ...         "The striker scored a goal. The keeper dived. A late goal won.",
    ...         "Rates rose. The bank lifted rates. Inflation and rates fell.",
    ...         "The bank cut rates. Bond yields fell. Inflation slowed."]
    >>> model = NMAClustering(2, n_topics=2, n_segments=3, random_state=0).fit(docs)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    """

    _reads_texts = True

    _placement_state = ("cluster_centers_", "components_", "segment_basis_", "vectorizer_")

    def _placement_blocker(self) -> str | None:
        if callable(self.segmenter):
            return "an NMA with a callable segmenter cannot be saved"
        if not hasattr(self, "vectorizer_"):
            return "an NMA fitted on matrices cannot place new texts"
        return super()._placement_blocker()

    def __init__(self, n_clusters: int = 8, *, n_topics: int | tuple[int, int] | None = None,
                 n_segments: int = 1,
                 segmenter: str | Callable[[str, int], list[str]] = "sentences",
                 overlapping: bool = False, n_init: int = 10, max_iter: int = 100,
                 tol: float = 1e-4, joint_max_iter: int = 0, norm: Norm | None = "segment",
                 vectorizer: DocumentVectorizer | None = None, kmeans_n_init: int = 10,
                 random_state=None, verbose: int = 0):
        store_params(self, locals())

    # ------------------------------------------------------------------ input

    def _topic_dims(self) -> tuple[int, int]:
        dims = 3 * int(self.n_clusters) if self.n_topics is None else self.n_topics
        if np.ndim(dims) == 0:
            l1 = l2 = dims
        else:   # a pair; (2,) or (2, 2, 2) is none, refused below
            l1, l2 = tuple(dims) if len(dims) == 2 else (None, None)
        for value in (l1, l2):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"n_topics must be a positive integer or a pair, got {dims!r}")
        return int(l1), int(l2)

    def _check_params(self, n_docs: int | None) -> None:
        """Check the parameters; ``n_clusters`` against ``n_docs`` once that is known."""
        check_positive_ints(self, "n_clusters", "n_segments", "n_init", "max_iter",
                            "kmeans_n_init")
        if n_docs is not None:
            check_n_clusters(self.n_clusters, n_docs)
        check_numbers(self, "tol", nonnegative=False)   # < 0: every iteration
        joint = self.joint_max_iter
        if isinstance(joint, bool) or not isinstance(joint, (int, np.integer)) or joint < 0:
            raise ValueError(f"joint_max_iter must be a non-negative integer, got {joint!r}")
        if self.norm not in ("document", "segment", None):
            raise ValueError(f"norm must be 'document', 'segment' or None, got {self.norm!r}")
        if not callable(self.segmenter) and self.segmenter not in SEGMENTERS:
            raise ValueError(f"unknown segmenter {self.segmenter!r}; "
                             f"choose from {sorted(SEGMENTERS)} or pass a callable")
        self._topic_dims()

    def _segment(self, text: str) -> list[str]:
        c = int(self.n_segments)
        if callable(self.segmenter):
            return list(self.segmenter(text, c))
        return segment_text(text, c, method=self.segmenter)

    def _segment_matrix(self, X, *, fitted: bool = False):
        """The stacked (n_docs * c, n_terms) segment matrix, weighted and normalised.

        ``fitted``: weigh text input with the vectorizer learnt by ``fit``
        (new documents), instead of learning one.
        """
        c = int(self.n_segments)
        if isinstance(X, (str, bytes)) or sp.issparse(X):
            raise TypeError("X must be a list of texts, of lists of segment texts, or of "
                            "per-document matrices")
        refuse_table(X)
        if isinstance(X, np.ndarray) and X.ndim == 2 and X.dtype.kind in "biuf":
            raise TypeError(f"X is one {X.shape[0]} x {X.shape[1]} matrix; NMA takes each "
                            "document as a matrix of its own (a list of (segments, terms) "
                            "arrays), or texts: a documents x terms matrix is for the other "
                            "methods (NMFClustering, ...)")
        docs = list(X)
        if not docs:
            raise ValueError("no documents")
        first = docs[0]
        if sp.issparse(first) or (isinstance(first, np.ndarray) and first.ndim == 2):
            S = _stack_matrices(docs, c)
        else:
            # as DocumentVectorizer: str() would make NaN the word "nan"
            if isinstance(first, str):
                segments = [self._segment(d) for d in as_text_list(docs)]
            else:
                segments = [_segment_texts(d, i) for i, d in enumerate(docs)]
            for i, segs in enumerate(segments):
                if len(segs) > c:
                    raise ValueError(f"document {i} has {len(segs)} segments; "
                                     f"n_segments={c} allows at most {c}")
            segments = [segs + [""] * (c - len(segs)) for segs in segments]
            if not fitted and c > 1:
                _warn_short_segments(segments, c)
            flat = [s for segs in segments for s in segs]
            if fitted:
                if not hasattr(self, "vectorizer_"):
                    raise ValueError("this model was fitted on matrices: pass new documents as "
                                     "matrices on the same terms")
                S = sp.csr_matrix(self.vectorizer_.transform(flat), dtype=np.float64)
                return _normalise_rows(S, c, self.norm)
            vectorizer = (clone(self.vectorizer) if self.vectorizer is not None
                          else DocumentVectorizer(norm=None))
            # learn the vocabulary and idf from the real segments only: padding slots
            # would count as documents in the idf
            filled = np.flatnonzero([bool(s.strip()) for s in flat])
            W = vectorizer.fit_transform([flat[i] for i in filled])
            place = sp.csr_matrix((np.ones(filled.size), (filled, np.arange(filled.size))),
                                  shape=(len(flat), filled.size))
            S = sp.csr_matrix(place @ W, dtype=np.float64)
            self.segments_ = segments
            self.vectorizer_ = vectorizer
        if not np.all(np.isfinite(S.data)):     # (they were clustered, NaN and all)
            raise ValueError("NMA's segment matrices hold NaN or infinite entries")
        if S.data.size and S.data.min() < 0:
            raise ValueError("NMA needs non-negative segment matrices")
        if not fitted and not np.any(S.data):       # (stored zeros are zeros too)
            raise ValueError("NMA's segment matrices are all zero: no term to cluster by")
        return _normalise_rows(S, c, self.norm)

    # ------------------------------------------------------------------ fit

    def fit(self, X, y=None):
        """Fit on raw texts, pre-segmented documents or per-document matrices (see the class)."""
        self._check_params(None)   # before the segmenting: the number of documents comes from it
        for stale in ("segments_", "vectorizer_", "overlapping_labels_", "segment_labels_"):
            if hasattr(self, stale):   # left by an earlier fit on other input or options
                delattr(self, stale)
        c = int(self.n_segments)
        if isinstance(X, (list, tuple)):
            # the documents are padded to c segments each before anything else is sized
            refuse_beyond_memory(len(X) * c * _BYTES_PER_SEGMENT,
                                  f"{len(X):,} documents x n_segments={c:,}")
        S = self._segment_matrix(X)
        n_docs = S.shape[0] // c
        check_n_clusters(self.n_clusters, n_docs)
        l1, l2 = self._topic_dims()
        if self.n_topics is not None and l1 > S.shape[1]:
            # 500 topics of 30 terms fitted for minutes to a worse result, without a word
            raise ValueError(f"n_topics={self.n_topics!r} asks for {l1:,} term topics of "
                             f"documents with {S.shape[1]:,} terms: at most {S.shape[1]:,} can "
                             "differ")
        if l1 < int(self.n_clusters):
            # 2 topics for 4 clusters: 0.40 accuracy on the demo corpus, 0.79 with 4
            warnings.warn(f"NMAClustering: n_topics={self.n_topics!r} gives each document a "
                          f"mixture of {l1} topics, fewer than the n_clusters={self.n_clusters} "
                          "clusters to tell apart; as many topics as clusters or more (the "
                          "default is 3 per cluster) separates them better", UserWarning,
                          stacklevel=_caller_outside_docnmf())
        refuse_beyond_memory(8 * (S.shape[1] * l1 + c * l2 + n_docs * l1 * l2),
                              f"the factors of n_topics=({l1:,}, {l2:,}) for {n_docs:,} documents")
        rng = as_generator(self.random_state)
        best, objectives = best_restart(
            fit_restarts(lambda child: fit_nma(S, c, *nma_random_init(S, c, l1, l2, child),
                                               max_iter=int(self.max_iter), tol=float(self.tol),
                                               joint_max_iter=int(self.joint_max_iter)),
                         rng, int(self.n_init)),
            name="NMA", total=int(self.n_init), verbose=self.verbose, tol=self.tol,
            max_iter=self.max_iter)

        d_seg, d_doc, present = _topic_distributions(S, c, best.M, best.R)
        n_present = present.sum(axis=1)

        k = int(self.n_clusters)
        seed = int(rng.integers(np.iinfo(np.int32).max))
        km = KMeans(n_clusters=k, n_init=int(self.kmeans_n_init), random_state=seed)
        if not self.overlapping:
            km.fit(d_doc)
            self.labels_ = km.labels_.astype(np.int64)
            self.memberships_ = distance_memberships(km.transform(d_doc) ** 2)
        else:
            seg_rows = d_seg[present]
            if len(seg_rows) < k:
                raise ValueError(f"n_clusters={k} is larger than the {len(seg_rows)} "
                                 "non-empty segments")
            km.fit(seg_rows)
            seg_labels = np.full((n_docs, c), -1, dtype=np.int64)
            seg_labels[present] = km.labels_
            self.segment_labels_ = seg_labels
            self.overlapping_labels_ = [set(int(v) for v in row if v >= 0) for row in seg_labels]
            counts = np.stack([(seg_labels == j).sum(axis=1) for j in range(k)], axis=1)
            self.memberships_ = counts / np.maximum(n_present, 1)[:, None]
            self.labels_ = _majority(counts, d_doc, km.cluster_centers_)

        self.cluster_centers_ = km.cluster_centers_
        self.topic_distributions_ = d_doc
        self.segment_topic_distributions_ = d_seg
        self.components_ = best.L.T.copy()
        self.segment_basis_ = best.R
        self.cores_ = best.M
        self.loss_history_ = best.losses
        self.stage_loss_history_ = best.stage_losses
        self.objective_ = float(best.losses[-1])
        self.restart_objectives_ = objectives
        self.n_iter_ = int(sum(best.n_iter))
        return self

    # ------------------------------------------------------------------ new documents

    def _place(self, X):
        """Labels and memberships of new documents, the bases and centres held fixed.

        Each new document's cores come from :func:`~docnmf.factor.nma.fold_in_cores`
        (as Algorithm 1 treats a fitted document, or by eq. 17 when the model was
        fitted with the joint stage); its topic distributions are then read as
        the fitted documents' are.
        """
        check_is_fitted(self, "cluster_centers_")
        c = int(self.n_segments)
        S = self._segment_matrix(X, fitted=True)
        if S.shape[1] != self.components_.shape[1]:
            raise ValueError(f"the new documents have {S.shape[1]} terms, the model "
                             f"{self.components_.shape[1]}")
        M = fold_in_cores(S, c, self.components_.T, self.segment_basis_,
                          joint=int(self.joint_max_iter) > 0)
        d_seg, d_doc, present = _topic_distributions(S, c, M, self.segment_basis_)
        centres = self.cluster_centers_
        if not self.overlapping:
            D = ((d_doc[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
            return np.argmin(D, axis=1).astype(np.int64), distance_memberships(D)
        k = centres.shape[0]
        nearest = np.argmin(((d_seg[:, :, None, :] - centres[None, None]) ** 2).sum(axis=3),
                            axis=2)
        counts = np.stack([((nearest == j) & present).sum(axis=1) for j in range(k)], axis=1)
        shares = counts / np.maximum(present.sum(axis=1), 1)[:, None]
        return _majority(counts, d_doc, centres), shares

    def predict(self, X):
        """Cluster of each new document (texts, segment lists or matrices, as ``fit`` took)."""
        return self._place(X)[0]

    def predict_memberships(self, X):
        """Memberships of new documents, with the meaning of ``memberships_``."""
        return self._place(X)[1]

    # ------------------------------------------------------------------ reading results

    def _feature_names(self, feature_names):
        if feature_names is not None:
            return feature_names
        if hasattr(self, "vectorizer_"):
            return self.vectorizer_.get_feature_names_out()
        raise ValueError("pass feature_names: the model was fitted on matrices, not texts")

    def top_keywords(self, feature_names=None, n: int = 10) -> list[list[str]]:
        """The ``n`` heaviest terms of each cluster: its centre mapped to terms, ``L c``."""
        check_is_fitted(self, "cluster_centers_")
        return top_terms(self.cluster_centers_ @ self.components_,
                         self._feature_names(feature_names), n)

    def topic_keywords(self, feature_names=None, n: int = 10) -> list[list[str]]:
        """The ``n`` heaviest terms of each latent topic (column of ``L``)."""
        check_is_fitted(self, "components_")
        return top_terms(self.components_, self._feature_names(feature_names), n)


def _warn_short_segments(segments: list[list[str]], c: int) -> None:
    """Warn when texts too short for ``c`` segments were cut into segments of a word or two."""
    words = np.array([sum(len(s.split()) for s in segs) for segs in segments])
    # per segment the document has: the empty slots padding given segments are none of its
    filled = np.array([sum(bool(s.strip()) for s in segs) for segs in segments])
    short = (words > 0) & (words < _FEW_WORDS * np.maximum(filled, 1))
    if short.any():
        n_short = int(short.sum())
        verb = "has" if n_short == 1 else "have"
        warnings.warn(f"NMAClustering: {n_short:,} of the {len(segments):,} documents {verb} "
                      f"fewer than {_FEW_WORDS} words per segment with n_segments={c} (the "
                      f"shortest has {int(words[short].min()):,} words): segments that short "
                      "say little of a topic; a smaller n_segments keeps more of each together",
                      UserWarning, stacklevel=_caller_outside_docnmf())


def _stack_matrices(docs, c: int) -> sp.csr_matrix:
    """Per-document (segments, n_terms) matrices -> (n_docs * c, n_terms), zero rows padding."""
    n_terms = docs[0].shape[1]
    blocks = []
    for i, A in enumerate(docs):
        A = sp.csr_matrix(A, dtype=np.float64)
        if A.shape[1] != n_terms:
            raise ValueError(f"document {i} has {A.shape[1]} terms, the first has {n_terms}")
        if A.shape[0] > c:
            raise ValueError(f"document {i} has {A.shape[0]} segments; n_segments={c} "
                             f"allows at most {c}")
        blocks.append(A)
        if A.shape[0] < c:
            blocks.append(sp.csr_matrix((c - A.shape[0], n_terms)))
    return sp.vstack(blocks, format="csr")


def _normalise_rows(S: sp.csr_matrix, c: int, norm: Norm | None) -> sp.csr_matrix:
    if norm is None:
        return S
    sq = np.asarray(S.multiply(S).sum(axis=1)).ravel()
    if norm == "document":
        sq = np.repeat(sq.reshape(-1, c).sum(axis=1), c)
    scale = np.divide(1.0, np.sqrt(sq), out=np.zeros_like(sq), where=sq > 0)
    out = sp.csr_matrix(sp.diags(scale) @ S)
    out.eliminate_zeros()
    return out


def _topic_distributions(S: sp.csr_matrix, c: int, M: np.ndarray, R: np.ndarray):
    """Segment and document topic distributions ``d_ij``, ``d_i`` and the non-empty segments.

    ``d_ij`` is segment ``j``'s column of ``M_i R^T`` scaled to sum to one
    (zero for an empty slot); ``d_i`` their mean over the non-empty segments.
    """
    n_docs = S.shape[0] // c
    weights = segment_topic_weights(M, R)                       # (n_docs, c, l1)
    mass = weights.sum(axis=2)
    present = (mass > 0) & (np.diff(S.indptr).reshape(n_docs, c) > 0)
    d_seg = np.divide(weights, mass[:, :, None], out=np.zeros_like(weights),
                      where=present[:, :, None])
    d_doc = d_seg.sum(axis=1) / np.maximum(present.sum(axis=1), 1)[:, None]
    return d_seg, d_doc, present


def _majority(counts: np.ndarray, d_doc: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """Most frequent segment cluster per document; ties (and empty documents) by nearest centre."""
    dist = ((d_doc[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    top = counts.max(axis=1, keepdims=True)
    tied = counts == top
    return np.argmin(np.where(tied, dist, np.inf), axis=1).astype(np.int64)
