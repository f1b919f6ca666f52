"""Markdown report, summary JSON and plots of a protocol run, optionally beside a paper's numbers.

Every file is written atomically (:mod:`docnmf.io`), so an interrupted
report never leaves a half-written file behind.
"""

from __future__ import annotations

import io
import logging
import math
import os
import textwrap
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .._version import software_versions
from ..io import atomic_write_bytes, atomic_write_text, write_json
from .aggregate import MetricRow, aggregate, average_over_k
from .conditions import WEIGHTINGS
from .protocol import Protocol, ProtocolResult
from .tables import METRIC_NAMES, TableSpec, display_name

__all__ = ["write_report", "format_report", "format_compact"]

logger = logging.getLogger(__name__)

PLOT_METRICS = ("accuracy", "nmi")


def plots_available() -> bool:
    """Whether matplotlib (the ``plot`` extra) is installed; says so in the log when it is not."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        logger.warning("matplotlib is not installed: no plots (pip install 'docnmf[plot]')")
        return False
    return True


def _fmt(x: float | None, digits: int = 3, sign: bool = False) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.1f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.2f} h"


def _k_label(k_values: Sequence[int]) -> str:
    ks = sorted(k_values)
    if ks == list(range(ks[0], ks[-1] + 1)) and len(ks) > 2:
        return f"{ks[0]}..{ks[-1]}"
    return ", ".join(str(k) for k in ks)


class _Comparison:
    """Our aggregates with the paper's numbers over the k values actually run."""

    def __init__(self, records, protocol: Protocol, spec: TableSpec | None):
        self.protocol, self.spec = protocol, spec
        self.rows = aggregate(records)
        self.k_values = tuple(sorted(protocol.k_values))
        self.metrics = spec.metrics if spec is not None else ("accuracy", "nmi", "purity")

    @property
    def ours_label(self) -> str:
        """The word 'ours' beside a paper's numbers; nothing on a user's corpus (no paper)."""
        return " ours" if self.spec is not None else ""

    def ours(self, weighting: str, method: str, metric: str) -> MetricRow | None:
        return self.rows.get((weighting, method, metric))

    def paper(self, metric: str, method: str, k: int) -> float | None:
        return None if self.spec is None else self.spec.value(metric, method, k)

    def paper_average(self, metric: str, method: str) -> float | None:
        """The printed average when every k of the paper is run, else the mean over our k."""
        if self.spec is None:
            return None
        if set(self.k_values) == set(self.spec.k_values):
            return self.spec.average(metric, method)
        ks = [k for k in self.k_values if k in self.spec.k_values]
        return self.spec.average(metric, method, ks) if ks else None

    def our_average(self, weighting: str, method: str, metric: str) -> float | None:
        row = self.ours(weighting, method, metric)
        return None if row is None else row.average

    @property
    def compared_k_values(self) -> tuple[int, ...]:
        """The k values the paper has numbers for, among those run: what a difference covers."""
        if self.spec is None:
            return self.k_values
        return tuple(k for k in self.k_values if k in self.spec.k_values)

    def compared_average(self, weighting: str, method: str, metric: str) -> float | None:
        """Our mean of the per-k means over :attr:`compared_k_values`, to set beside
        :meth:`paper_average` (which covers those k only): a k the paper has no number for
        would otherwise move our side of the difference and not the paper's."""
        row = self.ours(weighting, method, metric)
        if row is None:
            return None
        ks = set(self.compared_k_values)
        per_k = {k: c for k, c in row.per_k.items() if k in ks}
        return average_over_k(per_k) if per_k else None

    def shown_average(self, weighting: str, method: str, metric: str) -> float | None:
        """Our average as the tables show it: over the k the paper has numbers for, beside a
        paper that has any of those run, else over every k run."""
        if self.spec is not None and self.compared_k_values:
            return self.compared_average(weighting, method, metric)
        return self.our_average(weighting, method, metric)


