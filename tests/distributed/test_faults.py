"""A worker killed in the middle of a fit: the fit recovers or fails clearly, writing nothing."""

from __future__ import annotations

import json
import logging
import os
import signal
import threading
import time

import dask.array as da
import numpy as np
import pytest
import scipy.sparse as sp
from distributed import default_client

from docnmf.cli import main
from docnmf.corpus.synthetic import planted_topic_model, write_topic_corpus
from docnmf.distributed import DaskNMFClustering, DaskVectorizer, DistributedFitError

from ..conftest import make_planted
from .conftest import start_cluster


class KillAWorker(logging.Handler):
    """At the ``at``-th iteration message, kill one worker process of the current client."""

    def __init__(self, at: int = 2):
        super().__init__()
        self.at, self.seen, self.killed = at, 0, None

    def emit(self, record):
        if not record.getMessage().startswith("iteration "):
            return
        self.seen += 1
        if self.seen == self.at and self.killed is None:
            pids = default_client().run(os.getpid)
            self.killed = sorted(pids.values())[0]
            os.kill(self.killed, signal.SIGKILL)


@pytest.fixture
def killer():
    handler = KillAWorker()
    log = logging.getLogger("docnmf.distributed.estimator")
    level = log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    yield handler
    log.removeHandler(handler)
    log.setLevel(level)


def _blocks():
    """Fixed row blocks: an in-memory matrix would be cut by the number of workers alive, and
    sums over other blocks differ in rounding, enough to choose between restarts that tie."""
    X = sp.csr_matrix(make_planted(300, 60, 3, seed=1, noise=0.3)[0])
    return da.from_array(X, chunks=(100, 60), asarray=False)


@pytest.fixture
def cluster_client():
    cluster, client = start_cluster(3)
    yield client
    client.close()
    cluster.close()


def test_a_fit_recovers_from_a_killed_worker(cluster_client, killer):
    X = _blocks()
    params = dict(n_clusters=3, init="random", n_init=2, max_iter=15, tol=-1.0, random_state=0)
    expected = DaskNMFClustering(client=cluster_client, **params).fit(X)
    labels = expected.labels_.compute()   # before the kill, which may take blocks of it along
    model = DaskNMFClustering(client=cluster_client, verbose=1, **params).fit(X)
    assert killer.killed is not None
    np.testing.assert_array_equal(model.labels_.compute(), labels)
    np.testing.assert_allclose(model.loss_history_, expected.loss_history_, rtol=1e-12)


def test_without_retries_a_lost_worker_is_recovered_by_dask_or_one_clear_error(cluster_client,
                                                                             killer):
    X = _blocks()
    params = dict(n_clusters=3, init="random", n_init=2, max_iter=15, tol=-1.0, random_state=0)
    labels = DaskNMFClustering(client=cluster_client, **params).fit(X).labels_.compute()
    try:
        model = DaskNMFClustering(retries=0, verbose=1, client=cluster_client, **params).fit(X)
    except DistributedFitError as exc:
        assert "nothing was written, run again" in str(exc)
    else:   # Dask rebuilt what the worker held while the rounds still referenced it
        np.testing.assert_array_equal(model.labels_.compute(), labels)
    assert killer.killed is not None


def test_the_matrix_is_rebuilt_when_every_worker_that_held_it_dies(cluster_client):
    """Each block of the vectorized corpus is recomputed from the texts. The vocabulary was
    scattered data, which the cluster soon held in one copy and could not make again: a fit
    that lost that worker failed on every retry."""
    import dask.bag as db

    from docnmf.text.vectorize import DocumentVectorizer

    from .test_text import TEXTS

    texts = TEXTS * 6
    expected = DocumentVectorizer(min_df=1).fit_transform(texts)
    X = DaskVectorizer(min_df=1, client=cluster_client).fit_transform(
        db.from_sequence(texts, npartitions=6))
    for pid in cluster_client.run(os.getpid).values():
        os.kill(pid, signal.SIGKILL)
    cluster_client.wait_for_workers(3, timeout=60)
    got = X.compute()
    assert got.shape == expected.shape
    assert abs(got - expected).max() <= 1e-15


