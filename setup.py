"""Build the compiled row kernels (a C library behind a minimal module); the rest is pyproject."""

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NEEDS_COMPILER = ("docnmf's kernels are a C extension: building it needs a C compiler (gcc or "
                  "clang) and Python's headers (Debian, Ubuntu: apt-get install build-essential "
                  "python3-dev; macOS: xcode-select --install)")


class BuildKernels(build_ext):
    """The extension's build, said in a line when there is no compiler (a raw compiler error,
    or "No such file or directory: 'gcc'", was all a user saw)."""

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:    # setuptools' CompileError, or an OSError for a missing CC
            raise SystemExit(f"error: {NEEDS_COMPILER}: {exc}") from exc


# no fused multiply-adds: the AVX2 and the plain builds of each kernel then give the same bits
FLAGS = [] if sys.platform == "win32" else ["-O3", "-ffp-contract=off", "-fvisibility=hidden"]

setup(cmdclass={"build_ext": BuildKernels}, ext_modules=[Extension(
    "docnmf.factor._ckernels",
    sources=["src/docnmf/factor/_kernels.c"],
    depends=["src/docnmf/factor/_kernels_impl.h"],
    extra_compile_args=FLAGS,
)])
