/* The row kernels for one value type T and one index type I; included once per pair by
 * _kernels.c, which defines T, I and SUFFIX (the exported names end in _SUFFIX).
 *
 * Layout: matrices are C-contiguous (row-major). A sparse matrix M is given by its CSR arrays
 * (indptr, indices, data). Every kernel works on the rows [start, stop) only, so that the
 * caller can run blocks of rows on several threads (ctypes releases the GIL while a kernel
 * runs). Floating-point contraction is off (see setup.py): the vectorized and the scalar
 * builds give the same bits. */

#define CAT_(a, b) a##_##b
#define CAT(a, b) CAT_(a, b)
#define NAME(f) CAT(f, SUFFIX)

/* out[i - start] = row_scale[i] * sum_p data[p] * col_scale[indices[p]] * B[indices[p]]
 * B is (., width); a scale of length 0 (NULL) means no scaling. */
KERNEL void NAME(spmm_rows)(const I *indptr, const I *indices, const T *data,
                            const T *row_scale, const T *col_scale,
                            const T *B, int64_t width, T *out, int64_t start, int64_t stop)
{
#ifdef PREFETCH
    I last = indptr[stop];
#endif
    for (int64_t i = start; i < stop; i++) {
        T *restrict o = out + (i - start) * width;
        for (int64_t j = 0; j < width; j++)
            o[j] = 0;
        for (I p = indptr[i]; p < indptr[i + 1]; p++) {
            T x = data[p];
            I q = indices[p];
#ifdef PREFETCH
            if (p + PREFETCH < last) {
                const char *ahead = (const char *)(B + (int64_t)indices[p + PREFETCH] * width);
                __builtin_prefetch(ahead);
                __builtin_prefetch(ahead + 64);
                __builtin_prefetch(ahead + 128);
            }
#endif
            if (col_scale)
                x *= col_scale[q];
            const T *restrict b = B + (int64_t)q * width;
            for (int64_t j = 0; j < width; j++)
                o[j] += x * b[j];
        }
        if (row_scale) {
            T s = row_scale[i];
            for (int64_t j = 0; j < width; j++)
                o[j] *= s;
        }
    }
}

/* HALS steps on m <= BLOCK_ROWS rows at once, stored as the columns of ft (k, BLOCK_ROWS):
 * row b minimises 1/2 f G f - a f over f >= 0, a column b of at, one coordinate at a time,
 * f_j <- max(0, f_j + (a_j - (G f)_j) / G_jj) (inv_diag[j] = 1 / G_jj, or 0 to leave f_j
 * as it is). Each step runs across the rows as one vector operation, so the steps of different
 * rows overlap instead of each waiting on the last. At most max_sweeps sweeps over j; a row
 * stops once a sweep moves it by at most delta2 times the squared move of its first sweep
 * (Gillis & Glineur 2012, applied to the row). */
static void NAME(hals_block)(const T *restrict at, T *restrict ft, const T *restrict G,
                             const T *restrict inv_diag, int64_t k, int64_t m,
                             int64_t max_sweeps, T delta2, T *restrict acc,
                             T *restrict first, T *restrict moved, T *restrict active)
{
    for (int b = 0; b < BLOCK_ROWS; b++)
        active[b] = b < m ? 1 : 0;
    for (int64_t s = 0; s < max_sweeps; s++) {
        for (int b = 0; b < BLOCK_ROWS; b++)
            moved[b] = 0;
        for (int64_t j = 0; j < k; j++) {
            T inv = inv_diag[j];
            if (inv == 0)
                continue;
            const T *restrict gj = G + j * k;
            for (int b = 0; b < BLOCK_ROWS; b++)
                acc[b] = at[j * BLOCK_ROWS + b];
            for (int64_t l = 0; l < k; l++) {
                T g = gj[l];
                const T *restrict fl = ft + l * BLOCK_ROWS;
                for (int b = 0; b < BLOCK_ROWS; b++)
                    acc[b] -= g * fl[b];
            }
            T *restrict fj = ft + j * BLOCK_ROWS;
            for (int b = 0; b < BLOCK_ROWS; b++) {
                T new = fj[b] + acc[b] * inv;
                new = new > 0 ? new : 0;
                new = active[b] != 0 ? new : fj[b];
                T step = new - fj[b];
                moved[b] += step * step;
                fj[b] = new;
            }
        }
        int left = 0;
        for (int64_t b = 0; b < m; b++) {
            if (active[b] == 0)
                continue;
            if (s == 0)
                first[b] = moved[b];
            else if (moved[b] <= delta2 * first[b])
                active[b] = 0;
            left |= active[b] != 0;
        }
        if (!left)
            break;
    }
}

