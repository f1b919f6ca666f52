"""Files that once lost records silently or ended in a traceback: each is read whole or refused
with a CorpusError naming the file and the line."""

import csv
import inspect
import os
import sys
import threading
import warnings

import numpy as np
import pytest
import scipy.io

from docnmf.corpus import CorpusError, read_corpus, read_csv, read_folder, read_jsonl, read_mat
from docnmf.corpus import formats, readers


def csv_file(path, rows, header=("id", "text", "label")):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    return path


def thirty_records(path):
    return csv_file(path, [(f"d{i}", f"words of record {i}", "ab"[i % 2]) for i in range(30)])


def test_an_unclosed_quote_is_an_error_not_lost_records(tmp_path):
    f = thirty_records(tmp_path / "d.csv")
    lines = f.read_text().splitlines(keepends=True)
    lines[5] = lines[5].replace(",", ',"', 1)  # record d4 opens a quote it never closes
    f.write_text("".join(lines))
    with pytest.raises(CorpusError, match=r"d\.csv, line 6: a quoted field .* never closed"):
        read_csv(f)


def test_a_stray_quote_in_the_middle_is_an_error(tmp_path):
    f = thirty_records(tmp_path / "d.csv")
    lines = f.read_text().splitlines(keepends=True)
    lines[3] = lines[3].replace(",", ',"', 1)  # swallows records until the next quote...
    lines[9] = lines[9].replace("words", '"words', 1)  # ...which is followed by text
    f.write_text("".join(lines))
    with pytest.raises(CorpusError, match=r"d\.csv, line 4: malformed CSV"):
        read_csv(f)


@pytest.mark.parametrize("row, fields", [("2,bar baz,b,extra,more", 5), ("3", 1), ("4,only", 2)])
def test_ragged_rows_are_errors(tmp_path, row, fields):
    f = tmp_path / "r.csv"
    f.write_text(f"id,text,label\n1,hello world,a\n{row}\n5,foo,a\n")
    with pytest.raises(CorpusError, match=rf"r\.csv, line 3: {fields} fields? where the header "
                                          "has 3"):
        read_csv(f)


def test_trailing_empty_fields_and_blank_rows_are_fine(tmp_path):
    f = tmp_path / "r.csv"
    f.write_text("id,text,label\n1,hello,a,,\n\n2,bye,b\n")
    assert read_csv(f).texts == ["hello", "bye"]


def test_a_field_of_200000_characters_is_read(tmp_path):
    big = "word " * 40_000
    f = csv_file(tmp_path / "big.csv", [("a", big, "x"), ("b", "short", "y")])
    c = read_csv(f)
    assert len(c.texts[0]) == 200_000 and c.texts[1] == "short"
    import csv as module
    assert module.field_size_limit() == 131072  # the reader leaves the module as it found it


def test_a_field_over_the_limit_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(readers, "MAX_FIELD", 1000)
    f = csv_file(tmp_path / "big.csv", [("a", "short", "x"), ("b", "x" * 1001, "y")])
    with pytest.raises(CorpusError, match=r"big\.csv, line 3: a field longer than 1,000"):
        read_csv(f)


@pytest.mark.parametrize("line, message", [
    ('{"text": "a"', "line 2 .* not valid JSON"),
    ("1" * 5000, "line 2 .* cannot be read as JSON"),
    ("[" * 100_000, "line 2 .* (cannot be read as|not valid) JSON"),
])
def test_json_lines_errors_name_the_line(tmp_path, line, message):
    f = tmp_path / "d.jsonl"
    f.write_text('{"text": "ok"}\n' + line + "\n")
    with pytest.raises(CorpusError, match=message):
        read_jsonl(f)


def test_folder_skips_broken_and_outside_links_with_one_warning(tmp_path):
    root = tmp_path / "docs"
    (root / "a").mkdir(parents=True)
    (root / "a" / "1.txt").write_text("inside one")
    (root / "a" / "2.txt").write_text("inside two")
    (tmp_path / "secret.txt").write_text("outside")
    os.symlink(tmp_path / "secret.txt", root / "a" / "out.txt")
    os.symlink("2.txt", root / "a" / "in.txt")  # inside the folder: read
    os.symlink("nowhere", root / "a" / "dangling.txt")
    os.symlink("loop_b", root / "a" / "loop_a")
    os.symlink("loop_a", root / "a" / "loop_b")
    os.mkfifo(root / "a" / "fifo")
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        c = read_folder(root)
    assert c.ids == ["a/1.txt", "a/2.txt", "a/in.txt"]
    assert "outside" not in " ".join(c.texts)
    (message,) = [str(w.message) for w in record]
    assert message.startswith("5 entries of") and "leads nowhere" in message
    with pytest.warns(UserWarning, match="^4 entries"):  # the links outside are followed now
        everything = read_folder(root, follow_outside_links=True)
    assert "a/out.txt" in everything.ids


