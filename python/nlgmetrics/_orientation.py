"""Argument orientation of the one-call functions (``nlgmetrics.wer``, ``rouge``, ``bleu``...).

nlgmetrics' functions take ``(predictions, references)``. Several reference programs take
the references first: jiwer's ``wer(reference, hypothesis)``, rouge-score's
``score(target, prediction)``, nltk's ``corpus_bleu(list_of_references, hypotheses)``,
pycocoevalcap's ``compute_score(gts, res)``. A call ported from them with its arguments
in their order still runs and silently scores the texts the other way round (WER
normalises by the *reference* length, so the number changes).

So that the orientation is always explicit:

- every function also takes the reference program's keyword names (``reference=`` /
  ``hypothesis=``, their plurals, jiwer 2's ``truth=``, rouge-score's ``target=`` /
  ``prediction=``, nltk's ``list_of_references=``...), mapped to ``predictions`` /
  ``references``; naming one side twice, or naming one side by keyword while passing two
  positional arguments, is a :class:`~nlgmetrics.errors.UnknownOptionError` (a
  ``TypeError``), never a guess;
- a call with both texts positional, to a function whose reference program (for the
  flavour asked for) puts the references first, warns :class:`ArgumentOrderWarning` (once
  per call site, Python's default filter): the call means ``(predictions, references)``;
  pass them by keyword to say so and silence it.
"""

from __future__ import annotations

import functools
import warnings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Callable

from .errors import UnknownOptionError

PREDICTION_NAMES = ("predictions", "prediction", "hypotheses", "hypothesis", "hyps", "hyp", "candidates", "candidate")
REFERENCE_NAMES = ("references", "reference", "refs", "ref", "truth", "target", "targets", "list_of_references")


class ArgumentOrderWarning(UserWarning):
    """Both texts passed positionally to a function whose reference program takes the
    references first: nlgmetrics reads them as ``(predictions, references)``."""


def _pick(kwargs: dict[str, Any], names: tuple[str, ...], side: str, fn: str) -> tuple[bool, Any]:
    given = [n for n in names if n in kwargs]
    if len(given) > 1:
        raise UnknownOptionError(f"{fn}() got the {side} twice ({', '.join(n + '=' for n in given)}); pass one")
    if not given:
        return False, None
    return True, kwargs.pop(given[0])


def oriented(anchor: str, refs_first: Callable[[dict[str, Any]], bool]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Wrap ``fn(predictions, references, **options)``: accept the anchors' keyword names and
    warn on a positional call when ``refs_first(options)`` says the anchor (``anchor``, for
    the message) orders its arguments the other way."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        name = fn.__name__

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if len(args) > 2:
                raise UnknownOptionError(f"{name}() takes predictions and references (options by keyword), got {len(args)} positional arguments")
            has_p, preds = _pick(kwargs, PREDICTION_NAMES, "predictions", name)
            has_r, refs = _pick(kwargs, REFERENCE_NAMES, "references", name)
            if len(args) == 2:
                if has_p or has_r:
                    raise UnknownOptionError(
                        f"{name}() got two positional texts and {'predictions' if has_p else 'references'} by keyword: "
                        "pass both by keyword (predictions=..., references=...)"
                    )
                if refs_first(kwargs):
                    warnings.warn(
                        f"{name}(a, b) reads a as the predictions and b as the references; {anchor} takes the "
                        f"references first. Pass predictions=..., references=... to make the order explicit",
                        ArgumentOrderWarning,
                        stacklevel=2,
                    )
                preds, refs = args
            elif len(args) == 1:
                if has_p and has_r:
                    raise UnknownOptionError(f"{name}() got a positional text besides predictions= and references=")
                if has_p:
                    raise UnknownOptionError(
                        f"{name}() got one positional text and the predictions by keyword: which side is the positional "
                        "one is ambiguous (jiwer and rouge-score put the references first); pass both by keyword"
                    )
                preds = args[0]
                if not has_r:
                    raise UnknownOptionError(f"{name}() missing the references (references=...)")
            else:
                if not (has_p and has_r):
                    raise UnknownOptionError(f"{name}() needs predictions=... and references=...")
            return fn(preds, refs, **kwargs)

        # (inspect.signature follows functools.wraps' __wrapped__ to fn's own signature)
        wrapper.__wrapped_orientation__ = anchor  # type: ignore[attr-defined]
        return wrapper

    return deco


def always(options: dict[str, Any]) -> bool:
    return True


def flavour_in(default: str, *flavours: str) -> Callable[[dict[str, Any]], bool]:
    """References first when the flavour asked for (``default`` if none) is one of ``flavours``."""

    def check(options: dict[str, Any]) -> bool:
        return str(options.get("flavour", default)) in flavours

    return check


def never(options: dict[str, Any]) -> bool:
    return False
