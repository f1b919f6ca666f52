"""Saved models: every method that places new documents round-trips; unsafe files are refused."""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import shutil
import threading
import warnings
import zipfile

import numpy as np
import pytest

import docnmf
from docnmf import ClusteringModel, DocumentVectorizer
from docnmf.corpus.demo import load_demo
from docnmf.methods import METHODS, make_estimator
from docnmf.model import FORMAT_VERSION, ModelFormatError, ModelSaveError

PLACING = [m for m, spec in METHODS.items() if spec.places_new_documents]
FAST = {"n_init": 2}


@pytest.fixture(scope="module")
def demo_split():
    corpus = load_demo()
    rng = np.random.default_rng(0)
    order = rng.permutation(len(corpus))
    return [corpus.texts[i] for i in order[:60]], [corpus.texts[i] for i in order[60:]]


def _fitted(method: str, texts: list[str]) -> ClusteringModel:
    spec = METHODS[method]
    options = {k: v for k, v in FAST.items() if k in spec.parameters()}
    if "max_iter" in spec.parameters():
        options["max_iter"] = 60
    estimator = make_estimator(method, 5, random_state=0, **options)
    if spec.input == "texts":
        estimator.fit(texts)
        return ClusteringModel(estimator, None, method)
    vectorizer = DocumentVectorizer()
    X = vectorizer.fit_count(texts) if spec.input == "counts" else vectorizer.fit_transform(texts)
    fit_params = {"must_link": [(0, 1)], "cannot_link": [(0, 2)]} if spec.constraints else {}
    estimator.fit(X, **fit_params)
    return ClusteringModel(estimator, vectorizer, method, {"corpus": "demo"})


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("method", PLACING)
def test_a_loaded_model_places_documents_exactly_as_the_fitted_one(method, demo_split, tmp_path):
    train, held_out = demo_split
    model = _fitted(method, train)
    before = model.place(held_out)
    assert before.labels.min() >= 0, "the demo's held-out documents all share terms with the fit"
    path = docnmf.save(model, tmp_path / "model")
    assert sorted(p.name for p in path.iterdir()) == ["arrays.npz", "model.json"]
    loaded = docnmf.load(path)
    assert isinstance(loaded, ClusteringModel) and loaded.method == method
    after = loaded.place(held_out)
    np.testing.assert_array_equal(after.labels, before.labels)
    np.testing.assert_array_equal(after.memberships, before.memberships)
    assert loaded.keywords(5) == model.keywords(5)
    assert loaded.info == model.info
    # what the fit found about its own documents is kept (lists come back as arrays)
    fitted, back = model.estimator, loaded.estimator
    assert repr(back) == repr(fitted)       # the same parameters, of the same types
    assert hasattr(back, "labels_") and hasattr(back, "memberships_")
    for attr in fitted._fit_results:
        if getattr(fitted, attr, None) is not None:
            np.testing.assert_array_equal(np.asarray(getattr(back, attr), dtype=float),
                                          np.asarray(getattr(fitted, attr), dtype=float))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("method", PLACING)
def test_place_gives_the_estimators_own_labels_and_memberships(method, demo_split):
    """place() reads each document's cluster from its memberships (one placement, not two)."""
    train, held_out = demo_split
    model = _fitted(method, train)
    placed = model.place(held_out)
    spec = METHODS[method]
    if spec.input == "texts":
        data = held_out
    elif spec.input == "counts":
        data = model.vectorizer.count(held_out)
    else:
        data = model.vectorizer.transform(held_out)
    np.testing.assert_array_equal(placed.labels, model.estimator.predict(data))
    np.testing.assert_allclose(placed.memberships, model.estimator.predict_memberships(data))


def test_a_bare_estimator_round_trips_and_a_model_folder_is_replaced(demo_split, tmp_path):
    train, held_out = demo_split
    model = _fitted("nmf-ncw", train)
    estimator, X = model.estimator, model.vectorizer.transform(held_out)
    docnmf.save(estimator, tmp_path / "m")
    docnmf.save(estimator, tmp_path / "m")            # an existing model folder is replaced
    loaded = docnmf.load(tmp_path / "m")
    assert type(loaded) is type(estimator)
    np.testing.assert_array_equal(loaded.transform(X), estimator.transform(X))
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]   # no leftovers


def test_a_result_folder_or_the_json_file_names_the_model(demo_split, tmp_path):
    model = _fitted("nmf", demo_split[0])
    docnmf.save(model, tmp_path / "out" / "model")
    for path in (tmp_path / "out", tmp_path / "out" / "model" / "model.json"):
        assert docnmf.load(path).method == "nmf"


def test_methods_that_cannot_place_documents_are_refused_at_save_time(tmp_path, demo_split):
    X = DocumentVectorizer().fit_transform(demo_split[0])
    estimator = make_estimator("aa", 5, random_state=0).fit(X)
    with pytest.raises(ModelSaveError, match="cannot place new documents"):
        docnmf.save(estimator, tmp_path / "m")
    lccf = make_estimator("lccf", 5, kernel="precomputed", random_state=0, n_init=1)
    lccf.fit((X @ X.T).toarray())
    with pytest.raises(ModelSaveError, match="precomputed"):
        docnmf.save(lccf, tmp_path / "m")
    assert not (tmp_path / "m").exists()


def test_an_existing_folder_that_is_not_a_model_is_left_alone(demo_split, tmp_path):
    model = _fitted("nmf", demo_split[0])
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "notes.txt").write_text("mine")
    with pytest.raises(ModelSaveError, match="not overwritten"):
        docnmf.save(model, tmp_path / "data")
    assert (tmp_path / "data" / "notes.txt").read_text() == "mine"


