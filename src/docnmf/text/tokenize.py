"""Tokenization, English stop words and Porter stemming."""

from __future__ import annotations

import functools
import logging
import re
import string
import time
import unicodedata
from array import array
from typing import Iterable, NamedTuple, Sequence

import numpy as np
import Stemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

__all__ = ["Analyzer", "CorpusTokens", "ENGLISH_STOP_WORDS", "letter_runs",
           "most_frequent_forms", "unspaced_script"]

logger = logging.getLogger(__name__)

#: Seconds between two progress lines while a corpus is tokenized.
PROGRESS_SECONDS = 5.0

#: Words of two or more letters; digits and punctuation split tokens. The combining marks
#: inside a word (Devanagari's and other Indic scripts' vowel signs and viramas, Arabic's
#: shadda and vowels, Hebrew's points), which ``re``'s ``\w`` leaves out, belong to it:
#: this pattern is read as ``_default_regex()`` (see ``TEXT_RULES`` 6).
DEFAULT_TOKEN_PATTERN = r"(?u)\b[^\W\d_]{2,}\b"


@functools.cache
def _mark_codes() -> tuple[int, ...]:
    """The code points of the combining marks (Unicode categories Mn, Mc, Me) of the first two
    planes and the variation selectors of the fourteenth (listing the other planes, which hold
    none of them, took 0.5 s)."""
    return tuple(c for c in (*range(0x20000), *range(0xE0100, 0xE01F0))
                 if unicodedata.category(chr(c)) in ("Mn", "Mc", "Me"))


@functools.cache
def _mark_set() -> frozenset[str]:
    """The combining marks of ``_mark_codes`` as a set of characters."""
    return frozenset(map(chr, _mark_codes()))


@functools.cache
def _marks() -> str:
    """A regular-expression class body of the combining marks of ``_mark_codes`` (``re`` has
    no ``\\p{M}``)."""
    codes = _mark_codes()
    runs, start = [], 0
    for i in range(1, len(codes) + 1):
        if i == len(codes) or codes[i] != codes[i - 1] + 1:
            a, b = chr(codes[start]), chr(codes[i - 1])
            runs.append(re.escape(a) if a == b else f"{re.escape(a)}-{re.escape(b)}")
            start = i
    return "".join(runs)


@functools.cache
def _word_run() -> re.Pattern:
    """The runs of word characters and the marks that go with them; marks before a run's
    first word character (after a space: a mark that belongs to no letter) are not part of
    it, and the pattern's one group is the run without them."""
    return re.compile(rf"[{_marks()}]*(\w[\w{_marks()}]*)")


@functools.cache
def _letters_run() -> re.Pattern:
    """A run that is a word of the default pattern: two or more letters, with their marks."""
    return re.compile(rf"(?:[^\W\d_][{_marks()}]*){{2,}}")


@functools.cache
def _default_regex() -> re.Pattern:
    """What ``DEFAULT_TOKEN_PATTERN`` matches, a letter's marks kept with it: the runs of
    ``_word_run`` that ``_letters_run`` matches whole."""
    m = _marks()
    return re.compile(rf"(?<![\w{m}])[{m}]*((?:[^\W\d_][{m}]*){{2,}})(?![\w{m}])")


# The patterns above, with a class of some 300 ranges and single marks, are several times
# slower than those without it, which find the same words in a text that holds no mark:
# those are used then, as in every ASCII text.
_PLAIN_DEFAULT = re.compile(DEFAULT_TOKEN_PATTERN)
_PLAIN_WORD_RUN = re.compile(r"\w+")
_PLAIN_LETTERS_RUN = re.compile(r"[^\W\d_]{2,}")


def _has_marks(text: str) -> bool:
    """Whether ``text`` holds a combining mark (of ``_mark_codes``).

    A set's look-up of each character: asking each non-ASCII character's category in Python
    took as long as reading the words of a text without marks (Cyrillic, Greek, Chinese), and
    a search for the class of ``_marks`` twice that."""
    return not text.isascii() and not _mark_set().isdisjoint(text)


