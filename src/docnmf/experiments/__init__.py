"""The papers' evaluation protocol as library code, their tables as data, and reports.

Typical use::

    from docnmf.experiments import get_table, run_protocol, write_report
    spec = get_table("cai2011-tdt2")
    protocol = spec.protocol(runs=5, methods=["nmf", "nmf-ncw"])
    result = run_protocol(protocol, "out/results.jsonl")
    write_report("out", result, protocol, spec=spec)

Modules: :mod:`.conditions` (corpus and weighting of a test run),
:mod:`.protocol` (the resumable runner), :mod:`.results` (the results
file), :mod:`.aggregate` (means over runs), :mod:`.tables` (published
numbers), :mod:`.report` (markdown and plots).
"""

from .aggregate import CellStats, MetricRow, aggregate, average_over_k
from .conditions import WEIGHTINGS, DataCondition, PreparedData, ProtocolError, prepare_data
from .protocol import Protocol, ProtocolResult, Task, choose_classes, method_seed, run_protocol
from .report import format_compact, format_report, write_report
from .tables import TABLES, PublishedRow, TableSpec, get_table

__all__ = [
    "DataCondition", "PreparedData", "ProtocolError", "WEIGHTINGS", "prepare_data",
    "Protocol", "ProtocolResult", "Task", "choose_classes", "method_seed", "run_protocol",
    "CellStats", "MetricRow", "aggregate", "average_over_k",
    "TABLES", "TableSpec", "PublishedRow", "get_table",
    "write_report", "format_report", "format_compact",
]
