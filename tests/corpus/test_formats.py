"""The real corpora in ../shared/datasets: verified counts and a few known documents."""

from __future__ import annotations

import warnings

import pytest
import scipy.sparse as sp

from docnmf.corpus import (
    list_datasets,
    load_dataset,
    read_20newsgroups,
    read_classic3,
    read_cluto,
    read_mat,
    read_reuters21578,
    read_smart,
)

pytestmark = pytest.mark.datasets


def quietly(read, *args, **kwargs):
    """Read ignoring the UnicodeWarning a few corpora legitimately raise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnicodeWarning)
        return read(*args, **kwargs)


@pytest.fixture(scope="module")
def reuters(corpus_path):
    return quietly(read_reuters21578, corpus_path("reuters21578"))


@pytest.fixture(scope="module")
def newsgroups(corpus_path):
    return read_20newsgroups(corpus_path("20newsgroups_bydate"))


def test_reuters_counts_and_first_record(reuters):
    assert len(reuters) == 21578
    assert len(set(reuters.ids)) == 21578
    assert sum(v == "YES" for v in reuters.metadata["topics_attr"].values()) == 13476
    assert reuters.ids[0] == "reuters/1" and reuters.labels[0] == ("cocoa",)
    assert reuters.texts[0].startswith("BAHIA COCOA REVIEW\nShowers continued")
    assert "&lt;" not in "".join(reuters.texts[:200])


def test_reuters_filters(corpus_path, reuters):
    yes = quietly(read_reuters21578, corpus_path("reuters21578"), topics_only=True)
    assert len(yes) == 13476
    train = quietly(read_reuters21578, corpus_path("reuters21578"), split="TRAIN")
    assert len(train) == sum(v == "TRAIN" for v in reuters.metadata["lewissplit"].values())
    assert all(reuters.metadata["lewissplit"][i] == "TRAIN" for i in train.ids)


def test_reuters_invalid_utf8_gives_one_warning(corpus_path):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        read_reuters21578(corpus_path("reuters21578"))
    messages = [str(w.message) for w in record if issubclass(w.category, UnicodeWarning)]
    assert len(messages) == 1 and messages[0].startswith("1 document in ")


def test_20newsgroups_counts(corpus_path, newsgroups):
    train = sum(i.startswith("train/") for i in newsgroups.ids)
    assert (train, len(newsgroups) - train, len(newsgroups)) == (11314, 7532, 18846)
    assert newsgroups.n_classes == 20
    assert len(read_20newsgroups(corpus_path("20newsgroups_bydate"), subset="test")) == 7532
    assert newsgroups.texts[0].startswith("From:")


@pytest.mark.parametrize(
    "relative, label, n_docs",
    [
        ("classic4_smart/cisi/CISI.ALL", "cisi", 1460),
        ("classic4_smart/cran/cran.all.1400", "cran", 1400),
        ("classic4_smart/med/MED.ALL", "med", 1033),
        ("classic4_smart/cacm/cacm.all", "cacm", 3204),
    ],
)
def test_smart_collection_counts(corpus_path, relative, label, n_docs):
    c = read_smart(corpus_path(relative), label=label)
    assert len(c) == n_docs
    assert c.ids[0] == f"{label}/1" and c.ids[-1] == f"{label}/{n_docs}"
    empty = [i for i, t in zip(c.ids, c.texts) if not t.strip()]
    # CRAN 471 and 995 have no text at all (the usual Classic3 drops them)
    assert empty == (["cran/471", "cran/995"] if label == "cran" else [])


def test_classic3_and_known_documents(corpus_path):
    c = read_classic3(corpus_path("classic4_smart"))
    assert len(c) == 3893
    assert c.class_sizes() == {"cisi": 1460, "cran": 1400, "med": 1033}
    assert "Dewey Decimal" in c.texts[c.ids.index("cisi/1")].split("\n")[0]
    assert c.texts[c.ids.index("med/1")].startswith("correlation between maternal and fetal")
    # CRAN 240 holds stray ".A"/".B" lines in its abstract; the text must run to its end
    assert c.texts[c.ids.index("cran/240")].endswith("heat\ntransfer in a laminar separated flow .")


@pytest.mark.parametrize(
    "name, shape, n_classes",
    [
        ("re0", (1504, 2886), 13),
        ("fbis", (2463, 2000), 17),
        ("wap", (1560, 8460), 20),
        ("k1b", (2340, 21839), 6),
    ],
)
def test_cluto_shapes_and_classes(corpus_path, name, shape, n_classes):
    c = read_cluto(corpus_path(f"cluto/{name}"))
    assert c.counts.shape == shape and sp.isspmatrix_csr(c.counts)
    assert c.n_classes == n_classes
    assert all(len(labs) == 1 for labs in c.labels)
    # every term column is used and no index runs past M - 1: the columns are 0-based
    assert (c.counts.getnnz(axis=0) > 0).sum() > 0.9 * shape[1]


def test_cluto_re1_has_unlabelled_and_two_class_documents(corpus_path):
    c = read_cluto(corpus_path("cluto/re1"))
    sizes = [len(labs) for labs in c.labels]
    assert (sizes.count(0), sizes.count(2), c.n_classes) == (18, 18, 25)


@pytest.mark.parametrize(
    "relative, shape, n_classes, min_size, filtered",
    [
        ("tdt2_cai/TDT2_all.mat", (10212, 36771), 96, 10, (10021, 56)),
        ("reuters21578_cai/Reuters21578.mat", (8293, 18933), 65, 10, (8213, 41)),
        ("tdt2_cai/TDT2.mat", (9394, 36771), 30, None, None),
        ("cclust/cstr.mat", (475, 1000), 4, None, None),
        ("cclust/classic3.mat", (3891, 4303), 3, None, None),
    ],
)
def test_mat_shapes_and_class_filter(corpus_path, relative, shape, n_classes, min_size, filtered):
    c = read_mat(corpus_path(relative))
    assert c.counts.shape == shape and c.n_classes == n_classes
    assert sp.isspmatrix_csr(c.counts)
    if min_size is not None:
        f = read_mat(corpus_path(relative), min_class_size=min_size)
        assert (len(f), f.n_classes) == filtered


@pytest.mark.parametrize(
    "name, n_docs, n_classes",
    [
        ("tdt2", 10021, 56),
        ("tdt2_all", 10212, 96),
        ("tdt2_top30", 9394, 30),
        ("reuters_cai", 8213, 41),
        ("reuters21578_single", 9466, 51),
        ("classic4", 7097, 4),
        ("cstr", 475, 4),
        ("classic3_cclust", 3891, 3),
        ("cluto_re0", 1504, 13),
        ("duc2004", 500, 50),
    ],
)
def test_load_dataset_names(datasets_dir, name, n_docs, n_classes):
    c = quietly(load_dataset, name)
    assert (len(c), c.n_classes) == (n_docs, n_classes)
    assert c.metadata["name"] == name


def test_duc2004_topics_are_ten_distinct_articles_each(datasets_dir):
    c = load_dataset("duc2004")
    assert set(c.class_sizes().values()) == {10} and len(set(c.ids)) == 500
    assert all(doc_id.split("/")[0] == labels[0] for doc_id, labels in zip(c.ids, c.labels))
    assert all(len(text.split()) > 20 and "<" not in text for text in c.texts)


def test_classic3_cclust_vocabulary(datasets_dir):
    c = load_dataset("classic3_cclust")
    assert len(c.vocabulary) == 4303 and c.vocabulary[0] == "contribution"


def test_list_datasets_finds_everything(datasets_dir):
    infos = list_datasets()
    missing = [info.name for info in infos if not info.found]
    assert missing == []
    assert {info.name for info in infos} >= {"cluto_re0", "cluto_fbis", "cluto_k1b", "cluto_wap"}
