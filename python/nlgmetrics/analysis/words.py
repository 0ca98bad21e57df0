"""Word accuracy by frequency bucket (compare-mt's ``fmeas`` word report)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..errors import InvalidOptionError
from .._inputs import as_texts
from ._common import Cutoffs, Tokenizer, check_lengths, systems_of, token_lists

DEFAULT_FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)


@dataclass(frozen=True)
class WordBucket:
    """One frequency bucket of one system: matched, reference and output word counts."""

    system: str
    bucket: str
    matches: int
    reference_words: int
    output_words: int

    @property
    def recall(self) -> float:
        return self.matches / float(self.reference_words) if self.matches else 0.0

    @property
    def precision(self) -> float:
        return self.matches / float(self.output_words) if self.matches else 0.0

    @property
    def fmeasure(self) -> float:
        if not self.matches:
            return 0.0
        precision, recall = self.precision, self.recall
        return 2 * precision * recall / (precision + recall)


def _frequencies(references: list[list[str]], frequencies: Mapping[str, int] | Sequence[str] | None, tokenize: Tokenizer, lower: bool) -> Mapping[str, int]:
    if frequencies is None:  # counted in the references, as compare-mt does by default
        return Counter(w.lower() if lower else w for sentence in references for w in sentence)
    if isinstance(frequencies, Mapping):
        if any(not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in frequencies.values()):
            raise InvalidOptionError("frequencies: counts must be non-negative integers")
        return {(w.lower() if lower else w): c for w, c in frequencies.items()}
    corpus = token_lists(frequencies, tokenize, "frequencies (a training corpus)")
    return Counter(w.lower() if lower else w for sentence in corpus for w in sentence)


def _match_positions(reference: list[str], output: list[str]) -> list[int]:
    """For each output word, the reference position it matches (the k-th occurrence of a word
    matches the word's k-th reference position), or -1."""
    positions: dict[str, list[int]] = {}
    for i, word in enumerate(reference):
        positions.setdefault(word, []).append(i)
    seen: Counter = Counter()
    matches = []
    for word in output:
        found = positions.get(word)
        k = seen[word]
        matches.append(found[k] if found and k < len(found) else -1)
        if found:
            seen[word] = k + 1
    return matches


def word_accuracy(
    references: Sequence[str],
    systems: Sequence[Sequence[str]] | dict[str, Sequence[str]],
    *,
    frequencies: Mapping[str, int] | Sequence[str] | None = None,
    cutoffs: Sequence[int] = DEFAULT_FREQUENCY_CUTOFFS,
    tokenize: Tokenizer = "compare-mt",
    case_insensitive: bool = False,
) -> list[WordBucket]:
    """Per system and frequency bucket, how many of its words match the reference.

    ``frequencies``: ``None`` counts words in the references; a mapping gives counts (a
    ``word<TAB>count`` table); a list of texts is a training corpus to count. A matched
    output word takes its reference word's bucket, an unmatched one its own. Buckets follow
    ``cutoffs`` (compare-mt's ``--bucket_cutoffs``), labelled as compare-mt labels them.
    """
    references = as_texts(references, "references")
    names, outputs = systems_of(systems)
    refs = token_lists(references, tokenize, "references")
    check_lengths(refs, outputs, names)
    outs = [token_lists(o, tokenize, f"system {name!r}") for name, o in zip(names, outputs)]
    if case_insensitive:
        refs = [[w.lower() for w in s] for s in refs]
        outs = [[[w.lower() for w in s] for s in o] for o in outs]
    counts = _frequencies(refs, frequencies, tokenize, case_insensitive)
    buckets = Cutoffs(cutoffs, integers=True)

    def bucket_of(word: str) -> int:
        return buckets.bucket(counts.get(word, 0))

    n_buckets = len(buckets.labels)
    reference_words = [0] * n_buckets
    output_words = [[0] * n_buckets for _ in outs]
    matched = [[0] * n_buckets for _ in outs]
    for i, reference in enumerate(refs):
        ref_buckets = [bucket_of(w) for w in reference]
        for b in ref_buckets:
            reference_words[b] += 1
        for s, out in enumerate(outs):
            for word, position in zip(out[i], _match_positions(reference, out[i])):
                b = ref_buckets[position] if position >= 0 else bucket_of(word)
                output_words[s][b] += 1
                if position >= 0:
                    matched[s][b] += 1
    return [
        WordBucket(name, label, matched[s][b], reference_words[b], output_words[s][b])
        for s, name in enumerate(names)
        for b, label in enumerate(buckets.labels)
    ]
