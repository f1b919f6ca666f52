"""Decoding that never fails: invalid bytes become U+FFFD and are counted once per read."""

from __future__ import annotations

import codecs
import os
import warnings
from pathlib import Path


class Decoder:
    """Decode byte strings with ``errors="replace"``, counting the ones that needed it.

    A reader decodes each document (or file) through one ``Decoder`` and calls
    :meth:`warn` once at the end, so a whole read emits at most one warning.

    Examples
    --------
    >>> dec = Decoder()
    >>> dec(b"caf\\xc3\\xa9"), dec(b"caf\\xe9"), dec.n_replaced
    ('café', 'caf\\ufffd', 1)
    """

    def __init__(self, encoding: str = "utf-8", *, advise: bool = False) -> None:
        self.encoding = encoding
        self.advise = advise        # the warning says how to name another encoding
        self.n_replaced = 0
        self.first: str | None = None
        self.wide = 0               # of them, in UTF-16 or UTF-32 by their byte-order mark
        self.file_encoding: str | None = None   # the file's own, where a mark says (readers)

    def __call__(self, data: bytes, where: str | None = None) -> str:
        """``data`` decoded; ``where`` names it ("line 12") in the warning if it is the first bad one."""
        encoding = self.file_encoding or self.encoding
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as exc:
            self.n_replaced += 1
            if self.first is None and where is not None:
                self.first = f"{where}, byte {exc.start + 1}"
            return data.decode(encoding, errors="replace")

    def replaced_wide(self, where: str | None, start: int, codec: str) -> None:
        """Count a text in ``codec`` (UTF-16/32, by its byte-order mark) that was not valid
        there, its first bad unit at byte ``start``, as one decoded with replacement."""
        self.n_replaced += 1
        self.wide += 1
        if self.first is None:
            self.first = (f"{where}, " if where else "") + f"byte {start + 1}, in {codec}"

    def read(self, path: str | os.PathLike, where: str | None = None) -> str:
        """Decode one whole file."""
        with open(path, "rb") as file:
            return self(file.read(), where)

    def warn(self, what: str, source: Path | str, *, stacklevel: int = 3) -> None:
        """Emit one ``UnicodeWarning`` if anything was decoded with replacement.

        ``what`` is the singular noun for the decoded unit ("document", "file").
        """
        n = self.n_replaced
        if n:
            noun, verb = (what, "was") if n == 1 else (what + "s", "were")
            first = f" (the first at {self.first})" if self.first else ""
            advice = ("; if they are in another encoding, name it with --encoding (encoding= in "
                      "Python): cp1252 for text saved on Windows in Western Europe, for one"
                      if self.advise and self.wide < n
                      and codecs.lookup(self.encoding).name == "utf-8" else "")
            wide = (f" ({self.wide} of them not valid in the encoding a byte-order mark named, "
                    "UTF-16 or UTF-32)" if self.wide and self.wide < n else "")
            encoding = ("in the encoding a byte-order mark named (UTF-16 or UTF-32)"
                        if self.wide == n else self.encoding)
            warnings.warn(
                f"{n} {noun} in {source} {verb} not valid {encoding}{wide} "
                f"and decoded with replacement characters (U+FFFD){first}{advice}",
                UnicodeWarning,
                stacklevel=stacklevel,
            )


def readable_name(name: str) -> str:
    """A file or folder name as text: bytes that are not UTF-8 (which ``os`` hands over as
    surrogate escapes, and no UTF-8 output can hold) shown as ``\\xNN``.

    Examples
    --------
    >>> readable_name("caf\\udce9.txt"), readable_name("café.txt")
    ('caf\\\\xe9.txt', 'café.txt')
    """
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
