"""A fitted text pipeline: the vectorizer and the clustering estimator, texts in, clusters out."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Sequence

import numpy as np
import scipy.sparse as sp

from .._estimator import _caller_outside_docnmf
from ..text.tokenize import TEXT_RULES
from ..text.vectorize import DocumentVectorizer, as_text_list

__all__ = ["ClusteringModel", "Placement"]


class Placement(NamedTuple):
    """Where new documents go.

    Attributes
    ----------
    labels : ndarray of shape (n_docs,)
        The cluster of each document; -1 for one the model cannot place.
    memberships : ndarray of shape (n_docs, n_clusters)
        Soft memberships, with the meaning the estimator gives its fitted
        ``memberships_``; zero rows for the documents not placed.
    unplaced : ndarray of int
        Indices of the documents with no index term the model knows (every
        word unknown, a stop word, or in every fitted document and so of
        idf 0): nothing to place them by, so they are left out, not put in
        some cluster.
    X : sparse matrix of shape (n_docs, n_terms)
        The documents on the model's terms (its tf-idf).
    """

    labels: np.ndarray
    memberships: np.ndarray
    unplaced: np.ndarray
    X: sp.csr_matrix


def _methods_fitting(estimator) -> list:
    """The registered methods of ``estimator``'s class whose fixed parameters it has."""
    from ..methods import METHODS

    params = estimator.get_params(deep=False) if hasattr(estimator, "get_params") else {}
    return [m for m in METHODS.values() if m.estimator is type(estimator)
            and all(params.get(k) == v for k, v in m.fixed.items())]


def method_mismatch(estimator, method: str | None) -> str | None:
    """Why ``estimator`` is not what the registered ``method`` names (another class, or other
    values of the parameters the name stands for), or None.

    Examples
    --------
    >>> from docnmf.cluster import NMFClustering
    >>> method_mismatch(NMFClustering(weighting="ncw"), "nmf-ncw") is None
    True
    >>> print(method_mismatch(NMFClustering(weighting="ncw"), "nmf"))
    method 'nmf' is NMFClustering with weighting='none', not weighting='ncw' (that is nmf-ncw)
    """
    from ..methods import METHODS

    if method is None:
        return None
    spec = METHODS.get(method) if isinstance(method, str) else None
    if spec is None:
        return f"unknown method {method!r}"
    if spec.estimator is not type(estimator):
        return (f"method {method!r} is {spec.estimator.__name__}, not "
                f"{type(estimator).__name__}")
    params = estimator.get_params(deep=False)
    wrong = {k: v for k, v in spec.fixed.items() if params.get(k) != v}
    if not wrong:
        return None
    fitting = [m.name for m in _methods_fitting(estimator)]
    return (f"method {method!r} is {spec.estimator.__name__} with "
            + ", ".join(f"{k}={v!r}" for k, v in wrong.items()) + ", not "
            + ", ".join(f"{k}={params.get(k)!r}" for k in wrong)
            + (f" (that is {' or '.join(fitting)})" if fitting else ""))


def width_mismatch(estimator, vectorizer) -> str | None:
    """Why ``vectorizer``'s documents do not fit ``estimator`` (another number of terms), or
    None."""
    width = getattr(estimator, "n_features_in_", None)
    vocabulary = getattr(vectorizer, "vocabulary_", None)
    if width is None or vocabulary is None or len(vocabulary) == width:
        return None
    return (f"the vectorizer gives documents {len(vocabulary)} terms, but "
            f"{type(estimator).__name__} was fitted on {width}: not the vectorizer it was "
            "fitted with")