@functools.cache
def _letters() -> re.Pattern:
    """A run of letters with the marks of its letters (marks before its first letter are not
    part of it)."""
    return re.compile(rf"(?:[^\W\d_][{_marks()}]*)+")


_PLAIN_LETTERS = re.compile(r"[^\W\d_]+")


def letter_runs(text: str) -> list[str]:
    """The runs of letters of ``text``, composed (see ``_composed``) and lower-cased, each
    with the combining marks of its letters: a word of Hindi or of pointed Hebrew is one run.

    Examples
    --------
    >>> letter_runs("Cafe\u0301s, 3 times: x2y")
    ['cafés', 'times', 'x', 'y']
    >>> captain = "\u0915\u092a\u094d\u0924\u093e\u0928"    # a virama and a vowel sign
    >>> letter_runs(captain + " and") == [captain, "and"]
    True
    """
    text = _composed(text).lower()
    return (_letters() if _has_marks(text) else _PLAIN_LETTERS).findall(text)


# The default pattern's matches are exactly the maximal runs of word characters
# (\w, as \b sees them, and the marks of their letters) that hold only letters and
# are two or more long. For ASCII text str.translate and str.split find those runs
# several times faster than the pattern; whether a run is a token is then asked once
# per distinct run.
_ASCII_WORD_CHARS = string.ascii_letters + string.digits + "_"
_ASCII_RUNS = str.maketrans({chr(c): chr(c) if chr(c) in _ASCII_WORD_CHARS else " "
                             for c in range(128)})
_ASCII_RUNS_LOWER = str.maketrans({chr(c): chr(c).lower() if chr(c) in _ASCII_WORD_CHARS else " "
                                   for c in range(128)})


#: Characters that split or double a word as text extracted from PDFs and web pages brings
#: them: invisible ones inside words (a soft hyphen made "pro\u00adduction" "pro" + "duction";
#: joiners, a word joiner, a byte-order mark) are dropped, ligatures ("pro\ufb01t" beside
#: "profit") and full-width letters and digits ("\uff2f\uff30\uff25\uff23" beside "OPEC") become
#: the letters they stand for. None is in the text corpora docnmf reproduces (DUC 2004,
#: Reuters-21578, 20 Newsgroups, Classic4).
_PRINTED_FORMS = str.maketrans({
    "\u00ad": None, "\u200c": None, "\u200d": None, "\u2060": None, "\ufeff": None,
    "\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
    "\ufb05": "st", "\ufb06": "st",
    **{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}})


#: How docnmf reads words out of text, numbered as it changed; a saved model records the
#: number it was fitted under, so that texts the rules read differently now can be named when
#: the model places them. 0: not recorded (models saved before it was); 1: the first rules;
#: 2: text in Unicode NFC (a letter and a separate accent are one character); 3: the printed
#: forms of ``_PRINTED_FORMS`` (soft hyphens and joiners dropped, ligatures and full-width
#: letters as letters); 4: the Turkish capital dotted I as I; 5: the dotted I written as I and
#: a combining dot, or lower-cased to i and the dot, as I; 6: the combining marks inside a
#: word (Hindi's vowel signs, Arabic's shadda) part of it under the default token pattern,
#: which split such words into fragments. Every change but the last is one of ``_composed``:
#: a text it leaves as it is, and that holds no combining mark, reads the same under every
#: rule.
TEXT_RULES = 6


def _composed(text: str) -> str:
    """``text`` in Unicode NFC: a letter and its combining accent (NFD, as macOS writes names
    and some tools write text) become one character, so "café" is one word, not "caf" + "e";
    and without the printed forms of ``_PRINTED_FORMS``.

    Examples
    --------
    >>> _composed("cafe\u0301") == "caf\u00e9"
    True
    >>> _composed("pro\u00adduction of oil \ufb01elds by \uff2f\uff30\uff25\uff23")
    'production of oil fields by OPEC'
    >>> _composed("\u0130stanbul, D\u0130YARBAKIR, I\u0307zmir, i\u0307zmit").lower()
    'istanbul, diyarbakir, izmir, izmit'
    """
    if text.isascii():
        return text
    text = text.translate(_PRINTED_FORMS)
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    if "\u0307" in text or "\u0130" in text:
        # the Turkish capital dotted I (written as one character, or as I and a combining dot,
        # which compose to it) becomes I: its lower case is i and the dot, no word character,
        # so "\u0130stanbul" was the word "stanbul" beside "istanbul"; lower-cased text holds
        # i and the dot already. An accent after the dot composes with the i once it is gone
        text = text.replace("\u0130", "I").replace("i\u0307", "i")
        if not unicodedata.is_normalized("NFC", text):
            text = unicodedata.normalize("NFC", text)
    return text


