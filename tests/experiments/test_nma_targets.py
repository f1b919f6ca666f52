"""The NMA paper's targets: published numbers, subsets, each target end to end on tiny settings."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from docnmf.cli import main
from docnmf.experiments import nma_targets as nt
from docnmf.experiments.targets import TargetOptions, all_targets

NAMES = ("wang2011-tables3-5", "wang2011-table2-fig7-10", "wang2011-fig3-6", "wang2011-fig2")
TINY = TargetOptions(runs=1, restarts=1, seed=0)


def test_published_numbers_as_printed():
    assert nt.PAPER_TABLES["Newsgroup"]["nma"] == {2: 88.97, 3: 82.14, 4: 77.79, 5: 69.72}
    assert nt.PAPER_TABLES["Reuters"]["kmeans"][4] == 75.96
    assert nt.PAPER_TABLES["Classic"]["lda"] == {2: 97.78, 3: 97.57}
    assert set(nt.PAPER_TABLES["Classic"]["plsi"]) == {2, 3}
    assert nt.PAPER_TABLE2["Newsgroup"][3] == 52.71 and 4 not in nt.PAPER_TABLE2["Classic"]


def test_targets_registered_and_listed(capsys):
    assert set(NAMES) <= set(all_targets())
    main(["reproduce", "--list"])
    listed = capsys.readouterr().out
    for name in NAMES:
        assert name in listed


def test_subset_is_seeded_and_has_k_classes():
    data = nt.NMACorpus("toy", tuple(f"doc {i}" for i in range(40)), np.repeat(np.arange(8), 5),
                        tuple("abcdefgh"))
    a = nt.draw_subset(data, 3, 1, 7)
    b = nt.draw_subset(data, 3, 1, 7)
    assert a[0] == b[0] and a[2] == b[2]
    assert sorted(set(a[1].tolist())) == [0, 1, 2] and len(a[0]) == 15
    assert len(nt.draw_subset(data, 3, 1, 7, max_per_class=2)[0]) == 6


def test_fig2_end_to_end(tmp_path):
    report = nt.run_fig2(tmp_path, TargetOptions(runs=3, seed=0), size=12, l_sum=12,
                         max_iter=10)
    text = report.read_text()
    assert "l1 ≈ l2" in text and "500 matrices" in text
    results = json.loads((tmp_path / "results.json").read_text())
    assert len(results["points"]) == 11 and all(p["sre"] > 0 for p in results["points"])
    assert (tmp_path / "fig2.png").exists()


def _tiny_classic(datasets_dir):
    if "Classic" not in nt.available_datasets(datasets_dir):
        msg = f"classic4_smart not found in {datasets_dir}"
        if os.environ.get("CI"):
            pytest.fail(msg + "; CI must have the corpora")
        pytest.skip(msg)
    return {"datasets": ["Classic"], "data_home": datasets_dir, "max_per_class": 8}


def test_tables_end_to_end(tmp_path, datasets_dir):
    report = nt.run_tables(tmp_path, TINY, ks=(2,), **_tiny_classic(datasets_dir))
    text = report.read_text()
    for value in ("88.97", "94.47", "98.36", "96.45", "76.71"):  # published, every table
        assert value in text
    runs = json.loads((tmp_path / "results.json").read_text())["runs"]
    assert {r["method"] for r in runs} == set(nt.METHODS)
    assert all(0.5 <= r["accuracy"] <= 1.0 for r in runs)
    assert {r["segmenter"] for r in runs if r["method"].startswith("nma")} == {"sentences", "c99"}
    assert len((tmp_path / "results.jsonl").read_text().splitlines()) == 1 + len(runs)
    assert "NMA (C99)" in text and "ms per document" in text
    assert (tmp_path / "tables3-5.png").exists()


def test_segments_end_to_end(tmp_path, datasets_dir):
    report = nt.run_segments(tmp_path, TINY, ks=(2,), segments=(1, 2),
                             **_tiny_classic(datasets_dir))
    text = report.read_text()
    assert "22.85" in text and "11.74" in text and "66%" in text
    runs = json.loads((tmp_path / "results.json").read_text())["runs"]
    assert sorted(r["n_segments"] for r in runs) == [1, 2]
    assert (tmp_path / "fig7-10.png").exists()


def test_topics_end_to_end(tmp_path, datasets_dir):
    report = nt.run_topics(tmp_path, TINY, ks=(2,), n_segments=2, **_tiny_classic(datasets_dir))
    text = report.read_text()
    assert "17.7" in text and "22.00" in text
    runs = json.loads((tmp_path / "results.json").read_text())["runs"]
    assert sorted(r["n_topics"] for r in runs) == list(range(2, 10))
    assert (tmp_path / "fig3-6.png").exists()
