"""ROUGE (Lin 2004) computed the way ROUGE-1.5.5.pl computes it.

ROUGE-N, ROUGE-L, ROUGE-W-<weight>, ROUGE-S<gap> and ROUGE-SU<gap>; recall,
precision and F; several reference ("model") summaries per topic; Porter
stemming (``-m``), stop-word removal (``-s``), word (``-l``) and byte (``-b``)
limits; model-average (``-f A``) or best-model (``-f B``) scoring; optional
jackknifing over the references. The steps follow ROUGE-1.5.5 closely, quirks
included, because published figures were made with it:

* Text is lower-cased (ASCII only) and cut to the limit *before* tokenizing:
  ``-l N`` keeps the first N whitespace-separated words (punctuation such as
  ``_`` or ``````\\`\\```` counts as a word); ``-b N`` keeps sentences while their
  summed length, not counting the spaces that join them, stays below N bytes,
  then the first bytes of the next sentence that reach N.
* Every character other than ``[A-Za-z0-9]`` separates tokens; hyphens become
  tokens of their own and are then dropped.
* Stemming (``-m``) applies to tokens longer than three characters: first
  ROUGE's WordNet 2.0 irregular-form exception table (``said`` -> ``say``,
  ``children`` -> ``child``; the replacement is not stemmed further), then
  ROUGE's Porter variant (:mod:`docnmf.summarize._porter`). The table ships
  with ROUGE as a Berkeley DB file; docnmf ships it as text
  (``docnmf/data/rouge_wordnet_exceptions.txt``, taken from py-rouge 1.1; its
  origin and licences are in the ``.LICENSE.txt`` file beside it), read by
  :func:`wordnet_exceptions`. Without it, stemming is Porter alone and ROUGE-1
  recall on DUC 2004 comes out about 0.4 points low
  (``benchmarks/rouge_validation.py``).
* Model average (``-f A``) sums the clipped hits over all references and
  divides by the summed reference counts (recall) or by the reference count
  times the peer count (precision); it is not the mean of per-reference scores.
* Per-topic scores are rounded to five decimals and F is computed from the
  rounded R and P, as ROUGE prints them.
* ROUGE-L and ROUGE-W use the summary-level union LCS: each reference sentence
  against every peer sentence, hits clipped by unigram counts.
* ROUGE-W adds the weight function twice to the reference length (ROUGE-1.5.5
  weights each sentence length, then weights their sum again); reproduced.
* With ``-b``, ROUGE-1.5.5's LCS reader never advances its byte counter, so
  ROUGE-L/W see every sentence shorter than the limit; reproduced.
* SU<gap> counts the unigrams of all tokens except the last one.
* ROUGE-1.5.5 reports as the average over topics the mean of 1000 bootstrap
  resamples (seeded 0..999 with Perl's ``srand``); :func:`average_scores`
  reproduces that exactly with ``method="rouge155"`` or gives the plain mean.

References
----------
C.-Y. Lin, ROUGE: A Package for Automatic Evaluation of Summaries, ACL 2004
workshop "Text Summarization Branches Out".
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Literal

import numpy as np

from ._porter import porter_stem
from .stopwords import ROUGE_STOP_WORDS

__all__ = [
    "Rouge",
    "RougeScore",
    "average_scores",
    "parse_length",
    "perl_bootstrap_mean",
    "wordnet_exceptions",
]

Summary = str | Sequence[str]
ScoringMode = Literal["average", "best"]
AverageMethod = Literal["mean", "rouge155"]

#: Perl's ``\s`` on the bytes of a file: ASCII white space only (Python's ``\s`` also takes
#: U+0085, U+00A0 and the other Unicode spaces).
_PERL_SPACE = re.compile(r"[ \t\n\x0b\f\r]+")
_NON_ALNUM = re.compile(r"[^A-Za-z0-9\-]")
_METRIC = re.compile(r"^(?:(\d+)|L|W-([0-9.]+)|S(U?)(\d+|\*))$")
_UPPER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@dataclass(frozen=True)
class RougeScore:
    """Recall, precision and F of one metric."""

    recall: float
    precision: float
    f: float


def parse_length(length: str | None) -> tuple[int, int]:
    """``"100w"`` -> (100, 0) words; ``"665b"`` -> (0, 665) bytes; ``None`` -> (0, 0).

    Examples
    --------
    >>> parse_length("665b"), parse_length("100w"), parse_length(None)
    ((0, 665), (100, 0), (0, 0))
    """
    if length is None:
        return 0, 0
    m = re.fullmatch(r"\s*(\d+)\s*([bw])\s*", str(length).lower())
    if not m:
        raise ValueError(f"length must look like '665b' (bytes) or '100w' (words), got {length!r}")
    if int(m.group(1)) <= 0:
        raise ValueError(f"length must be at least one byte or word, got {length!r}")
    n = int(m.group(1))
    return (0, n) if m.group(2) == "b" else (n, 0)


def _sentences(summary: Summary) -> list[str]:
    """A summary as ROUGE's sentence units: the given list, or the lines of a string, less the
    empty ones.

    As ROUGE-1.5.5 reads a summary file: lines end at ``"\n"`` only (not at the other line
    breaks :meth:`str.splitlines` knows, such as U+0085 or a form feed), and a line of spaces
    is a sentence, whose bytes count towards ``-b`` although it holds no word.
    """
    if isinstance(summary, str):
        units = summary.split("\n")
    else:
        units = list(summary)
    return [s.translate(_UPPER) for s in units if s]


def _nbytes(s: str) -> int:
    return len(s.encode("utf-8"))


def _cut_bytes(s: str, n: int) -> str:
    return s.encode("utf-8")[:max(n, 0)].decode("utf-8", errors="ignore")


def _perl_split(s: str) -> list[str]:
    """Perl's ``split(/\\s+/, $s)``: a leading empty field is kept, trailing ones dropped."""
    parts = _PERL_SPACE.split(s)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _clean(s: str) -> str:
    s = s.replace("-", " - ")
    return " ".join(_NON_ALNUM.sub(" ", s).split())


