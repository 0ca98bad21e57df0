"""METEOR 1.5 parity with the jar pycocoevalcap runs, properties and errors.

- live: pycocoevalcap's own ``Meteor`` (Java) on a deterministic subsample of
  captioning_coco plus generated edge cases, in one JVM session;
- goldens: the jar's segment statistics/scores and corpus scores for all 19
  captioning_coco systems (``scripts/goldens/make_meteor_goldens.py``), and the
  PTB-tokenized MAGIC system whose corpus METEOR is the published 0.174.
"""

from __future__ import annotations

import gzip
import json
import random
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import nlgmetrics
from nlgmetrics import METEOR, Stats
from nlgmetrics.errors import (
    IncompatibleStatsError,
    InputTypeError,
    InvalidOptionError,
    LengthMismatchError,
    MissingExtraError,
    MissingReferenceError,
)

pytest.importorskip("pycocoevalcap")

REPO = Path(__file__).resolve().parents[1]
GOLDENS = REPO / "tests" / "goldens" / "meteor"
sys.path.insert(0, str(REPO / "scripts" / "goldens"))


@pytest.fixture(scope="module")
def metric() -> METEOR:
    return METEOR(tokenize="none")  # the jar as pycocoevalcap calls it, on text as given


def load_coco(corpora: Path):
    c = corpora / "captioning_coco"
    refs = {}
    for line in (c / "references.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        refs[d["image_name"]] = d["references"]
    systems = {}
    for f in sorted((c / "systems").glob("*.tsv")):
        systems[f.stem] = [line.split("\t", 1) for line in f.read_text(encoding="utf-8").split("\n") if line]
    return refs, systems


def edge_cases() -> list[tuple[str, list[str]]]:
    """Hand-written traps plus seeded random sentences over a tricky vocabulary."""
    cases = [
        ("a man riding a horse", ["a man is riding a horse"]),
        ("", ["a cat"]),
        ("a cat", [""]),
        ("   ", ["a dog runs"]),
        ("dog", ["dog"]),
        ("Dog", ["the dog"]),
        ("the the the", ["the"]),
        ("A man riding a horse.", ["A man is riding a horse.", "Someone rides a horse!"]),
        ("The U.S.-based company's CEO, Mr. Smith, said... \"yes\"", ["Mr. Smith (the CEO) said “yes” -- twice"]),
        ("two dogs are playing in the grass", ["a couple of dogs play on a lawn", "dogs playing"]),
        ("the automobile is quick", ["the car is fast"]),
        ("he went to the stores quickly", ["he goes quickly to a store"]),
        ("猫が座った", ["猫 が 座った"]),
        ("Ünïcödé naïve café", ["unicode naive cafe", "Ünïcödé café"]),
        ("No. 5 Inc. e.g. 1,000,000 x,y 3.14 ... .. '90s rock 'n' roll", ["no. 5 inc. 1,000 rock and roll"]),
        ("identical sentence here", ["identical sentence here", "identical sentence here"]),
        ("a|||b c", ["a b c"]),
        ("a  man", ["a man ||| a woman"]),
    ]
    vocab = (
        "a an the man men woman women dog dogs cat cats is are was riding rides ride rode horse horses "
        "on in of to at with big large small little quick fast car automobile running runs ran happy "
        "happily , . ! ? ' \" - -- ( ) ... 's n't it's don't A The MAN Dog street streets people person "
        "kitchen table tables sitting sits stands standing red blue green 1 2 10 1,000 U.S. Mr. e.g. 猫"
    ).split()
    rng = random.Random(1234)
    for _ in range(120):
        hyp = " ".join(rng.choice(vocab) for _ in range(rng.randint(0, 14)))
        refs = [" ".join(rng.choice(vocab) for _ in range(rng.randint(1, 14))) for _ in range(rng.randint(1, 4))]
        cases.append((hyp, refs))
    return cases


@pytest.fixture(scope="module")
def live(corpora):
    if shutil.which("java") is None:
        pytest.skip("java is needed for the live jar comparison")
    from meteor_jar import jar_meteor

    refs, systems = load_coco(corpora)
    rng = random.Random(0)
    sample = []
    for name in sorted(systems):
        for img, hyp in rng.sample(systems[name], 8):
            sample.append((hyp, refs[img]))
    cases = sample + edge_cases()
    hyps = [h for h, _ in cases]
    rs = [r for _, r in cases]
    corpus, scores, stats = jar_meteor(hyps, rs)
    return hyps, rs, corpus, np.array(scores), np.array(stats)


def test_live_parity_with_the_jar(live, metric):
    hyps, refs, corpus, scores, stats = live
    seg = metric.stats(hyps, refs)
    assert np.array_equal(seg.counts[:, :23], stats.astype(np.uint64)), [
        (hyps[i], refs[i]) for i in np.nonzero((seg.counts[:, :23] != stats).any(axis=1))[0]
    ]
    ours = metric.sentence_scores(hyps, refs)
    np.testing.assert_allclose(ours, scores, rtol=1e-12, atol=0)
    assert metric.corpus_score(hyps, refs).score == pytest.approx(corpus, rel=1e-12, abs=0)


def read_golden_rows():
    path = GOLDENS / "coco_raw.tsv.gz"
    rows = {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            system, img, score, stats = line.rstrip("\n").split("\t")
            rows.setdefault(system, []).append((img, float(score), [int(x) for x in stats.split()]))
    return rows


def test_goldens_all_coco_systems(corpora, metric):
    """Corpus scores of all 19 systems exactly; segment statistics on a subsample."""
    refs, systems = load_coco(corpora)
    golden = read_golden_rows()
    corpus = json.loads((GOLDENS / "coco_raw_corpus.json").read_text())
    assert sorted(golden) == sorted(systems) == sorted(corpus)
    rng = random.Random(7)
    for name, rows in systems.items():
        g = golden[name]
        assert [img for img, _, _ in g] == [img for img, _ in rows]
        # Summed golden statistics give the jar's corpus score (the aggregate rule).
        stats = np.array([s for _, _, s in g], dtype=np.uint64)
        perfect = (stats[:, 4:20].reshape(-1, 4, 4)[:, :, 0::2].sum(axis=(1, 2)) == stats[:, 0]) & (
            stats[:, 4:20].reshape(-1, 4, 4)[:, :, 1::2].sum(axis=(1, 2)) == stats[:, 1]
        ) & (stats[:, 20] == 1)
        total = np.concatenate([stats.sum(axis=0), [stats[~perfect, 20].sum()]]).astype(np.uint64)
        summed = Stats(key=metric.key, count_fields=metric.count_fields, counts=total, n_segments=len(g))
        assert metric.score_stats(summed).score == pytest.approx(corpus[name], rel=1e-12)
        idx = sorted(rng.sample(range(len(rows)), 60))
        hyps = [rows[i][1] for i in idx]
        rs = [refs[rows[i][0]] for i in idx]
        seg = metric.stats(hyps, rs)
        assert np.array_equal(seg.counts[:, :23], stats[idx]), name
        np.testing.assert_allclose(metric.sentence_scores(hyps, rs), [g[i][1] for i in idx], rtol=1e-12, atol=0)


def test_full_system_corpus_score(corpora, metric):
    """One whole system end to end (5000 images x 5 references)."""
    refs, systems = load_coco(corpora)
    corpus = json.loads((GOLDENS / "coco_raw_corpus.json").read_text())
    rows = systems["mscoco__contrastive_result"]
    score = metric.corpus_score([h for _, h in rows], [refs[i] for i, _ in rows]).score
    assert score == pytest.approx(corpus["mscoco__contrastive_result"], rel=1e-12, abs=0)


def test_ptb_tokenized_magic_matches_published(corpora, metric):
    with gzip.open(GOLDENS / "coco_ptb_magic.json.gz", "rt", encoding="utf-8") as f:
        g = json.load(f)
    expected = json.loads((corpora / "captioning_coco" / "expected_pycocoevalcap.json").read_text())
    published = next(c for c in expected["computed"] if c["system"] == "mscoco__magic_result")["METEOR"]
    assert g["corpus"] == pytest.approx(published, rel=1e-12)
    score = metric.corpus_score(g["hyps"], g["refs"])
    assert score.score == pytest.approx(g["corpus"], rel=1e-12, abs=0)
    assert round(score.score, 3) == 0.174
    idx = list(range(0, len(g["hyps"]), 10))
    np.testing.assert_allclose(
        metric.sentence_scores([g["hyps"][i] for i in idx], [g["refs"][i] for i in idx]), [g["scores"][i] for i in idx], rtol=1e-12, atol=0
    )


def test_worked_example_and_aggregate_is_not_the_mean(metric):
    assert metric.corpus_score(["a man riding a horse"], [["a man is riding a horse"]]).score == 0.4645695216158345
    hyps = ["a man riding a horse", "a dog", "a dog"]
    refs = [["a man is riding a horse"], ["a dog"], ["the dog runs"]]
    seg = metric.sentence_scores(hyps, refs)
    corpus = metric.corpus_score(hyps, refs).score
    assert corpus != pytest.approx(seg.mean())


def test_properties_merge_sharding_threads(metric):
    cases = edge_cases()
    hyps = [h for h, _ in cases]
    refs = [r for _, r in cases]
    whole = metric.corpus_score(hyps, refs).score
    m = METEOR(tokenize="none")
    for k in range(0, len(hyps), 17):
        m.update(hyps[k : k + 17], refs[k : k + 17])
    assert m.compute().score == whole
    a, b = METEOR(tokenize="none"), METEOR(tokenize="none")
    a.update(hyps[::2], refs[::2])
    b.update(hyps[1::2], refs[1::2])
    assert a.merge(b).compute().score == whole
    assert (metric.zero() + metric.stats(hyps, refs).total()) == metric.stats(hyps, refs).total()
    one = METEOR(tokenize="none", n_threads=1).stats(hyps, refs).counts
    two = METEOR(tokenize="none", n_threads=2).stats(hyps, refs).counts
    assert np.array_equal(one, two)


def test_pairwise_equals_sentence_scores(metric):
    cands = ["a man riding a horse", "two dogs play", "", "the car is fast"]
    refs = ["a man is riding a horse", "dogs playing in the grass", "the automobile is quick"]
    mat = metric.pairwise(cands, refs)
    for i, c in enumerate(cands):
        for j, r in enumerate(refs):
            assert mat[i, j] == metric.sentence_scores([c], [[r]])[0]


def test_tasks_and_options():
    assert METEOR(task="adq").params == (0.75, 1.40, 0.45, 0.70)
    u = METEOR(task="universal")
    assert u.modules == ("exact", "paraphrase") and u.weights == (1.0, 0.6)
    ex = METEOR(modules=["exact"])
    assert ex.weights == (1.0,)
    assert nlgmetrics.load("meteor").flavour == "meteor-1.5"
    s = METEOR().corpus_score(["a man riding a horse"], [["a man is riding a horse"]])
    assert "task:rank" in str(s.signature)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"flavour": "nope"},
        {"task": "util"},
        {"task": "bogus"},
        {"language": "de"},
        {"normalize": "weird"},
        {"modules": ["exact", "exact"]},
        {"modules": ["blah"]},
        {"weights": [1.0]},
        {"alpha": float("nan")},
        {"n_threads": -1},
    ],
)
def test_bad_options(kwargs):
    with pytest.raises(InvalidOptionError):
        METEOR(**kwargs)


