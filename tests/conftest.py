"""Shared fixtures: seeds, planted clusters, tiny texts, dense/sparse containers, the corpora."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from docnmf.corpus._paths import data_dir


@pytest.fixture
def docnmf_env() -> dict:
    """The environment of a ``python -m docnmf`` subprocess: the package these tests import on
    its path (a checkout's ``src/``, or where it is installed), not the checkout's ``src/``
    alone, which holds no compiled kernels when docnmf was installed rather than built there."""
    import docnmf

    return dict(os.environ, PYTHONPATH=str(Path(docnmf.__file__).resolve().parents[1]))


@pytest.fixture
def seed() -> int:
    return 20031


def make_planted(n_docs: int = 120, n_terms: int = 60, k: int = 3, seed: int = 0, noise: float = 0.05):
    """Non-negative docs x terms matrix with ``k`` planted topics on disjoint term blocks.

    Each document draws most of its mass from its topic's block of terms and a
    little from everywhere, so the clusters are known and recoverable.
    """
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), int(np.ceil(n_docs / k)))[:n_docs]
    rng.shuffle(y)
    blocks = np.array_split(np.arange(n_terms), k)
    X = noise * rng.random((n_docs, n_terms))
    for i, c in enumerate(y):
        X[i, blocks[c]] += rng.random(len(blocks[c]))
    X[X < 2 * noise * 0.5] = 0.0  # make it genuinely sparse
    return X, y


def make_planted_terms(seed, n=90, k=3, per=8, n_noise=24):
    """Documents x terms: ``per`` informative terms per cluster, ``n_noise`` noise terms.

    Informative terms are ~1 in their cluster's documents and ~0 elsewhere;
    noise terms are unstructured with the same mean and variance. Columns are
    shuffled; returns X, labels and the indices of the informative columns.
    """
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), n // k)
    inf = np.zeros((n, k * per))
    for c in range(k):
        inf[y == c, c * per:(c + 1) * per] = 1.0
    inf += 0.05 * rng.random(inf.shape)
    noise = rng.random((n, n_noise))
    noise = np.clip((noise - noise.mean()) / noise.std() * inf.std() + inf.mean(), 0, None)
    X = np.hstack([inf, noise])
    perm = rng.permutation(X.shape[1])
    return X[:, perm], y, np.flatnonzero(perm < k * per)


@pytest.fixture
def planted():
    return make_planted


@pytest.fixture
def planted_terms():
    return make_planted_terms


@pytest.fixture
def tiny_texts() -> tuple[list[str], list[int]]:
    texts = [
        "The goalkeeper saved a penalty and the striker scored twice in the final.",
        "Fans cheered as the team won the league after a late goal.",
        "The coach praised the defenders after the football match.",
        "The central bank raised interest rates to curb inflation.",
        "Shares fell as investors worried about bond yields and inflation.",
        "The stock market rallied when the bank cut interest rates.",
    ]
    return texts, [0, 0, 0, 1, 1, 1]


@pytest.fixture(params=["dense", "csr"])
def container(request):
    if request.param == "dense":
        return np.asarray
    return sp.csr_matrix


@pytest.fixture(scope="session")
def datasets_dir():
    """The shared corpora folder; skips with a reason when absent, fails under CI."""
    path = data_dir()
    if not path.is_dir():
        msg = f"corpora folder {path} not found (set DOCNMF_DATA)"
        if os.environ.get("CI"):
            pytest.fail(msg + "; CI must have the corpora")
        pytest.skip(msg)
    return path


def require(path):
    """Skip (or fail under CI) when one corpus file is missing."""
    if not path.exists():
        msg = f"{path} not found"
        if os.environ.get("CI"):
            pytest.fail(msg + "; CI must have the corpora")
        pytest.skip(msg)
    return path


def check_distance_memberships(memberships, sq_distances, labels=None):
    """``memberships`` are the fuzzy c-means (m = 2) reading of ``sq_distances``, written out.

    Each row is ``(1 / d_ic) / sum_j (1 / d_ij)``, computed here one document at
    a time; when ``labels`` are given they are the largest membership of each
    row, and at least one row is not one-hot (the memberships carry more than
    the labels).
    """
    expected = np.empty_like(memberships)
    for i, row in enumerate(np.asarray(sq_distances, dtype=float)):
        row = np.maximum(row, 0.0)
        if np.any(row == 0):
            expected[i] = (row == 0) / np.sum(row == 0)
        else:
            expected[i] = (1.0 / row) / np.sum(1.0 / row)
    np.testing.assert_allclose(memberships, expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(memberships.sum(axis=1), 1.0)
    if labels is not None:
        np.testing.assert_array_equal(np.argmax(memberships, axis=1), labels)
        assert np.any(memberships.max(axis=1) < 1.0)


@pytest.fixture
def distance_memberships_check():
    return check_distance_memberships


@pytest.fixture
def blas_threads_restored():
    """BLAS's thread counts put back as they were after a test whose command set them
    (``--threads`` limits them for the rest of the process, as a command may)."""
    from threadpoolctl import threadpool_info, threadpool_limits

    before = {info["filepath"]: info["num_threads"] for info in threadpool_info()}
    yield
    for info in threadpool_info():
        if info["filepath"] in before:
            threadpool_limits(limits=before[info["filepath"]], user_api=info["user_api"])


def run_python(code: str, **options) -> subprocess.CompletedProcess:
    """``code`` run by this interpreter in a process of its own, its output captured as text."""
    return subprocess.run([sys.executable, "-c", code], text=True, capture_output=True,
                          timeout=120, check=False, **options)


def write_text_folder(root, topics: dict[str, list[str]]):
    """``root/<label>/<i>.txt`` for each label's texts (``i`` three digits); returns ``root``."""
    for label, texts in topics.items():
        (root / label).mkdir(parents=True)
        for i, text in enumerate(texts):
            (root / label / f"{i:03d}.txt").write_text(text)
    return root


@pytest.fixture
def text_folder():
    return write_text_folder


@pytest.fixture
def outlier_topics() -> dict[str, list[str]]:
    """Three planted topics of 240 made-up-word documents and two pairs of three-word
    documents that share their words with nothing else: the default method (LCCF-NCW) gives
    each pair a cluster of its own (sizes 2, 2, 240), a degenerate result."""
    from docnmf.corpus.synthetic import planted_topic_model, topic_documents

    model = planted_topic_model(n_topics=3, vocabulary_size=300, mean_length=40,
                                topic_share=0.5, seed=0)
    texts, topics = topic_documents(model, 240, np.random.default_rng(0))
    out: dict[str, list[str]] = {f"t{t}": [] for t in range(3)}
    for text, t in zip(texts, topics):
        out[f"t{t}"].append(text)
    out["junk"] = [f"{w} {w}x {w}y" for w in ("junkworda", "junkwordb") for _ in range(2)]
    return out


@pytest.fixture
def cli(capsys):
    """``docnmf`` in-process: ``cli(argv) -> (exit status, stdout, stderr)``."""
    from docnmf.cli import main

    def run(argv):
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err
    return run


#: Two topics of four short documents each, for command-line tests.
TOY_TOPICS = {
    "space": ["The telescope observed a distant galaxy and a bright comet in orbit.",
              "Astronomers measured the planet orbit around the faint star.",
              "A comet passed the planet while the telescope tracked the star.",
              "The galaxy holds billions of stars; astronomers map the orbit of each planet."],
    "food": ["Simmer the garlic and onion sauce, then bake the dough in the oven.",
             "The recipe needs garlic, butter and flour for the dough.",
             "Bake the bread in a hot oven and serve with garlic butter.",
             "Chop the onion, simmer the sauce and season the recipe with salt."],
}


@pytest.fixture
def toy_topics() -> dict[str, list[str]]:
    return {label: list(texts) for label, texts in TOY_TOPICS.items()}
