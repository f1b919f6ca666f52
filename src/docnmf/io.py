"""Safe result files and folders.

Every file is written to a temporary file in the same folder, then renamed
over its name (:func:`atomic_write_bytes`). A whole result folder is written
through :class:`OutputFolder`: into a staging folder beside it, then put in
place by swapping the two in one step (Linux; elsewhere, or on a file system
that cannot, by two renames, between which the folder is briefly missing), so a
reader sees the whole old folder or the whole new one, never a mix, and a second
run into the same folder at the same time is refused (:class:`OutputFolderError`)
instead of interleaving.
"""

from __future__ import annotations

import contextlib
import csv
import ctypes
import errno
import functools
import hashlib
import inspect
import io
import json
import logging
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import numpy as np

try:
    import fcntl
except ImportError:  # Windows: folders are still published whole, without the lock
    fcntl = None

__all__ = ["atomic_write_text", "atomic_write_bytes", "write_csv", "write_json", "json_text",
           "to_jsonable", "spreadsheet_safe", "from_spreadsheet", "OutputFolder",
           "OutputFolderError", "writes_folder", "published_path", "note_written", "swap_folders",
           "one_line"]

logger = logging.getLogger(__name__)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> Path:
    """Write ``data`` to ``path`` so readers see the old file or the whole new one, never a part.

    The file gets the permissions an ordinary ``open(path, "w")`` would give
    (0666 less the umask), not the private 0600 of a temporary file.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def atomic_write_text(path: str | os.PathLike, text: str) -> Path:
    # a path that is not UTF-8 (held as surrogate escapes, e.g. in run.json's command) as \xNN
    return atomic_write_bytes(path, text.encode("utf-8", errors="backslashreplace"))


#: First characters that make a spreadsheet read a cell as a formula (OWASP, "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any, *, exact: bool = False) -> Any:
    """``value``, with a ``'`` put before a text a spreadsheet would run as a formula.

    Text that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
    return gets a leading apostrophe (OWASP's advice against CSV injection),
    unless it is a number such as ``-0.5``; anything else is kept as it is.
    With ``exact`` (the id column), so does text that starts with an
    apostrophe, so that :func:`from_spreadsheet` undoes this exactly: ``=a``
    and ``'=a`` stay two ids.

    Examples
    --------
    >>> print(spreadsheet_safe('=HYPERLINK("http://x","y")'))
    '=HYPERLINK("http://x","y")
    >>> spreadsheet_safe("-0.5"), spreadsheet_safe(3), spreadsheet_safe("'Tis")
    ('-0.5', 3, "'Tis")
    >>> spreadsheet_safe("'=a", exact=True)
    "''=a"
    """
    starts = (*_FORMULA_START, "'") if exact else _FORMULA_START
    if not isinstance(value, str) or not value.startswith(starts):
        return value
    try:
        float(value)
    except ValueError:
        return "'" + value
    return value


def from_spreadsheet(text: str) -> str:
    """The id an id cell written by :func:`spreadsheet_safe` (``exact``) stands for: without
    its first ``'``.

    Examples
    --------
    >>> from_spreadsheet(spreadsheet_safe("=a", exact=True))
    '=a'
    >>> from_spreadsheet(spreadsheet_safe("'=a", exact=True))
    "'=a"
    """
    return text.removeprefix("'")


#: The column whose cells :func:`write_csv` writes so that :func:`from_spreadsheet` gives them
#: back exactly.
ID_COLUMN = "id"


def write_csv(path: str | os.PathLike, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Path:
    """A UTF-8 CSV with a header row, written atomically; text cells made
    :func:`spreadsheet_safe`, exactly so in the ``id`` column."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    # with "\n" line ends the writer leaves a lone "\r" unquoted, which readers take for a line
    # end: a row holding one has every field quoted
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    exact = [name == ID_COLUMN for name in header]
    writer.writerow([spreadsheet_safe(v) for v in header])
    for row in rows:
        cells = [spreadsheet_safe(v, exact=e) for v, e in zip(row, exact + [False] * len(row))]
        (quoted if any(isinstance(v, str) and "\r" in v for v in cells) else writer).writerow(cells)
    return atomic_write_text(path, buf.getvalue())


def to_jsonable(obj: Any) -> Any:
    """Convert numpy scalars and arrays (recursively) to plain Python for ``json``."""
    if isinstance(obj, dict):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return to_jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, float) and not np.isfinite(obj):
        return None
    if isinstance(obj, Path):
        return str(obj)
    return obj


