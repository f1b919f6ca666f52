"""ROUGE on tiny hand-computed examples, one per variant and option."""

import pytest

from docnmf.summarize._porter import porter_stem
from docnmf.summarize.rouge import (
    Rouge,
    RougeScore,
    average_scores,
    parse_length,
    perl_bootstrap_mean,
    wordnet_exceptions,
)


def recall(metric, peer, models, **kw):
    return Rouge([metric], **kw).score(peer, models)[Rouge.name(metric)].recall


def test_rouge_n_single_reference():
    s = Rouge(["1", "2"]).score("the cat sat on the mat", ["the cat was on the mat"])
    # unigrams: the x2, cat, on, mat of 6; bigrams: the cat, on the, the mat of 5
    assert s["ROUGE-1"] == RougeScore(0.83333, 0.83333, 0.83333)
    assert s["ROUGE-2"] == RougeScore(0.6, 0.6, 0.6)


def test_counts_are_clipped():
    # the peer repeats "the" three times; the reference has it twice
    s = Rouge(["1"]).score("the the the cat", ["the cat the dog"])["ROUGE-1"]
    assert (s.recall, s.precision) == (0.75, 0.75)


def test_multiple_references_pool_hits_and_counts():
    peer = "police killed the gunman"
    models = ["police killed the gunman", "the gunman shot police officers"]
    s = Rouge(["1"]).score(peer, models)["ROUGE-1"]
    # hits 4 + 3 over model counts 4 + 5; precision over 2 x 4 peer unigrams
    assert s.recall == round(7 / 9, 5) and s.precision == 0.875
    assert s.f == round(0.77778 * 0.875 / (0.5 * 0.77778 + 0.5 * 0.875), 5)
    best = Rouge(["1"], scoring="best").score(peer, models)["ROUGE-1"]
    assert (best.recall, best.precision) == (1.0, 1.0)


def test_jackknife_averages_leave_one_out_scores():
    peer = "a b c d"
    models = ["a b x y", "a x y z", "b c d q"]
    # leave out m1: (1+3)/8; m2: (2+3)/8; m3: (2+1)/8  -> mean of 0.5, 0.625, 0.375
    s = Rouge(["1"], jackknife=True).score(peer, models)["ROUGE-1"]
    assert s.recall == 0.5
    assert Rouge(["1"]).score(peer, models)["ROUGE-1"].recall == 0.5  # pooled: 6/12


def test_alpha_weights_recall_and_precision():
    s = Rouge(["1"], alpha=0.0).score("a b", ["a c d e"])["ROUGE-1"]
    assert s.f == s.recall == 0.25
    s = Rouge(["1"], alpha=1.0).score("a b", ["a c d e"])["ROUGE-1"]
    assert s.f == s.precision == 0.5


def test_union_lcs_over_sentences():
    # Lin (2004), Section 3.2: r = w1..w5, c1 = w1 w2 w6 w7 w8, c2 = w1 w3 w8 w9 w5
    s = Rouge(["L"]).score(["w1 w2 w6 w7 w8", "w1 w3 w8 w9 w5"], ["w1 w2 w3 w4 w5"])
    # union LCS w1 w2 w3 w5: 4 of the 5 reference words, 4 of the 10 peer words
    assert s["ROUGE-L"] == RougeScore(0.8, 0.4, round(0.8 * 0.4 / 0.6, 5))


def test_lcs_hits_are_clipped_by_unigram_counts():
    # both peer sentences match "a b"; the peer has one "a" and one "b" per sentence,
    # the reference sentence's union LCS is "a b" counted once
    s = Rouge(["L", "1"]).score(["a b", "a b"], ["a b c"])
    assert s["ROUGE-L"].recall == s["ROUGE-1"].recall == round(2 / 3, 5)