/* HALS on rows [start, stop) of the factors F (n, r*k) of r restarts side by side. Row i of
 * restart t (columns t*k .. t*k + k - 1) is the minimiser above with a its row of M W, gathered
 * from M's CSR arrays (scaled as in spmm_rows), or read from A (n, r*k) when A is not NULL
 * (dense M, product made by the caller). G is (r, k, k), inv_diag (r, k). Adds, in double,
 * each new row's a . f to cross[t] (the cross term of the objective) and f f^T to gram[t]
 * (r, k, k: the new factor's Gram matrix), for these rows.
 * Returns 0, or -1 when its buffers cannot be allocated. */
KERNEL int NAME(hals_rows)(const I *indptr, const I *indices, const T *data,
                           const T *row_scale, const T *col_scale, const T *W, const T *A,
                           T *F, const T *G, const T *inv_diag, int64_t r, int64_t k,
                           int64_t max_sweeps, double delta2, double *cross, double *gram,
                           int64_t start, int64_t stop)
{
    int64_t width = r * k;
    T *rows = malloc(sizeof(T) * (BLOCK_ROWS * width + 2 * k * BLOCK_ROWS + 4 * BLOCK_ROWS));
    double *f64 = malloc(sizeof(double) * (k > 0 ? k : 1));
    if (!rows || !f64) {
        free(rows);
        free(f64);
        return -1;
    }
    T *at = rows + BLOCK_ROWS * width;
    T *ft = at + k * BLOCK_ROWS;
    T *acc = ft + k * BLOCK_ROWS;
    T *first = acc + BLOCK_ROWS, *moved = first + BLOCK_ROWS, *active = moved + BLOCK_ROWS;
    /* the columns of a last, partial block stay zero and inactive */
    memset(at, 0, sizeof(T) * 2 * k * BLOCK_ROWS);
    for (int64_t i0 = start; i0 < stop; i0 += BLOCK_ROWS) {
        int64_t m = stop - i0 < BLOCK_ROWS ? stop - i0 : BLOCK_ROWS;
        if (A)
            memcpy(rows, A + i0 * width, sizeof(T) * m * width);
        else
            NAME(spmm_rows)(indptr, indices, data, row_scale, col_scale, W, width, rows,
                            i0, i0 + m);
        for (int64_t t = 0; t < r; t++) {
            int64_t lo = t * k;
            for (int64_t b = 0; b < m; b++)
                for (int64_t j = 0; j < k; j++) {
                    at[j * BLOCK_ROWS + b] = rows[b * width + lo + j];
                    ft[j * BLOCK_ROWS + b] = F[(i0 + b) * width + lo + j];
                }
            NAME(hals_block)(at, ft, G + t * k * k, inv_diag + t * k, k, m, max_sweeps,
                             (T)delta2, acc, first, moved, active);
            double c = 0;
            double *restrict g = gram + t * k * k;
            for (int64_t b = 0; b < m; b++) {
                for (int64_t j = 0; j < k; j++) {
                    T f = ft[j * BLOCK_ROWS + b];
                    F[(i0 + b) * width + lo + j] = f;
                    f64[j] = f;
                    c += (double)at[j * BLOCK_ROWS + b] * (double)f;
                }
                for (int64_t l = 0; l < k; l++) {
                    double fl = f64[l];
                    if (fl == 0)
                        continue;
                    for (int64_t j = 0; j < k; j++)
                        g[l * k + j] += fl * f64[j];
                }
            }
            cross[t] += c;
        }
    }
    free(rows);
    free(f64);
    return 0;
}

/* The CSR arrays of the transpose of the n_rows x n_cols matrix (indptr, indices, data):
 * t_indptr (n_cols + 1), t_indices and t_data (nnz), entries of each new row in row order. */
KERNEL int NAME(csr_transpose)(const I *indptr, const I *indices, const T *data, int64_t n_rows,
                               int64_t n_cols, I *t_indptr, I *t_indices, T *t_data)
{
    I *fill = malloc(sizeof(I) * (n_cols > 0 ? n_cols : 1));
    if (!fill)
        return -1;
    memset(t_indptr, 0, sizeof(I) * (n_cols + 1));
    for (I p = 0; p < indptr[n_rows]; p++)
        t_indptr[indices[p] + 1]++;
    for (int64_t j = 0; j < n_cols; j++) {
        t_indptr[j + 1] += t_indptr[j];
        fill[j] = t_indptr[j];
    }
    for (int64_t i = 0; i < n_rows; i++)
        for (I p = indptr[i]; p < indptr[i + 1]; p++) {
            I dest = fill[indices[p]]++;
            t_indices[dest] = (I)i;
            t_data[dest] = data[p];
        }
    free(fill);
    return 0;
}

/* Is entry (va, ca) a worse neighbour than (vb, cb)? A smaller value, at equal values the
 * larger column: ties at the p-th place go to the smaller column. */
#ifndef TOPP_WORSE
#define TOPP_WORSE(va, ca, vb, cb) ((va) < (vb) || ((va) == (vb) && (ca) > (cb)))
#endif

/* Moves entry t of a heap of m entries down until neither child is worse (the root is the
 * worst). */
