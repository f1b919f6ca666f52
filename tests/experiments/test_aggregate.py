"""Aggregation: per-k mean and sample standard deviation, and the mean of per-k means."""

from __future__ import annotations

import math
import random

import pytest

from docnmf.experiments import CellStats, aggregate, average_over_k


def rec(method, k, run, accuracy, nmi, weighting="xu-subset"):
    return {"weighting": weighting, "method": method, "k": k, "run": run,
            "accuracy": accuracy, "nmi": nmi, "purity": accuracy, "seconds": 0.5}


RECORDS = [
    rec("nmf", 2, 0, 1.0, 0.9), rec("nmf", 2, 1, 0.8, 0.7), rec("nmf", 2, 2, 0.9, 0.8),
    rec("nmf", 3, 0, 0.6, 0.5),
    rec("nmf-ncw", 2, 0, 0.5, 0.1), rec("nmf-ncw", 2, 1, 0.7, 0.3),
    rec("nmf", 2, 0, 0.2, 0.2, weighting="cai-global"),
]


def test_hand_computed_cells():
    rows = aggregate(RECORDS)
    acc = rows[("xu-subset", "nmf", "accuracy")]
    assert acc.per_k[2].n == 3
    assert acc.per_k[2].mean == pytest.approx(0.9)
    assert acc.per_k[2].std == pytest.approx(0.1)  # sample std of 1.0, 0.8, 0.9
    assert acc.per_k[3] == CellStats(1, 0.6, 0.0)  # one run: std 0
    assert acc.average == pytest.approx((0.9 + 0.6) / 2)  # mean of per-k means, not of runs
    assert acc.runs == 4
    nmi = rows[("xu-subset", "nmf-ncw", "nmi")]
    assert nmi.per_k[2].mean == pytest.approx(0.2)
    assert nmi.per_k[2].std == pytest.approx(math.sqrt(0.02))
    assert 3 not in nmi.per_k and nmi.average == pytest.approx(0.2)
    assert rows[("cai-global", "nmf", "accuracy")].per_k[2].mean == pytest.approx(0.2)
    assert rows[("xu-subset", "nmf", "seconds")].per_k[2].mean == pytest.approx(0.5)


def test_keys_and_order_independence():
    rows = aggregate(RECORDS)
    assert list(rows) == sorted(rows)
    shuffled = RECORDS[:]
    random.Random(1).shuffle(shuffled)
    assert aggregate(shuffled) == rows


def test_average_over_k_empty_is_nan():
    assert math.isnan(average_over_k({}))
    assert aggregate([]) == {}


def test_missing_values_are_skipped():
    rows = aggregate([rec("nmf", 2, 0, 0.5, None), rec("nmf", 2, 1, 0.7, 0.4)])
    assert rows[("xu-subset", "nmf", "nmi")].per_k[2].n == 1
    assert rows[("xu-subset", "nmf", "accuracy")].per_k[2].n == 2
