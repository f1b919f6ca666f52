"""The partitioned text pipeline gives DocumentVectorizer's vocabulary and matrix."""

from __future__ import annotations

import dask.bag as db
import numpy as np
import pytest

from docnmf.distributed import DaskVectorizer, PartitionedCorpus
from docnmf.text.vectorize import DocumentVectorizer

TEXTS = [
    "The goalkeeper saved a penalty and the striker scored twice in the final.",
    "Fans cheered as the team won the league after a late goal.",
    "The coach praised the defenders after the football match; the goalkeeper smiled.",
    "The central bank raised interest rates to curb inflation.",
    "",
    "Shares fell as investors worried about bond yields and inflation; banks fell too.",
    "The stock market rallied when the bank cut interest rates. Rates! Rates!",
    "Galaxies and galaxy clusters: the telescope saw a galaxy, then stars.",
    "Stars, planets and a galaxy far away; astronomers counted the stars.",
    "Café naïve résumé — unicode words, and numbers 42 dropped; goal goal.",
]


@pytest.mark.parametrize("options", [
    {"min_df": 1},
    {"min_df": 2, "max_df": 0.5},
    {"min_df": 1, "max_features": 7},
    {"min_df": 1, "tf": "sublinear", "idf": "smooth"},
    {"min_df": 1, "stem": False, "stop_words": None, "norm": None},
])
def test_same_vocabulary_and_matrix_as_in_memory(client, options):
    memory = DocumentVectorizer(**options)
    expected = memory.fit_transform(TEXTS)
    dist = DaskVectorizer(client=client, **options)
    X = dist.fit_transform(db.from_sequence(TEXTS, npartitions=4))
    assert X.numblocks[0] == 4
    got = X.compute()
    assert dist.vocabulary_ == memory.vocabulary_
    np.testing.assert_array_equal(dist.idf_, memory.idf_)
    assert got.shape == expected.shape
    assert abs(got - expected).max() <= 1e-15
    assert got.nnz == expected.nnz
    np.testing.assert_array_equal(dist.readable_feature_names(),
                                  memory.readable_feature_names(TEXTS))
    # new texts on the fitted vocabulary, partition by partition
    new = ["A galaxy of stars and the goalkeeper", "interest rates and inflation"]
    np.testing.assert_allclose(
        dist.transform(db.from_sequence(new, npartitions=2)).compute().toarray(),
        memory.transform(new).toarray(), rtol=0, atol=1e-15)


def test_reads_a_folder_of_jsonl_partitions(client, tmp_path):
    import json

    for p in range(3):
        lines = [json.dumps({"text": t, "label": f"c{i % 2}"}) for i, t in enumerate(TEXTS[p::3])]
        (tmp_path / f"part-{p}.jsonl").write_text("\n".join(lines) + "\n")
    corpus = PartitionedCorpus.from_path(tmp_path)
    assert corpus.n_partitions == 3
    parts = client.gather(client.compute(corpus.parts))
    texts = [t for part in parts for t in part.texts]
    assert parts[0].ids[0] == "part-0.jsonl:1" and parts[0].labels[0] == ("c0",)
    X = DaskVectorizer(min_df=1, client=client).fit_transform(corpus).compute()
    expected = DocumentVectorizer(min_df=1).fit_transform(texts)
    assert abs(X - expected).max() <= 1e-15 and X.nnz == expected.nnz


def test_reads_a_folder_tree_of_text_files(client, tmp_path):
    for i, text in enumerate(TEXTS):
        folder = tmp_path / ("sport" if i < 5 else "money")
        folder.mkdir(exist_ok=True)
        (folder / f"{i:02d}.txt").write_text(text)
    (tmp_path / "money" / "10.txt").write_text(
        "<DOC>\n<DOCNO> X1 </DOCNO>\n<TEXT>\nBonds fell\nagain.\n</TEXT>\n</DOC>\n")
    (tmp_path / "money" / "11.html").write_text(
        "<html><head><script>var tracker;</script></head><body><p>Rates rose.</p></body></html>")
    corpus = PartitionedCorpus.from_path(tmp_path, files_per_partition=3)
    assert corpus.n_partitions == 4       # 12 files, 3 a partition
    parts = client.gather(client.compute(corpus.parts))
    assert parts[0].ids[0] == "money/05.txt" and parts[0].labels[0] == ("money",)
    # the files as read_folder reads them, a NIST tagged document as its <TEXT>, a web page
    # as its text
    from docnmf.corpus import read_folder

    texts = [t for part in parts for t in part.texts]
    assert texts == read_folder(tmp_path).texts
    assert "Bonds fell again." in texts and "\n\nRates rose.\n\n" in texts


