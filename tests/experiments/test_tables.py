"""The published tables: shape, averages, coverage, and agreement with the paper texts."""

from __future__ import annotations

import math
import re

import pytest

from docnmf.corpus import list_datasets
from docnmf.corpus._paths import data_dir
from docnmf.experiments import TABLES, get_table

# A printed "Avg." that is not the mean of the nine printed values (within rounding) would be
# kept as printed and listed here as (table, metric, method). All rows currently agree.
AVERAGE_EXCEPTIONS: set[tuple[str, str, str]] = set()

ROWS = [(spec.name, row) for spec in TABLES.values() for row in spec.published]


def test_table_names():
    assert list(TABLES) == ["xu2003-tdt2", "xu2003-reuters", "cai2011-tdt2", "cai2011-reuters"]
    with pytest.raises(KeyError, match="unknown table"):
        get_table("nope")


@pytest.mark.parametrize("name, row", ROWS, ids=[f"{n}-{r.metric}-{r.method}" for n, r in ROWS])
def test_every_row_has_nine_values_and_its_average(name, row):
    assert len(row.values) == 10
    assert all(0 < v < 1 for v in row.values)
    mean = sum(row.values[:9]) / 9
    if (name, row.metric, row.method) in AVERAGE_EXCEPTIONS:
        assert abs(mean - row.average) > 0.002
    else:
        assert abs(mean - row.average) <= 0.002, (name, row.metric, row.method, mean)


@pytest.mark.parametrize("name", list(TABLES))
def test_specs_cover_every_method_and_metric(name):
    spec = TABLES[name]
    plain = ["km", "km-ncw", "aa", "nc", "nmf", "nmf-ncw", "cf-paper", "cf-ncw-paper",
             "lccf-paper", "lccf-ncw-paper"]
    kernel = ["km-poly2", "km-ncw-poly2", "aa-poly2", "nc-poly2", "cf-poly2", "cf-ncw-poly2",
              "lccf-poly2", "lccf-ncw-poly2"]
    expected = {"xu2003": ["aa", "nc", "nmf", "nmf-ncw"],
                "cai2011": plain + kernel}[name.split("-")[0]]
    assert sorted(spec.methods) == sorted(expected)
    assert set(spec.metrics) == {"accuracy", "nmi"}
    for metric in spec.metrics:
        for method in spec.methods:
            assert spec.row(metric, method) is not None
    assert spec.k_values == tuple(range(2, 11)) and spec.runs == 50 and spec.restarts == 10
    assert spec.condition.source in {info.name for info in list_datasets()}
    assert spec.notes and spec.class_filter


def test_spot_values_and_partial_averages():
    cai = get_table("cai2011-tdt2")
    assert cai.value("accuracy", "nmf-ncw", 2) == 0.984
    assert cai.value("nmi", "km", 10) == 0.622
    assert cai.average("accuracy", "nmf") == 0.701
    partial = cai.average("accuracy", "nmf-ncw", [2, 3, 4])
    assert partial == pytest.approx((0.984 + 0.959 + 0.949) / 3)
    assert cai.weightings == ("cai-global", "xu-subset")
    xu = get_table("xu2003-reuters")
    assert xu.value("nmi", "aa", 2) == 0.399 and xu.value("accuracy", "nmf-ncw", 10) == 0.677
    assert xu.average("nmi", "nmf-ncw") == 0.608
    assert xu.weightings == ("xu-subset",)
    assert get_table("xu2003-tdt2").value("accuracy", "nc", 5) == 0.857
    assert get_table("cai2011-reuters").value("nmi", "nc", 5) == 0.500


def test_protocol_defaults_and_overrides():
    spec = get_table("cai2011-tdt2")
    p = spec.protocol(methods=["nmf"], runs=3, k_values=[2, 3])
    assert p.methods == ("nmf",) and p.runs == 3 and p.k_values == (2, 3)
    assert p.restarts == 10 and p.seed == 0 and p.weightings == spec.weightings
    assert set(spec.protocol().methods) <= set(spec.methods)
    # 0 is a number, refused when the protocol runs; it became the table's 50 runs silently
    assert spec.protocol(runs=0).runs == 0 and spec.protocol(restarts=0).restarts == 0
    assert spec.protocol(runs=None).runs == spec.runs


# -- cross-check against the paper texts, when they are at hand ---------------------------------

PAPERS = data_dir().parent / "papers"


def _paper(name):
    path = PAPERS / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("table, label, metric", [
    ("cai2011-tdt2", "TABLE 4", "accuracy"), ("cai2011-tdt2", "TABLE 5", "nmi"),
    ("cai2011-reuters", "TABLE 6", "accuracy"), ("cai2011-reuters", "TABLE 7", "nmi"),
])
def test_cai2011_rows_match_the_paper_text(table, label, metric):
    text = _paper("cai2011_lccf.md")
    block = text[text.index(label):].split("following are")[0]
    printed = {}
    for line in block.splitlines():
        cells = line.split("\t")
        if len(cells) == 11 and cells[0] != "k" and cells[0].lower() not in printed:
            printed[cells[0].lower()] = tuple(float(c) for c in cells[1:])
    spec = get_table(table)
    # the plain rows (printed before "following are ..."); kernelized rows: test_lccf_tables.py
    for method in (m for m in spec.methods if not m.endswith("-poly2")):
        assert spec.row(metric, method).values == printed[method.removesuffix("-paper")], method


@pytest.mark.parametrize("table, label", [("xu2003-tdt2", "Table 2: Performance"),
                                          ("xu2003-reuters", "Table 3: Performance")])
def test_xu2003_rows_match_the_paper_text(table, label):
    text = _paper("xu2003_nmf_document_clustering.md")
    lines = []
    for line in text[text.index(label):].splitlines():
        cells = line.split("\t")
        if re.fullmatch(r"\d+|average", cells[0]):
            lines.append([float(c) for c in cells[1:]])
            if cells[0] == "average":
                break
    columns = [("nmi", m) for m in ("aa", "nc", "nmf", "nmf-ncw")] + \
              [("accuracy", m) for m in ("aa", "nc", "nmf", "nmf-ncw")]
    spec = get_table(table)
    for j, (metric, method) in enumerate(columns):
        assert spec.row(metric, method).values == tuple(line[j] for line in lines)
    assert not any(math.isnan(v) for row in spec.published for v in row.values)
