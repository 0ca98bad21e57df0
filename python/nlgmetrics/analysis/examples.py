"""The sentences where two systems differ most (compare-mt's sentence example report)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..errors import InvalidOptionError
from ._common import Tokenizer, paired_token_lists

# compare-mt's --scorer_scale: sentence BLEU on 0-100
SCALE = 100.0
DEFAULT_COUNT = 10


@dataclass(frozen=True)
class SentenceExample:
    """One segment (0-based index) and its sentence BLEU for both systems (0-100)."""

    segment: int
    score_a: float
    score_b: float

    @property
    def difference(self) -> float:
        """B minus A, as compare-mt computes it (it prints A minus B, this negated)."""
        return self.score_b - self.score_a


def _sentence_bleu(references: list[list[str]], output: list[list[str]]) -> list[float]:
    """compare-mt's ``sentbleu``: nltk ``sentence_bleu`` with Chen & Cherry's method2, times 100."""
    from ..metrics.bleu_nltk import NltkBLEU

    scores = NltkBLEU(smoothing="method2").sentence_scores(output, [[r] for r in references])
    return [SCALE * float(s) for s in scores]


def sentence_examples(
    references: Sequence[str],
    system_a: Sequence[str],
    system_b: Sequence[str],
    *,
    count: int = DEFAULT_COUNT,
    tokenize: Tokenizer = "compare-mt",
    case_insensitive: bool = False,
) -> tuple[list[SentenceExample], list[SentenceExample]]:
    """The ``count`` segments where A beats B most, and the ``count`` where B beats A most.

    As compare-mt 0.2.10 selects them: each segment is scored with sentence BLEU (nltk,
    smoothing method2, 0-100); a segment whose (A output, B output, reference) tokens repeat
    an earlier segment's is skipped; the rest are sorted by ``B - A``, then A's score, B's
    score and the segment index, all ascending. A's examples are the first ``count`` of that
    order, B's the last ``count`` (compare-mt prints those in ascending order; here they come
    strongest first, reversed). With fewer than ``2 * count`` segments the two lists share
    segments, and a segment where the systems tie can appear, as in compare-mt.
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        # compare-mt's report_length=0 would list every segment on B's side ([-0:] slices all)
        raise InvalidOptionError(f"count must be a positive integer, got {count!r}")
    refs, outs = paired_token_lists(references, system_a, system_b, tokenize)
    if case_insensitive:  # compare-mt lowercases for scoring only; the de-duplication sees the tokens as given
        scored_refs = [[w.lower() for w in s] for s in refs]
        scored = [[[w.lower() for w in s] for s in o] for o in outs]
    else:
        scored_refs, scored = refs, outs
    scores_a, scores_b = (_sentence_bleu(scored_refs, o) for o in scored)
    seen: set[tuple[tuple[str, ...], ...]] = set()
    ranked = []
    for i, (a, b, r) in enumerate(zip(outs[0], outs[1], refs)):
        key = (tuple(a), tuple(b), tuple(r))
        if key in seen:
            continue
        seen.add(key)
        ranked.append((scores_b[i] - scores_a[i], scores_a[i], scores_b[i], i))
    ranked.sort()
    examples = [SentenceExample(i, a, b) for _, a, b, i in ranked]
    return examples[:count], list(reversed(examples[-count:]))
