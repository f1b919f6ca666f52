"""Linear text segmentation: sentences, fixed-size segments, TextTiling, C99, Pk, WindowDiff.

A segmentation of ``n`` units (sentences unless said otherwise) is given
either by its *boundaries*, the sorted indices ``b`` in ``1 .. n-1`` of the
units that start a new segment, or by its *masses*, the segment lengths
(``[3, 2]`` and boundaries ``[3]`` describe the same split of 5 units).

Segmenters:

- :func:`equal_word_segments`: ``n_segments`` pieces with equal word counts;
- :func:`equal_sentence_boundaries`: ``n_segments`` runs of consecutive
  sentences whose sizes differ by at most one (the fixed segment counts of
  Wang et al. 2011);
- :func:`texttiling_boundaries`: Hearst (1997), block comparison of
  token-sequences, depth scores and a mean/std cutoff;
- :func:`c99_boundaries`: Choi (2000), cosine similarity of sentences, rank
  in an 11 x 11 neighbourhood, divisive clustering by inside density,
  stopped by the smoothed density gradient or at a given segment count.

:func:`segment_text` puts a raw text through
:func:`~docnmf.text.sentences.split_sentences` (its ``"plain"`` rules) and one
of them and returns the segment texts; :data:`SEGMENTERS` names them.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable, Literal, NamedTuple, Sequence

import numpy as np
import scipy.sparse as sp

from .._memory import refuse_beyond_memory
from .sentences import split_sentences
from .tokenize import Analyzer, letter_runs

__all__ = [
    "equal_word_segments", "equal_sentence_boundaries",
    "texttiling_boundaries", "c99_boundaries", "segments_from_boundaries", "segment_text",
    "SEGMENTERS", "boundaries_to_masses", "masses_to_boundaries", "window_size", "pk",
    "windowdiff", "ChoiDocument", "read_choi",
]

# ----------------------------------------------------------------------------- fixed sizes

def equal_word_segments(text: str, n_segments: int) -> list[str]:
    """``n_segments`` consecutive pieces of ``text`` whose word counts differ by at most one.

    Words are whitespace-separated; the first pieces take the extra words.
    A text with fewer words than ``n_segments`` gives some empty pieces.

    Examples
    --------
    >>> equal_word_segments("a b c d e f g", 3)
    ['a b c', 'd e', 'f g']
    >>> equal_word_segments("a", 2)
    ['a', '']
    """
    words = text.split()
    return [" ".join(words[s:e]) for s, e in _equal_spans(len(words), n_segments)]


def equal_sentence_boundaries(n_sentences: int, n_segments: int) -> list[int]:
    """Boundaries of ``min(n_segments, n_sentences)`` runs of sentences, sizes within one.

    Examples
    --------
    >>> equal_sentence_boundaries(10, 3)    # sizes 4, 3, 3
    [4, 7]
    >>> equal_sentence_boundaries(2, 4)     # cannot make more segments than sentences
    [1]
    """
    return [s for s, _ in _equal_spans(n_sentences, min(n_segments, n_sentences))][1:]


def _equal_spans(n: int, k: int) -> list[tuple[int, int]]:
    if k < 1:
        raise ValueError(f"n_segments must be at least 1, got {k}")
    size, extra = divmod(n, k)
    ends = np.cumsum([size + (i < extra) for i in range(k)])
    starts = np.concatenate([[0], ends[:-1]])
    return [(int(s), int(e)) for s, e in zip(starts, ends)]


def segments_from_boundaries(units: Sequence[str], boundaries: Sequence[int],
                             sep: str = " ") -> list[str]:
    """Join the units of each segment with ``sep``.

    Examples
    --------
    >>> segments_from_boundaries(["a.", "b.", "c."], [2])
    ['a. b.', 'c.']
    """
    edges = [0, *boundaries, len(units)]
    return [sep.join(units[s:e]) for s, e in zip(edges[:-1], edges[1:])]


# ----------------------------------------------------------------------------- TextTiling

def texttiling_boundaries(sentences: Sequence[str], *, w: int = 20, k: int = 10,
                          smoothing_window: int = 3, smoothing_rounds: int = 1,
                          cutoff: Literal["hc", "lc"] = "hc", min_gap: int = 2,
                          n_segments: int | None = None,
                          analyzer: Analyzer | None = None) -> list[int]:
    """TextTiling (Hearst 1997) with block comparison; boundaries at sentence breaks.

    The words of the text (letters only, stop words included in the count)
    are cut into token-sequences of ``w`` words. At each gap between
    token-sequences the ``k`` sequences before and the ``k`` after are
    compared by the cosine of their term counts (stop words removed,
    stemmed). The gap scores are smoothed by a moving average, each gap gets
    a depth score (the rise to the nearest peak on its left plus the rise to
    the nearest peak on its right). Boundaries go only in valleys, the gaps
    with a rise on both sides (a gap on a slope has a depth too, but is no
    dip in cohesion), as Hearst's program assigns them: the valleys whose
    depth reaches ``mean - std / 2`` (``cutoff="hc"``) or ``mean - std``
    (``"lc"``) of the valleys' depths (their sample deviation, as that
    program takes it; a lone valley always) become boundaries, deepest
    first, skipping any within ``min_gap`` token-sequences of one already
    taken. Each is moved to the nearest sentence break, as Hearst moves them
    to paragraph breaks.

    Parameters
    ----------
    sentences : sequence of str
    w, k : int
        Token-sequence length and block size (Hearst's defaults, 20 and 10).
    smoothing_window, smoothing_rounds : int
        Width of the moving average over gap scores and how often to apply it.
    cutoff : {"hc", "lc"}
    min_gap : int
    n_segments : int, optional
        Instead of the cutoff, keep the ``n_segments - 1`` deepest valleys,
        then, if there are fewer, the deepest other gaps (fewer boundaries if
        the text has fewer gaps or sentence breaks).
    analyzer : Analyzer, optional
        Stop words and stemming for the term counts (default ``Analyzer()``).

    Returns
    -------
    list of int
        Sentence boundaries.

    References
    ----------
    Hearst, TextTiling: segmenting text into multi-paragraph subtopic
    passages, Computational Linguistics 23(1), 1997, Sections 5.1-5.4.
    """
    analyzer = analyzer or Analyzer()
    n = len(sentences)
    words = [letter_runs(s) for s in sentences]
    counts = [len(ws) for ws in words]
    flat = [t for ws in words for t in ws]
    n_seq = math.ceil(len(flat) / w)
    if n < 2 or n_seq < 2:
        return []
    keep = set(analyzer.words(" ".join(flat)))
    terms = analyzer.stem_words([t for t in flat if t in keep])
    seq_of = [i // w for i, t in enumerate(flat) if t in keep]
    vocab = {t: j for j, t in enumerate(sorted(set(terms)))}
    V = np.zeros((n_seq, max(len(vocab), 1)))
    np.add.at(V, (np.asarray(seq_of, dtype=np.int64),
                  np.asarray([vocab[t] for t in terms], dtype=np.int64)), 1.0)
    cum = np.vstack([np.zeros((1, V.shape[1])), np.cumsum(V, axis=0)])
    gaps = np.arange(n_seq - 1)
    left = cum[gaps + 1] - cum[np.maximum(gaps + 1 - k, 0)]
    right = cum[np.minimum(gaps + 1 + k, n_seq)] - cum[gaps + 1]
    scores = _cosine_rows(left, right)
    for _ in range(smoothing_rounds):
        scores = _moving_average(scores, smoothing_window)
    depth, valley = _depth_scores(scores)
    if n_segments is None:
        # the cut-off is read from the valleys' depths alone: the slopes' and peaks' would
        # lower it and let a valley's flanks through as boundaries of their own
        deep = depth[valley]
        spread = deep.std(ddof=1) if deep.size > 1 else 0.0
        threshold = (deep.mean() - (spread / 2.0 if cutoff == "hc" else spread)
                     if deep.size else 0.0)
        # (>=: a text with a single valley keeps it, where mean and spread of one give no cut)
        candidates = [g for g in np.argsort(-depth, kind="stable")
                      if valley[g] and depth[g] >= threshold]
        wanted = len(candidates)
    else:
        # the valleys first, deepest first, then the other gaps: a slope beside a deep valley
        # is deeper than a shallow valley elsewhere, and took its place
        order = np.argsort(-depth, kind="stable")
        candidates = [g for g in order if valley[g]] + [g for g in order if not valley[g]]
        wanted = max(int(n_segments) - 1, 0)
    starts = np.cumsum(counts)[:-1]          # word offset where sentence 1 .. n-1 starts
    taken_gaps: list[int] = []
    found: set[int] = set()
    for g in candidates:
        if len(found) >= wanted:
            break
        if any(abs(g - t) < min_gap for t in taken_gaps):
            continue
        sentence = int(np.argmin(np.abs(starts - (g + 1) * w))) + 1
        if sentence in found:
            continue
        taken_gaps.append(int(g))
        found.add(sentence)
    return sorted(found)


def _cosine_rows(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    num = (A * B).sum(axis=1)
    den = np.sqrt((A * A).sum(axis=1) * (B * B).sum(axis=1))
    return np.divide(num, den, out=np.zeros_like(num), where=den > 0)


def _moving_average(x: np.ndarray, width: int) -> np.ndarray:
    """Centred moving average of odd ``width``, the window clipped at the ends."""
    half = max(int(width), 1) // 2
    cum = np.concatenate([[0.0], np.cumsum(x)])
    idx = np.arange(len(x))
    lo, hi = np.maximum(idx - half, 0), np.minimum(idx + half + 1, len(x))
    return (cum[hi] - cum[lo]) / (hi - lo)


def _depth_scores(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each gap, rise to the left peak plus rise to the right peak (Hearst 1997, 5.3).

    Also returns which gaps are valleys: those with a rise on both sides.
    """
    depth = np.empty_like(s)
    valley = np.zeros(len(s), dtype=bool)
    for i in range(len(s)):
        j = i
        while j > 0 and s[j - 1] >= s[j]:
            j -= 1
        m = i
        while m < len(s) - 1 and s[m + 1] >= s[m]:
            m += 1
        depth[i] = (s[j] - s[i]) + (s[m] - s[i])
        valley[i] = s[j] > s[i] and s[m] > s[i]
    return depth, valley


# ----------------------------------------------------------------------------- C99

def c99_boundaries(sentences: Sequence[str], *, n_segments: int | None = None, mask: int = 11,
                   threshold: float = 1.2, analyzer: Analyzer | None = None) -> list[int]:
    """C99 (Choi 2000): rank-transformed sentence similarity and divisive clustering.

    1. Each sentence becomes a vector of stem counts (stop words removed);
       the similarity matrix holds the cosines of all pairs.
    2. Each entry is replaced by its rank in the ``mask x mask``
       neighbourhood: the number of neighbours with a smaller value divided
       by the number of neighbours inside the matrix (Section 3.2).
    3. Starting from the whole text, the segment whose best split most
       raises the inside density ``D = sum s_k / sum a_k`` (sum of ranks over
       the square diagonal blocks over their area) is split, until every
       sentence stands alone; this orders the candidate boundaries. Each
       segment's best split is the one that maximises that segment's own
       density, as in Choi's program; the paper's text reads as choosing
       among all split points by the whole text's density, which gives other
       boundaries on 11 of 24 of Choi's files, Pk better on some and worse
       on others.
    4. With ``n_segments`` the first ``n_segments - 1`` boundaries are kept.
       Otherwise the gradient ``dD`` of the density along that order is
       smoothed with the mask ``[1, 2, 4, 8, 4, 2, 1]`` and boundaries are
       kept while ``dD > mean + threshold * std`` (Section 3.3).

    Parameters
    ----------
    sentences : sequence of str
    n_segments : int, optional
    mask : int
        Rank mask width (11 in the paper).
    threshold : float
        ``c`` in the stopping rule (1.2 in the paper).
    analyzer : Analyzer, optional
        Stop words and stemming (default ``Analyzer()``).

    Returns
    -------
    list of int
        Sentence boundaries.

    References
    ----------
    Choi, Advances in domain independent linear text segmentation, NAACL
    2000, Section 3.

    Examples
    --------
    >>> text = ["Cats purr and cats sleep.", "A cat naps.", "Cats chase mice.",
    ...         "Stocks fell today.", "Markets and stocks slid.", "Stock prices dropped."]
    >>> c99_boundaries(text, n_segments=2)
    [3]
    """
    n = len(sentences)
    if n < 2:
        return []
    # its n x n matrices at once, not after minutes (16,000 sentences ran out after one)
    refuse_beyond_memory(C99_BYTES_PER_PAIR * n * n, f"C99 on a document of {n:,} sentences "
                         "compares every two of them: it", available=True)
    analyzer = analyzer or Analyzer()
    similarity = _sentence_cosines([analyzer(s) for s in sentences])
    rank = _rank_transform(similarity, mask)
    if n_segments is not None:
        return sorted(_divisive_clustering(rank, max(int(n_segments) - 1, 0))[0])
    order, gains = _divisive_clustering(rank)
    smoothed = _normalised_convolution(np.asarray(gains), np.array([1, 2, 4, 8, 4, 2, 1.0]))
    cut = smoothed.mean() + threshold * smoothed.std()
    n_keep = 0
    while n_keep < len(smoothed) and smoothed[n_keep] > cut:
        n_keep += 1
    return sorted(order[:n_keep])


#: Bytes C99 holds per pair of sentences: its n x n float64 matrices (similarities, ranks, the
#: padded copy, the window count and the comparisons made on it) at their peak.
C99_BYTES_PER_PAIR = 48


def _sentence_cosines(token_lists: list[list[str]]) -> np.ndarray:
    """Cosine similarity of the sentences' term-count vectors (0 for an empty sentence).

    Sparse products: a small dense GEMM can spend far longer waking BLAS
    threads than computing.
    """
    vocab: dict[str, int] = {}
    cols = [vocab.setdefault(t, len(vocab)) for ts in token_lists for t in ts]
    rows = np.repeat(np.arange(len(token_lists)), [len(ts) for ts in token_lists])
    V = sp.csr_matrix((np.ones(len(cols)), (rows, cols)),
                      shape=(len(token_lists), max(len(vocab), 1)))
    V.sum_duplicates()
    norms = np.sqrt(np.asarray(V.multiply(V).sum(axis=1)).ravel())
    U = sp.diags(np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)) @ V
    return (U @ U.T).toarray()


