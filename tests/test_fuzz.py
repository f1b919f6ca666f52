"""Property-based fuzzing of every reader, of saved models and of the command line
(hypothesis).

For well-formed input a reader returns exactly the documents written; for
damaged input (the same files with bytes flipped, inserted, deleted, cut) it
returns a corpus or raises its own error (``CorpusError``, ``ConstraintError``)
and nothing else. A saved model's files, edited, load into a model that places
new documents or are refused with ``ModelFormatError``. The command line, in
process and as a few real processes, exits with 0 or 2 and never shows a
traceback.

CI runs a short profile. ``DOCNMF_FUZZ=long`` runs 10,000 examples per reader
(``DOCNMF_FUZZ_EXAMPLES=N`` sets the number); see the counts with
``pytest tests/test_fuzz.py --hypothesis-show-statistics``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from docnmf.cli import main
from docnmf.constraints import ConstraintError, read_constraint_pairs
from docnmf.corpus import CorpusError, read_csv, read_folder, read_jsonl, read_mat
from docnmf.corpus.formats import read_cluto, read_reuters21578, read_smart

LONG = os.environ.get("DOCNMF_FUZZ") == "long"
EXAMPLES = int(os.environ.get("DOCNMF_FUZZ_EXAMPLES", 10_000 if LONG else 40))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])
CLI_FUZZ = settings(FUZZ, max_examples=max(5, EXAMPLES // 5))

# text a user may type, in any script, with the characters that trouble CSV and JSON
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=60)
WORDS = st.lists(st.sampled_from("comet orbit garlic onion bank rate goal match , ; \" ' \n"
                                 .split(" ")), min_size=1, max_size=12).map(" ".join)
ID = st.text(st.characters(exclude_categories=["Cs", "Zs", "Cc", "Zl", "Zp"]),
             min_size=1, max_size=12)
LABEL = st.sampled_from(["", "a", "b", "sport", "x y"])


@st.composite
def mutations(draw, data: bytes) -> bytes:
    """``data`` with a few bytes flipped, inserted, deleted, or the end cut off."""
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "cut", "quote"]))
        at = draw(st.integers(0, max(0, len(data))))
        if kind == "flip" and data:
            data[min(at, len(data) - 1)] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=4))
        elif kind == "quote":
            data[at:at] = draw(st.sampled_from([b'"', b"'", b"\n", b"\r", b",", b"\t", b"<",
                                                b".I", b"\x00", b"\xff"]))
        elif kind == "delete":
            del data[at:at + draw(st.integers(1, 8))]
        else:
            del data[at:]
    return bytes(data)


@contextlib.contextmanager
def scratch():
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # decoding and skipped-entry warnings are allowed
        yield Path(tmp)


def read_or_refuse(read, *args, error=CorpusError, **kwargs):
    """The reader's result, or None when it refused with its own error (anything else raises)."""
    try:
        return read(*args, **kwargs)
    except error:
        return None


# ------------------------------------------------------------------------------ CSV / TSV

RECORDS = st.lists(st.tuples(ID, TEXT, LABEL), min_size=1, max_size=8,
                   unique_by=lambda r: r[0].strip())


def as_read(records) -> list[str | None]:
    """The texts of ``records`` as the readers give them: Windows' and old Macs' line ends as
    newlines; None for a text with ``&`` or ``<``, which may be HTML, read as its text
    (tests/corpus/test_readers.py)."""
    return [None if "&" in t or "<" in t else t.replace("\r\n", "\n").replace("\r", "\n")
            for _, t, _ in records]


def same_texts(read: list[str], records) -> bool:
    return all(want is None or got == want for got, want in zip(read, as_read(records), strict=True))


def csv_bytes(records, delimiter=",") -> bytes:
    """A valid CSV (RFC 4180 line ends: with "\n" ones Python's writer leaves a "\r" unquoted)."""
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\r\n")
    w.writerow(["id", "text", "label"])
    w.writerows(records)
    return buf.getvalue().encode("utf-8")


