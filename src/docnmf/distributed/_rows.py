"""A documents x terms matrix held on a Dask cluster as row blocks, and the reductions over them.

The solvers work on futures, one per row block, so that each block's part
of the document factor stays on the worker that holds the block: a task that
takes the block's future and the factor's future runs where both are.
Partial sums come back through a tree of additions on the workers, so the
client receives one terms x k matrix per reduction, not one per block.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import operator
import threading
import time
from typing import Any, Callable, Sequence

import dask
import dask.array as da
import numpy as np
import scipy.sparse as sp
from distributed import Client, Future, KilledWorker, default_client, futures_of
from distributed.comm.core import CommClosedError

__all__ = ["DistributedFitError", "LOST", "NoWorkersLeft", "RowPartitions", "SchedulerLost",
           "Unrecoverable", "add_tree", "check_scheduler", "clone_sharing_client", "gather",
           "get_client", "lost_work", "stack_rows", "wait_for"]


#: Arrays larger than this are broadcast to the workers before tasks use them.
BROADCAST_BYTES = 1 << 20


class DistributedFitError(RuntimeError):
    """Work on the cluster was lost (a worker died and its results could not be recomputed)."""


class Unrecoverable(DistributedFitError):
    """Work on the cluster that no retry can do."""


class SchedulerLost(Unrecoverable):
    """The client lost its scheduler: every result is gone, and no retry can succeed."""


class NoWorkersLeft(Unrecoverable):
    """The scheduler has had no worker for ``NO_WORKERS_S`` seconds: nothing can run."""


#: Seconds between the checks, while results are awaited, that the client still has its
#: scheduler: without one, a client whose scheduler died waits for ever.
SCHEDULER_CHECK_S = 2.0
#: Seconds without any worker after which the results awaited are given up (a nanny restarts
#: a killed worker in a few; workers killed without one never come back, and the wait was
#: for ever).
NO_WORKERS_S = 60.0


#: Seconds a client is given to notice that a broken connection was its scheduler's.
SETTLE_S = 2.0


def check_scheduler(client: Client, exc: BaseException | None = None) -> None:
    """Raise :class:`SchedulerLost` when ``client`` has closed (it could not reconnect), or is
    reconnecting: its scheduler went away, and Dask cancels every result it awaited. After a
    broken connection ``exc`` (CommClosedError) the client is given ``SETTLE_S`` seconds to
    say so: the error comes before the client's status does, and was taken for a lost
    worker (a fit started again, then failed)."""
    deadline = time.monotonic() + (SETTLE_S if isinstance(exc, CommClosedError) else 0.0)
    while client.status == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    if client.status in ("connecting", "closing", "closed", "failed"):
        raise SchedulerLost("the connection to the Dask scheduler was lost (it stopped, or "
                            "cannot be reached); nothing was written, run again")


def get_client(client: Client | None = None) -> Client:
    """``client``, or the client this process already has (``distributed.default_client``)."""
    if client is not None:
        if client.status in ("closing", "closed"):
            # its first use raised AttributeError: 'NoneType' object has no attribute 'ncores'
            raise ValueError("the Dask client is closed: pass an open one (client=), or start "
                             "one (distributed.Client(...))")
        return client
    try:
        return default_client()
    except ValueError:
        raise ValueError("no Dask client in this process: start one (distributed.Client(...)) "
                         "or pass client=; a process that scikit-learn or joblib starts for "
                         "n_jobs > 1 has none: use n_jobs=1, the Dask cluster runs each fit in "
                         "parallel already") from None


def refuse_sending_client(estimator) -> None:
    """A TypeError, when ``estimator`` is pickled (sent to another process, as scikit-learn's
    ``n_jobs > 1`` does) holding a client: a connection to a scheduler cannot be sent, and
    pickle's own error named neither the estimator nor a way out."""
    if getattr(estimator, "client", None) is not None:
        raise TypeError(f"{type(estimator).__name__} holds a Dask client, which cannot be sent to "
                        "another process (as n_jobs > 1 in scikit-learn or joblib does): use "
                        "n_jobs=1; the Dask cluster runs each fit in parallel already")


