"""Fault injection on real processes: failing system calls, kill -9, Ctrl-C.

- A full disk (ENOSPC) and a refused permission (EACCES) at every write, open,
  fsync, rename and mkdir that ``docnmf cluster`` makes in the output's parent
  folder, injected below Python by an ``LD_PRELOAD`` library compiled here
  (the tests may run as root, where ``chmod`` stops nothing).
- ``kill -9`` at random moments of ``cluster`` and of ``evaluate --jobs 2``:
  no worker outlives its parent, the published folder is one run's whole,
  and the interrupted evaluation resumes to exactly the uninterrupted result.
- SIGINT to the process group of ``evaluate --jobs 2``: exit status 130
  within seconds, every time, no process left; and to a pool of thousands of tasks.

CI runs a few tries of each. ``DOCNMF_FAULTS=long`` runs every injection point
with both errors and the long kill and SIGINT loops (at least 50 SIGINT tries);
``DOCNMF_FAULTS_TRIES=N`` sets the number of tries of each loop.
"""

from __future__ import annotations

import csv
import errno
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

LONG = os.environ.get("DOCNMF_FAULTS") == "long"
TRIES = int(os.environ.get("DOCNMF_FAULTS_TRIES", 60 if LONG else 3))

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="LD_PRELOAD, /proc and PR_SET_PDEATHSIG are Linux's")

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* FAULT_DIR: only calls on paths below it count. FAULT_OP: which call (write, open, fsync,
   rename, mkdir). FAULT_AT: the n-th such call fails with FAULT_ERRNO; without it the calls
   are counted and the count printed to standard error at exit. */
static const char *dir, *op;
static long at = -1, count;
static int err = ENOSPC, ready;

static void init(void) {
    if (ready) return;
    ready = 1;
    dir = getenv("FAULT_DIR");
    op = getenv("FAULT_OP");
    if (getenv("FAULT_AT")) at = atol(getenv("FAULT_AT"));
    if (getenv("FAULT_ERRNO")) err = atoi(getenv("FAULT_ERRNO"));
}

static int under(const char *path) {
    return dir && path && strncmp(path, dir, strlen(dir)) == 0;
}

static int fd_under(int fd) {
    char link[64], buf[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, buf, sizeof buf - 1);
    if (n < 0) return 0;
    buf[n] = 0;
    return under(buf);
}

static int fails(const char *name) {
    init();
    if (!op || strcmp(op, name) != 0) return 0;
    count++;
    return count == at;
}

__attribute__((destructor)) static void report(void) {
    if (op && at < 0) {
        char line[128];
        int n = snprintf(line, sizeof line, "\nFAULT_COUNT %s %ld\n", op, count);
        syscall(SYS_write, 2, line, n);
    }
}

#define REAL(ret, name, ...) \
    static ret (*real)(__VA_ARGS__); \
    if (!real) real = (ret (*)(__VA_ARGS__))dlsym(RTLD_NEXT, name);

ssize_t write(int fd, const void *buf, size_t n) {
    REAL(ssize_t, "write", int, const void *, size_t)
    init();
    if (op && strcmp(op, "write") == 0 && fd > 2 && fd_under(fd) && fails("write")) {
        errno = err; return -1;
    }
    return real(fd, buf, n);
}

int fsync(int fd) {
    REAL(int, "fsync", int)
    init();
    if (op && strcmp(op, "fsync") == 0 && fd_under(fd) && fails("fsync")) {
        errno = err; return -1;
    }
    return real(fd);
}

static int opens_for_writing(int flags) {
    return (flags & (O_WRONLY | O_RDWR | O_CREAT)) != 0;
}

#define OPEN(name, ...) \
    int name(__VA_ARGS__) { \
        REAL(int, #name, __VA_ARGS__) \
        mode_t mode = 0; \
        if (flags & (O_CREAT | O_TMPFILE)) { \
            va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap); \
        } \
        init(); \
        if (opens_for_writing(flags) && under(path) && fails("open")) { \
            errno = err; return -1; \
        }

OPEN(open, const char *path, int flags, ...)
    return real(path, flags, mode); }
OPEN(open64, const char *path, int flags, ...)
    return real(path, flags, mode); }