def json_text(obj: Any) -> str:
    """Pretty JSON text as :func:`write_json` writes it (a TypeError for what JSON cannot hold)."""
    return json.dumps(to_jsonable(obj), indent=2, ensure_ascii=False) + "\n"


def write_json(path: str | os.PathLike, obj: Any) -> Path:
    """Pretty JSON, written atomically."""
    return atomic_write_text(path, json_text(obj))


# --------------------------------------------------------------------------- result folders

#: Written into every published folder: a folder holding it may be replaced by a later run.
MARKER = ".docnmf-output"

#: Put into a result folder just before a new one takes its place in one step: the folder it
#: marks is the old one, to be removed.
REPLACED = ".docnmf-replaced"

#: Files by which a folder written before the marker existed is recognised.
_EARLIER_OUTPUTS = ("run.json", "results.jsonl", "results.json")


class OutputFolderError(Exception):
    """An output folder that cannot be used: a file, someone else's files, or busy."""


#: The folders this process is writing, by target path (so a nested writer joins the outer one).
_ACTIVE: dict[Path, "OutputFolder"] = {}


#: How many times a parent folder removed by another run's failure, just after it was made here,
#: is made again before the lock beside the target is taken.
_MAKE_AGAIN = 3


class OutputFolder:
    """Write a result folder whole: into a staging folder, then swapped in by renames.

    ``with OutputFolder(target) as staging:`` checks ``target`` (not a file;
    empty, new, or written by docnmf before; its parent creatable and
    writable), takes a lock beside it (``.<name>.lock``, removed when done; a
    second run into the same folder fails with :class:`OutputFolderError`), removes what
    killed runs left (``.<name>.staging-*``, ``.<name>.old-*``) and yields a
    fresh staging folder next to ``target`` (same file system). When the
    block ends without an error the staging folder replaces ``target``: the
    two are swapped in one step (:func:`swap_folders`), or, where the system
    cannot, the old folder is renamed aside and the new one renamed in; the
    old one is then removed.
    Files the new run does not write are therefore gone, and a reader sees
    the whole old folder or the whole new one. On an error the staging folder
    is removed and ``target`` is left as it was.

    ``resume`` (file name patterns, e.g. ``("*.jsonl",)``) is for runs that
    resume after an interruption: their staging folder has a fixed name,
    ``.<name>.partial``, is kept when the run is interrupted or killed, and
    is taken up again by the next run; a new one starts with copies of the
    matching files of the published folder.

    A writer nested in another for the same target (``write_run`` called
    while the command line holds the folder) writes into the outer staging
    folder, which is published when the outer block ends.
    """

    def __init__(self, target: str | os.PathLike, *, resume: Sequence[str] = (),
                 command: str | None = None):
        self.given = Path(target)
        self.target = Path(os.path.realpath(target))
        self._stem = _beside_stem(self.target.name)
        self.resume = tuple(resume)
        self.command = command
        self.staging: Path | None = None
        self._outer: OutputFolder | None = None
        self._lock_fd: int | None = None
        self._seeded_records: int | None = None
        self._made: list[Path] = []

    # --- names beside the target
    def _beside(self, suffix: str) -> Path:
        return self.target.parent / f".{self._stem}.{suffix}"

    def public_path(self, path: str | os.PathLike) -> Path:
        """Where ``path`` (inside the staging folder) will be once the folder is published."""
        path = Path(path)
        owner = self if self._outer is None else self._outer
        try:
            return owner.given / path.relative_to(owner.staging)
        except (TypeError, ValueError):
            return path

    def __enter__(self) -> Path:
        outer = _ACTIVE.get(self.target)
        if outer is not None:
            self._outer = outer
            return outer.staging
        check_output_folder(self.given, self.command)
        self._lock_path = self._beside("lock")
        try:
            for attempt in range(_MAKE_AGAIN + 1):
                # the folders made for it, deepest first: a run that fails leaves none of them
                self._made = [p for p in (self.target.parent, *self.target.parent.parents)
                              if not p.exists()]
                self.target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    # held for the whole run already (run_lock), or taken now until written
                    self._lock_fd = (None if self._lock_path in _HELD
                                     else _lock(self._lock_path, self.given))
                    break
                except FileNotFoundError:
                    # another run that had made the parent failed and removed it (empty)
                    # between the mkdir and the lock: made again, by this run now
                    if attempt == _MAKE_AGAIN or self.target.parent.is_dir():
                        raise
            try:
                self._remove_leftovers()
                self.staging = self._partial() if self.resume else Path(tempfile.mkdtemp(
                    prefix=f".{self._stem}.staging-", dir=self.target.parent))
                os.chmod(self.staging, 0o777 & ~_umask())
            except BaseException:
                self._unlock()
                raise
        except BaseException:
            self._remove_made()
            raise
        _ACTIVE[self.target] = self
        return self.staging

    def __exit__(self, exc_type, exc, tb) -> bool:
        if self._outer is not None:
            return False
        published = False
        try:
            if exc_type is None:
                try:
                    self._publish()
                    published = True
                except BaseException as failure:    # the target is as it was: tidy up
                    self._discard(type(failure))
                    raise
            else:
                self._discard(exc_type)
        finally:
            _ACTIVE.pop(self.target, None)
            self._unlock()
            if not published:
                self._remove_made()
        return False

    def _remove_made(self) -> None:
        """Remove the folders made for the target, as far as they are empty (an empty
        docnmf-out/ stayed in the working folder after a failed run)."""
        for folder in self._made:
            try:
                folder.rmdir()
            except OSError:     # a kept .partial, or files of someone else
                break

    # --- steps
    def _remove_leftovers(self) -> None:
        """Staging and old folders of runs that were killed (the lock says none is running).

        A run killed between its two renames left the old folder aside and
        none in place: the old one is put back first.
        """
        prefixes = (f".{self._stem}.staging-", f".{self._stem}.old-")
        entries = sorted(os.scandir(self.target.parent), key=lambda e: e.name)
        for entry in entries:
            aside = Path(entry.path, self.target.name)
            if entry.name.startswith(prefixes[1]) and aside.is_dir() and not self.target.exists():
                os.rename(aside, self.target)
        for entry in entries:
            if entry.name.startswith(prefixes):
                logger.info("removing %s, left by an interrupted run", entry.path)
                _remove(Path(entry.path))
        # killed between marking the old folder and swapping it out: it stays in place
        (self.target / REPLACED).unlink(missing_ok=True)
        partial = self._beside("partial")
        if (partial / REPLACED).exists():   # killed after the swap: the old folder, not work
            logger.info("removing %s, left by an interrupted run", partial)
            _remove(partial)

    def _partial(self) -> Path:
        partial = self._beside("partial")
        if partial.is_dir():
            logger.info("taking up the interrupted run in %s", partial)
            for tmp in partial.rglob(".*.tmp"):  # a write cut short by a kill
                tmp.unlink()
            return partial
        _remove(partial)
        seed = Path(tempfile.mkdtemp(prefix=f".{self._stem}.staging-",
                                     dir=self.target.parent))
        if self.target.is_dir():
            for pattern in self.resume:
                for file in self.target.glob(pattern):
                    if file.is_file():
                        shutil.copy2(file, seed / file.name)
        _fsync_dir(seed)
        os.rename(seed, partial)
        self._seeded_records = self._records(partial)
        return partial

    def _records(self, folder: Path) -> int:
        """The records in the resumable files of ``folder``: their lines after the first (a
        header)."""
        lines = 0
        for pattern in self.resume:
            for file in folder.glob(pattern):
                if file.is_file():
                    with open(file, "rb") as fh:
                        lines += max(0, sum(1 for line in fh if line.strip()) - 1)
        return lines

    def _publish(self) -> None:
        staging = self.staging
        _write_marker(staging, _entries(staging) - {MARKER}, self.command)
        _fsync_dir(staging)
        if self.target.is_dir() and self._exchanged():
            return
        old = None
        if self.target.is_dir():
            old = Path(tempfile.mkdtemp(prefix=f".{self._stem}.old-",
                                        dir=self.target.parent))
            try:
                os.rename(self.target, old / self.target.name)
            except BaseException:
                os.rmdir(old)
                raise
        try:
            os.rename(staging, self.target)
        except BaseException:
            if old is not None:  # the old folder goes back in place: the run failed, not it
                os.rename(old / self.target.name, self.target)
                _remove(old)
            raise
        self._tidy(old)

    def _exchanged(self) -> bool:
        """Swap the staging folder with the target in one step (:func:`swap_folders`), and remove
        the old folder; False when the system cannot, with nothing changed.

        The old folder is marked first (:data:`REPLACED`): after the swap it lies where the
        staging folder was, for a resumed run the ``.partial`` folder a next run takes up, and
        if a kill comes before it is removed, the mark tells the next run to remove it."""
        mark = self.target / REPLACED
        try:
            mark.touch()
        except OSError:
            return False
        swapped = False
        try:
            swapped = swap_folders(self.staging, self.target)
        finally:
            if not swapped:
                mark.unlink(missing_ok=True)
        if swapped:
            self._tidy(self.staging)     # it holds the old folder now
        return swapped

    def _tidy(self, old: Path | None) -> None:
        """After publishing: flush the parent folder, remove ``old`` (the old folder or the
        folder holding it). Its failure must not report the run failed."""
        try:
            _fsync_dir(self.target.parent)
        except OSError as exc:
            logger.warning("%s is in place but could not be flushed to disk: %s", self.given,
                           exc.strerror or exc)
        if old is not None:
            _remove(old)

    def _discard(self, exc_type) -> None:
        staging = self.staging
        # a failure keeps the folder when it finished some work: a run that failed before
        # its first result (a header written, no record) would only stand in the way of the
        # next, with other options
        if self.resume and (issubclass(exc_type, KeyboardInterrupt)
                            or self._seeded_records is None
                            or self._records(staging) != self._seeded_records):
            logger.info("the finished part of this run is kept in %s for the next run", staging)
            return
        _remove(staging)

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            _release(self._lock_path, self._lock_fd)
            self._lock_fd = None


