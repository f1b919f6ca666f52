"""The version of docnmf, in one place below everything that reports it, and the versions of
what computes its numbers."""

from __future__ import annotations

import platform
from typing import Any

__version__ = "0.1.0"


def software_versions(**packages: str) -> dict[str, Any]:
    """docnmf's, Python's, numpy's, scipy's and scikit-learn's versions, and ``packages``."""
    import numpy
    import scipy
    import sklearn

    return {"docnmf_version": __version__, "python": platform.python_version(),
            "packages": {"numpy": numpy.__version__, "scipy": scipy.__version__,
                         "scikit-learn": sklearn.__version__, **packages}}