def test_takes_a_dataframe_column_and_a_bag_of_records(client):
    import dask.dataframe as dd
    import pandas as pd

    expected = DocumentVectorizer(min_df=1).fit_transform(TEXTS)
    column = dd.from_pandas(pd.DataFrame({"text": TEXTS}), npartitions=3)["text"]
    X = DaskVectorizer(min_df=1, client=client).fit_transform(column).compute()
    assert abs(X - expected).max() <= 1e-15 and X.nnz == expected.nnz
    records = db.from_sequence([{"id": f"n{i}", "text": t, "label": "x" if i % 2 else ""}
                                for i, t in enumerate(TEXTS)], npartitions=3)
    corpus = PartitionedCorpus.from_bag(records)
    parts = client.gather(client.compute(corpus.parts))
    assert [i for p in parts for i in p.ids] == [f"n{i}" for i in range(len(TEXTS))]
    assert parts[0].labels[:2] == [(), ("x",)]
    X = DaskVectorizer(min_df=1, client=client).fit_transform(corpus).compute()
    assert abs(X - expected).max() <= 1e-15


def test_a_partition_a_filter_emptied_is_no_block(client):
    """Filtering a bag can empty a partition; its weighting failed on the worker."""
    kept = TEXTS[:2] + TEXTS[4:]
    bag = db.from_sequence(TEXTS, npartitions=5).filter(lambda t: t not in TEXTS[2:4])
    assert 0 in bag.map_partitions(lambda part: [len(list(part))]).compute()
    X = DaskVectorizer(min_df=1, client=client).fit_transform(bag).compute()
    expected = DocumentVectorizer(min_df=1).fit_transform(kept)
    assert abs(X - expected).max() <= 1e-15 and X.nnz == expected.nnz


@pytest.mark.parametrize("bad, says", [(None, "NoneType None"), (float("nan"), "float nan"),
                                       (b"caf\xc3\xa9", "decode it first")])
def test_a_document_that_is_not_a_string_is_refused_as_in_memory(client, bad, says):
    """str() made NaN and None the word "nan" or "none", shared by every such document, and
    bytes the words of their repr; DocumentVectorizer refuses them."""
    texts = TEXTS + [bad]
    with pytest.raises(ValueError, match=says):
        DocumentVectorizer().fit(texts)
    with pytest.raises(ValueError, match=f"document 1 of a partition is .*{says}"):
        DaskVectorizer(client=client).fit_transform(db.from_sequence(texts, npartitions=4))


def test_a_bag_of_records_names_an_item_that_is_no_record_or_no_text(client):
    from docnmf.corpus import CorpusError

    records = [{"text": t} for t in TEXTS]
    for bad, says in ((None, "item 11 of the bag is NoneType None: give texts"),
                      ({"text": float("nan")}, "item 11 of the bag: 'text' is float nan")):
        corpus = PartitionedCorpus.from_bag(db.from_sequence(records + [bad], npartitions=2))
        with pytest.raises(CorpusError, match=says):
            DaskVectorizer(client=client).fit_transform(corpus)


def test_one_long_token_does_not_widen_every_term(client):
    """The terms were a fixed-width unicode array, each as wide as the longest token: one
    20,000-letter token made the vocabulary sent to the workers 5,043 x 80 kB (385 MiB)."""
    import pickle

    texts = TEXTS + ["x" * 20_000 + " galaxy stars"]
    memory = DocumentVectorizer(min_df=1).fit_transform(texts)
    dist = DaskVectorizer(min_df=1, client=client)
    X = dist.fit_transform(db.from_sequence(texts, npartitions=3))
    assert abs(X.compute() - memory).max() <= 1e-15
    vocabulary = client.gather(dist._vocabulary_future)
    assert len(pickle.dumps(vocabulary)) < 20_000 + 100 * len(vocabulary)


def test_a_relative_path_is_read_where_it_was_given_not_where_a_worker_runs(tmp_path,
                                                                           monkeypatch):
    """Workers started in another folder opened 'parts/...' there: another corpus of the
    same name, clustered without a word (or a file not found)."""
    import dask

    for folder, prefix in ((tmp_path / "here", "HERE"), (tmp_path / "elsewhere", "ELSEWHERE")):
        (folder / "parts").mkdir(parents=True)
        (folder / "parts" / "p0.jsonl").write_text(
            "".join(f'{{"id": "{prefix}-{i}", "text": "stars"}}\n' for i in range(3)))
    monkeypatch.chdir(tmp_path / "here")
    corpus = PartitionedCorpus.from_path("parts")
    assert corpus.source == "parts"
    monkeypatch.chdir(tmp_path / "elsewhere")            # where the workers were started
    (part,) = dask.compute(*corpus.parts, scheduler="sync")
    assert part.ids == ["HERE-0", "HERE-1", "HERE-2"]


def test_a_partition_refuses_a_document_longer_than_docnmf_reads(tmp_path, monkeypatch):
    """The partitions read files as read_folder does, the longest document included."""
    from docnmf.corpus import CorpusError
    from docnmf.distributed import corpus as partitioned

    monkeypatch.setattr(partitioned, "MAX_DOCUMENT", 100)
    (tmp_path / "a.txt").write_text("short enough " * 7)
    (tmp_path / "b.txt").write_text("one long document " * 6)
    assert partitioned._read_documents(str(tmp_path), ["a.txt"]).texts == ["short enough " * 7]
    with pytest.raises(CorpusError, match=r"b\.txt: 108 bytes, more than one document may hold"):
        partitioned._read_documents(str(tmp_path), ["a.txt", "b.txt"])
