"""Generated segments aimed at METEOR 1.5's modules and normalizer (seeded, reproducible).

Vocabulary comes from the resources the jar itself reads, so the modules fire: WordNet
synonyms (``synonym/english.synsets``: words sharing a synset), irregular forms
(``synonym/english.exceptions``) and suffixed forms for the Snowball stemmer, the
function-word list (``function/english.words``) and phrase/paraphrase pairs sampled along
the whole paraphrase table (``data/paraphrase-en.gz``). Real sentences (``pool``) give the
context the substitutions are made in.

``segments(n, seed, pool)`` returns ``n`` ``(family, hypothesis, references)`` triples;
the families are listed in ``FAMILIES``. No text holds a line break (the jar's stdio
protocol is one segment per line) or a lone surrogate (pycocoevalcap encodes to UTF-8).
"""

from __future__ import annotations

import random
import zipfile
import zlib
from functools import lru_cache
from pathlib import Path

FAMILIES = (
    "exact", "stem", "synonym", "paraphrase", "function", "repeat", "norm", "case",
    "empty", "multiref", "long", "mixed",
)  # fmt: skip

NORM_TOKENS = [
    "1,000", "1,000,000", "3.14", ".5", "5.", "$5", "$3.50", "50%", "1990s", "'90s", "1990's", "24/7", "9-11",
    "555-1234", "No.", "No. 5", "no.", "Mr.", "Mrs.", "Dr.", "St.", "U.S.", "U.S.-based", "e.g.", "i.e.", "etc.",
    "a.m.", "p.m.", "Inc.", "Co.", "Jan.", "vs.", "...", "..", "....", ". . .", "\u2026", "--", "-", "\u2013",
    "\u2014", "'", "''", "``", '"', "\u201c", "\u201d", "\u2018", "\u2019", "`", ",", ".", "!", "?", ";", ":",
    "(", ")", "[", "]", "{", "}", "<", ">", "/", "\\", "|", "||", "&", "&amp;", "&lt;", "&gt;", "&quot;",
    "&apos;", "&#39;", "#", "@", "*", "+", "=", "~", "^", "_", "%", "it's", "don't", "can't", "won't", "dogs'",
    "'s", "n't", "rock'n'roll", "o'clock", "well-known", "state-of-the-art", "x.y.", "DOTMULTI", "a,b", "1,a",
    "a,1", "\u00a0", "\u2009", "\u3000", "\t", "caf\u00e9", "na\u00efve", "\u00dcber", "stra\u00dfe", "\u0130stanbul",
    "\u039f\u0394\u039f\u03a3", "\u0416\u0443\u043a", "\u732b", "\U0001F600", "\u00bd", "\u00b2", "\u00d7",
    "\u00bf", "\u00a1", "\u060c", "\u00ab", "\u00bb",
]  # fmt: skip

SUFFIXES = ["s", "es", "ed", "ing", "er", "est", "ly", "ness", "ment", "ation", "ful", "ize", "ies", "y", "e", "'s"]


def _pycoco_meteor_dir() -> Path:
    from nlgmetrics.metrics.meteor_resources import meteor_dir

    return meteor_dir()


@lru_cache(maxsize=1)
def resources() -> dict:
    """Function words, synonym groups, irregular forms and paraphrase pairs."""
    d = _pycoco_meteor_dir()
    with zipfile.ZipFile(d / "meteor-1.5.jar") as jar:
        function = jar.read("function/english.words").decode().split()
        syn_lines = jar.read("synonym/english.synsets").decode().split("\n")
        exc_lines = jar.read("synonym/english.exceptions").decode().split("\n")
    by_synset: dict[str, list[str]] = {}
    for word, ids in zip(syn_lines[0::2], syn_lines[1::2]):
        if word.isalpha() and word.islower():
            for i in ids.split():
                by_synset.setdefault(i, []).append(word)
    groups = sorted({tuple(sorted(set(ws))) for ws in by_synset.values() if len(set(ws)) > 1})
    irregular = [(base, forms.split()) for base, forms in zip(exc_lines[0::2], exc_lines[1::2]) if forms.strip()]
    groups_of: dict[str, list[int]] = {}
    for k, g in enumerate(groups):
        for w in g:
            groups_of.setdefault(w, []).append(k)
    return {
        "function": function,
        "synonyms": groups,
        "groups_of": groups_of,
        "words": sorted({w for g in groups for w in g}),
        "irregular": irregular,
        "paraphrases": paraphrase_pairs(d / "data" / "paraphrase-en.gz"),
    }