#: The longest name (in bytes) whose folders beside get it whole: file names stop at 255 bytes,
#: and ``.<name>.staging-XXXXXXXX`` adds 18.
_LONGEST_STEM = 200


def _beside_stem(name: str) -> str:
    """What the names of the folders and lock beside the folder ``name`` start with: ``name``,
    or for a longer one its start and a hash of the whole, so that they fit too.

    Examples
    --------
    >>> _beside_stem("out")
    'out'
    >>> stem = _beside_stem("x" * 250)
    >>> len(stem), stem.startswith("x" * 100), stem == _beside_stem("x" * 249)
    (117, True, False)
    """
    raw = os.fsencode(name)
    if len(raw) <= _LONGEST_STEM:
        return name
    start = raw[:100].decode("utf-8", "ignore")     # a character cut in two is left out
    return f"{start}~{hashlib.sha256(raw).hexdigest()[:16]}"


#: Where Linux lists the mount points of this process's view.
MOUNTINFO = "/proc/self/mountinfo"


def _is_mount_point(path: Path) -> bool:
    """``os.path.ismount``, or a mount point Linux lists (a bind mount of a folder of the same
    file system, as containers' volumes are, has its parent's device: ismount misses it, and
    the rename that publishes the folder then fails after the whole run)."""
    if os.path.ismount(path):
        return True
    try:
        with open(MOUNTINFO, encoding="utf-8", errors="replace") as fh:
            # the fifth field is the mount point, its spaces and the like written \ooo
            points = {re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)),
                             line.split()[4]) for line in fh if len(line.split()) > 4}
    except OSError:         # not Linux
        return False
    return str(path) in points


