"""The command line, in-process with tmp_path and once as a real subprocess."""

import csv
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from docnmf.cli import main
from docnmf.methods import DEFAULT_METHOD, make_estimator



@pytest.fixture
def folder(tmp_path, text_folder, toy_topics):
    return text_folder(tmp_path / "docs", toy_topics)


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_demo(capsys):
    code, out, err = run(["demo"], capsys)
    assert code == 0
    assert "accuracy" in out and "cluster  4" in out
    # progress goes to standard error
    assert f"clustering 80 documents into 5 clusters with {DEFAULT_METHOD}" in err


def test_the_demo_corpus_by_name(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(["datasets"], capsys)
    assert code == 0 and re.search(r"^demo +found +the embedded demo corpus", out, re.MULTILINE)
    code, out, err = run(["cluster", "demo", "-k", "5", "-o", str(tmp_path / "out")], capsys)
    assert code == 0, err
    assert "80 documents" in out and "against 5 labelled classes" in out


def test_the_default_replaces_its_degenerate_result_a_named_method_does_not(
        tmp_path, capsys, text_folder, outlier_topics):
    docs = text_folder(tmp_path / "docs", outlier_topics)
    code, out, err = run(["cluster", str(docs), "-k", "3", "-o", str(tmp_path / "out")], capsys)
    assert code == 0, err
    assert ("lccf-ncw gave a degenerate result: 2 of its 3 clusters nearly empty (sizes 2, 2, "
            "240); clustering again with consensus") in err
    assert out.startswith("consensus on docs")
    record = json.loads((tmp_path / "out" / "run.json").read_text())
    assert record["parameters"]["method"] == "consensus"
    assert record["diagnostics"]["replaced"]["method"] == "lccf-ncw"
    html = (tmp_path / "out" / "report.html").read_text(encoding="utf-8")
    assert "lccf-ncw, the default, gave a degenerate result" in html
    assert "<td>consensus, in place of lccf-ncw (degenerate: see the findings)</td>" in html
    code, out, err = run(["cluster", str(docs), "-k", "3", "--method", "lccf-ncw",
                          "-o", str(tmp_path / "named")], capsys)
    assert code == 0 and "degenerate" not in err and out.startswith("lccf-ncw on docs")
    # one summary per cluster clusters as cluster does: guarded without --cluster-method
    code, out, err = run(["summarize", str(docs), "-k", "3", "--length", "5w"], capsys)
    assert code == 0 and "clustering again with consensus" in err
    code, out, err = run(["summarize", str(docs), "-k", "3", "--length", "5w",
                          "--cluster-method", "lccf-ncw"], capsys)
    assert code == 0 and "degenerate" not in err


def test_cluster_folder_writes_outputs(folder, tmp_path, capsys):
    before = {p: p.read_bytes() for p in folder.rglob("*.txt")}
    out_dir = tmp_path / "out"
    code, out, _ = run(["cluster", str(folder), "-k", "2", "--method", "consensus", "--min-df", "1",
                        "-o", str(out_dir)], capsys)
    assert code == 0
    with open(out_dir / "assignments.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["id"] for r in rows] == [f"{lab}/{i:03d}.txt" for lab in ("food", "space") for i in range(4)]
    assert {r["label"] for r in rows} == {"food", "space"}
    assert all(0 < float(r["membership"]) <= 1 for r in rows)
    by_label = {}
    for r in rows:
        by_label.setdefault(r["label"], set()).add(r["cluster"])
    assert all(len(c) == 1 for c in by_label.values())  # this toy split is clean
    with open(out_dir / "clusters.csv") as fh:
        clusters = list(csv.DictReader(fh))
    assert sorted(int(c["size"]) for c in clusters) == [4, 4]
    assert any("garlic" in c["top_keywords"] for c in clusters)
    record = json.loads((out_dir / "run.json").read_text())
    assert record["seed"] == 0 and record["parameters"]["method"] == "consensus"
    # the consensus: no objective per iteration; its members and how each agrees with it
    assert record["objective_history"] is None and len(record["restart_objectives"]) == 10
    assert list(record["consensus_members"]) == ["nmf-ncw/raw", "nmf/raw", "lsa/raw",
                                                 "nmf-ncw/sublinear", "nmf/sublinear",
                                                 "lsa/sublinear"]
    assert all(0 <= a <= 1 for a in record["consensus_members"].values())
    assert "numpy" in record["packages"] and record["timings"]["fit_s"] >= 0
    metrics = json.loads((out_dir / "metrics.json").read_text())
    assert metrics["accuracy"] == 1.0
    # scikit-learn's NMI normalizes by the mean by default: which one this is, is written
    assert metrics["nmi_normalization"] == "max"
    assert not list(out_dir.glob(".*.tmp"))  # no temporary files left behind
    assert {p: p.read_bytes() for p in folder.rglob("*.txt")} == before  # input untouched


def test_cluster_csv_and_ncw(tmp_path, capsys, toy_topics):
    path = tmp_path / "docs.csv"
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["doc", "body", "topic"])
        for label, texts in toy_topics.items():
            for i, text in enumerate(texts):
                w.writerow([f"{label}-{i}", text, label])
    code, out, _ = run(["cluster", str(path), "-k", "2", "--method", "nmf-ncw", "--min-df", "1",
                        "--text-column", "body", "--label-column", "topic", "--id-column", "doc",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and "accuracy 1.000" in out


@pytest.mark.parametrize("argv, message", [
    (["cluster", "no/such/folder", "-k", "2"], "no such file or folder"),
    (["cluster", "no_such_dataset_name", "-k", "2"], "no such file or folder, nor dataset: no_such_dataset_name"),
    (["cluster", "{folder}", "-k", "1"], "at least 2"),
    (["cluster", "{folder}", "-k", "9"], "more than the 8 documents"),
    (["cluster", "{empty}", "-k", "2"], "no documents"),
    (["cluster", "{stopwords}", "-k", "2"], "empty after preprocessing"),
    (["cluster", "{csv}", "-k", "2", "--text-column", "nope"], "nope"),
])
def test_bad_input_is_one_line_and_status_2(argv, message, folder, tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "sw").mkdir()
    for i in range(3):
        (tmp_path / "sw" / f"{i}.txt").write_text("the and of to a in 123")
    (tmp_path / "d.csv").write_text("text\nhello world\nanother doc\n")
    subst = {"{folder}": str(folder), "{empty}": str(tmp_path / "empty"),
             "{stopwords}": str(tmp_path / "sw"), "{csv}": str(tmp_path / "d.csv")}
    argv = [subst.get(a, a) for a in argv] + ["-o", str(tmp_path / "out")]
    code, out, err = run(argv, capsys)
    assert code == 2
    lines = [l for l in err.splitlines() if l.startswith("docnmf: error")]
    assert len(lines) == 1 and message in lines[0], err
    assert "Traceback" not in err


def test_datasets_lists_names(capsys):
    code, out, _ = run(["datasets"], capsys)
    assert code == 0
    for name in ("tdt2", "reuters21578", "20newsgroups", "classic3"):
        assert name in out


def test_real_subprocess(folder, tmp_path, docnmf_env):
    env = docnmf_env
    proc = subprocess.run([sys.executable, "-m", "docnmf", "cluster", str(folder), "-k", "2",
                           "--min-df", "1", "-o", str(tmp_path / "o")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "o" / "assignments.csv").exists()
    proc = subprocess.run([sys.executable, "-m", "docnmf", "cluster", str(tmp_path / "missing"),
                           "-k", "2"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


@pytest.mark.parametrize("option", [["--dask-workers", "2"], ["--scheduler", "tcp://127.0.0.1:1"]])
def test_the_dask_options_without_dask_are_one_line(option, tmp_path, docnmf_env):
    """Without the dask extra they ended in a traceback (the Dask subpackage's ImportError):
    here Python finds no dask, as where it is not installed."""
    code = ("import sys; sys.modules['dask'] = None; from docnmf.__main__ import run; "
            f"sys.argv = ['docnmf', 'cluster', 'demo', '-k', '5', *{option!r}, '-o', "
            f"{str(tmp_path / 'o')!r}]; sys.exit(run())")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=docnmf_env, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == ("docnmf: error: --scheduler and "
                                                    "--dask-workers need Dask: pip install "
                                                    "'docnmf[dask]'")
    assert "Traceback" not in proc.stderr and not (tmp_path / "o").exists()


@pytest.mark.parametrize("command", [["cluster", "-k", "2"], ["choose-k", "--k-range", "2-3"]])
def test_a_reader_that_stops_early_loses_no_result(command, folder, tmp_path, docnmf_env):
    """`docnmf ... | head`: standard output closed before anything is printed."""
    env = docnmf_env
    out = tmp_path / "o"
    proc = subprocess.Popen([sys.executable, "-m", "docnmf", command[0], str(folder), *command[1:],
                             "--min-df", "1", "-o", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 141, err
    assert b"Traceback" not in err and b"error" not in err
    written = {p.name for p in out.iterdir()}
    assert {"run.json", "assignments.csv"} <= written or {"choose_k.csv", "choose_k.json"} <= written
    assert not [p for p in tmp_path.iterdir() if "staging" in p.name]


def test_ssnmf_with_constraint_files(folder, tmp_path, capsys):
    ml = tmp_path / "ml.csv"
    ml.write_text("a,b\nspace/000.txt,space/001.txt\nfood/000.txt,food/002.txt\n")
    cl = tmp_path / "cl.csv"
    cl.write_text("space/000.txt,food/000.txt\n")  # no header
    code, out, _ = run(["cluster", str(folder), "-k", "2", "--method", "ssnmf", "--min-df", "1",
                        "--must-link", str(ml), "--cannot-link", str(cl),
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and "accuracy 1.000" in out
    with open(tmp_path / "o" / "assignments.csv") as fh:
        cluster = {r["id"]: r["cluster"] for r in csv.DictReader(fh)}
    assert cluster["space/000.txt"] == cluster["space/001.txt"] != cluster["food/000.txt"]
    # without constraint files the method runs unconstrained
    code, _, _ = run(["cluster", str(folder), "-k", "2", "--method", "ssnmf", "--min-df", "1",
                      "-o", str(tmp_path / "o2")], capsys)
    assert code == 0


def test_pairs_as_given_and_the_papers_setting(folder, tmp_path, capsys):
    """ssnmf-paper added every pair the given ones imply, which the paper does not (on four
    20 Newsgroups groups its accuracy fell from 0.79 to 0.49 with 0.5% of pairs), and the
    command line could not turn that off for ss-kk and ss-snc."""
    ml = tmp_path / "ml.csv"
    ml.write_text("space/000.txt,space/001.txt\nspace/001.txt,space/002.txt\n")

    def closure(method, *more):
        out = tmp_path / f"o-{method}-{len(more)}"
        code, _, err = run(["cluster", str(folder), "-k", "2", "--method", method, "--min-df",
                            "1", "--restarts", "2", "--must-link", str(ml), *more, "-o",
                            str(out)], capsys)
        assert code == 0, err
        return json.loads((out / "run.json").read_text())["parameters"]["estimator"]["closure"]

    assert closure("ssnmf-paper") is False
    assert closure("ss-snc") is True and closure("ss-snc", "--pairs-as-given") is False
    assert closure("ss-kk", "--pairs-as-given") is False
    # the repair of ssnmf keeps every must-link, the implied ones included
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "ssnmf",
                        "--pairs-as-given", "--must-link", str(ml), "-o", str(tmp_path / "x")],
                       capsys)
    assert code == 2 and ("--pairs-as-given does not apply to ssnmf (its repair keeps every "
                          "must-link, the implied ones included)") in err
    assert "methods that take it: ssnmf-paper, ss-kk, ss-snc" in err
    for method in ("ss-kk", "ss-snc", "ssnmf-paper"):
        assert make_estimator(method, 2, as_published=True).closure is False, method


def test_a_pair_file_read_says_its_guessed_header_and_repeated_pairs(folder, tmp_path, capsys):
    """A mistyped first pair was dropped as a header without a word, and a pair given three
    times was counted three times."""
    ml = tmp_path / "ml.csv"
    ml.write_text("space/000,space/001\nspace/000.txt,space/001.txt\n"
                  "space/001.txt,space/000.txt\nfood/000.txt,food/001.txt\n")
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "ssnmf", "--min-df", "1",
                        "--must-link", str(ml), "-o", str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert f"{ml}: line 1 ('space/000', 'space/001') read as a header, not a pair" in err
    assert f"read 3 must-link pairs from {ml} (2 different)" in err


def test_k_auto_reads_the_pair_files_before_its_search(folder, tmp_path, capsys):
    """A pair file naming an unknown document was refused after the whole search for k."""
    ml = tmp_path / "ml.csv"
    ml.write_text("space/000.txt,nope.txt\n")
    code, _, err = run(["cluster", str(folder), "-k", "auto", "--k-range", "2-3", "--method",
                        "ssnmf-ncw", "--min-df", "1", "--must-link", str(ml), "-o",
                        str(tmp_path / "o")], capsys)
    assert code == 2 and "nope.txt" in err
    assert "choosing k" not in err
    cl = tmp_path / "cl.csv"     # a cannot-link inside a must-linked group: also before it
    cl.write_text("space/000.txt,space/001.txt\n")
    ml.write_text("space/000.txt,space/001.txt\n")
    code, _, err = run(["cluster", str(folder), "-k", "auto", "--k-range", "2-3", "--method",
                        "ssnmf-ncw", "--min-df", "1", "--must-link", str(ml), "--cannot-link",
                        str(cl), "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and "cannot-link pairs between documents that must-links" in err
    assert "choosing k" not in err
    ml.write_text("space/000.txt,space/001.txt\n")
    code, _, err = run(["cluster", str(folder), "-k", "auto", "--k-range", "2-3", "--method",
                        "ssnmf-ncw", "--min-df", "1", "--must-link", str(ml), "-o",
                        str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert err.index("read 1 must-link pairs") < err.index("choosing k")
    assert "the search for k fits without the pairs" in err


@pytest.mark.parametrize("ml_text, method, message", [
    ("space/000.txt,nope.txt\n", "ssnmf", "nope.txt"),
    ("space/000.txt,space/000.txt\n", "ssnmf", "space/000.txt"),
    ("space/000.txt,food/000.txt\nfood/000.txt,space/001.txt\n", "ssnmf", "cannot-link"),
    ("space/000.txt,space/001.txt\n", "nmf", "semi-supervised method"),
])
def test_bad_constraints_are_one_line(ml_text, method, message, folder, tmp_path, capsys):
    ml = tmp_path / "ml.csv"
    ml.write_text(ml_text)
    cl = tmp_path / "cl.csv"
    cl.write_text("space/000.txt,space/001.txt\n")
    argv = ["cluster", str(folder), "-k", "2", "--method", method, "--min-df", "1",
            "--must-link", str(ml), "-o", str(tmp_path / "o")]
    if message == "cannot-link":
        argv += ["--cannot-link", str(cl)]
    code, _, err = run(argv, capsys)
    assert code == 2, err
    lines = [l for l in err.splitlines() if l.startswith("docnmf: error")]
    assert len(lines) == 1 and message in lines[0], err


def test_a_folder_given_as_a_constraint_file_is_named_as_a_folder(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "ssnmf", "--must-link",
                        str(folder), "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and f"{folder} is a folder, not a constraint file" in err


def test_nma_overlapping_writes_pairs(tmp_path, capsys):
    out_dir = tmp_path / "o"
    code, out, _ = run(["demo", "--method", "nma", "--restarts", "2", "-o", str(out_dir)], capsys)
    assert code == 0 and "accuracy" in out
    code, out, _ = run(["cluster", str(Path(__file__).resolve().parents[1] / "src" / "docnmf" /
                                      "data" / "demo.jsonl"), "-k", "5", "--method", "nma",
                        "--segments", "2", "--topics", "5", "--overlapping", "--restarts", "2",
                        "-o", str(out_dir)], capsys)
    assert code == 0
    with open(out_dir / "overlapping.csv") as fh:
        rows = list(csv.DictReader(fh))
    with open(out_dir / "assignments.csv") as fh:
        assigned = {r["id"]: r["cluster"] for r in csv.DictReader(fh)}
    ids = {r["id"] for r in rows}
    assert ids == set(assigned)  # every document has at least one row
    for doc, cluster in assigned.items():  # the disjoint label is one of its overlapping ones
        assert cluster in {r["cluster"] for r in rows if r["id"] == doc}
    assert all(0 < float(r["share"]) <= 1 for r in rows)
    record = json.loads((out_dir / "run.json").read_text())
    assert record["parameters"]["estimator"]["n_segments"] == 2
    # a cluster's size counts the documents with most of their segments in it; beside it, the
    # documents with any (a cluster "0 docs" and "empty" held segments of 22 documents)
    with open(out_dir / "clusters.csv") as fh:
        clusters = list(csv.DictReader(fh))
    for c in clusters:
        having = {r["id"] for r in rows if r["cluster"] == c["cluster"]}
        assert int(c["documents_with_segments"]) == len(having) >= int(c["size"])
        assert f"{c['size']:>5} docs ({len(having)} with segments)" in out
    # docnmf assign writes the placed documents' shares too (it wrote none)
    code, _, err = run(["assign", str(out_dir), str(Path(__file__).resolve().parents[1] / "src"
                                                    / "docnmf" / "data" / "demo.jsonl"),
                        "-o", str(tmp_path / "placed")], capsys)
    assert code == 0, err
    with open(tmp_path / "placed" / "overlapping.csv") as fh:
        assert {r["id"] for r in csv.DictReader(fh)} == set(assigned)


@pytest.mark.parametrize("segmenter", ["c99", "texttiling"])
def test_nma_cuts_documents_at_topic_shifts_when_asked(segmenter, tmp_path, capsys):
    """C99 and TextTiling were in the Python API only."""
    from docnmf.cli import SEGMENTER_NAMES
    from docnmf.text.segment import SEGMENTERS

    assert SEGMENTER_NAMES == tuple(SEGMENTERS)
    out_dir = tmp_path / "o"
    code, out, _ = run(["cluster", "demo", "-k", "5", "--method", "nma", "--segments", "2",
                        "--segmenter", segmenter, "--restarts", "1", "-o", str(out_dir)], capsys)
    assert code == 0 and "accuracy" in out
    record = json.loads((out_dir / "run.json").read_text())
    assert record["parameters"]["estimator"]["segmenter"] == segmenter
    code, _, err = run(["cluster", "demo", "-k", "5", "--segmenter", segmenter,
                        "-o", str(tmp_path / "p")], capsys)
    assert code == 2
    assert f"--segmenter does not apply to {DEFAULT_METHOD}; methods that take it: nma" in err


def test_overlapping_needs_nma(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--overlapping",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 2
    assert f"--overlapping does not apply to {DEFAULT_METHOD}; methods that take it: nma" in err


def test_warnings_name_the_options_that_change_what_they_warn_of(folder, tmp_path, capsys):
    """An estimator's warning names its parameters; cluster's user sets them by options."""
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "lccf", "--min-df", "1",
                        "--neighbors", "200", "--max-iter", "1", "--restarts", "1",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 0
    assert "docnmf: warning: LCCFClustering: --neighbors 200 is more than the " in err
    assert "in --max-iter 1 iterations; raise --max-iter" in err
    assert "n_neighbors" not in err and "max_iter" not in err
    # --tol 0 asks for no change at all: more iterations were the advice, which never helps
    code, _, err = run(["cluster", "demo", "-k", "5", "--method", "nmf", "--tol", "0",
                        "--max-iter", "3", "-o", str(tmp_path / "t0")], capsys)
    assert code == 0
    assert ("in --max-iter 3 iterations; more iterations may never reach --tol 0.0, no change "
            "at all; give a larger one") in err
    # k-means stopped by its limit said nothing (documents of words drawn at random: one
    # iteration does not settle them, where the 8 of `folder` settle in one)
    rng = random.Random(0)
    words = [f"w{c}x" for c in "abcdefghijklmnopqrstuvwxyz"]
    mixed = tmp_path / "mixed.csv"
    mixed.write_text("text\n" + "".join(" ".join(rng.choice(words) for _ in range(15)) + "\n"
                                         for _ in range(40)))
    code, _, err = run(["cluster", str(mixed), "-k", "3", "--method", "km", "--min-df", "1",
                        "--max-iter", "1", "-o", str(tmp_path / "km")], capsys)
    assert code == 0
    assert ("docnmf: warning: KMeansClustering: k-means ran all --max-iter 1 iterations and may "
            "not have converged; raise --max-iter") in err


def test_options_named_in_warnings():
    from docnmf.cli import _as_flags

    assert _as_flags("did not converge to tol=1e-05 in max_iter=2 iterations; raise max_iter") \
        == "did not converge to --tol 1e-05 in --max-iter 2 iterations; raise --max-iter"
    assert _as_flags("n_topics=2 is below n_clusters=3; a smaller n_segments, n_init.") \
        == "--topics 2 is below -k 3; a smaller --segments, --restarts."
    # a bare word that is also a parameter's name, and names inside others, stay as they are
    assert _as_flags("the kernel and its tol; self.max_iter, max_iters, lam_scale_x") \
        == "the kernel and its tol; self.max_iter, max_iters, lam_scale_x"
    # paths are no parameters ("flagpath/max_iter" became "flagpath/--max-iter")
    assert _as_flags("of flagpath/max_iter skipped; at labels=y/latin.txt, byte 4; max_iter.txt")\
        == "of flagpath/max_iter skipped; at labels=y/latin.txt, byte 4; max_iter.txt"


def test_only_an_estimator_s_warnings_are_rewritten(tmp_path, capsys):
    """A reader's warning about a corpus in a folder named max_iter said --max-iter."""
    folder = tmp_path / "max_iter"
    folder.mkdir()
    for i in range(6):
        (folder / f"d{i}.txt").write_text(["comet orbit planet", "garlic onion butter"][i % 2])
    (folder / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "-o",
                        str(tmp_path / "out")], capsys)
    assert code == 0 and f"1 entry of {folder} skipped" in err and "--max-iter" not in err


@pytest.mark.parametrize("method", ["plsi", "lda", "km", "nc"])
def test_other_methods_from_the_shell(method, folder, tmp_path, capsys):
    code, out, _ = run(["cluster", str(folder), "-k", "2", "--method", method, "--min-df", "1",
                        "-o", str(tmp_path / method)], capsys)
    assert code == 0 and "accuracy" in out


def test_summarize_prints_only_the_summary(tmp_path, capsys, toy_topics):
    docs = tmp_path / "docs"
    docs.mkdir()
    for i, texts in enumerate(toy_topics.values()):
        (docs / f"{i}.txt").write_text(" ".join(texts))
    code, out, err = run(["summarize", str(docs), "--length", "25w"], capsys)
    assert code == 0 and out.strip()
    assert len(out.split()) <= 25
    sentences = [s for s in out.splitlines() if s]
    assert len(sentences) == len(set(sentences))
    assert all(s in " ".join(" ".join(t) for t in toy_topics.values()) for s in sentences)
    assert "docnmf:" not in out and "summarizing" in err
    code, out, _ = run(["summarize", str(docs), "--length", "100b", "--fill"], capsys)
    assert code == 0 and len(out.rstrip("\n").encode()) <= 100
    code, _, err = run(["summarize", str(docs), "--length", "ten words"], capsys)
    assert code == 2 and "length must look like" in err
    # 0w does look like that: what is wrong is the number
    code, _, err = run(["summarize", str(docs), "--length", "0w"], capsys)
    assert code == 2 and "length must be at least one byte or word, got '0w'" in err
    # -k as keywords says it (it said "between 2 and the 6 documents")
    code, _, err = run(["summarize", str(docs), "--per-cluster", "-k", "99"], capsys)
    assert code == 2 and f"-k 99 is more than the {len(list(docs.rglob('*.txt')))} documents" \
        in err


def test_summarizing_japanese_says_what_a_word_is_and_splits_its_sentences(tmp_path, capsys):
    """Sentences end at 。 with no space after: the whole text was one sentence (and one
    word), printed whole under --length 50w; the command now also says what it counts."""
    sentences = ["今日は良い天気です。", "明日は雨が降るでしょう。", "私は東京に住んでいます。",
                 "猫が好きです。"]
    (tmp_path / "jp.txt").write_text("".join(sentences) * 40, encoding="utf-8")
    code, out, err = run(["summarize", str(tmp_path / "jp.txt"), "--length", "3w"], capsys)
    assert code == 0 and "a script written without spaces between words" in err
    printed = out.split()
    assert 1 <= len(printed) <= 3 and set(printed) <= set(sentences)


@pytest.mark.parametrize("name", ["notes[1].txt", "*.txt", "a.txt"])
def test_summarize_reads_the_one_file_named(tmp_path, capsys, toy_topics, name):
    """It read the file's folder with the name as a pattern: glob characters found nothing
    or several files, and a file of the same name in a subfolder was read too."""
    space, food = (" ".join(toy_topics[topic]) for topic in ("space", "food"))
    texts = [space, food, food.upper()]
    (tmp_path / name).write_text(texts[0])
    (tmp_path / "other.txt").write_text(texts[1])
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / name).write_text(texts[2])
    code, out, err = run(["summarize", str(tmp_path / name), "--length", "20w"], capsys)
    assert code == 0 and "Traceback" not in err
    assert all(sentence in texts[0] for sentence in out.splitlines() if sentence)


@pytest.mark.parametrize("extra", [[], ["--kernel", "poly2", "--lam", "1", "--neighbors", "2",
                                        "--labels", "argmax", "--lam-scale", "none"]])
@pytest.mark.parametrize("method", ["cf", "cf-ncw", "lccf", "lccf-ncw"])
def test_concept_factorization_methods(method, extra, folder, tmp_path, capsys):
    if method.startswith("cf") and "--lam" in extra:    # CF has no graph: none of its options
        extra = extra[:2] + extra[6:8]
    code, out, err = run(["cluster", str(folder), "-k", "2", "--method", method, "--min-df", "1",
                          *extra, "-o", str(tmp_path / "o")], capsys)
    assert code == 0, err
    record = json.loads((tmp_path / "o" / "run.json").read_text())
    if extra:
        assert record["parameters"]["estimator"]["kernel"] == "poly2"
    if extra and method.startswith("lccf"):
        assert record["parameters"]["estimator"]["n_neighbors"] == 2


def test_concept_options_rejected_elsewhere(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "consensus", "--lam", "5",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and "--lam does not apply to consensus; methods that take it: lccf," in err
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "cf", "--lam", "5",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and "--lam does not apply to cf (cf is defined by lam=0.0)" in err
    # nor the options of a graph cf does not have: they were taken and did nothing
    for option in (["--neighbors", "3"], ["--lam-scale", "none"]):
        code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "cf-ncw", *option,
                            "-o", str(tmp_path / "o")], capsys)
        assert code == 2 and f"{option[0]} does not apply to cf-ncw; methods that take it: " \
            "lccf," in err


def test_the_papers_scale_of_lambda_without_a_lambda_is_warned(folder, tmp_path, capsys):
    """--lam-scale none kept the default lam 0.01 as the paper's lambda: a graph of no weight."""
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "lccf", "--lam-scale",
                        "none", "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and "with --lam-scale none, --lam is the paper's lambda as is" in err
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "lccf", "--lam-scale",
                        "none", "--lam", "100", "-o", str(tmp_path / "p")], capsys)
    assert code == 0 and "--lam-scale none" not in err


def test_an_init_the_method_does_not_take_is_refused_as_other_options_are(folder, tmp_path,
                                                                          capsys):
    """--init nndsvda, the help's default, failed on the default method (LCCF-NCW) with the
    estimator's own error, naming values the command line does not take ('auto', 'nmf')."""
    for method in ([], ["--method", "ecc"]):
        code, _, err = run(["cluster", str(folder), "-k", "2", *method, "--init", "nndsvda",
                            "-o", str(tmp_path / "o")], capsys)
        name = method[1] if method else DEFAULT_METHOD
        assert code == 2 and f"--init nndsvda does not apply to {name} (it takes random); " \
                             "methods that take it: nmf, nmf-ncw" in err
        assert not (tmp_path / "o").exists()
    code, _, err = run(["cluster", str(folder), "-k", "2", "--init", "random", "--min-df", "1",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 0, err


def test_an_option_the_method_does_not_take_is_refused_before_any_work(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "kernel-km", "--tol",
                        "1e-3", "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and "--tol does not apply to kernel-km" in err
    assert "Traceback" not in err and not (tmp_path / "o").exists()


def test_every_flag_maps_to_an_option_some_method_takes():
    from docnmf.cli import _OPTION_FLAGS, build_parser
    from docnmf.methods import METHODS

    taken = set().union(*(m.parameters() for m in METHODS.values()))
    assert set(_OPTION_FLAGS) <= taken
    cluster = build_parser()._subparsers._group_actions[0].choices["cluster"]
    dests = {a.dest for a in cluster._actions}
    assert {dest for dest, _ in _OPTION_FLAGS.values()} <= dests


def test_fsnmf_from_the_shell(folder, tmp_path, capsys):
    code, out, err = run(["cluster", str(folder), "-k", "2", "--method", "fsnmf", "--min-df", "1",
                          "-o", str(tmp_path / "o")], capsys)
    assert code == 0, err
    assert "accuracy" in out and (tmp_path / "o" / "assignments.csv").is_file()


def test_iteration_limits_default_to_each_method_and_can_be_set(folder, tmp_path, capsys):
    """Without --max-iter / --tol each estimator keeps its own; given, they reach it."""
    from docnmf.methods import make_estimator

    def estimator_params(extra, method):
        out_dir = tmp_path / f"{method}-{len(extra)}"
        code, _, _ = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--method", method,
                          "--restarts", "2", "-o", str(out_dir), *extra], capsys)
        assert code == 0
        return json.loads((out_dir / "run.json").read_text())["parameters"]["estimator"]

    for method in ("nmf", "lccf"):
        own = make_estimator(method, 2).get_params()
        params = estimator_params([], method)
        assert (params["max_iter"], params["tol"]) == (own["max_iter"], own["tol"])
    params = estimator_params(["--max-iter", "77", "--tol", "0.001"], "lccf")
    assert (params["max_iter"], params["tol"]) == (77, 0.001)


def test_solver_options_reach_nmf_and_are_refused_elsewhere(folder, tmp_path, capsys,
                                                            blas_threads_restored):
    out_dir = tmp_path / "hals32"
    code, _, _ = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--method", "nmf",
                      "--solver", "hals", "--init", "nndsvdar", "--dtype", "float32",
                      "--threads", "1", "-o", str(out_dir)], capsys)
    assert code == 0
    params = json.loads((out_dir / "run.json").read_text())["parameters"]["estimator"]
    assert (params["solver"], params["init"], params["dtype"]) == ("hals", "nndsvdar", "float32")
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "km", "--solver", "mu",
                        "-o", str(tmp_path / "km")], capsys)
    assert code == 2 and "--solver does not apply to km; methods that take it: nmf, nmf-ncw" in err
    assert "fsnmf" not in err      # FS-NMF's own solver option is another one
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "nmf-ncw", "--solver",
                        "mu", "--dtype", "float32", "-o", str(tmp_path / "mu32")], capsys)
    assert code == 2 and "float32 needs --solver hals" in err


@pytest.mark.parametrize("method, restarts", [("nma", 2), ("km", 3), ("plsi", 2), ("nmf", 1)])
def test_run_json_records_every_restarts_objective(method, restarts, folder, tmp_path, capsys):
    """run.json read only one of two attribute names, so NMA and the baselines recorded null."""
    out_dir = tmp_path / method
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", method, "--min-df", "1",
                        "--restarts", str(restarts), "-o", str(out_dir)], capsys)
    assert code == 0, err
    record = json.loads((out_dir / "run.json").read_text())
    objectives = record["restart_objectives"]
    assert isinstance(objectives, list) and len(objectives) == restarts
    assert min(objectives) == pytest.approx(record["objective"]) or method == "km"


@pytest.mark.parametrize("extra, ignored", [([], True), (["--init", "random"], False),
                                            (["--method", "nmf"], True),
                                            (["--method", "km"], False)])
def test_restarts_that_a_deterministic_start_ignores_are_reported(extra, ignored, folder, tmp_path,
                                                            capsys):
    """The default starts from NMF's deterministic solution, so --restarts changed nothing
    while the log said "(10 restarts)"; now the log says when the restarts went unused."""
    out_dir = tmp_path / "out"
    code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--restarts", "3",
                        *extra, "-o", str(out_dir)], capsys)
    assert code == 0, err
    record = json.loads((out_dir / "run.json").read_text())
    assert ("--restarts 3 had no effect" in err) is ignored
    assert len(record["restart_objectives"]) == (1 if ignored else 3)
    assert ("--init random starts it 3 times" in err) is ignored
    # without --restarts nothing is said: the run does what it was asked
    code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", *extra,
                        "-o", str(tmp_path / "plain")], capsys)
    assert code == 0 and "had no effect" not in err