class CorpusTokens(NamedTuple):
    """The words of many documents as ids into one list of distinct words.

    Attributes
    ----------
    words : list of str
        The distinct words (lowercased, stop words removed, not stemmed), in
        order of first occurrence.
    ids : ndarray of shape (n_tokens,)
        Every document's words, one document after another, as indices into
        ``words``.
    offsets : ndarray of shape (n_docs + 1,)
        Document ``d`` holds ``ids[offsets[d]:offsets[d + 1]]``.
    """

    words: list[str]
    ids: np.ndarray
    offsets: np.ndarray

    def word_counts(self) -> np.ndarray:
        """Occurrences of each of ``words`` over all documents."""
        return np.bincount(self.ids, minlength=len(self.words))


def _index_dtype(n: int):
    """The narrower integer type that can count to ``n``."""
    return np.int32 if n < np.iinfo(np.int32).max else np.int64


class _WordIndex(dict):
    """Token -> id of the word it is, numbered in order of first occurrence; SKIP for the rest.

    Whether a token is a word (not a stop word, and a token at all when
    tokens are found as runs of word characters) is asked once per distinct
    token, on first sight; a known token is looked up at dict speed.
    """

    SKIP = -1

    def __init__(self, is_word):
        super().__init__()
        self.is_word = is_word
        self.words: list[str] = []

    def __missing__(self, token: str) -> int:
        if self.is_word(token):
            self.words.append(token)
            value = len(self.words) - 1
        else:
            value = self.SKIP
        self[token] = value
        return value


def most_frequent_forms(words: Sequence[str], stems: Sequence[str],
                        counts: Sequence[int]) -> dict[str, str]:
    """Map each stem to the most frequent of the words that stem to it.

    Ties go to the shorter word, then to the first in alphabetical order (the first seen made
    a name depend on the order of the documents: "diabetic" or "diabetes").

    Examples
    --------
    >>> most_frequent_forms(["galaxies", "galaxy", "galaxys"], ["galaxi"] * 3, [2, 2, 1])
    {'galaxi': 'galaxy'}
    >>> most_frequent_forms(["diabetic", "diabetes"], ["diabet"] * 2, [3, 3])
    {'diabet': 'diabetes'}
    """
    counts = list(map(int, counts))
    best: dict[str, int] = {}
    for i, stem in enumerate(stems):
        j = best.get(stem)
        if j is None or ((-counts[i], len(words[i]), words[i])
                         < (-counts[j], len(words[j]), words[j])):
            best[stem] = i
    return {stem: words[i] for stem, i in best.items()}


