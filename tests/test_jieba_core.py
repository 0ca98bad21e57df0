"""The core's jieba (``_core.JiebaSegmenter`` via ``nlgmetrics.tokenizers.jieba_cut`` /
``jieba_join``) against Python jieba 0.42.1 itself: the same word lists (``==``) in every
mode (``cut``, ``cut(HMM=False)``, ``cut_for_search`` with and without the HMM) on the
WMT22 Chinese texts and on generated adversarial text, and after the dictionary changes
jieba offers (``add_word``, ``del_word``, ``suggest_freq``, ``load_userdict``), which the
core follows because it is built from jieba's live state."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

jieba = pytest.importorskip("jieba")

from nlgmetrics import _core, tokenizers  # noqa: E402
from nlgmetrics.tokenizers import jieba_cut, jieba_join, jieba_reset, jieba_segmenter  # noqa: E402

jieba.setLogLevel(60)
SHARED = Path(__file__).resolve().parents[2] / "shared"
WMT = SHARED / "corpora" / "wmt22"

REFERENCE = {
    "default": lambda t: jieba.lcut(t),
    "no_hmm": lambda t: jieba.lcut(t, HMM=False),
    "search": lambda t: jieba.lcut_for_search(t),
    "search_no_hmm": lambda t: jieba.lcut_for_search(t, HMM=False),
}


def zh_lines() -> list[str]:
    files = sorted((WMT / "en-zh").glob("**/*.zh")) + [WMT / "zh-en" / "generaltest2022.zh-en.src.zh"]
    if not files or not all(f.exists() for f in files):
        pytest.skip("WMT22 Chinese texts not found in ../shared/corpora")
    out: list[str] = []
    for f in files:
        out += f.read_text(encoding="utf-8").splitlines()
    return out


@pytest.fixture
def restore_jieba():
    """Undo the test's dictionary changes (jieba mutates its dict and set in place)."""
    jieba.dt.check_initialized()
    dt, fs = jieba.dt, jieba.finalseg
    freq, total, fsw, tags = dict(dt.FREQ), dt.total, set(fs.Force_Split_Words), dict(dt.user_word_tag_tab)
    yield
    dt.FREQ.clear()
    dt.FREQ.update(freq)
    dt.total = total
    fs.Force_Split_Words.clear()
    fs.Force_Split_Words.update(fsw)
    dt.user_word_tag_tab.clear()
    dt.user_word_tag_tab.update(tags)
    jieba_reset()


def test_core_segmenter_is_used_for_stock_jieba():
    seg = jieba_segmenter()
    assert isinstance(seg, _core.JiebaSegmenter)
    assert jieba_segmenter() is seg  # cached while the dictionary is unchanged
    assert seg.freq("北京") == jieba.dt.FREQ["北京"] > 0
    assert seg.freq("清华大") == jieba.dt.FREQ["清华大"] == 0  # a prefix of a word
    assert seg.freq("不在词典里的词") is None


def test_wmt22_chinese_default_mode_equals_jieba():
    lines = zh_lines()
    assert len(lines) > 30000
    ours = jieba_cut(lines)
    ref = [jieba.lcut(t) for t in lines]
    bad = [i for i in range(len(lines)) if ours[i] != ref[i]]
    assert not bad, (len(bad), lines[bad[0]], ours[bad[0]], ref[bad[0]])
    assert jieba_join(lines[:500]) == [" ".join(jieba.cut(t)) for t in lines[:500]]
    assert jieba_join(lines[:500], n_threads=2) == jieba_join(lines[:500], n_threads=1)


@pytest.mark.parametrize("mode", ["no_hmm", "search", "search_no_hmm"])
def test_wmt22_chinese_other_modes_equal_jieba(mode):
    lines = zh_lines()[::5]
    ours = jieba_cut(lines, mode)
    ref = [REFERENCE[mode](t) for t in lines]
    bad = [i for i in range(len(lines)) if ours[i] != ref[i]]
    assert not bad, (len(bad), lines[bad[0]], ours[bad[0]], ref[bad[0]])


def test_english_and_mixed_text_equals_jieba():
    lines = (WMT / "zh-en" / "generaltest2022.zh-en.ref.A.en").read_text(encoding="utf-8").splitlines()[:1500]
    for mode, ref in REFERENCE.items():
        assert jieba_cut(lines, mode) == [ref(t) for t in lines], mode


