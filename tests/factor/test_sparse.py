"""SparseProducts: threaded products with X and X^T against scipy's, bit for bit across threads."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import scipy.sparse as sp

import docnmf.factor.sparse as sparse
from docnmf.factor._kernels import csr_transpose
from docnmf.factor.sparse import SparseProducts, row_blocks


def _matrix(n=300, m=200, density=0.05, seed=1):
    X = sp.random(n, m, density=density, format="csr", random_state=seed)
    X = X.tolil()
    X[5, :] = 0          # an empty row
    X[:, 7] = 0          # an empty column
    return X.tocsr()


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_products_equal_scipys(weighted, dtype):
    X = _matrix()
    w = np.random.default_rng(0).uniform(0.1, 2.0, X.shape[0]) if weighted else None
    Xw = sp.diags(w if weighted else np.ones(X.shape[0])) @ X
    ops = SparseProducts(X, dtype=dtype, row_weights=w)
    rng = np.random.default_rng(1)
    B, C = rng.random((X.shape[1], 7)), rng.random((X.shape[0], 5))
    tol = 1e-12 if dtype == np.float64 else 1e-5
    assert ops.dot(B).dtype == dtype
    np.testing.assert_allclose(ops.dot(B), Xw @ B, rtol=tol, atol=tol)
    np.testing.assert_allclose(ops.tdot(C), Xw.T @ C, rtol=tol, atol=tol)
    assert ops.squared_norm == pytest.approx(Xw.multiply(Xw).sum(), rel=1e-12)
    assert ops.sum() == pytest.approx(Xw.sum(), rel=1e-12)
    assert ops.shape == X.shape and ops.nnz == X.nnz


def test_blocks_and_threads_change_no_bit(monkeypatch):
    X = _matrix(900, 300)
    rng = np.random.default_rng(2)
    B, C = rng.random((300, 6)), rng.random((900, 4))
    whole = SparseProducts(X)
    assert len(whole.blocks) == 1
    monkeypatch.setattr(sparse, "BLOCK_WORK", 100)
    cut = SparseProducts(X)
    assert len(cut.blocks) > 5 and len(cut.t_blocks) > 5
    with ThreadPoolExecutor(3) as pool:
        np.testing.assert_array_equal(cut.dot(B, pool), whole.dot(B))
        np.testing.assert_array_equal(cut.tdot(C, pool), whole.tdot(C))


@pytest.mark.parametrize("width", [sparse.NARROW, sparse.NARROW + 1])
def test_narrow_and_wide_products_give_scipys_bits(width):
    """Narrow products on one thread go through scipy, the others through the kernel: same bits."""
    X = _matrix(400, 250)
    rng = np.random.default_rng(3)
    B, C = rng.random((250, width)), rng.random((400, width))
    ops = SparseProducts(X)
    with ThreadPoolExecutor(2) as pool:
        for threads in (None, pool):
            np.testing.assert_array_equal(ops.dot(B, threads), X @ B)
            np.testing.assert_array_equal(ops.tdot(C, threads), X.T.tocsr() @ C)


def test_duplicates_are_summed_before_squaring():
    X = sp.csr_matrix((np.array([1.0, 2.0, 4.0]), np.array([0, 0, 1]), np.array([0, 2, 3])),
                      shape=(2, 2))   # row 0 holds column 0 twice: the entry is 3
    X.has_canonical_format = False
    ops = SparseProducts(X, row_weights=np.array([2.0, 0.5]))
    assert ops.squared_norm == (2 * 3) ** 2 + (0.5 * 4) ** 2
    np.testing.assert_array_equal(ops.dot(np.eye(2)), [[6.0, 0.0], [0.0, 2.0]])


def test_transpose_kernel_is_scipys_transpose():
    X = _matrix(50, 80)
    indptr, indices, data = csr_transpose(X.indptr, X.indices, X.data, X.shape[1])
    T = X.T.tocsr()
    T.sort_indices()
    np.testing.assert_array_equal(indptr, T.indptr)
    np.testing.assert_array_equal(indices, T.indices)
    np.testing.assert_array_equal(data, T.data)


def test_row_blocks_cover_every_row_once():
    indptr = np.concatenate([[0], np.cumsum(np.random.default_rng(3).integers(0, 50, 5000))])
    blocks = row_blocks(indptr)
    assert blocks[0][0] == 0 and blocks[-1][1] == 5000
    assert all(a < b for a, b in blocks)
    assert all(b1 == a2 for (_, b1), (a2, _) in zip(blocks[:-1], blocks[1:]))
    assert row_blocks(np.zeros(1, dtype=np.int64)) == []


@pytest.mark.parametrize("index", [np.int32, np.int64])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_every_kernel_build_gives_scipys_product(index, dtype):
    """The four builds (float64/float32 values x int32/int64 indices) of the sparse product."""
    from docnmf.factor._kernels import spmm_rows

    X = _matrix(120, 90)
    B = np.random.default_rng(4).random((90, 6)).astype(dtype)
    out = np.empty((50, 6), dtype=dtype)
    spmm_rows(X.indptr.astype(index), X.indices.astype(index), X.data.astype(dtype),
              np.empty(0, dtype), np.empty(0, dtype), B, out, 30, 80)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    np.testing.assert_allclose(out, (X @ B.astype(np.float64))[30:80], rtol=tol, atol=tol)


def test_kernels_refuse_arrays_that_do_not_fit():
    """A wrong dtype, order or shape is a ValueError before the call, never a stray write."""
    from docnmf.factor._kernels import hals_rows, spmm_rows

    X = _matrix(40, 30)
    none = np.empty(0)
    B = np.ones((30, 4))
    with pytest.raises(ValueError, match="C-contiguous float64"):
        spmm_rows(X.indptr, X.indices, X.data, none, none, np.asfortranarray(B),
                  np.empty((40, 4)), 0, 40)
    with pytest.raises(ValueError, match="shape"):
        spmm_rows(X.indptr, X.indices, X.data, none, none, B, np.empty((39, 4)), 0, 40)
    with pytest.raises(ValueError, match="outside"):
        spmm_rows(X.indptr, X.indices, X.data, none, none, B, np.empty((41, 4)), 0, 41)
    F, G = np.ones((40, 4)), np.ones((1, 4, 4))
    args = dict(W=B, A=np.empty((0, 4)), F=F, G=G, inv_diag=np.ones((1, 4)), max_sweeps=1,
                delta2=0.0, cross=np.zeros(1), gram=np.zeros((1, 4, 4)))
    with pytest.raises(ValueError, match="disagree"):
        hals_rows(X.indptr, X.indices, X.data, none, none, start=0, stop=40,
                  **{**args, "gram": np.zeros((1, 3, 3))})
    with pytest.raises(ValueError, match="C-contiguous float64"):
        hals_rows(X.indptr, X.indices, X.data, none, none, start=0, stop=40,
                  **{**args, "F": np.asfortranarray(F)})
    with pytest.raises(ValueError, match="do not fit"):
        hals_rows(X.indptr, X.indices, X.data, none, none, start=0, stop=40,
                  **{**args, "F": F.astype(np.float32)})
    with pytest.raises(ValueError, match="out of range"):
        bad = sp.csr_matrix((np.ones(1), np.array([5]), np.array([0, 1])), shape=(1, 6))
        bad.indices[0] = 9
        SparseProducts(bad)


def test_unbuilt_kernels_say_how_to_build_them(docnmf_env):
    """A checkout whose extension was never built failed with a bare "cannot import name
    '_ckernels'": here Python finds no built extension, as in such a checkout."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['docnmf.factor._ckernels'] = None; "
            "import docnmf.factor._kernels")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=docnmf_env, timeout=120)
    assert proc.returncode == 1
    assert "docnmf's compiled kernels (docnmf.factor._ckernels) are not built" in proc.stderr
    assert "C compiler" in proc.stderr
