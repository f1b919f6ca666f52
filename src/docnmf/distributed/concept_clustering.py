"""CF clustering of a matrix held on a Dask cluster, as ``LCCFClustering(lam=0)`` (the ``cf`` method)."""

from __future__ import annotations

import warnings

import numpy as np
from distributed import Client
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.exceptions import ConvergenceWarning

from .._estimator import _scaled as _times_power_of_two
from .._estimator import best_restart, check_n_clusters, check_numbers, check_positive_ints, \
    fit_scale_exponent, memberships_from, store_params, warn_empty_documents, warn_unconverged
from .._rng import as_generator, child_generators
from ._rows import (RowPartitions, SharesClient, add_tree, gather, get_client,
                    refuse_non_finite)
from .concept import _concepts, _kernel_rows, fit_cf_dask
from .estimator import _column_sums, _labels
from .init import _advanceable, _random_rows

__all__ = ["DaskCFClustering"]


def _degrees_scale(X_p, column_sums: np.ndarray) -> np.ndarray:
    """NCW's ``Gamma^{1/2}`` for a block's rows: ``1 / sqrt(d)``, ``d = X_p (X^T e)``, 0 for d = 0."""
    d = X_p @ column_sums
    return np.divide(1.0, np.sqrt(d), out=np.zeros_like(d), where=d > 0)


def _square_sums(V_p) -> np.ndarray:
    return np.square(V_p).sum(axis=1)          # (starts, k)


def _scaled(W_p, V_p, norms):
    """random_init_concepts' starts as LCCFClustering takes them: V with unit columns."""
    return W_p * norms[:, None, :], V_p / norms[:, None, :]


def _pick(pair, i: int):
    return pair[i]


def _one(A_p) -> np.ndarray:
    return np.asarray(A_p)[None]


def _finish_rows(X_p, W_p, g_p, Z):
    """A block's rows of ``K W`` and its part of ``diag(W^T K W)`` (the norms of Section 3.2)."""
    KW = _kernel_rows(X_p, g_p, Z, 1)[0]
    return np.einsum("jk,jk->k", W_p, KW)


def _rescaled(V_p, norms):
    return V_p * norms


