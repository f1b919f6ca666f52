"""Atomic result files."""

import os
import stat

import numpy as np
import pytest

from docnmf.io import atomic_write_text, write_csv, write_json


def test_atomic_write_replaces_whole_file_with_normal_permissions(tmp_path):
    path = tmp_path / "sub" / "a.txt"
    atomic_write_text(path, "old")
    atomic_write_text(path, "new")
    assert path.read_text() == "new"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
    assert [p.name for p in path.parent.iterdir()] == ["a.txt"]


def test_failed_write_leaves_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "r.json"
    write_json(path, {"a": 1})
    with pytest.raises(TypeError):
        write_json(path, {"a": object()})
    assert path.read_text().strip().startswith("{") and '"a": 1' in path.read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_json_and_csv_handle_numpy(tmp_path):
    write_json(tmp_path / "x.json", {"v": np.float64(0.5), "a": np.arange(2), "n": float("nan")})
    assert (tmp_path / "x.json").read_text().split() == ["{", '"v":', "0.5,", '"a":', "[", "0,",
                                                        "1", "],", '"n":', "null", "}"]
    write_csv(tmp_path / "x.csv", ["a", "b"], [[1, "x,y"]])
    assert (tmp_path / "x.csv").read_text() == 'a,b\n1,"x,y"\n'