def _diff(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or math.isnan(a) else a - b


def _metric_table(cmp: _Comparison, weighting: str, metric: str) -> list[str]:
    ks = cmp.k_values
    with_paper = cmp.spec is not None
    # beside a paper, every row's average covers the k it has numbers for (ours over every k
    # run, under a header naming the paper's, did not add up with the difference below it)
    averaged = cmp.compared_k_values if with_paper and cmp.compared_k_values else ks
    full = not with_paper or set(averaged) == set(cmp.spec.k_values)
    avg_label = "avg" if full else f"avg (k={_k_label(averaged)})"
    lines = ["| method | | " + " | ".join(f"k={k}" for k in ks) + f" | {avg_label} |",
             "|---|---|" + "---:|" * (len(ks) + 1)]
    for method in cmp.protocol.methods:
        row = cmp.ours(weighting, method, metric)
        cells = []
        for k in ks:
            c = row.per_k.get(k) if row else None
            # one run has no spread: "± 0.000" would say it was measured
            cells.append("–" if not c else f"{c.mean:.3f}" if c.n < 2
                         else f"{c.mean:.3f} ± {c.std:.3f}")
        lines.append(f"| {display_name(method)} | {'ours' if with_paper else 'mean ± sd'} | "
                     + " | ".join(cells)
                     + f" | {_fmt(cmp.shown_average(weighting, method, metric))} |")
        if with_paper and cmp.spec.row(metric, method) is not None:
            paper = [cmp.paper(metric, method, k) for k in ks]
            lines.append("| | paper | " + " | ".join(_fmt(p) for p in paper)
                         + f" | {_fmt(cmp.paper_average(metric, method))} |")
            diffs = [_diff(row.per_k[k].mean if row and k in row.per_k else None, p)
                     for k, p in zip(ks, paper)]
            avg_diff = _diff(cmp.compared_average(weighting, method, metric),
                             cmp.paper_average(metric, method))
            lines.append("| | ours − paper | " + " | ".join(_fmt(d, sign=True) for d in diffs)
                         + f" | {_fmt(avg_diff, sign=True)} |")
        runs = [str(row.per_k[k].n) if row and k in row.per_k else "0" for k in ks]
        # the runs the average column covers (it counted those of a k it leaves out)
        covered = sum(row.per_k[k].n for k in averaged if k in row.per_k) if row else 0
        lines.append("| | runs | " + " | ".join(runs) + f" | {covered} |")
    return lines


def _summary_table(cmp: _Comparison) -> list[str]:
    metrics = [m for m in cmp.metrics if m in PLOT_METRICS] or list(cmp.metrics)
    head = "| weighting | method |"
    rule = "|---|---|"
    for m in metrics:
        name = METRIC_NAMES.get(m, m)
        head += f" {name}{cmp.ours_label} |" + (f" {name} paper | Δ |" if cmp.spec else "")
        rule += "---:|" + ("---:|---:|" if cmp.spec else "")
    lines = [head, rule]
    for w in cmp.protocol.weightings:
        for method in cmp.protocol.methods:
            cells = []
            for m in metrics:
                ours = cmp.shown_average(w, method, m)
                cells.append(_fmt(ours))
                if cmp.spec:
                    paper = cmp.paper_average(m, method)
                    cells += [_fmt(paper), _fmt(_diff(ours, paper), sign=True)]
            lines.append(f"| {w} | {display_name(method)} | " + " | ".join(cells) + " |")
    return lines


def format_report(result: ProtocolResult, protocol: Protocol, *, spec: TableSpec | None = None,
                  title: str | None = None, plots: dict[str, str] | None = None) -> str:
    """The markdown report of ``result``; ``plots`` maps weighting -> image file name."""
    cmp = _Comparison(result.records, protocol, spec)
    records = result.records
    planned = len(protocol.tasks())
    fit_seconds = sum(r.get("seconds", 0.0) for r in records)
    warned = sum(1 for r in records if r.get("warnings"))
    data = result.params.get("data", {})
    cond = protocol.condition
    title = title or (spec.title if spec else f"Clustering evaluation of {cond.name}")
    out = [f"# {title}", ""]
    if spec is not None:
        tables = ", ".join(sorted(set(label for _, label in spec.paper_tables)))
        out += [f"Paper: {spec.paper} ({tables}).", ""]
    out += [
        f"- Data: {cond.description or cond.source} — loaded: {data.get('n_docs')} documents, "
        f"{data.get('n_classes')} classes, {data.get('n_terms')} terms (before a weighting "
        "prunes them).",
    ]
    if spec is not None:
        out.append(f"- Class filter: {spec.class_filter}.")
    skipped = [m for m in (spec.methods if spec else ()) if m not in protocol.methods]
    out += [
        f"- Protocol: k = {_k_label(protocol.k_values)}; {protocol.runs} "
        f"run{'s' if protocol.runs != 1 else ''} per k, each on "
        f"k classes chosen at random (seed {protocol.seed}); {protocol.restarts} "
        f"restart{'s' if protocol.restarts != 1 else ''} per method (a method that starts from "
        "a deterministic point runs once); accuracy by Kuhn-Munkres matching, NMI normalized by "
        "max(H(C), H(C')).",
        f"- Methods: {', '.join(display_name(m) for m in protocol.methods)}"
        + (f" (also in the paper, not run: {', '.join(display_name(m) for m in skipped)})"
           if skipped else "") + ".",
        "- Method settings: " + ("as published (the papers' multiplicative updates from "
                                 "random starts)" if protocol.as_published else
                                 "each method's own defaults, as `docnmf cluster` fits it")
        + ".",
        "- Weightings: " + "; ".join(f"`{w}` = {WEIGHTINGS[w]}" + (
            f" ({_options(cond.cluster_options())})" if w == "cluster" else "")
            for w in protocol.weightings) + ".",
        f"- Runs: {len(records)} of {planned} planned; {len(result.computed)} computed by the "
        f"last invocation, {result.n_reused} reused from `{result.path.name}`.",
        f"- Wall time of the last invocation: {_duration(result.elapsed)}; fit time summed over "
        f"all runs: {_duration(fit_seconds)}.",
    ]
    if warned:
        example = next(r["warnings"][0] for r in records if r.get("warnings"))
        out.append(f"- {warned} run{'s' if warned != 1 else ''} raised warnings (e.g. "
                   f"{textwrap.shorten(str(example), 160, placeholder=' …')}); see the "
                   "`warnings` field in the results file.")
    versions = software_versions()
    out.append(f"- Software: docnmf {versions['docnmf_version']}, Python {versions['python']}, "
               + ", ".join(f"{name} {v}" for name, v in versions["packages"].items()) + ".")
    notes = spec.notes_for(protocol.weightings) if spec is not None else ""
    if notes:
        out += ["", f"Notes: {notes}"]
    out += ["", "## Average over k" + (" (ours vs paper)" if spec else ""), ""]
    extra = [k for k in cmp.k_values if k not in cmp.compared_k_values]
    if spec is not None and extra:
        out += [f"The paper has no numbers for k = {_k_label(extra)}: "
                + (f"both sides here average over k = {_k_label(cmp.compared_k_values)} only"
                   if cmp.compared_k_values else "ours here average over them, beside no "
                   "number of the paper's") + ".", ""]
    out += _summary_table(cmp)
    for w in protocol.weightings:
        out += ["", f"## Weighting `{w}`", ""]
        if plots and w in plots:
            out += [f"![{w}]({plots[w]})", ""]
        for metric in cmp.metrics:
            label = spec.table_label(metric) if spec else ""
            out += [f"### {METRIC_NAMES.get(metric, metric)}" + (f" ({label})" if label else ""),
                    ""]
            out += _metric_table(cmp, w, metric) + [""]
    if spec is not None:
        out += ["Cells show our mean ± sample standard deviation over the runs of each k; the "
                "average column is the mean of the per-k means, as in the papers.", ""]
    return "\n".join(out).rstrip() + "\n"


def format_compact(result: ProtocolResult, protocol: Protocol,
                   spec: TableSpec | None = None) -> str:
    """A short plain-text table of the averages over k, for the terminal."""
    cmp = _Comparison(result.records, protocol, spec)
    metrics = [m for m in cmp.metrics if m in PLOT_METRICS]
    width = max(len(display_name(m)) for m in protocol.methods)
    head = f"{'weighting':<11} {'method':<{width}}"
    for m in metrics:
        short = "AC" if m == "accuracy" else m.upper()
        head += f"  {short + cmp.ours_label:>8}"
        if spec:
            head += f"  {short + ' paper':>9}  {'diff':>6}"
    lines = [head]
    for w in protocol.weightings:
        for method in protocol.methods:
            line = f"{w:<11} {display_name(method):<{width}}"
            for m in metrics:
                ours = cmp.shown_average(w, method, m)
                line += f"  {_fmt(ours):>8}"
                if spec:
                    paper = cmp.paper_average(m, method)
                    line += f"  {_fmt(paper):>9}  {_fmt(_diff(ours, paper), sign=True):>6}"
            lines.append(line)
    extra = [k for k in cmp.k_values if k not in cmp.compared_k_values]
    if spec and extra and cmp.compared_k_values:
        lines.append(f"(the paper has no numbers for k = {_k_label(extra)}: averages over "
                     f"k = {_k_label(cmp.compared_k_values)})")
    return "\n".join(lines)


def _method_groups(methods: Sequence[str]) -> list[list[str]]:
    """Methods in plotting groups: the kernelised ('-poly2') rows apart from the others.

    Examples
    --------
    >>> _method_groups(["km", "km-poly2", "nmf"])
    [['km', 'nmf'], ['km-poly2']]
    >>> _method_groups(["nmf", "nmf-ncw"])
    [['nmf', 'nmf-ncw']]
    """
    plain = [m for m in methods if not m.endswith("-poly2")]
    kernel = [m for m in methods if m.endswith("-poly2")]
    return [g for g in (plain, kernel) if g]


def _plot(cmp: _Comparison, weighting: str) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    metrics = [m for m in cmp.metrics if m in PLOT_METRICS]
    groups = _method_groups(cmp.protocol.methods)
    fig = Figure(figsize=(5.2 * len(metrics), 4.8 * len(groups)), layout="constrained")
    FigureCanvasAgg(fig)
    for subfig, methods in zip(np.atleast_1d(fig.subfigures(len(groups), 1)), groups):
        colours = [f"C{i % 10}" for i in range(len(methods))]
        axes = subfig.subplots(1, len(metrics), squeeze=False)[0]
        for ax, metric in zip(axes, metrics):
            for colour, method in zip(colours, methods):
                row = cmp.ours(weighting, method, metric)
                if row and row.per_k:
                    ks = list(row.per_k)
                    ax.plot(ks, [row.per_k[k].mean for k in ks], "-o", color=colour, ms=4,
                            label=display_name(method) + (" (ours)" if cmp.spec else ""))
                if cmp.spec is not None and cmp.spec.row(metric, method) is not None:
                    ks = list(cmp.spec.k_values)
                    ax.plot(ks, [cmp.paper(metric, method, k) for k in ks], "--",
                            color=colour, alpha=0.8, label=f"{display_name(method)} (paper)")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))   # k is a whole number
            ax.set_xlabel("number of clusters k")
            ax.set_ylabel(METRIC_NAMES.get(metric, metric))
            ax.set_title(f"{METRIC_NAMES.get(metric, metric)}, weighting {weighting}")
            ax.grid(alpha=0.3)
        handles, labels = axes[0].get_legend_handles_labels()
        if handles:  # one legend per row, below it, so it never hides a curve
            subfig.legend(handles, labels, loc="outside lower center", fontsize=7,
                          ncol=min(len(handles), 6))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


