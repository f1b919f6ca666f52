"""The demo corpus's report.html in a real browser: headless Chromium, network refused."""

from __future__ import annotations

import re

import numpy as np
import pytest

from docnmf.cli import main


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    assert main(["-q", "demo", "-o", str(out)]) == 0
    return out / "report.html"


def test_demo_report_renders_offline(browser, artifact, demo_report, tmp_path):
    shot = tmp_path / "report-demo.png"
    page = browser(demo_report, shot)
    artifact(shot)
    assert page.errors == []
    # the page itself is the only thing it asked for; nothing was refused
    assert page.requests == [demo_report.resolve().as_uri()] and page.blocked == []
    assert page.title == "docnmf report: demo"
    assert page.sections == 5                       # k = 5 cluster sections
    # the map and both matrices are drawn: far more than a few stray pixels differ from white
    assert page.inked["map-canvas"] > 1000
    assert page.inked["similarity-canvas"] > 10000
    assert page.inked["memberships-canvas"] > 10000
    assert shot.stat().st_size > 50_000


def test_printed_tables_repeat_their_header_on_every_page(browser, artifact, tmp_path):
    """A table longer than a page (the clusters at a glance, for many clusters) lost its header
    after the first printed page: its header row was an ordinary row."""
    import json
    import re

    from pypdf import PdfReader

    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
             "kappa", "lambda", "omicron"]
    docs = tmp_path / "docs.jsonl"
    with open(docs, "w", encoding="utf-8") as fh:
        for t in range(60):   # 60 topics, each its own words: one row of the index each
            vocab = [f"{words[t % 12]}{words[t // 12]}{w}" for w in words[:8]]
            for d in range(4):
                fh.write(json.dumps({"id": f"t{t}/d{d}", "text": " ".join(vocab[d:] + vocab)})
                         + "\n")
    out = tmp_path / "out"
    assert main(["-q", "cluster", str(docs), "-k", "60", "--method", "nmf", "--min-df", "1",
                 "-o", str(out)]) == 0
    pdf = tmp_path / "report-printed.pdf"
    page = browser(out / "report.html", pdf=pdf)
    artifact(pdf)
    assert page.errors == []
    pages = [p.extract_text() or "" for p in PdfReader(pdf).pages]
    header = re.compile(r"cluster\s*size\s*share\s*coherence\s*keywords")
    # the rows of the index, by the cluster each begins with, on each page
    with_rows = [i for i, text in enumerate(pages) if header.search(text) or
                 re.search(r"^\d+ ?\d+ ?\d+\.\d%", text, re.MULTILINE)]
    assert len(with_rows) >= 2, "the index should run over more than one printed page"
    assert all(header.search(pages[i]) for i in with_rows)
    # the similarity values, in tables of 20 clusters, are printed (beyond 30 clusters they
    # were left closed, the one wide table having lost its columns past 38)
    printed = " ".join(pages)
    assert all(f"clusters {a}–{b}" in printed for a, b in ((0, 19), (20, 39), (40, 59)))
    # on a screen the tables stand side by side, a row along one line
    tops = browser(out / "report.html", measure=_BLOCK_TOPS).measured
    assert len(tops) == 3 and len(set(tops)) == 1, tops


#: The top of each table of the similarity values' parts, opened, on a screen.
_BLOCK_TOPS = """() => {
  const d = document.querySelector("details.values"); d.open = true;
  return [...d.querySelectorAll(".blocks > table")].map(t => t.getBoundingClientRect().top);
}"""


def test_search_finds_documents_and_clusters(browser, demo_report, tmp_path):
    page = browser(demo_report, tmp_path / "search.png", search="telescope", full_page=False)
    assert page.errors == [] and page.blocked == []
    # the demo's astronomy documents mention telescopes; one cluster has it as a keyword
    assert "astronomy/" in page.search_text
    assert re.search(r"documents on the map match, and 1 cluster: cluster \d\.", page.search_text)
    # the page's own words, in every cluster's section, matched every cluster
    for word in ("membership", "apart"):
        page = browser(demo_report, search=word, full_page=False)
        assert page.errors == [] and "match, and no cluster." in page.search_text, word


