"""The planted topic model generator: seeded, partition by partition, words the pipeline keeps."""

from __future__ import annotations

import json

import numpy as np

from docnmf.corpus.synthetic import planted_topic_model, topic_documents, write_topic_corpus
from docnmf.text.vectorize import DocumentVectorizer


def test_words_survive_the_text_pipeline_unchanged():
    model = planted_topic_model(n_topics=4, vocabulary_size=400, seed=3)
    texts, topics = topic_documents(model, 300, np.random.default_rng(0))
    assert len(texts) == 300 and set(topics) <= set(range(4))
    vec = DocumentVectorizer(min_df=1, max_df=1.0)
    vec.fit(texts)
    used = {w for t in texts for w in t.split()}
    assert set(vec.vocabulary_) == used     # no word dropped or merged by stemming


def test_lengths_follow_the_chosen_distribution():
    model = planted_topic_model(n_topics=2, vocabulary_size=100, mean_length=60,
                                length_sigma=0.0, seed=1)
    texts, _ = topic_documents(model, 2000, np.random.default_rng(1))
    lengths = np.array([len(t.split()) for t in texts])
    assert abs(lengths.mean() - 60) < 1.0 and abs(lengths.var() - 60) < 10   # Poisson


def test_partitions_are_the_same_whoever_writes_them(tmp_path):
    model = planted_topic_model(n_topics=3, vocabulary_size=60, mean_length=20, seed=2)
    whole = write_topic_corpus(tmp_path / "a", 25, model, docs_per_file=10, seed=9)
    assert [p.name for p in whole] == ["part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl"]
    one = write_topic_corpus(tmp_path / "b", 25, model, docs_per_file=10, seed=9, files=[2])
    assert one[0].read_text() == whole[2].read_text()
    records = [json.loads(line) for line in whole[2].read_text().splitlines()]
    assert [r["id"] for r in records] == [f"d{i}" for i in range(20, 25)]
    assert all(r["label"].startswith("topic") for r in records)
