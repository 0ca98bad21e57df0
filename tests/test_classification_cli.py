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


# -- nothing given on the command line is silently unused --------------------------------
_BIN = "y_true\ty_score\ty_pred\tw\n0\t0.1\t0\t1\n1\t0.8\t1\t2\n0\t0.5\t1\t1\n1\t0.3\t0\t1\n1\t0.9\t1\t3\n"
_MC1 = "y_true\ty_score\ty_pred\n0\t0.1\t0\n1\t0.8\t1\n2\t0.5\t2\n1\t0.3\t0\n"
_MC3 = "y_true\tp0\tp1\tp2\n0\t0.7\t0.2\t0.1\n1\t0.1\t0.8\t0.1\n2\t0.2\t0.2\t0.6\n1\t0.5\t0.4\t0.1\n0\t0.3\t0.3\t0.4\n"
_SCORES_ONLY = "y_true\ty_score\n0\t0.1\n1\t0.8\n0\t0.5\n1\t0.3\n"
_PREDS_ONLY = "y_true\ty_pred\n0\t0\n1\t1\n0\t1\n1\t0\n1\t1\n"


@pytest.mark.parametrize(
    ("data", "extra", "code", "names"),
    [
        # multiclass labels, one score column: the API refuses, so does the command line
        (_MC1, [], 1, "one score column"),
        (_MC1, ["--pos-label", "1"], 1, "one score column"),
        (_MC1, ["--streaming", "exact"], 1, "3 classes"),
        (_MC1, ["--streaming", "binned"], 1, "3 classes"),
        # options at their default values are still options the mode does not read
        (_BIN, ["--score-range", "0", "1"], 2, "--score-range"),
        (_BIN, ["--bins", "65536"], 2, "--bins"),
        (_BIN, ["--chunk-size", "1048576"], 2, "--chunk-size"),
        (_BIN, ["--streaming", "exact", "--score-range", "0", "1"], 2, "--score-range"),
        (_BIN, ["--average", "bogus"], 2, "average"),
        (_SCORES_ONLY, ["--average", "macro"], 2, "--average"),
        (_BIN, ["--multi-class", "ovr"], 2, "--multi-class"),
        (_PREDS_ONLY, ["--max-fpr", "0.5"], 2, "--max-fpr"),
        (_MC3.replace("y_true", "y_true"), ["--score-col", "p0", "p1", "p2", "--max-fpr", "0.5"], 2, "--max-fpr"),
        (_PREDS_ONLY, ["--curves"], 2, "--curves"),
        (_MC3, ["--score-col", "p0", "p1", "p2", "--curves"], 2, "--curves"),
        (_PREDS_ONLY, ["--map-convention", "coco"], 2, "--map-convention"),
        (_MC3, ["--score-col", "p0", "p1", "p2", "--pos-label", "1"], 2, "--pos-label"),
        (_MC3, ["--score-col", "p0", "p1", "p2", "--average", "micro"], 2, "--average"),
        # a named column that is not there is a data error, never dropped
        (_BIN, ["--weight-col", "nope"], 1, "--weight-col"),
        (_BIN, ["--pred-col", "nope"], 1, "--pred-col"),
        (_PREDS_ONLY, ["--score-col", "nope"], 1, "--score-col"),
    ],
)
def test_unused_or_unscorable_options_are_refused(tmp_path, capsys, data, extra, code, names):
    path = tmp_path / "in.tsv"
    path.write_text(data)
    got, out, err = run(["classify", "-i", str(path), "-f", "json", *extra], capsys)
    assert (got, out) == (code, "")
    assert err.count("\n") == 1 and err.startswith("nlgmetrics: error:") and names in err, err


