"""Chinese, Japanese and Korean input for every metric that tokenizes (issue 22).

Parity: each metric with a CJK tokenizer equals its reference implementation fed the same
pre-segmented text (sacrebleu, rouge-score with a whitespace tokenizer, pycocoevalcap's
CIDEr-D and BLEU, nltk, jiwer), on the WMT22 Chinese and Japanese references and system
outputs. Warnings: the shared TokenizationWarning fires on unsegmented Chinese/Japanese
with each whitespace-like default and stays silent on English, on Korean (written with
spaces), on segmented text and with the CJK tokenizers.
"""

from __future__ import annotations

import gzip
import json
import unicodedata
import warnings

import jieba
import jiwer
import numpy as np
import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
from pycocoevalcap.bleu.bleu import Bleu
from pycocoevalcap.cider.cider import Cider
from rouge_score import rouge_scorer
from rouge_score import tokenize as rs_tokenize

import nlgmetrics
from nlgmetrics import BLEU, CER, CHRF, METEOR, NIST, PER, ROUGE, TER, WER, CIDEr, Coverage, Distinct, Parent, SelfBLEU
from nlgmetrics.tasks.rewards import CiderDF, CiderReward
from nlgmetrics.cli import main
from nlgmetrics.errors import IncompatibleStatsError, InvalidOptionError
from nlgmetrics.script_check import TokenizationWarning, merged_length, unspaced_share
from nlgmetrics.tokenizers import tokenize

import wmt
from test_cider import reference_fixed_df

N_SEG = 300  # segments per corpus: enough text, a fast test
pytestmark = pytest.mark.skipif(not wmt.exists(), reason="needs ../shared/corpora/wmt22")
jieba.setLogLevel(60)


def _corpus(pair: str, system_index: int = 0):
    p = wmt.load_pair(pair)
    refs = wmt.by_segment(p.refs)[:N_SEG]
    name = sorted(p.systems)[system_index]
    return p.systems[name][:N_SEG], refs


@pytest.fixture(scope="module")
def zh():
    return _corpus("en-zh")


@pytest.fixture(scope="module")
def ja():
    return _corpus("en-ja")


@pytest.fixture(scope="module")
def en():
    return _corpus("zh-en")


def jieba_words(text: str) -> str:
    return " ".join(w for w in jieba.lcut(text) if w.strip())


def segment(hyps, refs, fn):
    return [fn(h) for h in hyps], [[fn(r) for r in rs] for rs in refs]


