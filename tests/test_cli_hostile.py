"""Arguments and files a new user gets wrong: one line on standard error, exit status 2, and
no work done first."""

import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.io

from docnmf.cli import main

from .conftest import run_python

WORDS = ["comet orbit planet", "telescope star galaxy", "garlic onion butter", "oven dough bread"]


@pytest.fixture
def docs(tmp_path):
    path = tmp_path / "docs.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "text", "label"])
        w.writerows((f"d{i}", WORDS[i % 4] + f" w{i}", "ab"[i % 4 // 2]) for i in range(12))
    return path


def run(capsys, *argv):
    try:
        code = main(["-q", *argv])
    except SystemExit as exit_:  # argparse refuses a bad value this way, with status 2
        code = exit_.code
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


@pytest.mark.parametrize("args, message", [
    (["--seed", "-5"], "--seed: expected a seed from 0"),
    (["--max-df", "-1"], "--max-df: expected a finite number >= 0"),
    (["--min-df", "1.5"], "--min-df: expected a whole number of documents or a fraction"),
    (["--max-df", "0"], "--max-df: must be above 0"),
    (["--max-df", "1"], "--max-df 1 (documents) is below --min-df 2: no term would be kept"),
    # what the corpus refutes, in the options' names (it said "nmf: max_df=0.5 ... min_df=0.6")
    (["--min-df", "0.6", "--max-df", "0.5"],
     "error: --max-df 0.5 (6 of the 12 documents) is below --min-df 0.6 (7.2)"),
    (["--tol", "nan"], "--tol: expected a finite number >= 0"),
    (["--tol", "-1"], "--tol: expected a finite number >= 0"),
    (["--method", "lccf", "--lam", "inf"], "--lam: expected a finite number >= 0"),
])
def test_bad_numbers_are_refused(docs, tmp_path, capsys, args, message):
    code, out, err = run(capsys, "cluster", str(docs), "-k", "2", "-o", str(tmp_path / "o"),
                         *args)
    assert code == 2 and message in err and not (tmp_path / "o").exists()


@pytest.mark.parametrize("argv, named", [
    (["cluster", "", "-k", "2"], "input"), (["summarize", ""], "input"),
    (["keywords", "", "-k", "2"], "input"), (["choose-k", ""], "input"),
    (["evaluate", " "], "input"), (["assign", "", "DOCS"], "model"),
    (["assign", "MODEL", ""], "input"), (["report", ""], "outdir"),
    (["cluster", "DOCS", "-k", "2", "--method", "ssnmf", "--must-link", ""], "--must-link"),
    (["cluster", "DOCS", "-k", "2", "--method", "ssnmf", "--cannot-link", ""], "--cannot-link")])
def test_an_empty_name_is_refused(docs, tmp_path, capsys, monkeypatch, argv, named):
    """An unset variable in 'docnmf cluster "$DIR"' left '', which Path reads as '.': the
    command clustered the folder it ran in and wrote its results into it."""
    (tmp_path / "model").mkdir()
    monkeypatch.chdir(tmp_path)
    argv = [{"DOCS": str(docs), "MODEL": "model"}.get(a, a) for a in argv]
    code, out, err = run(capsys, *argv)
    what = "a file or folder's name" if named != "input" else "a folder, file or dataset name"
    blank = " " if "evaluate" in argv else ""
    assert (code, out) == (2, "")
    assert f"argument {named}: expected {what}, got {blank!r}\n" in err
    assert sorted(os.listdir(tmp_path)) == ["docs.csv", "model"]


def test_summarize_takes_method_names_in_any_case(docs, capsys):
    """summarize refused '--method LEAD' and '--cluster-method KM', where cluster's --method
    takes 'KM' as km."""
    for given in (["--method", "LEAD"], ["-k", "2", "--cluster-method", "KM"]):
        said = [run(capsys, "summarize", str(docs), "--length", "12w", *argv)
                for argv in (given, [a.lower() for a in given])]
        assert said[0] == said[1] and said[0][0] == 0 and said[0][1]


def test_a_document_frequency_with_a_point_is_a_fraction():
    from docnmf.cli import _df

    assert [_df(t) for t in ("1", "3", "1.0", "0.5", "1e0", "2.0")] == [1, 3, 1.0, 0.5, 1.0, 2]
    assert isinstance(_df("1.0"), float) and isinstance(_df("1"), int)


@pytest.mark.parametrize("k_range, message", [("2-100000000", "more than 1,000 cluster numbers"),
                                               ("0-3", "at least 2"), ("2-x", "expects e.g."),
                                               ("5-2,7", "5-2 runs backwards")])
def test_absurd_k_ranges_are_refused_at_once(docs, tmp_path, capsys, k_range, message):
    code, _, err = run(capsys, "evaluate", str(docs), "--k-range", k_range,
                       "-o", str(tmp_path / "o"))
    assert code == 2 and message in err


def test_runs_beyond_reason_are_refused(docs, tmp_path, capsys):
    code, _, err = run(capsys, "evaluate", str(docs), "--runs", "100000000",
                       "-o", str(tmp_path / "o"))
    assert code == 2 and "at most 10,000" in err


@pytest.mark.parametrize("argv", [
    ["cluster", "-k", "2", "--restarts", "100000000"],     # the consensus's k-means restarts
    ["cluster", "-k", "2", "--method", "km", "--restarts", "100000000"],
    ["keywords", "-k", "2", "--restarts", "100000000"],
    ["choose-k", "--k-range", "2-3", "--runs", "100000000"],
])
def test_restarts_beyond_reason_are_refused_before_any_work(docs, tmp_path, capsys, argv):
    code, _, err = run(capsys, argv[0], str(docs), *argv[1:], "-o", str(tmp_path / "o"))
    assert code == 2 and "at most 10,000" in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("option, said", [
    ("--segments", "not enough memory for this run (12 documents x n_segments=100,000,000"),
    # more topics than terms is refused first, before any size is reckoned
    ("--topics", "n_topics=100000000 asks for 100,000,000 term topics of documents with"),
])
def test_nma_sizes_no_machine_could_hold_are_refused_before_allocating(docs, tmp_path, capsys,
                                                                        option, said):
    code, _, err = run(capsys, "cluster", str(docs), "-k", "2", "--method", "nma", option,
                       "100000000", "-o", str(tmp_path / "o"))
    assert code == 2 and said in err
    assert not (tmp_path / "o").exists()


def test_nma_topics_no_machine_could_hold_are_refused_before_allocating():
    from docnmf.cluster.nma import NMAClustering

    with pytest.raises(MemoryError, match=r"n_topics=\(3, 10,000,000,000\) for 6 documents"):
        NMAClustering(2, n_topics=(3, 10**10), n_init=1).fit(
            [np.eye(1, 4, i % 4) + 0.1 for i in range(6)])


def test_broken_csv_is_one_line_with_file_and_line(tmp_path, capsys):
    f = tmp_path / "bad.csv"
    f.write_text('id,text\n1,fine\n2,"never closed\n3,lost\n')
    code, _, err = run(capsys, "cluster", str(f), "-k", "2", "-o", str(tmp_path / "o"))
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("docnmf: error: ") and "bad.csv, line 3" in err


@pytest.mark.parametrize("content, message", [
    (b"", "holds no pair"),
    (b"d100,d200\nd1,d3\n", "unknown document ids: line 1: 'd100'"),  # not a header
    (b"d1,d3\nd\xe9,d5\n", "line 2: not UTF-8"),
])
def test_constraint_files_that_give_no_constraint_are_errors(docs, tmp_path, capsys, content,
                                                              message):
    ml = tmp_path / "ml.csv"
    ml.write_bytes(content)
    code, out, err = run(capsys, "cluster", str(docs), "-k", "2", "--method", "ssnmf",
                         "--must-link", str(ml), "-o", str(tmp_path / "o"))
    assert code == 2 and err.startswith("docnmf: error: ") and out == "" and message in err


def test_a_constraint_file_that_is_a_pipe_or_standard_input_is_said_so(docs, tmp_path, capsys,
                                                                         monkeypatch):
    """`--must-link <(cut ...)` (a pipe) and `--must-link -` were 'no such constraint file',
    about a path that exists or a name that means standard input."""
    fifo = tmp_path / "pairs"
    os.mkfifo(fifo)
    monkeypatch.chdir(tmp_path)
    for given, message in ((str(fifo), f"{fifo} is neither a file nor a folder (a pipe"),
                           ("-", "'-': docnmf does not read standard input")):
        code, out, err = run(capsys, "cluster", str(docs), "-k", "2", "--method", "ssnmf",
                             "--must-link", given, "-o", str(tmp_path / "o"))
        assert (code, out) == (2, "") and err.startswith(f"docnmf: error: {message}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs.csv", "pairs"]


def test_contradicting_constraint_files_end_with_one_line_and_no_output(docs, tmp_path, capsys):
    for name, content in (("ml.csv", "d0,d4\n"), ("cl.csv", "d4,d0\n")):
        (tmp_path / name).write_text(content)
    code, out, err = run(capsys, "cluster", str(docs), "-k", "2", "--method", "ssnmf",
                         "--min-df", "1", "--must-link", str(tmp_path / "ml.csv"),
                         "--cannot-link", str(tmp_path / "cl.csv"), "-o", str(tmp_path / "o"))
    errors = [line for line in err.splitlines() if "error" in line]
    assert code == 2 and out == "" and len(errors) == 1
    assert errors[0].startswith("docnmf: error: cannot-link pairs between documents that "
                                "must-links put in one group: (d")
    # no output folder, and no staging or lock left beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cl.csv", "docs.csv", "ml.csv"]


def test_constraint_pairs_are_reported_and_recorded(docs, tmp_path, capsys):
    ml = tmp_path / "ml.csv"
    ml.write_text("doc_a,doc_b\nd0,d4\nd1,d5\n")
    code = main(["cluster", str(docs), "-k", "2", "--method", "ssnmf", "--min-df", "1",
                 "--must-link", str(ml), "-o", str(tmp_path / "o")])
    assert code == 0 and f"read 2 must-link pairs from {ml}" in capsys.readouterr().err
    record = json.loads((tmp_path / "o" / "run.json").read_text())
    assert record["parameters"]["constraint_pairs"] == {"must_link": 2}


def test_matrix_files_that_cannot_be_used_are_errors(tmp_path, capsys):
    X = np.random.default_rng(0).random((6, 4))
    X[0, 0] = -3
    scipy.io.savemat(tmp_path / "neg.mat", {"fea": X, "gnd": np.arange(6) % 2})
    (tmp_path / "garbage.mat").write_bytes(bytes(range(256)) * 10)
    for name, message in [("neg.mat", "negative entries"), ("garbage.mat", "not a MATLAB file")]:
        code, _, err = run(capsys, "cluster", str(tmp_path / name), "-k", "2",
                           "-o", str(tmp_path / "o"))
        assert code == 2 and message in err


def test_vocabulary_options_for_a_count_matrix_are_refused_not_ignored(tmp_path, capsys):
    rng = np.random.default_rng(0)
    X = np.vstack([rng.poisson(3, (6, 8)) * np.repeat([[1, 0], [0, 1]], 4, axis=1)[c]
                   for c in (0, 1)]).astype(float)
    scipy.io.savemat(tmp_path / "counts.mat", {"fea": X, "gnd": np.repeat([0, 1], 6)})
    for options in (["--min-df", "3"], ["--max-features", "5", "--no-stem"],
                    ["--token-pattern", r"\w+"]):
        code, _, err = run(capsys, "cluster", str(tmp_path / "counts.mat"), "-k", "2",
                           *options, "-o", str(tmp_path / "o"))
        flags = ", ".join(o for o in options if o.startswith("--"))
        assert code == 2 and f"{flags}: for texts; " in err and "is a count matrix" in err
    assert not (tmp_path / "o").exists()
    code, _, err = run(capsys, "cluster", str(tmp_path / "counts.mat"), "-k", "2",
                       "--tf", "sublinear", "-o", str(tmp_path / "o"))
    assert code == 0, err
    record = json.loads((tmp_path / "o" / "run.json").read_text())
    assert record["parameters"]["vectorizer"] == {"tf": "sublinear", "idf": "xu"}


def test_links_in_a_folder_are_a_one_line_warning(tmp_path, capsys):
    root = tmp_path / "docs"
    for label, words in (("a", WORDS[:2]), ("b", WORDS[2:])):
        (root / label).mkdir(parents=True)
        for i, w in enumerate(words * 2):
            (root / label / f"{i}.txt").write_text(f"{w} x{i}")
    (root / "a" / "dangling.txt").symlink_to("nowhere")
    (root / "a" / "loop").symlink_to("loop")
    code, _, err = run(capsys, "cluster", str(root), "-k", "2", "--min-df", "1",
                       "-o", str(tmp_path / "o"))
    assert code == 0
    assert "docnmf: warning: 2 entries of" in err and "a/dangling.txt" in err


def test_estimator_refusals_are_usage_errors(tmp_path, capsys):
    f = tmp_path / "d.csv"
    f.write_text("id,text\n1,alpha beta\n2,alpha gamma\n3,beta gamma\n")
    code, _, err = run(capsys, "cluster", str(f), "-k", "2", "--min-df", "1", "--method", "lccf",
                       "--neighbors", "1000", "-o", str(tmp_path / "o"))
    assert code in (0, 2)  # either fitted or refused, never a traceback


def test_an_interrupt_wrapped_by_an_import_is_still_status_130(monkeypatch, capsys):
    """A Ctrl-C inside an import can surface as another error caused by KeyboardInterrupt
    (matplotlib: "Error calling __set_name__"); found by the long Ctrl-C loop of test_faults."""
    from docnmf import cli

    def interrupted_import(args):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as exc:
            raise RuntimeError("Error calling __set_name__") from exc

    def broken(args):
        raise RuntimeError("a real bug")

    monkeypatch.setitem(cli.COMMANDS, "demo", interrupted_import)
    assert cli.main(["demo"]) == 130
    assert capsys.readouterr().err.strip().splitlines() == ["docnmf: interrupted"]
    monkeypatch.setitem(cli.COMMANDS, "demo", broken)
    with pytest.raises(RuntimeError, match="a real bug"):
        cli.main(["demo"])


def test_a_ctrl_c_while_results_are_written_takes_effect_after_the_writing():
    """A real SIGINT inside the held section does not cut it; KeyboardInterrupt follows it
    (found by the long Ctrl-C loop: interrupts inside matplotlib were wrapped or dropped)."""
    import os
    import signal

    from docnmf.cli import _interrupts_held

    done = []
    with pytest.raises(KeyboardInterrupt), _interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):       # the handler runs between bytecodes: give it some
            done.append(1)
    assert len(done) == 1000
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)   # ignored stays ignored
    try:
        with _interrupts_held():
            os.kill(os.getpid(), signal.SIGINT)
            done.append(1)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_second_ctrl_c_while_results_are_written_stops_at_once(capfd):
    """Writing the results of 150,000 documents held Ctrl-C for 7 to 13 s, and three of them
    got no word: the first is now acknowledged, the second stops the writing."""
    import os
    import signal

    from docnmf.cli import _interrupts_held

    done = []
    with pytest.raises(KeyboardInterrupt), _interrupts_held():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            done.append(1)
        said = capfd.readouterr().err
        assert "stopping once the files being written are done" in said
        assert "then discarded and the folder keeps what it held" in said
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            done.append(2)
    assert 1000 <= len(done) < 2000
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_documents_all_alike_get_a_report_not_a_crash(tmp_path):
    """k-means on identical documents gives every one the same memberships; drawing their map
    crashed the process in t-SNE's native code (run apart, so a crash fails only this test)."""
    import subprocess
    import sys

    folder = tmp_path / "same"
    folder.mkdir()
    for i in range(20):
        (folder / f"d{i}.txt").write_text("apple banana cherry market price report\n")
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "docnmf", "-q", "cluster", str(folder), "-k", "2",
                           "--method", "km", "--idf", "none", "--max-df", "1.0", "-o", str(out)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    data = json.loads((out / "report_data.json").read_text())
    assert "same memberships" in data["map"]["method"]
    assert (out / "report.html").is_file()


def test_fs_nmf_s_solver_is_not_the_solver_option(docs, tmp_path, capsys):
    """FS-NMF's own ``solver`` picks between its update schemes: --solver (NMF's mu or hals)
    does not apply to it, and it is not listed among the methods that take --solver."""
    code, _, err = run(capsys, "cluster", str(docs), "-k", "2", "--method", "fsnmf",
                       "--solver", "mu", "-o", str(tmp_path / "o"))
    assert code == 2 and "--solver does not apply to fsnmf" in err
    code, _, err = run(capsys, "cluster", str(docs), "-k", "2", "--method", "km",
                       "--solver", "mu", "-o", str(tmp_path / "o"))
    assert code == 2 and err.strip().endswith("methods that take it: nmf, nmf-ncw")


@pytest.mark.parametrize("texts, says", [
    # each document one run of characters, none repeated: one token each, in one document each
    (["天文学家观测到一颗明亮的彗星和遥远的星系"[i:] + "天文学家观测到一颗明亮的彗星和遥远的星系"[:i]
      for i in range(9)], "split the texts into words with spaces first"),
    (["12 34.5 99", "2024-01-01 17", "3.14 2.71 1.41"], "no word of two or more letters"),
    (["the of and", "it is was", "and the it"], "every word is an English stop word"),
    # product codes and the like: words, but with digits in them (a stop-word document beside)
    (["the and of", "covid19 h1n1 x86 mp3 b2b", "h1n1 x86 mp3 b2b g7"],
     ("the texts' words hold digits (covid19, h1n1, x86), and an index term is a run of two "
      "or more letters: --token-pattern '(?u)\\b\\w\\w+\\b' (token_pattern in Python) keeps "
      "such words")),
])
def test_texts_that_give_no_index_term_say_why(tmp_path, capsys, texts, says):
    folder = tmp_path / "docs"
    folder.mkdir()
    for i, text in enumerate(texts * (9 // len(texts))):
        (folder / f"{i}.txt").write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "cluster", str(folder), "-k", "2", "-o", str(tmp_path / "o"))
    assert code == 2 and "all documents are empty after preprocessing" in err and says in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "o").exists()


def test_a_token_pattern_of_ones_own_makes_words_with_digits_terms(tmp_path, capsys):
    """The pattern reaches the vectorizer, the model (assign reads with it) and the keywords."""
    docs = tmp_path / "docs.csv"
    rows = ["covid19 vaccine h1n1 flu"] * 4 + ["mp3 player x86 laptop"] * 4
    docs.write_text("id,text\n" + "".join(f"d{i},{t}\n" for i, t in enumerate(rows)))
    code, _, err = run(capsys, "cluster", str(docs), "-k", "2", "--method", "nmf",
                       "--token-pattern", r"(?u)\b\w\w+\b", "-o", str(tmp_path / "o"))
    assert code == 0, err
    clusters = (tmp_path / "o" / "clusters.csv").read_text()
    assert "covid19" in clusters and "mp3" in clusters
    model = json.loads((tmp_path / "o" / "model" / "model.json").read_text())
    assert model["vectorizer"]["params"]["token_pattern"] == r"(?u)\b\w\w+\b"
    (tmp_path / "new.csv").write_text("id,text\nn1,h1n1 covid19\n")
    code, _, err = run(capsys, "assign", str(tmp_path / "o"), str(tmp_path / "new.csv"),
                       "-o", str(tmp_path / "a"))
    assert code == 0, err
    with open(tmp_path / "o" / "assignments.csv") as fh:
        fitted = {r["id"]: r["cluster"] for r in csv.DictReader(fh)}
    with open(tmp_path / "a" / "assignments.csv") as fh:
        assert next(csv.DictReader(fh))["cluster"] == fitted["d0"]   # read as covid19 h1n1
    for pattern, says in (("(", "'(' is not a regular expression"),
                          ("a*", "'a*' matches an empty word")):
        code, _, err = run(capsys, "cluster", str(docs), "-k", "2", "--token-pattern", pattern,
                           "-o", str(tmp_path / "x"))
        assert code == 2 and says in err and not (tmp_path / "x").exists()


def _command(*argv, **options):
    """The docnmf command in a process of its own, as a shell would start it."""
    return subprocess.run([sys.executable, "-m", "docnmf", *argv], text=True, check=False,
                          stderr=subprocess.PIPE, timeout=300, **options)


def test_standard_output_closed_or_full_is_no_traceback(docs, tmp_path):
    """`docnmf ... >&-` (cron, daemons) ended with AttributeError after writing the folder;
    `> /dev/full` with OSError tracebacks, for commands whose only result is what they print."""
    closed = _command("cluster", str(docs), "-k", "2", "--min-df", "1", "-o",
                      str(tmp_path / "closed"), preexec_fn=lambda: os.close(1))
    assert closed.returncode == 0 and "Traceback" not in closed.stderr, closed.stderr
    assert (tmp_path / "closed" / "assignments.csv").is_file()
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "w") as full:
        for argv in (["keywords", str(docs), "-k", "2", "--min-df", "1"],
                     ["cluster", str(docs), "-k", "2", "--min-df", "1", "-o",
                      str(tmp_path / "full")]):
            done = _command(*argv, stdout=full)
            assert done.returncode == 1, done.stderr
            assert done.stderr.strip().splitlines()[-1] == \
                "docnmf: error: cannot write to standard output: No space left on device"
            assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


