"""Texts to a sparse documents x terms matrix with a fixed, sorted vocabulary."""

from __future__ import annotations

from typing import Iterable, Literal

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.feature_extraction.text import CountVectorizer
from sklearn.utils.validation import check_is_fitted

from .tokenize import DEFAULT_TOKEN_PATTERN, Analyzer
from .weighting import IdfScheme, TfidfWeighting, TfScheme

__all__ = ["DocumentVectorizer", "EmptyVocabularyError"]


class EmptyVocabularyError(ValueError):
    """No index term survived tokenization, stop words and document-frequency pruning."""


class DocumentVectorizer(TransformerMixin, BaseEstimator):
    """Tokenize, remove stop words, Porter-stem, prune and weight: texts -> CSR tf-idf.

    ``fit`` learns the vocabulary (sorted alphabetically, so the column order
    is deterministic) and the idf from one corpus; ``transform`` maps new
    texts onto the same columns. The default weighting is Xu et al. (2003),
    Section 3.1: ``tf * log(n / df)`` with unit-length documents.

    Parameters
    ----------
    stop_words : "english", None or list of str
    stem : bool
        Porter stemming (PyStemmer's C implementation).
    min_df : int or float
        Drop terms in fewer documents than this (a count, or a fraction when
        a float < 1). Clipped to the number of documents, so a tiny corpus is
        never pruned to nothing by the default.
    max_df : int or float
        Drop terms in more documents than this (count or fraction).
    max_features : int or None
        Keep only this many most frequent terms (by total count).
    tf, idf, norm :
        Weighting, see :class:`~docnmf.text.weighting.TfidfWeighting`.
    token_pattern : str
        Regular expression for tokens (default: words of two or more letters).

    Attributes
    ----------
    vocabulary_ : dict of str -> int
    idf_ : ndarray of shape (n_terms,)

    Examples
    --------
    >>> v = DocumentVectorizer(min_df=1)
    >>> X = v.fit_transform(["Stars and planets", "Planets orbit stars", "Bread in the oven"])
    >>> v.get_feature_names_out().tolist()
    ['bread', 'orbit', 'oven', 'planet', 'star']
    >>> X.shape, X.format
    ((3, 5), 'csr')
    """

    def __init__(self, *, stop_words: str | Iterable[str] | None = "english", stem: bool = True,
                 min_df: int | float = 2, max_df: int | float = 0.95,
                 max_features: int | None = None, tf: TfScheme = "raw", idf: IdfScheme = "xu",
                 norm: Literal["l2"] | None = "l2", token_pattern: str = DEFAULT_TOKEN_PATTERN):
        self.stop_words = stop_words
        self.stem = stem
        self.min_df = min_df
        self.max_df = max_df
        self.max_features = max_features
        self.tf = tf
        self.idf = idf
        self.norm = norm
        self.token_pattern = token_pattern

    def _counter(self, n_docs: int) -> CountVectorizer:
        min_df = self.min_df
        if isinstance(min_df, (int, np.integer)) and not isinstance(min_df, bool):
            min_df = int(min(min_df, n_docs))
        max_df = self.max_df
        if isinstance(max_df, float) and max_df * n_docs < (min_df if isinstance(min_df, int) else 1):
            max_df = 1.0  # a tiny corpus: a fraction below one document would prune everything
        return CountVectorizer(
            analyzer=Analyzer(self.stop_words, self.stem, self.token_pattern),
            min_df=min_df, max_df=max_df, max_features=self.max_features, dtype=np.float64,
        )

    def fit(self, raw_documents, y=None):
        self.fit_transform(raw_documents)
        return self

    def fit_transform(self, raw_documents, y=None):
        docs = _as_text_list(raw_documents)
        if not docs:
            raise EmptyVocabularyError("no documents to learn a vocabulary from")
        counter = self._counter(len(docs))
        try:
            counts = counter.fit_transform(docs)
        except ValueError as exc:  # scikit-learn's empty-vocabulary messages
            raise EmptyVocabularyError(
                "no index terms left after tokenization, stop words and document-frequency "
                f"pruning ({exc})") from None
        self.counter_ = counter
        self.vocabulary_ = counter.vocabulary_
        self.weighting_ = TfidfWeighting(tf=self.tf, idf=self.idf, norm=self.norm).fit(counts)
        self.idf_ = self.weighting_.idf_
        return self.weighting_.transform(counts)

    def count(self, raw_documents) -> sp.csr_matrix:
        """Raw term counts of ``raw_documents`` on the fitted vocabulary."""
        check_is_fitted(self, "vocabulary_")
        return sp.csr_matrix(self.counter_.transform(_as_text_list(raw_documents)))

    def transform(self, raw_documents):
        return self.weighting_.transform(self.count(raw_documents))

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        check_is_fitted(self, "vocabulary_")
        return self.counter_.get_feature_names_out()

    def readable_feature_names(self, raw_documents) -> np.ndarray:
        """Feature names with each stem shown as its most frequent word in ``raw_documents``.

        Stems such as ``galaxi`` read badly in keyword lists; this maps them
        back to ``galaxy`` (falling back to the stem when it never occurs).
        """
        names = self.get_feature_names_out()
        forms = self.counter_.analyzer.readable_forms(_as_text_list(raw_documents))
        return np.array([forms.get(t, t) for t in names], dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.two_d_array = False
        return tags


def _as_text_list(raw_documents) -> list[str]:
    if isinstance(raw_documents, str):
        raise TypeError("expected an iterable of documents, got a single string")
    return [str(d) for d in raw_documents]