def check_output_folder(target: str | os.PathLike, command: str | None = None) -> None:
    """An :class:`OutputFolderError` unless ``target`` can become a result folder.

    It can when it does not exist yet, is an empty folder, or was written by
    docnmf and holds nothing else: the marker file lists what docnmf put
    there; a folder of an earlier version (``run.json`` / ``results.jsonl`` /
    ``results.json``, no marker) may hold only the kinds of file docnmf
    writes. A folder of other files, or with others added, is never replaced,
    nor one that another ``command`` wrote (a clustering with its model is not
    replaced by a choice of k).
    """
    target = Path(target)
    if target.exists() and not target.is_dir():
        raise OutputFolderError(f"{target} is a file, not a folder; give a folder with -o")
    real, here = Path(os.path.realpath(target)), Path(os.getcwd())
    if real == here or real in here.parents:
        raise OutputFolderError(
            f"{target} is the current folder{'' if real == here else ' or holds it'}: a result "
            "folder is replaced whole, which would pull it from under the shell; give a folder "
            "inside it with -o, e.g. -o results")
    if real.is_dir() and _is_mount_point(real):
        raise OutputFolderError(f"{target} is a mount point, which cannot be replaced whole; "
                                "give a folder inside it with -o")
    if not target.is_dir():
        for parent in target.parents:
            if parent.exists():
                if not parent.is_dir():
                    raise OutputFolderError(f"cannot create {target}: {parent} is a file")
                break
        _check_not_inside_output(target, real)
        return
    if not os.access(target, os.W_OK | os.X_OK):
        # replacing it writes in it (the mark of a swap) or moves it to another folder, which
        # both need its permission: found now, not once the work is done
        raise OutputFolderError(f"cannot write to {target}: {_not_writable_reason(target)}")
    names = sorted(os.listdir(target))
    if {"model.json", "arrays.npz"} <= set(names):
        raise OutputFolderError(f"{target} is a saved model; a result folder is replaced whole, "
                                "so give another folder with -o")
    _check_not_inside_output(target, real)
    # a write of docnmf's cut short by a kill (atomic_write_bytes) goes with the folder
    # (and the mark of a folder a killed run was about to swap out)
    names = [n for n in names
             if not (n.startswith(".") and n.endswith(".tmp")) and n != REPLACED]
    if MARKER in names:
        written = _marked_entries(target)
        foreign = [] if written is None else _unlisted(target, names, written | {MARKER})
        other = _marker(target).get("command")
        if command and isinstance(other, str) and other != command:
            raise OutputFolderError(f"{target} holds the results of docnmf {other}, which "
                                    f"docnmf {command} does not replace: give another folder "
                                    "with -o, or remove that one first")
    elif set(_EARLIER_OUTPUTS) & set(names):
        foreign = [n for n in names if not _earlier_output(target / n)]
    else:
        foreign = names
    if foreign:
        shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
        raise OutputFolderError(f"{target} holds files docnmf did not write ({shown}); a result "
                                "folder is replaced whole, so move them out or give a new or "
                                "empty folder with -o")