def _readme_commands() -> list[str]:
    readme = Path(__file__).resolve().parents[1] / "README.md"
    return [re.split(r"\s#\s", line)[0].strip() for line in readme.read_text().splitlines()
            if line.startswith("docnmf ")]


@pytest.mark.parametrize("line", _readme_commands())
def test_the_readme_commands_parse_and_their_options_apply(line):
    """Every command line the README shows is one the command accepts: its options exist, and
    those a method takes are ones its --method takes (as checked before any work)."""
    import shlex

    from docnmf.cli import DASK_DEFAULT_METHOD as DASK_DEFAULT, _estimator_params, build_parser
    from docnmf.methods import DEFAULT_METHOD

    args = build_parser().parse_args(shlex.split(line)[1:])
    if args.command == "cluster":
        args.method = args.method or (DASK_DEFAULT if args.dask_workers or args.scheduler
                                      else DEFAULT_METHOD)
        _estimator_params(args)


def test_options_a_method_does_not_take_are_named_together(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "consensus", "--solver", "mu",
                        "--init", "random", "-o", str(tmp_path / "o")], capsys)
    assert code == 2
    assert ("--init and --solver do not apply to consensus; methods that take them: nmf, nmf-ncw"
            in err)


def test_a_semi_supervised_method_without_pairs_says_so(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--method", "ss-kk", "--min-df", "1",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 0
    assert "ss-kk without --must-link or --cannot-link: no pair to follow" in err


def test_version_and_quiet_after_the_command(folder, tmp_path, capsys):
    from docnmf import __version__

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"docnmf {__version__}"
    code, out, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "-n", "3", "-q",
                          "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and err == ""
    rows = list(csv.DictReader(open(tmp_path / "o" / "clusters.csv")))
    assert all(len(r["top_keywords"].split()) == 3 for r in rows)


def test_summary_options_without_summaries_are_named_as_unread(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--summary-length",
                        "30w", "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and "read with --summaries only; no summaries are written" in err
    assert not (tmp_path / "o" / "summaries.csv").exists()


def test_per_cluster_summaries_cluster_as_cluster_does(folder, capsys):
    code, _, err = run(["summarize", str(folder), "--per-cluster", "-k", "2"], capsys)
    assert code == 0 and f"clusters with {DEFAULT_METHOD}" in err
    # and say how the fit went, as cluster does (34 s went by without a word on 20 Newsgroups)
    assert "LCCF from NMF's solution:" in err


def test_a_usage_mistake_is_short_and_suggests_the_nearest_choice(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["cluster", "x", "-k", "2", "--method", "nmfncw"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "usage:" not in err and len(err.splitlines()) == 2
    assert "did you mean nmf-ncw" in err and "(see 'docnmf cluster --help')" in err


def test_column_options_on_a_folder_are_named_as_unread(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--text-column",
                        "body", "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and "--text-column: read for CSV/JSONL files (or a folder of them) only" in err


def test_a_k_range_without_k_auto_is_named_as_unread(folder, tmp_path, capsys):
    code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--k-range", "2-5",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and "--k-range is read with -k auto only; -k 2 is used" in err


@pytest.mark.parametrize("options, says", [
    (["--method", "nma", "--segmenter", "words"],
     "--segmenter is read with --segments above 1 only: each document is one segment"),
    (["--method", "plsi", "--tf", "binary"],
     "--tf binary does not change what plsi clusters: it reads the term counts"),
    (["--method", "consensus", "--tf", "binary", "--idf", "none"],
     ("--tf binary does not change what consensus clusters: it reads the term counts and "
      "weighs them its own way")),
    (["--method", "ssnmf"], ("ssnmf without --must-link or --cannot-link: no pair to follow, "
                             "so it clusters as --method consensus does")),
    (["--method", "ss-kk"], ("so it clusters as kernel k-means on its Gaussian kernel from its "
                             "own starts (not --method kernel-km")),
])
def test_options_that_change_nothing_are_named(folder, tmp_path, capsys, options, says):
    """They were recorded in run.json and changed no cluster, without a word (and "its
    unconstrained form" named no method)."""
    code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--restarts", "2",
                        *options, "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and says in err.replace("\n", " ")
    # where they do change something, nothing is said: a method of the weights, --idf (a term
    # in every document weighs 0 under xu, and leaves a document of it unassigned), -k auto
    # (the search reads the weights)
    for more in (["--method", "nmf", "--tf", "binary"], ["--method", "plsi", "--idf", "smooth"],
                 ["-k", "auto", "--k-range", "2-3", "--method", "plsi", "--tf", "binary"]):
        code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--restarts",
                            "2", *more, "-o", str(tmp_path / "p")], capsys)
        assert code == 0 and "does not change" not in err


def test_progress_names_the_published_folder_not_the_staging_one(folder, tmp_path, capsys):
    code, out, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1",
                          "-o", str(tmp_path / "o")], capsys)
    assert code == 0
    # while the folder is being made, no path is named; once published, the final ones are
    assert "report made in" in err and str(tmp_path / "o") not in err
    assert str(tmp_path / "o" / "report.html") in out.split("wrote ")[-1]
    assert ".staging-" not in err + out


def test_one_class_and_one_document_are_said_in_the_singular(tmp_path, capsys):
    (tmp_path / "one.csv").write_text("id,text,label\n1,stars galaxy telescope,a\n"
                                      "2,stars galaxy orbit,a\n")
    code, out, _ = run(["cluster", str(tmp_path / "one.csv"), "-k", "2", "--min-df", "1",
                        "-o", str(tmp_path / "o")], capsys)
    assert code == 0 and "against 1 labelled class (2 documents): accuracy" in out
    assert "Against 1 labelled class (2 documents)" in (tmp_path / "o" / "report.html").read_text()
    (tmp_path / "single.csv").write_text("id,text\n1,stars galaxy telescope\n")
    code, _, err = run(["cluster", str(tmp_path / "single.csv"), "-k", "2"], capsys)
    assert code == 2 and "-k 2 is more than the 1 document\n" in err


def test_an_unknown_option_is_told_by_the_parser_it_was_given_to(capsys):
    """Said by the command's parser, an option given before the command was blamed on it."""
    for argv, prog in ((["--bogus", "demo"], "docnmf"), (["demo", "--bogus"], "docnmf demo")):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert capsys.readouterr().err == (f"{prog}: error: unrecognized arguments: --bogus\n"
                                           f"(see '{prog} --help')\n")


def test_paths_from_other_systems_and_quoted_tildes(tmp_path, capsys, monkeypatch):
    """'~/docs' quoted made no path ('no such file') and '-o ~/out' a folder named '~' in the
    current one; a Windows path was met by the list of 36 dataset names; Excel's tab-separated
    text, a .txt file, was one document ('-k 4 is more than the 1 document') without a word."""
    home = tmp_path / "home"
    (home / "docs").mkdir(parents=True)
    for i, text in enumerate(["the comet and the orbit", "the comet and the star",
                              "fry the onion in oil", "fry the garlic in oil"]):
        (home / "docs" / f"{i}.txt").write_text(text)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["cluster", "~/docs", "-k", "2", "--min-df", "1", "--method", "nmf",
                        "-o", "~/out"], capsys)
    assert code == 0, err
    assert (home / "out" / "assignments.csv").exists() and not (tmp_path / "~").exists()
    code, _, err = run(["cluster", "C:\\Users\\x\\docs", "-k", "2"], capsys)
    assert code == 2 and "no such file or folder: C:\\Users\\x\\docs (a Windows path: here " \
                         "folders are separated by '/')" in err and "datasets:" not in err
    (tmp_path / "sheet.txt").write_text("id\ttext\tlabel\n1\tthe comet\tsky\n2\tthe oven\tfood\n")
    code, _, err = run(["cluster", str(tmp_path / "sheet.txt"), "-k", "2"], capsys)
    assert code == 2 and "sheet.txt looks like a table (3 lines of 3 tab-separated fields, the " \
                         "first 'id\\ttext\\tlabel') but is read as one document" in err
    assert "name it .tsv" in err
    # paragraphs that each begin with a tab are prose; '~name' of no user is a name
    (tmp_path / "novel.txt").write_text("\tOnce upon\ta time\n\tThen came\tmore\n\tThe end\tnow\n")
    code, _, err = run(["cluster", str(tmp_path / "novel.txt"), "-k", "2"], capsys)
    assert "looks like a table" not in err
    code, _, err = run(["cluster", "~nosuchuser/docs", "-k", "2", "-o", "~nosuchuser2"], capsys)
    assert code == 2 and err.strip().endswith("no such file or folder: ~nosuchuser/docs")


