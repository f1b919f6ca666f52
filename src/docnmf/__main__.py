"""``python -m docnmf`` and the ``docnmf`` command."""

import signal
import sys


def run() -> int:
    """The command: :func:`docnmf.cli.main`, with a Ctrl-C while the command line's module is
    imported (the first tenth of a second), or after the command's own handler of it has
    let go, said in one line, status 130, as a Ctrl-C at any other moment is, not as a
    traceback or the end of the process by the signal."""
    try:
        return _run()
    finally:
        _forget_handled_interrupt()


def _run() -> int:
    try:
        from . import cli
    except KeyboardInterrupt:
        print("docnmf: interrupted", file=sys.stderr)
        return 130
    try:
        return cli.main()
    except KeyboardInterrupt as exc:
        # in the command's last lines (a Ctrl-C Python could not raise where it came is raised
        # again 10 ms later): it ended the process by the signal (status -2), after the
        # command's line, in 1 of 50 tries of the long fault profile under load
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        said = cli.said_interruption()
        if said is None:
            return cli._interrupted(exc)
        return 128 + said.signum if isinstance(said, cli._Stopped) else 130   # 143: SIGTERM


def _forget_handled_interrupt() -> None:
    """Clear CPython's note of an unhandled Ctrl-C, which the command has handled by now.

    A KeyboardInterrupt that leaves code run by exec or eval of a string (namedtuple's and
    dataclasses' generated methods; SciPy's ``exec("from numpy import *")``, which imports
    numpy.f2py while SciPy loads) sets that note, however the exception is caught later; under
    ``python -m`` the interpreter then ends itself by SIGINT at exit (status -2), whatever
    status ``sys.exit`` gave. Running any code from a string resets it; a KeyboardInterrupt
    that escapes :func:`run` is noted again by ``python -m`` once it has returned."""
    exec("")  # noqa: S102


if __name__ == "__main__":
    sys.exit(run())
