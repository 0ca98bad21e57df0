"""Generated segments built for mteval-v13a.pl's tokenizer and scoring rules.

Words and glue aimed at each rule: the punctuation class ``[{-~[-` -&(-+:-@/]`` split off,
``.``/``,`` split unless between digits, ``-`` split after a digit, ASCII-only lowercasing
(``tr/A-Z/a-z/``; ``É``, ``Σ`` stay), the SGML entities (``&amp;``, ``&lt;``, ``&gt;``,
``&quot;``, ``&apos;`` typed literally, and raw ``& < >`` that the SGML escaping carries),
``<skipped>``, Perl's Unicode ``\\s`` (NBSP, ideographic space, NEL, U+2028) against the
C0 separators U+001C..U+001F that Perl does not count as space, numbers with separators,
the token ``0`` (the prefix-truth quirk of the information weights), repeated n-grams
(clipping), CJK, empty hypotheses and references, and long segments.

Every segment's first reference has a word: mteval divides by zero on a segment whose
references are all empty.
"""

from __future__ import annotations

import random

WORDS = (
    "the a of to and in is was on for that with by he it at from his an were are which this be "
    "cat dog house government report president minister police people year week world state news "
    "said says market price percent million company China Beijing Xinhua COVID-19 U.S. UK EU "
    "running ran quickly New York Times"
).split()
PUNCT = list(".,;:!?()[]{}\"'`~@#$%^&*+=|\\/<>_-") + ["...", "--", "''", "``", "..", ",,", ".,"]
ENTITIES = ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&amp;amp;", "&amp;lt;", "&lt;skipped&gt;", "<skipped>", "&", "&#39;", "&nbsp;"]
NUMBERS = [
    "0", "0", "00", "1", "3,000", "3,000.50", "1.5", ".5", "5.", "5,", ",5", "1,2,3", "10-20", "-5", "5-", "5--6",
    "2021-12-31", "1.2.3", "3.14159", "100%", "$5", "$3.50", "1/2", "12:30", "0.0", "0,0", "0-0",
]
GLUED = [
    "don't", "it's", "state-of-the-art", "e-mail", "AT&T", "C++", "a/b", "(parens)", "[x]", "{y}", "<tag>",
    "\"quoted\"", "'single'", "semi;colon", "end.", "end,", "a.b", "a,b", "a.1", "1.a", "a-1", "1-a", "x.-y",
    "Mr.", "U.N.", "www.example.com", "user@mail.org", "#tag", "50/50", "--", "a--b",
]
NON_ASCII = ["caf\u00e9", "\u00c9COLE", "\u03a3\u03c3", "\u01c5", "na\u00efve", "\u201cquote\u201d", "it\u2019s", "\u2014", "\u2013",
             "\u4e2d\u56fd", "\u5317\u4eac\u3002", "\u65e5\u672c\u8a9e", "\U0001F600", "\u00bd", "\uff08\u5168\uff09", "\u0130stanbul", "STRA\u00dfE"]
SPACES = [" "] * 12 + ["  ", "\t", "\u00a0", "\u3000", "\u0085", "\u2028", "\u2009", "\x1c", "\x1f", "\r", "\x0b"]


def _case(rng: random.Random, w: str) -> str:
    r = rng.random()
    if r < 0.15:
        return w.upper()
    if r < 0.3:
        return w.capitalize()
    return w


def token(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.45:
        return _case(rng, rng.choice(WORDS))
    if r < 0.58:
        return rng.choice(PUNCT)
    if r < 0.70:
        return rng.choice(NUMBERS)
    if r < 0.80:
        return rng.choice(GLUED)
    if r < 0.88:
        return rng.choice(ENTITIES)
    return rng.choice(NON_ASCII)


def segment(rng: random.Random, vocab: list[str] | None, n: int) -> str:
    out = ""
    for i in range(n):
        t = rng.choice(vocab) if vocab and rng.random() < 0.55 else token(rng)
        glue = "" if rng.random() < 0.12 else rng.choice(SPACES)
        out += (glue if i else "") + t
    return out


def case(rng: random.Random) -> tuple[str, list[str]]:
    n_refs = rng.randint(1, 4)
    long_ = rng.random() < 0.03
    refs = [segment(rng, None, rng.randint(1, 120 if long_ else 30))]
    refs[0] = rng.choice(WORDS) + " " + refs[0]
    vocab = refs[0].split()
    for _ in range(n_refs - 1):
        r = rng.random()
        refs.append("" if r < 0.1 else segment(rng, vocab, rng.randint(0, 30)))
    r = rng.random()
    if r < 0.04:
        hyp = ""
    elif r < 0.08:
        hyp = refs[0] if rng.random() < 0.5 else refs[0].upper()
    else:
        hyp = segment(rng, vocab, rng.randint(0, 120 if long_ else 30))
    return hyp, refs


def corpus(n: int, seed: int) -> tuple[list[str], list[list[str]]]:
    """``n`` segments; every segment has the same number of references (padded with empty
    strings, as mteval's reference sets are)."""
    rng = random.Random(seed)
    hyps, refs = [], []
    for _ in range(n):
        h, r = case(rng)
        hyps.append(h)
        refs.append(r)
    width = max(len(r) for r in refs)
    return hyps, [r + [""] * (width - len(r)) for r in refs]