def test_a_model_folder_holding_other_files_is_left_alone(demo_split, tmp_path):
    """Saving again over a model folder replaces it whole: a note kept beside the model, or a
    model saved inside it, was deleted without a word."""
    model = _fitted("nmf", demo_split[0])
    folder = docnmf.save(model, tmp_path / "m")
    (folder / "NOTES.md").write_text("mine")
    docnmf.save(model, folder / "inner")
    with pytest.raises(ModelSaveError, match=r"holds files besides the model \(NOTES.md, inner\)"):
        docnmf.save(model, folder)
    assert (folder / "NOTES.md").read_text() == "mine"
    assert docnmf.load(folder / "inner").method == "nmf"


def test_the_current_folder_or_an_unwritable_place_is_a_save_error(demo_split, tmp_path,
                                                                   monkeypatch):
    """save(model, ".") in an empty folder was a raw OSError (Device or resource busy: '.' ->
    '..c3kqem7c.old', renaming the folder the process works in). A place that cannot be
    written stays an OSError (docnmf cluster reports it as it reports its other files), and
    leaves nothing behind."""
    model = _fitted("nmf", demo_split[0])
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ModelSaveError, match="is the current folder or holds it"):
        docnmf.save(model, ".")
    (tmp_path / "file").write_text("x")
    with pytest.raises(OSError):        # FileExistsError, from making the folder "file"
        docnmf.save(model, tmp_path / "file" / "m")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


@pytest.mark.parametrize("swap", [True, False])
def test_a_model_saved_again_is_never_missing_meanwhile(demo_split, tmp_path, monkeypatch, swap):
    """The old model was renamed aside before the new one was renamed in; where the folders
    cannot be swapped in one step, the old model is back in place when the second rename
    fails."""
    import os

    from docnmf import io as docnmf_io

    if swap and docnmf_io._renameat2() is None:
        pytest.skip("renameat2 is Linux's (glibc 2.28 or later); elsewhere two renames remain")
    if not swap:
        monkeypatch.setattr(docnmf_io, "_renameat2", lambda: None)
    model, path = _fitted("nmf", demo_split[0]), tmp_path / "m"
    docnmf.save(model, path)
    first = (path / "arrays.npz").read_bytes()
    rename, failed = os.rename, []

    def checked_rename(a, b):
        there = path.is_dir()
        if not swap and str(b) == str(path) and not failed:     # the new one, not the old
            failed.append(a)
            raise OSError(28, "No space left on device")
        rename(a, b)
        assert path.is_dir() or not there or not swap
    monkeypatch.setattr(os, "rename", checked_rename)
    if swap:
        docnmf.save(_fitted("nmf-ncw", demo_split[0]), path)
        assert docnmf.load(path).method == "nmf-ncw"
    else:
        with pytest.raises(OSError):
            docnmf.save(_fitted("nmf-ncw", demo_split[0]), path)
        assert (path / "arrays.npz").read_bytes() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m"]


# ------------------------------------------------------------------- unsafe and foreign files

