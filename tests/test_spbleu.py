"""spBLEU (``tokenize="flores101"`` / ``"flores200"``) against sacrebleu 2.6.0 with the same
SentencePiece model file: a model trained here on WMT22 text (nothing is downloaded),
placed where sacrebleu looks for it (``$SACREBLEU/models/``) and passed as ``spm_model``."""

from __future__ import annotations

import pickle
import shutil

import pytest

spm = pytest.importorskip("sentencepiece")
sacrebleu = pytest.importorskip("sacrebleu")

from nlgmetrics import BLEU  # noqa: E402
from nlgmetrics.errors import InvalidOptionError, MissingExtraError  # noqa: E402
from nlgmetrics.spm_tokenizers import MODEL_FILES  # noqa: E402


@pytest.fixture(scope="module")
def corpus(corpora):
    d = corpora / "wmt22"
    out = {}
    for pair, tgt in (("en-zh", "zh"), ("zh-en", "en")):
        ref = (d / pair / f"generaltest2022.{pair}.ref.A.{tgt}").read_text(encoding="utf-8").splitlines()[:400]
        hyp = sorted((d / pair / "system-outputs").glob("*.hyp.*"))[0].read_text(encoding="utf-8").splitlines()[:400]
        out[pair] = (hyp, ref)
    return out


@pytest.fixture(scope="module")
def model(tmp_path_factory, corpus):
    d = tmp_path_factory.mktemp("spm")
    text = d / "train.txt"
    text.write_text("\n".join(l for h, r in corpus.values() for l in h + r), encoding="utf-8")
    spm.SentencePieceTrainer.train(input=str(text), model_prefix=str(d / "m"), vocab_size=2000, character_coverage=0.98,
                                   model_type="unigram", num_threads=1, minloglevel=2)
    return d / "m.model"


@pytest.fixture()
def sacrebleu_cache(tmp_path, model, monkeypatch):
    models = tmp_path / "models"
    models.mkdir()
    for name in MODEL_FILES.values():
        shutil.copy(model, models / name)
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    from sacrebleu.tokenizers import tokenizer_spm

    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(tmp_path))  # read at sacrebleu's import
    return tmp_path


@pytest.mark.parametrize("tok", ["flores101", "flores200"])
@pytest.mark.parametrize("pair", ["en-zh", "zh-en"])
def test_equals_sacrebleu_with_the_same_model(corpus, model, sacrebleu_cache, tok, pair):
    hyp, ref = corpus[pair]
    hyp = hyp + ["", "   ", "全角ＡＢＣ１２３。", "emoji 😀 mixed 中文 text", "dup dup dup"]
    ref = ref + ["x", "", "全角ABC123.", "emoji mixed 中文", "dup dup dup"]
    expected = sacrebleu.corpus_bleu(hyp, [ref], tokenize=tok)
    for metric in (BLEU(tokenize=tok, spm_model=str(model)), BLEU(tokenize=tok)):  # path, then sacrebleu's cache
        got = metric.corpus_score(hyp, [[r] for r in ref])
        assert got.score == expected.score
        assert got.counts == expected.counts and got.totals == expected.totals
    assert f"tok:{tok}" in str(got.signature)
    lc = sacrebleu.corpus_bleu(hyp, [ref], tokenize=tok, lowercase=True)
    assert BLEU(tokenize=tok, lowercase=True).corpus_score(hyp, [[r] for r in ref]).score == lc.score
    sent = sacrebleu.sentence_bleu(hyp[0], [ref[0]], tokenize=tok)
    assert BLEU(tokenize=tok).sentence_scores(hyp[:1], [[ref[0]]])[0] == sent.score


def test_metric_pickles(model):
    m = BLEU(tokenize="flores200", spm_model=str(model))
    back = pickle.loads(pickle.dumps(m))
    text = ["the cat sat on the mat today and every day"]
    assert back.corpus_score(text, [text]).score == m.corpus_score(text, [text]).score > 99.99


def test_missing_model_is_a_typed_error_naming_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    with pytest.raises(MissingExtraError, match=r"flores200sacrebleuspm.*" + str(tmp_path / "models")):
        BLEU(tokenize="flores200")
    with pytest.raises(MissingExtraError, match="sacrebleu_tokenizer_spm.model"):
        BLEU(tokenize="flores101")
    with pytest.raises(MissingExtraError, match="does not exist"):
        BLEU(tokenize="flores200", spm_model=str(tmp_path / "nope.model"))
    with pytest.raises(InvalidOptionError, match="spm_model"):
        BLEU(tokenize="13a", spm_model=str(tmp_path / "nope.model"))
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model")
    with pytest.raises(InvalidOptionError, match="not a SentencePiece model"):
        BLEU(tokenize="flores200", spm_model=str(bad)).corpus_score(["a"], [["a"]])
