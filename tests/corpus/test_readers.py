"""Folder, CSV and JSON Lines readers, and read_corpus dispatch, on files written here."""

from __future__ import annotations

import warnings

import pytest

from docnmf.corpus import CorpusError, read_corpus, read_csv, read_folder, read_jsonl
from docnmf.corpus.datasets import load_dataset
from docnmf.corpus.readers import read_text_file


def write(path, content: str | bytes):
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def unicode_warnings(record) -> list[str]:
    return [str(w.message) for w in record if issubclass(w.category, UnicodeWarning)]


@pytest.fixture
def labelled_folder(tmp_path):
    root = tmp_path / "news"
    write(root / "sport" / "012.txt", "the striker scored")
    write(root / "sport" / "2024" / "001.txt", "late goal")
    write(root / "econ" / "a.txt", "rates rise")
    write(root / "readme.txt", "not a class")
    write(root / ".hidden.txt", "skip me")
    write(root / ".git" / "config", "skip me too")
    write(root / "sport" / ".DS_Store", "and me")
    return root


def test_folder_subfolders_are_labels_and_ids_are_relative_posix_paths(labelled_folder):
    c = read_folder(labelled_folder)
    assert c.ids == ["econ/a.txt", "readme.txt", "sport/012.txt", "sport/2024/001.txt"]
    assert c.labels == [("econ",), (), ("sport",), ("sport",)]
    assert c.texts == ["rates rise", "not a class", "the striker scored", "late goal"]
    assert c.metadata["name"] == "news"
    assert c.metadata["format"] == "folder"
    assert c.metadata["source"] == str(labelled_folder)


def test_folder_without_subfolders_is_unlabelled(tmp_path):
    write(tmp_path / "b.txt", "second")
    write(tmp_path / "a.txt", "first")
    c = read_folder(tmp_path)
    assert c.ids == ["a.txt", "b.txt"]
    assert c.labels == [(), ()]
    assert not c.is_labelled


def test_folder_pattern_filters_file_names(labelled_folder):
    write(labelled_folder / "econ" / "b.csv", "x")
    c = read_folder(labelled_folder, pattern="0*.txt")
    assert c.ids == ["sport/012.txt", "sport/2024/001.txt"]


TAGGED = ("<DOC>\n<DOCNO> APW19981016.0240 </DOCNO>\n<DOCTYPE> NEWS </DOCTYPE>\n<TEXT>\n"
          "Cambodian leader Hun Sen on Friday rejected\nthe demands. <P>\nTalks failed.\n"
          "</TEXT>\n</DOC>\n")


def test_nist_tagged_files_are_read_as_their_text_and_said_to_be(tmp_path, caplog):
    """DUC and TREC files: one <DOC> with a <TEXT>; the header tags (DOCNO, DOCTYPE) would
    be words of the document and, in a summary, use its length."""
    write(tmp_path / "d30001t" / "APW19981016.0240", TAGGED)
    write(tmp_path / "d30001t" / "lower", TAGGED.lower().replace("cambodian", "Cambodian"))
    write(tmp_path / "page.html", "<html><body><p>A page</p></body></html>")
    two = TAGGED + TAGGED.replace("APW19981016.0240", "APW2")
    write(tmp_path / "two_docs", two)                     # two documents: not taken apart
    write(tmp_path / "no_text", "<DOC>\n<DOCNO> X </DOCNO>\n</DOC>\n")
    with caplog.at_level("INFO", logger="docnmf"):
        c = read_folder(tmp_path)
    texts = dict(zip(c.ids, c.texts))
    assert texts["d30001t/APW19981016.0240"] == ("Cambodian leader Hun Sen on Friday rejected "
                                                "the demands. Talks failed.")
    assert texts["d30001t/lower"].startswith("Cambodian leader hun sen")
    assert texts["two_docs"] == two and texts["no_text"].startswith("<DOC>")
    assert f"2 of the 5 files in {tmp_path} are NIST tagged documents" in caplog.text
    caplog.clear()
    with caplog.at_level("INFO", logger="docnmf"):
        one = read_text_file(write(tmp_path / "single" / "APW.txt", TAGGED))   # summarize's
    assert one.texts == [texts["d30001t/APW19981016.0240"]]
    assert "APW.txt is a NIST tagged document" in caplog.text


PAGE = ("<!DOCTYPE html>\n<!-- saved from url=(0030)https://news.example.com/ -->\n<html><head>"
        "<title>Rates rise | Newswire</title><style>nav {color: #333}</style>"
        "<script>window.dataLayer = []; gtag('config');</script></head><body><nav><ul>"
        "<li>Home</li><li>Markets</li></ul><a href=/a>Sport</a><a href=/b>Weather</a></nav>"
        "<svg><title>Logo graphic</title><text>logo</text></svg>"
        "<p>The bank raised rates &amp; bonds fell.</p><p>Markets&nbsp;waited.</p></body></html>")