def _read_text(sents: list[str], words: int, nbytes: int) -> str | None:
    """ROUGE-1.5.5 ``readText``: the summary as one cleaned string, cut to the limit."""
    if not sents:
        return None
    if words == 0 and nbytes == 0:
        text = " ".join(sents)
    elif words:
        parts, used = [], 0
        for s in sents:
            tokens = _perl_split(s)
            if used + len(tokens) < words:
                parts.append(s)
                used += len(tokens)
            else:
                parts.append(" ".join(tokens[:words - used]))
                break
        text = " ".join(parts)
    else:
        parts, used = [], 0
        for s in sents:
            size = _nbytes(s)
            if used + size < nbytes:
                parts.append(s)
                used += size
            else:
                parts.append(_cut_bytes(s, nbytes - used))
                break
        text = " ".join(parts)
    return _clean(text) if text else None


def _read_text_lcs(sents: list[str], words: int, nbytes: int) -> list[str]:
    """ROUGE-1.5.5 ``readText_LCS``: cleaned sentence units, cut to the limit."""
    if words == 0 and nbytes == 0:
        units = list(sents)
    elif words:
        units, used = [], 0
        for s in sents:
            tokens = _perl_split(s)
            if used + len(tokens) < words:
                used += len(tokens)
                units.append(s)
            else:
                units.append(" ".join(tokens[:words - used]))
                break
    else:
        units = []
        for s in sents:
            # ROUGE-1.5.5 never adds to its running length here, so each sentence is
            # compared with the whole limit on its own.
            if _nbytes(s) < nbytes:
                units.append(s)
            else:
                units.append(_cut_bytes(s, nbytes))
                break
    return [_clean(u) for u in units]


@lru_cache(maxsize=1)
def wordnet_exceptions() -> dict[str, str]:
    """ROUGE-1.5.5's WordNet 2.0 exception table (inflected form -> base form).

    Shipped with docnmf as ``data/rouge_wordnet_exceptions.txt`` (``form|base``
    per line; origin and licences in ``rouge_wordnet_exceptions.LICENSE.txt``).

    Examples
    --------
    >>> table = wordnet_exceptions()
    >>> table["said"], table["children"], len(table) > 5000
    ('say', 'child', True)
    """
    text = resources.files("docnmf").joinpath("data", "rouge_wordnet_exceptions.txt").read_text(
        encoding="utf-8")
    table = {}
    for line in text.splitlines():
        form, sep, base = line.partition("|")
        if sep:
            table[form] = base
    return table