def test_outside_requests_are_refused_twice(browser, demo_report, tmp_path):
    """The page's own policy refuses a remote image; without it, the test's router does."""
    html = demo_report.read_text(encoding="utf-8")
    img = '<body><img src="http://example.invalid/x.png">'
    with_policy = tmp_path / "with-policy.html"
    with_policy.write_text(html.replace("<body>", img, 1), encoding="utf-8")
    page = browser(with_policy)
    assert page.blocked == [] and any("Content Security Policy" in e for e in page.errors)
    without = tmp_path / "without-policy.html"
    without.write_text(html.replace("Content-Security-Policy", "x-none", 1)
                       .replace("<body>", img, 1), encoding="utf-8")
    page = browser(without)
    assert page.blocked == ["http://example.invalid/x.png"]


def test_markup_in_ids_and_texts_is_shown_as_text(browser, hostile_out, tmp_path):
    """Scraped pages bring "<!--" and "</script>" in ids and texts: the page still runs (map
    drawn, search working) and shows them as they are, running nothing."""
    from .conftest import HOSTILE_IDS

    report = hostile_out / "report.html"
    page = browser(report, tmp_path / "hostile.png", search="web/")
    assert page.errors == [] and page.blocked == []
    assert page.inked["map-canvas"] > 1000 and page.inked["similarity-canvas"] > 10000
    assert f"{len(HOSTILE_IDS)} of the 80 documents on the map" in page.search_text
    for doc_id in HOSTILE_IDS:
        assert doc_id in page.search_text


#: The page's width against the window's, and the narrowest column of any cluster card as a
#: share of the card (three columns, 1 : 1 : 1.5, so each about a quarter or more).
_LAYOUT = """() => {
  let narrowest = 1;
  document.querySelectorAll("article.cluster .cols3").forEach(g => {
    const w = g.getBoundingClientRect().width;
    for (const c of g.children) narrowest = Math.min(narrowest, c.getBoundingClientRect().width / w);
  });
  return {page: document.documentElement.scrollWidth, window: window.innerWidth, narrowest};
}"""


def test_long_links_and_ids_wrap_inside_their_column(browser, hostile_out, tmp_path):
    """A link with no place to break in a representative's text, and a 600-character id in
    the search results, wrap where they are: the cards keep their columns, the page its
    width."""
    page = browser(hostile_out / "report.html", tmp_path / "long.png", search="archive/",
                   measure=_LAYOUT)
    assert page.errors == [] and "archive/xxx" in page.search_text
    assert page.measured["page"] <= page.measured["window"]
    assert page.measured["narrowest"] > 0.2


#: The choose-k section's width against the page's, and its chart's lines that have length.
_CHOOSE_K = """() => {
  const s = document.getElementById("choose-k");
  if (!s) return null;
  const drawn = [...s.querySelectorAll("polyline")].filter(p => p.getTotalLength() > 10).length;
  return {width: s.scrollWidth, page: document.documentElement.clientWidth, drawn,
          chosen: s.querySelectorAll("tr.chosen").length};
}"""


def test_a_chosen_k_is_charted_beside_its_table(browser, artifact, auto_out, tmp_path):
    shot = tmp_path / "report-k-auto.png"
    page = browser(auto_out / "report.html", shot, measure=_CHOOSE_K)
    artifact(shot)
    assert page.errors == [] and page.blocked == []
    assert page.measured is not None, "no choose-k section"
    assert page.measured["drawn"] == 4 and page.measured["chosen"] == 1
    assert page.measured["width"] <= page.measured["page"]


@pytest.fixture(scope="module")
def wide_out(tmp_path_factory):
    """The demo corpus in 20 clusters (more than the 14 whose similarities are written in the
    cells), from a file whose name has no place to break, as exported files' names often do."""
    import json

    from docnmf.corpus.demo import load_demo

    demo = load_demo()
    folder = tmp_path_factory.mktemp("wide")
    docs = folder / ("quarterly_customer_feedback_export_" * 4 + "approved.jsonl")
    with open(docs, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps({"id": doc_id, "text": text}) + "\n"
                      for doc_id, text in zip(demo.ids, demo.texts))
    assert main(["-q", "cluster", str(docs), "-k", "20", "--method", "nmf",
                 "-o", str(folder / "out")]) == 0
    return folder / "out"


