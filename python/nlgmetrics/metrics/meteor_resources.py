"""Locating and loading METEOR 1.5's English resources without Java.

The files come from the installed ``pycocoevalcap`` package (the ``[meteor]`` extra):
``meteor/meteor-1.5.jar`` is a zip holding ``function/english.words``,
``nonbreaking/english.prefixes`` and ``synonym/english.{synsets,exceptions}`` (WordNet
3.0 derived); ``meteor/data/paraphrase-en.gz`` is the paraphrase table. Nothing is
downloaded. Parsed resources are cached per process (the paraphrase table takes a few
seconds and a few hundred MB).
"""

from __future__ import annotations

import gzip
import importlib.util
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


def load_resources(paraphrases: bool = True) -> "_core.MeteorResources":
    """The parsed English resources (cached); ``paraphrases=False`` skips the table."""
    d = meteor_dir()
    key = (str(d), paraphrases)
    with _LOCK:
        res = _CACHE.get(key)
        if res is None:
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
            _CACHE[key] = res
        return res
