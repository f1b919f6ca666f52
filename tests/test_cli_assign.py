"""docnmf cluster saves a model; docnmf assign places new documents with it."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys

import pytest


NEW = {"space": ["Astronomers pointed the telescope at a comet near the star."],
       "food": ["Bake the dough with butter and garlic in the oven."]}


@pytest.fixture
def fitted(tmp_path, cli, text_folder, toy_topics):
    out = tmp_path / "out"
    code, _, _ = cli(["cluster", text_folder(tmp_path / "train", toy_topics), "-k", "2",
                      "--min-df", "1", "-o", out])
    assert code == 0 and (out / "model" / "model.json").is_file()
    return out


def test_assign_places_new_documents_in_the_layout_of_cluster(fitted, tmp_path, cli, text_folder):
    new = text_folder(tmp_path / "new", NEW)
    (new / "food" / "junk.txt").write_text("Qwzx plorb frimble.")     # no known word
    code, out, err = cli(["assign", str(fitted), str(new), "-o", str(tmp_path / "a")])
    assert code == 0, err
    header = open(fitted / "assignments.csv").readline()
    with open(tmp_path / "a" / "assignments.csv") as fh:
        assert fh.readline() == header
    rows = {r["id"]: r for r in csv.DictReader(open(tmp_path / "a" / "assignments.csv"))}
    trained = {r["id"]: r["cluster"] for r in csv.DictReader(open(fitted / "assignments.csv"))}
    assert rows["space/000.txt"]["cluster"] == trained["space/000.txt"]
    assert rows["food/000.txt"]["cluster"] == trained["food/000.txt"]
    assert rows["food/junk.txt"]["cluster"] == "-1"
    assert "food/junk.txt" in err and "no index term the model knows" in err
    assert list(csv.reader(open(tmp_path / "a" / "unassigned.csv")))[1][0] == "food/junk.txt"
    record = json.loads((tmp_path / "a" / "run.json").read_text())
    assert record["parameters"]["source_model"]["fitted_documents"] == 8
    # the objectives copied beside the placement are the model's fit's, and say so
    fit_record = json.loads((fitted / "run.json").read_text())
    assert record["objective_history"] == fit_record["objective_history"]
    assert record["objectives_of"] == "the fit of the model that placed these documents"
    assert "objectives_of" not in fit_record
    assert "the fit of the model that placed these documents: objective" in \
        (tmp_path / "a" / "report.html").read_text()
    assert json.loads((tmp_path / "a" / "metrics.json").read_text())["n_unassigned"] == 1
    assert "garlic" in out                                  # the model's keywords
    # keywords the new documents never use leave their pairs out of the coherence (was inf)
    for row in csv.DictReader(open(tmp_path / "a" / "clusters.csv")):
        assert row["coherence"] == "" or -1.0 <= float(row["coherence"]) <= 1.0


def test_one_text_file_of_any_name_is_one_document(fitted, tmp_path, cli):
    """A 20 Newsgroups file has no suffix: 'cannot tell how to read' it; a .txt one was read."""
    one = tmp_path / "61242"
    one.write_text(NEW["space"][0])
    code, out, err = cli(["assign", str(fitted), str(one), "-o", str(tmp_path / "a")])
    assert code == 0, err
    # one document, not "1 documents"
    assert "placing 1 document in the 2 clusters" in err and ": 1 document, " in out
    rows = list(csv.DictReader((tmp_path / "a" / "assignments.csv").read_text().splitlines()))
    trained = {r["id"]: r["cluster"]
               for r in csv.DictReader((fitted / "assignments.csv").read_text().splitlines())}
    assert [r["id"] for r in rows] == ["61242"]
    assert rows[0]["cluster"] == trained["space/000.txt"]
    picture = tmp_path / "scan.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    code, _, err = cli(["assign", str(fitted), str(picture), "-o", str(tmp_path / "b")])
    assert code == 2 and "scan.png looks binary (a NUL byte in its first 8 KiB), not text" in err


def test_assign_refuses_what_is_not_a_model(fitted, tmp_path, cli, text_folder):
    new = text_folder(tmp_path / "new", NEW)
    (tmp_path / "model.pkl").write_bytes(b"\x80\x04K\x01.")
    for bad, message in [(tmp_path / "model.pkl", "never loads pickle"),
                         (tmp_path / "nowhere", "no such model")]:
        code, _, err = cli(["assign", str(bad), str(new)])
        assert code == 2 and message in err and "Traceback" not in err
    record = json.loads((fitted / "model" / "model.json").read_text())
    record["format_version"] = 99
    (fitted / "model" / "model.json").write_text(json.dumps(record))
    code, _, err = cli(["assign", str(fitted), str(new)])
    assert code == 2 and "format version 99" in err and "upgrade docnmf" in err
    from docnmf.model import FORMAT_VERSION

    record["format_version"] = FORMAT_VERSION        # a readable version, n_clusters edited
    record["estimator"]["params"]["n_clusters"] = 7
    (fitted / "model" / "model.json").write_text(json.dumps(record))
    code, _, err = cli(["assign", str(fitted), str(new), "-o", str(tmp_path / "p")])
    assert code == 2 and "but n_clusters is 7" in err and not (tmp_path / "p").exists()


def test_folders_that_look_like_a_model_point_to_the_one_that_is(fitted, tmp_path, cli,
                                                                 text_folder):
    new = text_folder(tmp_path / "new", NEW)
    # model.json named beside the result folder's model, not inside it
    code, _, err = cli(["assign", str(fitted / "model.json"), str(new)])
    assert code == 2 and f"the model of the result folder {fitted} is {fitted / 'model'}" in err
    # the output of assign holds placed documents, and no model of its own
    placed = tmp_path / "placed"
    assert cli(["assign", str(fitted), str(new), "-o", str(placed)])[0] == 0
    code, _, err = cli(["assign", str(placed), str(new)])
    assert code == 2 and "placed by docnmf assign, which saves no model" in err


def test_a_method_that_cannot_place_documents_leaves_no_model_and_says_why(tmp_path, cli,
                                                                           text_folder,
                                                                           toy_topics):
    out = tmp_path / "out"
    # said with -q too: -q hid it, and 'docnmf assign' was the first to tell
    code, _, err = cli(["-q", "cluster", str(text_folder(tmp_path / "train", toy_topics)), "-k",
                        "2", "--min-df", "1", "--method", "aa", "-o", str(out)])
    assert code == 0 and "no model saved: aa cannot place new documents" in err
    assert not (out / "model").exists()
    code, _, err = cli(["assign", str(out), str(text_folder(tmp_path / "new", NEW))])
    assert code == 2
    assert "holds no model: aa cannot place new documents (methods that can:" in err
    # and from Python, which said only that there was no model.json
    import docnmf
    from docnmf.model import ModelFormatError

    with pytest.raises(ModelFormatError, match="holds no model: aa cannot place new documents"):
        docnmf.load(out)


def test_a_result_folder_whose_model_was_removed_says_so(fitted, cli, tmp_path, text_folder):
    """It said only "holds no model", as of a folder that never had one."""
    shutil.rmtree(fitted / "model")
    code, _, err = cli(["assign", str(fitted), str(text_folder(tmp_path / "new", NEW))])
    method = json.loads((fitted / "run.json").read_text())["parameters"]["method"]
    assert code == 2
    assert (f"holds no model: its model folder, which docnmf cluster writes for {method}, is "
            "missing; cluster again to get one") in err


def test_assign_as_a_real_subprocess(fitted, tmp_path, text_folder, docnmf_env):
    env = docnmf_env
    proc = subprocess.run([sys.executable, "-m", "docnmf", "assign", str(fitted),
                           str(text_folder(tmp_path / "new", NEW)), "-o", str(tmp_path / "a")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "a" / "memberships.npz").is_file()


def _without_read_override() -> list[str]:
    """A command prefix under which permissions hold: none for a user, setpriv dropping the
    capabilities that let root read anything otherwise."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv (util-linux): permissions do not hold")
    caps = "-dac_override,-dac_read_search"
    return ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}"]


