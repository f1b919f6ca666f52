"""Pairwise constraints for semi-supervised clustering: must-link and cannot-link document pairs.

A :class:`Constraints` holds the pairs a user gave (as document indices),
checks them, and knows what they imply: must-links are transitive, so the
must-link graph falls into groups whose members all belong together, and a
cannot-link between two documents separates their whole groups. Partial
labels (``-1`` for an unlabelled document) are one more way of giving the
same information: every two labelled documents form a must-link pair when
their labels agree and a cannot-link pair when they differ.

:func:`read_constraint_pairs` reads pairs of document ids from a CSV file and
:func:`sample_constraints` draws pairs from ground truth, as the experiments
of Chen et al. (SS-NMF) do ("percentage of constrained pairs").
"""

from __future__ import annotations

import csv
import io
import logging
import os
import re
import warnings
from collections import deque
from typing import Sequence

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from ._rng import as_generator
from .io import from_spreadsheet, spreadsheet_safe

__all__ = ["ConstraintError", "ConstraintWarning", "Constraints", "read_constraint_pairs",
           "sample_constraints", "as_pair_array", "build_constraints", "constrained_pairs",
           "labels_every_document",
           "MAX_CONSTRAINED_PAIRS"]

logger = logging.getLogger(__name__)

#: How many offending pairs an error message lists before "and N more".
_SHOWN = 10


class ConstraintError(ValueError):
    """Constraints that cannot be used: contradictory, self-pairs, unknown documents, bad files."""


class ConstraintWarning(UserWarning):
    """A result that breaks some of the pairs it was given."""


def _listing(items: Sequence[str]) -> str:
    shown = ", ".join(items[:_SHOWN])
    return shown + (f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else "")


def as_pair_array(pairs, name: str = "pairs") -> np.ndarray:
    """``pairs`` (None, a list of 2-tuples or an array of shape (m, 2)) as an int array (m, 2).

    Examples
    --------
    >>> as_pair_array([(0, 3), (2, 1)]).tolist()
    [[0, 3], [2, 1]]
    >>> as_pair_array(None).shape
    (0, 2)
    """
    if pairs is None:
        return np.empty((0, 2), dtype=np.intp)
    arr = np.asarray(pairs)
    if arr.size == 0:
        return np.empty((0, 2), dtype=np.intp)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ConstraintError(f"{name} must be a sequence of (i, j) index pairs, "
                              f"got an array of shape {arr.shape}")
    if arr.dtype.kind == "b" or arr.dtype.kind not in "iuf":
        raise ConstraintError(f"{name} must hold integer document indices, got dtype {arr.dtype}")
    if arr.dtype.kind == "f":
        if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
            raise ConstraintError(f"{name} must hold integer document indices")
    return arr.astype(np.intp)


def _canonical(pairs: np.ndarray) -> np.ndarray:
    """Pairs as ``i < j``, sorted, duplicates removed."""
    if len(pairs) == 0:
        return np.empty((0, 2), dtype=np.intp)
    lo = np.minimum(pairs[:, 0], pairs[:, 1])
    hi = np.maximum(pairs[:, 0], pairs[:, 1])
    return np.unique(np.column_stack([lo, hi]), axis=0)