def test_rouge_w_weights_consecutive_matches():
    # one sentence each; WLCS runs: "a b" (2) and "d e f" (3)
    s = Rouge(["W-1.2"]).score("a b x d e f", ["a b c d e f"])["ROUGE-W-1.2"]
    hit = 2 ** 1.2 + 3 ** 1.2
    # ROUGE-1.5.5 weights the reference length twice: f(f(6)); the peer's once: f(6)
    assert s.recall == round((hit / (6 ** 1.2) ** 1.2) ** (1 / 1.2), 5)
    assert s.precision == round((hit / 6 ** 1.2) ** (1 / 1.2), 5)
    same = Rouge(["W-1.2"]).score("a b c", ["a b c"])["ROUGE-W-1.2"]
    assert same.precision == 1.0 and same.recall == round(3 ** -0.2, 5)


def test_skip_bigrams_with_and_without_unigrams():
    peer, model = "police gunman killed", ["police killed gunman"]
    # reference pairs: (police killed) (police gunman) (killed gunman); unigrams police,
    # killed (ROUGE-1.5.5 leaves out the last token's unigram). Peer: (police gunman)
    # (police killed) (gunman killed); unigrams police, gunman.
    su = Rouge(["SU4"]).score(peer, model)["ROUGE-SU4"]
    assert (su.recall, su.precision) == (0.6, 0.6)  # 2 pairs + "police" of 5
    s4 = Rouge(["S4"]).score(peer, model)["ROUGE-S4"]
    assert s4.recall == round(2 / 3, 5)
    # a maximum gap of 0 leaves plain bigrams
    s0 = Rouge(["S0", "2"]).score("a b c d", ["a b d c"])
    assert s0["ROUGE-S0"].recall == s0["ROUGE-2"].recall == round(1 / 3, 5)
    # no gap limit: all 6 ordered pairs of 4 tokens
    sall = Rouge(["S*"]).score("a b c d", ["d c b a"])["ROUGE-S*"]
    assert sall.recall == 0.0


def test_stemming_and_wordnet_exceptions():
    assert recall("1", "cats running", ["cat runs"]) == 0.0
    assert recall("1", "cats running", ["cat runs"], stem=True) == 1.0
    table = {"children": "child", "said": "say"}
    # the exception's base form is not stemmed further: "said" -> "say", "says" -> "sai"
    assert recall("1", "children said", ["child says"], stem=True,
                  stem_exceptions=table) == 0.5
    assert recall("1", "children said", ["child says"], stem=True,
                  stem_exceptions=None) == 0.0
    # tokens of three characters or fewer are never stemmed
    assert recall("1", "ran runs", ["run"], stem=True, stem_exceptions=None) == 1.0


def test_stop_words_removed_with_s():
    assert recall("1", "the cat", ["a cat"]) == 0.5
    assert recall("1", "the cat", ["a cat"], remove_stopwords=True) == 1.0


def test_tokenization_drops_punctuation_and_splits_hyphens():
    assert recall("1", "well-known, U.S. firm's", ["well known u s firm s"]) == 1.0
    assert recall("2", "well-known", ["well known"]) == 1.0


def test_word_limit_counts_whitespace_words_before_tokenizing():
    models = ["e f g"]
    assert recall("1", ["a b c d", "e f"], models) == round(2 / 3, 5)
    assert recall("1", ["a b c d", "e f"], models, length="3w") == 0.0
    # "``" is a word for -l, though it yields no token
    assert recall("1", "`` a b", ["a b"], length="2w") == 0.5
    # the references are cut too
    assert recall("1", "x y", ["x q y"], length="2w") == 0.5


def test_byte_limit_cuts_like_rouge155():
    # first sentence 7 bytes (< 9) kept; the next contributes its first 9 - 7 bytes,
    # "gh"; the joining space is not counted
    assert recall("1", ["abc def", "ghi jkl"], ["abc gh ghi"], length="9b") == round(2 / 3, 5)