def test_saving_into_a_model_folder_that_may_not_be_listed_is_a_save_error(fitted, tmp_path,
                                                                           docnmf_env):
    """docnmf.save looks for files of the user's in the folder it replaces; one it may enter
    but not list (-wx) was a PermissionError from os.listdir."""
    target = tmp_path / "m"
    shutil.copytree(fitted / "model", target)
    target.chmod(0o300)
    script = ("import sys, docnmf\n"
              "from docnmf.model import ModelSaveError\n"
              "try:\n"
              "    docnmf.save(docnmf.load(sys.argv[1]), sys.argv[2])\n"
              "except ModelSaveError as exc:\n"
              "    sys.exit(f'refused: {exc}')\n")
    try:
        proc = subprocess.run([*_without_read_override(), sys.executable, "-c", script,
                               str(fitted / "model"), str(target)],
                              capture_output=True, text=True, env=docnmf_env, timeout=120,
                              check=False)
    finally:
        target.chmod(0o755)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert f"refused: cannot read the folder {target}: Permission denied" in proc.stderr
    assert sorted(p.name for p in target.iterdir()) == ["arrays.npz", "model.json"]


@pytest.mark.parametrize("locked", ["model/model.json", "model"])
def test_an_unreadable_model_is_one_line(fitted, tmp_path, text_folder, locked, docnmf_env):
    """A model.json or model folder that may not be read was a PermissionError traceback."""
    env = docnmf_env
    (fitted / locked).chmod(0)
    try:
        proc = subprocess.run([*_without_read_override(), sys.executable, "-m", "docnmf",
                               "assign", str(fitted), str(text_folder(tmp_path / "new", NEW)),
                               "-o", str(tmp_path / "a")],
                              capture_output=True, text=True, env=env, timeout=120,
                              check=False)
    finally:
        (fitted / locked).chmod(0o755)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == f"docnmf: error: cannot read {fitted / locked}: Permission denied"


