"""Compiled row kernels (numba) for the fast NMF path: sparse products and HALS row updates.

Every kernel works on a range of rows ``[start, stop)`` and releases the GIL,
so :class:`docnmf.factor.sparse.SparseProducts` runs the row blocks of one
product on a thread pool. Rows are independent, and each kernel writes the
partial sums of its block into that block's own output, which the caller adds
up in block order: the result does not depend on how many threads ran.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["spmm_rows", "hals_rows", "csr_transpose"]


@njit(nogil=True, cache=True)
def spmm_rows(indptr, indices, data, row_scale, col_scale, B, out, start, stop):
    """``out[i] = row_scale[i] * sum_p data[p] * col_scale[q_p] * B[q_p]`` for rows in range.

    ``row_scale`` / ``col_scale`` of length 0 mean no scaling. ``out`` has
    ``stop - start`` rows.
    """
    width = B.shape[1]
    scale_rows = row_scale.shape[0] > 0
    scale_cols = col_scale.shape[0] > 0
    for i in range(start, stop):
        o = out[i - start]
        o[:] = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            x = data[p]
            q = indices[p]
            if scale_cols:
                x = x * col_scale[q]
            b = B[q]
            for j in range(width):
                o[j] += x * b[j]
        if scale_rows:
            s = row_scale[i]
            for j in range(width):
                o[j] *= s


@njit(nogil=True, cache=True)
def _hals_row(a, f, G, max_sweeps, delta2, h):
    """HALS steps on one row ``f`` (k,) of a factor: ``min 1/2 f G f - a f`` over ``f >= 0``.

    Each step minimises over one coordinate exactly: ``f_j <- max(0, f_j + (a_j -
    (G f)_j) / G_jj)``; ``h = G f`` is kept up to date as ``f`` moves. At most
    ``max_sweeps`` sweeps over ``j = 1..k``; stops once a sweep moves ``f`` by at
    most ``delta2`` times the squared move of the first (Gillis & Glineur 2012,
    applied to the row). A coordinate whose ``G_jj`` is zero is left as it is.
    """
    k = f.shape[0]
    for j in range(k):
        h[j] = 0.0
    for l in range(k):
        fl = f[l]
        if fl != 0.0:
            for j in range(k):
                h[j] += G[l, j] * fl
    first = 0.0
    for s in range(max_sweeps):
        moved = 0.0
        for j in range(k):
            d = G[j, j]
            if d <= 0.0:
                continue
            new = f[j] + (a[j] - h[j]) / d
            if new < 0.0:
                new = 0.0
            step = new - f[j]
            if step != 0.0:
                moved += step * step
                f[j] = new
                for l in range(k):
                    h[l] += G[j, l] * step
        if s == 0:
            first = moved
        elif moved <= delta2 * first:
            break


@njit(nogil=True, cache=True)
def _gram_and_cross(a, f, gram, cross):
    """Add ``f f^T`` to ``gram`` (k, k) and return ``cross + a . f``, summed in float64."""
    k = f.shape[0]
    for l in range(k):
        fl = np.float64(f[l])
        if fl != 0.0:
            cross += np.float64(a[l]) * fl
            for j in range(k):
                gram[l, j] += fl * np.float64(f[j])
    return cross


@njit(nogil=True, cache=True)
def hals_rows(indptr, indices, data, row_scale, col_scale, W, A, F, G, max_sweeps, delta2,
              gram, cross, start, stop):
    """HALS on rows ``[start, stop)`` of the factors ``F`` (n, r*k) of ``r`` restarts side by side.

    Row ``i`` of restart ``t`` (columns ``t*k:(t+1)*k``) minimises
    ``1/2 f G_t f - a f`` with ``a`` its row of the product ``M W``: gathered
    here from the CSR arrays of ``M`` (scaled as in :func:`spmm_rows`), or
    read from ``A`` (n, r*k) when ``A`` has rows (dense ``M``, product made by
    the caller). Adds each updated row's ``f f^T`` to ``gram[t]`` (r, k, k)
    and ``a . f`` to ``cross[t]``, both in float64: the Gram matrix of the new
    factor and the cross term of the objective, for this block of rows.
    """
    r, k = G.shape[0], G.shape[1]
    width = r * k
    given = A.shape[0] > 0
    scale_rows = row_scale.shape[0] > 0
    scale_cols = col_scale.shape[0] > 0
    a = np.empty(width, dtype=F.dtype)
    h = np.empty(k, dtype=F.dtype)
    for i in range(start, stop):
        if given:
            a[:] = A[i]
        else:
            a[:] = 0.0
            for p in range(indptr[i], indptr[i + 1]):
                x = data[p]
                q = indices[p]
                if scale_cols:
                    x = x * col_scale[q]
                w = W[q]
                for j in range(width):
                    a[j] += x * w[j]
            if scale_rows:
                s = row_scale[i]
                for j in range(width):
                    a[j] *= s
        f = F[i]
        for t in range(r):
            lo = t * k
            _hals_row(a[lo:lo + k], f[lo:lo + k], G[t], max_sweeps, delta2, h)
            cross[t] = _gram_and_cross(a[lo:lo + k], f[lo:lo + k], gram[t], cross[t])


@njit(nogil=True, cache=True)
def csr_transpose(indptr, indices, data, n_cols):
    """The CSR arrays of the transpose (columns become rows, entries in row order)."""
    n_rows = indptr.shape[0] - 1
    nnz = indptr[n_rows]
    t_indptr = np.zeros(n_cols + 1, dtype=indptr.dtype)
    for p in range(nnz):
        t_indptr[indices[p] + 1] += 1
    for j in range(n_cols):
        t_indptr[j + 1] += t_indptr[j]
    fill = t_indptr[:-1].copy()
    t_indices = np.empty(nnz, dtype=indices.dtype)
    t_data = np.empty(nnz, dtype=data.dtype)
    for i in range(n_rows):
        for p in range(indptr[i], indptr[i + 1]):
            q = indices[p]
            dest = fill[q]
            t_indices[dest] = i
            t_data[dest] = data[p]
            fill[q] = dest + 1
    return t_indptr, t_indices, t_data
