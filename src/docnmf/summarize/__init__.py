"""Extractive multi-document summarization (FS-NMF and baselines) and ROUGE evaluation.

Typical use::

    from docnmf.summarize import summarize_texts, Rouge
    summary = summarize_texts(documents, length="665b", method="fsnmf")
    scores = Rouge(["1", "2", "L", "W-1.2", "SU4"], stem=True, length="665b").score(
        summary, reference_summaries)
"""

from .api import METHODS, keywords_report, summarize_documents, summarize_texts
from .assemble import assemble_summary, summary_size
from .duc import DUCTopic, read_duc2004, read_duc2004_peers
from .rouge import Rouge, RougeScore, average_scores, parse_length
from .matrices import split_news_sentences as split_sentences

__all__ = [
    "METHODS",
    "DUCTopic",
    "Rouge",
    "RougeScore",
    "assemble_summary",
    "average_scores",
    "keywords_report",
    "parse_length",
    "read_duc2004",
    "read_duc2004_peers",
    "split_sentences",
    "summarize_documents",
    "summarize_texts",
    "summary_size",
]
