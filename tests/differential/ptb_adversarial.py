"""Generated captions aimed at the PTB lexer's rules (seeded, reproducible).

Each caption is a few fragments joined by a random separator; fragments come from the
places where the lexer's rules meet: clitics and apostrophes of every kind, quotes,
abbreviations before capitalised words, numbers with separators and fractions, URLs,
e-mail addresses, SGML, entities, smileys, dashes, brackets, Unicode letters, digits and
symbols of other scripts, controls, NBSP and the other spaces, and non-BMP characters.
"""

from __future__ import annotations

import random

APOS = ["'", "\u2019", "\u0092", "`", "\u2018", "\u201b", "\u0091", "&apos;"]
QUOTES = ['"', "&quot;", "``", "''", "\u201c", "\u201d", "\u201e", "\u201f", "\u00ab", "\u00bb", "\u2039", "\u203a", "\u201a", "\u0093", "\u0094"]
WORDS = [
    "a", "A", "man", "Man's", "dog", "can't", "CAN'T", "cannot", "Cannot", "gonna", "wanna", "gotta", "lemme", "gimme",
    "o'clock", "O'Neil", "d'Arc", "l'amour", "rock'n'roll", "'n'", "y'all", "Y'all", "'til", "'till", "'cause", "'Cause",
    "'em", "'90s", "'80s", "'tis", "'twas", "ol'", "somethin'", "Dunkin'", "c'mon", "cont'd", "nor'easter", "li'l",
    "dogs'", "it's", "It's", "I'm", "they're", "we've", "you'll", "he'd", "don't", "Don't", "isn't", "won't", "ain't",
    "c'est", "Cap'n", "pro-", "anti-", "S&P-500", "S&amp;Ls", "-LRB-", "-rrb-", "C.D.s", "c++", "C#", "f#",
    "Co.", "Inc.", "Corp.", "Ltd.", "Jr.", "Sr.", "St.", "Mt.", "Ft.", "Dr.", "Mr.", "Mrs.", "Ms.", "Prof.", "Gen.",
    "etc.", "al.", "vs.", "cf.", "a.k.a.", "e.g.", "i.e.", "U.S.", "U.S.A.", "U.K.", "A.", "I.", "Z.", "a.m.", "p.m.",
    "No.", "no.", "Nos.", "fig.", "Fig.", "pp.", "ca.", "art.", "Ph.D.", "Ed.D.", "Calif.", "Mass.", "mass.", "Pty.",
    "Jan.", "Sept.", "Tues.", "Ave.", "Blvd.", "Rd.", "Bldg.", "tel.", "sq.", "Univ.", "Rt.",
    "1", "12", "123", "1234", "12345", "1,000", "1,000,000", "3.14", ".5", "5.", "-5", "+5", "1:30", "10:45pm",
    "1/2", "3/4", "1-1/2", "1 1/2", "12/25/2010", "1-2-2003", "1\\/2", "2\u20443", "\u00bd", "\u00bc", "\u2153",
    "\u2155", "\u00b2", "\u2075", "\u2082", "50s", "1990s", "$5", "$3.50", "US$5", "A$10", "#1", "\u00a35", "\u20ac5",
    "\u00a2", "\u00a5", "\u00a4", "\u20a0", "5%", "100%", "\u00b0C", "24/7", "9-11", "555-1234", "(555) 123-4567",
    "+1 555 123 4567", "555.123.4567", "0203 615 3423",
    "http://x.com", "https://www.example.org/a/b?c=1&d=2.", "www.test.co.uk", "example.com", "Foo.COM",
    "twin-strangers.com", "90min.com", "a.b.edu/path/", "user@example.com", "a.b@c.d.", "x@@", "<a@b.c>",
    "&lt;a@b.c&gt;", "@user", "@_x1", "#tag", "#Tag1", "#\u00e9t\u00e9",
    "<b>", "</b>", "<br/>", "<a href=\"x\">", "<img src='y' />", "<!DOCTYPE html>", "<?xml v?>", "<x y z>", "< b >",
    "<|endoftext|>", "<<", ">>", "<-", "->", "&amp;", "&AMP;", "&lt;", "&gt;", "&nbsp;", "&mdash;", "&ndash;",
    "&MD;", "&#39;", "&#8220;", "&HT;", "&eacute;", "&aacute;", "&Uuml;", "AT&T", "A&M", "M&Ms", "AT&amp;T", "R+D",
    ":)", ":-)", ";)", ":(", ":P", ":p", ":D", "=)", "<3", ":-o", "^_^", "(^_^)", "(>_<)", "(^^)", "(^-^)", "-_-",
    "x_x", "o_O", ":'(", ":*", ":|", ":]",
    "...", "....", "......", ". . .", ".\u00a0.\u00a0.", "\u2026", "\u0085", "--", "---", "----", "-----", "-",
    "\u2013", "\u2014", "\u2015", "\u0096", "\u0097", "\u2010", "\u2011", "\u058a", "_", "__", "***", "*", "\\*",
    "\\*\\*", "@@", "##", "!", "?", "?!", "!!!", "??", ".", ",", ";", ":", "\u3001", "\u3002", "\u00bf", "\u00a1",
    "(", ")", "[", "]", "{", "}", "=", "/", "\\", "|", "~", "^", "+", "%", "&", "\u00a7", "\u00a9", "\u00ae", "\u00d7",
    "\u2022", "\u2192", "\u2200", "\u2122", "\u2030", "\u20ac", "\u3012", "\u30fb", "\uff01", "\uff08", "\uff09",
    "file.txt", "a.b.c.pdf", "IMG_1.JPG", "x.py", "3.X", "v1.2.3", "e2e", "t-shirt", "T-shirts", "x-ray", "co-op",
    "U.S.-based", "3.5-inch", "5-year-old", "well-known", "half_time", "his/her", "and/or", "a/b/c/d", "km/h",
    "black-and-white", "Sino-U.S", "non-U.S", "U.S.-U.K", "2-3", "a--b", "a---b", "semi-", "-ish",
    "caf\u00e9", "na\u00efve", "Z\u00fcrich", "\u00c6sir", "\u0130stanbul", "stra\u00dfe", "\u0391\u0398\u0397\u039d\u0391",
    "\u039f\u0394\u039f\u03a3", "\u043c\u043e\u0441\u043a\u0432\u0430", "\u05e9\u05dc\u05d5\u05dd", "\u0645\u0631\u062d\u0628\u0627",
    "\u0939\u093f\u0928\u094d\u0926\u0940", "\u0e44\u0e17\u0e22", "\u4e2d\u6587", "\u65e5\u672c\u8a9e", "\u30ab\u30bf\u30ab\u30ca",
    "\ud55c\uad6d\uc5b4", "\u300c\u8a2d\u5b9a\u300d", "\u300a\u4e66\u300b", "\u3010\u516c\u5f0f\u3011", "\uff11\uff12\uff13",
    "\u0661\u0662\u0663", "\u0966\u0967", "\u07c0\u07c1", "\u00ad", "co\u00adop", "\u0301", "e\u0301", "\u02bc",
    "\u1e9e", "\u01c5", "\u2160", "\u24b6", "\U0001F600", "\U0001F44D\U0001F3FD", "\U00020000", "\U0001D400",
    "\x00", "\x01", "\x1b", "\x7f", "\x80", "\x9f", "\u200b", "\u200e", "\ufeff", "\u2060", "\ue000", "\ufffd", "\uffff",
    "gonna'", "can'tn't", "n't", "'s", "'S", "'re", "'LL", "'D", "'m", "\u2019s", "n\u2019t", "N'T", "'re'", "''s",
]
SEPS = [" ", " ", " ", " ", "", "", "  ", "\t", "\u00a0", "\u2002", "\u3000", "\u2009", "\u200a", "\u00a0\u00a0"]
CAPS = ["The", "A", "An", "He", "It", "This", "According", "Additionally", "Earlier", "Once", "Mr.", "Ms.", "The", "THE", "the", "Abc", "X"]


