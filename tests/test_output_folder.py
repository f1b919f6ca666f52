"""Result folders are published whole: staging folder, renames, a lock, leftovers cleaned."""

import csv
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from docnmf import io as docnmf_io
from docnmf.cli import main
from docnmf.io import write_csv

# looked up when a test runs, so that each test fails on its own before the facility existed
MARKER = getattr(docnmf_io, "MARKER", ".docnmf-output")


def OutputFolder(*args, **kwargs):
    return docnmf_io.OutputFolder(*args, **kwargs)


def spreadsheet_safe(value):
    return docnmf_io.spreadsheet_safe(value)

WORDS = {"a": "comet orbit planet telescope star galaxy", "b": "garlic onion butter oven dough"}


def corpus_csv(path, labelled=True, ids=None):
    rows = [(ids[i] if ids else f"d{i}", " ".join(WORDS[lab].split()[i % 3:]), lab)
            for i, lab in enumerate("abababab")]
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "text", "label"] if labelled else ["id", "text"])
        w.writerows(r if labelled else r[:2] for r in rows)
    return path


def cluster(src, out, capsys, *extra):
    code = main(["-q", "cluster", str(src), "-k", "2", "--min-df", "1", "-o", str(out), *extra])
    return code, *capsys.readouterr()


def test_a_second_run_leaves_none_of_the_first_runs_files(tmp_path, capsys):
    out = tmp_path / "out"
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0
    assert (out / "metrics.json").exists()
    assert cluster(corpus_csv(tmp_path / "u.csv", labelled=False), out, capsys)[0] == 0
    # the labelled first run's metrics.json is gone; the rest is the second run's
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "assignments.csv", "clusters.csv",
                                                     "memberships.npz", "model", "report.html",
                                                     "report_data.json", "run.json"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.")] == []


def test_an_error_inside_leaves_the_old_folder_whole(tmp_path):
    out = tmp_path / "out"
    with OutputFolder(out) as staging:
        write_csv(staging / "a.csv", ["x"], [[1]])
    with pytest.raises(RuntimeError):
        with OutputFolder(out) as staging:
            write_csv(staging / "a.csv", ["x"], [[2]])
            write_csv(staging / "b.csv", ["x"], [[2]])
            raise RuntimeError("disk trouble")
    assert sorted(p.name for p in out.iterdir()) == [MARKER, "a.csv"]
    assert (out / "a.csv").read_text() == "x\n1\n"
    assert not [p for p in tmp_path.iterdir() if ".staging-" in p.name]


def test_a_failed_run_leaves_no_folder_made_for_it(tmp_path):
    """A run on Dask enters its output folder before it reads the corpus: when the corpus then
    failed, an empty docnmf-out/ stayed in the working folder."""
    (tmp_path / "kept").mkdir()
    for target in (tmp_path / "docnmf-out" / "none", tmp_path / "a" / "b" / "out",
                   tmp_path / "kept" / "out"):
        with pytest.raises(RuntimeError), OutputFolder(target):
            raise RuntimeError("the corpus has no documents")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept"]
    assert list((tmp_path / "kept").iterdir()) == []
    with OutputFolder(tmp_path / "a" / "out") as staging:      # a published run keeps them
        write_csv(staging / "a.csv", ["x"], [[1]])
    assert (tmp_path / "a" / "out" / "a.csv").exists()


@pytest.fixture
def first_fails_before_the_second_locks(tmp_path, monkeypatch):
    """A run into ``shared/a``, which made ``shared/``, fails (and removes it, empty) just as a
    second run into ``shared/b`` opens its lock there."""
    first = OutputFolder(tmp_path / "shared" / "a")
    first.__enter__()
    take = docnmf_io._lock

    def first_fails_now(path, target):
        if path.name == ".b.lock" and first.staging is not None:
            first.__exit__(RuntimeError, RuntimeError(), None)
            first.staging = None
        return take(path, target)

    monkeypatch.setattr(docnmf_io, "_lock", first_fails_now)


