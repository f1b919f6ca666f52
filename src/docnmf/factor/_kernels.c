/* Compiled row kernels of the fast NMF path: sparse products, HALS row updates, CSR transpose.
 *
 * A plain C library behind a minimal Python module: docnmf.factor._kernels (the Python side,
 * _kernels.py) loads this file with ctypes, whose calls release the GIL, and runs blocks of
 * rows on a thread pool. The kernels are written once in _kernels_impl.h and built here for
 * float64/float32 values and int32/int64 indices. On x86-64 with GCC each is also built for
 * AVX2 and picked at load time (target_clones); contraction into fused multiply-adds is off,
 * so both builds give the same bits. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_ROWS 32

/* How many stored entries ahead a sparse product asks for the rows it will gather: on
 * 20 Newsgroups (k = 20, float64) this took a fifth off a product. */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH 16
#endif

#if defined(_MSC_VER)
#define KERNEL __declspec(dllexport)
#define restrict __restrict
#elif defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define KERNEL __attribute__((target_clones("avx2", "default"), visibility("default")))
#else
#define KERNEL __attribute__((visibility("default")))
#endif

#define T double
#define I int32_t
#define SUFFIX f64_i32
#include "_kernels_impl.h"
#undef T
#undef I
#undef SUFFIX

#define T double
#define I int64_t
#define SUFFIX f64_i64
#include "_kernels_impl.h"
#undef T
#undef I
#undef SUFFIX

#define T float
#define I int32_t
#define SUFFIX f32_i32
#include "_kernels_impl.h"
#undef T
#undef I
#undef SUFFIX

#define T float
#define I int64_t
#define SUFFIX f32_i64
#include "_kernels_impl.h"
#undef T
#undef I
#undef SUFFIX

/* The number of rows a HALS kernel sweeps together (for the Python side to check). */
KERNEL int block_rows(void) { return BLOCK_ROWS; }

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_ckernels",
    "The compiled kernels of docnmf.factor._kernels, called through ctypes.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__ckernels(void) { return PyModule_Create(&module); }
