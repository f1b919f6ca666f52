"""Format readers on tiny hand-written files, so they run without the corpora."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

from docnmf.corpus import (
    CorpusError,
    read_20newsgroups,
    read_classic3,
    read_cluto,
    read_mat,
    read_reuters21578,
    read_smart,
)

SGML = b"""<!DOCTYPE lewis SYSTEM "lewis.dtd">
<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="1" NEWID="1">
<TOPICS><D>cocoa</D></TOPICS>
<TEXT>&#2;
<TITLE>COCOA &amp; SUGAR</TITLE>
<DATELINE>SALVADOR - </DATELINE><BODY>Prices &lt;rose&gt;.
 Reuter
&#3;</BODY></TEXT>
</REUTERS>
<REUTERS TOPICS="NO" LEWISSPLIT="TEST" CGISPLIT="TRAINING-SET" OLDID="2" NEWID="2">
<TOPICS><D>grain</D><D>wheat</D><D>grain</D></TOPICS>
<TEXT TYPE="BRIEF">&#2;
<TITLE>WHEAT BRIEF</TITLE>
&#3;</TEXT>
</REUTERS>
<REUTERS TOPICS="YES" LEWISSPLIT="NOT-USED" CGISPLIT="TRAINING-SET" OLDID="3" NEWID="3">
<TOPICS></TOPICS>
<TEXT TYPE="UNPROC">&#2;
M\xfcnchen table   1.5 vs 1.2
&#3;</TEXT>
</REUTERS>
"""


def test_reuters_records_text_labels_and_filters(tmp_path):
    (tmp_path / "reut2-000.sgm").write_bytes(SGML)
    with pytest.warns(UnicodeWarning, match=r"^1 document in .* was not valid utf-8"):
        c = read_reuters21578(tmp_path)
    assert c.ids == ["reuters/1", "reuters/2", "reuters/3"]
    assert c.labels == [("cocoa",), ("grain", "wheat"), ()]
    assert c.texts[0] == "COCOA & SUGAR\nPrices <rose>.\n Reuter"
    assert c.texts[1] == "WHEAT BRIEF"
    assert c.texts[2] == "M\ufffdnchen table   1.5 vs 1.2"
    assert c.metadata["lewissplit"] == {
        "reuters/1": "TRAIN", "reuters/2": "TEST", "reuters/3": "NOT-USED"
    }
    assert c.metadata["topics_attr"]["reuters/2"] == "NO"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnicodeWarning)
        assert read_reuters21578(tmp_path, topics_only=True).ids == ["reuters/1", "reuters/3"]
        assert read_reuters21578(tmp_path, split="TEST").ids == ["reuters/2"]
        assert read_reuters21578(tmp_path, single_label=True).ids == ["reuters/1"]
    with pytest.raises(CorpusError, match="split"):
        read_reuters21578(tmp_path, split="train")
    with pytest.raises(CorpusError, match="no reut2"):
        read_reuters21578(tmp_path / "empty")


def test_20newsgroups_layout_order_and_header_stripping(tmp_path):
    for split, group, name, text in [
        ("train", "sci.space", "10", "From: a\nSubject: b\n\nbody ten"),
        ("train", "sci.space", "9", "From: a\n\nbody nine"),
        ("train", "alt.atheism", "5", "no header break"),
        ("test", "sci.space", "11", "Subject: c\r\n\r\nbody eleven"),
    ]:
        path = tmp_path / f"20news-bydate-{split}" / group / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    c = read_20newsgroups(tmp_path)
    assert c.ids == [
        "train/alt.atheism/5", "train/sci.space/9", "train/sci.space/10", "test/sci.space/11"
    ]
    assert c.labels == [("alt.atheism",), ("sci.space",), ("sci.space",), ("sci.space",)]
    stripped = read_20newsgroups(tmp_path, subset="test", strip_headers=True)
    assert stripped.texts == ["body eleven"]
    assert read_20newsgroups(tmp_path, subset="train", strip_headers=True).texts[0] == ""
    with pytest.raises(CorpusError, match="subset"):
        read_20newsgroups(tmp_path, subset="dev")


SMART = (
    b".I 1\r\n.T\r\nFirst title\r\n.A\r\nSmith, J.\r\n.W\r\n  An abstract   \r\nover two lines.\r\n"
    b".X\r\n1\t5\t1\r\n.I 2\r\n.T \r\nOnly a title\r\n.B\r\nCACM 1960\r\n"
    b".I 3\r\n.A\r\nDoe\r\n.W\r\nbody\r\n.A\r\nstray line\r\n.I\r\n"
)


def test_smart_fields_crlf_and_trailing_bare_I(tmp_path):
    f = tmp_path / "TOY.ALL"
    f.write_bytes(SMART)
    c = read_smart(f)
    assert c.ids == ["TOY/1", "TOY/2", "TOY/3"]
    assert c.texts == [
        "First title\nAn abstract\nover two lines.", "Only a title", "body\nstray line"
    ]
    assert c.labels == [(), (), ()]
    assert read_smart(f, label="toy").labels == [("toy",)] * 3


def test_smart_record_without_number_is_an_error(tmp_path):
    f = tmp_path / "BAD.ALL"
    f.write_bytes(b".I 1\n.W\nx\n.I\n.W\nlost text\n")
    with pytest.raises(CorpusError, match="without an .I number"):
        read_smart(f)


def test_classic3_concatenates_labelled_collections(tmp_path):
    for name in ("cisi", "cran", "med"):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name.upper()}.ALL").write_text(f".I 1\n.W\n{name} text\n")
    c = read_classic3(tmp_path)
    assert c.ids == ["cisi/1", "cran/1", "med/1"]
    assert c.labels == [("cisi",), ("cran",), ("med",)]
    assert c.metadata["name"] == "classic3"


def test_cluto_both_line_layouts_labels_and_errors(tmp_path):
    d = tmp_path / "toy"
    d.mkdir()
    (d / "sparse_toy.txt").write_text("3 4\n2 0 1 3 2\n0\n1 1 5\n")
    (d / "toy_correct.txt").write_text("1 0 0\n1 0 1\n")
    c = read_cluto(d / "sparse_toy.txt")
    assert sp.isspmatrix_csr(c.counts) and c.counts.dtype == np.float64
    np.testing.assert_array_equal(c.counts.toarray(), [[1, 0, 0, 2], [0, 0, 0, 0], [0, 5, 0, 0]])
    assert c.labels == [("class_00", "class_01"), (), ("class_01",)]
    assert c.ids == ["toy/0", "toy/1", "toy/2"] and c.texts is None and c.vocabulary is None
    (d / "sparse_toy.txt").write_text("2 4 3\n0 1 3 2\n1 5\n")  # bare pairs, NNZ in the header
    (d / "toy_correct.txt").unlink()
    (d / "toy_clabel.txt").write_text("a\nb\nc\nd\n")
    c = read_cluto(d)
    np.testing.assert_array_equal(c.counts.toarray(), [[1, 0, 0, 2], [0, 5, 0, 0]])
    assert c.labels == [(), ()] and c.vocabulary == ["a", "b", "c", "d"]
    (d / "sparse_toy.txt").write_text("1 4\n1 4 1\n")
    with pytest.raises(CorpusError, match="0-based"):
        read_cluto(d)


def test_mat_fea_gnd_and_transposed_A_labels(tmp_path):
    X = sp.csc_matrix(np.array([[1.0, 0, 2], [0, 3, 0], [4, 0, 0], [0, 0, 5]]))
    scipy.io.savemat(tmp_path / "toy.mat", {"fea": X, "gnd": np.array([[1], [2], [1], [3]])})
    c = read_mat(tmp_path / "toy.mat")
    assert sp.isspmatrix_csr(c.counts) and c.counts.shape == (4, 3)
    assert c.labels == [("1",), ("2",), ("1",), ("3",)]
    assert c.ids == ["toy/0", "toy/1", "toy/2", "toy/3"]
    filtered = read_mat(tmp_path / "toy.mat", min_class_size=2)
    assert filtered.ids == ["toy/0", "toy/2"]
    terms = np.array([["x"], ["y"], ["z"]], dtype=object)
    labels = np.array([0, 1, 0, 2])
    scipy.io.savemat(tmp_path / "t.mat", {"A": X.T.toarray(), "labels": labels, "ms": terms})
    c = read_mat(tmp_path / "t.mat")
    np.testing.assert_array_equal(c.counts.toarray(), X.toarray())
    assert c.vocabulary == ["x", "y", "z"] and c.labels[3] == ("2",)
    scipy.io.savemat(tmp_path / "bad.mat", {"X": X})
    with pytest.raises(CorpusError, match="found: X"):
        read_mat(tmp_path / "bad.mat")


def _duc_file(folder, docno, date, text):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / docno).write_bytes(b"<DOC>\n<DOCNO> " + docno.encode() + b" </DOCNO>\n<DATE_TIME> "
                                 + date.encode() + b" </DATE_TIME>\n<TEXT>\n" + text
                                 + b"\n</TEXT>\n</DOC>\n")


def test_duc2004_documents_by_topic_oldest_first_and_the_dataset_labels(tmp_path):
    from docnmf.corpus import load_dataset
    from docnmf.corpus.formats import read_duc2004_documents

    docs = tmp_path / "duc2004" / "ayushoriginal" / "duc2004" / "docs"
    _duc_file(docs / "d30002t", "APW19981104.0052", "11/04/1998", b"Later <P> story\nwrapped.")
    _duc_file(docs / "d30002t", "APW19981103.0001", "11/03/1998", b"Earlier story.")
    _duc_file(docs / "d30001t", "NYT19981001.0003", "10/01/1998", b"Caf\xe9 news.")  # not UTF-8
    with pytest.warns(UnicodeWarning, match="1 file in .* not valid utf-8"):
        topics = read_duc2004_documents(docs)
    assert [(t, ids) for t, ids, _ in topics] == [
        ("d30001", ["NYT19981001.0003"]), ("d30002", ["APW19981103.0001", "APW19981104.0052"])]
    assert topics[1][2] == ["Earlier story.", "Later story wrapped."]
    with pytest.warns(UnicodeWarning):
        corpus = load_dataset("duc2004", data_home=tmp_path)
    assert corpus.ids == ["d30001/NYT19981001.0003", "d30002/APW19981103.0001",
                          "d30002/APW19981104.0052"]
    assert corpus.labels == [("d30001",), ("d30002",), ("d30002",)]
