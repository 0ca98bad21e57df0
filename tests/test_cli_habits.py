"""Habits of the tools the subcommands replace: presets listed and strict about the flags
they would ignore, the SQuAD scripts' positional files, intervals that name their
resampler, and numbers that read an optional resource saying which."""

from __future__ import annotations

import argparse
import json

import pytest

from nlgmetrics.cli import main
from nlgmetrics.cli.main import build_parser, subparsers
from nlgmetrics.cli.presets import PRESET_DESTS
from nlgmetrics.metrics.llm.llm_presets import PRESET_FRAMEWORKS, PRESET_SOURCES, PRESETS

SCORE = subparsers(build_parser())["score"]


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# -- presets ----------------------------------------------------------------------------
def test_list_presets_names_every_preset_with_its_framework_version(capsys):
    code, out, _ = _run(capsys, ["score", "--list-presets"])
    assert code == 0
    for name in PRESETS:
        assert f"{name} " in out and PRESET_SOURCES[name] in out
    code, out, _ = _run(capsys, ["score", "--list-presets", "-f", "json"])
    rows = json.loads(out)
    assert [r["preset"] for r in rows] == list(PRESETS)
    by_name = {r["preset"]: r for r in rows}
    assert by_name["opencompass"]["framework"] == "opencompass-0.5.4" and by_name["opencompass"]["fields"] == ["prediction", "gold"]
    assert by_name["evalscope"]["framework"] == "evalscope-1.14.1" and by_name["evalscope"]["fields"] == ["prediction", "answer"]
    assert by_name["llamafactory"]["signature"].startswith("preset:llamafactory|framework:llamafactory-0.9.5|tok:jieba-")
    for name in PRESETS:  # every framework names a version
        assert any(c.isdigit() for c in PRESET_FRAMEWORKS[name]), name


def _value(action: argparse.Action) -> list[str]:
    """A value ``action`` accepts (so the parse succeeds and only the preset check speaks)."""
    if action.nargs == 0:
        return []
    if action.choices:
        first = [str(next(iter(action.choices)))]
    else:
        first = None
        for candidate in ("1", "0.5", "0.5,0.5", "x"):
            try:
                if action.type is not None:
                    action.type(candidate)
                first = [candidate]
                break
            except (TypeError, ValueError, argparse.ArgumentTypeError):
                continue
        assert first is not None, action
    n = action.nargs if isinstance(action.nargs, int) else 1
    return first * n


IGNORED = [a for a in SCORE._actions if a.option_strings and a.dest not in PRESET_DESTS and a.dest != "help"]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_preset_refuses_every_flag_it_would_ignore(preset, tmp_path, capsys):
    f = tmp_path / "p.jsonl"
    f.write_text("{}\n", encoding="utf-8")
    assert len(IGNORED) > 50  # score's metric, output and resampling flags
    for action in IGNORED:
        for option in action.option_strings:
            argv = ["score", "--jsonl", str(f), "--preset", preset, option, *_value(action)]
            code, out, err = _run(capsys, argv)
            assert code == 2 and out == "" and err.count("\n") == 1, (argv, err)
            assert f"ignores {'/'.join(action.option_strings)}: drop it" in err, (argv, err)


def test_preset_refusal_examples(tmp_path, capsys):
    f = tmp_path / "generated_predictions.jsonl"
    f.write_text(json.dumps({"predict": "今天天气很好", "label": "今天天气不错"}, ensure_ascii=False) + "\n", encoding="utf-8")
    code, _, err = _run(capsys, ["score", "--jsonl", str(f), "--preset", "llamafactory", "-m", "bleu"])
    assert code == 2 and err == "nlgmetrics: error: --preset llamafactory runs llamafactory's own pipeline and ignores -m/--metrics: drop it\n"
    code, _, err = _run(capsys, ["score", "--jsonl", str(f), "--preset", "llamafactory", "--rouge-stem"])  # an abbreviation, as argparse takes it
    assert code == 2 and "ignores --rouge-stemmer" in err
    code, _, err = _run(capsys, ["score", "--jsonl", str(f), "--preset", "llamafactory", "-w3"])
    assert code == 2 and "ignores -w/--width" in err
    for allowed in (["-f", "tsv"], ["--n-threads", "1"], ["-q"]):
        code, out, err = _run(capsys, ["score", "--jsonl", str(f), "--preset", "llamafactory", *allowed])
        assert code == 0 and "50.8133" in out, (allowed, err)


