"""Greedy cosine matching with idf weights (bert_score 0.3.13's ``greedy_cos_idf``).

For a candidate/reference pair of unit-vector matrices: each candidate token takes its best
cosine over the reference tokens (precision), each reference token its best over the
candidate tokens (recall); both are averaged with the token weights normalised to sum 1;
``F = 2PR/(P+R)``. Special tokens take part as match candidates and are excluded only by
their zero weight, as in bert_score. Arithmetic is float32 in bert_score's order.

Pairs are matched in padded batches, but padding is masked out of the maxima, so a pair's
scores do not depend on its batch. bert_score instead multiplies padded similarities by 0,
so a token whose real similarities are all negative (common between unrelated sentences,
e.g. in MBR matrices) takes 0 from the padding whenever a longer sentence shares its batch
of ``batch_size`` consecutive pairs. ``pad_zero=True`` reproduces that exactly: pairs are
taken in the order given, in consecutive chunks, with padded similarities 0.

A text that is only special tokens (two of them) gets ``P = R = 0``; an undefined ``F``
(``P + R = 0``) is 0, as in bert_score.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ._models import require_torch


IdfTable = tuple[dict[int, float], "float | None"]  # (weight per token id, weight of unseen ids)


def idf_from_references(id_sets: Sequence[frozenset[int]], multiplicity: Sequence[int]) -> IdfTable:
    """``ln((M + 1) / (c(t) + 1))`` over ``M`` reference documents (each ``id_sets[i]``
    counted ``multiplicity[i]`` times); unseen tokens get ``ln(M + 1)``."""
    import math

    counts: dict[int, int] = {}
    for ids, k in zip(id_sets, multiplicity):
        for t in ids:
            counts[t] = counts.get(t, 0) + k
    m = sum(multiplicity)
    return {t: math.log((m + 1) / (c + 1)) for t, c in counts.items()}, math.log((m + 1) / 1)


def idf_weights(ids: Sequence[int], idf: IdfTable | None, special: tuple[int | None, int | None]) -> Any:
    """float32 weights: the idf table's (its default for unseen ids), or 1 except [SEP]/[CLS]."""
    torch, _ = require_torch()
    if idf is None:
        sep, cls = special
        values = [0.0 if (t == sep or t == cls) else 1.0 for t in ids]
    else:
        table, default = idf
        if default is None and any(t not in table for t in ids):
            from ..errors import InvalidInputError

            missing = next(t for t in ids if t not in table)
            raise InvalidInputError(f"token id {missing} is not in the idf mapping (use a defaultdict for a default)")
        values = [table.get(t, default) for t in ids]
    return torch.tensor(values, dtype=torch.float)


def _pad(tensors: list[Any]) -> tuple[Any, Any]:
    torch, _ = require_torch()
    lengths = torch.tensor([t.shape[0] for t in tensors])
    padded = torch.nn.utils.rnn.pad_sequence(tensors, batch_first=True)
    mask = torch.arange(padded.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
    return padded, mask


def greedy_match(
    cand_emb: list[Any], cand_w: list[Any], ref_emb: list[Any], ref_w: list[Any],
    pairs: Sequence[tuple[int, int]], batch_size: int, device: str = "cpu", pad_zero: bool = False,
) -> np.ndarray:
    """``(len(pairs), 3)`` float32 array of (P, R, F) for each (candidate, reference) pair."""
    torch, _ = require_torch()
    out = np.empty((len(pairs), 3), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, len(pairs), batch_size):
            batch = pairs[start : start + batch_size]
            h, hmask = _pad([cand_emb[i] for i, _ in batch])
            r, rmask = _pad([ref_emb[j] for _, j in batch])
            hw, _ = _pad([cand_w[i] for i, _ in batch])
            rw, _ = _pad([ref_w[j] for _, j in batch])
            h, r, hmask, rmask, hw, rw = (x.to(device) for x in (h, r, hmask, rmask, hw, rw))
            sim = torch.bmm(h, r.transpose(1, 2))
            sim = sim.masked_fill(~(hmask.unsqueeze(2) & rmask.unsqueeze(1)), 0.0 if pad_zero else float("-inf"))
            word_precision = sim.max(dim=2)[0].masked_fill(~hmask, 0.0)
            word_recall = sim.max(dim=1)[0].masked_fill(~rmask, 0.0)
            hw = hw / hw.sum(dim=1, keepdim=True)
            rw = rw / rw.sum(dim=1, keepdim=True)
            p = (word_precision * hw).sum(dim=1)
            rec = (word_recall * rw).sum(dim=1)
            f = 2 * p * rec / (p + rec)
            only_special = (hmask.sum(dim=1) == 2) | (rmask.sum(dim=1) == 2)
            p = p.masked_fill(only_special, 0.0)
            rec = rec.masked_fill(only_special, 0.0)
            f = f.masked_fill(torch.isnan(f), 0.0)
            out[start : start + len(batch)] = torch.stack((p, rec, f), dim=-1).cpu().numpy()
    return out