def test_a_restart_without_a_finite_objective_is_said_in_the_report(tmp_path, cli):
    """A model may keep a diverged restart's NaN (what places documents may not): its report
    ended the command with a TypeError traceback (here an edited model's infinity)."""
    import hashlib
    import io

    import numpy as np

    out = tmp_path / "out"
    code, _, err = cli(["cluster", "demo", "-k", "5", "--method", "nmf-ncw", "-o", out])
    assert code == 0, err
    model = out / "model"
    with np.load(model / "arrays.npz") as npz:
        arrays = {k: npz[k].copy() for k in npz.files}
    arrays["estimator.restart_objectives_"] = np.array([np.inf])
    buf = io.BytesIO()
    np.savez(buf, **arrays)
    (model / "arrays.npz").write_bytes(buf.getvalue())
    record = json.loads((model / "model.json").read_text())
    record["arrays"]["sha256"] = hashlib.sha256(buf.getvalue()).hexdigest()
    (model / "model.json").write_text(json.dumps(record))
    code, _, err = cli(["assign", model, "demo", "-o", tmp_path / "placed"])
    assert code == 0 and "Traceback" not in err, err
    page = (tmp_path / "placed" / "report.html").read_text(encoding="utf-8")
    assert "The run ended without a finite objective." in page


def test_not_enough_memory_to_place_advises_what_assign_can_change(fitted, tmp_path, cli,
                                                                   text_folder, monkeypatch):
    """It advised --max-features and fewer clusters, which the model fixes, not assign."""
    import docnmf.model

    def out_of_memory(self, *args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(docnmf.model.ClusteringModel, "place", out_of_memory)
    code, _, err = cli(["assign", fitted, text_folder(tmp_path / "new", NEW),
                        "-o", tmp_path / "placed"])
    assert code == 2 and "not enough memory to place these documents; place fewer" in err
    assert "--max-features" not in err and not (tmp_path / "placed").exists()


def test_an_empty_cluster_of_placed_documents_is_no_advice_on_k(fitted, tmp_path, cli,
                                                                text_folder):
    """Placing documents of one topic left the model's other cluster empty, and its card
    advised a smaller k, which the model fixes."""
    new = text_folder(tmp_path / "new", {"space": NEW["space"]})
    code, _, err = cli(["assign", fitted, new, "-o", tmp_path / "placed"])
    assert code == 0, err
    page = (tmp_path / "placed" / "report.html").read_text(encoding="utf-8")
    assert "Empty: no document belongs most to this cluster" in page
    assert "none of the documents placed follows most" in page and "smaller k" not in page


def test_an_output_folder_that_may_not_be_written_fails_before_the_work(fitted, tmp_path,
                                                                      text_folder, docnmf_env):
    """An existing empty -o folder without write permission, in a folder that has it, passed
    the checks made before the work: the documents were read and placed, the report made,
    and only then did replacing the folder fail."""
    out = tmp_path / "locked"
    out.mkdir()
    out.chmod(0o555)
    try:
        proc = subprocess.run([*_without_read_override(), sys.executable, "-m", "docnmf",
                               "assign", str(fitted), str(text_folder(tmp_path / "new", NEW)),
                               "-o", str(out)],
                              capture_output=True, text=True, env=docnmf_env, timeout=120,
                              check=False)
    finally:
        out.chmod(0o755)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == f"docnmf: error: cannot write to {out}: Permission denied"
    assert list(out.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["locked", "new", "out", "train"]


def test_an_output_folder_on_a_read_only_file_system_says_so(fitted, tmp_path, text_folder,
                                                              docnmf_env):
    """An existing -o folder on a file system mounted read-only was said to be a matter of
    permission ('Permission denied'), which no chmod mends; a new -o there already said
    'Read-only file system'."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare (util-linux) to mount a read-only file system")
    mount = tmp_path / "ro"
    (mount / "out").mkdir(parents=True)
    new = text_folder(tmp_path / "new", NEW)
    script = ('mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99; '
              'shift; exec "$@"')
    proc = subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(mount),
                           sys.executable, "-m", "docnmf", "assign", str(fitted), str(new),
                           "-o", str(mount / "out")],
                          capture_output=True, text=True, env=docnmf_env, timeout=120,
                          check=False)
    if proc.returncode == 99:
        pytest.skip(f"cannot mount a read-only file system here: {proc.stderr.strip()}")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == (f"docnmf: error: cannot write to {mount / 'out'}: "
                                   "Read-only file system")
