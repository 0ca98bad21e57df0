"""The COCO caption evaluation pipeline (pycocoevalcap ``COCOEvalCap``), natively.

``evaluate(annotations, results)`` does what ``COCOEvalCap.evaluate()`` does with
``params['image_id'] = cocoRes.getImgIds()`` (the coco-caption demo): it takes the
images that have a result, in the order of the annotation file's ``images`` list (as
pycocotools' ``loadRes`` orders them), runs the PTB tokenizer on all references (one
run) and all results (another run), then the scorers on the tokenized captions:
BLEU-1..4 (``BLEU(flavour="coco")``) and CIDEr-D (``CIDEr()``, df from these
references). It returns the corpus numbers under COCOEvalCap's names (``Bleu_1`` ..
``Bleu_4``, ``CIDEr``) and the per-image scores (``imgToEval``).

METEOR (``METEOR()``, the native METEOR 1.5 with pycocoevalcap's aggregate; it needs the
``[meteor]`` extra for its resources and is skipped with a warning without it) and
ROUGE-L (``ROUGE(flavour="coco")``) come from their own metric families through the
same hook other scorers use, :func:`register_scorer` (a function of the tokenized
references and results returning the corpus value and per-image values). Results
appear in COCOEvalCap's order (Bleu, METEOR, ROUGE_L, CIDEr). SPICE is not provided.

Inputs: COCO annotation JSON (``{"images": [...], "annotations": [{"image_id",
"caption"}]}``) or a references JSONL (``{"image_id"|"image_name", "references": [...]}``
per line); results JSON (``[{"image_id", "caption"}]``) or a TSV of ``image<TAB>caption``.
A result for an image without annotations is ignored, as pycocotools does, with a
warning; two results for one image are an error (pycocoevalcap would assert).
"""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from .._resources import n_threads_value
from .. import _core
from ..errors import InputTypeError, InvalidInputError, InvalidTextError, MissingExtraError, MissingReferenceError
from ..metrics.bleu_coco import CocoBLEU
from ..metrics.cider import CIDEr

__all__ = ["CocoEval", "evaluate", "load_annotations", "load_results", "ptb_tokenize", "register_scorer", "PUNCTUATIONS"]

PUNCTUATIONS = ("''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":", "-", "--", "...", ";")

#: Scorer = f(refs_tok, preds_tok) -> (corpus value, per-image values); names as COCOEvalCap.
Scorer = Callable[[list[list[str]], list[str]], tuple[float, Sequence[float]]]
_EXTRA_SCORERS: dict[str, Scorer] = {}
_ORDER = ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "METEOR", "ROUGE_L", "CIDEr", "SPICE")


def register_scorer(name: str, scorer: Scorer) -> None:
    """Hook for the other COCO metrics (``"METEOR"``, ``"ROUGE_L"``)."""
    _EXTRA_SCORERS[name] = scorer


def ptb_tokenize(captions: Sequence[str], *, drop_punctuation: bool = True, n_threads: int = 0) -> list[str]:
    """pycocoevalcap's PTBTokenizer on captions in file order (see ``tokenize/ptb.rs``).

    Each caption is tokenized as Stanford CoreNLP 3.4.1 ``PTBTokenizer -preserveLines
    -lowerCase`` tokenizes it inside the joined file (the start of the next caption can
    decide whether an abbreviation ends a sentence), then pycocoevalcap's punctuation
    tokens are removed (``-lrb-``/``-rrb-`` stay, as in pycocoevalcap).

    >>> ptb_tokenize(["It's 3.5 km -- (far) away..."])
    ["it 's 3.5 km -lrb- far -rrb- away"]
    """
    n_threads = n_threads_value(n_threads)
    caps = [c if isinstance(c, str) else _bad_caption(c) for c in captions]
    try:
        return list(_core.ptb_tokenize([c.replace("\n", " ") for c in caps], drop_punctuation, n_threads))
    except UnicodeEncodeError as e:
        # A lone surrogate cannot be written as UTF-8 (pycocoevalcap fails on it too).
        raise InvalidTextError(f"captions must be valid Unicode text: {e.reason} at {e.start}") from None


def _bad_caption(c: Any) -> str:
    raise InputTypeError(f"captions must be strings, got {type(c).__name__}")


