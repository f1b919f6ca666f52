"""NPMI coherence: hand-computed values, and gensim's c_npmi as an independent check."""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.text.coherence import NPMI_EPSILON, npmi_coherence


def _npmi(n_i, n_j, n_ij, n):
    p_ij = n_ij / n + NPMI_EPSILON
    return math.log(p_ij / ((n_i / n) * (n_j / n))) / -math.log(p_ij)


def test_three_words_by_hand():
    # 5 documents; word a in 0-2, word b in 1-3, word c in 3-4
    X = np.array([[1, 0, 0], [2, 1, 0], [1, 3, 0], [0, 1, 1], [0, 0, 4]], dtype=float)
    ab = math.log((2 / 5) / ((3 / 5) * (3 / 5))) / -math.log(2 / 5)   # 0.1150
    ac = math.log(NPMI_EPSILON / ((3 / 5) * (2 / 5))) / -math.log(NPMI_EPSILON)
    bc = math.log((1 / 5) / ((3 / 5) * (2 / 5))) / -math.log(1 / 5)   # -0.1133
    expected = (ab + ac + bc) / 3
    assert npmi_coherence(X, [[0, 1, 2]])[0] == pytest.approx(expected, abs=1e-9)
    assert ab == pytest.approx(0.11499, abs=1e-4) and bc == pytest.approx(-0.11328, abs=1e-4)
    # the order of the words and the matrix format do not matter
    assert npmi_coherence(sp.csr_matrix(X), [[2, 0, 1]])[0] == pytest.approx(expected, abs=1e-9)


def test_edge_cases():
    X = np.array([[1, 1, 1], [1, 1, 0], [1, 1, 0]])
    out = npmi_coherence(X, [[0, 1], [0], []])
    assert out[0] == 1.0          # both words in every document
    assert np.isnan(out[1]) and np.isnan(out[2])
    assert np.isnan(npmi_coherence(np.zeros((0, 3)), [[0, 1]])[0])   # no documents


def test_independent_words_score_near_zero():
    rng = np.random.default_rng(0)
    X = rng.random((20000, 2)) < 0.3
    assert abs(npmi_coherence(X.astype(float), [[0, 1]])[0]) < 0.02


def _gensim():
    try:
        from gensim.corpora import Dictionary
        from gensim.models import CoherenceModel
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("gensim is part of the test extra; CI must have it")
        pytest.skip("gensim is not installed (pip install -e '.[test]')")
    return Dictionary, CoherenceModel


def test_matches_gensim_c_npmi_with_document_windows():
    Dictionary, CoherenceModel = _gensim()
    rng = np.random.default_rng(7)
    vocab = [f"w{i}" for i in range(30)]
    # documents drawn from two overlapping word pools, so pairs co-occur unevenly
    texts = []
    for d in range(60):
        pool = vocab[:18] if d % 2 else vocab[12:]
        texts.append([str(w) for w in rng.choice(pool, size=rng.integers(3, 12))])
    dictionary = Dictionary(texts)
    topics = [["w1", "w3", "w5", "w14", "w16"], ["w13", "w20", "w25", "w29"], ["w2", "w27"]]
    window = max(len(t) for t in texts)
    theirs = CoherenceModel(topics=topics, texts=texts, dictionary=dictionary,
                            coherence="c_npmi", window_size=window).get_coherence_per_topic()
    column = {w: j for j, w in enumerate(vocab)}
    X = np.zeros((len(texts), len(vocab)))
    for i, text in enumerate(texts):
        for w in text:
            X[i, column[w]] += 1
    ours = npmi_coherence(X, [[column[w] for w in topic] for topic in topics])
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)
