"""sacrebleu's ``metrics.lib_ter.translation_edit_rate(words_hyp, words_ref)``: the edits
(shifts included) and reference length of one pre-tokenized pair, from nlgmetrics' TER."""

from __future__ import annotations

from typing import List, Tuple

__all__ = ["translation_edit_rate"]


def translation_edit_rate(words_hyp: List[str], words_ref: List[str]) -> Tuple[int, int]:
    """``(number of edits, reference length)`` of a tokenized hypothesis against one reference."""
    from ...metrics.ter import TER

    if not words_ref:  # sacrebleu: every hypothesis word is an edit against an empty reference
        return len(words_hyp), 0
    # TER compares words only for equality: each distinct word becomes a plain placeholder,
    # so words holding spaces or characters the tercom tokenizer would split stay whole
    ids: dict[str, str] = {}
    hyp = " ".join(ids.setdefault(w, f"w{len(ids)}") for w in words_hyp)
    ref = " ".join(ids.setdefault(w, f"w{len(ids)}") for w in words_ref)
    metric = TER(case_sensitive=True)
    score = metric.score_stats(metric.stats([hyp], [[ref]]).total())
    return int(score.num_edits), len(words_ref)