def test_bad_inputs(metric):
    with pytest.raises(LengthMismatchError):
        metric.corpus_score(["a", "b"], [["a"]])
    with pytest.raises(MissingReferenceError):
        metric.corpus_score(["a"], [[]])
    with pytest.raises(InputTypeError):
        metric.corpus_score([1], [["a"]])
    other = METEOR(task="adq")
    with pytest.raises(IncompatibleStatsError):
        metric.score_stats(other.stats(["a"], [["a"]]))


def test_missing_extra(monkeypatch):
    import importlib.util

    from nlgmetrics.metrics import meteor_resources

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "pycocoevalcap" else real(name, *a))
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[meteor\]"):
        meteor_resources.meteor_dir()


def test_cli(tmp_path, capsys):
    from nlgmetrics.cli.main import main

    (tmp_path / "h.txt").write_text("a man riding a horse\ntwo dogs play\n")
    (tmp_path / "r.txt").write_text("a man is riding a horse\ndogs playing in the grass\n")
    args = ["score", "-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "r.txt"), "-m", "meteor", "-f", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)[0]
    expected = METEOR().corpus_score(["a man riding a horse", "two dogs play"], [["a man is riding a horse"], ["dogs playing in the grass"]])
    assert out["score"] == expected.score
    assert main([*args, "--meteor-task", "adq"]) == 0
    adq = json.loads(capsys.readouterr().out)[0]
    assert adq["score"] != out["score"] and "task:adq" in adq["signature"]
    assert main([*args, "--meteor-task", "bogus"]) != 0


def test_e2e_primary_systems(corpora, metric):
    """E2E challenge METEOR (coco-caption: PTBTokenizer + the jar), 630 MRs x 1-45 refs:
    the jar's score exactly, and the published 4-decimal value."""
    path = GOLDENS / "e2e_ptb.json.gz"
    with gzip.open(path, "rt", encoding="utf-8") as f:
        g = json.load(f)
    published = {}
    for line in (corpora / "e2e" / "e2e_primary_scores.tsv").read_text().splitlines()[1:]:
        name, _bleu, _nist, meteor_value, *_ = line.split("\t")
        published[name] = float(meteor_value)
    assert "tgen" in g["systems"]
    for name in ("tgen", "adapt", "slug", "zhang"):
        sys_ = g["systems"][name]
        score = metric.corpus_score(sys_["hyps"], g["refs"]).score
        assert score == pytest.approx(sys_["meteor"], rel=1e-12, abs=0), name
        assert round(score, 4) == published[name], name


def test_stemmer_matches_the_jars_snowball():
    from nlgmetrics import _core

    with gzip.open(GOLDENS / "stems.tsv.gz", "rt", encoding="utf-8") as f:
        pairs = [line.rstrip("\n").split("\t") for line in f]
    words = [w for w, _ in pairs]
    assert len(words) > 20000
    assert _core.meteor_stem(words) == [s for _, s in pairs]


NORM_PROBE = """
import edu.cmu.meteor.util.Normalizer;
import java.io.*;
public class NormProbe {
  public static void main(String[] a) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    String line;
    while ((line = in.readLine()) != null) out.println("[" + Normalizer.normalizeLine(line, 0, true).toLowerCase() + "]");
    out.flush();
  }
}
"""


def test_normalizer_fuzz_against_the_jar(tmp_path):
    """Random strings over a tricky alphabet through the jar's Normalizer (-norm) and ours."""
    import subprocess

    from nlgmetrics import _core
    from nlgmetrics.metrics.meteor_resources import load_resources, meteor_dir

    if shutil.which("javac") is None or shutil.which("java") is None:
        pytest.skip("a JDK is needed to call the jar's Normalizer")
    jar = meteor_dir() / "meteor-1.5.jar"
    (tmp_path / "NormProbe.java").write_text(NORM_PROBE)
    subprocess.run(["javac", "-cp", str(jar), "NormProbe.java"], cwd=tmp_path, check=True)
    alphabet = list("abcXYZ019 .,'`-\"()[]$%&!?;:/\\|‘’“”–—…éÀß×Ж\u00a0\u2009\u3000\t猫İ")
    alphabet += ["...", "--", "''", "U.S.", "Mr.", "No.", "e.g.", "1,000", "'s", "n't", "DOTMULTI"]
    rng = random.Random(11)
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25))) for _ in range(3000)]
    out = subprocess.run(
        ["java", "-cp", f"{jar}:{tmp_path}", "NormProbe"], input="\n".join(texts) + "\n", capture_output=True, text=True, encoding="utf-8", check=True
    ).stdout.split("\n")
    java = [o[1:-1] for o in out[: len(texts)]]
    assert _core.meteor_normalize(load_resources(paraphrases=False), texts, "norm") == java
