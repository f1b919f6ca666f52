"""Warnings a fit gives name the line of the caller's code, not a line inside docnmf: the
user sees where the fit was called (and Python's once-per-location filter keys on it)."""

import warnings

import numpy as np
import pytest

from docnmf.baselines import LDAKMeansClustering
from docnmf.cluster import LCCFClustering, NMFClustering


def _fit_warnings(fit) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit()
    return [w for w in caught if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize("fit, text", [
    (lambda: NMFClustering(2, n_init=1, random_state=0).fit(
        np.random.default_rng(0).random((10, 6)) * 1e30), "was multiplied by"),
    (lambda: LCCFClustering(2, n_neighbors=50, n_init=1, random_state=0).fit(
        np.random.default_rng(0).random((10, 6))), "n_neighbors=50"),
    (lambda: LDAKMeansClustering(2, random_state=0).fit(
        np.array([[3, 1, 0, 0], [2, 2, 0, 0], [0, 0, 1, 3], [0, 0, 2, 2.]])), "LDA-Km"),
])
def test_a_fit_warning_names_the_callers_line(fit, text):
    found = [w for w in _fit_warnings(fit) if text in str(w.message)]
    assert found, f"no warning saying {text!r}"
    assert all(w.filename == __file__ for w in found), [w.filename for w in found]