def test_the_command_line_completes_or_fails_clearly_when_a_worker_dies(tmp_path, killer,
                                                                        capsys):
    model = planted_topic_model(n_topics=3, vocabulary_size=300, mean_length=30, seed=0)
    write_topic_corpus(tmp_path / "in", 600, model, docs_per_file=150, seed=0)
    out = tmp_path / "out"
    status = main(["cluster", str(tmp_path / "in"), "-k", "3", "--dask-workers", "3",
                   "--init", "random", "--restarts", "2", "--max-iter", "15", "--tol", "0",
                   "-o", str(out)])
    err = capsys.readouterr().err
    assert killer.killed is not None
    if status == 0:
        rows = (out / "assignments.csv").read_text().splitlines()
        assert len(rows) == 601
        assert json.loads((out / "metrics.json").read_text())["accuracy"] == 1.0
    else:
        # the blocks of X were lost beyond what their lineage rebuilds: one line, no output
        assert status == 1, err
        errors = [line for line in err.splitlines() if line.startswith("docnmf: error:")]
        assert len(errors) == 1 and "nothing was written, run again" in errors[0]
        assert "Traceback" not in err and not out.exists()
    # no staging folder left, nor the lock beside the folder
    assert sorted(p.name for p in tmp_path.iterdir()) == (
        ["in", "out"] if status == 0 else ["in"])


