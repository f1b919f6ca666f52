"""Gather the fits of several ``docnmf benchmark`` results files into one, for one report.

Files must share the header (suite and seed): their fits are then what one
resumed run would have computed. The fits of ``--replace`` files win over
the others (used to put fits recomputed after a solver change in place of the
earlier ones); otherwise the first file holding a fit keeps it. Writes the
target file and, with ``--report``, ``report.md`` / ``summary.json`` /
``accuracy.png`` beside it.

Usage::

    python benchmarks/suite_merge_results.py -o reports/benchmark-suite/results.jsonl \\
        reports/benchmark-suite/results.jsonl reports/benchmark-suite/lccf/results.jsonl \\
        --replace reports/benchmark-suite/nmf-merged/results.jsonl --report
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from docnmf.experiments.benchmark import suite_key
from docnmf.experiments.benchmark_report import write_benchmark_report
from docnmf.io import atomic_write_text


def _read(path: Path) -> tuple[str, list[dict]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return lines[0], [json.loads(line) for line in lines[1:] if line.strip()]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--replace", nargs="*", type=Path, default=[])
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=None, help="keep runs below this only")
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--title", default="Evaluation suite")
    parser.add_argument("--preamble", default="")
    args = parser.parse_args(argv)
    header, fits = None, {}
    replaced = {}
    for path in args.replace:
        head, records = _read(path)
        header = header or head
        if head != header:
            raise SystemExit(f"{path} has another header: {head}")
        replaced.update((suite_key(r), r) for r in records)
    for path in args.files:
        head, records = _read(path)
        header = header or head
        if head != header:
            raise SystemExit(f"{path} has another header: {head}")
        for r in records:
            fits.setdefault(suite_key(r), r)
    fits.update(replaced)
    records = [r for k, r in sorted(fits.items()) if args.runs is None or k[2] < args.runs]
    atomic_write_text(args.output, "\n".join([header] + [json.dumps(r, sort_keys=True)
                                                         for r in records]) + "\n")
    print(f"{args.output}: {len(records)} fits", file=sys.stderr)
    if args.report:
        write_benchmark_report(args.output.parent, records, title=args.title,
                               preamble=args.preamble)
    return 0


if __name__ == "__main__":
    sys.exit(main())
