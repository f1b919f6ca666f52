"""Topic coherence of keyword lists: NPMI over the documents of the corpus itself.

A keyword list is coherent when its words occur in the same documents more
often than chance. Röder, Both & Hinneburg (2015) found the normalized
pointwise mutual information (NPMI) of word pairs among the confirmation
measures that best follow human judgement; gensim calls it ``c_npmi``.

Co-occurrence here is **boolean, per document**: a word "occurs" in a
document when its column is non-zero there, so the measure also works for
corpora that come as a count matrix without word order (CLUTO, MATLAB sets).
gensim's ``c_npmi`` counts in sliding windows of 10 tokens by default; with a
window at least as long as the longest document every document is one
window and the two agree (the tests check this against gensim).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import scipy.sparse as sp

__all__ = ["npmi_coherence", "keyword_cooccurrence", "npmi_from_counts", "NPMI_EPSILON"]

#: Added to joint probabilities before the logarithm, as gensim does (a pair never seen
#: together scores just above -1 instead of minus infinity).
NPMI_EPSILON = 1e-12


def npmi_coherence(X, topics: Sequence[Sequence[int]]) -> np.ndarray:
    """Mean NPMI over the pairs of each topic's words, documents as co-occurrence windows.

    For words ``i`` and ``j`` with document frequencies ``n_i``, ``n_j``,
    ``n_ij`` documents holding both and ``N`` documents::

        P = n / N,   NPMI(i, j) = log((P_ij + eps) / (P_i P_j)) / -log(P_ij + eps)

    averaged over the ordered pairs ``i != j`` of the topic (gensim's
    ``s_one_one`` segmentation; NPMI is symmetric, so this is the mean over
    unordered pairs). A pair found in every document scores 1. A pair with a
    word found in no document says nothing (``P_i P_j = 0``; gensim divides by
    it) and is left out of the mean, as happens when keywords are read on
    documents other than those they came from (``docnmf assign``).

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_docs, n_terms)
        Any non-negative document x term matrix (counts or weights); only
        which entries are non-zero matters.
    topics : sequence of sequences of int
        Column indices of each topic's keywords.

    Returns
    -------
    ndarray of shape (n_topics,)
        Coherence in [-1, 1]; NaN for a topic with fewer than two words found
        in the documents.

    References
    ----------
    Röder, Both & Hinneburg, Exploring the space of topic coherence measures,
    WSDM 2015 (NPMI, eq. 7 with epsilon; segmentation S_one_one).
    Bouma, Normalized (pointwise) mutual information in collocation
    extraction, GSCL 2009.

    Examples
    --------
    Words 0 and 1 always together (1), word 2 never with them (just above
    -1: ``log(eps / 0.25) / -log(eps)``):

    >>> X = np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1], [0, 0, 1]])
    >>> npmi_coherence(X, [[0, 1], [0, 2]]).round(3).tolist()
    [1.0, -0.95]

    A word in no document (column 3) leaves only the pairs without it:

    >>> X = np.column_stack([X, np.zeros(4)])
    >>> npmi_coherence(X, [[0, 1, 3], [0, 3]]).round(3).tolist()
    [1.0, nan]
    """
    return npmi_from_counts(keyword_cooccurrence(X, topics), X.shape[0])


def keyword_cooccurrence(X, topics: Sequence[Sequence[int]]) -> list[np.ndarray]:
    """Per topic, how many documents (rows of ``X``) hold each pair of its words (diagonal: each
    word's document frequency). Counts over row blocks of ``X`` add up to the whole's."""
    B = sp.csr_matrix(X, dtype=np.float64, copy=True)
    B.data = (B.data != 0).astype(np.float64)
    out = []
    for words in topics:
        sub = B[:, np.asarray(words, dtype=np.intp)]
        out.append(np.asarray((sub.T @ sub).todense()))
    return out


def npmi_from_counts(counts: Sequence[np.ndarray], n_docs: int) -> np.ndarray:
    """:func:`npmi_coherence` from the co-occurrence counts of :func:`keyword_cooccurrence`."""
    out = np.full(len(counts), np.nan)
    if n_docs == 0:
        return out
    for t, count in enumerate(counts):
        size = count.shape[0]
        if size < 2:
            continue
        joint = np.asarray(count, dtype=np.float64) / n_docs
        single = np.diag(joint).copy()
        with np.errstate(divide="ignore", invalid="ignore"):
            pmi = np.log((joint + NPMI_EPSILON) / np.outer(single, single))
            npmi = pmi / -np.log(joint + NPMI_EPSILON)
        # a pair in every document: -log(1 + eps) is ~0 and the ratio meaningless; it is 1
        npmi[joint >= 1.0] = 1.0
        seen = single > 0
        pairs = np.outer(seen, seen) & ~np.eye(size, dtype=bool)
        if pairs.any():
            out[t] = float(np.mean(npmi[pairs]))
    return out
