"""Compiled row kernels of the fast NMF path: sparse products and HALS row updates.

The kernels are C (``_kernels.c``, built with the package), called through
:mod:`ctypes`, which releases the GIL for the duration of each call:
:class:`docnmf.factor.sparse.SparseProducts` runs the row blocks of one
product on a thread pool. Rows are independent, and each call writes the
partial sums of its block into that block's own output, which the caller adds
up in block order: the result does not depend on how many threads ran.

Every function here checks the arrays it hands over (dtype, C order, shapes)
before the call: a mistake gives a ``ValueError``, never a write out of bounds.
The column indices of a CSR matrix are trusted to be in range (it costs a pass
over them): :class:`~docnmf.factor.sparse.SparseProducts` checks them once.
"""

from __future__ import annotations

import ctypes
import threading
from concurrent.futures import Executor, wait
from typing import Callable, Sequence

import numpy as np

try:
    from . import _ckernels
except ImportError as exc:      # a checkout whose extension was never built
    raise ImportError(
        "docnmf's compiled kernels (docnmf.factor._ckernels) are not built: install docnmf with "
        "pip (pip install . or pip install -e . in a checkout), which compiles them; that needs "
        "a C compiler (gcc or clang) and Python's headers (Debian, Ubuntu: apt-get install "
        f"build-essential python3-dev) ({exc})") from exc

__all__ = ["spmm_rows", "spmm_blocks", "hals_rows", "hals_blocks", "run_blocks",
           "csr_transpose", "csr_row_sums", "top_p_blocks", "BLOCK_ROWS"]

_LIB = ctypes.CDLL(_ckernels.__file__)
_P, _I64, _F64, _INT = ctypes.c_void_p, ctypes.c_int64, ctypes.c_double, ctypes.c_int

#: Rows the HALS kernel sweeps together, one vector operation across them per step.
BLOCK_ROWS = int(_LIB.block_rows())


def _declare(name: str, restype, *argtypes):
    fn = getattr(_LIB, name)
    fn.restype, fn.argtypes = restype, list(argtypes)
    return fn


_SUFFIXES = {(np.dtype(np.float64), np.dtype(np.int32)): "f64_i32",
             (np.dtype(np.float64), np.dtype(np.int64)): "f64_i64",
             (np.dtype(np.float32), np.dtype(np.int32)): "f32_i32",
             (np.dtype(np.float32), np.dtype(np.int64)): "f32_i64"}
_FUNCTIONS = {
    suffix: {
        "spmm": _declare(f"spmm_rows_{suffix}", None, _P, _P, _P, _P, _P, _P, _I64, _P, _I64,
                         _I64),
        "hals": _declare(f"hals_rows_{suffix}", _INT, _P, _P, _P, _P, _P, _P, _P, _P, _P, _P,
                         _I64, _I64, _I64, _F64, _P, _P, _I64, _I64),
        "transpose": _declare(f"csr_transpose_{suffix}", _INT, _P, _P, _P, _I64, _I64, _P, _P,
                              _P),
        "row_sums": _declare(f"csr_row_sums_{suffix}", None, _P, _P, _I64, _P, _P),
        "top_p": _declare(f"topp_rows_{suffix}", None, _P, _P, _P, _P, _P, _P, _I64, _I64, _P,
                          _P, _P, _P, _P, _P, _P, _I64, _I64),
    }
    for suffix in _SUFFIXES.values()
}


def _kernels(values: np.dtype, index: np.dtype) -> dict:
    try:
        return _FUNCTIONS[_SUFFIXES[np.dtype(values), np.dtype(index)]]
    except KeyError:
        raise ValueError(f"no kernel for {np.dtype(values)} values with {np.dtype(index)} "
                         "indices") from None


def _address(a: np.ndarray | None, dtype, what: str, size: int | None = None) -> int | None:
    """The data address of a C-contiguous ``a`` of ``dtype`` (None for an empty scale)."""
    if a is None or (size is None and a.size == 0):
        return None
    if a.dtype != dtype or not a.flags.c_contiguous:
        raise ValueError(f"{what} must be a C-contiguous {np.dtype(dtype)} array")
    if size is not None and a.size < size:
        raise ValueError(f"{what} has {a.size} entries, {size} needed")
    return a.ctypes.data