def test_a_pipe_given_as_the_input_is_named_as_one_not_called_missing(tmp_path):
    os.mkfifo(tmp_path / "stream")
    with pytest.raises(CorpusError, match="stream is neither a file nor a folder .a pipe"):
        read_corpus(tmp_path / "stream")


def test_an_unreadable_file_in_a_folder_is_a_corpus_error(tmp_path, monkeypatch):
    root = tmp_path / "docs"
    root.mkdir()
    (root / "1.txt").write_text("x")

    real = readers._regular_file_bytes

    def refuse(path, *limit):
        if path.name == "1.txt":    # running as root, a chmod would not stop the read
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *limit)

    monkeypatch.setattr(readers, "_regular_file_bytes", refuse)
    with pytest.raises(CorpusError, match="cannot read .*1.txt: Permission denied"):
        read_folder(root)


def test_an_unreadable_folder_in_a_folder_is_a_corpus_error(tmp_path, monkeypatch):
    """It was skipped without a word (os.walk drops the error), its documents missing."""
    root = tmp_path / "docs"
    (root / "open").mkdir(parents=True)
    (root / "secret").mkdir()
    (root / "open" / "1.txt").write_text("x")
    (root / "secret" / "2.txt").write_text("y")
    real = os.scandir

    def refuse(path="."):
        if os.fspath(path).endswith("secret"):  # running as root, a chmod would not stop it
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", refuse)
    with pytest.raises(CorpusError, match="cannot read the folder .*secret: Permission denied"):
        read_folder(root)


def mat(tmp_path, name, **arrays):
    path = tmp_path / name
    scipy.io.savemat(path, arrays)
    return path


def test_mat_files_that_cannot_be_used_are_corpus_errors(tmp_path):
    X = np.random.default_rng(0).random((6, 4))
    garbage = tmp_path / "garbage.mat"
    garbage.write_bytes(np.random.default_rng(1).bytes(3000))
    with pytest.raises(CorpusError, match="is not a MATLAB file that can be read"):
        read_mat(garbage)
    with pytest.raises(CorpusError, match="negative entries"):
        read_mat(mat(tmp_path, "neg.mat", fea=X - 0.5, gnd=np.arange(6)))
    with pytest.raises(CorpusError, match="NaN or infinite"):
        read_mat(mat(tmp_path, "nan.mat", fea=np.where(X > 0.5, np.nan, X), gnd=np.arange(6)))
    with pytest.raises(CorpusError, match="not a numeric matrix"):
        read_mat(mat(tmp_path, "cell.mat", fea=np.array(["a", "b"], dtype=object),
                     gnd=np.arange(2)))


#: A damaged 5 x 6 fea/gnd file (zlib, base64) on which scipy's MATLAB reader dies of a
#: segmentation fault; found by tests/test_fuzz.py.
CRASHING_MAT = (
    "eNrzdQzxcXRSMNUzUPB1DNFNy8xJVQjISSxJyy/KtVIoyC/OrNBRcC5KTSxJTVEwzrNSCAfSfvllCkamCgYmVgaGVgYm"
    "CkYGRmYMeAAjLnFPXz4gpQCUZwPSHAwQGgRYoXxWqBgjAzNDWmoiAyeQ/QGIlwVt4QuWumqPbuQ/lQVP9p68gCEusKnY"
    "6RLXKbi4TkdE5qwzN+H8qBq+q+esXsL5SYsUjv1heoFhjsoP58nmny7aMxAAX/Y+/mWU9B6nuqZv7MwybHftHbj/Orhr"
    "HISrs3t8vzCO97692zt2z+70y3BxUDhFMCDCiQ8tnBihbFA4peelMCQC2RpYooAJSjNDaRYoDQDzb0jY")