def _rank_transform(S: np.ndarray, mask: int) -> np.ndarray:
    """Share of the other cells of each ``mask x mask`` window (clipped) below the centre."""
    n = S.shape[0]
    r = mask // 2
    padded = np.full((n + 2 * r, n + 2 * r), np.inf)   # inf is never smaller: outside cells
    padded[r:r + n, r:r + n] = S                        # do not count as smaller neighbours
    smaller = np.zeros((n, n))
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            smaller += padded[r + dy:r + dy + n, r + dx:r + dx + n] < S
    idx = np.arange(n)
    span = np.minimum(idx + r, n - 1) - np.maximum(idx - r, 0) + 1
    neighbours = span[:, None] * span[None, :] - 1
    return np.divide(smaller, neighbours, out=np.zeros_like(smaller), where=neighbours > 0)


def _divisive_clustering(rank: np.ndarray, n_steps: int | None = None
                         ) -> tuple[list[int], list[float]]:
    """Choi's divisive clustering, ``n_steps`` splits (default: down to single sentences).

    Returns the boundaries in the order they were chosen and the rise of the
    inside density each brought.
    """
    n = rank.shape[0]
    P = np.zeros((n + 1, n + 1))
    P[1:, 1:] = rank.cumsum(axis=0).cumsum(axis=1)

    def block(a, b):  # sum of ranks over rows and columns a..b-1 (vectorised over a, b)
        return P[b, b] - P[a, b] - P[b, a] + P[a, a]

    def segment(a, b):
        """[a, b) with its best split (maximising its own inside density) and what it adds."""
        if b - a < 2:
            return (a, b, -1, 0.0, 0.0)
        cut = np.arange(a + 1, b)
        inside = block(a, cut) + block(cut, b)
        dens = inside / ((cut - a) ** 2 + (b - cut) ** 2)
        i = len(cut) - 1 - int(np.argmax(dens[::-1]))   # ties: the later boundary, as Choi
        c = int(cut[i])
        return (a, b, c, float(inside[i] - block(a, b)),
                float((c - a) ** 2 + (b - c) ** 2 - (b - a) ** 2))

    segments = [segment(0, n)]
    total, area = float(block(0, n)), float(n * n)
    density = total / area
    order, gains = [], []
    for _ in range(n - 1 if n_steps is None else min(n_steps, n - 1)):
        splittable = [j for j, sg in enumerate(segments) if sg[2] >= 0]
        new = np.array([(total + segments[j][3]) / (area + segments[j][4]) for j in splittable])
        pick = len(new) - 1 - int(np.argmax(new[::-1]))   # ties: the later segment, as Choi
        j = splittable[pick]
        a, b, c, d_sum, d_area = segments[j]
        total, area = total + d_sum, area + d_area
        segments[j:j + 1] = [segment(a, c), segment(c, b)]
        order.append(c)
        gains.append(float(new[pick]) - density)
        density = float(new[pick])
    return order, gains


