"""The fast text pipeline against slow, obvious references on awkward little texts.

``DocumentVectorizer`` tokenizes the whole corpus once, stems each distinct
word once and builds the count matrix in one pass; nothing about its output
may differ from doing every step per occurrence, as documented.
"""

import re
import unicodedata
from collections import Counter

import numpy as np
import pytest
import scipy.sparse as sp
import Stemmer
from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, CountVectorizer

from docnmf.text.tokenize import DEFAULT_TOKEN_PATTERN, Analyzer
from docnmf.text.vectorize import DocumentVectorizer
from docnmf.text.weighting import TfidfWeighting

TEXTS = [
    "The galaxies and the galaxy: galaxies, GALAXY, Galaxy!",
    "",
    "the and of to a an is",  # stop words only
    "123 4.56 1e10 x1 abc123 foo_bar __init__ 2nd",  # numbers and word characters that split
    "Café naïve résumé CAFÉ café; Straße STRASSE ẞ",
    "λόγος Λόγος ΛΌΓΟΣ, Москва москва, 東京 東京",
    "İstanbul ǅemal ﬁnance ①② ²³ ١٢٣ ｆｕｌｌｗｉｄｔｈ ＡＢＣ I\u0307zmir i\u0307zmit ki\u0307\u0301lo",
    "cafe\u0301 e\u0301te\u0301 zero\u200bwidth non\u00a0breaking soft\u00adhyphen \ufffd\ufffd",
    "connection connecting connected connects connect connections",
    "running runner runs ran run run run run",
    "e-mail don't it's O'Neil U.S.A. a.k.a. x y z",
    "repeat repeat repeat repeat repeat repeat repeat repeat repeat repeat",
    "tab\tseparated\nnew line\r\nwindows\x0cform feed\x1cfile sep",
    "connecting connection galaxy planets planet planetary",
    "emoji 🚀🚀 rocket launch rockets launching launch",
    "\n\n\n   \t ",
    "Running RUNNING running; the runner's run",
]

NEW_TEXTS = ["", "galaxy rocket zebra unseen", "CAFÉ café running 東京", "the of"]


def reference_printed(ch: str) -> str:
    """A character as documented: soft hyphen, zero-width (non-)joiners, word joiner and
    byte-order mark dropped; the Latin ligatures (U+FB00 to U+FB06) and full-width forms
    (U+FF01 to U+FF5E) as their compatibility decomposition; any other as it is."""
    if ch in "\u00ad\u200c\u200d\u2060\ufeff":
        return ""
    if 0xFB00 <= ord(ch) <= 0xFB06 or 0xFF01 <= ord(ch) <= 0xFF5E:
        return unicodedata.normalize("NFKC", ch)
    return ch


def reference_words(text: str) -> list[str]:
    """Tokens as documented: printed forms replaced, Unicode NFC, a dotted I (composed there,
    or lower-cased to i and the dot) as I and NFC again, lowercase, the token pattern, stop
    words out (no stemming)."""
    text = unicodedata.normalize("NFC", "".join(map(reference_printed, text)))
    text = unicodedata.normalize("NFC", text.replace("\u0130", "I").replace("i\u0307", "i"))
    return [t for t in re.findall(DEFAULT_TOKEN_PATTERN, text.lower())
            if t not in ENGLISH_STOP_WORDS]


def reference_stem(word: str) -> str:
    return Stemmer.Stemmer("porter").stemWord(word)


def reference_counts(texts, min_df, max_df):
    """Term counts per document, one stem at a time; vocabulary sorted, df-pruned."""
    docs = [Counter(reference_stem(w) for w in reference_words(t)) for t in texts]
    df = Counter(term for doc in docs for term in doc)
    vocabulary = sorted(t for t, d in df.items() if min_df <= d <= max_df)
    counts = np.array([[doc[t] for t in vocabulary] for doc in docs], dtype=float)
    return vocabulary, counts.reshape(len(texts), len(vocabulary))


def reference_tfidf(counts, df_counts):
    """Xu et al. (2003): t * log(n / df), then each document scaled to unit length."""
    n = df_counts.shape[0]
    df = (df_counts > 0).sum(axis=0)
    X = counts * np.where(df > 0, np.log(n / np.maximum(df, 1)), 0.0)
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    return np.divide(X, norms, out=np.zeros_like(X), where=norms > 0)


def reference_readable(texts, vocabulary):
    """Each stem's most frequent word; ties: the shorter, then the first in alphabetical order
    (not the one seen first, which made the names depend on the documents' order)."""
    counts = Counter(w for t in texts for w in reference_words(t))
    names = []
    for term in vocabulary:
        candidates = [w for w in counts if reference_stem(w) == term]
        if not candidates:
            names.append(term)
            continue
        names.append(min(candidates, key=lambda w: (-counts[w], len(w), w)))
    return names


def count_vectorizer_path(texts, new_texts, **params):
    """The vectorizer as it was built on scikit-learn's CountVectorizer, per occurrence."""
    counter = CountVectorizer(analyzer=Analyzer(), dtype=np.float64, **params)
    counts = counter.fit_transform(texts)
    weighting = TfidfWeighting().fit(counts)
    return (counter.vocabulary_, weighting.transform(counts),
            weighting.transform(counter.transform(new_texts)))


def assert_same_csr(A, B):
    A, B = sp.csr_matrix(A), sp.csr_matrix(B)
    assert A.shape == B.shape
    np.testing.assert_array_equal(A.indptr, B.indptr)
    np.testing.assert_array_equal(A.indices, B.indices)
    np.testing.assert_array_equal(A.data, B.data)  # bit for bit, not approximately


