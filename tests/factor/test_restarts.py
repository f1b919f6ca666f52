"""The shared loop over side-by-side starts, and the fixed-step rule for new rows."""

import numpy as np

from docnmf.factor._restarts import Start, run_starts
from docnmf.factor.nmf import fixed_mu_steps, solve_v


class _Halving(Start):
    """A fake start whose objective is multiplied by ``rate`` each round."""

    def __init__(self, rate):
        super().__init__()
        self.rate, self.value, self.steps = rate, 1.0, 0


def _run(rates, *, max_iter, tol):
    runs = [_Halving(r) for r in rates]
    seen = []

    def step(active):
        for run in active:
            run.value *= run.rate
            run.steps += 1

    def products(active):
        for run in active:
            run.losses.append(run.value)

    run_starts(runs, step=step, products=products, max_iter=max_iter, tol=tol,
               callback=lambda i, it, loss: seen.append((i, it, loss)))
    return runs, seen


def test_each_start_stops_on_its_own_relative_decrease():
    runs, seen = _run([0.5, 0.99999, 0.9], max_iter=20, tol=1e-3)
    slow, tiny, fast = runs[0], runs[1], runs[2]
    assert tiny.converged and tiny.n_iter == 1 and tiny.steps == 1
    assert not slow.converged and slow.n_iter == 20 and len(slow.losses) == 21
    assert not fast.converged and fast.steps == 20
    # the callback sees every start that ran a round, in the starts' order within a round
    assert [(i, it) for i, it, _ in seen[:3]] == [(0, 1), (1, 1), (2, 1)]
    assert all(i != 1 for i, it, _ in seen if it > 1)


def test_a_rise_beyond_tol_does_not_stop_and_zero_tol_never_stops():
    runs, _ = _run([1.5, 1.0 + 1e-9], max_iter=5, tol=1e-6)
    assert not runs[0].converged and runs[0].n_iter == 5
    assert runs[1].converged and runs[1].n_iter == 1
    runs, _ = _run([0.5], max_iter=7, tol=0.0)
    assert runs[0].n_iter == 7 and not runs[0].converged


def test_fixed_mu_steps_is_solve_v(seed=0):
    rng = np.random.default_rng(seed)
    X, U, V0 = rng.random((9, 6)), rng.random((6, 3)), rng.random((9, 3))
    R = fixed_mu_steps(V0.copy(), X @ U, U.T @ U, 40)
    assert np.array_equal(R, solve_v(X, U, V0, n_iter=40))
    assert (R >= 0).all()
