"""The package's layers: which subpackages may import which, and no cycle among them."""

from __future__ import annotations

import ast
from pathlib import Path

import docnmf

ROOT = Path(docnmf.__file__).parent

#: Each part of the package and the parts it may import. Data flows one way: corpus and text
#: make matrices, factor solves, cluster and baselines wrap solvers as estimators, methods
#: names them, pipeline/experiments/summarize use them, cli sits on top.
ALLOWED = {
    "_rng": set(),
    "_version": set(),
    "_memory": set(),
    "_names": set(),
    "_catalog": set(),     # the names the command line offers, before what they name
    "_estimator": {"_rng", "constraints"},     # the warning of a result that breaks pairs
    "constraints": {"_rng", "io"},     # ids as docnmf's CSV output writes them
    "metrics": set(),
    "io": set(),
    "corpus": {"_names", "_rng", "io"},
    "text": {"_memory", "_rng", "corpus"},
    "factor": {"_rng", "_estimator", "constraints", "text"},
    "cluster": {"_memory", "_rng", "_estimator", "constraints", "factor", "text"},
    "baselines": {"_rng", "_estimator", "constraints", "factor", "text"},
    "methods": {"_catalog", "cluster", "baselines", "factor"},
    "model": {"_version", "_estimator", "io", "methods", "text"},   # warnings at the caller's line
    "diagnostics": {"_estimator", "io", "text"},     # ids escaped as the summary escapes them
    "report": {"io", "diagnostics", "text"},      # a post's own text for its snippet
    "selection": {"_rng", "_estimator", "cluster", "diagnostics", "io", "text"},
    "pipeline": {"_version", "_rng", "_estimator", "methods", "constraints", "corpus", "text",
                 "io", "metrics", "cluster", "model", "diagnostics", "report"},
    "experiments": {"_catalog", "_rng", "_estimator", "_version", "constraints", "methods",
                    "corpus", "text", "factor", "cluster", "baselines", "io", "metrics",
                    "diagnostics"},
    "summarize": {"_catalog", "_rng", "_estimator", "corpus", "text", "factor", "cluster", "io"},
    "distributed": {"_rng", "_estimator", "_version", "corpus", "text", "factor", "cluster", "io",
                    "metrics", "pipeline", "diagnostics", "model"},
    "cli": {"_catalog", "_names", "_version", "methods", "constraints", "corpus", "text",
            "pipeline", "experiments",
            "summarize", "io", "metrics", "model", "report", "selection", "distributed",
            "diagnostics"},
    "__main__": {"cli"},
    "__init__": {"_version", "_estimator", "methods", "constraints", "cluster", "baselines",
                 "corpus", "metrics", "pipeline", "text", "io", "model"},
}


def _part(path: Path) -> str:
    rel = path.relative_to(ROOT)
    return rel.parts[0] if len(rel.parts) > 1 else rel.stem


def _imported_parts(path: Path) -> set[str]:
    """The top-level parts of docnmf that ``path`` imports, at any depth of the file."""
    rel = path.relative_to(ROOT)
    here = list(rel.parts[:-1])
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - (node.level - 1)]
            target = base + [p for p in (node.module or "").split(".") if p]
            if not target:   # "from . import x": x is a part, or a name of docnmf/__init__.py
                found.update(a.name if (ROOT / a.name).is_dir() or (ROOT / f"{a.name}.py").is_file()
                             else "__init__" for a in node.names)
            else:
                found.add(target[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("docnmf."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names
                         if a.name.startswith("docnmf."))
    return found - {_part(path)}


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        graph.setdefault(_part(path), set()).update(_imported_parts(path))
    return graph


def test_every_part_is_placed():
    assert set(import_graph()) <= set(ALLOWED), "a new part of the package needs a layer"


def test_parts_import_only_what_lies_below_them():
    wrong = {part: sorted(targets - ALLOWED[part])
             for part, targets in import_graph().items() if targets - ALLOWED[part]}
    assert not wrong


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a list of nodes (first == last), or None."""
    state: dict[str, int] = {}

    def visit(node, trail):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt]
            if nxt not in state:
                found = visit(nxt, trail + [nxt])
                if found:
                    return found
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return None


def test_no_import_cycle_between_parts():
    assert find_cycle(import_graph()) is None


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"cluster": {"baselines"}, "baselines": {"cluster"}}) == \
        ["baselines", "cluster", "baselines"]