@FUZZ
@given(records=RECORDS, suffix=st.sampled_from([".csv", ".tsv"]))
def test_csv_reads_back_what_was_written(records, suffix):
    assume(all(r[0].strip() for r in records))
    with scratch() as tmp:
        f = tmp / f"d{suffix}"
        f.write_bytes(csv_bytes(records, "\t" if suffix == ".tsv" else ","))
        c = read_csv(f)
    assert len(c) == len(records)
    assert c.ids == [r[0].strip() for r in records]
    assert same_texts(c.texts, records)
    assert c.labels == [(r[2],) if r[2] else () for r in records]


@FUZZ
@given(data=st.data(), records=RECORDS)
def test_damaged_csv_is_read_or_refused(data, records):
    raw = data.draw(mutations(csv_bytes(records)))
    with scratch() as tmp:
        f = tmp / "d.csv"
        f.write_bytes(raw)
        c = read_or_refuse(read_csv, f)
    assert c is None or len(c.ids) == len(set(c.ids))


# ------------------------------------------------------------------------------ JSON Lines

def jsonl_bytes(records) -> bytes:
    return "".join(json.dumps({"id": i, "text": t, "label": lab}) + "\n"
                   for i, t, lab in records).encode("utf-8")


@FUZZ
@given(records=RECORDS)
def test_jsonl_reads_back_what_was_written(records):
    assume(all(r[0].strip() for r in records))
    with scratch() as tmp:
        f = tmp / "d.jsonl"
        f.write_bytes(jsonl_bytes(records))
        c = read_jsonl(f)
    assert c.ids == [r[0].strip() for r in records] and same_texts(c.texts, records)


@FUZZ
@given(data=st.data(), records=RECORDS)
def test_damaged_jsonl_is_read_or_refused(data, records):
    raw = data.draw(mutations(jsonl_bytes(records)))
    with scratch() as tmp:
        f = tmp / "d.jsonl"
        f.write_bytes(raw)
        read_or_refuse(read_jsonl, f)


# ------------------------------------------------------------------------------ folders

NAME = st.text("abcxyz019_-éß", min_size=1, max_size=8)
TREE = st.dictionaries(st.tuples(st.sampled_from(["", "sport", "news", "a b"]), NAME),
                       st.binary(max_size=40), min_size=1, max_size=8)
LINKS = st.dictionaries(NAME, st.sampled_from(["dangling", "loop", "outside", "inside"]),
                        max_size=3)


@FUZZ
@given(tree=TREE, links=LINKS, hidden=st.booleans())
def test_folder_reads_each_regular_file_once(tree, links, hidden):
    with scratch() as tmp:
        root = tmp / "docs"
        root.mkdir()
        (tmp / "outside.txt").write_text("outside")
        for (sub, name), content in tree.items():
            (root / sub).mkdir(exist_ok=True)
            (root / sub / name).write_bytes(content)
        if hidden:
            (root / ".hidden").write_text("never read")
        for name, kind in links.items():
            link = root / f"link-{name}"
            first = next(iter(tree))
            target = {"dangling": "nowhere", "loop": link.name, "outside": tmp / "outside.txt",
                      "inside": root / first[0] / first[1]}[kind]
            os.symlink(target, link)
        c = read_or_refuse(read_folder, root)
        # binary files (a NUL byte, no UTF-16/32 byte-order mark) are skipped, and so are
        # PDFs, rich text, ZIP archives and old Office files, by their first bytes
        text = {key for key, content in tree.items()
                if (b"\0" not in content or content.startswith((b"\xff\xfe", b"\xfe\xff",
                                                                b"\x00\x00\xfe\xff")))
                and not content.startswith((b"%PDF-", b"{\\rtf", b"PK\x03\x04",
                                            b"\xd0\xcf\x11\xe0"))}
        expected = {f"{sub}/{name}" if sub else name for sub, name in text}
        expected |= {f"link-{name}" for name, kind in links.items()
                     if kind == "inside" and next(iter(tree)) in text}
    if not expected:
        assert c is None        # nothing to read: refused with a CorpusError
        return
    assert c is not None and set(c.ids) == expected and len(c.ids) == len(expected)


# ------------------------------------------------------------------------------ SMART

SMART_TEXT = st.lists(st.text("abc xyz.,\t", max_size=20), max_size=3).map("\n".join)


