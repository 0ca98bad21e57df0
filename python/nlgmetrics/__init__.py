"""nlgmetrics: exact, fast evaluation metrics for text generation and classification.

Every metric extracts per-segment sufficient statistics in a Rust core, then aggregates
them; statistics merge with ``+``, so streaming, sharding and resampling share one path.

>>> import nlgmetrics
>>> round(nlgmetrics.bleu(["the cat sat on the mat"], [["the cat sat on the mat"]]).score, 6)
100.0

Names are imported on first use (``nlgmetrics.BLEU`` loads the BLEU module then), so that
``import nlgmetrics`` stays cheap for command-line tools and worker processes.
"""

from __future__ import annotations

import importlib

# Public name -> the module that defines it (".x"), or the submodule itself exported under
# that name: "" for ".name", or its absolute path ("nlgmetrics.engines.streaming").
_EXPORTS: dict[str, str] = {
    # errors
    **dict.fromkeys(
        [
            "EmptyInputError",
            "IncompatibleStatsError",
            "InputTypeError",
            "InternalError",
            "InvalidInputError",
            "InvalidOptionError",
            "InvalidTextError",
            "LengthMismatchError",
            "MissingColumnError",
            "MissingExtraError",
            "MissingReferenceError",
            "NlgMetricsError",
            "ResourceLimitError",
            "ReferenceOrientationError",
            "UnknownOptionError",
        ],
        ".errors",
    ),
    # foundation
    "Metric": ".metrics.base",
    "Score": ".metrics.base",
    "Signature": ".signature",
    "Stats": ".stats",
    "SegmentStats": ".stats",
    "references_from_streams": "._inputs",
    "references_by_segment": "._inputs",
    "available": ".registry",
    "load": ".registry",
    "register": ".registry",
    # text metrics
    "BLEU": ".metrics.bleu",
    "bleu": ".metrics.bleu",
    "sentence_bleu": ".metrics.bleu",
    "NltkBLEU": ".metrics.bleu_nltk",
    "nltk_sentence_bleu": ".metrics.bleu_nltk",
    "CocoBLEU": ".metrics.bleu_coco",
    "ROUGE": ".metrics.rouge",
    "RougeTokenizerWarning": ".metrics.rouge",
    "TokenizationWarning": ".script_check",
    "rouge": ".metrics.rouge",
    "CIDEr": ".metrics.cider",
    "CiderDF": ".metrics.cider",
    "CiderDegenerateWarning": ".metrics.cider",
    "cider_score": ".metrics.cider",
    "METEOR": ".metrics.meteor",
    "meteor": ".metrics.meteor",
    "CHRF": ".metrics.chrf",
    "chrf": ".metrics.chrf",
    "chrf_plus_plus": ".metrics.chrf",
    "sentence_chrf": ".metrics.chrf",
    "TER": ".metrics.ter",
    "ter": ".metrics.ter",
    "sentence_ter": ".metrics.ter",
    "NIST": ".metrics.nist",
    "nist": ".metrics.nist",
    "PER": ".metrics.per",
    "per": ".metrics.per",
    **dict.fromkeys(
        ["WER", "CER", "MER", "WIL", "WIP", "AlignmentChunk", "wer", "cer", "mer", "wil", "wip"],
        ".metrics.wer",
    ),
    "Distinct": ".metrics.distinct",
    "distinct": ".metrics.distinct",
    "SelfBLEU": ".metrics.self_bleu",
    "self_bleu": ".metrics.self_bleu",
    "Perplexity": ".metrics.perplexity",
    "perplexity": ".metrics.perplexity",
    "Coverage": ".metrics.coverage",
    "ContentSelectionOrdering": ".metrics.coverage",
    "coverage": ".metrics.coverage",
    "parse_mr": ".metrics.coverage",
    "Parent": ".metrics.parent",
    "parent": ".metrics.parent",
    # model-based metrics (extra [neural]; torch is imported on first use)
    "BERTScore": ".neural.bertscore",
    "BERTScoreWarning": ".neural.bertscore",
    "bertscore": ".neural.bertscore",
    "HFPerplexity": ".neural.hf_perplexity",
    "hf_perplexity": ".neural.hf_perplexity",
    "BLEURT": ".neural.bleurt",
    "bleurt": ".neural.bleurt",
    "COMET": ".neural.comet", "comet": ".neural.comet",
    # significance and meta-evaluation
    "bootstrap_ci": ".engines.significance",
    "paired_test": ".engines.significance",
    # streaming, clusters and MBR
    "score_files": ".engines.streaming",
    "score_chunks": ".engines.streaming",
    # submodules
    "streaming": "nlgmetrics.engines.streaming",
    "mbr": "nlgmetrics.tasks.mbr",
    "classification": "",
    "significance": "nlgmetrics.engines.significance",
    "meta": "nlgmetrics.engines.meta",
    "plots": "nlgmetrics.report.plots",
    "progress": "nlgmetrics.engines.progress",
    "report": "",
    # evaluate's google_bleu and exact_match
    "GLEU": ".metrics.gleu",
    "ExactMatch": ".metrics.qa.exact_match",
    # the argument order of the one-call functions
    "ArgumentOrderWarning": "._orientation",
    "RougeLsumWarning": ".metrics.rouge",
    # xCOMET (extra [neural])
    "XCOMET": ".neural.xcomet", "xcomet": ".neural.xcomet",
    # MetricX-24 / MetricX-23
    "MetricX": ".neural.metricx", "metricx": ".neural.metricx",
    # MAUVE
    "MAUVE": ".neural.mauve", "mauve": ".neural.mauve",
    # question answering (SQuAD official scripts)
    "SQuAD": ".metrics.qa.squad",
    "SQuADv2": ".metrics.qa.squad",
    # text simplification
    "SARI": ".metrics.sari",
    "sari": ".metrics.sari",
    # QA and benchmark aggregates as registry metrics
    "MathEquiv": ".metrics.llm.math_equiv",
    "PassAtKMetric": ".metrics.llm.pass_at_k", "pass_at_k": ".metrics.llm.pass_at_k",
    "ExecutionAccuracy": ".metrics.programs.execution_accuracy",
    "MultipleChoice": ".metrics.llm.multiple_choice", "read_lm_eval_samples": ".metrics.llm.multiple_choice",
    "AvgAtKMetric": ".metrics.llm._sampling_metrics", "MajAtKMetric": ".metrics.llm._sampling_metrics",
    "PassHatKMetric": ".metrics.llm._sampling_metrics", "GPassAtKMetric": ".metrics.llm._sampling_metrics", "avg_at_k": ".metrics.llm.sampling", "maj_at_k": ".metrics.llm.sampling",
    "pass_hat_k": ".metrics.llm.sampling", "g_pass_at_k": ".metrics.llm.sampling",
    "ExtractedExactMatch": ".metrics.llm.answer_filters",
    "WordPerplexity": ".metrics.llm.lm_eval_aggregates", "BytePerplexity": ".metrics.llm.lm_eval_aggregates",
    "BitsPerByte": ".metrics.llm.lm_eval_aggregates", "LmEvalPerplexity": ".metrics.llm.lm_eval_aggregates",
    "LongBenchQA": ".metrics.qa.longbench_qa", "longbench_qa_f1": ".metrics.qa.longbench_qa",
    "CMRC2018": ".metrics.qa.cmrc2018", "cmrc2018": ".metrics.qa.cmrc2018",
    "DROP": ".metrics.qa.drop",
    "CoQA": ".metrics.qa.coqa",
    "LmEvalQasper": ".metrics.llm.lm_eval_qa", "LmEvalXQuAD": ".metrics.llm.lm_eval_qa",
    "longbench_e_buckets": ".metrics.qa.longbench_qa",
    "RagasString": ".metrics.programs.ragas", "RagasContext": ".metrics.programs.ragas", "tool_call_f1": ".metrics.programs.ragas",
    "ExtractiveFragments": ".metrics.extractive_fragments", "extractive_fragments": ".metrics.extractive_fragments",
    # CodeBLEU (extra [code])
    "CodeBLEU": ".metrics.programs.codebleu",
    # IFEval (extra [ifeval])
    "IFEval": ".metrics.llm.ifeval", "read_ifeval_samples": ".metrics.llm.ifeval",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name == "__version__":
        from ._core import __version__ as value
    elif name in _EXPORTS:
        module = _EXPORTS[name] or f".{name}"
        imported = importlib.import_module(module, __name__)
        value = getattr(imported, name) if _EXPORTS[name].startswith(".") else imported
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS) | {"__version__"})
