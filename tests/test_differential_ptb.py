"""Differential test: nlgmetrics' PTB tokenizer against Stanford CoreNLP 3.4.1's PTBTokenizer
jar (the one pycocoevalcap runs), token for token, before punctuation removal.

nlgmetrics runs the jar's own lexer rules (its JFlex grammar compiled by a longest-match
engine with JFlex's semantics), so the comparison is exact on any caption within the
contract of tests/differential/ptb_jar.py.

Full campaigns (run 2026-11-26 with ``python tests/differential/ptb_campaign.py``):
- every line of every text file of ../shared/corpora (798,096 strings: COCO captions, WMT22
  sources, references and system outputs in English, Chinese and Japanese, E2E, CNN/DM, ...):
  0 differences;
- 1,000,000 generated adversarial captions (tests/differential/ptb_adversarial.py, seed
  2026): 0 differences (CAMPAIGN_ADVERSARIAL_DIFFERENCES; the hand-written lexer this
  replaced: 2.6% of the first 300,000 differed);
- 1,000,000 more (seed 7): 0 differences;
- the final sigma alone, against the JVM's ``String.toLowerCase``: 28,273 generated
  single-token strings mixing Greek capitals with other scripts, digits, marks and
  punctuation: 0 differences.

CI runs a sample of both (under a minute): a stride of the corpus lines and fresh
adversarial captions, both exactly equal.
"""

from __future__ import annotations

import pytest

from conftest import CORPORA
from differential.parity_results import record
from differential.ptb_adversarial import captions
from differential.ptb_jar import corpus_lines, differences, java_available

pytestmark = pytest.mark.skipif(not java_available(), reason="java and pycocoevalcap's jar are needed")

#: Captions of the 1,000,000-caption adversarial campaign that differ from the jar.
CAMPAIGN_ADVERSARIAL_DIFFERENCES = 0


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


def test_lexer_corner_cases_equal_the_jar():
    """Places where the jar's rules are easy to get wrong."""
    caps = [
        # %caseless literals match the Kelvin sign, the long s and the dotted/dotless I.
        "\u212Ay. a", "\u017Fq. a", "\u0131nc. a", "\u0130nc. a", "Mr\u017F. A",
        # The JVM's final sigma depends on its word boundaries, not Unicode's rule.
        "\u039f\u0394\u039f\u03a3 a\u03a3 \u0432\u0661\u03a3\u6587 c\u03a33\u03b2 \u039f\u0394\u039f\u03a3_no",
        # Abbreviations and acronyms before the next caption's first word.
        "x Co.", "The end", "U.S.", "  ", "According to", "Mass.",
        # Trailing context of variable length, superscripts, fractions, phone numbers.
        "U.S.\u3000\u3000The", "\u207a\u00b9\u2080 1 1/2 1\u00a01/2 1234\u00a05678 (555) 123-4567 7\\/64456",
        "a.b@c.d. x@@ &lt;a@b.c&gt; <a@b.c> http://x.com/a( www.x.co.uk/a. 90min.com",
        # A non-BMP character is two UTF-16 units: kept inside a URL, deleted elsewhere.
        "http://x.com/\U0001F600a \U0001F600 a\U0001F600b",
    ]
    n, diffs = differences(caps)
    assert n == len(caps)
    assert diffs == []


def test_token_spanning_captions_equals_the_jar():
    """An SGML tag whose quoted attribute holds the `\\n` between two captions is one token
    of the jar; its pieces land on the lines the jar writes them on."""
    caps = ["a <b c='x", "y'> d e", "f", "<g h=\"1", "2", "3\" > i", "j"]
    n, diffs = differences(caps)
    assert n == len(caps)
    assert diffs == []


def test_adversarial_sample_equals_the_jar():
    caps = captions(40000, seed=17)
    n, diffs = differences(caps)
    assert n > 38000
    assert diffs == [], diffs[:20]
    record(metric="PTB tokenizer", flavour="coco (generated)", reference="Stanford CoreNLP 3.4.1 PTBTokenizer (jar)",
           inputs="40,000 generated adversarial captions (campaign: 1,000,000, "
                  f"{CAMPAIGN_ADVERSARIAL_DIFFERENCES} differ)",
           values=n, max_diff=len(diffs) / n)