def test_multiclass_average_and_weights_reach_the_scores(tmp_path, capsys):
    path = tmp_path / "in.tsv"
    path.write_text(_MC3.replace("y_true\tp0\tp1\tp2\n", "y_true\tp0\tp1\tp2\tw\n").replace("\n", "\t1\n").replace("y_true\tp0\tp1\tp2\tw\t1\n", "y_true\tp0\tp1\tp2\tw\n"))
    rows = [line.split("\t") for line in path.read_text().splitlines()[1:]]
    y = np.array([int(r[0]) for r in rows])
    s = np.array([[float(x) for x in r[1:4]] for r in rows])
    for avg in ("macro", "weighted"):
        code, out, _ = run(["classify", "-i", str(path), "-f", "json", "--score-col", "p0", "p1", "p2", "--average", avg, "--weight-col", "w"], capsys)
        assert code == 0
        got = json.loads(out)
        assert got["roc_auc"] == sk.roc_auc_score(y, s, multi_class="ovr", average=avg)
        assert got["average_precision"] == sk.average_precision_score(np.eye(3)[y], s, average=avg)
    code, _, err = run(["classify", "-i", str(path), "--score-col", "p0", "p1", "p2", "--multi-class", "ovo", "--weight-col", "w"], capsys)
    assert code == 2 and "--weight-col" in err


def test_every_classify_option_is_used_or_refused(tmp_path, capsys):
    # the whole class: each option alone on each input shape gives a number that read it
    # or a one-line refusal; an option that changes nothing on an input where it scores
    # would be silently ignored, so a success must differ from the run without it
    # (or the option must name what is already the default reading)
    inputs = {"binary": _BIN, "scores": _SCORES_ONLY, "preds": _PREDS_ONLY, "mc3": _MC3}
    options = [
        ["--average", "micro"], ["--average", "macro"], ["--multi-class", "ovo"], ["--max-fpr", "0.5"],
        ["--curves"], ["--map-convention", "voc11"], ["--pos-label", "0"], ["--bins", "10"],
        ["--score-range", "0", "2"], ["--chunk-size", "2"], ["--weight-col", "w"],
        ["--kappa-weights", "quadratic"], ["--calibration-bins", "3"],
    ]
    for shape, data in inputs.items():
        path = tmp_path / f"{shape}.tsv"
        path.write_text(data)
        base = ["classify", "-i", str(path), "-f", "json"] + (["--score-col", "p0", "p1", "p2"] if shape == "mc3" else [])
        code, plain, _ = run(base, capsys)
        assert code == 0
        for opt in options:
            code, out, err = run(base + opt, capsys)
            assert code in (0, 1, 2), (shape, opt)
            if code == 0:
                # naming the default reading; with two classes every kappa weighting is the plain one
                if (shape, *opt) not in {("mc3", "--average", "macro"), ("binary", "--kappa-weights", "quadratic"), ("preds", "--kappa-weights", "quadratic")}:
                    assert out != plain, (shape, opt, "accepted but changed nothing")
            else:
                assert out == "" and err.count("\n") == 1, (shape, opt, err)


def test_agreement_and_calibration_columns_equal_the_references(corpora, tmp_path, capsys):
    rows = list(csv.DictReader(open(corpora / "classification_sklearn" / "breast_cancer_oof.csv", newline="")))
    path = tmp_path / "bc.tsv"
    y = np.array([int(r["y_true"]) for r in rows])
    s = np.array([float(r["p_logreg"]) for r in rows])
    p = (s >= 0.5).astype(int)
    with open(path, "w") as f:
        f.write("y_true\ty_score\ty_pred\n")
        for a, b, c in zip(y, s, p):
            f.write(f"{a}\t{float(b)!r}\t{c}\n")
    from nlgmetrics import classification as C

    for weights in (None, "linear"):
        code, out, _ = run(["classify", "-i", str(path), "-f", "json", "--calibration-bins", "10"] + (["--kappa-weights", weights] if weights else []), capsys)
        assert code == 0
        got = json.loads(out)
        assert got["mcc"] == sk.matthews_corrcoef(y, p)
        assert got["cohen_kappa"] == sk.cohen_kappa_score(y, p, weights=weights)
        assert got["brier"] == sk.brier_score_loss(y, s)
        assert got["ece"] == C.binary_calibration_error(y, s, n_bins=10)
        assert got["mce"] == C.binary_calibration_error(y, s, n_bins=10, norm="max")