def silent(fn, *args, **kwargs):
    """Call ``fn`` and assert it emits no TokenizationWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", TokenizationWarning)
        return fn(*args, **kwargs)


def coco_dicts(hyps, refs):
    return {i: rs for i, rs in enumerate(refs)}, {i: [h] for i, h in enumerate(hyps)}


# -- parity: BLEU / chrF / TER against sacrebleu ----------------------------------------------
def _sacre_refs(refs):
    return [list(s) for s in zip(*refs)]


@pytest.mark.parametrize("pair,tok", [("en-zh", "zh"), ("en-zh", "char"), ("en-ja", "ja-mecab"), ("en-ja", "char")])
def test_bleu_matches_sacrebleu(pair, tok):
    hyps, refs = _corpus(pair)
    ours = silent(BLEU(tokenize=tok).corpus_score, hyps, refs)
    want = sacrebleu.corpus_bleu(hyps, _sacre_refs(refs), tokenize=tok)
    assert ours.score == want.score
    assert ours.counts == want.counts


def test_bleu_jieba_equals_sacrebleu_on_segmented_text(zh):
    hyps, refs = zh
    ours = silent(BLEU(tokenize="jieba").corpus_score, hyps, refs)
    sh, sr = segment(hyps, refs, jieba_words)
    assert ours.score == sacrebleu.corpus_bleu(sh, _sacre_refs(sr), tokenize="none").score
    assert "tok:jieba-0.42.1" in ours.signature.format()


def test_chrf_as_is_and_ter_asian_support(zh, ja):
    for hyps, refs in (zh, ja):
        assert silent(CHRF().corpus_score, hyps, refs).score == sacrebleu.corpus_chrf(hyps, _sacre_refs(refs)).score
        ours = silent(TER(normalized=True, asian_support=True).corpus_score, hyps[:40], [r[:1] for r in refs[:40]])
        want = sacrebleu.metrics.TER(normalized=True, asian_support=True).corpus_score(hyps[:40], [[r[0] for r in refs[:40]]])
        assert ours.score == want.score


# -- parity: ROUGE against rouge-score with a whitespace tokenizer ------------------------------
class _Whitespace:
    def tokenize(self, text):
        return text.split()


def _unicode_tokens(text: str) -> str:
    """What ROUGE(tokenizer='unicode') counts: lowercased unicode tokens, punctuation dropped."""
    toks = tokenize("unicode", [text.lower()])[0].split()
    return " ".join(t for t in toks if not all(unicodedata.category(c)[0] in "PS" for c in t))


def _rouge_jieba_tokens(text: str) -> str:
    """ROUGE(tokenizer='jieba'): jieba words of the lowercased text; ASCII words through
    rouge-score's own tokenizer; words without a letter or digit dropped."""
    out = []
    for w in jieba.lcut(text.lower()):
        if w.isascii():
            out += rs_tokenize.tokenize(w, None)
        elif any(c.isalnum() for c in w):
            out.append(w.strip())
    return " ".join(out)


@pytest.mark.parametrize("tok,seg", [("unicode", _unicode_tokens), ("jieba", _rouge_jieba_tokens)])
def test_rouge_matches_rouge_score_on_segmented_text(zh, tok, seg):
    hyps, refs = zh
    types = ["rouge1", "rouge2", "rougeL"]
    ours = silent(ROUGE(tokenizer=tok, rouge_types=types).sentence_prf, hyps, [r[:1] for r in refs])
    scorer = rouge_scorer.RougeScorer(types, tokenizer=_Whitespace())
    for i, (h, rs) in enumerate(zip(hyps, refs)):
        want = scorer.score(seg(rs[0]), seg(h))
        for t in types:
            assert ours[t].fmeasure[i] == want[t].fmeasure, (i, t)


def test_rouge_unicode_on_japanese(ja):
    hyps, refs = ja
    ours = silent(ROUGE(tokenizer="unicode", rouge_types=["rouge1", "rougeL"]).sentence_prf, hyps[:100], [r[:1] for r in refs[:100]])
    scorer = rouge_scorer.RougeScorer(["rouge1", "rougeL"], tokenizer=_Whitespace())
    want = [scorer.score(_unicode_tokens(r[0]), _unicode_tokens(h))["rougeL"].fmeasure for h, r in zip(hyps[:100], refs[:100])]
    assert ours["rougeL"].fmeasure.tolist() == want


# -- parity: CIDEr-D and COCO BLEU against pycocoevalcap -----------------------------------
@pytest.mark.parametrize("pair,tok,seg", [
    ("en-zh", "jieba", jieba_words),
    ("en-zh", "char", lambda t: " ".join(c for c in t if not c.isspace())),
    ("en-ja", "ja-mecab", lambda t: tokenize("ja-mecab", [t])[0]),
])
def test_cider_d_matches_pycocoevalcap_on_segmented_text(pair, tok, seg):
    hyps, refs = _corpus(pair)
    sh, sr = segment(hyps, refs, seg)
    gts, res = coco_dicts(sh, sr)
    want, want_scores = Cider().compute_score(gts, res)
    metric = CIDEr(tokenize=tok)
    assert silent(metric.sentence_scores, hyps, refs).tolist() == list(want_scores)
    assert silent(CIDEr(tokenize="none").sentence_scores, sh, sr).tolist() == list(want_scores)
    # the corpus score is pycocoevalcap's np.mean of those, bit for bit
    ours = silent(metric.corpus_score, hyps, refs).score
    assert ours == want


