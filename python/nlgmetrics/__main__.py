"""The command line's entry: ``python -m nlgmetrics``, the ``nlgmetrics`` and ``sacrebleu-nm``
commands (``[project.scripts]`` names :func:`run` and :func:`run_sacrebleu`).

Ctrl-C ends the program with status 130 and at most one line on stderr at any moment of
its life, and leaves no half-written output:

- while the modules load, the handler installed first thing (this module imports only
  what the interpreter has loaded already) exits at once: nothing has been written yet;
- while the command runs, SIGINT raises ``KeyboardInterrupt``, which the command's guard
  (``cli/guard.py``) turns into status 130 and one line after output files are cleaned
  up (they are written to a temporary file and renamed, so whole or not at all); what
  is still buffered for stdout is dropped;
- a second Ctrl-C, or one after the command has ended, exits at once.
"""

from __future__ import annotations

import os
import sys

import _signal  # the interpreter's own: ``signal`` would first import ``enum`` (most of a window)

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a tool it stopped


def _say_interrupted(prog: str) -> None:
    if prog:
        try:
            os.write(2, f"{prog}: interrupted\n".encode())
        except OSError:  # stderr closed: the status still tells
            pass


def _exit_now(prog: str):
    def handler(signum, frame):  # noqa: ARG001 - a signal handler's signature
        _say_interrupted(prog)
        os._exit(EXIT_INTERRUPTED)

    return handler


def _raise_once(signum, frame):  # noqa: ARG001
    """The first Ctrl-C of a running command: ``KeyboardInterrupt`` (its cleanup runs); the next one exits."""
    _on_sigint(_exit_now(""))
    raise KeyboardInterrupt


def _on_sigint(handler) -> None:
    try:
        _signal.signal(_signal.SIGINT, handler)
    except ValueError:  # not the main thread (run from a thread): Python's own handling stays
        pass


def _run(prog: str, load) -> None:
    _on_sigint(_exit_now(prog))
    command = load()  # the heavy imports
    _on_sigint(_raise_once)
    try:
        status = command()
    except KeyboardInterrupt:  # raised outside the command's guard (its own bookkeeping)
        _on_sigint(_exit_now(""))
        _say_interrupted(prog)
        status = EXIT_INTERRUPTED
    # done: from here a Ctrl-C only ends the process (silently if one was reported)
    _on_sigint(_exit_now("" if status == EXIT_INTERRUPTED else prog))
    if status == EXIT_INTERRUPTED:
        try:
            sys.stderr.flush()
        except (AttributeError, OSError, ValueError):
            pass
        os._exit(EXIT_INTERRUPTED)  # without flushing stdout: an interrupted run writes nothing more
    sys.exit(status)


def _nlgmetrics():
    from .cli.main import main

    return main


def _sacrebleu():
    from .cli.sacrebleu_cli import main

    return lambda: main(prog="sacrebleu-nm")


def run() -> None:
    """The ``nlgmetrics`` command."""
    _run("nlgmetrics", _nlgmetrics)


def run_sacrebleu() -> None:
    """The ``sacrebleu-nm`` command (sacrebleu's own command line: silent on Ctrl-C, as it is)."""
    _run("", _sacrebleu)


if __name__ == "__main__":
    run()