def _make_stemmer(exceptions: Mapping[str, str]):
    @lru_cache(maxsize=200_000)
    def stem(token: str) -> str:
        if len(token) <= 3:
            return token
        base = exceptions.get(token)
        return base if base is not None else porter_stem(token)
    return stem


def _tokens(text: str | None, stem, stop: frozenset[str]) -> list[str]:
    if not text:
        return []
    out = []
    for t in text.split(" "):
        # ROUGE keeps tokens that start with [a-z0-9$]: here that drops the "-" tokens
        if not t or t[0] == "-" or t in stop:
            continue
        out.append(stem(t) if stem is not None else t)
    return out


def _ngrams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def _skip_bigrams(tokens: list[str], gap: int, unigrams: bool) -> Counter:
    grams: Counter = Counter()
    last = len(tokens) - 1
    for i in range(last):
        if unigrams:
            grams[(tokens[i],)] += 1
        stop = last if gap < 0 else min(last, i + gap + 1)
        for j in range(i + 1, stop + 1):
            grams[(tokens[i], tokens[j])] += 1
    return grams


def _clip_hits(model: Counter, peer: Counter) -> int:
    return sum(min(c, peer[g]) for g, c in model.items() if g in peer)


def _lcs_mask(model: list[str], peer: list[str], mask: list[bool], weight: float | None) -> None:
    """Mark in ``mask`` the model positions on one (weighted) LCS with ``peer``.

    The dynamic programme and its tie-breaking (diagonal on a match, else up
    when ``c[i-1][j] >= c[i][j-1]``) are ROUGE-1.5.5's, so the same positions
    are marked.
    """
    m, n = len(model), len(peer)
    if m == 0 or n == 0:
        return
    c = [[0.0] * (n + 1) for _ in range(m + 1)]
    diag = [[False] * (n + 1) for _ in range(m + 1)]
    run = [[0] * (n + 1) for _ in range(m + 1)] if weight is not None else None
    for i in range(1, m + 1):
        mi = model[i - 1]
        ci, cu = c[i], c[i - 1]
        for j in range(1, n + 1):
            if mi == peer[j - 1]:
                if weight is None:
                    ci[j] = cu[j - 1] + 1
                else:
                    k = run[i - 1][j - 1]
                    ci[j] = cu[j - 1] + (k + 1) ** weight - k ** weight
                    run[i][j] = k + 1
                diag[i][j] = True
            elif cu[j] >= ci[j - 1]:
                ci[j] = cu[j]
            else:
                ci[j] = ci[j - 1]
    i, j = m, n
    while i and j:
        if diag[i][j]:
            i -= 1
            j -= 1
            mask[i] = True
        elif c[i - 1][j] >= c[i][j - 1]:
            i -= 1
        else:
            j -= 1


@dataclass(frozen=True)
class _Prepared:
    tokens: tuple[str, ...]             # for n-grams and skip-bigrams
    units: tuple[tuple[str, ...], ...]  # sentence units for LCS
    unigrams: Counter = field(compare=False, hash=False)


def _round(x: float) -> float:
    return float(f"{x:.5f}")


def _prf(hit: float, model_count: float, peer_count: float, alpha: float,
         inverse: float | None = None) -> RougeScore:
    r = hit / model_count if model_count else 0.0
    p = hit / peer_count if peer_count else 0.0
    if inverse is not None:
        r, p = r ** (1.0 / inverse), p ** (1.0 / inverse)
    r, p = _round(r), _round(p)
    denom = (1 - alpha) * p + alpha * r
    return RougeScore(r, p, _round(p * r / denom) if denom > 0 else 0.0)