# Pieces that exercise every branch: dictionary words, characters jieba's HMM never saw
# (rare CJK, emission MIN_FLOAT ties), the edges of [\u4E00-\u9FD5], ASCII words, digits
# with decimals and %, the other characters of the segmented class (+#&._%-), full-width
# forms, CJK punctuation, every kind of whitespace including \r\n, astral characters.
PIECES = [
    "我们", "中华人民共和国", "清华大学", "北京", "的", "了", "是", "在", "研究生命起源", "结婚的和尚未结婚的",
    "鿕", "鿖", "䷿", "一", "丂", "丄", "丅", "乪", "乫", "亗", "龘", "靐", "齉", "爨", "鬱", "犇", "骉", "麤",
    "iPhone", "GPU", "abc", "x", "3.14", "50%", "1.5%", "12.", ".5", "a1.2b", "2024年", "第3章", "C++", "C#",
    "AT&T", "a_b", "--", "-", "+", "#", "&", ".", "_", "%", "..", "1..2",
    "１２３", "ＡＢＣ", "，", "。", "！", "？", "、", "「", "」", "《", "》", "（", "）", "…",
    " ", "  ", "\t", "\n", "\r", "\r\n", "\n\r", "\u3000", "\xa0", "\u2028", "\x0b", "\x0c", "\x1c", "\x85",
    "😀", "𠀀", "𪚥", "\U0010ffff", "\x00", "é", "ß", "İ", "ﬁ", "ǅ", "Ⅻ", "²", "٣",
]

pieces = st.lists(st.one_of(st.sampled_from(PIECES), st.text(min_size=1, max_size=3)), max_size=24).map("".join)
han_runs = st.text(alphabet=st.sampled_from(list("的一是了我不人在他有这个上们来到时大地为子中你说生国年着就那和要她出也得里后自以会家可下而过天去能对小多然于心学么之都好看起发当没成只如事把还用第样道想作种开美总从无情己面最女但现前些所同日手又行意动方期它头经长儿回位分爱老因很给名法间斯知世什两次使身者被高已亲其进此话常与活正感鿕鿖䷿丂乪亗龘靐齉abcXYZ0123456789+#&._%-")), min_size=1, max_size=60)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(pieces, han_runs), min_size=1, max_size=6))
def test_generated_text_equals_jieba_in_every_mode(texts):
    for mode, ref in REFERENCE.items():
        assert jieba_cut(texts, mode) == [ref(t) for t in texts], mode
    assert jieba_join(texts) == [" ".join(jieba.cut(t)) for t in texts]
    assert jieba_join(texts, skip_space=True) == [" ".join(w for w in jieba.cut(t) if not w.isspace()) for t in texts]


def test_long_runs_equal_jieba():
    texts = [
        "中" * 5000, "鿕" * 3000, "a" * 4000, "研究生命起源" * 800, "12.5%" * 700,
        "".join(PIECES) * 40, "乪亗" * 2000 + "我们" + "\r\n" * 100,
    ]
    for mode, ref in REFERENCE.items():
        assert jieba_cut(texts, mode) == [ref(t) for t in texts], mode


def test_empty_and_whitespace_only():
    texts = ["", " ", "\r\n", "\u3000\u3000", "\n\n\r\r\n"]
    assert jieba_cut(texts) == [jieba.lcut(t) for t in texts]
    assert jieba_join(texts, skip_space=True) == ["", "", "", "", ""]
    assert jieba_cut([]) == [] and jieba_join([]) == []


def test_dictionary_changes_are_followed(restore_jieba, tmp_path):
    text = "李小福是创新办主任也是云计算方面的专家台中今天天气不错"
    probes = [text, "创新办", "云计算方面", "台中", "今天天气", "江州市长江大桥参加了长江大桥的通车仪式"]

    def check():
        for mode, ref in REFERENCE.items():
            assert jieba_cut(probes, mode) == [ref(t) for t in probes], mode

    check()
    before = jieba_segmenter()
    jieba.add_word("创新办", 3, "i")
    assert jieba_segmenter() is not before
    assert "创新办" in jieba_cut([text])[0]
    check()
    jieba.add_word("云计算")  # frequency from suggest_freq
    check()
    jieba.del_word("今天天气")
    jieba.del_word("天气")
    check()
    jieba.suggest_freq(("台", "中"), True)
    check()
    jieba.suggest_freq("江州", True)
    check()
    userdict = tmp_path / "user.txt"
    userdict.write_text("\ufeff长江大桥 2000 ns\n江大桥 3\n通车仪式\n云计算方面 50 n\n", encoding="utf-8")
    jieba.load_userdict(str(userdict))
    check()
    assert "通车仪式" in jieba_cut([probes[-1]])[0]


