"""Open a report in headless Chromium (Debian's ``chromium``) with every network request refused.

Used by the browser tests (fixture ``browser``) and by ``benchmarks/report_render.py``; it drives
Chromium through Playwright's Python API with the system browser
(``executable_path``), never a browser Playwright would download.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-default-apps", "--disable-extensions"]

#: Counts the canvas pixels that differ from the white background.
_INKED_PIXELS = """(id) => {
  const c = document.getElementById(id);
  if (!c) return -1;
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] < 250 || d[i + 1] < 250 || d[i + 2] < 250) n++;
  return n;
}"""


def chromium_path() -> str | None:
    """The system Chromium, or None."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class Rendered:
    """What a page did while it loaded."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    seconds: float = 0.0
    sections: int = 0
    inked: dict[str, int] = field(default_factory=dict)
    title: str = ""
    search_text: str = ""
    measured: object = None


def render(path: Path, screenshot: Path | None = None, *, width: int = 1280, height: int = 900,
           full_page: bool = True, search: str | None = None,
           parts: dict[str, Path] | None = None, measure: str | None = None,
           pdf: Path | None = None, script: bool = True, scale: float = 1) -> Rendered:
    """Load ``path`` (a local HTML file) offline, wait for its script, and report what happened.

    Every request that is not for ``path`` itself is aborted and recorded in
    ``blocked``; console errors and uncaught exceptions land in ``errors``.
    ``parts`` maps CSS selectors to files for screenshots of single elements.
    ``measure`` is a JavaScript function evaluated last (after the search), its value kept
    in ``measured``. ``pdf``: print the page there (A4), as the browser's print dialog would.
    ``script=False`` opens it with JavaScript off: nothing is drawn or searched. ``scale``: the
    screen's pixels per CSS pixel (2 for a high-density screen, or a 200% zoom).
    """
    from playwright.sync_api import sync_playwright

    url = Path(path).resolve().as_uri()
    out = Rendered()
    with tempfile.TemporaryDirectory(prefix="docnmf-chromium-") as profile, sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile, executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": width, "height": height}, device_scale_factor=scale,
            offline=True, service_workers="block",
            java_script_enabled=script)

        def route(r):
            out.requests.append(r.request.url)
            if r.request.url == url:
                r.continue_()
            else:
                out.blocked.append(r.request.url)
                r.abort()

        context.route("**/*", route)
        page = context.pages[0] if context.pages else context.new_page()
        page.on("console", lambda m: out.errors.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "assert") else None)
        page.on("pageerror", lambda exc: out.errors.append(f"page error: {exc}"))
        t0 = time.perf_counter()
        page.goto(url, wait_until="load")
        if script:
            page.wait_for_selector("html[data-rendered=yes]", timeout=60_000)
        out.seconds = time.perf_counter() - t0
        out.title = page.title()
        out.sections = page.locator("article.cluster").count()
        for canvas in ("map-canvas", "similarity-canvas", "memberships-canvas"):
            out.inked[canvas] = page.evaluate(_INKED_PIXELS, canvas)
        if search is not None:
            page.fill("#search", search)
            page.wait_for_selector("#search-results:not([hidden])", timeout=10_000)
            out.search_text = page.inner_text("#search-results")
        if measure is not None:
            out.measured = page.evaluate(measure)
        if screenshot is not None:
            page.screenshot(path=str(screenshot), full_page=full_page)
        if parts:   # the sticky header would cover the top of each part as it scrolls in
            page.add_style_tag(content="header{position:static}")
        for selector, part in (parts or {}).items():   # one picture per part of the page
            page.locator(selector).screenshot(path=str(part))
        if pdf is not None:
            page.pdf(path=str(pdf), format="A4")
        context.close()
    return out


def keep_artifact(path: Path) -> None:
    """Copy ``path`` to ``$DOCNMF_ARTIFACTS`` when that variable names a folder."""
    folder = os.environ.get("DOCNMF_ARTIFACTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, Path(folder) / path.name)


@pytest.fixture(scope="session")
def browser():
    """``render``, when Chromium and Playwright are here; skips otherwise, fails under CI."""
    missing = None
    if chromium_path() is None:
        missing = "chromium is not installed (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "playwright is not installed (pip install -e '.[test]')"
    if missing:
        if os.environ.get("CI"):
            pytest.fail(missing + "; CI must run the browser tests")
        pytest.skip(missing)
    return render


@pytest.fixture
def artifact():
    """``keep_artifact``: copy a file to ``$DOCNMF_ARTIFACTS`` when it is set."""
    return keep_artifact


#: Ids and openings of documents as scraped pages and mail bring them: markup that would end
#: the page's data early, open a comment in it, or run as script if it were not kept text.
HOSTILE_IDS = ["web/<!-- saved page -->", "web/</script><script>alert(1)</script>",
               'web/"><img src=x onerror=alert(2)>', "web/<!--<script>"]
#: (two tags at most: three of common elements are HTML, which the readers read as its text)
HOSTILE_OPENING = "Saved from a web page <!-- comment --> </script> if a<b and c>d "
#: A link as pasted from a browser, with no place to break: every cooking document starts with
#: one, so that a cluster's representatives show it; and an id as long as a paragraph.
LONG_LINK = ("https://example.org/recipes/2024/06/" + "_".join(["courgette_fritters_with_feta"] * 8)
             + "?utm_source=newsletter&utm_medium=email ")
LONG_ID = "archive/" + "x" * 600


@pytest.fixture(scope="session")
def hostile_out(tmp_path_factory):
    """A result folder of the demo corpus whose first documents have markup in their ids and
    at the start of their texts (written by ``docnmf cluster`` from a JSONL file)."""
    import json

    from docnmf.cli import main
    from docnmf.corpus.demo import load_demo

    demo = load_demo()
    folder = tmp_path_factory.mktemp("hostile")
    with open(folder / "docs.jsonl", "w", encoding="utf-8") as fh:
        for i, (doc_id, text, labels) in enumerate(zip(demo.ids, demo.texts, demo.labels)):
            if labels[0] == "cooking":
                text = LONG_LINK + text
            if i < len(HOSTILE_IDS):
                doc_id, text = HOSTILE_IDS[i], HOSTILE_OPENING + text
            elif i == len(HOSTILE_IDS):
                doc_id = LONG_ID
            fh.write(json.dumps({"id": doc_id, "text": text, "label": labels[0]}) + "\n")
    assert main(["-q", "cluster", str(folder / "docs.jsonl"), "-k", "5",
                 "-o", str(folder / "out")]) == 0
    return folder / "out"


@pytest.fixture(scope="session")
def auto_out(tmp_path_factory):
    """A result folder of the demo corpus clustered with ``-k auto`` (choose_k.* beside it)."""
    from docnmf.cli import main

    folder = tmp_path_factory.mktemp("auto") / "out"
    assert main(["-q", "cluster", "demo", "-k", "auto", "--k-range", "2-6",
                 "-o", str(folder)]) == 0
    return folder