def test_parse_length_and_bad_arguments():
    assert parse_length(" 665B ") == (0, 665)
    for bad in ("665", "0w", "10x", "w"):
        with pytest.raises(ValueError):
            parse_length(bad)
    with pytest.raises(ValueError):
        Rouge(["Q"])
    with pytest.raises(ValueError):
        Rouge(["1"], scoring="median")
    # ROUGE-0 scored 1.0 for any pair; W-0 divided by zero and W-0.5 gave recall 2.9
    for bad in ("0", "W-0", "W-0.5"):
        with pytest.raises(ValueError, match="ROUGE"):
            Rouge([bad])
    assert Rouge(["W-1"]).score("a b c d", ["a b x d"])["ROUGE-W-1"].recall == 0.75
    with pytest.raises(TypeError):
        Rouge(["1"]).score("a", "a")
    # a DUC topic's models map assessors to summaries: its keys are not the summaries
    with pytest.raises(TypeError, match="mapping"):
        Rouge(["1"]).score("a", {"A": "a", "B": "b"})
    with pytest.raises(ValueError):
        Rouge(["1"]).score("a", [])


def test_empty_peer_scores_zero():
    assert Rouge(["1", "L"]).score("", ["a b"])["ROUGE-1"] == RougeScore(0.0, 0.0, 0.0)


def test_averages():
    per = {"t1": {"ROUGE-1": RougeScore(0.2, 0.4, 0.3)},
           "t2": {"ROUGE-1": RougeScore(0.4, 0.2, 0.1)}}
    assert average_scores(per)["ROUGE-1"] == RougeScore(pytest.approx(0.3), pytest.approx(0.3),
                                                        pytest.approx(0.2))
    # the bootstrap mean is close to the mean and deterministic
    boot = average_scores(per, method="rouge155")["ROUGE-1"]
    assert abs(boot.recall - 0.3) < 0.01
    assert boot == average_scores(per, method="rouge155")["ROUGE-1"]
    assert perl_bootstrap_mean([0.5] * 7) == pytest.approx(0.5)


@pytest.mark.parametrize("word, stem", [
    ("caresses", "caress"), ("ponies", "poni"), ("ties", "ti"), ("cats", "cat"),
    ("feed", "feed"), ("agreed", "agre"), ("plastered", "plaster"), ("motoring", "motor"),
    ("sing", "sing"), ("conflated", "conflat"), ("troubled", "troubl"), ("sized", "size"),
    ("hopping", "hop"), ("falling", "fall"), ("hissing", "hiss"), ("filing", "file"),
    ("happy", "happi"), ("sky", "sky"), ("relational", "relat"), ("conditional", "condit"),
    ("rational", "ration"), ("digitizer", "digit"), ("radically", "radic"),
    ("operator", "oper"), ("feudalism", "feudal"), ("hopefulness", "hope"),
    ("callousness", "callous"), ("electricity", "electr"), ("adjustment", "adjust"),
    ("generalizations", "gener"), ("yelling", "yell"),
    # ROUGE-1.5.5's step 4 tries -ment and -ent after -ement fails
    ("agreement", "agreem"), ("arguments", "argum"),
])
def test_porter_as_in_rouge(word, stem):
    assert porter_stem(word) == stem


def test_wordnet_table_ships_with_docnmf():
    table = wordnet_exceptions()
    assert table["said"] == "say" and table["children"] == "child" and len(table) > 5000


def test_summary_lines_are_read_as_rouge155_reads_a_file():
    """ROUGE-1.5.5 (SPL input) drops only zero-length lines and splits at "\\n" only, with
    Perl's ASCII white space between words; the figures are ROUGE-1.5.5.pl's own."""
    # a line of spaces is a sentence: its byte counts towards -b, so the model is cut at
    # "cc dd " (4 words), not "cc dd e" (5)
    model = ["aa bb", " ", "cc dd ee ff gg"]
    assert Rouge(["1"], length="12b").score("aa bb cc dd ee ff gg hh", [model])["ROUGE-1"] \
        == RougeScore(1.0, 1.0, 1.0)
    assert Rouge(["1"], length="12b").score("aa bb cc dd ee ff gg hh",
                                            ["aa bb\n \ncc dd ee ff gg"])["ROUGE-1"].recall == 1.0
    # U+0085 (a line break to str.splitlines, white space to Python's \\s) is neither to ROUGE:
    # "aa\x85bb" is one word of the 3 that -l 3 keeps, and two tokens
    assert Rouge(["1"], length="3w").score("aa\x85bb cc dd ee ff", ["aa bb cc dd ee"])["ROUGE-1"] \
        == RougeScore(1.0, 0.75, 0.85714)
