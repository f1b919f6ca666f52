"""The summaries' sentence pool: what it leaves out of the documents' sentences."""

from __future__ import annotations

from docnmf.summarize.matrices import build_pool


def test_lines_repeated_across_documents_leave_only_their_sentences_out():
    """A cookie banner and a running header were summary sentences; a headline repeated by
    recurring reports and run into their first sentence took the lead with it."""
    banner = "We use cookies to improve your experience on this site."
    header = "Quarterly Market Review | Internal Working Paper"
    headline = "JAPANESE CRUSHERS BUY CANADIAN RAPESEED"
    documents = [f"{headline}\nJapanese crushers bought {1000 + i} tonnes of rapeseed for "
                 f"shipment in month {i}, trade sources said.\n"
                 f"Page 1 of 2 {header}\n{banner}\nPrices were steady at {i} dollars."
                 for i in range(6)]
    sentences = build_pool(documents).sentences
    assert not any("cookies" in s or "Working Paper" in s for s in sentences)
    leads = [s for s in sentences if s.startswith(headline)]
    assert len(leads) == 6 and len(sentences) == 12