def _not_writable_reason(folder: Path) -> str:
    """Why os.access refused to write in ``folder``: its file system mounted read-only (which
    no change of permission mends), else its permission."""
    try:
        if os.statvfs(folder).f_flag & os.ST_RDONLY:
            return os.strerror(errno.EROFS)
    except (OSError, AttributeError):       # (statvfs: not on Windows)
        pass
    return os.strerror(errno.EACCES)


def _check_not_inside_output(target: Path, real: Path) -> None:
    """An :class:`OutputFolderError` when ``target`` (``real`` resolved) lies in a result or
    model folder: it would be one more entry docnmf did not write there, and that folder could
    then not be written again."""
    for parent in real.parents:
        if (parent / MARKER).is_file() or ((parent / "model.json").is_file()
                                           and (parent / "arrays.npz").is_file()):
            raise OutputFolderError(f"{target} is inside {parent}, a folder docnmf wrote and "
                                    "replaces whole; give a folder outside it with -o")


def _entries(folder: Path) -> set[str]:
    """The names in ``folder``, and the paths (``model/model.json``) of what its subfolders
    hold."""
    entries = set(os.listdir(folder))
    for name in list(entries):
        if (folder / name).is_dir() and not (folder / name).is_symlink():
            for root, dirs, files in os.walk(folder / name):
                base = Path(root).relative_to(folder).as_posix()
                entries.update(f"{base}/{f}" for f in dirs + files)
    return entries


