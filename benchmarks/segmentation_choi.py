"""The segmenters of docnmf.text.segment on Choi's benchmark, beside Choi's published error rates.

Reads every ``.ref`` file under ``choi_c99/<set>/<range>/`` (920 files: sets
1-3 are the NAACL 2000 samples from Brown ``ca**``/``cj**``, set 4 a later
one from ``c[a-hjk]**`` that adds the 3-15 and 12-15 ranges), runs each
segmenter and reports, per range of sentences per segment:

- ``Pk`` over words, Choi's convention (his evaluator counts whitespace
  tokens and sets ``k`` to half the mean reference segment length in words);
- ``Pk`` and ``WindowDiff`` over sentences (``k`` likewise in sentences);
- WindowDiff over words;
- the mean time per document.

Published figures (Pk over words, as fractions) are transcribed from
``choi_c99/Table.txt``, the results file Choi distributed with the
experiment package of Choi (2000), "Advances in domain independent linear
text segmentation", NAACL 2000 (block "Accuracy", columns 3-11, 3-5, 6-8,
9-11; rows named in ``experiment code.txt``): row 26 "C99, unknown #
boundaries", row 25 "C99, known # boundaries", row 27 "TextTiling (Hearst's
original implementation), default parameters", row 1 "propose none". Those
rows were computed on sets 1-3 (the sample counts in Table.txt: 400 / 100 /
100 / 100 files, 350 / 50 / 50 / 50 for row 25), so the comparison column
of this script is restricted to sets 1-3; all 920 files are reported as well.

Usage::

    PYTHONPATH=src python benchmarks/segmentation_choi.py [--data DIR] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from docnmf.corpus import data_dir
from docnmf.text.segment import (
    boundaries_to_masses,
    c99_boundaries,
    equal_sentence_boundaries,
    pk,
    read_choi,
    texttiling_boundaries,
    windowdiff,
)
from docnmf.text.tokenize import Analyzer

RANGES = ["3-11", "3-5", "6-8", "9-11", "3-15", "12-15"]
PUBLISHED_RANGES = ["3-11", "3-5", "6-8", "9-11"]

#: choi_c99/Table.txt, block "Accuracy" (Pk over words), columns 3-11, 3-5, 6-8, 9-11.
PUBLISHED = {
    "C99 (unknown # segments)": ("26", [0.13, 0.18, 0.10, 0.10]),
    "C99 (known # segments)": ("25", [0.12, 0.12, 0.09, 0.09]),
    "TextTiling (Hearst's code, defaults)": ("27", [0.46, 0.44, 0.43, 0.48]),
    "no boundaries": ("1", [0.46, 0.47, 0.47, 0.47]),
}

ANALYZER = Analyzer()


def _segmenters():
    return {
        "C99 (unknown # segments)": lambda s, m: c99_boundaries(s, analyzer=ANALYZER),
        "C99 (known # segments)": lambda s, m: c99_boundaries(s, n_segments=len(m),
                                                               analyzer=ANALYZER),
        "TextTiling (hc cutoff)": lambda s, m: texttiling_boundaries(s, analyzer=ANALYZER),
        "TextTiling (known # segments)": lambda s, m: texttiling_boundaries(
            s, n_segments=len(m), analyzer=ANALYZER),
        "equal sentence counts (known #)": lambda s, m: equal_sentence_boundaries(len(s), len(m)),
        "no boundaries": lambda s, m: [],
    }


def _in_words(masses, words_per_sentence):
    """Segment masses in sentences -> the same segments' masses in words."""
    edges = np.concatenate([[0], np.cumsum(masses)])
    cum = np.concatenate([[0], np.cumsum(words_per_sentence)])
    return np.diff(cum[edges]).tolist()


def evaluate(root: Path) -> list[dict]:
    rows = []
    segmenters = _segmenters()
    files = sorted(root.glob("[1-4]/*/*.ref"))
    if not files:
        raise SystemExit(f"no .ref files under {root}")
    for path in files:
        doc = read_choi(path)
        words = [len(s.split()) for s in doc.sentences]
        ref_words = _in_words(doc.masses, words)
        for name, segment in segmenters.items():
            t0 = time.perf_counter()
            boundaries = segment(doc.sentences, doc.masses)
            elapsed = time.perf_counter() - t0
            hyp = boundaries_to_masses(boundaries, len(doc.sentences))
            hyp_words = _in_words(hyp, words)
            rows.append(dict(file=str(path.relative_to(root)), set=path.parts[-3],
                             range=path.parts[-2], method=name, seconds=elapsed,
                             pk_words=pk(ref_words, hyp_words),
                             wd_words=windowdiff(ref_words, hyp_words),
                             pk_sentences=pk(doc.masses, hyp),
                             wd_sentences=windowdiff(doc.masses, hyp),
                             n_segments=len(hyp), n_reference=len(doc.masses)))
    return rows


def summarise(rows: list[dict], sets: set[str]) -> dict:
    acc = defaultdict(list)
    for r in rows:
        if r["set"] in sets:
            acc[(r["method"], r["range"])].append(r)
    out = {}
    for (method, rng), rs in acc.items():
        out[(method, rng)] = {key: float(np.mean([r[key] for r in rs]))
                              for key in ("pk_words", "wd_words", "pk_sentences",
                                          "wd_sentences", "seconds")} | {"n": len(rs)}
    return out


def markdown(rows: list[dict]) -> str:
    methods = list(_segmenters())
    lines = []
    comparable = summarise(rows, {"1", "2", "3"})
    lines += ["### Pk over words (Choi's convention), sets 1-3, beside Choi's Table.txt", "",
              "| method | " + " | ".join(PUBLISHED_RANGES) + " |",
              "|---|" + "---|" * len(PUBLISHED_RANGES)]
    for m in methods:
        cells = [f"{comparable[(m, r)]['pk_words']:.3f}" for r in PUBLISHED_RANGES]
        lines.append(f"| {m} (ours) | " + " | ".join(cells) + " |")
    for m, (row, values) in PUBLISHED.items():
        lines.append(f"| {m}: Choi, Table.txt row {row} | "
                     + " | ".join(f"{v:.2f}" for v in values) + " |")
    n_files = [comparable[(methods[0], r)]["n"] for r in PUBLISHED_RANGES]
    lines.append("| files | " + " | ".join(str(n) for n in n_files) + " |")

    every = summarise(rows, {"1", "2", "3", "4"})
    present = [r for r in RANGES if (methods[0], r) in every]
    lines += ["", "### All 920 files: Pk / WindowDiff over sentences, "
              "Pk / WindowDiff over words, ms per document", "",
              "| method | " + " | ".join(present) + " |", "|---|" + "---|" * len(present)]
    for m in methods:
        cells = []
        for r in present:
            s = every[(m, r)]
            cells.append(f"{s['pk_sentences']:.3f} / {s['wd_sentences']:.3f}; "
                         f"{s['pk_words']:.3f} / {s['wd_words']:.3f}; "
                         f"{1000 * s['seconds']:.1f} ms")
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    lines.append("| files | " + " | ".join(str(every[(methods[0], r)]["n"]) for r in present)
                 + " |")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=None,
                        help="the choi_c99 folder (default: <corpora>/choi_c99)")
    parser.add_argument("--json", help="write the per-file numbers here")
    args = parser.parse_args(argv)
    root = args.data or data_dir() / "choi_c99"
    t0 = time.perf_counter()
    rows = evaluate(root)
    print(markdown(rows))
    print(f"\n{len({r['file'] for r in rows})} files, {time.perf_counter() - t0:.0f} s in all")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()