def test_saved_web_pages_are_read_as_their_text_and_said_to_be(tmp_path, caplog):
    """Pages of three sites were clustered by their templates' scripts and styles (gtag,
    datalayer, padding) and entities (quot, raquo): accuracy 0.39 where their text gave 0.62."""
    write(tmp_path / "a.html", PAGE)
    write(tmp_path / "b.txt", "Stars <b>and</b> planets: a fragment of markup is text.")
    with caplog.at_level("INFO", logger="docnmf"):
        c = read_folder(tmp_path)
    texts = dict(zip(c.ids, c.texts))
    words = texts["a.html"].split()
    # links apart ("SportWeather" before), an inline image's words left out ("Logo graphic")
    assert words == ["Rates", "rise", "|", "Newswire", "Home", "Markets", "Sport", "Weather",
                     "The", "bank", "raised", "rates", "&", "bonds", "fell.", "Markets",
                     "waited."]
    assert texts["b.txt"].startswith("Stars <b>and</b>")
    assert f"1 of the 2 files in {tmp_path} is HTML (a web page, a fragment of one or text with " \
           "character references such as &amp;): its text is read, without markup, scripts or " \
           "styles" in caplog.text
    caplog.clear()
    with caplog.at_level("INFO", logger="docnmf"):
        assert read_text_file(tmp_path / "a.html").texts == [texts["a.html"]]
    assert "a.html is HTML (a web page" in caplog.text
    # a page in a table's text field, as summarize read it (cluster read its markup)
    table = write(tmp_path / "pages.csv", "id,text\np1,\"" + PAGE.replace('"', '""') + "\"\n"
                  "p2,Stars <b>and</b> planets\n")
    caplog.clear()
    with caplog.at_level("INFO", logger="docnmf"):
        rows = read_csv(table)
    assert rows.texts == [texts["a.html"], "Stars <b>and</b> planets"]
    assert "1 of the 2 'text' fields of" in caplog.text


def test_html_fragments_and_character_references_are_read_as_their_text(tmp_path, caplog):
    """A content system's export held its posts as HTML without a page around them, and feeds
    escape their text: "div", "href", "nbsp", "amp" and "quot" were index terms."""
    table = write(tmp_path / "posts.csv", (
        "id,body\n"
        'a,"<div class=""post""><p>Rates&nbsp;rose.</p><p>Bonds <a href=""/b"">fell</a>.</p></div>"\n'
        "b,Tom &amp; Jerry&#39;s &quot;show&quot; &#x2014; at AT&T; &madeup; stays\n"
        # Reuters-21578 marks companies so, never closed; two tags are a few words' emphasis
        "c,<I P Sharp Associates Ltd> and <Strong Point Inc> bought <B and R Inc>\n"
        "d,Stars <b>and</b> planets\n"
        "e,if a<b and c>d then a < b\n"
        # prose naming tags (a <script> named hid the rest), and a name with no escaping shown
        "f,The <p> tag opens a paragraph and </p> ends it; <br> breaks a line; <script> runs "
        "code. p &and; q\n"))
    with caplog.at_level("INFO", logger="docnmf"):
        texts = read_csv(table, id_column="id", text_column="body").texts
    assert texts[0].split() == ["Rates", "rose.", "Bonds", "fell", "."]
    assert texts[1] == "Tom & Jerry's \"show\" \u2014 at AT&T; &madeup; stays"
    assert texts[2:] == ["<I P Sharp Associates Ltd> and <Strong Point Inc> bought <B and R Inc>",
                         "Stars <b>and</b> planets", "if a<b and c>d then a < b",
                         ("The <p> tag opens a paragraph and </p> ends it; <br> breaks a line; "
                          "<script> runs code. p &and; q")]
    assert "2 of the 6 'body' fields of" in caplog.text
    # a page saved without its head, as a file
    write(tmp_path / "f" / "page.htm", '<meta charset="utf-8"><title>Oil</title><p>Crude fell.</p>')
    assert read_folder(tmp_path / "f").texts[0].split() == ["Oil", "Crude", "fell."]


def test_folder_errors(tmp_path):
    with pytest.raises(CorpusError, match="no documents"):
        read_folder(tmp_path)
    with pytest.raises(CorpusError, match="no such folder"):
        read_folder(tmp_path / "absent")


def test_csv_named_columns_and_label_separator(tmp_path):
    f = write(
        tmp_path / "docs.csv",
        'key,body,topics\nd1,"rates, bonds",econ;markets\nd2,"two\nlines",\nd3,goal, sport \n',
    )
    c = read_csv(f, text_column="body", label_column="topics", id_column="key", label_separator=";")
    assert c.ids == ["d1", "d2", "d3"]
    assert c.texts == ["rates, bonds", "two\nlines", "goal"]
    assert c.labels == [("econ", "markets"), (), ("sport",)]
    assert c.metadata == {"name": "docs", "source": str(f), "format": "csv"}


def test_csv_default_columns(tmp_path):
    with_defaults = write(tmp_path / "a.csv", "\ufeffid,text,label\nx,hello,greet\ny,bye,\n")
    c = read_csv(with_defaults)
    assert (c.ids, c.labels) == (["x", "y"], [("greet",), ()])
    without = write(tmp_path / "b.csv", "text\nhello\n\nbye\n")
    c = read_csv(without)
    assert (c.ids, c.labels, c.texts) == (["1", "2"], [(), ()], ["hello", "bye"])


def test_tsv_uses_tab_and_keeps_commas(tmp_path):
    f = write(tmp_path / "docs.tsv", "text\tlabel\na, b\tx\n")
    c = read_csv(f)
    assert (c.texts, c.labels) == (["a, b"], [("x",)])


def test_jsonl_multilabel_lists_and_strings(tmp_path):
    f = write(
        tmp_path / "docs.jsonl",
        '{"id": 7, "text": "wheat and corn", "label": ["grain", "corn"]}\n'
        "\n"
        '{"id": "b", "text": "no topic", "label": ""}\n'
        '{"id": "c", "text": "one topic", "label": "earn"}\n'
        '{"id": "d", "text": "missing label"}\n',
    )
    c = read_jsonl(f)
    assert c.ids == ["7", "b", "c", "d"]
    assert c.labels == [("grain", "corn"), (), ("earn",), ()]
    assert c.texts[0] == "wheat and corn"
    assert c.metadata["format"] == "jsonl"


