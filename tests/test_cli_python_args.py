"""Every Python argument an error message asks for has a command-line flag, and the
command line's error names the flag, not the Python argument (``-tok flores200``: pass
``--spm-model PATH``, not ``spm_model=PATH``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nlgmetrics.cli import main
from nlgmetrics.cli.main import build_parser, subparsers
from nlgmetrics.cli.python_args import FLAGS, PYTHON_ONLY, cli_words

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "nlgmetrics"
# "pass X=", "use X='v'", "needs X=", "give X=" and "X=PATH" in a message's line
_ASKED = re.compile(r"""\b(?:pass|use|needs|give|set)\s+([a-z_][a-z0-9_]*)=|\b([a-z_][a-z0-9_]*)=PATH\b""")


def _asked_for() -> dict[str, list[str]]:
    """Python argument -> the places (file:line) whose message lines ask for it."""
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(("compat/", "cli/")):  # other programs' faces; the command line itself
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = line.strip()
            if "raise" in text or "Error(" in text or text.startswith(('f"', '"', "f'", "'")):
                for m in _ASKED.finditer(line):
                    found.setdefault(m.group(1) or m.group(2), []).append(f"{rel}:{i}")
    return found


def _argument(key: str) -> str:
    m = re.search(r"([a-z_][a-z0-9_]*)=", key)
    return m.group(1) if m else key


def test_every_asked_argument_has_a_flag_or_is_python_only():
    asked = _asked_for()
    assert "spm_model" in asked and "encoder" in asked  # the scan sees the messages
    mapped = {_argument(k) for k in FLAGS}
    missing = {name: places for name, places in asked.items() if name not in mapped and name not in PYTHON_ONLY}
    assert not missing, f"messages ask for Python arguments with no flag in cli/python_args.py FLAGS: {missing}"
    stale = set(PYTHON_ONLY) - set(asked)
    assert not stale, f"PYTHON_ONLY names arguments no message asks for any more: {stale}"
    assert not set(PYTHON_ONLY) & mapped


def test_every_flag_named_exists():
    options = {s for p in subparsers(build_parser()).values() for a in p._actions for s in a.option_strings}
    for words in FLAGS.values():
        for flag in re.findall(r"--[a-z][a-z0-9-]*", words):
            assert flag in options, (words, flag)


def test_messages_read_with_flags():
    assert cli_words("nothing is downloaded: pass spm_model=PATH, or fetch it") == "nothing is downloaded: pass --spm-model PATH, or fetch it"
    assert cli_words("rescale_with_baseline needs lang= (or baseline_path=)") == "rescale_with_baseline needs --bertscore-lang LANG (or --bertscore-baseline TSV)"
    assert cli_words("-tl picks trg_lang= tokenizers") == "-tl picks trg_lang= tokenizers"  # a longer name is left alone


@pytest.fixture()
def texts(tmp_path):
    (tmp_path / "r.txt").write_text("the cat sat\n", encoding="utf-8")
    (tmp_path / "h.txt").write_text("the cat sat\n", encoding="utf-8")
    return tmp_path


def test_flores_without_a_model_names_the_flag(texts, monkeypatch, capsys):
    monkeypatch.setenv("SACREBLEU", str(texts / "no-cache"))
    code = main(["score", "-r", str(texts / "r.txt"), "-i", str(texts / "h.txt"), "-tok", "flores200"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "pass --spm-model PATH" in err and "spm_model" not in err


def test_spm_model_flag_reaches_bleu(texts, capsys):
    code = main(["score", "-r", str(texts / "r.txt"), "-i", str(texts / "h.txt"), "-tok", "flores200", "--spm-model", str(texts / "nope.model")])
    err = capsys.readouterr().err
    assert code == 2 and "'" + str(texts / "nope.model") + "' (--spm-model) does not exist" in err
    code = main(["score", "-r", str(texts / "r.txt"), "-i", str(texts / "h.txt"), "--spm-model", str(texts / "nope.model")])
    assert code == 2 and "--spm-model does not apply" in capsys.readouterr().err


def test_spm_model_flag_scores_as_the_python_argument(texts, capsys):
    """A real SentencePiece model through --spm-model gives BLEU(tokenize=..., spm_model=...)'s score."""
    spm = pytest.importorskip("sentencepiece")
    import json

    from nlgmetrics import BLEU

    train = texts / "train.txt"
    train.write_text("\n".join(f"the cat number {i} sat on the mat near dog {i * 7}" for i in range(300)), encoding="utf-8")
    spm.SentencePieceTrainer.train(input=str(train), model_prefix=str(texts / "m"), vocab_size=60, model_type="unigram", num_threads=1, minloglevel=2)
    model = str(texts / "m.model")
    (texts / "h2.txt").write_text("the cat sat on a mat\nnear dog 12\n", encoding="utf-8")
    (texts / "r2.txt").write_text("the cat sat on the mat\nnear the dog 12\n", encoding="utf-8")
    code = main(["score", "-r", str(texts / "r2.txt"), "-i", str(texts / "h2.txt"), "-tok", "flores200", "--spm-model", model, "-f", "json"])
    (row,) = json.loads(capsys.readouterr().out)
    want = BLEU(tokenize="flores200", spm_model=model).corpus_score(["the cat sat on a mat", "near dog 12"], [["the cat sat on the mat"], ["near the dog 12"]])
    assert code == 0 and row["score"] == want.score and "tok:flores200" in row["signature"]


def test_sacrebleu_face_says_where_the_model_goes(texts, monkeypatch, capsys):
    """sacrebleu's own command line has no flag for the model: its message says where the
    file goes and which nlgmetrics command takes a path, never the Python argument."""
    monkeypatch.setenv("SACREBLEU", str(texts / "no-cache"))
    code = main(["sacrebleu", str(texts / "r.txt"), "-i", str(texts / "h.txt"), "-tok", "flores200"])
    err = capsys.readouterr().err
    assert code == 1 and "put the model there (nlgmetrics score takes --spm-model PATH)" in err and "spm_model" not in err
