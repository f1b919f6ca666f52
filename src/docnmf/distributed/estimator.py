"""NMF clustering of a matrix held on a Dask cluster, as :class:`~docnmf.cluster.NMFClustering`."""

from __future__ import annotations

import logging
import time

import dask.array as da
import numpy as np
from distributed import Client, futures_of
from sklearn.utils.validation import check_is_fitted

from .._estimator import (_scaled, best_restart, fit_scale_exponent, memberships_from,
                          store_params, warn_empty_documents)
from .._rng import as_generator, child_generators
from ..cluster.nmf import DETERMINISTIC_INITS, NMFClustering, _dtype_name, _scale_rows
from ._rows import (LOST, DistributedFitError, RowPartitions, SharesClient, Unrecoverable,
                    add_tree, check_scheduler, gather, get_client, lost_work, refuse_non_finite,
                    wait_for)
from .init import dask_starts
from .solvers import DASK_SOLVERS

__all__ = ["DaskNMFClustering"]

logger = logging.getLogger(__name__)


def _column_sums(X_p) -> np.ndarray:
    return np.asarray(X_p.sum(axis=0)).ravel()


def _ncw_row_weights(X_p, column_sums: np.ndarray) -> np.ndarray:
    """``D^{-1/2}`` of NCW for a block's rows: ``d = X_p (X^T 1)``, 0 for empty rows."""
    d = X_p @ column_sums
    return np.sqrt(np.divide(1.0, d, out=np.zeros_like(d), where=d > 0))


def _labels(V_p) -> np.ndarray:
    return np.argmax(V_p, axis=1)


