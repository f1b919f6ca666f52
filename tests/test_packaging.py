"""What `pip install .` gives: the library and the command without the optional extras."""

from __future__ import annotations

import subprocess
import sys


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
