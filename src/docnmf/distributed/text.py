"""Texts on a Dask cluster to a Dask array of tf-idf CSR row blocks, as DocumentVectorizer makes.

Three passes, none of which needs the whole corpus in one process:

1. per partition: tokenize, drop stop words, stem (the same :class:`Analyzer`
   as :class:`~docnmf.text.vectorize.DocumentVectorizer`), count, on the
   partition's own sorted terms; the counts stay on the worker;
2. a reduction (a tree of merges on the workers) of each term's document
   frequency and total count, and of each word's count and stem;
3. on the client, the same pruning (``min_df``, ``max_df``,
   ``max_features``) and idf as in memory; then per partition, the counts
   mapped onto the kept, alphabetical vocabulary and weighted.

Every row is computed by the same operations as in memory, so the matrix is
the in-memory one (tested), and so are the vocabulary and the readable names.
"""

from __future__ import annotations

from typing import Iterable, Literal, NamedTuple

import dask
import numpy as np
import scipy.sparse as sp
from distributed import Client

from ..text.tokenize import DEFAULT_TOKEN_PATTERN, Analyzer, most_frequent_forms
from ..text.vectorize import (DocumentVectorizer, EmptyVocabularyError, _count_matrix,
                              as_text_list, kept_terms)
from ..text.weighting import IdfScheme, TfidfWeighting, TfScheme
from ._rows import RowPartitions, add_tree, clone_sharing_client, gather, get_client

__all__ = ["DaskVectorizer"]


class _Counts(NamedTuple):
    """One partition's term counts on its own sorted terms."""

    terms: np.ndarray          # sorted distinct stems (of Python strings: a fixed-width
                               # unicode array is as wide as its longest term, for each one)
    counts: sp.csr_matrix      # documents x terms
    words: list[str]           # distinct words, first occurrence first
    stems: list[str]           # stem of each word
    word_counts: np.ndarray


class _Summary(NamedTuple):
    """What the vocabulary needs from a set of partitions; merged partition by partition."""

    n_docs: int
    terms: np.ndarray          # sorted
    df: np.ndarray             # documents holding each term
    totals: np.ndarray         # occurrences of each term (float, as counts.sum(axis=0))
    words: dict                # word -> [stem, count], in order of first occurrence


def _count_partition(texts: list[str], analyzer: Analyzer) -> _Counts:
    # as in memory: NaN or None is no text (str() would make the word "nan"), bytes undecoded
    tokens = analyzer.tokenize(as_text_list(texts, " of a partition"))
    stems = analyzer.stem_words(tokens.words)
    terms = sorted(set(stems))
    column = {term: j for j, term in enumerate(terms)}
    counts = _count_matrix(tokens, np.array([column[s] for s in stems], dtype=np.int32),
                           len(terms))
    return _Counts(np.array(terms, dtype=object), counts, tokens.words, stems,
                   tokens.word_counts())


def _summarize(part: _Counts) -> _Summary:
    words = {w: [s, int(c)] for w, s, c in zip(part.words, part.stems, part.word_counts)}
    return _Summary(part.counts.shape[0], part.terms,
                    np.bincount(part.counts.indices, minlength=len(part.terms)),
                    np.asarray(part.counts.sum(axis=0)).ravel(), words)


def _merge(a: _Summary, b: _Summary) -> _Summary:
    """Two summaries as one; ``a``'s documents come first (so do its words)."""
    terms = np.union1d(a.terms, b.terms)
    ia, ib = np.searchsorted(terms, a.terms), np.searchsorted(terms, b.terms)
    df = np.zeros(len(terms), dtype=np.int64)
    totals = np.zeros(len(terms))
    for idx, part in ((ia, a), (ib, b)):
        df[idx] += part.df
        totals[idx] += part.totals
    words = {w: list(v) for w, v in a.words.items()}
    for w, (stem, count) in b.words.items():
        if w in words:
            words[w][1] += count
        else:
            words[w] = [stem, count]
    return _Summary(a.n_docs + b.n_docs, terms, df, totals, words)


def _weigh_partition(part: _Counts, vocabulary: np.ndarray,
                     weighting: TfidfWeighting) -> sp.csr_matrix:
    """The partition's counts on the fitted vocabulary's columns, weighted."""
    cols = np.searchsorted(vocabulary, part.terms)
    found = cols < len(vocabulary)
    found[found] = vocabulary[cols[found]] == part.terms[found]
    local = np.flatnonzero(found)
    counts = part.counts[:, local]
    counts = sp.csr_matrix((counts.data, cols[local][counts.indices], counts.indptr),
                           shape=(counts.shape[0], len(vocabulary)))
    if not counts.shape[0]:     # a partition with no document (a file of a header, a filter)
        return sp.csr_matrix((0, len(vocabulary)))
    return weighting.transform(counts)


def _same(value):
    return value


def _n_rows(X) -> int:
    return X.shape[0]


def _text_partitions(raw_documents) -> list:
    """Delayed lists of texts, one per partition, from a bag, a dataframe column or a corpus."""
    from .corpus import PartitionedCorpus

    if isinstance(raw_documents, PartitionedCorpus):
        raw_documents = raw_documents.texts()
    if hasattr(raw_documents, "to_delayed"):
        return [dask.delayed(list)(p) for p in raw_documents.to_delayed()]
    raise TypeError("expected a dask.bag of texts, a dask.dataframe column of texts or a "
                    f"PartitionedCorpus, got {type(raw_documents).__name__}")


