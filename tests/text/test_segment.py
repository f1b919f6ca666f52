"""Segmenters, Pk / WindowDiff and the reader for Choi's benchmark."""

import random

import numpy as np
import pytest

from docnmf.text.segment import (
    SEGMENTERS,
    boundaries_to_masses,
    c99_boundaries,
    equal_sentence_boundaries,
    equal_word_segments,
    masses_to_boundaries,
    pk,
    read_choi,
    segment_text,
    segments_from_boundaries,
    texttiling_boundaries,
    window_size,
    windowdiff,
)
from docnmf.text.sentences import split_sentences
from docnmf.text.tokenize import Analyzer

from ..conftest import require

# --------------------------------------------------------------------------- metrics by hand


def test_pk_and_windowdiff_hand_computed():
    # 0 0 | 1 1 against one segment; k = round(4 / 2 / 2) = 1; pairs (0,1) (1,2) (2,3)
    assert pk([2, 2], [4]) == pytest.approx(1 / 3)
    assert windowdiff([2, 2], [4]) == pytest.approx(1 / 3)
    # ref 000111, hyp 011111, k = 2: pairs (0,2) (1,3) (2,4) (3,5)
    # ref same? yes no no yes; hyp same? no yes yes yes -> 3 of 4 disagree
    assert pk([3, 3], [1, 5], k=2) == pytest.approx(0.75)
    # boundary counts ref 0 1 1 0, hyp 1 0 0 0 -> 3 of 4 differ
    assert windowdiff([3, 3], [1, 5], k=2) == pytest.approx(0.75)
    # ref 0011, hyp 0122, k = 2: both say "different segment" at (0,2) and (1,3): Pk 0,
    # but WindowDiff sees 1 vs 2 boundaries in the first window
    assert pk([2, 2], [1, 1, 2], k=2) == 0.0
    assert windowdiff([2, 2], [1, 1, 2], k=2) == pytest.approx(0.5)


def test_metrics_bounds_and_identity():
    rng = np.random.default_rng(0)
    for _ in range(20):
        ref = rng.integers(1, 6, size=rng.integers(2, 8)).tolist()
        n = sum(ref)
        cuts = rng.choice(np.arange(1, n), rng.integers(0, n), replace=False)
        hyp = boundaries_to_masses(sorted(cuts.tolist()), n)
        assert pk(ref, ref) == 0.0 and windowdiff(ref, ref) == 0.0
        # a Pk error (one says "same segment", the other not) is always a WindowDiff error
        assert 0.0 <= pk(ref, hyp) <= windowdiff(ref, hyp) <= 1.0


def test_window_size_and_errors():
    assert window_size([4, 4, 3]) == 2       # mean 11/3, half 1.83
    assert window_size([2, 3]) == 1          # half of 2.5 is 1.25
    assert window_size([3, 3]) == 2          # 1.5 rounds half up, as Choi's Math.round
    assert window_size([1]) == 1
    with pytest.raises(ValueError, match="covers"):
        pk([2, 2], [3])
    with pytest.raises(ValueError, match="k must"):
        windowdiff([2, 2], [4], k=0)


def test_masses_and_boundaries_round_trip():
    assert boundaries_to_masses([2, 5], 7) == [2, 3, 2]
    assert masses_to_boundaries([2, 3, 2]) == [2, 5]
    assert boundaries_to_masses([], 4) == [4]


# --------------------------------------------------------------------------- fixed-size segmenters


def test_equal_size_segmenters_are_exact():
    assert equal_word_segments("a b c d e f g h", 3) == ["a b c", "d e f", "g h"]
    assert equal_word_segments("a b", 3) == ["a", "b", ""]
    assert equal_sentence_boundaries(10, 3) == [4, 7]
    assert equal_sentence_boundaries(6, 6) == [1, 2, 3, 4, 5]
    assert equal_sentence_boundaries(7, 1) == []
    assert equal_sentence_boundaries(2, 5) == [1]
    assert segments_from_boundaries(["a", "b", "c", "d"], [1, 3]) == ["a", "b c", "d"]


@pytest.mark.parametrize("n_segments", [1, 2, 3, 4, 5, 6])
def test_sentence_count_segmenter_gives_n_segments(n_segments):
    text = " ".join(f"Sentence number {i} is here." for i in range(13))
    segments = segment_text(text, n_segments, method="sentences")
    assert len(segments) == n_segments
    sizes = [len(split_sentences(s)) for s in segments]
    assert sum(sizes) == 13 and max(sizes) - min(sizes) <= 1
    assert " ".join(segments) == text


