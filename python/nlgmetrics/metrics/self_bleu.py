"""Self-BLEU (Zhu, Lu, Zheng, Guo, Zhang, Wang, Yu. Texygen: A Benchmarking Platform for
Text Generation Models. SIGIR 2018; ``utils/metrics/SelfBleu.py``): how similar generated
texts are to each other (higher = less diverse). Reference-free.

Texygen's conventions, each named in the signature:

- each sentence ``i`` is the hypothesis of nltk ``sentence_bleu`` with the *other*
  sentences as references (``exclude_self=True``, Texygen's default ``get_bleu_parallel``
  path). ``exclude_self=False`` keeps the sentence among its own references, as Texygen's
  serial ``get_bleu`` does (every non-empty sentence then scores 1);
- ``weights = (1/n,)*n`` with ``n = 3`` by default (papers report n = 2..5);
- ``SmoothingFunction().method1`` (epsilon 0.1), any nltk method selectable;
- only the **first** ``sample_size = 500`` sentences are used, both as hypotheses and as
  the reference pool (``get_score(is_fast=True)``); ``sample_size=None`` uses all;
- the score is the running sum of the sentence scores divided by their number.

Texygen tokenizes with ``nltk.word_tokenize`` (needs the punkt model); here the tokenizer
is named (``none`` = ``str.split()``; ``char``, ``unicode``, ``zh``, ``jieba``, ``ja-mecab``,
``ko-mecab`` for Chinese, Japanese and Korean) or the input is pre-tokenized (token
lists). Whitespace-like tokenizers warn on unsegmented Chinese/Japanese text
(:class:`~nlgmetrics.script_check.TokenizationWarning`).

Every sentence against all others is O(N²·L) in Texygen; here each n-gram keeps its two
largest counts and their owner, so "max count over the others" is O(1) and the whole
score is O(N·L).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .. import _core, script_check
from .. import tokenizers as _tok
from .._inputs import as_sequence, as_texts, check_all_text
from .._resources import n_threads_value
from ..errors import InputTypeError, InvalidOptionError
from ..signature import Signature
from .base import Score, check_options
from .bleu_nltk import _fmt, _method_number, _token_list

TAIL_WIDTH = 3


class SelfBLEU:
    """Self-BLEU; see the module docstring.

    >>> from nlgmetrics import SelfBLEU
    >>> round(SelfBLEU(n=2).corpus_score(["the cat sat", "the cat ran", "a dog ran"]).score, 6)
    0.471185
    """

    name = "self-BLEU"

    def __new__(cls, *args: Any, **options: Any):
        if args or options:
            check_options(cls, args, options)
        return super().__new__(cls)

    def __init__(
        self,
        n: int = 3,
        *,
        smoothing: Any = "method1",
        sample_size: int | None = 500,
        exclude_self: bool = True,
        tokenize: str = "none",
        lowercase: bool = False,
        epsilon: float = 0.1,
        alpha: float = 5,
        k: float = 5,
        n_threads: int = 0,
    ):
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 64:
            raise InvalidOptionError(f"n must be an integer in 1..64, got {n!r}")
        if sample_size is not None and (isinstance(sample_size, bool) or not isinstance(sample_size, int) or sample_size < 2):
            raise InvalidOptionError(f"sample_size must be an integer >= 2 or None, got {sample_size!r}")
        if tokenize not in _tok.TOKENIZERS:
            raise InvalidOptionError(f"unknown tokenizer {tokenize!r}; known: {', '.join(_tok.TOKENIZERS)}")
        n_threads = n_threads_value(n_threads)
        self.n = n
        self.method = _method_number(smoothing)
        if self.method == 6 and n < 3:
            raise InvalidOptionError("smoothing method6 needs n >= 3 (nltk raises IndexError)")
        self.sample_size = sample_size
        self.exclude_self = bool(exclude_self)
        self.tokenize = tokenize
        self._tok_signature = _tok.signature_name(tokenize)
        self.lowercase = bool(lowercase)
        for name, value in (("epsilon", epsilon), ("alpha", alpha), ("k", k)):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidOptionError(f"{name} must be a number, got {value!r}")
            if isinstance(value, int) and not -(2**63) <= value < 2**63:
                # an int keeps method6 exact in the core's 64-bit arithmetic; nltk's Fractions go further
                raise InvalidOptionError(f"{name} as an integer must fit in 64 bits, got {value!r}; pass a float")
        if not 0 <= epsilon <= 1:  # method1 adds epsilon to a zero count: above 1 a precision exceeds 1
            raise InvalidOptionError(f"epsilon must be in [0, 1], got {epsilon!r}")
        self.epsilon, self.alpha, self.k = epsilon, alpha, k
        self.n_threads = n_threads
        # Texygen: ``tuple((1. / ngram for _ in range(ngram)))``.
        self.weights = [tuple(1.0 / n for _ in range(n))]
        _core.nltk_bleu_score(np.zeros(2 + 2 * n + TAIL_WIDTH, np.uint64), *self._core_options())

    def _core_options(self) -> tuple:
        return (self.n, self.weights, [False], self.method, float(self.epsilon), self.alpha, float(self.k), False)

    def signature(self) -> Signature:
        smooth = f"method{self.method}"
        if self.method == 1:
            smooth += f"[eps={_fmt(self.epsilon)}]"
        elif self.method in (4, 7):
            smooth += f"[k={_fmt(self.k)}]"
        elif self.method == 6:
            smooth += f"[alpha={self.alpha!r}]"
        items = {
            "n": self.n,
            "smooth": smooth,
            "sample": self.sample_size if self.sample_size is not None else "all",
            "self": "excluded" if self.exclude_self else "included",
            "tok": self._tok_signature,
            "case": "lc" if self.lowercase else "mixed",
        }
        return Signature(items, {"n": "n", "smooth": "s", "sample": "ss", "self": "self", "tok": "tok", "case": "c"})

    def _inputs(self, predictions: Any) -> tuple[list, bool]:
        if isinstance(predictions, (str, bytes)):
            raise InputTypeError("predictions must be a sequence, not a single string")
        items = as_sequence(predictions, "predictions")
        if self.sample_size is not None:
            items = items[: self.sample_size]
        if all(isinstance(x, str) for x in items):
            return as_texts(items), False
        return [_token_list(x, f"predictions[{i}]") for i, x in enumerate(items)], True

    def stats(self, predictions: Sequence[str] | Sequence[Sequence[str]]) -> np.ndarray:
        """nltk BLEU statistics of each (sampled) sentence against its reference pool."""
        items, tokenized = self._inputs(predictions)
        # token lists are checked as given (a list holding one whole sentence merges too)
        script_check.check(_tok.unsegmented_check("none" if tokenized else self.tokenize, "Self-BLEU"), items)
        if tokenized:
            try:
                return _core.self_bleu_stats_tokens(items, self.n, self.exclude_self, self.n_threads)
            except UnicodeEncodeError:  # a lone surrogate: name the token
                for i, tokens in enumerate(items):
                    check_all_text(tokens, f"predictions[{i}]")
                raise
        tokenize = self.tokenize
        if tokenize not in _tok.CORE_TOKENIZERS:  # jieba, MeCab: tokens joined by spaces
            items, tokenize = _tok.tokenize(tokenize, items), "none"
        try:
            return _core.self_bleu_stats(items, tokenize, self.lowercase, self.n, self.exclude_self, self.n_threads)
        except UnicodeEncodeError:
            check_all_text(items, "predictions")
            raise

    def sentence_scores(self, predictions: Any, references: Any = None) -> np.ndarray:
        """nltk ``sentence_bleu`` of each sampled sentence against the others."""
        rows = self.stats(predictions)
        return _core.nltk_bleu_scores(rows, *self._core_options(), self.n_threads)[:, 0].copy()

    def corpus_score(self, predictions: Any, references: Any = None) -> Score:
        if isinstance(predictions, (list, tuple)) and not predictions:
            from .base import empty_input

            raise empty_input(self.name)  # the one rule for empty input
        scores = self.sentence_scores(predictions)
        # Texygen adds the scores one by one (``score += ...``), then divides.
        total = float(np.cumsum(scores)[-1])
        return Score(self.name, total / len(scores), self.signature(), None, sentence_scores=scores, n_sentences=len(scores))

    def pairwise(self, candidates: Any, references: Any = None) -> np.ndarray:
        raise InvalidOptionError("Self-BLEU is reference-free: pairwise() is not defined")

    def update(self, predictions: Any, references: Any = None) -> "SelfBLEU":
        # every sentence is scored against all the others: there is no per-batch state to sum
        from ..errors import InvalidInputError

        raise InvalidInputError("Self-BLEU compares each sentence with all the others and does not stream; "
                                "call corpus_score(predictions) or compute(predictions=...) on the whole set")

    def add_batch(self, *args: Any, **kwargs: Any) -> "SelfBLEU":
        return self.update(*args, **kwargs)

    def add(self, *, prediction: Any = None, reference: Any = None) -> "SelfBLEU":
        return self.update([prediction])

    def compute(self, *, predictions: Any = None, references: Any = None) -> Score:
        """The evaluate-style keyword call: ``compute(predictions=...)`` is ``corpus_score``."""
        if predictions is None:
            from ..errors import InvalidInputError

            raise InvalidInputError("Self-BLEU: compute() needs predictions= (it does not stream)")
        return self.corpus_score(predictions)

    def __repr__(self) -> str:
        return f"SelfBLEU({self.signature()})"


def self_bleu(predictions: Any, n: int = 3, **options: Any) -> Score:
    """Self-BLEU of a list of generated texts: ``SelfBLEU(n, **options).corpus_score(...)``."""
    return SelfBLEU(n, **options).corpus_score(predictions)
