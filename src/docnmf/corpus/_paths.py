"""Where the shared corpora live."""

from __future__ import annotations

import os
from pathlib import Path

#: Environment variable naming the folder that holds the corpora.
DATA_ENV = "DOCNMF_DATA"


def data_dir() -> Path:
    """The corpora folder: ``$DOCNMF_DATA`` if set, else ``../shared/datasets``.

    The fallback is looked for next to the current directory and next to the
    source checkout this package was imported from, so tests and benchmarks
    find the corpora from a clone placed beside ``shared/``.
    """
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(os.path.expanduser(env))     # ('~name' of no user stays: Path's raised)
    here = Path(__file__).resolve()
    candidates = [Path.cwd() / ".." / "shared" / "datasets"]
    candidates += [parent / ".." / "shared" / "datasets" for parent in here.parents]
    for cand in candidates:
        if cand.is_dir():
            return cand.resolve()
    return (Path.cwd() / ".." / "shared" / "datasets").resolve()