int openat(int dirfd, const char *path, int flags, ...) {
    REAL(int, "openat", int, const char *, int, ...)
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap; va_start(ap, flags); mode = va_arg(ap, mode_t); va_end(ap);
    }
    init();
    if (opens_for_writing(flags) && under(path) && fails("open")) { errno = err; return -1; }
    return real(dirfd, path, flags, mode);
}

int rename(const char *a, const char *b) {
    REAL(int, "rename", const char *, const char *)
    init();
    if ((under(a) || under(b)) && fails("rename")) { errno = err; return -1; }
    return real(a, b);
}

int mkdir(const char *path, mode_t mode) {
    REAL(int, "mkdir", const char *, mode_t)
    init();
    if (under(path) && fails("mkdir")) { errno = err; return -1; }
    return real(path, mode);
}
"""

TOPICS = {
    "space": "comet orbit planet telescope star galaxy astronomer moon",
    "food": "garlic onion butter oven dough recipe bake sauce",
    "money": "bank rate inflation bond share market stock price",
    "sport": "goal match team league coach striker penalty final",
}


def write_corpus(path: Path, n_per_class: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["id", "text", "label"])
        for label, words in TOPICS.items():
            words = words.split()
            for i in range(n_per_class):
                w.writerow([f"{label}-{i}", " ".join(rng.choices(words, k=30)), label])
    return path


def docnmf(*args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "docnmf", "-q", *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=300, **kwargs)


def snapshot(folder: Path) -> dict[str, bytes]:
    """The folder's files and contents; what differs from run to run of the same input is set
    aside (run.json's timings, the report's times, the model's time of saving)."""
    out = {}
    for f in sorted(p for p in folder.rglob("*") if p.is_file()):
        name = f.relative_to(folder).as_posix()
        if name == "run.json":
            out[name] = json.dumps(json.loads(f.read_text())["parameters"]).encode()
        elif name == "report.html":
            out[name] = re.sub(rb"<tr><th>time to [^<]*</th><td>[^<]*</td></tr>", b"",
                               f.read_bytes())
        elif name == "model/model.json":
            record = json.loads(f.read_text())
            record.get("docnmf", {}).pop("saved", None)
            record.pop("saved", None)
            out[name] = json.dumps(record).encode()
        else:
            out[name] = f.read_bytes()
    return out


def leftovers(parent: Path, name: str) -> list[str]:
    return sorted(p.name for p in parent.iterdir()
                  if p.name.startswith(f".{name}.") and not p.name.endswith(".lock"))


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    if shutil.which("gcc") is None:
        if os.environ.get("CI"):
            pytest.fail("gcc is needed to build the fault-injection library")
        pytest.skip("gcc not found")
    folder = tmp_path_factory.mktemp("shim")
    (folder / "shim.c").write_text(SHIM)
    lib = folder / "shim.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", "-o", str(lib), str(folder / "shim.c"),
                    "-ldl"], check=True)
    return lib


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    folder = tmp_path_factory.mktemp("corpora")
    return write_corpus(folder / "a.csv", 6, seed=1), write_corpus(folder / "b.csv", 7, seed=2)


def _count(shim, op, outdir, corpus) -> int:
    """How many ``op`` calls a run into ``outdir`` (as it is) makes below its parent."""
    result = docnmf("cluster", str(corpus), "-k", "4", "--min-df", "1", "-o", str(outdir),
                    env={"LD_PRELOAD": str(shim), "FAULT_DIR": str(outdir.parent), "FAULT_OP": op})
    assert result.returncode == 0, result.stderr
    return int(result.stderr.split(f"FAULT_COUNT {op} ")[1].split()[0])


