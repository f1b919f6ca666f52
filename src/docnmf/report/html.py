"""``report.html``: one self-contained page (inline CSS and script, no network) from a result folder.

What does not need a script (facts, tables, keyword bars, documents, the
objective curves) is plain HTML and SVG, so it prints and reads without
JavaScript; the map and the two matrices are canvases drawn by a small
inline script from compact data embedded in the page.
"""

from __future__ import annotations

import colorsys
import functools
import html
import itertools
import json
import logging
import os
import re
import shlex
from importlib import resources
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..diagnostics import documents_phrase, warning_lines
from ..io import atomic_write_text, note_written, published_path, to_jsonable
from .data import membership_bands
from .folder import RunFolder, read_run_folder

logger = logging.getLogger(__name__)

__all__ = ["render_report", "write_report", "cluster_colours"]

#: Distinct colours for the first clusters (Tableau 10 and its light companions, reordered).
_PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#59a14f", "#b07aa1", "#76b7b2", "#edc948",
            "#ff9da7", "#9c755f", "#7f7f7f", "#1f77b4", "#bcbd22", "#17becf", "#8c564b",
            "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#aec7e8", "#98df8a")


def _rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def _redmean(rgb: Sequence[float], others: np.ndarray) -> np.ndarray:
    """How far apart a colour and each of ``others`` (rows of RGB) look, roughly ("redmean":
    RGB weighted by the mean red)."""
    d = others - np.asarray(rgb, dtype=float)
    red = (others[:, 0] + rgb[0]) / 2
    return np.sqrt((2 + red / 256) * d[:, 0] ** 2 + 4 * d[:, 1] ** 2
                   + (2 + (255 - red) / 256) * d[:, 2] ** 2)


def cluster_colours(k: int) -> list[str]:
    """``k`` colours: a fixed palette of 20, then hues spaced by the golden angle, each kept
    only when it is not too near one taken already (the 24th was the 12th's olive again).

    Examples
    --------
    >>> cluster_colours(2)
    ['#4e79a7', '#f28e2b']
    >>> len(set(cluster_colours(60)))
    60
    """
    return list(_colours(k))


@functools.lru_cache(maxsize=8)
def _colours(k: int) -> tuple[str, ...]:
    """:func:`cluster_colours`, computed once per ``k`` (a report asks three times; 400
    clusters took 3 s each with a loop over the colours taken)."""
    out = list(_PALETTE[:k])
    taken = np.array([_rgb(c) for c in out] + [(0, 0, 0)] * (k - len(out)), dtype=float)
    i, apart, tries = len(out), 60.0, 0
    while len(out) < k:
        r, g, b = colorsys.hls_to_rgb((i * 0.381966) % 1.0, 0.45 + 0.15 * (i % 3) / 2, 0.6)
        colour = f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
        i, tries = i + 1, tries + 1
        if colour not in out and _redmean(_rgb(colour), taken[:len(out)]).min() >= apart:
            taken[len(out)] = _rgb(colour)
            out.append(colour)
            tries = 0
        elif tries > 200:           # none far enough left: settle for less
            apart, tries = apart * 0.8, 0
    return tuple(out)


def _luminance(rgb: Sequence[float]) -> float:
    """Relative luminance of an sRGB colour (0-255 channels), as WCAG defines it."""
    lin = [c / 255 / 12.92 if c <= 10.31 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _shade(t: float) -> tuple[str, bool]:
    """A count's cell: a darker accent blended from white (``t = 0``) to full (``t = 1``), and
    whether white text reads better on it than black. White on light shades read at 2.2:1;
    the better of the two is always above WCAG's 4.5:1."""
    rgb = [round(255 - (255 - c) * t) for c in (44, 90, 140)]
    lum = _luminance(rgb)
    return f"#{rgb[0]:02x}{rgb[1]:02x}{rgb[2]:02x}", 1.05 / (lum + 0.05) > (lum + 0.05) / 0.05


def _asset(name: str) -> str:
    return resources.files("docnmf.report").joinpath(name).read_text(encoding="utf-8")


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _num(value: Any, digits: int = 4) -> str:
    """A number for reading (not yet escaped): thousands separated, floats to ``digits``
    significant digits."""
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.{digits}g}" if abs(value) < 1e15 else f"{value:.{digits}g}"



def _seconds(value: Any) -> str:
    return "–" if value is None else f"{float(value):.2f} s"


# ---------------------------------------------------------------- sections


def _method_fact(method: str, diagnostics: Any) -> str:
    """The method, and the one it replaced when the default's result was degenerate."""
    replaced = diagnostics.get("replaced") if isinstance(diagnostics, dict) else None
    if isinstance(replaced, dict) and replaced.get("method"):
        return f"{method}, in place of {replaced['method']} (degenerate: see the findings)"
    return method


def _start_restarts(objectives: Sequence[float]) -> str:
    """The restarts of a fit that started from NMF's solution, in words."""
    if len(objectives) == 1:
        return "1, from NMF's solution (a single start)"
    return f"{len(objectives)} of NMF for the start, then one run from the best"