def test_jsonl_nan_label_is_no_label(tmp_path):
    # Python's json.dumps writes a missing value of pandas (float NaN) as the bare NaN, which
    # json.loads reads back; it is a missing label, not a class named "nan"
    f = write(
        tmp_path / "docs.jsonl",
        '{"text": "a", "label": NaN}\n'
        '{"text": "b", "label": ["x", NaN]}\n'
        '{"text": "c", "label": 1.0}\n',
    )
    c = read_jsonl(f)
    assert c.labels == [(), ("x",), ("1.0",)]


def test_jsonl_named_columns_and_row_numbers(tmp_path):
    f = write(tmp_path / "docs.ndjson", '{"body": "x", "cls": "a"}\n{"body": "y", "cls": "b"}\n')
    c = read_jsonl(f, text_column="body", label_column="cls")
    assert (c.ids, c.labels) == (["1", "2"], [("a",), ("b",)])


@pytest.mark.parametrize("reader, name", [(read_csv, "d.csv"), (read_jsonl, "d.jsonl")])
def test_unknown_column_names_it_and_lists_available(tmp_path, reader, name):
    content = "id,text\n1,a\n" if name.endswith("csv") else '{"id": "1", "text": "a"}\n'
    f = write(tmp_path / name, content)
    with pytest.raises(CorpusError, match="column 'body' not found") as err:
        reader(f, text_column="body")
    assert "available columns: 'id', 'text'" in str(err.value)
    with pytest.raises(CorpusError, match="'topic'"):
        reader(f, label_column="topic")


@pytest.mark.parametrize("reader, name", [(read_csv, "d.csv"), (read_jsonl, "d.jsonl")])
def test_duplicate_ids_are_an_error(tmp_path, reader, name):
    if name.endswith("csv"):
        content = "id,text\na,x\nb,y\na,z\n"
    else:
        content = '{"id": "a", "text": "x"}\n{"id": "b", "text": "y"}\n{"id": "a", "text": "z"}\n'
    f = write(tmp_path / name, content)
    with pytest.raises(CorpusError, match=r"duplicate document id 'a'.*records 1 and 3"):
        reader(f)


def test_jsonl_bad_line_is_an_error(tmp_path):
    f = write(tmp_path / "d.jsonl", '{"text": "a"}\n[1, 2]\n')
    with pytest.raises(CorpusError, match="line 2"):
        read_jsonl(f)


def test_invalid_utf8_files_decode_with_one_warning(tmp_path):
    write(tmp_path / "a" / "1.txt", b"caf\xe9 au lait")
    write(tmp_path / "a" / "2.txt", b"fine")
    write(tmp_path / "b" / "3.txt", b"\xff\xfe broken")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        c = read_folder(tmp_path)
    assert c.texts == ["caf\ufffd au lait", "fine", "\ufffd\ufffd broken"]
    messages = unicode_warnings(record)
    assert len(messages) == 1
    assert "2 files" in messages[0] and "replacement" in messages[0]
    assert record[0].filename == __file__  # attributed to the caller, not the library


def test_invalid_utf8_csv_counts_documents_not_lines(tmp_path):
    content = b'id,text\n1,"ok\nstill ok"\n2,"bad \xe9\nand \xe9 again"\n3,x\xff\n'
    f = write(tmp_path / "d.csv", content)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        c = read_csv(f)
    assert c.texts[0] == "ok\nstill ok"
    assert c.texts[1] == "bad \ufffd\nand \ufffd again"
    messages = unicode_warnings(record)
    assert len(messages) == 1 and "2 documents" in messages[0]


def test_invalid_utf8_jsonl(tmp_path):
    f = write(tmp_path / "d.jsonl", b'{"text": "na\xefve"}\n{"text": "plain"}\n')
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        c = read_jsonl(f)
    assert c.texts == ["na\ufffdve", "plain"]
    messages = unicode_warnings(record)
    assert len(messages) == 1 and "1 document " in messages[0]


def test_valid_files_emit_no_warning(tmp_path):
    f = write(tmp_path / "d.csv", "text\ncafé\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert read_csv(f).texts == ["café"]


def test_read_corpus_dispatches_on_path(tmp_path, labelled_folder):
    assert read_corpus(labelled_folder).metadata["format"] == "folder"
    assert read_corpus(str(labelled_folder), pattern="a.txt").ids == ["econ/a.txt"]
    csv_file = write(tmp_path / "d.csv", "text,label\nx,a\n")
    assert read_corpus(csv_file).labels == [("a",)]
    tsv_file = write(tmp_path / "d.tsv", "text\tlabel\nx, y\tb\n")
    assert read_corpus(tsv_file).texts == ["x, y"]
    jsonl_file = write(tmp_path / "d.jsonl", '{"text": "x", "label": ["a", "b"]}\n')
    assert read_corpus(jsonl_file, label_column="label").labels == [("a", "b")]


@pytest.mark.parametrize("source", ["no/such/folder", "missing.csv", "missing.jsonl"])
def test_read_corpus_missing_path(tmp_path, monkeypatch, source):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CorpusError, match=f"no such file or folder: {source}"):
        read_corpus(source)


def test_read_corpus_demo_is_the_embedded_corpus_unless_a_folder_is_so_named(
        tmp_path, monkeypatch, labelled_folder):
    from docnmf.corpus.demo import load_demo

    monkeypatch.chdir(tmp_path)
    demo, embedded = read_corpus("demo"), load_demo()
    assert (demo.texts, demo.labels, demo.ids) == (embedded.texts, embedded.labels, embedded.ids)
    with pytest.raises(CorpusError, match="the demo corpus takes no reading options, got "
                                          "text_column"):
        read_corpus("demo", text_column="body")
    labelled_folder.rename(tmp_path / "demo")
    assert read_corpus("demo").metadata["format"] == "folder"
    # load_dataset reads corpora on disk: it points to the readers of the embedded one
    from docnmf.corpus import load_dataset

    with pytest.raises(CorpusError, match=r"'demo' is the embedded demo corpus, not a dataset "
                                          r"on disk: docnmf.load_demo\(\)"):
        load_dataset("demo")


