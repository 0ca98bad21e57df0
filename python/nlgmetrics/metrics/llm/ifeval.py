"""IFEval (Zhou et al. 2023): instruction following, exactly as lm-evaluation-harness 0.4.13's
``ifeval`` task scores it (``utils.process_results`` over google-research's
``instruction_following_eval`` checkers, see :mod:`._ifeval_checkers`) and the four numbers it
prints:

- ``prompt_level_strict_acc``: share of prompts whose every instruction is followed;
- ``inst_level_strict_acc``: share of all instructions followed (lm-eval's
  ``agg_inst_level_acc``: pooled over prompts, not a mean of per-prompt shares);
- ``prompt_level_loose_acc`` / ``inst_level_loose_acc``: the same where an instruction counts as
  followed when any of eight variants of the response follows it (the response, without its
  first line, its last line or both, each also with every ``*`` removed).

A whitespace-only variant follows nothing. A document is lm-eval's ``doc``: a mapping with
``instruction_id_list``, ``kwargs`` (one mapping per instruction; ``None`` and other falsy
values count as absent, as lm-eval drops them) and ``prompt``; ``key`` is not read.

The statistics are counts (documents, prompts followed, instructions, instructions followed;
strict and loose), so streams, shards and bootstrap resamples merge exactly, and each value is
``count / total``: the float lm-eval's ``sum(bools) / len(bools)`` gives.
"""
from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ...errors import InputTypeError, InvalidInputError, InvalidOptionError, LengthMismatchError
from . import _ifeval_checkers as checkers

REFERENCE = "lm-eval-0.4.13"
SCORES = ("prompt_level_strict_acc", "inst_level_strict_acc", "prompt_level_loose_acc", "inst_level_loose_acc")


class Followed(NamedTuple):
    """One document: per instruction, followed under the strict and the loose reading."""

    strict: list[bool]
    loose: list[bool]


def loose_variants(response: str) -> list[str]:
    """The eight responses the loose reading tries, in lm-eval's order."""
    lines = response.split("\n")
    first, last, both = ("\n".join(part).strip() for part in (lines[1:], lines[:-1], lines[1:-1]))
    return [response, response.replace("*", ""), first, last, both,
            first.replace("*", ""), last.replace("*", ""), both.replace("*", "")]


def _doc_fields(doc: Any, where: str) -> tuple[list[str], list[Any], str]:
    if not isinstance(doc, dict):
        raise InputTypeError(f"ifeval: {where} must be an object with instruction_id_list, kwargs and prompt, got {type(doc).__name__}")
    for field in ("instruction_id_list", "kwargs"):
        if field not in doc:
            raise InvalidInputError(f'ifeval: {where}: missing "{field}"')
    ids, kwargs, prompt = doc["instruction_id_list"], doc["kwargs"], doc.get("prompt", "")
    for name, value in (("instruction_id_list", ids), ("kwargs", kwargs)):
        if not isinstance(value, (list, tuple)):
            raise InvalidInputError(f'ifeval: {where}: "{name}" must be a list, got {type(value).__name__}')
    if len(kwargs) != len(ids):
        raise LengthMismatchError(f"ifeval: {where}: {len(ids)} instructions but {len(kwargs)} kwargs")
    if not isinstance(prompt, str):
        raise InvalidInputError(f'ifeval: {where}: "prompt" must be a string, got {type(prompt).__name__}')
    return list(ids), list(kwargs), prompt


def score_document(doc: Any, response: Any, *, where: str = "document") -> Followed:
    """lm-eval's ``process_results`` for one document: per instruction, strict and loose."""
    ids, kwargs, prompt = _doc_fields(doc, where)
    if not isinstance(response, str):
        raise InputTypeError(f"ifeval: {where}: the response must be a string, got {type(response).__name__}")
    try:
        checks = [checkers.build(i, kw, prompt) for i, kw in zip(ids, kwargs)]
    except InvalidInputError as e:
        raise InvalidInputError(f"{where}: {e}") from None
    strict = [bool(response.strip()) and bool(check(response)) for check in checks]
    # the first variant is the response (the strict check); the checks are pure functions of
    # the text, so a variant equal to one already tried is not checked again
    others = [v for v in dict.fromkeys(loose_variants(response)[1:]) if v.strip() and v != response]
    loose = [s or any(check(v) for v in others) for s, check in zip(strict, checks)]
    return Followed(strict, loose)


