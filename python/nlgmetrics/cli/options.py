"""Per-metric command-line options, sacrebleu-style (``--chrf-word-order 2``).

Each metric family registers an :class:`OptionSet` in its own ``opts_<family>`` module:
how to add its flags to the parser and how to turn parsed flags into constructor options.
Shared flags (``-tok``, ``-lc``) are passed to every metric that accepts them.

The modules are imported on demand (:data:`MODULES` says which module declares which
metrics and flags): a command line loads only the families whose flags it names or whose
metrics it builds, and ``--help`` (or any command line the lean parse cannot prove right)
loads them all. A stale index costs time, never a wrong parse: a flag it does not know
sends the command line to the parser with every family, and a metric it does not know
loads every family before its options are collected.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    import argparse
    from typing import Any, Callable, Iterable


class OptionSet:
    """A metric family's flags: ``add`` puts them on an argument group, ``collect`` turns
    the parsed flags into constructor options. (A plain class: ``dataclasses`` would cost
    the command line most of its start-up.)"""

    __slots__ = ("metric", "add", "collect", "_defaults")

    def __init__(self, metric: str, add: Callable[[argparse._ArgumentGroup], None], collect: Callable[[argparse.Namespace], dict[str, Any]]) -> None:
        self.metric, self.add, self.collect = metric, add, collect
        self._defaults: dict[str, Any] | None = None

    def defaults(self) -> dict[str, Any]:
        """Every flag's value when the command line does not name it, as argparse gives it."""
        if self._defaults is None:
            import argparse

            parser = argparse.ArgumentParser(add_help=False)
            self.add(parser.add_argument_group(f"{self.metric} options"))
            self._defaults = vars(parser.parse_args([]))
        return self._defaults


OPTION_SETS: dict[str, OptionSet] = {}


def register_options(metric: str, add: Callable[[argparse._ArgumentGroup], None], collect: Callable[[argparse.Namespace], dict[str, Any]]) -> None:
    OPTION_SETS[metric] = OptionSet(metric, add, collect)


# module -> (the metrics it registers options for, the flags it declares), in the order
# `--help` lists the families. opts_diversity extends BLEU's set with the nltk flags (it
# imports opts_bleu first). tests/test_cli_lazy_options.py checks this against the modules.
MODULES: dict[str, tuple[str, str]] = {
    "opts_bleu": ("bleu", "--bleu-flavour --smooth-method -s --smooth-value -sv --max-ngram-order --spm-model --effective-order -e"),
    "opts_rouge": ("rouge", "--rouge-flavour --rouge-types --rouge-stemmer --rouge-tokenizer --rouge-formula --rouge-alpha --rouge-weight --rouge-no-wordnet --rouge-stopwords --rouge-length-limit --rouge-byte-limit --rouge-on-empty --rouge-not-exclusive --rouge-beta --rouge-split-summaries"),
    "opts_cider": ("cider", "--cider-flavour --cider-df --cider-tokenize --cider-sigma"),
    "opts_diversity": ("bleu distinct self_bleu", "--nltk-weights --nltk-smoothing --nltk-auto-reweigh --nltk-epsilon --nltk-alpha --nltk-k --distinct-n --distinct-mode --distinct-sketch --distinct-hll-precision --self-bleu-n --self-bleu-sample-size --self-bleu-include-self --self-bleu-smoothing"),
    "opts_chrf": ("chrf chrf++", "--chrf-char-order -cc --chrf-word-order -cw --chrf-beta --chrf-lowercase --chrf-whitespace --chrf-eps-smoothing"),
    "opts_ter": ("ter", "--ter-case-sensitive --ter-asian-support --ter-no-punct --ter-normalized"),
    "opts_meteor": ("meteor", "--meteor-flavour --meteor-task --meteor-normalize --meteor-modules --meteor-weights --meteor-alpha --meteor-beta --meteor-gamma --meteor-delta"),
    "opts_edit": ("wer mer wil wip cer per", "--wer-transform --edit-multi-ref --per-lowercase"),
    "opts_nist": ("nist", "--nist-flavour --nist-n --nist-case-sensitive -c --nist-zero-division"),
    "opts_parent": ("parent", "--parent-lambda --parent-smoothing --parent-max-order --parent-case-sensitive"),
    "opts_bertscore": ("bertscore", "--bertscore-model --bertscore-layer --bertscore-lang --bertscore-idf --bertscore-rescale --bertscore-baseline --bertscore-batch-size --bertscore-device --bertscore-dtype --bertscore-fast-tokenizer"),
    "opts_bleurt": ("bleurt", "--bleurt-checkpoint --bleurt-batch-size --bleurt-max-length --bleurt-device"),
    "opts_comet": ("comet xcomet", "--source --src --comet-model --comet-encoder --comet-batch-size --comet-device --xcomet-model"),
    "opts_metricx": ("metricx", "--metricx-model --metricx-tokenizer --metricx-version --metricx-qe --metricx-max-input-length --metricx-batch-size --metricx-device"),
    "opts_sari": ("sari", "--sari-flavour --sari-case-sensitive --sari-legacy"),
    "opts_mauve": ("mauve", "--mauve-model --mauve-num-buckets --mauve-max-text-length --mauve-batch-size --mauve-seed --mauve-device"),
    "opts_qa": ("pass_at_k longbench_qa multiple_choice", "--pass-k --longbench-flavour --longbench-first-line --longbench-dataset --mc-score"),
    "opts_lm_eval_qa": ("lm_eval_xquad lm_eval_qasper", "--xquad-flavour"),
    "opts_math": ("math_equiv", "--math-flavour --math-prediction --math-reference"),
    "opts_ifeval": ("ifeval", "--ifeval-score"),
    "opts_codebleu": ("codebleu", "--codebleu-flavour --codebleu-language --codebleu-weights"),
    "opts_fragments_ragas": ("extractive_fragments ragas_string", "--fragments-flavour --fragments-case-sensitive --fragments-keep-braces --ragas-flavour --ragas-distance --ragas-rouge-type --ragas-rouge-mode"),
}