def fragment(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.55:
        return rng.choice(WORDS)
    if r < 0.62:
        return rng.choice(APOS) + rng.choice(["s", "S", "re", "ve", "ll", "d", "m", "t", "n", "em", "90s", "20", "a", "x"])
    if r < 0.69:
        return rng.choice(QUOTES)
    if r < 0.75:
        return rng.choice(CAPS)
    if r < 0.85:
        # a random mix of characters the rules look at
        pool = "aAzZ09.,;:!?'\"`-_/\\&#$%@<>()[]{}*+=|~^ \u00a0\u2019\u201c\u201d\u2026\u00e9\u4e2d\u00ad"
        return "".join(rng.choice(pool) for _ in range(rng.randint(1, 8)))
    if r < 0.93:
        # any BMP character (line breaks of the jar aside), next to letters
        while True:
            c = chr(rng.randrange(0x20, 0x10000))
            if not ("\ud800" <= c <= "\udfff") and c not in "\r\x0b\x0c\u2028\u2029\n":
                break
        return rng.choice(["", "a", "1", "#", "-", "'"]) + c + rng.choice(["", "a", "1", ".", "'s"])
    # two words glued by a joiner
    return rng.choice(WORDS) + rng.choice([".", "-", "/", "'", "&", "@", "_", ".,", "\u2019", ""]) + rng.choice(WORDS)


def caption(rng: random.Random) -> str:
    n = rng.choice([0, 1, 1, 2, 3, 4, 5, 6, 8, 12])
    parts = []
    for _ in range(n):
        parts.append(fragment(rng))
        parts.append(rng.choice(SEPS))
    return "".join(parts).rstrip(" ") if rng.random() < 0.5 else "".join(parts)


def captions(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [caption(rng) for _ in range(n)]
