"""MATH answer equivalence (``math_equiv``): the share of predictions whose answer is
equivalent to the gold answer, as the checkers of lm-evaluation-harness 0.4.13 decide it.

Flavours:

- ``hendrycks`` (default): ``tasks/hendrycks_math``: hendrycks/math's ``is_equiv`` (both
  answers through ``strip_string``, then ``==``; where ``strip_string`` raises, the raw
  strings are compared). Pure Python.
- ``minerva``: ``tasks/minerva_math``'s ``exact_match``: both answers through
  ``normalize_final_answer``, then ``is_equiv``: the same string, else SymPy's
  ``simplify(parse_latex(a) - parse_latex(b)) == 0``. Needs the ``[math]`` extra (sympy and
  antlr4-python3-runtime 4.11). The reference stops SymPy after 5 seconds of wall clock;
  here SymPy runs only inside a fixed work budget, named in the signature
  (:data:`nlgmetrics.metrics.llm._math_sympy.BUDGET`): a pair outside it is not equivalent.
- ``math-verify``: the Open LLM Leaderboard's MATH-hard (lm-eval's ``leaderboard_math_hard``):
  math-verify 0.9.0's ``verify(parse(solution, [LatexExtractionConfig()]), parse(generation))``.
  Needs the ``[math]`` extra (math-verify, which does the extraction, parsing and comparison).
  Its 5-second alarms are replaced by a fixed work budget, named in the signature
  (:data:`nlgmetrics.metrics.llm._math_verify.BUDGET`): a candidate outside it is not parsed (the
  reference's timed-out ``parse`` gives ``[]``), a value outside it is not compared (False).
  An answer (``prediction="answer"`` / ``reference="answer"``) is parsed as ``$answer$``.
- ``qwen``: Qwen2.5-Math's ``math_equal`` as evalscope 0.17.1 vendors it (MATH-500, AIME,
  competition_math): each side through ``strip_answer_string`` (a generation or a solution
  through ``extract_answer`` first: the last ``\\boxed{}``, else "the answer is", else the last
  number), then ``math_equal(prediction, gold)``. Needs the ``[math]`` extra. Its SymPy step
  runs inside a fixed work budget named in the signature
  (:data:`nlgmetrics.metrics.llm._math_qwen.BUDGET`), where Qwen's evaluation stops each pair
  after 3 seconds of wall clock.

What is compared (the task's ``process_results`` by default):

- ``prediction="generation"``: the answer is taken out of the model's generation as the task
  does: hendrycks the text between the first and the last ``$`` (the whole text with fewer
  than two), minerva the text after "Final Answer: The final answer is" up to ". I hope it
  is correct." (``[invalidanswer]`` without it). ``prediction="answer"``: the prediction is
  the answer.
- ``reference="solution"``: the gold answer is the last ``\\boxed{...}`` of the reference
  solution (``remove_boxed(last_boxed_only_string(solution))``, the task's ``process_docs``);
  a solution without one is a data error, as in lm-eval. ``reference="answer"``: the
  reference is the answer (MATH-500's ``answer`` field). ``reference="auto"`` (default): a
  reference holding ``\\boxed`` or ``\\fbox`` is a solution, any other an answer.

With several references a prediction is correct when it is equivalent to any of them.
Statistics per prediction: ``correct`` (0 or 1) and ``n`` (1). The score is lm-eval's
``mean`` of ``exact_match``: ``correct / n``, scale 0-1.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..._inputs import check_all_text
from ...errors import InvalidInputError, InvalidOptionError
from ...stats import SegmentStats, Stats
from . import _math_strings as strings
from ..base import Metric, Score

REFERENCE = "lm-eval-0.4.13"
FLAVOURS = ("hendrycks", "minerva", "math-verify", "qwen")
PREDICTION_KINDS = ("generation", "answer")
REFERENCE_KINDS = ("auto", "solution", "answer")


class MathEquivScore(Score):
    def format(self, width: int = 4, score_only: bool = False) -> str:
        if score_only:
            return f"{self.score:.{width}f}"
        return f"math_equiv = {self.score:.{width}f} ({self.correct}/{self.n})"


class MathEquiv(Metric):
    """MATH answer equivalence; see the module docstring.

    >>> from nlgmetrics.metrics.llm.math_equiv import MathEquiv
    >>> m = MathEquiv(prediction="answer", reference="answer")
    >>> m.corpus_score(["\\\\dfrac{1}{2}", "0.5", "x = 5", "10\\\\%"], ["\\\\frac12", "\\\\frac{1}{2}", "5", "10"]).score
    1.0
    >>> MathEquiv().corpus_score(["The answer is $\\\\frac{3}{4}$."], ["So it is $\\\\boxed{3/4}$."]).score
    1.0
    """

    name = "math_equiv"
    flavours = FLAVOURS
    count_fields = ("correct", "n")

    def __init__(self, flavour: str | None = None, *, prediction: str = "generation", reference: str = "auto", n_threads: int = 0):
        super().__init__(n_threads=n_threads)
        flavour = "hendrycks" if flavour is None else flavour
        if flavour not in FLAVOURS:
            raise InvalidOptionError(f"unknown math_equiv flavour {flavour!r}; known: {', '.join(FLAVOURS)}")
        if prediction not in PREDICTION_KINDS:
            raise InvalidOptionError(f"math_equiv: prediction must be one of {', '.join(PREDICTION_KINDS)}, got {prediction!r}")
        if reference not in REFERENCE_KINDS:
            raise InvalidOptionError(f"math_equiv: reference must be one of {', '.join(REFERENCE_KINDS)}, got {reference!r}")
        self.flavour, self.prediction, self.reference = flavour, prediction, reference
        self._versions = None
        if flavour == "minerva":
            from ._math_sympy import sympy_versions

            self._versions = sympy_versions()  # a missing extra is named when the metric is built
        elif flavour == "math-verify":
            from ._math_verify import versions

            self._verify_versions = versions()
        elif flavour == "qwen":
            from ._math_qwen import versions as qwen_versions

            self._qwen_versions = qwen_versions()

    def _signature_items(self) -> dict[str, Any]:
        if self.flavour == "math-verify":
            from ._math_verify import BUDGET_LABEL

            v = self._verify_versions
            return {"flavour": self.flavour, "prediction": self.prediction, "reference": self.reference,
                    "ref": f"math-verify-{v['math_verify']}", "latex2sympy": v["latex2sympy"], "sympy": v["sympy"],
                    "antlr": v["antlr"], "budget": BUDGET_LABEL}
        if self.flavour == "qwen":
            from ._math_qwen import BUDGET_LABEL as QWEN_BUDGET, REFERENCE as QWEN_REFERENCE

            v = self._qwen_versions
            return {"flavour": self.flavour, "prediction": self.prediction, "reference": self.reference,
                    "ref": QWEN_REFERENCE, "latex2sympy": v["latex2sympy"], "sympy": v["sympy"], "antlr": v["antlr"],
                    "budget": QWEN_BUDGET}
        items: dict[str, Any] = {"flavour": self.flavour, "prediction": self.prediction, "reference": self.reference,
                                 "ref": REFERENCE}
        if self._versions is not None:
            from ._math_sympy import BUDGET_LABEL

            items.update(sympy=self._versions[0], antlr=self._versions[1], budget=BUDGET_LABEL)
        return items

    def _abbreviations(self) -> dict[str, str]:
        return {"flavour": "f", "prediction": "pred", "reference": "gold", "ref": "ref", "sympy": "sympy",
                "antlr": "antlr", "budget": "budget", "latex2sympy": "l2s"}

    def answer_of_prediction(self, text: str) -> Any:
        """The answer the task compares, taken out of a prediction (and normalised for minerva;
        for math-verify the list of values its ``parse`` extracts)."""
        if self.flavour == "math-verify":
            from ._math_verify import parse

            return parse(text if self.prediction == "generation" else f"${text}$", "target")
        if self.flavour == "qwen":
            from ._math_qwen import extract_answer, strip_answer_string

            # evalscope: strip_answer_string(extract_answer(generation)); an answer is stripped once
            return strip_answer_string(extract_answer(text) if self.prediction == "generation" else text)
        if self.prediction == "generation":
            text = strings.dollar_answer(text) if self.flavour == "hendrycks" else strings.final_answer_text(text)
        return strings.normalize_final_answer(text) if self.flavour == "minerva" else text

    def answer_of_reference(self, text: str, where: str = "reference") -> Any:
        """The gold answer of a reference (and normalised for minerva; parsed for math-verify)."""
        if self.flavour == "math-verify":
            from ._math_verify import parse

            solution = self.reference == "solution" or (self.reference == "auto" and ("\\boxed" in text or "\\fbox" in text))
            return parse(text if solution else f"${text}$", "gold")
        if self.flavour == "qwen":
            from ._math_qwen import extract_answer, strip_answer_string

            solution = self.reference == "solution" or (self.reference == "auto" and ("\\boxed" in text or "\\fbox" in text))
            return strip_answer_string(extract_answer(text) if solution else text)
        if self.reference == "solution" or (self.reference == "auto" and ("\\boxed" in text or "\\fbox" in text)):
            try:
                text = strings.boxed_answer(text)
            except strings.NoBoxedAnswer as e:
                raise InvalidInputError(f"math_equiv: {where}: {e} in the solution (lm-eval's remove_boxed fails; "
                                        "pass reference='answer' for gold answers)") from None
        return strings.normalize_final_answer(text) if self.flavour == "minerva" else text

    def equivalent(self, prediction: str, reference: str) -> bool:
        """Whether one prediction's answer is equivalent to one reference's."""
        return self._equivalent(self.answer_of_prediction(prediction), self.answer_of_reference(reference))

    def _equivalent(self, a: Any, b: Any) -> bool:
        if self.flavour == "hendrycks":
            return strings.hendrycks_is_equiv(a, b)
        if self.flavour == "math-verify":
            from ._math_verify import verify

            return verify(b, a)  # gold first: math-verify's verify is not symmetric
        if self.flavour == "qwen":
            from ._math_qwen import math_equal

            return math_equal(a, b)  # prediction first: math_equal is not symmetric
        from ._math_sympy import minerva_is_equiv

        return minerva_is_equiv(a, b)

    def _segment_stats(self, predictions: list[str], references: list[list[str]]) -> SegmentStats:
        check_all_text(predictions, "predictions")
        counts = np.zeros((len(predictions), 2), dtype=np.uint64)
        counts[:, 1] = 1
        for i, (pred, refs) in enumerate(zip(predictions, references)):
            golds = [self.answer_of_reference(r, f"example {i}") for r in refs]
            answer = self.answer_of_prediction(pred)
            counts[i, 0] = any(self._equivalent(answer, g) for g in golds)
        return SegmentStats(key=self.key, count_fields=self.count_fields, counts=counts,
                            ref_counts=np.fromiter((len(r) for r in references), dtype=np.int64, count=len(references)))

    def _score(self, stats: Stats) -> MathEquivScore:
        correct, n = (int(x) for x in stats.counts)
        if n == 0:
            raise InvalidInputError("math_equiv of no prediction is undefined (lm-eval's mean of nothing): give at least one")
        return MathEquivScore(self.name, correct / n, self.signature(stats), stats, correct=correct, n=n)

    def _sentence_scores(self, seg: SegmentStats) -> np.ndarray:
        return seg.counts[:, 0].astype(np.float64)