class _Trap:
    """Unpickling this creates the marker file: proof that pickled code ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def _saved(tmp_path, demo_split):
    model = _fitted("nmf-ncw", demo_split[0])
    return docnmf.save(model, tmp_path / "model")


def _rewrite_json(folder, change):
    record = json.loads((folder / "model.json").read_text())
    change(record)
    (folder / "model.json").write_text(json.dumps(record))


def _rewrite_arrays(folder, arrays):
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    (folder / "arrays.npz").write_bytes(buf.getvalue())
    _rewrite_json(folder, lambda r: r["arrays"].update(
        sha256=hashlib.sha256(buf.getvalue()).hexdigest()))


def test_a_pickled_object_in_the_arrays_is_refused_and_never_run(tmp_path, demo_split):
    folder = _saved(tmp_path, demo_split)
    marker = tmp_path / "pwned"
    # an object array is stored as a pickle inside the .npy member
    trap = np.empty(1, dtype=object)
    trap[0] = _Trap(marker)
    with np.load(folder / "arrays.npz") as npz:
        arrays = {k: npz[k] for k in npz.files}
    arrays["estimator.components_"] = trap
    _rewrite_arrays(folder, arrays)
    with zipfile.ZipFile(folder / "arrays.npz") as z:   # the trap really is in the file
        assert b"pwned" in z.read("estimator.components_.npy")
    with pytest.raises(ModelFormatError, match="plain numeric arrays"):
        docnmf.load(folder)
    assert not marker.exists()


def test_a_pickle_or_joblib_file_is_never_unpickled(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "model.pkl"
    path.write_bytes(pickle.dumps(_Trap(marker)))
    with pytest.raises(ModelFormatError, match="never loads pickle"):
        docnmf.load(path)
    folder = tmp_path / "fake"
    folder.mkdir()
    (folder / "model.json").write_bytes(pickle.dumps(_Trap(marker)))
    with pytest.raises(ModelFormatError, match="not valid JSON"):
        docnmf.load(folder)
    assert not marker.exists()


@pytest.mark.parametrize("change, message", [
    (lambda r: r["estimator"].update({"class": "os.system"}), "unknown estimator class"),
    (lambda r: r["estimator"].update({"class": "Popen"}), "unknown estimator class"),
    (lambda r: r["estimator"]["state"].update(
        {"__class__": {"kind": "json", "value": "x"}}), "no saved attribute"),
    (lambda r: r["estimator"]["state"].update(
        {"transform": {"kind": "json", "value": 1}}), "no saved attribute"),
    (lambda r: r["estimator"]["params"].update({"weighting": {"__reduce__": "os.system"}}),
     "not a plain value"),
    (lambda r: r["estimator"]["params"].update({"callback": "print"}), "no parameter"),
    (lambda r: r["estimator"]["state"]["components_"].update({"kind": "pickle"}),
     "unknown kind"),
    (lambda r: r.update({"method": "lccf"}), "does not match"),
    (lambda r: r.update({"format": "joblib"}), "not a docnmf model file"),
    # a regular expression that does not compile: refused on load, not when texts are placed
    (lambda r: r["vectorizer"]["params"].update({"token_pattern": "(["}),
     "token_pattern is not a regular expression"),
    # parameters edited out of step with the saved arrays: refused on load, not inside numpy
    (lambda r: r["estimator"]["params"].update({"n_clusters": 7}),
     "places a document in 5 clusters, but n_clusters is 7"),
    (lambda r: r["estimator"]["params"].update({"n_clusters": "5"}),
     "n_clusters must be a positive integer, got '5'"),
    # parameters fitting would refuse: refused on load too, not met when documents are placed
    (lambda r: r["estimator"]["params"].update({"max_iter": -1}),
     "bad parameters for NMFClustering: max_iter must be a positive integer"),
    (lambda r: r["estimator"]["params"].update({"tol": "abc"}), "tol must be a number"),
    (lambda r: r["estimator"]["params"].update({"labels": "nonsense"}), "labels must be one of"),
    (lambda r: r["estimator"]["state"].update({"n_features_in_": {"kind": "json", "value": 3}}),
     "parameters and arrays do not fit together"),
])
def test_json_naming_code_or_unknown_content_is_refused(tmp_path, demo_split, change, message):
    folder = _saved(tmp_path, demo_split)
    _rewrite_json(folder, change)
    with pytest.raises(ModelFormatError, match=message):
        docnmf.load(folder)


def test_json_nested_beyond_the_parser_is_a_format_error(tmp_path, demo_split):
    folder = _saved(tmp_path, demo_split)
    (folder / "model.json").write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ModelFormatError, match="cannot be read as JSON: RecursionError"):
        docnmf.load(folder)


def _edit_array(folder, key, edit):
    with np.load(folder / "arrays.npz") as npz:
        arrays = {k: npz[k].copy() for k in npz.files}
    edit(arrays[key])
    _rewrite_arrays(folder, arrays)


@pytest.mark.parametrize("method, key, edit, message", [
    ("nmf-ncw", "estimator.components_", lambda a: a.flat.__setitem__(0, np.nan),
     "'estimator.components_' holds NaN or infinite values"),
    ("nmf-ncw", "vectorizer.idf", lambda a: a.__setitem__(0, np.inf), "holds NaN or infinite"),
    ("lccf-ncw", "estimator._W", lambda a: a.flat.__setitem__(3, np.nan), "holds NaN"),
    # native code trusts a sparse matrix's column indices: one out of range crashed the process
    ("lccf-ncw", "estimator._X_fit.indices", lambda a: a.__setitem__(0, 10**6),
     "sparse matrix of the model is malformed"),
])
def test_arrays_that_would_crash_placing_are_refused(tmp_path, demo_split, method, key, edit,
                                                     message):
    folder = docnmf.save(_fitted(method, demo_split[0]), tmp_path / "model")
    _edit_array(folder, key, edit)
    with pytest.raises(ModelFormatError, match=message):
        docnmf.load(folder)


def _with_member(folder, name, shape):
    """Rewrite the arrays file with the member ``name`` replaced or added: a .npy header that
    declares ``shape`` of float64, followed by a few bytes (what reading it would allocate is
    the header's, not the file's)."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False,
                                                  "shape": shape})
    buf = io.BytesIO()
    with zipfile.ZipFile(folder / "arrays.npz") as old, \
            zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as new:
        for member in old.namelist():
            if member != f"{name}.npy":
                new.writestr(member, old.read(member))
        new.writestr(f"{name}.npy", header.getvalue() + bytes(64))
    (folder / "arrays.npz").write_bytes(buf.getvalue())
    _rewrite_json(folder, lambda r: r["arrays"].update(
        sha256=hashlib.sha256(buf.getvalue()).hexdigest()))


def test_an_array_the_model_does_not_name_is_never_read(tmp_path, demo_split):
    """Every member of arrays.npz was decompressed on load, named by model.json or not: a
    792 KB file with an unnamed member of 800 MB of zeros took 1 GB to load, and one declaring
    more than memory holds was a MemoryError ('not enough memory to place these documents' in
    docnmf assign)."""
    folder = _saved(tmp_path, demo_split)
    _with_member(folder, "unnamed", (10**12,))
    assert docnmf.load(folder).method == "nmf-ncw"


def test_an_array_too_large_for_memory_is_a_format_error(tmp_path, demo_split):
    """A member the model names whose header declares more than memory holds was a MemoryError,
    which docnmf assign reported as 'not enough memory to place these documents; place fewer
    or shorter ones at a time': no placing had begun, and fewer documents would not help."""
    folder = _saved(tmp_path, demo_split)
    _with_member(folder, "estimator.components_", (5, 10**12))
    with pytest.raises(ModelFormatError, match="not enough memory to read the array "
                                               "'estimator.components_' of .*arrays.npz"):
        docnmf.load(folder)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX's")