def smart_bytes(records) -> bytes:
    out = []
    for number, (title, text) in enumerate(records, start=1):
        out.append(f".I {number}\n.T\n{title}\n.A\nSomeone\n.W\n{text}\n")
    return "".join(out).encode()


@FUZZ
@given(records=st.lists(st.tuples(SMART_TEXT, SMART_TEXT), min_size=1, max_size=8))
def test_smart_reads_back_what_was_written(records):
    assume(not any(line.lstrip().startswith(".") for t in records for part in t
                   for line in part.splitlines()))
    with scratch() as tmp:
        f = tmp / "T.ALL"
        f.write_bytes(smart_bytes(records))
        c = read_smart(f, label="t")
    assert c.ids == [f"t/{i}" for i in range(1, len(records) + 1)]


@FUZZ
@given(data=st.data(), records=st.lists(st.tuples(SMART_TEXT, SMART_TEXT), min_size=1,
                                        max_size=6))
def test_damaged_smart_is_read_or_refused(data, records):
    raw = data.draw(mutations(smart_bytes(records)))
    with scratch() as tmp:
        f = tmp / "T.ALL"
        f.write_bytes(raw)
        read_or_refuse(read_smart, f)


# ------------------------------------------------------------------------------ CLUTO

MATRICES = st.tuples(st.integers(1, 8), st.integers(1, 8), st.integers(0, 2**32 - 1)).map(
    lambda a: sp.random(a[0], a[1], density=0.4, format="csr",
                        random_state=np.random.default_rng(a[2]),
                        data_rvs=lambda n: np.random.default_rng(a[2]).integers(1, 9, n)))


def cluto_bytes(X: sp.csr_matrix) -> bytes:
    lines = [f"{X.shape[0]} {X.shape[1]} {X.nnz}"]
    for i in range(X.shape[0]):
        row = X.getrow(i)
        pairs = " ".join(f"{j} {v:g}" for j, v in zip(row.indices, row.data))
        lines.append(f"{row.nnz} {pairs}".strip())
    return ("\n".join(lines) + "\n").encode()


@FUZZ
@given(X=MATRICES)
def test_cluto_reads_back_what_was_written(X):
    with scratch() as tmp:
        f = tmp / "sparse_t.txt"
        f.write_bytes(cluto_bytes(X))
        c = read_cluto(f)
    assert len(c) == X.shape[0] and (c.counts != X).nnz == 0


@FUZZ
@given(data=st.data(), X=MATRICES)
def test_damaged_cluto_is_read_or_refused(data, X):
    raw = data.draw(mutations(cluto_bytes(X)))
    with scratch() as tmp:
        f = tmp / "sparse_t.txt"
        f.write_bytes(raw)
        read_or_refuse(read_cluto, f)


# ------------------------------------------------------------------------------ MATLAB

def mat_bytes(X, y) -> bytes:
    buf = io.BytesIO()
    scipy.io.savemat(buf, {"fea": X, "gnd": y})
    return buf.getvalue()


@FUZZ
@given(X=MATRICES, sparse=st.booleans())
def test_mat_reads_back_what_was_written(X, sparse):
    y = np.arange(X.shape[0]) % 3
    with scratch() as tmp:
        f = tmp / "t.mat"
        f.write_bytes(mat_bytes(X if sparse else X.toarray(), y))
        c = read_mat(f)
    assert len(c) == X.shape[0] and c.labels == [(str(v),) for v in y]


@FUZZ
@given(data=st.data(), X=MATRICES)
def test_damaged_mat_is_read_or_refused(data, X):
    raw = data.draw(mutations(mat_bytes(X.toarray(), np.arange(X.shape[0]))))
    with scratch() as tmp:
        f = tmp / "t.mat"
        f.write_bytes(raw)
        read_or_refuse(read_mat, f)


# ------------------------------------------------------------------------------ Reuters SGML

SGML_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)


