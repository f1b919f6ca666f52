"""What `pip install .` gives: the library and the command without the optional extras."""

from __future__ import annotations

import subprocess
import sys

import pytest


def test_every_module_but_the_dask_path_imports_without_the_extras(docnmf_env):
    """Nothing a base install runs imports matplotlib (the plot extra), Dask or pandas at import
    time; docnmf.distributed refuses with the extra to install."""
    code = """if True:
        import importlib, pkgutil, sys
        for name in ("matplotlib", "dask", "distributed", "pandas"):
            sys.modules[name] = None                    # as where it is not installed
        import docnmf
        for info in pkgutil.walk_packages(docnmf.__path__, "docnmf."):
            if info.name == "docnmf.distributed" or info.name.startswith("docnmf.distributed."):
                continue
            importlib.import_module(info.name)
        for name in dir(docnmf):
            getattr(docnmf, name)
        try:
            import docnmf.distributed
        except ImportError as exc:
            assert "pip install 'docnmf[dask]'" in str(exc), exc
        else:
            raise AssertionError("docnmf.distributed imported without Dask")
        print("ok")
    """
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=docnmf_env, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_the_test_extra_brings_the_extras_the_suite_checks():
    """The tests check the figures (choose_k.png, the reproduction's plots) and run Dask on a
    LocalCluster: `pip install '.[test]'` then brought Dask but not matplotlib, and those
    figure tests failed instead of running."""
    from pathlib import Path

    tomllib = pytest.importorskip("tomllib")
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    if not pyproject.is_file():
        pytest.skip("not run from a source checkout")
    extras = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    assert {"docnmf[dask]", "docnmf[plot]"} <= set(extras["test"])


@pytest.mark.parametrize("command", ["choose-k", "reproduce", "benchmark", "evaluate"])
def test_the_help_of_a_command_that_draws_names_the_plot_extra(command, capsys):
    """Their --help promised plots that a base install leaves out (with a warning naming the
    extra), without a word of the extra."""
    from docnmf.cli import main

    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "pip install 'docnmf[plot]'" in " ".join(capsys.readouterr().out.split())
