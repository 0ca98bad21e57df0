"""``nlgmetrics.compat.sacrebleu.tokenizers``: sacrebleu 2.6's tokenizer module tree, each
class against sacrebleu's own on real and generated text."""

from __future__ import annotations

import importlib

import pytest
from conftest import read_lines
from hypothesis import given, settings
from hypothesis import strategies as st

CLASSES = [
    ("tokenizer_13a", "Tokenizer13a", {}),
    ("tokenizer_intl", "TokenizerV14International", {}),
    ("tokenizer_zh", "TokenizerZh", {}),
    ("tokenizer_char", "TokenizerChar", {}),
    ("tokenizer_none", "NoneTokenizer", {}),
    ("tokenizer_ter", "TercomTokenizer", {}),
    ("tokenizer_ter", "TercomTokenizer", {"normalized": True}),
    ("tokenizer_ter", "TercomTokenizer", {"normalized": True, "asian_support": True, "no_punct": True}),
    ("tokenizer_ter", "TercomTokenizer", {"case_sensitive": True, "no_punct": True}),
]
IDS = [f"{c}{'-' + '-'.join(k) if k else ''}" for _, c, k in CLASSES]


def _pair(module, cls, kwargs):
    ours = getattr(importlib.import_module(f"nlgmetrics.compat.sacrebleu.tokenizers.{module}"), cls)(**kwargs)
    theirs = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)(**kwargs)
    return ours, theirs


@pytest.mark.parametrize("module,cls,kwargs", CLASSES, ids=IDS)
def test_tokenizers_equal_sacrebleus_on_wmt(corpora, module, cls, kwargs):
    ours, theirs = _pair(module, cls, kwargs)
    assert ours.signature() == theirs.signature()
    lines = []
    for pair, lang in (("zh-en", "en"), ("en-zh", "zh"), ("ja-en", "en")):
        d = corpora / "wmt22" / pair
        lines += read_lines(next(d.glob(f"generaltest2022.{pair}.ref.*.{lang}")))[:150]
    assert [ours(x) for x in lines] == [theirs(x) for x in lines]


text = st.text(st.sampled_from(list("ab1 .,;!?'\"-&<>\t\n\u3000\u4e2d\u6587\uff0c\u3002\u00e9\u00a0$%()") + ["&amp;", "&quot;", "<skipped>", "-\n", "40's"]), max_size=40)


@pytest.mark.parametrize("module,cls,kwargs", CLASSES, ids=IDS)
@settings(max_examples=80, deadline=None)
@given(line=st.lists(st.sampled_from(list("ab1 .,;!?'\"-&<>\t\r\x0b\x0c\x1c\x85\u2028\u3000\u4e2d\u6587\uff0c\u3002\u00e9\u00a0$%()") + ["&amp;", "&quot;", "<skipped>", "-\n", "40's", "'s", "\n"]), max_size=30).map("".join))
def test_tokenizers_equal_sacrebleus_on_generated_text(module, cls, kwargs, line):
    ours, theirs = _pair(module, cls, kwargs)
    assert ours(line) == theirs(line)


# the tokenizer does not strip (the TER metric does, before calling it): a possessive
# before trailing whitespace other than a space stays whole
TRAILING = ["40's\t", "40's\r", "40's\x0b", "a's\u00a0", "it's\u2028", "40's \t", "40's\n", "x's\t\t"]


@pytest.mark.parametrize("line", TRAILING)
@pytest.mark.parametrize("flags", [(n, p, a, c) for n in (0, 1) for p in (0, 1) for a in (0, 1) for c in (0, 1)])
def test_tercom_tokenizer_keeps_trailing_whitespace_semantics(line, flags):
    kwargs = dict(zip(("normalized", "no_punct", "asian_support", "case_sensitive"), map(bool, flags)))
    ours, theirs = _pair("tokenizer_ter", "TercomTokenizer", kwargs)
    assert ours(line) == theirs(line)


def test_ter_metric_strips_before_tokenizing():
    import nlgmetrics as nm
    from sacrebleu.metrics import TER

    hyps, refs = ["his 40's\t", "a's\r"], ["his 40's", "a 's"]
    ours = nm.TER(normalized=True).corpus_score(hyps, [[r] for r in refs]).score
    assert ours == TER(normalized=True).corpus_score(hyps, [refs]).score == 0.0


def test_module_paths_and_base():
    from nlgmetrics.compat import sacrebleu as compat
    from nlgmetrics.compat.sacrebleu.tokenizers import BaseTokenizer
    from nlgmetrics.compat.sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    assert issubclass(Tokenizer13a, BaseTokenizer)
    assert compat.tokenizers.BaseTokenizer is BaseTokenizer
    with pytest.raises(NotImplementedError):
        BaseTokenizer()("x")
