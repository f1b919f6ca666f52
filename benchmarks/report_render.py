"""Size of report.html and its time to render in headless Chromium, with screenshots.

Clusters each named corpus with ``docnmf cluster`` defaults (k = its number of
classes), then opens the report in Debian's Chromium with the network refused
(the browser test's helper, ``tests/report/conftest.py``) three times and
prints the file size, the time from navigation to the end of the page's
script (median of three) and the time ``write_run`` took to build the report.
Screenshots of the page's parts (header, overview, map, first cluster,
similarity, memberships, objective) go to the output folder.

Usage::

    nice -n 19 python benchmarks/report_render.py demo 20newsgroups -o reports/html-report
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from docnmf.cli import main as docnmf

HERE = Path(__file__).resolve().parent


def _browser():
    spec = importlib.util.spec_from_file_location(
        "report_browser", HERE.parent / "tests" / "report" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["report_browser"] = module
    spec.loader.exec_module(module)
    return module


#: The parts of the page kept as pictures: CSS selector -> file name suffix.
PARTS = {"header": "header", "#overview": "overview", "#map": "map",
         "#cluster-0": "cluster0", "#similarity": "similarity", "#memberships": "memberships",
         "#objective": "objective"}


def _small_png(src: Path, dst: Path, max_height: int = 1600) -> None:
    """``src`` re-saved compressed, cut to ``max_height`` pixels."""
    from PIL import Image

    im = Image.open(src).convert("RGB")
    im = im.crop((0, 0, im.width, min(im.height, max_height)))
    im.save(dst, optimize=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora", nargs="+", help="'demo' or dataset names")
    parser.add_argument("-o", "--output", type=Path, default=Path("reports/html-report"))
    args = parser.parse_args(argv)
    browser = _browser()
    args.output.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.corpora:
            out = Path(tmp) / name
            if name == "demo":
                command = ["-q", "demo", "-o", str(out)]
            else:
                from docnmf.corpus import load_dataset

                k = load_dataset(name).n_classes
                command = ["-q", "cluster", name, "-k", str(k), "-o", str(out)]
            t0 = time.perf_counter()
            assert docnmf(command) == 0
            total = time.perf_counter() - t0
            run = json.loads((out / "run.json").read_text())
            t0 = time.perf_counter()
            assert docnmf(["report", str(out)]) == 0
            rebuild = time.perf_counter() - t0
            html = out / "report.html"
            shot = Path(tmp) / f"{name}.png"
            times = []
            parts = {sel: Path(tmp) / f"{name}-{part}.png" for sel, part in PARTS.items()}
            for i in range(3):
                page = browser.render(html, shot if i == 0 else None,
                                      parts=parts if i == 0 else None)
                assert not page.errors and not page.blocked, (page.errors, page.blocked)
                times.append(page.seconds)
            for sel, part in PARTS.items():
                _small_png(parts[sel], args.output / f"report-{name}-{part}.png")
            rows.append({"corpus": name, "documents": run["corpus"]["n_documents"],
                         "clusters": run["parameters"]["n_clusters"],
                         "report_kb": html.stat().st_size / 1024,
                         "render_s": statistics.median(times), "render_all_s": times,
                         "cluster_command_s": total, "report_rebuild_s": rebuild,
                         "sections": page.sections})
    lines = ["| corpus | documents | k | report.html | render in Chromium (median of 3) | "
             "docnmf report (rebuild) | docnmf cluster (all) |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['corpus']} | {r['documents']} | {r['clusters']} | "
                     f"{r['report_kb']:.0f} KiB | {r['render_s']:.2f} s | "
                     f"{r['report_rebuild_s']:.2f} s | {r['cluster_command_s']:.1f} s |")
    print("\n".join(lines))
    (args.output / "render.json").write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