def test_a_mat_file_that_crashes_scipy_is_a_corpus_error(tmp_path, monkeypatch):
    import base64
    import signal
    import zlib

    f = tmp_path / "crash.mat"
    f.write_bytes(zlib.decompress(base64.b64decode(CRASHING_MAT)))
    # it crashes scipy in some processes and not others (the memory it reads past differs)
    with pytest.raises(CorpusError, match="is not a MATLAB file that can be read"):
        read_mat(f)
    # the reader's process dying of a segmentation fault, every time
    monkeypatch.setattr(scipy.io, "loadmat", lambda path: os.kill(os.getpid(), signal.SIGSEGV))
    with pytest.raises(CorpusError, match="scipy's reader died on it with exit status -11"):
        read_mat(f)


def test_mat_labels_may_be_text(tmp_path):
    c = read_mat(mat(tmp_path, "t.mat", fea=np.ones((3, 2)), gnd=np.array(["x", "y", "x"])))
    assert c.labels == [("x",), ("y",), ("x",)]


@pytest.mark.parametrize("content, message", [
    ("2 x\n1 1\n0 2\n", "first line should be"),
    ("2 3\n1 1 z\n0 2\n", "line 2: expected whole-number columns"),
    ("1 3\n0 -2\n", "non-negative"),
    ("1 99999999999\n0 1\n", "more than"),
])
def test_cluto_damage_is_a_corpus_error(tmp_path, content, message):
    f = tmp_path / "sparse_t.txt"
    f.write_text(content)
    with pytest.raises(CorpusError, match=message):
        formats.read_cluto(f)


def test_reuters_record_without_newid(tmp_path):
    (tmp_path / "reut2-000.sgm").write_text('<REUTERS TOPICS="YES"><TEXT>x</TEXT></REUTERS>')
    with pytest.raises(CorpusError, match="without a NEWID"):
        formats.read_reuters21578(tmp_path)


def test_read_corpus_dispatch_still_refuses_unknown_types(tmp_path):
    odd = tmp_path / "d.xml"
    odd.write_text("<doc/>")
    with pytest.raises(CorpusError, match="cannot tell how to read"):
        read_corpus(odd)


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_with_a_byte_order_mark_are_read_as_written(tmp_path, codec):
    """They were let past the binary check, then decoded as UTF-8: every document came out
    as replacement characters and no index term."""
    import codecs

    bom = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE,
           "utf-32-le": codecs.BOM_UTF32_LE, "utf-32-be": codecs.BOM_UTF32_BE}[codec]

    def wide(text):
        return bom + text.encode(codec)

    texts = ["Café au lait, crème brûlée", "Übergrößen: naïve façade"]
    folder = tmp_path / "docs"
    (folder / "food").mkdir(parents=True)
    for i, text in enumerate(texts):
        (folder / "food" / f"{i}.txt").write_bytes(wide(text))
    table = "id,text,label\r\n" + "".join(f'{i},"{t}",food\r\n' for i, t in enumerate(texts))
    (tmp_path / "t.csv").write_bytes(wide(table))
    lines = "".join(f'{{"id": "{i}", "text": "{t}"}}\n' for i, t in enumerate(texts))
    (tmp_path / "t.jsonl").write_bytes(wide(lines))
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # no replacement character, no skipped file
        assert read_folder(folder).texts == texts
        assert read_csv(tmp_path / "t.csv").texts == texts
        assert read_jsonl(tmp_path / "t.jsonl").texts == texts
    # an encoding asked for is the caller's: the file is not transcoded under it
    assert read_folder(folder, encoding=codec.split("-")[0] + "-" + codec.split("-")[1]
                       ).texts[0].endswith(texts[0])


