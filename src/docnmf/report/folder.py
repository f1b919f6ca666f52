"""Read a result folder written by ``docnmf cluster`` back into what the report shows."""

from __future__ import annotations

import csv
import json
import math
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..io import from_spreadsheet, spreadsheet_safe

__all__ = ["ReportError", "RunFolder", "read_run_folder"]


class ReportError(Exception):
    """A result folder that cannot be read into a report (missing or damaged file)."""


@dataclass
class RunFolder:
    """The files of one result folder, read."""

    path: Path
    run: dict[str, Any]
    clusters: list[dict[str, str]]
    ids: list[str]
    labels: np.ndarray
    memberships: np.ndarray
    metrics: dict[str, Any] | None
    data: dict[str, Any] | None
    #: choose_k.json, written beside the results by ``docnmf cluster -k auto``
    selection: dict[str, Any] | None = None
    #: documents with a share in each cluster (overlapping.csv, overlapping NMA), or None
    overlapping: np.ndarray | None = None
    #: each cluster's summary (summaries.csv, docnmf cluster --summaries), or None
    summaries: dict[int, str] | None = None

    @property
    def n_clusters(self) -> int:
        return len(self.clusters)


def _read_csv(path: Path) -> list[dict[str, str]]:
    try:
        # utf-8-sig: a file saved again by a spreadsheet ("CSV UTF-8") starts with a BOM
        with open(path, newline="", encoding="utf-8-sig") as fh:
            return list(csv.DictReader(fh))
    except OSError as exc:
        raise ReportError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (csv.Error, UnicodeDecodeError) as exc:
        raise ReportError(f"{path} is not a readable CSV file: {exc}") from None


