"""Inputs of other types and layouts than a canonical float64 CSR matrix."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.methods import make_estimator


def _with_explicit_zero_rows(X, rows):
    """``X`` (CSR) with ``rows`` emptied and each given one stored zero instead."""
    X = sp.lil_matrix(X)
    for i in rows:
        X.rows[i], X.data[i] = [0], [0.0]
    X = sp.csr_matrix(X)
    assert all(X.indptr[i + 1] - X.indptr[i] == 1 for i in rows)   # the zero is stored
    return X


@pytest.mark.parametrize("name", ["nmf", "lccf-ncw", "km"])
@pytest.mark.parametrize("kind", [sp.csr_matrix, sp.csr_array])
def test_documents_whose_stored_entries_are_all_zero_have_no_terms(name, kind, planted):
    """A row holding only stored zeros is an all-zero document as much as a row holding none
    (scipy keeps explicit zeros: a matrix built from triplets or edited in place has them)."""
    X, _ = planted(45, 30, 3, seed=1)
    X = kind(_with_explicit_zero_rows(X, [3, 7]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make_estimator(name, 3, random_state=0, n_init=1).fit(X)
    said = [str(w.message) for w in caught if "have no terms" in str(w.message)]
    assert len(said) == 1 and ": 2 of the 45 documents have no terms" in said[0]


@pytest.mark.parametrize("kind", [sp.csr_matrix, sp.csr_array, sp.csc_matrix, np.asarray])
def test_empty_rows_counts_stored_zeros_and_leaves_the_matrix_as_it_was(kind, planted):
    """diagnostics.empty_rows removed the stored zeros from the caller's matrix in place."""
    from docnmf.diagnostics import empty_rows

    X, _ = planted(45, 30, 3, seed=1)
    X = _with_explicit_zero_rows(X, [3, 7])
    given = kind(X.toarray()) if kind is np.asarray else kind(X)
    before = sp.csr_matrix(given, copy=True) if kind is not np.asarray else given.copy()
    assert list(empty_rows(given)) == [3, 7]
    if kind is np.asarray:
        assert np.array_equal(given, before)
    else:
        assert given.nnz == before.nnz and np.array_equal(given.toarray(), before.toarray())
        if kind is not sp.csc_matrix:
            assert np.array_equal(given.indptr, before.indptr)


def test_a_weighted_linear_kernel_shares_the_prepared_documents(planted):
    """NC weighting (LCCF-NCW, kernel k-means and spectral NC) held a second copy of X^T, as
    large as X, for the whole fit: the weights only scale the dense side of the products."""
    from docnmf.factor.kernels import LinearKernel

    X, _ = planted(45, 30, 3, seed=1)
    X = sp.csr_matrix(X)
    g = np.linspace(0.5, 2.0, 45)
    K = LinearKernel(X)
    Kw = K.weighted(g)
    assert Kw._ops is K._ops and K.g is None
    fresh = LinearKernel(X, g)
    A = np.random.default_rng(0).random((45, 4))
    assert np.array_equal(Kw.matmul(A), fresh.matmul(A))
    assert np.array_equal(Kw.concepts(A), fresh.concepts(A))
    assert Kw.trace() == fresh.trace() and np.array_equal(Kw.row_sums(), fresh.row_sums())
    again = Kw.weighted(1.0 / g)
    assert again._ops is K._ops and np.array_equal(again.g, fresh.weighted(1.0 / g).g)
    assert np.array_equal(again.matmul(A), LinearKernel(X, g * (1.0 / g)).matmul(A))


@pytest.mark.parametrize("kind", [sp.csc_matrix, sp.coo_matrix, sp.csc_array])
def test_empty_rows_leaves_duplicate_entries_as_they_were(kind):
    """empty_rows summed a CSC or COO matrix's duplicate entries in place (abs() does): the
    caller's matrix lost entries. A row whose duplicates cancel holds nothing."""
    from docnmf.diagnostics import empty_rows

    data, rows, columns = [1.0, -1.0, 2.0], [0, 0, 1], [0, 0, 1]
    given = (kind((data, (rows, columns)), shape=(2, 2)) if kind is sp.coo_matrix
             else kind((data, rows, [0, 2, 3]), shape=(2, 2)))      # column 0 holds (0, 0) twice
    before = given.copy()
    assert list(empty_rows(given)) == [0]
    assert given.nnz == 3 and np.array_equal(given.data, before.data)


@pytest.mark.parametrize("dtype, row", [(np.int8, [-128, 100, 28]), (np.uint64, [2**63, 2**63])])
def test_empty_rows_of_integer_matrices_do_not_wrap(dtype, row):
    """A row's absolute values summed in its integer type wrapped to 0: int8's abs(-128) is
    -128, and 2**63 twice is 0 in uint64, so a row of non-zero counts was said to be empty."""
    from docnmf.diagnostics import empty_rows

    X = np.array([row, [0] * len(row)], dtype=dtype)
    for given in (sp.csc_matrix(X), sp.coo_matrix(X)):
        assert list(empty_rows(given)) == [1]


@pytest.mark.parametrize("kind", [sp.coo_matrix, sp.csc_matrix, sp.csr_matrix])
def test_empty_rows_sums_duplicate_integers_without_wrapping(kind):
    """Duplicate entries were summed in the matrix's integer type: uint8's 128 twice is 0
    there, and a row the estimators read as 256 was said to be empty; a CSR matrix's
    duplicates were not summed at all, so that ones that cancel left a row 'with entries'."""
    from docnmf.diagnostics import empty_rows

    def build(data, dtype):
        data = np.array(data, dtype=dtype)
        if kind is sp.coo_matrix:
            return kind((data, ([0, 0, 1], [0, 0, 1])), shape=(2, 2))
        return kind((data, [0, 0, 1], [0, 2, 3]), shape=(2, 2))    # (0, 0) twice

    given = build([128, 128, 1], np.uint8)
    before = given.copy()
    assert list(empty_rows(given)) == []
    assert given.nnz == 3 and np.array_equal(given.data, before.data)
    assert list(empty_rows(build([1.0, -1.0, 2.0], np.float64))) == [0]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("name", ["nmf", "km-ncw", "lccf-ncw", "aa"])
@pytest.mark.parametrize("kind", [sp.coo_matrix, sp.coo_array])
def test_duplicate_integer_entries_of_a_coo_matrix_are_summed_without_wrapping(name, kind,
                                                                               planted):
    """Term counts as a COO matrix of one entry per token (duplicates summed on reading) in a
    small integer type: scikit-learn's validation made it CSR before float64, summing in
    int8, so 7 + 127 was -122: 'negative values' for NMF, a wrong matrix fitted in silence by
    the others, where docnmf's own diagnostics read the 134 (float64) it is."""
    X, _ = planted(30, 20, 3, seed=2)
    counts = np.round(10 * X)
    given = sp.coo_matrix(counts.astype(np.int8))
    j = int(np.argmax(counts[0]))
    given = kind((np.r_[given.data, np.int8(127)], (np.r_[given.row, 0], np.r_[given.col, j])),
                 shape=counts.shape)
    assert given.dtype == np.int8
    counts[0, j] += 127
    a = make_estimator(name, 3, random_state=0).fit(given)
    b = make_estimator(name, 3, random_state=0).fit(counts)
    assert np.array_equal(a.labels_, b.labels_) and a.objective_ == pytest.approx(b.objective_)
    if hasattr(a, "predict"):
        assert np.array_equal(a.predict(given), b.predict(counts))