@dataclass
class ClusteringModel:
    """A fitted vectorizer and clustering estimator: raw texts in, clusters out.

    What :func:`docnmf.save` writes and :func:`docnmf.load` reads back,
    and what ``docnmf cluster`` saves in its output folder.

    Parameters
    ----------
    estimator :
        A fitted estimator that places new documents (``predict`` and
        ``predict_memberships``; see ``Method.places_new_documents``).
    vectorizer : DocumentVectorizer or None
        The fitted vectorizer whose tf-idf (or, for an estimator fitted on
        term counts, whose counts) the estimator was fitted on; None
        when the estimator reads raw texts itself (NMA, which holds its own
        ``vectorizer_``).
    method : str or None
        The registered method name (:data:`docnmf.methods.METHODS`), if any.
    info : dict
        JSON-ready facts kept with the model (corpus name, size, keywords).
    text_rules : int
        The rules of reading words the vectorizer was fitted under
        (:data:`docnmf.text.tokenize.TEXT_RULES`; 0 for a model saved before
        they were recorded). Placing texts that today's rules read
        differently from older ones warns: their words may not be the
        model's.

    Examples
    --------
    >>> from docnmf import NMFClustering
    >>> texts = ["stars and planets", "planets orbit stars", "bread in the oven",
    ...          "oven baked bread", "stars planets galaxies", "bread oven butter"]
    >>> vec = DocumentVectorizer(min_df=1)
    >>> est = NMFClustering(2, random_state=0).fit(vec.fit_transform(texts))
    >>> model = ClusteringModel(est, vec)
    >>> placed = model.place(["a galaxy of stars", "warm bread", "nothing known here"])
    >>> bool(placed.labels[0] == est.labels_[0]), bool(placed.labels[1] == est.labels_[2])
    (True, True)
    >>> placed.labels[2], placed.unplaced.tolist()
    (np.int64(-1), [2])
    """

    estimator: Any
    vectorizer: DocumentVectorizer | None = None
    method: str | None = None
    info: dict[str, Any] = field(default_factory=dict)
    text_rules: int = TEXT_RULES

    def __post_init__(self):
        if self.vectorizer is not None and not isinstance(self.vectorizer, DocumentVectorizer):
            raise TypeError(f"the vectorizer must be a docnmf.DocumentVectorizer (it names terms "
                            f"by their readable words and is saved safely), not "
                            f"{type(self.vectorizer).__name__}")
        mismatch = method_mismatch(self.estimator, self.method) or width_mismatch(
            self.estimator, self.vectorizer)
        if mismatch:
            raise ValueError(mismatch)

    @property
    def document_vectorizer(self) -> DocumentVectorizer:
        """The vectorizer that gives documents on the model's terms."""
        if self.vectorizer is None and not hasattr(self.estimator, "vectorizer_"):
            raise ValueError(f"{type(self.estimator).__name__} reads no text itself: give the "
                             "model the vectorizer whose documents it was fitted on, "
                             "ClusteringModel(estimator, vectorizer)")
        return self.vectorizer if self.vectorizer is not None else self.estimator.vectorizer_

    @property
    def reads_counts(self) -> bool:
        """Whether the estimator is fitted on term counts rather than on the tf-idf (the
        registered method says; by its class when the model names none)."""
        from ..methods import METHODS

        spec = METHODS.get(self.method) if self.method is not None else None
        if spec is not None:
            return spec.input == "counts"
        inputs = {m.input for m in _methods_fitting(self.estimator)}
        if len(inputs) == 1:        # the parameters the methods' names stand for decide
            return inputs == {"counts"}
        return any(m.estimator is type(self.estimator) and m.input == "counts"
                   for m in METHODS.values())

    @property
    def n_clusters(self) -> int:
        return int(self.estimator.n_clusters)

    @property
    def feature_names(self) -> np.ndarray:
        """Readable names of the model's terms (stems shown as their most frequent word)."""
        return self.document_vectorizer.fitted_readable_names_

    def keywords(self, n: int = 10) -> list[list[str]] | None:
        """The ``n`` heaviest terms of each cluster, or None for an estimator without term weights.

        These are the model's own (a topic's heaviest terms); the keywords ``docnmf cluster``
        and ``docnmf assign`` write name, of a cluster with documents, only words some of
        them hold."""
        if not hasattr(self.estimator, "top_keywords"):
            return None
        return self.estimator.top_keywords(self.feature_names, n)

    def place(self, texts: Sequence[str]) -> Placement:
        """Labels and memberships of new documents; see :class:`Placement`."""
        if not hasattr(self.estimator, "predict_memberships"):
            raise TypeError(f"{type(self.estimator).__name__} cannot place new documents (see "
                            "Method.places_new_documents): its ClusteringModel holds the fit only")
        texts = as_text_list(texts)
        self._warn_older_text_rules(texts)
        if not texts:
            nothing = np.zeros(0, dtype=np.int64)
            return Placement(nothing, np.zeros((0, self.n_clusters)), nothing,
                             sp.csr_matrix((0, len(self.document_vectorizer.vocabulary_))))
        X = sp.csr_matrix(self.document_vectorizer.transform(texts))
        known = np.diff(X.indptr) > 0
        placed = np.flatnonzero(known)
        labels = np.full(len(texts), -1, dtype=np.int64)
        memberships = np.zeros((len(texts), self.n_clusters))
        if placed.size:
            if self.vectorizer is None:
                data = [texts[i] for i in placed]
            elif self.reads_counts:
                data = self.vectorizer.count([texts[i] for i in placed])
            else:
                data = X[placed]
            # one placement, not two: a document's cluster is its largest membership (NMA
            # places overlapping documents by a majority of their segments, which it gives too)
            if hasattr(self.estimator, "_place"):
                labels[placed], memberships[placed] = self.estimator._place(data)
            else:
                memberships[placed] = self.estimator.predict_memberships(data)
                labels[placed] = np.argmax(memberships[placed], axis=1)
        return Placement(labels, memberships, np.flatnonzero(~known), X)

    def _warn_older_text_rules(self, texts: list[str]) -> None:
        """Warn when the model was fitted under newer rules of reading words than this
        docnmf's, or under older ones and some of
        ``texts`` read differently under today's (an "\u0130stanbul" a model knew as "stanbul",
        accents written apart, ligatures: placed elsewhere, or not at all, without a word)."""
        if self.text_rules > TEXT_RULES and texts:
            # a newer docnmf's rules, which this one cannot apply or tell apart text by text
            warnings.warn(f"the model was saved by a newer docnmf, which reads words by rules "
                          f"this one does not know (text rules {self.text_rules}; these are "
                          f"{TEXT_RULES}): documents may be read into other words than the "
                          f"model's, and placed differently; place them with that docnmf, or fit "
                          f"the model again with this one", UserWarning,
                          stacklevel=_caller_outside_docnmf())
            return
        if self.text_rules >= TEXT_RULES:
            return
        analyzer = self.document_vectorizer.analyzer_
        changed = sum(not text.isascii()
                      and analyzer.read_otherwise_at_first(text, self.text_rules)
                      for text in texts)
        if changed:
            warnings.warn(f"{changed} of the {len(texts)} documents "
                          f"{'holds' if changed == 1 else 'hold'} characters that this "
                          f"docnmf may read into words differently from the older version that "
                          f"saved the model: accents written as "
                          f"separate marks, ligatures, soft hyphens, full-width letters, a "
                          f"dotted capital I or marks inside words (Hindi's vowel signs, "
                          f"Arabic's shadda). Their words may not be the model's, and they "
                          f"may be placed differently; fit the model again (docnmf cluster) "
                          f"to read them as it does now", UserWarning,
                          stacklevel=_caller_outside_docnmf())

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        """Cluster of each new document; -1 for one with no index term the model knows."""
        return self.place(texts).labels

    def predict_memberships(self, texts: Sequence[str]) -> np.ndarray:
        """Soft memberships of new documents (zero rows for those not placed)."""
        return self.place(texts).memberships