def _read_json(path: Path, required: bool = True) -> dict[str, Any] | None:
    """The JSON object in ``path`` (None when absent and not ``required``)."""
    if not path.is_file() and not required:
        return None
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReportError(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ReportError(f"{path} is not valid JSON: {type(exc).__name__}: "
                          f"{str(exc)[:200]}") from None
    if not isinstance(value, dict):
        raise ReportError(f"{path} holds a JSON {type(value).__name__}, not the object docnmf "
                          "cluster writes")
    return value


def _read_memberships(path: Path, cells: list[str], k: int) -> tuple[np.ndarray | None, list[str]]:
    """The memberships in ``path``, their rows in the order of assignments.csv's id ``cells``,
    and the ids: the cells without the ``'`` docnmf writes before an id a spreadsheet would
    run (an earlier version wrote an id starting with ``'`` as it was, as memberships.npz's
    ``ids`` then show)."""
    ids = [from_spreadsheet(cell) for cell in cells]
    earlier = [plain if spreadsheet_safe(plain) == cell else cell
               for cell, plain in zip(cells, ids)]
    if not path.is_file():
        return None, ids
    try:
        with np.load(path, allow_pickle=False) as npz:
            M = np.asarray(npz["memberships"], dtype=np.float64)
            saved_ids = npz["ids"].tolist() if "ids" in npz.files else None
    except KeyError:
        raise ReportError(f"{path} holds no 'memberships' array") from None
    except OSError as exc:
        if exc.strerror:        # the system's refusal (too many open files, no permission)
            raise ReportError(f"cannot read {path}: {exc.strerror}") from None
        raise ReportError(f"{path} is not a readable .npz file (docnmf cluster writes one "
                          "holding a 'memberships' array); rebuild the folder with docnmf "
                          "cluster") from None
    except (ValueError, zipfile.BadZipFile):
        # numpy's message for a file that is no .npz suggests loading it as a pickle: never
        raise ReportError(f"{path} is not a readable .npz file (docnmf cluster writes one "
                          "holding a 'memberships' array); rebuild the folder with docnmf "
                          "cluster") from None
    if M.shape != (len(ids), k):
        raise ReportError(f"{path} has memberships of shape {M.shape}, expected ({len(ids)}, {k})")
    if saved_ids is None:
        return M, ids
    row = {d: i for i, d in enumerate(saved_ids)}
    for reading in (ids, earlier):
        # (NumPy's strings lose their trailing NULs)
        keys = [d.rstrip("\0") for d in reading]
        if keys == saved_ids:
            return M, reading
        if len(row) == len(saved_ids) and sorted(row) == sorted(keys):
            # assignments.csv sorted again (by cluster, in a spreadsheet): rows by their ids
            return M[[row[d] for d in keys]], reading
    raise ReportError(f"{path} and assignments.csv hold different documents; rebuild the "
                      "folder with docnmf cluster")


def read_run_folder(path: str | Path) -> RunFolder:
    """The result files of ``path``: run.json, clusters.csv and assignments.csv are needed;
    metrics.json, memberships.npz, report_data.json and choose_k.json are used when present."""
    path = Path(path)
    if path.is_file():
        raise ReportError(f"{path} is a file; docnmf report takes the folder docnmf cluster "
                          "wrote (its -o)")
    if not path.is_dir():
        raise ReportError(f"no such result folder: {path}")
    for name in ("run.json", "clusters.csv", "assignments.csv"):
        if not (path / name).is_file():
            raise ReportError(f"{path} has no {name}: not a folder written by docnmf cluster")
    run = _read_json(path / "run.json")
    clusters = _read_csv(path / "clusters.csv")
    for number, row in enumerate(clusters):     # a row edited in or out: say so, here
        if row.get("cluster") != str(number):
            raise ReportError(f"{path / 'clusters.csv'}, data row {number + 1}: expected "
                              f"cluster {number}, found {row.get('cluster')!r}; rebuild the "
                              "folder with docnmf cluster")
    rows = _read_csv(path / "assignments.csv")
    k = len(clusters)
    ids, labels, strength = [], [], []
    for number, row in enumerate(rows, start=1):
        try:
            ids.append(row["id"])
            labels.append(int(row["cluster"]))
            strength.append(float(row["membership"]))
        except KeyError as exc:
            raise ReportError(f"{path / 'assignments.csv'} has no column {exc}: not a file "
                              "written by docnmf cluster") from None
        except (ValueError, TypeError):
            raise ReportError(f"{path / 'assignments.csv'}, data row {number}: the cluster "
                              f"({row.get('cluster')!r}) must be a whole number and the "
                              f"membership ({row.get('membership')!r}) a number; rebuild the "
                              "folder with docnmf cluster") from None
    labels, strength = np.array(labels, dtype=np.intp), np.array(strength, dtype=np.float64)
    # cluster -1: a document in no cluster (nothing left to cluster it by)
    if labels.size and (labels.min() < -1 or labels.max() >= k):
        raise ReportError(f"{path / 'assignments.csv'} names a cluster that clusters.csv lacks")
    _check_sizes(path, clusters, labels)
    M, ids = _read_memberships(path / "memberships.npz", ids, k)
    if M is None:   # older folders: the assigned cluster's strength is all that is known
        M = np.zeros((len(ids), k))
        assigned = np.flatnonzero(labels >= 0)
        M[assigned, labels[assigned]] = strength[assigned]
    overlapping = None
    if (path / "overlapping.csv").is_file():
        overlapping = np.zeros(k, dtype=np.int64)
        for number, row in enumerate(_read_csv(path / "overlapping.csv"), start=1):
            try:
                c = int(row["cluster"])
                if c < 0:
                    raise IndexError(c)
                overlapping[c] += 1
            except (KeyError, ValueError, TypeError, IndexError):
                raise ReportError(f"{path / 'overlapping.csv'}, data row {number}: no cluster of "
                                  "clusters.csv; rebuild the folder with docnmf cluster") from None
    summaries = None
    if (path / "summaries.csv").is_file():
        summaries = {}
        for number, row in enumerate(_read_csv(path / "summaries.csv"), start=1):
            try:
                summaries[int(row["cluster"])] = str(row["summary"] or "")
            except (KeyError, ValueError, TypeError):
                raise ReportError(f"{path / 'summaries.csv'}, data row {number}: no cluster "
                                  "and summary; rebuild the folder with docnmf cluster "
                                  "--summaries") from None
    return RunFolder(path, run, clusters, ids, labels, M,
                     _read_json(path / "metrics.json", required=False),
                     _checked_report_data(_read_json(path / "report_data.json", required=False),
                                          len(clusters), path / "report_data.json"),
                     _read_json(path / "choose_k.json", required=False), overlapping,
                     summaries)


def _check_sizes(path: Path, clusters: list[dict[str, str]], labels: np.ndarray) -> None:
    """clusters.csv's sizes must be assignments.csv's counts: a folder without memberships.npz
    (a run on Dask) whose assignments.csv lost half its rows made a page of 40 documents in
    clusters of 15 to 17, shares adding up to 200%."""
    try:
        sizes = [int(row["size"]) for row in clusters]
    except (KeyError, ValueError, TypeError):
        return      # an older layout, or an edit the page shows as it is
    counted = np.bincount(labels[labels >= 0], minlength=len(clusters)).tolist()
    if sizes != counted:
        c = next(c for c, (a, b) in enumerate(zip(sizes, counted)) if a != b)
        raise ReportError(f"{path / 'clusters.csv'} gives cluster {c} {sizes[c]} documents, "
                          f"{path / 'assignments.csv'} {counted[c]}: the files are not of one "
                          "run; rebuild the folder with docnmf cluster")


def _number(value) -> bool:
    """A finite number: Python's JSON reads NaN and Infinity, which reach the page as null."""
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and (isinstance(value, int) or math.isfinite(value)))


def _checked_report_data(data: dict | None, k: int, path: Path) -> dict | None:
    """``data`` when its map and similarity matrix are what the page's script draws (numbers,
    cluster numbers below ``k``, texts), else a ReportError: the script builds markup from
    them, and an edited file made it run script of its own."""
    if data is None:
        return None
    m, similarity = data.get("map"), data.get("similarity")
    try:
        n = len(m["x"]) if m is not None else 0
        # absent, the page goes without it; null is no map (the page took it for one)
        map_ok = "map" not in data or m is not None and (
            all(len(m[key]) == n for key in ("y", "cluster", "id", "text"))
            and all(_number(v) for key in ("x", "y") for v in m[key])
            and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < k
                    for c in m["cluster"])
            and all(isinstance(v, str) for key in ("id", "text") for v in m[key]))
        rows = similarity["matrix"] if similarity is not None else []
        similarity_ok = "similarity" not in data or similarity is not None and (
            len(rows) == k and all(len(row) == k and all(map(_number, row)) for row in rows))
    except (KeyError, TypeError):
        map_ok = similarity_ok = False
    if not (map_ok and similarity_ok):
        part = "map" if not map_ok else "similarity matrix"
        raise ReportError(f"{path}: its {part} is not the one docnmf cluster writes (numbers, "
                          f"clusters 0 to {k - 1}, texts); rebuild the folder with docnmf "
                          "cluster")
    return data
