"""A reduced reproduction of Cai et al. (2011), Table 4, small enough for CI.

NMF-NCW on TDT2 with the published preprocessing (cai-global), k = 2..4,
5 runs per k and 3 restarts instead of 50 runs and 10 restarts. The full
table is ``docnmf reproduce cai2011-tdt2``.
"""

from __future__ import annotations

import pytest

from docnmf.experiments import aggregate, get_table, run_protocol

K_VALUES = (2, 3, 4)


@pytest.mark.datasets
def test_cai2011_tdt2_nmf_ncw_accuracy_matches_the_paper(datasets_dir, tmp_path):
    spec = get_table("cai2011-tdt2")
    protocol = spec.protocol(methods=["nmf-ncw"], k_values=K_VALUES, runs=5, restarts=3,
                             weightings=["cai-global"])
    result = run_protocol(protocol, tmp_path / "results.jsonl", jobs=2, data_home=datasets_dir)
    assert len(result.records) == len(K_VALUES) * 5
    assert result.params["data"]["n_docs"] == 10021 and result.params["data"]["n_classes"] == 56

    row = aggregate(result.records)[("cai-global", "nmf-ncw", "accuracy")]
    assert [row.per_k[k].n for k in K_VALUES] == [5, 5, 5]
    paper = spec.average("accuracy", "nmf-ncw", K_VALUES)  # 0.964 over k = 2..4
    assert abs(row.average - paper) <= 0.05, (row.average, paper)
