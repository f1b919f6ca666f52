"""The Porter (1980) stemmer exactly as ROUGE-1.5.5 applies it (its ``-m`` option).

ROUGE-1.5.5 carries Martin Porter's reference implementation with two
departures that change some stems, so a general Porter stemmer (PyStemmer's
``porter``, NLTK's) does not give ROUGE's numbers:

* step 2 maps ``-bli`` to ``-ble`` and ``-logi`` to ``-log`` (the reference
  implementation's own departures from the 1980 paper);
* step 4 tries ``-ement``/the other suffixes, then ``-ment``, then ``-ent`` /
  ``-(s|t)ion`` one after the other instead of only the longest suffix, so
  ``agreement`` becomes ``agreem`` where the paper's algorithm keeps ``agreement``.

The rules are written as the regular expressions of that implementation so
that ties and corner cases resolve the same way.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["porter_stem"]

_c = "[^aeiou]"            # consonant (a leading y was upper-cased, so it counts here)
_v = "[aeiouy]"            # vowel
_C = f"{_c}[^aeiouy]*"     # consonant sequence
_V = f"{_v}[aeiou]*"       # vowel sequence
_MGR0 = re.compile(f"^({_C})?{_V}{_C}")                 # measure m > 0
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")         # m == 1
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")         # m > 1
_VOWEL_IN_STEM = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")

_STEP2 = {"ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize",
          "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous",
          "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive",
          "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble",
          "logi": "log"}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "",
          "ness": ""}
_STEP2_RE = re.compile("(" + "|".join(_STEP2) + ")$")
_STEP3_RE = re.compile("(" + "|".join(_STEP3) + ")$")
_STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")


@lru_cache(maxsize=65536)
def porter_stem(word: str) -> str:
    """Stem a lower-case word; words shorter than three letters come back unchanged.

    Examples
    --------
    >>> [porter_stem(w) for w in ["caresses", "ponies", "relational", "agreement", "hopping"]]
    ['caress', 'poni', 'relat', 'agreem', 'hop']
    """
    w = word
    if len(w) < 3:
        return w
    initial_y = w[0] == "y"
    if initial_y:
        w = "Y" + w[1:]
    # step 1a
    if (m := re.search(r"(ss|i)es$", w)) or (m := re.search(r"([^s])s$", w)):
        w = w[:m.start()] + m.group(1)
    # step 1b
    if m := re.search(r"eed$", w):
        if _MGR0.search(w[:m.start()]):
            w = w[:-1]
    elif m := re.search(r"(ed|ing)$", w):
        stem = w[:m.start()]
        if _VOWEL_IN_STEM.search(stem):
            w = stem
            if re.search(r"(at|bl|iz)$", w):
                w += "e"
            elif re.search(r"([^aeiouylsz])\1$", w):
                w = w[:-1]
            elif _CVC.search(w):
                w += "e"
    # step 1c
    if w.endswith("y") and _VOWEL_IN_STEM.search(w[:-1]):
        w = w[:-1] + "i"
    # step 2
    if m := _STEP2_RE.search(w):
        stem = w[:m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP2[m.group(1)]
    # step 3
    if m := _STEP3_RE.search(w):
        stem = w[:m.start()]
        if _MGR0.search(stem):
            w = stem + _STEP3[m.group(1)]
    # step 4, in ROUGE-1.5.5's order
    if m := _STEP4_RE.search(w):
        stem = w[:m.start()]
        if _MGR1.search(stem):
            w = stem
    if w.endswith("ment"):
        stem = w[:-4]
        if _MGR1.search(stem):
            w = stem
    if w.endswith("ent"):
        stem = w[:-3]
        if _MGR1.search(stem):
            w = stem
    elif m := re.search(r"(s|t)(ion)$", w):
        stem = w[:m.start()] + m.group(1)
        if _MGR1.search(stem):
            w = stem
    # step 5
    if w.endswith("e"):
        stem = w[:-1]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if w.endswith("ll") and _MGR1.search(w):
        w = w[:-1]
    if initial_y:
        w = "y" + w[1:]
    return w
