"""``nlgmetrics.compat.sacrebleu`` and ``nlgmetrics sacrebleu`` against sacrebleu 2.6 itself.

The command line is compared byte for byte (stdout) and by exit status with
``python -m sacrebleu`` over a matrix of arguments on WMT22 data; the API by value (==)
and printed text on the corpora and on generated inputs.
"""

from __future__ import annotations

import gzip
import io
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sacrebleu = pytest.importorskip("sacrebleu")

from nlgmetrics.cli.main import main as nm_main  # noqa: E402
from nlgmetrics.compat import sacrebleu as compat  # noqa: E402
from wmt import load_pair  # noqa: E402

N = 150  # segments per system: enough for every code path, fast for the reference


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Two references and three systems of WMT22 en-zh and zh-en (first N lines), plus variants."""
    d = tmp_path_factory.mktemp("sacrebleu")
    out = {}
    for pair in ("en-zh", "zh-en"):
        p = load_pair(pair)
        for k, ref in enumerate(p.refs[:2]):
            out[f"{pair}.ref{k}"] = d / f"{pair}.ref{k}.txt"
            out[f"{pair}.ref{k}"].write_text("\n".join(ref[:N]) + "\n", encoding="utf-8")
        for k, (name, hyps) in enumerate(sorted(p.systems.items())[:3]):
            out[f"{pair}.sys{k}"] = d / f"{pair}.{name}.txt"
            out[f"{pair}.sys{k}"].write_text("\n".join(hyps[:N]) + "\n", encoding="utf-8")
        small = d / f"{pair}.small"
        out[f"{pair}.small_ref0"] = small.with_suffix(".ref0")
        out[f"{pair}.small_ref0"].write_text("\n".join(p.refs[0][:40]) + "\n", encoding="utf-8")
        for k, (name, hyps) in enumerate(sorted(p.systems.items())[:2]):
            out[f"{pair}.small_sys{k}"] = small.with_suffix(f".sys{k}")
            out[f"{pair}.small_sys{k}"].write_text("\n".join(hyps[:40]) + "\n", encoding="utf-8")
    zh = load_pair("en-zh")
    out["tabbed_refs"] = d / "refs.tsv"
    out["tabbed_refs"].write_text("\n".join(f"{a}\t{b}" for a, b in zip(zh.refs[0][:N], zh.refs[1][:N])) + "\n", encoding="utf-8")
    hyps = sorted(zh.systems.items())
    out["tabbed_sys"] = d / "systems.tsv"
    out["tabbed_sys"].write_text("\n".join(f"{a}\t{b}" for a, b in zip(hyps[0][1][:N], hyps[1][1][:N])) + "\n", encoding="utf-8")
    out["gz_sys"] = d / "sys.txt.gz"
    with gzip.open(out["gz_sys"], "wt", encoding="utf-8") as f:
        f.write("\n".join(hyps[0][1][:N]) + "\n")
    en = load_pair("zh-en")
    out["latin1_ref"] = d / "ref.latin1"
    out["latin1_ref"].write_bytes(("\n".join(en.refs[0][:N]) + "\n").encode("latin-1", "replace"))
    out["latin1_sys"] = d / "sys.latin1"
    out["latin1_sys"].write_bytes(("\n".join(sorted(en.systems.items())[0][1][:N]) + "\n").encode("latin-1", "replace"))
    out["short_sys"] = d / "short.txt"
    out["short_sys"].write_text("\n".join(hyps[0][1][: N - 1]) + "\n", encoding="utf-8")
    return out


# Each case: argument template ({name} = a file of the fixture), optional stdin file.
CASES = [
    ("{en-zh.ref0} -i {en-zh.sys0}", None),
    ("{en-zh.ref0} {en-zh.ref1} -i {en-zh.sys0} -m bleu chrf ter", None),
    ("{en-zh.ref0} -i {en-zh.sys0} -f text -w 3 -tok zh", None),
    ("{en-zh.ref0} -i {en-zh.sys0} -m bleu chrf -lc --chrf-lowercase -f text", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -m bleu chrf -lc", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -m chrf -cw 2 --chrf-beta 1 --chrf-whitespace -b", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -m chrf --chrf-eps-smoothing -cc 4 -f text --short", None),
    ("{zh-en.small_ref0} -i {zh-en.small_sys0} -m ter --ter-case-sensitive --ter-no-punct --ter-normalized", None),
    ("{en-zh.small_ref0} -i {en-zh.small_sys0} -m ter --ter-asian-support --ter-normalized -f text", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -s floor -sv 0.2 -f text", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -s add-k -m bleu -f text -w 4", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -s none -tok intl", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -tok char -l zh-en -f text", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -sl -m bleu", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -sl -m chrf -b -w 3", None),
    ("{zh-en.small_ref0} -i {zh-en.small_sys0} --confidence -cin 200 -m bleu chrf ter", None),
    ("{zh-en.ref0} -i {zh-en.sys0} --confidence -cin 200 -m bleu chrf -f text", None),
    ("{zh-en.ref0} -i {zh-en.sys0} -d", None),
    ("{zh-en.ref0} -i {zh-en.sys0} {zh-en.sys1} {zh-en.sys2} -m bleu chrf", None),
    ("{zh-en.small_ref0} -i {zh-en.small_sys0} {zh-en.small_sys1} --paired-bs -pbsn 100 -m ter -f text", None),
    ("{zh-en.small_ref0} -i {zh-en.small_sys0} {zh-en.small_sys1} -f text -m bleu ter -w 2", None),
    ("{zh-en.ref0} -i {zh-en.sys0} {zh-en.sys1} -f latex", None),
    ("{zh-en.ref0} -i {zh-en.sys0} {zh-en.sys1} {zh-en.sys2} --paired-bs -pbsn 200 -m bleu chrf -f text", None),
    ("{zh-en.ref0} -i {zh-en.sys0} {zh-en.sys1} --paired-bs -pbsn 200 -f json", None),
    ("{zh-en.ref0} -i {zh-en.sys0} {zh-en.sys1} --paired-ar -parn 300 -m chrf -f latex -w 2", None),
    ("{zh-en.ref0} -i {zh-en.sys0} {zh-en.sys0} {zh-en.sys1} --paired-ar -parn 300 -f text", None),
    ("{tabbed_refs} -nr 2 -i {en-zh.sys0} -m bleu chrf", None),
    ("{en-zh.ref0}", "{en-zh.sys0}"),
    ("{en-zh.ref0} -m chrf -f text", "{tabbed_sys}"),
    ("{en-zh.ref0} --paired-bs -pbsn 100 -f text", "{tabbed_sys}"),
    ("{en-zh.ref0} -i {gz_sys} -m chrf", None),
    ("{latin1_ref} -i {latin1_sys} --encoding latin-1 -m bleu chrf", None),
    # errors: sacrebleu's exit statuses
    ("{en-zh.ref0} -i {short_sys}", None),
    ("{en-zh.ref0} -i {en-zh.sys0} {en-zh.sys0}", None),
    ("{en-zh.ref0} -i {en-zh.sys0} -sl -m bleu chrf", None),
    ("{en-zh.ref0} -i {en-zh.sys0} --paired-bs", None),
    ("{en-zh.ref0} -i {en-zh.sys0} {en-zh.sys1} --confidence", None),
    ("{en-zh.ref0} -i {en-zh.sys0} -nr 2", None),
    ("{en-zh.ref0} {en-zh.ref1} -i {en-zh.sys0} -nr 2", None),
    ("-i {en-zh.sys0}", None),
    ("{en-zh.ref0} -i {en-zh.sys0} -m meteor", None),
    ("{en-zh.ref0} -i {en-zh.sys0} --paired-bs --paired-ar", None),
    # "-r" is not sacrebleu's (a usage error there, as here); short and rarely used flags,
    # JSON with intervals, the paired test's -j
    ("-r {zh-en.ref0} {zh-en.ref1} -i {zh-en.sys0}", None),
    ("{zh-en.ref0} {zh-en.ref1} -i {zh-en.sys0} -q -sh -m bleu chrf -f text", None),
    ("{zh-en.ref0} -i {zh-en.sys0} --force -tok none -nc", None),
    ("{latin1_ref} -i {latin1_sys} -e latin-1 -m chrf -f text -b", None),
    ("{zh-en.small_ref0} -i {zh-en.small_sys0} {zh-en.small_sys1} --paired-bs -pbsn 100 -j 2 -m bleu -f json", None),
    ("{zh-en.small_ref0} -i {zh-en.small_sys0} -f json -m bleu chrf ter --confidence -cin 100", None),
    ("{zh-en.ref0} -i {zh-en.sys0} --chrf-lowercase -m chrf -f json -w 4", None),
    ("{zh-en.ref0} {zh-en.ref1} -i {zh-en.sys0} -d -m chrf -nc", None),
]


def _argv(template: str, files: dict) -> list[str]:
    return [str(files[w[1:-1]]) if w.startswith("{") else w for w in template.split()]


def _reference_process(argv: list[str], stdin: bytes) -> tuple[int, bytes]:
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("SACREBLEU_FORMAT", None)
    p = subprocess.run([sys.executable, "-m", "sacrebleu", *argv], input=stdin, capture_output=True, env=env, timeout=300)
    return p.returncode, p.stdout


class _Fd:
    def __init__(self, new_fd):
        self.fileno = new_fd


def _reference_in_process(argv: list[str], capfdbinary) -> tuple[int, bytes]:
    """sacrebleu's main() here (a process start per case would dominate the test's time);
    it reopens stdout on its file descriptor, which capfdbinary captures."""
    from sacrebleu.sacrebleu import main as sacrebleu_main

    saved = sys.stdout, sys.stdin, sys.argv
    # sacrebleu reopens fileno() and owns the result: hand it duplicates to close
    sys.stdout, sys.stdin = _Fd(lambda: os.dup(1)), _Fd(lambda: os.open(os.devnull, os.O_RDONLY))
    sys.argv = ["sacrebleu", *argv]
    code = 0
    try:
        sacrebleu_main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    finally:
        opened = sys.stdout
        sys.stdout, sys.stdin, sys.argv = saved
        if not isinstance(opened, _Fd):
            opened.close()
    return code, capfdbinary.readouterr().out


def _our_run(argv: list[str], stdin: bytes | None, monkeypatch, capfdbinary) -> tuple[int, bytes]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin or b""), encoding="utf-8"))
    code = nm_main(["sacrebleu", *argv])
    return code, capfdbinary.readouterr().out


@pytest.mark.parametrize("template,stdin", CASES, ids=[c[0] + (" <" + c[1] if c[1] else "") for c in CASES])
def test_cli_byte_identical(files, template, stdin, monkeypatch, capfdbinary):
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)
    argv = _argv(template, files)
    capfdbinary.readouterr()
    if stdin:
        data = files[stdin[1:-1]].read_bytes()
        want_code, want_out = _reference_process(argv, data)
    else:
        data = None
        want_code, want_out = _reference_in_process(argv, capfdbinary)
    code, out = _our_run(argv, data, monkeypatch, capfdbinary)
    assert code == want_code
    assert out == want_out


def test_sacrebleu_format_environment(files, monkeypatch, capsysbinary):
    argv = _argv("{zh-en.ref0} -i {zh-en.sys0} -m bleu chrf", files)
    monkeypatch.setenv("SACREBLEU_FORMAT", "text")
    capsysbinary.readouterr()
    assert nm_main(["sacrebleu", *argv]) == 0
    ours = capsysbinary.readouterr().out
    env = {**os.environ, "SACREBLEU_FORMAT": "text"}
    want = subprocess.run([sys.executable, "-m", "sacrebleu", *argv], capture_output=True, env=env).stdout
    assert ours == want and b"BLEU|" in ours and b"{" not in ours


def test_test_sets_not_cached_fail_clearly(files, capsys, monkeypatch, tmp_path):
    """Nothing is downloaded: a test set missing from the local cache is one line, status 1
    (tests/test_compat_sacrebleu_testsets.py reads cached ones)."""
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    code = nm_main(["sacrebleu", "-t", "wmt22", "-l", "en-zh", "-i", str(files["en-zh.sys0"])])
    err = capsys.readouterr().err
    assert code == 1 and "not in the local sacrebleu cache" in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


# -- API ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wmt():
    p = load_pair("zh-en")
    hyps = sorted(p.systems.items())[0][1]
    return hyps, p.refs


@pytest.mark.parametrize(
    "cls,kwargs",
    [
        ("BLEU", {}),
        ("BLEU", {"tokenize": "zh", "lowercase": True}),
        ("BLEU", {"trg_lang": "zh", "smooth_method": "floor", "smooth_value": 0.3}),
        ("BLEU", {"effective_order": True, "max_ngram_order": 3, "smooth_method": "add-k"}),
        ("CHRF", {}),
        ("CHRF", {"word_order": 2, "lowercase": True, "beta": 3}),
        ("CHRF", {"whitespace": True, "eps_smoothing": True}),
        ("TER", {}),
        ("TER", {"normalized": True, "asian_support": True, "case_sensitive": True}),
    ],
)
def test_api_corpus_and_sentence(wmt, cls, kwargs):
    hyps, refs = wmt
    n = 40 if cls == "TER" else 400  # sacrebleu's TER is slow
    hyps, refs = hyps[:n], [r[:n] for r in refs]
    theirs, ours = getattr(sacrebleu, cls)(**kwargs), getattr(compat, cls)(**kwargs)
    a, b = theirs.corpus_score(hyps, refs), ours.corpus_score(hyps, refs)
    assert type(b).__name__ == type(a).__name__
    assert b.score == a.score and str(b) == str(a) and repr(b) == repr(a)
    sig_a, sig_b = theirs.get_signature(), ours.get_signature()
    assert sig_b.format() == sig_a.format() and sig_b.format(short=True) == sig_a.format(short=True)
    for width in (1, 2, 4):
        for score_only in (False, True):
            assert b.format(width, score_only, str(sig_b)) == a.format(width, score_only, str(sig_a))
        assert b.format(width, False, str(sig_b), is_json=True) == a.format(width, False, str(sig_a), is_json=True)
    for attr in ("counts", "totals", "precisions", "bp", "sys_len", "ref_len", "char_order", "word_order", "beta", "num_edits", "ref_length"):
        if hasattr(a, attr):
            assert getattr(b, attr) == getattr(a, attr), attr
    for i in (0, 7, 39):
        seg_refs = [r[i] for r in refs]
        x, y = theirs.sentence_score(hyps[i], seg_refs), ours.sentence_score(hyps[i], seg_refs)
        assert y.score == x.score and str(y) == str(x)


def test_api_bootstrap_and_cached_references(wmt):
    hyps, refs = wmt
    hyps, refs = hyps[:300], [r[:300] for r in refs]
    theirs, ours = sacrebleu.CHRF(references=refs), compat.CHRF(references=refs)
    a, b = theirs.corpus_score(hyps, None, n_bootstrap=300), ours.corpus_score(hyps, None, n_bootstrap=300)
    # sacrebleu scores chrF resamples from float32 statistics in float32 arithmetic; so does
    # method="sacrebleu": the mean and half-width are sacrebleu's, bit for bit
    assert (b._mean, b._ci) == (a._mean, a._ci)
    assert b.format(2, False, str(ours.get_signature())) == a.format(2, False, str(theirs.get_signature()))


def test_api_functions_and_variable_references():
    hyps = ["The cat sat on the mat.", "A dog barks", "x"]
    refs = [["The cat is on the mat.", "A dog is barking", "y"], [None, "The dog barks", None]]
    for fn in ("corpus_bleu", "raw_corpus_bleu", "corpus_chrf", "corpus_ter"):
        a, b = getattr(sacrebleu, fn)(hyps, refs), getattr(compat, fn)(hyps, refs)
        assert b.score == a.score and str(b) == str(a), fn
    for fn in ("sentence_bleu", "sentence_chrf", "sentence_ter"):
        a, b = getattr(sacrebleu, fn)(hyps[1], ["A dog is barking", "The dog barks"]), getattr(compat, fn)(hyps[1], ["A dog is barking", "The dog barks"])
        assert b.score == a.score and str(b) == str(a), fn
    m = compat.BLEU()
    m.corpus_score(hyps, refs)
    assert m.get_signature().format() == "nrefs:var|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0"
    from nlgmetrics.compat.sacrebleu.metrics import BLEU, CHRF, TER  # the submodule paths work too
    from nlgmetrics.compat.sacrebleu.metrics.bleu import BLEU as BLEU2
    from nlgmetrics.compat.sacrebleu.metrics.ter import TERScore

    assert (BLEU, CHRF, TER, BLEU2, TERScore) == (compat.BLEU, compat.CHRF, compat.TER, compat.BLEU, compat.TERScore)


def test_sentence_bleu_warns_as_sacrebleu(caplog):
    compat.BLEU().sentence_score("a b c", ["a b c"])
    assert "effective_order" in caplog.text


def test_api_errors_as_sacrebleu():
    with pytest.raises(TypeError, match="hyp"):
        compat.BLEU().sentence_score(["a list"], ["a"])
    with pytest.raises(TypeError, match="refs"):
        compat.BLEU().corpus_score(["a"], 5)
    with pytest.raises(ValueError, match="evaluate the metric first"):
        compat.BLEU().get_signature()
    from nlgmetrics.errors import LengthMismatchError

    with pytest.raises(LengthMismatchError):  # sacrebleu would silently truncate
        compat.BLEU().corpus_score(["a", "b"], [["a"]])


text = st.text(alphabet=st.sampled_from(list("abcAB .,!?'-\u00e9\u4e2d\u6587 ")), max_size=30)


@settings(max_examples=60, deadline=None)
@given(hyps=st.lists(text, min_size=1, max_size=5), data=st.data())
def test_hypothesis_values(hyps, data):
    n = len(hyps)
    refs = [data.draw(st.lists(text, min_size=n, max_size=n)) for _ in range(data.draw(st.integers(1, 2)))]
    for cls, kw in (("BLEU", {}), ("BLEU", {"tokenize": "zh", "effective_order": True}), ("CHRF", {"word_order": 2}), ("TER", {})):
        a, b = getattr(sacrebleu, cls)(**kw).corpus_score(hyps, refs), getattr(compat, cls)(**kw).corpus_score(hyps, refs)
        assert b.score == a.score and str(b) == str(a), (cls, kw)