def test_a_notebook_s_plot_backend_and_warnings_as_errors_change_nothing(docs, tmp_path):
    """From a notebook cell, MPLBACKEND names the kernel's inline backend, which the command's
    environment lacks: choose-k failed after all its work. Under PYTHONWARNINGS=error a
    skipped binary file stopped the command with a traceback."""
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(12):
        (folder / f"d{i}.txt").write_text(WORDS[i % 4] + f" w{i}", encoding="utf-8")
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    env = {**os.environ, "MPLBACKEND": "module://matplotlib_inline.backend_inline",
           "PYTHONWARNINGS": "error"}
    done = _command("choose-k", str(folder), "--k-range", "2-3", "--restarts", "2", "--min-df",
                    "1", "-o", str(tmp_path / "ck"), env=env, stdout=subprocess.DEVNULL)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "docnmf: warning: 1 entry of" in done.stderr and "image.png" in done.stderr
    assert (tmp_path / "ck" / "choose_k.png").stat().st_size > 1000


def test_an_output_path_that_loops_is_one_line(docs, tmp_path, capsys):
    """pathlib raised RuntimeError: Symlink loop from ..."""
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    for out in (tmp_path / "a", tmp_path / "a" / "sub"):
        code, _, err = run(capsys, "cluster", str(docs), "-k", "2", "-o", str(out))
        assert code == 2 and err.strip() == (f"docnmf: error: -o {out}: its path runs into a "
                                             "loop of symbolic links; give another folder")


