"""A text that is not valid Unicode (a lone surrogate, which a ``\\ud800`` escape in JSON
gives) is an error naming the file and the record, from every reader: the SQuAD files
(the question id), ``score --jsonl`` (file:line and field), COCO captions, and the
metric's own inputs (``predictions[i]``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nlgmetrics.cli.main import main
from nlgmetrics.errors import InvalidTextError
from nlgmetrics.metrics.qa.squad import SQuADv2, evaluate_official_files
from nlgmetrics.tasks.coco import load_annotations, load_results


def squad_files(tmp: Path, *, pred: str = "cat", gold: str = "cat", version: str = "v2.0") -> tuple[Path, Path]:
    qas = [{"id": "q1", "question": "?", "answers": [{"text": "x", "answer_start": 0}]},
           {"id": "q\u00e92", "question": "?", "answers": [{"text": gold, "answer_start": 0}]}]
    data = {"version": version, "data": [{"title": "t", "paragraphs": [{"context": "x cat", "qas": qas}]}]}
    d, p = tmp / "dev.json", tmp / "pred.json"
    d.write_text(json.dumps(data), encoding="utf-8")
    p.write_text(json.dumps({"q1": "x", "q\u00e92": pred}), encoding="utf-8")
    return d, p


@pytest.mark.parametrize("version", ["2.0", "1.1"])
def test_squad_prediction_names_the_file_and_question(tmp_path, capsys, version):
    d, p = squad_files(tmp_path, pred="c\ud800at", version=version)
    want = f"{p}: the prediction of question 'q\u00e92' is not valid Unicode (a lone surrogate '\\ud800' at character 1)"
    with pytest.raises(InvalidTextError) as e:
        evaluate_official_files(str(d), str(p), version=version)
    assert str(e.value) == want
    assert main(["squad", "--data", str(d), "--pred", str(p), "--version", version]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and want in err


def test_squad_gold_answer_names_the_dataset_and_question(tmp_path, capsys):
    d, p = squad_files(tmp_path, gold="\udc00cat")
    with pytest.raises(InvalidTextError, match=rf"^{str(d)}: answer 0 of question 'q\u00e92' is not valid Unicode"):
        evaluate_official_files(str(d), str(p))


def test_squad_metric_names_the_item():
    with pytest.raises(InvalidTextError, match=r"^predictions\[1\] is not valid Unicode"):
        SQuADv2().corpus_score(["a", "b\udfff"], [["a"], ["b"]])
    with pytest.raises(InvalidTextError, match=r"^references\[0\]\[1\] is not valid Unicode"):
        SQuADv2().corpus_score(["a", None], [["a", "\ud800"], ["b"]])


@pytest.mark.parametrize(("record", "field"), [({"prediction": "b\ud800ad", "references": ["bad"]}, '"prediction"'),
                                               ({"prediction": "ok", "references": ["ok", "x\udfff"]}, '"references"[1]'),
                                               ({"prediction": "ok", "references": "x\udfff"}, '"references"')])
def test_jsonl_names_the_file_line_and_field(tmp_path, capsys, record, field):
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps({"prediction": "ok", "references": ["ok"]}) + "\n\n" + json.dumps(record) + "\n", encoding="utf-8")
    assert main(["score", "--jsonl", str(path), "-m", "bleu"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}:3: {field} is not valid Unicode (a lone surrogate" in err


def test_coco_captions_name_the_file_and_record(tmp_path):
    ann = tmp_path / "ann.json"
    ann.write_text(json.dumps({"images": [{"id": 1}], "annotations": [{"image_id": 1, "caption": "a dog"}, {"image_id": 1, "caption": "\ud800"}]}))
    with pytest.raises(InvalidTextError, match=rf"^{ann}: annotations\[1\]: the caption is not valid Unicode"):
        load_annotations(str(ann))
    res = tmp_path / "res.json"
    res.write_text(json.dumps([{"image_id": 1, "caption": "a \udfff"}]))
    with pytest.raises(InvalidTextError, match=rf"^{res}\[0\]: the caption is not valid Unicode"):
        load_results(str(res))


@pytest.mark.parametrize("reader", ["multiple_choice", "ifeval"])
@pytest.mark.parametrize("content, error, message", [
    (b'{"doc": 1}\n\xff\n', "InvalidTextError", "invalid UTF-8 at line 2"),
    (b'{"doc": 1}\n' + b"[" * 100000 + b"\n", "InvalidInputError", ":2: not JSON"),
    (b'{"doc": "\\ud800"}\n', "InvalidTextError", ":1: "),
])
def test_lm_eval_samples_readers_name_the_file_and_line(tmp_path, reader, content, error, message):
    """Both samples readers read JSON lines through one reader (io.text.read_jsonl_records):
    a bad byte, a record nested too deeply or a lone surrogate is a typed error naming the
    file and line, never a raw UnicodeDecodeError or RecursionError."""
    import nlgmetrics.errors as errors
    from nlgmetrics.metrics.llm.ifeval import read_ifeval_samples
    from nlgmetrics.metrics.llm.multiple_choice import read_lm_eval_samples

    path = tmp_path / "samples_x.jsonl"
    path.write_bytes(content)
    read = read_lm_eval_samples if reader == "multiple_choice" else read_ifeval_samples
    with pytest.raises(getattr(errors, error), match=f"samples_x.jsonl{message}" if message.startswith(":") else message):
        read(path)