#: Follows the index's link to a cluster, as a reader clicks it, then gives the header's
#: bottom and the cluster heading's top.
_JUMP = """() => {
  document.querySelector('a[href="#cluster-3"]').click();
  return {header: document.querySelector("header").getBoundingClientRect().bottom,
          heading: document.querySelector("#cluster-3 h3").getBoundingClientRect().top};
}"""


@pytest.mark.parametrize("width", [1280, 700])
def test_a_followed_link_lands_below_the_sticky_header(browser, demo_report, width):
    """The index's and the search's links scrolled the cluster's heading under the header."""
    page = browser(demo_report, width=width, measure=_JUMP)
    assert page.errors == []
    assert page.measured["header"] > 40
    assert page.measured["heading"] >= page.measured["header"]


#: What shows with scripts off: the charts, the notes that stand for them, the search box.
_SHOWN = """() => {
  const shown = e => e.getClientRects().length > 0;
  return {canvases: [...document.querySelectorAll("canvas")].filter(shown).length,
          notes: [...document.querySelectorAll("figure .note")].filter(shown)
                   .map(e => e.textContent),
          search: shown(document.getElementById("search"))};
}"""


def test_without_scripts_the_charts_say_they_are_missing(browser, artifact, demo_report,
                                                         tmp_path):
    """With JavaScript off the three charts were large empty boxes, and a search box did
    nothing."""
    shot = tmp_path / "report-no-script.png"
    page = browser(demo_report, shot, script=False, measure=_SHOWN)
    artifact(shot)
    assert page.errors == [] and page.sections == 5
    assert page.measured["canvases"] == 0 and page.measured["search"] is False
    assert len(page.measured["notes"]) == 3
    assert all("drawn by the page's script, which is off" in n for n in page.measured["notes"])


#: The legend's entries as a keyboard reaches them, before and after one is pressed.
_LEGEND = """() => {
  const entries = () => [...document.querySelectorAll("#legend > *")];
  const before = entries().map(e => [e.tagName, e.tabIndex, e.getAttribute("aria-pressed")]);
  entries()[2].focus();
  entries()[2].click();
  return {before, after: entries().map(e => e.getAttribute("aria-pressed")),
          off: entries().filter(e => e.classList.contains("off")).length,
          focused: document.activeElement.textContent};
}"""


def test_the_map_legend_is_buttons_a_keyboard_reaches(browser, demo_report):
    page = browser(demo_report, measure=_LEGEND)
    assert page.errors == []
    assert page.measured["before"] == [["BUTTON", 0, "false"]] * 5
    assert page.measured["after"] == ["false", "false", "true", "false", "false"]
    assert page.measured["off"] == 4 and page.measured["focused"] == "2"


#: Hovers the map's rightmost point and the similarity cell of clusters 0 and 1, and measures
#: the tooltips and the page.
_HOVER = """() => {
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const hover = (canvas, x, y) => {
    const b = canvas.getBoundingClientRect();
    canvas.dispatchEvent(new MouseEvent("mousemove", {clientX: b.left + x * b.width / canvas.width,
                                                      clientY: b.top + y * b.height / canvas.height}));
  };
  const box = id => { const r = document.getElementById(id).getBoundingClientRect();
                      return {left: r.left, right: r.right, height: r.height}; };
  const map = document.getElementById("map-canvas"), pad = 14;
  const i = D.map.x.indexOf(Math.max(...D.map.x));
  hover(map, pad + D.map.x[i] * (map.width - 2 * pad), pad + (1 - D.map.y[i]) * (map.height - 2 * pad));
  const mapTip = box("map-tip");
  const sim = document.getElementById("similarity-canvas");
  const cw = (sim.width - 26 - 4) / D.k, ch = (sim.height - 18 - 4) / D.k;
  hover(sim, 26 + 1.5 * cw, 18 + 0.5 * ch);
  const simTip = document.getElementById("similarity-tip");
  return {mapTip, simText: simTip.hidden ? null : simTip.textContent, simTip: box("similarity-tip"),
          page: document.documentElement.scrollWidth, window: window.innerWidth,
          caption: document.querySelector("#similarity figcaption").textContent,
          value: D.similarity[0][1]};
}"""


