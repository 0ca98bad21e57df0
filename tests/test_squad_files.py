"""The core's reading of the SQuAD files (``nlgmetrics squad``, ``evaluate_official_files``)
against the general path (``json.loads`` of each file, then ``evaluate_official``, itself
== the official scripts' goldens in test_squad.py) and the goldens themselves.

Regular files are read by the core (asserted: ``_from_files`` is not ``None``); irregular
ones (a question without a prediction, a field given twice, ``NaN``, a lone surrogate
escape, a non-string prediction, UTF-16...) must take the general path, so that every
number, message and error is the general path's. With ``NLGMETRICS_SQUAD_SCRIPTS`` set to a
folder holding evaluate-v1.1.py and evaluate-v2.0.py, the generated files are also run
through the scripts themselves.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from nlgmetrics.cli.main import main
from nlgmetrics.errors import InvalidInputError
from nlgmetrics.metrics.qa.squad import _from_files, evaluate_official, evaluate_official_files

GOLDENS = Path(__file__).parent / "goldens" / "squad"
SCRIPTS = os.environ.get("NLGMETRICS_SQUAD_SCRIPTS")


def general(data: Path, pred: Path, na: Path | None = None, thresh: float = 1.0):
    """The general path: the files through Python's json, then evaluate_official."""
    msgs: list[str] = []
    ld = lambda p: json.loads(p.read_bytes())  # noqa: E731 (bytes: a BOM is skipped, as the CLI's loader)
    out = evaluate_official(ld(data), ld(pred), ld(na) if na else None, na_prob_thresh=thresh, warn=msgs.append,
                            names=(str(data), str(pred), str(na or "")))
    return out, msgs


def files(data: Path, pred: Path, na: Path | None = None, thresh: float = 1.0):
    msgs: list[str] = []
    out = evaluate_official_files(str(data), str(pred), str(na) if na else None, na_prob_thresh=thresh, warn=msgs.append)
    return out, msgs


def cli(capsys, data: Path, pred: Path, na: Path | None = None, thresh: float = 1.0):
    argv = ["squad", "--data", str(data), "--pred", str(pred), "--na-prob-thresh", repr(thresh)] + (["--na-prob", str(na)] if na else [])
    rc = main(argv)
    got = capsys.readouterr()
    return rc, got.out, got.err


def official(version: str, data: Path, pred: Path, na: Path | None = None, thresh: float = 1.0) -> subprocess.CompletedProcess:
    script = Path(SCRIPTS) / f"evaluate-v{version}.py"
    args = [str(data), str(pred)] if version == "1.1" else [str(data), str(pred), "-t", repr(thresh)] + (["-n", str(na)] if na else [])
    return subprocess.run([sys.executable, str(script), *args], capture_output=True, text=True)


# -- the committed goldens ---------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["coco", "zh", "adversarial"])
def test_goldens(case):
    d = GOLDENS / case
    exp = json.loads((d / "expected.json").read_text(encoding="utf-8"))
    v2 = (d / "dev-v2.0.json", d / "pred.json")
    assert _from_files(*map(str, v2), None, None, 0) is not None  # read by the core
    assert files(*v2)[0] == general(*v2)[0] == json.loads(exp["v2.0"]["stdout"])
    assert files(*v2, d / "na_prob.json")[0] == json.loads(exp["v2.0-na"]["stdout"])
    assert files(*v2, d / "na_prob.json", 0.5)[0] == json.loads(exp["v2.0-na-t0.5"]["stdout"])
    v1 = (d / "dev-v1.1.json", d / "pred-v1.1.json")
    out, msgs = files(*v1)
    assert out == general(*v1)[0] == json.loads(exp["v1.1"]["stdout"])
    assert "".join(m + "\n" for m in msgs) == exp["v1.1"]["stderr"]
    # the adversarial case leaves questions unanswered: the general path, with the script's messages
    assert (_from_files(*map(str, v1), None, None, 0) is None) == (case == "adversarial")


# -- generated files -----------------------------------------------------------------------------------
TEXTS = ["the Eiffel Tower", "Eiffel tower!", "an apple", "A", "", " ", "東京タワー", "東京 タワー", "ｆｕｌｌ　ｗｉｄｔｈ", "naïve café", "ΣΑΣ",
         "tab\there", "quote \" and \\ back", "😀 emoji", "line\nbreak", "1,889", "in 1889", "the the the", "Straße", "\u00a0nbsp\u2003"]