def test_a_folder_another_failed_run_removes_before_the_lock_is_made_again(
        tmp_path, first_fails_before_the_second_locks):
    """Two runs into folders of one parent neither found: the first made it, the second found it
    made; the first failed and removed it just before the second opened its lock there, which
    then failed with FileNotFoundError (and a failure of the second left the parent behind)."""
    with pytest.raises(RuntimeError), OutputFolder(tmp_path / "shared" / "b"):
        raise RuntimeError("the second fails too")
    assert list(tmp_path.iterdir()) == []


def test_a_run_lock_whose_parent_another_failed_run_removes_holds_none(
        tmp_path, first_fails_before_the_second_locks):
    """The parent a failed run made and removed, found by run_lock just before: as where the
    parent does not exist yet, nothing is held (the run failed with "cannot write to")."""
    with docnmf_io.run_lock(tmp_path / "shared" / "b"):
        assert not docnmf_io._HELD
    with OutputFolder(tmp_path / "shared" / "b") as staging:
        write_csv(staging / "a.csv", ["x"], [[1]])
    assert (tmp_path / "shared" / "b" / "a.csv").exists()


def test_a_second_concurrent_run_fails_clearly(tmp_path, capsys):
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from docnmf.io import OutputFolder
            with OutputFolder({str(out)!r}):
                print("holding", flush=True)
                time.sleep(60)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "holding"
        code, stdout, err = cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)
        # refused before the input is read (it was once the corpus was read: seconds on 20
        # Newsgroups, where the README says "at once"): a missing input is not reached
        early = cluster(tmp_path / "missing.csv", out, capsys)
    finally:
        holder.kill()
        holder.wait()
    assert code == 2 and "another docnmf run is writing to" in err
    assert stdout == ""  # refused before the fit
    assert early[0] == 2 and "another docnmf run is writing to" in early[2]
    assert cluster(tmp_path / "l.csv", out, capsys)[0] == 0  # the lock died with its holder


def test_a_lock_file_removed_by_its_holder_is_taken_again(tmp_path, monkeypatch):
    """A run that opened the lock file just before its holder removed it locks the new one."""
    import docnmf.io as dio

    path = tmp_path / ".out.lock"
    real_flock, calls = dio.fcntl.flock, []

    def flock_after_the_holder_left(fd, op):
        if not calls:
            path.unlink()           # the holder removes the file this run has opened
        calls.append(fd)
        return real_flock(fd, op)

    monkeypatch.setattr(dio.fcntl, "flock", flock_after_the_holder_left)
    fd = dio._lock(path, tmp_path / "out")
    try:
        assert len(calls) == 2 and os.path.samestat(os.fstat(fd), os.stat(path))
    finally:
        os.close(fd)


def test_leftovers_of_killed_runs_are_removed(tmp_path, capsys):
    out = tmp_path / "out"
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0
    (tmp_path / ".out.staging-dead1").mkdir()
    (tmp_path / ".out.staging-dead1" / "assignments.csv").write_text("x")
    (tmp_path / ".out.old-dead2").mkdir()
    (out / ".assignments.csv.abc.tmp").write_text("torn")  # an earlier version's torn write
    assert cluster(tmp_path / "l.csv", out, capsys)[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["l.csv", "out"]
    assert not list(out.glob(".*.tmp"))


def test_a_run_killed_between_the_renames_is_repaired(tmp_path):
    out = tmp_path / "out"
    with OutputFolder(out) as staging:
        (staging / "a.txt").write_text("old")
    aside = tmp_path / ".out.old-x"
    aside.mkdir()
    os.rename(out, aside / "out")  # killed after moving the old folder aside
    with OutputFolder(out):
        assert (out / "a.txt").read_text() == "old"  # put back before anything else
    assert not aside.exists()


@pytest.mark.parametrize("where", ["file", "under_file"])
def test_an_unusable_output_is_refused_before_the_fit(tmp_path, capsys, where):
    (tmp_path / "afile").write_text("x")
    out = tmp_path / "afile" if where == "file" else tmp_path / "afile" / "sub"
    code, stdout, err = cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)
    assert code == 2 and stdout == "" and "Traceback" not in err
    assert ("is a file, not a folder" if where == "file" else "is a file") in err
    assert (tmp_path / "afile").read_text() == "x"