# -- readers ----------------------------------------------------------------------
def _read_json(path: str | os.PathLike) -> Any:
    try:
        with open(path, "rb") as fh:
            return json.loads(fh.read().decode("utf-8"))
    except UnicodeDecodeError as e:
        raise InvalidInputError(f"{path}: not UTF-8 ({e.reason} at byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise InvalidInputError(f"{path}: invalid JSON ({e.msg}, line {e.lineno})") from None


def _caption(x: Any, where: str) -> str:
    if not isinstance(x, str):
        raise InputTypeError(f"{where}: caption must be a string, got {type(x).__name__}")
    try:
        x.encode("utf-8")
    except UnicodeEncodeError as e:  # a \ud800 escape in the JSON: no text to tokenize
        raise InvalidTextError(f"{where}: the caption is not valid Unicode (a lone surrogate {ascii(x[e.start])} at character {e.start})") from None
    return x


def load_annotations(source: str | os.PathLike | dict) -> dict[Any, list[str]]:
    """``{image_id: [reference captions]}`` in pycocotools' image order."""
    if isinstance(source, dict):
        data, name = source, "annotations"
    elif str(source).endswith(".jsonl"):
        return _load_references_jsonl(source)
    else:
        data, name = _read_json(source), str(source)
    if not isinstance(data, dict) or not isinstance(data.get("annotations"), list):
        raise InvalidInputError(f"{name}: expected COCO annotations ({{'images': [...], 'annotations': [...]}})")
    refs: dict[Any, list[str]] = {}
    if isinstance(data.get("images"), list):
        for img in data["images"]:
            if isinstance(img, dict) and "id" in img:
                refs.setdefault(img["id"], [])
    for i, ann in enumerate(data["annotations"]):
        if not isinstance(ann, dict) or "image_id" not in ann or "caption" not in ann:
            raise InvalidInputError(f"{name}: annotations[{i}] needs 'image_id' and 'caption'")
        refs.setdefault(ann["image_id"], []).append(_caption(ann["caption"], f"{name}: annotations[{i}]"))
    return refs


def _load_references_jsonl(path: str | os.PathLike) -> dict[Any, list[str]]:
    refs: dict[Any, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as e:
                raise InvalidInputError(f"{path}:{n}: invalid JSON ({e.msg})") from None
            key = row.get("image_id", row.get("image_name"))
            if key is None or not isinstance(row.get("references"), list):
                raise InvalidInputError(f"{path}:{n}: expected 'image_id' or 'image_name' and a 'references' list")
            refs.setdefault(key, []).extend(_caption(r, f"{path}:{n}") for r in row["references"])
    return refs


def load_results(source: str | os.PathLike | list) -> dict[Any, str]:
    """``{image_id: caption}`` from a COCO results JSON list or an ``image<TAB>caption`` TSV."""
    if isinstance(source, list):
        data, name = source, "results"
    elif str(source).endswith((".tsv", ".txt")):
        return _load_results_tsv(source)
    else:
        data, name = _read_json(source), str(source)
    if not isinstance(data, list):
        raise InvalidInputError(f"{name}: expected a list of {{'image_id', 'caption'}}")
    out: dict[Any, str] = {}
    for i, r in enumerate(data):
        if not isinstance(r, dict) or "image_id" not in r or "caption" not in r:
            raise InvalidInputError(f"{name}[{i}] needs 'image_id' and 'caption'")
        if r["image_id"] in out:
            raise InvalidInputError(f"{name}: image {r['image_id']!r} has more than one result caption")
        out[r["image_id"]] = _caption(r["caption"], f"{name}[{i}]")
    return out


def _load_results_tsv(path: str | os.PathLike) -> dict[Any, str]:
    out: dict[Any, str] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        for n, line in enumerate(fh, 1):
            line = line.rstrip("\n").rstrip("\r")
            if not line:
                continue
            key, sep, cap = line.partition("\t")
            if not sep:
                raise InvalidInputError(f"{path}:{n}: expected image<TAB>caption")
            if key in out:
                raise InvalidInputError(f"{path}: image {key!r} has more than one result caption")
            out[key] = cap
    return out


# -- evaluation -------------------------------------------------------------------
@dataclass
class CocoEval:
    """COCOEvalCap's outputs: ``eval`` (corpus values) and ``img_to_eval`` (per image)."""

    image_ids: list[Any]
    eval: dict[str, float]
    per_image: dict[str, np.ndarray]
    bleu_stats: dict[str, Any] = field(default_factory=dict)

    @property
    def img_to_eval(self) -> dict[Any, dict[str, Any]]:
        out: dict[Any, dict[str, Any]] = {}
        for i, img in enumerate(self.image_ids):
            out[img] = {"image_id": img, **{m: float(v[i]) for m, v in self.per_image.items()}}
        return out


def align(annotations: dict[Any, list[str]], results: dict[Any, str]) -> tuple[list[Any], list[str], list[list[str]]]:
    """Images with a result, in annotation order; their results and references.

    A TSV's image ids are text: ``"42"`` finds the annotations' image ``42`` (COCO's ids
    are integers) when no annotation id is the text itself and no two ids print alike."""
    if any(isinstance(k, str) and k not in annotations for k in results):
        by_text: dict[str, Any] = {}
        clash = set()
        for k in annotations:
            text = str(k)
            if text in by_text and by_text[text] != k:
                clash.add(text)
            by_text[text] = k
        rekeyed: dict[Any, str] = {}
        for k, caption in results.items():
            if isinstance(k, str) and k not in annotations and k in by_text and k not in clash:
                k = by_text[k]
            if k in rekeyed:
                raise InvalidInputError(f"image {k!r} has more than one result caption")
            rekeyed[k] = caption
        results = rekeyed
    missing = [k for k in results if k not in annotations]
    if missing:
        warnings.warn(f"{len(missing)} result image(s) have no annotations and are ignored (e.g. {missing[0]!r})", stacklevel=3)
    ids = [k for k in annotations if k in results]
    if not ids:
        raise InvalidInputError("no result caption belongs to an annotated image")
    for k in ids:
        if not annotations[k]:
            raise MissingReferenceError(f"image {k!r} has no reference caption")
    return ids, [results[k] for k in ids], [annotations[k] for k in ids]


def evaluate(annotations: Any, results: Any, *, n_threads: int = 0) -> CocoEval:
    """COCOEvalCap on native scorers; ``annotations``/``results`` are paths or loaded data."""
    n_threads = n_threads_value(n_threads)
    ann = annotations if isinstance(annotations, dict) and "annotations" not in annotations else load_annotations(annotations)
    res = results if isinstance(results, dict) else load_results(results)
    ids, preds, refs = align(ann, res)
    flat = ptb_tokenize([r for rs in refs for r in rs], n_threads=n_threads)
    refs_tok, k = [], 0
    for rs in refs:
        refs_tok.append(flat[k : k + len(rs)])
        k += len(rs)
    preds_tok = ptb_tokenize(preds, n_threads=n_threads)

    values: dict[str, float] = {}
    per_image: dict[str, np.ndarray] = {}
    bleu = CocoBLEU(tokenize="none", n_threads=n_threads)
    seg = bleu.stats(preds_tok, refs_tok)
    total = bleu.score_stats(seg.total())
    per = _core.bleu_coco_scores(seg.counts, 4)
    for j in range(4):
        values[f"Bleu_{j + 1}"] = total.bleus[j]
        per_image[f"Bleu_{j + 1}"] = per[:, j].copy()
    for name, scorer in _EXTRA_SCORERS.items():
        try:
            v, p = scorer(refs_tok, preds_tok)
        except MissingExtraError as e:
            warnings.warn(f"{name} skipped: {e}", stacklevel=2)
            continue
        values[name], per_image[name] = float(v), np.asarray(p, dtype=np.float64)
    cider = CIDEr(tokenize="none", n_threads=n_threads)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        cider_seg = cider.stats(preds_tok, refs_tok)
    values["CIDEr"] = cider.score_stats(cider_seg.total()).score  # pycocoevalcap's np.mean, bit for bit
    per_image["CIDEr"] = cider_seg.sums[:, 0].copy()
    order = {m: i for i, m in enumerate(_ORDER)}
    keys = sorted(values, key=lambda m: order.get(m, len(order)))
    stats = {"testlen": total.testlen, "reflen": total.reflen, "guess": total.guess, "correct": total.correct}
    return CocoEval(ids, {m: values[m] for m in keys}, {m: per_image[m] for m in keys}, stats)


def _meteor(refs_tok: list[list[str]], preds_tok: list[str]) -> tuple[float, Sequence[float]]:
    from ..metrics.meteor import METEOR

    metric = METEOR(tokenize="none")  # already PTB-tokenized above
    seg = metric.stats(preds_tok, refs_tok)
    return metric.score_stats(seg).score, metric._sentence_scores(seg)


def _rouge_l(refs_tok: list[list[str]], preds_tok: list[str]) -> tuple[float, Sequence[float]]:
    from ..metrics.rouge import ROUGE

    metric = ROUGE(flavour="coco", tokenize="none")
    seg = metric.stats(preds_tok, refs_tok)
    return metric.score_stats(seg.total()).score, seg.sums[:, 2].copy()


register_scorer("METEOR", _meteor)
register_scorer("ROUGE_L", _rouge_l)
