"""The names a mistyped one is near, for "did you mean ...?" in error messages."""

from __future__ import annotations

import difflib
from typing import Iterable


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """'; did you mean ...?' naming up to four of ``names`` that hold ``name`` (ignoring case)
    or are spelled closest to it (``reuters``: reuters21578, ...); empty when none is near."""
    names = list(names)
    wanted = name.lower()
    near = [known for known in names if wanted and wanted in known.lower()]
    near += [known for known in difflib.get_close_matches(wanted, names, n=3) if known not in near]
    if not near:
        return ""
    *first, last = near[:4]
    return f"; did you mean {', '.join(first)} or {last}?" if first else f"; did you mean {last}?"