def test_coco_bleu_jieba_matches_pycocoevalcap(zh):
    hyps, refs = zh
    sh, sr = segment(hyps, refs, jieba_words)
    want, _ = Bleu(4).compute_score(*coco_dicts(sh, sr), verbose=0)
    ours = silent(BLEU("coco", tokenize="jieba").corpus_score, hyps, refs)
    assert ours.bleus == want


def test_cider_df_on_jieba_tokens_and_reward(zh, tmp_path):
    hyps, refs = zh
    sh, sr = segment(hyps, refs, jieba_words)
    train, test = refs[100:], slice(0, 100)
    df = CiderDF.fit(train, tokenize="jieba")
    assert df.to_counts() == CiderDF.fit([[jieba_words(r) for r in rs] for rs in train], tokenize="none").to_counts()
    assert df.n_docs == len(train) and df.tokenizer_version == "jieba-0.42.1"
    # pycocoevalcap's scorer with this fixed df (as self-critical.pytorch's CiderD does)
    table = {tuple(k.split(" ")): v for k, v in df.to_counts().items()}
    want = reference_fixed_df(sh[test], sr[test], table, df.n_docs)
    ours = silent(CIDEr(tokenize="jieba", df=df).sentence_scores, hyps[test], refs[test])
    assert ours.tolist() == want.tolist()
    reward = CiderReward(df, tokenize="jieba")
    assert silent(reward, hyps[test], refs[test]).tolist() == ours.tolist()
    # the table records its tokenizer, survives save/load and is refused by any other
    path = tmp_path / "df.json.gz"
    df.save(path)
    assert json.loads(gzip.open(path, "rt", encoding="utf-8").read())["tokenizer"] == "jieba-0.42.1"
    loaded = CiderDF.load(path)
    assert loaded == df and loaded.tokenizer_version == "jieba-0.42.1"
    assert CIDEr(tokenize="jieba", df=loaded).signature().as_dict()["tok"] == "jieba-0.42.1"
    for other in ("char", "ptb", "none", "zh"):
        with pytest.raises(InvalidOptionError, match="fitted with tokenize='jieba'"):
            CIDEr(tokenize=other, df=df)
    with pytest.raises(InvalidOptionError):
        CiderReward(df, tokenize="char")
    with pytest.raises(InvalidOptionError):
        CiderReward(CiderDF.fit(train, tokenize="ptb"), tokenize="jieba")
    stale = CiderDF.from_counts(df.to_counts(), df.n_docs, tokenize="jieba", tokenizer_version="jieba-0.39")
    with pytest.raises(InvalidOptionError, match="jieba-0.39"):
        CIDEr(tokenize="jieba", df=stale)
    with pytest.raises(IncompatibleStatsError):
        df + stale
    # streaming (corpus df merged from batches) equals one pass
    m = CIDEr(tokenize="jieba")
    m.update(hyps[:150], refs[:150]).update(hyps[150:], refs[150:])
    assert m.compute().score == pytest.approx(CIDEr(tokenize="jieba").corpus_score(hyps, refs).score, abs=1e-12)


# -- parity: nltk BLEU, Self-BLEU, Distinct, WER/CER ----------------------------------------
def test_nltk_bleu_and_self_bleu_on_jieba_tokens(zh):
    hyps, refs = zh
    th = [jieba_words(h).split() for h in hyps]
    tr = [[jieba_words(r).split() for r in rs] for rs in refs]
    assert silent(BLEU("nltk").corpus_score, th, tr).score == corpus_bleu(tr, th)
    sample = hyps[:60]
    toks = [jieba_words(s).split() for s in sample]
    fn = SmoothingFunction().method1
    per = [sentence_bleu(toks[:i] + toks[i + 1:], t, (1 / 3, 1 / 3, 1 / 3), smoothing_function=fn) for i, t in enumerate(toks)]
    ours = silent(SelfBLEU(tokenize="jieba").sentence_scores, sample)
    assert ours.tolist() == per