def test_a_folder_of_other_files_is_never_replaced(tmp_path, capsys):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    code, stdout, err = cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)
    assert code == 2 and "holds files docnmf did not write (notes.txt)" in err
    assert (out / "notes.txt").read_text() == "keep me"
    with pytest.raises(docnmf_io.OutputFolderError):
        OutputFolder(out).__enter__()


def test_files_added_to_a_result_folder_are_never_replaced_with_it(tmp_path, capsys):
    """The marker made the whole folder docnmf's: a user's notes.txt or folder put beside the
    results went when the command ran again."""
    out = tmp_path / "out"
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0
    (out / "notes.txt").write_text("keep me")
    (out / "mine").mkdir()
    (out / "mine" / "a.txt").write_text("keep me too")
    code, _, err = cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)
    assert code == 2 and "holds files docnmf did not write (mine, notes.txt)" in err
    assert (out / "notes.txt").read_text() == "keep me" and (out / "mine" / "a.txt").is_file()
    # what docnmf writes into its own folder afterwards stays its own
    (out / "notes.txt").unlink()
    (out / "mine" / "a.txt").unlink()
    (out / "mine").rmdir()
    (out / "report.html").unlink()
    assert main(["-q", "report", str(out)]) == 0
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0


def test_files_added_to_a_subfolder_of_a_result_folder_are_never_replaced_with_it(tmp_path,
                                                                                  capsys):
    """Only the folder's own entries were checked: a file put into out/model/ went."""
    out = tmp_path / "out"
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0
    (out / "model" / "extra.txt").write_text("keep me")
    (out / "model" / "mine").mkdir()
    code, _, err = cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)
    assert code == 2 and "holds files docnmf did not write (model/extra.txt, model/mine)" in err
    assert (out / "model" / "extra.txt").read_text() == "keep me"
    (out / "model" / "extra.txt").unlink()
    (out / "model" / "mine").rmdir()
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0
    # a marker written before the subfolders' files were listed vouches for them
    marker = out / docnmf_io.MARKER
    record = json.loads(marker.read_text())
    record["entries"] = [e for e in record["entries"] if "/" not in e]
    marker.write_text(json.dumps(record))
    (out / "model" / "old.json").write_text("{}")
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0
    assert not (out / "model" / "old.json").exists()


@pytest.mark.parametrize("earlier", ["run.json", "results.jsonl", "results.json"])
def test_a_folder_with_a_results_file_of_its_own_is_not_taken_for_docnmfs(tmp_path, capsys,
                                                                         earlier):
    """Folders from before the marker are recognised by their results file; a user's folder
    holding a file of that name (and a thesis, a folder of figures) was replaced whole."""
    out = tmp_path / "project"
    out.mkdir()
    (out / earlier).write_text('{"my": "data"}')
    (out / "thesis.tex").write_text("draft")
    (out / "figs").mkdir()
    code, _, err = cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)
    assert code == 2 and "holds files docnmf did not write (figs, thesis.tex)" in err
    assert (out / "thesis.tex").read_text() == "draft" and (out / earlier).is_file()
    # a folder of an earlier version, with only the kinds of file docnmf writes, is replaced
    (out / "thesis.tex").unlink()
    (out / "figs").rmdir()
    (out / "report.md").write_text("# an earlier report")
    (out / "model").mkdir()
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0
    assert not (out / "report.md").exists()


