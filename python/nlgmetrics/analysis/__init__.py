"""Why one system beats another: compare-mt's holistic analyses, with compare-mt's numbers.

- :func:`word_accuracy`: precision, recall and F-measure of the words each system produces,
  bucketed by the word's frequency (in the references, or in a training corpus / count table).
- :func:`sentence_buckets`: sentences bucketed by reference length, by length difference or
  by sentence score, with the count or any metric's corpus score per bucket.
- :func:`ngram_differences`: the n-grams one system matches (or over- or under-produces)
  more often than another, ranked by compare-mt's smoothed ratio.
- :func:`sentence_examples`: the segments where one system's sentence BLEU beats the
  other's most (compare-mt's sentence examples).

Every function takes plain texts and a tokenizer: by default ``"compare-mt"``, compare-mt's
own ``line.strip().split(' ')`` (runs of spaces give empty tokens, a no-break space stays
inside its token), so the numbers are compare-mt's on any text; ``"none"`` is
``str.split()``, any other name one of :mod:`nlgmetrics.tokenizers`, or a callable. They return plain data, so the report and the command line
format it the same way. The numbers equal compare-mt 0.2.10's
(``tests/test_analysis.py``).

Judge verdicts (nlgmetrics never calls a judge): :func:`win_rate` and
:func:`length_controlled_win_rate` (AlpacaEval), :func:`bradley_terry`,
:func:`arena_hard_leaderboard`, :func:`predict_win_rate` (Arena-Hard), :func:`online_elo`
(Chatbot Arena), :func:`mqm_score` / :func:`parse_gemba_mqm` (GEMBA-MQM), and
:func:`battles_from_judgments` (Arena-Hard's judgment files as battles); see docs/judge.md.
"""

from .examples import SentenceExample, sentence_examples
from .judge import mqm_score, parse_gemba_mqm, win_rate
from .judge_battles import battles_from_judgments
from .judge_lc import length_controlled_win_rate
from .judge_ratings import arena_hard_leaderboard, bradley_terry, online_elo, predict_win_rate
from .ngrams import NgramDifference, ngram_differences
from .sentences import SentenceBucket, sentence_buckets
from .words import WordBucket, word_accuracy

__all__ = [
    "NgramDifference",
    "SentenceBucket",
    "SentenceExample",
    "WordBucket",
    "arena_hard_leaderboard",
    "battles_from_judgments",
    "bradley_terry",
    "length_controlled_win_rate",
    "mqm_score",
    "online_elo",
    "parse_gemba_mqm",
    "predict_win_rate",
    "win_rate",
    "ngram_differences",
    "sentence_buckets",
    "sentence_examples",
    "word_accuracy",
]