def _distinct_formula(token_lists, n):
    grams = [[tuple(t[i:i + n]) for i in range(len(t) - n + 1)] for t in token_lists]
    total = sum(len(g) for g in grams)
    return len({g for gs in grams for g in gs}) / total if total else 0.0


@pytest.mark.parametrize("pair,tok,split", [
    ("en-zh", "jieba", lambda t: jieba_words(t).split()),
    ("en-zh", "char", lambda t: [c for c in t if not c.isspace()]),
    ("en-ja", "ja-mecab", lambda t: tokenize("ja-mecab", [t])[0].split()),
])
def test_distinct_with_cjk_tokenizers(pair, tok, split):
    hyps, _ = _corpus(pair)
    for n in (1, 2, 3):
        got = silent(Distinct(n=n, tokenize=tok).corpus_score, hyps)
        assert got.score == _distinct_formula([split(h) for h in hyps], n)
        assert got.score == Distinct(n=n).corpus_score([" ".join(split(h)) for h in hyps]).score


def test_issue_example_distinct():
    responses = ["今天天气很好，我们去公园散步。", "今天的天气非常好，我们一起去公园散步吧。"]
    with pytest.warns(TokenizationWarning, match="tokenize='zh'.*'jieba'"):
        assert Distinct(n=2).corpus_score(responses).score == 0.0
    chars = [[c for c in r] for r in responses]
    assert silent(Distinct(n=2, tokenize="char").corpus_score, responses).score == _distinct_formula(chars, 2)
    assert silent(Distinct(n=2, tokenize="unicode").corpus_score, responses).score == _distinct_formula(chars, 2)


def test_cer_and_segmented_wer_match_jiwer(zh):
    hyps, refs = zh
    r0 = [r[0] for r in refs]
    assert silent(CER().corpus_score, hyps, r0).score == jiwer.cer(r0, hyps)
    sh = [jieba_words(h) for h in hyps]
    sr = [jieba_words(r) for r in r0]
    assert silent(WER().corpus_score, sh, sr).score == jiwer.wer(sr, sh)


def test_coverage_and_parent_segment_cjk():
    # an item inside unsegmented Chinese: matched at character boundaries
    assert Coverage(match="token_sequence").corpus_score(["我爱北京天安门"], [["北京", "上海"]]).score == 0.5
    assert Coverage(match="token_subset").corpus_score(["東京は日本の首都です"], [["東京", "大阪"]]).score == 0.5
    table = [[("name", "蓝色香料"), ("eatType", "咖啡店")]]
    pred, ref = ["蓝色香料是一家咖啡店。"], [["蓝色香料是位于市中心的一家咖啡店。"]]
    with pytest.warns(TokenizationWarning, match="PARENT"):
        Parent().corpus_score(pred, ref, table)
    got = silent(Parent(tokenize="jieba").corpus_score, pred, ref, table)
    seg_table = [[(a, jieba_words(v)) for a, v in table[0]]]
    assert got.score == Parent().corpus_score([jieba_words(pred[0])], [[jieba_words(ref[0][0])]], seg_table).score > 0


# -- warnings: fire on unsegmented CJK, silent otherwise --------------------------------------
def _cider_reward(h, r):
    return CiderReward(CiderDF.fit(r, tokenize="none"), tokenize="none")(h, r)