def _tree(folder):
    return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_an_output_folder_that_would_replace_what_is_read_is_refused(tmp_path, capsys):
    out = tmp_path / "out"
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0
    new = tmp_path / "new"
    new.mkdir()
    (new / "n1.txt").write_text("telescope galaxy comet star")
    before = _tree(out)
    # placing documents with a model into the model's own folder
    assert main(["-q", "assign", str(out), str(new), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"-o {out} would replace the model folder being read ({out})" in err
    # clustering a folder into itself, or into a folder that holds it
    docs = tmp_path / "outer" / "docs"
    docs.mkdir(parents=True)
    for name, text in (("a", WORDS["a"]), ("b", WORDS["b"]), ("c", WORDS["a"])):
        (docs / f"{name}.txt").write_text(text)
    for target in (docs, docs.parent):
        code, _, err = cluster(docs, target, capsys)
        assert code == 2 and "would replace the input being read" in err
    pairs = tmp_path / "outer" / "ml.csv"
    pairs.write_text("d0,d2\n")
    code, _, err = cluster(corpus_csv(tmp_path / "l.csv"), tmp_path / "outer", capsys,
                           "--method", "ssnmf", "--must-link", str(pairs))
    assert code == 2 and "would replace the must-link file being read" in err
    assert _tree(out) == before and sorted(p.name for p in docs.iterdir()) == \
        ["a.txt", "b.txt", "c.txt"]


def test_nested_writers_share_one_staging_folder(tmp_path):
    from docnmf.io import writes_folder

    @writes_folder
    def write(name, outdir):
        return [write_csv(outdir / name, ["x"], [[1]])]

    out = tmp_path / "out"
    with OutputFolder(out) as staging:
        paths = write("a.csv", out)
        assert paths == [out / "a.csv"] and (staging / "a.csv").exists()
        assert not out.exists()  # published when the outer block ends
    assert (out / "a.csv").exists()


def test_spreadsheet_formulas_are_neutralised_and_ids_with_spaces_kept(tmp_path, capsys):
    ids = ['=HYPERLINK("http://evil","x")', "+1+1", "-2+3", "@SUM(A1)", "my doc 1.txt",
           "my doc 2.txt", "-7", "plain"]
    out = tmp_path / "out"
    assert cluster(corpus_csv(tmp_path / "l.csv", ids=ids), out, capsys)[0] == 0
    with open(out / "assignments.csv", newline="") as fh:
        written = [r["id"] for r in csv.DictReader(fh)]
    assert written == ["'" + i if i[0] in "=+@" or i == "-2+3" else i for i in ids]
    with open(out / "clusters.csv", newline="") as fh:
        reps = [json.loads(r["representative_documents"]) for r in csv.DictReader(fh)]
    assert {"my doc 1.txt", "my doc 2.txt"} <= {r for rep in reps for r in rep}
    assert spreadsheet_safe("\tx") == "'\tx" and spreadsheet_safe(-1.5) == -1.5


def test_a_text_escaped_for_spreadsheets_reads_back_exactly(tmp_path, capsys):
    """``=a`` and ``'=a`` were both written ``'=a``: two documents under one id."""
    from docnmf.io import from_spreadsheet

    ids = ["=a", "'=a", "-b", "'-b", "'quoted", "''", "plain", "-3"]
    out = tmp_path / "out"
    assert cluster(corpus_csv(tmp_path / "l.csv", ids=ids), out, capsys)[0] == 0
    with open(out / "assignments.csv", newline="") as fh:
        written = [r["id"] for r in csv.DictReader(fh)]
    assert len(set(written)) == len(ids)
    assert [from_spreadsheet(w) for w in written] == ids


def test_a_carriage_return_in_a_cell_stays_inside_its_row(tmp_path):
    import csv as module

    write_csv(tmp_path / "a.csv", ["id", "n"], [["a\rb", 1], ["c", 2]])
    with open(tmp_path / "a.csv", newline="") as fh:
        assert list(module.reader(fh)) == [["id", "n"], ["a\rb", "1"], ["c", "2"]]


def test_the_current_folder_or_one_holding_it_is_refused(tmp_path, capsys, monkeypatch):
    """Replacing the shell's folder left it pointing at a removed one: the results seemed lost
    and the next run ended in a traceback."""
    here = tmp_path / "work" / "here"
    here.mkdir(parents=True)
    src = corpus_csv(tmp_path / "l.csv")
    monkeypatch.chdir(here)
    for target, says in ((".", ". is the current folder:"),
                         ("..", ".. is the current folder or holds it")):
        code, stdout, err = cluster(src, target, capsys)
        assert code == 2 and stdout == "" and says in err and "-o results" in err
    # -o "" is no name at all (it was taken for ".")
    with pytest.raises(SystemExit) as exc:
        cluster(src, "", capsys)
    assert exc.value.code == 2
    assert "-o/--output: expected a folder's name, got ''" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path / "work")) == ["here"] and os.listdir(here) == []
    assert cluster(src, "results", capsys)[0] == 0 and (here / "results" / "run.json").is_file()
    # a shell left in a removed folder: one line, not a traceback from a relative path
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    code, _, err = cluster(src, "out", capsys)
    assert code == 2 and "the current folder no longer exists" in err