def _csr(indptr, indices, data, start: int, stop: int):
    if indptr.dtype != indices.dtype:
        raise ValueError("indptr and indices must have the same integer type")
    if not 0 <= start <= stop <= len(indptr) - 1:
        raise ValueError(f"rows {start}:{stop} outside the {len(indptr) - 1} rows")
    nnz = int(indptr[-1])
    return (_address(indptr, indptr.dtype, "indptr", len(indptr)),
            _address(indices, indices.dtype, "indices", nnz),
            _address(data, data.dtype, "data", nnz))


def spmm_rows(indptr, indices, data, row_scale, col_scale, B, out, start: int, stop: int):
    """``out[i - start] = row_scale[i] * sum_p data[p] * col_scale[q_p] * B[q_p]`` for rows in range.

    ``row_scale`` / ``col_scale`` of length 0 mean no scaling. ``out`` has
    ``stop - start`` rows of ``B``'s width.
    """
    if out.shape != (stop - start, B.shape[1]):
        raise ValueError(f"out must have shape {(stop - start, B.shape[1])}, not {out.shape}")
    if not 0 <= start <= stop <= len(indptr) - 1:
        raise ValueError(f"rows {start}:{stop} outside the {len(indptr) - 1} rows")
    spmm_blocks(indptr, indices, data, row_scale, col_scale, B, out, [(start, stop)],
                offset=start)


def spmm_blocks(indptr, indices, data, row_scale, col_scale, B, out,
                blocks: Sequence[tuple[int, int]], pool: Executor | None = None,
                offset: int = 0) -> None:
    """:func:`spmm_rows` on each row block of ``blocks`` (rows ``start - offset`` of ``out``),
    the blocks on ``pool``; the arrays are checked once for all blocks."""
    dtype = data.dtype
    width = B.shape[1]
    n = len(indptr) - 1
    if out.shape[1] != width or any(not 0 <= start - offset <= stop - offset <= out.shape[0]
                                    or not 0 <= start <= stop <= n for start, stop in blocks):
        raise ValueError("out does not hold the rows of the product")
    kernel = _kernels(dtype, indptr.dtype)["spmm"]
    common = (*_csr(indptr, indices, data, 0, n), _address(row_scale, dtype, "row_scale"),
              _address(col_scale, dtype, "col_scale"), _address(B, dtype, "B"), width)
    out_at = _address(out, dtype, "out")
    itemsize = np.dtype(dtype).itemsize

    def task(b, start, stop):
        kernel(*common, out_at + itemsize * (start - offset) * width, start, stop)
    run_blocks(task, blocks, pool)


def run_blocks(task: Callable[[int, int, int], None], blocks: Sequence[tuple[int, int]],
               pool: Executor | None = None,
               progress: Callable[[int, int], None] | None = None) -> None:
    """``task(b, start, stop)`` for every block ``b``, on ``pool`` when there is one;
    ``progress(done, total)`` in the calling thread as the blocks end, in order.

    When the wait is cut short (Ctrl-C, a stop signal, a block's error), the blocks not
    started are dropped and those running waited for, a second Ctrl-C included, before it
    goes on: the pool ran every block before (a minute of the nearest-neighbour search on
    94,000 documents), and a second Ctrl-C left the kernels writing into freed arrays as
    the process ended (a segmentation fault).
    """
    if pool is None or len(blocks) <= 1:
        for b, (start, stop) in enumerate(blocks):
            task(b, start, stop)
            if progress is not None:
                progress(b + 1, len(blocks))
        return
    futures = [pool.submit(task, b, start, stop) for b, (start, stop) in enumerate(blocks)]
    try:
        for b, future in enumerate(futures):
            future.result()
            if progress is not None:
                progress(b + 1, len(blocks))
    except BaseException:
        for future in futures:
            future.cancel()
        _wait_running(futures)
        raise


def _wait_running(futures) -> None:
    """Wait until every one of ``futures`` has ended, whatever interrupts the wait."""
    while True:
        try:
            wait(futures)
            return
        except BaseException:  # noqa: BLE001, S112  (the first interruption is on its way)
            continue