def test_tooltips_and_a_long_title_stay_inside_a_narrow_window(browser, artifact, wide_out,
                                                               tmp_path):
    """At 400 pixels the map's tooltip for its rightmost point was squeezed to a letter a
    line, 4,800 pixels tall, and a corpus name with no place to break widened the page to
    2,485 pixels. Beyond 14 clusters no similarity was readable anywhere."""
    shot = tmp_path / "report-narrow.png"
    page = browser(wide_out / "report.html", shot, width=400, measure=_HOVER)
    artifact(shot)
    m = page.measured
    assert page.errors == []
    assert m["page"] <= m["window"]
    assert 0 <= m["mapTip"]["left"] and m["mapTip"]["right"] <= m["window"]
    assert m["mapTip"]["height"] < 200
    assert m["simText"] == f"clusters 0 and 1: {m['value']:.3f}"
    assert m["simTip"]["right"] <= m["window"]
    assert "Hover a cell for its value, or open the table above." in m["caption"]


def test_a_closed_confusion_matrix_is_printed(browser, demo_report, tmp_path):
    """The confusion matrix, closed by a reader, printed as its summary line alone."""
    from pypdf import PdfReader

    pdf = tmp_path / "closed.pdf"
    page = browser(demo_report, pdf=pdf,
                   measure="() => { document.querySelector('details').open = false; }")
    assert page.errors == []
    text = " ".join(p.extract_text() or "" for p in PdfReader(pdf).pages)
    assert "class \\ cluster" in text


#: Each keyword bar's width, and whether the clusters-at-a-glance keywords lie inside the window.
_KEYWORDS = """() => {
  const bars = [...document.querySelectorAll("li.kw .b")].map(b => b.getBoundingClientRect().width);
  const cells = [...document.querySelectorAll("table.index tbody td:last-child")];
  return {narrowest_bar: Math.min(...bars), window: document.documentElement.clientWidth,
          keywords_right: Math.max(...cells.map(c => c.getBoundingClientRect().right))};
}"""


LONG_WORD = "donaudampfschifffahrtsgesellschaftskapitaenswitwenrentenkasse "


@pytest.fixture(scope="module")
def long_keyword_out(tmp_path_factory):
    """The demo corpus with a 61-letter word in every document of one topic: a keyword."""
    import json

    from docnmf.corpus.demo import load_demo

    demo = load_demo()
    folder = tmp_path_factory.mktemp("longkw")
    with open(folder / "docs.jsonl", "w", encoding="utf-8") as fh:
        for doc_id, text, labels in zip(demo.ids, demo.texts, demo.labels):
            if labels[0] == demo.labels[0][0]:
                text += " " + LONG_WORD * 5
            fh.write(json.dumps({"id": doc_id, "text": text, "label": labels[0]}) + "\n")
    assert main(["-q", "cluster", str(folder / "docs.jsonl"), "-k", "5",
                 "-o", str(folder / "out")]) == 0
    return folder / "out" / "report.html"


@pytest.mark.parametrize("width", [1280, 400])
def test_a_long_keyword_keeps_its_bar_and_a_phone_sees_the_keywords(browser, long_keyword_out,
                                                                     tmp_path, width):
    """A long keyword took its bar's room (0 px), and at 400 px the clusters-at-a-glance
    keywords lay off the screen, behind a scroll, one word a line."""
    assert LONG_WORD[:50] in long_keyword_out.read_text()
    page = browser(long_keyword_out, tmp_path / f"kw{width}.png", width=width,
                   measure=_KEYWORDS)
    assert page.errors == []
    assert page.measured["narrowest_bar"] > 20
    assert page.measured["keywords_right"] <= page.measured["window"]


