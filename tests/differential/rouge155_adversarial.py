"""Generated evaluations built for ROUGE-1.5.5's rules.

Each evaluation is a peer and three models (the third short), one sentence per line. The words come from pools
aimed at each rule of the script: its tokenization (every byte outside ``[A-Za-z0-9-]`` is a
separator, ``-`` a token of its own, only tokens starting with ``[a-z0-9$]`` survive, ASCII
lowercasing only), the Porter stemmer of ``-m`` (words longer than 3 characters, suffix
classes), the WordNet exception list, the SMART stopwords of ``-s``, the whitespace-token
and byte counting of ``-l``/``-b`` (multi-byte UTF-8, tabs, CR, runs of spaces), repeated
words (clipping, skip-bigrams, LCS ties), empty and punctuation-only peers, empty and
whitespace-only lines, CJK and accented text, and long summaries.

A model always starts with a content word, so that no model is left without a token
under any length limit or with ``-s`` (the script divides by zero for ROUGE-W then).
"""

from __future__ import annotations

import random

CONTENT = (
    "cat dog mat house government report summary model running runner runs ran quickly quick "
    "organization organizations generalization generalize happily happy connected connection "
    "relational conditional rational valency digitizer hopeful goodness formality sensitivity "
    "sensibility triplicate formative electricity hopefulness callousness adjustable irritant "
    "replacement adjustment dependent adoption homologou communism activate angularity homologous "
    "effective bowdlerize probate rate cease controll roll generate agreed feed plastered bled "
    "motoring sing conflated troubled sized hopping tanned falling hissing fizzed failing filing "
    "happy sky skies ponies caresses cats caress feud aboard abbot abbreviate analysis president "
    "obama tuesday million percent police people year years state news week world officer"
).split()
EXCEPTIONS = (
    "went gone children geese mice feet teeth better best worse worst men women was were "
    "are is been had has did done ate eaten oxen analyses crises data criteria phenomena "
    "knives wives lives leaves thieves bought brought caught taught thought sought fought "
    "ran sang swam began drank fled held led fell felt kept slept swept wept"
).split()
STOPWORDS = "the a an of to and in on at for with is was be are it this that by as from or not but".split()
GLUED = [
    "don't", "it's", "U.S.", "e.g.", "state-of-the-art", "well-known", "--", "-", "---", "a-b-c",
    "$5", "$", "$$", "5.5%", "3,000", "1990s", "'90s", "co-op", "re-enter", "x-ray", "e-mail",
    "AT&T", "C++", "C#", "a/b", "and/or", "(parens)", "[bracket]", "{brace}", "<tag>", "\"quoted\"",
    "'single'", "semi;colon", "colon:", "comma,", "period.", "ellipsis...", "hash#tag", "@user",
    "http://x.com/a?b=c", "50-50", "-leading", "trailing-", "_under_score", "caf\u00e9", "na\u00efve",
    "\u00fcber", "cr\u00e8me", "\u201cquote\u201d", "it\u2019s", "\u2014", "\u2013", "\u00a0",
]
PUNCT = list(".,;:!?()[]{}\"'`~@#%^&*+=|\\/<>") + ["...", "--", "''", "``", "-LRB-"]
CJK = ["\u6211\u7231\u5317\u4eac", "\u5929\u5b89\u95e8", "\u65e5\u672c\u8a9e", "\u30c6\u30b9\u30c8", "\ud55c\uad6d\uc5b4", "\u4e2d\u6587", "\U0001F600"]
NUMBERS = ["0", "1", "2015", "3.5", "100", "007", "1st", "2nd", "42nd", "10k", "5m"]
SPACES = [" ", " ", " ", " ", "  ", "\t", " \t ", "   "]


def _case(rng: random.Random, w: str) -> str:
    r = rng.random()
    if r < 0.12:
        return w.upper()
    if r < 0.25:
        return w.capitalize()
    if r < 0.3:
        return "".join(c.upper() if rng.random() < 0.5 else c for c in w)
    return w


def word(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.40:
        w = rng.choice(CONTENT)
    elif r < 0.50:
        w = rng.choice(EXCEPTIONS)
    elif r < 0.68:
        w = rng.choice(STOPWORDS)
    elif r < 0.80:
        w = rng.choice(GLUED)
    elif r < 0.88:
        w = rng.choice(PUNCT)
    elif r < 0.94:
        w = rng.choice(NUMBERS)
    elif r < 0.97:
        w = rng.choice(CJK)
    else:
        w = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(1, 14)))
    return _case(rng, w)


def sentence(rng: random.Random, vocab: list[str] | None, n_words: int) -> str:
    words = []
    for _ in range(n_words):
        if vocab and rng.random() < 0.6:
            words.append(rng.choice(vocab))
        else:
            words.append(word(rng))
    out = ""
    for i, w in enumerate(words):
        out += (rng.choice(SPACES) if i else "") + w
    r = rng.random()
    if r < 0.05:
        out = "  " + out
    elif r < 0.08:
        out += " \r"
    return out


def summary(rng: random.Random, vocab: list[str] | None, first_content: bool, long_rate: float = 0.03) -> str:
    r = rng.random()
    if r < long_rate:
        n_sent, max_words = rng.randint(20, 60), 40  # long
    else:
        n_sent, max_words = rng.randint(1, 5), 25
    sents = [sentence(rng, vocab, rng.randint(0, max_words)) for _ in range(n_sent)]
    if rng.random() < 0.1:
        sents.insert(rng.randint(0, len(sents)), rng.choice(["", "   ", "\t"]))
    if first_content:
        sents[0] = rng.choice(CONTENT) + " " + sents[0]
    return "\n".join(sents)


def evaluation(rng: random.Random, long_rate: float = 0.03) -> tuple[str, list[str]]:
    m1 = summary(rng, None, True, long_rate)
    vocab = m1.split() or None
    m2 = summary(rng, vocab, True, long_rate)
    m3 = rng.choice(CONTENT) + (" " + sentence(rng, vocab, rng.randint(0, 6)) if rng.random() < 0.7 else "")
    r = rng.random()
    if r < 0.04:
        peer = ""
    elif r < 0.07:
        peer = " ".join(rng.choice(PUNCT) for _ in range(rng.randint(1, 8)))
    elif r < 0.09:
        peer = " ".join(rng.choice(CJK) for _ in range(rng.randint(1, 5)))
    elif r < 0.12:
        peer = m1 if rng.random() < 0.5 else m1.upper()
    else:
        peer = summary(rng, (m1 + " " + m2).split(), False, long_rate)
    return peer, [m1, m2, m3]


def evaluations(n: int, seed: int, long_rate: float = 0.03) -> tuple[list[str], list[list[str]]]:
    """``n`` evaluations; ``long_rate`` of the summaries have 20-60 sentences."""
    rng = random.Random(seed)
    peers, models = [], []
    for _ in range(n):
        p, m = evaluation(rng, long_rate)
        peers.append(p)
        models.append(m)
    return peers, models
