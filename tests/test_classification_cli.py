"""``nlgmetrics classify``: TSV and JSONL input, streaming, errors and exit codes."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from nlgmetrics.cli import main

sk = pytest.importorskip("sklearn.metrics")


def run(argv, capsys):
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_tsv_binary_on_corpus(corpora, tmp_path, capsys):
    rows = list(csv.DictReader(open(corpora / "classification_sklearn" / "breast_cancer_oof.csv", newline="")))
    path = tmp_path / "bc.tsv"
    with open(path, "w") as f:
        f.write("y_true\ty_score\ty_pred\n")
        for r in rows:
            f.write(f"{r['y_true']}\t{r['p_logreg']}\t{int(float(r['p_logreg']) >= 0.5)}\n")
    code, out, _ = run(["classify", "-i", str(path), "-f", "json", "--curves"], capsys)
    assert code == 0
    res = json.loads(out)
    y = np.array([int(r["y_true"]) for r in rows])
    s = np.array([float(r["p_logreg"]) for r in rows])
    assert res["roc_auc"] == sk.roc_auc_score(y, s)
    assert res["average_precision"] == sk.average_precision_score(y, s)
    assert res["f1"] == sk.f1_score(y, (s >= 0.5).astype(int))
    assert res["roc_curve"]["fpr"] == sk.roc_curve(y, s)[0].tolist()
    for mode in ("exact", "binned"):
        code, out, _ = run(["classify", "-i", str(path), "-f", "json", "--streaming", mode, "--chunk-size", "100"], capsys)
        res = json.loads(out)
        if mode == "exact":
            assert res["roc_auc"] == sk.roc_auc_score(y, s)
        else:
            assert abs(res["roc_auc"] - sk.roc_auc_score(y, s)) <= res["auc_error_bound"]


def test_jsonl_multiclass(corpora, tmp_path, capsys):
    rows = list(csv.DictReader(open(corpora / "classification_sklearn" / "iris_oof.csv", newline="")))
    path = tmp_path / "iris.jsonl"
    with open(path, "w") as f:
        for r in rows:
            p = [float(r[f"p_{k}"]) for k in range(3)]
            f.write(json.dumps({"y_true": int(r["y_true"]), "y_score": p, "y_pred": int(np.argmax(p))}) + "\n")
    code, out, _ = run(["classify", "-i", str(path), "-f", "json", "--map-convention", "voc"], capsys)
    assert code == 0
    res = json.loads(out)
    assert res["roc_auc"] == 0.9972666666666666
    assert res["accuracy"] == 0.96 and res["f1"] == 0.9599839935974389
    assert "map_voc" in res


def test_text_and_tsv_outputs(tmp_path, capsys):
    path = tmp_path / "x.tsv"
    path.write_text("y_true\ty_pred\na\ta\nb\ta\nb\tb\n")
    code, out, _ = run(["classify", "-i", str(path), "--pos-label", "b"], capsys)
    assert code == 0 and "accuracy = 0.6667" in out and "confusion_matrix" in out
    code, out, _ = run(["classify", "-i", str(path), "--pos-label", "b", "-f", "tsv"], capsys)
    assert out.startswith("metric\tvalue\n")


@pytest.mark.parametrize(
    "content, message",
    [
        ("y_true\ty_score\n0\tnan\n1\t0.2\n", "finite"),
        ("y_true\ty_score\n0\t0.1\n1\n", "fields"),
        ("label\tscore\n0\t0.1\n", "y_true"),
        ('{"y_true": 0, "y_score": 0.1}\n{"y_true": 1\n', "invalid JSON"),
        ("y_true\ty_score\n0\tabc\n", "not a number"),
        ("y_true\ty_score\n", "no data"),
    ],
)
def test_data_errors_exit_1(tmp_path, capsys, content, message):
    path = tmp_path / "bad.txt"
    path.write_text(content)
    code, out, err = run(["classify", "-i", str(path)], capsys)
    assert code == 1 and out == "" and message in err and "Traceback" not in err


def test_usage_errors_exit_2(capsys):
    code, _, err = run(["classify", "--streaming", "sometimes"], capsys)
    assert code == 2
    code, _, err = run(["classify", "-i", "/nonexistent/file.tsv"], capsys)
    assert code == 1 and "No such file" in err
