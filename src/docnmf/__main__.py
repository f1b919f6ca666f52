"""``python -m docnmf`` and the ``docnmf`` command."""

import sys


def run() -> int:
    """The command: :func:`docnmf.cli.main`, with a Ctrl-C while the command line's module is
    imported (the first hundredths of a second) said in one line, status 130, as a Ctrl-C at
    any later moment is, not as a traceback."""
    try:
        from .cli import main
    except KeyboardInterrupt:
        print("docnmf: interrupted", file=sys.stderr)
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(run())
