"""The self-contained HTML report of a clustering result folder (``report.html``)."""

from .folder import ReportError, read_run_folder
from .html import render_report, write_report

__all__ = ["ReportError", "read_run_folder", "render_report", "write_report"]
