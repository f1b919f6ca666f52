"""Synthetic corpora from a planted topic model: scale tests without shipping data.

Each document belongs to one planted topic. Its length is drawn from a
lognormal (or Poisson) distribution; each of its words comes from its topic's
own words with probability ``topic_share``, else from the words of the whole
vocabulary (both Zipf-weighted). The words are made-up letter strings that the
tokenizer keeps and the Porter stemmer leaves as they are, so the vectorized
matrix has exactly the vocabulary the model drew from. Files are written as
JSON Lines partitions (``{"id", "text", "label"}``), each from its own seeded
generator, so a partition comes out the same whichever process writes it.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..io import atomic_write_text

__all__ = ["TopicModel", "planted_topic_model", "write_topic_corpus", "topic_documents"]

_CONSONANTS = "bdfgklmnprtvz"
_VOWELS = "aou"
_FINALS = "bdgkmnprtv"


@dataclass(frozen=True)
class TopicModel:
    """A planted topic model: the words, each topic's word distribution and the background's."""

    words: np.ndarray          # (vocabulary_size,) made-up words
    topics: np.ndarray         # (n_topics, vocabulary_size) word probabilities, rows sum to 1
    background: np.ndarray     # (vocabulary_size,) word probabilities
    topic_share: float
    mean_length: float
    length_sigma: float

    @property
    def n_topics(self) -> int:
        return self.topics.shape[0]


def _stable_words(n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` distinct lowercase words that the Porter stemmer leaves unchanged."""
    import Stemmer

    stemmer = Stemmer.Stemmer("porter", 0)
    found: dict[str, None] = {}
    while len(found) < n:
        m = 2 * (n - len(found)) + 16
        syllables = rng.integers(2, 5, size=m)
        batch = []
        for s in syllables:
            body = "".join(_CONSONANTS[rng.integers(len(_CONSONANTS))] +
                           _VOWELS[rng.integers(len(_VOWELS))] for _ in range(s))
            batch.append(body + _FINALS[rng.integers(len(_FINALS))])
        for word, stem in zip(batch, stemmer.stemWords(batch)):
            if word == stem and word not in found:
                found[word] = None
                if len(found) == n:
                    break
    return np.array(list(found), dtype=object)


def _zipf(n: int, exponent: float, rng: np.random.Generator) -> np.ndarray:
    weights = 1.0 / np.arange(1, n + 1) ** exponent
    return rng.permutation(weights / weights.sum())


def planted_topic_model(*, n_topics: int = 20, vocabulary_size: int = 50_000,
                        mean_length: float = 100.0, length_sigma: float = 0.5,
                        topic_share: float = 0.5, exponent: float = 1.0,
                        seed: int = 0) -> TopicModel:
    """A topic model whose topics each own an equal block of the vocabulary.

    Parameters
    ----------
    n_topics : int
    vocabulary_size : int
    mean_length : float
        Mean words per document (before stop-word removal; the words are no stop words).
    length_sigma : float
        Spread of the lognormal length distribution; 0 draws Poisson lengths.
    topic_share : float
        Probability that a word comes from the document's topic.
    exponent : float
        Zipf exponent of the word frequencies within a topic and the background.
    seed : int

    Examples
    --------
    >>> model = planted_topic_model(n_topics=3, vocabulary_size=30, seed=1)
    >>> model.topics.shape, bool(np.allclose(model.topics.sum(axis=1), 1))
    ((3, 30), True)
    """
    if not 0 <= topic_share <= 1:
        raise ValueError(f"topic_share must lie in [0, 1], got {topic_share}")
    if vocabulary_size < n_topics:
        raise ValueError("the vocabulary needs at least one word per topic")
    rng = np.random.default_rng(seed)
    words = _stable_words(vocabulary_size, rng)
    topics = np.zeros((n_topics, vocabulary_size))
    for t, block in enumerate(np.array_split(rng.permutation(vocabulary_size), n_topics)):
        topics[t, block] = _zipf(len(block), exponent, rng)
    return TopicModel(words, topics, _zipf(vocabulary_size, exponent, rng), float(topic_share),
                      float(mean_length), float(length_sigma))


def topic_documents(model: TopicModel, n_docs: int, rng: np.random.Generator
                    ) -> tuple[list[str], np.ndarray]:
    """``n_docs`` documents drawn from ``model``, and the topic of each."""
    topics = rng.integers(model.n_topics, size=n_docs)
    if model.length_sigma > 0:
        mu = np.log(model.mean_length) - model.length_sigma ** 2 / 2   # the mean is mean_length
        lengths = np.maximum(1, np.rint(rng.lognormal(mu, model.length_sigma, n_docs)))
    else:
        lengths = np.maximum(1, rng.poisson(model.mean_length, n_docs))
    lengths = lengths.astype(np.int64)
    total = int(lengths.sum())
    from_topic = rng.random(total) < model.topic_share
    doc_of = np.repeat(np.arange(n_docs), lengths)
    ids = np.empty(total, dtype=np.int64)
    ids[~from_topic] = rng.choice(len(model.words), size=int((~from_topic).sum()),
                                  p=model.background)
    # the topic words, topic by topic: one draw per topic instead of one per document
    topic_of = topics[doc_of]
    for t in range(model.n_topics):
        mask = from_topic & (topic_of == t)
        ids[mask] = rng.choice(len(model.words), size=int(mask.sum()), p=model.topics[t])
    ends = np.cumsum(lengths)
    words = model.words[ids]
    texts = [" ".join(words[a:b]) for a, b in zip(ends - lengths, ends)]
    return texts, topics


def write_topic_corpus(folder: str | os.PathLike, n_docs: int, model: TopicModel, *,
                       docs_per_file: int = 50_000, seed: int = 0,
                       files: list[int] | None = None) -> list[Path]:
    """Write ``n_docs`` documents of ``model`` as JSON Lines partitions ``part-00000.jsonl``, ...

    Partition ``i`` is drawn from the ``i``-th child of ``SeedSequence(seed)``,
    so ``files`` (a subset of the partition numbers) lets several processes
    write one corpus between them. Ids are ``d<number>``, labels ``topic<t>``.
    """
    folder = Path(folder)
    n_files = -(-n_docs // docs_per_file)
    seeds = np.random.SeedSequence(seed).spawn(n_files)
    paths = []
    for i in (range(n_files) if files is None else files):
        start = i * docs_per_file
        count = min(docs_per_file, n_docs - start)
        texts, topics = topic_documents(model, count, np.random.default_rng(seeds[i]))
        lines = [json.dumps({"id": f"d{start + j}", "text": text, "label": f"topic{t}"})
                 for j, (text, t) in enumerate(zip(texts, topics))]
        paths.append(atomic_write_text(folder / f"part-{i:05d}.jsonl", "\n".join(lines) + "\n"))
    return paths
