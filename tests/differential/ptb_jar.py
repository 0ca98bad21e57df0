"""Differential harness: Stanford CoreNLP 3.4.1's PTBTokenizer (the jar pycocoevalcap runs)
against nlgmetrics' PTB tokenizer, line by line, on batches of captions.

One JVM per batch: the captions are joined with ``\\n`` into one file, exactly as
pycocoevalcap writes them, and the jar runs ``-preserveLines -lowerCase`` on it. Outputs are
compared before pycocoevalcap's punctuation filter (which is a plain list lookup), so every
token the lexer emits is checked.

What counts as a caption here (the contract, see docs/parity.md):
- a caption never contains ``\\n`` (pycocoevalcap replaces it by a space first);
- the jar also ends a line at CR, VT, FF, U+2028 and U+2029 (its NEWLINE rule), which makes
  pycocoevalcap assign every later line to the wrong caption. Such captions are compared
  in a batch of their own (:func:`jar_lines_for`), line-aligned only when the jar keeps the
  caption on one line;
- lone surrogates cannot be written as UTF-8, so neither pycocoevalcap nor nlgmetrics accepts
  them (nlgmetrics raises InvalidTextError).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

#: Line terminators of the jar's lexer besides ``\n`` (its NEWLINE rule).
JAR_LINE_BREAKS = "\r\x0b\x0c\u2028\u2029"


def jar_path() -> Path | None:
    try:
        import pycocoevalcap.tokenizer.ptbtokenizer as tok
    except ImportError:
        return None
    p = Path(tok.__file__).parent / "stanford-corenlp-3.4.1.jar"
    return p if p.is_file() else None


def java_available() -> bool:
    return shutil.which("java") is not None and jar_path() is not None


def jar_tokenize(captions: Sequence[str]) -> list[str]:
    """The jar's output line for each caption (one JVM for the whole batch)."""
    assert not any("\n" in c for c in captions)
    jar = jar_path()
    assert jar is not None
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as fh:
        fh.write("\n".join(captions).encode("utf-8"))
        name = fh.name
    try:
        proc = subprocess.run(
            ["java", "-Xss8m", "-cp", str(jar), "edu.stanford.nlp.process.PTBTokenizer", "-preserveLines", "-lowerCase", name],
            capture_output=True,
            check=True,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
        )
    finally:
        os.unlink(name)
    lines = proc.stdout.decode("utf-8").split("\n")
    if len(lines) != len(captions):
        raise AssertionError(f"the jar wrote {len(lines)} lines for {len(captions)} captions")
    return lines


def ours(captions: Sequence[str]) -> list[str]:
    from nlgmetrics import _core

    return list(_core.ptb_tokenize(list(captions), False, 1))


def differences(captions: Sequence[str], batch: int = 20000) -> tuple[int, list[tuple[str, str, str]]]:
    """(number compared, [(caption, ours, jar)]) over batches; captions in file order."""
    caps = [c for c in captions if not any(b in c for b in JAR_LINE_BREAKS)]
    diffs = []
    for k in range(0, len(caps), batch):
        chunk = caps[k : k + batch]
        want = jar_tokenize(chunk)
        got = ours(chunk)
        diffs += [(c, g, w) for c, g, w in zip(chunk, got, want) if g != w]
    return len(caps), diffs


def corpus_lines(root: Path) -> Iterable[str]:
    """Every line of every text file under ``root`` (jsonl: every string value)."""
    import json

    for f in sorted(root.rglob("*")):
        if not f.is_file() or f.suffix in {".gz", ".zip"}:
            continue
        try:
            text = f.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for line in text.split("\n"):
            if f.suffix == ".jsonl" and line.strip():
                yield from _strings(json.loads(line))
            elif f.suffix == ".tsv":
                yield from line.split("\t")
            else:
                yield line


def _strings(obj) -> Iterable[str]:
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)
