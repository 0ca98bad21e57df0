"""spBLEU tokenizers: ``tokenize="flores101"`` / ``"flores200"`` as sacrebleu 2.6.0's
``TokenizerSPM`` (``" ".join(sp.EncodeAsPieces(line))`` with the FLORES SentencePiece
model). The model is read from ``spm_model=PATH`` or from sacrebleu's cache,
``$SACREBLEU/models/`` (default ``~/.sacrebleu/models/``): ``sacrebleu_tokenizer_spm.model``
for flores101, ``flores200sacrebleuspm`` for flores200 (the names sacrebleu saves its
downloads under). Nothing is downloaded: a missing model is a
:class:`~nlgmetrics.errors.MissingExtraError` naming the file and where it was looked for.
Needs ``sentencepiece``.
"""

from __future__ import annotations

import os
from functools import lru_cache

from .errors import InvalidOptionError, MissingExtraError

SPM_TOKENIZERS = ("flores101", "flores200")
# sacrebleu 2.6.0 tokenizer_spm.SPM_MODELS: the basename of each model's URL
MODEL_FILES = {"flores101": "sacrebleu_tokenizer_spm.model", "flores200": "flores200sacrebleuspm"}
URLS = {
    "flores101": "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
    "flores200": "https://tinyurl.com/flores200sacrebleuspm",
}


def sacrebleu_models_dir() -> str:
    """sacrebleu's model cache: ``$SACREBLEU/models`` (``~/.sacrebleu/models``)."""
    return os.path.join(os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu")), "models")


def model_path(name: str, spm_model: str | os.PathLike | None = None) -> str:
    if name not in SPM_TOKENIZERS:
        raise InvalidOptionError(f"unknown SentencePiece tokenizer {name!r}; known: {', '.join(SPM_TOKENIZERS)}")
    if spm_model is not None:
        path = os.fspath(spm_model)
        if not os.path.isfile(path):
            raise MissingExtraError(f"tokenize={name!r}: the SentencePiece model {path!r} (spm_model) does not exist")
        return path
    path = os.path.join(sacrebleu_models_dir(), MODEL_FILES[name])
    if not os.path.isfile(path):
        raise MissingExtraError(
            f"tokenize={name!r} needs the SentencePiece model {MODEL_FILES[name]!r}, looked for at {path} "
            f"(sacrebleu's cache, $SACREBLEU/models); nothing is downloaded: pass spm_model=PATH, or fetch {URLS[name]} "
            f"to that path (sacrebleu does so on its first use of tokenize={name!r})"
        )
    return path


@lru_cache(maxsize=8)
def _processor(path: str, mtime: float):
    try:
        import sentencepiece as spm
    except ImportError:
        raise MissingExtraError("tokenize='flores101'/'flores200' needs sentencepiece: pip install sentencepiece") from None
    sp = spm.SentencePieceProcessor()
    try:
        sp.Load(path)
    except (OSError, RuntimeError) as e:
        raise InvalidOptionError(f"{path!r} is not a SentencePiece model: {e}") from None
    return sp


def spm_pretokenizer(name: str, spm_model: str | os.PathLike | None = None):
    """``line -> " ".join(pieces)`` with the model of ``name``."""
    path = model_path(name, spm_model)
    sp = _processor(path, os.path.getmtime(path))
    encode = sp.EncodeAsPieces
    return lambda line: " ".join(encode(line))