def hals_rows(indptr, indices, data, row_scale, col_scale, W, A, F, G, inv_diag,
              max_sweeps: int, delta2: float, cross, gram, start: int, stop: int) -> None:
    """HALS on rows ``[start, stop)`` of the factors ``F`` (n, r*k) of ``r`` restarts side by side.

    Row ``i`` of restart ``t`` (columns ``t*k:(t+1)*k``) minimises
    ``1/2 f G_t f - a f`` over ``f >= 0`` with ``a`` its row of the product
    ``M W``: gathered from the CSR arrays of ``M`` (scaled as in
    :func:`spmm_rows`), or read from ``A`` (n, r*k) when ``A`` has rows (dense
    ``M``, product made by the caller). One exact coordinate step at a time,
    ``f_j <- max(0, f_j + (a_j - (G f)_j) / G_jj)`` (``inv_diag[t]`` holds
    ``1 / diag(G_t)``, 0 to leave a coordinate alone), at most ``max_sweeps``
    sweeps over ``j``; a row stops once a sweep moves it by at most ``delta2``
    times the squared move of its first (Gillis & Glineur 2012, per row).
    Adds each new row's ``a . f`` to ``cross[t]`` and ``f f^T`` to ``gram[t]``
    (float64, shapes (r,) and (r, k, k)): the cross term of the objective and
    the new factor's Gram matrix, for these rows.
    """
    hals_blocks(indptr, indices, data, row_scale, col_scale, W, A, F, G, inv_diag, max_sweeps,
                delta2, cross[None], gram[None], [(start, stop)])


def hals_blocks(indptr, indices, data, row_scale, col_scale, W, A, F, G, inv_diag,
                max_sweeps: int, delta2: float, cross, gram, blocks: Sequence[tuple[int, int]],
                pool: Executor | None = None) -> None:
    """:func:`hals_rows` on each row block ``b`` of ``blocks``, adding into ``cross[b]`` (r,) and
    ``gram[b]`` (r, k, k); the blocks on ``pool``. The arrays are checked once for all blocks."""
    dtype = F.dtype
    r, k = G.shape[0], G.shape[1]
    n, width = F.shape
    nb = len(blocks)
    if (width != r * k or G.shape != (r, k, k) or inv_diag.shape != (r, k)
            or cross.shape != (nb, r) or gram.shape != (nb, r, k, k)):
        raise ValueError("F, G, inv_diag, cross and gram disagree on the restarts and k")
    if any(not 0 <= start <= stop <= n for start, stop in blocks):
        raise ValueError(f"a block of rows lies outside the {n} rows of F")
    dense = A is not None and A.shape[0] > 0
    if dense:
        if A.shape != F.shape:
            raise ValueError(f"A must have F's shape {F.shape}, not {A.shape}")
        pointers = (None, None, None)
        kernel = _kernels(dtype, np.int64)["hals"]
    else:
        if len(indptr) - 1 != n or W.shape[1] != width or data.dtype != dtype:
            raise ValueError("the CSR rows, W and F do not fit together")
        pointers = _csr(indptr, indices, data, 0, n)
        kernel = _kernels(dtype, indptr.dtype)["hals"]
    common = (*pointers, _address(row_scale, dtype, "row_scale"),
              _address(col_scale, dtype, "col_scale"),
              None if dense else _address(W, dtype, "W"),
              _address(A, dtype, "A") if dense else None, _address(F, dtype, "F"),
              _address(G, dtype, "G"), _address(inv_diag, dtype, "inv_diag"), r, k,
              int(max_sweeps), float(delta2))
    cross_at = _address(cross, np.float64, "cross")
    gram_at = _address(gram, np.float64, "gram")
    failed = []

    def task(b, start, stop):
        if kernel(*common, cross_at + 8 * b * r, gram_at + 8 * b * r * k * k, start, stop):
            failed.append(b)
    run_blocks(task, blocks, pool)
    if failed:
        raise MemoryError("the HALS kernel could not allocate its buffers")


def csr_transpose(indptr, indices, data, n_cols: int):
    """The CSR arrays ``(indptr, indices, data)`` of the transpose (entries in row order)."""
    n_rows = len(indptr) - 1
    nnz = int(indptr[-1])
    if len(indices) and int(indices.max(initial=0)) >= n_cols:
        raise ValueError("a column index is beyond n_cols")
    t_indptr = np.empty(n_cols + 1, dtype=indptr.dtype)
    t_indices = np.empty(nnz, dtype=indices.dtype)
    t_data = np.empty(nnz, dtype=data.dtype)
    status = _kernels(data.dtype, indptr.dtype)["transpose"](
        *_csr(indptr, indices, data, 0, n_rows), n_rows, n_cols, t_indptr.ctypes.data,
        t_indices.ctypes.data, t_data.ctypes.data)
    if status != 0:
        raise MemoryError("csr_transpose could not allocate its buffer")
    return t_indptr, t_indices, t_data


