"""Block principal pivoting NNLS against scipy.optimize.nnls, including degenerate problems."""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import nnls

from docnmf.factor.nnls import nnls_bpp, nnls_bpp_gram


def _scipy_columns(C, B):
    return np.column_stack([nnls(C, B[:, j], maxiter=100 * C.shape[1])[0]
                            for j in range(B.shape[1])])


def _residuals(C, B, X):
    return ((C @ X - B) ** 2).sum(axis=0)


def _assert_optimal(C, B, X):
    """Same residual per column as Lawson-Hanson, and the KKT conditions hold."""
    assert X.shape == (C.shape[1], B.shape[1])
    assert np.all(X >= 0)
    ref = _scipy_columns(C, B)
    scale = (B ** 2).sum(axis=0) + 1.0
    np.testing.assert_array_less(_residuals(C, B, X) - _residuals(C, B, ref), 1e-9 * scale)
    Y = C.T @ (C @ X - B)                       # gradient of 1/2 ||C x - b||^2
    tol = 1e-7 * (np.abs(C.T @ B).max(initial=0.0) + 1.0)
    assert np.all(Y >= -tol)
    assert np.all(np.abs(X * Y) <= tol * (np.abs(X).max(initial=0.0) + 1.0))


def _problem(kind: str, seed: int):
    rng = np.random.default_rng(seed)
    m, q, r = 25, 8, 40
    C = rng.standard_normal((m, q))
    B = rng.standard_normal((m, r))
    if kind == "nonnegative":            # the factorisation case: C, B >= 0
        C, B = np.abs(C), np.abs(B)
    elif kind == "wide":                 # more unknowns than equations
        C = rng.standard_normal((5, q))
        B = rng.standard_normal((5, r))
    elif kind == "rank_deficient":
        C = rng.random((m, 3)) @ rng.random((3, q))
    elif kind == "duplicate_columns":
        C[:, 4:] = C[:, :4]
    elif kind == "zero_column":
        C[:, [1, 5]] = 0.0
    elif kind == "zero_rhs":
        B[:, ::3] = 0.0
    elif kind == "all_negative_rhs":     # C >= 0 and b <= 0: x = 0 is the answer
        C, B = np.abs(C), -np.abs(B)
    elif kind == "large_singular":       # singular with more than 16 unknowns
        C = rng.random((m, 4)) @ rng.random((4, 30))
    return C, B


KINDS = ["general", "nonnegative", "wide", "rank_deficient", "duplicate_columns", "zero_column",
         "zero_rhs", "all_negative_rhs", "large_singular"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_matches_lawson_hanson(kind, seed):
    C, B = _problem(kind, seed)
    _assert_optimal(C, B, nnls_bpp(C, B))


def test_all_negative_rhs_gives_zero():
    C, B = _problem("all_negative_rhs", 0)
    assert np.all(nnls_bpp(C, B) == 0.0)


def test_zero_rhs_and_zero_design():
    rng = np.random.default_rng(3)
    C = rng.random((6, 3))
    assert np.all(nnls_bpp(C, np.zeros((6, 4))) == 0.0)
    assert np.all(nnls_bpp(np.zeros((6, 3)), rng.random((6, 4))) == 0.0)
    # a zero column gets x = 0 (the minimum-norm choice), the rest is solved as without it
    C0 = np.column_stack([C[:, 0], np.zeros(6), C[:, 1:]])
    B = rng.random((6, 5))
    X0 = nnls_bpp(C0, B)
    np.testing.assert_array_equal(X0[1], 0.0)
    np.testing.assert_allclose(np.delete(X0, 1, axis=0), nnls_bpp(C, B), atol=1e-12)


def test_single_column_and_sparse_inputs():
    rng = np.random.default_rng(4)
    C = rng.random((30, 5)) * (rng.random((30, 5)) < 0.5)
    B = rng.random((30, 7)) * (rng.random((30, 7)) < 0.3)
    X = nnls_bpp(C, B)
    np.testing.assert_allclose(nnls_bpp(sp.csr_matrix(C), sp.csr_matrix(B)), X, atol=1e-12)
    np.testing.assert_allclose(nnls_bpp(C, B[:, 2]), X[:, 2], atol=1e-12)
    assert nnls_bpp(C, B[:, 2]).shape == (5,)


def test_warm_start_reaches_the_same_solution():
    rng = np.random.default_rng(5)
    C = rng.random((40, 6))
    B = rng.random((40, 50))
    X = nnls_bpp(C, B)
    B2 = B + 0.05 * rng.random(B.shape)
    np.testing.assert_allclose(nnls_bpp(C, B2, init=X), nnls_bpp(C, B2), atol=1e-10)


@pytest.mark.parametrize("q", [4, 20])
def test_many_columns_sharing_passive_sets(q):
    """The grouped path: thousands of columns, few distinct passive sets."""
    rng = np.random.default_rng(6)
    C = rng.random((50, q))
    support = rng.random((q, 3000)) < (0.6 if q == 4 else 0.1)
    if q > 4:   # a few dozen supports shared by many columns, the rest their own
        support[:, :2000] = support[:, rng.integers(0, 40, 2000)]
    B = C @ (rng.random((q, 3000)) * support) + 0.01 * rng.standard_normal((50, 3000))
    X = nnls_bpp(C, B)
    sample = rng.choice(3000, 200, replace=False)
    _assert_optimal(C, B[:, sample], X[:, sample])


@pytest.mark.parametrize("rank", [None, 6])
@pytest.mark.parametrize("q", [14, 24])   # one padded stack; stacks by passive-set size
def test_many_columns_with_passive_sets_of_every_size(q, rank):
    """The stacked paths: passive sets all different, from one variable to all of them.

    As in the rows of a term basis: sparse non-negative right-hand sides leave most
    variables at zero, a few columns use many. With ``rank`` the design is singular
    (every passive block past its rank is solved by its pseudo-inverse).
    """
    rng = np.random.default_rng(7)
    m, r = 60, 1500
    C = rng.random((m, q)) * (rng.random((m, q)) < 0.4)
    if rank is not None:
        C = C[:, :rank] @ rng.random((rank, q))
    density = rng.choice([0.01, 0.05, 0.2, 0.8], size=r)
    B = rng.random((m, r)) * (rng.random((m, r)) < density)
    X = nnls_bpp(C, B)
    sizes = np.bincount((X > 0).sum(axis=0), minlength=q + 1)
    assert np.count_nonzero(sizes[1:]) >= (4 if rank else 8), sizes  # many sizes were solved
    sample = rng.choice(r, 300, replace=False)
    _assert_optimal(C, B[:, sample], X[:, sample])


def test_gram_form_and_shape_errors():
    G = np.array([[2.0, 1.0], [1.0, 2.0]])
    np.testing.assert_allclose(nnls_bpp_gram(G, np.array([[3.0], [-3.0]])), [[1.5], [0.0]])
    assert nnls_bpp_gram(G, np.zeros((2, 0))).shape == (2, 0)
    with pytest.raises(ValueError, match="G has shape"):
        nnls_bpp_gram(np.eye(3), np.zeros((2, 1)))
    with pytest.raises(ValueError, match="init has shape"):
        nnls_bpp_gram(G, np.zeros((2, 3)), init=np.zeros((2, 2)))