def test_a_name_as_long_as_the_system_allows_is_an_output_folder(tmp_path, capsys):
    """The folders and lock beside it add to its name: a 250-byte name once failed with
    'File name too long'."""
    src = corpus_csv(tmp_path / "l.csv")
    for name in ("x" * 250, "é" * 127):
        out = tmp_path / name
        assert cluster(src, out, capsys)[0] == 0 and (out / "run.json").is_file()
        assert cluster(src, out, capsys)[0] == 0        # replaced, with its leftovers removed
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["l.csv", "x" * 250, "é" * 127])


def test_a_saved_model_folder_is_named_as_such(tmp_path, capsys):
    src = corpus_csv(tmp_path / "l.csv")
    assert cluster(src, tmp_path / "out", capsys)[0] == 0
    code, _, err = cluster(src, tmp_path / "out" / "model", capsys)
    assert code == 2 and "out/model is a saved model; a result folder is replaced whole" in err


def test_a_folder_inside_a_result_folder_is_refused(tmp_path, capsys):
    """assign -o out/placed was written, and out could then not be written again: it held
    'files docnmf did not write (placed)'."""
    src = corpus_csv(tmp_path / "l.csv")
    assert cluster(src, tmp_path / "out", capsys)[0] == 0
    real = os.path.realpath(tmp_path)
    assert main(["-q", "assign", str(tmp_path / "out"), str(src), "-o",
                 str(tmp_path / "out" / "placed")]) == 2
    assert (f"out/placed is inside {real}/out, a folder docnmf wrote and replaces whole; give a "
            "folder outside it with -o") in capsys.readouterr().err
    code, _, err = cluster(src, tmp_path / "out" / "model" / "x", capsys)
    assert code == 2 and f"is inside {real}/out/model, a folder docnmf wrote" in err
    assert sorted(p.relative_to(tmp_path / "out").as_posix()
                  for p in (tmp_path / "out").rglob("*")) == sorted(
        json.loads((tmp_path / "out" / MARKER).read_text())["entries"] + [MARKER])
    assert cluster(src, tmp_path / "out", capsys)[0] == 0      # and it is written again


def test_the_default_folder_says_when_it_replaces_another_inputs_results(tmp_path, capsys,
                                                                         monkeypatch):
    """Without -o, y2023/posts.csv and y2024/posts.csv both write docnmf-out/posts: the
    second replaced the first without a word."""
    monkeypatch.chdir(tmp_path)
    for year in ("y2023", "y2024"):
        (tmp_path / year).mkdir()
        corpus_csv(tmp_path / year / "posts.csv")
    assert main(["-q", "cluster", "y2023/posts.csv", "-k", "2", "--min-df", "1"]) == 0
    assert main(["-q", "cluster", "y2023/posts.csv", "-k", "2", "--min-df", "1"]) == 0
    assert "holds the results of" not in capsys.readouterr().err      # the same input again
    assert main(["-q", "cluster", "y2024/posts.csv", "-k", "2", "--min-df", "1"]) == 0
    assert ("docnmf-out/posts holds the results of y2023/posts.csv, which this run replaces "
            "with those of y2024/posts.csv; give -o to keep both") in capsys.readouterr().err