@pytest.mark.parametrize("when", ["docnmf: iteration 3:", "docnmf: clustering "])
def test_a_scheduler_killed_mid_fit_is_one_error_not_a_hang(tmp_path, when):
    """Real processes: a `dask scheduler`, a `dask worker` and `docnmf cluster --scheduler`.
    Killing the scheduler left the command waiting for ever on results that could not come;
    killed while the files were read, it said work was lost, then printed Dask's traceback;
    killed mid-fit, it said a worker was lost and fitted again first."""
    import subprocess
    import sys
    import time

    model = planted_topic_model(n_topics=3, vocabulary_size=300, mean_length=30, seed=0)
    write_topic_corpus(tmp_path / "in", 600, model, docs_per_file=150, seed=0)
    address_file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    scheduler = subprocess.Popen(dask + ["scheduler", "--host", "127.0.0.1", "--port", "0",
                                         "--no-dashboard", "--scheduler-file", str(address_file)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = run = None
    try:
        for _ in range(300):
            if address_file.exists() and address_file.read_text().strip():
                break
            time.sleep(0.1)
        address = json.loads(address_file.read_text())["address"]
        worker = subprocess.Popen(dask + ["worker", "--scheduler-file", str(address_file),
                                          "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        run = subprocess.Popen([sys.executable, "-m", "docnmf", "cluster", str(tmp_path / "in"),
                                "-k", "3", "--scheduler", address, "--init", "random",
                                "--restarts", "2", "--max-iter", "1000000", "--tol", "0",
                                "-o", str(tmp_path / "out")],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        lines = []
        for line in run.stderr:              # the fit is under way: kill its scheduler
            lines.append(line)
            if line.startswith(when):
                scheduler.kill()
                break
        assert scheduler.poll() is not None or scheduler.wait(10) is not None, "".join(lines)
        t0 = time.perf_counter()
        _, rest = run.communicate(timeout=120)     # it waited for ever before
        err, status = "".join(lines) + rest, run.returncode
        assert time.perf_counter() - t0 < 90
    finally:
        for proc in (run, worker, scheduler):
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
    assert status == 1, err
    errors = [line for line in err.splitlines() if line.startswith("docnmf: error:")]
    assert errors == [("docnmf: error: the connection to the Dask scheduler was lost (it "
                       "stopped, or cannot be reached); nothing was written, run again")], err
    assert "Traceback" not in err and not (tmp_path / "out").exists()
    assert "worker was lost" not in err and " - ERROR - " not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "scheduler.json"]


def test_a_cluster_left_without_workers_is_one_error_not_a_wait_for_ever(monkeypatch):
    """Both workers killed mid-fit (no nanny to restart them): the run waited for ever on
    results no worker would compute."""
    from distributed import Client, LocalCluster

    from docnmf.distributed import _rows

    monkeypatch.setattr(_rows, "NO_WORKERS_S", 3.0)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        future = client.submit(sum, [1, 2])
        with pytest.raises(_rows.NoWorkersLeft, match="has had no worker for 3 s"):
            _rows.gather(client, future, "adding")
        estimator = DaskNMFClustering(2, client=client)        # and no retry of the fit
        with pytest.raises(_rows.NoWorkersLeft):
            estimator.fit(sp.csr_matrix(np.eye(4) + 0.1))


class KillAtMessage(logging.Handler):
    """At the first message starting with ``text``, kill one worker process of the client."""

    def __init__(self, text: str):
        super().__init__()
        self.text, self.killed = text, None

    def emit(self, record):
        if self.killed is None and record.getMessage().startswith(self.text):
            self.killed = min(default_client().run(os.getpid).values())
            os.kill(self.killed, signal.SIGKILL)


def test_a_worker_lost_while_the_results_are_written_is_clustered_again(tmp_path, capsys):
    """The labels' blocks have no lineage: a worker lost while the assignments were written
    failed every such run ('already forgotten')."""
    model = planted_topic_model(n_topics=3, vocabulary_size=300, mean_length=30, seed=0)
    write_topic_corpus(tmp_path / "in", 600, model, docs_per_file=100, seed=0)
    assert main(["-q", "cluster", str(tmp_path / "in"), "-k", "3", "--dask-workers", "2",
                 "-o", str(tmp_path / "quiet")]) == 0
    handler = KillAtMessage("writing the assignments")
    log = logging.getLogger("docnmf.distributed.pipeline")
    level = log.level
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    try:
        status = main(["cluster", str(tmp_path / "in"), "-k", "3", "--dask-workers", "2",
                       "-o", str(tmp_path / "out")])
    finally:
        log.removeHandler(handler)
        log.setLevel(level)
    err = capsys.readouterr().err
    assert handler.killed is not None
    assert status == 0, err
    for name in ("assignments.csv", "clusters.csv"):
        assert (tmp_path / "out" / name).read_text() == (tmp_path / "quiet" / name).read_text()


def _slow(x, seconds):
    time.sleep(seconds)
    return x


def _column_missing(x):
    raise KeyError(f"column {x} missing")


def test_a_gather_says_what_failed_with_any_client_and_leaves_no_work_behind():
    """The gather that waited for every result first asked Dask's default client: with a
    client not made the default (or closed) a task's own error became "No clients found".
    Gathering in a thread of its own, an interrupted gather left that thread holding the
    futures, and the cluster computing them."""
    from distributed import Client, LocalCluster

    from docnmf.distributed import _rows

    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, \
            Client(cluster, set_as_default=False) as client:
        assert _rows.gather(client, [client.submit(_slow, 1, 0.0, pure=False)], "x") == [1]
        with pytest.raises(KeyError, match="column 1 missing"):
            _rows.gather(client, [client.submit(_column_missing, 1, pure=False)], "x")
        futures = [client.submit(_slow, i, 6.0, pure=False) for i in range(2)]
        threading.Timer(0.5, lambda: signal.raise_signal(signal.SIGINT)).start()
        with pytest.raises(KeyboardInterrupt):
            _rows.gather(client, futures, "x")
        assert all(f.status == "cancelled" for f in futures)
        deadline = time.monotonic() + 10
        while any(t.name == "docnmf-gather" for t in threading.enumerate()) \
                and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(t.name == "docnmf-gather" for t in threading.enumerate())


def test_a_gather_on_a_cluster_that_closes_is_the_scheduler_lost():
    from distributed import Client, LocalCluster

    from docnmf.distributed import _rows

    cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                           dashboard_address=None)
    with Client(cluster) as client:
        futures = [client.submit(_slow, i, 6.0, pure=False) for i in range(2)]
        threading.Timer(1.0, cluster.close).start()
        with pytest.raises(_rows.SchedulerLost, match="connection to the Dask scheduler was lost"):
            _rows.gather(client, futures, "x")
