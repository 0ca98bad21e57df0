"""``jiwer.measures``: ``wer``, ``mer``, ``wip``, ``wil``, ``cer`` (reference first, as jiwer)."""

from __future__ import annotations

from .process import process_characters, process_words
from .transformations import cer_default, wer_default

__all__ = ["wer", "mer", "wip", "wil", "cer"]


def wer(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    return process_words(reference, hypothesis, reference_transform, hypothesis_transform).wer


def mer(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    return process_words(reference, hypothesis, reference_transform, hypothesis_transform).mer


def wip(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    return process_words(reference, hypothesis, reference_transform, hypothesis_transform).wip


def wil(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    return process_words(reference, hypothesis, reference_transform, hypothesis_transform).wil


def cer(reference=None, hypothesis=None, reference_transform=cer_default, hypothesis_transform=cer_default):
    return process_characters(reference, hypothesis, reference_transform, hypothesis_transform).cer