@pytest.mark.parametrize("op", ["open", "write", "fsync", "rename", "mkdir"])
def test_a_failing_system_call_never_mixes_or_tears_the_folder(shim, corpora, tmp_path, op):
    a, b = corpora
    parent = tmp_path / "outs"
    parent.mkdir()
    out = parent / "out"
    assert docnmf("cluster", str(b), "-k", "4", "--min-df", "1", "-o", str(out)).returncode == 0
    new = snapshot(out)
    assert docnmf("cluster", str(a), "-k", "4", "--min-df", "1", "-o", str(out)).returncode == 0
    old = snapshot(out)
    n = _count(shim, op, out, b)  # with a folder to replace, as in the runs below
    assert n > 0 and snapshot(out) == new
    assert docnmf("cluster", str(a), "-k", "4", "--min-df", "1", "-o", str(out)).returncode == 0
    errors = [errno.ENOSPC, errno.EACCES]
    ops = ["open", "write", "fsync", "rename", "mkdir"]
    points = [(at, e) for at in range(1, n + 1) for e in errors] if LONG else \
        [(random.Random(op).randint(1, n), errors[ops.index(op) % 2])]
    print(f"{op}: {n} calls, {len(points)} injections")
    for at, code in points:
        result = docnmf("cluster", str(b), "-k", "4", "--min-df", "1", "-o", str(out),
                        env={"LD_PRELOAD": str(shim), "FAULT_DIR": str(parent),
                             "FAULT_OP": op, "FAULT_AT": str(at), "FAULT_ERRNO": str(code)})
        assert "Traceback" not in result.stderr, (op, at, result.stderr)
        assert result.returncode in (0, 2), (op, at, result.stderr)
        if result.returncode == 2:
            (line,) = result.stderr.strip().splitlines()
            assert line.startswith(f"docnmf: error: cannot write to {out}: "), line
            assert os.strerror(code) in line
        assert snapshot(out) == (new if result.returncode == 0 else old), (op, at)
        # a failed run tidies up after itself (a folder renamed aside that could not be once
        # stayed beside the target), and the next run publishes whole
        assert leftovers(parent, "out") == [], (op, at, result.stderr)
        assert docnmf("cluster", str(a), "-k", "4", "--min-df", "1", "-o", str(out)).returncode == 0
        assert snapshot(out) == old and leftovers(parent, "out") == []


