"""``jiwer.process``: ``process_words`` / ``process_characters`` and their outputs.

The transforms run here (they shape the input into token lists); the tokens are then
renamed to ASCII ids, so that nlgmetrics' ``WER`` aligns exactly these tokens, and its
counts, measures and alignment come back in jiwer's objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Union

from ... import _core
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


def measures(h: int, s: int, d: int, i: int) -> tuple:
    """jiwer's ``(wer, mer, wil, wip)`` of the counts, integers where jiwer gives integers."""
    wer, mer, wil, wip = _core.edit_measures([h, s, d, i])
    if h + s + d == 0:  # jiwer reports integers when there is no reference word
        wer, mer, wip = i, (0 if i == 0 else 1), (1 if i == 0 else 0)
        wil = 1 - wip
    elif h + s + i == 0:
        wip = 0
        wil = 1 - wip
    return wer, mer, wil, wip


def stock_counts(reference: Any, hypothesis: Any, char: bool) -> tuple[int, int, int, int] | None:
    """``(hits, substitutions, deletions, insertions)`` of texts under the stock chain
    (``wer_default`` / ``cer_default``), which the core runs itself: no Python transform,
    no token renaming, no alignment. ``None`` for input the general path must handle (and
    report as jiwer does)."""
    refs = [reference] if isinstance(reference, str) else reference
    hyps = [hypothesis] if isinstance(hypothesis, str) else hypothesis
    if not (isinstance(refs, list) and isinstance(hyps, list) and len(refs) == len(hyps)):
        return None
    if not all(isinstance(x, str) for x in refs) or not all(isinstance(x, str) for x in hyps):
        return None
    try:
        counts = _core.edit_stats(hyps, [[r] for r in refs], "cer_default" if char else "default", "error", 1)
    except UnicodeEncodeError:  # a lone surrogate: the general path reports it
        return None
    h, s, d, i = (int(x) for x in counts.sum(axis=0)) if len(refs) else (0, 0, 0, 0)
    return h, s, d, i


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
    stock = _stock_alignments(reference, hypothesis, reference_transform, hypothesis_transform)
    if stock is not None:
        return _output(refs, hyps, stock)
    vocab: dict[str, str] = {}

    def ids(words: list[str]) -> str:
        return " ".join(vocab.setdefault(w, f"w{len(vocab)}") for w in words)

    ref_ids, hyp_ids = [ids(r) for r in refs], [ids(h) for h in hyps]
    alignments = [
        [AlignmentChunk(c.type, c.ref_start, c.ref_end, c.hyp_start, c.hyp_end) for c in chunks]
        for chunks in _METRIC.alignments(hyp_ids, [[r] for r in ref_ids])
    ]
    return _output(refs, hyps, alignments)


_TAGS = ("equal", "substitute", "insert", "delete")


def _stock_alignments(reference: list, hypothesis: list, reference_transform: Any, hypothesis_transform: Any) -> list | None:
    """The chunks of texts under one stock chain (``wer_default`` / ``cer_default``), which
    the core runs itself on the texts: no token renaming and re-splitting. ``None`` for any
    other input (the general path handles it and reports errors as jiwer does)."""
    if reference_transform is not hypothesis_transform:
        return None
    core_transform = "default" if reference_transform is wer_default else "cer_default" if reference_transform is cer_default else None
    if core_transform is None or not isinstance(reference, list) or not isinstance(hypothesis, list):
        return None
    if len(reference) != len(hypothesis) or not all(type(x) is str for x in reference) or not all(type(x) is str for x in hypothesis):
        return None
    try:
        rows, _chosen = _core.edit_alignments(hypothesis, [[r] for r in reference], core_transform, "error")
    except (UnicodeEncodeError, ValueError):
        return None
    alignments: list[list[AlignmentChunk]] = [[] for _ in reference]
    for seg, tag, r0, r1, h0, h1 in rows.tolist():
        alignments[seg].append(AlignmentChunk(_TAGS[tag], r0, r1, h0, h1))
    return alignments


def _output(refs: list, hyps: list, alignments: list) -> WordOutput:
    # the counts are the alignment's: one dynamic programme, not a second for the statistics
    n = {"equal": 0, "substitute": 0, "delete": 0, "insert": 0}
    for chunks in alignments:
        for c in chunks:
            n[c.type] += (c.hyp_end_idx - c.hyp_start_idx) if c.type == "insert" else (c.ref_end_idx - c.ref_start_idx)
    h, s, d, i = n["equal"], n["substitute"], n["delete"], n["insert"]
    wer, mer, wil, wip = measures(h, s, d, i)
    return WordOutput(refs, hyps, alignments, wer, mer, wil, wip, h, s, i, d)


def process_characters(reference: Union[str, List[str]], hypothesis: Union[str, List[str]],
                       reference_transform: Union[tr.Compose, tr.AbstractTransform] = cer_default,
                       hypothesis_transform: Union[tr.Compose, tr.AbstractTransform] = cer_default) -> CharacterOutput:
    """Character alignment and counts; ``cer`` is the word error rate over characters."""
    out = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return CharacterOutput(out.references, out.hypotheses, out.alignments, out.wer, out.hits, out.substitutions, out.insertions, out.deletions)