def _unlisted(folder: Path, names: list[str], written: set[str]) -> list[str]:
    """Of ``names`` in ``folder``, and of the files in its subfolders, those ``written`` does not
    list (a marker of a version that listed no subfolder's files vouches for their files)."""
    foreign = [n for n in names if n not in written]
    listed = {entry.split("/", 1)[0] for entry in written if "/" in entry}
    for name in sorted(listed & set(names) - set(foreign)):
        foreign.extend(f"{name}/{entry}" for entry in sorted(_entries(folder / name))
                       if f"{name}/{entry}" not in written
                       and not (Path(entry).name.startswith(".")
                                and Path(entry).name.endswith(".tmp")))
    return foreign


def _marker(folder: Path) -> dict[str, Any]:
    """The marker of ``folder`` ({} when there is none, or it cannot be read)."""
    try:
        record = json.loads((folder / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _marked_entries(folder: Path) -> set[str] | None:
    """The names the marker of ``folder`` lists as docnmf's; None for a marker of a version
    that did not list them (or one that cannot be read)."""
    entries = _marker(folder).get("entries")
    if not isinstance(entries, list) or not all(isinstance(e, str) for e in entries):
        return None
    return set(entries)


#: What a result folder written before the marker listed its entries may hold: the kinds of
#: file docnmf writes, and its subfolders. Anything else (notes.txt, thesis.tex, figs/) is not
#: docnmf's, whatever else the folder holds.
_OUTPUT_SUFFIXES = (".csv", ".json", ".jsonl", ".npz", ".png", ".md", ".html")
_OUTPUT_SUBFOLDERS = ("model", "assignments")


def _earlier_output(path: Path) -> bool:
    if path.name.startswith("."):
        return False
    if path.is_dir():
        return path.name in _OUTPUT_SUBFOLDERS
    return path.suffix in _OUTPUT_SUFFIXES


def note_written(folder: str | os.PathLike, name: str) -> None:
    """Add ``name`` to the entries the marker of the published ``folder`` lists, for a file
    written into it afterwards (``docnmf report``'s report.html), so the next run may replace
    it with the rest."""
    folder = Path(folder)
    written = _marked_entries(folder) if (folder / MARKER).is_file() else None
    if written is not None and name not in written:
        _write_marker(folder, written | {name}, _marker(folder).get("command"))


def _write_marker(folder: Path, entries: set[str], command: str | None = None) -> None:
    """The marker: docnmf wrote ``entries`` here, with ``command`` (None from Python)."""
    record = {"written_by": "docnmf", "entries": sorted(entries),
              **({"command": command} if command else {})}
    atomic_write_text(folder / MARKER, json.dumps(record) + "\n")


def published_path(path: str | os.PathLike) -> Path:
    """Where ``path`` will be once its folder is published: a path inside the staging folder of
    an :class:`OutputFolder` this process holds maps to the target; any other path is itself."""
    path = Path(path)
    for folder in _ACTIVE.values():
        public = folder.public_path(path)
        if public != path:
            return public
    return path


def writes_folder(func: Callable) -> Callable:
    """Make ``func(..., outdir, ...)`` write a whole folder through :class:`OutputFolder`.

    ``func`` gets the staging folder as ``outdir``; the paths it returns (a
    path or a list of paths) are given back as they will be once published.
    """
    signature = inspect.signature(func)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        bound = signature.bind(*args, **kwargs)
        folder = OutputFolder(bound.arguments["outdir"])
        with folder as staging:
            bound.arguments["outdir"] = staging
            result = func(*bound.args, **bound.kwargs)
        if isinstance(result, (list, tuple)):
            return type(result)(folder.public_path(p) for p in result)
        return folder.public_path(result) if isinstance(result, (str, os.PathLike)) else result

    return wrapper


#: Locks this process holds for the whole of a run (:func:`run_lock`), by lock file: the
#: run's :class:`OutputFolder` uses the one held rather than taking it again.
_HELD: dict[Path, int] = {}


@contextlib.contextmanager
def run_lock(folder: str | os.PathLike) -> Iterator[None]:
    """Hold the lock of the result folder ``folder`` from before a run's work to its end (an
    :class:`OutputFolderError` at once when another run holds it), so that a second run into
    the folder fails at once, and nothing else can take the lock while this run works (and
    make it fail at the end, its work lost). What reads a result folder and writes into it
    (``docnmf report``) holds it too, and sees one run's files, not a mix of the folder and
    the one replacing it. Nothing is held where the folder's parent does not exist yet: no
    other run can be writing there."""
    given = Path(folder)
    target = Path(os.path.realpath(given))
    path = target.parent / f".{_beside_stem(target.name)}.lock"
    if not target.parent.is_dir() or path in _HELD:
        yield
        return
    try:
        fd = _lock(path, given)
    except FileNotFoundError:
        if target.parent.is_dir():
            raise
        # another run that had made the parent failed and removed it just now: none is held
        yield
        return
    _HELD[path] = fd
    try:
        yield
    finally:
        _release(path, _HELD.pop(path))


def _release(path: Path, fd: int) -> None:
    """Give up the lock file ``path`` held open as ``fd``: removed while still held, so a run
    that opened it meanwhile sees it gone (:func:`_lock`), then closed, which releases it."""
    if fcntl is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)
    os.close(fd)


def _lock(path: Path, target: Path) -> int:
    """Hold the lock file ``path`` of ``target``; the holder removes it when done.

    A run may open the file just before its holder removes it, and lock that
    removed file: it then finds ``path`` gone or another file, and starts over
    on the file now there.
    """
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                     0o666 & ~_umask())
        if fcntl is None:
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise OutputFolderError(f"another docnmf run is writing to {target} (it holds "
                                        f"{path}); wait for it to end or give another -o"
                                        ) from None
            raise
        try:
            if os.path.samestat(os.fstat(fd), os.stat(path)):
                return fd
        except FileNotFoundError:
            pass
        os.close(fd)