def processes_with(marker: str) -> list[int]:
    """Pids of the live processes whose command line holds ``marker`` (workers share it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
            state = next(line for line in (entry / "status").read_text().splitlines()
                         if line.startswith("State:"))
        except (OSError, StopIteration):
            continue
        if marker in cmdline and "Z" not in state.split()[1]:
            found.append(int(entry.name))
    return found


def wait_until_gone(marker: str, seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while (alive := processes_with(marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive


def test_kill_9_during_cluster_leaves_one_whole_folder(corpora, tmp_path):
    a, _ = corpora
    big = write_corpus(tmp_path / "big.csv", 150, seed=3)
    out = tmp_path / "out"
    assert docnmf("cluster", str(a), "-k", "4", "--min-df", "1", "-o", str(out)).returncode == 0
    old = snapshot(out)
    args = ["cluster", str(big), "-k", "4", "--min-df", "1", "--method", "lccf", "-o", str(out)]
    t0 = time.monotonic()
    assert docnmf(*args).returncode == 0
    duration = time.monotonic() - t0
    new = snapshot(out)
    rng = random.Random(9)
    outcomes = {"old": 0, "new": 0}
    for _ in range(TRIES):
        assert docnmf("cluster", str(a), "-k", "4", "--min-df", "1", "-o",
                      str(out)).returncode == 0
        proc = subprocess.Popen([sys.executable, "-m", "docnmf", "-q", *args],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.0, duration))
        proc.kill()
        proc.wait()
        state = snapshot(out)
        assert state in (old, new)
        outcomes["old" if state == old else "new"] += 1
    print(f"kill -9 of cluster: {TRIES} tries, folder whole every time: {outcomes}")
    assert docnmf(*args).returncode == 0 and leftovers(tmp_path, "out") == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_term_or_hangup_during_cluster_stops_as_ctrl_c_does(corpora, tmp_path, signum):
    """kill, timeout, CI cancelling and a closed terminal send these: the run ends with one line
    and status 128 + the signal, the folder is the old one or the new one whole, and no staging
    folder or lock is left beside it. CI sends the signal once the fit has begun; the long
    profile at random moments of the whole run, TRIES times."""
    a, _ = corpora
    big = write_corpus(tmp_path / "big.csv", 150, seed=3)
    out = tmp_path / "out"
    args = ["cluster", str(big), "-k", "4", "--min-df", "1", "--method", "lccf", "-o", str(out)]
    t0 = time.monotonic()
    assert docnmf(*args).returncode == 0
    duration = time.monotonic() - t0
    new = snapshot(out)
    assert docnmf("cluster", str(a), "-k", "4", "--min-df", "1", "-o", str(out)).returncode == 0
    old = snapshot(out)
    rng = random.Random(int(signum))
    for t in range(TRIES if LONG else 1):
        proc = subprocess.Popen([sys.executable, "-m", "docnmf", *args],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        said = []
        while not said or (not LONG and "clustering 600 documents" not in said[-1]):
            assert select.select([proc.stderr], [], [], 120)[0], "no progress line"
            said.append(proc.stderr.readline())     # the command runs: its handlers are set
        wait = rng.uniform(0.0, duration * 0.8) if LONG else 0.1
        time.sleep(wait)
        proc.send_signal(signum)
        err = "".join(said) + proc.communicate(timeout=60)[1]
        assert proc.returncode in (128 + signum, 0), (t, wait, err)  # 0: done before it
        if proc.returncode:
            assert err.splitlines()[-1] == f"docnmf: stopped by {signal.Signals(signum).name}"
        assert "Traceback" not in err
        assert snapshot(out) in (old, new)
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out.")] == [], t
        if proc.returncode == 0:    # put the old folder back for the next try
            assert docnmf("cluster", str(a), "-k", "4", "--min-df", "1", "-o",
                          str(out)).returncode == 0


def records(path: Path) -> list[dict]:
    """The run records of a results file, without the times (which differ by run)."""
    rows = [json.loads(line) for line in path.read_text().splitlines()[1:] if line.strip()]
    return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in rows),
                  key=lambda r: json.dumps(r, sort_keys=True))


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory):
    """An evaluation with two workers, its uninterrupted result and how long it takes."""
    folder = tmp_path_factory.mktemp("evaluation")
    corpus = write_corpus(folder / "e.csv", 25, seed=4)
    args = ["evaluate", str(corpus), "--methods", "nmf,km", "--k-range", "2-4", "--runs", "4",
            "--restarts", "2", "--jobs", "2"]
    t0 = time.monotonic()
    assert docnmf(*args, "-o", str(folder / "whole")).returncode == 0
    return args, records(folder / "whole" / "results.jsonl"), time.monotonic() - t0


def test_kill_9_during_evaluate_leaves_no_orphan_and_resumes_exactly(evaluation, tmp_path):
    args, expected, duration = evaluation
    rng = random.Random(11)
    kept = []
    for t in range(TRIES):
        out = tmp_path / f"run{t}"
        marker = str(out)
        proc = subprocess.Popen([sys.executable, "-m", "docnmf", "-q", *args, "-o", marker],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, duration))
        proc.kill()
        proc.wait()
        assert wait_until_gone(marker) == [], "a worker outlived its parent"
        partial = tmp_path / f".run{t}.partial" / "results.jsonl"
        kept.append(len(records(partial)) if partial.exists() else 0)
        if out.exists():  # finished before the kill: published whole
            assert records(out / "results.jsonl") == expected
        result = docnmf(*args, "-o", marker)
        assert result.returncode == 0, result.stderr
        assert records(out / "results.jsonl") == expected
        assert (out / "report.md").exists() and not (tmp_path / f".run{t}.partial").exists()
    print(f"kill -9 of evaluate --jobs 2: {TRIES} tries, no orphan, resumed exactly; "
          f"records kept from the killed runs: {kept}")


def interrupt(proc: subprocess.Popen, attempt: int, seconds: float) -> str:
    """Ctrl-C to ``proc``'s process group; its standard error once it ends (a failure if it
    still runs after ``seconds``)."""
    os.killpg(proc.pid, signal.SIGINT)
    try:
        return proc.communicate(timeout=seconds)[1]
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"try {attempt}: still running {seconds:g} s after Ctrl-C")


def test_ctrl_c_ends_evaluate_with_130_within_seconds(evaluation, tmp_path):
    args, expected, duration = evaluation
    rng = random.Random(13)
    tries = max(TRIES, 50) if LONG else TRIES
    times = []
    for t in range(tries):
        marker = str(tmp_path / f"run{t}")
        proc = subprocess.Popen([sys.executable, "-m", "docnmf", *args, "-o", marker],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        # the first progress line says the command runs (an interrupt while Python itself
        # starts up is the interpreter's, before any docnmf code)
        assert select.select([proc.stderr], [], [], 120)[0], "no progress line"
        first = proc.stderr.readline()
        time.sleep(rng.uniform(0.0, max(0.1, duration * 0.7)))
        sent = time.monotonic()
        err = first + interrupt(proc, t, 15)
        times.append(time.monotonic() - sent)
        assert proc.returncode in (130, 0), err  # 0: it had finished before the signal
        assert "Traceback" not in err
        assert wait_until_gone(marker, 5) == []
    print(f"SIGINT to evaluate --jobs 2: {tries} tries, exit codes 130/0, "
          f"slowest exit {max(times):.2f} s after the signal")


#: Thousands of tasks of a millisecond on two workers: reproduce's plans hold 16,200.
_MANY_TASKS = """
import sys, time
from docnmf.experiments.runner import run_tasks

