"""The results file of an experiment: a header line of parameters, then one JSON line per run.

The file is append-only while an experiment runs; every line is flushed and
fsynced, so a killed experiment loses at most the line being written. On
start the file is read back: complete runs are reused, a torn last line is
dropped (and the file rewritten without it), and a header whose parameters
differ from the requested ones stops the experiment rather than mixing
results.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any, Callable, Hashable

from ..io import atomic_write_text, to_jsonable
from .conditions import ProtocolError

__all__ = ["RunKey", "run_key", "ResultsFile"]

logger = logging.getLogger(__name__)

#: Bumped when the meaning of a line changes.
FORMAT_VERSION = 1

#: Header entries added after files were written without them: a header that lacks one is
#: taken to agree on it (its results are reused, as before; the data cannot be checked).
ADDED_LATER = (("data", "digest"),)

#: (condition, weighting, method, k, run): what identifies one finished run.
RunKey = tuple[str, str, str, int, int]


def run_key(record: dict[str, Any]) -> RunKey:
    """The identity of a run record.

    Examples
    --------
    >>> run_key({"condition": "tdt2", "weighting": "cai-global", "method": "nmf", "k": 3, "run": 7})
    ('tdt2', 'cai-global', 'nmf', 3, 7)
    """
    return (record["condition"], record["weighting"], record["method"], int(record["k"]),
            int(record["run"]))


def _dumps(obj: Any) -> str:
    return json.dumps(to_jsonable(obj), sort_keys=True, ensure_ascii=False)


def _differences(old: dict, new: dict, prefix: str = "") -> list[str]:
    out = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            out += _differences(a, b, f"{prefix}{key}.")
        elif a != b:
            out.append(f"{prefix}{key}: {_short(a)} there, {_short(b)} now")
    return out


def _short(value, width: int = 40) -> str:
    """``value`` as JSON, cut to ``width`` characters (a whole corpus description is long)."""
    text = json.dumps(value)
    return text if len(text) <= width else text[:width - 3] + "..."


class ResultsFile:
    """Read, check and extend one ``results.jsonl``.

    Parameters
    ----------
    path : path-like
    params : dict
        Everything that changes the numbers of a run (seed, restarts, data
        condition, corpus sizes...). Stored in the header line; a file whose
        header differs is refused.
    key : callable(record) -> hashable
        What identifies a finished run (:func:`run_key` for the k-class
        protocol; other experiments pass their own). Of repeated keys the
        first line is kept.
    """

    def __init__(self, path: str | os.PathLike, params: dict[str, Any],
                 key: Callable[[dict[str, Any]], Hashable] = run_key):
        self.path = Path(path)
        self.params = json.loads(_dumps(params))
        self.key = key
        self._fh = None

    def _header_line(self) -> str:
        return _dumps({"kind": "header", "format": FORMAT_VERSION, "params": self.params}) + "\n"

    def open(self) -> list[dict[str, Any]]:
        """Check (or write) the header and return the run records already present.

        Raises
        ------
        ProtocolError
            When the file belongs to other parameters, is not a results file,
            or has a damaged line other than the last.
        """
        text = self.path.read_text(encoding="utf-8") if self.path.exists() else ""
        lines = text.split("\n")
        complete, last = lines[:-1], lines[-1]  # ``last`` is "" unless the final write was torn
        if not complete:  # empty, or only a torn header
            atomic_write_text(self.path, self._header_line())
            return self._open_for_append([])
        header = self._parse(complete[0], 1)
        if not isinstance(header, dict) or header.get("kind") != "header":
            raise ProtocolError(f"{self.path} is not a docnmf results file (no header line)")
        if header.get("format") != FORMAT_VERSION or not self._agrees(header.get("params")):
            there = header.get("params") or {}
            if isinstance(there, dict) and there.get("suite") != self.params.get("suite"):
                kind = ("docnmf benchmark" if there.get("suite") else
                        "docnmf evaluate or reproduce")
                raise ProtocolError(f"{self.path} holds the results of {kind}, not of this "
                                    "command; use another output folder")
            if not any(line.strip() for line in complete[1:]):
                # a header and no result (a run that failed or was stopped before its first):
                # no work to keep, nothing to refuse for; this run's parameters take its place
                logger.info("%s held no results yet: started again for these parameters",
                            self.path)
                atomic_write_text(self.path, self._header_line())
                return self._open_for_append([])
            diffs = _differences(there if isinstance(there, dict) else {}, self.params)
            if header.get("format") != FORMAT_VERSION:
                diffs.insert(0, f"format: {header.get('format')} there, {FORMAT_VERSION} now")
            shown = "; ".join(diffs[:3]) + (f"; and {len(diffs) - 3} more" if len(diffs) > 3
                                             else "")
            raise ProtocolError(
                f"{self.path} holds results for other parameters ({shown}); "
                "use another output folder, or delete the file to start again")
        records, seen = [], set()
        for number, line in enumerate(complete[1:], start=2):
            if not line.strip():
                continue
            record = self._parse(line, number)
            try:
                key = self.key(record)
            except (KeyError, TypeError, ValueError):
                raise ProtocolError(f"{self.path}, line {number}, is not a run record") from None
            if key not in seen:
                seen.add(key)
                records.append(record)
        upgrade = header.get("params") != self.params     # a header of fewer entries
        if last or upgrade:
            # killed mid-write: drop the torn line, so its run is computed again; an older
            # header takes this one's entries, so that the next resume checks them
            head = self._header_line() if upgrade else complete[0] + "\n"
            atomic_write_text(self.path, head + "".join(line + "\n" for line in complete[1:]))
        return self._open_for_append(records)

    def _agrees(self, there) -> bool:
        """Whether the header's ``there`` parameters are this run's, but for entries added
        later (:data:`ADDED_LATER`) that ``there`` lacks."""
        if there == self.params:
            return True
        if not isinstance(there, dict):
            return False
        params = json.loads(json.dumps(self.params))
        for outer, inner in ADDED_LATER:
            if (isinstance(there.get(outer), dict) and inner not in there[outer]
                    and isinstance(params.get(outer), dict)):
                params[outer].pop(inner, None)
        if there != params:
            return False
        logger.info("%s was written before its header held the data's digest: its results are "
                    "reused without checking that the data are the same (the header holds the "
                    "digest from now on)", self.path)
        return True

    def _parse(self, line: str, number: int) -> dict[str, Any]:
        try:
            return json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise ProtocolError(f"{self.path}, line {number}, is not valid JSON; the file was "
                                "edited or damaged") from None

    def _open_for_append(self, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        self._fh = open(self.path, "a", encoding="utf-8")
        return records

    def append(self, record: dict[str, Any]) -> None:
        """Add one run record durably (flushed and fsynced before returning)."""
        if self._fh is None:
            raise RuntimeError("call open() before append()")
        self._fh.write(_dumps(record) + "\n")
        self._fh.flush()
        os.fsync(self._fh.fileno())

    def keep_only(self, records: list[dict[str, Any]]) -> None:
        """Rewrite the file with ``records`` only (atomically): a run resumed from a file of a
        larger plan publishes its own records, not the others it found there."""
        self.close()
        atomic_write_text(self.path, self._header_line()
                          + "".join(_dumps(r) + "\n" for r in records))

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self) -> "ResultsFile":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