class SharesClient:
    """A Dask estimator's clones and copies (``clone``, ``copy.copy``, ``copy.deepcopy``) hold
    the same client; only pickling it, to send it to another process, is refused."""

    def __sklearn_clone__(self):
        return clone_sharing_client(self)

    def __getstate__(self):
        refuse_sending_client(self)
        return super().__getstate__()

    def __copy__(self):
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def __deepcopy__(self, memo):
        import copy

        new = type(self).__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update({key: value if key == "client" else copy.deepcopy(value, memo)
                             for key, value in self.__dict__.items()})
        return new


def clone_sharing_client(estimator):
    """scikit-learn's ``clone`` of ``estimator``, holding the same ``client``: a connection to
    a scheduler cannot be copied (GridSearchCV and cross_val_score clone what they fit)."""
    from sklearn.base import clone

    return type(estimator)(**{name: value if name == "client" else clone(value, safe=False)
                              for name, value in estimator.get_params(deep=False).items()})


#: What the client raises when a worker, and the data it held, is gone.
LOST = (KilledWorker, asyncio.CancelledError, concurrent.futures.CancelledError, CommClosedError)


def lost_work(what: str, exc: BaseException) -> DistributedFitError:
    return DistributedFitError(
        f"{what}: the cluster lost work it could not recompute ({type(exc).__name__}: "
        f"{str(exc)[:200]}); nothing was written, run again")


def wait_for(client: Client, futures) -> None:
    """Wait until ``futures`` are done (finished, failed or lost), checking every
    ``SCHEDULER_CHECK_S`` seconds that the client still has its scheduler and workers. (Each
    future is asked through its own client: ``distributed.wait`` looks for a default client,
    and a client not made the default, or closed, made it fail with "No clients found".)"""
    pending = futures_of(futures)
    watch, checked = _Watch(client), time.monotonic()
    while not all(future.done() for future in pending):
        time.sleep(_POLL_S)
        if time.monotonic() - checked >= SCHEDULER_CHECK_S:
            watch.check()
            checked = time.monotonic()


#: Seconds between two looks at the futures awaited.
_POLL_S = 0.05


class _Watch:
    """The checks made while results are awaited: a :class:`SchedulerLost` once the client
    has lost its scheduler, a :class:`NoWorkersLeft` once the cluster has had no worker for
    ``NO_WORKERS_S`` seconds (without either check a wait never ends)."""

    def __init__(self, client: Client):
        self.client, self.alone_since = client, None

    def check(self) -> None:
        check_scheduler(self.client)
        if self.client.scheduler_info().get("workers"):
            self.alone_since = None
            return
        self.alone_since = self.alone_since or time.monotonic()
        if time.monotonic() - self.alone_since >= NO_WORKERS_S:
            raise NoWorkersLeft(f"the Dask cluster has had no worker for {NO_WORKERS_S:g} s "
                                "(they stopped, or were killed); nothing was written, start "
                                "workers and run again") from None


