"""One-call entry points: summarize a set of texts; report FS-NMF keywords of a collection."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from numbers import Integral

import numpy as np

from .._rng import as_generator
from ..text.vectorize import as_text_list
from .assemble import LengthPolicy, assemble_summary
from .matrices import build_pool, prose_of, term_matrices
from .rankers import RANKERS, Context
from .rouge import parse_length

__all__ = ["METHODS", "cluster_keywords", "keywords_report", "pick_documents",
           "summarize_clusters", "summarize_documents", "summarize_texts"]

logger = logging.getLogger(__name__)

#: Summarization methods accepted by :func:`summarize_texts`.
METHODS = tuple(RANKERS)


def summarize_documents(documents: Sequence[str], length: str = "665b", *,
                        method: str = "fsnmf", random_state=0, n_clusters: int = 3,
                        alpha: float = 0.7, n_init: int = 10, max_iter: int = 300,
                        min_words: int = 5, max_similarity: float = 0.5,
                        policy: LengthPolicy = "truncate") -> list[str]:
    """An extractive summary of a document cluster, as a list of lines (sentences).

    Parameters
    ----------
    documents : sequence of str
        The cluster's documents, oldest first (``"lead"`` takes the last one).
    length : str
        ``"665b"`` (UTF-8 bytes of the ``"\\n"``-joined lines) or ``"100w"`` (words).
    method : str
        One of :data:`METHODS`: ``"fsnmf"``, ``"nmf"``, ``"lsa"``,
        ``"lexpagerank"``, ``"centroid"``, ``"lead"``, ``"random"``.
    random_state : None, int or Generator
        Seeds the random starts of ``"fsnmf"``/``"nmf"`` and the ``"random"`` order.
    n_clusters, alpha, n_init, max_iter :
        FS-NMF / NMF settings on the document-sentence matrix.
    min_words : int
        Sentences with fewer words are not candidates (headlines, bylines).
        Falls back to all sentences if none is that long.
    max_similarity : float
        Cosine (tf-idf) above which a sentence counts as a near-duplicate of
        one already chosen. The ``"lead"`` baseline keeps its document's order
        without this check, as DUC's baseline does.
    policy : {"truncate", "skip"}
        See :mod:`docnmf.summarize.assemble`.
    """
    if method not in RANKERS:
        raise ValueError(f"unknown method {method!r}; choose from {', '.join(RANKERS)}")
    if length is None:       # ROUGE's "no limit"; a summary without one would be every sentence
        raise ValueError("length must look like '665b' (bytes) or '100w' (words), got None")
    parse_length(length)
    # checked for every method, not only where an estimator checks them: the NMF ranking took
    # n_clusters=0 to a division by zero, -1 to "negative dimensions", 2.5 to a summary
    for name, value in (("n_clusters", n_clusters), ("n_init", n_init), ("max_iter", max_iter)):
        if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
            raise ValueError(f"{name} must be a positive integer, got {value!r}")
    # a post's or a page's own text, once: not its header, quotations, signature or markup;
    # a wire story's without headline or sign-off
    documents = [prose_of(d) for d in as_text_list(documents)]
    pool = build_pool(documents, min_words=min_words)
    if len(pool) == 0:
        pool = build_pool(documents, min_words=0)
    if len(pool) == 0:
        return []
    terms = term_matrices(documents, pool)
    ctx = Context(pool, terms, n_clusters=n_clusters, alpha=alpha, n_init=n_init,
                  max_iter=max_iter)
    ranking = RANKERS[method](ctx, as_generator(random_state))
    vectors = None if method == "lead" else terms.S
    return assemble_summary(ranking, pool.sentences, length, vectors=vectors,
                            max_similarity=max_similarity, policy=policy)


def summarize_texts(texts: Sequence[str], length: str = "665b", method: str = "nmf",
                    random_state=0, *, policy: LengthPolicy = "skip", **options) -> str:
    """The summary of ``texts`` (one document each) as one string, one sentence per line.

    The string never exceeds ``length`` (``"665b"`` bytes in UTF-8, or
    ``"100w"`` words). The defaults are ``docnmf summarize``'s: the NMF ranking, whole
    sentences (``policy="truncate"`` fills the limit with the start of the next one, as
    ``--fill`` does; :func:`summarize_documents` keeps the paper's FS-NMF and truncation, as
    DUC 2004 scores them). ``options`` go to :func:`summarize_documents`.

    Examples
    --------
    >>> docs = ["The rover landed on Mars on Monday. Engineers cheered the landing.",
    ...         "NASA said the rover landed safely on Mars. It will search for water."]
    >>> summary = summarize_texts(docs, length="12w", method="centroid")
    >>> len(summary.split()) <= 12
    True
    """
    return "\n".join(summarize_documents(texts, length, method=method,
                                         random_state=random_state, policy=policy, **options))


def pick_documents(n_docs: int, max_documents: int | None, *, scores=None,
                   random_state=0) -> np.ndarray:
    """At most ``max_documents`` of ``n_docs`` documents to summarize, in their original order.

    The highest ``scores`` (e.g. memberships of a cluster) when given, else
    a random sample; all of them when ``max_documents`` is None or 0 or not
    smaller than ``n_docs``. A summary's cost grows with the number of
    documents times the number of sentences (the document-sentence matrix),
    so a cap keeps large collections fast.

    Examples
    --------
    >>> pick_documents(5, 2, scores=np.array([0.1, 0.9, 0.5, 0.2, 0.8])).tolist()
    [1, 4]
    >>> pick_documents(3, 0).tolist()
    [0, 1, 2]
    """
    if max_documents is not None and (isinstance(max_documents, bool)
                                      or not isinstance(max_documents, Integral)
                                      or max_documents < 0):
        raise ValueError(f"max_documents must be None or an integer >= 0 (0: all), got "
                         f"{max_documents!r}")
    if not max_documents or max_documents >= n_docs:
        return np.arange(n_docs)
    if scores is not None:
        chosen = np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")[:max_documents]
    else:
        chosen = as_generator(random_state).choice(n_docs, size=max_documents, replace=False)
    return np.sort(chosen)


def summarize_clusters(texts: Sequence[str], labels, memberships, n_clusters: int, *,
                       length: str = "665b", method: str = "nmf", max_documents: int | None = 100,
                       random_state=0, policy: LengthPolicy = "skip", **options) -> list[str]:
    """One summary per cluster: of its ``max_documents`` most representative documents.

    Parameters
    ----------
    texts : sequence of str
    labels : array of shape (n_docs,)
        Cluster of each document (-1: none).
    memberships : array of shape (n_docs, n_clusters)
        Ranks a cluster's documents when it has more than ``max_documents``.
    n_clusters : int
    length, method, random_state, options :
        As :func:`summarize_documents`.
    policy : {"skip", "truncate"}
        Whole sentences only (as ``docnmf summarize``), or the limit filled with the start
        of the next one (``--fill``).
    max_documents : int or None
        Documents per summary at most (None or 0: all).

    Returns
    -------
    list of str
        Summary of each cluster (lines joined by newlines; empty when a
        cluster has no sentence to offer).
    """
    texts = as_text_list(texts)
    labels, memberships = np.asarray(labels), np.asarray(memberships)
    n = len(texts)
    if labels.shape != (n,) or memberships.shape != (n, n_clusters):
        raise ValueError(f"summarize_clusters takes a label per text and a row of {n_clusters} "
                         f"memberships per text: {n} texts, labels of shape {labels.shape}, "
                         f"memberships of shape {memberships.shape}")
    outside = np.setdiff1d(labels[labels != -1], np.arange(n_clusters))
    if outside.size:      # 1-based labels left cluster 0 without a summary and the last out
        raise ValueError(f"labels must be clusters 0 to {n_clusters - 1} (or -1: none); got "
                         f"{', '.join(map(str, outside[:5].tolist()))}")
    pick_documents(0, max_documents)    # checked before the first summary, not after
    out = []
    for c in range(n_clusters):
        t0 = time.perf_counter()
        members = np.flatnonzero(labels == c)
        picked = members[pick_documents(members.size, max_documents,
                                        scores=memberships[members, c])]
        lines = summarize_documents([texts[i] for i in picked], length, method=method,
                                    random_state=random_state, policy=policy,
                                    **options) if picked.size else []
        out.append("\n".join(lines))
        logger.info("summary of cluster %d (%d of %d): %d of its %d documents (%.1fs)", c, c + 1,
                    n_clusters, picked.size, members.size, time.perf_counter() - t0)
    return out


def keywords_report(texts: Sequence[str], n_clusters: int, **options) -> str:
    """A plain-text report of a collection's keywords and of each cluster's: the report of
    :func:`cluster_keywords`, whose parameters ``options`` are.

    Examples
    --------
    >>> docs = ["stars and planets orbit", "planets orbit stars", "bread in the oven",
    ...         "oven baked bread", "stars planets galaxies", "bread oven butter"]
    >>> report = keywords_report(docs, 2, n_keywords=3, n_init=2, min_df=1)
    >>> report.splitlines()[0].startswith("collection keywords (FS-NMF feature weights")
    True
    >>> len(report.splitlines())
    3
    """
    return cluster_keywords(texts, n_clusters, **options)[0]


def cluster_keywords(texts: Sequence[str], n_clusters: int, *, n_keywords: int = 10,
                     alpha: float = 0.7, n_init: int = 10, max_iter: int = 300,
                     random_state=0, min_df: float = 2, max_df: float = 0.95,
                     **text_options) -> tuple[str, list[int]]:
    """:func:`keywords_report`'s report, and the size of each of its clusters (for the
    command's diagnostics of small clusters: a cluster of 2 of Classic4's 7,097 documents,
    on a signature's words, went by without a word).

    Documents are tf-idf vectorized (stop words removed, Porter stems shown as
    their most frequent word; ``min_df``, ``max_df`` and ``text_options`` are
    :class:`~docnmf.DocumentVectorizer`'s parameters) and clustered by NMF-NCW
    (:class:`~docnmf.cluster.NMFClustering` with ``weighting="ncw"``); each
    cluster's keywords are the largest entries of its topic vector among the
    words its documents hold.

    The collection keywords are FS-NMF feature weights (eq. 2 of Wang, Ding &
    Li 2010, exponent ``alpha``) applied to that converged factorization,
    with each term's residual measured relative to its own squared norm,
    i.e. eq. 2 on the column-normalized matrix (a column scaling of ``X``
    carries over to the same row of ``F`` for a fixed ``G``). Two deviations
    from running FS-NMF itself, both because its eq. 1 has a trivial zero
    minimum that the alternating updates reach: all weight drifts onto a few
    rare, low-norm terms and nearly every document lands in one cluster. Raw
    residuals on a fixed NMF fit still favour rare terms (their residual is
    small because their norm is), hence the normalization. The weights fall
    as the residuals grow for every ``alpha`` in (0, 1), so ``alpha`` does
    not change the ranking the report prints.

    Examples
    --------
    >>> docs = ["stars and planets orbit", "planets orbit stars", "bread in the oven",
    ...         "oven baked bread", "stars planets galaxies", "bread oven butter"]
    >>> cluster_keywords(docs, 2, n_keywords=3, n_init=2, min_df=1)[1]
    [3, 3]
    """
    from .._estimator import heaviest_columns, held_only, terms_held
    from ..cluster.fsnmf import rank_features
    from ..cluster.nmf import NMFClustering
    from ..factor.fsnmf import weigh_fit
    from ..text.vectorize import DocumentVectorizer
    from ..text.weighting import ncw_weights

    if isinstance(n_keywords, bool) or not isinstance(n_keywords, Integral) or n_keywords < 1:
        raise ValueError(f"n_keywords must be a positive integer, got {n_keywords!r}")
    texts = as_text_list(texts)        # str() would make NaN the word "nan"
    vec = DocumentVectorizer(min_df=min_df, max_df=max_df, **text_options)
    X = vec.fit_transform(texts)
    names = np.asarray(vec.readable_feature_names(texts), dtype=object)
    empty = int(np.sum(np.diff(X.indptr) == 0))
    X = X[np.diff(X.indptr) > 0]        # documents without index terms are in no cluster
    if X.shape[0] == 0 and len(names):
        raise ValueError(f"every one of the {len(names)} index terms is in every document, so "
                         "none tells documents apart (its idf weight is 0): give documents "
                         "that differ")
    if X.shape[0] < n_clusters:
        raise ValueError(f"only {X.shape[0]} of the {len(texts)} documents have index terms; "
                         f"{n_clusters} clusters need at least as many")
    model = NMFClustering(n_clusters, weighting="ncw", n_init=n_init, max_iter=max_iter,
                          random_state=random_state).fit(X)
    # the factorization is of D^{-1/2} X (NCW); score each term on that matrix
    Xw = X.multiply(np.sqrt(ncw_weights(X))[:, None]).tocsr()
    weights, residuals = weigh_fit(Xw, model.components_.T, model.embedding_, alpha)
    order = rank_features(weights, residuals)
    lines = ["collection keywords (FS-NMF feature weights, eq. 2 on the NMF-NCW fit): "
             + ", ".join(str(names[j]) for j in order[:n_keywords])]
    sizes = np.bincount(model.labels_, minlength=n_clusters)
    # as docnmf cluster names them: of a cluster with documents, words some of them hold
    weights = held_only(model._keyword_weights(), terms_held(X, model.labels_, n_clusters))
    for c, columns in enumerate(heaviest_columns(weights, n_keywords)):
        words = [str(names[j]) for j in columns]
        lines.append(f"cluster {c} ({sizes[c]} document{'' if sizes[c] == 1 else 's'}): "
                     + ", ".join(words))
    if empty:
        lines.append(f"in no cluster: {empty} document{'s' if empty != 1 else ''} without "
                     "index terms")
    return "\n".join(lines), [int(n) for n in sizes]
