"""The command's quick answers load no numerical library: ``--version``, ``--help``, a usage
mistake and ``datasets`` built a parser that imported docnmf.methods and with it scikit-learn
(and pandas, pyarrow where installed), 2-3 s of CPU before a line was printed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: The libraries none of the quick answers needs.
HEAVY = ("sklearn", "pandas", "pyarrow", "matplotlib", "dask")


def _loaded_after(code: str) -> list[str]:
    """The libraries of HEAVY loaded once ``code`` has run, in a fresh interpreter."""
    shown = f"sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})"
    script = f"import sys\n{code}\nprint('LOADED', *{shown})"
    env = {**os.environ, "DOCNMF_DATA": os.environ.get("DOCNMF_DATA", os.devnull)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=env, timeout=120, check=True).stdout
    return out.splitlines()[-1].split()[1:]


def test_building_the_parser_loads_no_numerical_library():
    assert _loaded_after("from docnmf.cli import build_parser; build_parser()") == []


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["cluster", "--help"],
                                  ["summarize", "--help"], ["benchmark", "--help"],
                                  ["cluster", "x", "-k", "abc"], ["cluster", "x", "-k", "3",
                                                                  "--method", "nfm"],
                                  ["datasets"]])
def test_quick_answers_load_no_numerical_library(argv):
    code = ("from docnmf.cli import main\n"
            f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass")
    assert _loaded_after(code) == []


def test_no_memory_for_the_libraries_is_said_as_at_start_up():
    """The libraries the parser no longer loads are loaded before the command's own handler of
    MemoryError, which advised fewer documents for a memory limit too small to import them."""
    code = ("import sys\n"
            "class NoMemory:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'sklearn':\n"
            "            raise MemoryError\n"
            "sys.meta_path.insert(0, NoMemory())\n"
            "from docnmf.cli import main\n"
            "sys.exit(main(['cluster', 'x', '-k', '2']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    said = ("docnmf: error: not enough memory to start the command; raise the memory limit "
            "(ulimit -v)\n")
    assert (done.returncode, done.stderr) == (2, said)

