"""docnmf cluster on a Dask cluster: the same result files, per-partition assignments, progress."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from docnmf.cli import main
from docnmf.corpus.synthetic import planted_topic_model, write_topic_corpus


def _corpus(folder, n_docs=400, per_file=100):
    model = planted_topic_model(n_topics=3, vocabulary_size=300, mean_length=40, seed=0)
    return write_topic_corpus(folder, n_docs, model, docs_per_file=per_file, seed=0)


def test_cluster_on_a_local_dask_cluster(tmp_path, capsys):
    _corpus(tmp_path / "in")
    out = tmp_path / "out"
    assert main(["cluster", str(tmp_path / "in"), "-k", "3", "--dask-workers", "2",
                 "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert "Dask dashboard: http" in captured.err
    assert "iteration 1: objective" in captured.err
    assert "on Dask no memberships.npz or report.html is written" in captured.err
    assert "partitions of" not in captured.err      # 4 of 100 documents are not too small
    names = sorted(p.name for p in out.iterdir())
    # the in-memory run's folder marker: the folder was published whole by docnmf
    assert names == [".docnmf-output", "assignments", "assignments.csv", "clusters.csv",
                     "metrics.json", "model", "run.json"]
    assert not [p for p in tmp_path.iterdir()
                if p.name.startswith((".out.staging-", ".out.old-"))]   # nothing left aside
    parts = sorted(p.name for p in (out / "assignments").iterdir())
    assert parts == [f"part-{i:05d}.csv" for i in range(4)]
    merged = list(csv.reader((out / "assignments.csv").open()))
    assert merged[0] == ["id", "cluster", "membership", "label"]
    assert [r[0] for r in merged[1:]] == [f"d{i}" for i in range(400)]
    for i, part in enumerate(parts):
        rows = list(csv.reader((out / "assignments" / part).open()))
        assert rows[1:] == merged[1 + 100 * i:1 + 100 * (i + 1)]
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["accuracy"] == 1.0 and metrics["n_scored"] == 400
    run = json.loads((out / "run.json").read_text())
    assert run["parameters"]["partitions"] == 4 and run["parameters"]["workers"] == 2
    # as the in-memory run finds them: nothing
    assert {k: v for k, v in run["diagnostics"].items() if k != "vocabulary"} == {
        "unassigned": {"count": 0, "ids": [], "reason": "no index term left after preprocessing"},
        "small_clusters": [], "duplicates": {"groups": 0, "documents": 0, "examples": []},
        "boilerplate": {}, "languages": {}}
    clusters = list(csv.reader((out / "clusters.csv").open()))[1:]
    sizes = [int(r[1]) for r in clusters]
    assert sum(sizes) == 400 and run["cluster_sizes"] == sizes
    assert all(set(json.loads(r[3])) <= {f"d{i}" for i in range(400)} for r in clusters)
    # docnmf report makes a page of it, saying why it has no map (not that a file is missing)
    assert main(["report", str(out)]) == 0
    captured = capsys.readouterr()
    assert "is a run on a Dask cluster, which keeps no map" in captured.err
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Map data is not kept by a run on a Dask cluster" in page
    assert "not found in the folder" not in page
    (out / "report.html").unlink()
    # its model places documents as the run clustered them (it saved none before)
    placed = tmp_path / "placed"
    assert main(["-q", "assign", str(out), str(tmp_path / "in" / "part-00001.jsonl"),
                 "-o", str(placed)]) == 0
    rows = list(csv.reader((placed / "assignments.csv").open()))
    assert [r[:2] for r in rows[1:]] == [r[:2] for r in merged[101:201]]
    # a folder of an earlier version, without the model: assign says why
    shutil.rmtree(out / "model")
    assert main(["assign", str(out), str(tmp_path / "in" / "part-00000.jsonl")]) == 2
    assert "clustered on Dask by a version of docnmf that saved none" in capsys.readouterr().err


def test_user_mistakes_are_one_line_errors(tmp_path, capsys, monkeypatch):
    # the runs without -o below write into docnmf-out/ of the working folder (a failed run on
    # Dask leaves it there, empty): the test's own, not the checkout the tests run from
    started_in = Path.cwd()
    left_before = (started_in / "docnmf-out").exists()
    monkeypatch.chdir(tmp_path)
    _corpus(tmp_path / "in", n_docs=40, per_file=20)
    for argv, message in [
        (["--method", "lccf"], "runs in memory only"),
        (["--dtype", "float32", "--solver", "hals"], "float64"),
        (["-k", "1"], "at least 2"),
        (["-k", "auto"], ("-k auto runs in memory only: with --scheduler or --dask-workers, "
                          "give -k a number (docnmf choose-k suggests one)")),
    ]:
        args = ["cluster", str(tmp_path / "in"), "-k", "3", "--dask-workers", "1", *argv]
        if "-k" in argv:
            args = ["cluster", str(tmp_path / "in"), *argv, "--dask-workers", "1"]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
    assert main(["cluster", str(tmp_path / "missing"), "-k", "3", "--dask-workers", "1"]) == 2
    assert main(["cluster", str(tmp_path / "in"), "-k", "3",
                 "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "no Dask scheduler answered at tcp://127.0.0.1:9 within 10 s" in \
        capsys.readouterr().err
    # a column missing from every part: named in the first, as in memory (it was whichever
    # part the workers read first)
    (tmp_path / "nocol").mkdir()
    for p in range(4):
        (tmp_path / "nocol" / f"part-{p}.jsonl").write_text(
            "".join(json.dumps({"id": f"{p}-{i}", "body": "the comet"}) + "\n" for i in range(3)))
    for where in ([], ["--dask-workers", "2"]):
        assert main(["cluster", str(tmp_path / "nocol"), "-k", "2", *where]) == 2
        assert "column 'text' not found in " in (err := capsys.readouterr().err)
        assert "part-0.jsonl; available columns: 'id', 'body'" in err
    # a table of no records: the in-memory run's words, not "empty after preprocessing"
    (tmp_path / "none").mkdir()
    (tmp_path / "none" / "a.jsonl").write_text("")
    for where in ([], ["--dask-workers", "1"]):
        assert main(["cluster", str(tmp_path / "none"), "-k", "2", *where]) == 2
        assert "error: the corpus has no documents" in capsys.readouterr().err
    assert left_before or not (started_in / "docnmf-out").exists()


def _serve(handle):
    """A server on a free loopback port answering each connection with ``handle(conn)``."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))

    def loop():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                handle(conn)
    threading.Thread(target=loop, daemon=True).start()
    return server, f"tcp://127.0.0.1:{server.getsockname()[1]}"


