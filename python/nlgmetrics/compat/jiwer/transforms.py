"""``jiwer.transforms``: jiwer 4's text transforms (a string or a list of strings in, the
same shape out, until a ``ReduceToListOf...`` turns sentences into token lists)."""

from __future__ import annotations

import functools
import re
import string
import sys
import unicodedata
from typing import Iterable, List, Mapping, Union

__all__ = [
    "AbstractTransform", "Compose", "ExpandCommonEnglishContractions", "RemoveEmptyStrings", "ReduceToListOfListOfWords",
    "ReduceToListOfListOfChars", "ReduceToSingleSentence", "RemoveKaldiNonWords", "RemoveMultipleSpaces",
    "RemovePunctuation", "RemoveSpecificWords", "RemoveWhiteSpace", "Strip", "SubstituteRegexes", "SubstituteWords",
    "ToLowerCase", "ToUpperCase",
]  # fmt: skip


class AbstractTransform:
    def __call__(self, sentences: Union[str, List[str]]):
        if isinstance(sentences, str):
            return self.process_string(sentences)
        if isinstance(sentences, list):
            return self.process_list(sentences)
        raise ValueError(f"input {sentences} was expected to be a string or list of strings")

    def process_string(self, s: str):
        raise NotImplementedError()

    def process_list(self, inp: List[str]):
        return [self.process_string(s) for s in inp]


class Compose:
    """Apply transforms in order."""

    def __init__(self, transforms: List[AbstractTransform]):
        self.transforms = transforms

    def __call__(self, text):
        for transform in self.transforms:
            text = transform(text)
        return text


class BaseRemoveTransform(AbstractTransform):
    def __init__(self, tokens_to_remove: Iterable[str], replace_token: str = ""):
        self.tokens_to_remove = tokens_to_remove
        self.replace_token = replace_token

    def process_string(self, s: str):
        for token in self.tokens_to_remove:
            s = s.replace(token, self.replace_token)
        return s


class ReduceToListOfListOfWords(AbstractTransform):
    def __init__(self, word_delimiter: str = " "):
        self.word_delimiter = word_delimiter

    def process_string(self, s: str):
        return [[w for w in s.split(self.word_delimiter) if len(w) >= 1]]

    def process_list(self, inp: List[str]):
        out = [self.process_string(s)[0] for s in inp]
        return out if out else [[]]


class ReduceToListOfListOfChars(AbstractTransform):
    def process_string(self, s: str):
        return [list(s)]

    def process_list(self, inp: List[str]):
        out = [list(s) for s in inp]
        return out if out else [[]]


class ReduceToSingleSentence(AbstractTransform):
    def __init__(self, word_delimiter: str = " "):
        self.word_delimiter = word_delimiter

    def process_string(self, s: str):
        return s

    def process_list(self, inp: List[str]):
        kept = [s for s in inp if len(s) >= 1]
        return [self.word_delimiter.join(kept)] if kept else []


class SubstituteRegexes(AbstractTransform):
    def __init__(self, substitutions: Mapping[str, str]):
        self.substitutions = substitutions

    def process_string(self, s: str):
        for pattern, value in self.substitutions.items():
            s = re.sub(pattern, value, s)
        return s


class SubstituteWords(AbstractTransform):
    def __init__(self, substitutions: Mapping[str, str]):
        self.substitutions = substitutions

    def process_string(self, s: str):
        for word, value in self.substitutions.items():
            s = re.sub(rf"\b{re.escape(word)}\b", value, s)
        return s


class RemoveSpecificWords(SubstituteWords):
    def __init__(self, words_to_remove: List[str]):
        super().__init__({word: " " for word in words_to_remove})


class RemoveWhiteSpace(BaseRemoveTransform):
    def __init__(self, replace_by_space: bool = False):
        super().__init__(list(string.whitespace), replace_token=" " if replace_by_space else "")


@functools.lru_cache(1)
def _punctuation() -> frozenset:
    return frozenset(c for c in map(chr, range(sys.maxunicode + 1)) if unicodedata.category(c).startswith("P"))


class RemovePunctuation(BaseRemoveTransform):
    """Every character of a Unicode punctuation category (P*)."""

    def __init__(self):
        super().__init__(_punctuation())

    def process_string(self, s: str):
        punct = self.tokens_to_remove
        return "".join(c for c in s if c not in punct)


class RemoveMultipleSpaces(AbstractTransform):
    def process_string(self, s: str):
        return re.sub(r"\s\s+", " ", s)


class Strip(AbstractTransform):
    def process_string(self, s: str):
        return s.strip()


class RemoveEmptyStrings(AbstractTransform):
    def process_string(self, s: str):
        return s.strip()

    def process_list(self, inp: List[str]):
        return [s for s in inp if s.strip() != ""]


_CONTRACTIONS = (
    (r"won't", "will not"), (r"can\'t", "can not"), (r"let\'s", "let us"), (r"n\'t", " not"), (r"\'re", " are"),
    (r"\'s", " is"), (r"\'d", " would"), (r"\'ll", " will"), (r"\'t", " not"), (r"\'ve", " have"), (r"\'m", " am"),
)  # fmt: skip


class ExpandCommonEnglishContractions(AbstractTransform):
    def process_string(self, s: str):
        for pattern, value in _CONTRACTIONS:
            s = re.sub(pattern, value, s)
        return s


class ToLowerCase(AbstractTransform):
    def process_string(self, s: str):
        return s.lower()


class ToUpperCase(AbstractTransform):
    def process_string(self, s: str):
        return s.upper()


class RemoveKaldiNonWords(AbstractTransform):
    def process_string(self, s: str):
        return re.sub(r"[<\[][^>\]]*[>\]]", "", s)
