"""Generated captions aimed at the PTB lexer's rules (seeded, reproducible).

Each caption is a few fragments joined by a random separator; fragments come from the
places where the lexer's rules meet (a third of them from the generated classes below: every
BMP quote, dash and bracket, entities, numbers with separators, fractions, dates, phone
numbers and currencies, URLs and e-mail addresses, contractions, abbreviations before every
kind of continuation, mixed scripts, emoji, control characters, and characters the rules tell
apart glued without spaces); the others are: clitics and apostrophes of every kind, quotes,
abbreviations before capitalised words, numbers with separators and fractions, URLs,
e-mail addresses, SGML, entities, smileys, dashes, brackets, Unicode letters, digits and
symbols of other scripts, controls, NBSP and the other spaces, and non-BMP characters.
"""

from __future__ import annotations

import random
import unicodedata

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


def _category_chars(*cats: str) -> list[str]:
    return [chr(c) for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF and unicodedata.category(chr(c)) in cats]


#: Every BMP quote, dash and bracket (Unicode Pi, Pf, Pd, Ps, Pe).
PUNCT_PAIRS = _category_chars("Pi", "Pf", "Pd", "Ps", "Pe")
ENTITIES = [
    "&amp;", "&AMP;", "&Amp;", "&lt;", "&gt;", "&LT;", "&quot;", "&QUOT;", "&apos;", "&nbsp;", "&NBSP;", "&MD;", "&md;",
    "&mdash;", "&ndash;", "&HT;", "&TL;", "&UR;", "&LR;", "&QC;", "&QL;", "&QR;", "&odq;", "&cdq;", "&#1;", "&#39;",
    "&#8220;", "&#;", "&aacute;", "&Egrave;", "&iuml;", "&OUML;", "&yacute;", "&amp", "&amp;amp;", "&#x27;",
]
#: Characters the lexer's rules tell apart, for glued random strings.
RULE_CHARS = (
    "aAbBcCdDeEfFgGiIjJlLmMnNoOpPsStTuUxXyYzZ019.,;:!?'\"`-_/\\&#$%@<>()[]{}*+=|~^ \u00a0\t"
    "\u0092\u0091\u2018\u2019\u201b\u201c\u201d\u00ab\u00bb\u2039\u203a\u201a\u201e\u0093\u0094"
    "\u0085\u2026\u2013\u2014\u0096\u0097\u058a\u2010\u2011\u2044\u00ad\u066b\u066c\u00bd\u2153\u00b2\u2082"
    "\u207a\u00a2\u00a3\u20ac\u0080\u00e9\u00c9\u0301\u0130\u0131\u017f\u212a\u4e2d\u3001\u3002\u0660\u07c0\u0966"
    "\u200b\ufeff\u007f\u0000\u001b\ue000"
)
TLDS = ["com", "net", "org", "edu", "co.uk", "io", "COM", "Org", "de"]


def _number(rng: random.Random) -> str:
    digits = "0123456789" if rng.random() < 0.8 else "0123456789\u0660\u0661\u07c0\u0966\uff11"
    def run(a: int, b: int) -> str:
        return "".join(rng.choice(digits) for _ in range(rng.randint(a, b)))
    kind = rng.randrange(7)
    if kind == 0:  # separators
        return rng.choice(["", "-", "+"]) + run(0, 4) + "".join(rng.choice(".:,\u00ad\u066b\u066c") + run(1, 4) for _ in range(rng.randint(1, 3)))
    if kind == 1:  # fractions
        return rng.choice(["", run(1, 5) + rng.choice(["-", " ", "\u00a0"])]) + run(1, 5) + rng.choice(["/", "\\/", "\u2044"]) + run(1, 5)
    if kind == 2:  # dates
        return run(1, 3) + rng.choice("-/") + run(1, 3) + rng.choice("-/") + run(1, 5)
    if kind == 3:  # phones
        return rng.choice(["", "+", "++", "(" + run(2, 4) + ")" + rng.choice(["", " "])]) + run(2, 4) + rng.choice("- .\u00a0") + run(2, 5) + rng.choice(["", "-", " ", "."]) + run(2, 6)
    if kind == 4:  # super/subscripts
        return rng.choice(["", "\u207a", "\u208b"]) + "".join(rng.choice("\u2070\u00b9\u00b2\u00b3\u2074\u2079\u2080\u2089") for _ in range(rng.randint(1, 3)))
    if kind == 5:  # currency
        return rng.choice(["$", "US$", "A$", "#", "\u00a3", "\u20ac", "\u00a5", "\u0e3f", "\uffe1", "C$"]) + run(1, 4)
    return run(1, 6) + rng.choice(["s", "th", "%", "st", "'s", "km", "x", ""])


def _url(rng: random.Random) -> str:
    host = ".".join(rng.choice(["www", "a", "x-y", "b_c", "90min", "t\u00e9st", "foo"]) for _ in range(rng.randint(1, 3)))
    path = "".join(rng.choice(["/", "/a", "/b.html", "?q=1", "&x=2", "#f", "-", ".", ",", "(x)", "!"]) for _ in range(rng.randint(0, 4)))
    scheme = rng.choice(["", "", "http://", "https://", "HTTP://", "ftp://", "www."])
    url = scheme + host + "." + rng.choice(TLDS) + path
    if rng.random() < 0.3:  # an e-mail address instead
        url = rng.choice(["", "<", "&lt;"]) + rng.choice(["john", "j.doe", "a+b", "x_y", "1a"]) + "@" + host + "." + rng.choice(TLDS) + rng.choice(["", ">", "&gt;", "."])
    return url


