"""Term weighting on count matrices: tf-idf as in Xu et al. (2003) and its variants; NCW weights.

Rows are documents and columns terms (scikit-learn's orientation); the
papers write the transpose.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["TfidfWeighting", "tfidf_xu2003", "ncw_weights"]

TfScheme = Literal["raw", "sublinear", "binary"]
IdfScheme = Literal["xu", "smooth", "none"]


def _as_csr(X) -> sp.csr_matrix:
    X = sp.csr_matrix(X, dtype=np.float64, copy=True)
    X.sum_duplicates()
    X.eliminate_zeros()
    return X


def _idf(df: np.ndarray, n_docs: int, scheme: IdfScheme) -> np.ndarray:
    if scheme == "none":
        return np.ones_like(df, dtype=np.float64)
    if scheme == "xu":
        # log(n / df); a term absent from the fitting documents gets weight 0
        with np.errstate(divide="ignore"):
            idf = np.where(df > 0, np.log(n_docs / np.maximum(df, 1)), 0.0)
        return idf
    if scheme == "smooth":
        return np.log((1.0 + n_docs) / (1.0 + df)) + 1.0
    raise ValueError(f"unknown idf scheme {scheme!r}; use 'xu', 'smooth' or 'none'")


#: The smallest value sublinear tf takes: 1 + log t is negative below it.
_SUBLINEAR_FLOOR = np.exp(-1.0)


def _tf(X: sp.csr_matrix, scheme: TfScheme) -> sp.csr_matrix:
    if scheme == "raw":
        return X
    if scheme == "sublinear":
        if X.data.size and X.data.min() < _SUBLINEAR_FLOOR:
            # 1 + log t is below zero there: a matrix of weights rather than counts, whose
            # negative weights a factorization then refused as if the input held them
            raise ValueError(f"tf='sublinear' (1 + log t) is negative for a value t below 1/e, "
                             f"and the smallest here is {X.data.min():.3g}: it is meant for "
                             f"term counts; the input looks weighted already (tf 'raw' keeps "
                             f"its values)")
        X.data = 1.0 + np.log(X.data)
        return X
    if scheme == "binary":
        X.data = np.ones_like(X.data)
        return X
    raise ValueError(f"unknown tf scheme {scheme!r}; use 'raw', 'sublinear' or 'binary'")


def _l2_rows(X: sp.csr_matrix) -> sp.csr_matrix:
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
    scale = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    return sp.csr_matrix(sp.diags(scale) @ X)


class TfidfWeighting(TransformerMixin, BaseEstimator):
    """Weight a documents x terms count matrix; idf learnt on the fitting documents.

    The default is the weighting of Xu et al. (2003), Section 3.1:
    ``x_ji = t_ji * log(n / df_j)`` followed by scaling each document to
    unit Euclidean length. Terms present in every fitting document get
    weight 0 under this scheme.

    Parameters
    ----------
    tf : {"raw", "sublinear", "binary"}
        Term frequency: the count ``t``, ``1 + log t`` (Cai et al.'s
        preprocessing), or 1 for present terms.
    idf : {"xu", "smooth", "none"}
        ``log(n / df)`` (Xu 2003), ``log((1 + n) / (1 + df)) + 1``
        (scikit-learn's smooth idf), or no idf.
    norm : {"l2", None}
        Scale each document to unit length.

    Attributes
    ----------
    idf_ : ndarray of shape (n_terms,)
    n_features_in_ : int

    References
    ----------
    Xu, Liu & Gong, Document clustering based on NMF, SIGIR 2003, Section 3.1.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[2, 0, 1], [0, 1, 1]])
    >>> W = TfidfWeighting().fit_transform(X).toarray()
    >>> np.round(W, 3).tolist()   # the third term is in both documents: idf 0
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    """

    def __init__(self, tf: TfScheme = "raw", idf: IdfScheme = "xu", norm: Literal["l2"] | None = "l2"):
        self.tf = tf
        self.idf = idf
        self.norm = norm

    def fit(self, X, y=None):
        """Learn the idf from ``X``, a (n_documents, n_terms) matrix of term counts.

        ``y`` is ignored. Returns ``self``.
        """
        X = validate_data(self, X, accept_sparse=("csr", "csc", "coo"), dtype=np.float64)
        X = _nonnegative(_as_csr(X))
        return self.fit_frequencies(np.bincount(X.indices, minlength=X.shape[1]), X.shape[0])

    def fit_frequencies(self, df, n_docs: int):
        """Fit from document frequencies alone: ``df[j]`` of the ``n_docs`` documents hold term j.

        What :meth:`fit` learns from a count matrix, for callers that counted
        the documents elsewhere (a reduction over partitions of a corpus).

        Examples
        --------
        >>> TfidfWeighting().fit_frequencies([1, 2], 2).idf_.round(3).tolist()
        [0.693, 0.0]
        """
        df = np.asarray(df)
        self.idf_ = _idf(df, int(n_docs), self.idf)
        self.n_features_in_ = len(df)
        return self

    def transform(self, X):
        """Weight the term counts ``X`` (the fitted number of terms) with the fitted idf, CSR."""
        check_is_fitted(self, "idf_")
        X = validate_data(self, X, accept_sparse=("csr", "csc", "coo"), dtype=np.float64, reset=False)
        X = _tf(_nonnegative(_as_csr(X)), self.tf)
        X = sp.csr_matrix(X @ sp.diags(self.idf_))
        X.eliminate_zeros()
        if self.norm == "l2":
            X = _l2_rows(X)
        elif self.norm is not None:
            raise ValueError(f"unknown norm {self.norm!r}; use 'l2' or None")
        return X

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.input_tags.positive_only = True
        return tags


def _nonnegative(X: sp.csr_matrix) -> sp.csr_matrix:
    """``X``, or a ValueError when it holds a negative count (which sublinear tf made NaN, and
    a zero row: the document's other terms lost)."""
    if X.data.size and X.data.min() < 0:
        raise ValueError("Negative values in data passed to TfidfWeighting: term counts must be "
                         "non-negative")
    return X


def tfidf_xu2003(counts) -> sp.csr_matrix:
    """tf-idf exactly as Xu et al. (2003) Section 3.1, idf over the given documents.

    Examples
    --------
    >>> tfidf_xu2003([[1, 1], [0, 3]]).toarray().round(3).tolist()
    [[1.0, 0.0], [0.0, 0.0]]
    """
    return TfidfWeighting().fit_transform(counts)


def ncw_weights(X) -> np.ndarray:
    """Normalized-cut weights ``gamma_i = 1 / d_ii`` with ``D = diag(X^T X e)`` (Xu 2003, App. B).

    In documents-as-rows orientation ``d = X (X^T 1)``: each document's total
    inner-product similarity to the collection, computed without forming the
    n x n similarity matrix. Documents with ``d_i = 0`` (empty rows) get 0.

    Parameters
    ----------
    X : {array-like, sparse matrix} of shape (n_docs, n_terms)

    Returns
    -------
    gamma : ndarray of shape (n_docs,)

    Examples
    --------
    >>> ncw_weights([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]]).tolist()
    [0.5, 0.5, 1.0]
    """
    X = sp.csr_matrix(X, dtype=np.float64)
    column_sums = np.asarray(X.sum(axis=0)).ravel()
    d = X @ column_sums
    return np.divide(1.0, d, out=np.zeros_like(d), where=d > 0)
