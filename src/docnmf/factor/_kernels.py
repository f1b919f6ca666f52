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


#: Rows swept together: each coordinate step runs across them as one vector operation, so the
#: steps of different rows overlap instead of each waiting on the last (the step for f_ij
#: needs f_i,j-1 just written).
BLOCK_ROWS = 32


@njit(nogil=True, cache=True)
def _hals_block(at, ft, G, inv_diag, m, max_sweeps, delta2, acc, first, moved, active):
    """HALS steps on ``m`` rows at once, stored as columns of ``ft`` (k, BLOCK_ROWS).

    Row ``b`` minimises ``1/2 f G f - a f`` over ``f >= 0`` with ``a`` column
    ``b`` of ``at``, one coordinate at a time: ``f_j <- max(0, f_j + (a_j -
    (G f)_j) / G_jj)`` (a coordinate whose ``G_jj`` is zero, ``inv_diag``
    zero, is left as it is). At most ``max_sweeps`` sweeps over ``j = 1..k``;
    a row stops once a sweep moves it by at most ``delta2`` times the squared
    move of its first sweep (Gillis & Glineur 2012, applied to the row).
    """
    k = ft.shape[0]
    for b in range(BLOCK_ROWS):
        active[b] = b < m
    for s in range(max_sweeps):
        moved[:] = 0.0
        for j in range(k):
            inv = inv_diag[j]
            if inv == 0.0:
                continue
            gj = G[j]
            acc[:] = at[j]
            for l in range(k):
                g = gj[l]
                fl = ft[l]
                for b in range(BLOCK_ROWS):
                    acc[b] -= g * fl[b]
            fj = ft[j]
            for b in range(BLOCK_ROWS):
                if active[b]:
                    new = fj[b] + acc[b] * inv
                    if new < 0.0:
                        new = 0.0
                    step = new - fj[b]
                    moved[b] += step * step
                    fj[b] = new
        left = False
        for b in range(m):
            if active[b]:
                if s == 0:
                    first[b] = moved[b]
                elif moved[b] <= delta2 * first[b]:
                    active[b] = False
                left = left or active[b]
        if not left:
            break


@njit(nogil=True, cache=True)
def hals_rows(indptr, indices, data, row_scale, col_scale, W, A, F, G, inv_diag, max_sweeps,
              delta2, cross, start, stop):
    """HALS on rows ``[start, stop)`` of the factors ``F`` (n, r*k) of ``r`` restarts side by side.

    Row ``i`` of restart ``t`` (columns ``t*k:(t+1)*k``) minimises
    ``1/2 f G_t f - a f`` with ``a`` its row of the product ``M W``: gathered
    here from the CSR arrays of ``M`` (scaled as in :func:`spmm_rows`), or
    read from ``A`` (n, r*k) when ``A`` has rows (dense ``M``, product made by
    the caller). ``inv_diag[t]`` is ``1 / diag(G_t)`` (0 where the diagonal
    is). Adds each updated row's ``a . f`` to ``cross[t]`` in float64: the
    cross term of the objective, for this block of rows.
    """
    r, k = G.shape[0], G.shape[1]
    width = r * k
    given = A.shape[0] > 0
    scale_rows = row_scale.shape[0] > 0
    scale_cols = col_scale.shape[0] > 0
    rows = np.empty((BLOCK_ROWS, width), dtype=F.dtype)
    at = np.zeros((k, BLOCK_ROWS), dtype=F.dtype)
    ft = np.zeros((k, BLOCK_ROWS), dtype=F.dtype)
    acc = np.empty(BLOCK_ROWS, dtype=F.dtype)
    first = np.empty(BLOCK_ROWS, dtype=F.dtype)
    moved = np.empty(BLOCK_ROWS, dtype=F.dtype)
    active = np.empty(BLOCK_ROWS, dtype=np.bool_)
    for i0 in range(start, stop, BLOCK_ROWS):
        m = min(BLOCK_ROWS, stop - i0)
        for b in range(m):
            i = i0 + b
            a = rows[b]
            if given:
                a[:] = A[i]
                continue
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
        for t in range(r):
            lo = t * k
            for b in range(m):
                for j in range(k):
                    at[j, b] = rows[b, lo + j]
                    ft[j, b] = F[i0 + b, lo + j]
            _hals_block(at, ft, G[t], inv_diag[t], m, max_sweeps, delta2, acc, first, moved,
                        active)
            c = 0.0
            for b in range(m):
                for j in range(k):
                    F[i0 + b, lo + j] = ft[j, b]
                    c += np.float64(at[j, b]) * np.float64(ft[j, b])
            cross[t] += c


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
