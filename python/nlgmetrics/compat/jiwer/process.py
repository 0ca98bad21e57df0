"""``jiwer.process``: ``process_words`` / ``process_characters`` and their outputs.

The transforms run here (they shape the input into token lists); the tokens are then
renamed to ASCII ids, so that nlgmetrics' ``WER`` aligns exactly these tokens, and its
counts, measures and alignment come back in jiwer's objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Union

from ...metrics.wer import WER
from . import transforms as tr
from .transformations import cer_default, wer_default

__all__ = ["AlignmentChunk", "WordOutput", "CharacterOutput", "process_words", "process_characters"]


@dataclass
class AlignmentChunk:
    """One block of an alignment: half-open index ranges into reference and hypothesis."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int

    def __post_init__(self):
        if self.type not in ["replace", "insert", "delete", "equal", "substitute"]:
            raise ValueError("")
        if self.type == "replace":
            self.type = "substitute"
        if self.ref_start_idx > self.ref_end_idx:
            raise ValueError(f"ref_start_idx={self.ref_start_idx} is larger than ref_end_idx={self.ref_end_idx}")
        if self.hyp_start_idx > self.hyp_end_idx:
            raise ValueError(f"hyp_start_idx={self.hyp_start_idx} is larger than hyp_end_idx={self.hyp_end_idx}")


@dataclass
class WordOutput:
    references: List[List[str]]
    hypotheses: List[List[str]]
    alignments: List[List[AlignmentChunk]]
    wer: float
    mer: float
    wil: float
    wip: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


@dataclass
class CharacterOutput:
    references: List[List[str]]
    hypotheses: List[List[str]]
    alignments: List[List[AlignmentChunk]]
    cer: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


_METRIC = WER(transform="default", n_threads=1)


def _is_list_of_list_of_strings(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(s, list) and all(isinstance(w, str) for w in s) for s in x)


def _apply_transform(sentences, transform, is_reference: bool):
    out = transform(sentences)
    if not _is_list_of_list_of_strings(out):
        raise ValueError(
            "After applying the transformation, each "
            f"{'reference' if is_reference else 'hypothesis'} should be a "
            "list of strings, with each string being a single word or character."
            "Please ensure the given transformation reduces the input "
            "to a list of list strings."
        )
    return out


def process_words(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                  reference_transform: Union[tr.Compose, tr.AbstractTransform] = wer_default,
                  hypothesis_transform: Union[tr.Compose, tr.AbstractTransform] = wer_default) -> WordOutput:
    """Word alignment, counts and measures of hypotheses against references (jiwer 4)."""
    if isinstance(reference, str):
        reference = [reference]
    if isinstance(hypothesis, str):
        hypothesis = [hypothesis]
    refs = _apply_transform(reference, reference_transform, is_reference=True)
    hyps = _apply_transform(hypothesis, hypothesis_transform, is_reference=False)
    if len(refs) != len(hyps):
        raise ValueError(
            "After applying the transforms on the reference and hypothesis sentences, "
            f"their lengths must match. Instead got {len(refs)} reference and {len(hyps)} hypothesis sentences."
        )
    vocab: dict[str, str] = {}

    def ids(words: list[str]) -> str:
        return " ".join(vocab.setdefault(w, f"w{len(vocab)}") for w in words)

    ref_ids, hyp_ids = [ids(r) for r in refs], [ids(h) for h in hyps]
    seg = _METRIC.stats(hyp_ids, [[r] for r in ref_ids])
    total = _METRIC.score_stats(seg.total())
    alignments = [
        [AlignmentChunk(c.type, c.ref_start, c.ref_end, c.hyp_start, c.hyp_end) for c in chunks]
        for chunks in _METRIC.alignments(hyp_ids, [[r] for r in ref_ids])
    ]
    h, s, d, i = total.hits, total.substitutions, total.deletions, total.insertions
    wer, mer, wil, wip = total.wer, total.mer, total.wil, total.wip
    if h + s + d == 0:  # jiwer reports integers when there is no reference word
        n_hyp = sum(len(x) for x in hyps)
        wer, mer, wip = i, (0 if n_hyp == 0 else 1), (1 if n_hyp == 0 else 0)
        wil = 1 - wip
    elif h + s + i == 0:
        wip = 0
        wil = 1 - wip
    return WordOutput(refs, hyps, alignments, wer, mer, wil, wip, h, s, i, d)


def process_characters(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                       reference_transform: Union[tr.Compose, tr.AbstractTransform] = cer_default,
                       hypothesis_transform: Union[tr.Compose, tr.AbstractTransform] = cer_default) -> CharacterOutput:
    """Character alignment and counts; ``cer`` is the word error rate over characters."""
    out = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return CharacterOutput(out.references, out.hypotheses, out.alignments, out.wer, out.hits, out.substitutions, out.insertions, out.deletions)