def test_an_address_that_is_not_a_scheduler_is_one_line_not_a_hang(tmp_path, capsys):
    """Dask's client waits forever on a service that never answers, and reads another
    service's greeting as a length (it reported 'not enough memory')."""
    import time

    _corpus(tmp_path / "in", n_docs=40, per_file=20)
    base = ["cluster", str(tmp_path / "in"), "-k", "3", "-o", str(tmp_path / "o")]
    greeting, greeter = _serve(lambda conn: conn.sendall(b"SSH-2.0-x\r\n" + b"x" * 64))
    silent, quiet = _serve(lambda conn: time.sleep(30))
    try:
        for address, message in [
                (greeter, f"{greeter} answered, but not as a Dask scheduler"),
                (quiet, f"no Dask scheduler answered at {quiet} within 10 s"),
                ("http://127.0.0.1:8786", ("--scheduler http://127.0.0.1:8786: unknown "
                                           "address scheme 'http'")),
                ("", "--scheduler needs the scheduler's address"),
                # checked before connecting: both were "answered, but not as a Dask scheduler"
                ("tcp://127.0.0.1", "--scheduler tcp://127.0.0.1: missing port number"),
                ("tls://127.0.0.1:8786", "tls:// needs Dask's TLS settings")]:
            assert main([*base, "--scheduler", address]) == 2
            err = capsys.readouterr().err
            assert message in err and err.count("\n") == 1, err
    finally:
        greeting.close()
        silent.close()
    assert not (tmp_path / "o").exists()