def reuters_bytes(records) -> bytes:
    out = ['<!DOCTYPE lewis SYSTEM "lewis.dtd">\n']
    for newid, (topics, title, body) in enumerate(records, start=1):
        esc = [t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
               for t in (title, body)]
        d = "".join(f"<D>{t}</D>" for t in topics)
        out.append(f'<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" NEWID="{newid}">\n'
                   f"<TOPICS>{d}</TOPICS>\n<TEXT>\n<TITLE>{esc[0]}</TITLE>\n"
                   f"<BODY>{esc[1]}</BODY></TEXT>\n</REUTERS>\n")
    return "".join(out).encode()


REUTERS = st.lists(st.tuples(st.lists(st.sampled_from(["earn", "acq", "crude"]), max_size=2),
                             SGML_TEXT, SGML_TEXT), min_size=1, max_size=6)


@FUZZ
@given(records=REUTERS)
def test_reuters_reads_back_what_was_written(records):
    with scratch() as tmp:
        (tmp / "reut2-000.sgm").write_bytes(reuters_bytes(records))
        c = read_reuters21578(tmp)
    assert c.ids == [f"reuters/{i}" for i in range(1, len(records) + 1)]


@FUZZ
@given(data=st.data(), records=REUTERS)
def test_damaged_reuters_is_read_or_refused(data, records):
    raw = data.draw(mutations(reuters_bytes(records)))
    with scratch() as tmp:
        (tmp / "reut2-000.sgm").write_bytes(raw)
        read_or_refuse(read_reuters21578, tmp)


# ------------------------------------------------------------------------------ constraint files

DOC_IDS = [f"d{i}" for i in range(8)] + ["sport/1.txt", "a b", "x,y"]


def pairs_bytes(pairs, header, delimiter) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    if header:
        w.writerow(["doc_a", "doc_b"])
    w.writerows((DOC_IDS[i], DOC_IDS[j]) for i, j in pairs)
    return buf.getvalue().encode()


PAIRS = st.lists(st.tuples(st.integers(0, len(DOC_IDS) - 1), st.integers(0, len(DOC_IDS) - 1)),
                 min_size=1, max_size=10)


@FUZZ
@given(pairs=PAIRS, header=st.booleans(), delimiter=st.sampled_from([",", "\t"]))
def test_constraint_pairs_read_back(pairs, header, delimiter):
    with scratch() as tmp:
        f = tmp / "ml.csv"
        f.write_bytes(pairs_bytes(pairs, header, delimiter))
        got = read_constraint_pairs(f, DOC_IDS)
    assert got.tolist() == [list(p) for p in pairs]


@FUZZ
@given(data=st.data(), pairs=PAIRS, header=st.booleans())
def test_damaged_constraint_files_are_read_or_refused(data, pairs, header):
    raw = data.draw(mutations(pairs_bytes(pairs, header, ",")))
    with scratch() as tmp:
        f = tmp / "ml.csv"
        f.write_bytes(raw)
        read_or_refuse(read_constraint_pairs, f, DOC_IDS, error=ConstraintError)


# ------------------------------------------------------------------------------ saved models

#: Methods whose saved models are damaged: the default, the paper's NMF-NCW, one fitted on
#: counts, one on texts, a semi-supervised one, FS-NMF and a k-means baseline.
MODEL_METHODS = ["lccf-ncw", "nmf-ncw", "consensus", "nma", "ssnmf", "fsnmf", "km"]
#: New documents to place: on a topic, unknown words only, empty.
TO_PLACE = ["the comet and the telescope", "garlic and onion in the pan", "zzzq qqxw", ""]
#: Values an edit writes into model.json: its own words among any JSON.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats() | TEXT
    | st.sampled_from([0, 1, -1, 5, 0.5, 1e308, "array", "json", "english", "ncw", "argmax",
                       "LCCFClustering", "NMFClustering", "estimator.labels_"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["kind", "value", "key", "class", "params", "state", "x"]), inner,
        max_size=3),
    max_leaves=5)


