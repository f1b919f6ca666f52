"""Sentences of a document cluster and the matrices the summarizers work on.

The document-sentence matrix of Wang, Ding & Li (2010), Section 3.2, "can be
generated from the document-term and sentence-term matrices" and has one
column per sentence. With ``D`` (documents x terms) and ``S`` (sentences x
terms) both tf-idf weighted on one vocabulary and scaled to unit length,
``X = D S^T`` holds the cosine similarity of every document with every
sentence: documents are the rows (data points) and sentences the columns
(features), so FS-NMF's feature weights rank the sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..text.sentences import split_sentences
from ..text.vectorize import DocumentVectorizer

__all__ = ["SentencePool", "TermMatrices", "build_pool", "split_news_sentences", "term_matrices"]


def split_news_sentences(text: str) -> list[str]:
    """The sentences the summarizers work on: newswire rules, white space collapsed.

    :func:`docnmf.text.sentences.split_sentences` with ``rules="news"``.

    Examples
    --------
    >>> split_news_sentences("Mr. Smith left the U.S. Army base. He met  Gen. Lee.")
    ['Mr. Smith left the U.S. Army base.', 'He met Gen. Lee.']
    """
    return split_sentences(text, rules="news")


@dataclass(frozen=True)
class SentencePool:
    """The candidate sentences of a document cluster.

    Attributes
    ----------
    sentences : list of str
    doc_index : ndarray of int
        The document each sentence comes from.
    position : ndarray of int
        The sentence's index within its document (0 = first).
    n_docs : int
    """

    sentences: list[str]
    doc_index: np.ndarray
    position: np.ndarray
    n_docs: int

    def __len__(self) -> int:
        return len(self.sentences)


def build_pool(documents: Sequence[str], *, min_words: int = 0) -> SentencePool:
    """Split every document into sentences; keep those with at least ``min_words`` words.

    Examples
    --------
    >>> pool = build_pool(["One two three. Four.", "Five six seven eight."], min_words=2)
    >>> pool.sentences, pool.doc_index.tolist(), pool.position.tolist()
    (['One two three.', 'Five six seven eight.'], [0, 1], [0, 0])
    """
    sentences, doc_index, position = [], [], []
    for d, text in enumerate(documents):
        for p, s in enumerate(split_news_sentences(text)):
            if len(s.split()) >= min_words:
                sentences.append(s)
                doc_index.append(d)
                position.append(p)
    return SentencePool(sentences, np.asarray(doc_index, dtype=np.intp),
                        np.asarray(position, dtype=np.intp), len(documents))


@dataclass(frozen=True)
class TermMatrices:
    """Unit-length tf-idf rows for documents (``D``) and sentences (``S``) on one vocabulary."""

    D: sp.csr_matrix
    S: sp.csr_matrix
    vocabulary: np.ndarray

    def document_sentence(self) -> np.ndarray:
        """``X = D S^T`` of shape (n_docs, n_sentences): document-sentence cosine similarities."""
        return np.asarray((self.D @ self.S.T).toarray())


def term_matrices(documents: Sequence[str], pool: SentencePool) -> TermMatrices:
    """tf-idf with stop words removed and Porter stems, idf over the pool's sentences.

    The sentences are the units of the cluster, so ``log(n/df)`` is learnt
    over them (a term in one sentence of 300 weighs more than one in 30); the
    documents are then weighted with the same idf.
    """
    vec = DocumentVectorizer(min_df=1, max_df=1.0, idf="smooth")
    S = vec.fit_transform(pool.sentences)
    D = vec.transform(list(documents))
    return TermMatrices(sp.csr_matrix(D), sp.csr_matrix(S), vec.get_feature_names_out())