def _all_pairs(a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
    """All pairs within ``a`` (``b`` None) or between ``a`` and ``b``, as ``i < j`` rows."""
    if b is None:
        i, j = np.triu_indices(len(a), k=1)
        return np.column_stack([a[i], a[j]])
    i = np.repeat(a, len(b))
    j = np.tile(b, len(a))
    return np.column_stack([np.minimum(i, j), np.maximum(i, j)])


class Constraints:
    """Must-link and cannot-link pairs over ``n_docs`` documents, checked and closed.

    Must-links are closed transitively: the connected components of the
    must-link graph (the union-find classes of the pairs) are *groups*
    whose members must all share a cluster. A cannot-link between two
    documents then holds between every member of one's group and every
    member of the other's. The closure is kept as group codes; the
    implied pairs are listed only when asked for (:meth:`pairs`).

    Parameters
    ----------
    n_docs : int
        Number of documents; pairs index rows ``0 .. n_docs - 1``.
    must_link, cannot_link : sequence of (i, j) or array of shape (m, 2), optional
        Document index pairs. Order within a pair and repeated pairs do not matter.
    names : sequence of str, optional
        Document names (ids) used in error messages instead of indices.

    Raises
    ------
    ConstraintError
        Naming the offending pairs, when a pair joins a document with
        itself, names an index outside ``0 .. n_docs - 1``, or is a
        cannot-link between two documents the must-links put in one group
        (with the chain of must-links that does so).

    Attributes
    ----------
    must_link, cannot_link : ndarray of shape (m, 2)
        The given pairs with ``i < j``, sorted, without repeats.
    group : ndarray of shape (n_docs,)
        Must-link group code of each document; a document in no must-link
        pair has a group of its own.

    Examples
    --------
    >>> c = Constraints(6, must_link=[(0, 1), (1, 2)], cannot_link=[(2, 4)])
    >>> c.pairs()[0].tolist()          # 0-2 follows from 0-1 and 1-2
    [[0, 1], [0, 2], [1, 2]]
    >>> c.pairs()[1].tolist()          # 4 is kept apart from the whole group
    [[0, 4], [1, 4], [2, 4]]
    >>> Constraints(3, must_link=[(0, 1)], cannot_link=[(1, 0)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    docnmf.constraints.ConstraintError: ... (0, 1) [must-linked through 0-1]
    """

    def __init__(self, n_docs: int, must_link=None, cannot_link=None, *,
                 names: Sequence[str] | None = None):
        if isinstance(n_docs, bool) or not isinstance(n_docs, (int, np.integer)) or n_docs < 0:
            raise ValueError(f"n_docs must be a non-negative integer, got {n_docs!r}")
        self.n_docs = int(n_docs)
        self._names = None if names is None else list(names)
        ml = as_pair_array(must_link, "must_link")
        cl = as_pair_array(cannot_link, "cannot_link")
        self._check_indices(ml, "must-link")
        self._check_indices(cl, "cannot-link")
        self.must_link = _canonical(ml)
        self.cannot_link = _canonical(cl)
        graph = sp.coo_matrix((np.ones(len(self.must_link)), (self.must_link[:, 0],
                                                              self.must_link[:, 1])),
                              shape=(self.n_docs, self.n_docs))
        _, self.group = connected_components(graph, directed=False)
        self._check_contradictions()

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def from_labels(cls, y, *, must_link=None, cannot_link=None) -> "Constraints":
        """Constraints from partial labels ``y`` (``-1``: unlabelled), plus optional extra pairs.

        Every two labelled documents become a must-link pair when their
        labels agree and a cannot-link pair when they differ, so ``L``
        labelled documents give ``L (L - 1) / 2`` pairs.

        Examples
        --------
        >>> c = Constraints.from_labels([0, -1, 0, 1])
        >>> c.must_link.tolist(), c.cannot_link.tolist()
        ([[0, 2]], [[0, 3], [2, 3]])
        """
        y = _label_codes(y)
        labelled = np.flatnonzero(y >= 0)
        classes = [labelled[y[labelled] == c] for c in np.unique(y[labelled])]
        ml = [_all_pairs(members) for members in classes]
        cl = [_all_pairs(a, b) for t, a in enumerate(classes) for b in classes[t + 1:]]
        ml.append(as_pair_array(must_link, "must_link"))
        cl.append(as_pair_array(cannot_link, "cannot_link"))
        return cls(len(y), must_link=np.concatenate(ml), cannot_link=np.concatenate(cl))

    # --- checks -------------------------------------------------------------------------------

    def _check_indices(self, pairs: np.ndarray, kind: str) -> None:
        if len(pairs) == 0:
            return
        bad = np.flatnonzero(np.any((pairs < 0) | (pairs >= self.n_docs), axis=1))
        if len(bad):
            shown = [f"({pairs[t, 0]}, {pairs[t, 1]})" for t in bad]  # no name to give
            raise ConstraintError(f"{kind} pairs naming an unknown document (the {self.n_docs} "
                                  f"documents are 0 .. {self.n_docs - 1}): {_listing(shown)}")
        selfp = np.flatnonzero(pairs[:, 0] == pairs[:, 1])
        if len(selfp):
            shown = [self._pair(*pairs[t]) for t in selfp]
            raise ConstraintError(f"{kind} pairs joining a document with itself: {_listing(shown)}")

    def _check_contradictions(self) -> None:
        cl = self.cannot_link
        if len(cl) == 0:
            return
        bad = np.flatnonzero(self.group[cl[:, 0]] == self.group[cl[:, 1]])
        if len(bad) == 0:
            return
        shown = []
        for t in bad[:_SHOWN]:
            i, j = cl[t]
            chain = self._must_link_path(int(i), int(j))
            links = ", ".join(f"{self._name(a)}-{self._name(b)}" for a, b in chain)
            shown.append(f"{self._pair(i, j)} [must-linked through {links}]")
        shown += [self._pair(*cl[t]) for t in bad[_SHOWN:]]
        raise ConstraintError("cannot-link pairs between documents that must-links put in one "
                              f"group: {_listing(shown)}")

    def _name(self, i) -> str:
        return str(i) if self._names is None else self._names[int(i)]

    def _pair(self, i, j) -> str:
        return f"({self._name(i)}, {self._name(j)})"

    def _must_link_path(self, start: int, goal: int) -> list[tuple[int, int]]:
        """The must-link pairs of a shortest chain from ``start`` to ``goal`` (breadth-first)."""
        members = np.flatnonzero(self.group == self.group[start])
        inside = np.isin(self.must_link[:, 0], members)
        adjacency: dict[int, list[int]] = {}
        for a, b in self.must_link[inside].tolist():
            adjacency.setdefault(a, []).append(b)
            adjacency.setdefault(b, []).append(a)
        parent = {start: start}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            if node == goal:
                break
            for nxt in adjacency.get(node, []):
                if nxt not in parent:
                    parent[nxt] = node
                    queue.append(nxt)
        path = []
        node = goal
        while node != start:
            path.append((min(node, parent[node]), max(node, parent[node])))
            node = parent[node]
        return path[::-1]

    # --- what the constraints imply -----------------------------------------------------------

    @property
    def is_empty(self) -> bool:
        return len(self.must_link) == 0 and len(self.cannot_link) == 0

    def groups(self) -> list[np.ndarray]:
        """The must-link groups with at least two members, each as sorted indices."""
        sizes = np.bincount(self.group, minlength=self.group.max(initial=-1) + 1)
        order = np.argsort(self.group, kind="stable")
        bounds = np.concatenate([[0], np.cumsum(sizes)])
        return [order[bounds[g]:bounds[g + 1]] for g in np.flatnonzero(sizes >= 2)]

    def _group_cannot_links(self) -> np.ndarray:
        """Distinct pairs of group codes (a < b) joined by at least one cannot-link."""
        if len(self.cannot_link) == 0:
            return np.empty((0, 2), dtype=np.intp)
        return _canonical(self.group[self.cannot_link])

    def n_pairs(self, closure: bool = True) -> tuple[int, int]:
        """Numbers of must-link and cannot-link pairs, with or without the implied ones.

        Counted from the group sizes, without listing the pairs.

        Examples
        --------
        >>> Constraints(6, must_link=[(0, 1), (1, 2)], cannot_link=[(2, 4)]).n_pairs()
        (3, 3)
        """
        if not closure:
            return len(self.must_link), len(self.cannot_link)
        sizes = np.bincount(self.group).astype(np.int64)
        n_ml = int(np.sum(sizes * (sizes - 1) // 2))
        gc = self._group_cannot_links()
        n_cl = int(np.sum(sizes[gc[:, 0]] * sizes[gc[:, 1]])) if len(gc) else 0
        return n_ml, n_cl

    def pairs(self, closure: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Must-link and cannot-link pairs as arrays of shape (m, 2) with ``i < j``, sorted.

        With ``closure`` (the default) every pair the given ones imply is
        listed: all pairs within a must-link group, and all pairs between
        two groups joined by a cannot-link. Without it, the given pairs.
        """
        if not closure:
            return self.must_link.copy(), self.cannot_link.copy()
        members = {}
        order = np.argsort(self.group, kind="stable")
        sizes = np.bincount(self.group)
        bounds = np.concatenate([[0], np.cumsum(sizes)])

        def of(g):
            if g not in members:
                members[g] = order[bounds[g]:bounds[g + 1]]
            return members[g]

        ml = [_all_pairs(of(g)) for g in np.flatnonzero(sizes >= 2)]
        cl = [_all_pairs(of(a), of(b)) for a, b in self._group_cannot_links().tolist()]
        empty = np.empty((0, 2), dtype=np.intp)
        return _canonical(np.concatenate(ml + [empty])), _canonical(np.concatenate(cl + [empty]))

    def violations(self, labels, closure: bool = False) -> tuple[int, int]:
        """How many must-link pairs a labelling splits and cannot-link pairs it joins.

        Examples
        --------
        >>> c = Constraints(4, must_link=[(0, 1)], cannot_link=[(2, 3)])
        >>> c.violations([0, 1, 1, 1])
        (1, 1)
        """
        labels = np.asarray(labels)
        if labels.shape != (self.n_docs,):
            raise ValueError(f"labels must have shape ({self.n_docs},), got {labels.shape}")
        ml, cl = self.pairs(closure)
        split = int(np.sum(labels[ml[:, 0]] != labels[ml[:, 1]])) if len(ml) else 0
        joined = int(np.sum(labels[cl[:, 0]] == labels[cl[:, 1]])) if len(cl) else 0
        return split, joined

    def __repr__(self) -> str:
        return (f"Constraints({self.n_docs} documents, {len(self.must_link)} must-link and "
                f"{len(self.cannot_link)} cannot-link pairs, "
                f"{len(self.groups())} must-link groups)")


def _label_codes(y) -> np.ndarray:
    """Partial labels as an int array; ``-1`` marks an unlabelled document."""
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"partial labels y must be one-dimensional, got shape {y.shape}")
    if y.dtype.kind == "f":
        if not np.all(np.isfinite(y)) or np.any(y != np.round(y)):
            raise ValueError("partial labels y must be integers (-1 for unlabelled documents)")
    elif y.dtype.kind not in "iu" and y.size:
        raise ValueError("Unknown label type for partial labels y: they must be integer class "
                         f"codes (-1 for unlabelled documents), got dtype {y.dtype}")
    y = y.astype(np.int64)
    if np.any(y < -1):
        raise ValueError("partial labels y must be class codes >= 0, "
                         "or -1 for an unlabelled document")
    return y


# --- files -------------------------------------------------------------------------------------


def read_constraint_pairs(path: str | os.PathLike, ids: Sequence[str] | None = None, *,
                          header: bool | None = None) -> np.ndarray:
    """Read a two-column file of document-id pairs and map the ids to document indices.

    The file holds one pair per line, separated by a comma, a tab or
    spaces (whichever the first line uses); blank lines and lines starting
    with ``#`` are skipped. With ``ids`` (e.g. ``Corpus.ids``) the fields
    are document ids (also as docnmf's CSV files write them, with a ``'``
    before an id a spreadsheet would run as a formula); without, they are
    integer row indices.

    Parameters
    ----------
    path : path-like
    ids : sequence of str, optional
        The id of each document, in row order.
    header : bool, optional
        Whether the first line is a header. By default it is taken as one
        when neither of its two fields is a known document id nor looks like
        one (has the shape of an id: ``d100`` looks like ``d7``, ``doc_a``
        does not; without ``ids``, when neither is an integer). A header that
        looks like ids is reported as unknown ids: start it with ``#``.

    Returns
    -------
    ndarray of shape (m, 2)
        Document indices, in file order.

    Raises
    ------
    ConstraintError
        For a file that is not UTF-8 text or holds no pair, a line without
        exactly two fields or an unknown id (naming the line numbers and
        ids), or when ``ids`` repeats an id.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "ml.csv"
    >>> _ = f.write_text("doc_a,doc_b\\nsport/1,sport/7\\n")
    >>> read_constraint_pairs(f, ["sport/7", "news/2", "sport/1"]).tolist()
    [[2, 0]]
    """
    if ids is not None:
        index = {str(d): i for i, d in enumerate(ids)}
        if len(index) != len(ids):
            seen, repeated = set(), []
            for d in map(str, ids):
                if d in seen:
                    repeated.append(d)
                seen.add(d)
            raise ConstraintError(f"document ids are not unique, so pairs of ids are ambiguous: "
                                  f"{_listing(sorted(set(repeated)))}")
    rows = _read_rows(path)

    ambiguous: list[str] = []

    def lookup(field: str):
        if ids is not None:
            found = index.get(field)
            # an id as docnmf's CSV output writes it, with the ' that keeps a spreadsheet from
            # running it as a formula ("'=a" for =a, "''=a" for '=a): so read first
            plain = from_spreadsheet(field)
            if plain != field and spreadsheet_safe(plain, exact=True) == field and plain in index:
                if found is not None and field not in ambiguous:
                    ambiguous.append(field)
                found = index[plain]
            return found
        try:
            value = int(field)
        except ValueError:
            return None
        return value

    shapes = {_shape(str(d)) for d in ids} if ids is not None else set()
    if rows and (header or (header is None and all(lookup(f) is None and _shape(f) not in shapes
                                                   for f in rows[0][1]))):
        if header is None:      # a guess: a mistyped first pair was dropped without a word
            logger.info("%s: line %d (%s) read as a header, not a pair", path, rows[0][0],
                        ", ".join(map(repr, rows[0][1])))
        rows = rows[1:]
    if not rows:
        raise ConstraintError(f"{path} holds no pair of documents")
    pairs, unknown = [], []
    for line, fields in rows:
        found = [lookup(f) for f in fields]
        for f, v in zip(fields, found):
            if v is None:
                unknown.append(f"line {line}: {f!r}")
        pairs.append(found)
    if ambiguous:
        readings = [f"{f!r} as {from_spreadsheet(f)!r}" for f in ambiguous]
        warnings.warn(f"{path}: read {_listing(readings)}, as docnmf's CSV files write those "
                      "ids; the corpus also has documents whose ids are those fields as "
                      "written (docnmf's files write them with one more ' in front)",
                      UserWarning, stacklevel=2)
    if unknown:
        what = "unknown document id" if ids is not None else "field that is not a document index"
        hint = "; a header line that looks like ids must start with #" if unknown[0].startswith(
            f"line {rows[0][0]}:") else ""
        raise ConstraintError(f"{path}: {len(unknown)} {what}{'s' if len(unknown) > 1 else ''}: "
                              f"{_listing(unknown)}{hint}")
    return np.array(pairs, dtype=np.intp).reshape(-1, 2)


def _shape(text: str) -> str:
    """Runs of letters as ``a``, of digits as ``9``, the rest kept: ``"sport/012.txt"`` -> ``"a/9.a"``.

    Examples
    --------
    >>> _shape("d100") == _shape("d7"), _shape("doc_a") == _shape("d7")
    (True, False)
    """
    return re.sub(r"\d+", "9", re.sub(r"[^\W\d_]+", "a", text))


def _read_rows(path) -> list[tuple[int, list[str]]]:
    """(line number, [field, field]) for each data line of a pair file."""
    try:
        with open(path, "rb") as fh:
            raw_lines = fh.read().splitlines()
    except OSError as exc:
        raise ConstraintError(f"cannot read {path}: {exc.strerror or exc}") from None
    lines = []
    for n, raw in enumerate(raw_lines, start=1):
        try:
            lines.append((n, raw.decode("utf-8").lstrip("\ufeff") if n == 1 else
                          raw.decode("utf-8")))
        except UnicodeDecodeError as exc:
            raise ConstraintError(f"{path}, line {n}: not UTF-8 text (byte {exc.start + 1}); "
                                  "save the file as UTF-8") from None
    lines = [(n, text) for n, text in lines if text.strip() and not text.lstrip().startswith("#")]
    if not lines:
        return []
    # the delimiter that splits the first record into a pair: a tab first, since ids may hold
    # commas (a tab-separated "x,y<TAB>z"), then a comma, else runs of spaces
    joined = "\n".join(text for _, text in lines)
    first = lines[0][1]
    # (a first line with an open quote is a CSV record that goes on: its id holds a line break)
    delimiter = next((d for d in ("\t", ",") if d in joined and _n_fields(joined, d) == 2),
                     "\t" if "\t" in first else
                     "," if "," in first or first.count('"') % 2 else None)
    rows, bad = [], []
    for n, text, fields in _records(path, lines, delimiter):
        fields = [f.strip() for f in fields]
        if len(fields) != 2 or not all(fields):
            bad.append(f"line {n}: {text!r}")
        rows.append((n, fields))
    if bad:
        raise ConstraintError(f"{path}: expected two fields (a pair of documents) per line: "
                              f"{_listing(bad)}")
    return rows


def _records(path, lines: list[tuple[int, str]], delimiter: str | None):
    """(first line number, text, fields) of each record of the data ``lines``: one line split
    at spaces, or a CSV record, which a quoted id holding a line break continues."""
    if delimiter is None:
        for n, text in lines:
            yield n, text, text.split()
        return
    reader = csv.reader(io.StringIO("\n".join(text for _, text in lines)), delimiter=delimiter)
    done = 0
    while done < len(lines):
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:  # e.g. a field over the csv module's size limit
            raise ConstraintError(f"{path}, line {lines[done][0]}: {exc}") from None
        yield lines[done][0], "\n".join(t for _, t in lines[done:reader.line_num]), fields
        done = reader.line_num


def _n_fields(text: str, delimiter: str) -> int:
    """Fields of the first CSV record of ``text``."""
    try:
        return len(next(csv.reader(io.StringIO(text), delimiter=delimiter), []))
    except csv.Error:
        return 0


# --- sampling from ground truth ----------------------------------------------------------------


def sample_constraints(y, fraction: float, rng=None) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``fraction`` of all document pairs at random and label them from ground truth.

    As in the experiments of Chen et al. (SS-NMF), Section 4.3: a drawn pair
    is a must-link when both documents have the same class and a
    cannot-link otherwise. Pairs are drawn without replacement among the
    ``L (L - 1) / 2`` pairs of labelled documents (``y >= 0``), so
    ``fraction=0.03`` constrains 3% of them.

    Parameters
    ----------
    y : array-like of shape (n_docs,)
        Class codes; documents with ``-1`` are never drawn.
    fraction : float in [0, 1]
    rng : None, int or numpy Generator

    Returns
    -------
    must_link, cannot_link : ndarray of shape (m, 2)
        Index pairs with ``i < j``.

    Examples
    --------
    >>> ml, cl = sample_constraints([0, 0, 1, 1, 1], 0.5, rng=0)
    >>> len(ml) + len(cl)              # half of the 10 pairs
    5
    >>> bool(all(y[i] == y[j] for y in [[0, 0, 1, 1, 1]] for i, j in ml))
    True
    """
    y = _label_codes(y)
    if not 0.0 <= float(fraction) <= 1.0:
        raise ValueError(f"fraction must be in [0, 1], got {fraction!r}")
    rng = as_generator(rng)
    docs = np.flatnonzero(y >= 0)
    L = len(docs)
    total = L * (L - 1) // 2
    m = int(round(float(fraction) * total))
    if m == 0:
        empty = np.empty((0, 2), dtype=np.intp)
        return empty, empty.copy()
    flat = np.sort(rng.choice(total, size=m, replace=False))
    # row r of the upper triangle starts at r L - r (r + 1) / 2
    r = np.arange(L, dtype=np.int64)
    starts = r * L - r * (r + 1) // 2
    i = np.searchsorted(starts, flat, side="right") - 1
    j = flat - starts[i] + i + 1
    pairs = np.column_stack([docs[i], docs[j]]).astype(np.intp)
    same = y[pairs[:, 0]] == y[pairs[:, 1]]
    return pairs[same], pairs[~same]


#: Refuse constraint sets implying more pairs than this: each pair stores two sparse entries.
MAX_CONSTRAINED_PAIRS = 20_000_000


def build_constraints(n_docs: int, y=None, must_link=None, cannot_link=None) -> Constraints:
    """The :class:`Constraints` of a ``fit`` call: partial labels ``y`` and/or index pairs.

    Shared by the semi-supervised estimators so that they read their
    arguments the same way.

    Examples
    --------
    >>> build_constraints(4, y=[0, -1, 0, 1]).n_pairs()
    (1, 2)
    """
    if y is None:
        return Constraints(n_docs, must_link=must_link, cannot_link=cannot_link)
    y = np.asarray(y)
    if y.shape != (n_docs,):
        raise ValueError(f"y must hold one partial label per document ({n_docs}), "
                         f"got shape {y.shape}")
    return Constraints.from_labels(y, must_link=must_link, cannot_link=cannot_link)


def labels_every_document(y) -> bool:
    """Whether partial labels ``y`` leave no document unlabelled (-1)."""
    if y is None:
        return False
    y = np.asarray(y)       # any array-like: one with __array__ alone has no len()
    return y.ndim == 1 and y.size > 1 and bool(np.all(_label_codes(y) >= 0))


def constrained_pairs(constraints: Constraints, closure: bool) -> tuple[np.ndarray, np.ndarray]:
    """The pairs to apply, refusing sets too large to store."""
    n_ml, n_cl = constraints.n_pairs(closure)
    if n_ml + n_cl > MAX_CONSTRAINED_PAIRS:
        raise ConstraintError(
            f"the constraints imply {n_ml} must-link and {n_cl} cannot-link pairs, more than the "
            f"{MAX_CONSTRAINED_PAIRS} this implementation stores; give fewer labelled documents "
            "or apply only the given pairs (closure=False; --pairs-as-given on the command "
            "line)")
    return constraints.pairs(closure)
