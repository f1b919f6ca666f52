"""The one task runner of the experiments: here or in worker processes, same results."""

import logging
import multiprocessing
import zlib

import numpy as np
import pytest

from docnmf.experiments.protocol import method_seed
from docnmf.experiments.runner import derive_seed, run_tasks


def test_derive_seed_is_a_seed_sequence_of_the_parts():
    words = [7, 3, zlib.crc32(b"nmf-ncw"), 2]
    expected = int(np.random.SeedSequence(words).generate_state(1, dtype=np.uint32)[0])
    assert derive_seed(7, 3, "nmf-ncw", 2) == expected
    # the protocol's seeds are the same derivation
    assert method_seed(5, 4, 1, "lccf") == derive_seed(5, 4, 1, "lccf")


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_task_once_in_any_order_with_the_context(jobs):
    # builtins travel to worker processes by name: pow(context, task)
    results = dict(run_tasks(pow, range(12), 3, jobs=jobs))
    assert results == {n: 3 ** n for n in range(12)}
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_failing_task_is_named_and_stops_the_run(jobs, caplog):
    with caplog.at_level(logging.ERROR), pytest.raises(ZeroDivisionError):
        list(run_tasks(pow, [2, -1, 3], 0, jobs=jobs, describe=lambda t: f"task {t}"))
    if jobs > 1:
        assert "task -1 failed" in caplog.text
    assert not multiprocessing.active_children()


def test_no_tasks_no_pool():
    assert list(run_tasks(pow, [], 2, jobs=4)) == []
