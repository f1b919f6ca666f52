"""Turn a sentence ranking into a summary under a length limit, without near-duplicates.

The summary is the chosen sentences, one per line, in ranking order. Its size
is measured on that exact output: UTF-8 bytes *including* the newlines for a
byte limit (``"665b"``), whitespace-separated words for a word limit
(``"100w"``). The limit is never exceeded.

Two policies for the sentence that does not fit:

``"truncate"`` (default)
    Cut it at the last word boundary that fits (within its first word when that
    alone is longer than the room left) and stop, so the summary fills the limit
    as DUC's evaluation does when it cuts every submission at 665 bytes
    (``ROUGE -b 665``); the last line may be an incomplete sentence, or word.
``"skip"``
    Leave it out and try the next ranked sentences; every line is a whole
    sentence, and the summary may stay shorter than the limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import scipy.sparse as sp

from .rouge import parse_length

__all__ = ["LengthPolicy", "assemble_summary", "summary_size"]

LengthPolicy = Literal["truncate", "skip"]


def summary_size(lines: Sequence[str], length: str) -> int:
    """Size of the summary ``"\\n".join(lines)`` in the unit of ``length`` (bytes or words).

    Examples
    --------
    >>> summary_size(["ab c", "d"], "10b"), summary_size(["ab c", "d"], "10w")
    (6, 3)
    """
    words, _ = parse_length(length)
    text = "\n".join(lines)
    return len(text.split()) if words else len(text.encode("utf-8"))


def _truncate(sentence: str, room: int, by_words: bool) -> str:
    if by_words:
        return " ".join(sentence.split()[:room])
    raw = sentence.encode("utf-8")
    if len(raw) <= room:
        return sentence
    cut = raw[:room].decode("utf-8", errors="ignore")
    # keep whole words: drop the partial word at the end (if any word boundary exists)
    if not raw[room:room + 1].isspace() and " " in cut:
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip()


def assemble_summary(ranking: Sequence[int], sentences: Sequence[str], length: str, *,
                     vectors=None, max_similarity: float = 0.5,
                     policy: LengthPolicy = "truncate") -> list[str]:
    """Pick sentences in ``ranking`` order until ``length`` is reached.

    Parameters
    ----------
    ranking : sequence of int
        Sentence indices, best first.
    sentences : sequence of str
    length : str
        ``"665b"`` (bytes) or ``"100w"`` (words).
    vectors : {ndarray, sparse matrix} of shape (n_sentences, n_terms), optional
        Unit-length sentence vectors; a sentence whose cosine with an already
        chosen one exceeds ``max_similarity`` is skipped as a near-duplicate.
        Texts identical up to case and spacing are always skipped.
    max_similarity : float
    policy : {"truncate", "skip"}
        What to do with the first sentence that does not fit (module docstring).

    Returns
    -------
    list of str
        The summary's lines; ``"\\n".join`` of them is within the limit.

    Examples
    --------
    >>> s = ["aaa bbb ccc", "aaa bbb ccc", "dd ee", "ff gg hh ii"]
    >>> assemble_summary([0, 1, 2, 3], s, "8w")
    ['aaa bbb ccc', 'dd ee', 'ff gg hh']
    >>> assemble_summary([0, 3, 2], s, "18b", policy="skip")
    ['aaa bbb ccc', 'dd ee']
    """
    if policy not in ("truncate", "skip"):
        raise ValueError(f"policy must be 'truncate' or 'skip', got {policy!r}")
    words, nbytes = parse_length(length)
    by_words = bool(words)
    limit = words or nbytes
    if vectors is not None and sp.issparse(vectors):
        vectors = sp.csr_matrix(vectors)
    chosen: list[int] = []
    lines: list[str] = []
    seen: set[str] = set()
    for i in ranking:
        i = int(i)
        text = " ".join(sentences[i].split())
        key = text.casefold()
        if not text or key in seen:
            continue
        if vectors is not None and chosen:
            sims = vectors[chosen] @ vectors[i].T
            sims = sims.toarray() if sp.issparse(sims) else np.asarray(sims)
            if sims.size and float(np.max(sims)) > max_similarity:
                continue
        used = summary_size(lines, length) if lines else 0
        sep = 0 if not lines or by_words else 1
        size = len(text.split()) if by_words else len(text.encode("utf-8"))
        if used + sep + size <= limit:
            lines.append(text)
            chosen.append(i)
            seen.add(key)
            if used + sep + size == limit:
                break
            continue
        if policy == "skip":
            continue
        room = limit - used - sep
        cut = _truncate(text, room, by_words) if room > 0 else ""
        if cut:
            lines.append(cut)
        break
    return lines
