"""Lines repeated across many documents: a site's menus and cookie banner, a mail disclaimer
or signature, a running header. Their words can make clusters, and their sentences summaries.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

__all__ = ["BOILERPLATE_MIN_DOCUMENTS", "BOILERPLATE_SAMPLE", "BOILERPLATE_SHARE",
           "BOILERPLATE_WORDS", "MENU_LINES", "MENU_RUNS", "MENU_WORDS", "evenly_spaced",
           "normalized", "repeated_lines"]

#: A line of at least this many words, in at least ``BOILERPLATE_SHARE`` of the documents
#: (and ``BOILERPLATE_MIN_DOCUMENTS``), is boilerplate. Their words made the clusters of saved
#: pages (3 sites' templates, accuracy 0.39), of mail (2 disclaimers, 0.34) and of tickets
#: with logs (0.50), where a --max-df below their share gave 0.68, 1.00 and 0.99.
BOILERPLATE_WORDS, BOILERPLATE_SHARE, BOILERPLATE_MIN_DOCUMENTS = 5, 0.1, 5
#: ... and so are this many consecutive lines of at most ``MENU_WORDS`` words (blank ones
#: between them aside), read as one: a menu's items, which a web page's text has one a line
#: ("Home", "Markets", "Log in"...). No four such lines recur in 10% of Reuters-21578, 20
#: Newsgroups (whole, its four groups, each newsgroup), DUC 2004 or Classic4 (each class
#: too). At most ``MENU_RUNS`` runs a document are read: 5,000 files of 1,500 short lines each
#: (code, logs) took 8 s and 1.2 GB.
MENU_LINES, MENU_WORDS, MENU_RUNS = 4, 3, 200
#: Documents read (evenly spaced through the collection when there are more), each to its
#: first ``PER_TEXT`` characters.
BOILERPLATE_SAMPLE, PER_TEXT = 5_000, 20_000


#: A post's subject is its thread's, repeated by every reply: the topic, not boilerplate
#: (20 posts of one thread were "55% boilerplate", and the --max-df named dropped the topic).
_THREAD = ("subject:", "re:")


def evenly_spaced(n: int, at_most: int) -> range:
    """Indices of at most about ``at_most`` of ``n`` documents, evenly spaced through them
    (all of them when there are no more).

    Examples
    --------
    >>> list(evenly_spaced(10, 4)), len(evenly_spaced(3, 5))
    ([0, 3, 6, 9], 3)
    """
    return range(0, n, max(1, -(-n // at_most)))


def normalized(line: str) -> str:
    """A line as lines are compared: lower case, white space collapsed."""
    return " ".join(line.split()).lower()


def _lines_and_menus(text: str) -> set[str]:
    r"""The lines of ``text`` that may be boilerplate (:func:`normalized`): those of
    ``BOILERPLATE_WORDS`` words or more, and each ``MENU_LINES`` consecutive ones of at most
    ``MENU_WORDS`` words joined by " | " (the first ``MENU_RUNS`` of them).

    Examples
    --------
    >>> for line in sorted(_lines_and_menus("Home\n\nMarkets\nSport\n\nWeather\nJobs\n\n"
    ...                                     "The bank raised its rates today.")):
    ...     print(line)
    home | markets | sport | weather
    markets | sport | weather | jobs
    the bank raised its rates today.
    """
    found, run, runs = set(), [], 0
    for line in map(normalized, text.splitlines()):
        if not line:
            continue
        words = len(line.split())
        if line.startswith(_THREAD) or MENU_WORDS < words < BOILERPLATE_WORDS:
            run = []
        elif words >= BOILERPLATE_WORDS:
            found.add(line)
            run = []
        elif runs < MENU_RUNS:
            run.append(line)
            if len(run) >= MENU_LINES:
                found.add(" | ".join(run[-MENU_LINES:]))
                runs += 1
    return found


def repeated_lines(texts: Sequence[str], max_share: float = 1.0,
                   n_documents: int | None = None) -> tuple[dict[str, int], int]:
    r"""The lines (:func:`normalized`) of ``BOILERPLATE_WORDS`` words or more, and the runs of
    ``MENU_LINES`` shorter ones (joined by " | "), found in
    ``BOILERPLATE_SHARE`` of the documents read or more, and in ``BOILERPLATE_MIN_DOCUMENTS``,
    but in no more than ``max_share`` of them (a fraction, or a count of the collection's
    documents, ``n_documents`` when ``texts`` are a sample of them), each with the number of
    documents holding it; and how many different documents were read.

    Examples
    --------
    >>> notice = "This message and its attachments are confidential and for the addressee only"
    >>> texts = [f"Topic {i} words here\n{notice if i % 2 else ''}" for i in range(40)]
    >>> repeated_lines(texts)
    ({'this message and its attachments are confidential and for the addressee only': 20}, 40)

    A count is the collection's: of 10,000 documents, 3,000 with the notice, 5,000 are read,
    1,500 with it; ``max_share=2000`` drops the words of lines in over 20% of the documents,
    and so the notice's.

    >>> texts = [f"Topic {i} words here\n{notice if i % 10 < 3 else ''}" for i in range(10_000)]
    >>> repeated_lines(texts, 2000)[0], len(repeated_lines(texts, 4000)[0])
    ({}, 1)

    A sample of a collection (as the Dask path reads) scales by the collection's size.

    >>> repeated_lines(texts[::2], 2000, n_documents=10_000)[0]
    {}
    """
    # each text once: copies of one document repeat all its lines, and are said to be copies
    docs = list(dict.fromkeys(texts[i] for i in evenly_spaced(len(texts), BOILERPLATE_SAMPLE)))
    n = len(docs)
    if n < BOILERPLATE_MIN_DOCUMENTS:
        return {}, n
    counts: dict[str, int] = defaultdict(int)
    for text in docs:
        for line in _lines_and_menus(text[:PER_TEXT]):
            counts[line] += 1
    # a count of documents is one of the collection's: scaled to those read (5,000 of 10,000
    # read, --max-df 2000 kept lines in up to 2,000 of them, 40% where it keeps 20%)
    top = n * (max_share if isinstance(max_share, float)
               else int(max_share) / (n_documents or len(texts)))
    low = max(BOILERPLATE_MIN_DOCUMENTS, BOILERPLATE_SHARE * n)
    return {line: c for line, c in counts.items() if low <= c <= top}, n
