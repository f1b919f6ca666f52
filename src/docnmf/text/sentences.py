"""Rule-based sentence splitting (no trained model, no downloads), one function for every caller.

:func:`split_sentences` has two rule sets, chosen by ``rules``:

``"plain"`` (segmentation: :func:`docnmf.text.segment.segment_text`, NMA's sentence runs)
    A break after ``.``, ``!`` or ``?`` (possibly followed by one closing
    quote or bracket) and white space before an upper-case letter (of any
    script; any letter of a script without case: Arabic, Hebrew, Devanagari),
    a digit or an opening quote, after a full-width ``。``, ``！`` or
    ``？`` (Chinese, Japanese), a danda ``।`` or ``॥`` (Hindi), an Urdu ``۔``
    or an Arabic ``؟`` and the closing quotes or brackets after it,
    and at blank lines; a period after a common abbreviation or a single
    initial does not break. White space inside a sentence is kept as it was.

``"news"`` (summarization: :mod:`docnmf.summarize`, the DUC 2004 reports)
    Tuned to newswire. A boundary is a ``.``, ``!`` or ``?`` (possibly
    several, possibly followed by closing quotes or brackets, including
    newswire ``''``) followed by white space and then a capital letter, a
    letter of a script without case (Arabic, Hebrew, Devanagari) or a digit
    (any letter in a text without a capital at all, a lower-cased one),
    optionally after opening quotes. A period is not a boundary after:

    * titles and other abbreviations that precede a name or a number
      (``Mr.``, ``Dr.``, ``Gen.``, ``Sen.``, ``St.``, ``No.``, ``Jan.``, ...);
    * a single letter (an initial: ``George W. Bush``);
    * a dotted acronym (``U.S.``, ``U.N.``) or a word that can end a sentence
      but usually does not (``Inc.``, ``Corp.``, ``Jr.``, ``etc.``), *unless* the
      next word is a typical sentence opener (``The``, ``He``, ``But``, ...), as in
      "... was founded in the U.S. The company ...".

    Blank lines always separate sentences (paragraph breaks); single
    newlines do not. A full-width ``。``, ``！`` or ``？`` (Chinese, Japanese), a
    danda ``।`` or ``॥`` (Hindi), an Urdu ``۔`` or an Arabic ``؟``, with the
    closing quotes or brackets after it, ends a sentence with or
    without white space after it. Each sentence's white space is collapsed to
    single spaces.

The two are kept apart because the published results depend on each: the
segmentation experiments were run with the first, the summaries with the
second, and they split the same text differently (e.g. ``U.S. Army``,
``p.m.``, newswire quotes, white space).
"""

from __future__ import annotations

import functools
import itertools
import re
from typing import Literal

__all__ = ["AMBIGUOUS_ABBREVIATIONS", "TITLE_ABBREVIATIONS", "SentenceRules", "split_sentences"]

SentenceRules = Literal["plain", "news"]


def split_sentences(text: str, *, rules: SentenceRules = "plain") -> list[str]:
    """Split raw ``text`` into sentences by the rule set ``rules`` (see the module docstring).

    Parameters
    ----------
    text : str
    rules : {"plain", "news"}, default="plain"
        ``"plain"``: the segmenters' rules, white space kept; ``"news"``: the
        summarizer's newswire rules, white space collapsed.

    Returns
    -------
    list of str
        The sentences in order; empty pieces are dropped.

    Examples
    --------
    >>> text = "``We will win,'' he said.  ``Not now.''"
    >>> split_sentences(text)
    ["``We will win,'' he said.  ``Not now.''"]
    >>> split_sentences(text, rules="news")
    ["``We will win,'' he said.", "``Not now.''"]
    """
    if rules == "plain":
        return _split_plain(text)
    if rules == "news":
        return _split_news(text)
    raise ValueError(f"rules must be 'plain' or 'news', got {rules!r}")


# ----------------------------------------------------------------------------- "plain"

#: Marks that end a sentence whatever follows them: the full-width full stop, exclamation and
#: question marks (Chinese, Japanese), the danda and double danda (Hindi and the other
#: languages written in Devanagari, Bengali...), the Arabic question mark and the Urdu full
#: stop.
_STOPS = "\u3002\uff01\uff1f\u0964\u0965\u061f\u06d4"
#: What closes a quotation or a bracket after one of ``_STOPS``: after the full-width marks
#: the full-width closers (and the right double quote); after the danda, the Urdu full stop
#: and the Arabic question mark those of the texts they end, the closing guillemet, the right
#: quotes and the ASCII quotes and brackets (a Hindi quotation closed by a danda and a quote,
#: an Arabic question in guillemets, left the closer to open the next sentence).
_WIDE_STOPS, _WIDE_CLOSERS = "\u3002\uff01\uff1f", "\u300d\u300f\uff09\u3011\u201d"
_OTHER_STOPS, _OTHER_CLOSERS = "\u0964\u0965\u061f\u06d4", "\"')\\]\u00bb\u2019\u201d"


