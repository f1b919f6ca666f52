"""Benchmark scripts that take a folder print their usage for --help instead of reading a folder
called '--help'."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.parametrize("script", ["suite_ssnmf_curves.py", "choose_k_rules.py"])
def test_help_prints_usage(script, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(sys, "path", list(sys.path))   # choose_k_rules puts benchmarks/ on it
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [script, "--help"])
    with pytest.raises(SystemExit) as stop:
        runpy.run_path(str(BENCHMARKS / script), run_name="__main__")
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: {script}") and "folder" in out
    assert not (tmp_path / "--help").exists()


def test_curves_without_a_folder_is_a_usage_error(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["suite_ssnmf_curves.py"])
    with pytest.raises(SystemExit) as stop:
        runpy.run_path(str(BENCHMARKS / "suite_ssnmf_curves.py"), run_name="__main__")
    assert stop.value.code == 2
    assert "required: folder" in capsys.readouterr().err