WARNING_CASES = {
    "BLEU 13a": lambda h, r: BLEU().corpus_score(h, r),
    "BLEU intl": lambda h, r: BLEU(tokenize="intl").corpus_score(h, r),
    "BLEU coco": lambda h, r: BLEU("coco").corpus_score(h, r),
    "BLEU nltk": lambda h, r: BLEU("nltk").corpus_score(h, r),
    "chrF++": lambda h, r: CHRF(word_order=2).corpus_score(h, r),
    "TER": lambda h, r: TER().corpus_score(h, [x[:1] for x in r]),
    "TER asian, not normalized": lambda h, r: TER(asian_support=True).corpus_score(h, [x[:1] for x in r]),
    "WER": lambda h, r: WER().corpus_score(h, [x[0] for x in r]),
    "PER": lambda h, r: PER().corpus_score(h, [x[0] for x in r]),
    "NIST": lambda h, r: NIST().corpus_score(h, r),
    "NIST nltk": lambda h, r: NIST("nltk", zero_division="zero").sentence_scores(h, r),
    "ROUGE": lambda h, r: ROUGE().corpus_score(h, r),
    "ROUGE 1.5.5": lambda h, r: ROUGE("rouge155").corpus_score(h, r),
    "ROUGE coco": lambda h, r: ROUGE("coco").corpus_score(h, r),
    "METEOR": lambda h, r: METEOR(modules=["exact"]).corpus_score(h[:40], r[:40]),
    "CIDEr ptb": lambda h, r: CIDEr().corpus_score(h, r),
    "CIDEr none": lambda h, r: CIDEr(tokenize="none").sentence_scores(h, r),
    "CIDEr pairwise": lambda h, r: CIDEr(df=CiderDF.fit(r)).pairwise(h[:5], [x[0] for x in r[:5]]),
    "CiderReward": _cider_reward,
    "Distinct": lambda h, r: Distinct().corpus_score(h),
    "Self-BLEU": lambda h, r: SelfBLEU().corpus_score(h),
    "PARENT": lambda h, r: Parent().corpus_score(h[:20], r[:20], [[("k", x[0][:5])] for x in r[:20]]),
}


@pytest.mark.parametrize("case", sorted(WARNING_CASES))
def test_warning_fires_on_unsegmented_chinese_and_japanese(case, zh, ja, en):
    for hyps, refs in (zh, ja):
        with pytest.warns(TokenizationWarning, match="use |see docs/cjk.md") as rec:
            WARNING_CASES[case](hyps[:60], refs[:60])
        # the message says what to do, and points at the caller
        assert rec[0].filename == __file__
    silent(WARNING_CASES[case], en[0][:60], en[1][:60])


SEGMENTED_CASES = {
    "BLEU none": lambda h, r: BLEU(tokenize="none").corpus_score(h, r),
    "BLEU coco none": lambda h, r: BLEU("coco", tokenize="none").corpus_score(h, r),
    "BLEU nltk": lambda h, r: BLEU("nltk").corpus_score(h, r),
    "chrF++": lambda h, r: CHRF(word_order=2).corpus_score(h, r),
    "TER": lambda h, r: TER().corpus_score(h, [x[:1] for x in r]),
    "WER": lambda h, r: WER().corpus_score(h, [x[0] for x in r]),
    "CIDEr none": lambda h, r: CIDEr(tokenize="none").corpus_score(h, r),
    "CIDEr ptb": lambda h, r: CIDEr().corpus_score(h, r),
    "Distinct": lambda h, r: Distinct().corpus_score(h),
    "Self-BLEU": lambda h, r: SelfBLEU().corpus_score(h),
}


@pytest.mark.parametrize("case", sorted(SEGMENTED_CASES))
def test_no_warning_on_segmented_text(case, zh, ja):
    for (hyps, refs), seg in ((zh, jieba_words), (ja, lambda t: tokenize("ja-mecab", [t])[0])):
        sh, sr = segment(hyps[:60], refs[:60], seg)
        silent(SEGMENTED_CASES[case], sh, sr)


