"""``python -m docnmf`` and the ``docnmf`` command."""

import signal
import sys


def run() -> int:
    """The command: :func:`docnmf.cli.main`, with a Ctrl-C while the command line's module is
    imported (the first hundredths of a second), or after the command's own handler of it has
    let go, said in one line, status 130, as a Ctrl-C at any other moment is, not as a
    traceback or the end of the process by the signal."""
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


if __name__ == "__main__":
    sys.exit(run())
