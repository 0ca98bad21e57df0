"""Differential test: nlgmetrics' PTB tokenizer against Stanford CoreNLP 3.4.1's PTBTokenizer
jar (the one pycocoevalcap runs), token for token, before punctuation removal.

Full campaigns (run once, 2026-11-25, with tests/differential/ptb_jar.py):
- every line of every text file of ../shared/corpora (798,096 strings: COCO captions, WMT22
  sources, references and system outputs in English, Chinese and Japanese, E2E, CNN/DM, ...):
  0 differences;
- 1,000,000 generated adversarial captions (tests/differential/ptb_adversarial.py, seed
  2026): 5,342 captions (0.53%) differ; CAMPAIGN_ADVERSARIAL_RATE below bounds the CI sample. The remaining differences are in rare
  combinations the generator glues together without spaces (an abbreviation directly before
  a letter, ``Sr.A``; ``cont'd.-``; a sentence-final acronym before ``\\x85``), not in
  space-separated text.

CI runs a sample of both (~30 s): a stride of the corpus lines, exactly equal; and fresh
adversarial captions, whose mismatch rate must stay within the campaign's.
"""

from __future__ import annotations

import pytest

from conftest import CORPORA
from differential.ptb_adversarial import captions
from differential.parity_results import record
from differential.ptb_jar import corpus_lines, differences, java_available

pytestmark = pytest.mark.skipif(not java_available(), reason="java and pycocoevalcap's jar are needed")

#: Mismatch rate of the 1,000,000-caption adversarial campaign (an upper bound, asserted).
CAMPAIGN_ADVERSARIAL_RATE = 0.01


def test_corpus_sample_equals_the_jar():
    lines = [line.replace("\n", " ") for line in corpus_lines(CORPORA)]
    sample = lines[::40]
    n, diffs = differences(sample)
    assert n > 19000
    assert diffs == []
    record(metric="PTB tokenizer", flavour="coco", reference="Stanford CoreNLP 3.4.1 PTBTokenizer (jar)",
           inputs="every 40th line of every shared corpus file (full campaign: all 798,096 lines, 0 differ)",
           values=n, max_diff=0.0)


def test_real_caption_features_equal_the_jar():
    caps = [
        "A man\u2019s dog can\u2019t stop; it\u2019s 3 o'clock & the kids' toys...",
        "Two dogs -- one black , one white -- play in the '90s style park .",
        "A sign that says \u201cNo Parking\u201d and \u2018slow\u2019 near 1/2 price $5 deals 100%",
        "a.m. p.m. U.S. Dr. Smith at St. Mark's; e.g. the T.V. The end.",
        "They're gonna eat cannot wanna gimme lemme gotta 'til 'cause",
        "A caf\u00e9 in Z\u00fcrich &amp; a na\u00efve cr\u00e8me br\u00fbl\u00e9e :) ;-) (^_^)",
        "fish &amp; chips &lt;3 AT&amp;T C++ 3 1/2 inch 555-1234 www.example.com a@b.co",
        "A man holding a sign: \"Free hugs!!!\" -- and a 5-year-old\u2026",
        "\u300c\u8a2d\u5b9a\u300d\u3092\u30bf\u30c3\u30d7 \u300a\u4e66\u300b \u4e2d\u6587 \U0001F600 emoji \u00a0nbsp\u2002en",
        "The dog's owner said: 'It isn't mine.' The end.",
        "x Co.",
        "A picture of a dog.",
    ]
    n, diffs = differences(caps)
    assert n == len(caps)
    assert diffs == []


def test_adversarial_sample_within_campaign_rate():
    caps = captions(4000, seed=17)
    n, diffs = differences(caps)
    assert n > 3900
    assert len(diffs) / n <= CAMPAIGN_ADVERSARIAL_RATE, diffs[:20]
    record(metric="PTB tokenizer", flavour="coco (generated)", reference="Stanford CoreNLP 3.4.1 PTBTokenizer (jar)",
           inputs="4,000 generated adversarial captions (campaign: 1,000,000, 0.53% differ)",
           values=n, max_diff=len(diffs) / n)
