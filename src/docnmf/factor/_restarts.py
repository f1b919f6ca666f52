"""The loop that runs several starts of a multiplicative-update solver side by side.

CF/LCCF (:func:`~docnmf.factor.lccf.fit_lccf_restarts`) and SS-NMF
(:func:`~docnmf.factor.ssnmf.fit_ssnmf_restarts`) update each running start
in turn but share the expensive products among all of them; the stopping
test, the history and the dropping of stopped starts are written once here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from ._losses import has_converged


class Start:
    """One start while it runs: the solver adds its factors and products; here the history."""

    def __init__(self):
        self.losses: list[float] = []
        self.n_iter = 0
        self.converged = False


S = TypeVar("S", bound=Start)


def run_starts(runs: Sequence[S], *, step: Callable[[list[S]], None],
               products: Callable[[list[S]], None], max_iter: int, tol: float,
               callback: Callable[[int, int, float], None] | None = None) -> Sequence[S]:
    """Run ``step`` then ``products`` on the starts still running, for up to ``max_iter`` rounds.

    ``products(starts)`` computes what the next round needs and appends each
    start's objective to its ``losses``; it is called once on all starts
    before the first round. ``step(starts)`` updates the factors of the
    running starts. A start stops when its objective changes by less than
    ``tol`` times the previous value, or when that value is not positive
    (:func:`~docnmf.factor._losses.has_converged` with ``stop_on_rise=False``).

    Parameters
    ----------
    runs : sequence of Start
    step, products : callable(list of Start)
    max_iter : int
    tol : float
    callback : callable(start, iteration, loss), optional
        Called after each round for each start that ran it, ``start`` its index in ``runs``.

    Returns
    -------
    runs
        The same starts, with ``losses``, ``n_iter`` and ``converged`` filled in.
    """
    products(list(runs))
    active = list(runs)
    for n_iter in range(1, max_iter + 1):
        if not active:
            break
        step(active)
        products(active)
        still = []
        for run in active:
            run.n_iter = n_iter
            if callback is not None:
                callback(runs.index(run), n_iter, run.losses[-1])
            previous = run.losses[-2]
            if has_converged(previous, run.losses[-1], tol, stop_on_rise=False):
                run.converged = True
            else:
                still.append(run)
        active = still
    return runs
