"""Random generators: ``random_state`` becomes a ``numpy.random.Generator`` inside ``fit`` only."""

from __future__ import annotations

import numbers

import numpy as np


def as_generator(random_state) -> np.random.Generator:
    """A Generator from None, an int, a Generator, a SeedSequence or a legacy RandomState.

    Examples
    --------
    >>> bool(as_generator(0).integers(100) == as_generator(0).integers(100))
    True
    """
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool) \
            and random_state < 0:
        raise ValueError(f"random_state must be a non-negative integer, got {random_state!r}")
    if random_state is None or isinstance(random_state, (numbers.Integral, np.random.SeedSequence)):
        return np.random.default_rng(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(np.iinfo(np.int32).max))
    raise ValueError("random_state must be None, an int, or a numpy Generator, SeedSequence or "
                     f"RandomState, got {random_state!r}")


def child_generators(rng: np.random.Generator, n: int) -> list[np.random.Generator]:
    """``n`` independent generators for restarts, derived from ``rng``."""
    return list(rng.spawn(n))
