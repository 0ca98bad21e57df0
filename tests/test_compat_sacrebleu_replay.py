"""sacrebleu's own test cases (its repository's test/test_bleu.py, test_chrf.py, test_ter.py,
test_sentence_bleu.py and the catalogue checks of test_api.py), replayed as data against
``nlgmetrics.compat.sacrebleu``: each case asserts sacrebleu's expected value with its
tolerance and, where sacrebleu is installed, equality (==) with sacrebleu itself.

Not replayed: test_api.py's source/reference lines (they need the downloaded wmt19,
mtnt1.1 and wmt19/google sets; reading a cached set is tested in
test_compat_sacrebleu_testsets.py), test_dataset.py (download and processing internals),
test_significance.py (pickled WMT17 systems; paired tests are compared with sacrebleu in
test_compat_sacrebleu.py) and test_tokenizer_ter.py (the tokenizer classes are compared with
sacrebleu's in test_compat_sacrebleu_tokenizers.py; TER's numbers on the corpora).
"""

from __future__ import annotations

import pytest

from nlgmetrics.compat import sacrebleu as compat

try:
    import sacrebleu as original
except ImportError:  # the expected values below stand on their own
    original = None

REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]
HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]


def _same(got, want_fn):
    if original is not None:
        want = want_fn(original)
        assert got.score == want.score, (got, want)


# -- test_bleu.py ----------------------------------------------------------------------------

RAW_BLEU = [
    (["this is a test", "another test"], [["ref1", "ref2"]], 0.0),
    (["this is a test"], [["this is a test"]], 1.0),
    (["this is a fest"], [["this is a test"]], 0.223606797749979),
]

CORPUS_BLEU = [
    (HYPS, REFS, {}, 48.530827),
    (("", "", ""), REFS, {}, 0.0),
    (HYPS, REFS, {"tokenize": "none"}, 49.1919566),
    (HYPS, REFS, {"tokenize": "13a"}, 48.530827),
    (HYPS, REFS, {"tokenize": "intl"}, 43.91623493),
    (HYPS, REFS, {"smooth_method": "none"}, 48.530827),
]

EFFECTIVE_ORDER = [(["test"], [["a test"]], 0.3678794411714425), (["a test"], [["a test"]], 1.0),
                   (["a little test"], [["a test"]], 0.03218297948685433)]

DEGENERATE = [
    (([0, 0, 0, 0], [4, 4, 2, 1], 0, 1), 0.0, 0.0),
    (([0, 0, 0, 0], [10, 11, 12, 0], 14, 10), 0.0, 0.0),
    (([0, 0, 0, 0], [0, 0, 0, 0], 0, 0), 0.0, 0.0),
    (([6, 5, 4, 0], [6, 5, 4, 3], 6, 6), 0.0, 0.0),
    (([0, 0, 0, 0], [0, 0, 0, 0], 0, 0), 0.1, 0.0),
    (([0, 0, 0, 0], [0, 0, 0, 0], 1, 5), 0.01, 0.0),
]

MAX_ORDER = [(1, "77.65"), (2, "60.50"), (3, "53.93"), (4, "48.53"), (5, "46.14"), (6, "43.28")]


@pytest.mark.parametrize("hyps,refs,expected", RAW_BLEU)
def test_raw_bleu(hyps, refs, expected):
    got = compat.raw_corpus_bleu(hyps, refs, 0.01)
    assert abs(got.score / 100 - expected) < 1e-8
    _same(got, lambda s: s.raw_corpus_bleu(hyps, refs, 0.01))


@pytest.mark.parametrize("hyps,refs,kwargs,expected", CORPUS_BLEU)
def test_corpus_bleu(hyps, refs, kwargs, expected):
    got = compat.corpus_bleu(hyps, refs, **kwargs)
    assert abs(got.score - expected) < 1e-8
    _same(got, lambda s: s.corpus_bleu(hyps, refs, **kwargs))