class DaskCFClustering(SharesClient, ClusterMixin, BaseEstimator):
    """Concept factorization (``LCCFClustering(lam=0)``, linear kernel) on a Dask cluster.

    Both factors ``W`` and ``V`` (documents x k) stay in ``X``'s row blocks on
    the workers (:func:`~docnmf.distributed.fit_cf_dask`). The fit is
    LCCFClustering's with ``lam=0``, ``kernel="linear"``, ``labels="argmax"``,
    ``init="random"`` (in memory the default starts from NMF's solution instead):
    the same random starts (each drawn block by block from its generator),
    ``n_init`` of them run side by side for ``init_rounds`` rounds and the best
    continued, the same rescaling; equal to rounding (tested to 1e-8).

    New documents are not placed (no ``transform``): LCCFClustering's
    placement (eqs. 29-30) keeps the fitted documents' factors in memory.

    Parameters
    ----------
    n_clusters, weighting, n_init, init_rounds, max_iter, tol, random_state, verbose :
        As LCCFClustering.
    client : distributed.Client, optional
        Default: the current client.

    Attributes
    ----------
    labels_ : dask.array of shape (n_docs,)
    embedding_, memberships_ : dask.array of shape (n_docs, n_clusters)
    components_ : ndarray of shape (n_clusters, n_terms)
        The concept vectors ``X^T W`` (eq. 4), in memory.
    cluster_centers_ : ndarray of shape (n_clusters, n_clusters)
        The identity, as LCCFClustering's for argmax labels.
    loss_history_, objective_, restart_objectives_, n_iter_, n_features_in_, scale_exponent_ :
        As LCCFClustering's.
    """

    def __init__(self, n_clusters: int = 8, *, weighting: str = "none", n_init: int = 10,
                 init_rounds: int | None = 30, max_iter: int = 1000, tol: float = 1e-5,
                 random_state=None, verbose: int = 0, client: Client | None = None):
        store_params(self, locals())

    def fit(self, X, y=None):
        client = get_client(self.client)
        X = RowPartitions.from_array(X, client)
        refuse_non_finite(X, type(self).__name__)
        # as in memory (their labels come from ties): DaskNMFClustering gave 3 empty texts of 7
        # cluster 0 without a word
        warn_empty_documents(type(self).__name__, X.empty, X.shape[0])
        if X.min < 0:
            raise ValueError(f"Negative values in data passed to {type(self).__name__} "
                             "(input X)")
        if X.sum == 0:       # as in memory: no factorization of zeros
            raise ValueError(f"{type(self).__name__}: X is all zero; there is nothing to cluster")
        # as in memory (CF is scale-free): entries that overflow or underflow the products are
        # scaled by a power of two, exactly
        self.scale_exponent_ = fit_scale_exponent(self, X.top)
        if self.scale_exponent_:
            X = RowPartitions(client, X.map(_times_power_of_two, exponent=self.scale_exponent_),
                              X.rows, X.n_cols)
        check_n_clusters(self.n_clusters, X.shape[0])
        check_positive_ints(self, "n_init", "max_iter")
        check_numbers(self, "tol", nonnegative=False)   # as LCCFClustering: < 0, every iteration
        if self.weighting not in ("none", "ncw"):
            raise ValueError(f"weighting must be 'none' or 'ncw', got {self.weighting!r}")
        self.n_features_in_ = X.shape[1]
        g = None
        if self.weighting == "ncw":
            sums = gather(client, add_tree(client, X.map(_column_sums)), "NCW's column sums")
            g = X.map(_degrees_scale, column_sums=sums)
        rng = as_generator(self.random_state)
        W0, V0 = self._starts(X, child_generators(rng, int(self.n_init)))
        best, losses = self._factorize(X, W0, V0, g)
        self._finish(X, best, g, losses)
        return self

    def _scale_free(self) -> bool:
        """CF's labels do not depend on the scale of X (see ``check_fit_input``)."""
        return True

    def _starts(self, X: RowPartitions, rngs):
        """random_init_concepts of each generator (W's draws, then V's), block by block, with
        V's columns scaled to unit length and W's inversely (as LCCFClustering starts)."""
        client, k = X.client, int(self.n_clusters)
        n = X.shape[0]
        states = [_advanceable(rng) for rng in rngs]
        ones = [1.0] * len(states)
        o = X.offsets
        W0 = [client.submit(_random_rows, states, ones, int(a) * k, int(b - a), k, pure=False)
              for a, b in zip(o[:-1], o[1:])]
        V0 = [client.submit(_random_rows, states, ones, (n + int(a)) * k, int(b - a), k,
                            pure=False) for a, b in zip(o[:-1], o[1:])]
        norms = np.sqrt(gather(client, add_tree(client, [client.submit(_square_sums, v,
                                                                       pure=False)
                                                         for v in V0]), "CF's starts"))
        pairs = [client.submit(_scaled, w, v, norms, pure=False) for w, v in zip(W0, V0)]
        return ([client.submit(_pick, p, 0, pure=False) for p in pairs],
                [client.submit(_pick, p, 1, pure=False) for p in pairs])

    def _factorize(self, X, W0, V0, g):
        """LCCFClustering._factorize with lam = 0: all starts for ``init_rounds``, the best on."""
        max_iter, tol, n_init = int(self.max_iter), float(self.tol), int(self.n_init)
        select = self.init_rounds is not None and n_init > 1 and int(self.init_rounds) < max_iter
        rounds = int(self.init_rounds) if select else max_iter
        with warnings.catch_warnings():
            if select:
                warnings.simplefilter("ignore", ConvergenceWarning)
            results = fit_cf_dask(X, W0, V0, g=g, max_iter=rounds, tol=0.0 if select else tol,
                                  normalize="v")
            best, losses = best_restart(results, name="LCCF start" if select else "LCCF",
                                        total=n_init, verbose=self.verbose, tol=tol,
                                        max_iter=rounds, timed=False)
        if select:
            client = X.client

            def blocks(A):   # the best start's rows, as a start of its own
                return [client.submit(_one, f, pure=False)
                        for f in client.compute(list(A.to_delayed().ravel()))]
            [rest] = fit_cf_dask(X, blocks(best.W), blocks(best.V), g=g,
                                 max_iter=max_iter - rounds, tol=tol, normalize="v")
            if not rest.converged:
                warn_unconverged("LCCF", tol, max_iter)
            best = rest._replace(n_iter=rounds + rest.n_iter,
                                 losses=np.concatenate([best.losses, rest.losses[1:]]))
        return best, losses

    def _finish(self, X: RowPartitions, best, g, losses) -> None:
        """Section 3.2's scaling (``w^T K w = 1``), argmax labels and the concept vectors."""
        client = X.client
        weights = g if g is not None else [None] * len(X.blocks)
        W = client.compute(list(best.W.to_delayed().ravel()))
        V = client.compute(list(best.V.to_delayed().ravel()))
        Z = gather(client, add_tree(client, [client.submit(_concepts, x, gp, [w], pure=False)
                                             for x, gp, w in zip(X.blocks, weights, W)]),
                   "CF's concepts")
        sq = sum(gather(client, [client.submit(_finish_rows, x, w, gp, Z, pure=False)
                                 for x, w, gp in zip(X.blocks, W, weights)], "CF's scaling"))
        norms = np.sqrt(np.where(sq > 0, sq, 1.0))
        V = best.V.map_blocks(_rescaled, norms, dtype=np.float64)
        k = int(self.n_clusters)
        self.embedding_ = V
        self.memberships_ = V.map_blocks(memberships_from, dtype=np.float64,
                                         chunks=(V.chunks[0], (k,)))
        self.labels_ = V.map_blocks(_labels, dtype=np.intp, drop_axis=1)
        self.embedding_, self.memberships_, self.labels_ = client.persist(
            [self.embedding_, self.memberships_, self.labels_])
        # eq. 4's concept vectors X^T (g W) of the rescaled W, as LCCFClustering's components_
        self.components_ = (Z / norms).T.copy()
        self.cluster_centers_ = np.eye(k)
        self.loss_history_ = best.losses
        self.objective_ = float(best.losses[-1])
        self.restart_objectives_ = losses
        self.n_iter_ = best.n_iter