def test_a_bind_mount_of_the_same_file_system_is_named_as_a_mount_point(tmp_path, capsys,
                                                                         monkeypatch):
    """os.path.ismount misses a folder bind-mounted from the same file system (a container's
    volume): the run went to its end, then failed to publish with 'Device or resource busy'.
    Linux lists it in /proc/self/mountinfo; here a listing of our own names the folder."""
    target = tmp_path / "out dir"          # a space: written \040 in the listing
    target.mkdir()
    real = os.path.realpath(target).replace(" ", "\\040")
    listing = tmp_path / "mountinfo"
    listing.write_text(f"36 35 98:0 /mnt1 / rw,noatime master:1 - ext3 /dev/root rw\n"
                       f"97 29 0:45 /src {real} rw,relatime shared:1 - ext4 /dev/sda1 rw\n")
    monkeypatch.setattr(docnmf_io, "MOUNTINFO", str(listing))
    code, _, err = cluster(corpus_csv(tmp_path / "l.csv"), target, capsys)
    assert code == 2 and "out dir is a mount point, which cannot be replaced whole" in err
    monkeypatch.setattr(docnmf_io, "MOUNTINFO", str(tmp_path / "no-such-listing"))
    assert cluster(corpus_csv(tmp_path / "l.csv"), target, capsys)[0] == 0


def test_a_folder_of_another_command_is_not_replaced(tmp_path, capsys):
    """choose-k -o on a cluster folder replaced the clustering, its model with it; and the
    other way round."""
    src = corpus_csv(tmp_path / "l.csv")
    assert cluster(src, tmp_path / "out", capsys)[0] == 0
    before = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert main(["-q", "choose-k", str(src), "--k-range", "2-3", "--min-df", "1",
                 "-o", str(tmp_path / "out")]) == 2
    assert ("out holds the results of docnmf cluster, which docnmf choose-k does not replace"
            in capsys.readouterr().err)
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == before
    assert main(["-q", "demo", "-o", str(tmp_path / "out")]) == 0     # demo writes cluster's
    assert main(["report", str(tmp_path / "out")]) == 0               # report adds to it
    assert json.loads((tmp_path / "out" / MARKER).read_text())["command"] == "cluster"
    assert cluster(src, tmp_path / "out", capsys)[0] == 0


def test_replacing_an_earlier_run_is_said(tmp_path, capsys):
    """A run into an existing result folder replaced it without a word."""
    out = tmp_path / "out"
    src = corpus_csv(tmp_path / "l.csv")
    for said in (False, True):
        assert main(["cluster", str(src), "-k", "2", "--min-df", "1", "-o", str(out)]) == 0
        err = capsys.readouterr().err
        assert ("holds an earlier run's results: they are replaced once this run's are "
                "written" in err) is said


def test_a_run_holds_its_folder_from_its_start_to_its_end(tmp_path, capsys, docnmf_env):
    """The lock was taken only when the results were written: a second run into the folder
    started meanwhile was accepted (and replaced later), and a docnmf report taken at the
    moment the first run reached its writing made it fail, its work lost."""
    out = tmp_path / "out"
    assert cluster(corpus_csv(tmp_path / "l.csv"), out, capsys)[0] == 0     # a folder to replace
    first = subprocess.Popen(
        [sys.executable, "-m", "docnmf", "cluster", "demo", "-k", "auto", "--k-range", "2-25",
         "-o", str(out)], stderr=subprocess.PIPE, text=True,
        env=docnmf_env)
    try:
        assert first.stderr.readline()      # it has started: its lock is held
        code, _, err = cluster(tmp_path / "l.csv", out, capsys)
        assert code == 2 and "another docnmf run is writing to" in err
        assert main(["report", str(out)]) == 2
        assert "another docnmf run is writing to" in capsys.readouterr().err
        _, rest = first.communicate(timeout=300)
    finally:
        first.kill()
        first.wait()
    assert first.returncode == 0, rest
    assert json.loads((out / "run.json").read_text())["corpus"]["name"] == "demo"
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.")]