def test_run_json_says_how_the_input_was_read(tmp_path, capsys, monkeypatch):
    """The columns and --encoding were only in the command line, and a relative source only
    meant something in the folder the command ran in."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "posts.csv").write_text(
        "body,topic,key\n" + "".join(f"{w} {w} stars,{w[0]},{i}\n" for i, w in
                                      enumerate(["alpha", "beta"] * 4)), encoding="latin-1")
    code, _, err = run(["cluster", "posts.csv", "-k", "2", "--min-df", "1", "--text-column",
                        "body", "--label-column", "topic", "--id-column", "key", "--encoding",
                        "latin-1", "-o", "out"], capsys)
    assert code == 0, err
    corpus = json.loads((tmp_path / "out" / "run.json").read_text())["corpus"]
    assert corpus["source"] == "posts.csv"
    assert corpus["path"] == str((tmp_path / "posts.csv").resolve())
    assert corpus["reader_options"] == {"text_column": "body", "label_column": "topic",
                                        "id_column": "key", "encoding": "iso8859-1"}
    code, _, err = run(["cluster", "demo", "-k", "5", "-o", "demo"], capsys)
    corpus = json.loads((tmp_path / "demo" / "run.json").read_text())["corpus"]
    assert code == 0 and "path" not in corpus and "reader_options" not in corpus


def test_more_clusters_than_terms_is_refused_before_a_long_fit(tmp_path, capsys):
    """-k 5000 on 47 terms ran for over 15 minutes without a progress line; k=500 overflowed
    after 212 s and advised dividing X by its largest entry."""
    words = ["alpha", "beta", "gamma", "delta", "epsilon"]
    src = tmp_path / "docs.csv"
    src.write_text("text\n" + "".join(f"{words[i % 5]} {words[(i + 1) % 5]}\n"
                                      for i in range(40)))
    for method in ("nmf", "lccf-ncw"):
        code, _, err = run(["cluster", str(src), "-k", "6", "--min-df", "1", "--method", method,
                            "-o", str(tmp_path / method)], capsys)
        assert code == 2 and (f"6 clusters need at least as many index terms with {method}, "
                              "and preprocessing left 5") in err
    for method in ("km", "cf-poly2"):       # a kernel's feature space has more dimensions
        code, _, err = run(["cluster", str(src), "-k", "6", "--min-df", "1", "--method",
                            method, "-o", str(tmp_path / method)], capsys)
        assert code == 0, err


def test_one_term_left_is_not_answered_with_a_method_that_cannot_weigh_it(tmp_path, capsys):
    """With one term left the refusal advised consensus, which then failed: every document
    left holds that term, so its idf weight log(n / n) is 0. km clusters by the counts."""
    src = tmp_path / "docs.csv"
    src.write_text("text\n" + "".join(f"alpha {'alpha ' * (i % 4)}\n" for i in range(20))
                   + "the\n" * 5)      # documents without terms keep alpha under --max-df
    code, _, err = run(["cluster", str(src), "-k", "3", "--min-df", "1", "-o",
                        str(tmp_path / "nmf")], capsys)
    assert code == 2 and "preprocessing left 1: " in err
    assert "use --method km, which may find" in err and "consensus" not in err
    code, _, err = run(["cluster", str(src), "-k", "3", "--min-df", "1", "--method", "km",
                        "-o", str(tmp_path / "km")], capsys)
    assert code == 0, err


def test_a_command_run_in_process_gives_back_the_logger_it_set_up(tmp_path):
    """main() left docnmf's logger with its handler (on a standard error since replaced) and
    propagate=False, so that logging set up by the caller (pytest's caplog before 9.1, an
    application's handlers on the root logger) saw none of docnmf's later messages."""
    import logging

    logs = logging.getLogger("docnmf")
    before = (logs.handlers[:], logs.level, logs.propagate)
    assert main(["-q", "demo", "-o", str(tmp_path / "o")]) == 0
    assert (logs.handlers, logs.level, logs.propagate) == before


def test_threads_beyond_the_cores_are_capped_with_a_warning(folder, tmp_path, capsys,
                                                            blas_threads_restored):
    """--threads 64 on a 2-core machine ran 135 threads and made the fit 10-15 times slower
    (20 Newsgroups, nmf-ncw: 0.3-2 s with 2 threads, 15-34 s with 64), without a word."""
    from joblib import cpu_count

    from docnmf.factor.sparse import blas_threads

    cores = cpu_count()      # affinity and a container's CPU quota
    asked = 100 * (cores or 1) + 7
    code, _, err = run(["cluster", str(folder), "-k", "2", "--min-df", "1", "--method",
                        "nmf", "--threads", str(asked), "-o", str(tmp_path / "out")], capsys)
    assert code == 0
    assert f"--threads {asked} is more than the {cores} cores" in err
    assert blas_threads() <= cores


def test_quoted_tildes_in_constraint_files_and_the_report_folder(tmp_path, capsys, monkeypatch):
    """'--must-link=~/ml.csv' (a tilde bash leaves after '=') was 'no such constraint file:
    ~/ml.csv' and 'docnmf report "~/out"' 'no such result folder', where the input and -o
    read '~' as the home folder."""
    home = tmp_path / "home"
    (home / "docs").mkdir(parents=True)
    for i, text in enumerate(["the comet and the orbit", "the comet and the star",
                              "fry the onion in oil", "fry the garlic in oil"]):
        (home / "docs" / f"{i}.txt").write_text(text)
    (home / "ml.csv").write_text("0.txt,1.txt\n")
    (home / "cl.csv").write_text("0.txt,2.txt\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    code, _, err = run(["cluster", "~/docs", "-k", "2", "--min-df", "1", "--method", "ssnmf",
                        "--must-link=~/ml.csv", "--cannot-link", "~/cl.csv", "-o", "~/out"],
                       capsys)
    assert code == 0, err
    code, out, err = run(["report", "~/out"], capsys)
    assert code == 0, err
    assert str(home / "out" / "report.html") in out


@pytest.mark.parametrize("command", [["cluster", "-", "-k", "2"], ["keywords", "-", "-k", "2"],
                                     ["summarize", "-"]])
def test_a_dash_for_standard_input_says_it_is_not_read(command, tmp_path, capsys, monkeypatch):
    """'-' was met by 'no such file or folder, nor dataset: -' and the list of 36 dataset
    names; a file named '-' is read as any other."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(command, capsys)
    assert code == 2 and out == ""
    last = err.splitlines()[-1]
    assert last.startswith("docnmf: error:") and "standard input" in last and "datasets:" not in err


@pytest.mark.parametrize("command", ["cluster", "summarize", "evaluate", "choose-k", "assign",
                                     "keywords", "benchmark", "reproduce"])
def test_help_names_the_method_option_once_and_never_breaks_a_word_at_a_hyphen(
        command, monkeypatch, capsys):
    """The 39 method names filled the usage line, and lines broke inside hyphenated words
    ('lccf-' then 'poly2', '--k-' then 'range')."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = capsys.readouterr().out
    assert not [line for line in text.splitlines() if re.search(r"[A-Za-z0-9]-$", line)]
    if command in ("cluster", "summarize"):
        assert "lccf-ncw-poly2" in text and "{nmf," not in text
        assert ("--method METHOD" if command == "cluster" else "--cluster-method METHOD") in text


def test_per_cluster_summaries_say_a_methods_refusal_in_one_line(tmp_path, capsys, toy_topics):
    """A clustering method's refusal of the documents (here: the only documents with index
    terms are copies of one another, so every tf-idf weight is 0) is one error line, as
    cluster says it, not a traceback."""
    docs = tmp_path / "docs"
    docs.mkdir()
    space, food = " ".join(toy_topics["space"]), " ".join(toy_topics["food"])
    for i in range(3):
        (docs / f"a{i}.txt").write_text(space)
    (docs / "b.txt").write_text(food)
    code, _, err = run(["summarize", str(docs), "-k", "3", "--cluster-method", "consensus"],
                       capsys)
    assert code == 2 and "Traceback" not in err
    assert "docnmf: error: consensus: " in err and "nothing to cluster" in err


def test_per_cluster_summaries_say_a_cluster_is_empty(tmp_path, capsys, toy_topics):
    """A cluster without documents was said to have no sentence that fits within --length,
    which sends its reader to a longer --length that cannot help."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"a{i}.txt").write_text(" ".join(toy_topics["space"]))
    (docs / "b.txt").write_text(" ".join(toy_topics["food"]))
    code, out, err = run(["summarize", str(docs), "-k", "3", "--cluster-method", "nmf",
                          "--length", "15w"], capsys)
    assert code == 0, err
    blocks = out.split("\n\n")
    empty = [b for b in blocks if "(0 documents)" in b]
    assert empty and all("fits within" not in b and "(an empty cluster" in b for b in empty)


