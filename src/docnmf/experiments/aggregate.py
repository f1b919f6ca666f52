"""Per-k means and standard deviations of run records, and the papers' "Avg." over k."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

__all__ = ["CellStats", "MetricRow", "aggregate", "average_over_k"]

METRICS = ("accuracy", "nmi", "purity")


@dataclass(frozen=True)
class CellStats:
    """Scores of the runs of one (weighting, method, metric, k) cell.

    ``std`` is the sample standard deviation (ddof=1), 0 for a single run.
    """

    n: int
    mean: float
    std: float


def _stats(values: list[float]) -> CellStats:
    # fsum: the correctly rounded sum, so the result does not depend on record order
    n = len(values)
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return CellStats(n, mean, math.sqrt(var))


def average_over_k(per_k: Mapping[int, CellStats]) -> float:
    """Mean of the per-k means (the papers' "Avg." column); NaN when there is no k.

    Examples
    --------
    >>> average_over_k({2: CellStats(50, 0.9, 0.1), 3: CellStats(3, 0.7, 0.2)})
    0.8
    """
    if not per_k:
        return math.nan
    return math.fsum(c.mean for c in per_k.values()) / len(per_k)


@dataclass(frozen=True)
class MetricRow:
    """One metric of one method under one weighting, for every k that has runs."""

    weighting: str
    method: str
    metric: str
    per_k: Mapping[int, CellStats]

    @property
    def average(self) -> float:
        return average_over_k(self.per_k)

    @property
    def runs(self) -> int:
        return sum(c.n for c in self.per_k.values())


def aggregate(records: Iterable[Mapping[str, Any]],
              metrics: Iterable[str] = (*METRICS, "seconds", "n_docs"),
              ) -> dict[tuple[str, str, str], MetricRow]:
    """Group run records by (weighting, method, metric) and summarise each k.

    Returns
    -------
    dict mapping (weighting, method, metric) to MetricRow
        Keys in sorted order; each row's ``per_k`` sorted by k.

    Examples
    --------
    >>> recs = [{"weighting": "w", "method": "m", "k": 2, "accuracy": a} for a in (0.8, 1.0)]
    >>> row = aggregate(recs, metrics=["accuracy"])[("w", "m", "accuracy")]
    >>> cell = row.per_k[2]
    >>> cell.n, round(cell.mean, 6), round(cell.std, 6), round(row.average, 6)
    (2, 0.9, 0.141421, 0.9)
    """
    metrics = tuple(metrics)
    groups: dict[tuple[str, str, str], dict[int, list[float]]] = defaultdict(
        lambda: defaultdict(list))
    for rec in records:
        for metric in metrics:
            if rec.get(metric) is not None:
                groups[(rec["weighting"], rec["method"], metric)][int(rec["k"])].append(
                    float(rec[metric]))
    return {
        key: MetricRow(*key, {k: _stats(v) for k, v in sorted(by_k.items())})
        for key, by_k in sorted(groups.items())
    }
