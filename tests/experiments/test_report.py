"""The markdown report, summary and plots from hand-made records."""

from __future__ import annotations

import json
from pathlib import Path

from docnmf.experiments import (
    ProtocolResult,
    format_compact,
    format_report,
    get_table,
    write_report,
)


def fake_result(protocol, accuracies):
    records = [{"condition": "tdt2", "weighting": w, "method": m, "k": k, "run": r,
                "accuracy": a, "nmi": a - 0.1, "purity": a, "seconds": 1.0, "n_docs": 10,
                "warnings": []}
               for w in protocol.weightings for m in protocol.methods
               for k, runs in accuracies.items() for r, a in enumerate(runs)]
    params = {"data": {"n_docs": 10021, "n_classes": 56, "n_terms": 36771}, "seed": 0}
    return ProtocolResult(records, [], len(records), 12.5, params, Path("results.jsonl"))


def test_report_beside_the_paper(tmp_path):
    spec = get_table("cai2011-tdt2")
    protocol = spec.protocol(methods=["nmf-ncw"], k_values=[3, 4], runs=2,
                             weightings=["cai-global"])
    result = fake_result(protocol, {3: [1.0, 0.9], 4: [0.9, 0.9]})
    text = format_report(result, protocol, spec=spec)
    assert "Table 4" in text and "Table 5" in text and spec.paper in text
    assert "| NMF-NCW | ours | 0.950 ± 0.071 | 0.900 ± 0.000 | 0.925 |" in text
    assert "| | paper | 0.959 | 0.949 | 0.954 |" in text  # paper mean over the k run
    assert "| | ours − paper | -0.009 | -0.049 | -0.029 |" in text
    assert "| | runs | 2 | 2 | 4 |" in text
    assert "avg (k=3, 4)" in text
    assert "not run: KM, KM-NCW, AA, NC, NMF" in text
    assert "Wall time of the last invocation: 12.5 s" in text
    compact = format_compact(result, protocol, spec)
    assert "NMF-NCW" in compact and "-0.029" in compact

    paths = write_report(tmp_path, result, protocol, spec=spec)
    assert [p.name for p in paths] == ["report.md", "summary.json", "cai-global.png"]
    assert (tmp_path / "cai-global.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "![cai-global](cai-global.png)" in (tmp_path / "report.md").read_text()
    summary = json.loads((tmp_path / "summary.json").read_text())
    row = next(r for r in summary["rows"] if r["metric"] == "accuracy")
    assert row["average"] == 0.925 and row["paper_average"] == (0.959 + 0.949) / 2
    assert not list(tmp_path.glob(".*.tmp"))


def test_full_k_range_uses_the_printed_average():
    spec = get_table("xu2003-reuters")
    protocol = spec.protocol(methods=["nmf"], runs=1)
    result = fake_result(protocol, {k: [0.5] for k in range(2, 11)})
    text = format_report(result, protocol, spec=spec)
    paper = "0.824 | 0.731 | 0.655 | 0.686 | 0.650 | 0.624 | 0.618 | 0.634 | 0.634 | 0.673"
    assert f"| | paper | {paper} |" in text
    assert "| avg |" in text


def test_notes_say_which_weightings_were_run():
    spec = get_table("cai2011-reuters")
    one = spec.protocol(methods=["nmf"], k_values=[3], runs=1, weightings=["cai-global"])
    text = format_report(fake_result(one, {3: [0.5]}), one, spec=spec)
    assert ("Only the published preprocessing (cai-global) is run here (--weighting); the "
            "table's default runs Xu et al.'s per-subset tf-idf (xu-subset) as well.") in text
    assert "Both the published preprocessing" not in text
    both = spec.protocol(methods=["nmf"], k_values=[3], runs=1)
    text = format_report(fake_result(both, {3: [0.5]}), both, spec=spec)
    assert ("Both the published preprocessing (cai-global) and Xu et al.'s per-subset tf-idf "
            "(xu-subset) are run.") in text
    assert "Only the published preprocessing" not in text
    # a table without named weightings keeps its notes as written
    xu = get_table("xu2003-tdt2")
    assert xu.notes_for(["cluster"]) == xu.notes


def _xu_nmf(accuracies: dict[int, list[float]]):
    """Xu et al.'s Table 2 (k = 2..10) with NMF run at the k of ``accuracies``: the table, the
    protocol, the result and its report."""
    spec = get_table("xu2003-tdt2")
    protocol = spec.protocol(methods=["nmf"], k_values=list(accuracies), runs=1)
    result = fake_result(protocol, accuracies)
    return spec, protocol, result, format_report(result, protocol, spec=spec)


def test_a_k_the_paper_lacks_moves_neither_side_of_the_difference(tmp_path):
    # Xu et al.'s Table 2 stops at k = 10: with k = 2 and 11 run, the paper's average covers
    # k = 2 alone, so ours beside it and the difference must cover k = 2 alone too
    spec, protocol, result, text = _xu_nmf({2: [0.996], 11: [0.5]})
    assert "| | paper | 0.946 | – | 0.946 |" in text
    assert "| | ours − paper | +0.050 | – | +0.050 |" in text
    # the per-weighting table's average column too: ours there was over k = 2 and 11 (0.748)
    assert "| method | | k=2 | k=11 | avg (k=2) |" in text
    assert "| NMF | ours | 0.996 | 0.500 | 0.996 |" in text
    assert "| | runs | 1 | 1 | 1 |" in text       # the runs of that average (it said 2)
    assert "| xu-subset | NMF | 0.996 | 0.946 | +0.050 |" in text
    assert "no numbers for k = 11" in text
    compact = format_compact(result, protocol, spec)
    assert "0.996      0.946  +0.050" in compact and "-0.198" not in compact
    assert "no numbers for k = 11: averages over k = 2" in compact
    write_report(tmp_path, result, protocol, spec=spec)
    summary = json.loads((tmp_path / "summary.json").read_text())
    row = next(r for r in summary["rows"] if r["metric"] == "accuracy")
    assert row["average"] == (0.996 + 0.5) / 2
    assert row["average_compared"] == 0.996 and row["paper_average"] == 0.946


def test_k_values_all_outside_the_paper_are_averaged_over_themselves_everywhere():
    # with k = 11 and 12 (Xu's table stops at 10) the note said "both sides here average
    # nothing" and the summary showed no average, while the table below averaged them (0.700)
    spec, protocol, result, text = _xu_nmf({11: [0.6], 12: [0.8]})
    assert "no numbers for k = 11, 12: ours here average over them, beside no number" in text
    assert "| xu-subset | NMF | 0.700 | – | – |" in text
    assert "| NMF | ours | 0.600 | 0.800 | 0.700 |" in text
    assert "0.700          –       –" in format_compact(result, protocol, spec)
