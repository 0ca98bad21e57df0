"""retrieval on trec_eval's own test data (tests/goldens/retrieval/trec_eval, a real TREC run
and qrels): every line of trec_eval's committed outputs that nlgmetrics computes is printed
the same (``%6.4f``), per query and ``all``, with ``-c`` and ``-l2``; the full-precision
values equal pytrec_eval's; the CLI prints trec_eval's lines."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from nlgmetrics.metrics.programs.retrieval import Retrieval
from nlgmetrics.metrics.programs.trec_files import read_qrels, read_run

DATA = Path(__file__).parent / "goldens" / "retrieval" / "trec_eval"
MEASURES = ["map", "Rprec", "recip_rank", "ndcg", "P", "recall", "map_cut", "ndcg_cut", "success", "num_q", "num_ret", "num_rel", "num_rel_ret"]
OURS = re.compile(r"(map|Rprec|recip_rank|ndcg|num_q|num_ret|num_rel|num_rel_ret|(P|recall|map_cut|ndcg_cut|success)_\d+)\Z")
COUNTS = ("num_q", "num_ret", "num_rel", "num_rel_ret")

CASES = {  # trec_eval's Makefile: output file, run, qrels, options
    "aq": ("out.test.aq", "results.test", "qrels.test", {}),
    "aqc": ("out.test.aqc", "results.trunc", "qrels.test", {"complete": True}),
    "aql": ("out.test.aql", "results.test", "qrels.rel_level", {"relevance_level": 2}),
}
TREC_EVAL_10 = {"score_precision": "float64"}  # the outputs are trec_eval 10's (doubles)


def _golden(name: str) -> dict[tuple[str, str], str]:
    out = {}
    for line in (DATA / name).read_text().splitlines():
        measure, qid, value = (f.strip() for f in line.split("\t"))
        if OURS.match(measure):
            out[(measure, qid)] = value
    return out


def _fmt(measure: str, value: float) -> str:
    return str(int(value)) if measure in COUNTS else f"{value:6.4f}"


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_line_trec_eval_printed(case):
    out, run_file, qrels_file, options = CASES[case]
    golden = _golden(out)
    m = Retrieval(measures=MEASURES, **options, **TREC_EVAL_10)
    run, qrels = read_run(DATA / run_file), read_qrels(DATA / qrels_file)
    ours = {}
    for qid, row in m.per_query(run, qrels).items():  # with -c, trec_eval -q prints the missing queries too
        ours.update({(k, qid): _fmt(k, v) for k, v in row.items()})
    s = m.corpus_score(run, qrels)
    ours.update({(k, "all"): _fmt(k, s[k]) for k in [*m.sum_fields, *COUNTS]})
    assert len(golden) > 150
    assert {k: ours.get(k) for k in golden} == golden


@pytest.mark.parametrize("case", sorted(CASES))
def test_full_precision_equals_pytrec_eval(case):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    _, run_file, qrels_file, options = CASES[case]
    run, qrels = read_run(DATA / run_file), read_qrels(DATA / qrels_file)
    measures = [x for x in MEASURES if x != "num_q"]
    level = options.get("relevance_level", 1)
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(measures), relevance_level=level).evaluate(run)
    assert Retrieval(measures=measures, relevance_level=level).per_query(run, qrels) == expected


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "nlgmetrics", "retrieval", *args], capture_output=True, text=True, timeout=120)


def test_cli_prints_trec_evals_lines():
    golden = (DATA / "out.test.aql").read_text().splitlines()
    wanted = ["map", "P_5", "P_10", "ndcg_cut_10", "recip_rank", "num_rel"]
    r = _cli("-q", str(DATA / "qrels.rel_level"), "-r", str(DATA / "results.test"), "-l", "2", "--per-query", "--score-precision", "float64", "-m", "map", "P.5,10", "ndcg_cut.10", "recip_rank", "num_rel")
    assert r.returncode == 0, r.stderr
    expected = [line for line in golden if line.split("\t")[0].strip() in wanted]
    assert sorted(r.stdout.splitlines()) == sorted(expected)


def test_cli_json_and_errors(tmp_path):
    r = _cli("-q", str(DATA / "qrels.test"), "-r", str(DATA / "results.test"), "-m", "map", "-f", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert f"{doc['scores']['map']:6.4f}" == "0.1785" and doc["signature"].startswith("measures:map|level:1|judged:all|queries:run|ref:trec_eval-9/pytrec_eval|version:nlgmetrics-")
    bad = tmp_path / "run.txt"
    bad.write_text("301 Q0 d1 1 1.0 t\n301 Q0 d2 2 oops t\n", encoding="utf-8")
    r = _cli("-q", str(DATA / "qrels.test"), "-r", str(bad))
    assert r.returncode == 1 and f"{bad}: line 2: score 'oops'" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = _cli("-q", str(DATA / "qrels.test"), "-r", str(DATA / "results.test"), "-m", "nDCG@10")
    assert r.returncode == 2 and "unknown measure" in r.stderr
    r = _cli("-q", str(DATA / "qrels.test"), "-r", str(DATA / "results.test"), "-l", "0")
    assert r.returncode == 2


def test_cli_takes_trec_evals_positional_files():
    for argv in (["-m", "map", "-m", "P.5", str(DATA / "qrels.test"), str(DATA / "results.test")],
                 ["-m", "map", "P.5", str(DATA / "qrels.test"), str(DATA / "results.test")],
                 [str(DATA / "qrels.test"), str(DATA / "results.test"), "-m", "map", "P.5"]):
        r = _cli(*argv, "--score-precision", "float64")
        assert r.returncode == 0, (argv, r.stderr)
        assert r.stdout.splitlines() == ["map                   \tall\t0.1785", "P_5                   \tall\t0.2667"]
    r = _cli(str(DATA / "qrels.test"))
    assert r.returncode == 2 and "QRELS then RUN" in r.stderr
    r = _cli("-q", str(DATA / "qrels.test"), str(DATA / "qrels.test"), str(DATA / "results.test"))
    assert r.returncode == 2


def test_score_subcommand_points_to_retrieval(tmp_path, capsys):
    from nlgmetrics.cli.main import main

    text = tmp_path / "t.txt"
    text.write_text("a b\n", encoding="utf-8")
    assert main(["score", "-r", str(text), "-i", str(text), "-m", "retrieval"]) == 2
    assert "nlgmetrics retrieval -q QRELS -r RUN" in capsys.readouterr().err