@pytest.fixture(scope="module")
def saved_models():
    """Each method's model of the demo corpus as its files hold it: model.json's record and
    the arrays of arrays.npz."""
    import docnmf
    from docnmf import ClusteringModel, DocumentVectorizer
    from docnmf.corpus.demo import load_demo
    from docnmf.methods import METHODS, make_estimator

    texts = list(load_demo().texts)
    saved = {}
    with scratch() as tmp:
        for method in MODEL_METHODS:
            spec = METHODS[method]
            estimator = make_estimator(method, 5, random_state=0, n_init=2)
            if spec.input == "texts":
                model = ClusteringModel(estimator.fit(texts), None, method)
            else:
                vectorizer = DocumentVectorizer()
                X = (vectorizer.fit_count(texts) if spec.input == "counts"
                     else vectorizer.fit_transform(texts))
                pairs = {"must_link": [(0, 1)], "cannot_link": [(0, 40)]} \
                    if spec.constraints else {}
                model = ClusteringModel(estimator.fit(X, **pairs), vectorizer, method)
            folder = docnmf.save(model, tmp / method)
            with np.load(folder / "arrays.npz") as npz:
                arrays = {key: npz[key] for key in npz.files}
            saved[method] = (json.loads((folder / "model.json").read_text()), arrays)
    return saved


def _places(node, at=()):
    """The places of a JSON tree, as the keys and indices that lead to each."""
    yield at
    items = node.items() if isinstance(node, dict) else \
        enumerate(node[:4]) if isinstance(node, list) else ()
    for key, value in items:
        yield from _places(value, (*at, key))


@st.composite
def damaged_arrays(draw, a: np.ndarray) -> np.ndarray:
    """``a`` of another type or shape, or with a value no fit gives."""
    kind = draw(st.sampled_from(["type", "shorter", "longer", "transposed", "flat", "empty",
                                 "scalar", "nan", "inf", "negative", "zero"]))
    with warnings.catch_warnings():     # casts of what an earlier edit made complex or NaN
        warnings.simplefilter("ignore")
        if kind == "type":
            return a.astype(draw(st.sampled_from([np.float32, np.float16, np.int64, np.int8,
                                                  np.uint8, np.bool_, np.complex128, "<U3"])))
        if a.ndim == 0 or a.size == 0:
            return a
        if kind in ("shorter", "longer", "transposed", "flat", "empty", "scalar"):
            return {"shorter": lambda: a[:-1], "longer": lambda: np.concatenate([a, a[:1]]),
                    "transposed": lambda: a.T, "flat": a.ravel, "empty": lambda: a[:0],
                    "scalar": lambda: np.asarray(a.ravel()[0])}[kind]()
        b = a.astype(np.float64) if kind in ("nan", "inf") else a.copy()
        flat = b.reshape(-1)
        flat[draw(st.integers(0, b.size - 1)) if kind != "zero" else slice(None)] = \
            {"nan": np.nan, "inf": np.inf, "negative": -1, "zero": 0}[kind]
        return b


@FUZZ
@given(data=st.data(), method=st.sampled_from(MODEL_METHODS), n_edits=st.integers(1, 2))
def test_damaged_model_files_are_loaded_or_refused(saved_models, data, method, n_edits):
    """A model's files edited (a value of model.json replaced or removed, an array of another
    type or shape or with a value no fit gives, its SHA-256 made to match) are refused with
    ModelFormatError, or load into a model that places new documents: every label a cluster
    or -1, every membership a number."""
    import hashlib

    import docnmf
    from docnmf.model import ModelFormatError

    record, arrays = saved_models[method]
    record, arrays = json.loads(json.dumps(record)), dict(arrays)
    for _ in range(n_edits):
        if data.draw(st.booleans(), label="edit model.json"):
            place = data.draw(st.sampled_from([p for p in _places(record)
                                               if p and p[0] != "arrays"]))
            parent = record
            for key in place[:-1]:
                parent = parent[key]
            if isinstance(parent, dict) and data.draw(st.booleans(), label="remove"):
                del parent[place[-1]]
            else:
                parent[place[-1]] = data.draw(JSON_VALUES)
        else:
            key = data.draw(st.sampled_from(sorted(arrays)))
            arrays[key] = data.draw(damaged_arrays(arrays[key]))
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    if isinstance(record.get("arrays"), dict):      # past the check that the files match
        record["arrays"]["sha256"] = hashlib.sha256(buf.getvalue()).hexdigest()
    with scratch() as tmp:
        (tmp / "model.json").write_text(json.dumps(record), encoding="utf-8")
        (tmp / "arrays.npz").write_bytes(buf.getvalue())
        try:
            model = docnmf.load(tmp)
        except ModelFormatError:
            event("refused")
            return
        event("loaded")
        placed = model.place(TO_PLACE)
    assert placed.labels.shape == (len(TO_PLACE),)
    assert placed.labels.min() >= -1 and placed.labels.max() < model.n_clusters
    assert np.isfinite(placed.memberships).all()


