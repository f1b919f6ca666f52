"""Topic-model baselines of Wang et al. (2011): PLSI (EM) and LDA, clustering by the top topic.

Both take raw term counts, documents as rows (a count matrix such as
:meth:`docnmf.text.vectorize.DocumentVectorizer.count` returns), not tf-idf:
they are likelihood models of word occurrences, and their likelihoods are
only meaningful for counts. A document's cluster is its most probable topic.
"""

from __future__ import annotations

import logging

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.decomposition import LatentDirichletAllocation
from sklearn.utils.validation import check_non_negative, validate_data

from ..factor._losses import has_converged
from .._estimator import (DocumentClusterer, best_restart, check_fit_input,
                          check_n_clusters, check_numbers, check_positive_ints,
                          fit_restarts, memberships_from, store_params, warn_unconverged)
from .._rng import as_generator
from ._common import int_seed

__all__ = ["PLSIClustering", "LDAClustering", "plsi_em"]

logger = logging.getLogger(__name__)

#: Floor for P(w|d) inside the logarithm and the ratio n(d,w) / P(w|d).
_TINY = 1e-300


def plsi_em(X: sp.csr_matrix, theta: np.ndarray, phi: np.ndarray, *, max_iter: int = 200,
            tol: float = 1e-6, beta: float = 1.0):
    """EM for PLSI in the asymmetric form ``P(w|d) = sum_z P(z|d) P(w|z)``.

    E-step: ``P(z|d,w) ∝ (P(z|d) P(w|z))^beta`` for every ``(d, w)`` with
    ``n(d,w) > 0``. M-step: ``P(w|z) ∝ sum_d n(d,w) P(z|d,w)`` and
    ``P(z|d) ∝ sum_w n(d,w) P(z|d,w)``. With ``beta = 1`` this is plain EM
    and the log-likelihood ``sum n(d,w) log P(w|d)`` never decreases; it is
    computed without the ``nnz x k`` posterior array, as
    ``P(z|d) <- P(z|d) * (R P(w|z)^T)`` with ``R = n(d,w) / P(w|d)`` on the
    non-zeros (the same update written as a ratio). ``beta < 1`` is
    Hofmann's tempered E-step (fixed temperature here), which trades the
    monotone likelihood for less over-fitting.

    Parameters
    ----------
    X : sparse matrix of shape (n_docs, n_terms)
        Term counts.
    theta : ndarray of shape (n_docs, k)
        Starting ``P(z|d)``, rows summing to one.
    phi : ndarray of shape (k, n_terms)
        Starting ``P(w|z)``, rows summing to one.
    max_iter : int
    tol : float
        Stop when the log-likelihood rises by less than ``tol`` times its
        magnitude.
    beta : float
        Inverse temperature of the E-step, in (0, 1].

    Returns
    -------
    theta, phi : ndarray
    log_likelihoods : ndarray
        ``log_likelihoods[0]`` at the start, then after each iteration.
    n_iter : int
    converged : bool

    References
    ----------
    Hofmann, Unsupervised learning by probabilistic latent semantic
    analysis, Machine Learning 42, 2001, Section 3 (EM, eqs. 5-6; tempered
    EM, Section 3.3).
    """
    X = sp.csr_matrix(X, dtype=np.float64)
    rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
    cols = X.indices
    theta, phi = theta.copy(), phi.copy()

    def likelihood(th, ph):
        p = np.einsum("ij,ij->i", th[rows], ph.T[cols])
        return float(X.data @ np.log(np.maximum(p, _TINY))), p

    ll, p = likelihood(theta, phi)
    history = [ll]
    converged, n_iter = False, 0
    for n_iter in range(1, max_iter + 1):
        if beta == 1.0:
            ratio = sp.csr_matrix((X.data / np.maximum(p, _TINY), X.indices, X.indptr),
                                  shape=X.shape)
            new_theta = theta * np.asarray(ratio @ phi.T)
            new_phi = phi * np.asarray(ratio.T @ theta).T
        else:
            post = (theta[rows] * phi.T[cols]) ** beta
            post /= np.maximum(post.sum(axis=1, keepdims=True), _TINY)
            post *= X.data[:, None]
            new_theta = _sum_by(rows, post, X.shape[0])
            new_phi = _sum_by(cols, post, X.shape[1]).T
        theta = _normalise_rows(new_theta)
        phi = _normalise_rows(new_phi)
        ll, p = likelihood(theta, phi)
        history.append(ll)
        # the objective is the negative log-likelihood
        if has_converged(-history[-2], -history[-1], tol, stop_on_rise=False):
            converged = True
            break
    return theta, phi, np.asarray(history), n_iter, converged