class DaskNMFClustering(SharesClient, NMFClustering):
    """:class:`~docnmf.cluster.NMFClustering` on a Dask cluster, for corpora no machine can hold.

    ``fit`` takes a Dask array of ``scipy.sparse`` row blocks (what
    :class:`~docnmf.distributed.DaskVectorizer` returns), or any matrix
    NMFClustering takes, which is then split into row blocks. The factors are
    fitted by :mod:`docnmf.distributed.solvers`: the document factor stays in
    blocks on the workers, the term factor (terms x k) is broadcast each
    round. All restarts run side by side, sharing every pass over the data.
    From the same start the fit is NMFClustering's, to rounding.

    Parameters
    ----------
    n_clusters, weighting, n_init, max_iter, tol, solver, init, random_state, verbose :
        As NMFClustering (``dtype`` is float64 only, ``labels`` the argmax only:
        the other rules cluster the rows of ``V`` in memory).
    client : distributed.Client, optional
        Default: the current client.
    retries : int
        Fits started again from the start when a worker dies (see :meth:`fit`).

    Attributes
    ----------
    components_ : ndarray of shape (n_clusters, n_terms)
        In memory, as NMFClustering's.
    embedding_, memberships_ : dask.array of shape (n_docs, n_clusters)
    labels_ : dask.array of shape (n_docs,)
        Persisted on the cluster, in ``X``'s row blocks; ``.compute()`` brings
        them to the client.
    loss_history_, objective_, restart_objectives_, n_iter_ :
        As NMFClustering's.
    iteration_times_ : ndarray
        Seconds per round of the restarts run side by side.
    iteration_restarts_ : ndarray
        How many restarts were still running in each round.
    init_time_ : float
        Seconds taken to make the starts.
    n_features_in_, scale_exponent_ :
        As NMFClustering's.
    ncw_column_sums_ : ndarray of shape (n_terms,)
        Only with ``weighting="ncw"``, as NMFClustering's.
    """

    def __init__(self, n_clusters: int = 8, *, weighting: str = "none", n_init: int = 10,
                 max_iter: int = 500, tol: float = 1e-5, solver: str = "hals",
                 init: str = "nndsvda", dtype: str = "float64", labels: str = "argmax",
                 random_state=None, verbose: int = 0, client: Client | None = None,
                 retries: int = 2):
        store_params(self, locals())

    def _check_params(self, n_docs: int) -> None:
        super()._check_params(n_docs)
        if _dtype_name(self.dtype) != "float64":
            raise ValueError("the Dask solvers run in float64 only")
        if self.labels != "argmax":
            raise ValueError(f"labels={self.labels!r} clusters the rows of V in memory; on a "
                             "Dask cluster the labels are the argmax of each row")

    def fit(self, X, y=None):
        """Fit on ``X``; when a worker dies the fit starts again, at most ``retries`` times.

        The factors live on the workers only, so a lost block of ``V`` cannot
        be rebuilt on its own; the fit is deterministic, so fitting again from
        the start (``X`` is recomputed from its lineage where it was lost)
        gives the result an undisturbed fit gives.
        """
        retries = self.retries
        if isinstance(retries, bool) or not isinstance(retries, (int, np.integer)) or retries < 0:
            # range(retries + 1) is empty for -1: the fit returned None, fitting nothing
            raise ValueError(f"retries must be a whole number >= 0, got {retries!r}")
        client = get_client(self.client)
        for attempt in range(int(retries) + 1):
            try:
                return self._fit(X, client)
            except Unrecoverable:
                raise
            except (DistributedFitError, *LOST) as exc:
                check_scheduler(client, exc)     # no retry without a scheduler
                if attempt == self.retries:
                    raise exc if isinstance(exc, DistributedFitError) else \
                        lost_work("the fit", exc) from exc
                logger.warning("a worker was lost (%s); fitting again from the start",
                               type(exc).__name__)

    def _fit(self, X, client: Client):
        X = RowPartitions.from_array(X, client)
        refuse_non_finite(X, type(self).__name__)
        # as in memory (their labels come from ties): DaskNMFClustering gave 3 empty texts of 7
        # cluster 0 without a word
        warn_empty_documents(type(self).__name__, X.empty, X.shape[0])
        if X.min < 0:
            raise ValueError(f"Negative values in data passed to {type(self).__name__} "
                             "(input X)")
        if X.sum == 0:       # as in memory: no factorization of zeros, no clusters from them
            raise ValueError(f"{type(self).__name__}: X is all zero; there is nothing to cluster")
        # as in memory: entries that overflow or underflow the products are scaled by a power
        # of two (exact), the labels being those of X
        self.scale_exponent_ = fit_scale_exponent(self, X.top)
        if self.scale_exponent_:
            X = RowPartitions(client, X.map(_scaled, exponent=self.scale_exponent_), X.rows,
                              X.n_cols)
        self._check_params(X.shape[0])
        self.n_features_in_ = X.shape[1]
        weights = self._row_weights(X)
        Xw = X if weights is None else RowPartitions(
            client, X.map(_scale_rows, weights), X.rows, X.n_cols)
        rng = as_generator(self.random_state)
        n_init = 1 if self.init in DETERMINISTIC_INITS else int(self.n_init)
        t0 = time.perf_counter()
        if self.verbose:        # (a minute without a word on 94,000 documents)
            logger.info("the start: %s over %d block%s", "NNDSVD of a randomized SVD"
                        if self.init.startswith("nndsvd") else "random draws", len(X.blocks),
                        "s" * (len(X.blocks) != 1))
        U0, V0 = dask_starts(Xw, self.n_clusters, self.init, child_generators(rng, n_init))
        self.init_time_ = time.perf_counter() - t0
        if self.verbose:
            logger.info("the start made (%.1fs)", self.init_time_)
        times, running, clock = [], [], [time.perf_counter()]

        def progress(it, losses):
            now = time.perf_counter()
            times.append(now - clock[0])
            running.append(len(losses))
            clock[0] = now
            if self.verbose:
                logger.info("iteration %d: objective %s (%.2fs)", it,
                            " ".join(f"{x:.6g}" for x in losses), times[-1])

        options = dict(max_iter=int(self.max_iter), tol=float(self.tol), callback=progress)
        if self.solver == "hals":
            del Xw   # HALS weighs its products instead, as in memory
            results = DASK_SOLVERS["hals"](X, U0, V0, row_weights=weights, **options)
        else:
            results = DASK_SOLVERS["mu"](Xw, U0, V0, **options)
        # the restarts run side by side: none has a time of its own
        best, objectives = best_restart(results, name="NMF", total=n_init, verbose=self.verbose,
                                        tol=self.tol, max_iter=self.max_iter, timed=False)
        del results
        self.iteration_times_ = np.asarray(times)
        self.iteration_restarts_ = np.asarray(running)
        self.components_ = best.U.T.copy()
        k = self.n_clusters
        self.embedding_ = best.V
        self.memberships_ = best.V.map_blocks(memberships_from, dtype=np.float64,
                                              chunks=(best.V.chunks[0], (k,)))
        self.labels_ = best.V.map_blocks(_labels, dtype=np.intp, drop_axis=1)
        self.embedding_, self.memberships_, self.labels_ = client.persist(
            [self.embedding_, self.memberships_, self.labels_])
        # all there, or the fit starts again: the blocks of V have no lineage to be rebuilt from
        held = futures_of([self.embedding_, self.memberships_, self.labels_])
        wait_for(client, held)
        if any(f.status != "finished" for f in held):
            raise DistributedFitError("the fit's results were lost with a worker")
        self.loss_history_ = best.losses
        self.objective_ = float(best.losses[-1])
        self.restart_objectives_ = objectives
        self.n_iter_ = best.n_iter
        return self

    def _row_weights(self, X: RowPartitions):
        """``None``, or NCW's ``D^{-1/2}`` as one future per block of ``X``."""
        if self.weighting == "none":
            self.__dict__.pop("ncw_column_sums_", None)     # an earlier NCW fit's
            return None
        client = X.client
        self.ncw_column_sums_ = gather(
            client, add_tree(client, X.map(_column_sums)), "NCW's column sums")
        return X.map(_ncw_row_weights, column_sums=self.ncw_column_sums_)

    def _in_memory(self) -> NMFClustering:
        """An NMFClustering holding this fit's topics: what places new documents, block by block."""
        local = NMFClustering(**{k: v for k, v in self.get_params().items()
                                 if k not in ("client", "retries")})
        for name in ("components_", "n_features_in_", "ncw_column_sums_", "scale_exponent_"):
            if hasattr(self, name):
                setattr(local, name, getattr(self, name))
        return local

    def transform(self, X):
        """Soft memberships of new documents (NMFClustering's ``transform``), block by block.

        A Dask array in, a Dask array out (one block per row block of ``X``);
        an in-memory matrix gives an in-memory answer. Each document's answer
        depends on it alone, so it is the in-memory one.
        """
        check_is_fitted(self, "components_")     # now, not when the blocks are computed
        local = self._in_memory()
        if not isinstance(X, da.Array):
            return local.transform(X)
        if len(X.chunks[1]) != 1:
            X = X.rechunk({1: X.shape[1]})
        return X.map_blocks(local.transform, dtype=np.float64,
                            chunks=(X.chunks[0], (self.n_clusters,)))

    def predict(self, X):
        """Cluster of each new document: the argmax of :meth:`transform`."""
        memberships = self.transform(X)
        if isinstance(memberships, da.Array):
            return memberships.map_blocks(_labels, dtype=np.intp, drop_axis=1)
        return np.argmax(memberships, axis=1)

    def fit_predict(self, X, y=None, **fit_params):
        return self.fit(X, y, **fit_params).labels_

    def fit_transform(self, X, y=None, **fit_params):
        return self.fit(X, y, **fit_params).memberships_