def test_a_real_subprocess_run(tmp_path):
    _corpus(tmp_path / "in", n_docs=200, per_file=100)
    proc = subprocess.run([sys.executable, "-m", "docnmf", "cluster", str(tmp_path / "in"),
                           "-k", "3", "--dask-workers", "2", "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out" / "assignments.csv").is_file()


def test_the_same_result_files_as_the_in_memory_command(tmp_path, capsys):
    """`docnmf cluster` on Dask (default method: NMF-NCW) and in memory with that method,
    default start: the same clusters.

    The in-memory run reads the partitions joined into one file; a document left with no
    term after preprocessing is unassigned in both.
    """
    parts = _corpus(tmp_path / "in", n_docs=300, per_file=100)
    lines = [line for p in parts for line in p.read_text().splitlines()]
    # documents left without a term, in two partitions: the fit leaves them out, as in memory
    # (kept, they changed its start and, on 20 Newsgroups, its clusters)
    lines.insert(7, json.dumps({"id": "empty", "text": "the and of", "label": "topic0"}))
    lines.insert(160, json.dumps({"id": "empty2", "text": "", "label": "topic1"}))
    # unlabelled and multi-labelled documents: metrics.json counted neither on Dask
    for i in (20, 150):
        record = json.loads(lines[i])
        record.pop("label")
        lines[i] = json.dumps(record)
    record = json.loads(lines[40])
    record["label"] = [record["label"], "extra"]
    lines[40] = json.dumps(record)
    (tmp_path / "in" / "part-00000.jsonl").write_text("\n".join(lines[:101]) + "\n")
    (tmp_path / "in" / "part-00001.jsonl").write_text("\n".join(lines[101:201]) + "\n")
    (tmp_path / "in" / "part-00002.jsonl").write_text("\n".join(lines[201:]) + "\n")
    (tmp_path / "all.jsonl").write_text("\n".join(lines) + "\n")
    assert main(["cluster", str(tmp_path / "all.jsonl"), "-k", "3", "--method", "nmf-ncw", "-o",
                 str(tmp_path / "memory")]) == 0
    assert main(["cluster", str(tmp_path / "in"), "-k", "3", "--dask-workers", "2", "-o",
                 str(tmp_path / "dask")]) == 0
    capsys.readouterr()

    def table(folder, name):
        return list(csv.reader((tmp_path / folder / name).open(encoding="utf-8")))

    memory, dask_ = table("memory", "assignments.csv"), table("dask", "assignments.csv")
    assert [r[:2] for r in dask_] == [r[:2] for r in memory]
    assert ["empty", "-1", "0.000000", "topic0"] in dask_
    assert ["empty2", "-1", "0.000000", "topic1"] in dask_
    for a, b in zip(dask_[1:], memory[1:]):
        assert abs(float(a[2]) - float(b[2])) <= 2e-6
    assert table("dask", "unassigned.csv") == table("memory", "unassigned.csv")
    # the same fit, to rounding: from the same start
    runs = [json.loads((tmp_path / f / "run.json").read_text()) for f in ("dask", "memory")]
    assert runs[0]["objective_history"][0] == pytest.approx(runs[1]["objective_history"][0],
                                                            rel=1e-9)
    assert runs[0]["objective"] == pytest.approx(runs[1]["objective"], rel=1e-9)
    # sizes, keywords, representatives and coherence of each cluster
    assert table("dask", "clusters.csv") == table("memory", "clusters.csv")
    scores = [json.loads((tmp_path / f / "metrics.json").read_text()) for f in ("dask", "memory")]
    assert scores[0].keys() == scores[1].keys()
    for key in ("accuracy", "nmi", "n_scored", "n_unassigned", "accuracy_all_documents"):
        assert scores[0][key] == pytest.approx(scores[1][key], rel=1e-12), key
    assert scores[0]["n_unlabelled"] == scores[1]["n_unlabelled"] == 2
    assert scores[0]["multi_label_documents"] == scores[1]["multi_label_documents"] == 1
    assert scores[0]["nmi_normalization"] == scores[1]["nmi_normalization"] == "max"


def test_a_scheduler_without_workers_is_waited_for_then_named(tmp_path, capsys, monkeypatch):
    from distributed import LocalCluster
    from docnmf import cli

    _corpus(tmp_path / "in", n_docs=40, per_file=20)
    monkeypatch.setattr(cli, "_WORKER_WAIT_S", 2)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster:
        address = cluster.scheduler_address
        assert main(["cluster", str(tmp_path / "in"), "-k", "3", "--scheduler", address,
                     "-o", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert f"the scheduler at {address} has no workers yet; waiting up to 2 s" in err
    assert f"error: the scheduler at {address} has no workers after 2 s" in err
    assert not (tmp_path / "o").exists()


def test_a_tiny_cluster_is_named_on_dask_as_in_memory(tmp_path, capsys):
    _corpus(tmp_path / "in", n_docs=300, per_file=100)
    odd = [{"id": f"odd{i}", "text": "zyxwv qwerty asdfg lorem ipsum dolor " * 3}
           for i in range(2)]
    (tmp_path / "in" / "part-00009.jsonl").write_text(
        "".join(json.dumps(d) + "\n" for d in odd))
    for where in (["--dask-workers", "1"], []):
        out = tmp_path / f"out{len(where)}"
        assert main(["cluster", str(tmp_path / "in"), "-k", "4", "--method", "nmf-ncw",
                     "--min-df", "1", *where, "-o", str(out)]) == 0
        err = capsys.readouterr().err
        small = json.loads((out / "run.json").read_text())["diagnostics"]["small_clusters"]
        assert [(c["size"], sorted(c["examples"])) for c in small] == [(2, ["odd0", "odd1"])]
        assert f"cluster {small[0]['cluster']} has only 2 of the documents" in err


def test_keywords_are_the_clusters_own_words_on_dask_as_in_memory(tmp_path, capsys):
    """The Dask path listed "elder", a word of the other cluster's documents only, among a
    two-document cluster's keywords, where the in-memory run no longer did."""
    texts = ["apple apple banana cherry", "banana banana banana date",
             "cherry date elder elder apple", "apple banana fig fig fig",
             "date fig elder apple apple"]
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "part-0.jsonl").write_text(
        "".join(json.dumps({"id": f"d{i}", "text": t}) + "\n" for i, t in enumerate(texts)))
    tables = []
    for where in (["--dask-workers", "1"], []):
        out = tmp_path / f"out{len(where)}"
        assert main(["cluster", str(tmp_path / "in"), "-k", "2", "--method", "nmf-ncw",
                     "--min-df", "1", "--max-df", "1.0", *where, "-o", str(out)]) == 0
        with open(out / "clusters.csv", newline="") as f:
            tables.append([(row["size"], row["top_keywords"]) for row in csv.DictReader(f)])
    assert tables[0] == tables[1]
    assert [set(words.split()) for size, words in tables[0] if size == "2"] == \
        [{"apple", "banana", "cherry", "date"}]
    capsys.readouterr()


def test_ctrl_c_on_a_local_cluster_is_one_line_and_leaves_no_worker(tmp_path):
    """The workers start with Ctrl-C ignored and their logs silenced: a Ctrl-C reaches the
    command, which stops the cluster; no worker prints a traceback or outlives it."""
    import os
    import select
    import signal
    import time

    _corpus(tmp_path / "in", n_docs=2000, per_file=500)
    proc = subprocess.Popen(
        [sys.executable, "-m", "docnmf", "cluster", str(tmp_path / "in"), "-k", "3",
         "--dask-workers", "2", "--solver", "mu", "--init", "random", "--restarts", "4",
         "--tol", "1e-12", "--max-iter", "5000", "-o", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen = []
    while not any("iteration 5:" in line for line in seen):
        assert select.select([proc.stderr], [], [], 120)[0], "no progress"
        seen.append(proc.stderr.readline())
        assert seen[-1] or proc.poll() is None, "".join(seen)
    os.killpg(proc.pid, signal.SIGINT)
    err = "".join(seen) + proc.communicate(timeout=60)[1]
    assert proc.returncode == 130 and err.rstrip().endswith("docnmf: interrupted"), err
    assert "Traceback" not in err and "Error" not in err
    assert not (tmp_path / "out").exists()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)      # anyone left in the command's process group?
        except ProcessLookupError:
            break
        time.sleep(0.2)
    else:
        pytest.fail("worker processes outlived the command")


def test_ctrl_c_while_the_workers_start_stops_the_command(tmp_path):
    """The command ignored Ctrl-C while its local cluster started (so that the workers would):
    a Ctrl-C then was lost, and the run went on, wrote its folder and exited 0."""
    import os
    import signal
    import time

    import psutil

    _corpus(tmp_path / "in")
    proc = subprocess.Popen(
        [sys.executable, "-m", "docnmf", "cluster", str(tmp_path / "in"), "-k", "3",
         "--dask-workers", "2", "-o", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
    command = psutil.Process(proc.pid)
    deadline = time.monotonic() + 120
    # a worker on its way: beside multiprocessing's resource tracker and fork server (the few
    # milliseconds these take to start, Ctrl-C is ignored, so that the workers ignore it)
    while len(command.children(recursive=True)) < 3:
        assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGINT)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode == 130 and err.rstrip().endswith("docnmf: interrupted"), err
    assert "Traceback" not in err and "Error" not in err
    assert not (tmp_path / "out").exists()


def test_too_few_documents_with_terms_are_one_line_as_in_memory(tmp_path, capsys):
    """-k beyond the documents, or documents that lost every term (here each in every
    document, so of idf 0), gave a worker's traceback or an empty result with status 0."""
    three = tmp_path / "three"
    three.mkdir()
    for i, text in enumerate(["galaxy planets stars", "galaxy planets stars comet", "the and"]):
        (three / f"{i}.txt").write_text(text)
    for k in ("4", "3"):
        for where in (["--dask-workers", "1"], []):
            code = main(["-q", "cluster", str(three), "-k", k, "--min-df", "1", *where,
                         "-o", str(tmp_path / "out")])
            err = capsys.readouterr().err
            assert code == 2 and len(err.strip().splitlines()) == 1, err
            assert not (tmp_path / "out").exists()
            if k == "4":    # more clusters than documents: the in-memory command's words
                assert err.strip() == "docnmf: error: -k 4 is more than the 3 documents", err
            elif where:
                assert err.strip() == ("docnmf: error: only 2 of the 3 documents have index "
                                       f"terms left after preprocessing; {k} clusters need at "
                                       "least as many")


def test_documents_whose_terms_idf_weighs_out_are_explained_on_dask_as_in_memory(tmp_path,
                                                                                  capsys):
    """Every document holds "subject" and "topic", the terms --min-df 1.0 --max-df 1.0 keep, of
    idf log(n / n) = 0: the in-memory error says why no document is left, the Dask one did not."""
    (tmp_path / "in").mkdir()
    for i, word in enumerate(["alpha", "beta", "gamma", "delta"]):
        (tmp_path / "in" / f"{i}.txt").write_text(f"subject topic {word}")
    said = []
    for where in (["--dask-workers", "1"], []):
        code = main(["-q", "cluster", str(tmp_path / "in"), "-k", "2", "--min-df", "1.0",
                     "--max-df", "1.0", *where, "-o", str(tmp_path / "out")])
        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert not (tmp_path / "out").exists()
        said.append(err)
    assert said[0] == said[1]
    assert said[0].strip().endswith("2 clusters need at least as many: 4 documents have terms, "
                                    "but only terms of every document, which weigh 0 under idf "
                                    "'xu', log(n / n); idf 'smooth' (--idf smooth) keeps them")
    # --idf smooth weighs them above 0: the run goes through on both paths
    for where in (["--dask-workers", "1"], []):
        out = tmp_path / f"smooth{len(where)}"
        assert main(["-q", "cluster", str(tmp_path / "in"), "-k", "2", "--min-df", "1.0",
                     "--max-df", "1.0", "--idf", "smooth", "--method", "nmf", *where,
                     "-o", str(out)]) == 0, capsys.readouterr().err
        assert (out / "assignments.csv").exists()


def test_more_clusters_than_terms_is_one_line_as_in_memory(tmp_path, capsys):
    """k above the terms ran on the cluster and ended with empty clusters and status 0, where
    the in-memory path refuses it."""
    (tmp_path / "in").mkdir()
    words = ["galaxy", "planets", "comet"]
    for i in range(12):
        text = " ".join(words[(i + j) % 3] for j in range(i % 3 + 1))
        (tmp_path / "in" / f"{i}.txt").write_text(text)
    for where in (["--dask-workers", "1"], []):
        code = main(["-q", "cluster", str(tmp_path / "in"), "-k", "4", "--method", "nmf-ncw",
                     *where, "-o", str(tmp_path / "out")])
        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1, err
        assert "4 clusters need at least as many index terms with nmf-ncw, and preprocessing " \
            "left 3" in err
        assert not (tmp_path / "out").exists()


def test_a_part_without_documents_is_a_part_like_any_other(tmp_path, capsys):
    """A CSV part of a header only (or a bag partition a filter emptied): the weighting of
    its zero rows failed on the worker."""
    from docnmf.corpus.demo import load_demo

    demo = load_demo()
    (tmp_path / "in").mkdir()
    for part, rows in enumerate([range(40), range(0), range(40, 80)]):
        with open(tmp_path / "in" / f"part{part}.csv", "w", newline="") as fh:
            writer = csv.writer(fh)
            writer.writerow(["id", "text"])
            writer.writerows([demo.ids[i], demo.texts[i]] for i in rows)
    for where in (["--dask-workers", "1"], []):
        out = tmp_path / f"out{len(where)}"
        assert main(["-q", "cluster", str(tmp_path / "in"), "-k", "5", "--method", "nmf-ncw",
                     *where, "-o", str(out)]) == 0, capsys.readouterr().err
        if where:   # the part files number the others: part-00001.csv holds part2.csv's
            assert "1 of the 3 partitions holds no documents (part1.csv)" in \
                capsys.readouterr().err
    with open(tmp_path / "out2" / "assignments.csv") as fh:
        dask_rows = list(csv.reader(fh))
    with open(tmp_path / "out0" / "assignments.csv") as fh:
        memory_rows = list(csv.reader(fh))
    assert [r[:2] for r in dask_rows] == [r[:2] for r in memory_rows]
    record = json.loads((tmp_path / "out2" / "run.json").read_text())
    assert record["parameters"]["partition_sources"] == {"part-00000.csv": "part0.csv",
                                                         "part-00001.csv": "part2.csv"}


def test_many_small_partitions_are_said_to_be_slow(tmp_path, capsys):
    """600 partitions of one document took 70 s where 6 took 2.4 s, and nothing said why."""
    _corpus(tmp_path / "in", n_docs=100, per_file=5)
    assert main(["cluster", str(tmp_path / "in"), "-k", "3", "--dask-workers", "1",
                 "--max-iter", "5", "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert ("20 partitions of 5 documents on average, for 1 worker thread: each iteration "
            "runs tasks per partition") in err


def test_an_id_shared_across_parts_is_refused_as_in_memory(tmp_path, capsys):
    """The in-memory reader refuses it; on Dask both documents were written with one id."""
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "p1.jsonl").write_text('{"id": "a", "text": "stars galaxy orbit"}\n'
                                              '{"id": "b", "text": "oven bread butter"}\n')
    (tmp_path / "in" / "p2.jsonl").write_text('{"id": "c", "text": "stars galaxy telescope"}\n'
                                              '{"id": "a", "text": "oven bread flour"}\n')
    for where in ([], ["--dask-workers", "1"]):
        assert main(["-q", "cluster", str(tmp_path / "in"), "-k", "2", "--min-df", "1", *where,
                     "-o", str(tmp_path / "out")]) == 2
        assert "duplicate document id 'a' across the files" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_binary_files_in_a_folder_are_skipped_and_named_as_in_memory(tmp_path, capsys):
    """On Dask a PNG among the text files was read as a document of garbage; in memory it is
    skipped, with a warning naming it."""
    words = {"space": "stars planets orbit comet telescope galaxy",
             "food": "bread butter oven garlic dough flour"}
    for label, text in words.items():
        for i in range(6):
            (tmp_path / "in" / label).mkdir(parents=True, exist_ok=True)
            (tmp_path / "in" / label / f"{i}.txt").write_text(" ".join(text.split()[i % 3:]))
    (tmp_path / "in" / "space" / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    for where in ([], ["--dask-workers", "1"]):
        out = tmp_path / f"out{len(where)}"
        assert main(["-q", "cluster", str(tmp_path / "in"), "-k", "2", "--min-df", "1",
                     "--method", "nmf-ncw", *where, "-o", str(out)]) == 0
        assert ("1 entry of" in capsys.readouterr().err)
        run = json.loads((out / "run.json").read_text())
        assert run["corpus"]["skipped"] == [
            "space/photo.png (binary: a NUL byte in its first 8 KiB)"]
        ids = [r[0] for r in csv.reader((out / "assignments.csv").open())][1:]
        assert len(ids) == 12 and "space/photo.png" not in ids


def test_a_mixed_folder_is_described_as_in_memory(tmp_path, capsys):
    """A CSV file among text files, a file beside the subfolders and NIST tagged documents
    were said of in memory only."""
    words = {"space": "stars planets orbit comet telescope galaxy",
             "food": "bread butter oven garlic dough flour"}
    for label, text in words.items():
        (tmp_path / "in" / label).mkdir(parents=True)
        for i in range(6):
            (tmp_path / "in" / label / f"{i}.txt").write_text(" ".join(text.split()[i % 3:]))
    (tmp_path / "in" / "food" / "table.csv").write_text("id,text\n1,garlic bread\n")
    (tmp_path / "in" / "loose.txt").write_text("stars and comets")
    (tmp_path / "in" / "space" / "6.txt").write_text(
        "<DOC>\n<DOCNO> X1 </DOCNO>\n<TEXT>\nstars orbit\n</TEXT>\n</DOC>\n")
    said = []
    for where in ([], ["--dask-workers", "1"]):
        assert main(["cluster", str(tmp_path / "in"), "-k", "2", "--min-df", "1",
                     "--method", "nmf-ncw", *where, "-o", str(tmp_path / f"out{len(where)}")]) == 0
        said.append([line for line in capsys.readouterr().err.splitlines()
                     if "CSV/TSV/JSONL" in line or "beside subfolders" in line or "NIST" in line])
    assert said[1] == said[0] and len(said[0]) == 3
    assert "1 of the 15 files in" in said[0][2]


def test_what_the_readers_say_on_the_workers_is_said_once_as_in_memory(tmp_path, capsys):
    """Bytes that are not UTF-8 in a part: the warning went to the workers' own stderr (their
    log, or the terminal in Python's raw form), not to docnmf's."""
    parts = _corpus(tmp_path / "in", n_docs=200, per_file=100)
    with open(parts[1], "ab") as fh:
        fh.write(b'{"id": "x1", "text": "caf\xe9 and more words"}\n')
    said = []
    for where in ([], ["--dask-workers", "2"]):
        assert main(["-q", "cluster", str(tmp_path / "in"), "-k", "3", *where,
                     "-o", str(tmp_path / f"out{len(where)}")]) == 0
        said.append([line for line in capsys.readouterr().err.splitlines()
                     if "not valid utf-8" in line])
    assert len(said[0]) == 1 and said[1] == said[0]
    assert said[0][0].startswith("docnmf: warning: 1 document in ")


#: News paragraphs in French, written for the test.
FOREIGN = [("Le gouvernement a présenté un nouveau plan pour les petites entreprises, mais les "
            "syndicats appellent à la grève parce que les aides ne suffisent pas et que les prix "
            "de l'énergie continuent de monter dans tout le pays."),
           ("La société pétrolière a annoncé que les puits du sud produisent plus de barils que "
            "l'an dernier, et que le ministre a signé un accord pour les exportations vers les "
            "ports du nord dans les prochaines semaines.")]


def test_the_texts_findings_are_said_on_dask_as_in_memory(tmp_path, capsys):
    """On Dask only small clusters were named: copies, boilerplate lines, documents in another
    language and empty documents went unremarked, on the corpora large enough to need Dask."""
    from docnmf.corpus.demo import load_demo

    demo = load_demo()
    notice = "This message and its attachments are confidential and for the addressee only"
    records = [{"id": i, "text": f"{t}\n{notice}" if n % 3 == 0 else t, "label": lab[0]}
               for n, (i, t, lab) in enumerate(zip(demo.ids, demo.texts, demo.labels))]
    records += [{"id": f"foreign/{i}", "text": f"{FOREIGN[i % 2]} ({i})"} for i in range(6)]
    records += [{"id": "copy/1", "text": demo.texts[4]}, {"id": "copy/2", "text": demo.texts[4]},
                {"id": "blank", "text": "the and of"}]
    (tmp_path / "in").mkdir()
    for p in range(3):     # the copies and the original in different parts
        part = records[p::3]
        (tmp_path / "in" / f"part-{p}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in part))
    said, found = [], []
    for where in ([], ["--dask-workers", "1"]):
        out = tmp_path / f"out{len(where)}"
        assert main(["cluster", str(tmp_path / "in"), "-k", "5", "--method", "nmf-ncw",
                     *where, "-o", str(out)]) == 0
        said.append([line for line in capsys.readouterr().err.splitlines()
                     if any(w in line for w in ("not assigned", "repeating another",
                                                "another language", "recurs in"))])
        found.append(json.loads((out / "run.json").read_text())["diagnostics"])
    assert said[1] == said[0]
    assert len(said[0]) == 4, said[0]
    for key in ("unassigned", "duplicates", "boilerplate", "languages", "vocabulary"):
        assert found[1][key] == found[0][key], key
    assert sorted(found[0]["duplicates"]["examples"][0]) == ["copy/1", "copy/2", demo.ids[4]]
    assert found[0]["languages"]["documents"] == 6
    assert found[0]["boilerplate"]["lines"] == 1
    assert found[0]["unassigned"]["ids"] == ["blank"]


def test_files_per_partition_where_it_groups_nothing_is_said(tmp_path, capsys):
    """--files-per-partition 10 with a CSV file, or without Dask, was taken without a word."""
    from docnmf.corpus.demo import load_demo

    demo = load_demo()
    with open(tmp_path / "docs.csv", "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "text"])
        writer.writerows(zip(demo.ids, demo.texts))
    (tmp_path / "parts").mkdir()
    shutil.copy(tmp_path / "docs.csv", tmp_path / "parts" / "a.csv")
    for given, where, said in (
            ("docs.csv", ["--dask-workers", "1"], "a CSV/JSONL file is one partition"),
            ("parts", ["--dask-workers", "1"], "a CSV/JSONL file is one partition"),
            ("docs.csv", [], "--files-per-partition is read with --scheduler or --dask-workers")):
        assert main(["cluster", str(tmp_path / given), "-k", "5", "--method", "nmf-ncw",
                     "--files-per-partition", "10", *where,
                     "-o", str(tmp_path / f"o{given}{len(where)}")]) == 0
        assert said in capsys.readouterr().err


def test_constraint_files_are_refused_on_dask_as_in_memory(tmp_path, capsys):
    # in memory nmf and nmf-ncw refuse --must-link/--cannot-link; on Dask they were read by
    # nothing and the run clustered without them, exit status 0
    _corpus(tmp_path / "in", n_docs=40, per_file=20)
    (tmp_path / "ml.csv").write_text("d0,d1\n")
    for flag in ("--must-link", "--cannot-link"):
        out = tmp_path / f"out{flag}"
        assert main(["cluster", str(tmp_path / "in"), "-k", "3", "--dask-workers", "1",
                     flag, str(tmp_path / "ml.csv"), "-o", str(out)]) == 2
        err = capsys.readouterr().err
        assert "--must-link/--cannot-link need a semi-supervised method" in err
        assert err.count("\n") == 1 and not out.exists()


def test_summary_options_without_summaries_are_said_on_dask_as_in_memory(tmp_path, capsys):
    # in memory they are named as read with --summaries only; on Dask nothing was said
    # (an input that is missing: the warning comes before that error, and no cluster starts)
    for option in (["--max-documents", "5"], ["--summary-length", "100w"]):
        assert main(["cluster", str(tmp_path / "missing"), "-k", "3", "--dask-workers", "1",
                     *option]) == 2
        err = capsys.readouterr().err
        assert "--summary-length and --max-documents are read with --summaries only" in err


def test_run_json_records_the_input_path_and_reader_options_as_in_memory(tmp_path, capsys,
                                                                          monkeypatch):
    # README: run.json holds the input's path and reader options; on Dask it held neither, so
    # the columns and encoding a folder of parts was read with were not in the record
    # (and a folder name that is not UTF-8: its name and source were written as a lone
    # surrogate on Dask, as \xff in memory)
    name = os.fsdecode(b"in\xff")
    _corpus(tmp_path / name, n_docs=40, per_file=20)
    monkeypatch.chdir(tmp_path)
    common = ["-q", "cluster", name, "-k", "3", "--label-column", "label",
              "--encoding", "latin-1"]
    assert main([*common, "--method", "nmf-ncw", "-o", "memory"]) == 0
    assert main([*common, "--dask-workers", "1", "-o", "dask"]) == 0
    capsys.readouterr()
    runs = [json.loads((tmp_path / f / "run.json").read_text()) for f in ("dask", "memory")]
    assert runs[1]["corpus"]["path"] == str(tmp_path / "in\\xff")
    assert runs[1]["corpus"]["reader_options"]["label_column"] == "label"
    for key in ("path", "reader_options", "name", "source"):
        assert runs[0]["corpus"].get(key) == runs[1]["corpus"][key], key
