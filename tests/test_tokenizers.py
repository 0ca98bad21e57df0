"""The core's tokenizers against sacrebleu's, on random text and on tricky cases."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from nlgmetrics import _core
from nlgmetrics.tokenizers import tokenize

REFERENCE = {
    "13a": Tokenizer13a(),
    "intl": TokenizerV14International(),
    "zh": TokenizerZh(),
    "char": TokenizerChar(),
}

# Text rich in what tokenizers treat specially: ASCII punctuation, digits next to . , -,
# entities, Python-only whitespace (\x1c-\x1f), CJK, fullwidth forms, the U+2001..U+2A6D
# range sacrebleu's zh tokenizer mislabels, and supplementary-plane ideographs.
ALPHABET = st.sampled_from(
    list("ab Z09.,-&;:'\"()[]{}<>/\\!?$%#@^_`|~+=*\n\t\x1c\x1f\u00a0\u3000")
    + ["&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n"]
    + list("我爱北京天安门。，、！？「」（）ＡＢ１２ｱｲ")
    + list("—–“”‘’…€£→≤≥∞♥★✓\u2001\u2a6d\u2a6e\u2fa1\u2f81")
    + ["𠀀", "𪛖", "😀", "é", "ß", "İ", "Σ", "ك", "ภ", "한"]
)
TEXT = st.lists(ALPHABET, max_size=40).map("".join)


def core(name: str, line: str) -> str:
    return _core.tokenize(name, [line])[0]


@settings(max_examples=2000, deadline=None)
@given(TEXT)
def test_random_text_matches_sacrebleu(line):
    for name, ref in REFERENCE.items():
        # sacrebleu strips the right end before tokenizing; the tokenizers see that input.
        want = ref(line.rstrip())
        if name == "char":
            want = " ".join(want.split())
        assert core(name, line.rstrip()) == want, name


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30))
def test_arbitrary_unicode_13a_zh_char(line):
    line = line.encode("utf-8", "replace").decode("utf-8", "replace")
    for name in ("13a", "zh"):
        assert core(name, line) == REFERENCE[name](line)
    assert core("char", line) == " ".join(REFERENCE["char"](line).split())


def test_none_is_whitespace_split():
    line = " a\x1cb\u3000c\u200bd "
    assert core("none", line) == " ".join(NoneTokenizer()(line).split())


def test_known_cases():
    assert core("13a", "It's 3.5 km -- (far) away...") == "It's 3.5 km -- ( far ) away . . ."
    assert core("zh", "Hello—world “quoted” … €5 → x ≤ y 我爱你。") == "Hello — world “ quoted ” … € 5 → x ≤ y 我 爱 你 。"
    assert core("intl", "Pay $3.50, in 1999.") == "Pay $ 3.50 , in 1999."


def test_unicode_tokenizer_by_script():
    assert tokenize("unicode", ["我爱北京。Hello, world!"]) == ["我 爱 北 京 。 Hello , world !"]
    assert tokenize("unicode", ["東京タワー"]) == ["東 京 タ ワ ー"]
    assert tokenize("unicode", ["안녕하세요 세계"]) == ["안녕하세요 세계"]


def test_parallel_tokenization_is_order_preserving():
    lines = [f"line {i}, with text." for i in range(5000)]
    assert _core.tokenize("13a", lines, 4) == _core.tokenize("13a", lines, 1)