@pytest.mark.parametrize("hyps,refs,expected", EFFECTIVE_ORDER)
def test_effective_order(hyps, refs, expected):
    got = compat.raw_corpus_bleu(hyps, refs, 0.01)
    assert abs(got.score / 100 - expected) < 1e-8
    _same(got, lambda s: s.raw_corpus_bleu(hyps, refs, 0.01))


def test_statistics():
    got = compat.raw_corpus_bleu(["am I am a character sequence"], [["I am a symbol string sequence a a"]], 0.01)
    assert (got.counts, got.totals) == ([4, 2, 1, 0], [6, 5, 4, 3])


def test_scoring():
    got = compat.BLEU.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11)
    assert abs(got.score / 100 - 0.8375922397) < 1e-8
    _same(got, lambda s: s.BLEU.compute_bleu([9, 7, 5, 3], [10, 8, 6, 4], 11, 11))


def test_offset():
    hyps, refs = ["am I am a character sequence"], [["I am a symbol string sequence a a"]]
    assert compat.raw_corpus_bleu(hyps, refs, 0.0).score == 0.0
    for got in (compat.raw_corpus_bleu(hyps, refs, None), compat.raw_corpus_bleu(hyps, refs)):
        assert abs(got.score / 100 - 0.1555722182) < 1e-8
        _same(got, lambda s: s.raw_corpus_bleu(hyps, refs))


@pytest.mark.parametrize("stats,offset,expected", DEGENERATE)
def test_degenerate_statistics(stats, offset, expected):
    correct, total, sys_len, ref_len = stats
    got = compat.BLEU.compute_bleu(correct, total, sys_len, ref_len, smooth_method="floor", smooth_value=offset)
    assert got.score / 100 == expected
    _same(got, lambda s: s.BLEU.compute_bleu(correct, total, sys_len, ref_len, smooth_method="floor", smooth_value=offset))


@pytest.mark.parametrize("order,expected", MAX_ORDER)
def test_max_ngram_order(order, expected):
    got = compat.BLEU(max_ngram_order=order).corpus_score(HYPS, REFS)
    assert f"{got.score:.2f}" == expected
    _same(got, lambda s: s.BLEU(max_ngram_order=order).corpus_score(HYPS, REFS))


# -- test_chrf.py ----------------------------------------------------------------------------

CHRF_SENTENCES = [
    ("Co nás nejvíc trápí, protože lékaři si vybírají, kdo bude žít a kdo zemře.",
     ["Nejvíce smutní jsme z toho, že musíme rozhodovat o tom, kdo bude žít a kdo zemře."], 39.14078509),
    ("Nebo prostě nemají vybavení, které by jim pomohlo, uvedli lékaři.",
     ["A někdy nemáme ani potřebný materiál, abychom jim pomohli, popsali lékaři."], 31.22557079),
    ("Lapali po dechu, jejich životy skončily dřív, než skutečně začaly.",
     ["Lapali po dechu a pak jejich život skončil - dřív, než skutečně mohl začít, připomněli."], 57.15704367),
]