class Analyzer:
    """Turn a text into a list of index terms: lowercase, tokenize, drop stop words, stem.

    Stemming uses the original Porter algorithm through PyStemmer (a C
    implementation of the Snowball stemmers), as the papers stem with Porter.
    Instances are picklable and compare equal when configured alike, so a
    vectorizer holding one can be cloned and shipped to worker processes.

    Parameters
    ----------
    stop_words : "english", None or iterable of str
        Words removed before stemming (a list's read as the texts are: lower-cased, accents
        written apart as one character with their letter). "english" is scikit-learn's list,
        which holds a few words of content too (fire, system, bill, interest, ...): those
        words are dropped, while their other forms (fires, systems) stem to a term of the
        same name and stay.
    stem : bool
        Apply the Porter stemmer.
    token_pattern : str
        Regular expression whose matches are the tokens.
    lowercase : bool
        Lowercase before tokenizing.

    Examples
    --------
    >>> Analyzer()("The runners were running quickly to the stations")
    ['runner', 'run', 'quickli', 'station']
    >>> Analyzer(stem=False, stop_words=None)("Hello, world 42")
    ['hello', 'world']
    """

    def __init__(self, stop_words: str | Iterable[str] | None = "english", stem: bool = True,
                 token_pattern: str = DEFAULT_TOKEN_PATTERN, lowercase: bool = True):
        self.stop_words = stop_words
        self.stem = stem
        self.token_pattern = token_pattern
        self.lowercase = lowercase
        self._setup()

    def _setup(self) -> None:
        if self.stop_words == "english":
            self._stop = frozenset(ENGLISH_STOP_WORDS)
        elif self.stop_words is None:
            self._stop = frozenset()
        elif isinstance(self.stop_words, str):
            raise ValueError(f"unknown stop word list {self.stop_words!r}; use 'english' or a list")
        else:
            # read as the texts are (composed, the dotted I as I): "fu\u0308r" is "f\u00fcr"
            self._stop = frozenset(_composed(w).lower() for w in self.stop_words)
        try:
            self._regex = re.compile(self.token_pattern)
        except (re.error, TypeError) as exc:
            raise ValueError(f"token_pattern {self.token_pattern!r} is not a regular "
                             f"expression: {exc}") from None
        if self._regex.fullmatch(""):    # every gap between letters would be a term ""
            raise ValueError(f"token_pattern {self.token_pattern!r} matches an empty word")
        if self._regex.groups > 1:       # findall would give tuples of the groups, not words
            raise ValueError(f"token_pattern {self.token_pattern!r} has {self._regex.groups} "
                             "capturing groups; give at most one (its text is the word), the "
                             "others written (?:...)")
        self._by_runs = self.token_pattern == DEFAULT_TOKEN_PATTERN
        if self._by_runs:   # the same words, with the marks of their letters
            self._regex = _default_regex()
        # no stem cache: a C Porter step is cheaper than the cache lookup, even on repeated words
        self._stemmer = Stemmer.Stemmer("porter", 0) if self.stem else None

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._setup()

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self.__getstate__() == other.__getstate__()

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, str(v)) for k, v in self.__getstate__().items())))

    def __repr__(self) -> str:
        return f"Analyzer(stop_words={self.stop_words!r}, stem={self.stem})"

    def _tokens(self, text: str) -> list[str]:
        text = _composed(text)
        text = text.lower() if self.lowercase else text
        plain = self._by_runs and not _has_marks(text)
        return (_PLAIN_DEFAULT if plain else self._regex).findall(text)

    def _word_runs(self, text: str) -> list[str]:
        """The maximal runs of word characters in ``text``, lowercased if asked."""
        if text.isascii():
            return text.translate(_ASCII_RUNS_LOWER if self.lowercase else _ASCII_RUNS).split()
        text = _composed(text)
        text = text.lower() if self.lowercase else text
        return (_word_run() if _has_marks(text) else _PLAIN_WORD_RUN).findall(text)

    def _is_word(self, token: str) -> bool:
        """True for a token (or word run) that :meth:`words` keeps."""
        if self._by_runs and not (_letters_run() if _has_marks(token)
                                  else _PLAIN_LETTERS_RUN).fullmatch(token):
            return False
        return token not in self._stop

    def read_otherwise_at_first(self, text: str, since: int = 1) -> bool:
        """Whether ``text``'s words differ from what the first rules (``TEXT_RULES`` 1, before
        ``_composed``, and the default pattern without the marks of letters) read in it: a
        text with characters ``_composed`` changes but no word (full-width punctuation, a
        joiner in an emoji) reads the same under every rule.

        ``since`` 5 or more: from what rules 5 read in it, which were ``_composed``'s as they
        are now (an accent written apart or a ligature reads the same under 5 and 6); only
        the marks of letters can part them."""
        composed = _composed(text)
        if since >= 5:
            if not (self._by_runs and _has_marks(composed)):   # the two patterns agree
                return False
            composed = composed.lower() if self.lowercase else composed
            return self._regex.findall(composed) != _PLAIN_DEFAULT.findall(composed)
        if composed == text and not self._by_runs:
            return False
        first = _PLAIN_DEFAULT if self._by_runs else self._regex
        return (self._regex.findall(composed.lower() if self.lowercase else composed)
                != first.findall(text.lower() if self.lowercase else text))

    def words(self, text: str) -> list[str]:
        """The tokens of ``text`` that are not stop words, before stemming."""
        return [t for t in self._tokens(text) if t not in self._stop]

    def tokenize(self, texts: Iterable[str]) -> CorpusTokens:
        """What :meth:`words` gives for each of ``texts``, as ids into the distinct words.

        Stop words, stems and counts can then be worked out once per distinct
        word instead of once per occurrence.

        Examples
        --------
        >>> tokens = Analyzer().tokenize(["Stars and planets", "", "planets, planets"])
        >>> tokens.words, tokens.ids.tolist(), tokens.offsets.tolist()
        (['stars', 'planets'], [0, 1, 1, 1], [0, 2, 2, 4])
        """
        split = self._word_runs if self._by_runs else self._tokens
        index = _WordIndex(self._is_word)
        skip = _WordIndex.SKIP.__ne__
        # 32-bit ids of the kept words only, in one growing buffer: a corpus's token stream is
        # its largest array (20 Newsgroups: millions). Stop words are dropped as they are read
        # and one buffer replaces an array per document, which left small blocks between the
        # documents' temporary copies and kept freed memory from going back to the system.
        stream = array("i")
        ends = [0]
        total = f" of {len(texts)}" if hasattr(texts, "__len__") else ""
        started = shown = time.perf_counter()
        for text in texts:
            stream.extend(filter(skip, map(index.__getitem__, split(text))))
            ends.append(len(stream))
            now = time.perf_counter()
            if now - shown >= PROGRESS_SECONDS:    # a large corpus: say how far it is
                shown = now
                logger.info("tokenizing: %d%s documents in %.0fs", len(ends) - 1, total,
                            now - started)
        ids = np.frombuffer(stream, dtype=f"i{stream.itemsize}") if ends[-1] else \
            np.zeros(0, dtype=np.int32)
        return CorpusTokens(words=index.words, ids=ids,
                            offsets=np.array(ends, dtype=_index_dtype(ends[-1])))

    def stem_words(self, words: list[str]) -> list[str]:
        """Stem a list of words (identity when stemming is off)."""
        return self._stemmer.stemWords(words) if self._stemmer is not None else list(words)

    def __call__(self, text: str) -> list[str]:
        return self.stem_words(self.words(text))

    def readable_forms(self, texts: Iterable[str]) -> dict[str, str]:
        """Map each stem to its most frequent surface word in ``texts``, for display.

        Examples
        --------
        >>> Analyzer().readable_forms(["galaxies and galaxy", "a galaxy"])
        {'galaxi': 'galaxy'}
        """
        tokens = self.tokenize(texts)
        return most_frequent_forms(tokens.words, self.stem_words(tokens.words),
                                   tokens.word_counts())


#: The letters of scripts written without spaces between words: CJK ideographs (and extension
#: A, B, the compatibility block), kana, Thai, Lao, Khmer, Myanmar.
_UNSPACED = re.compile("[\u4e00-\u9fff\u3400-\u4dbf\u3040-\u30ff\u0e00-\u0eff\u1780-\u17ff"
                       "\u1000-\u109f\U00020000-\U0002a6df\uf900-\ufaff]")


def unspaced_script(ch: str) -> bool:
    """A letter of a script written without spaces between words (Chinese, Japanese, Thai,
    Lao, Khmer, Myanmar).

    >>> unspaced_script("天"), unspaced_script("a")
    (True, False)
    """
    return _UNSPACED.fullmatch(ch) is not None


def count_unspaced(text: str) -> int:
    """How many letters of ``text`` are of such scripts (:func:`unspaced_script`), counted in
    one pass of the regular expression engine rather than a call a character.

    >>> count_unspaced("天文 and 学")
    3
    """
    return len(text) - len(_UNSPACED.sub("", text))
