"""Fixtures for the corpus tests: one file or folder of the shared corpora."""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def corpus_path(datasets_dir):
    """A function mapping a path below the corpora folder to that path.

    Skips the test with the missing path as reason (fails under CI, like the
    ``datasets_dir`` fixture it builds on).
    """

    def get(relative: str):
        path = datasets_dir / relative
        if not path.exists():
            msg = f"{path} not found"
            if os.environ.get("CI"):
                pytest.fail(msg + "; CI must have the corpora")
            pytest.skip(msg)
        return path

    return get