class Rouge:
    """Score peer summaries against reference summaries with ROUGE-1.5.5's arithmetic.

    Parameters
    ----------
    metrics : sequence of str
        Any of ``"1"``, ``"2"``, ... (ROUGE-N), ``"L"``, ``"W-1.2"`` (ROUGE-W
        with that weight), ``"S4"``, ``"SU4"``, ``"S*"``, ``"SU*"`` (skip-bigram
        with a maximum gap, with unigrams for ``SU``).
    stem : bool
        ROUGE's ``-m``: Porter-stem tokens longer than three characters.
    remove_stopwords : bool
        ROUGE's ``-s``: drop :data:`~docnmf.summarize.stopwords.ROUGE_STOP_WORDS`.
    length : str or None
        ``"100w"`` (``-l 100``) or ``"665b"`` (``-b 665``): cut peers and
        references before scoring.
    alpha : float
        ``-p``: F = PR / ((1 - alpha) P + alpha R).
    scoring : {"average", "best"}
        ``-f A`` (hits pooled over references) or ``-f B`` (best reference).
    jackknife : bool
        Average the score over the leave-one-out subsets of the references
        (DUC's official protocol when humans are compared with systems);
        ROUGE-1.5.5 itself no longer does this.
    stem_exceptions : "wordnet", None or mapping
        Irregular forms looked up before Porter when ``stem`` is on:
        ``"wordnet"`` is ROUGE's own table (:func:`wordnet_exceptions`), ``None``
        Porter alone, or a custom ``{form: base}`` mapping.

    Examples
    --------
    >>> r = Rouge(["1", "2", "L"])
    >>> s = r.score("the cat sat on the mat", ["the cat was on the mat"])
    >>> s["ROUGE-1"].recall, s["ROUGE-2"].recall, s["ROUGE-L"].recall
    (0.83333, 0.6, 0.83333)
    """

    def __init__(self, metrics: Sequence[str] = ("1", "2", "L"), *, stem: bool = False,
                 remove_stopwords: bool = False, length: str | None = None, alpha: float = 0.5,
                 scoring: ScoringMode = "average", jackknife: bool = False,
                 stem_exceptions: str | Mapping[str, str] | None = "wordnet"):
        self.metrics = tuple(str(m) for m in metrics)
        for m in self.metrics:
            match = _METRIC.match(m)
            if not match:
                raise ValueError(f"unknown ROUGE metric {m!r}; use e.g. '1', '2', 'L', "
                                 "'W-1.2', 'S4', 'SU4'")
            if match.group(1) and int(match.group(1)) < 1:
                raise ValueError(f"ROUGE-N needs n >= 1, got {m!r}")
            # ROUGE-1.5.5 refuses -w 0 ("weight factor must greater than 0"); a weight below 1
            # rewards scattered matches over consecutive ones and gives recall above 1
            if match.group(2) and float(match.group(2)) < 1:
                raise ValueError(f"ROUGE-W's weight must be at least 1, got {m!r}")
        if scoring not in ("average", "best"):
            raise ValueError(f"scoring must be 'average' or 'best', got {scoring!r}")
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"alpha must be in [0, 1], got {alpha}")
        self.stem = stem
        self.remove_stopwords = remove_stopwords
        self.length = length
        self.alpha = alpha
        self.scoring = scoring
        self.jackknife = jackknife
        self._words, self._bytes = parse_length(length)
        self.stem_exceptions = stem_exceptions
        self._stop = ROUGE_STOP_WORDS if remove_stopwords else frozenset()
        self._stem = None
        if stem:
            if stem_exceptions == "wordnet":
                table = wordnet_exceptions()
            elif stem_exceptions is None:
                table = {}
            elif isinstance(stem_exceptions, str):
                raise ValueError(f"stem_exceptions must be 'wordnet', None or a mapping, "
                                 f"got {stem_exceptions!r}")
            else:
                table = dict(stem_exceptions)
            self._stem = _make_stemmer(table)
        self._cache: dict[tuple[str, ...], _Prepared] = {}

    def __repr__(self) -> str:
        return (f"Rouge(metrics={list(self.metrics)}, stem={self.stem}, "
                f"remove_stopwords={self.remove_stopwords}, length={self.length!r}, "
                f"scoring={self.scoring!r}, jackknife={self.jackknife})")

    @staticmethod
    def name(metric: str) -> str:
        return f"ROUGE-{metric}"

    def prepare(self, summary: Summary) -> _Prepared:
        """Lower-case, cut to the length limit, tokenize, drop stop words, stem."""
        sents = tuple(_sentences(summary))
        hit = self._cache.get(sents)
        if hit is not None:
            return hit
        stop = self._stop
        tokens = _tokens(_read_text(list(sents), self._words, self._bytes), self._stem, stop)
        units = tuple(tuple(_tokens(u, self._stem, stop))
                      for u in _read_text_lcs(list(sents), self._words, self._bytes))
        prepared = _Prepared(tuple(tokens), units, Counter(tokens))
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[sents] = prepared
        return prepared

    def score(self, peer: Summary, models: Sequence[Summary]) -> dict[str, RougeScore]:
        """Every metric of one peer against its references.

        ``peer`` and each model are a list of sentences or a string with one
        sentence per line (ROUGE's SPL format).
        """
        if isinstance(models, str):
            raise TypeError("models must be a list of reference summaries, not one string")
        if isinstance(models, Mapping):   # DUCTopic.models: its keys are the assessors
            raise TypeError("models must be a list of reference summaries, not a mapping "
                            "(for a mapping of assessors to summaries, give its values())")
        if len(models) == 0:
            raise ValueError("at least one reference summary is needed")
        p = self.prepare(peer)
        ms = [self.prepare(m) for m in models]
        out = {}
        for metric in self.metrics:
            if self.jackknife and len(ms) > 1:
                subsets = [ms[:i] + ms[i + 1:] for i in range(len(ms))]
                scores = [self._score_metric(metric, p, sub) for sub in subsets]
                out[self.name(metric)] = RougeScore(
                    *(_round(float(np.mean([getattr(s, a) for s in scores])))
                      for a in ("recall", "precision", "f")))
            else:
                out[self.name(metric)] = self._score_metric(metric, p, ms)
        return out

    # ---------------------------------------------------------------- metrics

    def _score_metric(self, metric: str, peer: _Prepared, models: list[_Prepared]) -> RougeScore:
        m = _METRIC.match(metric)
        if m.group(1):
            n = int(m.group(1))
            return self._pooled(_ngrams(list(peer.tokens), n),
                                [_ngrams(list(x.tokens), n) for x in models])
        if metric == "L":
            return self._lcs(peer, models, None)
        if m.group(2):
            return self._lcs(peer, models, float(m.group(2)))
        gap = -1 if m.group(4) == "*" else int(m.group(4))
        unigrams = m.group(3) == "U"
        return self._pooled(_skip_bigrams(list(peer.tokens), gap, unigrams),
                            [_skip_bigrams(list(x.tokens), gap, unigrams) for x in models])

    def _pooled(self, peer: Counter, models: list[Counter]) -> RougeScore:
        peer_count = sum(peer.values())
        hits = model_counts = peer_counts = 0
        best = -1.0
        for grams in models:
            hit, count = _clip_hits(grams, peer), sum(grams.values())
            if self.scoring == "average":
                hits, model_counts, peer_counts = hits + hit, model_counts + count, \
                    peer_counts + peer_count
            else:
                score = _round(hit / count) if count else 0.0
                if score > best:
                    best, hits, model_counts, peer_counts = score, hit, count, peer_count
        return _prf(hits, model_counts, peer_counts, self.alpha)

    def _lcs(self, peer: _Prepared, models: list[_Prepared], weight: float | None) -> RougeScore:
        f = (lambda x: x) if weight is None else (lambda x: x ** weight)
        peer_count = sum(peer.unigrams.values())
        hits = model_counts = peer_counts = 0.0
        best = -1.0
        for model in models:
            model_left, peer_left = Counter(model.unigrams), Counter(peer.unigrams)
            hit = 0.0
            base = 0.0
            for unit in model.units:
                mask = [False] * len(unit)
                base += f(len(unit))
                for punit in peer.units:
                    _lcs_mask(list(unit), list(punit), mask, weight)
                run = 0
                for j, tok in enumerate(unit):
                    if not mask[j] or model_left[tok] <= 0 or peer_left[tok] <= 0:
                        continue
                    model_left[tok] -= 1
                    peer_left[tok] -= 1
                    if weight is None:
                        hit += 1
                        continue
                    run += 1
                    if j + 1 == len(unit) or not mask[j + 1]:
                        hit += f(run)
                        run = 0
            if weight is None:
                count, pcount = base, peer_count
                score = hit / base if base else 0.0
            else:
                count, pcount = f(base), f(peer_count)
                score = (hit / base) ** (1.0 / weight) if base else 0.0
            if self.scoring == "average":
                hits, model_counts, peer_counts = hits + hit, model_counts + count, \
                    peer_counts + pcount
            elif score > best:
                best, hits, model_counts, peer_counts = score, hit, count, pcount
        return _prf(hits, model_counts, peer_counts, self.alpha, inverse=weight)

    # ---------------------------------------------------------------- corpora

    def evaluate(self, peers: Mapping[str, Summary], models: Mapping[str, Sequence[Summary]],
                 *, average: AverageMethod = "mean", peer_id: str = "X"
                 ) -> tuple[dict[str, RougeScore], dict[str, dict[str, RougeScore]]]:
        """Score one system over many topics: its average scores and the per-topic ones.

        Parameters
        ----------
        peers : mapping topic -> summary
        models : mapping topic -> list of reference summaries
        average : {"mean", "rouge155"}
            Plain mean over topics, or ROUGE-1.5.5's bootstrap mean (see
            :func:`average_scores`).
        peer_id : str
            The system's name; only orders topics for ``"rouge155"`` as
            ROUGE-1.5.5 sorts its ``"<topic>.<system>"`` keys.
        """
        missing = sorted(set(peers) - set(models))
        if missing:
            raise KeyError(f"no reference summaries for topics {missing[:5]}")
        per_topic = {t: self.score(peers[t], models[t]) for t in peers}
        return average_scores(per_topic, method=average, peer_id=peer_id), per_topic