def test_no_warning_on_korean_mixed_or_short_text():
    korean = ["오늘 날씨가 정말 좋아서 우리는 공원에 산책하러 갔습니다.", "대한민국에서는 많은 사람들이 김치를 먹습니다."]
    silent(Distinct().corpus_score, korean)
    silent(BLEU().corpus_score, korean, [[k] for k in korean])
    # English with a few Chinese names is English
    mixed = ["The meeting in 北京 was chaired by 习近平 and lasted two hours", "We flew from 上海 to Tokyo yesterday"]
    silent(Distinct().corpus_score, mixed)
    silent(CIDEr().corpus_score, mixed, [[m] for m in mixed])
    # one- or two-word responses are words, not merged clauses
    silent(Distinct(n=1).corpus_score, ["好的", "谢谢", "没问题", "是的"])


def test_rule_numbers_on_wmt(zh, ja):
    """The documented measurements behind the rule (script_check's docstring)."""
    for (hyps, _), seg, low in ((zh, jieba_words, 2.2), (ja, lambda t: tokenize("ja-mecab", [t])[0], 3.0)):
        raw, words = merged_length(hyps), merged_length([seg(h) for h in hyps])
        assert unspaced_share(hyps) > 0.85 and words < low < 4 < 15 < raw
        assert merged_length(tokenize("zh", hyps)) == merged_length(tokenize("char", hyps)) == 1.0


def test_the_cjk_tokenizers_are_accepted_everywhere():
    h, r = ["今天天气很好"], [["今天天气非常好"]]
    for tok in ("zh", "char", "unicode", "jieba"):
        for metric in (BLEU(tokenize=tok), Distinct(tokenize=tok), SelfBLEU(tokenize=tok), CIDEr(tokenize=tok), BLEU("coco", tokenize=tok), Parent(tokenize=tok)):
            assert metric.signature().as_dict()["tok"].startswith(tok)
    with pytest.raises(InvalidOptionError):
        CIDEr(tokenize="13a")
    df = CiderDF.fit([["今天天气非常好"], ["明天会下雨"], ["我们去公园"]], tokenize="char")
    assert silent(CIDEr(tokenize="char", df=df).corpus_score, h, r).score > 0


# -- command line -----------------------------------------------------------------------------
def test_cli_tokenizer_flags(tmp_path, capsys, zh):
    hyps, refs = zh
    h, r = tmp_path / "h.txt", tmp_path / "r.txt"
    h.write_text("\n".join(hyps[:100]) + "\n", encoding="utf-8")
    r.write_text("\n".join(x[0] for x in refs[:100]) + "\n", encoding="utf-8")
    assert main(["score", "-i", str(h), "-r", str(r), "-m", "cider", "--cider-tokenize", "jieba", "-f", "json"]) == 0
    got = json.loads(capsys.readouterr().out)[0]
    assert got["score"] == CIDEr(tokenize="jieba").corpus_score(hyps[:100], [x[:1] for x in refs[:100]]).score
    assert main(["score", "-i", str(h), "-r", str(r), "-m", "distinct", "-tok", "jieba", "-f", "json"]) == 0
    got = json.loads(capsys.readouterr().out)[0]
    assert got["score"] == Distinct(tokenize="jieba").corpus_score(hyps[:100]).score
    df = tmp_path / "df.json.gz"
    CiderDF.fit([x[:1] for x in refs], tokenize="jieba").save(df)
    assert main(["score", "-i", str(h), "-r", str(r), "-m", "cider", "--cider-tokenize", "jieba", "--cider-df", str(df), "-b"]) == 0
    capsys.readouterr()
    assert main(["score", "-i", str(h), "-r", str(r), "-m", "cider", "--cider-tokenize", "char", "--cider-df", str(df), "-b"]) != 0
    assert "jieba" in capsys.readouterr().err


def test_public_names():
    assert nlgmetrics.TokenizationWarning is TokenizationWarning
    assert issubclass(nlgmetrics.RougeTokenizerWarning, TokenizationWarning)


# -- the rule on generated text ---------------------------------------------------------------
from hypothesis import given, settings, strategies as st  # noqa: E402