#: Linux's renameat2 flag that swaps two paths in one step, and "relative to the current folder".
_RENAME_EXCHANGE, _AT_FDCWD = 2, -100


@functools.lru_cache(maxsize=1)
def _renameat2() -> Callable | None:
    """The C library's ``renameat2`` (Linux, glibc 2.28 and later), or None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def swap_folders(a: Path, b: Path) -> bool:
    """Swap folders ``a`` and ``b`` in one step, so that no reader finds ``b`` missing in
    between (two renames leave a moment without it). False where the system or the file
    system cannot, and nothing was done."""
    function = _renameat2()
    if function is None:
        return False
    if function(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EPERM):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    elif path.exists() or path.is_symlink():
        path.unlink()


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


#: Control characters as escapes: an id holding a newline (a file name may) keeps the table's lines.
_ONE_LINE = {c: f"\\x{c:02x}" for c in (*range(32), 127)} | {10: "\\n", 13: "\\r", 9: "\\t"} \
    | {c: f"\\u{c:04x}" for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                                  *range(0x2066, 0x206A))}


def one_line(text: str) -> str:
    r"""``text`` with its control characters escaped, and the marks that turn the direction of
    the text (an id holding U+202E wrote the rest of its terminal line backwards).

    Examples
    --------
    >>> print(one_line("a\nb\tc.txt"))
    a\nb\tc.txt
    >>> print(one_line("evil\u202etxt.exe"))
    evil\u202etxt.exe
    """
    return text.translate(_ONE_LINE)