def test_an_arrays_file_that_is_no_regular_file_is_refused_without_reading(tmp_path,
                                                                           demo_split):
    """An arrays.npz that was a named pipe made docnmf assign wait for ever for a writer (and
    one linked to /dev/zero would be read until memory ran out)."""
    folder = _saved(tmp_path, demo_split)
    pipe = folder / "arrays.npz"
    pipe.unlink()
    os.mkfifo(pipe)

    def writer():       # lets a load that opens the pipe go on, to fail the test, not hang
        with open(pipe, "wb") as fh:
            fh.write(b"not a model")

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        with pytest.raises(ModelFormatError, match="arrays.npz is not a regular file"):
            docnmf.load(folder)
    finally:
        os.close(os.open(pipe, os.O_RDONLY | os.O_NONBLOCK))   # releases the writer
        thread.join(10)


def test_a_model_replaced_while_it_is_read_loads_the_new_one(tmp_path, demo_split,
                                                             monkeypatch):
    """load reads model.json, then arrays.npz: a docnmf cluster -o replacing the folder between
    the two (1 load in 3,413 while the folder was clustered again and again) failed with 'the
    model files were changed or mixed up', though each folder was whole."""
    from docnmf.model import _files

    old = _files._read_record(_saved(tmp_path, demo_split))      # read just before the swap
    new_model = _fitted("nmf", demo_split[0])
    folder = docnmf.save(new_model, tmp_path / "model")
    reads = iter([old])
    monkeypatch.setattr(_files, "_read_record",
                        lambda f, real=_files._read_record: next(reads, None) or real(f))
    loaded = docnmf.load(folder)
    assert loaded.method == "nmf"
    # a model whose files really disagree is still refused
    (folder / "model.json").write_text(json.dumps(old))
    with pytest.raises(ModelFormatError, match="changed or mixed up"):
        docnmf.load(folder)


def test_a_diverged_restart_s_nan_in_what_the_fit_found_still_loads(tmp_path, demo_split):
    folder = _saved(tmp_path, demo_split)
    _edit_array(folder, "estimator.restart_objectives_", lambda a: a.__setitem__(0, np.nan))
    model = docnmf.load(folder)
    assert np.isnan(model.estimator.restart_objectives_[0])
    assert model.predict(demo_split[1]).shape == (len(demo_split[1]),)


@pytest.mark.parametrize("method, key", [("nmf-ncw", "estimator.components_"),
                                         ("lccf-ncw", "estimator._W"),
                                         ("lccf-ncw", "estimator._norms")])
def test_numbers_edited_to_extremes_are_refused_or_place_finitely(tmp_path, demo_split, method,
                                                                   key):
    folder = docnmf.save(_fitted(method, demo_split[0]), tmp_path / "model")
    _edit_array(folder, key, lambda a: a.__setitem__(slice(None), 1e308))
    with np.errstate(all="ignore"):
        try:
            model = docnmf.load(folder)
        except ModelFormatError as exc:
            assert "not finite numbers" in str(exc)
            return
        assert np.all(np.isfinite(model.place(demo_split[1]).memberships))


@pytest.mark.parametrize("change, says", [({"n_clusters": 7}, "but n_clusters is 7"),
                                          ({"weighting": "ncw"}, "ncw_column_sums_")])
def test_save_refuses_what_load_would_refuse(tmp_path, demo_split, change, says):
    """Parameters changed after fit (set_params) once gave a folder that load refused."""
    estimator = _fitted("nmf", demo_split[0]).estimator
    estimator.set_params(**change)
    with pytest.raises(ModelSaveError, match=f"would not load back: .*{says}.*fit it again"):
        docnmf.save(estimator, tmp_path / "model")
    assert not (tmp_path / "model").exists()
    # a change that placing does not depend on is saved, and loads back
    model = _fitted("nmf", demo_split[0])
    model.estimator.set_params(max_iter=5)
    assert docnmf.load(docnmf.save(model, tmp_path / "model")).estimator.max_iter == 5


def test_a_newer_format_version_gets_a_clear_error(tmp_path, demo_split):
    folder = _saved(tmp_path, demo_split)
    _rewrite_json(folder, lambda r: r.update(format_version=FORMAT_VERSION + 1,
                                             docnmf_version="9.0"))
    with pytest.raises(ModelFormatError, match=rf"format version {FORMAT_VERSION + 1}, written "
                                               r"by docnmf 9\.0; .* upgrade docnmf"):
        docnmf.load(folder)