@pytest.mark.parametrize(("name", "hint"), [
    ("reuters", "; did you mean reuters21578, reuters21578_single or reuters_cai? ("),
    ("clasic3", "; did you mean classic3"),
    ("Demo", "; did you mean demo? ("),
    ("xyzzy", " ("),
])
def test_unknown_name_suggests_the_datasets_it_is_near(name, hint):
    with pytest.raises(CorpusError) as raised:
        read_corpus(name)
    assert str(raised.value).startswith(f"no such file or folder, nor dataset: {name}{hint}")
    if name != "Demo":
        with pytest.raises(CorpusError) as raised:
            load_dataset(name)
        assert str(raised.value).startswith(f"unknown dataset {name!r}{hint}")


def test_read_corpus_unknown_name_and_file_type(tmp_path):
    with pytest.raises(CorpusError, match="no such file or folder, nor dataset: not_a_dataset "
                                          r"\(datasets: demo, .*classic3"):
        read_corpus("not_a_dataset")
    odd = write(tmp_path / "d.xml", "<doc/>")
    with pytest.raises(CorpusError, match="cannot tell how to read"):
        read_corpus(odd)


def test_binary_files_and_folders_docnmf_wrote_are_skipped_with_one_warning(tmp_path):
    root = tmp_path / "docs"
    write(root / "a.txt", "the striker scored")
    write(root / "wide.txt", "\ufeffa goal".encode("utf-16"))     # text, with NUL bytes
    write(root / "picture.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    write(root / "out" / ".docnmf-output", "")                    # a result folder left here
    write(root / "out" / "report.html", "<html>cluster</html>")
    write(root / "saved" / "model.json", "{}")                    # a saved model
    write(root / "saved" / "arrays.npz", b"PK\x03\x04")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        c = read_folder(root)
    assert c.ids == ["a.txt", "wide.txt"]
    (said,) = [str(w.message) for w in record if issubclass(w.category, UserWarning)
               and not issubclass(w.category, UnicodeWarning)]
    assert said == (f"3 entries of {root} skipped: out/ (a folder docnmf wrote); picture.png "
                    "(binary: a NUL byte in its first 8 KiB); saved/ (a folder docnmf wrote)")


def test_linked_folders_are_named_as_skipped(tmp_path):
    """A corpus of linked folders (corpus/2023 -> /data/2023) lost their documents without a
    word, the run reporting success on the rest."""
    import os

    write(tmp_path / "data" / "space" / "a.txt", "stars and a telescope")
    write(tmp_path / "docs" / "med" / "b.txt", "a doctor and a patient")
    os.symlink(tmp_path / "data" / "space", tmp_path / "docs" / "space")
    os.symlink("..", tmp_path / "docs" / "med" / "loop")
    with pytest.warns(UserWarning) as record:
        c = read_folder(tmp_path / "docs")
    assert c.ids == ["med/b.txt"]
    (said,) = [str(w.message) for w in record]
    real = os.path.realpath(tmp_path)
    assert said == (f"2 entries of {tmp_path / 'docs'} skipped: med/loop/ (a link to the folder "
                    f"{real}/docs: linked folders are not entered); space/ (a link to the "
                    f"folder {real}/data/space: linked folders are not entered)")


def test_files_beside_subfolders_are_named_as_unlabelled(labelled_folder):
    with pytest.warns(UserWarning, match="holds 1 file of its own beside subfolders: those are "
                                         "unlabelled"):
        read_folder(labelled_folder)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_folder(labelled_folder / "econ")      # files only: unlabelled, as said


def test_a_split_of_the_same_classes_is_named(tmp_path):
    """20 Newsgroups' folder (train/ and test/, each with the 20 groups) was scored against two
    classes, train and test, with no word that the groups were one level down."""
    for split in ("train", "test"):
        for group in ("space", "med", "autos"):
            write(tmp_path / "news" / split / group / "1.txt", f"{group} words")
    with pytest.warns(UserWarning) as record:
        c = read_folder(tmp_path / "news")
    assert sorted(set(c.labels)) == [("test",), ("train",)]
    (said,) = [str(w.message) for w in record]
    assert said == (f"the classes of {tmp_path / 'news'} are its 2 folders (test, train), which "
                    "hold only folders, of the same names in each (autos, med, space): if those "
                    f"are the classes, read one of the 2 folders, e.g. {tmp_path / 'news/test'}")
    for split in ("train", "val"):
        for group in ("space", "med"):
            write(tmp_path / "tv" / split / group / "1.txt", f"{group} words")
    with pytest.warns(UserWarning, match="are its 2 folders .train, val."):
        read_folder(tmp_path / "tv")
    # classes holding files, or deeper folders of other names, are classes as they stand
    write(tmp_path / "topics" / "sport" / "football" / "1.txt", "goal")
    write(tmp_path / "topics" / "sport" / "tennis" / "1.txt", "set")
    write(tmp_path / "topics" / "health" / "diet" / "1.txt", "food")
    write(tmp_path / "topics" / "health" / "tennis" / "1.txt", "elbow")
    write(tmp_path / "mixed" / "a" / "x" / "1.txt", "one")
    write(tmp_path / "mixed" / "a" / "y" / "1.txt", "two")
    write(tmp_path / "mixed" / "b" / "x" / "1.txt", "three")
    write(tmp_path / "mixed" / "b" / "y" / "1.txt", "four")
    write(tmp_path / "mixed" / "b" / "2.txt", "five")
    for topic in ("contests", "protests"):        # topics, each by year: classes
        for year in ("2019", "2020"):
            write(tmp_path / "years" / topic / year / "1.txt", f"{topic} {year}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_folder(tmp_path / "topics")
        read_folder(tmp_path / "mixed")
        read_folder(tmp_path / "years")
        read_folder(tmp_path / "news" / "train")


def test_excel_csv_of_semicolons_or_with_a_sep_line_is_read(tmp_path, caplog):
    """Excel writes semicolons where the decimal mark is a comma, and may begin with a line
    "sep=;": both failed ("2 fields where the header has 1"; "line 2: 3 fields where the header
    has 2"), with a hint at best; a byte-order mark written twice hid the first column."""
    with caplog.at_level("INFO", logger="docnmf"):
        semi = read_csv(write(tmp_path / "semi.csv", "id;text;label\na;hello, world;x\n"))
    assert (semi.ids, semi.texts, semi.labels) == (["a"], ["hello, world"], [("x",)])
    assert "its header has no comma but semicolons" in caplog.text
    sep = read_csv(write(tmp_path / "sep.csv", "sep=;\nid;text\na;one, two\nb;\"x;y\"\n"))
    assert sep.texts == ["one, two", "x;y"]
    with pytest.raises(CorpusError, match=r"sep2.csv, line 3: 1 field where the header has 2"):
        read_csv(write(tmp_path / "sep2.csv", "sep=;\nid;text\nlonely\n"))   # line numbers kept
    # one column whose name holds a semicolon: its rows agree with commas, and are read so
    one = write(tmp_path / "one.csv", 'review (pros; cons)\n"Good, fast"\n"Slow; bad"\n')
    assert read_csv(one, text_column="review (pros; cons)").texts == ["Good, fast", "Slow; bad"]
    # no comma anywhere: every row agreed on one column, and "column 'body' not found"
    plain = write(tmp_path / "plain.csv", "body;topic;key\nstars and planets;a;1\nbread;b;2\n")
    read = read_csv(plain, text_column="body", label_column="topic", id_column="key")
    assert (read.ids, read.texts, read.labels) == (["1", "2"], ["stars and planets", "bread"],
                                                   [("a",), ("b",)])
    with pytest.raises(CorpusError, match="is empty"):      # (no record to look at: IndexError)
        read_csv(write(tmp_path / "empty.csv", b""))
    twice = write(tmp_path / "bom.csv", b"\xef\xbb\xbf\xef\xbb\xbfid,text\nq,hello\n")
    assert read_csv(twice).ids == ["q"]


def test_a_header_of_one_column_holding_bars_gets_a_hint(tmp_path):
    hint = ("the header is one column: are its fields separated by bars? docnmf reads "
            "commas in .csv files and tabs in .tsv files")
    path = write(tmp_path / "bars.csv", "id|text|label\na|hello, world|x\nb|bye|y\n")
    with pytest.raises(CorpusError, match="2 fields where the header has 1.*" + hint[:40]):
        read_csv(path)
    with pytest.raises(CorpusError) as plain:
        read_csv(write(tmp_path / "plain.csv", "body\nhello\n"))
    assert "one column" not in str(plain.value)


def test_a_folder_of_tables_is_read_as_one_table_as_the_dask_path_reads_it(tmp_path):
    root = tmp_path / "parts"
    write(root / "a.jsonl", '{"text": "stars and planets"}\n{"text": "comets"}\n')
    write(root / "b.jsonl", '{"text": "bread and butter"}\n')
    c = read_corpus(root)
    assert c.texts == ["stars and planets", "comets", "bread and butter"]
    assert c.ids == ["a.jsonl:1", "a.jsonl:2", "b.jsonl:1"]
    assert c.metadata["format"] == "tables"
    # ids of their own must not clash across the files
    write(root / "a.jsonl", '{"id": "x", "text": "stars"}\n')
    write(root / "b.jsonl", '{"id": "x", "text": "bread"}\n')
    with pytest.raises(CorpusError, match="duplicate document id 'x' across the files"):
        read_corpus(root, id_column="id")
    # any other file among them: a folder of documents, one per file, as before
    write(root / "notes.txt", "a note")
    assert read_corpus(root).metadata["format"] == "folder"


def test_an_empty_jsonl_part_is_a_part_without_documents(tmp_path):
    """Dask's to_textfiles and Spark write an empty file for an empty partition: it was
    refused as lacking the text column."""
    root = tmp_path / "parts"
    write(root / "0.jsonl", '{"text": "stars and planets"}\n')
    write(root / "1.jsonl", "")
    write(root / "2.jsonl", '{"text": "bread and butter"}\n')
    assert read_corpus(root).texts == ["stars and planets", "bread and butter"]
    assert len(read_jsonl(root / "1.jsonl")) == 0
    write(root / "3.jsonl", '{"body": "comets"}\n')      # a file of records still needs it
    with pytest.raises(CorpusError, match="column 'text' not found"):
        read_corpus(root)


def test_a_corpus_takes_a_plain_string_as_one_label_and_refuses_shared_ids():
    """Labels given as strings were split into characters: "finance" and "football" both
    scored as class 'f'."""
    from docnmf import Corpus

    c = Corpus(texts=["a", "b", "c", "d"], labels=["finance", "football", None, ["x", "y"]],
               ids=["1", "2", "3", "4"])
    assert c.labels == [("finance",), ("football",), (), ("x", "y")]
    assert c.classes == ["finance", "football", "x", "y"]
    with pytest.raises(ValueError, match="document id '2' is given to more than one document"):
        Corpus(texts=["a", "b", "c"], labels=[(), (), ()], ids=["1", "2", "2"])


def test_a_folder_docnmf_wrote_is_not_read_as_documents(tmp_path):
    """docnmf cluster OUT (or assign OUT OUT, the arguments swapped) clustered the result
    files as documents."""
    out = tmp_path / "out"
    write(out / "assignments.csv", "id,cluster\n")
    write(out / ".docnmf-output", "{}")
    with pytest.raises(CorpusError, match="is a folder docnmf wrote"):
        read_folder(out)
    with pytest.raises(CorpusError, match="is a folder docnmf wrote"):
        read_corpus(out)


def test_a_table_among_text_files_is_named_as_read_as_one_document(tmp_path):
    write(tmp_path / "a.txt", "planet orbit")
    write(tmp_path / "b.csv", "text\nfirst\nsecond\n")
    with pytest.warns(UserWarning, match=r"1 CSV/TSV/JSONL file in .* \(b.csv\) is read as one "
                                         r"document each"):
        corpus = read_folder(tmp_path)
    assert corpus.ids == ["a.txt", "b.csv"]


def test_every_skipped_entry_is_kept_beyond_the_three_the_warning_names(tmp_path):
    """The warning named three and '...', and the rest were nowhere to be found."""
    import json

    from docnmf.cli import main

    root = tmp_path / "docs"
    write(root / "a.txt", "the striker scored a goal")
    write(root / "b.txt", "the oven baked the bread")
    for name in ("p1.png", "p2.png", "p3.png", "p4.png"):
        write(root / name, b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.warns(UserWarning, match=r"p3.png \(binary: a NUL byte in its first 8 KiB\); "
                                         r"and 1 more \(all in the corpus's metadata"
                                         r"\['skipped'\] and a result folder's run.json\)"):
        corpus = read_folder(root)
    assert corpus.metadata["skipped"] == [
        f"p{i}.png (binary: a NUL byte in its first 8 KiB)" for i in range(1, 5)]
    assert main(["-q", "cluster", str(root), "-k", "2", "--min-df", "1", "--method", "nmf",
                 "-o", str(tmp_path / "out")]) == 0
    run = json.loads((tmp_path / "out" / "run.json").read_text())
    assert run["corpus"]["skipped"] == corpus.metadata["skipped"]


def test_the_default_columns_are_found_in_any_letter_case(tmp_path):
    """A header 'ID,Text,Label': the labels were silently not read, and 'Text' only listed."""
    write(tmp_path / "a.csv", "ID,body,Label\nx1,stars and planets,space\nx2,bread,food\n")
    c = read_csv(tmp_path / "a.csv", text_column="body")
    assert c.ids == ["x1", "x2"] and c.labels == [("space",), ("food",)]
    write(tmp_path / "b.csv", "ID,Text\nx1,stars\n")
    with pytest.raises(CorpusError, match=r"column 'text' not found .*available columns: 'ID', "
                                          r"'Text' \(names are read as written, in their letter "
                                          r"case: 'Text' is there\)"):
        read_csv(tmp_path / "b.csv")
    write(tmp_path / "c.csv", "label,Label,text\na,b,stars\n")     # two: the exact one
    assert read_csv(tmp_path / "c.csv").labels == [("a",)]


def test_records_without_their_text_are_named(tmp_path):
    """A record whose key was misspelt ("Text") or null became an empty document, reported
    later only as having no index term."""
    write(tmp_path / "a.jsonl", '{"id": 1, "text": "stars"}\n{"id": 2, "Text": "bread"}\n'
                                '{"id": 3, "text": null}\n{"id": 4, "text": ""}\n')
    with pytest.warns(UserWarning, match=r"2 records of .*a.jsonl have no 'text' or a null one "
                                         r"\(line 2, line 3\): read as empty documents"):
        c = read_jsonl(tmp_path / "a.jsonl")
    assert c.texts == ["stars", "", "", ""]


def test_a_long_read_says_how_far_it_got(tmp_path, caplog, monkeypatch):
    """Reading 120,000 files took 12 s with one line, "reading big_folder", before it."""
    from docnmf.corpus import readers

    for i in range(4):
        (tmp_path / f"{i}.txt").write_text(f"document {i}")
    monkeypatch.setattr(readers, "PROGRESS_S", 0.0)
    with caplog.at_level("INFO", logger="docnmf"):
        readers.read_folder(tmp_path)
    assert f"read 3 of 4 files in {tmp_path}" in caplog.text
    monkeypatch.setattr(readers, "PROGRESS_S", 3600.0)
    caplog.clear()
    with caplog.at_level("INFO", logger="docnmf"):
        readers.read_folder(tmp_path)
    assert "files in" not in caplog.text       # a quick read says nothing


def test_a_corpus_of_one_says_so_in_its_repr():
    """"1 documents, 1 classes"."""
    from docnmf import Corpus

    assert repr(Corpus(["a star"], [("space",)], ["d"])) == \
        "Corpus('corpus', 1 document, 1 class, texts)"
    assert "2 documents, 2 classes" in repr(Corpus(["a", "b"], [("x",), ("y",)], ["1", "2"]))


def test_files_that_are_no_text_though_without_a_nul_byte_are_skipped_and_named(tmp_path):
    """A desktop.ini in each label folder (UTF-16 text Windows hides) made a cluster
    "dll, shellclassinfo, iconresource"; small PDFs and rich text (TextEdit's default) theirs:
    accuracy 0.30 where the text files alone gave 0.64."""
    root = tmp_path / "docs"
    write(root / "space" / "a.txt", "the rocket reached orbit")
    write(root / "space" / "desktop.ini", b"\xff\xfe" + "\r\n[.ShellClassInfo]\r\nIconResource="
          "C:\\Windows\\System32\\imageres.dll,-3\r\n".encode("utf-16-le"))
    write(root / "space" / "Icon\r", b"")
    write(root / "space" / "Thumbs.db", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")  # named, not "Office"
    write(root / "food" / "memo.rtf", "{\\rtf1\\ansi\\ansicpg1252{\\fonttbl\\f0\\fswiss Helvetica;}"
          "\\f0\\fs24 Bake the bread.}")
    write(root / "food" / "paper.pdf", "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >>\n"
          "endobj\n")
    write(root / "food" / "sheet.xlsx", b"PK\x03\x04\x14\x00\x06\x00")
    write(root / "food" / "b.txt", "the oven baked the bread")
    with pytest.warns(UserWarning, match=r"6 entries of .* skipped: food/memo.rtf \(rich text "
                                         r"\(RTF\): save it as plain text\); food/paper.pdf \(a "
                                         r"PDF: extract its text first"):
        corpus = read_folder(root)
    assert corpus.ids == ["food/b.txt", "space/a.txt"]
    assert corpus.metadata["skipped"][2:] == [
        ("food/sheet.xlsx (a ZIP archive, or an Office file (.xlsx, .docx) that is one: unzip it, "
         "or save the sheet as CSV UTF-8)"), "space/Icon\r (a macOS folder icon)",
        "space/Thumbs.db (Windows' thumbnail cache)", "space/desktop.ini (Windows' folder settings)"]
    with pytest.warns(UserWarning, match=r"skipped: Icon\\x0d \(a macOS folder icon\); Thumbs"):
        read_folder(root / "space")
    with pytest.raises(CorpusError, match=r"sheet.xlsx is no text but a ZIP archive, or an "
                                          r"Office file \(.xlsx, .docx\) that is one: unzip it"):
        read_text_file(root / "food" / "sheet.xlsx")


def test_windows_and_old_mac_line_ends_are_read_as_newlines(tmp_path):
    """Blank lines of CRLF and CR files were no blank lines to the sentence splitter and mail
    header rules: a title ran into a summary's first sentence, headers stayed in, and NMA's
    segments (and clusters: accuracy 0.53 for LF, 0.43 for CRLF) changed."""
    text = "Budget talks\n\nThe minister resigned today.\nMarkets fell."
    read = {}
    for end in ("\n", "\r\n", "\r"):
        folder = tmp_path / repr(end).strip("'\\")
        write(folder / "a.txt", text.replace("\n", end))
        write(folder / "b.csv", 'id,text\nx,"' + text.replace("\n", end) + '"' + end)
        read[end] = (read_folder(folder, pattern="*.txt").texts, read_csv(folder / "b.csv").texts)
    assert read["\r\n"] == read["\r"] == read["\n"] == ([text], [text])


def test_utf16_with_a_bad_unit_loses_that_unit_not_the_text(tmp_path):
    """A lone surrogate in a UTF-16 file (or a newline appended in ASCII, as `echo >>` does)
    had the whole file read as UTF-8: NUL bytes between the letters, no index term left, and
    a warning that it was not valid UTF-8."""
    text = "The telescope observed a distant galaxy"
    units = text.encode("utf-16-le")
    write(tmp_path / "d" / "bad.txt", b"\xff\xfe" + units[:8] + b"\x00\xd8" + units[8:])
    write(tmp_path / "d" / "echoed.txt", b"\xff\xfe" + units + b"\n")
    write(tmp_path / "t.tsv", b"\xff\xfe" + "id\ttext\nx\tfry the onion\n".encode("utf-16-le")
          + b"\n")
    with pytest.warns(UnicodeWarning, match=r"1 file in .* was not valid in the encoding a "
                                            r"byte-order mark named \(UTF-16 or UTF-32\) and "
                                            r"decoded with replacement characters \(U\+FFFD\) "
                                            r"\(the first at bad.txt, byte 11, in utf-16\)$"):
        c = read_folder(tmp_path / "d")
    assert c.texts == [text[:4] + "\ufffd" + text[4:], text]
    assert read_csv(tmp_path / "t.tsv").texts == ["fry the onion"]


def test_a_spreadsheets_empty_label_cells_are_no_labels(tmp_path, caplog):
    """Every third label "  ", "NA" or "#N/A": the blank ones were unlabelled, "NA" and "#N/A"
    two classes more (6 classes for 4), and accuracy fell to 0.48."""
    rows = "".join(f"d{i},text {i},{lab}\n" for i, lab in
                   enumerate(["sport", "NA", "econ", "#N/A", "  ", "nan", "NAB"]))
    with caplog.at_level("INFO", logger="docnmf"):
        c = read_csv(write(tmp_path / "l.csv", "id,text,label\n" + rows))
    assert c.labels == [("sport",), (), ("econ",), (), (), (), ("NAB",)]
    assert "3 labels of" in caplog.text and "read as missing ('NA', '#N/A', 'nan')" in caplog.text


def test_a_text_files_byte_order_mark_is_not_its_text(tmp_path):
    """Files saved by Notepad as UTF-8 begin with a mark, which began 132 snippets of a report."""
    write(tmp_path / "a.txt", b"\xef\xbb\xbfThe comet is back.")
    write(tmp_path / "b.txt", "Saved as UTF-16.".encode("utf-16"))    # its mark is its codec's
    assert read_folder(tmp_path).texts == ["The comet is back.", "Saved as UTF-16."]


def test_a_byte_order_mark_says_the_encoding_whatever_else_is_named(tmp_path):
    """With encoding="cp1252" (as the warning advises for the folder's other files), Notepad's
    "Unicode" (UTF-16) files were read as cp1252, NUL bytes between the letters, and a UTF-8
    file with its mark as mojibake; a UTF-16 table named as such was split into lines inside
    its units; a UTF-16 table's bad unit was replaced without a word."""
    write(tmp_path / "d" / "windows.txt", "The café opened".encode("cp1252"))
    write(tmp_path / "d" / "notepad.txt", "The café closed".encode("utf-16"))
    write(tmp_path / "d" / "marked.txt", "\ufeffThe café moved".encode("utf-8"))
    assert read_folder(tmp_path / "d", encoding="cp1252").texts == [
        "The café moved", "The café closed", "The café opened"]
    table = write(tmp_path / "t.csv", "id,text\na,one café\nb,two\n".encode("utf-16-le"))
    assert read_csv(table, encoding="utf-16-le").texts == ["one café", "two"]
    units = "id,text\na,one\nb,two\n".encode("utf-16-le")
    bad = write(tmp_path / "bad.csv", b"\xff\xfe" + units[:-6] + b"\x00\xd8" + units[-6:])
    with pytest.warns(UnicodeWarning, match="not valid in the encoding a byte-order mark named"):
        assert read_csv(bad).texts[0] == "one"
    with pytest.warns(UnicodeWarning) as said:      # no advice to name what was named
        read_folder(write(tmp_path / "w" / "x.txt", b"caf\x81").parent, encoding="cp1252")
    assert "--encoding" not in str(said[0].message)


def test_a_web_page_not_in_utf8_is_read_in_the_charset_it_declares(tmp_path):
    """A page saved in windows-1252 read "café" as "caf" and its quotes as replacement
    characters, its <meta charset> unread; a page declaring Latin-1 but written in UTF-8 (a
    common mislabel) stays UTF-8."""
    write(tmp_path / "a.html", b'<!DOCTYPE html><html><head><meta http-equiv="Content-Type" '
          b'content="text/html; charset=windows-1252"></head><body><p>The caf\xe9 \x93opened'
          b'\x94.</p></body></html>')
    write(tmp_path / "b.html", b'<!DOCTYPE html><html><head><meta charset="iso-8859-1"></head>'
          b'<body><p>The caf\xc3\xa9 is UTF-8.</p></body></html>')
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # nothing replaced
        texts = read_folder(tmp_path).texts
    assert [t.split() for t in texts] == [["The", "café", "“opened”."],
                                          ["The", "café", "is", "UTF-8."]]


def test_json_escapes_of_half_a_character_are_replacement_characters(tmp_path):
    """JSON can escape a lone surrogate ("\\ud83d", half of an emoji cut in two by an export),
    which no UTF-8 file can hold: an id holding one was written to assignments.csv as the
    escape and to memberships.npz as it was, and `docnmf cluster` ended in a traceback saying
    the two "hold different documents"."""
    f = tmp_path / "posts.jsonl"
    f.write_text('{"id": "p1\\udc80", "text": "cut \\ud83d emoji", "label": ["a\\ud800"]}\n'
                 '{"id": "p2", "text": "whole \\ud83d\\ude00 emoji"}\n', encoding="utf-8")
    with pytest.warns(UnicodeWarning, match=r"1 record of .*posts\.jsonl holds half a character"):
        c = read_jsonl(f)
    assert c.ids == ["p1\ufffd", "p2"]
    assert c.texts == ["cut \ufffd emoji", "whole \U0001f600 emoji"]
    assert c.labels[0] == ("a\ufffd",)
    for text in (*c.ids, *c.texts):
        text.encode("utf-8")
    g = tmp_path / "posts.json"
    g.write_text('[{"id": "p1\\udc80", "text": "cut"}, {"id": "p2", "text": "x"}]',
                 encoding="utf-8")
    with pytest.warns(UnicodeWarning, match=r"1 record of .*posts\.json holds half"):
        assert read_corpus(g).ids == ["p1\ufffd", "p2"]


def test_a_folder_of_text_files_is_listed_once(tmp_path, monkeypatch):
    """read_corpus asks whether a folder holds tables only, then reads its text files: each
    file is looked at once for both (a folder of 20,000 files was walked twice), and the
    corpus is read_folder's."""
    import pathlib

    for label in ("a", "b", "c"):
        (tmp_path / label).mkdir()
        for i in range(10):
            (tmp_path / label / f"{i}.txt").write_text(f"document {label} {i}")
    (tmp_path / "b" / "notes.csv").write_text("text\nhello\n")
    direct = read_folder(tmp_path)
    looked_at = []
    is_file = pathlib.Path.is_file

    def counted(self):
        looked_at.append(self.name)
        return is_file(self)

    monkeypatch.setattr(pathlib.Path, "is_file", counted)
    corpus = read_corpus(tmp_path)
    assert len(looked_at) <= 32          # 31 files, each once (and the first again at most)
    assert (corpus.texts, corpus.ids, corpus.labels) == (direct.texts, direct.ids,
                                                          direct.labels)
    assert corpus.metadata == direct.metadata


@pytest.mark.parametrize("name", ["", "  "])
def test_read_corpus_of_an_empty_name_is_refused(name, labelled_folder, monkeypatch):
    """read_corpus("") read the folder the code ran in (Path("") is "."), as the command line
    did before it refused an empty input's name."""
    monkeypatch.chdir(labelled_folder)
    with pytest.raises(CorpusError, match="expected a folder, file or dataset name"):
        read_corpus(name)
