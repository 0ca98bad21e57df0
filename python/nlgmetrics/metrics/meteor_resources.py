"""Locating and loading METEOR 1.5's English resources without Java.

The files come from the installed ``pycocoevalcap`` package (the ``[meteor]`` extra):
``meteor/meteor-1.5.jar`` is a zip holding ``function/english.words``,
``nonbreaking/english.prefixes`` and ``synonym/english.{synsets,exceptions}`` (WordNet
3.0 derived); ``meteor/data/paraphrase-en.gz`` is the paraphrase table. Nothing is
downloaded. Parsed resources are cached per process (the paraphrase table takes a few
seconds and a few hundred MB).

The first parse is also compiled into a binary file under the user's cache directory
(``$NLGMETRICS_CACHE_DIR``, else ``$XDG_CACHE_HOME/nlgmetrics``, else
``~/.cache/nlgmetrics``), named after pycocoevalcap's version, a hash of its resource
files' bytes and the cache format, so a new or changed package never reads an old file.
Parsed resources are kept by that hash too; the hash itself is taken again whenever a
file's identity changes (device, inode, size, modification and change times, through a
symbolic link): ``cp -p`` or an in-place edit moves the change time, which no one can set
back, and a swapped link is another inode. Later processes read that file in one go (a fraction of a second
instead of seconds). The file is written to a temporary name and renamed into place
(concurrent processes never see half a file); a damaged file is rebuilt; an unwritable
cache directory only costs the parse, every time.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.metadata
import importlib.util
import io
import os
import tempfile
import threading
import zipfile
from pathlib import Path

from .. import _core
from ..errors import MissingExtraError

JAR_MEMBERS = {
    "function_words": "function/english.words",
    "prefixes": "nonbreaking/english.prefixes",
    "synsets": "synonym/english.synsets",
    "exceptions": "synonym/english.exceptions",
}

_CACHE: dict[tuple[str, bool], "_core.MeteorResources"] = {}  # (content hash, paraphrases)
_DIGESTS: dict[tuple, str] = {}  # the source files' identities -> the hash of their bytes
_LOCK = threading.RLock()


def meteor_dir() -> Path:
    """``pycocoevalcap/meteor`` of the installed package, or a MissingExtraError."""
    spec = importlib.util.find_spec("pycocoevalcap")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError(
            "METEOR 1.5 reads its synonym, function-word and paraphrase tables from the "
            "pycocoevalcap package; install the extra: pip install 'nlgmetrics[meteor]'"
        )
    d = Path(next(iter(spec.submodule_search_locations))) / "meteor"
    if not (d / "meteor-1.5.jar").is_file():
        raise MissingExtraError(f"pycocoevalcap is installed but {d / 'meteor-1.5.jar'} is missing; reinstall 'nlgmetrics[meteor]'")
    return d


def cache_dir() -> Path:
    """Where compiled tables go: $NLGMETRICS_CACHE_DIR, $XDG_CACHE_HOME/nlgmetrics or ~/.cache/nlgmetrics."""
    explicit = os.environ.get("NLGMETRICS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "nlgmetrics"


def _sources(d: Path, paraphrases: bool) -> list[Path]:
    return [d / "meteor-1.5.jar"] + ([d / "data" / "paraphrase-en.gz"] if paraphrases else [])


def _identity(paths: list[Path]) -> tuple:
    """What changes whenever a file's bytes may have: ``stat`` through any link."""
    out = []
    for p in paths:
        try:
            st = p.stat()
        except FileNotFoundError:
            raise MissingExtraError(f"the METEOR resource {p} is missing; reinstall 'nlgmetrics[meteor]'") from None
        out.append((str(p), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    return tuple(out)


def _read(d: Path, paraphrases: bool) -> tuple[str, list[bytes]]:
    """The source files' bytes and their hash: the bytes hashed are the bytes parsed."""
    identity = _identity(_sources(d, paraphrases))
    raw = [p.read_bytes() for p in _sources(d, paraphrases)]
    h = hashlib.sha256()
    for b in raw:
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    digest = h.hexdigest()[:32]
    if len(_DIGESTS) > 16:
        _DIGESTS.clear()
    _DIGESTS[identity] = digest
    return digest, raw


def _digest(d: Path, paraphrases: bool) -> str:
    with _LOCK:
        got = _DIGESTS.get(_identity(_sources(d, paraphrases)))
        return got if got is not None else _read(d, paraphrases)[0]


def cache_file(d: Path, paraphrases: bool, digest: str | None = None) -> Path:
    """The compiled-table file for the resources in ``d``: its name changes with the source
    package's version, a hash of its files' bytes, and the cache format."""
    try:
        version = importlib.metadata.version("pycocoevalcap")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    digest = digest or _digest(d, paraphrases)
    name = f"meteor-en-{'para' if paraphrases else 'nopara'}-pycocoevalcap{version}-{digest}-f{_core.MeteorResources.cache_format}.bin"
    return cache_dir() / name


def _parse(raw: list[bytes]) -> "_core.MeteorResources":
    with zipfile.ZipFile(io.BytesIO(raw[0])) as jar:
        files = {k: jar.read(v) for k, v in JAR_MEMBERS.items()}
    para = gzip.decompress(raw[1]) if len(raw) > 1 else None
    res = _core.MeteorResources(paraphrases=para, **files)
    del para
    return res


def _save(res: "_core.MeteorResources", path: Path) -> None:
    """Write ``res`` to ``path`` atomically; any failure leaves no file and is ignored."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        os.close(fd)
    except OSError:
        return
    try:
        res.save_cache(tmp)
        os.replace(tmp, path)
    except Exception:  # a full disk or a read-only directory: stay uncached
        try:
            os.unlink(tmp)
        except OSError:
            pass


def load_resources(paraphrases: bool = True) -> "_core.MeteorResources":
    """The parsed English resources of the files as they are now (kept by their content's
    hash); ``paraphrases=False`` skips the table."""
    d = meteor_dir()
    with _LOCK:
        digest = _DIGESTS.get(_identity(_sources(d, paraphrases)))
        res = _CACHE.get((digest, paraphrases)) if digest is not None else None
        if res is not None:
            return res
        digest, raw = _read(d, paraphrases)
        res = _CACHE.get((digest, paraphrases))
        if res is None:
            path = cache_file(d, paraphrases, digest)
            try:
                res = _core.MeteorResources.load_cache(str(path)) if path.is_file() else None
            except Exception:  # damaged or foreign: rebuild below and replace it
                res = None
            if res is None:
                res = _parse(raw)
                _save(res, path)
            for key in [k for k in _CACHE if k[1] == paraphrases]:  # the tables of older content go
                del _CACHE[key]
            _CACHE[(digest, paraphrases)] = res
        return res
