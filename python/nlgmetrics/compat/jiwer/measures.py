"""``jiwer.measures``: ``wer``, ``mer``, ``wip``, ``wil``, ``cer`` (reference first, as jiwer).

With the stock chains (``wer_default``, ``cer_default``: jiwer's defaults) the counts come
straight from the core, which runs those chains itself: a measure costs what
``nlgmetrics.wer`` costs. Any other transform goes through :func:`.process.process_words`.
"""

from __future__ import annotations

from .process import measures, process_characters, process_words, stock_counts
from .transformations import cer_default, wer_default

__all__ = ["wer", "mer", "wip", "wil", "cer"]

_WER, _MER, _WIL, _WIP = range(4)


def _word_measure(which, reference, hypothesis, reference_transform, hypothesis_transform):
    if reference_transform is wer_default and hypothesis_transform is wer_default:
        counts = stock_counts(reference, hypothesis, char=False)
        if counts is not None:
            return measures(*counts)[which]
    out = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
    return (out.wer, out.mer, out.wil, out.wip)[which]


def wer(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    return _word_measure(_WER, reference, hypothesis, reference_transform, hypothesis_transform)


def mer(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    return _word_measure(_MER, reference, hypothesis, reference_transform, hypothesis_transform)


def wip(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    return _word_measure(_WIP, reference, hypothesis, reference_transform, hypothesis_transform)


def wil(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    return _word_measure(_WIL, reference, hypothesis, reference_transform, hypothesis_transform)


def cer(reference=None, hypothesis=None, reference_transform=cer_default, hypothesis_transform=cer_default):
    if reference_transform is cer_default and hypothesis_transform is cer_default:
        counts = stock_counts(reference, hypothesis, char=True)
        if counts is not None:
            return measures(*counts)[_WER]
    return process_characters(reference, hypothesis, reference_transform, hypothesis_transform).cer