def _index() -> tuple[dict[str, str], dict[str, str], dict[str, int]]:
    """(metric -> the module whose set is final, flag -> its module, metric -> its place in `--help`)."""
    metric_module: dict[str, str] = {}
    flag_module: dict[str, str] = {}
    for module, (metrics, flags) in MODULES.items():
        for metric in metrics.split():
            metric_module[metric] = module  # the last module wins (opts_diversity for bleu)
        flag_module.update(dict.fromkeys(flags.split(), module))
    return metric_module, flag_module, {m: i for i, m in enumerate(dict.fromkeys(m for ms, _ in MODULES.values() for m in ms.split()))}


_METRIC_MODULE, _FLAG_MODULE, _PLACE = _index()


def _import(modules: Iterable[str]) -> None:
    for module in modules:
        importlib.import_module(f"{__package__}.{module}")


def modules_named(tokens: Iterable[str]) -> frozenset[str]:
    """The modules declaring the flags among ``tokens`` (option tokens, ``=value`` cut)."""
    return frozenset(_FLAG_MODULE[t] for t in tokens if t in _FLAG_MODULE)


def option_sets(modules: Iterable[str] | None = None) -> list[OptionSet]:
    """The option sets the ``modules`` register (``None``: every family), imported now,
    in the order ``--help`` lists them."""
    wanted = list(MODULES) if modules is None else [m for m in MODULES if m in set(modules)]
    _import(wanted)
    metrics = {metric for module in wanted for metric in MODULES[module][0].split()}
    if modules is None:
        metrics.update(OPTION_SETS)  # a family missing from MODULES still shows
    return sorted((OPTION_SETS[m] for m in metrics if m in OPTION_SETS), key=lambda s: _PLACE.get(s.metric, len(_PLACE)))


def option_set(metric: str) -> OptionSet | None:
    """``metric``'s option set (its module imported now), or ``None`` if it has none."""
    module = _METRIC_MODULE.get(metric)
    _import(list(MODULES) if module is None else [module])  # a metric the index does not know: every family
    return OPTION_SETS.get(metric)


def add_defaults(namespace: argparse.Namespace) -> None:
    """Give ``namespace`` the default of every loaded family's flag it lacks (a parser
    built with some families only leaves the others out; a collector may read another
    family's flags, as chrF++ reads chrF's)."""
    values = vars(namespace)
    for opts in list(OPTION_SETS.values()):
        for dest, value in opts.defaults().items():
            values.setdefault(dest, value)
