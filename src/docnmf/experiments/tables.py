"""The papers' clustering tables as data: what was run, on which corpus, and the printed numbers.

Each :class:`TableSpec` covers one data condition of one paper and holds
both of its metrics (accuracy and NMI). Published numbers are transcribed
as printed: nine values for k = 2..10, then the paper's "Avg."/"average"
column. Method names are the ones registered in
:data:`docnmf.methods.METHODS` (the paper's names in lower case).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..methods import METHODS
from .conditions import DataCondition
from .protocol import Protocol

__all__ = ["PublishedRow", "TableSpec", "TABLES", "get_table", "display_name"]

K_2_TO_10 = tuple(range(2, 11))
METRIC_NAMES = {"accuracy": "Accuracy (AC)", "nmi": "NMI", "purity": "Purity"}


def display_name(method: str) -> str:
    """The paper's spelling of a registered method name (``"nmf-ncw"`` -> ``"NMF-NCW"``).

    Preset suffixes are spelled out: ``"lccf-paper"`` -> ``"LCCF (paper)"``,
    ``"km-ncw-poly2"`` -> ``"KM-NCW (poly2)"``.
    """
    for suffix in ("paper", "poly2"):
        if method.endswith("-" + suffix):
            return f"{method[:-len(suffix) - 1].upper()} ({suffix})"
    return method.upper()


@dataclass(frozen=True)
class PublishedRow:
    """One method's printed numbers for one metric: the per-k values, then the printed average."""

    metric: str
    method: str
    values: tuple[float, ...]

    @property
    def average(self) -> float:
        return self.values[-1]