#: Searches as a reader types, follows the first result's link to its cluster, then measures
#: what is in view; and what a screen reader is given.
_FOLLOW = """async () => {
  const box = document.getElementById("search");
  box.focus(); box.value = "telescope"; box.dispatchEvent(new Event("input"));
  const count = document.getElementById("search-count").textContent;
  const said = document.getElementById("search-said").textContent;
  const open = document.querySelector("header").getBoundingClientRect().bottom;
  const link = document.querySelector("#search-list a");
  const target = link.getAttribute("href");
  link.focus(); link.click();
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const header = document.querySelector("header").getBoundingClientRect().bottom;
  const section = document.querySelector(target).getBoundingClientRect();
  const dark = c => { const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
                      let n = 0;
                      for (let i = 0; i < d.length; i += 4)
                        if (d[i] + d[i + 1] + d[i + 2] < 60) n++;
                      return n; };
  const map = document.getElementById("map-canvas");
  return {count, said, open, header, headingTop: document.querySelector(target + " h3")
            .getBoundingClientRect().top, sectionBottom: section.bottom,
          resultsHidden: document.getElementById("search-results").hidden,
          live: [...document.querySelectorAll("[aria-live]")].map(e => e.id),
          headings: [...document.querySelectorAll("article.cluster h3")].map(h => h.innerText),
          regions: [...document.querySelectorAll(".scroll")]
                     .map(e => [e.tabIndex, e.getAttribute("aria-label")]),
          values: document.querySelectorAll("#similarity details table td").length,
          mapDark: dark(map), mapScale: map.width / map.getBoundingClientRect().width};
}"""


@pytest.mark.parametrize("scale", [1, 2])
def test_a_search_result_followed_lands_in_view_and_says_what_it_found(browser, demo_report,
                                                                      scale):
    """The results, drawn in the sticky header, covered half the window and the cluster a
    result's link went to; the heading read "Cluster 415 documents" to a screen reader; the
    similarities were on a hover alone, scroll boxes out of a keyboard's reach, the map's
    clusters told apart by colour alone, and the charts drawn blurred on a dense screen."""
    page = browser(demo_report, width=1280, height=720, measure=_FOLLOW, scale=scale)
    m = page.measured
    assert page.errors == []
    # the count names the cluster that matched, and it alone is read out as it changes
    assert re.search(r"and 1 cluster: cluster \d\.$", m["count"]), m["count"]
    assert m["live"] == ["search-said"] and m["said"] == m["count"]
    assert m["open"] > m["header"] and m["resultsHidden"]
    assert m["header"] <= m["headingTop"] < m["sectionBottom"] <= 720
    assert all(re.fullmatch(r"Cluster \d+, \d+ documents? \(\d+\.\d%\) · .*", h)
               for h in m["headings"]), m["headings"]
    assert m["regions"] and all(t == 0 and name for t, name in m["regions"])
    assert m["values"] == 5 * 5
    assert m["mapDark"] > 50                       # the clusters' numbers, written in black
    assert m["mapScale"] == pytest.approx(scale, rel=0.01)


#: What a review of the above found: the numbers on the map over every point of a tight
#: cluster, a press on a result (Safari gives a clicked link no focus) closing the results
#: before the click, a resize dropping a focused result, the skip link under the header.
_REVIEWED = """async () => {
  const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const map = document.getElementById("map-canvas"), g = map.getContext("2d"), pad = 14;
  const scale = map.width / +map.dataset.w, w = +map.dataset.w, h = +map.dataset.h;
  // the pixel at each point's centre: its cluster's colour, not a digit's black or a halo's
  // white
  const covered = [];
  for (let i = 0; i < D.map.x.length; i++) {
    const x = (pad + D.map.x[i] * (w - 2 * pad)) * scale;
    const y = (pad + (1 - D.map.y[i]) * (h - 2 * pad)) * scale;
    const px = g.getImageData(Math.round(x), Math.round(y), 1, 1).data;
    if (px[0] + px[1] + px[2] < 90 || px[0] + px[1] + px[2] > 750) covered.push(D.map.id[i]);
  }
  const box = document.getElementById("search");
  box.focus(); box.value = "astronomy/"; box.dispatchEvent(new Event("input"));
  const link = document.querySelector("#search-list a");
  link.dispatchEvent(new PointerEvent("pointerdown", {bubbles: true}));
  box.blur();                                   // the press blurs the box to nothing
  const openAfterPress = !document.getElementById("search-results").hidden;
  link.click();
  document.dispatchEvent(new PointerEvent("pointerup", {bubbles: true}));
  await frame();
  const followed = location.hash;
  box.focus(); await frame();
  document.querySelector("#search-list a").focus();
  window.dispatchEvent(new Event("resize")); await frame();
  const afterResize = {open: !document.getElementById("search-results").hidden,
                       focus: document.activeElement.tagName};
  document.querySelector("a.skip").click(); await frame();
  return {covered, openAfterPress, followed, afterResize,
          header: document.querySelector("header").getBoundingClientRect().bottom,
          overview: document.querySelector("#overview h2").getBoundingClientRect().top};
}"""


