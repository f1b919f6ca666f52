"""Tables, comparisons and the plot of an evaluation-suite run (:mod:`.benchmark`).

Per corpus and entry: accuracy and NMI, mean and standard deviation over the
runs. Over a set of corpora (the tuning half, the held-back half, all):
each entry's mean accuracy and mean rank (1 = best accuracy on a corpus,
ties share the mean rank), wins / ties / losses of each docnmf entry against
each peer (a tie is a difference in mean accuracy below :data:`TIE`), and
the worst shortfall to the best peer of each corpus. Only corpora on which
every compared entry ran are compared.
"""

from __future__ import annotations

import io
import logging
import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
from scipy.stats import rankdata

from ..io import atomic_write_bytes, atomic_write_text, write_json
from .benchmark import PEERS
from .suite import CONFIRM_CORPORA, ROLES, SUITE_CORPORA, SUITE_ROLES

logger = logging.getLogger(__name__)

__all__ = ["TIE", "Cell", "cells_of", "mean_ranks", "head_to_head", "Comparison",
           "format_benchmark_report", "write_benchmark_report"]

#: Mean accuracies closer than this are a tie.
TIE = 0.005

ROLE_TITLES = {"tuning": "Tuning half (defaults chosen here)",
               "held_back": "Held-back half (defaults confirmed here)",
               "confirm": "Confirmation set (declared after the defaults were fixed)",
               "confirm2": "Second confirmation set (declared after the first was read)",
               None: "Whole suite"}


@dataclass(frozen=True)
class Cell:
    """One entry on one corpus over its runs: means, and population standard deviations
    (ddof 0)."""

    accuracy: float
    accuracy_std: float
    nmi: float
    nmi_std: float
    runs: int
    seconds: float


def cells_of(records: Iterable[dict[str, Any]]) -> dict[tuple[str, str], Cell]:
    """``(corpus, entry) -> Cell`` over the runs of each.

    Examples
    --------
    >>> recs = [{"corpus": "a", "entry": "nmf", "accuracy": a, "nmi": 0.5, "seconds": 1.0}
    ...         for a in (0.6, 0.8)]
    >>> cell = cells_of(recs)["a", "nmf"]
    >>> round(cell.accuracy, 3), round(cell.accuracy_std, 3), cell.runs
    (0.7, 0.1, 2)
    """
    groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for r in records:
        groups[r["corpus"], r["entry"]].append(r)
    out = {}
    for key, rs in groups.items():
        acc = np.array([r["accuracy"] for r in rs])
        mi = np.array([r["nmi"] for r in rs])
        out[key] = Cell(float(acc.mean()), float(acc.std()), float(mi.mean()), float(mi.std()),
                        len(rs), float(np.mean([r["seconds"] for r in rs])))
    return out


def _common(cells, corpora: Sequence[str], entries: Sequence[str]) -> list[str]:
    return [c for c in corpora if all((c, e) in cells for e in entries)]


def mean_ranks(cells, corpora: Sequence[str], entries: Sequence[str]) -> dict[str, float]:
    """Each entry's mean rank by accuracy over the corpora where all ``entries`` ran.

    Examples
    --------
    >>> c = {(k, e): Cell(a, 0, 0, 0, 1, 0) for k, e, a in
    ...      [("x", "a", .9), ("x", "b", .8), ("y", "a", .5), ("y", "b", .5)]}
    >>> mean_ranks(c, ["x", "y"], ["a", "b"])
    {'a': 1.25, 'b': 1.75}
    """
    common = _common(cells, corpora, entries)
    if not common:
        return {}
    ranks = np.array([rankdata([-cells[c, e].accuracy for e in entries]) for c in common])
    return {e: float(ranks[:, j].mean()) for j, e in enumerate(entries)}


@dataclass(frozen=True)
class Comparison:
    """Entry ``a`` against entry ``b`` over corpora, by mean accuracy per corpus."""

    a: str
    b: str
    corpora: tuple[str, ...]
    differences: tuple[float, ...]

    @property
    def wins(self) -> int:
        return sum(d >= TIE for d in self.differences)

    @property
    def losses(self) -> int:
        return sum(d <= -TIE for d in self.differences)

    @property
    def ties(self) -> int:
        return len(self.differences) - self.wins - self.losses

    @property
    def mean_difference(self) -> float:
        return float(np.mean(self.differences)) if self.differences else math.nan

    @property
    def worst(self) -> tuple[str | None, float]:
        """The corpus where ``a`` falls furthest below ``b``, and by how much (negative)."""
        if not self.differences:
            return None, math.nan
        j = int(np.argmin(self.differences))
        return self.corpora[j], float(self.differences[j])