static void NAME(topp_sift)(T *restrict v, int64_t *restrict c, int64_t m, int64_t t)
{
    for (;;) {
        int64_t w = t, l = 2 * t + 1, r = l + 1;
        if (l < m && TOPP_WORSE(v[l], c[l], v[w], c[w]))
            w = l;
        if (r < m && TOPP_WORSE(v[r], c[r], v[w], c[w]))
            w = r;
        if (w == t)
            return;
        T tv = v[t]; v[t] = v[w]; v[w] = tv;
        int64_t tc = c[t]; c[t] = c[w]; c[w] = tc;
        t = w;
    }
}

/* For each row i in [start, stop) of the product A B^T (A in CSR; B^T in CSR, i.e. B in CSC),
 * the p largest positive entries: their columns and values in out_cols and out_vals at
 * (i - start) * p, largest first (at equal values the smaller column first), their number in
 * out_n[i - start]; out_tied[i - start] is 1 when an entry left out equals the p-th kept one
 * (a tie for the p-th place, which the caller may break otherwise), else 0. Column
 * i + skip_offset is left out when skip_offset >= 0 (a document is not its own neighbour).
 * Each row is gathered into acc (n_cols values) as a sparse product gathers it (same order,
 * same bits); mark (n_cols, all -1 before the first call) records which columns row i
 * touched, listed in touched (n_cols): no dense row is ever scanned. */
KERNEL void NAME(topp_rows)(const I *indptr, const I *indices, const T *data,
                            const I *bt_indptr, const I *bt_indices, const T *bt_data,
                            int64_t p, int64_t skip_offset, T *restrict acc,
                            int64_t *restrict mark, int64_t *restrict touched,
                            int64_t *restrict out_cols, T *restrict out_vals,
                            int64_t *restrict out_n, int8_t *restrict out_tied,
                            int64_t start, int64_t stop)
{
    for (int64_t i = start; i < stop; i++) {
        int64_t n_touched = 0;
        for (I q = indptr[i]; q < indptr[i + 1]; q++) {
            T x = data[q];
            I t = indices[q];
            for (I r = bt_indptr[t]; r < bt_indptr[t + 1]; r++) {
                int64_t j = bt_indices[r];
                if (mark[j] != i) {
                    mark[j] = i;
                    touched[n_touched++] = j;
                    acc[j] = x * bt_data[r];
                } else {
                    acc[j] += x * bt_data[r];
                }
            }
        }
        T *restrict v = out_vals + (i - start) * p;
        int64_t *restrict c = out_cols + (i - start) * p;
        int64_t m = 0;
        int64_t skip = skip_offset >= 0 ? i + skip_offset : -1;
        for (int64_t u = 0; u < n_touched; u++) {
            int64_t j = touched[u];
            T a = acc[j];
            if (!(a > 0) || j == skip)
                continue;
            if (m < p) {     /* the heap is not full: add at the bottom, move up */
                int64_t t = m++;
                v[t] = a;
                c[t] = j;
                while (t > 0 && TOPP_WORSE(v[t], c[t], v[(t - 1) / 2], c[(t - 1) / 2])) {
                    int64_t up = (t - 1) / 2;
                    T tv = v[t]; v[t] = v[up]; v[up] = tv;
                    int64_t tc = c[t]; c[t] = c[up]; c[up] = tc;
                    t = up;
                }
            } else if (p > 0 && TOPP_WORSE(v[0], c[0], a, j)) {   /* better than the worst */
                v[0] = a;
                c[0] = j;
                NAME(topp_sift)(v, c, m, 0);
            }
        }
        out_n[i - start] = m;
        out_tied[i - start] = 0;
        if (m == p && p > 0) {      /* are there more entries equal to the p-th than it kept? */
            T pth = v[0];
            int64_t kept = 0, equal = 0;
            for (int64_t t = 0; t < m; t++)
                kept += v[t] == pth;
            for (int64_t u = 0; u < n_touched; u++)
                equal += acc[touched[u]] == pth && touched[u] != skip;
            out_tied[i - start] = equal > kept;
        }
        for (int64_t left = m; left > 1; left--) {   /* the worst goes last, one at a time */
            T tv = v[0]; v[0] = v[left - 1]; v[left - 1] = tv;
            int64_t tc = c[0]; c[0] = c[left - 1]; c[left - 1] = tc;
            NAME(topp_sift)(v, c, left - 1, 0);
        }
    }
}

/* Per row: the sum of the entries and the sum of their squares, in double. */
KERNEL void NAME(csr_row_sums)(const I *indptr, const T *data, int64_t n_rows, double *sums,
                               double *squares)
{
    for (int64_t i = 0; i < n_rows; i++) {
        double s = 0, q = 0;
        for (I p = indptr[i]; p < indptr[i + 1]; p++) {
            double x = data[p];
            s += x;
            q += x * x;
        }
        sums[i] = s;
        squares[i] = q;
    }
}

#undef NAME
#undef CAT
#undef CAT_