@pytest.fixture(scope="module")
def tight_report(tmp_path_factory):
    """Five topics of eight documents on the same words: each cluster a tight knot on the map."""
    import json

    from docnmf.corpus.demo import load_demo

    demo = load_demo()
    folder = tmp_path_factory.mktemp("tight")
    with open(folder / "docs.jsonl", "w", encoding="utf-8") as fh:
        topics = {}
        for text, labels in zip(demo.texts, demo.labels):
            topics.setdefault(labels[0], text)
        for topic, text in topics.items():
            for d in range(8):
                fh.write(json.dumps({"id": f"{topic}/{d}", "text": f"{text} note{d}",
                                     "label": topic}) + "\n")
    assert main(["-q", "cluster", str(folder / "docs.jsonl"), "-k", "5", "--method", "nmf",
                 "--min-df", "1", "-o", str(folder / "out")]) == 0
    return folder / "out" / "report.html"


def test_map_numbers_results_and_skip_link_as_reviewed(browser, tight_report):
    page = browser(tight_report, width=1280, height=720, measure=_REVIEWED)
    m = page.measured
    assert page.errors == []
    assert m["covered"] == []
    assert m["openAfterPress"] and m["followed"].startswith("#cluster-")
    assert m["afterResize"] == {"open": True, "focus": "A"}
    assert m["overview"] >= m["header"]


def test_a_confusion_matrix_of_many_clusters_is_printed_whole(browser, artifact, tmp_path):
    """At 100 clusters the printed confusion matrix ran off the page at about the 50th column,
    and the print lost the others: a wide matrix is now tables of at most 20 columns."""
    from pypdf import PdfReader

    from docnmf.report.html import _asset, _confusion

    rng = np.random.default_rng(0)
    metrics = {"confusion": {"classes": [f"class{i}" for i in range(30)],
                             "clusters": [f"K{j}" for j in range(100)],
                             "counts": rng.integers(0, 2000, size=(30, 100)).tolist()}}
    page = tmp_path / "confusion.html"
    page.write_text(f"<!doctype html><html><head><meta charset=utf-8><style>{_asset('report.css')}"
                    f"</style></head><body><main>{_confusion(metrics)}</main></body></html>",
                    encoding="utf-8")
    pdf = tmp_path / "confusion-printed.pdf"
    rendered = browser(page, pdf=pdf, script=False)
    artifact(pdf)
    assert rendered.errors == []
    text = " ".join(p.extract_text() or "" for p in PdfReader(pdf).pages)
    missing = [j for j in range(100) if not re.search(rf"\bK{j}\b", text)]
    assert missing == []
    assert all(re.search(rf"\bclass{i}\b", text) for i in range(30))


#: The black pixels of the map (its numbers' ink) farther than ``reach`` CSS pixels from
#: every point.
_FAR_INK = """async () => {
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const map = document.getElementById("map-canvas"), g = map.getContext("2d"), pad = 14;
  const scale = map.width / +map.dataset.w, w = +map.dataset.w, h = +map.dataset.h;
  const points = D.map.x.map((x, i) => [pad + x * (w - 2 * pad),
                                         pad + (1 - D.map.y[i]) * (h - 2 * pad)]);
  const px = g.getImageData(0, 0, map.width, map.height).data, far = [];
  let ink = 0;
  for (let j = 0; j < map.height; j++) for (let i = 0; i < map.width; i++) {
    const o = 4 * (j * map.width + i);
    if (px[o + 3] < 200 || px[o] + px[o + 1] + px[o + 2] > 90) continue;
    ink++;
    const x = i / scale, y = j / scale;
    if (!points.some(p => Math.hypot(p[0] - x, p[1] - y) <= 24)) far.push([x, y]);
  }
  return {ink, far: far.length};
}"""