CHRF_EPS = [
    (["abcdefg"], ["hijklmnop"], 0.0), (["a"], ["b"], 0.0), ([""], ["b"], 0.0), ([""], ["ref"], 0.0), ([""], ["reference"], 0.0),
    (["aa"], ["ab"], 8.3333), (["a", "b"], ["a", "c"], 8.3333), (["a"], ["a"], 16.6667), (["a b c"], ["a b c"], 50.0),
    (["a b c"], ["abc"], 50.0),
    ([" risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."], 63.361730),
    ([" Die    Beziehung zwischen  Obama und Netanjahu ist nicht gerade  freundlich. "],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."], 64.1302698),
    (["Niemand hat die Absicht, eine Mauer zu errichten"], ["Niemand hat die Absicht, eine Mauer zu errichten"], 100.0),
]

CHRF_EFFECTIVE = [(["a"], ["a"], 100.0), ([""], ["reference"], 0.0), (["a b c"], ["a b c"], 100.0), (["a b c"], ["abc"], 100.0),
                  ([""], ["c"], 0.0), (["a", "b"], ["a", "c"], 50.0), (["aa"], ["ab"], 25.0)]

CHRF_WHITESPACE = [
    (["Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich."],
     ["Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich."], 67.3481606),
    (["risk assessment must be made of those who are qualified and expertise in the sector - these are the scientists ."],
     ["risk assessment has to be undertaken by those who are qualified and expert in that area - that is the scientists ."], 65.2414427),
]


@pytest.mark.parametrize("hyps,refs,expected", CHRF_EPS)
def test_chrf_eps_smoothing(hyps, refs, expected):
    kw = dict(char_order=6, word_order=0, beta=3, eps_smoothing=True)
    got = compat.corpus_chrf(hyps, [refs], **kw)
    assert abs(got.score - expected) < 1e-4
    _same(got, lambda s: s.corpus_chrf(hyps, [refs], **kw))


@pytest.mark.parametrize("hyps,refs,expected", CHRF_EFFECTIVE)
def test_chrf_effective_order(hyps, refs, expected):
    kw = dict(char_order=6, word_order=0, beta=3, eps_smoothing=False)
    got = compat.corpus_chrf(hyps, [refs], **kw)
    assert abs(got.score - expected) < 1e-4
    _same(got, lambda s: s.corpus_chrf(hyps, [refs], **kw))


@pytest.mark.parametrize("hyps,refs,expected", CHRF_WHITESPACE)
def test_chrf_keep_whitespace(hyps, refs, expected):
    kw = dict(char_order=6, word_order=0, beta=3, remove_whitespace=False)
    got = compat.corpus_chrf(hyps, [refs], **kw)
    assert abs(got.score - expected) < 1e-4
    _same(got, lambda s: s.corpus_chrf(hyps, [refs], **kw))


@pytest.mark.parametrize("hyp,refs,expected", CHRF_SENTENCES)
def test_chrf_sentence_level(hyp, refs, expected):
    got = compat.sentence_chrf(hyp, refs, eps_smoothing=True)
    assert abs(got.score - expected) < 1e-4
    _same(got, lambda s: s.sentence_chrf(hyp, refs, eps_smoothing=True))


# -- test_ter.py -----------------------------------------------------------------------------

TER_CASES = [
    (["aaaa bbbb cccc dddd"], ["aaaa bbbb cccc dddd"], 0),
    (["dddd eeee ffff"], ["aaaa bbbb cccc"], 1),
    ([""], ["a"], 1),
    (["a"], [""], 1),
    ([""], [""], 0),
    (["d e f g h a b c"], ["a b c d e f g h"], 1 / 8),
    (
        ['wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit das Bild ungefähr dieselbe Größe aufweist wie die andere Größe .',
         'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
         'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie Werte für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " ein .',
         "Sie können beispielsweise ein Dokument erstellen , das ein Auto über die Bühne enthält .",
         'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "'],
        ['wählen Sie " Bild neu berechnen , " um beim Ändern der Bildgröße Pixel hinzuzufügen oder zu entfernen , damit die Darstellung des Bildes in einer anderen Größe beibehalten wird .',
         'wenn Sie alle Aufgaben im aktuellen Dokument aktualisieren möchten , wählen Sie im Menü des Aufgabenbedienfelds die Option " Alle Aufgaben aktualisieren . "',
         'klicken Sie auf der Registerkarte " Optionen " auf die Schaltfläche " Benutzerdefiniert " und geben Sie für " Fehlerkorrektur-Level " und " Y / X-Verhältnis " niedrigere Werte ein .',
         "Sie können beispielsweise ein Dokument erstellen , das ein Auto enthalt , das sich über die Bühne bewegt .",
         'wählen Sie im Dialogfeld " Neu aus Vorlage " eine Vorlage aus und klicken Sie auf " Neu . "'],
        0.136,
    ),
]


@pytest.mark.parametrize("hyps,refs,expected", TER_CASES)
def test_ter(hyps, refs, expected):
    got = compat.metrics.TER().corpus_score(hyps, [refs])
    assert abs(got.score - 100 * expected) < 1e-3
    _same(got, lambda s: s.metrics.TER().corpus_score(hyps, [refs]))


# -- test_sentence_bleu.py -------------------------------------------------------------------

REF = "producţia de zahăr brut se exprimă în zahăr alb;"
SYS = "Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"
SENTENCE_CASES = [
    ("exp", None, False, "13a", 8.493), ("none", None, False, "13a", 0.0), ("floor", None, False, "13a", 4.51688),
    ("floor", 0.1, False, "13a", 4.51688), ("floor", 0.5, False, "13a", 10.10), ("add-k", None, False, "13a", 14.882),
    ("add-k", 1, False, "13a", 14.882), ("add-k", 2, False, "13a", 21.389), ("exp", None, False, "none", 7.347),
    ("exp", None, False, "intl", 8.493), ("exp", None, False, "char", 40.8759), ("exp", None, True, "char", 42.0267),
]
ZERO_CASES = [("exp", None), ("none", None), ("floor", None), ("floor", 0.1), ("add-k", None), ("add-k", 1)]


@pytest.mark.parametrize("method,value,lowercase,tok,expected", SENTENCE_CASES)
def test_sentence_bleu(method, value, lowercase, tok, expected):
    got = compat.sentence_bleu(SYS, [REF], smooth_method=method, smooth_value=value, tokenize=tok, lowercase=lowercase,
                               use_effective_order=True)
    assert abs(got.score - expected) < 1e-3
    metric = compat.metrics.BLEU(lowercase=lowercase, force=False, tokenize=tok, smooth_method=method, smooth_value=value,
                                 effective_order=True)
    assert metric.sentence_score(SYS, [REF]).score == got.score
    _same(got, lambda s: s.sentence_bleu(SYS, [REF], smooth_method=method, smooth_value=value, tokenize=tok, lowercase=lowercase,
                                         use_effective_order=True))


@pytest.mark.parametrize("method,value,lowercase,tok,expected", SENTENCE_CASES)
def test_compat_module_sentence_bleu(method, value, lowercase, tok, expected):
    # sacrebleu's test_compat_sentence_bleu calls the function by its module path
    got = compat.compat.sentence_bleu(SYS, [REF], smooth_method=method, smooth_value=value, tokenize=tok, lowercase=lowercase,
                                      use_effective_order=True)
    assert abs(got.score - expected) < 1e-3
    _same(got, lambda s: s.compat.sentence_bleu(SYS, [REF], smooth_method=method, smooth_value=value, tokenize=tok,
                                                lowercase=lowercase, use_effective_order=True))


@pytest.mark.parametrize("method,value", ZERO_CASES)
def test_sentence_bleu_zero(method, value):
    metric = compat.metrics.BLEU(tokenize="13a", smooth_method=method, smooth_value=value, effective_order=True)
    assert metric.sentence_score("this is a cat", ["okay thanks"]).score == 0.0


# -- test_api.py (the catalogue) ----------------------------------------------------------------


def test_available_testsets():
    available = compat.get_available_testsets()
    assert isinstance(available, list) and "wmt19" in available and "wmt05" not in available
    for testset in compat.DATASETS:
        assert testset in available and "slashdot_" + testset not in available


def test_available_testsets_for_langpair():
    available = compat.utils.get_available_testsets_for_langpair("en-it")
    assert "wmt09" in available and "wmt15" not in available
    available = compat.utils.get_available_testsets_for_langpair("en-fr")
    assert "wmt11" in available and "mtedx/test" in available and "wmt20" not in available


def test_langpairs_for_testset():
    for testset, dataset in compat.DATASETS.items():
        available = compat.get_langpairs_for_testset(testset)
        assert isinstance(available, list)
        for langpair in dataset.langpairs:
            assert (langpair in available) == ("-" in langpair)
            assert "slashdot_" + langpair not in available
