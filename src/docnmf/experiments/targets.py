"""Reproduction targets that are not k-class-subset tables: curves, figures, other protocols.

A table of :mod:`.tables` runs the random k-class protocol. Other paper
experiments (accuracy against the share of constrained pairs, segmentation
error rates, summarization scores, plots of an objective...) register a
:class:`Target` here, and ``docnmf reproduce NAME`` runs it the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

__all__ = ["Target", "TargetOptions", "TARGETS", "register_target"]


@dataclass(frozen=True)
class TargetOptions:
    """What the command line passes to a target; ``None`` means the target's own default."""

    runs: int | None = None
    restarts: int | None = None
    seed: int | None = None
    jobs: int | None = None


@dataclass(frozen=True)
class Target:
    """A named experiment of a paper that writes a report into a folder.

    Attributes
    ----------
    name, title, paper : str
    available : callable() -> bool
        Whether the data it needs is found.
    run : callable(outdir: Path, options: TargetOptions) -> Path
        Runs (resuming where the experiment allows it) and returns the report's path.
    source : str
        The data it reads, in words.
    """

    name: str
    title: str
    paper: str
    available: Callable[[], bool]
    run: Callable[[Path, TargetOptions], Path]
    source: str = ""


#: Registered targets by name.
TARGETS: dict[str, Target] = {}


def register_target(target: Target) -> Target:
    """Add ``target`` to :data:`TARGETS` (names must be unique)."""
    if target.name in TARGETS:
        raise ValueError(f"a target named {target.name!r} is already registered")
    TARGETS[target.name] = target
    return target


#: Modules that register targets when imported (kept lazy: some need matplotlib or large data).
TARGET_MODULES: tuple[str, ...] = ("docnmf.experiments.ssnmf_targets",
                                   "docnmf.experiments.nma_targets",
                                   "docnmf.experiments.fsnmf_targets",
                                   "docnmf.experiments.lccf_targets")


def all_targets() -> dict[str, Target]:
    """Import the target modules and return every registered target."""
    import importlib

    for module in TARGET_MODULES:
        importlib.import_module(module)
    return TARGETS