def test_a_clusters_number_is_written_beside_one_of_its_points(browser, tmp_path):
    """Two clusters of the demo corpus: the larger one spread along arcs across the map, and
    its number, written level with the points' middle beyond the leftmost, floated about 100
    pixels from any point."""
    assert main(["-q", "cluster", "demo", "-k", "2", "-o", str(tmp_path / "out")]) == 0
    page = browser(tmp_path / "out" / "report.html", width=1280, height=900, measure=_FAR_INK)
    assert page.errors == []
    assert page.measured["ink"] > 20 and page.measured["far"] == 0


def test_search_reads_words_as_the_clusters_do(browser, tmp_path):
    """The clusters read "cafe\u0301" (an accent written apart, as macOS writes it) as "caf\u00e9" and
    "\u0130stanbul" as "istanbul", but the search compared the page's characters: "caf\u00e9" missed the
    documents that spell it apart, and "istanbul" missed "\u0130stanbul"."""
    rows = ["id,text"]
    for i in range(8):
        spelt = "cafe\u0301" if i % 2 else "caf\u00e9"
        rows.append(f"c{i},{spelt} with cream and sugar at the \u0130stanbul bakery {i}")
        rows.append(f"m{i},markets and shares fell in trading today {i}")
    corpus = tmp_path / "docs.csv"
    corpus.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["-q", "cluster", str(corpus), "-k", "2", "-o", str(out)]) == 0
    for query in ("caf\u00e9", "cafe\u0301", "istanbul", "\u0130stanbul"):
        page = browser(out / "report.html", search=query, full_page=False)
        assert page.errors == [], query
        assert "8 of the 16 documents on the map match" in page.search_text, query