def perl_bootstrap_mean(values: Sequence[float], n_samples: int = 1000) -> float:
    """ROUGE-1.5.5's reported average: the mean of ``n_samples`` bootstrap means.

    Resample ``r`` is drawn after Perl's ``srand(r)``; Perl's ``rand`` is the
    48-bit linear congruential ``drand48`` (seeded as ``(seed << 16) + 0x330E``),
    so the draws, and the average ROUGE prints, are reproduced exactly.

    Examples
    --------
    >>> round(perl_bootstrap_mean([0.1, 0.2, 0.3, 0.4]), 5)
    0.25035
    """
    values = np.asarray(values, dtype=np.float64)
    n = len(values)
    if n == 0:
        return 0.0
    mask, a, c = (1 << 48) - 1, 0x5DEECE66D, 0xB
    totals = np.empty(n_samples)
    for r in range(n_samples):
        x = ((r & 0xFFFFFFFF) << 16) + 0x330E
        picks = np.empty(n, dtype=np.intp)
        for i in range(n):
            x = (a * x + c) & mask
            picks[i] = int(x / float(1 << 48) * n)
        totals[r] = values[picks].sum() / n
    return float(totals.sum() / n_samples)


def average_scores(per_topic: Mapping[str, Mapping[str, RougeScore]], *,
                   method: AverageMethod = "mean", peer_id: str = "X") -> dict[str, RougeScore]:
    """Average per-topic scores: plain mean, or ROUGE-1.5.5's bootstrap mean (``"rouge155"``)."""
    if method not in ("mean", "rouge155"):
        raise ValueError(f"method must be 'mean' or 'rouge155', got {method!r}")
    topics = sorted(per_topic, key=lambda t: f"{t}.{peer_id}")
    if not topics:
        return {}
    out = {}
    for metric in per_topic[topics[0]]:
        cols = [[getattr(per_topic[t][metric], a) for t in topics]
                for a in ("recall", "precision", "f")]
        if method == "mean":
            vals = [float(np.mean(c)) for c in cols]
        else:
            vals = [_round(perl_bootstrap_mean(c)) for c in cols]
        out[metric] = RougeScore(*vals)
    return out