def test_names_that_are_not_utf8_become_readable_ids_and_outputs(tmp_path, cli):
    """A file or folder name with bytes that are not UTF-8 ended the run with a traceback
    after the fit, when the ids were written."""
    import json

    root = os.fsencode(tmp_path) + b"/in\xff"
    words = {b"fin\xfe": "bank market stock price investor rate",
             b"sport": "goal team player coach league match"}
    for label, vocabulary in words.items():
        os.makedirs(root + b"/" + label)
        for i in range(6):
            text = " ".join(vocabulary.split()[(i + j) % 6] for j in range(20))
            with open(root + b"/" + label + b"/d%d\xe9.txt" % i, "w") as file:
                file.write(text)
    corpus = read_folder(os.fsdecode(root))
    assert corpus.ids[0] == "fin\\xfe/d0\\xe9.txt" and corpus.labels[0] == ("fin\\xfe",)
    out = tmp_path / "out"
    code, _, err = cli(["cluster", os.fsdecode(root), "-k", "2", "--min-df", "1", "-o", out])
    assert code == 0 and "Traceback" not in err
    with open(out / "assignments.csv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    assert {r["id"] for r in rows} == set(corpus.ids)
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["corpus"]["name"] == "in\\xff" and run["corpus"]["source"].endswith("in\\xff")


def test_a_header_naming_a_column_twice_is_an_error(tmp_path):
    """The last column of the name was read without a word (a run scored 1.000 on the other
    column's texts)."""
    path = tmp_path / "t.csv"
    path.write_text("id,text,label,text\n1,planet star,astro,rose soil\n2,orbit moon,astro,x\n")
    with pytest.raises(CorpusError, match="names column 'text' more than once"):
        read_csv(path)
    path.write_text("id,text,,\n1,planet star,,\n2,orbit moon,,\n")     # unnamed: fine
    assert read_csv(path).texts == ["planet star", "orbit moon"]
    # a column no one reads may be named twice; one that is read may not
    path.write_text("id,text,note,note\n1,planet star,a,b\n2,orbit moon,c,d\n")
    assert read_csv(path).texts == ["planet star", "orbit moon"]
    with pytest.raises(CorpusError, match="names column 'note' more than once"):
        read_csv(path, label_column="note")


def test_column_names_asked_for_are_read_without_surrounding_spaces_as_the_header_is(tmp_path):
    """A header 'ID ' was read as 'ID', so --id-column 'ID ' (what the file holds) was not
    found among the columns."""
    path = tmp_path / "t.csv"
    path.write_text("ID ,Body, topic\n a1 ,planet star,astro\nb2,orbit moon,astro\n")
    corpus = read_csv(path, text_column="Body", id_column="ID ", label_column=" topic")
    assert corpus.ids == ["a1", "b2"] and corpus.labels == [("astro",), ("astro",)]
    assert read_csv(path, text_column=" Body ", id_column="ID").ids == ["a1", "b2"]


def test_a_folder_of_tables_whose_name_is_not_utf8_gets_a_readable_name(tmp_path):
    root = os.fsencode(tmp_path) + b"/parts\xff"
    os.makedirs(root)
    for i in range(2):
        with open(root + b"/p%d.csv" % i, "w") as file:
            file.write(f"text\nplanet orbit {i}\nsoil rose {i}\n")
    corpus = read_corpus(os.fsdecode(root))
    assert corpus.metadata["name"] == "parts\\xff"
    assert corpus.metadata["source"].endswith("parts\\xff")
    assert corpus.ids == ["p0.csv:1", "p0.csv:2", "p1.csv:1", "p1.csv:2"]


def test_two_files_whose_names_read_alike_are_a_corpus_error(tmp_path):
    """'a<0xFF>.txt' is shown as 'a\\xff.txt', the name of another file: both got that id, and
    the command stopped with a ValueError traceback."""
    try:
        (tmp_path / os.fsdecode(b"a\xff.txt")).write_text("orbit launch shuttle")
    except (OSError, UnicodeError):
        pytest.skip("this file system takes no file name that is not UTF-8")
    (tmp_path / "a\\xff.txt").write_text("car engine dealer")
    with pytest.raises(CorpusError, match=r"document id 'a\\\\xff.txt' is given to more than "
                                          r"one document.*rename one"):
        read_folder(tmp_path)


def test_a_json_array_of_records_is_read_as_its_records(tmp_path):
    """An array exported to .json was one plain-text document: 'cluster' said -k 2 is more
    than the 1 document, 'summarize' printed the JSON."""
    import json

    words = ["comet orbit planet", "garlic onion butter"]
    records = [{"id": f"r{i}", "text": f"{words[i % 2]} {i}", "label": "ab"[i % 2]}
               for i in range(4)]
    path = tmp_path / "records.json"
    path.write_text(json.dumps(records, indent=1), encoding="utf-8")
    corpus = read_corpus(path)
    assert corpus.ids == ["r0", "r1", "r2", "r3"] and corpus.texts[2] == "comet orbit planet 2"
    assert corpus.labels == [("a",), ("b",), ("a",), ("b",)]
    from docnmf.cli import main

    assert main(["-q", "cluster", str(path), "-k", "2", "--min-df", "1", "-o",
                 str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "assignments.csv").read_text().count("\nr") == 4
    # JSON Lines saved as .json, as pandas' to_json(lines=True) writes it
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    assert read_corpus(path).ids == ["r0", "r1", "r2", "r3"]
    for content, message in [('{"text": "x"}', ("holds a JSON dict; docnmf reads a .json file "
                                                "as an array of objects")),
                             ('[{"text": "x"}, 3]', "record 2 of .* is not a JSON object"),
                             ('{"text": "x"}\n[1]', "line 2 of .* is not a JSON object"),
                             ('[{"text": "x"', "is not valid JSON"),
                             ('[{"body": "x"}]', "column 'text' not found")]:
        path.write_text(content, encoding="utf-8")
        with pytest.raises(CorpusError, match=message):
            read_corpus(path)


def test_a_semicolon_file_whose_quoted_texts_span_lines_is_read(tmp_path):
    """Excel's export in many locales: a quoted text with a line break failed on a quote, and
    the semicolon hint came only for plain fields; the command line had no way to name the
    delimiter."""
    path = tmp_path / "quoted.csv"
    path.write_bytes(b'id;text\r\n1;"orbit launch\r\nshuttle\r\n"\r\n2;"car engine, v8"\r\n')
    c = read_csv(path)
    assert c.ids == ["1", "2"] and c.texts == ["orbit launch\nshuttle\n", "car engine, v8"]


def test_a_folder_nested_deeper_than_the_recursion_limit_is_read(tmp_path):
    """os.walk recursed once per level (before Python 3.12): a folder nested deeper than the
    recursion limit (1,000 frames) was a RecursionError and a traceback. Here the limit is
    lowered to 150 frames above the test's own, and the folder nested 400 deep."""
    root = tmp_path / "docs"
    root.mkdir()
    (root / "top.txt").write_text("words at the top")
    deepest = root.joinpath(*["n"] * 400)
    deepest.mkdir(parents=True)
    (deepest / "leaf.txt").write_text("words at the bottom")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack(0)) + 150)
    try:
        with pytest.warns(UserWarning, match="beside subfolders"):
            c = read_folder(root)
    finally:
        sys.setrecursionlimit(limit)
    assert c.ids == ["n/" * 400 + "leaf.txt", "top.txt"]
    assert c.labels == [("n",), ()]