def _words(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@dataclass(frozen=True)
class TableSpec:
    """One paper table (or pair of tables) as an experiment with known answers.

    Attributes
    ----------
    name : str
        Command-line name, e.g. ``"cai2011-tdt2"``.
    title, paper : str
        What the table shows, and the citation.
    paper_tables : tuple of (metric, label)
        Which printed table holds each metric, e.g. ``(("accuracy", "Table 4"),)``.
    condition : DataCondition
        The corpus used here.
    class_filter : str
        How documents and classes were selected (in words).
    k_values, runs, restarts, seed :
        The protocol's defaults (the papers: k = 2..10, 50 runs).
    weightings : tuple of str
        Weightings run by default (see :mod:`docnmf.experiments.conditions`).
    metrics : tuple of str
    published : tuple of PublishedRow
    notes : str
        Where this set-up departs from the paper's.
    weighting_names : tuple of (weighting, words)
        How the notes name each of ``weightings``; when given, the notes end with a sentence
        saying which of them a run used (:meth:`notes_for`).
    """

    name: str
    title: str
    paper: str
    paper_tables: tuple[tuple[str, str], ...]
    condition: DataCondition
    class_filter: str
    weightings: tuple[str, ...]
    metrics: tuple[str, ...]
    published: tuple[PublishedRow, ...]
    notes: str = ""
    weighting_names: tuple[tuple[str, str], ...] = ()
    k_values: tuple[int, ...] = K_2_TO_10
    runs: int = 50
    restarts: int = 10
    seed: int = 0

    @property
    def methods(self) -> tuple[str, ...]:
        """Methods with published numbers, in the paper's order."""
        return tuple(dict.fromkeys(row.method for row in self.published))

    def row(self, metric: str, method: str) -> PublishedRow | None:
        for row in self.published:
            if row.metric == metric and row.method == method:
                return row
        return None

    def value(self, metric: str, method: str, k: int) -> float | None:
        """The printed number for one cell, or None when the paper has none."""
        row = self.row(metric, method)
        if row is None or k not in self.k_values:
            return None
        return row.values[self.k_values.index(k)]

    def average(self, metric: str, method: str,
                k_values: Iterable[int] | None = None) -> float | None:
        """The printed average, or the mean of the printed values over ``k_values``."""
        row = self.row(metric, method)
        if row is None:
            return None
        if k_values is None:
            return row.average
        vals = [self.value(metric, method, k) for k in k_values]
        return None if any(v is None for v in vals) else sum(vals) / len(vals)

    def notes_for(self, weightings: Iterable[str]) -> str:
        """The notes of a run with ``weightings``: which of the table's weightings it used.

        Without ``weighting_names`` the notes as they are.
        """
        if not self.weighting_names:
            return self.notes
        names = dict(self.weighting_names)
        run = list(dict.fromkeys(weightings))
        said = [names.get(w, f"`{w}`") for w in run]
        verb = "are" if len(said) > 1 else "is"
        left = [names.get(w, f"`{w}`") for w in self.weightings if w not in run]
        if set(run) == set(self.weightings):
            sentence = (f"Both {said[0]} and {said[1]} are run." if len(said) == 2
                        else f"{_words(said)} {verb} run.")
        elif set(run) < set(self.weightings):
            sentence = (f"Only {_words(said)} {verb} run here (--weighting); the table's "
                        f"default runs {_words(left)} as well.")
        else:
            default = [names.get(w, f"`{w}`") for w in self.weightings]
            sentence = (f"{_words(said)[0].upper()}{_words(said)[1:]} {verb} run here "
                        f"(--weighting); the table's default runs {_words(default)}.")
        return f"{self.notes} {sentence}".strip()

    def table_label(self, metric: str) -> str:
        return dict(self.paper_tables).get(metric, "")

    def protocol(self, *, methods: Iterable[str] | None = None,
                 k_values: Iterable[int] | None = None, runs: int | None = None, restarts: int | None = None, seed: int | None = None,
                 weightings: Iterable[str] | None = None) -> Protocol:
        """The protocol of this table; by default its methods that are registered now."""
        if methods is None:
            methods = [m for m in self.methods if m in METHODS]
        return Protocol(
            condition=self.condition, methods=tuple(methods),
            k_values=tuple(k_values) if k_values is not None else self.k_values,
            # None: the table's own; 0 is a number (refused by the protocol), not "default"
            runs=self.runs if runs is None else runs,
            restarts=self.restarts if restarts is None else restarts,
            seed=self.seed if seed is None else seed,
            weightings=tuple(weightings) if weightings is not None else self.weightings)


def _rows_by_method(metric: str, rows: Iterable[tuple[str, tuple[float, ...]]]):
    return tuple(PublishedRow(metric, method, tuple(values)) for method, values in rows)


def _rows_by_k(layout: tuple[tuple[str, str], ...], table: tuple[tuple, ...]):
    """Turn a table printed with one line per k (and a last 'average' line) into rows."""
    return tuple(PublishedRow(metric, method, tuple(line[1 + j] for line in table))
                 for j, (metric, method) in enumerate(layout))


# -- Xu, Liu & Gong (2003) ----------------------------------------------------------------------

XU2003 = ("W. Xu, X. Liu, Y. Gong. Document clustering based on non-negative matrix "
          "factorization. SIGIR 2003")

# Tables 2 and 3 as printed: k, then Mutual Information for AA, NC, NMF, NMF-NCW, then Accuracy.
_XU2003_LAYOUT = (("nmi", "aa"), ("nmi", "nc"), ("nmi", "nmf"), ("nmi", "nmf-ncw"),
                  ("accuracy", "aa"), ("accuracy", "nc"), ("accuracy", "nmf"),
                  ("accuracy", "nmf-ncw"))

_XU2003_TABLE2 = (  # TDT2
    (2, 0.834, 0.954, 0.854, 0.972, 0.934, 0.990, 0.946, 0.993),
    (3, 0.754, 0.890, 0.790, 0.931, 0.863, 0.951, 0.899, 0.981),
    (4, 0.743, 0.846, 0.786, 0.909, 0.830, 0.918, 0.866, 0.953),
    (5, 0.696, 0.802, 0.740, 0.874, 0.758, 0.857, 0.812, 0.925),
    (6, 0.663, 0.761, 0.701, 0.823, 0.712, 0.802, 0.773, 0.880),
    (7, 0.679, 0.756, 0.704, 0.816, 0.707, 0.783, 0.750, 0.857),
    (8, 0.624, 0.695, 0.651, 0.782, 0.641, 0.717, 0.697, 0.824),
    (9, 0.663, 0.741, 0.683, 0.804, 0.664, 0.754, 0.708, 0.837),
    (10, 0.656, 0.736, 0.681, 0.812, 0.638, 0.729, 0.685, 0.835),
    ("average", 0.701, 0.798, 0.732, 0.858, 0.750, 0.833, 0.793, 0.898),
)

_XU2003_TABLE3 = (  # Reuters
    (2, 0.399, 0.484, 0.437, 0.494, 0.784, 0.821, 0.824, 0.837),
    (3, 0.482, 0.536, 0.489, 0.574, 0.709, 0.765, 0.731, 0.803),
    (4, 0.480, 0.581, 0.487, 0.604, 0.629, 0.734, 0.655, 0.758),
    (5, 0.565, 0.590, 0.587, 0.600, 0.655, 0.695, 0.686, 0.722),
    (6, 0.537, 0.627, 0.559, 0.650, 0.611, 0.678, 0.650, 0.728),
    (7, 0.560, 0.599, 0.575, 0.624, 0.584, 0.654, 0.624, 0.696),
    (8, 0.559, 0.592, 0.578, 0.606, 0.581, 0.613, 0.618, 0.651),
    (9, 0.603, 0.633, 0.614, 0.659, 0.599, 0.640, 0.634, 0.692),
    (10, 0.607, 0.647, 0.626, 0.661, 0.600, 0.634, 0.634, 0.677),
    ("average", 0.532, 0.588, 0.550, 0.608, 0.639, 0.693, 0.673, 0.729),
)

# -- Cai, He & Han (2011) -----------------------------------------------------------------------
#
# Rows as printed in Tables 4-7. CF/LCCF rows map to the '-paper' presets (lambda = 100 as is,
# p = 5, k-means on V) and the kernelised rows to the '-poly2' presets. In Tables 6 and 7 the
# kernelised LCCF row repeats the plain LCCF row digit for digit; it is kept as printed.

CAI2011 = ("D. Cai, X. He, J. Han. Locally consistent concept factorization for document "
           "clustering. IEEE TKDE 23(6), 2011")

_CAI2011_TABLE4 = (  # TDT2, accuracy
    ("km", (0.938, 0.882, 0.834, 0.778, 0.762, 0.708, 0.653, 0.651, 0.613, 0.758)),
    ("km-ncw", (0.985, 0.936, 0.950, 0.884, 0.902, 0.878, 0.834, 0.814, 0.775, 0.884)),
    ("aa", (0.929, 0.846, 0.803, 0.753, 0.733, 0.705, 0.655, 0.641, 0.609, 0.742)),
    ("nc", (0.983, 0.960, 0.950, 0.883, 0.910, 0.880, 0.822, 0.811, 0.786, 0.887)),
    ("nmf", (0.866, 0.804, 0.755, 0.705, 0.699, 0.681, 0.608, 0.611, 0.578, 0.701)),
    ("nmf-ncw", (0.984, 0.959, 0.949, 0.885, 0.910, 0.878, 0.844, 0.824, 0.809, 0.894)),
    # CF and LCCF as the paper ran them (the '-paper' presets)
    ("cf-paper", (0.863, 0.817, 0.779, 0.721, 0.708, 0.695, 0.658, 0.646, 0.594, 0.720)),
    ("cf-ncw-paper", (0.985, 0.965, 0.950, 0.894, 0.932, 0.896, 0.864, 0.846, 0.820, 0.906)),
    ("lccf-paper", (0.952, 0.896, 0.877, 0.821, 0.807, 0.794, 0.729, 0.738, 0.689, 0.811)),
    ("lccf-ncw-paper", (0.985, 0.979, 0.985, 0.973, 0.976, 0.981, 0.981, 0.971, 0.957, 0.976)),
    # kernelised rows, K = <x_i, x_j>^2
    ("km-poly2", (0.876, 0.786, 0.784, 0.738, 0.706, 0.698, 0.659, 0.660, 0.621, 0.725)),
    ("km-ncw-poly2", (0.970, 0.958, 0.951, 0.940, 0.947, 0.925, 0.926, 0.910, 0.889, 0.935)),
    ("aa-poly2", (0.847, 0.801, 0.781, 0.753, 0.718, 0.699, 0.682, 0.654, 0.619, 0.728)),
    ("nc-poly2", (0.993, 0.933, 0.948, 0.934, 0.942, 0.935, 0.941, 0.931, 0.925, 0.943)),
    ("cf-poly2", (0.862, 0.824, 0.817, 0.785, 0.791, 0.791, 0.742, 0.753, 0.726, 0.788)),
    ("cf-ncw-poly2", (0.993, 0.945, 0.929, 0.922, 0.941, 0.940, 0.926, 0.928, 0.932, 0.940)),
    ("lccf-poly2", (0.971, 0.917, 0.888, 0.843, 0.850, 0.830, 0.767, 0.777, 0.748, 0.843)),
    ("lccf-ncw-poly2", (0.993, 0.983, 0.991, 0.988, 0.987, 0.980, 0.976, 0.971, 0.961, 0.981)),
)

_CAI2011_TABLE5 = (  # TDT2, NMI
    ("km", (0.807, 0.771, 0.739, 0.691, 0.716, 0.668, 0.629, 0.648, 0.622, 0.699)),
    ("km-ncw", (0.937, 0.839, 0.885, 0.804, 0.841, 0.814, 0.775, 0.774, 0.750, 0.824)),
    ("aa", (0.745, 0.696, 0.690, 0.650, 0.673, 0.652, 0.611, 0.614, 0.594, 0.658)),
    ("nc", (0.918, 0.891, 0.880, 0.798, 0.843, 0.819, 0.766, 0.767, 0.756, 0.826)),
    ("nmf", (0.687, 0.678, 0.667, 0.625, 0.661, 0.648, 0.593, 0.616, 0.596, 0.641)),
    ("nmf-ncw", (0.947, 0.903, 0.891, 0.807, 0.863, 0.832, 0.797, 0.792, 0.781, 0.846)),
    # CF and LCCF as the paper ran them (the '-paper' presets)
    ("cf-paper", (0.678, 0.695, 0.678, 0.636, 0.670, 0.663, 0.626, 0.639, 0.605, 0.654)),
    ("cf-ncw-paper", (0.947, 0.908, 0.893, 0.817, 0.888, 0.852, 0.814, 0.805, 0.795, 0.858)),
    ("lccf-paper", (0.850, 0.791, 0.783, 0.726, 0.743, 0.733, 0.684, 0.696, 0.669, 0.742)),
    ("lccf-ncw-paper", (0.954, 0.949, 0.949, 0.912, 0.941, 0.947, 0.946, 0.928, 0.913, 0.938)),
    # kernelised rows, K = <x_i, x_j>^2
    ("km-poly2", (0.556, 0.542, 0.595, 0.555, 0.571, 0.567, 0.539, 0.564, 0.546, 0.559)),
    ("km-ncw-poly2", (0.850, 0.868, 0.863, 0.856, 0.859, 0.847, 0.851, 0.826, 0.816, 0.849)),
    ("aa-poly2", (0.417, 0.487, 0.502, 0.499, 0.523, 0.521, 0.492, 0.517, 0.502, 0.495)),
    ("nc-poly2", (0.906, 0.834, 0.863, 0.855, 0.880, 0.872, 0.870, 0.858, 0.847, 0.865)),
    ("cf-poly2", (0.576, 0.634, 0.664, 0.659, 0.691, 0.703, 0.660, 0.695, 0.670, 0.661)),
    ("cf-ncw-poly2", (0.908, 0.834, 0.816, 0.822, 0.879, 0.887, 0.846, 0.857, 0.852, 0.856)),
    ("lccf-poly2", (0.924, 0.828, 0.793, 0.754, 0.793, 0.771, 0.721, 0.744, 0.720, 0.783)),
    ("lccf-ncw-poly2", (0.959, 0.940, 0.949, 0.941, 0.954, 0.942, 0.937, 0.934, 0.912, 0.941)),
)

_CAI2011_TABLE6 = (  # Reuters-21578, accuracy
    ("km", (0.825, 0.692, 0.652, 0.588, 0.589, 0.539, 0.469, 0.447, 0.480, 0.587)),
    ("km-ncw", (0.899, 0.853, 0.802, 0.707, 0.693, 0.618, 0.572, 0.568, 0.596, 0.701)),
    ("aa", (0.812, 0.716, 0.648, 0.596, 0.573, 0.536, 0.467, 0.450, 0.478, 0.586)),
    ("nc", (0.898, 0.832, 0.774, 0.724, 0.698, 0.658, 0.575, 0.585, 0.613, 0.706)),
    ("nmf", (0.828, 0.712, 0.683, 0.580, 0.582, 0.535, 0.448, 0.457, 0.490, 0.591)),
    ("nmf-ncw", (0.894, 0.846, 0.786, 0.720, 0.701, 0.667, 0.581, 0.575, 0.625, 0.711)),
    # CF and LCCF as the paper ran them (the '-paper' presets)
    ("cf-paper", (0.831, 0.715, 0.694, 0.592, 0.614, 0.549, 0.451, 0.456, 0.508, 0.601)),
    ("cf-ncw-paper", (0.893, 0.852, 0.795, 0.720, 0.708, 0.673, 0.594, 0.587, 0.617, 0.715)),
    ("lccf-paper", (0.868, 0.756, 0.752, 0.698, 0.677, 0.606, 0.598, 0.568, 0.590, 0.679)),
    ("lccf-ncw-paper", (0.894, 0.854, 0.804, 0.750, 0.766, 0.756, 0.712, 0.704, 0.662, 0.767)),
    # kernelised rows, K = <x_i, x_j>^2
    ("km-poly2", (0.742, 0.669, 0.616, 0.584, 0.542, 0.512, 0.508, 0.470, 0.435, 0.564)),
    ("km-ncw-poly2", (0.873, 0.862, 0.769, 0.702, 0.684, 0.669, 0.648, 0.620, 0.610, 0.715)),
    ("aa-poly2", (0.744, 0.680, 0.605, 0.604, 0.560, 0.541, 0.556, 0.526, 0.471, 0.587)),
    ("nc-poly2", (0.874, 0.848, 0.783, 0.747, 0.734, 0.728, 0.718, 0.688, 0.651, 0.752)),
    ("cf-poly2", (0.794, 0.708, 0.673, 0.627, 0.610, 0.564, 0.568, 0.538, 0.555, 0.626)),
    ("cf-ncw-poly2", (0.895, 0.848, 0.750, 0.764, 0.714, 0.740, 0.762, 0.714, 0.631, 0.758)),
    ("lccf-poly2", (0.868, 0.756, 0.752, 0.698, 0.677, 0.606, 0.598, 0.568, 0.590, 0.679)),
    ("lccf-ncw-poly2", (0.908, 0.854, 0.807, 0.789, 0.770, 0.736, 0.738, 0.710, 0.670, 0.776)),
)

_CAI2011_TABLE7 = (  # Reuters-21578, NMI
    ("km", (0.428, 0.409, 0.483, 0.428, 0.482, 0.460, 0.393, 0.393, 0.478, 0.439)),
    ("km-ncw", (0.627, 0.630, 0.655, 0.525, 0.572, 0.522, 0.454, 0.464, 0.540, 0.554)),
    ("aa", (0.368, 0.353, 0.431, 0.381, 0.430, 0.424, 0.349, 0.363, 0.435, 0.393)),
    ("nc", (0.596, 0.584, 0.586, 0.500, 0.552, 0.508, 0.434, 0.441, 0.524, 0.525)),
    ("nmf", (0.436, 0.410, 0.509, 0.424, 0.485, 0.449, 0.362, 0.391, 0.464, 0.437)),
    ("nmf-ncw", (0.608, 0.641, 0.626, 0.533, 0.576, 0.545, 0.461, 0.471, 0.556, 0.558)),
    # CF and LCCF as the paper ran them (the '-paper' presets)
    ("cf-paper", (0.440, 0.414, 0.521, 0.425, 0.494, 0.456, 0.363, 0.396, 0.476, 0.443)),
    ("cf-ncw-paper", (0.605, 0.648, 0.631, 0.534, 0.582, 0.549, 0.466, 0.475, 0.550, 0.560)),
    ("lccf-paper", (0.503, 0.452, 0.553, 0.485, 0.519, 0.485, 0.447, 0.445, 0.513, 0.489)),
    ("lccf-ncw-paper", (0.599, 0.652, 0.668, 0.556, 0.623, 0.601, 0.538, 0.533, 0.567, 0.593)),
    # kernelised rows, K = <x_i, x_j>^2
    ("km-poly2", (0.183, 0.206, 0.263, 0.218, 0.260, 0.260, 0.212, 0.231, 0.276, 0.234)),
    ("km-ncw-poly2", (0.509, 0.590, 0.539, 0.446, 0.506, 0.468, 0.424, 0.412, 0.474, 0.485)),
    ("aa-poly2", (0.116, 0.141, 0.208, 0.156, 0.195, 0.177, 0.153, 0.169, 0.220, 0.171)),
    ("nc-poly2", (0.490, 0.517, 0.528, 0.433, 0.504, 0.479, 0.442, 0.437, 0.458, 0.476)),
    ("cf-poly2", (0.312, 0.329, 0.401, 0.332, 0.405, 0.377, 0.336, 0.349, 0.428, 0.363)),
    ("cf-ncw-poly2", (0.567, 0.529, 0.488, 0.446, 0.484, 0.490, 0.528, 0.472, 0.427, 0.492)),
    ("lccf-poly2", (0.503, 0.452, 0.553, 0.485, 0.519, 0.485, 0.447, 0.445, 0.513, 0.489)),
    ("lccf-ncw-poly2", (0.648, 0.640, 0.677, 0.576, 0.632, 0.591, 0.566, 0.544, 0.583, 0.606)),
)

# -- data conditions ----------------------------------------------------------------------------

TDT2_CAI = DataCondition(
    "tdt2", "tdt2",
    description="TDT2 preprocessed by D. Cai (TDT2_all.mat, raw counts), single-label documents "
                "of classes with >= 10 documents: 10021 documents, 56 classes")
REUTERS_CAI = DataCondition(
    "reuters_cai", "reuters_cai",
    description="Reuters-21578 preprocessed by D. Cai (Reuters21578.mat, raw counts), classes "
                "with >= 10 documents: 8213 documents, 41 classes")
REUTERS_XU = DataCondition(
    "reuters21578_single", "reuters21578_single",
    description="Reuters-21578 raw SGML, single-topic documents of topics with >= 5 of them: "
                "9466 documents, 51 classes; tokenized with stop-word removal and Porter "
                "stemming, no document-frequency cut")

_CAI_NOTES = (
    "Cai et al. do not state the number of restarts of the iterative methods; 10 are used, as in "
    "Xu et al. (2003). The text says classes with 'more than 10' documents are kept, but the "
    "stated totals match classes with at least 10. All rows of the tables are transcribed: CF "
    "and LCCF run as the paper did (cf-paper, lccf-paper...: lambda = 100 unscaled, p = 5, "
    "k-means on V) and the kernelised rows with K = <x_i, x_j>^2 (the -poly2 methods, dense "
    "n x n kernels, slower; --methods selects a subset). In Tables 6 and 7 the kernelised LCCF "
    "row is printed identical to the plain LCCF row; it is kept as printed.")
#: How the notes name the Cai tables' two weightings (the notes say which ones a run used).
_CAI_WEIGHTING_NAMES = (
    ("cai-global", "the published preprocessing (cai-global)"),
    ("xu-subset", "Xu et al.'s per-subset tf-idf (xu-subset)"))

TABLES: dict[str, TableSpec] = {spec.name: spec for spec in (
    TableSpec(
        name="xu2003-tdt2",
        title="NMF document clustering on TDT2 (Xu et al. 2003, Table 2)",
        paper=XU2003, paper_tables=(("nmi", "Table 2"), ("accuracy", "Table 2")),
        condition=TDT2_CAI,
        class_filter="paper: 7803 single-label documents of the 56 events with >= 5 documents; "
                     "here: Cai's TDT2, classes with >= 10 documents (10021 docs, 56 classes)",
        weightings=("xu-subset",), metrics=("accuracy", "nmi"),
        published=_rows_by_k(_XU2003_LAYOUT, _XU2003_TABLE2),
        notes="Xu et al.'s 7803-document, 56-event TDT2 subset is not available; D. Cai's TDT2 "
              "matrix restricted to classes with >= 10 documents (10021 documents, 56 classes) "
              "stands in for it, with Cai's vocabulary. Xu et al. keep the best of 10 NMF "
              "trials per test run (minimal squared error); every method here keeps the best "
              "of its restarts (10 unless --restarts says otherwise). The 'Mutual Information' columns are the normalized MI of eq. 14."),
    TableSpec(
        name="xu2003-reuters",
        title="NMF document clustering on Reuters-21578 (Xu et al. 2003, Table 3)",
        paper=XU2003, paper_tables=(("nmi", "Table 3"), ("accuracy", "Table 3")),
        condition=REUTERS_XU,
        class_filter="single-label documents of categories with >= 5 documents "
                     "(paper: 9494 docs, 51 classes; here 9466 docs, 51 classes)",
        weightings=("xu-subset",), metrics=("accuracy", "nmi"),
        published=_rows_by_k(_XU2003_LAYOUT, _XU2003_TABLE3),
        notes="The raw SGML gives 9466 single-topic documents in 51 topics with >= 5 "
              "documents, against the paper's 9494 (the paper's count matches the 9494 "
              "single-topic records before the size filter). Xu et al. keep the best of 10 NMF "
              "trials; every method here keeps the best of its restarts (10 unless --restarts "
              "says otherwise). The 'Mutual Information' columns "
              "are the normalized MI of eq. 14."),
    TableSpec(
        name="cai2011-tdt2",
        title="Clustering on TDT2 (Cai et al. 2011, Tables 4 and 5)",
        paper=CAI2011, paper_tables=(("accuracy", "Table 4"), ("nmi", "Table 5")),
        condition=TDT2_CAI,
        class_filter="single-label documents of classes with >= 10 documents "
                     "(10021 docs, 56 classes, as in the paper)",
        weightings=("cai-global", "xu-subset"), metrics=("accuracy", "nmi"),
        published=_rows_by_method("accuracy", _CAI2011_TABLE4)
        + _rows_by_method("nmi", _CAI2011_TABLE5),
        notes=_CAI_NOTES, weighting_names=_CAI_WEIGHTING_NAMES),
    TableSpec(
        name="cai2011-reuters",
        title="Clustering on Reuters-21578 (Cai et al. 2011, Tables 6 and 7)",
        paper=CAI2011, paper_tables=(("accuracy", "Table 6"), ("nmi", "Table 7")),
        condition=REUTERS_CAI,
        class_filter="single-label documents of classes with >= 10 documents "
                     "(8213 docs, 41 classes, as in the paper)",
        weightings=("cai-global", "xu-subset"), metrics=("accuracy", "nmi"),
        published=_rows_by_method("accuracy", _CAI2011_TABLE6)
        + _rows_by_method("nmi", _CAI2011_TABLE7),
        notes=_CAI_NOTES, weighting_names=_CAI_WEIGHTING_NAMES),
)}


def get_table(name: str) -> TableSpec:
    """The spec called ``name``; ``KeyError`` with the known names otherwise.

    Examples
    --------
    >>> get_table("cai2011-tdt2").value("accuracy", "nmf-ncw", 2)
    0.984
    """
    try:
        return TABLES[name]
    except KeyError:
        raise KeyError(f"unknown table {name!r}; choose from {', '.join(TABLES)}") from None