# -- the registry metric ----------------------------------------------------------------------
from ..base import Metric, Score  # noqa: E402


class IFEval(Metric):
    """IFEval's four accuracies as a registry metric (``ifeval``; extra ``[ifeval]``).

    ``corpus_score(responses, docs)``: per prompt the model's response and lm-eval's doc
    (``instruction_id_list``, ``kwargs``, ``prompt``). ``score=`` picks the headline value;
    the breakdown has all four and the counts.
    """

    name = "ifeval"
    count_fields = ("documents", "prompt_strict", "prompt_loose", "instructions", "inst_strict", "inst_loose")
    sum_fields = ()

    def __init__(self, score: str = "prompt_level_strict_acc", *, n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        if not isinstance(score, str) or score not in SCORES:
            raise InvalidOptionError(f"ifeval: score must be one of {', '.join(SCORES)}, got {score!r}")
        self.score = score
        checkers.check_resources()

    def _signature_items(self) -> dict[str, Any]:
        from ..nltk_word_tokenize import punkt_source

        return {"score": self.score, "langdetect-seed": checkers.LANGDETECT_SEED, "punkt": punkt_source(), "ref": REFERENCE}

    def _stats_items(self) -> dict[str, Any]:
        return {"langdetect-seed": checkers.LANGDETECT_SEED, "ref": REFERENCE}

    def _abbreviations(self) -> dict[str, str]:
        return {"score": "s", "langdetect-seed": "ld-seed", "punkt": "punkt", "ref": "ref"}

    # -- statistics -----------------------------------------------------------------------------
    def stats(self, responses: Any, docs: Any = None):  # type: ignore[override]
        """Per document: 1, prompt followed (strict, loose), instructions, instructions
        followed (strict, loose)."""
        from ..._inputs import as_sequence
        from ...stats import SegmentStats

        if docs is None:
            raise InputTypeError("ifeval needs the responses and lm-eval's docs (instruction_id_list, kwargs, prompt), one per prompt")
        for what, value in (("responses", responses), ("docs", docs)):
            if isinstance(value, (str, bytes, dict)):
                raise InputTypeError(f"ifeval: {what} must be a sequence with one entry per prompt")
        rs, ds = as_sequence(responses, "responses"), as_sequence(docs, "docs")
        if len(rs) != len(ds):
            raise LengthMismatchError(f"ifeval: {len(rs)} responses but {len(ds)} docs")
        counts = np.zeros((len(rs), len(self.count_fields)), dtype=np.uint64)
        for i, (r, d) in enumerate(zip(rs, ds)):
            f = score_document(d, r, where=f"document {i}")
            counts[i] = (1, all(f.strict), all(f.loose), len(f.strict), sum(f.strict), sum(f.loose))
        return SegmentStats(self.key, self.count_fields, counts, (), np.zeros((len(rs), 0)))

    def _score(self, stats) -> Score:
        c = dict(zip(self.count_fields, (int(x) for x in stats.counts)))
        if c["documents"] == 0:
            raise InvalidInputError("ifeval: no documents")
        if c["instructions"] == 0:  # lm-eval's agg_inst_level_acc divides by zero
            raise InvalidInputError("ifeval: no instructions in any document: the instruction-level accuracies have no value")
        parts = {"prompt_level_strict_acc": c["prompt_strict"] / c["documents"],
                 "inst_level_strict_acc": c["inst_strict"] / c["instructions"],
                 "prompt_level_loose_acc": c["prompt_loose"] / c["documents"],
                 "inst_level_loose_acc": c["inst_loose"] / c["instructions"]}
        return Score(self.name, parts[self.score], self.signature(stats), stats, **parts,
                     documents=c["documents"], instructions=c["instructions"])

    def _sentence_scores(self, seg) -> np.ndarray:
        """Per document: 0/1 for a prompt-level score, the share of its instructions followed
        for an instruction-level one (NaN for a document without instructions)."""
        counts = seg.counts.astype(np.float64)
        col = {"prompt_level_strict_acc": 1, "prompt_level_loose_acc": 2, "inst_level_strict_acc": 4, "inst_level_loose_acc": 5}[self.score]
        if col in (1, 2):
            return counts[:, col]
        with np.errstate(divide="ignore", invalid="ignore"):
            return counts[:, col] / counts[:, 3]

    # -- faces ------------------------------------------------------------------------------------
    def corpus_score(self, responses: Any, docs: Any = None) -> Score:  # type: ignore[override]
        return self.score_stats(self.stats(responses, docs).total())

    def sentence_scores(self, responses: Any, docs: Any = None) -> np.ndarray:  # type: ignore[override]
        return self._sentence_scores(self.stats(responses, docs))

    def sentence_parts(self, responses: Any, docs: Any = None) -> dict[str, np.ndarray]:  # type: ignore[override]
        seg = self.stats(responses, docs)
        return {"score": self._sentence_scores(seg), **{f: seg.counts[:, j].astype(np.float64) for j, f in enumerate(self.count_fields)}}

    def update(self, responses: Any, docs: Any = None) -> "IFEval":  # type: ignore[override]
        return self._accumulate(self.stats(responses, docs).total())

    def add_batch(self, *, responses: Any = None, docs: Any = None, predictions: Any = None, references: Any = None) -> "IFEval":  # type: ignore[override]
        if responses is None and docs is None:
            responses, docs = predictions, references
        return self.update(responses, docs)

    def add(self, *, response: Any = None, doc: Any = None, prediction: Any = None, reference: Any = None) -> "IFEval":  # type: ignore[override]
        if response is None and doc is None:
            response, doc = prediction, reference
        return self.update([response], [doc])

    def compute(self, *, responses: Any = None, docs: Any = None, predictions: Any = None, references: Any = None) -> Score:  # type: ignore[override]
        if responses is None and docs is None:
            responses, docs = predictions, references
        if responses is not None or docs is not None:
            self.update(responses, docs)
        return self.score_stats(self._compute_state())

    def pairwise(self, candidates: Any, references: Any) -> np.ndarray:
        raise InvalidOptionError("ifeval has no pairwise form")


# -- lm-eval's samples files ------------------------------------------------------------------
class IFEvalSamples(NamedTuple):
    """An ``ifeval`` ``samples_*.jsonl`` read back: the inputs (for
    ``IFEval().corpus_score(responses, docs)``), the values lm-eval logged per document, the
    values recomputed here, and ``(doc_id, metric, logged, recomputed)`` where they differ."""

    doc_ids: list
    responses: list
    docs: list
    logged: dict
    recomputed: dict
    mismatches: list


def lm_eval_ifeval_samples(records: Any, where: str = "samples") -> IFEvalSamples:
    """The samples of lm-eval's ``ifeval`` task from ``(line number, record)`` pairs: the
    response is ``filtered_resps[0]`` (else ``resps[0][0]``), the doc is ``doc``."""
    ids, responses, docs = [], [], []
    logged: dict[str, list] = {m: [] for m in SCORES}
    recomputed: dict[str, list] = {m: [] for m in SCORES}
    mismatches = []
    for lineno, rec in records:
        at = f"{where}:{lineno}"
        if not isinstance(rec, dict):
            raise InvalidInputError(f"{at}: expected an object with doc and filtered_resps")
        if "doc" not in rec:
            raise InvalidInputError(f'{at}: missing "doc"')
        resps = rec.get("filtered_resps")
        if resps is None:
            raw = rec.get("resps")
            resps = raw[0] if isinstance(raw, list) and raw and isinstance(raw[0], list) else None
        if not isinstance(resps, list) or not resps or not isinstance(resps[0], str):
            raise InvalidInputError(f'{at}: "filtered_resps" must hold the response (a string)')
        f = score_document(rec["doc"], resps[0], where=at)
        ids.append(rec.get("doc_id", len(ids)))
        responses.append(resps[0])
        docs.append(rec["doc"])
        values = (all(f.strict), f.strict, all(f.loose), f.loose)
        for m, v in zip(SCORES, values):
            recomputed[m].append(v)
            lv = rec.get(m)
            logged[m].append(lv)
            if lv is not None and lv != v:
                mismatches.append((rec.get("doc_id"), m, lv, v))
    if not ids:
        raise InvalidInputError(f"{where}: no samples")
    return IFEvalSamples(ids, responses, docs, logged, recomputed, mismatches)


def read_ifeval_samples(path: Any) -> IFEvalSamples:
    """Read lm-eval's ``samples_ifeval_<date>.jsonl`` and recompute the four values per
    document, to compare with those it logs (see :func:`lm_eval_ifeval_samples`)."""
    from ...io.text import read_jsonl_records

    records = read_jsonl_records(path)
    return lm_eval_ifeval_samples(records, str(path))