def head_to_head(cells, a: str, b: str, corpora: Sequence[str]) -> Comparison:
    """``a`` minus ``b`` in mean accuracy on every corpus where both ran."""
    common = _common(cells, corpora, [a, b])
    return Comparison(a, b, tuple(common),
                      tuple(cells[c, a].accuracy - cells[c, b].accuracy for c in common))


def best_peer_shortfall(cells, entry: str, corpora: Sequence[str], peers: Sequence[str]
                        ) -> list[tuple[str, str, float]]:
    """Per corpus: the best peer and ``entry``'s accuracy minus it (negative: below it)."""
    out = []
    for c in _common(cells, corpora, [entry]):
        present = [p for p in peers if (c, p) in cells]
        if present:
            best = max(present, key=lambda p: cells[c, p].accuracy)
            out.append((c, best, cells[c, entry].accuracy - cells[c, best].accuracy))
    return out


# -- markdown -------------------------------------------------------------------------------------

def _f(x: float, digits: int = 3, sign: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _entries_in(records) -> list[str]:
    seen: dict[str, None] = {}
    for r in records:
        seen.setdefault(r["entry"], None)
    ours = [e for e in seen if e not in PEERS]
    return ours + [p for p in PEERS if p in seen]


def _corpora_in(records, role: str | None) -> list[str]:
    """The corpora of one role in the records (None: the whole suite, both halves)."""
    def wanted(corpus_role) -> bool:
        return corpus_role == role if role is not None else corpus_role in SUITE_ROLES

    present = {r["corpus"] for r in records}
    declared = SUITE_CORPORA + CONFIRM_CORPORA
    return [c.name for c in declared if c.name in present and wanted(c.role)] + sorted(
        {r["corpus"] for r in records if wanted(r.get("role"))} - {c.name for c in declared})


def _table(cells, corpora, entries, metric: str) -> list[str]:
    lines = ["| corpus | " + " | ".join(entries) + " |", "|---|" + "---:|" * len(entries)]
    for c in corpora:
        present = [cells[c, e] for e in entries if (c, e) in cells]
        best = max((getattr(x, metric) for x in present), default=None)
        row = []
        for e in entries:
            cell = cells.get((c, e))
            if cell is None:
                row.append("")
                continue
            text = f"{_f(getattr(cell, metric))}±{_f(getattr(cell, metric + '_std'), 2)}"
            row.append(f"**{text}**" if getattr(cell, metric) == best else text)
        lines.append(f"| {c} | " + " | ".join(row) + " |")
    means = []
    for e in entries:
        vals = [getattr(cells[c, e], metric) for c in corpora if (c, e) in cells]
        means.append(f"{np.mean(vals):.3f} ({len(vals)})" if vals else "")
    lines.append("| **mean (corpora)** | " + " | ".join(means) + " |")
    return lines


def _section(cells, records, role, entries, reference: str) -> list[str]:
    corpora = _corpora_in(records, role)
    if not corpora:
        return []
    ours = [e for e in entries if e not in PEERS]
    peers = [e for e in entries if e in PEERS]
    lines = [(f"## {ROLE_TITLES[role]}: {len(corpora)} "
              f"{'corpus' if len(corpora) == 1 else 'corpora'}"), "",
             # (docnmf evaluate's tables give the sample std: this one says which it is)
             ("### Accuracy (mean ± population std, ddof 0, over runs; best of each corpus in "
              "bold)"), ""]
    lines += _table(cells, corpora, entries, "accuracy")
    lines += ["", "### NMI", ""] + _table(cells, corpora, entries, "nmi")
    everywhere = [e for e in entries if all((c, e) in cells for c in corpora)]
    ranks = mean_ranks(cells, corpora, everywhere)
    if ranks:
        lines += ["", f"### Mean rank by accuracy (the {len(everywhere)} entries run on every "
                      "corpus; 1 = best)", "", "| entry | mean rank | mean accuracy |",
                  "|---|---:|---:|"]
        for e in sorted(ranks, key=ranks.get):
            acc = np.mean([cells[c, e].accuracy for c in corpora])
            lines.append(f"| {e} | {ranks[e]:.2f} | {acc:.3f} |")
    if peers:
        lines += ["", f"### Against each peer: wins / ties / losses (tie: |difference| < {TIE}), "
                      "mean difference, worst corpus", "",
                  "| entry | " + " | ".join(peers) + " |", "|---|" + "---|" * len(peers)]
        for e in ours:
            row = []
            for p in peers:
                cmp = head_to_head(cells, e, p, corpora)
                if not cmp.differences:
                    row.append("")
                    continue
                where, worst = cmp.worst
                row.append(f"{cmp.wins}/{cmp.ties}/{cmp.losses}, {_f(cmp.mean_difference, sign=True)}"
                           f", worst {_f(worst, sign=True)} ({where})")
            lines.append(f"| {e} | " + " | ".join(row) + " |")
        lines += ["", "### Shortfall to the best peer of each corpus (accuracy; negative: below)",
                  "", "| entry | corpora below the best peer by > 0.03 | worst | mean |",
                  "|---|---|---:|---:|"]
        for e in ours:
            short = best_peer_shortfall(cells, e, corpora, peers)
            if not short:
                continue
            below = [f"{c} ({d:+.3f} vs {p})" for c, p, d in short if d < -0.03]
            c, p, d = min(short, key=lambda t: t[2])
            lines.append(f"| {e} | {', '.join(below) or 'none'} | {d:+.3f} ({c}, {p}) | "
                         f"{np.mean([t[2] for t in short]):+.3f} |")
    if reference in cells_entries(cells):
        lines += ["", *_goals(cells, corpora, reference)]
        declared = [c for c in SUITE_CORPORA + CONFIRM_CORPORA
                    if (c.role == role if role is not None else c.role in SUITE_ROLES)]
        if declared and len(corpora) < len(declared):
            lines += ["", (f"Measured on {len(corpora)} of the {len(declared)} corpora "
                           "declared here: a partial run, not the suite's verdict.")]
    return lines + [""]


def cells_entries(cells) -> set[str]:
    return {e for _, e in cells}


def _goals(cells, corpora, reference: str) -> list[str]:
    """The issue's goals, measured: the default against the peers, LCCF against NMF."""
    lines = ["### Goals", "", "| goal | measured | met |", "|---|---|---|"]

    def row(goal, text, ok):
        lines.append(f"| {goal} | {text} | {'yes' if ok else '**no**'} |")

    km = head_to_head(cells, reference, "sklearn-km", corpora)
    if km.differences:
        n = len(km.differences)
        where, worst = km.worst
        row("default vs TfidfVectorizer+KMeans: mean accuracy >= +0.02",
            _f(km.mean_difference, sign=True), km.mean_difference >= 0.02)
        row("... wins on >= 75% of corpora", f"{km.wins}/{n} wins ({km.ties} ties)",
            km.wins >= 0.75 * n)
        row("... never more than 0.03 below", f"worst {_f(worst, sign=True)} ({where})",
            worst >= -0.03)
    nmf = head_to_head(cells, reference, "sklearn-nmf", corpora)
    if nmf.differences:
        row("default vs scikit-learn NMF+argmax: mean accuracy >= +0.03",
            _f(nmf.mean_difference, sign=True), nmf.mean_difference >= 0.03)
    # like with like: LCCF against NMF, LCCF-NCW against NMF-NCW (the same weighting)
    for lccf, base in (("lccf", "nmf"), ("lccf-ncw", "nmf-ncw")):
        cmp = head_to_head(cells, lccf, base, corpora)
        if cmp.differences:
            where, worst = cmp.worst
            row(f"{lccf} never more than 0.03 below {base} (defaults)",
                f"worst {_f(worst, sign=True)} ({where})", worst >= -0.03)
    return lines


def _replaced(records: Sequence[dict[str, Any]]) -> list[str]:
    """Where the default's result was degenerate and another method clustered again."""
    fits = [r for r in records if str(r["entry"]).split(":")[0] == "default"]
    again = [r for r in fits if r.get("replaced")]
    if not fits or not any("fallback" in r for r in fits):
        return []
    if not again:
        return [f"The default's result was degenerate on none of its {len(fits)} fits.", ""]
    where = sorted({r["corpus"] for r in again})
    said = (f"The default's result was degenerate on {len(again)} of its {len(fits)} fits, "
            f"which {again[0]['replaced']['by']} clustered again (as `docnmf cluster` does): "
            f"{', '.join(where)}.")
    return [said, ""]


def format_benchmark_report(records: Sequence[dict[str, Any]], *, title: str = "Evaluation suite",
                            reference: str = "default", preamble: str = "") -> str:
    """The markdown report of a suite run: both halves and the whole suite."""
    cells = cells_of(records)
    entries = _entries_in(records)
    runs = sorted({int(r["run"]) for r in records})
    n_corpora = len({r["corpus"] for r in records})
    lines = [f"# {title}", "", preamble.strip(), "" if preamble.strip() else None,
             f"{n_corpora} corp{'us' if n_corpora == 1 else 'ora'}, {len(entries)} "
             f"entr{'y' if len(entries) == 1 else 'ies'}, {len(runs)} "
             f"run{'' if len(runs) == 1 else 's'} each, {len(records)} "
             f"fit{'' if len(records) == 1 else 's'}, "
             f"{sum(r['seconds'] for r in records) / 60:.1f} min of fitting.", ""]
    lines = [x for x in lines if x is not None]
    peers = [f"- `{p}`: {PEERS[p]}" for p in PEERS if p in entries]
    if peers:       # none run: no heading over nothing
        lines += ["Peers:", "", *peers, ""]
    lines += _replaced(records)
    halves = [_corpora_in(records, role) for role in SUITE_ROLES]
    for role in (*SUITE_ROLES, None, *(r for r in ROLES if r not in SUITE_ROLES)):
        if role is None and not all(halves):
            continue        # one half only: the whole suite would repeat it
        lines += _section(cells, records, role, entries, reference)
    return "\n".join(lines)


def _plot(cells, records, entries) -> bytes | None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:     # the other commands said so; benchmark left its figure out silently
        logger.warning("matplotlib is not installed: no accuracy.png (pip install "
                       "'docnmf[plot]')")
        return None
    halves = [(role, _corpora_in(records, role)) for role in ROLES]
    halves = [(r, c) for r, c in halves if c]
    fig, axes = plt.subplots(len(halves), 1, figsize=(12, 4.2 * len(halves)), squeeze=False)
    markers = "os^vD<>xP*h+"
    for ax, (role, corpora) in zip(axes[:, 0], halves):
        x = np.arange(len(corpora))
        for j, e in enumerate(entries):
            ys = [cells[c, e].accuracy if (c, e) in cells else np.nan for c in corpora]
            ax.plot(x, ys, linestyle="none", marker=markers[j % len(markers)], label=e,
                    alpha=0.8, markersize=6 if e not in PEERS else 5,
                    markerfacecolor="none" if e in PEERS else None)
        ax.set_xticks(x, corpora, rotation=40, ha="right", fontsize=8)
        ax.set_ylabel("accuracy")
        ax.set_ylim(0, 1)
        ax.grid(axis="y", alpha=0.3)
        ax.set_title(ROLE_TITLES[role])
    axes[0, 0].legend(fontsize=7, ncol=4, loc="lower left")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    return buf.getvalue()


def write_benchmark_report(outdir: str | Path, records: Sequence[dict[str, Any]],
                           **options) -> list[Path]:
    """Write ``report.md``, ``summary.json`` and (with matplotlib) ``accuracy.png``."""
    outdir = Path(outdir)
    cells = cells_of(records)
    paths = [atomic_write_text(outdir / "report.md", format_benchmark_report(records, **options))]
    summary = [{"corpus": c, "entry": e, **vars(cell)} for (c, e), cell in sorted(cells.items())]
    paths.append(write_json(outdir / "summary.json", summary))
    png = _plot(cells, records, _entries_in(records))
    if png is not None:
        paths.append(atomic_write_bytes(outdir / "accuracy.png", png))
    return paths
