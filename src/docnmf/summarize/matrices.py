"""Sentences of a document cluster and the matrices the summarizers work on.

The document-sentence matrix of Wang, Ding & Li (2010), Section 3.2, "can be
generated from the document-term and sentence-term matrices" and has one
column per sentence. With ``D`` (documents x terms) and ``S`` (sentences x
terms) both tf-idf weighted on one vocabulary and scaled to unit length,
``X = D S^T`` holds the cosine similarity of every document with every
sentence: documents are the rows (data points) and sentences the columns
(features), so FS-NMF's feature weights rank the sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..text.boilerplate import normalized, repeated_lines
from ..text.posts import body_of
from ..text.sentences import split_sentences
from ..text.tokenize import count_unspaced
from ..text.vectorize import DocumentVectorizer

__all__ = ["SentencePool", "TermMatrices", "body_of", "build_pool", "prose_of",
           "split_news_sentences", "term_matrices"]


def split_news_sentences(text: str) -> list[str]:
    """The sentences the summarizers work on: newswire rules, white space collapsed.

    :func:`docnmf.text.sentences.split_sentences` with ``rules="news"``.

    Examples
    --------
    >>> split_news_sentences("Mr. Smith left the U.S. Army base. He met  Gen. Lee.")
    ['Mr. Smith left the U.S. Army base.', 'He met Gen. Lee.']
    """
    return split_sentences(text, rules="news")


#: A wire's sign-off at the end of a story: "Reuter" or "REUTER" on the last line, or after the
#: last sentence on its line ("... an ounce. REUTER"); AP's "MORE". Any last word of one line
#: was one: a line wrapped before "properties" or "London" lost it.
_SIGN_OFF = re.compile(r"(?:\n|(?<=[.!?])[^\S\n])[^\S\n]*(?:Reuters?|REUTERS?|MORE)[^\S\n]*\s*$")
#: A line of a rule alone ("==========" between Choi's segments): a paragraph break.
_RULE_LINE = re.compile(r"\n[^\S\n]*([-=_*~#])\1{4,}[^\S\n]*(?=\n|$)")


def _headline(line: str) -> bool:
    """A line of letters all in capitals (Reuters' "BAHIA COCOA REVIEW"): not "Компания NASA
    запустила спутник.", whose other letters are lower case, nor a line of Japanese, whose
    letters have no case.

    >>> _headline("U.S.-JAPAN NOT IN TRADE WAR, YEUTTER SAYS"), _headline("東京でIBMが発表")
    (True, False)
    """
    letters = [ch for ch in line if ch.isalpha()]
    return bool(letters) and all(ch.isupper() for ch in letters)


def prose_of(text: str) -> str:
    r"""The sentences' text of a document: :func:`body_of` (a post's own lines, a page's
    text), without a wire story's headline or sign-off or a line that is a copyright line or
    a menu (:func:`_boilerplate`), rules as paragraph breaks. Reuters summaries read
    "U.S.-JAPAN NOT IN TRADE WAR, YEUTTER SAYS The United States and Japan" and ended on
    "Reuter"; a Choi file's "==========" stood inside a sentence. Of DUC 2004's 500 documents
    one changes: its closing "MORE", a stop word that was never a sentence of its own.

    Examples
    --------
    >>> prose_of("BAHIA COCOA REVIEW\nShowers continued in the zone.\n Reuter")
    'Showers continued in the zone.'
    >>> prose_of("It ended in 1945 .\n==========\nAnalysis means a study.")
    'It ended in 1945 .\n\nAnalysis means a study.'
    """
    text = body_of(text)
    if not any(ch.islower() for ch in text):  # a text in capitals: its lines are its sentences
        return text
    first, newline, rest = text.lstrip(" \t").partition("\n")
    if newline and _headline(first) and any(ch.islower() for ch in rest):
        text = rest
    for _ in range(2):      # "REUTER\n Reuter": two of them
        text = _SIGN_OFF.sub("", text)
    text = _RULE_LINE.sub("\n", text)
    # a page's copyright line or menu on a line of its own, which the sentence rules join to
    # the line before or after (single line breaks go on a sentence) where no test finds it
    lines = text.split("\n")
    kept = [line for line in lines if not (line.strip() and _boilerplate(line.strip()))]
    return "\n".join(kept) if len(kept) < len(lines) else text


#: A page's footer, not a sentence of its text: a copyright line ("Copyright 2024 ...",
#: "Copyright (c) ...", "(c) 2024 ...", "... All rights reserved."). None is in DUC 2004's 500
#: documents. A sentence about copyright ("Copyright holders argue ...") is prose.
_COPYRIGHT = re.compile(r"^(?:copyright\s*(?:©|\(c\)|\d{4})|©|\(c\)\s*\d{4})"
                        r"|\ball rights reserved\W*$", re.IGNORECASE)
#: The items of a menu or a breadcrumb trail ("Home | News | Sport", "Home » World » Europe"):
#: three or more, of a few words each.
_MENU_SEPARATOR = re.compile(r"\s[|»›]\s")
_MENU_ITEM_WORDS = 4


def _boilerplate(sentence: str) -> bool:
    """Is ``sentence`` a page's copyright line or menu rather than a sentence of its text?

    Examples
    --------
    >>> _boilerplate("Home | World News | Sport | Contact"), _boilerplate("Copyright 2024 X.")
    (True, True)
    >>> _boilerplate("Copyright holders argue the law is too weak.")
    False
    >>> _boilerplate("Il a dit « oui » puis « non » au ministre.")     # quotes, no menu
    False
    """
    if _COPYRIGHT.search(sentence):
        return True
    if "«" in sentence or "‹" in sentence:       # » and › close quotes here
        return False
    items = _MENU_SEPARATOR.split(sentence)
    return len(items) >= 3 and all(len(item.split()) <= _MENU_ITEM_WORDS for item in items)


@dataclass(frozen=True)
class SentencePool:
    """The candidate sentences of a document cluster.

    Attributes
    ----------
    sentences : list of str
    doc_index : ndarray of int
        The document each sentence comes from.
    position : ndarray of int
        The sentence's index within its document (0 = first).
    n_docs : int
    """

    sentences: list[str]
    doc_index: np.ndarray
    position: np.ndarray
    n_docs: int

    def __len__(self) -> int:
        return len(self.sentences)


#: Characters a sentence may hold beside a repeated line and still be that line ("Page 1 of
#: 2" before a running header); a repeated headline run into a report's first sentence left
#: summaries of recurring Reuters reports without their lead.
_BESIDE_LINE = 20


def _in_repeated(sentence: str, lines: Sequence[str]) -> bool:
    """A sentence (normalized) that is part of one of ``lines``, or made of them with at most
    ``_BESIDE_LINE`` characters more (lines joined into one sentence: a running header and a
    cookie banner)."""
    if any(sentence in line for line in lines):
        return True
    rest = sentence
    for line in lines:
        rest = rest.replace(line, "")
    return rest != sentence and len(rest.strip()) <= _BESIDE_LINE


def _words(sentence: str) -> int:
    """The words of ``sentence``: its runs between spaces, or, in a script written without
    them (Chinese, Japanese, Thai), one for every two of its letters (a sentence of Japanese
    was one "word", under any ``min_words``, and left out of a summary of mixed languages).

    >>> _words("Five six seven eight."), _words("天文学家观测到明亮的彗星。")
    (4, 6)
    """
    spaced = len(sentence.split())
    unspaced = count_unspaced(sentence)
    return max(spaced, unspaced // 2)


def build_pool(documents: Sequence[str], *, min_words: int = 0) -> SentencePool:
    r"""Split every document into sentences; keep those with at least ``min_words`` words that
    are not a page's footer or menu (a copyright line, items between ``|`` or ``»``), nor
    part of a line many of the documents repeat, nor holding one
    (:func:`docnmf.text.boilerplate.repeated_lines`: a cookie banner, a "follow us" line, a
    running header; none is in DUC 2004).

    Examples
    --------
    >>> pool = build_pool(["One two three. Four.", "Five six seven eight."], min_words=2)
    >>> pool.sentences, pool.doc_index.tolist(), pool.position.tolist()
    (['One two three.', 'Five six seven eight.'], [0, 1], [0, 0])
    >>> build_pool(["Home | World | Sport\n\nThe comet is back.\n\n"
    ...             "Copyright 2024 Daily News. All rights reserved."]).sentences
    ['The comet is back.']
    >>> banner = "We use cookies to improve your experience. Accept all cookies"
    >>> pool = build_pool([f"Story {i} ran today.\n{banner}" for i in range(6)])
    >>> sorted(set(pool.sentences))[:2], len(pool.sentences)
    (['Story 0 ran today.', 'Story 1 ran today.'], 6)
    """
    repeated = list(repeated_lines(documents)[0])
    sentences, doc_index, position = [], [], []
    for d, text in enumerate(documents):
        for p, s in enumerate(split_news_sentences(text)):
            if _words(s) >= min_words and not _boilerplate(s) \
                    and not _in_repeated(normalized(s), repeated):
                sentences.append(s)
                doc_index.append(d)
                position.append(p)
    return SentencePool(sentences, np.asarray(doc_index, dtype=np.intp),
                        np.asarray(position, dtype=np.intp), len(documents))


@dataclass(frozen=True)
class TermMatrices:
    """Unit-length tf-idf rows for documents (``D``) and sentences (``S``) on one vocabulary."""

    D: sp.csr_matrix
    S: sp.csr_matrix
    vocabulary: np.ndarray

    def document_sentence(self) -> np.ndarray:
        """``X = D S^T`` of shape (n_docs, n_sentences): document-sentence cosine similarities."""
        return np.asarray((self.D @ self.S.T).toarray())


def term_matrices(documents: Sequence[str], pool: SentencePool) -> TermMatrices:
    """tf-idf with stop words removed and Porter stems, idf over the pool's sentences.

    The sentences are the units of the cluster, so ``log(n/df)`` is learnt
    over them (a term in one sentence of 300 weighs more than one in 30); the
    documents are then weighted with the same idf.
    """
    vec = DocumentVectorizer(min_df=1, max_df=1.0, idf="smooth")
    S = vec.fit_transform(pool.sentences)
    D = vec.transform(list(documents))
    return TermMatrices(sp.csr_matrix(D), sp.csr_matrix(S), vec.get_feature_names_out())
