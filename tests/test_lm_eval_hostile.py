"""``nlgmetrics lm-eval`` and ``tasks.lm_eval_folder`` as a hostile user meets them: every
broken output folder is a data error (exit 1, one line on stderr naming the file and, for
a samples file, the line; nothing on stdout, so ``-f json`` never prints half a document),
and nothing the user gave is changed. Each case is one edit of lm-eval's own folder
(tests/goldens/lm_eval_folders/mixed)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from nlgmetrics.cli.main import main
from nlgmetrics.errors import InvalidInputError
from nlgmetrics.tasks import lm_eval_folder
from nlgmetrics.tasks.lm_eval_compare import compare_folders
from nlgmetrics.tasks.lm_eval_folder import rescore_folder

GOLDENS = Path(__file__).parent / "goldens" / "lm_eval_folders"


def _copy(tmp_path: Path, name: str = "mixed") -> tuple[Path, Path]:
    dest = tmp_path / name
    shutil.copytree(GOLDENS / name, dest)
    return dest, next(p for p in dest.iterdir() if p.is_dir())


def _edit_line(path: Path, index: int, change) -> None:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    change(rows[index])
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _edit_results(model: Path, change) -> Path:
    (path,) = model.glob("results_*.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            h.update(str(p).encode())
            h.update(p.read_bytes())
    return h.hexdigest()


def _data_error(capsys, args: list[str]) -> str:
    """Both formats: exit 1, nothing on stdout, one line on stderr (returned)."""
    lines = []
    for fmt in ([], ["-f", "json"]):
        assert main(["lm-eval", *args, *fmt]) == 1
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1, (out, err)
        lines.append(err.strip())
    assert lines[0] == lines[1]
    return lines[0]


# (task of the samples file, 0-based line to edit, the edit, what the one line says after "file:line: ")
SAMPLES_LINE_CASES = {
    "no doc_id": ("toy_lambada", 3, lambda r: r.pop("doc_id"), 'missing "doc_id"'),
    "doc_id a string": ("toy_lambada", 3, lambda r: r.update(doc_id="x"), "\"doc_id\" must be an integer, got 'x'"),
    "doc_id a list": ("toy_lambada", 3, lambda r: r.update(doc_id=[3]), '"doc_id" must be an integer, got [3]'),
    "doc_id a boolean": ("toy_lambada", 3, lambda r: r.update(doc_id=True), '"doc_id" must be an integer, got True'),
    "doc_id repeated": ("toy_lambada", 3, lambda r: r.update(doc_id=0), "doc_id 0 of filter 'none' again (first on line 1)"),
    "filter a number": ("toy_gsm", 3, lambda r: r.update(filter=3), '"filter" must be the filter\'s name, got 3'),
    "generate_until without target": ("toy_gsm", 3, lambda r: r.pop("target"), 'missing "target"'),
    "generation a number": ("toy_gsm", 3, lambda r: r.update(resps=[[1]]), "resps[0][0] must be a generated text, got 1"),
    "generations nested deeper": ("toy_gsm", 3, lambda r: r.update(resps=[[["a"]]]), "resps[0][0] must be a generated text, got ['a']"),
    "mean metric a string": ("toy_lambada", 3, lambda r: r.update(acc="x"), "'acc' must be a number (its aggregation is the mean), got 'x'"),
    "mean metric null": ("toy_lambada", 3, lambda r: r.update(acc=None), "'acc' must be a number (its aggregation is the mean), got None"),
    "mean metric a list": ("toy_lambada", 3, lambda r: r.update(acc=[1]), "'acc' must be a number (its aggregation is the mean), got [1]"),
    "perplexity pair a string": ("toy_ppl", 3, lambda r: r.update(word_perplexity="x"),
                                 "word_perplexity,none: lm-eval aggregate: item 3 is not a (loglikelihood, count) pair"),
    "perplexity pair with NaN": ("toy_ppl", 3, lambda r: r.update(word_perplexity=[float("nan"), 3]),
                                 "word_perplexity,none: lm-eval aggregate: item 3: loglikelihood nan is not a finite log-likelihood (<= 0)"),
}


@pytest.mark.parametrize("case", SAMPLES_LINE_CASES, ids=list(SAMPLES_LINE_CASES))
def test_a_broken_samples_line_is_named_by_file_and_line(tmp_path, capsys, case):
    task, index, change, says = SAMPLES_LINE_CASES[case]
    dest, model = _copy(tmp_path)
    (samples,) = model.glob(f"samples_{task}_*.jsonl")
    _edit_line(samples, index, change)
    before = _tree_digest(dest)
    line = _data_error(capsys, [str(dest), "-t", task, "--bootstrap-iters", "0"])
    assert line == f"nlgmetrics: error: {samples}:{index + 1}: {says}"
    assert _tree_digest(dest) == before


# (the edit of the parsed results file, what the one line says after "results_<ts>.json: ")
RESULTS_FILE_CASES = {
    "group_subtasks a string": (lambda d: d.update(group_subtasks="x"), '"group_subtasks" must be an object, got str'),
    "group_subtasks of a string": (lambda d: d.update(group_subtasks={"g": "toy_gsm"}), "group_subtasks['g'] must be a list of task names"),
    "a group containing itself": (lambda d: d.update(group_subtasks={"toy_group": ["toy_group"]}), "group_subtasks has a cycle: toy_group -> toy_group"),
    "two groups in a cycle": (lambda d: d.update(group_subtasks={"a": ["b"], "b": ["c", "a"]}), "group_subtasks has a cycle: a -> b -> a"),
    "groups a list": (lambda d: d.update(groups=[]), '"groups" must be an object, got list'),
    "a results entry a list": (lambda d: d["results"].update(toy_ppl=[]), "results['toy_ppl'] must be an object, got list"),
    "versions a list": (lambda d: d.update(versions=[]), '"versions" must be an object, got list'),
    "higher_is_better of a number": (lambda d: d["higher_is_better"].update(toy_ppl=1), "higher_is_better['toy_ppl'] must be an object, got int"),
    "config a list": (lambda d: d.update(config=[1]), '"config" must be an object, got list'),
}


def test_a_filter_list_that_is_not_a_list_is_named(tmp_path, capsys):
    dest, model = _copy(tmp_path)
    _edit_results(model, lambda d: d["configs"]["toy_gsm"].update(filter_list="x"))
    (samples,) = model.glob("samples_toy_gsm_*.jsonl")
    says = _data_error(capsys, [str(dest), "-t", "toy_gsm"])
    assert says == f"nlgmetrics: error: {samples}: the task's filter_list must be a list of filters, got 'x'"


@pytest.mark.parametrize("case", RESULTS_FILE_CASES, ids=list(RESULTS_FILE_CASES))
def test_a_results_file_of_the_wrong_shape_is_named(tmp_path, capsys, case):
    change, says = RESULTS_FILE_CASES[case]
    dest, model = _copy(tmp_path)
    path = _edit_results(model, change)
    assert _data_error(capsys, [str(dest)]) == f"nlgmetrics: error: {path}: {says}"


def test_paths_that_are_not_an_output_folder(tmp_path, capsys):
    loop = tmp_path / "loop"
    loop.mkdir()
    os.symlink(loop / "a", loop / "b")
    os.symlink(loop / "b", loop / "a")
    assert _data_error(capsys, [str(loop / "a")]) == f"nlgmetrics: error: {loop / 'a'}: a symbolic link to nothing (broken, or a loop)"
    assert _data_error(capsys, [str(loop)]) == f"nlgmetrics: error: {loop}: no results_*.json here nor in a model folder below"
    assert _data_error(capsys, [os.devnull]) == f"nlgmetrics: error: {os.devnull}: not a file or folder"
    (tmp_path / "empty").mkdir()
    assert "no results_*.json here" in _data_error(capsys, [str(tmp_path / "empty")])


def test_an_unreadable_folder_or_samples_file_is_said_so(tmp_path, capsys, monkeypatch):
    # chmod does not stop root: the refusal the operating system gives is stood in for
    dest, model = _copy(tmp_path)
    real_listdir = os.listdir

    def denied(path):
        if Path(path) == model:
            raise PermissionError(13, "Permission denied")
        return real_listdir(path)

    monkeypatch.setattr(lm_eval_folder.os, "listdir", denied)
    assert _data_error(capsys, [str(model)]) == f"nlgmetrics: error: {model}: cannot read (Permission denied)"
    monkeypatch.undo()
    (samples,) = model.glob("samples_toy_ppl_*.jsonl")
    real_open = open

    def no_samples(path, *a, **kw):
        if str(path) == str(samples):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *a, **kw)

    monkeypatch.setattr("builtins.open", no_samples)
    with pytest.raises(InvalidInputError, match=r"samples_toy_ppl_.*\.jsonl: cannot read \(Permission denied\)"):
        rescore_folder(dest, tasks=["toy_ppl"], bootstrap_iters=0)


def test_whole_file_troubles(tmp_path, capsys):
    dest, model = _copy(tmp_path)
    (samples,) = model.glob("samples_toy_ppl_*.jsonl")
    good = samples.read_bytes()
    samples.write_bytes(good[:200] + b"\xff\xfe" + good[200:])
    assert _data_error(capsys, [str(dest), "-t", "toy_ppl"]) == f"nlgmetrics: error: {samples}: invalid UTF-8 at line 1, byte 201"
    samples.write_bytes(b"")
    assert _data_error(capsys, [str(dest), "-t", "toy_ppl"]) == f"nlgmetrics: error: {samples}: no samples"
    samples.write_bytes(good.replace(b"\n", b"\n\n", 3))  # blank lines are skipped, the numbers stay
    assert main(["lm-eval", str(dest), "-t", "toy_ppl", "-f", "json", "--check"]) == 0
    capsys.readouterr()
    for other in model.glob("samples_*.jsonl"):
        other.unlink()
    says = _data_error(capsys, [str(dest)])
    assert says == f"nlgmetrics: error: {model}: no samples file for task 'toy_gsm' (run lm-eval with --log_samples)"


def test_a_huge_generation_is_scored(tmp_path, capsys):
    dest, model = _copy(tmp_path)
    (samples,) = model.glob("samples_toy_gsm_*.jsonl")
    _edit_line(samples, 0, lambda r: r["resps"][0].__setitem__(0, "9" * 2_000_000))
    assert main(["lm-eval", str(dest), "-t", "toy_gsm", "-f", "json", "--bootstrap-iters", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["results"]["toy_gsm"]["exact_match,strict-match"] == 0.3  # line 1 was already wrong
    assert doc["signature"].startswith("lm-eval-folder|")


def test_compare_names_tasks_of_one_run_and_refuses_unpairable_ids(tmp_path, capsys):
    dest, model = _copy(tmp_path)
    _edit_results(model, lambda d: d["configs"].update(toy_extra=dict(d["configs"]["toy_ppl"])))
    (model / next(model.glob("samples_toy_ppl_*.jsonl")).name.replace("toy_ppl", "toy_extra")).write_bytes(
        next(model.glob("samples_toy_ppl_*.jsonl")).read_bytes())
    rows, skipped = compare_folders(GOLDENS / "mixed", dest, n_samples=10)
    assert "toy_extra: in B only" in skipped and rows
    (samples,) = model.glob("samples_toy_mc_a_*.jsonl")
    _edit_line(samples, 0, lambda r: r.update(doc_id=[0]))
    says = _data_error(capsys, [str(GOLDENS / "mixed"), "--compare", str(dest), "-t", "toy_mc_a", "--n-samples", "10"])
    assert says == f"nlgmetrics: error: {samples}:1: \"doc_id\" must be an integer, got [0]"


def test_a_logged_nan_gives_lm_evals_nan_as_json_null(tmp_path, capsys):
    dest, model = _copy(tmp_path)
    (samples,) = model.glob("samples_toy_lambada_*.jsonl")
    _edit_line(samples, 3, lambda r: r.update(acc=float("nan")))
    assert main(["lm-eval", str(dest), "-t", "toy_lambada", "-f", "json", "--bootstrap-iters", "0"]) == 0
    doc = json.loads(capsys.readouterr().out)  # strict JSON: NaN is written as null
    assert doc["results"]["toy_lambada"]["acc,none"] is None and doc["results"]["toy_lambada"]["acc_stderr,none"] == "N/A"


def test_ctrl_c_exits_130_with_one_line(tmp_path, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(lm_eval_folder, "rescore_folder", interrupted)
    assert main(["lm-eval", str(GOLDENS / "mixed"), "-f", "json"]) == 130
    out, err = capsys.readouterr()
    assert out == "" and err == "nlgmetrics: interrupted\n"
