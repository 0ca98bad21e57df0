"""``jiwer.transformations``: the named transform chains."""

from __future__ import annotations

from . import transforms as tr

__all__ = ["wer_default", "wer_contiguous", "wer_standardize", "wer_standardize_contiguous", "cer_default", "cer_contiguous"]

wer_default = tr.Compose([tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToListOfListOfWords()])
wer_contiguous = tr.Compose([tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToSingleSentence(), tr.ReduceToListOfListOfWords()])
_STANDARDIZE = [tr.ToLowerCase(), tr.ExpandCommonEnglishContractions(), tr.RemoveKaldiNonWords(), tr.RemoveWhiteSpace(replace_by_space=True), tr.RemoveMultipleSpaces(), tr.Strip()]
wer_standardize = tr.Compose([*_STANDARDIZE, tr.ReduceToListOfListOfWords()])
wer_standardize_contiguous = tr.Compose([*_STANDARDIZE, tr.ReduceToSingleSentence(), tr.ReduceToListOfListOfWords()])
cer_default = tr.Compose([tr.Strip(), tr.ReduceToListOfListOfChars()])
cer_contiguous = tr.Compose([tr.Strip(), tr.ReduceToSingleSentence(), tr.ReduceToListOfListOfChars()])