def _contraction(rng: random.Random) -> str:
    word = rng.choice(["do", "Do", "ca", "wo", "should", "it", "IT", "he", "they", "we", "I", "y", "Y", "o", "O", "l", "d", "j", "cont", "nor", "c", "s", "ev", "li", "nat", "e", "Dunkin", "somethin", "ol", "rock", "B", "Shi", "caf\u00e9", "x\u00ad", "na\u00adt"])
    apos = rng.choice(["'", "\u2019", "\u0092", "`", "\u2018", "\u201b", "\u0091", "&apos;"])
    tail = rng.choice(["s", "S", "re", "RE", "ve", "ll", "d", "D", "m", "t", "n't", "N'T", "nt", "em", "cause", "til", "till", "90s", "mon", "er", "mores", "ry", "l", "clock", "all", "know", "Neil", "ite", "easter", "d.", "est", "o", ""])
    return word + apos + tail + rng.choice(["", "", ".", ",", "'", "s", "-"])


def _abbreviation_context(rng: random.Random) -> str:
    abbrev = rng.choice([w for w in WORDS if w.endswith(".")] + ["co.", "pty.", "Pte.", "Ptys.", "figs.", "nos.", "prop.", "op.", "Dept.", "Natl.", "Mfg.", "Mtg.", "TREAS.", "Wm.", "Jos.", "Cie.", "Alex.", "Messrs.", "Comdr.", "Cmdr.", "Supts.", "Kans.", "Wisc.", "Ariz.", "Az.", "az.", "Ark.", "Del.", "del.", "Ill.", "ill.", "La.", "la.", "Miss.", "miss.", "Ore.", "Pa.", "pa.", "Tex.", "Wash.", "wash.", "Ed.D.", "x.Y.", "U.S.S.R.", "U.S.-U.S.S.R.", "Sino-U.S.", "EU-U.S.", "non-U.S."])
    follow = rng.choice([" ", "  ", "\u00a0", "\t", "", " \u3000 "]) + rng.choice(CAPS + ["ltd", "Ltd", "limited", "5", "\u0661", "<b>", "<br/>", "x", "\u00c9cole", "\u0130", "(", "'", "\"", ",", ";", ".", "--", "..."] + SENTENCE_STARTS)
    return abbrev + follow


SENTENCE_STARTS = [
    "About", "According", "Additionally", "After", "An", "A", "As", "At", "But", "Earlier", "He", "Her", "Here", "However",
    "If", "In", "It", "Last", "Many", "More", "Mr.", "Ms.", "Now", "Once", "One", "Other", "Our", "She", "Since", "So",
    "Some", "Such", "That", "The", "Their", "Then", "There", "These", "They", "This", "We", "When", "While", "What", "Yet",
    "You", "ABOUT", "the", "Anew", "Ask", "Mr", "Thereby",
]


def _glued(rng: random.Random) -> str:
    """Characters the rules tell apart, glued without spaces."""
    return "".join(rng.choice(RULE_CHARS) for _ in range(rng.randint(1, 10)))


def _script_mix(rng: random.Random) -> str:
    pools = ["abc", "\u0430\u0431\u0432", "\u03b1\u03b2\u03a3", "\u4e2d\u6587\u5b57", "\u3042\u30ab\u30fc", "\ud55c\uad6d", "\u0645\u0631\u062d", "\u05e9\u05dc", "\u0939\u093f\u0928\u094d", "\u0e44\u0e17", "123", "\uff21\uff22\uff11"]
    return "".join(rng.choice(rng.choice(pools)) for _ in range(rng.randint(2, 8)))


def _emoji(rng: random.Random) -> str:
    return rng.choice(["\U0001F600", "\U0001F44D\U0001F3FD", "\u2764\ufe0f", "\U0001F1EF\U0001F1F5", "\U0001F468\u200d\U0001F469", "\u263a", "\U00020000", "\U0001D400"])


EXTRA_FRAGMENTS = [
    lambda rng: rng.choice(PUNCT_PAIRS),
    lambda rng: rng.choice(PUNCT_PAIRS) + rng.choice(WORDS) + rng.choice(PUNCT_PAIRS),
    lambda rng: rng.choice(ENTITIES),
    lambda rng: rng.choice(WORDS) + rng.choice(ENTITIES) + rng.choice(WORDS),
    _number,
    _url,
    _contraction,
    _abbreviation_context,
    _glued,
    _script_mix,
    _emoji,
    lambda rng: chr(rng.choice([*range(0x00, 0x09), *range(0x0E, 0x20), *range(0x7F, 0xA0), 0x200B, 0x200E, 0x200F, 0xFEFF, 0x2060, 0x00AD])),
]


def fragment(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.3:
        return rng.choice(EXTRA_FRAGMENTS)(rng)
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