@pytest.mark.parametrize("text, option", [("the of and it is was", "--keep-stop-words"),
                                          ("mp3 covid19 h1n1 x86 2024", "--token-pattern")])
def test_per_cluster_summaries_advise_no_text_option_summarize_lacks(tmp_path, capsys, text,
                                                                     option):
    """summarize has neither --keep-stop-words nor --token-pattern: its advice for documents
    without index terms named them as if it had (given, they are refused as unknown)."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(3):
        (docs / f"{i}.txt").write_text(f"{text} {i}.")
    code, _, err = run(["summarize", str(docs), "-k", "2"], capsys)
    assert code == 2 and f"docnmf cluster {option}" in err
    assert re.search(rf"(?<!docnmf cluster ){option}", err) is None


def test_fill_under_one_character_says_the_length_not_that_there_is_no_sentence(tmp_path,
                                                                                 capsys):
    """--fill with a limit under the first character's UTF-8 bytes (3 for a Chinese one) gave
    an empty summary, said to come from documents without a sentence."""
    (tmp_path / "zh.txt").write_text("天文学家观测到明亮的彗星。彗星将在下个月接近地球。",
                                     encoding="utf-8")
    code, _, err = run(["summarize", str(tmp_path / "zh.txt"), "--length", "2b", "--fill"],
                       capsys)
    assert code == 2 and "hold no sentence" not in err
    assert "--length 2b" in err
