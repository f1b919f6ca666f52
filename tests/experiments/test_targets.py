"""Reproduction targets other than k-class tables plug into ``docnmf reproduce``."""

from pathlib import Path

import pytest

from docnmf.cli import main
from docnmf.experiments import targets as targets_module
from docnmf.experiments.targets import Target, register_target


@pytest.fixture
def clean_targets(monkeypatch):
    monkeypatch.setattr(targets_module, "TARGETS", {})
    return targets_module


def test_registered_target_is_listed_and_run(clean_targets, tmp_path, capsys):
    seen = {}

    def run(outdir: Path, options):
        seen["options"] = options
        outdir.mkdir(parents=True, exist_ok=True)
        (outdir / "report.md").write_text("# done\n")
        return outdir / "report.md"

    register_target(Target("toy-fig1", "A toy figure", "Nobody 2024", lambda: True, run, "none"))
    with pytest.raises(ValueError, match="already registered"):
        register_target(Target("toy-fig1", "again", "", lambda: True, run))
    assert main(["reproduce", "--list"]) == 0
    assert "toy-fig1" in capsys.readouterr().out
    assert main(["reproduce", "toy-fig1", "--runs", "3", "-o", str(tmp_path / "t")]) == 0
    assert seen["options"].runs == 3 and seen["options"].seed is None
    assert (tmp_path / "t" / "report.md").read_text() == "# done\n"


def test_target_without_data_is_a_clear_error(clean_targets, tmp_path, capsys):
    register_target(Target("toy-missing", "needs data", "", lambda: False,
                           lambda o, p: o, "somewhere/"))
    assert main(["reproduce", "toy-missing", "-o", str(tmp_path)]) == 2
    assert "not found" in capsys.readouterr().err