def _publish_twice(out: Path, resume=()):
    for text in ("old", "new"):
        with docnmf_io.OutputFolder(out, resume=resume) as staging:
            (staging / "results.jsonl").write_text(f'{{"run": "{text}"}}\n')
            (staging / text).write_text(text)


@pytest.mark.parametrize("resume", [(), ("*.jsonl",)])
def test_a_folder_replaced_is_never_missing_meanwhile(tmp_path, monkeypatch, resume):
    """The old folder was renamed aside before the new one was renamed in: a reader looking
    in between found no folder."""
    if docnmf_io._renameat2() is None:
        pytest.skip("renameat2 is Linux's (glibc 2.28 or later); elsewhere two renames remain")
    out = tmp_path / "out"
    rename = os.rename

    def checked_rename(a, b):
        there = out.is_dir()
        rename(a, b)
        assert out.is_dir() or not there
    monkeypatch.setattr(os, "rename", checked_rename)
    _publish_twice(out, resume)
    assert sorted(p.name for p in out.iterdir()) == [docnmf_io.MARKER, "new", "results.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]     # nothing left beside it


def test_where_the_folders_cannot_be_swapped_they_are_renamed(tmp_path, monkeypatch):
    monkeypatch.setattr(docnmf_io, "_renameat2", lambda: None)
    _publish_twice(tmp_path / "out", ("*.jsonl",))
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [docnmf_io.MARKER, "new",
                                                                     "results.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_kill_around_the_swap_of_a_resumable_run_loses_no_work_and_resumes_no_old_folder(
        tmp_path, monkeypatch):
    """The .partial folder was renamed to a staging name before the swap: a kill in between
    left the finished runs where the next run removes what killed runs leave."""
    if docnmf_io._renameat2() is None:
        pytest.skip("renameat2 is Linux's (glibc 2.28 or later); elsewhere two renames remain")
    out = tmp_path / "out"
    _publish_twice(out, ("*.jsonl",))
    # killed after marking the old folder, before the swap: the work stays where it was
    (out / docnmf_io.REPLACED).touch()
    (tmp_path / ".out.partial").mkdir()
    (tmp_path / ".out.partial" / "results.jsonl").write_text('{"run": "work"}\n')
    with docnmf_io.OutputFolder(out, resume=("*.jsonl",)) as staging:
        assert (staging / "results.jsonl").read_text() == '{"run": "work"}\n'    # taken up
        (staging / "results.jsonl").write_text('{"run": "third"}\n')
        # killed after the swap, before the old folder (now at .out.partial) was removed
        monkeypatch.setattr(docnmf_io.OutputFolder, "_tidy", lambda self, old: None)
    monkeypatch.undo()
    assert (tmp_path / ".out.partial" / docnmf_io.REPLACED).exists()
    assert sorted(p.name for p in out.iterdir()) == [docnmf_io.MARKER, "results.jsonl"]
    with docnmf_io.OutputFolder(out, resume=("*.jsonl",)) as staging:
        # seeded from the published folder, not from the old one left at .partial
        assert (staging / "results.jsonl").read_text() == '{"run": "third"}\n'
        assert sorted(p.name for p in staging.iterdir()) == ["results.jsonl"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_a_run_that_fails_as_it_starts_leaves_no_folder_made_for_it(tmp_path, monkeypatch):
    """A failure after the parent was made but before the block ran (the staging folder not
    made: a full disk, no file descriptors left) left the parent, which __exit__ removes for a
    failure inside the block."""
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(docnmf_io.tempfile, "mkdtemp", full)
    with pytest.raises(OSError, match="No space"), OutputFolder(tmp_path / "new" / "out"):
        pass
    assert list(tmp_path.iterdir()) == []