def make(rng: random.Random, n: int, *, dup_ids: bool, unanswerable: bool) -> tuple[dict, dict, dict]:
    ids = [f"q{i}" for i in range(n)]
    if dup_ids:
        ids += [rng.choice(ids) for _ in range(n // 5)]
        rng.shuffle(ids)
    qas = []
    for q in ids:
        k = 0 if unanswerable and rng.random() < 0.3 else rng.randint(1, 3)
        qas.append({"question": "?", "id": q, "answers": [{"text": rng.choice(TEXTS), "answer_start": rng.randint(0, 9)} for _ in range(k)],
                    "is_impossible": k == 0})
    paragraphs = [{"context": "ctx \u00e9 \\ \"", "qas": qas[i:i + 7]} for i in range(0, len(qas), 7)]
    data = [{"title": "t", "paragraphs": paragraphs[i:i + 3]} for i in range(0, len(paragraphs), 3)]
    preds = {q: rng.choice(TEXTS) for q in ids}
    probs = [0.0, 0.25, 0.5, 1, 0.5, 0.9, 0]  # ints and floats, ties
    na = {q: rng.choice(probs) for q in reversed(list(preds))}  # not dataset order
    return data, preds, na


def write(path: Path, obj, *, ensure_ascii: bool = True, bom: bool = False) -> Path:
    text = json.dumps(obj, ensure_ascii=ensure_ascii)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


@pytest.mark.parametrize("seed", range(6))
def test_generated_regular_files(tmp_path, capsys, seed):
    rng = random.Random(f"squad-files-{seed}")
    data, preds, na = make(rng, 60, dup_ids=seed % 2 == 1, unanswerable=True)
    ascii_ = seed % 3 != 0  # \uXXXX escapes (surrogate pairs for the emoji) or raw UTF-8
    for version, vname in (("2.0", "v2.0"), ("1.1", "1.1"), ("1.1", "1.0")):
        d = [{"title": a["title"], "paragraphs": [{"context": p["context"], "qas": [q for q in p["qas"] if q["answers"] or version == "2.0"]}
                                                 for p in a["paragraphs"]]} for a in data]
        dp = write(tmp_path / f"data{version}.json", {"version": vname, "data": d}, ensure_ascii=ascii_, bom=seed == 4)
        pp = write(tmp_path / "pred.json", preds, ensure_ascii=ascii_)
        np_ = write(tmp_path / "na.json", na) if version == "2.0" else None
        assert _from_files(str(dp), str(pp), None, None, 0) is not None
        if np_:
            assert _from_files(str(dp), str(pp), str(np_), None, 0)[3] is not None  # the probabilities read by the core
        for thresh in (1.0, 0.5):
            want, wmsgs = general(dp, pp, np_, thresh)
            got, gmsgs = files(dp, pp, np_, thresh)
            assert got == want and gmsgs == wmsgs
            assert [type(v) for v in got.values()] == [type(v) for v in want.values()]  # 1 stays an int threshold
            rc, out, err = cli(capsys, dp, pp, np_, thresh)
            assert rc == 0 and json.loads(out) == want and err == "".join(m + "\n" for m in wmsgs)
            if SCRIPTS and seed != 4:  # the scripts' text-mode json.load refuses a byte order mark; nlgmetrics squad skips it
                ref = official(version, dp, pp, np_, thresh)
                assert ref.returncode == 0 and out == ref.stdout and err == ref.stderr


def test_duplicate_prediction_keys_last_wins(tmp_path):
    data, preds, _ = make(random.Random("dup"), 20, dup_ids=False, unanswerable=True)
    dp = write(tmp_path / "d.json", {"version": "v2.0", "data": data})
    q = next(iter(preds))
    body = json.dumps(preds)
    pp = tmp_path / "p.json"
    for first, core in (('"wrong first"', True), ("7", False)):  # a non-string anywhere: the general path
        pp.write_text('{"%s": %s, "\\u0071%s": "wrong too",' % (q, first, q[1:]) + body[1:], encoding="utf-8")
        assert json.loads(pp.read_bytes())[q] == preds[q]  # a dict keeps the last value (keys compared unescaped)
        assert (_from_files(str(dp), str(pp), None, None, 0) is not None) == core
        assert files(dp, pp) == general(dp, pp)


IRREGULAR = {
    # name: (how the dataset text changes, how the predictions text changes)
    "missing prediction": (None, lambda p: json.dumps(dict(list(json.loads(p).items())[1:]))),
    "non-string prediction": (None, lambda p: p.replace('"q3": "', '"q3": ["', 1).replace('"q3": ["' , '"q3": 1, "x": "', 1)),
    "duplicate field": (lambda d: d.replace('"id": "q2"', '"id": "q2", "id": "q5"', 1), None),
    "lone surrogate id": (lambda d: d.replace('"id": "q4"', '"id": "q4\\ud800"', 1), lambda p: p.replace('"q4"', '"q4\\ud800"', 1)),
    "lone surrogate text": (None, lambda p: p.replace('"q1": "', '"q1": "\\udfff', 1)),
    "NaN in the dataset": (lambda d: d.replace('"answer_start": ', '"answer_start": NaN, "x": ', 1), None),
    "numeric id": (lambda d: d.replace('"id": "q6"', '"id": 6', 1), None),
    "answers not a list": (lambda d: d.replace('"answers": [', '"answers": {"0": [', 1).replace("], \"is_impossible\"", "]}, \"is_impossible\"", 1), None),
    "no version": (lambda d: d.replace('"version": "v2.0", ', "", 1), None),
    "dataset is a list": (lambda d: "[" + d + "]", None),
}


@pytest.mark.parametrize("name", list(IRREGULAR))
def test_irregular_files_take_the_general_path(tmp_path, capsys, name):
    data, preds, na = make(random.Random("irregular"), 40, dup_ids=False, unanswerable=True)
    dtext, ptext = json.dumps({"version": "v2.0", "data": data}), json.dumps(preds)
    fd, fp = IRREGULAR[name]
    dp, pp, np_ = tmp_path / "d.json", tmp_path / "p.json", write(tmp_path / "na.json", na)
    dp.write_text(fd(dtext) if fd else dtext, encoding="utf-8")
    pp.write_text(fp(ptext) if fp else ptext, encoding="utf-8")
    assert _from_files(str(dp), str(pp), None, None, 0) is None
    for na_path in (None, np_):
        try:
            want = ("ok",) + general(dp, pp, na_path)
        except Exception as e:  # the general path's error, as it is
            want = ("error", type(e), str(e))
        try:
            got = ("ok",) + files(dp, pp, na_path)
        except Exception as e:
            got = ("error", type(e), str(e))
        assert got == want
        if SCRIPTS and want[0] == "ok":
            ref = official("2.0", dp, pp, na_path)
            if ref.returncode == 0:  # (the script stops with a KeyError on a missing prediction; we score it 0, as v1.1)
                assert json.loads(ref.stdout) == want[1] and ref.stderr == "".join(m + "\n" for m in want[2])


@pytest.mark.parametrize("level", ["article", "paragraph", "question", "answer"])
def test_objects_given_as_lists_take_the_general_path(tmp_path, level):
    """An object of the dataset written as a list of its values (a form a struct reader may
    take for a tuple) is not the script's shape: the general path reports it."""
    data, preds, _ = make(random.Random("lists"), 12, dup_ids=False, unanswerable=False)
    art = data[0]
    par = art["paragraphs"][0]
    qa = par["qas"][0]
    if level == "article":
        data[0] = [art["paragraphs"]]
    elif level == "paragraph":
        art["paragraphs"][0] = [par["qas"]]
    elif level == "question":
        par["qas"][0] = [qa["id"], qa["answers"]]
    else:
        qa["answers"][0] = [qa["answers"][0]["text"]]
    dp, pp = write(tmp_path / "d.json", {"version": "1.1", "data": data}), write(tmp_path / "p.json", preds)
    assert _from_files(str(dp), str(pp), None, None, 0) is None
    with pytest.raises(InvalidInputError) as general_error:
        general(dp, pp)
    with pytest.raises(InvalidInputError) as files_error:
        files(dp, pp)
    assert str(files_error.value) == str(general_error.value)


def test_invalid_utf8_anywhere_takes_the_general_path(tmp_path):
    """Bytes that are not UTF-8 in a field the scores skip (a context) still make the file
    unreadable for the scripts' json: the core checks the whole file, not only the texts
    it keeps."""
    data, preds, _ = make(random.Random("utf8"), 10, dup_ids=False, unanswerable=False)
    dp, pp = tmp_path / "d.json", write(tmp_path / "p.json", preds)
    dp.write_bytes(json.dumps({"version": "1.1", "data": data}, ensure_ascii=False).encode("utf-8").replace(b"ctx", b"c\xfft", 1))
    assert _from_files(str(dp), str(pp), None, None, 0) is None
    with pytest.raises(InvalidInputError, match="not UTF-8"):
        evaluate_official_files(str(dp), str(pp))


def test_na_prob_irregular(tmp_path, capsys):
    """Irregular probability files (NaN, Infinity, a missing id, a non-dict, a key given
    twice) give the general path's numbers and errors, whichever path reads them."""
    data, preds, na = make(random.Random("na"), 30, dup_ids=True, unanswerable=True)
    dp, pp = write(tmp_path / "d.json", {"version": "v2.0", "data": data}), write(tmp_path / "p.json", preds)
    q = next(iter(na))
    cases = {"nan": json.dumps(na).replace(f'"{q}": {json.dumps(na[q])}', f'"{q}": NaN', 1),
             "inf": json.dumps(na).replace(f'"{q}": {json.dumps(na[q])}', f'"{q}": Infinity', 1),
             "missing": json.dumps({k: v for k, v in na.items() if k != q}),
             "list": json.dumps(list(na.values())),
             "dup": '{"%s": 0.75, ' % q + json.dumps(na)[1:]}
    for name, text in cases.items():
        np_ = tmp_path / f"na-{name}.json"
        np_.write_text(text, encoding="utf-8")
        try:
            want = ("ok",) + general(dp, pp, np_)
        except InvalidInputError as e:
            want = ("error", str(e))
        try:
            got = ("ok",) + files(dp, pp, np_)
        except InvalidInputError as e:
            got = ("error", str(e))
        assert got == want, name
        assert (want[0] == "ok") == (name in ("dup", "inf")), name  # Infinity is a number, as for the script
        rc, out, err = cli(capsys, dp, pp, np_)
        if want[0] == "ok":
            assert rc == 0 and json.loads(out) == want[1]
        else:
            assert rc == 1 and want[1] in err


# literal: (read by the core, as Python's json reads it)
NA_LITERALS = {"0": True, "1": True, "-1": True, "2": True, "0.0": True, "1.0": True, "0.5": True, "5E-1": True, "1e-3": True,
               "0.30000000000000004": True, "-0.0": True, "9007199254740991": True, "1e300": True, "1.5e-320": True,
               "-0": True, "9007199254740993": False, "123456789012345678901234567890": False, "1e16": True, "1e400": False,
               "9007199254740993.0": True, "-9007199254740992": False,
               "Infinity": False, "-Infinity": False, "NaN": False, "true": False, "null": False, '"0.5"': False, "[0.5]": False}


@pytest.mark.parametrize("literal", list(NA_LITERALS))
def test_na_prob_literals(tmp_path, capsys, literal):
    """Every probability is read as Python's json reads it: the core keeps finite floats
    (from the literal's own text, correctly rounded) and ints of magnitude below 2**53
    (exact in float64, so comparisons and sorting agree with Python's; ``-0`` is the int 0);
    anything else takes the general path. The search order (ties in the file's key order),
    the thresholds' types and values are the general path's."""
    data, preds, na = make(random.Random(f"lit-{literal}"), 24, dup_ids=True, unanswerable=True)
    dp, pp = write(tmp_path / "d.json", {"version": "v2.0", "data": data}), write(tmp_path / "p.json", preds)
    keys = list(na)
    body = ", ".join(f"{json.dumps(k)}: {literal if i % 3 == 0 else json.dumps(na[k])}" for i, k in enumerate(keys))
    for name, text in (("plain", "{" + body + "}"),
                       # a key twice (first place, last value), escaped keys and ids the dataset lacks
                       ("dup", '{"%s": 0.75, "extra": 3, %s, "\\u0071%s": %s, "zz": -1}' % (keys[1], body, keys[1][1:], literal))):
        np_ = tmp_path / f"na-{name}.json"
        np_.write_text(text, encoding="utf-8")
        core = _from_files(str(dp), str(pp), str(np_), None, 0)
        assert (core is not None) == NA_LITERALS[literal], (name, literal)
        for thresh in (1.0, 0.5, 0.0):
            try:
                want = ("ok",) + general(dp, pp, np_, thresh)
            except InvalidInputError as e:
                want = ("error", str(e))
            try:
                got = ("ok",) + files(dp, pp, np_, thresh)
            except InvalidInputError as e:
                got = ("error", str(e))
            assert got == want, (name, literal, thresh)
            if want[0] == "ok":
                assert [(k, type(v)) for k, v in got[1].items()] == [(k, type(v)) for k, v in want[1].items()]
                rc, out, _ = cli(capsys, dp, pp, np_, thresh)
                assert rc == 0 and out.strip() == json.dumps(want[1]) or json.loads(out) == want[1]
                if SCRIPTS:
                    ref = official("2.0", dp, pp, np_, thresh)
                    assert ref.returncode == 0 and json.loads(ref.stdout) == want[1]


def test_na_prob_search_order_is_the_files(tmp_path):
    """Ties are searched in the probabilities file's key order, not the dataset's: the
    same probabilities listed in two orders can give different best thresholds, and each
    is the general path's (and the script's)."""
    data, preds, _ = make(random.Random("order"), 40, dup_ids=False, unanswerable=True)
    dp, pp = write(tmp_path / "d.json", {"version": "v2.0", "data": data}), write(tmp_path / "p.json", preds)
    rng = random.Random(5)
    seen = set()
    for k in range(6):
        ids = list(preds)
        rng.shuffle(ids)
        np_ = write(tmp_path / f"na{k}.json", {q: rng.choice([0, 0.5, 1]) for q in ids})
        assert _from_files(str(dp), str(pp), str(np_), None, 0)[3] is not None
        got = files(dp, pp, np_)[0]
        assert got == general(dp, pp, np_)[0]
        seen.add((got["best_f1"], got["best_f1_thresh"]))
    assert len(seen) > 1  # the orders mattered, and both paths followed the file


def test_utf16_and_invalid_json_take_the_general_path(tmp_path, capsys):
    data, preds, _ = make(random.Random("utf16"), 10, dup_ids=False, unanswerable=False)
    dp = tmp_path / "d.json"
    dp.write_bytes(json.dumps({"version": "1.1", "data": data}).encode("utf-16"))
    pp = write(tmp_path / "p.json", preds)
    assert _from_files(str(dp), str(pp), None, None, 0) is None
    assert files(dp, pp) == general(dp, pp)  # Python's json reads UTF-16 bytes
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": "1.1", "data": [', encoding="utf-8")
    with pytest.raises(InvalidInputError, match="not valid JSON"):
        evaluate_official_files(str(bad), str(pp))
    rc, out, err = cli(capsys, bad, pp)
    assert rc == 1 and "not valid JSON (the dataset)" in err and out == ""


def test_v1_with_na_prob_is_a_usage_error(tmp_path, capsys):
    data, preds, na = make(random.Random("v1na"), 10, dup_ids=False, unanswerable=False)
    dp, pp, np_ = write(tmp_path / "d.json", {"version": "1.1", "data": data}), write(tmp_path / "p.json", preds), write(tmp_path / "n.json", na)
    assert _from_files(str(dp), str(pp), None, None, 0) is not None
    rc, out, err = cli(capsys, dp, pp, np_)
    assert rc == 2 and "--na-prob is for SQuAD v2.0" in err


def test_out_file_never_replaces_an_input_or_writes_through_a_link(tmp_path, capsys):
    """``--out-file`` replaces an earlier result, as the script's ``-o`` does, but an input
    (by name, through a link, or a hard link), a symbolic link or a directory is refused
    before anything is read (exit 2, one line, nothing changed); the write is atomic."""
    data, preds, na = make(random.Random("out"), 12, dup_ids=False, unanswerable=True)
    dp, pp, np_ = write(tmp_path / "d.json", {"version": "v2.0", "data": data}), write(tmp_path / "p.json", preds), write(tmp_path / "n.json", na)
    base = ["squad", "--data", str(dp), "--pred", str(pp), "--na-prob", str(np_), "--out-file"]
    out = tmp_path / "eval.json"
    out.write_text("old result", encoding="utf-8")
    assert main(base + [str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8")) == general(dp, pp, np_)[0]
    capsys.readouterr()
    link, hard, target = tmp_path / "link.json", tmp_path / "hard.json", tmp_path / "target.json"
    target.write_text("keep", encoding="utf-8")
    link.symlink_to(target)
    os.link(pp, hard)
    before = {p: p.read_bytes() for p in (dp, pp, np_, target)}
    for dest, why in ((dp, "is the input"), (np_, "is the input"), (hard, "is the input"), (tmp_path / "." / "p.json", "is the input"),
                      (link, "symbolic link"), (tmp_path, "directory"), (tmp_path / "no" / "x.json", "does not exist")):
        assert main(base + [str(dest)]) == 2
        err = capsys.readouterr().err
        assert why in err and err.count("\n") == 1, (dest, err)
    assert {p: p.read_bytes() for p in before} == before
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