def _after_stops(stops: str, closers: str) -> str:
    """A break after one of ``stops`` and any of ``closers`` after it, white space or none
    (Chinese and Japanese write none), but not before another stop or closer."""
    return (rf"(?:(?<=[{stops}])|(?<=[{stops}][{closers}]))"
            rf"\s*(?![{_STOPS}{closers}]|\s*$)")


def _opens(ch: str) -> bool:
    """Whether a sentence may open with the letter ``ch``: a capital, or a letter of a script
    without case (Arabic, Hebrew, Devanagari, Chinese: neither capital nor small), which
    every sentence of such a script opens with."""
    return ch.isupper() or ch.istitle() or (ch.isalpha() and not ch.islower())


def _upper_class() -> str:
    """A regular-expression class of the letters of the Basic Multilingual Plane that may open
    a sentence (``_opens``: upper- and title-case letters, and those of scripts without case;
    ``re`` has no ``\\p{Lu}``; the other planes' took 0.4 s to list)."""
    chars = [chr(c) for c in range(0x10000) if _opens(chr(c))]
    runs, start = [], 0
    for i in range(1, len(chars) + 1):
        if i == len(chars) or ord(chars[i]) != ord(chars[i - 1]) + 1:
            a, b = chars[start], chars[i - 1]
            runs.append(re.escape(a) if a == b else f"{re.escape(a)}-{re.escape(b)}")
            start = i
    return "".join(runs)


@functools.cache
def _sentence_break() -> re.Pattern:
    """Where the ``"plain"`` rules may break (compiled on first use).

    A sentence ends at ., ! or ? (possibly followed by a closing quote or bracket) and white
    space before something that can open a sentence (an upper-case letter of any script,
    "Москва", "Élodie", as well as "A", or any letter of a script without case); at a
    full-width full stop, exclamation or question mark (Chinese, Japanese: no space follows),
    a danda, an Urdu full stop or an Arabic question mark, after any closing quotes or
    brackets; a blank line always ends one.
    """
    return re.compile(
        r"(?:(?<=[.!?])|(?<=[.!?][\"')\]]))\s+(?=[\"'(\[]?[0-9" + _upper_class() + r"])"
        r"|" + _after_stops(_WIDE_STOPS, _WIDE_CLOSERS) +
        r"|" + _after_stops(_OTHER_STOPS, _OTHER_CLOSERS) +
        r"|\n[ \t]*\n\s*")


#: Words whose trailing period does not end a sentence (compared lowercased, without it).
_ABBREVIATIONS = frozenset(
    "mr mrs ms dr prof sr jr st mt vs etc e.g i.e cf inc ltd co corp no nos fig figs eq al "
    "gen col lt sgt gov sen rep rev jan feb mar apr jun jul aug sep sept oct nov dec "
    "u.s u.k u.n".split())


def _split_plain(text: str) -> list[str]:
    """The ``"plain"`` rules: breaks by one regular expression, white space kept.

    Breaks after ``.``, ``!`` or ``?`` followed by whitespace and an
    upper-case letter, digit or opening quote, and at blank lines; a period
    after a common abbreviation or a single initial does not break.
    Whitespace inside a sentence is kept as it was; empty pieces are dropped.

    Examples
    --------
    >>> _split_plain("Dr. Smith arrived. He said: 'Hi!' Then he left.\\n\\nNew paragraph")
    ['Dr. Smith arrived.', "He said: 'Hi!'", 'Then he left.', 'New paragraph']
    >>> _split_plain("J. R. R. Tolkien wrote it. Yes.")
    ['J. R. R. Tolkien wrote it.', 'Yes.']
    """
    pieces = [p.strip() for p in _sentence_break().split(text)]
    out: list[str] = []
    glue = False
    for piece in pieces:
        if not piece:
            continue
        if glue and out:
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
        last = out[-1].rsplit(None, 1)[-1].lower().rstrip(".")
        glue = out[-1].endswith(".") and (last in _ABBREVIATIONS or
                                          (len(last) == 1 and last.isalpha()))
    return out


# ----------------------------------------------------------------------------- "news"

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

#: Of those, the ones written in lower case ("Smith vs. Jones", "approx. 5"); the others are
#: abbreviations in lower case only before a number ("5 ft. 3 in.", "hwy. 101"), and with a
#: capital; elsewhere they are words of their own ("he was ill.", "tons of mass.", "a wash.",
#: "to miss."), which end sentences.
_LOWER_CASE_TITLE_ABBREVIATIONS = frozenset({"vs", "cf", "approx", "est", "op"})

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