def test_a_search_result_in_arabic_runs_right_to_left(browser, tmp_path):
    """The snippets of the cluster cards took their own direction, but the search's list of
    documents laid an Arabic id and text out left to right, as the page is."""
    sport = "\u0627\u0644\u0641\u0631\u064a\u0642 \u0627\u0644\u0645\u062f\u0631\u0628"
    money = "\u0627\u0644\u0628\u0646\u0643 \u0627\u0644\u0623\u0633\u0647\u0645"
    rows = ["id,text"] + [f"\u0648\u062b\u064a\u0642\u0629{i},{sport if i % 2 else money} {i}."
                          for i in range(12)]
    (tmp_path / "ar.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["-q", "cluster", str(tmp_path / "ar.csv"), "-k", "2", "-o", str(out)]) == 0
    page = browser(out / "report.html", search="\u0627\u0644", full_page=False,
                   measure="""() => Array.from(document.querySelectorAll("#search-list li"),
                       li => [li.querySelector(".id bdi") || li.querySelector(".id"),
                              li.lastElementChild]
                             .map(e => getComputedStyle(e).direction).join(" "))""")
    assert page.errors == [] and page.measured == ["rtl rtl"] * 12


#: Hovers the map's first point and gives its tooltip: its text, and the texts of the elements
#: that keep their own direction in it.
_TIP = """() => {
  const D = JSON.parse(document.getElementById("report-data").textContent);
  const map = document.getElementById("map-canvas"), pad = 14;
  map.scrollIntoView();
  const b = map.getBoundingClientRect(), w = +map.dataset.w, h = +map.dataset.h;
  const x = pad + D.map.x[0] * (w - 2 * pad), y = pad + (1 - D.map.y[0]) * (h - 2 * pad);
  map.dispatchEvent(new MouseEvent("mousemove", {clientX: b.left + x * b.width / w,
                                                 clientY: b.top + y * b.height / h}));
  const tip = document.getElementById("map-tip");
  return {hidden: tip.hidden, text: tip.textContent, id: D.map.id[0], snippet: D.map.text[0],
          isolated: Array.from(tip.querySelectorAll("bdi"), e => e.textContent)};
}"""


def _two_topics(tmp_path, fields):
    """The result folder of ``docnmf cluster -k 2`` on a CSV of 16 short documents on two
    topics (sky, market); ``fields(i, topic)`` gives each one's id, and its label if any."""
    texts = {"sky": "stars and planets seen through the telescope tonight",
             "market": "markets and shares fell in trading today"}
    rows = [[*fields(i, topic), f"{text} {i}"] for i in range(8) for topic, text in texts.items()]
    header = ["id", "label"][:len(rows[0]) - 1] + ["text"]
    (tmp_path / "docs.csv").write_text("\n".join(",".join(r) for r in [header, *rows]) + "\n",
                                       encoding="utf-8")
    out = tmp_path / "out"
    assert main(["-q", "cluster", str(tmp_path / "docs.csv"), "-k", "2", "-o", str(out)]) == 0
    return out


def test_an_id_that_turns_the_writing_direction_turns_only_itself_in_the_map_s_tooltip(
        browser, tmp_path):
    """An id holding a right-to-left override (U+202E) it never closes turned the tooltip's
    "(cluster 0): " and the document's text after it backwards; the search's list already kept
    each id and text in its own direction."""
    out = _two_topics(tmp_path, lambda i, topic: (f"\u202e{topic}{i}",))
    page = browser(out / "report.html", measure=_TIP)
    assert page.errors == [] and page.measured["hidden"] is False
    tip = page.measured
    assert tip["isolated"] == [tip["id"], tip["snippet"]]
    assert tip["text"].startswith(tip["id"] + " (cluster ")


#: The right edge of the confusion matrix's cells, against the window's width.
_CONFUSION_EDGE = """() => ({
  right: Math.max(...Array.from(document.querySelectorAll("table.confusion td"),
                                td => td.getBoundingClientRect().right)),
  window: window.innerWidth})"""


def test_a_long_class_name_leaves_the_confusion_matrix_s_counts_in_view(browser, tmp_path):
    """A class named with no place to break (a label of 240 characters) made its row header
    so wide that the counts stood beyond the right edge of a 1280-pixel window, in the box
    that scrolls sideways: the matrix showed names and no numbers."""
    long = "verylonglabelwithoutanyspace" * 8
    out = _two_topics(tmp_path, lambda i, topic: (f"{topic[0]}{i}", f"{topic}_{long}"))
    page = browser(out / "report.html", width=1280, measure=_CONFUSION_EDGE)
    assert page.errors == []
    # (no cell at all would be -Infinity, to the left of any edge)
    assert 0 < page.measured["right"] <= page.measured["window"]


#: The class names of the confusion matrix's rows that its cells show on more than one line.
_WRAPPED_CLASSES = """() => Array.from(document.querySelectorAll("table.confusion tbody th"))
  .filter(th => { const r = document.createRange(); r.selectNodeContents(th);
                  return r.getClientRects().length > 1; })
  .map(th => th.textContent)"""


def test_class_names_that_fit_stay_whole_in_a_narrow_window(browser, demo_report, tmp_path):
    """A name that can be read on one line keeps it: a narrow window scrolls the matrix
    sideways rather than cutting 20 Newsgroups' names between any two letters ("sci.me" over
    "d", "comp.os.ms-windo" over "ws.misc")."""
    import json
    import shutil

    names = ["alt.atheism", "comp.graphics", "comp.os.ms-windows.misc", "comp.sys.ibm.pc.hardware",
             "comp.sys.mac.hardware", "comp.windows.x", "misc.forsale", "rec.autos",
             "rec.motorcycles", "rec.sport.baseball", "rec.sport.hockey", "sci.crypt",
             "sci.electronics", "sci.med", "sci.space", "soc.religion.christian",
             "talk.politics.guns", "talk.politics.mideast", "talk.politics.misc",
             "talk.religion.misc"]
    folder = tmp_path / "out"
    shutil.copytree(demo_report.parent, folder)
    metrics = json.loads((folder / "metrics.json").read_text(encoding="utf-8"))
    metrics["n_classes"] = len(names)
    metrics["confusion"] = {"classes": names, "clusters": list(range(20)),
                            "counts": [[(7 * i + 11 * j) % 400 for j in range(20)]
                                       for i in range(20)]}
    (folder / "metrics.json").write_text(json.dumps(metrics), encoding="utf-8")
    assert main(["-q", "report", str(folder)]) == 0
    page = browser(folder / "report.html", width=700, measure=_WRAPPED_CLASSES)
    assert page.errors == []
    assert page.measured == []
