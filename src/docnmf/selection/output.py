"""Write a k selection: ``choose_k.csv`` (criteria per k), ``choose_k.json`` (the choice and
its reason) and ``choose_k.png`` (the criteria against k, with the matplotlib extra)."""

from __future__ import annotations

import logging
from pathlib import Path

from ..io import atomic_write_bytes, atomic_write_text, json_text, write_csv
from .choose import CRITERIA, KSelection

__all__ = ["write_selection", "format_selection", "selection_record", "plot_selection"]

logger = logging.getLogger(__name__)

_COLUMNS = ["k", "cophenetic", "stability", "stability_mean", "silhouette", "relative_error",
            "seconds"]


def selection_record(sel: KSelection, context: dict | None = None) -> dict:
    """The choice as JSON: the chosen k, the reason, each criterion's pick, the settings, and
    ``context`` (what was read and how: ``docnmf choose-k`` gives the corpus, the text
    options, the range asked for, the versions and the command)."""
    return {"k": sel.k, "reason": sel.reason, "chosen_by_criterion": sel.chosen,
            "criteria": CRITERIA, "parameters": sel.params, "table": sel.table,
            **(context or {})}


def format_selection(sel: KSelection) -> str:
    """The table per k and the choice, as plain text."""
    # the columns and their names as in choose_k.csv ("stability" is the lowest group's)
    lines = [f"{'k':>4}  {'cophenetic':>10}  {'stability':>9}  {'stability_mean':>14}  "
             f"{'silhouette':>10}  {'relative_error':>14}  {'seconds':>7}"]
    for row in sel.table:
        # the stability rule reads the mean column, not the lowest group's beside it
        marks = "".join(f" <- {'stability (mean)' if name == 'stability' else name}"
                        for name, k in sel.chosen.items() if k == row["k"])
        lines.append(f"{row['k']:>4}  {row['cophenetic']:>10.4f}  {row['stability']:>9.4f}  "
                     f"{row['stability_mean']:>14.4f}  {row['silhouette']:>10.4f}  "
                     f"{row['relative_error']:>14.4f}  {row['seconds']:>7.1f}{marks}")
    lines += ["", f"chosen k = {sel.k}: {sel.reason}"]
    return "\n".join(lines)


def plot_selection(sel: KSelection) -> bytes | None:
    """The criteria against k as PNG bytes; None without matplotlib."""
    try:
        fig = selection_figure(sel)
    except ImportError:
        logger.warning("matplotlib is not installed: no choose_k.png (pip install 'docnmf[plot]')")
        return None
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def selection_figure(sel: KSelection):
    """The criteria against k, a matplotlib Figure (an ImportError without matplotlib)."""
    import math

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    ks = sel.k_values
    fig = Figure(figsize=(7.5, 4.2), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    styles = {"cophenetic": ("o-", "cophenetic"), "stability_mean": ("s-", "stability (mean)"),
              "stability": ("s:", "stability (lowest group)"), "silhouette": ("^-", "silhouette")}
    for name, (style, label) in styles.items():
        values = [row[name] for row in sel.table]
        # a criterion undefined at every k (no silhouette for documents all alike) was in the
        # legend with no line
        if all(isinstance(v, float) and math.isnan(v) for v in values):
            label += " (undefined at every k)"
        ax.plot(ks, values, style, ms=4, label=label)
    # k is a whole number: each k tried when there are few (one k was ticked 4.8 to 5.2)
    if len(ks) <= 12:
        ax.set_xticks(ks)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.axvline(sel.k, color="0.4", ls="--", lw=1)
    threshold = sel.params.get("stability_threshold")
    if threshold is not None:
        ax.axhline(threshold, color="C1", ls=":", lw=1)
    ax.set_xlabel("k (number of clusters)")
    ax.set_ylabel("criterion")
    ax.set_title(f"chosen k = {sel.k} ({sel.reason.split(':')[0]})", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    return fig


def write_selection(sel: KSelection, outdir: str | Path, context: dict | None = None
                    ) -> list[Path]:
    """Write choose_k.csv, choose_k.json (with ``context``, see :func:`selection_record`) and
    (with matplotlib) choose_k.png into ``outdir``.

    All three are made before any is written: a record JSON cannot hold is refused with
    ``outdir`` as it was (it was left holding the CSV alone)."""
    outdir = Path(outdir)
    rows = [[row[c] if c == "k" else f"{row[c]:.6g}" for c in _COLUMNS] for row in sel.table]
    record = json_text(selection_record(sel, context))
    png = plot_selection(sel)
    paths = [write_csv(outdir / "choose_k.csv", _COLUMNS, rows),
             atomic_write_text(outdir / "choose_k.json", record)]
    if png is not None:
        paths.append(atomic_write_bytes(outdir / "choose_k.png", png))
    return paths
