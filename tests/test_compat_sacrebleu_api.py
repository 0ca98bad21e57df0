"""Every public module path and name of sacrebleu 2.6 exists in ``nlgmetrics.compat.sacrebleu``
(the one-line switch ``from nlgmetrics.compat import sacrebleu``), and the helpers a user
imports from those paths give sacrebleu's values (==) on generated inputs."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nlgmetrics.compat import sacrebleu as face

sacrebleu = pytest.importorskip("sacrebleu")

FACE = "nlgmetrics.compat.sacrebleu"

# sacrebleu paths the face leaves out on purpose, each with the reason
EXCLUDED = {
    "sacrebleu.sacrebleu": "the command line: `nlgmetrics sacrebleu` / `sacrebleu-nm`",
    "sacrebleu.tokenizers.tokenizer_spm": "downloads SentencePiece models; nlgmetrics' flores tokenizers read a local model",
    "sacrebleu.dataset.base": "test-set download and processing internals; the face reads a local cache",
    "sacrebleu.dataset.fake_sgml": "as dataset.base", "sacrebleu.dataset.iwslt_xml": "as dataset.base",
    "sacrebleu.dataset.plain_text": "as dataset.base", "sacrebleu.dataset.tsv": "as dataset.base",
    "sacrebleu.dataset.wmt_xml": "as dataset.base",
}
EXCLUDED_NAMES = {
    "sacrebleu.dataset": {"FakeSGMLDataset", "IWSLTXMLDataset", "PlainTextDataset", "TSVDataset", "WMTAdditionDataset",
                          "WMTXMLDataset", "base", "fake_sgml", "iwslt_xml", "plain_text", "tsv", "wmt_xml"},
    "sacrebleu.metrics.lib_ter": {"BeamEditDistance", "trace_to_alignment"},  # TER's search internals
    "sacrebleu.utils": {"print_results_table", "print_single_results", "print_subset_results"},  # its CLI's printers
    "sacrebleu.version": {"TYPE_CHECKING"},  # the typing flag its generated version file sets
}


def _public_modules() -> list[str]:
    names = ["sacrebleu"] + [m.name for m in pkgutil.walk_packages(sacrebleu.__path__, "sacrebleu.")]
    return [n for n in names if not n.endswith("__main__")]


def _own_names(module: types.ModuleType) -> list[str]:
    """The public names a sacrebleu module defines or re-exports from sacrebleu (not typing's, os')."""
    out = []
    for name in dir(module):
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        if isinstance(value, types.ModuleType):
            origin = value.__name__
        else:
            origin = getattr(value, "__module__", None) or ""
            if not origin and not callable(value) and name.isupper():
                origin = module.__name__  # a constant defined there
        if origin.startswith("sacrebleu"):
            out.append(name)
    return out


@pytest.mark.parametrize("path", _public_modules())
def test_every_public_path_exists(path):
    if path in EXCLUDED:
        return
    original = importlib.import_module(path)
    mirrored = importlib.import_module(path.replace("sacrebleu", FACE, 1))
    excluded = set(EXCLUDED_NAMES.get(path, ())) | {m.rsplit(".", 1)[1] for m in EXCLUDED if m.rsplit(".", 1)[0] == path}
    missing = [n for n in _own_names(original) if n not in excluded and not hasattr(mirrored, n)]
    assert missing == [], f"{path}: {missing}"


def test_the_module_list_is_sacrebleus():
    # a sacrebleu upgrade that adds or removes modules shows here first
    assert set(EXCLUDED) <= set(_public_modules())
    assert len(_public_modules()) == 32


@pytest.mark.parametrize("path,name", [
    ("metrics.bleu", "MAX_NGRAM_ORDER"), ("tokenizers.tokenizer_ja_mecab", "FAIL_MESSAGE"),
    ("tokenizers.tokenizer_ko_mecab", "FAIL_MESSAGE"), ("significance", "IS_WINDOWS"), ("utils", "USERHOME"),
    ("version", "__version__"), ("version", "version_tuple"), ("", "__version__"),
])
def test_constants_equal(path, name):
    dotted = f".{path}" if path else ""
    original = importlib.import_module(f"sacrebleu{dotted}")
    mirrored = importlib.import_module(f"{FACE}{dotted}")
    assert getattr(mirrored, name) == getattr(original, name)


def test_the_one_line_switch_reaches_the_compat_module():
    assert face.compat.sentence_bleu is face.sentence_bleu
    from nlgmetrics.compat.sacrebleu.compat import corpus_bleu

    assert corpus_bleu is face.corpus_bleu


WORD = st.sampled_from(["the", "cat", "sat", "a", "mat", "on", "Cat", ".", ",", "l'été", "5", "-", "&amp;", "über"])
LINE = st.lists(WORD, max_size=12).map(" ".join)
PAIRS = st.lists(st.tuples(LINE, LINE), min_size=1, max_size=5)


@settings(max_examples=60, deadline=None)
@given(PAIRS, st.booleans())
def test_compat_functions_equal_sacrebleu(pairs, lowercase):
    hyps = [h for h, _ in pairs]
    refs = [[r for _, r in pairs]]
    for name, kwargs in (("corpus_bleu", {"lowercase": lowercase}), ("raw_corpus_bleu", {}), ("corpus_chrf", {}),
                         ("corpus_ter", {"case_sensitive": lowercase})):
        got = getattr(face.compat, name)(hyps, refs, **kwargs)
        want = getattr(sacrebleu.compat, name)(hyps, refs, **kwargs)
        assert (got.score, str(got)) == (want.score, str(want)), name
    for name in ("sentence_bleu", "sentence_chrf", "sentence_ter"):
        got = getattr(face.compat, name)(hyps[0], refs[0][:1])
        want = getattr(sacrebleu.compat, name)(hyps[0], refs[0][:1])
        assert (got.score, str(got)) == (want.score, str(want)), name


@settings(max_examples=150, deadline=None)
@given(LINE, st.integers(1, 4), st.integers(1, 6), st.booleans())
def test_ngram_helpers_equal_sacrebleu(line, low, n, whitespace):
    from sacrebleu.metrics import helpers as original

    from nlgmetrics.compat.sacrebleu.metrics import helpers

    high = low + n - 1
    assert helpers.extract_all_word_ngrams(line, low, high) == original.extract_all_word_ngrams(line, low, high)
    assert helpers.extract_word_ngrams(line.split(), n) == original.extract_word_ngrams(line.split(), n)
    assert helpers.extract_char_ngrams(line, n, whitespace) == original.extract_char_ngrams(line, n, whitespace)
    assert helpers.extract_all_char_ngrams(line, n, whitespace) == original.extract_all_char_ngrams(line, n, whitespace)
    assert face.extract_char_ngrams(line, n) == sacrebleu.extract_char_ngrams(line, n)


@settings(max_examples=150, deadline=None)
@given(st.lists(WORD | st.just("two words"), max_size=14), st.lists(WORD | st.just("two words"), max_size=14))
def test_translation_edit_rate_equals_sacrebleu(hyp, ref):
    from sacrebleu.metrics.lib_ter import translation_edit_rate as original

    from nlgmetrics.compat.sacrebleu.metrics.lib_ter import translation_edit_rate

    assert translation_edit_rate(hyp, ref) == original(hyp, ref)


PIECE = st.sampled_from(list("ab01.,-&<>;/:!\"' \n\t") + ["&quot;", "&amp;", "&lt;", "&gt;", "<skipped>", "-\n", "é", "\x00"])


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECE, max_size=30).map("".join))
def test_tokenizer_regexp_equals_sacrebleu(line):
    from sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp as Original

    from nlgmetrics.compat.sacrebleu.tokenizers.tokenizer_re import TokenizerRegexp

    tokenizer = TokenizerRegexp()
    assert tokenizer(line) == Original()(line)
    assert tokenizer.signature() == Original().signature()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(0, 100, allow_nan=False), min_size=1, max_size=90), st.sampled_from([np.float64, np.float32]))
def test_estimate_ci_equals_sacrebleu(scores, dtype):
    from sacrebleu.significance import estimate_ci as original

    from nlgmetrics.compat.sacrebleu.significance import estimate_ci

    array = np.array(scores, dtype=dtype)
    assert estimate_ci(array) == original(array)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 50), min_size=3, max_size=3), min_size=1, max_size=5), st.floats(0, 10))
def test_small_utils_equal_sacrebleu(rows, number):
    from nlgmetrics.compat.sacrebleu import utils

    assert utils.sum_of_lists(rows) == sacrebleu.utils.sum_of_lists(rows)
    assert utils.my_log(number) == sacrebleu.utils.my_log(number)
    args = argparse.Namespace(bleu_x=1, bleu_y=2, chrf_z=3)
    for strip in (False, True):
        assert utils.args_to_dict(args, "bleu", strip) == sacrebleu.utils.args_to_dict(args, "bleu", strip)
    enabled = sacrebleu.utils.Color.ENABLE_COLORS  # sacrebleu's command line turns it off when not on a terminal
    try:
        for on in (True, False):
            utils.Color.ENABLE_COLORS = sacrebleu.utils.Color.ENABLE_COLORS = on
            for color in ("red", "green", "lightblue_ex", "nonesuch"):
                assert utils.Color.format("msg", color) == sacrebleu.utils.Color.format("msg", color)
    finally:
        utils.Color.ENABLE_COLORS, sacrebleu.utils.Color.ENABLE_COLORS = True, enabled


def test_md5_and_offline_download(tmp_path):
    from nlgmetrics.compat.sacrebleu import utils
    from nlgmetrics.compat.sacrebleu.dataset import TestSetNotCachedError

    path = tmp_path / "f.txt"
    path.write_bytes(b"one\ntwo\n" * 1000)
    assert utils.get_md5sum(str(path)) == sacrebleu.utils.get_md5sum(str(path))
    with pytest.raises(TestSetNotCachedError, match="does not download"):
        utils.download_file("https://example.invalid/x.tgz", str(tmp_path / "absent.tgz"))
