"""Native fixes of issue 16: the traps a user of sacrebleu, pycocoevalcap or evaluate
fell into now give the anchor's number (or an error naming what to write)."""

from __future__ import annotations

import json
import pickle

import pytest
import sacrebleu

import nlgmetrics as nm
from nlgmetrics.cli.main import main
from nlgmetrics.tasks.coco import load_annotations, load_results
from wmt import load_pair

N = 300


@pytest.fixture(scope="module")
def wmt_files(tmp_path_factory):
    p = load_pair("zh-en")
    d = tmp_path_factory.mktemp("native")
    ref, hyps = p.refs[0][:N], sorted(p.systems.items())[0][1][:N]
    (d / "ref.txt").write_text("\n".join(ref) + "\n", encoding="utf-8")
    (d / "hyp.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    return d, hyps, ref


def _json(capsys, args):
    assert main(args) == 0
    return {r["name"]: r for r in json.loads(capsys.readouterr().out)}


def test_lc_is_bleu_only_and_chrf_lowercase_exists(wmt_files, capsys):
    d, hyps, ref = wmt_files
    args = ["score", "-r", str(d / "ref.txt"), "-i", str(d / "hyp.txt"), "-m", "bleu", "chrf", "-f", "json"]
    got = _json(capsys, [*args, "-lc"])
    assert got["BLEU"]["score"] == sacrebleu.BLEU(lowercase=True).corpus_score(hyps, [ref]).score
    assert got["chrF2"]["score"] == sacrebleu.CHRF().corpus_score(hyps, [ref]).score  # -lc leaves chrF alone
    got = _json(capsys, [*args, "--chrf-lowercase"])
    assert got["chrF2"]["score"] == sacrebleu.CHRF(lowercase=True).corpus_score(hyps, [ref]).score
    assert got["BLEU"]["score"] == sacrebleu.BLEU().corpus_score(hyps, [ref]).score


@pytest.fixture(scope="module")
def coco(corpora):
    base = corpora / "captioning_coco"
    expected = {d["system"]: d for d in json.loads((base / "expected_pycocoevalcap.json").read_text())["computed"]}
    ann = load_annotations(base / "references.jsonl")
    res = load_results(base / "systems" / "flickr30k_model_to_mscoco__contrastive_result.tsv")
    ids = [k for k in ann if k in res]
    return [res[k] for k in ids], [ann[k] for k in ids], expected["flickr30k_model_to_mscoco__contrastive_result"]


def test_coco_rouge_l_and_meteor_ptb_tokenize_raw_captions(coco):
    """Raw captions give COCOEvalCap's numbers (pycocoevalcap 1.2 + Java PTBTokenizer)."""
    preds, refs, want = coco
    # the mean of per-image scores: exact sum here, numpy's pairwise sum there (1 ulp at most)
    assert nm.ROUGE("coco").corpus_score(preds, refs).score == pytest.approx(want["ROUGE_L"], rel=4e-16, abs=0)
    assert nm.ROUGE("coco").signature().as_dict()["tok"] == "ptb"
    raw = nm.ROUGE("coco", tokenize="none").corpus_score(preds, refs).score
    assert raw != nm.ROUGE("coco").corpus_score(preds, refs).score  # the trap: untokenized text


def test_meteor_ptb_default_on_the_whole_set(coco):
    preds, refs, want = coco
    assert nm.METEOR().corpus_score(preds, refs).score == want["METEOR"]
    assert nm.METEOR(tokenize="none").corpus_score(preds[:50], refs[:50]).signature.as_dict()["tok"] == "none"


def test_score_is_a_flat_mapping_for_trainer_compute_metrics():
    preds, refs = ["the cat sat on the mat", "a dog"], [["the cat is on the mat"], ["the dog"]]
    s = nm.load("rouge").compute(predictions=preds, references=refs)
    assert set(s.keys()) >= {"score", "rouge1", "rouge2", "rougeL", "rougeLsum", "rouge1_precision", "rougeL_recall"}
    assert s["rouge1"] == s.types["rouge1"].fmeasure == s["rouge1_fmeasure"]
    # what transformers' Trainer does with compute_metrics' result (evaluation_loop)
    from transformers.trainer_utils import denumpify_detensorize

    want_rouge_l = s.types["rougeL"].fmeasure
    metrics = denumpify_detensorize(s)
    metrics["eval_loss"] = 0.5
    for key in list(metrics.keys()):
        if not key.startswith("eval_"):
            metrics[f"eval_{key}"] = metrics.pop(key)
    assert metrics["eval_rougeL"] == want_rouge_l and metrics["eval_loss"] == 0.5
    json.dumps(metrics)  # Trainer.save_metrics
    # torchmetrics / lightning rebuild mappings as type(m)(items): the same score comes back
    from lightning_utilities.core.apply_func import apply_to_collection
    import torch

    t = nm.load("rouge").compute(predictions=preds, references=refs)
    assert apply_to_collection(t, torch.Tensor, lambda x: x) is t
    assert type(t)({"other": 1.0}) == {"other": 1.0}
    b = nm.bleu(["the cat sat on the mat"], [["the cat sat on a mat"]])
    assert b["counts_1"] == b.counts[0] and b["bp"] == b.bp and b["score"] == b.score
    flat = b.to_dict()
    assert flat["counts"] == b.counts and flat["signature"] == b.signature.format()
    assert all(not isinstance(v, dict) for k, v in s.to_dict().items() if k not in ("types", "signature_fields"))
    again = pickle.loads(pickle.dumps(b))
    assert dict(again) == dict(b) and again.counts == b.counts and str(again) == str(b)
    assert {b} and b != dict(b)  # hashable, identity equality as before


def test_one_registry():
    hyps, refs = ["the cat sat on the mat"], [["the cat is on the mat"]]
    assert nm.load("sacrebleu").corpus_score(hyps, refs).score == sacrebleu.corpus_bleu(hyps, [[r[0] for r in refs]]).score
    assert type(nm.load("SacreBLEU")) is type(nm.load("bleu"))
    with pytest.raises(nm.InvalidOptionError, match="compat.evaluate"):
        nm.load("accuracy")
    with pytest.raises(nm.InvalidOptionError, match="sacrebleu"):
        nm.load("nope")  # the error lists the aliases too


def test_report_method_sacrebleu(wmt_files):
    from nlgmetrics.report import text_report
    from nlgmetrics.engines.significance import bootstrap_ci

    d, hyps, ref = wmt_files
    refs = [[r] for r in ref]
    metric = nm.load("chrf")
    rep = text_report([("chrf", metric)], [("sys", hyps)], refs, n_resamples=200, seed=12345, method="sacrebleu", show_progress=False)
    want = bootstrap_ci(metric, metric.stats(hyps, refs), n_resamples=200, seed=12345, method="sacrebleu")
    row = rep.metrics[0].rows[0]
    assert (row.mean, row.ci) == (want.mean, want.ci)
    theirs = sacrebleu.CHRF().corpus_score(hyps, [ref], n_bootstrap=200)
    assert f"{row.mean:.2f} ± {row.ci:.2f}" == f"{theirs._mean:.2f} ± {theirs._ci:.2f}"
    native = text_report([("chrf", metric)], [("sys", hyps)], refs, n_resamples=200, seed=12345, show_progress=False)
    assert native.metrics[0].rows[0].ci != row.ci


def test_report_cli_takes_method(wmt_files, capsys):
    d, _, _ = wmt_files
    args = ["report", "-r", str(d / "ref.txt"), "-i", str(d / "hyp.txt"), "-m", "chrf", "-cin", "50", "-o", "-", "-q"]
    assert main([*args, "--method", "sacrebleu"]) == 0
    assert "chrF" in capsys.readouterr().out
    assert main([*args, "--method", "bogus"]) == 2


def test_per_type_segment_scores_as_named_columns():
    from rouge_score import rouge_scorer

    preds = ["the cats sat on the mat", "a dog barked loudly", ""]
    targets = ["the cat is on the mat\nit sat", "the dog barked", "nothing"]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    cols = nm.ROUGE(rouge_types=types, use_stemmer=True).sentence_parts(preds, targets)
    scorer = rouge_scorer.RougeScorer(types, use_stemmer=True)
    for i, (p, t) in enumerate(zip(preds, targets)):
        want = scorer.score(t, p)
        for k in types:
            assert (cols[f"{k}_precision"][i], cols[f"{k}_recall"][i], cols[f"{k}_fmeasure"][i]) == tuple(want[k])
            assert cols[k][i] == want[k].fmeasure
    bleu = nm.BLEU().sentence_parts(preds[:2], [[t] for t in targets[:2]])
    assert bleu["score"].tolist() == nm.BLEU().sentence_scores(preds[:2], [[t] for t in targets[:2]]).tolist()
    assert bleu["sys_len"].tolist() == [6, 4] and "precisions_4" in bleu
    wer = nm.WER().sentence_parts(["a b c"], ["a x c d"])
    assert (wer["hits"][0], wer["substitutions"][0], wer["deletions"][0]) == (2, 1, 1)


@pytest.mark.parametrize(
    "argv,hint",
    [
        (["score", "ref.txt", "-i", "hyp.txt"], "-r REF"),
        (["score", "-r", "a", "-i", "b", "--paired-bs"], "nlgmetrics compare"),
        (["score", "-t", "wmt22", "-l", "en-de", "-i", "b"], "from the local sacrebleu cache"),
    ],
)
def test_sacrebleu_habits_say_what_to_write(argv, hint, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert hint in err and "nlgmetrics sacrebleu" in err and err.count("\n") == 1


def test_sentence_level_json_has_named_columns(tmp_path, capsys):
    (tmp_path / "h.txt").write_text("the cats sat on the mat\na dog barked\n")
    (tmp_path / "r.txt").write_text("the cat is on the mat\nthe dog barked loudly\n")
    args = ["score", "-i", str(tmp_path / "h.txt"), "-r", str(tmp_path / "r.txt"), "-m", "rouge", "-sl", "-f", "json"]
    assert main(args) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    cols = nm.ROUGE().sentence_parts(["the cats sat on the mat", "a dog barked"], ["the cat is on the mat", "the dog barked loudly"])
    for i, row in enumerate(rows):
        for k in ("rouge1_precision", "rouge2_recall", "rougeL_fmeasure", "rougeLsum"):
            assert row[k] == cols[k][i]
        assert row["score"] == cols["score"][i]
