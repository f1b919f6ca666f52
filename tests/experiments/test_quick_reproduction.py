"""A reduced reproduction of Cai et al. (2011), Table 4, small enough for CI.

NMF and NMF-NCW on TDT2 with the published preprocessing (cai-global),
k = 2..6, 20 runs per k and 3 restarts instead of k = 2..10, 50 runs and 10
restarts. With 20 runs the standard error of the averaged accuracy is about
0.015, so the 0.05 tolerance is three standard errors. The full
table is ``docnmf reproduce cai2011-tdt2``.
"""

from __future__ import annotations

import pytest

from docnmf.experiments import aggregate, get_table, run_protocol

K_VALUES = (2, 3, 4, 5, 6)
RUNS = 20


@pytest.mark.datasets
@pytest.mark.slow
def test_cai2011_tdt2_nmf_accuracy_matches_the_paper(datasets_dir, tmp_path):
    spec = get_table("cai2011-tdt2")
    methods = ["nmf", "nmf-ncw"]
    protocol = spec.protocol(methods=methods, k_values=K_VALUES, runs=RUNS, restarts=3,
                             weightings=["cai-global"])
    result = run_protocol(protocol, tmp_path / "results.jsonl", jobs=2, data_home=datasets_dir)
    assert len(result.records) == len(K_VALUES) * RUNS * len(methods)
    assert result.params["data"]["n_docs"] == 10021 and result.params["data"]["n_classes"] == 56

    table = aggregate(result.records)
    for method in methods:
        row = table[("cai-global", method, "accuracy")]
        assert [row.per_k[k].n for k in K_VALUES] == [RUNS] * len(K_VALUES)
        paper = spec.average("accuracy", method, K_VALUES)  # NMF 0.766, NMF-NCW 0.937
        assert abs(row.average - paper) <= 0.05, (method, row.average, paper)