def test_a_file_replaced_by_a_pipe_after_the_listing_is_an_error_not_a_hang(tmp_path, monkeypatch):
    """The entries are checked as the folder is listed; one another program replaced by a pipe
    before it was read (a large folder takes seconds) blocked the read for ever."""
    root = tmp_path / "docs"
    root.mkdir()
    for name in ("1.txt", "2.txt"):
        (root / name).write_text(f"words of {name}")
    real = readers._files_under

    def list_then_swap(*args, **kwargs):
        listed = real(*args, **kwargs)
        (root / "2.txt").unlink()
        os.mkfifo(root / "2.txt")
        return listed

    monkeypatch.setattr(readers, "_files_under", list_then_swap)
    result = {}

    def read():
        try:
            read_folder(root)
        except CorpusError as exc:
            result["error"] = str(exc)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():               # release the blocked read, so the thread can end
        os.close(os.open(root / "2.txt", os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail("the read of a pipe blocked")
    assert "2.txt: not a regular file" in result["error"]


def test_files_are_opened_in_binary_mode_where_the_system_has_one(tmp_path, monkeypatch):
    """On Windows a descriptor from os.open is in text mode unless O_BINARY is given: its reads
    turned CR LF into LF and stopped at a Ctrl-Z byte (UTF-16 text holds both). The flags
    passed to os.open are checked here with an O_BINARY set on os as Windows has it."""
    path = tmp_path / "1.txt"
    path.write_bytes(b"one\r\ntwo\x1a three")
    binary = 0x8000_0000     # a bit no other flag uses, stripped before the real open
    monkeypatch.setattr(os, "O_BINARY", binary, raising=False)
    flags = []
    real = os.open

    def recording(file, how, *args, **kwargs):
        flags.append(how)
        return real(file, how & ~binary, *args, **kwargs)

    monkeypatch.setattr(os, "open", recording)
    assert readers._regular_file_bytes(path) == b"one\r\ntwo\x1a three"
    assert flags and all(how & binary for how in flags)


@pytest.mark.skipif(not hasattr(os, "O_NONBLOCK"), reason="no O_NONBLOCK on this system")
def test_a_regular_file_is_read_from_a_blocking_descriptor(tmp_path, monkeypatch):
    """The file is opened without blocking (a pipe in its place would block the open), then read
    with blocking on: a file system that honours the flag could return nothing from the read."""
    path = tmp_path / "1.txt"
    path.write_bytes(b"one two three")
    blocking = []
    real = os.fstat

    def noting(fd):
        result = real(fd)
        blocking.append(os.get_blocking(fd))
        return result

    monkeypatch.setattr(os, "fstat", noting)
    seen = []
    real_set = os.set_blocking

    def setting(fd, flag):
        real_set(fd, flag)
        seen.append(os.get_blocking(fd))

    monkeypatch.setattr(os, "set_blocking", setting)
    assert readers._regular_file_bytes(path) == b"one two three"
    assert blocking == [False] and seen == [True]


def test_a_document_longer_than_docnmf_reads_is_refused_before_it_is_read(tmp_path, monkeypatch):
    """A 1 GB text file, one document, took 13 GB to tokenize and ended in "not enough memory"
    (try fewer documents...) or the system's killer; a JSON Lines record as long, 6.5 GB. Such
    a document is refused, named, before it is read; a CSV field was already (MAX_FIELD)."""
    monkeypatch.setattr(readers, "MAX_DOCUMENT", 100)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("short enough " * 7)           # 91 bytes
    (folder / "b.txt").write_text("one long document " * 6)      # 108 bytes
    with pytest.raises(CorpusError, match=r"cannot read .*b\.txt: 108 bytes, more than one "
                                          r"document may hold \(100\): split it into documents"):
        readers.read_folder(folder)
    with pytest.raises(CorpusError, match="108 bytes, more than one document may hold"):
        readers.read_text_file(folder / "b.txt")
    assert readers.read_text_file(folder / "a.txt").texts == ["short enough " * 7]
    lines = tmp_path / "docs.jsonl"
    lines.write_text('{"text": "fine"}\n' + '{"text": "%s"}\n' % ("x" * 120))
    with pytest.raises(CorpusError, match=r"line 2 of .*docs\.jsonl is 132 bytes long, more "
                                          r"than one document may hold \(100\)"):
        readers.read_jsonl(lines)
    # a table of many documents may be as large as it likes: its fields are bounded one by one
    table = tmp_path / "docs.csv"
    table.write_text("text\n" + "".join(f"document number {i}\n" for i in range(20)))
    assert len(readers.read_csv(table)) == 20


def test_a_short_document_is_read_without_setting_aside_the_longest(tmp_path, monkeypatch):
    """Each text file was read with read(MAX_DOCUMENT + 1), which sets aside 256 MiB before
    reading: under a memory limit (ulimit -v) a folder of three small files was 'not enough
    memory for this run'. A file is read at its size and one byte more; one grown since its
    size was taken is read on, and refused once over the limit."""
    path = tmp_path / "a.txt"
    path.write_bytes(b"one two three")
    asked = []
    real_open = open

    class Recording:
        def __init__(self, file):
            self.file = file

        def __enter__(self):
            self.file.__enter__()
            return self

        def __exit__(self, *exc):
            return self.file.__exit__(*exc)

        def read(self, size=-1):
            asked.append(size)
            return self.file.read(size)

    monkeypatch.setattr(readers, "open", lambda *a, **k: Recording(real_open(*a, **k)),
                        raising=False)
    assert readers._regular_file_bytes(path, readers.MAX_DOCUMENT) == b"one two three"
    assert max(asked) <= 1 << 20
    # grown between the size taken and the read: read on, to the limit and no further
    real_fstat = os.fstat

    def stale(fd):
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 5, *info[7:]))

    monkeypatch.setattr(os, "fstat", stale)
    assert readers._regular_file_bytes(path, 100) == b"one two three"
    with pytest.raises(OSError, match="more than one document may hold"):
        readers._regular_file_bytes(path, 10)