def test_short_text_falls_back_to_words_and_pads():
    assert segment_text("Only one sentence here", 2) == ["Only one", "sentence here"]
    assert segment_text("", 3) == ["", "", ""]
    assert segment_text("Tiny.", 3, method="c99") == ["Tiny.", "", ""]
    with pytest.raises(ValueError, match="unknown segmenter"):
        segment_text("x", 2, method="magic")
    assert set(SEGMENTERS) == {"sentences", "words", "c99", "texttiling"}


def test_split_sentences():
    text = ("Mr. Brown met Dr. Who in the U.S. capital. \"Why?\" he asked! It was late. "
            "Then J. Smith left.\n\nA new paragraph without a full stop\nstill going")
    assert split_sentences(text) == [
        "Mr. Brown met Dr. Who in the U.S. capital.", "\"Why?\" he asked!", "It was late.",
        "Then J. Smith left.", "A new paragraph without a full stop\nstill going"]
    assert split_sentences("   ") == []


# --------------------------------------------------------------------------- cohesion segmenters

SPORT = ["The team won the football match.", "The goalkeeper saved a penalty in the match.",
         "Football fans cheered the team and the goalkeeper.", "The striker scored for the team."]
MONEY = ["The bank raised interest rates.", "Inflation worried the bank and investors.",
         "Investors sold bonds as rates rose.", "The central bank fought inflation with rates."]


def test_c99_and_texttiling_find_a_clear_topic_shift():
    text = SPORT * 2 + MONEY * 2
    assert c99_boundaries(text, n_segments=2) == [8]
    assert c99_boundaries(text) == [8]
    # TextTiling places boundaries at token-sequence gaps, then at the nearest sentence break
    (found,) = texttiling_boundaries(text, w=10, k=3, n_segments=2)
    assert abs(found - 8) <= 1
    assert c99_boundaries(["one sentence"]) == [] and texttiling_boundaries([]) == []


def test_texttiling_puts_boundaries_only_in_valleys():
    """One topic shift is one dip in cohesion: the gaps on its flanks have a depth too (their
    rise to the peak on one side) but are no valleys, and are no boundaries (Hearst's program
    scores only gaps with a rise on both sides). They were taken: [11, 17, 23, 29, 36]."""
    assert texttiling_boundaries(SPORT * 6 + MONEY * 6) == [23]


# --------------------------------------------------------------------------- Choi's benchmark

#: Files on which C99 recovers every reference boundary, with the true and the estimated
#: number of segments (checked against the reference segmentation read from the file).
EXACT_C99 = ["1/3-5/29.ref", "1/3-5/34.ref", "1/6-8/26.ref", "1/9-11/36.ref"]


def test_read_choi(datasets_dir):
    path = datasets_dir / "choi_c99" / "1" / "3-5" / "0.ref"
    require(path)
    doc = read_choi(path)
    assert doc.masses == [4, 5, 4, 3, 5, 4, 3, 5, 3, 3]
    assert len(doc.sentences) == 39 and doc.boundaries[:3] == [4, 9, 13]
    assert doc.sentences[0].startswith("Some of the features of the top portions")


@pytest.mark.parametrize("name", EXACT_C99)
def test_c99_recovers_known_boundaries(datasets_dir, name):
    path = datasets_dir / "choi_c99" / name
    require(path)
    doc = read_choi(path)
    assert len(doc.masses) == 10
    assert c99_boundaries(doc.sentences, n_segments=10) == doc.boundaries
    assert c99_boundaries(doc.sentences) == doc.boundaries


def test_segmenters_beat_the_no_boundary_baseline(datasets_dir):
    folder = datasets_dir / "choi_c99" / "1" / "6-8"
    require(folder)
    errors = {"c99": [], "texttiling": [], "none": []}
    for path in sorted(folder.glob("*.ref"))[:12]:
        doc = read_choi(path)
        n = len(doc.sentences)
        errors["c99"].append(pk(doc.masses, boundaries_to_masses(c99_boundaries(doc.sentences), n)))
        tt = texttiling_boundaries(doc.sentences, n_segments=len(doc.masses))
        errors["texttiling"].append(pk(doc.masses, boundaries_to_masses(tt, n)))
        errors["none"].append(pk(doc.masses, [n]))
    mean = {k: float(np.mean(v)) for k, v in errors.items()}
    assert mean["c99"] < 0.2 < mean["texttiling"] < mean["none"]