def csr_row_sums(indptr, data) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the sum of the stored entries and the sum of their squares (float64)."""
    n_rows = len(indptr) - 1
    sums, squares = np.empty(n_rows), np.empty(n_rows)
    nnz = int(indptr[-1])
    _kernels(data.dtype, indptr.dtype)["row_sums"](
        _address(indptr, indptr.dtype, "indptr", n_rows + 1),
        _address(data, data.dtype, "data", nnz), n_rows, sums.ctypes.data, squares.ctypes.data)
    return sums, squares


def top_p_blocks(a, bt, p: int, skip_offset: int | None, blocks: Sequence[tuple[int, int]],
                 pool: Executor | None = None, progress: Callable[[int, int], None] | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``p`` largest positive entries of each row of ``A B^T``, without forming its rows.

    ``a`` and ``bt`` are CSR matrices of ``A`` and ``B^T`` (one value and one index type,
    sorted or not). Row ``i``'s entries are gathered as a sparse product gathers them (the
    same bits), and the ``p`` largest kept; at equal values the smaller column is kept. With
    ``skip_offset`` column ``i + skip_offset`` is left out. The rows of ``blocks`` (which
    must cover the rows of ``A`` once) run on ``pool``, each thread with a workspace of
    ``B``'s rows (three arrays of that length) of its own.

    Returns the COO arrays ``rows, cols, vals`` (int64, int64, ``a``'s dtype), each row's
    entries largest first, and ``tied``: the rows where an entry left out equals the
    ``p``-th kept one. ``progress`` as :func:`run_blocks` calls it.
    """
    n_rows, n_cols = a.shape[0], bt.shape[1]
    if a.shape[1] != bt.shape[0]:
        raise ValueError(f"A has {a.shape[1]} columns and B^T {bt.shape[0]} rows")
    if a.dtype != bt.dtype or a.indptr.dtype != bt.indptr.dtype:
        raise ValueError("A and B^T must have one value type and one index type")
    if sorted(blocks) != list(blocks) or sum(stop - start for start, stop in blocks) != n_rows \
            or any(not 0 <= start <= stop <= n_rows for start, stop in blocks):
        raise ValueError(f"the blocks do not cover the {n_rows} rows once")
    p = int(p)
    if p < 0:
        raise ValueError(f"p must be non-negative, got {p}")
    kernel = _kernels(a.dtype, a.indptr.dtype)["top_p"]
    common = (*_csr(a.indptr, a.indices, a.data, 0, n_rows),
              *_csr(bt.indptr, bt.indices, bt.data, 0, bt.shape[0]), p,
              -1 if skip_offset is None else int(skip_offset))
    out_cols = np.zeros((n_rows, p), dtype=np.int64)
    out_vals = np.zeros((n_rows, p), dtype=a.dtype)
    out_n = np.zeros(n_rows, dtype=np.int64)
    out_tied = np.zeros(n_rows, dtype=np.int8)
    itemsize = out_vals.itemsize

    local = threading.local()      # a workspace per thread, kept from block to block

    def task(b, start, stop):
        if not hasattr(local, "workspace"):
            local.workspace = (np.empty(n_cols, dtype=a.dtype), np.full(n_cols, -1, np.int64),
                               np.empty(n_cols, dtype=np.int64))
        acc, mark, touched = local.workspace
        kernel(*common, acc.ctypes.data, mark.ctypes.data, touched.ctypes.data,
               out_cols.ctypes.data + 8 * start * p, out_vals.ctypes.data + itemsize * start * p,
               out_n.ctypes.data + 8 * start, out_tied.ctypes.data + start, start, stop)
    run_blocks(task, blocks, pool, progress)
    found = np.arange(p) < out_n[:, None]
    rows = np.broadcast_to(np.arange(n_rows)[:, None], (n_rows, p))[found]
    return rows, out_cols[found], out_vals[found], np.flatnonzero(out_tied)