def test_a_ctrl_c_while_the_command_line_is_imported_is_one_line():
    """The first hundredths of a second (importing docnmf.cli) gave a KeyboardInterrupt
    traceback; a finder interrupts that import here as a Ctrl-C would."""
    code = ("import sys\n"
            "class Interrupt:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'docnmf.cli':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Interrupt())\n"
            "from docnmf.__main__ import run\n"
            "sys.exit(run())\n")
    done = run_python(code)
    assert (done.returncode, done.stderr) == (130, "docnmf: interrupted\n")


def test_under_a_memory_limit_openblas_gets_one_thread_and_running_out_is_one_line(
        monkeypatch, capsys):
    """Under ulimit -v, OpenBLAS's threads' buffers did not fit and it retried for ever, deaf
    to Ctrl-C; a limit too small to import the command's modules gave a MemoryError
    traceback."""
    code = ("import os, resource\n"
            "resource.setrlimit(resource.RLIMIT_AS, (16 * 2**30, resource.RLIM_INFINITY))\n"
            "from docnmf.cli import _one_blas_thread_under_a_memory_limit as f\n"
            "f(); print(os.environ.get('OPENBLAS_NUM_THREADS'))\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = run_python(code, env=env)
    assert done.stdout.strip() == "1", done.stderr
    done = run_python(code, env={**env, "OPENBLAS_NUM_THREADS": "2"})
    assert done.stdout.strip() == "2"         # the user's own setting stands
    import docnmf.cli

    def out_of_memory():
        raise MemoryError

    monkeypatch.setattr(docnmf.cli, "build_parser", out_of_memory)
    assert main(["cluster", "x", "-k", "2"]) == 2
    assert capsys.readouterr().err == ("docnmf: error: not enough memory to start the command; "
                                       "raise the memory limit (ulimit -v)\n")


def test_too_small_a_memory_limit_is_refused_at_once():
    """Under 150-300 MB loading NumPy and SciPy failed with tracebacks, or OpenBLAS retried a
    buffer for ever, deaf to Ctrl-C and SIGTERM (170-190 MB)."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (400 * 2**20, resource.RLIM_INFINITY))

    done = subprocess.run([sys.executable, "-m", "docnmf", "demo"], text=True,
                          capture_output=True, preexec_fn=limit, timeout=60, check=False)
    assert (done.returncode, done.stderr) == (2, (
        "docnmf: error: the memory limit (ulimit -v) is 400 MiB; docnmf needs at least 600 MiB "
        "to load its numerical libraries\n"))


def test_a_library_that_cannot_be_loaded_or_an_interrupted_import_is_one_line(monkeypatch,
                                                                             capsys):
    """Under a memory limit a library's code could not be mapped ("failed to map segment from
    shared object"): 17-44 lines of traceback. A Ctrl-C while numpy was imported came out as
    numpy's ImportError and its 40 lines of advice on a bad install."""
    import docnmf.cli

    def unmappable():
        raise ImportError("libopenblas.so: failed to map segment from shared object")

    monkeypatch.setattr(docnmf.cli, "build_parser", unmappable)
    monkeypatch.setattr(docnmf.cli, "_address_space_limit", lambda: 2**30)
    assert main(["demo"]) == 2
    assert capsys.readouterr().err == (
        "docnmf: error: a library could not be loaded under the memory limit (ulimit -v): "
        "libopenblas.so: failed to map segment from shared object; raise the limit\n")
    monkeypatch.setattr(docnmf.cli, "_INTERRUPTS", [2])     # a Ctrl-C came meanwhile
    for error in (ImportError, RuntimeError):
        def interrupted_import(error=error):
            raise error('PyCapsule_Import could not import module "datetime"')

        monkeypatch.setattr(docnmf.cli, "build_parser", interrupted_import)
        assert main(["demo"]) == 130
        assert capsys.readouterr().err == "docnmf: interrupted\n"


@pytest.mark.parametrize("name, ending", [("posts.csv ", ".csv "), ("posts.csv.", ".csv."),
                                         ("posts.JSONL. ", ".JSONL. ")])
def test_a_table_name_with_trailing_characters_is_said_to_be_one_document(tmp_path, capsys,
                                                                          name, ending):
    """'posts.csv ' was read as one text document; the only word was '-k 2 is more than the 1
    document'."""
    path = tmp_path / name
    path.write_text("id,text\n" + "".join(f"d{i},stars and planets {i}\n" for i in range(6)))
    assert main(["cluster", str(path), "-k", "2", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"{str(path)!r} ends in {ending!r}, not {ending.rstrip(' .')}: it is read as one " \
           "text document, not as a table" in err
    assert main(["-q", "cluster", str(tmp_path / "posts.csv"), "-k", "2",
                 "-o", str(tmp_path / "out")]) == 2       # (no such file: no such warning)
    assert "ends in" not in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32" or sys.platform == "darwin",
                    reason="names that are not UTF-8 need a POSIX file system that keeps bytes")
def test_a_folder_name_that_is_not_utf8_is_printed_as_its_ids_are(docs, tmp_path):
    """ids of files whose names are not UTF-8 were shown with \\xNN, as the README says, but
    the paths the command printed (its progress, 'wrote ...') as \\udcff, a surrogate escape."""
    out = os.fsdecode(bytes(tmp_path) + b"/o\xffut")
    done = _command("cluster", str(docs), "-k", "2", "--min-df", "1", "-o", out,
                    stdout=subprocess.PIPE)
    assert done.returncode == 0, done.stderr
    assert "wrote " + str(tmp_path) + "/o\\xffut/assignments.csv" in done.stdout
    assert "\\udc" not in done.stdout + done.stderr


@pytest.mark.parametrize("option", ["--text-column", "--label-column", "--id-column"])
def test_an_empty_column_name_is_no_column_whichever_option_names_it(option, tmp_path, capsys):
    """--text-column "" (an unset variable in --text-column "$COL") read the column 'text' and
    clustered it, where an empty --label-column or --id-column is a column not found."""
    table = tmp_path / "t.csv"
    table.write_text("id,text,label\n" + "".join(
        f"d{i},{'apple fruit juice' if i % 2 else 'engine motor car'} {i},c{i % 2}\n"
        for i in range(8)), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["-q", "cluster", str(table), "-k", "2", option, "", "-o", str(out)]) == 2
    assert "column '' not found" in capsys.readouterr().err
    assert not out.exists()
