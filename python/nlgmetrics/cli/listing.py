"""``nlgmetrics list``: the registry's metrics with their flavours and the extras they lack,
the classification functions and the tokenizers, printed without importing a metric module.

An entry whose flavours the registry reads from its class (``declared_flavours`` of
``None``) takes them from :data:`FLAVOURS` here, so listing imports no metric (BLEU's
module alone loads numpy); an entry missing here is asked for its class's list (slower, the
same line). tests/test_cli_startup_modules.py checks the table against the classes.
"""

from __future__ import annotations

FLAVOURS: dict[str, tuple[str, ...]] = {
    "bleu": ("sacrebleu", "coco", "nltk", "nmt"),
    "rouge": ("rouge-score", "rouge155", "coco", "pltrdy", "rouge-chinese"),
    "cider": ("cider-d", "cider"),
    "meteor": ("meteor-1.5", "nltk"),
    "chrf": ("sacrebleu",),
    "ter": ("sacrebleu",),
    "exact_match": ("plain", "evaluate", "lm-eval"),
}

# nlgmetrics.classification's metric functions (checked against the package's __all__ by
# tests/test_cli_startup_modules.py; importing it here would load numpy for `list`)
CLASSIFICATION = (
    "accuracy_score", "balanced_accuracy_score", "precision_score", "recall_score", "f1_score", "fbeta_score",
    "precision_recall_fscore_support", "confusion_matrix", "multilabel_confusion_matrix", "roc_auc_score",
    "roc_curve", "precision_recall_curve", "average_precision_score", "auc", "mean_average_precision",
    "matthews_corrcoef", "mcc_from_confusion", "cohen_kappa_score", "kappa_from_confusion", "brier_score_loss",
    "binary_calibration_error", "multiclass_calibration_error", "log_loss", "classification_report",
)


def flavours(entry) -> tuple[str, ...]:
    """``entry.flavours``, from :data:`FLAVOURS` where the entry would import its class."""
    if entry.declared_flavours is None and entry.name in FLAVOURS:
        return FLAVOURS[entry.name]
    return entry.flavours


def run(out) -> int:
    from ..registry import available, install_hint
    from ..tokenizers import DESCRIPTIONS

    out.write("metrics:\n")
    for e in available():
        names = flavours(e)
        flav = f" [flavours: {', '.join(names)}]" if names else ""
        missing = e.missing  # the one notion of buildable: scripts/buildable_metrics.py and the demo read it too
        needs = f" [not buildable here: {install_hint(missing)}]" if missing else ""
        out.write(f"  {e.name:<12} {e.description}{flav}{needs}\n")
    out.write("classification (nlgmetrics classify; scikit-learn's numbers):\n")
    for name in CLASSIFICATION:
        out.write(f"  {name}\n")
    out.write("tokenizers:\n")
    for name, desc in DESCRIPTIONS.items():
        out.write(f"  {name:<12} {desc}\n")
    return 0
