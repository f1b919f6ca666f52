"""Text pipeline: tokenization, stop words, Porter stems, pruning, tf-idf of Xu 2003 and variants."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from docnmf.text.tokenize import Analyzer
from docnmf.text.vectorize import DocumentVectorizer, EmptyVocabularyError
from docnmf.text.weighting import TfidfWeighting, ncw_weights, tfidf_xu2003


def test_analyzer_porter_and_stop_words():
    assert Analyzer()("The cats are running; connection connected!") == ["cat", "run", "connect", "connect"]
    # original Porter (not Porter2): 'generously' -> 'gener'
    assert Analyzer(stop_words=None)("generously") == ["gener"]
    assert Analyzer(stem=False)("The 3 cats") == ["cats"]


@pytest.mark.parametrize("pattern", [None, r"(?u)\b\w\w+\b"])
def test_accented_words_are_one_term_however_their_accents_are_encoded(pattern):
    """NFD (a letter, then its combining accent: as macOS writes names, and some tools text)
    split "café" at the accent; NFC and NFD spellings of a word are one term."""
    import unicodedata

    text = "Le café était déjà fermé; naïve Übung"
    options = {} if pattern is None else {"token_pattern": pattern}
    vec = DocumentVectorizer(min_df=1, max_df=1.0, idf="none", stop_words=None, stem=False,
                             **options)
    X = vec.fit_count([text, unicodedata.normalize("NFD", text)])
    assert X.shape[1] == 7 and (X[0] != X[1]).nnz == 0
    assert "café" in vec.get_feature_names_out()


def test_words_of_scripts_that_write_vowels_as_marks_are_whole_terms():
    """Devanagari vowel signs and viramas, Arabic shaddas and vowels, Hebrew points are
    combining marks, which Python's \\w leaves out: "\u0915\u092a\u094d\u0924\u093e\u0928"
    (captain) was read as the fragments "\u0915\u092a" and "\u0924\u0928", every Hindi
    keyword was such a fragment, and "\u063a\u064a\u0651\u0631" (changed) was "\u063a\u064a"."""
    hindi = "\u0915\u092a\u094d\u0924\u093e\u0928 \u0914\u0930 \u0916\u093f\u0932\u093e\u0921\u093c\u0940"
    analyzer = Analyzer(stop_words=None, stem=False)
    assert analyzer(hindi) == hindi.split()
    assert analyzer.tokenize([hindi]).words == hindi.split()
    arabic = "\u063a\u064a\u0651\u0631 \u0627\u0644\u0645\u0637\u0631 \u0643\u064e\u062a\u064e\u0628\u064e"
    assert analyzer(arabic) == arabic.split() == analyzer.tokenize([arabic]).words
    hebrew = "\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd"
    assert analyzer(hebrew) == [hebrew]
    # a word is still two letters or more, its marks with it; digits still split nothing
    assert analyzer("\u0915\u0940 \u0915\u0940\u0915 x\u0301 ab3\u0301c") == ["\u0915\u0940\u0915"]
    # an orphan mark (after a space) is not part of the next word, as before
    assert analyzer(" \u0301word") == ["word"]
    vec = DocumentVectorizer(min_df=1, max_df=1.0, stop_words=None, stem=False)
    vec.fit([hindi, arabic])
    assert set(vec.get_feature_names_out()) == set(hindi.split() + arabic.split())


def test_a_list_of_stop_words_is_read_as_the_texts_are():
    """The texts are read composed (NFC), with the Turkish capital dotted I as I and ligatures
    as letters, but a list of stop words was only lower-cased: "fu\u0308r" (as a file saved on
    macOS holds it), "\u0130\u00e7in" or "\ufb01nal" removed nothing."""
    analyzer = Analyzer(stop_words=["fu\u0308r", "\u0130\u00e7in", "\ufb01nal", "Und"], stem=False)
    assert analyzer("f\u00fcr i\u00e7in final und F\u00dcR \u0130\u00c7\u0130N Haus") == ["haus"]
    tokens = analyzer.tokenize(["f\u00fcr i\u00e7in final und F\u00dcR \u0130\u00c7\u0130N Haus"])
    assert tokens.words == ["haus"]


def test_xu2003_tfidf_by_hand():
    counts = np.array([[2, 1, 0], [0, 1, 3], [1, 1, 1]], dtype=float)
    n = 3
    df = np.array([2, 3, 2])
    expected = counts * np.log(n / df)
    expected /= np.linalg.norm(expected, axis=1, keepdims=True)
    np.testing.assert_allclose(tfidf_xu2003(counts).toarray(), expected)


def test_variants_by_hand():
    counts = sp.csr_matrix(np.array([[4, 0], [1, 2]], dtype=float))
    sub = TfidfWeighting(tf="sublinear", idf="none", norm=None).fit_transform(counts).toarray()
    np.testing.assert_allclose(sub, [[1 + np.log(4), 0], [1, 1 + np.log(2)]])
    smooth = TfidfWeighting(idf="smooth", norm=None).fit(counts).idf_
    np.testing.assert_allclose(smooth, [np.log(3 / 3) + 1, np.log(3 / 2) + 1])


def test_sublinear_tf_refuses_values_it_would_make_negative():
    """1 + log t of a weight below 1/e is negative: a matrix of weights between 0.05 and 0.3
    stopped later with "Negative values in data passed to NMFClustering", which the user's
    input did not hold."""
    weights = sp.csr_matrix(np.array([[0.2, 1.0, 3.0], [0.5, 0.1, 0.0]]))
    with pytest.raises(ValueError, match=r"negative for a value t below 1/e, and the smallest "
                                         r"here is 0\.1: it is meant for term counts"):
        TfidfWeighting(tf="sublinear").fit_transform(weights)
    # from 1/e up it is not: 0 there, above 0 beyond
    edge = TfidfWeighting(tf="sublinear", idf="none", norm=None).fit_transform(
        sp.csr_matrix(np.array([[np.exp(-1.0), 0.5, 2.0]]))).toarray()
    assert edge.min() >= 0 and edge[0, 2] == pytest.approx(1 + np.log(2))


def test_idf_learnt_on_fit_corpus_applied_to_new_documents():
    w = TfidfWeighting(norm=None).fit(np.array([[1, 1], [0, 1], [0, 1]]))
    np.testing.assert_allclose(w.transform(np.array([[2, 5]])).toarray(), [[2 * np.log(3), 0.0]])


def test_input_not_modified():
    counts = sp.csr_matrix(np.array([[4.0, 0], [1, 2]]))
    before = counts.copy()
    TfidfWeighting(tf="sublinear").fit_transform(counts)
    assert (counts != before).nnz == 0


def test_vectorizer_fit_transform_and_new_documents(tiny_texts):
    texts, _ = tiny_texts
    v = DocumentVectorizer(min_df=1, max_df=1.0)
    X = v.fit_transform(texts)
    names = v.get_feature_names_out().tolist()
    assert names == sorted(names)
    assert sp.isspmatrix_csr(X) and X.shape == (6, len(names))
    np.testing.assert_allclose(sp.linalg.norm(X, axis=1), 1.0)
    Y = v.transform(["The striker scored a goal", "completely unseen words zebra"])
    assert Y.shape == (2, len(names))
    assert Y[1].nnz == 0
    assert set(np.array(names)[Y[0].indices]) == {"striker", "score", "goal"}
    # refitting gives the same vocabulary and values
    X2 = DocumentVectorizer(min_df=1, max_df=1.0).fit_transform(texts)
    assert (X != X2).nnz == 0


def test_pruning_and_cap(tiny_texts):
    texts, _ = tiny_texts
    full = DocumentVectorizer(min_df=1, max_df=1.0).fit(texts)
    pruned = DocumentVectorizer(min_df=2, max_df=1.0).fit(texts)
    capped = DocumentVectorizer(min_df=1, max_df=1.0, max_features=5).fit(texts)
    assert len(pruned.vocabulary_) < len(full.vocabulary_)
    assert len(capped.vocabulary_) == 5
    assert "inflat" in pruned.vocabulary_ and "goalkeep" not in pruned.vocabulary_


def test_empty_vocabulary_is_a_clear_error():
    # no word to prune: the max_df advice ("documents that share every word") was given too
    with pytest.raises(EmptyVocabularyError, match="no index terms") as exc:
        DocumentVectorizer().fit(["the and of", "a 123 !!"])
    assert "every word is a stop word" in str(exc.value) and "max_df" not in str(exc.value)
    # words in every document are pruned by max_df; one of them is counted in the singular
    with pytest.raises(EmptyVocabularyError,
                       match=r"\(1 term before pruning: 1 in more than max_df"):
        DocumentVectorizer(min_df=1).fit(["galaxy", "galaxy", "galaxy"])
    with pytest.raises(EmptyVocabularyError,
                       match=r"\(2 terms before pruning: 2 in more than max_df"):
        DocumentVectorizer(min_df=1).fit(["galaxy star", "galaxy star", "galaxy star"])


def test_readable_names():
    v = DocumentVectorizer(min_df=1, max_df=1.0).fit(["galaxies galaxy", "the galaxy"])
    assert v.readable_feature_names(["galaxies galaxy", "the galaxy"]).tolist() == ["galaxy"]


def test_ncw_weights_without_n_by_n():
    X = sp.random(50, 30, density=0.2, random_state=0, format="csr")
    d = (X @ X.T).toarray().sum(axis=1)
    np.testing.assert_allclose(ncw_weights(X), 1.0 / d)


def test_a_vocabulary_pruned_away_says_which_bound_took_it():
    """Five copies of one text left "no index terms ... (3 terms before pruning)", with no
    word of max_df, which removed them all."""
    from docnmf.text.vectorize import EmptyVocabularyError

    with pytest.raises(EmptyVocabularyError, match=r"\(3 terms before pruning: 3 in more than "
                                                   r"max_df=0.95 of the documents \(documents "
                                                   r"that share every word: raise max_df"):
        DocumentVectorizer().fit(["stars planets orbit"] * 39 + ["stars planets"])
    with pytest.raises(EmptyVocabularyError, match=r"\(6 terms before pruning: 6 in fewer "
                                                   r"than min_df=2\)"):
        DocumentVectorizer().fit(["stars planets", "oven bread", "goal match"])


def test_terms_in_every_document_point_to_a_weighting_that_keeps_them():
    """Five copies of one text: the hint "raise max_df, e.g. to 1.0" led to a second error
    (every idf log(n / n) = 0: "only 0 of the 5 documents have index terms")."""
    from docnmf.text.vectorize import EmptyVocabularyError

    texts = ["stars planets orbit", "stars planets orbit orbit"] * 3
    with pytest.raises(EmptyVocabularyError, match=r"every term is in every document.*"
                                                   r"max_df=1.0 with idf='smooth'"):
        DocumentVectorizer().fit(texts)
    X = DocumentVectorizer(max_df=1.0, idf="smooth").fit_transform(texts)   # as it says
    assert X.shape == (6, 3) and np.diff(X.indptr).min() == 3


def test_settings_that_cannot_work_are_named(tiny_texts):
    texts, _ = tiny_texts
    with pytest.raises(ValueError, match=r"token_pattern '\(' is not a regular expression"):
        DocumentVectorizer(token_pattern="(").fit(texts)
    # a pattern that matches nothing at all made "" a term, from every gap between letters
    with pytest.raises(ValueError, match=r"token_pattern 'a\*' matches an empty word"):
        DocumentVectorizer(token_pattern="a*").fit(texts)
    # two groups made each word a tuple of them: a TypeError deep in the stemmer
    with pytest.raises(ValueError, match="has 2 capturing groups; give at most one"):
        DocumentVectorizer(token_pattern=r"(\w)(\w+)").fit(texts)
    assert DocumentVectorizer(token_pattern=r"(?:\w)(\w+)", min_df=1).fit(texts).vocabulary_
    with pytest.raises(ValueError, match="max_df must be above 0"):
        DocumentVectorizer(max_df=0.0).fit(texts)
    # min_df=1.0 is every document, above the default max_df: both named, with their counts
    with pytest.raises(ValueError, match=r"max_df=0.95 \(5.7 of the 6 documents\) is below "
                                         r"min_df=1.0 \(6\)"):
        DocumentVectorizer(min_df=1.0).fit(texts)
    # a small fraction below min_df is refused as its count is; only a tiny corpus, where the
    # default drops nothing but the terms of every document, keeps every term
    from docnmf.text.vectorize import document_count_bounds

    with pytest.raises(ValueError, match=r"max_df=0.03 \(1.5 of the 50 documents\) is below "
                                         r"min_df=2"):
        document_count_bounds(2, 0.03, None, 50)
    assert document_count_bounds(2, 0.95, None, 2) == (2, 2.0)
    # a count above the documents is clipped, and said as given (it was "min_df=500 (500)" of
    # --min-df 600)
    with pytest.raises(ValueError, match=r"max_df=0.95 \(475 of the 500 documents\) is below "
                                         r"min_df=600 \(clipped to the 500 documents\)"):
        document_count_bounds(600, 0.95, None, 500)


def test_no_documents_give_no_rows(tiny_texts):
    texts, _ = tiny_texts
    vec = DocumentVectorizer(min_df=1).fit(texts)
    X = vec.transform([])
    assert sp.issparse(X) and X.shape == (0, len(vec.vocabulary_))


def test_tokenizing_a_large_corpus_says_how_far_it_is(monkeypatch, caplog):
    """Clustering 1 GB of text showed nothing for a minute while the texts were tokenized."""
    import logging

    from docnmf.text import tokenize

    monkeypatch.setattr(tokenize, "PROGRESS_SECONDS", 0.0)    # a line after every document
    with caplog.at_level(logging.INFO, logger="docnmf"):
        DocumentVectorizer(min_df=1).fit(["stars and planets", "bread in the oven", "goal"])
    assert [r.getMessage().split(" in ")[0] for r in caplog.records
            if r.getMessage().startswith("tokenizing")] == [
        "tokenizing: 1 of 3 documents", "tokenizing: 2 of 3 documents",
        "tokenizing: 3 of 3 documents"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=("Mn", "Mc", "Me", "Cs"))))
def test_a_text_without_marks_is_read_alike_by_the_patterns_without_them(text):
    """A text that holds no combining mark is read by the patterns without the class of marks,
    several times faster (20 Newsgroups through Analyzer: 36 s with it, 9 s without); they
    must find what the patterns with it find."""
    from docnmf.text.tokenize import (
        _PLAIN_DEFAULT,
        _PLAIN_LETTERS_RUN,
        _PLAIN_WORD_RUN,
        _default_regex,
        _letters_run,
        _word_run,
    )

    for t in (text, text.lower()):
        assert _PLAIN_DEFAULT.findall(t) == _default_regex().findall(t)
        runs = _PLAIN_WORD_RUN.findall(t)
        assert runs == _word_run().findall(t)
        assert [bool(_PLAIN_LETTERS_RUN.fullmatch(r)) for r in runs] == \
            [bool(_letters_run().fullmatch(r)) for r in runs]


def test_a_text_is_said_to_hold_marks_exactly_when_a_character_is_one():
    """Whether a text holds a combining mark decides which patterns read it; it is asked of
    a set of the marks (a character's category asked in Python, for each character of every
    non-ASCII text, doubled the time a Cyrillic corpus took): the set must hold every mark
    and nothing else, of every plane."""
    import unicodedata

    from docnmf.text.tokenize import _has_marks

    marks = {chr(c) for c in range(0x110000)
             if unicodedata.category(chr(c)) in ("Mn", "Mc", "Me")}
    assert [c for c in map(chr, range(0x110000)) if _has_marks(c) != (c in marks)] == []
    assert _has_marks("Москва का") and not _has_marks(
        "Москва café")
