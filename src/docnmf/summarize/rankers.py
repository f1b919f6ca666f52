"""Sentence rankers: FS-NMF (Wang, Ding & Li 2010) and the baselines of its Table 3.

Every ranker takes a :class:`Context` (the cluster's sentences and matrices)
and a random generator and returns sentence indices, best first. They are
registered by name in :data:`RANKERS`.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .._catalog import SUMMARIZERS, in_order
from .._estimator import FewerClustersWarning
from ..cluster.fsnmf import FSNMFClustering
from ..factor.nmf import fit_nmf_mu, random_init
from .matrices import SentencePool, TermMatrices

__all__ = [
    "RANKERS",
    "Context",
    "rank_centroid",
    "rank_fsnmf",
    "rank_fsnmf_paper",
    "rank_fsnmf_unit",
    "rank_lead",
    "rank_lexpagerank",
    "rank_lsa",
    "rank_nmf",
    "rank_random",
]

logger = logging.getLogger(__name__)

#: Document-sentence matrices with more entries than this log each restart (progress).
LARGE = 1_000_000


@dataclass(frozen=True)
class Context:
    """What the rankers see: the sentence pool and its tf-idf matrices."""

    pool: SentencePool
    terms: TermMatrices
    n_clusters: int = 3
    alpha: float = 0.7
    n_init: int = 10
    max_iter: int = 300

    @cached_property
    def X(self) -> np.ndarray:
        """Document-sentence matrix ``D S^T`` (documents x sentences)."""
        return self.terms.document_sentence()


def rank_random(ctx: Context, rng: np.random.Generator) -> np.ndarray:
    """A random order (Table 3's "Random")."""
    return rng.permutation(len(ctx.pool))


def rank_lead(ctx: Context, rng: np.random.Generator) -> np.ndarray:
    """DUC 2004's baseline: the sentences of the most recent document, in order.

    Documents are expected oldest first (as :func:`~docnmf.summarize.duc.read_duc2004`
    orders them); the other documents' sentences follow in reverse
    chronological order, should the last one be too short.
    """
    pool = ctx.pool
    return np.lexsort((pool.position, -pool.doc_index))


def rank_centroid(ctx: Context, rng: np.random.Generator, *, w_centroid: float = 1.0,
                  w_position: float = 1.0, w_first: float = 1.0) -> np.ndarray:
    """MEAD's centroid score (Radev, Jing, Stys & Tam 2004).

    ``score = w_c C_i + w_p P_i + w_f F_i`` with ``C_i`` the sum of the
    cluster centroid's tf-idf values over the sentence's terms, ``P_i =
    C_max (n - i + 1) / n`` for the ``i``-th of ``n`` sentences of its document
    (1-based) and ``F_i`` the inner product of the sentence with its
    document's first sentence (MEAD's default weights, all 1).
    """
    pool, S, D = ctx.pool, ctx.terms.S, ctx.terms.D
    centroid = np.asarray(D.mean(axis=0)).ravel()
    binary = S.copy()
    binary.data[:] = 1.0
    C = np.asarray(binary @ centroid).ravel()
    n_in_doc = np.bincount(pool.doc_index, minlength=pool.n_docs)[pool.doc_index]
    P = C.max(initial=0.0) * (n_in_doc - pool.position) / np.maximum(n_in_doc, 1)
    first = {}
    for j in np.argsort(pool.position, kind="stable"):
        first.setdefault(pool.doc_index[j], j)
    firsts = np.array([first[d] for d in pool.doc_index])
    F = np.asarray(S.multiply(S[firsts]).sum(axis=1)).ravel()
    score = w_centroid * C + w_position * P + w_first * F
    return np.argsort(-score, kind="stable")


def rank_lexpagerank(ctx: Context, rng: np.random.Generator, *, threshold: float = 0.1,
                     damping: float = 0.85, tol: float = 1e-10, max_iter: int = 1000
                     ) -> np.ndarray:
    """LexPageRank (Erkan & Radev 2004): PageRank on the thresholded cosine graph.

    Sentences are linked when their tf-idf cosine exceeds ``threshold``; the
    stationary distribution of ``p = (1 - d)/n + d M^T p`` with ``M`` the
    row-normalised adjacency matrix ranks them (a sentence without links
    spreads its mass uniformly).
    """
    S = ctx.terms.S
    n = S.shape[0]
    A = np.asarray((S @ S.T).toarray()) > threshold
    np.fill_diagonal(A, False)
    deg = A.sum(axis=1)
    M = np.where(deg[:, None] > 0, A / np.maximum(deg, 1)[:, None], 1.0 / n)
    p = np.full(n, 1.0 / n)
    for _ in range(max_iter):
        new = (1 - damping) / n + damping * (M.T @ p)
        if np.abs(new - p).sum() < tol:
            p = new
            break
        p = new
    return np.argsort(-p, kind="stable")


def rank_lsa(ctx: Context, rng: np.random.Generator) -> np.ndarray:
    """Gong & Liu (2001): for each right singular vector in turn, its strongest sentence.

    The terms x sentences tf-idf matrix is ``A = U Sigma V^T``; topic ``k``
    (row ``k`` of ``V^T``) contributes the not-yet-chosen sentence with the
    largest absolute entry (a singular vector's sign is arbitrary). After the
    last topic the remaining sentences follow by their largest entry over topics.
    """
    S = ctx.terms.S
    A = np.asarray(S.T.toarray())
    _, _, Vt = np.linalg.svd(A, full_matrices=False)
    Vt = np.abs(Vt)
    order, taken = [], np.zeros(A.shape[1], dtype=bool)
    for row in Vt:
        for j in np.argsort(-row, kind="stable"):
            if not taken[j]:
                order.append(j)
                taken[j] = True
                break
    rest = np.flatnonzero(~taken)
    rest = rest[np.argsort(-Vt[:, rest].max(axis=0, initial=0.0), kind="stable")]
    return np.concatenate([np.asarray(order, dtype=np.intp), rest])


def rank_nmf(ctx: Context, rng: np.random.Generator) -> np.ndarray:
    """Plain NMF (Lee & Seung) on the document-sentence matrix, best of ``n_init`` starts.

    ``X ~ V U^T`` with sentences as the columns of ``X``; a sentence scores its
    share of the reconstructed mass, ``sum_k U_jk sum_i V_ik``.
    """
    X = ctx.X
    k = min(ctx.n_clusters, X.shape[0])
    best = None
    for r, child in enumerate(rng.spawn(ctx.n_init)):
        t0 = time.perf_counter()
        U0, V0 = random_init(X, k, child)
        res = fit_nmf_mu(X, U0, V0, max_iter=ctx.max_iter, tol=1e-5)
        if best is None or res.losses[-1] < best.losses[-1]:
            best = res
        if X.size > LARGE:
            logger.info("sentence ranking: NMF restart %d/%d on %d documents x %d sentences "
                        "(%.1fs)", r + 1, ctx.n_init, X.shape[0], X.shape[1],
                        time.perf_counter() - t0)
    score = best.U @ best.V.sum(axis=0)
    return np.argsort(-score, kind="stable")


def rank_fsnmf(ctx: Context, rng: np.random.Generator, *, solver: str = "fit-then-weigh",
               unit_sentences: bool = False) -> np.ndarray:
    """FS-NMF on the document-sentence matrix; sentences ranked by their weights ``W``.

    Section 3.2 of Wang, Ding & Li (2010): the sentences are the features
    (columns of ``X = D S^T``), eq. 2 weighs them, and the top-weighted ones
    make the summary (:class:`~docnmf.cluster.fsnmf.FSNMFClustering`'s
    ``feature_ranking_``, best of ``ctx.n_init`` starts).

    ``solver="fit-then-weigh"`` (the estimator's default, registered as
    ``"fsnmf"``) weighs each sentence by the share of its column the
    converged fit explains. ``solver="alternating"`` (``"fsnmf-paper"``) runs
    eqs. 2-4 as printed, which drift to eq. 1's trivial minimum and favour
    sentences with small columns, i.e. sentences dissimilar to every
    document. With ``unit_sentences`` (``"fsnmf-unit"``) each column of ``X``
    is scaled to unit length before the alternation, so that size alone does
    not win; this reading is not in the paper.
    """
    X = ctx.X
    if unit_sentences:
        norms = np.linalg.norm(X, axis=0)
        X = X / np.where(norms > 0, norms, 1.0)
    k = min(ctx.n_clusters, X.shape[0])
    model = FSNMFClustering(k, alpha=ctx.alpha, solver=solver, n_init=ctx.n_init,
                            max_iter=ctx.max_iter, random_state=rng,
                            verbose=int(X.size > LARGE))   # progress on large matrices
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", FewerClustersWarning)    # the sentences' clusters
        return model.fit(X).feature_ranking_


def rank_fsnmf_paper(ctx: Context, rng: np.random.Generator) -> np.ndarray:
    """:func:`rank_fsnmf` with the paper's alternating updates (eqs. 2-4 as printed)."""
    return rank_fsnmf(ctx, rng, solver="alternating")


def rank_fsnmf_unit(ctx: Context, rng: np.random.Generator) -> np.ndarray:
    """The paper's alternation on the document-sentence matrix with unit-length sentence columns."""
    return rank_fsnmf(ctx, rng, solver="alternating", unit_sentences=True)


#: Rankers by name, in the order of :data:`docnmf._catalog.SUMMARIZERS`.
RANKERS: dict[str, Callable[[Context, np.random.Generator], np.ndarray]] = in_order({
    "fsnmf": rank_fsnmf,
    "fsnmf-paper": rank_fsnmf_paper,
    "fsnmf-unit": rank_fsnmf_unit,
    "nmf": rank_nmf,
    "lsa": rank_lsa,
    "lexpagerank": rank_lexpagerank,
    "centroid": rank_centroid,
    "lead": rank_lead,
    "random": rank_random,
}, SUMMARIZERS, "the rankers")

