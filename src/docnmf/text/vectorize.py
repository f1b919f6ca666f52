"""Texts to a sparse documents x terms matrix with a fixed, sorted vocabulary."""

from __future__ import annotations

import hashlib
import math
from numbers import Integral, Real
from typing import Iterable, Literal, Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .tokenize import DEFAULT_TOKEN_PATTERN, Analyzer, CorpusTokens, most_frequent_forms
from .weighting import IdfScheme, TfidfWeighting, TfScheme

__all__ = ["DocumentVectorizer", "EmptyVocabularyError", "document_count_bounds", "kept_columns",
           "refuse_table"]


class EmptyVocabularyError(ValueError):
    """No index term survived tokenization, stop words and document-frequency pruning."""

    @classmethod
    def after_pruning(cls, n_terms: int, df: np.ndarray | None = None, low: float = 0,
                      high: float = np.inf, min_df=None, max_df=None,
                      n_docs: int | None = None) -> "EmptyVocabularyError":
        """The error when pruning by document frequency left none of ``n_terms`` terms; with
        their document frequencies ``df`` and the bounds (``low``/``high`` documents, from
        ``min_df``/``max_df``), what each bound removed, and with ``n_docs`` whether every term
        is in every document."""
        if n_terms == 0:
            return cls("no index terms in the texts: every word is a stop word or not a word "
                       "of the token pattern")
        why = ""
        if df is not None:
            common, rare = int(np.sum(df > high)), int(np.sum(df < low))
            parts = ([f"{common} in more than max_df={max_df!r} of the documents"] * bool(common)
                     + [f"{rare} in fewer than min_df={min_df!r}"] * bool(rare))
            why = ": " + ", ".join(parts) if parts else ""
            if common == n_terms and n_docs is not None and np.all(df >= n_docs):
                # raising max_df alone kept them with an idf of log(n / n) = 0: "only 0 of the
                # documents have index terms", a second error
                why += (" (every term is in every document, so none tells them apart by being "
                        "there: max_df=1.0 with idf='smooth', --max-df 1.0 --idf smooth, "
                        "weighs them by how often each document uses them)")
            elif common == n_terms:
                why += " (documents that share every word: raise max_df, e.g. to 1.0)"
        return cls("no index terms left after tokenization, stop words and document-frequency "
                   f"pruning ({n_terms} term{'s' * (n_terms != 1)} before pruning{why})")


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
        Drop terms in fewer documents than this: an int is a count, a float in
        [0, 1] a fraction of the documents (``1.0``: all of them). A count is
        clipped to the number of documents, so a tiny corpus is never pruned to
        nothing by the default.
    max_df : int or float
        Drop terms in more documents than this (count or fraction).
    max_features : int or None
        Keep only this many most frequent terms (by total count over the documents, of the
        terms ``min_df`` and ``max_df`` keep; under ``tf="binary"`` too, where scikit-learn's
        ``TfidfVectorizer(binary=True)`` ranks by the number of documents).
    tf, idf, norm :
        Weighting, see :class:`~docnmf.text.weighting.TfidfWeighting`.
    token_pattern : str
        Regular expression for tokens (default: words of two or more letters), matched in
        the lower-cased text: a pattern of capital letters matches nothing.

    Attributes
    ----------
    vocabulary_ : dict of str -> int
    idf_ : ndarray of shape (n_terms,)
    analyzer_ : Analyzer
        The tokenizer, stop words and stemmer used by ``fit`` and ``transform``.
    weighting_ : TfidfWeighting

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

    def _document_count_bounds(self, n_docs: int) -> tuple[float, float]:
        return document_count_bounds(self.min_df, self.max_df, self.max_features, n_docs)

    def fit(self, raw_documents, y=None):
        """Learn the vocabulary and the idf of ``raw_documents`` (an iterable of str).

        Raises :class:`~docnmf.text.EmptyVocabularyError` when pruning leaves no term.
        ``y`` is ignored. Returns ``self``.
        """
        self.fit_transform(raw_documents)
        return self

    @classmethod
    def from_vocabulary(cls, vocabulary: Sequence[str], idf_values, /, *,
                        readable_names: Sequence[str] | None = None,
                        **params) -> "DocumentVectorizer":
        """A fitted vectorizer from what ``fit`` learnt: the terms in column order and their idf.

        ``params`` are the constructor's; ``readable_names`` the display names
        of the terms (:meth:`readable_feature_names` of the fitting texts),
        returned by :attr:`fitted_readable_names_`. This is how a saved model
        is rebuilt without refitting.

        Examples
        --------
        >>> v = DocumentVectorizer(min_df=1).fit(["Stars and planets", "Bread in the oven"])
        >>> w = DocumentVectorizer.from_vocabulary(v.get_feature_names_out(), v.idf_, min_df=1)
        >>> bool((w.transform(["planets, stars"]) != v.transform(["planets, stars"])).nnz == 0)
        True
        """
        terms = [str(t) for t in vocabulary]
        idf = np.asarray(idf_values, dtype=np.float64)
        if idf.shape != (len(terms),):
            raise ValueError(f"{idf.shape[0] if idf.ndim else 0} idf values for {len(terms)} terms")
        # a negative idf gave documents negative weights, which the estimators refuse; idf
        # values of 0 or of 1e300 left every document without a finite weight
        if not np.all(np.isfinite(idf)) or np.any(idf < 0) or np.any(idf > MAX_IDF):
            raise ValueError(f"the idf values must be numbers from 0 to {MAX_IDF:g}")
        if idf.size and not np.any(idf > 0):
            raise ValueError("every idf value is 0: no term would weigh anything")
        if len(set(terms)) != len(terms):
            raise ValueError("the vocabulary repeats a term")
        vectorizer = cls(**params)
        vectorizer.analyzer_ = Analyzer(vectorizer.stop_words, vectorizer.stem,
                                        vectorizer.token_pattern)
        vectorizer.vocabulary_ = {term: j for j, term in enumerate(terms)}
        weighting = TfidfWeighting(tf=vectorizer.tf, idf=vectorizer.idf, norm=vectorizer.norm)
        weighting.idf_, weighting.n_features_in_ = idf, len(terms)
        vectorizer.weighting_, vectorizer.idf_ = weighting, idf
        names = terms if readable_names is None else [str(t) for t in readable_names]
        if len(names) != len(terms):
            raise ValueError(f"{len(names)} readable names for {len(terms)} terms")
        vectorizer._fit_readable_names = np.array(names, dtype=object)
        vectorizer._fit_digest = None
        return vectorizer

    @property
    def fitted_readable_names_(self) -> np.ndarray:
        """The readable term names found in the fitting texts (see :meth:`readable_feature_names`)."""
        check_is_fitted(self, "vocabulary_")
        return self._fit_readable_names.copy()

    def fit_transform(self, raw_documents, y=None):
        """Fit on ``raw_documents`` and return their weighted matrix, (n_documents, n_terms) CSR."""
        counts = self.fit_count(raw_documents)
        return self.weighting_.transform(counts)

    def fit_count(self, raw_documents) -> sp.csr_matrix:
        """Fit as :meth:`fit` does and return the fitting documents' raw term counts.

        The counts ``fit_transform`` weighs, for estimators fitted on counts
        (topic models, the consensus) beside the tf-idf, from one pass over
        the texts.
        """
        docs = as_text_list(raw_documents)
        if not docs:
            raise EmptyVocabularyError("no documents to learn a vocabulary from")
        low, high = self._document_count_bounds(len(docs))
        analyzer = Analyzer(self.stop_words, self.stem, self.token_pattern)
        tokens = analyzer.tokenize(docs)
        stems = analyzer.stem_words(tokens.words)  # once per distinct word
        terms = sorted(set(stems))  # alphabetical, so the column order is deterministic
        column = {term: j for j, term in enumerate(terms)}
        counts = _count_matrix(tokens, np.array([column[s] for s in stems], dtype=np.int32),
                               len(terms))
        forms = most_frequent_forms(tokens.words, stems, tokens.word_counts())
        del tokens  # the token stream is the largest array here; the counts hold what it had
        kept = kept_columns(counts, low, high, self.max_features)
        if not kept.size:
            raise EmptyVocabularyError.after_pruning(
                len(terms), np.bincount(counts.indices, minlength=len(terms)), low, high,
                self.min_df, self.max_df, len(docs))
        counts = counts[:, kept]
        vocabulary = [terms[j] for j in kept]
        self.analyzer_ = analyzer
        self.vocabulary_ = {term: j for j, term in enumerate(vocabulary)}
        self.weighting_ = TfidfWeighting(tf=self.tf, idf=self.idf, norm=self.norm).fit(counts)
        self.idf_ = self.weighting_.idf_
        # the names of the fitting documents' terms are known now; kept to spare a second pass
        self._fit_readable_names = np.array([forms[t] for t in vocabulary], dtype=object)
        self._fit_digest = _digest(docs)
        return counts

    def count(self, raw_documents) -> sp.csr_matrix:
        """Raw term counts of ``raw_documents`` on the fitted vocabulary."""
        check_is_fitted(self, "vocabulary_")
        tokens = self.analyzer_.tokenize(as_text_list(raw_documents))
        stems = self.analyzer_.stem_words(tokens.words)
        columns = np.array([self.vocabulary_.get(s, -1) for s in stems], dtype=np.int32)
        return _count_matrix(tokens, columns, len(self.vocabulary_))

    def transform(self, raw_documents):
        """The weighted matrix of ``raw_documents`` on the fitted vocabulary, CSR.

        Words outside the vocabulary are dropped; a document with none left is a zero row.
        """
        check_is_fitted(self, "weighting_")
        counts = self.count(raw_documents)
        if counts.shape[0] == 0:       # no documents: no rows, as scikit-learn's vectorizers
            return sp.csr_matrix(counts.shape)
        return self.weighting_.transform(counts)

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """The terms (stems) in column order, an object array; ``input_features`` is ignored."""
        check_is_fitted(self, "vocabulary_")
        return np.array(sorted(self.vocabulary_, key=self.vocabulary_.get), dtype=object)

    def readable_feature_names(self, raw_documents) -> np.ndarray:
        """Feature names with each stem shown as its most frequent word in ``raw_documents``.

        Stems such as ``galaxi`` read badly in keyword lists; this maps them
        back to ``galaxy`` (falling back to the stem when it never occurs).
        For the fitting documents themselves the names found during ``fit``
        are returned without reading the texts again.
        """
        check_is_fitted(self, "vocabulary_")
        docs = as_text_list(raw_documents)
        if _digest(docs) == getattr(self, "_fit_digest", None):
            return self._fit_readable_names.copy()
        forms = self.analyzer_.readable_forms(docs)
        return np.array([forms.get(t, t) for t in self.get_feature_names_out()], dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.two_d_array = False
        return tags


def document_count_bounds(min_df, max_df, max_features, n_docs: int) -> tuple[float, float]:
    """``min_df`` and ``max_df`` as document counts for ``n_docs`` documents, read as
    CountVectorizer reads them (see :class:`DocumentVectorizer`).

    Examples
    --------
    >>> document_count_bounds(2, 0.95, None, 100)
    (2, 95.0)
    """
    check_df("min_df", min_df)
    check_df("max_df", max_df)
    if max_df == 0:
        raise ValueError("max_df must be above 0: no term is in fewer than one document")
    if max_features is not None and not _is_count(max_features):
        raise ValueError(f"max_features must be None or an int >= 1, not {max_features!r}")
    given = min_df
    # a count above the number of documents is clipped, so a tiny corpus is not emptied
    min_df = int(min(min_df, n_docs)) if isinstance(min_df, Integral) else min_df
    if isinstance(max_df, float) and max_df * n_docs < (min_df if isinstance(min_df, int) else 1) \
            and max_df * n_docs > n_docs - 1:
        # a tiny corpus: a fraction that drops only the terms of every document (0.95 of 2
        # documents) fell below min_df and would prune everything. A smaller fraction is meant
        # (0.03 of 50 documents) and is refused below, as the same count would be
        max_df = 1.0
    low = min_df if isinstance(min_df, int) else min_df * n_docs
    high = max_df if isinstance(max_df, Integral) else max_df * n_docs
    if high < low:
        # the min_df given, not the clipped one (it said "min_df=500 (500)" of --min-df 600)
        said = f"{low:g}" if given == min_df else f"clipped to the {n_docs} documents"
        raise ValueError(f"max_df={max_df!r} ({high:g} of the {n_docs} documents) is below "
                         f"min_df={given!r} ({said}): no term could be kept")
    return low, high


def as_text_list(raw_documents, where: str = "") -> list[str]:
    """``raw_documents`` as a list of strings, or a TypeError/ValueError that names the problem
    (a single string, no iterable at all, a document that is not a string); ``where`` follows
    a document's number in the message (" of a partition")."""
    if isinstance(raw_documents, (str, bytes)):
        raise TypeError("expected an iterable of documents, got a single string")
    refuse_table(raw_documents)
    try:
        docs = list(raw_documents)
    except TypeError:
        raise TypeError(f"expected an iterable of documents (strings), got "
                        f"{type(raw_documents).__name__}") from None
    for i, d in enumerate(docs):
        if not isinstance(d, str):
            # str(nan) would become the term "nan", str(b"x") the terms "b" and "x"
            missing = d is None or (isinstance(d, float) and math.isnan(d))
            fix = ("decode it first (e.g. text.decode('utf-8'))"
                   if isinstance(d, (bytes, bytearray)) else
                   "give missing texts as '' (e.g. pandas' fillna(''))" if missing else
                   "give every document as its text (str(...) if it is one)")
            raise ValueError(f"document {i}{where} is {type(d).__name__} {d!r:.40}, not a "
                             f"string; {fix}")
    return docs


def refuse_table(raw_documents) -> None:
    """A TypeError for a DataFrame given as the documents: iterating one gives its column
    names (80 documents were read as one, the header)."""
    columns = getattr(raw_documents, "columns", None)
    if columns is None or getattr(raw_documents, "ndim", None) != 2:
        return
    kind = type(raw_documents).__name__
    if not len(columns):
        raise TypeError(f"expected an iterable of documents, got an empty {kind}")
    names = [str(c) for c in list(columns)]
    raise TypeError(f"expected an iterable of documents, got a {kind} (its columns: "
                    f"{', '.join(names[:5])}{', ...' if len(names) > 5 else ''}); pass its "
                    f"column of texts, e.g. df[{names[0]!r}]")


def _is_count(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool) and value >= 1


#: The largest idf a vectorizer is rebuilt with: ln(n / df) is under 30 for any corpus that
#: fits in memory; 1e6 leaves room for other schemes.
MAX_IDF = 1e6


def check_df(name: str, value) -> None:
    is_fraction = isinstance(value, Real) and not isinstance(value, Integral) and 0 <= value <= 1
    if not (_is_count(value) or is_fraction):
        raise ValueError(f"{name} must be an int >= 1 or a float in [0, 1], not {value!r}")


def _digest(docs: list[str]) -> bytes:
    """A fingerprint of a list of texts (length-prefixed, so the split between texts counts)."""
    h = hashlib.blake2b(digest_size=20)
    for doc in docs:
        data = doc.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.digest()


def _count_matrix(tokens: CorpusTokens, column_of_word: np.ndarray,
                  n_columns: int) -> sp.csr_matrix:
    """Documents x columns occurrence counts; words whose column is -1 are left out."""
    columns = column_of_word[tokens.ids]
    known = columns >= 0
    indptr = np.concatenate(([0], np.cumsum(known, dtype=np.int64)))[tokens.offsets]
    # one entry per occurrence until summed: single precision counts exactly to 2^24 and
    # halves the largest temporary; the summed counts are then widened
    X = sp.csr_matrix((np.ones(indptr[-1], dtype=np.float32), columns[known], indptr),
                      shape=(len(tokens.offsets) - 1, n_columns))
    X.sum_duplicates()
    return X.astype(np.float64)


def kept_columns(counts: sp.csr_matrix, low: float, high: float,
                  max_features: int | None) -> np.ndarray:
    """Columns in ``low`` to ``high`` documents, capped at the ``max_features`` most frequent.

    The cap ranks as CountVectorizer does (an unstable argsort of the float
    totals), so terms tied in frequency are kept or dropped alike.
    """
    return kept_terms(np.bincount(counts.indices, minlength=counts.shape[1]),
                      lambda: np.asarray(counts.sum(axis=0)).ravel(), low, high, max_features)


def kept_terms(df: np.ndarray, totals, low: float, high: float,
               max_features: int | None) -> np.ndarray:
    """Terms in ``low`` to ``high`` documents (``df``), capped at the ``max_features`` most frequent.

    ``totals`` gives each term's total count (an array, or a function
    returning one, called only when the cap applies).
    """
    keep = (df <= high) & (df >= low)
    if max_features is not None and keep.sum() > max_features:
        totals = totals() if callable(totals) else np.asarray(totals)
        top = (-totals[keep]).argsort()[:max_features]
        capped = np.zeros_like(keep)
        capped[np.flatnonzero(keep)[top]] = True
        keep = capped
    return np.flatnonzero(keep)