#: A mark, closing quotes or brackets, space, and the next word (a boundary only if that word
#: opens with a capital letter of any script, or a digit: see _is_boundary), perhaps after an
#: opening quote, bracket or mark: ``, a typographic quote or guillemet, Spanish ¿ and ¡, or ''
#: as DUC writes some, right before the word ('' and a space is a quote closed late).
_BOUNDARY = re.compile(
    r"""(?P<punct>[.!?]+)(?P<close>(?:''|["'\u201d\u2019\u00bb)\]])*)(?P<space>\s+)"""
    r"""(?=(?P<next>(?:(?:``|["'\u201c\u2018\u00ab\u00bf\u00a1(\[])\s*|'')?"""
    r"""(?P<word>\w[\w'-]*)))"""
)
_ACRONYM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")
_PARAGRAPH = re.compile(r"\n[ \t]*\n+")
#: A full-width full stop, exclamation or question mark, with the closing quotes or brackets
#: after it.
_WIDE_STOP = re.compile(rf"[{_WIDE_STOPS}]+[{_WIDE_CLOSERS}]*"
                        rf"|[{_OTHER_STOPS}]+[{_OTHER_CLOSERS}]*")


def _is_boundary(text: str, m: re.Match, caseless: bool = False) -> bool:
    first = m.group("word")[0]
    # "Москва", "À Paris" open sentences too, as any Arabic or Hebrew word does (a letter of a
    # script without case, even in a text that names the "BBC"); in a text without capitals
    # (lower-cased) any word
    if not (_opens(first) or first.isdigit() or (caseless and first.isalpha())):
        return False
    if m.group("punct") != ".":
        return True
    # the word before the mark: back to the last white space (not by splitting the whole text
    # before it, which made a long paragraph's sentences cost the square of its length)
    start = end = m.start()
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    word = text[start:end].lstrip("(\"'`[")
    next_word = m.group("word").lower()
    low = word.lower()
    # in lower case such a word ends a sentence, unless a number follows: "5 ft. 3 in.",
    # "hwy. 101", "rev. 2" are abbreviations there
    if low in TITLE_ABBREVIATIONS and (word[:1].isupper() or caseless
                                       or low in _LOWER_CASE_TITLE_ABBREVIATIONS
                                       or next_word[:1].isdigit()):
        return False
    if low in NUMBER_ABBREVIATIONS and (word[:1].isupper() or caseless):
        return not next_word[:1].isdigit()
    if re.fullmatch(r"[A-Za-z]", word):
        return False
    if _ACRONYM.fullmatch(word) or low in AMBIGUOUS_ABBREVIATIONS:
        # a capital tells an opener ("The") from a word that goes on ("the"): without capitals,
        # "5 p.m. on friday" and "the u.s. and the u.k." would be cut
        return next_word in SENTENCE_OPENERS and not caseless
    return True


def _split_news(text: str) -> list[str]:
    """The ``"news"`` rules (see the module docstring), each sentence's white space collapsed.

    Examples
    --------
    >>> _split_news("Mr. Smith went to Washington. He met Gen. Lee at 5 p.m. on Friday.")
    ['Mr. Smith went to Washington.', 'He met Gen. Lee at 5 p.m. on Friday.']
    >>> _split_news("Troops left the U.S. Army base. The U.S. The end?")[0]
    'Troops left the U.S. Army base.'
    >>> _split_news("``We will win,'' he said. ``Not now.''")
    ["``We will win,'' he said.", "``Not now.''"]
    >>> _split_news("Le président a parlé. À Paris, il pleut. Москва молчит.")
    ['Le président a parlé.', 'À Paris, il pleut.', 'Москва молчит.']
    >>> _split_news("the launch slipped. engineers found a leak. mr. lee said so.")
    ['the launch slipped.', 'engineers found a leak.', 'mr. lee said so.']
    >>> _split_news("at 5 p.m. on friday the u.s. and acme inc. signed no. 4. it held.")
    ['at 5 p.m. on friday the u.s. and acme inc. signed no. 4.', 'it held.']
    """
    # a text with no capital at all (lower-cased: exports, chat logs, transcripts) was one
    # sentence; its sentences open with whatever letter
    caseless = not any(ch.isupper() for ch in text)
    sentences = []
    for paragraph in _PARAGRAPH.split(text):
        paragraph = " ".join(paragraph.split())
        # Chinese and Japanese sentences end at their full stops, with no space after them
        cuts = [0] + [m.end() for m in _WIDE_STOP.finditer(paragraph)] + [len(paragraph)]
        for a, b in itertools.pairwise(cuts):
            sentences.extend(_split_news_run(paragraph[a:b].strip(), caseless))
    return sentences


def _split_news_run(paragraph: str, caseless: bool = False) -> list[str]:
    sentences = []
    start = 0
    for m in _BOUNDARY.finditer(paragraph):
        if _is_boundary(paragraph, m, caseless):
            end = m.start("space")
            sentence = paragraph[start:end].strip()
            if sentence:
                sentences.append(sentence)
            start = m.end("space")
    tail = paragraph[start:].strip()
    if tail:
        sentences.append(tail)
    return sentences