from nlgmetrics.script_check import Segmentation, problem  # noqa: E402

_HAN = st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF)
_KANA = st.characters(min_codepoint=0x3041, max_codepoint=0x30FA)
_LATIN = st.text(alphabet="abcdefghijklmnopqrstuvwxyzàéü", min_size=1, max_size=12)
WHITESPACE = Segmentation("merges", "test", "fix")


def _words(word):
    return st.lists(st.lists(word, min_size=1, max_size=30).map(" ".join), min_size=1, max_size=20)


@settings(max_examples=60, deadline=None)
@given(_words(st.text(alphabet=_HAN, min_size=1, max_size=3) | st.text(alphabet=_KANA, min_size=1, max_size=6)))
def test_rule_is_silent_on_words_of_up_to_four_characters_with_han(texts):
    # segmented Chinese/Japanese: tokens of <= 3 Han or <= 6 kana (kana-only tokens do not count)
    assert problem(WHITESPACE, texts) is None


@settings(max_examples=60, deadline=None)
@given(_words(_LATIN))
def test_rule_is_silent_on_latin_text(texts):
    assert problem(WHITESPACE, texts) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=_HAN, min_size=5, max_size=40), min_size=1, max_size=20))
def test_rule_fires_on_unsegmented_clauses(texts):
    assert problem(WHITESPACE, texts) is not None
    assert problem(Segmentation("merges", "t", "f", lambda xs: tokenize("char", xs)), texts) is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("天气很好我们去公园散步今日 "), min_size=0, max_size=25), min_size=1, max_size=12), st.integers(1, 3))
def test_char_tokenizer_equals_presegmented_characters(texts, n):
    chars = [" ".join(c for c in t if not c.isspace()) for t in texts]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TokenizationWarning)
        assert Distinct(n=n, tokenize="char").corpus_score(texts).score == Distinct(n=n).corpus_score(chars).score
        refs = [[t[::-1] or "天"] for t in texts]
        seg_refs = [[" ".join(c for c in r[0] if not c.isspace())] for r in refs]
        df = CiderDF.fit(seg_refs + [["公 园"], ["今 日"]], tokenize="none")
        char_df = CiderDF.fit(refs + [["公园"], ["今日"]], tokenize="char")
        assert char_df.to_counts() == df.to_counts()
        assert CIDEr(tokenize="char", df=char_df).sentence_scores(texts, refs).tolist() == CIDEr(tokenize="none", df=df).sentence_scores(chars, seg_refs).tolist()


def test_korean_with_ko_mecab():
    hyps = ["오늘 날씨가 정말 좋아서 우리는 공원에 산책하러 갔습니다.", "인공지능 기술이 빠르게 발전하고 있습니다."]
    refs = [["오늘은 날씨가 좋아서 우리는 공원으로 산책을 갔다."], ["인공지능 기술은 빠르게 발전하고 있다."]]
    want = sacrebleu.corpus_bleu(hyps, _sacre_refs(refs), tokenize="ko-mecab")
    assert silent(BLEU(tokenize="ko-mecab").corpus_score, hyps, refs).score == want.score
    sh, sr = segment(hyps, refs, lambda t: tokenize("ko-mecab", [t])[0])
    df = CiderDF.fit(refs + [["날씨가 좋다"]], tokenize="ko-mecab")
    plain = CiderDF.fit(sr + [[tokenize("ko-mecab", ["날씨가 좋다"])[0]]], tokenize="none")
    assert df.to_counts() == plain.to_counts() and df.tokenizer_version.startswith("ko-mecab-")
    assert silent(CIDEr(tokenize="ko-mecab", df=df).sentence_scores, hyps, refs).tolist() == CIDEr(tokenize="none", df=plain).sentence_scores(sh, sr).tolist()
    assert silent(Distinct(n=2, tokenize="ko-mecab").corpus_score, hyps).score == Distinct(n=2).corpus_score(sh).score