def work(context, task):
    time.sleep(0.0005)
    return task

if __name__ == "__main__":
    print("started", flush=True)
    try:
        for _ in run_tasks(work, range(16000), None, jobs=2):
            pass
    except KeyboardInterrupt:
        sys.exit(130)
"""


def test_ctrl_c_among_thousands_of_tasks_ends_the_pool(tmp_path, docnmf_env):
    """reproduce cai2011-tdt2 --jobs 2 hung for good on some Ctrl-Cs: waiting for the next
    task took every pending future's lock, and an interrupt landing then left some held, on
    which the pool's shutdown waited for ever (5 of 6 tries hung here)."""
    script = tmp_path / "many.py"
    script.write_text(_MANY_TASKS)
    env = docnmf_env
    rng = random.Random(17)
    for t in range(TRIES):
        proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env,
                                start_new_session=True)
        assert select.select([proc.stdout], [], [], 60)[0] and proc.stdout.readline()
        time.sleep(rng.uniform(0.5, 2.5))
        err = interrupt(proc, t, 15)
        assert proc.returncode in (130, 0), err     # 0: all done before the signal
        assert "Traceback" not in err


def test_ctrl_c_while_the_command_loads_its_libraries_is_one_line(tmp_path):
    """SciPy and scikit-learn load inside the command's handler of Ctrl-C: an interrupt while
    they load (here: right after the first SciPy module, as ``-X importtime`` reports it) ends
    with one line and status 130, not a traceback."""
    for t in range(TRIES):
        out = tmp_path / f"o{t}"
        proc = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "docnmf", "cluster",
                                 "demo", "-k", "5", "-o", str(out)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        seen = []
        for line in proc.stderr:     # a line per module loaded
            seen.append(line)
            if re.search(r"\| +scipy\b", line):
                break
        err = interrupt(proc, t, 30)
        said = [x for x in "".join(seen + [err]).splitlines() if not x.startswith("import time")]
        assert proc.returncode == 130 and said == ["docnmf: interrupted"], said
        assert not out.exists()


def test_a_ctrl_c_python_cannot_raise_while_the_libraries_load_stops_the_command(tmp_path):
    """A Ctrl-C in importlib's module-lock callback while the command's libraries loaded (before
    it parsed its arguments) was printed as an ignored exception with a traceback, and the
    command went on to exit 0 (the library-load test, in CI)."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent("""
        import sys, time
        from docnmf import cli

        class Trap:
            def __del__(self):
                raise KeyboardInterrupt

        parser = cli.build_parser

        def loading():
            Trap()          # dropped at once, as importlib's callback is: Python cannot raise
            for _ in range(200):
                time.sleep(0.01)
            return parser()

        cli.build_parser = loading
        sys.argv = ["docnmf", "datasets"]
        sys.exit(cli.main())
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          check=False, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "docnmf: interrupted\n")


