"""The objectives' shared pieces."""

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.factor._losses import squared_norm


def _awkward(seed: int) -> sp.csr_matrix:
    """Explicit zeros, entries whose square underflows, huge ones, a repeated entry."""
    rng = np.random.default_rng(seed)
    X = sp.random(60, 40, density=0.2, format="csr", random_state=seed)
    X.data *= 10.0 ** rng.uniform(-200, 100, X.nnz)
    X.data[rng.integers(0, X.nnz, 4)] = 0.0
    return X


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_sparse_squared_norm_is_the_sum_of_the_squared_matrix_to_the_bit(seed, fmt):
    """The same number as X.multiply(X).sum(), which the objectives were computed with."""
    X = _awkward(seed).asformat(fmt)
    assert squared_norm(X) == float(X.multiply(X).sum())


def test_sparse_squared_norm_sums_duplicates_first():
    X = sp.csr_matrix((np.array([1.0, 2.0]), np.array([0, 0]), np.array([0, 2])), shape=(1, 1))
    X.has_canonical_format = False
    assert squared_norm(X) == 9.0


def test_dense_squared_norm():
    assert squared_norm(np.array([[3.0, 4.0]])) == 25.0
