"""How every experiment runs its tasks, and how it derives their seeds.

:func:`run_tasks` computes ``work(context, task)`` for each task, in this
process or in worker processes, and yields the results as they finish; the
experiment appends each to its results file (so an interrupted run resumes).
Workers receive ``context`` (the prepared corpora and settings) once, at
start-up, not with every task, and each is pinned to one BLAS thread: the
processes already use the cores. :func:`derive_seed` turns the parts that
identify a run (seed, data set, method, run...) into its ``random_state``.

Workers never outlive the run: they ignore Ctrl-C (the parent handles it and
ends them), and on Linux each asks the kernel to kill it when its parent dies
(``PR_SET_PDEATHSIG``), so a ``kill -9`` of the parent leaves no orphans.
"""

from __future__ import annotations

import ctypes
import logging
import os
import queue
import signal
import sys
import zlib
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from typing import Any, Callable, Iterator, Sequence, TypeVar

import numpy as np

__all__ = ["derive_seed", "run_tasks"]

logger = logging.getLogger(__name__)

Task = TypeVar("Task")
Result = TypeVar("Result")


def derive_seed(*parts: int | str) -> int:
    """A 32-bit seed from the parts that identify a run; strings enter by their CRC-32.

    Independent of what else is run: the same parts give the same seed.

    Examples
    --------
    >>> derive_seed(0, "tdt2", "nmf", 3) == derive_seed(0, "tdt2", "nmf", 3)
    True
    >>> derive_seed(0, "tdt2", "nmf", 3) != derive_seed(0, "tdt2", "nmf-ncw", 3)
    True
    """
    words = [zlib.crc32(p.encode("utf-8")) if isinstance(p, str) else int(p) for p in parts]
    return int(np.random.SeedSequence(words).generate_state(1, dtype=np.uint32)[0])


#: The context of the tasks in a worker process (set once, at start-up).
_WORKER: dict[str, Any] = {}


#: prctl's option asking for a signal when the parent exits (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when ``parent`` ends (Linux; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request was made
        os._exit(1)


def _start_worker(context: Any, parent: int) -> None:
    # Ctrl-C reaches the whole process group: the parent stops the pool, so a worker cut
    # off in the middle of a queue operation cannot leave the others blocked on its lock.
    # Ignored first: one landing on the lines before printed the pool's "Exception in
    # initializer" traceback under the command's one line (once in 50 Ctrl-Cs, loaded machine)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from threadpoolctl import threadpool_limits

    _die_with_parent(parent)
    _WORKER.update(context=context, limits=threadpool_limits(limits=1))


def _run_in_worker(work: Callable[[Any, Task], Result], task: Task) -> Result:
    return work(_WORKER["context"], task)


def run_tasks(work: Callable[[Any, Task], Result], tasks: Sequence[Task], context: Any = None,
              *, jobs: int | None = 1, describe: Callable[[Task], str] = str,
              one_thread: bool = False) -> Iterator[tuple[Task, Result]]:
    """Yield ``(task, work(context, task))`` for every task, in the order they finish.

    Parameters
    ----------
    work : callable(context, task)
        A module-level function (worker processes find it by name).
    tasks : sequence
    context : any picklable object
        What every task needs (corpora, settings); sent to each worker once.
    jobs : int or None
        Worker processes; ``None`` is one per CPU, 1 (or a single task) runs
        here, in order.
    describe : callable(task) -> str
        Names a task in the log line of a task that failed.
    one_thread : bool
        Hold BLAS to one thread here too when running in this process.

    A task that raises stops the run: the error is logged with the task's
    description and raised here; pending tasks are cancelled and the workers
    shut down. On Ctrl-C (or when the caller stops consuming) the workers are
    ended at once rather than waited for.
    """
    tasks = list(tasks)
    if not tasks:
        return
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    if jobs == 1:
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1) if one_thread else nullcontext():
            for task in tasks:
                yield task, work(context, task)
        return
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker,
                               initargs=(context, os.getpid()))
    finished_all = False
    # futures report to a queue as they finish. concurrent.futures.wait() would take the lock
    # of every pending future on each call (slow with thousands), and a Ctrl-C landing while
    # it held some left them held: the pool's shutdown then waited for ever on them
    done: queue.SimpleQueue = queue.SimpleQueue()
    try:
        pending = {}
        for task in tasks:
            future = pool.submit(_run_in_worker, work, task)
            pending[future] = task
            future.add_done_callback(done.put)
        while pending:
            future = done.get()
            task = pending.pop(future)
            try:
                result = future.result()
            except Exception:
                logger.error("%s failed", describe(task))
                raise
            yield task, result
        finished_all = True
    finally:
        if not finished_all:
            _end_workers(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers: their tasks' results are no longer wanted.

    ``shutdown`` alone waits for the running tasks, which may take minutes,
    and can block for ever on a queue a worker died holding. The executor
    keeps its processes in ``_processes`` (a dict of pid -> Process, since
    Python 3.2); there is no public way to reach them.
    """
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.kill()
        except (OSError, ValueError):
            pass  # already gone
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.join(timeout=5)
