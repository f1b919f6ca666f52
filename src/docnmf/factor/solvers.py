"""NMF solvers by name, so estimators and tests can enumerate them.

Each name maps to a function that fits several restarts side by side:
``solve(X, starts, *, max_iter, tol, dtype) -> list[FactorResult]``, one
result per ``(U0, V0)`` start, each equal to fitting that start alone.
"""

from __future__ import annotations

from typing import Callable, Literal

from .hals import fit_nmf_hals, fit_nmf_hals_batched
from .nmf import FactorResult, fit_nmf_mu, fit_nmf_mu_batched

__all__ = ["Solver", "SOLVERS", "BATCHED_SOLVERS"]

Solver = Literal["mu", "hals"]

#: One start: ``solve(X, U0, V0, *, max_iter, tol) -> FactorResult``.
SOLVERS: dict[str, Callable[..., FactorResult]] = {"mu": fit_nmf_mu, "hals": fit_nmf_hals}

#: Many starts in one pass: ``solve(X, starts, *, max_iter, tol, dtype) -> list[FactorResult]``.
BATCHED_SOLVERS: dict[str, Callable[..., list[FactorResult]]] = {
    "mu": fit_nmf_mu_batched,
    "hals": fit_nmf_hals_batched,
}