# ------------------------------------------------------------------------------ the command line

def corpus_bytes(n: int, seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    words = ["comet", "orbit", "planet", "garlic", "onion", "oven", "bank", "rate", "bond"]
    records = [(f"d{i}", " ".join(rng.choice(words, 8)), "abc"[i % 3]) for i in range(n)]
    return csv_bytes(records)


OPTION_VALUES = st.sampled_from(["0", "1", "2", "-1", "1e309", "nan", "-5", "0.5", "3",
                                 "2-4", "x", "", "100000000", "inf", "1.5", "auto", "NMF"])
OPTIONS = st.lists(st.tuples(st.sampled_from(
    ["--seed", "--tol", "--max-df", "--min-df", "--restarts", "--max-iter", "--keywords",
     "--max-features", "--lam", "--neighbors", "--segments", "--topics", "-k", "--tf",
     "--method", "--solver", "--init", "--text-column", "--label-column", "--k-range",
     "--summary-length"]), OPTION_VALUES),
    max_size=3)
METHOD = st.sampled_from(["consensus", "nmf", "nmf-ncw", "km", "nc", "lsi-km", "cf", "lccf", "ssnmf",
                          "plsi", "fsnmf"])


@CLI_FUZZ
@given(data=st.data(), n=st.integers(1, 12), seed=st.integers(0, 100), method=METHOD,
       options=OPTIONS, k=st.integers(-1, 5), damaged=st.booleans())
def test_cluster_command_exits_0_or_2(data, n, seed, method, options, k, damaged):
    raw = corpus_bytes(n, seed)
    if damaged:
        raw = data.draw(mutations(raw))
    argv_tail = [a for pair in options for a in pair]
    with scratch() as tmp:
        f = tmp / "d.csv"
        f.write_bytes(raw)
        argv = ["-q", "cluster", str(f), "-k", str(k), "--method", method, "--min-df", "1",
                "--restarts", "2", "-o", str(tmp / "out"), *argv_tail]
        with contextlib.redirect_stdout(io.StringIO()), \
                contextlib.redirect_stderr(io.StringIO()) as err:
            try:
                code = main(argv)
            except SystemExit as exit_:  # argparse refuses bad values with status 2
                code = exit_.code
        assert code in (0, 2), (argv, err.getvalue())
        if code == 0:
            assert (tmp / "out" / "assignments.csv").exists()
        else:
            assert not (tmp / "out").exists()  # nothing half-written


@settings(FUZZ, max_examples=4 if not LONG else 40)
@given(data=st.data(), n=st.integers(1, 10), seed=st.integers(0, 100), command=st.sampled_from(
    ["cluster", "summarize", "keywords", "evaluate"]), k=st.integers(0, 4))
def test_real_processes_exit_0_or_2(data, n, seed, command, k):
    raw = data.draw(mutations(corpus_bytes(n, seed))) if data.draw(st.booleans()) \
        else corpus_bytes(n, seed)
    with scratch() as tmp:
        f = tmp / "d.csv"
        f.write_bytes(raw)
        argv = {"cluster": ["-k", str(k), "-o", str(tmp / "o")],
                "keywords": ["-k", str(k), "--restarts", "2"],
                "summarize": ["--length", "20w"],
                "evaluate": ["--runs", "1", "--restarts", "1", "--jobs", "2", "--methods", "km",
                             "-o", str(tmp / "o")]}[command]
        result = subprocess.run([sys.executable, "-m", "docnmf", "-q", command, str(f), *argv],
                                capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 2), result.stderr
    assert "Traceback" not in result.stderr


def test_profiles_are_what_the_docstring_says():
    assert EXAMPLES >= (10_000 if LONG and "DOCNMF_FUZZ_EXAMPLES" not in os.environ else 1)
    pytest.importorskip("hypothesis")