def test_evalscope_preset_equals_evalscope(tmp_path, capsys):
    """The preset on (prediction, answer) records gives evalscope 1.14.1's own means
    (tests/goldens/llm_presets/evalscope.json, made by its compute_rouge_score_one_sample_zh)."""
    from pathlib import Path

    g = json.loads((Path(__file__).parent / "goldens" / "llm_presets" / "evalscope.json").read_text(encoding="utf-8"))
    f = tmp_path / "es.jsonl"
    f.write_text("".join(json.dumps({"prediction": p, "answer": r}, ensure_ascii=False) + "\n" for p, r in zip(g["predictions"], g["references"])), encoding="utf-8")
    code, out, err = _run(capsys, ["score", "--jsonl", str(f), "--preset", "evalscope", "-f", "json"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["scores"] == g["means"] and doc["signature"].startswith("preset:evalscope|framework:evalscope-1.14.1|tok:jieba-")


def test_opencompass_preset_equals_opencompass(tmp_path, capsys):
    from pathlib import Path

    g = json.loads((Path(__file__).parent / "goldens" / "llm_presets" / "opencompass_longbench.json").read_text(encoding="utf-8"))["opencompass"]
    f = tmp_path / "oc.jsonl"
    f.write_text("".join(json.dumps({"prediction": p, "gold": r}, ensure_ascii=False) + "\n" for p, r in zip(g["predictions"], g["references"])), encoding="utf-8")
    code, out, err = _run(capsys, ["score", "--jsonl", str(f), "--preset", "opencompass", "-f", "json"])
    assert code == 0, err
    assert json.loads(out)["scores"] == g["scores"]["wmt22+adversarial"]


# -- the SQuAD scripts' positional files --------------------------------------------------
SQUAD = {"version": "v2.0", "data": [{"title": "t", "paragraphs": [{"context": "Paris is the capital of France.", "qas": [
    {"id": "q1", "question": "capital?", "answers": [{"text": "Paris", "answer_start": 0}], "is_impossible": False},
    {"id": "q2", "question": "moon?", "answers": [], "is_impossible": True}]}]}]}


@pytest.fixture()
def squad_files(tmp_path):
    (tmp_path / "dev.json").write_text(json.dumps(SQUAD), encoding="utf-8")
    (tmp_path / "pred.json").write_text(json.dumps({"q1": "Paris", "q2": "France"}), encoding="utf-8")
    (tmp_path / "na.json").write_text(json.dumps({"q1": 0.1, "q2": 0.9}), encoding="utf-8")
    return tmp_path


def test_squad_takes_the_scripts_positional_files(squad_files, capsys):
    d = squad_files
    positional = _run(capsys, ["squad", str(d / "dev.json"), str(d / "pred.json"), "--na-prob-file", str(d / "na.json")])
    flags = _run(capsys, ["squad", "-d", str(d / "dev.json"), "-p", str(d / "pred.json"), "-n", str(d / "na.json")])
    assert positional == flags and positional[0] == 0
    result = json.loads(positional[1])
    assert (result["exact"], result["best_exact"], result["best_exact_thresh"]) == (50.0, 100.0, 0.1)


def test_squad_files_given_twice_or_missing_are_usage_errors(squad_files, capsys):
    d = squad_files
    code, _, err = _run(capsys, ["squad", str(d / "dev.json"), str(d / "pred.json"), "-d", str(d / "dev.json")])
    assert code == 2 and "given twice" in err and err.count("\n") == 1
    code, _, err = _run(capsys, ["squad", str(d / "dev.json")])
    assert code == 2 and "give PRED.json (or -p)" in err


# -- intervals name their resampler -------------------------------------------------------
@pytest.fixture()
def texts(tmp_path):
    (tmp_path / "ref.txt").write_text("the cat sat on the mat\na dog ran in the park\nhello world again\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("the cat sat on a mat\na dog runs in a park\nhello world\n", encoding="utf-8")
    (tmp_path / "hyp2.txt").write_text("the cat is on the mat\na dog ran in park\nhello there world\n", encoding="utf-8")
    return tmp_path


def test_confidence_text_names_the_method(texts, capsys):
    base = ["score", "-r", str(texts / "ref.txt"), "-i", str(texts / "hyp.txt"), "--confidence", "-cin", "20"]
    _, out, _ = _run(capsys, base)
    assert "95% CI: nlgmetrics' bootstrap (Philox draws, exact sums), not sacrebleu's: --method sacrebleu gives sacrebleu's" in out
    _, out, _ = _run(capsys, [*base, "--method", "sacrebleu"])
    assert "95% CI: sacrebleu 2.6's bootstrap (its numpy draws and float32 sums, bit for bit)" in out
    _, out, _ = _run(capsys, [*base, "--resampling", "poisson"])
    assert "Poisson(1) weights keyed by segment id" in out
    _, out, _ = _run(capsys, [*base, "-f", "json"])
    assert json.loads(out)[0]["confidence_method"] == "nlgmetrics-multinomial"


def test_paired_test_explanation_names_the_method(texts, capsys):
    base = ["compare", "-r", str(texts / "ref.txt"), "-i", str(texts / "hyp.txt"), str(texts / "hyp2.txt")]
    _, _, err = _run(capsys, [*base, "--paired-bs", "-pbsn", "10"])
    assert " - Resampling: nlgmetrics' bootstrap resampling (Philox draws, exact sums), not sacrebleu's" in err
    _, _, err = _run(capsys, [*base, "--paired-ar", "-parn", "10", "--method", "sacrebleu"])
    assert " - Resampling: sacrebleu 2.6's approximate randomization" in err


# -- numbers that read an optional resource -----------------------------------------------
def test_rouge155_stemming_names_wordnet_and_the_switch(texts, capsys):
    base = ["score", "-r", str(texts / "ref.txt"), "-i", str(texts / "hyp.txt"), "-m", "rouge", "--rouge-flavour", "rouge155", "--rouge-stemmer"]
    _, out, err = _run(capsys, base)
    assert "stem:porter-perl+wordnet2.0" in out
    assert "nlgmetrics: note: ROUGE-1.5.5's stemmer reads WordNet 2.0's exception list" in err and "--rouge-no-wordnet" in err
    _, out, _ = _run(capsys, [*base, "-f", "json"])
    (row,) = json.loads(out)
    assert any("--rouge-no-wordnet" in note for note in row["resources"])
    _, out, err = _run(capsys, [*base, "--rouge-no-wordnet"])
    assert "stem:porter-perl|" in out and "note:" not in err


def test_punkt_and_spm_models_are_named(texts, capsys):
    from nlgmetrics.cli.resources import notes

    _, out, err = _run(capsys, ["score", "-r", str(texts / "ref.txt"), "-i", str(texts / "hyp.txt"), "-m", "rouge", "--rouge-types", "rougeLsum", "--rouge-split-summaries"])
    assert "split:punkt" in out and "Punkt model" in err
    _, out, err = _run(capsys, ["score", "-r", str(texts / "ref.txt"), "-i", str(texts / "hyp.txt"), "-m", "cmrc2018"])
    assert "tok:mixed-nltk" in out and "word_tokenize with the Punkt model" in err
    assert any("--spm-model" in n for n in notes("nrefs:1|case:mixed|eff:no|tok:flores200|smooth:exp|version:x"))
    assert notes("nrefs:1|tok:13a|version:x") == []
    _, _, err = _run(capsys, ["score", "-r", str(texts / "ref.txt"), "-i", str(texts / "hyp.txt")])
    assert err == ""


def test_correlation_intervals_name_their_resampler(texts, capsys):
    (texts / "human.tsv").write_text("hyp.txt\t0.5\nhyp2.txt\t0.3\nref.txt\t0.9\n", encoding="utf-8")
    argv = ["correlate", "-r", str(texts / "ref.txt"), "-i", str(texts / "hyp.txt"), str(texts / "hyp2.txt"), str(texts / "ref.txt"), "--human", str(texts / "human.tsv")]
    code, out, err = _run(capsys, [*argv, "-cin", "20"])
    assert code == 0 and "[" in out
    assert err == "95% CI: nlgmetrics' percentile bootstrap over segments (Philox draws, seed 12345); not sacrebleu's bootstrap, which intervals a score, not a correlation\n"
    code, out, err = _run(capsys, [*argv, "-cin", "0"])
    assert code == 0 and "[" not in out and err == ""


def test_list_presets_refuses_scoring_flags(capsys):
    code, out, err = _run(capsys, ["score", "--list-presets", "-m", "chrf"])
    assert code == 2 and out == "" and err == "nlgmetrics: error: --list-presets lists the presets and ignores -m/--metrics: drop it\n"
