"""The error every corpus reader raises for bad input."""

from __future__ import annotations


class CorpusError(ValueError):
    """A corpus cannot be read: missing file, unknown column, malformed record, duplicate id."""

    # shown in tracebacks under the public name it is imported by
    __module__ = "docnmf.corpus"
