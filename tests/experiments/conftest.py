"""Fixtures for the protocol tests: a small labelled count matrix with planted classes."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.experiments import DataCondition, PreparedData
from docnmf.text.weighting import TfidfWeighting


def make_counts(n_classes: int = 6, docs_per_class: int = 12, terms_per_class: int = 8,
                seed: int = 0):
    """Poisson term counts where each class draws mostly from its own block of terms."""
    rng = np.random.default_rng(seed)
    n_terms = n_classes * terms_per_class
    rows, y = [], []
    for c in range(n_classes):
        rate = np.full(n_terms, 0.05)
        rate[c * terms_per_class:(c + 1) * terms_per_class] = 1.5
        rows.append(rng.poisson(rate, size=(docs_per_class + c, n_terms)))
        y += [c] * (docs_per_class + c)  # unequal class sizes
    return sp.csr_matrix(np.vstack(rows).astype(np.float64)), np.array(y)


@pytest.fixture
def planted_data() -> PreparedData:
    counts, y = make_counts()
    names = [f"class{c}" for c in range(y.max() + 1)]
    return PreparedData(counts, y, names, TfidfWeighting(tf="sublinear").fit(counts))


@pytest.fixture
def planted_condition(tmp_path) -> DataCondition:
    # the source is only an identity here: the tests hand the prepared data in directly
    return DataCondition("planted", str(tmp_path / "planted-source"))