def _normalised_convolution(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Centred convolution with the mask weights renormalised where it overhangs the ends."""
    num = np.convolve(v, m, mode="same")
    den = np.convolve(np.ones_like(v), m, mode="same")
    return num / den


# ----------------------------------------------------------------------------- raw text

Method = Literal["sentences", "words", "c99", "texttiling"]


def segment_text(text: str, n_segments: int | None = 3, method: Method = "sentences",
                 **options) -> list[str]:
    """Cut a raw text into segment texts with one of :data:`SEGMENTERS`.

    ``"sentences"`` makes ``n_segments`` runs of sentences of near-equal
    counts, ``"words"`` pieces of near-equal word counts, ``"c99"`` and
    ``"texttiling"`` place the boundaries by lexical cohesion (with
    ``n_segments=None`` they choose the count themselves). When the text has
    fewer sentences than ``n_segments`` the sentence-based methods fall back
    to equal word counts, so a short text still fills its segments. With a
    fixed ``n_segments`` the result always has that length (empty strings
    pad a text too short to fill it). ``options`` go to the segmenter.

    Examples
    --------
    >>> segment_text("One two. Three four. Five six. Seven.", 2)
    ['One two. Three four.', 'Five six. Seven.']
    >>> segment_text("no sentence punctuation at all", 3)
    ['no sentence', 'punctuation at', 'all']
    """
    try:
        segmenter = SEGMENTERS[method]
    except KeyError:
        raise ValueError(f"unknown segmenter {method!r}; "
                         f"choose from {sorted(SEGMENTERS)}") from None
    return segmenter(text, n_segments, **options)


def _words(text: str, n_segments: int | None) -> list[str]:
    if n_segments is None:
        raise ValueError("the 'words' segmenter needs n_segments")
    return equal_word_segments(text, n_segments)


def _through_sentences(place: Callable[..., list[int]]) -> Callable[..., list[str]]:
    """A text segmenter from a function placing boundaries between sentences."""

    def segmenter(text: str, n_segments: int | None, **options) -> list[str]:
        sentences = split_sentences(text)
        if n_segments is not None and len(sentences) < n_segments:
            return equal_word_segments(text, n_segments)
        segments = segments_from_boundaries(sentences, place(sentences, n_segments, **options))
        if n_segments is not None:
            segments += [""] * (n_segments - len(segments))
        return segments

    return segmenter


def _sentence_runs(sentences, n_segments):
    if n_segments is None:
        raise ValueError("the 'sentences' segmenter needs n_segments")
    return equal_sentence_boundaries(len(sentences), n_segments)


def _c99(sentences, n_segments, **options):
    return c99_boundaries(sentences, n_segments=n_segments, **options)


def _texttiling(sentences, n_segments, **options):
    return texttiling_boundaries(sentences, n_segments=n_segments, **options)


#: Text segmenters by name: ``(text, n_segments, **options) -> list of segment texts``.
SEGMENTERS: dict[str, Callable[..., list[str]]] = {
    "sentences": _through_sentences(_sentence_runs),
    "words": _words,
    "c99": _through_sentences(_c99),
    "texttiling": _through_sentences(_texttiling),
}


# ----------------------------------------------------------------------------- evaluation

def boundaries_to_masses(boundaries: Sequence[int], n_units: int) -> list[int]:
    """Segment lengths from boundaries.

    Examples
    --------
    >>> boundaries_to_masses([3], 5)
    [3, 2]
    """
    edges = [0, *sorted(boundaries), n_units]
    return [e - s for s, e in zip(edges[:-1], edges[1:])]


def masses_to_boundaries(masses: Sequence[int]) -> list[int]:
    """Boundaries from segment lengths.

    Examples
    --------
    >>> masses_to_boundaries([3, 2, 4])
    [3, 5]
    """
    return [int(b) for b in np.cumsum(masses)[:-1]]


def window_size(reference: Sequence[int]) -> int:
    """``k`` = half the mean reference segment length, rounded half up, at least 1.

    Examples
    --------
    >>> window_size([4, 4, 3])      # mean 11/3, half 1.83
    2
    """
    masses = np.asarray(reference)
    return max(int(math.floor(masses.sum() / len(masses) / 2.0 + 0.5)), 1)


def _segment_ids(masses: Sequence[int]) -> np.ndarray:
    return np.repeat(np.arange(len(masses)), masses)


def _check_pair(reference, hypothesis, k):
    ref, hyp = _segment_ids(reference), _segment_ids(hypothesis)
    if len(ref) != len(hyp):
        raise ValueError(f"reference covers {len(ref)} units, hypothesis {len(hyp)}")
    k = window_size(reference) if k is None else int(k)
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    return ref, hyp, k


def pk(reference: Sequence[int], hypothesis: Sequence[int], k: int | None = None) -> float:
    """Beeferman et al.'s ``P_k``: how often the ends of a ``k``-unit window disagree.

    For every pair of units ``(i, i + k)``, ``i = 0 .. N-k-1``, the error
    counts whether the reference and the hypothesis disagree on the two
    being in the same segment. ``reference`` and ``hypothesis`` are segment
    masses; ``k`` defaults to :func:`window_size` of the reference.

    References
    ----------
    Beeferman, Berger & Lafferty, Statistical models for text segmentation,
    Machine Learning 34, 1999, Section 5.

    Examples
    --------
    >>> pk([2, 2], [4])         # k = 1; pairs (0,1) (1,2) (2,3): the middle one disagrees
    0.3333333333333333
    """
    ref, hyp, k = _check_pair(reference, hypothesis, k)
    if len(ref) <= k:
        return 0.0
    same_ref = ref[k:] == ref[:-k]
    same_hyp = hyp[k:] == hyp[:-k]
    return float(np.mean(same_ref != same_hyp))


def windowdiff(reference: Sequence[int], hypothesis: Sequence[int], k: int | None = None) -> float:
    """Pevzner & Hearst's WindowDiff: how often a ``k``-unit window holds different boundary counts.

    For ``i = 0 .. N-k-1`` the window runs from unit ``i`` to unit ``i + k``;
    the error counts windows where the number of reference boundaries
    between the two differs from the hypothesis's.

    References
    ----------
    Pevzner & Hearst, A critique and improvement of an evaluation metric for
    text segmentation, Computational Linguistics 28(1), 2002, Section 4.

    Examples
    --------
    >>> windowdiff([2, 2], [1, 3], k=2)   # windows (0,2) (1,3): boundary counts 1|1, 1|0
    0.5
    """
    ref, hyp, k = _check_pair(reference, hypothesis, k)
    if len(ref) <= k:
        return 0.0
    return float(np.mean((ref[k:] - ref[:-k]) != (hyp[k:] - hyp[:-k])))


# ----------------------------------------------------------------------------- Choi's data

class ChoiDocument(NamedTuple):
    """One ``.ref`` file of Choi's benchmark: its sentences and reference segment masses."""

    sentences: list[str]
    masses: list[int]

    @property
    def boundaries(self) -> list[int]:
        return masses_to_boundaries(self.masses)


def read_choi(path: str | Path) -> ChoiDocument:
    """Read a ``.ref`` file: one tokenised sentence per line, segments between ``==========`` lines.

    Blank lines are ignored; the file is read as Latin-1 so no byte fails.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".ref", delete=False) as fh:
    ...     _ = fh.write("==========\\nA b .\\nC d .\\n==========\\nE f .\\n==========\\n")
    >>> doc = read_choi(fh.name); os.unlink(fh.name)
    >>> doc.masses, doc.boundaries
    ([2, 1], [2])
    """
    sentences: list[str] = []
    masses: list[int] = []
    current = 0
    for line in Path(path).read_text(encoding="latin-1").splitlines():
        line = line.strip()
        if line.startswith("=========="):
            if current:
                masses.append(current)
            current = 0
        elif line:
            sentences.append(line)
            current += 1
    if current:
        masses.append(current)
    return ChoiDocument(sentences, masses)
