"""evaluate-v1.1.py's and evaluate-v2.0.py's dictionaries from the core's per-question
lists (``_core.squad_files_lists``), in plain Python: a CLI run on the scripts' files needs
no numpy (its import is most of a small run's time).

The arithmetic is the scripts' (and :mod:`.squad`'s numpy path, which gives the same bits):
each total is the per-question values added in dataset order from 0 (the scripts' ``+=``
and ``sum``), then ``100.0 * total / count``; the threshold search is evaluate-v2.0.py's
``find_best_thresh`` walk (as ``_core.squad_best_threshold``).
"""

from __future__ import annotations

import contextlib
import gc

from ...errors import EmptyInputError, InvalidInputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Callable, Sequence

# the core's per-question row: exact, shared tokens, prediction length, gold length, prediction non-empty
WIDTH = 5
EXACT, PRED_NONEMPTY = 0, 4


def in_order(values: Sequence[float]) -> float:
    """The values added one after the other from 0.0 (``numpy.cumsum``'s last value)."""
    total = 0.0
    for v in values:
        total += v
    return total


def _no_questions(name: str) -> None:
    raise EmptyInputError(f"{name} of no questions is undefined: give at least one")


def v1_official(rows: Sequence[int], f1: Sequence[float]) -> dict[str, float]:
    """evaluate-v1.1.py's ``{"exact_match", "f1"}``."""
    total = len(f1)
    if total == 0:
        _no_questions("squad")
    exact = sum(rows[EXACT::WIDTH])
    return {"exact_match": 100.0 * exact / total, "f1": 100.0 * in_order(f1) / total}


def best_threshold(scores: Sequence[float], has_ans: Sequence[bool], pred_nonempty: Sequence[bool], order: Sequence[int]) -> tuple[float, int | None]:
    """evaluate-v2.0.py's ``find_best_thresh``: the best score over the search ``order`` and
    the question where it was reached (``None``: before any)."""
    cur = float(has_ans.count(False))
    best, at = cur, None
    for i in order:
        cur += scores[i] if has_ans[i] else (-1.0 if pred_nonempty[i] else 0.0)
        if cur > best:
            best, at = cur, i
    return best, at


def v2_official(rows: Sequence[int], f1_raw: Sequence[float], ref_counts: Sequence[int], na_prob_thresh: float,
                na: tuple[Sequence[float], Sequence[bool], Sequence[int]] | None) -> dict[str, Any]:
    """evaluate-v2.0.py's dictionary; ``na`` is the probabilities' ``(values, which were
    ints, search order)`` (``None``: no file, no threshold search)."""
    n = len(f1_raw)
    if n == 0:
        _no_questions("squad_v2")
    has = [c > 0 for c in ref_counts]
    exact_raw = [float(e) for e in rows[EXACT::WIDTH]]
    probs = na[0] if na is not None else [0.0] * n
    pred_na = [p > na_prob_thresh for p in probs]
    exact_t = [(0.0 if h else 1.0) if x else e for x, h, e in zip(pred_na, has, exact_raw)]
    f1_t = [(0.0 if h else 1.0) if x else f for x, h, f in zip(pred_na, has, f1_raw)]

    def block(keep: Callable[[int], bool] | None) -> dict[str, Any]:
        e = exact_t if keep is None else [v for i, v in enumerate(exact_t) if keep(i)]
        f = f1_t if keep is None else [v for i, v in enumerate(f1_t) if keep(i)]
        total = len(e)
        return {"exact": 100.0 * in_order(e) / total, "f1": 100.0 * in_order(f) / total, "total": total}

    out = block(None)
    if any(has):
        out.update({f"HasAns_{k}": v for k, v in block(has.__getitem__).items()})
    if not all(has):
        out.update({f"NoAns_{k}": v for k, v in block(lambda i: not has[i]).items()})
    if na is not None:
        values, is_int, order = na
        nonempty = [bool(x) for x in rows[PRED_NONEMPTY::WIDTH]]
        for name, scores in (("exact", exact_raw), ("f1", f1_raw)):
            best, at = best_threshold(scores, has, nonempty, order)
            out[f"best_{name}"] = 100.0 * best / n
            # the threshold as the file gives it: an int stays an int
            out[f"best_{name}_thresh"] = 0.0 if at is None else (int(values[at]) if is_int[at] else float(values[at]))
    return out


def official_from_lists(got: tuple[str, str, Any, Any], na_prob_thresh: float, warn: Callable[[str], None]) -> dict[str, Any]:
    """The script's dictionary from ``_core.squad_files_lists``' answer."""
    version, field, (rows, f1, ref_counts), na = got
    if version == "1.1":
        if field != "1.1":
            warn(f"Evaluation expects v-1.1, but got dataset with v-{field}")
        return v1_official(rows, f1)
    return v2_official(rows, f1, ref_counts, na_prob_thresh, na)


# -- the scripts' files ------------------------------------------------------------------
@contextlib.contextmanager
def gc_paused() -> Any:
    """Garbage collection waits: reading a dataset makes a few objects per question, and
    each collection they trigger would traverse the whole parsed dataset (five times the
    walk itself on SQuAD-sized input)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def read_files(data_path: str, pred_path: str, na_prob_path: str | None) -> tuple[bytes, bytes, bytes | None]:
    """The three files' bytes (the probabilities' ``None`` without a path)."""
    raw = []
    for path in (data_path, pred_path, na_prob_path):
        if path:
            with open(path, "rb") as f:
                raw.append(f.read())
        else:
            raw.append(None)
    return raw[0], raw[1], raw[2]


def load_json(path: str, what: str) -> Any:
    """A JSON file as the scripts' ``json.load`` reads it (bytes: a UTF-8 byte order mark is
    skipped); a clear error when it is not JSON."""
    import json

    with open(path, "rb") as f:
        raw = f.read()
    try:
        return json.loads(raw)
    except json.JSONDecodeError as e:
        raise InvalidInputError(f"{path}: not valid JSON ({what}): {e.msg} at line {e.lineno} column {e.colno} (char {e.pos})") from None
    except UnicodeDecodeError as e:
        raise InvalidInputError(f"{path}: not UTF-8 text ({what}) at byte {e.start}") from None
