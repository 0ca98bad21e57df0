"""``from nlgmetrics.compat import rouge_score``: rouge-score 0.1.2's API on nlgmetrics.

``rouge_scorer.RougeScorer(rouge_types, use_stemmer, split_summaries, tokenizer)`` with
``score(target, prediction)`` and ``score_multi(targets, prediction)`` returning
``{type: Score(precision, recall, fmeasure)}``; ``scoring.BootstrapAggregator`` (numpy's
global generator, as rouge-score); ``tokenizers.DefaultTokenizer``. The scores are
nlgmetrics' ``ROUGE(flavour="rouge-score")``.
"""

from . import rouge_scorer, scoring, tokenizers

__all__ = ["rouge_scorer", "scoring", "tokenizers"]