def _overview(f: RunFolder) -> str:
    run, params = f.run, f.run.get("parameters", {})
    corpus = run.get("corpus", {})
    timings = run.get("timings", {}) or {}
    restarts = run.get("restart_objectives") or []
    start_restarts = run.get("start_restart_objectives") or []
    facts = [
        ("corpus", f"{corpus.get('name') or '–'}"),
        ("source", corpus.get("source") or "–"),
        ("documents", _num(params.get("n_docs", len(f.ids)))),
        ("terms", _num(params.get("n_terms", "–"))),
        ("non-zeros", _num(params.get("nnz", "–"))),
        ("documents without index terms", params.get("empty_documents", "–")),
        ("method", _method_fact(params.get("method", "–"), run.get("diagnostics"))),
        ("clusters (k)", f.n_clusters),
        ("seed", run.get("seed")),
        ("time to vectorize", _seconds(timings.get("vectorize_s"))),
        ("time to fit", _seconds(timings.get("fit_s"))),
        ("iterations (kept restart)", run.get("n_iter", "–")),
        ("final objective", _num(run.get("objective"), 6)),
        ("restarts", _start_restarts(start_restarts) if start_restarts
         else len(restarts) if restarts else "–"),
        ("docnmf", run.get("docnmf_version", "–")),
    ]
    selection = params.get("k_selection")
    if selection:
        facts.insert(8, ("k chosen by", selection.get("reason", "choose-k")))
    diagnostics = run.get("diagnostics")
    findings = None
    if isinstance(diagnostics, dict):     # the run's findings about itself, as sentences
        try:
            findings = warning_lines(diagnostics, params.get("method"))
        except (KeyError, TypeError, ValueError):   # a record of another shape: shown as is
            findings = [f"{key.replace('_', ' ')}: {json.dumps(to_jsonable(value))}"
                        for key, value in diagnostics.items()]
        facts.append(("diagnostics", f"{len(findings)} finding{'s' * (len(findings) != 1)}"
                      if findings else "nothing to report"))
    # a fact the run does not record (an assign run's seed and iterations): "–", not "None"
    rows = "".join(f"<tr><th>{_e(a)}</th><td>{_e('–' if b is None else b)}</td></tr>"
                   for a, b in facts)
    estimator = params.get("estimator") or {}
    est = ", ".join(f"{_e(k)}={_e(v)}" for k, v in estimator.items())
    vec = ", ".join(f"{_e(k)}={_e(v)}" for k, v in (params.get("vectorizer") or {}).items())
    out = [f'<section id="overview"><h2>Overview</h2><div class="cols">'
           f'<table class="facts">{rows}</table><div>'
           f'<p class="params"><b>estimator</b> {est or "–"}</p>'
           f'<p class="params"><b>text pipeline</b> {vec or "defaults"}</p>']
    out.append(_metrics(f.metrics, confusion=False))
    if findings:                          # sentences: beside the facts, where they have room
        out.append('<p class="params"><b>diagnostics</b></p><ul class="findings">'
                   + "".join(f"<li>{_e(x)}</li>" for x in findings) + "</ul>")
    out.append("</div></div>")
    out.append(_confusion(f.metrics))
    out.append(_cluster_index(f))
    out.append("</section>")
    return "".join(out)


def _metrics(metrics: dict | None, confusion: bool = True) -> str:
    if not metrics:
        return '<p class="note">No labels: no accuracy or confusion matrix.</p>'
    n_classes, n_scored = metrics.get("n_classes"), metrics.get("n_scored")
    # escaped: metrics.json is read back from the folder, where an edit can put markup
    return (f'<p class="metrics">Against {_e(n_classes)} labelled class'
            f'{"es" * (n_classes != 1)} ({_e(_num(n_scored))} document{"s" * (n_scored != 1)}): '
            f'<b>accuracy {_e(_score(metrics.get("accuracy")))}</b> · NMI '
            f'{_e(_score(metrics.get("nmi")))} · purity {_e(_score(metrics.get("purity")))}</p>')


def _search_hint(m: dict, n_docs: int) -> str:
    """The search box's hint: it finds the documents on the map, a sample of a large corpus."""
    on_map = len(m.get("id") or [])
    # the page holds the start of each document only (the map's hover text)
    if 0 < on_map < n_docs:
        return (f"Find documents by id or by a word of their start (the {on_map:,} of "
                f"{n_docs:,} on the map), clusters by keyword")
    return "Find documents by id or by a word of their start, clusters by keyword"


def _score(value: Any) -> str:
    """A score in [0, 1] to three decimals, as the command prints it (0.99989 is "1.000", not
    the "1" of three significant digits, which reads as exact)."""
    return f"{value:.3f}" if isinstance(value, float) else _num(value)


def _natural(text: str) -> list:
    """A sort key that puts numbers in order within names: t2 before t10.

    Examples
    --------
    >>> sorted(["t10", "t2", "t1"], key=_natural)
    ['t1', 't2', 't10']
    """
    return [(0, int(part), "") if part.isdigit() else (1, 0, part)
            for part in re.split(r"(\d+)", str(text))]


def _scrolled(name: str, table: str, extra: str = "") -> str:
    """A table in a box that scrolls sideways when the window is narrow: focusable, so that a
    keyboard can scroll it too, and named for a screen reader (``extra``: more classes of the
    box, each after a space)."""
    return (f'<div class="scroll{extra}" tabindex="0" role="region" aria-label="{_e(name)}">'
            f'{table}</div>')


#: Most cluster columns a table of counts or similarities holds: a printed page takes about this
#: many (at 100 clusters the confusion matrix ran off the page at the 50th, and a print lost
#: the rest); a wider matrix is cut into tables of its columns, one under the other.
TABLE_COLUMNS = 20


