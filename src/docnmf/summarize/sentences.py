"""A rule-based sentence splitter for English news text (no trained model, no downloads).

A boundary is a ``.``, ``!`` or ``?`` (possibly several, possibly followed by
closing quotes or brackets, including newswire ``''``) followed by white space
and then a capital letter or a digit, optionally after opening quotes. A period
is not a boundary after:

* titles and other abbreviations that precede a name or a number
  (``Mr.``, ``Dr.``, ``Gen.``, ``Sen.``, ``St.``, ``No.``, ``Jan.``, ...);
* a single letter (an initial: ``George W. Bush``);
* a dotted acronym (``U.S.``, ``U.N.``) or a word that can end a sentence
  but usually does not (``Inc.``, ``Corp.``, ``Jr.``, ``etc.``), *unless* the
  next word is a typical sentence opener (``The``, ``He``, ``But``, ...), as in
  "... was founded in the U.S. The company ...".

Blank lines always separate sentences (paragraph breaks); single newlines do not.
"""

from __future__ import annotations

import re

__all__ = ["AMBIGUOUS_ABBREVIATIONS", "TITLE_ABBREVIATIONS", "split_sentences"]

#: Abbreviations that are followed by a name, a number or a place: never sentence ends.
TITLE_ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "messrs", "mme", "mlle", "dr", "prof", "gen", "lt", "col", "maj", "capt",
    "cmdr", "cmdt", "adm", "sgt", "cpl", "pvt", "brig", "gov", "sen", "rep", "reps", "sens",
    "pres", "supt", "insp", "det", "rev", "fr", "msgr", "hon", "amb", "atty", "asst", "assoc",
    "sr", "st", "ste", "mt", "ft", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
    "sept", "oct", "nov", "dec", "ave", "blvd", "rd", "hwy", "approx", "est", "op", "cf", "vs",
    "ariz", "calif", "colo", "conn", "del", "fla", "ga", "ill", "ind", "kan", "ky", "la", "md",
    "mass", "mich", "minn", "miss", "mo", "mont", "neb", "nev", "okla", "ore", "pa", "tenn",
    "tex", "va", "vt", "wash", "wis", "wyo", "ald"
})

#: Abbreviations that precede a number (``No. 5``); elsewhere they are words ("said no.").
NUMBER_ABBREVIATIONS = frozenset(["no", "nos", "vol", "vols", "pp", "fig", "figs", "art"])

#: Abbreviations that can end a sentence; a boundary only before a typical sentence opener.
AMBIGUOUS_ABBREVIATIONS = frozenset({
    "inc", "corp", "co", "ltd", "jr", "bros", "etc", "al", "dept", "univ", "assn", "govt",
    "intl", "natl"
})

#: Capitalised words that usually open a sentence rather than continue a name.
SENTENCE_OPENERS = frozenset({
    "the", "a", "an", "he", "she", "it", "they", "we", "i", "you", "his", "her", "its", "their",
    "our", "this", "that", "these", "those", "there", "here", "but", "and", "or", "so", "yet",
    "in", "on", "at", "for", "with", "after", "before", "when", "while", "if", "as", "although",
    "though", "because", "since", "however", "meanwhile", "also", "some", "many", "most",
    "several", "both", "all", "no", "not", "one", "two", "three", "four", "five", "it's",
    "that's", "there's", "what", "who", "why", "how", "where", "which", "later", "earlier",
    "still", "even", "now", "then", "today", "yesterday", "tomorrow", "last", "next", "such",
    "other", "another", "each", "every"
})

_BOUNDARY = re.compile(
    r"""(?P<punct>[.!?]+)(?P<close>(?:''|["'\u201d\u2019)\]])*)(?P<space>\s+)"""
    r"""(?=(?P<next>(?:``|["'\u201c\u2018(\[])?\s*(?P<word>[A-Z0-9][\w'-]*)))"""
)
_ACRONYM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")
_PARAGRAPH = re.compile(r"\n[ \t]*\n+")


def _is_boundary(text: str, m: re.Match) -> bool:
    if m.group("punct") != ".":
        return True
    before = text[:m.start()]
    word = re.split(r"\s", before)[-1].lstrip("(\"'`[")
    next_word = m.group("word").lower()
    low = word.lower()
    if low in TITLE_ABBREVIATIONS:
        return False
    if low in NUMBER_ABBREVIATIONS and word[:1].isupper():
        return not next_word[:1].isdigit()
    if re.fullmatch(r"[A-Za-z]", word):
        return False
    if _ACRONYM.fullmatch(word) or low in AMBIGUOUS_ABBREVIATIONS:
        return next_word in SENTENCE_OPENERS
    return True


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into sentences, each with its white space collapsed.

    Examples
    --------
    >>> split_sentences("Mr. Smith went to Washington. He met Gen. Lee at 5 p.m. on Friday.")
    ['Mr. Smith went to Washington.', 'He met Gen. Lee at 5 p.m. on Friday.']
    >>> split_sentences("Troops left the U.S. Army base. The U.S. The end?")[0]
    'Troops left the U.S. Army base.'
    >>> split_sentences("``We will win,'' he said. ``Not now.''")
    ["``We will win,'' he said.", "``Not now.''"]
    """
    sentences = []
    for paragraph in _PARAGRAPH.split(text):
        paragraph = " ".join(paragraph.split())
        start = 0
        for m in _BOUNDARY.finditer(paragraph):
            if _is_boundary(paragraph, m):
                end = m.start("space")
                sentence = paragraph[start:end].strip()
                if sentence:
                    sentences.append(sentence)
                start = m.end("space")
        tail = paragraph[start:].strip()
        if tail:
            sentences.append(tail)
    return sentences