def _sum_by(index: np.ndarray, values: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros((n, values.shape[1]))
    for z in range(values.shape[1]):
        out[:, z] = np.bincount(index, weights=values[:, z], minlength=n)
    return out


def _normalise_rows(A: np.ndarray) -> np.ndarray:
    """Rows scaled to sum to one; an all-zero row becomes uniform."""
    return memberships_from(A)


class _TopicModel(DocumentClusterer):
    """What the topic-model estimators share: keywords from each topic, count input."""

    def _check_params(self, n_docs: int) -> None:
        check_n_clusters(self.n_clusters, n_docs)
        check_positive_ints(self, "n_init", "max_iter")

    def _counts(self, X):
        """``X`` checked as non-negative counts, with the parameters; and ``n_clusters``."""
        X = validate_data(self, X, accept_sparse="csr", dtype=np.float64)
        check_non_negative(X, f"{type(self).__name__} (input X)")
        X = check_fit_input(self, X)
        self._check_params(X.shape[0])
        return X, int(self.n_clusters)


class PLSIClustering(_TopicModel, ClusterMixin, BaseEstimator):
    """Probabilistic latent semantic indexing (Hofmann 1999) fitted by EM; cluster = argmax P(z|d).

    Takes raw term counts (documents as rows), not tf-idf. One topic per
    cluster, as in Wang et al.'s comparison.

    Parameters
    ----------
    n_clusters : int
    n_init : int
        Random restarts; the highest log-likelihood is kept.
    max_iter : int
    tol : float
        Relative log-likelihood change that stops EM.
    beta : float
        Inverse temperature of the E-step (1: plain EM; < 1: tempered EM
        with a fixed temperature).
    random_state : None, int or numpy Generator
    verbose : int

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
        ``P(z|d)``.
    components_ : ndarray of shape (n_clusters, n_terms)
        ``P(w|z)``.
    log_likelihood_history_ : ndarray
        Log-likelihood at the start and after each EM iteration (kept restart).
    loss_history_ : ndarray
        Its negative, which never increases for ``beta = 1``.
    objective_ : float
        Final negative log-likelihood.
    restart_objectives_ : ndarray of shape (n_init,)
    n_iter_ : int
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Hofmann, Probabilistic latent semantic indexing, SIGIR 1999; and
    Machine Learning 42, 2001.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[5, 3, 0, 0], [4, 4, 1, 0], [0, 1, 4, 5], [0, 0, 3, 6]])
    >>> model = PLSIClustering(2, random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    """

    def __init__(self, n_clusters: int = 8, *, n_init: int = 10, max_iter: int = 200,
                 tol: float = 1e-6, beta: float = 1.0, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        super()._check_params(n_docs)
        check_numbers(self, "tol", nonnegative=False)   # < 0: every iteration

    def fit(self, X, y=None):
        """Fit on raw counts ``X`` of shape (n_docs, n_terms), dense or sparse."""
        X, k = self._counts(X)
        check_numbers(self, "beta", nonnegative=False)   # its range is told below
        if not 0.0 < float(self.beta) <= 1.0:
            raise ValueError(f"beta must be in (0, 1], got {self.beta!r}")
        X = sp.csr_matrix(X)
        rng = as_generator(self.random_state)

        def em(child):
            theta = _normalise_rows(child.random((X.shape[0], k)) + 0.1)
            phi = _normalise_rows(child.random((k, X.shape[1])) + 0.1)
            return plsi_em(X, theta, phi, max_iter=int(self.max_iter), tol=float(self.tol),
                           beta=float(self.beta))

        # the objective is the negative log-likelihood
        best, objectives = best_restart(fit_restarts(em, rng, int(self.n_init)),
                                        key=lambda result: -result[2][-1], name="PLSI",
                                        total=int(self.n_init), verbose=self.verbose)
        theta, phi, history, n_iter, converged = best
        if not converged:
            warn_unconverged("PLSI", self.tol, self.max_iter)
        self.memberships_ = theta
        self.labels_ = np.argmax(theta, axis=1).astype(np.int64)
        self.components_ = phi
        self.log_likelihood_history_ = history
        self.loss_history_ = -history
        self.objective_ = float(-history[-1])
        self.restart_objectives_ = objectives
        self.n_iter_ = int(n_iter)
        return self



class LDAClustering(_TopicModel, ClusterMixin, BaseEstimator):
    """Latent Dirichlet allocation (scikit-learn's variational Bayes); cluster = argmax of theta_d.

    Takes raw term counts (documents as rows), not tf-idf. One topic per
    cluster. The document-topic distribution is scikit-learn's
    ``transform`` output (the variational posterior mean).

    Parameters
    ----------
    n_clusters : int
    doc_topic_prior, topic_word_prior : float, optional
        Dirichlet priors (scikit-learn's default ``1 / n_clusters``).
    learning_method : {"batch", "online"}
    max_iter : int
        Passes over the data.
    n_init : int
        Restarts; the highest variational bound (``score``) is kept. Each
        restart is a full variational fit, hence the default of 1.
    random_state : None, int or numpy Generator
    verbose : int

    Attributes
    ----------
    labels_ : ndarray of shape (n_docs,)
    memberships_ : ndarray of shape (n_docs, n_clusters)
    components_ : ndarray of shape (n_clusters, n_terms)
        Topic-word distributions (scikit-learn's pseudo-counts normalised).
    objective_ : float
        Negative approximate log-likelihood bound of the kept restart.
    restart_objectives_ : ndarray of shape (n_init,)
    n_iter_ : int
    lda_ : LatentDirichletAllocation
        The kept fitted model.
    n_features_in_ : int
        Number of columns of ``X`` seen in ``fit``.
    scale_exponent_ : int
        ``X`` was fitted as ``X * 2**scale_exponent_``: 0 unless its largest entry lies outside
        :data:`~docnmf._estimator.FIT_RANGE` (:func:`~docnmf._estimator.check_fit_input`);
        objectives and factors are then those of the scaled ``X``.

    References
    ----------
    Blei, Ng & Jordan, Latent Dirichlet allocation, JMLR 3, 2003; Hoffman,
    Blei & Bach, Online learning for LDA, NIPS 2010 (scikit-learn's solver).

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[5, 3, 0, 0], [4, 4, 1, 0], [0, 1, 4, 5], [0, 0, 3, 6]])
    >>> model = LDAClustering(2, random_state=0).fit(X)
    >>> bool(model.labels_[0] == model.labels_[1] != model.labels_[2] == model.labels_[3])
    True
    """

    def __init__(self, n_clusters: int = 8, *, doc_topic_prior: float | None = None,
                 topic_word_prior: float | None = None, learning_method: str = "batch",
                 max_iter: int = 50, n_init: int = 1, random_state=None, verbose: int = 0):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        super()._check_params(n_docs)
        for name in ("doc_topic_prior", "topic_word_prior"):
            # scikit-learn takes 0, where every bound is NaN (a Dirichlet's parameters are
            # positive); the rest of its range it checks itself
            value = getattr(self, name)
            if isinstance(value, (int, float, np.integer, np.floating)) and value == 0:
                raise ValueError(f"{name} must be a positive number (or None), got {value!r}")

    def _scale_free(self) -> bool:
        # the Dirichlet priors weigh against the counts, so counts times c are another corpus
        return False

    def fit(self, X, y=None):
        """Fit on raw counts ``X`` of shape (n_docs, n_terms), dense or sparse."""
        X, k = self._counts(X)
        rng = as_generator(self.random_state)

        def variational(child):
            lda = LatentDirichletAllocation(
                n_components=k, doc_topic_prior=self.doc_topic_prior,
                topic_word_prior=self.topic_word_prior, learning_method=self.learning_method,
                max_iter=int(self.max_iter), random_state=int_seed(child))
            theta = lda.fit_transform(X)
            return lda, theta, -float(lda.score(X))   # the objective: the negative bound

        best, objectives = best_restart(fit_restarts(variational, rng, int(self.n_init)),
                                        key=lambda run: run[2], name="LDA",
                                        total=int(self.n_init), verbose=self.verbose)
        lda, theta, objective = best
        self.lda_ = lda
        self.memberships_ = memberships_from(theta)
        self.labels_ = np.argmax(theta, axis=1).astype(np.int64)
        self.components_ = memberships_from(lda.components_)
        self.objective_ = float(objective)
        self.restart_objectives_ = objectives
        self.n_iter_ = int(lda.n_iter_)
        return self