def _column_blocks(n: int) -> list[range]:
    """The columns ``0 .. n-1`` in blocks of about equal width, none wider than
    :data:`TABLE_COLUMNS`.

    Examples
    --------
    >>> _column_blocks(12)
    [range(0, 12)]
    >>> [len(b) for b in _column_blocks(45)]
    [15, 15, 15]
    """
    parts = max(-(-n // TABLE_COLUMNS), 1)
    edges = [round(i * n / parts) for i in range(parts + 1)]
    return [range(a, b) for a, b in itertools.pairwise(edges)]


def _blocked_table(corner: str, columns: list[str], rows: list[tuple[str, list[str]]],
                   name: str) -> str:
    """A table of ``rows`` (a header cell's text and the row's cells, as HTML) under the
    ``columns``' headers, cut into tables of at most :data:`TABLE_COLUMNS` columns, each with
    the row headers, in one box that scrolls sideways when the window is narrow."""
    blocks = _column_blocks(len(columns))
    tables = []
    for block in blocks:
        # named by the clusters the block's headers show, not its columns' positions: a
        # confusion matrix has no column for an empty cluster, and "columns 12-24" stood over
        # clusters 13 to 25
        caption = (f"<caption>clusters {columns[block.start]}&ndash;{columns[block.stop - 1]}"
                   "</caption>" if len(blocks) > 1 else "")
        head = (f"<thead><tr><th>{corner}</th>"
                + "".join(f"<th>{columns[j]}</th>" for j in block) + "</tr></thead>")
        body = "".join(f"<tr><th>{header}</th>{''.join(cells[j] for j in block)}</tr>"
                       for header, cells in rows)
        tables.append(f'<table class="confusion">{caption}{head}<tbody>{body}</tbody></table>')
    # on a screen the parts stand side by side, a row read along one line; printed, one under
    # the other, as a page's width holds them
    return _scrolled(name, "".join(tables), " blocks" if len(blocks) > 1 else "")


def _confusion(metrics: dict | None) -> str:
    conf = (metrics or {}).get("confusion") or {}
    counts = np.asarray(conf.get("counts") or [], dtype=float)
    if counts.size == 0:
        return ""
    classes, clusters = conf.get("classes", []), conf.get("clusters", [])
    top = counts.max() or 1.0
    rows = [(_e(name), [f'<td style="background:{bg}"{" class=hi" if white else ""}>{int(v)}</td>'
                        for v in row for bg, white in [_shade(v / top)]])
            for name, row in sorted(zip(classes, counts), key=lambda pair: _natural(pair[0]))]
    return ('<details open><summary>Confusion matrix (rows: classes, columns: clusters)'
            "</summary>" + _blocked_table("class \\ cluster", [_e(c) for c in clusters], rows,
                                          "confusion matrix") + "</details>")


def _cluster_index(f: RunFolder) -> str:
    colours = cluster_colours(f.n_clusters)
    n = max(len(f.ids), 1)
    largest = max([int(row.get("size") or 0) for row in f.clusters] + [1])
    rows = []
    for c, row in enumerate(f.clusters):
        size = int(row.get("size") or 0)
        coh = row.get("coherence") or ""
        rows.append(f'<tr data-cluster="{c}"><td><a href="#cluster-{c}"><span class="sw" '
                    f'style="background:{colours[c]}"></span><span class="vh">cluster </span>{c}'
                    f'</a></td>'
                    f'<td class="r">{size}</td>'
                    f'<td class="r">{100 * size / n:.1f}%</td><td class="bar"><span style='
                    f'"width:{100 * size / largest:.1f}%;background:{colours[c]}"></span></td>'
                    f'<td class="r coh">{_e(coh) if coh else "–"}</td>'
                    f'<td>{_e(" ".join((row.get("top_keywords") or "").split()[:8]))}</td></tr>')
    unassigned = int(np.count_nonzero(f.labels == -1))
    if unassigned:      # the shares above fell short of 100% with no word of the rest
        said = ((f.run or {}).get("diagnostics") or {}).get("unassigned") or {}
        reason = said.get("reason") if isinstance(said, dict) else None
        rows.append(f'<tr><td>none</td><td class="r">{unassigned}</td>'
                    f'<td class="r">{100 * unassigned / n:.1f}%</td><td class="bar"></td>'
                    '<td class="r coh">–</td><td>in no cluster'
                    f'{": " + _e(reason) if isinstance(reason, str) and reason else ""}</td></tr>')
    return ('<h3>Clusters at a glance</h3>' + _scrolled(
        "clusters at a glance", '<table class="index"><thead><tr><th>cluster</th><th>size</th>'
        '<th>share</th><th class="bar"><span class="vh">size as a bar</span></th>'
        '<th class="coh" title="NPMI of the top keywords, -1 to 1">coherence</th>'
        '<th>keywords</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>"))


def _bars(items: Sequence[tuple[str, float]], colour: str, cls: str = "kw",
          fmt: str = ".3g", top: float | None = None) -> str:
    """Bars as long as each weight against ``top`` (the largest weight when not given)."""
    top = top or max((w for _, w in items), default=0.0) or 1.0
    return "".join(f'<li class="{cls}"><span class="t">{_e(t)}</span><span class="b">'
                   f'<span style="width:{100 * w / top:.1f}%;background:{colour}"></span></span>'
                   f'<span class="w">{w:{fmt}}</span></li>' for t, w in items)


def _cluster_sections(f: RunFolder) -> str:
    colours = cluster_colours(f.n_clusters)
    data = (f.data or {}).get("clusters") or []
    n = max(len(f.ids), 1)
    out = ['<section id="clusters"><h2>Clusters</h2>']
    # placed by docnmf assign: the model's clusters, which no k of these documents changes
    placed_note = ("of the model that none of the documents placed follows most." if
                   (f.run or {}).get("objectives_of") else
                   "of the fit that no document follows most; a smaller k may suit these "
                   "documents better.")
    for c, row in enumerate(f.clusters):
        size = int(row.get("size") or 0)
        info = data[c] if c < len(data) else {}
        coh = info.get("coherence")
        coh_text = row.get("coherence") or ("–" if coh is None else f"{coh:.3f}")
        keywords = [(k["term"], k["weight"]) for k in info.get("keywords", [])]
        listed = (row.get("top_keywords") or "").split()
        # clusters.csv's keywords edited after the run: the overview shows them, so the card
        # does too (report_data.json's weights are of the run's list)
        edited = bool(keywords) and "top_keywords" in row and \
            " ".join(t for t, _ in keywords).split() != listed
        weighed = bool(keywords) and not edited   # an older folder: clusters.csv's, no weights
        if not weighed:
            keywords = [(t, 0.0) for t in listed]
        words = " ".join(t for t, _ in keywords)
        out.append(f'<article class="cluster" id="cluster-{c}" data-cluster="{c}" '
                   f'data-words="{_e(words.lower())}" style="border-color:{colours[c]}">'
                   f'<h3><span class="sw" style="background:{colours[c]}"></span>Cluster {c},'
                   f'<small> {documents_phrase(size)} ({100 * size / n:.1f}%)'
                   + (f" · {documents_phrase(int(f.overlapping[c]))} with segments in it "
                      "(overlapping)" if f.overlapping is not None else "")
                   + f' · keyword coherence {_e(coh_text)}</small></h3>'
                   + (f'<p class="note">Empty: no document belongs most to this cluster. Its '
                      f'keywords are a topic {placed_note}</p>'
                      if size == 0 and (f.overlapping is None or not f.overlapping[c]) else "")
                   + '<div class="cols3">')
        if weighed:
            out.append(f'<div><h4>Keywords <small>weight</small></h4><ol class="bars">'
                       f'{_bars(keywords, colours[c])}</ol></div>')
        else:
            caption = "as clusters.csv lists them" if edited else "heaviest first"
            out.append(f'<div><h4>Keywords <small>{caption}</small></h4><ol class="bars">'
                       + "".join(f'<li class="kw"><span class="t">{_e(t)}</span></li>'
                                 for t, _ in keywords) + "</ol></div>")
        dist = info.get("distinguishing") or []
        out.append('<div><h4>Sets it apart <small>mean weight here vs. elsewhere</small></h4>'
                   '<ol class="bars">' + "".join(
                       f'<li class="kw dist"><span class="t">{_e(d["term"])}</span><span class="w">'
                       f'{d["inside"]:.3g} vs {d["outside"]:.3g}</span></li>' for d in dist)
                   + ("" if dist else "<li>–</li>") + "</ol></div>")
        reps = info.get("representatives")
        listed_reps = _representative_ids(row.get("representative_documents") or "")
        if reps is None or ("representative_documents" in row and " ".join(
                str(r["id"]) for r in reps).split() != " ".join(listed_reps).split()):
            # an older folder, or clusters.csv edited after the run: its list, with what
            # report_data.json knows of each document
            known = {str(r["id"]): r for r in reps or []}
            reps = [known.get(i, {"id": i, "membership": None, "snippet": ""})
                    for i in listed_reps]
        docs = "".join(f'<li><span class="id">{_e(r["id"])}</span>'
                       + (f' <span class="m">{r["membership"]:.2f}</span>'
                          if r.get("membership") is not None else "")
                       # a snippet's own direction: Arabic or Hebrew text right to left
                       + f'<div class="snip" dir="auto">{_e(r.get("snippet", ""))}</div></li>'
                       for r in reps)
        out.append(f'<div><h4>Representative documents <small>membership</small></h4>'
                   f'<ul class="docs">{docs or "<li>–</li>"}</ul></div></div>')
        if f.summaries is not None:      # docnmf cluster --summaries: its summaries.csv
            lines = (f.summaries.get(c) or "").splitlines()
            out.append('<div class="summary"><h4>Summary <small>extractive, from '
                       'summaries.csv</small></h4>'
                       + ("".join(f'<p dir="auto">{_e(line)}</p>' for line in lines)
                          or '<p class="note">No sentence of this cluster fits the summary\'s '
                             'length.</p>') + "</div>")
        out.append("</article>")
    out.append("</section>")
    return "".join(out)


def _tick(value: float) -> str:
    """An axis label short enough for the chart's margin: thousands separated, not in
    exponent form, from 1,000 up to ten million.

    >>> [_tick(v) for v in (0.912345, 31071.26, 2.5e9)]
    ['0.9123', '31,071', '2.5e+09']
    """
    return f"{value:,.0f}" if 1e3 <= abs(value) < 1e7 else f"{value:.4g}"


def _svg_line(values: Sequence[float], title: str, xlabel: str, points: bool = False,
              first: int = 1) -> str:
    """A small SVG chart of ``values`` (a line, or dots with ``points``), the x axis numbered
    from ``first``."""
    v = np.asarray([x for x in values if x is not None], dtype=float)
    if v.size == 0:
        return f'<p class="note">{_e(title)}: not recorded.</p>'
    w, h, pad = 460, 180, 60
    lo, hi = float(v.min()), float(v.max())
    span = hi - lo or abs(hi) or 1.0
    xs = pad + (w - pad - 10) * (np.arange(v.size) / max(v.size - 1, 1))
    ys = 10 + (h - 40) * (1 - (v - lo) / span)
    if points:
        marks = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4"><title>restart {i + 1}: '
                        f'{val:.6g}</title></circle>' for i, (x, y, val) in enumerate(zip(xs, ys, v)))
    else:
        marks = '<polyline fill="none" points="' + " ".join(
            f"{x:.1f},{y:.1f}" for x, y in zip(xs, ys)) + '"/>'
    return (f'<figure class="chart"><svg viewBox="0 0 {w} {h}" role="img" aria-label="{_e(title)}">'
            f'<line x1="{pad}" y1="{h - 30}" x2="{w - 10}" y2="{h - 30}" class="axis"/>'
            f'<line x1="{pad}" y1="10" x2="{pad}" y2="{h - 30}" class="axis"/>'
            f'<text x="{pad - 4}" y="16" text-anchor="end">{_tick(hi)}</text>'
            f'<text x="{pad - 4}" y="{h - 32}" text-anchor="end">{_tick(lo)}</text>'
            f'<text x="{(w + pad) / 2}" y="{h - 8}" text-anchor="middle">{_e(xlabel)} '
            f'({first}–{first + v.size - 1})</text>{marks}</svg>'
            f'<figcaption>{_e(title)}</figcaption></figure>')


def _objective(f: RunFolder) -> str:
    run = f.run
    history = run.get("objective_history") or []
    restarts = run.get("restart_objectives") or []
    members = run.get("consensus_members")
    if isinstance(members, dict) and members:
        # a consensus has no objective per iteration: show what it was made of instead
        items = [(str(name), float(a)) for name, a in members.items()
                 if isinstance(a, (int, float))]
        return ('<section id="objective"><h2>Consensus</h2><div class="pair"><div>'
                '<h3>Agreement of each member with the consensus <small>NMI, 0 to 1</small></h3>'
                f'<ol class="bars">{_bars(items, "var(--accent)", "kw wide", ".3f", top=1.0)}</ol>'
                '<p class="note">The clusters are the consensus (k-means on the members\' '
                "cluster indicators) of these clusterings: NMF, NMF-NCW and LSI k-means, each on "
                "raw and on sublinear tf-idf.</p></div>"
                + _restarts_chart(restarts, "objective of each restart of the consensus "
                                  "k-means (the lowest is kept)") + "</div></section>")
    start_restarts = run.get("start_restart_objectives") or []
    caption = ("objective from NMF's solution on, per iteration" if start_restarts
               else "objective of the kept restart, per iteration")
    values = [float(v) for v in history if isinstance(v, (int, float))]
    n_iter = run.get("n_iter")
    # most solvers record the start's objective, then one per iteration: iterations 0 to n
    first, xlabel = (0, "iteration") if n_iter == len(values) - 1 else (1, "recorded step")
    if str(run.get("parameters", {}).get("method", "")).startswith("nma"):
        caption = ("SRE (eq. 17) of the kept restart after each iteration of its stage 2 and "
                   "joint stage; stage 1 fits L and B to an objective of its own"
                   + (f" ({n_iter} iterations in all)" if isinstance(n_iter, int) else ""))
    elif first == 1 and isinstance(n_iter, int) and values:   # (none: "not recorded")
        caption += f" ({len(values)} values recorded over {n_iter} iterations)"
    rises = sum(b > a for a, b in zip(values, values[1:]))
    if rises:
        # LCCF and CF rescale V to unit columns after each round (Cai et al.'s convention),
        # which their objective is not invariant to; say so rather than let it look like a fault
        caption += (f"; it rose at {rises} of {len(values) - 1} steps"
                    + (", where the factors were rescaled between rounds (the convention of "
                       "Cai et al.'s code)" if str(run.get("parameters", {}).get("method", ""))
                       .startswith(("cf", "lccf")) else ""))
    if run.get("objectives_of"):       # placed by docnmf assign: no fit of these documents
        caption = f"{run['objectives_of']}: {caption}"
    chart = (_restarts_chart(start_restarts, "NMF's objective at the end of each of its restarts "
                             "(the lowest gave the start)",
                             one="One run, from NMF's solution: NMF's start is deterministic "
                                 "and ran once (NMF's own objective, not the one plotted: "
                                 "{:.6g}).")
             if start_restarts else
             _restarts_chart(restarts, "final objective of each restart (the lowest is kept)"))
    return ('<section id="objective"><h2>Objective</h2><div class="pair">'
            + _svg_line(values, caption, xlabel, first=first) + chart + "</div></section>")


def _restarts_chart(restarts: Sequence[float], title: str,
                    one: str = "One start (an SVD start runs once): final objective "
                               "{:.6g}.") -> str:
    """The restarts' final objectives as dots, or in words when a chart would show nothing:
    one start (``one``, formatted with its objective), or every restart ending at the same
    objective."""
    if not restarts:
        return '<p class="note">One start (an SVD start runs once).</p>'
    # a diverged restart's NaN (a model keeps it) or an edited model's: not drawn, said
    finite = [x for x in map(_number, restarts) if x is not None]
    left = len(restarts) - len(finite)
    lost = ("" if not left else " (The run ended without a finite objective.)"
            if len(restarts) == 1 else
            f" ({left} of the {len(restarts)} restarts ended without a finite objective.)")
    if not finite:
        return f'<p class="note">{_e(lost.strip(" ()"))}</p>'
    if len(restarts) == 1:
        return f'<p class="note">{_e(one.format(finite[0]))}</p>'
    v = np.asarray(finite, dtype=float)
    if np.ptp(v) <= 1e-9 * max(abs(float(v.max())), 1.0):
        return (f'<p class="note">All {v.size} restarts ended at the same objective, '
                f"{v[0]:.6g}.{_e(lost)}</p>")
    return _svg_line(v, title, "restart", points=True) + (
        f'<p class="note">{_e(lost.strip(" ()"))}</p>' if lost else "")


#: The choose-k criteria charted, as choose_k.csv names them: label, short label, colour, dashes.
_CRITERIA = {"cophenetic": ("cophenetic correlation", "cophenetic", "#4e79a7", ""),
             "stability_mean": ("stability (mean)", "stability (mean)", "#f28e2b", ""),
             "stability": ("stability (lowest group)", "stability (lowest)", "#f28e2b", "5 3"),
             "silhouette": ("silhouette of the documents", "silhouette", "#59a14f", "")}


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and np.isfinite(value) else None


def _choose_k_chart(ks: list[int], series: dict[str, list], chosen: Any,
                    threshold: float | None) -> str:
    """The criteria against k as lines in one SVG, the chosen k and the threshold marked."""
    values = [v for vs in series.values() for v in vs if v is not None]
    w, h, pad = 460, 200, 56
    lo, hi = min(values + [0.0]), max(values + [1.0])
    k0, k1 = min(ks), max(ks)

    def x(k):
        return pad + (w - pad - 10) * (k - k0) / max(k1 - k0, 1)

    def y(v):
        return 10 + (h - 44) * (hi - v) / (hi - lo)

    marks = []
    step = max(1, -(-len(ks) // 15))        # at most about 15 numbers under the axis
    marks += [f'<text x="{x(k):.1f}" y="{h - 22}" text-anchor="middle">{k}</text>'
              for k in ks[::step]]
    for name, (label, _, colour, dashes) in _CRITERIA.items():
        known = [(k, v) for k, v in zip(ks, series[name]) if v is not None]
        if known:
            marks.append(f'<polyline fill="none" style="stroke:{colour}" stroke-dasharray='
                         f'"{dashes or "none"}" points="'
                         + " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in known)
                         + f'"><title>{_e(label)}</title></polyline>')
            # a dot at each k tried: one k is a point, and a line between k = 4 and 8 is no
            # value at 5 to 7
            marks += [f'<circle cx="{x(k):.1f}" cy="{y(v):.1f}" r="2.5" style="fill:{colour}">'
                      f"<title>{_e(label)} at k = {k}: {v:.3f}</title></circle>"
                      for k, v in known]
    if isinstance(chosen, int) and k0 <= chosen <= k1:
        marks.append(f'<line x1="{x(chosen):.1f}" y1="10" x2="{x(chosen):.1f}" y2="{h - 34}" '
                     'class="axis" stroke-dasharray="3 3"/>')
    if threshold is not None and lo <= threshold <= hi:
        marks.append(f'<line x1="{pad}" y1="{y(threshold):.1f}" x2="{w - 10}" '
                     f'y2="{y(threshold):.1f}" style="stroke:#f28e2b" stroke-dasharray="1 3"/>')
    key = "".join(f'<span><i class="ln" style="border-top:2px {"dashed" if dashes else "solid"} '
                  f'{colour}"></i>{_e(label)}</span>'
                  for label, _, colour, dashes in _CRITERIA.values())
    return (f'<figure class="chart"><svg viewBox="0 0 {w} {h}" role="img" '
            'aria-label="criteria against k">'
            f'<line x1="{pad}" y1="{h - 34}" x2="{w - 10}" y2="{h - 34}" class="axis"/>'
            f'<line x1="{pad}" y1="10" x2="{pad}" y2="{h - 34}" class="axis"/>'
            f'<text x="{pad - 4}" y="16" text-anchor="end">{_tick(hi)}</text>'
            f'<text x="{pad - 4}" y="{h - 36}" text-anchor="end">{_tick(lo)}</text>'
            f'<text x="{(w + pad) / 2}" y="{h - 6}" text-anchor="middle">k (dashed: the chosen '
            f"k)</text>{''.join(marks)}</svg>"
            f'<figcaption><div class="key">{key}</div>Each criterion against the number of '
            "clusters" + (f"; the dotted line is the stability threshold ({threshold:g})"
                          if threshold is not None else "") + ".</figcaption></figure>")


def _choose_k(f: RunFolder) -> str:
    """How k was chosen (``-k auto``): the criteria against k as a chart and a table, the
    chosen k marked, and the rule that chose it; empty without choose_k.json."""
    sel = f.selection or {}
    rows = [r for r in sel.get("table") or [] if isinstance(r, dict)
            and isinstance(r.get("k"), int)]
    if not rows:
        return ""
    # the run's own choice: a choose_k.json copied beside a run of another k showed "Chosen
    # k = 4" above 3 clusters
    own = (f.run.get("parameters") or {}).get("k_selection")
    if not isinstance(own, dict) or own.get("k") != sel.get("k"):
        logger.warning("%s holds a choose_k.json that is not this run's (%s): left out of the "
                       "report", f.path, "it was run with a k given" if not isinstance(own, dict)
                       else f"it chose k = {own.get('k')}, the file k = {sel.get('k')}")
        return ""
    chosen = sel.get("k")
    picks = sel.get("chosen_by_criterion")
    picks = picks if isinstance(picks, dict) else {}
    params = sel.get("parameters") if isinstance(sel.get("parameters"), dict) else {}
    series = {name: [_number(r.get(name)) for r in rows] for name in _CRITERIA}
    chart = _choose_k_chart([r["k"] for r in rows], series, chosen,
                            _number(params.get("stability_threshold")))
    head = ("<thead><tr><th>k</th>" + "".join(f'<th class="r">{_e(short)}</th>'
                                              for _, short, _, _ in _CRITERIA.values())
            + '<th class="r">relative error</th><th class="r">time</th><th>chosen by</th></tr>'
            "</thead><tbody>")
    body = []
    for r in rows:
        by = ", ".join(str(name) for name, k in picks.items() if k == r["k"])
        cells = "".join(f'<td class="r">{_num(_number(r.get(name)), 3)}</td>'
                        for name in (*_CRITERIA, "relative_error"))
        body.append(f'<tr{" class=chosen" if r["k"] == chosen else ""}><td>{r["k"]}</td>{cells}'
                    f'<td class="r">{_seconds(_number(r.get("seconds")))}</td>'
                    f"<td>{_e(by)}</td></tr>")
    return ('<section id="choose-k"><h2>Choosing k</h2>'
            f'<p>Chosen k = {_e(chosen)}: {_e(sel.get("reason", ""))}.</p><div class="choose">'
            + chart + _scrolled("criteria for each k", '<table class="index">' + head
                                + "".join(body) + "</tbody></table>") + "</div></section>")


def _canvas_section(sid: str, title: str, caption: str, width: int, height: int,
                    extra: str = "") -> str:
    """A chart the script draws: named for a screen reader, and said to be missing when
    scripts are off (it was an empty box)."""
    return (f'<section id="{sid}"><h2>{_e(title)}</h2><figure><canvas id="{sid}-canvas" '
            f'width="{width}" height="{height}" role="img" aria-label="{_e(title)}, a chart: '
            f'its caption follows"></canvas><noscript><p class="note">This chart is drawn by '
            "the page's script, which is off in this browser: the cluster sections and tables "
            f"hold the figures.</p></noscript>{extra}<figcaption>{caption}</figcaption>"
            "</figure></section>")


def _page_data(f: RunFolder) -> dict[str, Any]:
    """The compact data the script draws from."""
    k = f.n_clusters
    data = f.data or {}
    assigned = f.labels >= 0
    bands, band_clusters = membership_bands(f.memberships[assigned], f.labels[assigned])
    out: dict[str, Any] = {
        "k": k, "colours": cluster_colours(k),
        "bands": np.round(bands, 3), "bandClusters": band_clusters,
        "nDocs": len(f.ids),
    }
    if "similarity" in data:
        out["similarity"] = data["similarity"]["matrix"]
    if "map" in data:
        m = data["map"]
        out["map"] = {key: m[key] for key in ("x", "y", "cluster", "id", "text")}
    return out


def _similarity_values(matrix: list) -> str:
    """The similarity chart's values as a table, for a screen reader, a keyboard and a print of
    more clusters than the chart writes values for (they were on a hover alone)."""
    k = len(matrix)

    def cell(i: int, j: int, value: Any) -> str:
        return "–" if i == j or _number(value) is None else f"{value:.3f}"

    rows = [(str(i), [f"<td>{cell(i, j, v)}</td>" for j, v in enumerate(row)])
            for i, row in enumerate(matrix)]
    return ('<details class="values"><summary>The values as a table</summary>'
            + _blocked_table("cluster", [str(j) for j in range(k)], rows,
                             "cluster similarity values") + "</details>")


def _largest_between(matrix: list) -> str:
    """The largest entry off the diagonal, as the heatmap's darkest colour stands for it (the
    colours are scaled to it: 0.0011 was drawn as dark as a similarity of 0.9)."""
    off = [v for i, row in enumerate(matrix) for j, v in enumerate(row) if i != j]
    return f"{max(off):.3g}" if off else "–"


def _json_for_script(obj: Any) -> str:
    # inside the script element "</" would end it early and "<!--" open an escaped state; no
    # "<" at all is left ("\u003c" is JSON for it: JSON.parse reads the text back unchanged)
    return (json.dumps(to_jsonable(obj), ensure_ascii=False, separators=(",", ":"))
            .replace("<", "\\u003c"))


def _overlap(m: dict) -> str:
    """A sentence when the map's documents fall on far fewer points than there are of them
    (memberships that take few values, as a consensus's at small k): 1,000 documents on 18
    points looked like 18 documents."""
    try:
        n, distinct = len(m["x"]), len(set(zip(m["x"], m["y"])))
    except (KeyError, TypeError):
        return ""
    if distinct * 2 > n:
        return ""
    return (f" They fall on {distinct} distinct point{'s' * (distinct != 1)}: documents with "
            "the same memberships lie on top of each other.")


def _map_sampling(m: dict) -> str:
    """Which documents the map shows, escaped: those in a cluster (the sample says "all
    documents" of them), and how many in no cluster it leaves out."""
    sampling, unassigned = str(m.get("sampling", "")), m.get("n_unassigned")
    if not isinstance(unassigned, int) or isinstance(unassigned, bool) or unassigned <= 0:
        return f"{_e(sampling)}."
    if sampling == "all documents":
        sampling = "every document in a cluster"
    return (f"{_e(sampling)}. The {documents_phrase(unassigned)} in no cluster "
            f"{'is' if unassigned == 1 else 'are'} not on the map.")


def _folder_name(path: Path) -> str:
    """The name of the result folder at ``path`` (where it is published), also when given as
    "." or "..", whose names are not the folder's."""
    published = published_path(path)
    return Path(os.path.abspath(published)).name or str(published)


def _shell_name(name: str) -> str:
    """A folder's name as a shell and docnmf's options read it: quoted, and "./" before a
    leading "-" ("docnmf report -out" was read as an option)."""
    return shlex.quote(f"./{name}" if name.startswith("-") else name)


def render_report(folder: RunFolder | str | os.PathLike) -> str:
    """The HTML text of the report of a result folder: read by :func:`read_run_folder`, or
    its path."""
    if isinstance(folder, (str, os.PathLike)):
        folder = read_run_folder(folder)
    elif not isinstance(folder, RunFolder):
        raise TypeError(f"render_report takes a result folder (its path, or read_run_folder's "
                        f"result), not {type(folder).__name__}")
    run = folder.run
    corpus = (run.get("corpus") or {}).get("name") or folder.path.name
    method = (run.get("parameters") or {}).get("method", "")
    data = folder.data or {}
    m = data.get("map") or {}
    map_caption = (f'{_e(m.get("method", ""))}; {_map_sampling(m)}{_overlap(m)} '
                   "Colours are clusters, each numbered beside its points; hover a point for its "
                   "document, click a legend entry to show one cluster."
                   if m else _no_data(folder, "Map"))
    sim = data.get("similarity")
    sim_caption = (f"{_e(sim.get('measure', ''))}; darker is more similar: white is 0, the "
                   f"darkest {_largest_between(sim.get('matrix') or [])}, the largest between "
                   "two clusters." if sim
                   else _no_data(folder, "Similarity"))
    if sim and folder.n_clusters > 14:        # the script writes the values in up to 14
        sim_caption += " Hover a cell for its value, or open the table above."
    k = folder.n_clusters
    side = max(360, min(720, 40 + 22 * k))
    choose_k = _choose_k(folder)
    hint = _e(_search_hint(m, len(folder.ids)))
    body = "".join([
        # names in their own direction (bdi): an override they never close turned the page's
        # words after them backwards
        f'<header><h1><bdi>{_e(corpus)}</bdi> <small>{_e(method)}, {k} clusters, '
        f'{len(folder.ids)} documents</small></h1>'
        '<nav><a href="#overview">Overview</a><a href="#map">Map</a><a href="#clusters">Clusters'
        '</a><a href="#similarity">Similarity</a><a href="#memberships">Memberships</a>'
        f'<a href="#objective">{"Consensus" if run.get("consensus_members") else "Objective"}'
        f'</a>{"<a href=#choose-k>Choosing k</a>" if choose_k else ""}'
        f'<input id="search" type="search" placeholder="Find documents and clusters" '
        f'title="{hint}" aria-label="{hint}"></nav>'
        # what the search found is read out from a region always there (one made visible
        # with its container is often not announced); the list of documents is not read out
        '<p id="search-said" class="vh" aria-live="polite"></p>'
        '<div id="search-results" hidden><p id="search-count"></p>'
        '<ul id="search-list"></ul></div></header><main id="main">',
        _overview(folder),
        _canvas_section("map", "Map of the documents", map_caption, 720, 520,
                        '<div id="legend" class="legend" role="group" aria-label="clusters '
                        'shown on the map"></div><div id="map-tip" class="tip" hidden></div>'),
        _cluster_sections(folder),
        _canvas_section("similarity", "Cluster similarity", sim_caption, side, side,
                        '<div id="similarity-tip" class="tip" hidden></div>'
                        + (_similarity_values(sim.get("matrix") or []) if sim else "")),
        _canvas_section("memberships", "Memberships",
                        "Documents (rows, ordered by cluster then by membership strength, averaged "
                        "in bands of neighbouring rows) x clusters (columns); darker is a stronger "
                        "membership. The left strip shows each band's cluster.",
                        max(360, min(720, 60 + 24 * k)), 420),
        _objective(folder),
        choose_k,
        "</main>",
        # the folder's name, quoted for a shell: a path relative to where the run started
        # was wrong elsewhere, and "my results" unquoted two arguments
        f'<footer>docnmf {_e(run.get("docnmf_version", ""))} · rebuild with <code>docnmf report '
        f'<bdi>{_e(_shell_name(_folder_name(folder.path)))}</bdi>'
        '</code> from '
        f'the folder that holds it · coherence: {_e(data.get("coherence_measure", "–"))}'
        '</footer>',
    ])
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            # nothing may be fetched: no script, style, image, font or connection from elsewhere
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
            f"<title>docnmf report: {_e(corpus)}</title><style>{_asset('report.css')}</style>"
            # without scripts nothing draws the charts, filters the map or searches
            "<noscript><style>canvas,#search,.legend{display:none}</style></noscript>"
            f'</head><body><a class="skip" href="#main">Skip to the report</a>{body}'
            f'<script type="application/json" id="report-data">{_json_for_script(_page_data(folder))}'
            f"</script><script>{_asset('report.js')}</script></body></html>\n")


def _on_dask(folder: RunFolder) -> bool:
    """Was the run on a Dask cluster (which writes no report_data.json)?"""
    params = (folder.run or {}).get("parameters")
    return isinstance(params, dict) and params.get("partitions") is not None


def _no_data(folder: RunFolder, what: str) -> str:
    """Why a section that report_data.json would fill is empty."""
    if _on_dask(folder):
        return (f"{what} data is not kept by a run on a Dask cluster (its documents stay on the "
                "workers); docnmf cluster in memory writes it.")
    return f"{what} data (report_data.json) not found in the folder."


def write_report(outdir: str | Path) -> Path:
    """Read the result folder ``outdir`` and write ``outdir/report.html``; returns its path."""
    folder = read_run_folder(outdir)
    if folder.data is None and _on_dask(folder):
        logger.info("%s is a run on a Dask cluster, which keeps no map, keyword weights, "
                    "snippets or cluster similarity: the report shows its clusters' sizes, "
                    "keywords and documents", outdir)
    elif folder.data is None:
        logger.warning("%s has no report_data.json (docnmf cluster writes it): the report lacks "
                       "the map, keyword weights, snippets and cluster similarity", outdir)
    written = atomic_write_text(Path(outdir) / "report.html", render_report(folder))
    note_written(outdir, "report.html")     # the folder stays docnmf's, to be replaced whole
    return written


def _representative_ids(cell: str) -> list[str]:
    """The ids of a ``representative_documents`` cell: a JSON list (space-separated in folders
    written before ids could hold spaces).

    Examples
    --------
    >>> _representative_ids('["a b", "c"]'), _representative_ids("a c")
    (['a b', 'c'], ['a', 'c'])
    """
    try:
        ids = json.loads(cell)
    except ValueError:
        return cell.split()
    return [str(i) for i in ids] if isinstance(ids, list) else cell.split()
