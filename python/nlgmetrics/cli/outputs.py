"""Files the command line writes (``report -o``, ``report --export-dir``) never destroy inputs.

The rules, checked for every path before anything is written (so a bad path fails with
nothing written, one line on stderr, exit 2):

- an output never resolves to a file named anywhere on the command line (compared by
  device and inode, symbolic links resolved, so ``-o ./ref.txt``, a hard link or a link
  to an input are all refused);
- an existing file is replaced only when nlgmetrics wrote it: a report page carries
  ``<meta name="generator" content="nlgmetrics report">``, and an export directory keeps
  a manifest (``.nlgmetrics-exports``) of the files written there with their SHA-256, so a
  file edited since, or one the user put there, is kept. ``--overwrite`` replaces them
  anyway. Re-running a report into the same places just works; a user's own file is
  never clobbered by surprise;
- a symbolic link at a destination is never written through: it is refused (with
  ``--overwrite`` the link itself is replaced, never its target);
- every file is written to a temporary file in its own directory and renamed into place
  (``os.replace``), so an interrupted run leaves the old file or the new one, never half
  of one. Every destination gets its temporary file (the export directory made) before
  any is filled, so a page or an export directory that cannot be written fails with
  nothing written, one line on stderr, exit 1.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Iterable

from .guard import UsageError

GENERATOR = '<meta name="generator" content="nlgmetrics report">'
MANIFEST = ".nlgmetrics-exports"
OUTPUT_KEYS = ("output", "export_dir")


def named_files(args: "argparse.Namespace", skip: "Iterable[str]" = OUTPUT_KEYS) -> list[str]:
    """Every existing file a command line names (any option or positional), outputs excepted."""
    found: list[str] = []
    for key, value in vars(args).items():
        if key in skip:
            continue
        for v in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(v, str) and v not in ("", "-") and os.path.isfile(v):
                found.append(v)
    return found


def _identity(path: str) -> tuple[int, int] | None:
    try:
        st = os.stat(path)  # follows links: a link to an input is that input
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def check_not_input(path: str, inputs: "Iterable[str]", what: str) -> None:
    me = _identity(path)
    real = os.path.realpath(path)
    for inp in inputs:
        if (me is not None and me == _identity(inp)) or real == os.path.realpath(inp):
            raise UsageError(f"{what} {path} is the input {inp}; it would be overwritten: choose another path")


def _sha256(path: str) -> str | None:
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


def _is_our_page(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    return GENERATOR.encode() in head


def _check_destination(path: str, what: str, ours: bool, overwrite: bool) -> None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as e:
        raise UsageError(f"{what} {path}: {e.strerror}") from None
    if stat.S_ISLNK(st.st_mode):
        if not overwrite:
            raise UsageError(f"{what} {path} is a symbolic link; nlgmetrics never writes through one (--overwrite replaces the link itself)")
        return
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{what} {path} is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{what} {path} is not a regular file")
    if not ours and not overwrite:
        raise UsageError(f"{what} {path} exists and was not written by nlgmetrics; pass --overwrite to replace it")


def _check_parent(path: str, what: str) -> None:
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise UsageError(f"{what} {path}: the directory {parent} does not exist")


def check_page(path: str, inputs: list[str], overwrite: bool) -> None:
    """``report -o``: checked before any scoring."""
    if path == "-":
        return
    check_not_input(path, inputs, "-o")
    _check_parent(path, "-o")
    _check_destination(path, "-o", ours=_is_our_page(path), overwrite=overwrite)


def check_result_file(path: str, inputs: list[str], what: str) -> None:
    """A result file that replaces what is there, as the official script's ``-o`` does (its
    reruns are the point), but never an input and never through a symbolic link."""
    check_not_input(path, inputs, what)
    _check_parent(path, what)
    _check_destination(path, what, ours=True, overwrite=False)


def check_export_dir(directory: str, inputs: list[str]) -> None:
    """``--export-dir``: an existing directory or one that can be made; not an input."""
    check_not_input(directory, inputs, "--export-dir")
    if os.path.lexists(directory) and not os.path.isdir(directory):
        raise UsageError(f"--export-dir {directory} is not a directory")
    if not os.path.isdir(directory):
        _check_parent(directory, "--export-dir")


def _manifest(directory: str) -> dict[str, str]:
    import json

    path = os.path.join(directory, MANIFEST)
    if os.path.islink(path):
        return {}
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(data, dict) else {}


def check_exports(directory: str, names: "Iterable[str]", inputs: list[str], overwrite: bool) -> None:
    """Every export file: not an input, not a link, replaced only if nlgmetrics wrote it."""
    written = _manifest(directory)
    for name in [*names, MANIFEST]:
        if os.path.basename(name) != name or name in ("", ".", ".."):
            raise UsageError(f"--export-dir: refusing the file name {name!r}")
        path = os.path.join(directory, name)
        check_not_input(path, inputs, "--export-dir file")
        ours = name == MANIFEST or (name in written and written[name] == _sha256(path))
        _check_destination(path, "--export-dir file", ours=ours, overwrite=overwrite)


class _InterruptDeferred:
    """Ctrl-C while a file is replaced waits until the file is whole and its temporary
    gone: the interrupt is delivered (the previous handler called) when the block ends."""

    def __enter__(self) -> "_InterruptDeferred":
        import signal

        self._pending = False
        try:
            self._previous = signal.signal(signal.SIGINT, self._note)
        except ValueError:  # not the main thread: signals go to the main thread anyway
            self._previous = None
        return self

    def _note(self, signum: int, frame: object) -> None:
        self._pending = True

    def __exit__(self, *exc: object) -> None:
        import signal

        if self._previous is None:
            return
        signal.signal(signal.SIGINT, self._previous)
        if self._pending and callable(self._previous):
            self._previous(signal.SIGINT, None)  # Python's handler: KeyboardInterrupt now
        elif self._pending and self._previous == signal.SIG_DFL:
            signal.raise_signal(signal.SIGINT)  # the default action, now


def _make_directory(directory: str) -> list[str]:
    """Make ``directory`` and any missing parents; the ones made, outermost first (so a
    failed run can take them away again)."""
    missing = []
    path = os.path.abspath(directory)
    while not os.path.isdir(path):
        missing.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    made: list[str] = []
    for path in reversed(missing):
        try:
            os.mkdir(path)
        except FileExistsError:
            if not os.path.isdir(path):
                raise
        except OSError as e:
            _remove_directories(made)
            raise OSError(e.errno, f"--export-dir {directory} cannot be made ({e.strerror})") from None
        made.append(path)
    return made


def _remove_directories(made: list[str]) -> None:
    for path in reversed(made):
        try:
            os.rmdir(path)
        except OSError:
            pass


def _temporary(path: str) -> tuple[int, str]:
    directory = os.path.dirname(os.path.abspath(path))
    try:
        return tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    except OSError as e:
        raise OSError(e.errno, f"cannot write {path} ({e.strerror})") from None


def _discard(temporaries: "Iterable[tuple[int | None, str]]") -> None:
    for fd, tmp in temporaries:
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.unlink(tmp)
        except OSError:
            pass


def write_all(files: dict[str, bytes], directory: str | None = None) -> None:
    """Every file or none. First a temporary file is made next to every destination (after
    making ``directory`` if it is missing), so a destination that cannot be written fails
    before any file is touched; then each is filled and synced; then each is renamed into
    place (``os.replace``, which replaces a link at the destination itself, never its
    target). A failure before the renames leaves every old file as it was, no temporary
    file, and no directory that this call made."""
    with _InterruptDeferred():  # a Ctrl-C meanwhile takes effect once every file is in place
        _write_all(files, directory)


def _write_all(files: dict[str, bytes], directory: str | None) -> None:
    made = _make_directory(directory) if directory is not None else []
    reserved: list[tuple[str, int | None, str]] = []
    try:
        for path in files:
            fd, tmp = _temporary(path)
            reserved.append((path, fd, tmp))
        umask = os.umask(0)
        os.umask(umask)
        for k, (path, fd, tmp) in enumerate(reserved):
            reserved[k] = (path, None, tmp)
            with os.fdopen(fd, "wb") as fh:  # closes fd, even when the write fails
                fh.write(files[path])
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp, 0o666 & ~umask)
        for k, (path, _, tmp) in enumerate(reserved):
            os.replace(tmp, path)
            reserved[k] = (path, None, "")
    except BaseException:
        _discard((fd, tmp) for _, fd, tmp in reserved if tmp)
        _remove_directories(made)
        raise


def atomic_write(path: str, data: bytes) -> None:
    """``data`` to ``path`` via a temporary file in the same directory and ``os.replace``."""
    write_all({path: data})


def export_files(directory: str, files: dict[str, bytes]) -> dict[str, bytes]:
    """The export files at their paths, with the manifest of what nlgmetrics wrote there."""
    import json

    written = _manifest(directory) if os.path.isdir(directory) else {}
    paths = {}
    for name, data in files.items():
        paths[os.path.join(directory, name)] = data
        written[name] = hashlib.sha256(data).hexdigest()
    paths[os.path.join(directory, MANIFEST)] = (json.dumps(written, indent=1, sort_keys=True) + "\n").encode("utf-8")
    return paths