class DaskVectorizer(DocumentVectorizer):
    """:class:`~docnmf.text.vectorize.DocumentVectorizer` over a corpus partitioned on a cluster.

    ``fit_transform`` takes a ``dask.bag`` of texts (or a ``dask.dataframe``
    column, or a :class:`~docnmf.distributed.PartitionedCorpus`) and returns a
    Dask array of ``scipy.sparse.csr_matrix`` row blocks, one per partition,
    persisted on the cluster: the same vocabulary, idf and matrix as
    ``DocumentVectorizer`` on the same texts in one process. The parameters
    are DocumentVectorizer's, plus the client.

    Parameters
    ----------
    client : distributed.Client, optional
        Default: the current client.

    Attributes
    ----------
    vocabulary_, idf_, analyzer_, weighting_ :
        As DocumentVectorizer's.
    n_docs_ : int
    partition_rows_ : list of int
        Documents per partition of the fitted corpus.
    """

    def __sklearn_clone__(self):
        return clone_sharing_client(self)

    def __init__(self, *, stop_words: str | Iterable[str] | None = "english", stem: bool = True,
                 min_df: int | float = 2, max_df: int | float = 0.95,
                 max_features: int | None = None, tf: TfScheme = "raw", idf: IdfScheme = "xu",
                 norm: Literal["l2"] | None = "l2", token_pattern: str = DEFAULT_TOKEN_PATTERN,
                 client: Client | None = None):
        super().__init__(stop_words=stop_words, stem=stem, min_df=min_df, max_df=max_df,
                         max_features=max_features, tf=tf, idf=idf, norm=norm,
                         token_pattern=token_pattern)
        self.client = client

    def fit(self, raw_documents, y=None):
        self.fit_transform(raw_documents)
        return self

    def fit_transform(self, raw_documents, y=None):
        client = get_client(self.client)
        analyzer = Analyzer(self.stop_words, self.stem, self.token_pattern)
        self._document_count_bounds(1)   # the parameters' own checks, before any work
        # the counts stay on the workers until they are weighted
        counts = client.compute([dask.delayed(_count_partition)(texts, analyzer)
                                 for texts in _text_partitions(raw_documents)])
        summary = gather(client, add_tree(client, [client.submit(_summarize, c, pure=False)
                                                   for c in counts], _merge),
                         "counting the terms")
        if not summary.n_docs:
            raise EmptyVocabularyError("no documents to learn a vocabulary from")
        low, high = self._document_count_bounds(summary.n_docs)
        kept = kept_terms(summary.df, summary.totals, low, high, self.max_features)
        if not kept.size:
            raise EmptyVocabularyError.after_pruning(len(summary.terms), summary.df, low, high,
                                                     self.min_df, self.max_df, summary.n_docs)
        vocabulary = summary.terms[kept]
        self.analyzer_ = analyzer
        self.vocabulary_ = {str(term): j for j, term in enumerate(vocabulary)}
        self.weighting_ = TfidfWeighting(tf=self.tf, idf=self.idf, norm=self.norm) \
            .fit_frequencies(summary.df[kept], summary.n_docs)
        self.idf_ = self.weighting_.idf_
        words = list(summary.words)
        forms = most_frequent_forms(words, [summary.words[w][0] for w in words],
                                    [summary.words[w][1] for w in words])
        self._fit_readable_names = np.array([forms[t] for t in self.vocabulary_], dtype=object)
        self.n_docs_ = summary.n_docs
        # a task, not scattered data: Dask's memory manager soon keeps a single copy of
        # scattered data, broadcast or not, and data that was never a task's result cannot be
        # made again. A block lost with a worker is recomputed from its lineage (the texts,
        # counted again), which must hold the vocabulary too
        self._vocabulary_future = client.submit(_same, vocabulary, pure=False)
        blocks = [client.submit(_weigh_partition, c, self._vocabulary_future, self.weighting_,
                                pure=False)
                  for c in counts]
        rows = gather(client, [client.submit(_n_rows, b, pure=False) for b in blocks],
                      "weighting the terms")
        self.partition_rows_ = list(rows)
        del counts
        X = RowPartitions(client, blocks, rows, len(vocabulary))
        return X.to_dask()

    def transform(self, raw_documents):
        """New partitions of texts on the fitted vocabulary: a Dask array of CSR row blocks."""
        import dask.array as da

        local = self._in_memory()
        m = len(self.vocabulary_)
        meta = sp.csr_matrix((0, m))
        parts = [da.from_delayed(dask.delayed(local.transform)(texts), shape=(np.nan, m),
                                 dtype=np.float64, meta=meta)
                 for texts in _text_partitions(raw_documents)]
        return da.concatenate(parts, axis=0) if len(parts) > 1 else parts[0]

    def _in_memory(self) -> DocumentVectorizer:
        """A fitted DocumentVectorizer with this one's vocabulary, to ship to the workers."""
        local = DocumentVectorizer(**{k: v for k, v in self.get_params().items()
                                      if k != "client"})
        for name in ("analyzer_", "vocabulary_", "weighting_", "idf_", "_fit_readable_names"):
            setattr(local, name, getattr(self, name))
        local._fit_digest = None      # the fitting texts were never in this process
        return local

    def readable_feature_names(self, raw_documents=None) -> np.ndarray:
        """The fitted terms, each stem as its most frequent word in the fitting corpus."""
        return self._fit_readable_names.copy()