def test_delete_after_readd_is_followed(restore_jieba):
    # del_word a second time, after the word came back with a frequency: len(FREQ),
    # total and the force-split set's size are all unchanged by the second deletion.
    text = "我们去吃火锅吧"
    jieba.add_word("吃火锅", 100000)
    jieba.del_word("吃火锅")
    assert jieba_cut([text]) == [jieba.lcut(text)]
    jieba.add_word("吃火锅", 100000)
    assert jieba_cut([text]) == [jieba.lcut(text)]
    assert "吃火锅" in jieba.lcut(text)
    jieba.del_word("吃火锅")
    assert jieba_cut([text]) == [jieba.lcut(text)]
    assert "吃火锅" not in jieba.lcut(text)


def test_hand_edits_need_a_reset(restore_jieba):
    # An assignment into FREQ that keeps its size and total is not seen until jieba_reset().
    text = "今天天气不错"
    seg = jieba_segmenter()
    jieba.dt.FREQ["今天天气"], jieba.dt.FREQ["不错"] = jieba.dt.FREQ["不错"], jieba.dt.FREQ["今天天气"]
    assert jieba_segmenter() is seg
    jieba_reset()
    assert jieba_cut([text]) == [jieba.lcut(text)]


def test_python_jieba_runs_where_the_core_cannot_be_exact(restore_jieba, monkeypatch):
    # A lone surrogate (not UTF-8): Python jieba segments it.
    texts = ["今天\ud800天气", "ok"]
    assert jieba_cut(texts) == [jieba.lcut(t) for t in texts]
    assert jieba_join(texts) == [" ".join(jieba.cut(t)) for t in texts]
    # A negative frequency: the core does not copy math.log's error, Python jieba runs.
    jieba.add_word("天天", -5)
    assert jieba_segmenter() is None
    assert jieba_cut(["今天"]) == [jieba.lcut("今天")]
    # A patched jieba.cut: whatever it does is what users get.
    monkeypatch.setattr(jieba, "lcut", lambda t, *a, **k: ["patched"])
    assert jieba_segmenter() is None
    assert jieba_cut(["今天"]) == [["patched"]]


def test_unknown_mode_is_a_typed_error():
    from nlgmetrics.errors import InvalidOptionError

    with pytest.raises(InvalidOptionError, match="known: default"):
        jieba_cut(["x"], "cut_all")
    with pytest.raises(ValueError):
        jieba_segmenter().cut(["x"], "cut_all")


def test_missing_jieba_names_the_extra(monkeypatch):
    import sys

    from nlgmetrics.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "jieba", None)
    with pytest.raises(MissingExtraError, match=r"nlgmetrics\[zh\]"):
        tokenizers.jieba_cut(["今天"])


def test_replaced_dictionary_is_followed(restore_jieba, monkeypatch):
    # set_dictionary / initialize replace FREQ with a new dict: the segmenter follows it.
    seg = jieba_segmenter()
    freq = dict(jieba.dt.FREQ)
    freq["天气不"] = 10**6
    monkeypatch.setattr(jieba.dt, "FREQ", freq)
    monkeypatch.setattr(jieba.dt, "total", jieba.dt.total + 10**6)
    assert jieba_segmenter() is not seg
    text = "今天天气不错"
    assert jieba_cut([text]) == [jieba.lcut(text)]
    assert "天气不" in jieba_cut([text])[0]


def test_llamafactory_in_one_core_pass_equals_python_jieba_words():
    # llamafactory_rows segments inside the core; the same rows from Python jieba's words
    ref = (WMT / "en-zh" / "generaltest2022.en-zh.ref.A.zh").read_text(encoding="utf-8").splitlines()
    hyp = sorted((WMT / "en-zh" / "system-outputs").glob("*.zh"))[0].read_text(encoding="utf-8").splitlines()
    preds, labels = hyp[:3000], ref[:3000]
    fused = _core.llamafactory_rows_jieba(preds, labels, jieba_segmenter(), 1)
    cut = lambda texts: [" ".join(jieba.cut(t)) for t in texts]  # noqa: E731
    plain = _core.llamafactory_rows(preds, labels, cut(preds), cut(labels), 1)
    assert fused.tolist() == plain.tolist()


def test_rouge_chinese_list_path_equals_validating_path():
    from nlgmetrics import ROUGE

    lines = zh_lines()[:4000]
    hyps, refs = jieba_join(lines[:2000]), jieba_join(lines[2000:4000])
    m = ROUGE("rouge-chinese", n_threads=1)
    fast = m.sentence_prf(hyps, refs)  # plain lists: read in place by the core
    slow = m.sentence_prf(tuple(hyps), [[r] for r in refs])  # the validating path
    for t in fast:
        assert fast[t].fmeasure.tolist() == slow[t].fmeasure.tolist()
        assert fast[t].precision.tolist() == slow[t].precision.tolist()
    assert m.corpus_score(hyps, refs).score == m.corpus_score(tuple(hyps), [[r] for r in refs]).score
