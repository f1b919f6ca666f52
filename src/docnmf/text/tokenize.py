"""Tokenization, English stop words and Porter stemming."""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

import Stemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

__all__ = ["Analyzer", "ENGLISH_STOP_WORDS"]

#: Words of two or more letters; digits and punctuation split tokens.
DEFAULT_TOKEN_PATTERN = r"(?u)\b[^\W\d_]{2,}\b"


class Analyzer:
    """Turn a text into a list of index terms: lowercase, tokenize, drop stop words, stem.

    Stemming uses the original Porter algorithm through PyStemmer (a C
    implementation of the Snowball stemmers), as the papers stem with Porter.
    Instances are picklable and compare equal when configured alike, so a
    vectorizer holding one can be cloned and shipped to worker processes.

    Parameters
    ----------
    stop_words : "english", None or iterable of str
        Words removed before stemming.
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
            self._stop = frozenset(w.lower() for w in self.stop_words)
        self._regex = re.compile(self.token_pattern)
        self._stemmer = Stemmer.Stemmer("porter") if self.stem else None

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

    def words(self, text: str) -> list[str]:
        """The tokens of ``text`` that are not stop words, before stemming."""
        if self.lowercase:
            text = text.lower()
        return [t for t in self._regex.findall(text) if t not in self._stop]

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
        counts = Counter(w for text in texts for w in self.words(text))
        best: dict[str, tuple[int, str]] = {}
        for word, stem in zip(counts, self.stem_words(list(counts))):
            key = (counts[word], word)
            if stem not in best or (key[0], -len(key[1])) > (best[stem][0], -len(best[stem][1])):
                best[stem] = key
        return {stem: word for stem, (_, word) in best.items()}