def _watched_gather(client: Client, futures):
    """``client.gather(futures)`` in a thread of its own, the :class:`_Watch` checks made every
    ``SCHEDULER_CHECK_S`` seconds meanwhile. (Waiting for every future before gathering, as
    :func:`wait_for` does, raised the workers' peak memory at 10^6 documents from 3.1 to
    4.8-6.0 GiB.)"""
    outcome: dict[str, Any] = {}

    def run():
        try:
            outcome["value"] = client.gather(futures)
        except BaseException as exc:  # noqa: BLE001 (handed to the caller's thread)
            outcome["error"] = exc

    thread = threading.Thread(target=run, name="docnmf-gather", daemon=True)
    thread.start()
    watch = _Watch(client)
    try:
        while True:
            thread.join(SCHEDULER_CHECK_S)
            if not thread.is_alive():
                break
            watch.check()
    except BaseException:
        # (Ctrl-C, no workers left): the thread would hold the futures, and the cluster go on
        # computing what nobody waits for
        if client.status == "running":
            with contextlib.suppress(Exception):
                client.cancel(futures_of(futures))
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def gather(client: Client, futures, what: str):
    """``client.gather(futures)``, a lost worker reported as one :class:`DistributedFitError`,
    a lost scheduler as :class:`SchedulerLost`; of several failed, the first in ``futures``'
    order."""
    try:
        try:
            return _watched_gather(client, futures)
        except Unrecoverable:
            raise
        except Exception as exc:
            # a closed client cancels what it awaited: say so, not that the work was lost
            check_scheduler(client, exc if isinstance(exc, CommClosedError) else None)
            # the first that failed in their order, not in the order they failed (a column
            # missing from every part was named in whichever part the workers read first)
            wait_for(client, futures)
            for future in futures if isinstance(futures, (list, tuple)) else [futures]:
                if future.status == "error":
                    future.result()
            raise
    except LOST as exc:
        check_scheduler(client, exc)
        raise lost_work(what, exc) from exc


def _add_items(a, b, add: Callable, index: int):
    return add(a[index], b[index])


def add_tree(client: Client, parts: Sequence[Future], add: Callable = operator.add,
             index: int | None = None) -> Future:
    """The sum of ``parts``, added pairwise on the workers (a binary tree), as one future.

    With ``index``, each part is a tuple and its ``index``-th item is added:
    a task's result can then be summed without a task to take the item out.
    """
    parts = list(parts)
    if not parts:
        raise ValueError("nothing to add")
    if index is not None:
        if len(parts) == 1:
            return client.submit(operator.getitem, parts[0], index, pure=False)
        paired = [client.submit(_add_items, a, b, add, index, pure=False)
                  for a, b in zip(parts[::2], parts[1::2])]
        if len(parts) % 2:
            paired.append(client.submit(operator.getitem, parts[-1], index, pure=False))
        parts = paired
    while len(parts) > 1:
        paired = [client.submit(add, a, b, pure=False) for a, b in zip(parts[::2], parts[1::2])]
        parts = paired + ([parts[-1]] if len(parts) % 2 else [])
    return parts[0]


def add_partials(a: dict, b: dict) -> dict:
    """Entry-wise sum of two dicts of partial sums (arrays or lists of arrays)."""
    out = {}
    for name, x in a.items():
        y = b[name]
        out[name] = [u + v for u, v in zip(x, y)] if isinstance(x, list) else x + y
    return out


def stack_rows(client: Client, blocks: Sequence[Future], rows: Sequence[int], n_cols: int,
               *, dtype=np.float64, sparse: bool = False) -> da.Array:
    """A Dask array whose row blocks are ``blocks`` (futures), ``rows[p]`` rows each."""
    meta = sp.csr_matrix((0, n_cols), dtype=dtype) if sparse else np.empty((0, n_cols), dtype)
    parts = [da.from_delayed(dask.delayed(f), shape=(n, n_cols), dtype=dtype, meta=meta)
             for f, n in zip(blocks, rows)]
    return da.concatenate(parts, axis=0) if len(parts) > 1 else parts[0]


def _shape(block) -> tuple[int, int]:
    return block.shape


def _as_csr(block) -> sp.csr_matrix:
    X = sp.csr_matrix(block, dtype=np.float64)
    X.sum_duplicates()
    return X


def _block_facts(X) -> tuple[float, float, int, float, float, int]:
    """Sum, squared norm, stored entries, smallest entry, largest absolute entry and rows of
    zeros (stored or not) of one row block."""
    return (float(X.sum()), float(np.square(X.data).sum()), int(X.nnz),
            float(X.data.min(initial=0.0)), float(np.abs(X.data).max(initial=0.0)),
            _rows_of_zeros(X))


def _rows_of_zeros(X: sp.csr_matrix) -> int:
    """Rows of ``X`` with no stored entry, or only stored zeros (counted from the entries
    only when some stored entry is a zero: no copy of the block otherwise)."""
    if X.data.all():
        return int(np.count_nonzero(np.diff(X.indptr) == 0))
    rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
    return X.shape[0] - np.unique(rows[X.data != 0]).size