def _options(options: dict[str, Any]) -> str:
    """Text options as ``name=value``, in a fixed order."""
    return ", ".join(f"{name}={value}" for name, value in sorted(options.items()))


def _summary_json(cmp: _Comparison) -> dict[str, Any]:
    out = []
    for (w, method, metric), row in cmp.rows.items():
        entry = {"weighting": w, "method": method, "metric": metric, "average": row.average,
                 "per_k": {str(k): {"n": c.n, "mean": c.mean, "std": c.std}
                           for k, c in row.per_k.items()}}
        if cmp.spec is not None and cmp.spec.row(metric, method) is not None:
            entry["paper_average"] = cmp.paper_average(metric, method)
            # ours over the k the paper's average covers: the number to set beside it
            entry["average_compared"] = cmp.compared_average(w, method, metric)
            entry["paper_per_k"] = {str(k): cmp.paper(metric, method, k) for k in row.per_k}
        out.append(entry)
    return {"rows": out, "as_published": cmp.protocol.as_published,
            "software": software_versions()}


def write_report(outdir: str | os.PathLike, result: ProtocolResult, protocol: Protocol, *,
                 spec: TableSpec | None = None, title: str | None = None) -> list[Path]:
    """Write ``report.md``, ``summary.json`` and one ``<weighting>.png`` per weighting.

    Plots need matplotlib (the ``plot`` extra); without it they are skipped
    with a warning and the report has no images.

    Returns
    -------
    list of Path
        The files written, the report first.
    """
    outdir = Path(outdir)
    cmp = _Comparison(result.records, protocol, spec)
    plots: dict[str, str] = {}
    written: list[Path] = []
    if plots_available():
        for w in protocol.weightings:
            name = f"{w}.png"
            written.append(atomic_write_bytes(outdir / name, _plot(cmp, w)))
            plots[w] = name
    report = atomic_write_text(outdir / "report.md",
                               format_report(result, protocol, spec=spec, title=title, plots=plots))
    summary = write_json(outdir / "summary.json", _summary_json(cmp))
    return [report, summary, *written]