def paraphrase_pairs(path: Path, per_chunk: int = 40) -> list[tuple[str, str]]:
    """(phrase, paraphrase) records taken along the whole table: a few from each
    decompressed chunk (the table is sorted by phrase, so a prefix would be all numbers)."""
    rng = random.Random(5)
    pairs: list[tuple[str, str]] = []
    dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
    tail = b""
    with open(path, "rb") as f:
        while True:
            raw = f.read(1 << 20)
            if not raw:
                break
            lines = (tail + dec.decompress(raw)).split(b"\n")
            tail = lines.pop()
            # A record is (probability, phrase, paraphrase); probabilities start "0." or "1".
            starts = [i for i in range(0, len(lines) - 2) if lines[i][:2] == b"0." and lines[i + 1][:2] != b"0."]
            for i in rng.sample(starts, min(per_chunk, len(starts))):
                pairs.append((lines[i + 1].decode("utf-8", "replace"), lines[i + 2].decode("utf-8", "replace")))
    return pairs


class Generator:
    def __init__(self, seed: int, pool: list[str]):
        self.rng = random.Random(seed)
        self.res = resources()
        self.pool = [p for p in pool if p.strip()] or ["a man is riding a horse"]

    # -- pieces ----------------------------------------------------------------------
    def sentence(self) -> list[str]:
        return self.rng.choice(self.pool).split()

    def perturb(self, words: list[str], rate: float = 0.25) -> list[str]:
        rng = self.rng
        out = list(words)
        for _ in range(max(1, int(len(out) * rate))):
            op = rng.randrange(6)
            if not out:
                out.append(rng.choice(self.res["words"]))
                continue
            i = rng.randrange(len(out))
            if op == 0:
                del out[i]
            elif op == 1 and len(out) > 1:
                j = rng.randrange(len(out))
                out[i], out[j] = out[j], out[i]
            elif op == 2:
                out.insert(i, out[rng.randrange(len(out))])
            elif op == 3:
                out.insert(i, rng.choice(self.res["function"]))
            elif op == 4:
                out[i] = rng.choice(self.res["words"])
            else:
                k = rng.randint(1, 4)
                out[i:i] = out[i : i + k]
        return out

    def inflect(self, w: str) -> str:
        rng = self.rng
        if rng.random() < 0.3:
            base, forms = rng.choice(self.res["irregular"])
            return rng.choice([base, *forms])
        if rng.random() < 0.3 and len(w) > 4:
            return w[: -rng.randint(1, 3)]
        return w + rng.choice(SUFFIXES)

    def synonym(self, w: str | None = None) -> tuple[str, str]:
        g = self.rng.choice(self.res["synonyms"])
        a, b = self.rng.sample(g, 2)
        return a, b

    def case(self, w: str) -> str:
        r = self.rng.random()
        return w.upper() if r < 0.3 else w.capitalize() if r < 0.6 else "".join(
            c.upper() if self.rng.random() < 0.5 else c for c in w)

    def mix_in(self, base: list[str], extra: list[str]) -> list[str]:
        out = list(base)
        for w in extra:
            out.insert(self.rng.randint(0, len(out)), w)
        return out

    # -- families --------------------------------------------------------------------
    def exact(self):
        ref = self.sentence()
        return " ".join(self.perturb(ref, self.rng.choice([0.1, 0.3, 0.6]))), [" ".join(ref)]

    def stem(self):
        ref = self.sentence()
        hyp = [self.inflect(w) if self.rng.random() < 0.5 else w for w in ref]
        extra_r, extra_h = [], []
        for _ in range(self.rng.randint(1, 4)):
            w = self.rng.choice(self.res["words"])
            extra_r.append(w)
            extra_h.append(self.inflect(w))
        return " ".join(self.mix_in(hyp, extra_h)), [" ".join(self.mix_in(ref, extra_r))]

    def synonym_family(self):
        ref = self.sentence()
        hyp = list(ref)
        groups, of = self.res["synonyms"], self.res["groups_of"]
        for i, w in enumerate(hyp):  # the sentence's own words by a synonym
            ks = of.get(w.lower())
            if ks and self.rng.random() < 0.6:
                hyp[i] = self.rng.choice([x for x in groups[self.rng.choice(ks)] if x != w.lower()])
        pairs = [self.synonym() for _ in range(self.rng.randint(1, 5))]
        r = self.mix_in(ref, [a for a, _ in pairs])
        h = self.mix_in(hyp, [self.inflect(b) if self.rng.random() < 0.2 else b for _, b in pairs])
        if self.rng.random() < 0.4:
            h = self.perturb(h, 0.2)
        return " ".join(h), [" ".join(r)]

    def paraphrase(self):
        rng = self.rng
        pairs = rng.sample(self.res["paraphrases"], rng.randint(1, 4))
        ctx = self.sentence()
        r, h = list(ctx), self.perturb(ctx, 0.2) if rng.random() < 0.5 else list(ctx)
        for p, q in pairs:
            if rng.random() < 0.5:
                p, q = q, p
            i = rng.randint(0, len(r))
            r[i:i] = p.split()
            j = rng.randint(0, len(h))
            h[j:j] = q.split()
            if rng.random() < 0.2:  # the phrase itself too: exact and paraphrase compete
                h[j:j] = p.split()
        return " ".join(h), [" ".join(r)]

    def function(self):
        fw = self.res["function"]
        n = self.rng.randint(1, 12)
        ref = [self.rng.choice(fw) for _ in range(n)]
        hyp = self.perturb(ref, 0.4)
        if self.rng.random() < 0.5:
            ref = self.mix_in(ref, self.sentence()[:3])
        return " ".join(hyp), [" ".join(ref)]

    def repeat(self):
        rng = self.rng
        vocab = rng.sample(self.res["function"] + self.res["words"][:200], rng.randint(1, 4))
        if rng.random() < 0.3:  # stems and synonyms of the repeated words as well
            a, b = self.synonym()
            vocab += [a, b, self.inflect(a)]
        top = 80 if rng.random() < 0.2 else 40
        n1, n2 = rng.randint(0, top), rng.randint(1, top)
        hyp = [rng.choice(vocab) for _ in range(n1)]
        ref = [rng.choice(vocab) for _ in range(n2)]
        return " ".join(hyp), [" ".join(ref) for _ in range(rng.randint(1, 2))]

    def norm(self):
        rng = self.rng

        def noisy(words: list[str]) -> str:
            out = list(words)
            for _ in range(rng.randint(1, 6)):
                out.insert(rng.randint(0, len(out)), rng.choice(NORM_TOKENS))
            glue = rng.random() < 0.3
            return "".join(w + (rng.choice(["", " "]) if glue else " ") for w in out).strip(" ")

        ref = self.sentence()
        return noisy(self.perturb(ref, 0.1)), [noisy(ref)]

    def case_family(self):
        ref = self.sentence()
        hyp = [self.case(w) if self.rng.random() < 0.5 else w for w in ref]
        refs = [" ".join(self.case(w) if self.rng.random() < 0.2 else w for w in ref)]
        return " ".join(hyp), refs

    def empty(self):
        rng = self.rng
        small = ["", " ", "  ", "\t", "a", "the", ".", "...", "Dog", "dogs", "|", "-", rng.choice(self.res["words"])]
        hyp = rng.choice(small)
        refs = [rng.choice(small + [" ".join(self.sentence())]) for _ in range(rng.randint(1, 3))]
        return hyp, refs

    def multiref(self):
        base = self.sentence()
        refs = []
        for _ in range(self.rng.randint(2, 8)):
            r = self.rng.random()
            refs.append(" ".join(base if r < 0.15 else self.perturb(base, 0.3) if r < 0.7 else self.sentence()))
        hyp = self.perturb(base, 0.3)
        return " ".join(hyp), refs

    def long(self):
        rng = self.rng
        ref: list[str] = []
        while len(ref) < rng.randint(60, 300):
            ref += self.sentence()
        hyp = self.perturb(ref, rng.choice([0.05, 0.2, 0.5]))
        return " ".join(hyp), [" ".join(ref)]

    def mixed(self):
        a = self.pick()
        b = self.pick()
        return a[0] + " " + b[0], [r1 + " " + r2 for r1, r2 in zip(a[1], b[1])] or a[1]

    def pick(self):
        return getattr(self, self.rng.choice(["exact", "stem", "synonym_family", "paraphrase", "function", "norm", "case_family"]))()

    def one(self, family: str):
        name = {"synonym": "synonym_family", "case": "case_family"}.get(family, family)
        hyp, refs = getattr(self, name)()
        clean = lambda s: s.replace("\n", " ").replace("\r", " ")  # noqa: E731
        return family, clean(hyp), [clean(r) for r in refs]


def segments(n: int, seed: int, pool: list[str]) -> list[tuple[str, str, list[str]]]:
    g = Generator(seed, pool)
    return [g.one(FAMILIES[i % len(FAMILIES)]) for i in range(n)]