def test_analyzer_tokenize_matches_words_per_text():
    analyzer = Analyzer()
    tokens = analyzer.tokenize(TEXTS)
    for d, text in enumerate(TEXTS):
        ids = tokens.ids[tokens.offsets[d]:tokens.offsets[d + 1]]
        assert [tokens.words[i] for i in ids] == analyzer.words(text) == reference_words(text)
    assert len(set(tokens.words)) == len(tokens.words)


@pytest.mark.parametrize("lowercase", [True, False])
def test_word_runs_find_the_default_pattern_tokens(lowercase):
    # random strings over letters, digits and marks of several scripts, ASCII and not
    alphabet = list("abcXYZ019_ -.,'\t\n\x0c") + list("éÉßẞİıσΣς²①٣０ａＡ\u0301\u200b\u00a0\ufffd東🚀")
    rng = np.random.default_rng(0)
    texts = ["".join(rng.choice(alphabet, size=rng.integers(0, 40))) for _ in range(2000)]
    texts += ["".join(rng.choice(alphabet[:21], size=30)) for _ in range(500)]  # ASCII only
    analyzer = Analyzer(stop_words=["ab", "É"], lowercase=lowercase)
    tokens = analyzer.tokenize(texts)
    for d, text in enumerate(texts):
        ids = tokens.ids[tokens.offsets[d]:tokens.offsets[d + 1]]
        assert [tokens.words[i] for i in ids] == analyzer.words(text), repr(text)


def test_custom_token_pattern_is_used_as_given():
    analyzer = Analyzer(token_pattern=r"\b\w+\b", stem=False)
    tokens = analyzer.tokenize(["R2 d2 x 2024", "x_y"])
    assert [tokens.words[i] for i in tokens.ids] == ["r2", "d2", "x", "2024", "x_y"]


@pytest.mark.parametrize("min_df, max_df", [(1, 1.0), (2, 1.0), (1, 3), (2, 0.5)])
def test_vectorizer_matches_reference(min_df, max_df):
    v = DocumentVectorizer(min_df=min_df, max_df=max_df)
    X = v.fit_transform(TEXTS)
    high = max_df if isinstance(max_df, int) else max_df * len(TEXTS)
    vocabulary, counts = reference_counts(TEXTS, min_df, high)
    assert v.get_feature_names_out().tolist() == vocabulary
    assert v.vocabulary_ == {t: j for j, t in enumerate(vocabulary)}
    np.testing.assert_array_equal(v.count(TEXTS).toarray(), counts)
    expected = reference_tfidf(counts, counts)
    np.testing.assert_array_equal(X.toarray() != 0, expected != 0)
    np.testing.assert_allclose(X.toarray(), expected, rtol=1e-12, atol=0)
    assert v.readable_feature_names(TEXTS).tolist() == reference_readable(TEXTS, vocabulary)


def test_new_documents_match_reference():
    v = DocumentVectorizer(min_df=1, max_df=1.0).fit(TEXTS)
    vocabulary, fit_counts = reference_counts(TEXTS, 1, len(TEXTS))
    column = {t: j for j, t in enumerate(vocabulary)}
    counts = np.zeros((len(NEW_TEXTS), len(vocabulary)))
    for d, text in enumerate(NEW_TEXTS):
        for w in reference_words(text):
            if reference_stem(w) in column:
                counts[d, column[reference_stem(w)]] += 1
    np.testing.assert_array_equal(v.count(NEW_TEXTS).toarray(), counts)
    # names read from other texts than the fitting ones: stems absent there stay stems
    assert v.readable_feature_names(NEW_TEXTS).tolist() == reference_readable(NEW_TEXTS, vocabulary)


@pytest.mark.parametrize("params", [
    {"min_df": 1, "max_df": 1.0},
    {"min_df": 2, "max_df": 0.95},
    {"min_df": 0.1, "max_df": 0.5},
    {"min_df": 1, "max_df": 1.0, "max_features": 6},  # the cut falls inside a tie
])
def test_bit_identical_to_count_vectorizer_path(params):
    vocabulary, X, Y = count_vectorizer_path(TEXTS, NEW_TEXTS, **params)
    v = DocumentVectorizer(**params)
    assert_same_csr(v.fit_transform(TEXTS), X)
    assert v.vocabulary_ == vocabulary
    assert_same_csr(v.transform(NEW_TEXTS), Y)


def test_readable_names_from_fit_equal_a_fresh_pass():
    v = DocumentVectorizer(min_df=1, max_df=1.0).fit(TEXTS)
    forms = Analyzer().readable_forms(list(TEXTS))
    fresh = [forms.get(t, t) for t in v.get_feature_names_out()]
    assert v.readable_feature_names(TEXTS).tolist() == fresh
    assert v.readable_feature_names(list(TEXTS)).tolist() == fresh  # a copy of the same texts


def test_readable_forms_tie_breaks():
    # 'connection' and 'connecting' both occur twice and are as long: the first in
    # alphabetical order wins, whichever is seen first (the first seen did: a name depended
    # on the order of the documents)
    texts = ["connecting connection", "connection connecting connected connected connected"]
    assert Analyzer().readable_forms(texts) == {"connect": "connected"}
    assert Analyzer().readable_forms(texts[:1] * 2) == {"connect": "connecting"}
    assert Analyzer().readable_forms(["connection connecting"]) == {"connect": "connecting"}
    # the shorter first, the count before all
    assert Analyzer().readable_forms(["connects connected"]) == {"connect": "connects"}
    assert Analyzer().readable_forms(["connects connected connected"]) == {"connect": "connected"}
