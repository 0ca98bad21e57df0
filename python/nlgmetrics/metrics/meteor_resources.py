"""Locating and loading METEOR 1.5's English resources without Java.

The files come from the installed ``pycocoevalcap`` package (the ``[meteor]`` extra):
``meteor/meteor-1.5.jar`` is a zip holding ``function/english.words``,
``nonbreaking/english.prefixes`` and ``synonym/english.{synsets,exceptions}`` (WordNet
3.0 derived); ``meteor/data/paraphrase-en.gz`` is the paraphrase table. Nothing is
downloaded. Parsed resources are cached per process (the paraphrase table takes a few
seconds and a few hundred MB).

The first parse is also compiled into a binary file under the user's cache directory
(``$NLGMETRICS_CACHE_DIR``, else ``$XDG_CACHE_HOME/nlgmetrics``, else
``~/.cache/nlgmetrics``), named after pycocoevalcap's version, the sizes and modification
times of its resource files and the cache format, so a new or changed package never
reads an old file. Later processes read that file in one go (a fraction of a second
instead of seconds). The file is written to a temporary name and renamed into place
(concurrent processes never see half a file); a damaged file is rebuilt; an unwritable
cache directory only costs the parse, every time.
"""

from __future__ import annotations

import gzip
import importlib.metadata
import importlib.util
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

_CACHE: dict[tuple[str, bool], "_core.MeteorResources"] = {}
_LOCK = threading.Lock()


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


def cache_file(d: Path, paraphrases: bool) -> Path:
    """The compiled-table file for the resources in ``d``: its name changes with the source
    package's version, its files' sizes and times, and the cache format."""
    try:
        version = importlib.metadata.version("pycocoevalcap")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    sources = [d / "meteor-1.5.jar"] + ([d / "data" / "paraphrase-en.gz"] if paraphrases else [])
    stamp = "-".join(f"{st.st_size:x}.{st.st_mtime_ns:x}" for st in (p.stat() for p in sources))
    name = f"meteor-en-{'para' if paraphrases else 'nopara'}-pycocoevalcap{version}-{stamp}-f{_core.MeteorResources.cache_format}.bin"
    return cache_dir() / name


def _parse(d: Path, paraphrases: bool) -> "_core.MeteorResources":
    with zipfile.ZipFile(d / "meteor-1.5.jar") as jar:
        files = {k: jar.read(v) for k, v in JAR_MEMBERS.items()}
    para = None
    if paraphrases:
        table = d / "data" / "paraphrase-en.gz"
        if not table.is_file():
            raise MissingExtraError(f"the METEOR paraphrase table {table} is missing; reinstall 'nlgmetrics[meteor]'")
        para = gzip.decompress(table.read_bytes())
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
    """The parsed English resources (cached); ``paraphrases=False`` skips the table."""
    d = meteor_dir()
    key = (str(d), paraphrases)
    with _LOCK:
        res = _CACHE.get(key)
        if res is None:
            path = cache_file(d, paraphrases)
            try:
                res = _core.MeteorResources.load_cache(str(path)) if path.is_file() else None
            except Exception:  # damaged or foreign: rebuild below and replace it
                res = None
            if res is None:
                res = _parse(d, paraphrases)
                _save(res, path)
            _CACHE[key] = res
        return res
