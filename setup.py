"""Build the compiled row kernels (a C library behind a minimal module); the rest is pyproject."""

import sys

from setuptools import Extension, setup

# no fused multiply-adds: the AVX2 and the plain builds of each kernel then give the same bits
FLAGS = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off", "-fvisibility=hidden"]

setup(ext_modules=[Extension(
    "docnmf.factor._ckernels",
    sources=["src/docnmf/factor/_kernels.c"],
    depends=["src/docnmf/factor/_kernels_impl.h"],
    extra_compile_args=FLAGS,
)])