def test_texttiling_finds_about_as_many_boundaries_as_the_reference(datasets_dir):
    """Choi's documents have 10 segments; TextTiling with its own cut-off put 27 boundaries
    in each on average when every gap on a valley's slopes could be one."""
    folder = datasets_dir / "choi_c99" / "1" / "6-8"
    require(folder)
    counts, errors = [], []
    for path in sorted(folder.glob("*.ref"))[:12]:
        doc = read_choi(path)
        found = texttiling_boundaries(doc.sentences)
        counts.append(len(found))
        errors.append(pk(doc.masses, boundaries_to_masses(found, len(doc.sentences))))
    assert 4 <= np.mean(counts) <= 14
    assert np.mean(errors) < 0.35


def test_c99_refuses_at_once_a_document_whose_pairs_do_not_fit_in_free_memory(monkeypatch):
    """C99 holds n x n matrices: a document of 16,000 sentences ran out of memory after a
    minute of work, one of 250,000 after seven."""
    import os

    from docnmf import _memory
    from docnmf.text import segment

    monkeypatch.setattr(_memory, "available_memory", lambda: 2**30)     # 1 GiB
    sentences = [f"Sentence {i} about topic {i % 7}." for i in range(5000)]   # 1.1 GiB
    with pytest.raises(MemoryError, match="C99 on a document of 5,000 sentences compares every "
                                          "two of them: it would need about 1.1 GiB, where "
                                          "1.0 GiB are available"):
        segment.c99_boundaries(sentences)
    assert segment.c99_boundaries(sentences[:300], n_segments=3)      # 4 MiB: fits
    monkeypatch.setattr(_memory, "available_memory", lambda: None)     # a system that does
    assert segment.c99_boundaries(sentences[:300], n_segments=3)        # not say: no check
    monkeypatch.undo()
    # MemAvailable, not MemFree (which leaves out the caches the system can drop)
    meminfo = {}
    if os.path.exists("/proc/meminfo"):
        with open("/proc/meminfo") as fh:
            meminfo = dict(line.split(":") for line in fh.read().splitlines())
    if "MemAvailable" in meminfo:
        available = int(meminfo["MemAvailable"].split()[0]) * 1024
        assert _memory.available_memory() <= available * 1.05


def test_texttiling_given_the_number_of_segments_takes_valleys_before_slopes(datasets_dir):
    """With n_segments, the deepest gaps were taken whatever they were: a gap on the slope of
    a deep valley (its depth the rise on one side) outranked a shallow valley elsewhere, so a
    valley's flank became a boundary in place of a topic shift (Pk 0.297 on these 12 files)."""
    folder = require(datasets_dir / "choi_c99" / "1" / "6-8")
    errors = []
    for path in sorted(folder.glob("*.ref"))[:12]:
        doc = read_choi(path)
        found = texttiling_boundaries(doc.sentences, n_segments=len(doc.masses))
        assert len(found) == len(doc.masses) - 1
        errors.append(pk(doc.masses, boundaries_to_masses(found, len(doc.sentences))))
    assert np.mean(errors) < 0.26


def test_texttiling_reads_words_written_with_marks_whole():
    """TextTiling cut its words at the combining marks Python's \\w leaves out, as the
    tokenizer once did: a Hindi text of four sections on two topics got 27 boundaries, the same
    text with each word replaced by an English one the 3 between its sections."""
    hindi = ["\u0915\u092a\u094d\u0924\u093e\u0928", "\u0916\u093f\u0932\u093e\u0921\u093c\u0940",
             "\u0915\u094d\u0930\u093f\u0915\u0947\u091f", "\u0935\u093f\u0915\u0947\u091f",
             "\u0936\u0924\u0915", "\u092e\u0948\u0926\u093e\u0928",
             "\u0930\u0941\u092a\u092f\u093e", "\u092c\u093e\u091c\u093c\u093e\u0930",
             "\u092c\u094d\u092f\u093e\u091c", "\u0928\u093f\u0935\u0947\u0936",
             "\u092c\u0948\u0902\u0915", "\u0915\u0940\u092e\u0924\u0947\u0902"]
    english = ["captain", "player", "cricket", "wicket", "century", "ground",
               "rupee", "market", "interest", "invest", "bank", "prices"]

    def sections(words):
        rng = random.Random(0)
        return [" ".join(rng.choice(words[topic * 6:(topic + 1) * 6]) for _ in range(9))
                for topic in (0, 1, 0, 1) for _ in range(40)]

    analyzer = Analyzer(stop_words=None, stem=False)
    assert texttiling_boundaries(sections(english), analyzer=analyzer) == [40, 80, 120]
    assert texttiling_boundaries(sections(hindi), analyzer=analyzer) == [40, 80, 120]
