"""The demo corpus's report.html in a real browser: headless Chromium, network refused."""

from __future__ import annotations

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


def test_search_finds_documents_and_clusters(browser, demo_report, tmp_path):
    page = browser(demo_report, tmp_path / "search.png", search="telescope", full_page=False)
    assert page.errors == [] and page.blocked == []
    # the demo's astronomy documents mention telescopes; one cluster has it as a keyword
    assert "astronomy/" in page.search_text
    assert "and 1 cluster match" in page.search_text
    # the page's own words, in every cluster's section, matched every cluster
    for word in ("membership", "apart"):
        page = browser(demo_report, search=word, full_page=False)
        assert page.errors == [] and "and 0 clusters match" in page.search_text, word


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