def test_a_library_s_error_while_python_shuts_down_is_not_shown(tmp_path):
    """After a Ctrl-C of evaluate, a process pool's callback raised while the interpreter shut
    down ("'NoneType' object has no attribute 'util'") and its traceback came under the
    command's line (1 in 50 tries of the long fault profile)."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent("""
        import sys
        from docnmf import cli

        class Late:
            def __del__(self):
                raise AttributeError("'NoneType' object has no attribute 'util'")

        keep = Late()       # a module's global: dropped as the interpreter shuts down
        sys.argv = ["docnmf", "-q", "datasets"]
        sys.exit(cli.main())
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          check=False, timeout=120,
                          env={**os.environ, "DOCNMF_DATA": str(tmp_path)})
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("before", ["interrupted", "finished", "stopped"])
def test_a_ctrl_c_in_the_commands_last_lines_is_one_line_and_status_130(tmp_path, before):
    """A Ctrl-C raised once the command's own handler has let go (after it said it was
    interrupted, or after it finished) ended the process by the signal: status -2."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        from docnmf import __main__, cli

        def command(args):
            if {before!r} == "interrupted":
                raise KeyboardInterrupt
            if {before!r} == "stopped":
                raise cli._Stopped(15)
            print("done")
            return 0

        def last_lines(main=cli.main):
            main(["datasets"])
            raise KeyboardInterrupt        # as the signal would, after the handler let go

        cli.COMMANDS["datasets"] = command
        cli.main = last_lines
        sys.exit(__main__.run())
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          check=False, timeout=120)
    said = "stopped by SIGTERM" if before == "stopped" else "interrupted"
    assert (proc.returncode, proc.stderr) == (143 if before == "stopped" else 130,
                                              f"docnmf: {said}\n")
    assert proc.stdout == ("done\n" if before == "finished" else "")


def test_a_ctrl_c_in_code_run_from_a_string_is_status_130_under_python_m(tmp_path):
    """A KeyboardInterrupt that leaves code run by exec or eval of a string (a namedtuple's,
    a dataclass's, SciPy's ``exec("from numpy import *")``, which imports numpy.f2py while
    SciPy loads) sets CPython's flag of an unhandled one, and under ``python -m`` the
    interpreter then ended itself by SIGINT at exit (status -2) after the command had said
    "interrupted" and returned 130: the long fault profile's library-load test, and two
    Ctrl-Cs while the libraries load."""
    (tmp_path / "ctrl_c_in_string_code.py").write_text(textwrap.dedent("""
        import os, signal, sys, time
        from docnmf import __main__, cli

        def command(args):
            exec("os.kill(os.getpid(), signal.SIGINT); time.sleep(30)",
                 {"os": os, "signal": signal, "time": time})
            print("went on")
            return 0

        cli.COMMANDS["datasets"] = command
        sys.argv = ["docnmf", "datasets"]
        sys.exit(__main__.run())
    """))
    proc = subprocess.run([sys.executable, "-m", "ctrl_c_in_string_code"], cwd=tmp_path,
                          capture_output=True, text=True, check=False, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "docnmf: interrupted\n")


def test_python_m_docnmf_cli_says_a_ctrl_c_as_python_m_docnmf_does(tmp_path):
    """``python -m docnmf.cli`` ran main() alone and ended by the signal (status -2) after a
    Ctrl-C left code run from a string, where ``python -m docnmf`` says status 130."""
    (tmp_path / "sitecustomize.py").write_text(textwrap.dedent("""
        import os, signal, time
        import docnmf.corpus

        def list_datasets():        # what `docnmf datasets` calls first
            exec("os.kill(os.getpid(), signal.SIGINT); time.sleep(30)",
                 {"os": os, "signal": signal, "time": time})
            return []

        docnmf.corpus.list_datasets = list_datasets
    """))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(tmp_path), *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.run([sys.executable, "-m", "docnmf.cli", "datasets"], env=env,
                          capture_output=True, text=True, check=False, timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "docnmf: interrupted\n")


def test_a_ctrl_c_python_cannot_raise_where_it_came_stops_the_command_in_one_line(tmp_path):
    """A Ctrl-C in logging's at-fork handler, while `evaluate --jobs 2` started a worker, was
    printed by Python as an ignored exception with a traceback, and the command went on
    (1 of 50 tries of the long profile). A finalizer raising KeyboardInterrupt is the same
    kind of place."""
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent("""
        import sys, time
        from docnmf import cli

        class Trap:
            def __del__(self):
                raise KeyboardInterrupt

        def command(args):
            Trap()          # dropped at once: its finalizer raises where Python cannot
            for _ in range(200):
                time.sleep(0.01)
            print("went on")
            return 0

        cli.COMMANDS["datasets"] = command
        sys.exit(cli.main(["datasets"]))
    """))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "docnmf: interrupted\n")
