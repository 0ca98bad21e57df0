"""``jiwer.process``: ``process_words`` / ``process_characters`` and their outputs.

Under the stock chains (``wer_default`` / ``cer_default``) the core aligns the raw texts
and the output's ``references``, ``hypotheses`` and ``alignments`` are built when first
read. Under any other chain the transforms run here (they shape the input into token
lists); the tokens are then renamed to ASCII ids, so that nlgmetrics' ``WER`` aligns
exactly these tokens, and its counts, measures and alignment come back in jiwer's objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, List, Union

import numpy as np

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
    stock = _stock_output(reference, hypothesis, reference_transform, hypothesis_transform)
    if stock is not None:
        return stock
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
    alignments = [
        [AlignmentChunk(c.type, c.ref_start, c.ref_end, c.hyp_start, c.hyp_end) for c in chunks]
        for chunks in _METRIC.alignments(hyp_ids, [[r] for r in ref_ids])
    ]
    return _output(refs, hyps, alignments)


_TAGS = ("equal", "substitute", "insert", "delete")
_INSERT = _TAGS.index("insert")


def _stock_output(reference: list, hypothesis: list, reference_transform: Any, hypothesis_transform: Any, char: bool = False) -> WordOutput | CharacterOutput | None:
    """The output for texts under one stock chain (``wer_default`` / ``cer_default``), which
    the core runs itself on the texts: no token renaming and re-splitting. The counts come
    from the core's opcode table; ``references``, ``hypotheses`` and ``alignments`` are
    built on first access (a long document has tens of thousands of chunks, which cost
    more than its alignment when only the counts are read). ``None`` for any other input
    (the general path handles it and reports errors as jiwer does)."""
    if reference_transform is not hypothesis_transform:
        return None
    core_transform = "default" if reference_transform is wer_default else "cer_default" if reference_transform is cer_default else None
    if core_transform is None or not isinstance(reference, list) or not isinstance(hypothesis, list) or not reference:
        return None  # jiwer's transforms turn an empty list into one empty sentence
    if len(reference) != len(hypothesis) or not all(type(x) is str for x in reference) or not all(type(x) is str for x in hypothesis):
        return None
    try:
        rows, _chosen = _core.edit_alignments(hypothesis, [[r] for r in reference], core_transform, "error")
    except (UnicodeEncodeError, ValueError):
        return None
    rows = np.asarray(rows, dtype=np.int64).reshape(-1, 6)
    tags, lengths = rows[:, 1], np.where(rows[:, 1] == _INSERT, rows[:, 5] - rows[:, 4], rows[:, 3] - rows[:, 2])
    h, s, i, d = (int(lengths[tags == tag].sum()) for tag in range(4))
    wer, mer, wil, wip = measures(h, s, d, i)
    out = object.__new__(CharacterOutput if char else WordOutput)
    out.__dict__.update(dict(cer=wer) if char else dict(wer=wer, mer=mer, wil=wil, wip=wip))
    out.__dict__.update(hits=h, substitutions=s, insertions=i, deletions=d, _pending=(rows, list(reference), list(hypothesis), reference_transform))
    return out


def _chunks(rows: np.ndarray, n_segments: int) -> list[list[AlignmentChunk]]:
    alignments: list[list[AlignmentChunk]] = [[] for _ in range(n_segments)]
    for seg, tag, r0, r1, h0, h1 in rows.tolist():
        alignments[seg].append(AlignmentChunk(_TAGS[tag], r0, r1, h0, h1))
    return alignments


class _Deferred:
    """A field of a stock-chain output computed on first read (then an ordinary attribute:
    equality, ``repr``, ``dataclasses.asdict`` and pickling see the built value)."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            raise AttributeError(self.name)
        rows, reference, hypothesis, transform = obj.__dict__.pop("_pending")
        obj.__dict__.update(references=transform(reference), hypotheses=transform(hypothesis),
                            alignments=_chunks(rows, len(reference)))
        return obj.__dict__[self.name]


def _getstate(self) -> dict:
    if "_pending" in self.__dict__:
        self.alignments  # noqa: B018 - builds the deferred fields
    return dict(self.__dict__)


for _cls in (WordOutput, CharacterOutput):
    for _name in ("references", "hypotheses", "alignments"):
        _field = _Deferred()
        _field.__set_name__(_cls, _name)
        setattr(_cls, _name, _field)
    _cls.__getstate__ = _getstate


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
    if isinstance(reference, str):
        reference = [reference]
    if isinstance(hypothesis, str):
        hypothesis = [hypothesis]
    stock = _stock_output(reference, hypothesis, reference_transform, hypothesis_transform, char=True)
    if stock is not None:
        return stock
    out = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return CharacterOutput(out.references, out.hypotheses, out.alignments, out.wer, out.hits, out.substitutions, out.insertions, out.deletions)