def refuse_non_finite(X: RowPartitions, name: str) -> None:
    """A ValueError, as in memory, for a matrix with NaN or infinite entries (they came out as
    a rescaling warning about a largest entry of nan, then an error from deep in Dask)."""
    if not (np.isfinite(X.min) and np.isfinite(X.top)):
        raise ValueError(f"Input X contains NaN or infinity ({name}); replace those entries "
                         "before fitting")


class RowPartitions:
    """A matrix on the cluster as futures of CSR row blocks, in order.

    Parameters
    ----------
    client : distributed.Client
    blocks : list of Future
        Each resolves to a ``scipy.sparse.csr_matrix`` of ``rows[p]`` rows.
    rows : list of int
    n_cols : int
    """

    def __init__(self, client: Client, blocks: list[Future], rows: Sequence[int], n_cols: int):
        self.client = client
        self.blocks = list(blocks)
        self.rows = [int(n) for n in rows]
        self.n_cols = int(n_cols)
        facts = gather(client, [client.submit(_block_facts, b, pure=False) for b in self.blocks],
                       "reading the matrix")
        self.sum = float(sum(f[0] for f in facts))
        self.nnz = int(sum(f[2] for f in facts))
        self.min = min(f[3] for f in facts) if facts else 0.0
        self.top = max(f[4] for f in facts) if facts else 0.0
        #: documents without a stored entry (rows of a block are CSR)
        self.empty = int(sum(f[5] for f in facts))

    @property
    def shape(self) -> tuple[int, int]:
        return sum(self.rows), self.n_cols

    @property
    def offsets(self) -> np.ndarray:
        """First row of each block, and the number of rows at the end."""
        return np.concatenate(([0], np.cumsum(self.rows))).astype(np.int64)

    @classmethod
    def from_array(cls, X, client: Client | None = None) -> "RowPartitions":
        """From a Dask array of sparse (or dense) row blocks, persisted on the cluster first.

        An in-memory matrix is split into about as many blocks as the
        cluster has worker threads.
        """
        client = get_client(client)
        if not isinstance(X, da.Array):
            X = sp.csr_matrix(X)
            n_blocks = max(1, sum(client.nthreads().values()))
            step = max(1, -(-X.shape[0] // n_blocks))
            X = da.from_array(X, chunks=(step, X.shape[1]), asarray=False)
        if X.ndim != 2:
            raise ValueError(f"expected a 2-d documents x terms array, got {X.ndim} dimensions")
        if len(X.chunks[1]) != 1:
            X = X.rechunk({1: X.shape[1]})
        X = X.map_blocks(_as_csr, dtype=np.float64,
                         meta=sp.csr_matrix((0, X.shape[1]), dtype=np.float64))
        X = client.persist(X)
        by_key = {f.key: f for f in futures_of(X)}
        blocks = [by_key[row[0]] for row in X.__dask_keys__()]
        rows = X.chunks[0]
        if any(np.isnan(rows)):
            rows = [s[0] for s in gather(client, client.map(_shape, blocks), "reading shapes")]
        return cls(client, blocks, rows, X.shape[1])

    def map(self, func: Callable, *per_block: Sequence[Any], **shared) -> list[Future]:
        """``func(block_p, per_block[0][p], ..., **shared)`` for every block ``p``, as futures.

        A large array among ``shared`` is sent to every worker once (a
        broadcast), not once per task.
        """
        for name, value in shared.items():
            if isinstance(value, np.ndarray) and value.nbytes > BROADCAST_BYTES:
                [shared[name]] = self.client.scatter([value], hash=False)
        return [self.client.submit(func, block, *(args[p] for args in per_block), **shared,
                                   pure=False)
                for p, block in enumerate(self.blocks)]

    def to_dask(self) -> da.Array:
        return stack_rows(self.client, self.blocks, self.rows, self.n_cols, sparse=True)

    def release(self) -> None:
        for f in self.blocks:
            f.release()