def test_a_model_of_older_text_rules_says_which_documents_it_may_read_differently(tmp_path,
                                                                                 demo_split):
    """A model saved before "\u0130" became "I" knew "\u0130stanbul" as "stanbul": today's
    reading of the same text was placed elsewhere without a word (as were accents written
    apart and ligatures, after earlier changes)."""
    from docnmf.text.tokenize import TEXT_RULES

    folder = _saved(tmp_path, demo_split)
    record = json.loads((folder / "model.json").read_text())
    assert record["format_version"] == FORMAT_VERSION and record["text_rules"] == TEXT_RULES
    texts = ["a ferry from \u0130stanbul to the stadium", "the match and the league",
             "cafe\u0301 recipes with butter", "the \ufb01nal match"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        docnmf.load(folder).place(texts)            # the rules it was saved under: no word
    # as version 1 wrote it: no rules recorded
    _rewrite_json(folder, lambda r: (r.update(format_version=1), r.pop("text_rules")))
    old = docnmf.load(folder)
    assert old.text_rules == 0
    with pytest.warns(UserWarning, match=r"^3 of the 4 documents hold characters that this "
                                         r"docnmf may read into words differently from the "
                                         r"older version that saved the model: .* fit the model "
                                         r"again"):
        old.place(texts)
    with pytest.warns(UserWarning, match=r"^1 of the 1 documents holds characters"):
        old.place(["I\u0307zmir"])
    # named at the caller's line, through predict too (it named docnmf's own line there)
    for place in (old.place, old.predict, old.predict_memberships):
        with pytest.warns(UserWarning, match=r"^1 of the 1 documents holds") as said:
            place(["I\u0307zmir"])
        assert [w.filename for w in said] == [__file__], place
    # characters the rules change that part no word: full-width punctuation, a joiner in an
    # emoji, a byte-order mark; and NFC accents, plain ASCII
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        old.place(["the match and the league", "na\u00efve caf\u00e9 r\u00e9sum\u00e9",
                   "\u7403\u961f\uff0c\u6bd4\u8d5b match", "\U0001f468\u200d\U0001f469 league",
                   "\ufeffthe stadium \uff08nasa\uff09"])
    # a model of the rules before the last (the dotted I written apart read as "zmir")
    _rewrite_json(folder, lambda r: r.update(format_version=FORMAT_VERSION, text_rules=4))
    with pytest.warns(UserWarning, match=r"^1 of the 2 documents holds characters"):
        docnmf.load(folder).place(["I\u0307zmir", "the match"])
    # a model of the rules before combining marks were part of words: "\u0915\u092a\u094d\u0924\u093e\u0928"
    # was the fragments "\u0915\u092a" and "\u0924\u0928" to it
    _rewrite_json(folder, lambda r: r.update(text_rules=5))
    with pytest.warns(UserWarning, match=r"^1 of the 2 documents holds characters .* marks "
                                         r"inside words"):
        docnmf.load(folder).place(["\u0915\u092a\u094d\u0924\u093e\u0928 match", "the match"])
    # which read accents written apart, ligatures and the dotted I as today's rules do: it
    # said all of them might be read differently, as it does for the rules before them
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        docnmf.load(folder).place(texts + ["I\u0307zmir"])
    # a newer docnmf's rules: this one cannot tell which documents they read otherwise, and
    # placed every one without a word
    _rewrite_json(folder, lambda r: r.update(text_rules=TEXT_RULES + 1))
    newer = docnmf.load(folder)
    with pytest.warns(UserWarning, match=rf"^the model was saved by a newer docnmf, which reads "
                                         rf"words by rules this one does not know \(text rules "
                                         rf"{TEXT_RULES + 1}; these are {TEXT_RULES}\)") as said:
        newer.place(["the match"])
    assert [w.filename for w in said] == [__file__]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        newer.place([])                             # no document, nothing to read otherwise
    _rewrite_json(folder, lambda r: r.update(text_rules="4"))
    with pytest.raises(ModelFormatError, match="text_rules must be a whole number from 0, not '4'"):
        docnmf.load(folder)


def test_a_model_file_saved_with_a_byte_order_mark_loads(tmp_path, demo_split):
    """An editor that saves UTF-8 with a byte-order mark made it "not valid JSON"."""
    folder = _saved(tmp_path, demo_split)
    texts = ["the match and the league", "butter and flour"]
    before = docnmf.load(folder).predict(texts)
    text = (folder / "model.json").read_text(encoding="utf-8")
    (folder / "model.json").write_text("\ufeff" + text, encoding="utf-8")
    np.testing.assert_array_equal(docnmf.load(folder).predict(texts), before)


def test_arrays_from_another_model_are_refused(tmp_path, demo_split):
    a = docnmf.save(_fitted("nmf", demo_split[0]), tmp_path / "a")
    b = docnmf.save(_fitted("km", demo_split[0]), tmp_path / "b")
    (a / "arrays.npz").write_bytes((b / "arrays.npz").read_bytes())
    with pytest.raises(ModelFormatError, match="SHA-256"):
        docnmf.load(a)


def test_a_scikit_learn_pipeline_is_pointed_to_clustering_model(tmp_path, demo_split):
    from sklearn.pipeline import make_pipeline

    pipeline = make_pipeline(DocumentVectorizer(), make_estimator("nmf", 5, random_state=0))
    pipeline.fit(demo_split[0])
    with pytest.raises(ModelSaveError, match=r"as ClusteringModel\(estimator, vectorizer\)"):
        docnmf.save(pipeline, tmp_path / "m")
    assert not (tmp_path / "m").exists()


def test_a_vectorizer_of_other_terms_than_the_fit_is_refused_on_save_and_load(
        tmp_path, demo_split):
    model = _fitted("nmf", demo_split[0])
    other = DocumentVectorizer(min_df=1).fit(demo_split[0])
    assert len(other.vocabulary_) != model.estimator.n_features_in_
    # refused when the two are put together (it was at save, or at the first place())
    with pytest.raises(ValueError, match=r"the vectorizer gives documents \d+ terms, but "
                                         r"NMFClustering was fitted on \d+"):
        ClusteringModel(model.estimator, other)
    joined = ClusteringModel(model.estimator, model.vectorizer)
    joined.vectorizer = other           # and when changed after
    with pytest.raises(ModelSaveError, match=r"the vectorizer gives documents \d+ terms"):
        docnmf.save(joined, tmp_path / "m")
    assert not (tmp_path / "m").exists()
    # a model folder whose two halves come from different saves
    docnmf.save(model, tmp_path / "a")
    docnmf.save(ClusteringModel(make_estimator("nmf", 5, random_state=0).fit(
        other.transform(demo_split[0])), other), tmp_path / "b")
    b = json.loads((tmp_path / "b" / "model.json").read_text())
    with np.load(tmp_path / "a" / "arrays.npz") as a_arrays, \
            np.load(tmp_path / "b" / "arrays.npz") as b_arrays:
        arrays = {**{k: a_arrays[k] for k in a_arrays.files if k.startswith("estimator.")},
                  **{k: b_arrays[k] for k in b_arrays.files if k.startswith("vectorizer")}}
    _rewrite_json(tmp_path / "a", lambda r: r.update(vectorizer=b["vectorizer"]))
    _rewrite_arrays(tmp_path / "a", arrays)
    with pytest.raises(ModelFormatError, match="not the vectorizer it was fitted with"):
        docnmf.load(tmp_path / "a")


def test_place_takes_a_list_of_texts_and_says_what_else_it_got(demo_split):
    model = _fitted("nmf", demo_split[0])
    with pytest.raises(TypeError, match="got a single string"):
        model.place("stars and planets")
    with pytest.raises(ValueError, match="document 1 is NoneType"):
        model.place(["stars", None])
    with pytest.raises(TypeError, match="expected an iterable of documents .strings., got "
                                        "NoneType"):
        model.place(None)
    nothing = model.place([])
    assert nothing.labels.shape == (0,) and nothing.memberships.shape == (0, 5)
    assert nothing.X.shape == (0, model.estimator.n_features_in_)
    np.testing.assert_array_equal(model.place(iter(demo_split[1])).labels,
                                  model.place(demo_split[1]).labels)


def test_a_model_takes_docnmf_s_vectorizer_only(demo_split):
    from sklearn.feature_extraction.text import TfidfVectorizer

    model = _fitted("nmf", demo_split[0])
    with pytest.raises(TypeError, match="must be a docnmf.DocumentVectorizer .*, not "
                                        "TfidfVectorizer"):
        ClusteringModel(model.estimator, TfidfVectorizer().fit(demo_split[0]))


def test_a_model_naming_another_method_than_its_estimator_is_refused_on_save_and_load(
        tmp_path, demo_split):
    """save refuses what load refuses: a method of another class, or of other values of the
    parameters the name stands for (nmf-ncw saved as nmf was loaded as nmf weighting by NCW)."""
    ncw = _fitted("nmf-ncw", demo_split[0])
    for method, message in [("lccf", "method 'lccf' is LCCFClustering, not NMFClustering"),
                            ("nmf", ("method 'nmf' is NMFClustering with weighting='none', not "
                                     "weighting='ncw' \\(that is nmf-ncw\\)")),
                            ("no-such", "unknown method 'no-such'")]:
        with pytest.raises(ValueError, match=message):
            ClusteringModel(ncw.estimator, ncw.vectorizer, method)
        model = ClusteringModel(ncw.estimator, ncw.vectorizer, "nmf-ncw")
        model.method = method          # changed after it was made: save checks again
        with pytest.raises(ModelSaveError, match=message):
            docnmf.save(model, tmp_path / method)
        assert not (tmp_path / method).exists()
    folder = tmp_path / "saved"
    docnmf.save(ncw, folder)
    _rewrite_json(folder, lambda r: r.update({"method": "nmf"}))
    with pytest.raises(ModelFormatError, match="weighting='none', not weighting='ncw'"):
        docnmf.load(folder)


def test_a_model_naming_no_method_reads_the_input_its_parameters_stand_for(demo_split):
    """SS-NMF reads counts as ssnmf and the tf-idf as ssnmf-ncw or ssnmf-paper: with no method
    named, the estimator's factorization decides, not the class alone."""
    for method in ("ssnmf", "ssnmf-ncw", "ssnmf-paper", "nmf", "consensus"):
        fitted = _fitted(method, demo_split[0])
        named = ClusteringModel(fitted.estimator, fitted.vectorizer, method)
        unnamed = ClusteringModel(fitted.estimator, fitted.vectorizer)
        assert unnamed.reads_counts == named.reads_counts == (METHODS[method].input == "counts")
        np.testing.assert_allclose(unnamed.place(demo_split[1]).memberships,
                                   named.place(demo_split[1]).memberships)


def test_info_that_json_cannot_hold_is_refused_at_save_time(tmp_path, demo_split):
    """NaN in info ended save with a raw ValueError ('Out of range float values are not JSON
    compliant'), not a ModelSaveError."""
    model = _fitted("nmf", demo_split[0])
    model.info["score"] = float("nan")
    with pytest.raises(ModelSaveError, match="info cannot be saved as JSON"):
        docnmf.save(model, tmp_path / "m")
    assert not (tmp_path / "m").exists()


def test_a_reloaded_estimator_checks_dataframe_columns_as_the_fitted_one(tmp_path, demo_split):
    """feature_names_in_ was not saved: the reloaded estimator took reordered columns with a
    warning and gave other labels."""
    # pandas comes with the test extra (dask[dataframe] needs it)
    import pandas as pd

    X = DocumentVectorizer().fit_transform(demo_split[0])
    frame = pd.DataFrame(X.toarray(), columns=[f"t{j}" for j in range(X.shape[1])])
    fitted = make_estimator("nmf", 5, random_state=0).fit(frame)
    loaded = docnmf.load(docnmf.save(fitted, tmp_path / "m"))
    assert list(loaded.feature_names_in_) == list(frame.columns)
    np.testing.assert_array_equal(loaded.predict(frame), fitted.predict(frame))
    with pytest.raises(ValueError, match="Feature names must be in the same order"):
        loaded.predict(frame[frame.columns[::-1]])
    record = json.loads((tmp_path / "m" / "model.json").read_text())
    assert record["estimator"]["state"]["feature_names_in_"]["kind"] == "strings"


def test_a_model_of_an_estimator_that_cannot_place_documents_says_so_when_asked_to(demo_split):
    vectorizer = DocumentVectorizer()
    X = vectorizer.fit_transform(demo_split[0])
    model = ClusteringModel(make_estimator("nc", 3, random_state=0).fit(X), vectorizer)
    with pytest.raises(TypeError, match="GraphCutClustering cannot place new documents"):
        model.place(demo_split[1])
    with pytest.raises(TypeError, match="cluster_corpus takes a docnmf.Corpus, not list"):
        docnmf.cluster_corpus(demo_split[0], 3)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("method", ["km", "consensus", "lccf-ncw", "ssnmf", "nma", "nmf-ncw"])
def test_a_state_entry_edited_out_or_reshaped_is_refused_or_harmless(tmp_path, demo_split,
                                                                    method):
    """model.json's own text is not hashed: deleting an entry (centroids_, components_) loaded
    and then failed inside keywords with an AttributeError; a restart_objectives_ made a
    number failed in len(); components_ cut to 100 terms gave keywords of those terms only."""
    folder = docnmf.save(_fitted(method, demo_split[0]), tmp_path / "model")
    state = json.loads((folder / "model.json").read_text())["estimator"]["state"]
    with np.load(folder / "arrays.npz") as npz:
        arrays = {k: npz[k].copy() for k in npz.files}
    edits = [(f"without {attr}", lambda r, a=attr: r["estimator"]["state"].pop(a), None)
             for attr in state]
    for key, array in arrays.items():
        if key.startswith("estimator.") and array.size and array.dtype.kind == "f":
            edits.append((f"{key} as a number", None, (key, np.asarray(array.flat[0]))))
            if array.ndim == 2:
                edits.append((f"{key} without its last row", None, (key, array[:-1])))
                edits.append((f"{key} without its last column", None, (key, array[:, :-1])))
    checked = 0
    for what, change, replace in edits:
        copy = tmp_path / f"edit{checked}"
        shutil.copytree(folder, copy)
        checked += 1
        if change is not None:
            _rewrite_json(copy, change)
        else:
            key, value = replace
            _rewrite_arrays(copy, {**arrays, key: value})
        try:
            model = docnmf.load(copy)
        except ModelFormatError:
            continue
        # loaded: what a saved model is used for works (an entry the fit may leave unset)
        model.place(demo_split[1])
        names = (None if model.vectorizer is None
                 else model.vectorizer.readable_feature_names(demo_split[0]))
        assert len(model.estimator.top_keywords(names, 3)) == 5, what
    assert checked > len(state)


def _state(attr, value):
    return lambda r: r["estimator"]["state"][attr].update(value=value)


def _without(*path):
    def change(record):
        for key in path[:-1]:
            record = record[key]
        del record[path[-1]]
    return change


@pytest.mark.parametrize("method, change, message", [
    # Python's JSON reads NaN and Infinity: a graph weight of NaN put every document in
    # cluster 0, with memberships of 0.2 each, and assign exited 0
    ("lccf-ncw", _state("lam_effective_", float("nan")),
     "a number of the model that places documents is nan"),
    ("lccf-ncw", _state("lam_effective_", float("inf")), "places documents is inf"),
    ("lccf-ncw", lambda r: r["estimator"]["params"].update(tol=float("nan")),
     "parameter 'tol' of LCCFClustering is nan, not a finite number"),
    # these three ended in tracebacks
    ("nmf-ncw", _state("n_features_in_", "abc"), "n_features_in_ is 'abc', not a number of"),
    ("nmf-ncw", _state("n_features_in_", -3), "n_features_in_ is -3"),
    ("nmf-ncw", _without("vectorizer"), "the model has no vectorizer: it cannot read documents"),
    # the class's default (8) was named in the error instead
    ("nmf-ncw", _without("estimator", "params", "n_clusters"),
     "does not say its number of clusters"),
    # "no" is a true string: stemming stayed on
    ("nmf-ncw", lambda r: r["vectorizer"]["params"].update(stem="no"),
     "the vectorizer's stem='no' is not true or false"),
    ("nmf-ncw", lambda r: r["vectorizer"]["params"].update(max_df="lots"),
     "the vectorizer's max_df must be an int >= 1 or a float in"),
    ("nmf-ncw", lambda r: r["vectorizer"]["params"].update(max_features=0),
     "the vectorizer's max_features=0 is not a whole number"),
    # loaded, and the model's estimator then refused to fit again (clone(...).fit)
    ("nmf-ncw", lambda r: r["estimator"]["params"].update(random_state="x"),
     "bad parameters for NMFClustering: random_state must be None or a non-negative integer, got 'x'"),
    ("km", lambda r: r["estimator"]["params"].update(random_state=-1),
     "bad parameters for KMeansClustering: random_state must be None or a non-negative integer, got -1"),
    # these two were a TypeError ('int' object is not iterable), a traceback in docnmf assign
    ("nmf-ncw", lambda r: r["vectorizer"]["params"].update(stop_words=5),
     "the vectorizer's stop_words=5 is not"),
    ("nma", lambda r: r["estimator"]["state"]["vectorizer_"]["params"].update(
        stop_words=["the", 1]), "the vectorizer's stop_words=\\['the', 1\\] is not"),
])
def test_edited_numbers_and_settings_in_model_json_are_refused(tmp_path, demo_split, method,
                                                               change, message):
    folder = docnmf.save(_fitted(method, demo_split[0]), tmp_path / "model")
    _rewrite_json(folder, change)
    with pytest.raises(ModelFormatError, match=message):
        docnmf.load(folder)


@pytest.mark.parametrize("edit, message", [
    (lambda a: a.__imul__(-1), "the idf values must be numbers from 0 to 1e\\+06"),
    (lambda a: a.__imul__(1e300), "the idf values must be numbers from 0 to"),
    (lambda a: a.__imul__(0), "every idf value is 0: no term would weigh anything"),
])
def test_an_edited_idf_is_refused(tmp_path, demo_split, edit, message):
    """Negated, nmf-ncw failed at placing with a traceback and km scrambled every cluster."""
    folder = _saved(tmp_path, demo_split)
    _edit_array(folder, "vectorizer.idf", edit)
    with pytest.raises(ModelFormatError, match="the model's vectorizer is inconsistent: " + message):
        docnmf.load(folder)


def test_a_model_that_tells_no_document_apart_is_said_to(tmp_path, demo_split, caplog):
    """Zeroed term weights, their SHA-256 updated, put every document in cluster 0 and exited 0
    without a word."""
    from docnmf.corpus import Corpus
    from docnmf.pipeline import assign_corpus

    def assign(model, texts):
        caplog.clear()
        with caplog.at_level("WARNING", logger="docnmf"):
            assign_corpus(model, Corpus(texts=texts, labels=[()] * len(texts),
                                        ids=[str(i) for i in range(len(texts))]))
        return caplog.text

    folder = _saved(tmp_path, demo_split)
    texts = demo_split[1]
    healthy = docnmf.load(folder)
    assert "same memberships" not in assign(healthy, texts)
    # documents of one topic placed surely in its cluster (LCCF-NCW's memberships are 1 and
    # 1e-32) are alike and no sign of it; nor are copies of one text
    from docnmf.pipeline import _alike_and_unsure

    different = np.eye(3)
    sure = np.array([[0.0, 0.0, 1.0, 2.7e-32, 1.5e-85]] * 3)
    assert not _alike_and_unsure(sure, different)
    unsure = np.full((3, 5), 0.2)
    assert _alike_and_unsure(unsure, different)
    # texts that differ only in words the model does not know ("Year.", "The year!") read alike
    assert not _alike_and_unsure(unsure, np.ones((3, 3)))
    _edit_array(folder, "estimator.components_", lambda a: a.__imul__(0))
    assert f"each of the {len(texts)} documents placed has the same memberships (0.2, 0.2, 0.2, " \
           "0.2, 0.2), none above 90%: the model tells none apart" in assign(docnmf.load(folder),
                                                                           texts)


def test_a_saved_model_logs_nothing_when_fitted_again(tmp_path, demo_split):
    """The command line fits with verbose=1; its saved model carried it, and a clone fitted in
    a library logged its progress to its user's standard error."""
    model = _fitted("nmf-ncw", demo_split[0])
    model.estimator.set_params(verbose=1)
    loaded = docnmf.load(docnmf.save(model, tmp_path / "model"))
    assert loaded.estimator.verbose == 0 and model.estimator.verbose == 1


def test_a_model_without_a_vectorizer_says_what_it_needs(demo_split):
    model = _fitted("nmf-ncw", demo_split[0])
    bare = ClusteringModel(model.estimator)
    with pytest.raises(ValueError, match="NMFClustering reads no text itself: give the model the "
                                         "vectorizer whose documents it was fitted on"):
        bare.place(demo_split[1])


@pytest.mark.parametrize("method", ["nmf-ncw", "consensus", "lccf-ncw", "fsnmf", "ssnmf-ncw"])
def test_negative_numbers_where_a_fit_gives_none_are_refused(method, tmp_path, demo_split):
    """An idf edited to its negative placed the demo's documents at an accuracy of 0.425
    instead of 0.988, without a word (centres, concept factors likewise)."""
    folder = docnmf.save(_fitted(method, demo_split[0]), tmp_path / "model")
    model = docnmf.load(folder)
    for attr in model.estimator._non_negative_state:
        if getattr(model.estimator, attr, None) is None:
            continue
        copy = tmp_path / attr
        shutil.copytree(folder, copy)
        _edit_array(copy, f"estimator.{attr}", lambda a: np.negative(a, out=a))
        with pytest.raises(ModelFormatError, match=f"'s {attr} holds negative numbers"):
            docnmf.load(copy)
    assert model.estimator._non_negative_state


def test_a_fit_of_data_with_negative_entries_saves_and_loads(tmp_path):
    """LCCF's unweighted forms take any data, and its term vectors are then negative: the
    non-negative check refused to save such a fit ("was the model edited?")."""
    from docnmf.cluster import LCCFClustering

    X = np.random.default_rng(0).normal(size=(40, 12))
    for i, params in enumerate(({}, {"lam": 0.0}, {"labels": "kmeans"})):
        model = LCCFClustering(n_clusters=3, random_state=0, **params).fit(X)
        assert model.components_.min() < 0
        folder = docnmf.save(model, tmp_path / f"m{i}")
        np.testing.assert_array_equal(docnmf.load(folder).predict(X), model.predict(X))
