"""BERTScore defaults: the model per language, the layer per model, baseline files.

The layers are the ones bert_score 0.3.13 tuned on WMT16 (its ``model2layers``), for the
models most used; any other model needs an explicit ``layer=`` (the tests check every
entry here against bert_score's table). Baseline files are read from the installed
``bert_score`` package (``rescale_baseline/<lang>/<model>.tsv``) or from ``baseline_path``;
they are comma-separated with a header ``LAYER,P,R,F`` and one row per layer.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from ..errors import InvalidOptionError, MissingExtraError

LANG_MODELS = {
    "en": "roberta-large",
    "zh": "bert-base-chinese",
    "tr": "dbmdz/bert-base-turkish-cased",
    "en-sci": "allenai/scibert_scivocab_uncased",
}
MULTILINGUAL_MODEL = "bert-base-multilingual-cased"

DEFAULT_LAYERS = {
    "bert-base-uncased": 9,
    "bert-large-uncased": 18,
    "bert-base-cased-finetuned-mrpc": 9,
    "bert-base-multilingual-cased": 9,
    "bert-base-chinese": 8,
    "roberta-base": 10,
    "roberta-large": 17,
    "roberta-large-mnli": 19,
    "xlnet-base-cased": 5,
    "xlnet-large-cased": 7,
    "xlm-mlm-en-2048": 6,
    "xlm-mlm-100-1280": 10,
    "allenai/scibert_scivocab_uncased": 8,
    "distilroberta-base": 5,
    "distilbert-base-uncased": 5,
    "distilbert-base-uncased-distilled-squad": 4,
    "distilbert-base-multilingual-cased": 5,
    "albert-base-v1": 10,
    "albert-large-v1": 17,
    "albert-xlarge-v1": 16,
    "albert-xxlarge-v1": 8,
    "albert-base-v2": 9,
    "albert-large-v2": 14,
    "albert-xlarge-v2": 13,
    "albert-xxlarge-v2": 8,
    "xlm-roberta-base": 9,
    "xlm-roberta-large": 17,
    "microsoft/deberta-base": 9,
    "microsoft/deberta-base-mnli": 9,
    "microsoft/deberta-large": 16,
    "microsoft/deberta-large-mnli": 18,
    "microsoft/deberta-xlarge": 18,
    "microsoft/deberta-xlarge-mnli": 40,
    "dbmdz/bert-base-turkish-cased": 10,
    "facebook/bart-large": 10,
    "t5-base": 11,
}


def model_for_lang(lang: str) -> str:
    return LANG_MODELS.get(lang.lower(), MULTILINGUAL_MODEL)


def default_layer(model: str) -> int:
    try:
        return DEFAULT_LAYERS[model]
    except KeyError:
        raise InvalidOptionError(
            f"no default BERTScore layer for {model!r}; pass layer= (the number of layers to keep)"
        ) from None


def bert_score_baseline_file(lang: str, model: str) -> Path:
    """The baseline file bert_score ships for ``model`` in ``lang`` (without importing it)."""
    spec = importlib.util.find_spec("bert_score")
    if spec is None or not spec.submodule_search_locations:
        raise MissingExtraError(
            "baseline rescaling reads bert_score's baseline files: pip install 'nlgmetrics[neural]' "
            "(or pass baseline_path=)"
        )
    root = Path(next(iter(spec.submodule_search_locations)))
    return root / "rescale_baseline" / lang / f"{model}.tsv"


def read_baseline(path: str | os.PathLike, layer: int) -> tuple[float, float, float]:
    """``(b_P, b_R, b_F)`` of data row ``layer`` (the row index, as bert_score reads it)."""
    try:
        lines = [ln.strip() for ln in Path(path).read_text(encoding="utf-8").splitlines() if ln.strip()]
    except OSError:
        raise InvalidOptionError(f"baseline file {str(path)!r} not found") from None
    except UnicodeDecodeError:
        raise InvalidOptionError(f"baseline file {str(path)!r} is not UTF-8 text (LAYER,P,R,F rows)") from None
    header = [h.strip() for h in lines[0].split(",")] if lines else []
    if header[1:] != ["P", "R", "F"]:
        raise InvalidOptionError(f"baseline file {str(path)!r} must start with the header LAYER,P,R,F")
    rows = lines[1:]
    if not 0 <= layer < len(rows):
        raise InvalidOptionError(f"baseline file {str(path)!r} has no row for layer {layer} ({len(rows)} rows)")
    fields = rows[layer].split(",")
    try:
        return float(fields[1]), float(fields[2]), float(fields[3])
    except (IndexError, ValueError):
        raise InvalidOptionError(f"baseline file {str(path)!r}: row {layer} is not LAYER,P,R,F numbers") from None
