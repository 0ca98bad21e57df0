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

import hashlib
import os
from typing import Any

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


# processors by the hash of their model's bytes, the last few: a model replaced in place,
# with its time kept (``cp -p``) or behind a symbolic link is read again, as sacrebleu's
# ``TokenizerSPM`` reads the file it is given
_PROCESSORS: dict[str, Any] = {}
_KEEP = 8


def _load(path: str, model: bytes):
    try:
        import sentencepiece as spm
    except ImportError:
        raise MissingExtraError("tokenize='flores101'/'flores200' needs sentencepiece: pip install sentencepiece") from None
    sp = spm.SentencePieceProcessor()
    try:
        sp.LoadFromSerializedProto(model)
    except (OSError, RuntimeError, TypeError) as e:
        raise InvalidOptionError(f"{path!r} is not a SentencePiece model: {e}") from None
    return sp


def model_processor(path: str):
    """The SentencePiece processor of the model file's content now."""
    with open(path, "rb") as fh:
        model = fh.read()  # hashed and loaded from these very bytes: nothing changes in between
    digest = hashlib.blake2b(model, digest_size=32).hexdigest()
    sp = _PROCESSORS.get(digest)
    if sp is None:
        sp = _load(path, model)
        while len(_PROCESSORS) >= _KEEP:
            _PROCESSORS.pop(next(iter(_PROCESSORS)), None)
        _PROCESSORS[digest] = sp
    return sp


def spm_pretokenizer(name: str, spm_model: str | os.PathLike | None = None):
    """``line -> " ".join(pieces)`` with the model of ``name`` (the file's content now)."""
    path = model_path(name, spm_model)
    encode = model_processor(path).EncodeAsPieces
    return lambda line: " ".join(encode(line))
