"""``from nlgmetrics.compat import pycocoevalcap``: pycocoevalcap 1.2's scorers, without Java.

``bleu.bleu.Bleu``, ``cider.cider.Cider``, ``meteor.meteor.Meteor``, ``rouge.rouge.Rouge``
(``compute_score(gts, res)`` on ``{image_id: [captions]}``), ``tokenizer.ptbtokenizer.PTBTokenizer``
and ``eval.COCOEvalCap`` (``evaluate()``, ``eval``, ``imgToEval``, ``evalImgs``), with
pycocoevalcap's printed output. Per-image values come from nlgmetrics' metrics; the
corpus values of ``Rouge`` and ``Cider`` are the ``numpy.mean`` of the per-image values,
which is how pycocoevalcap defines them. SPICE is not available (see docs/migration.md).

The anchor's import paths work: ``from nlgmetrics.compat.pycocoevalcap.bleu.bleu import Bleu``.
"""

from __future__ import annotations

import sys
import types

from ._scorers import Bleu, Cider, COCOEvalCap, Meteor, PTBTokenizer, Rouge

__all__ = ["Bleu", "Cider", "Meteor", "Rouge", "PTBTokenizer", "COCOEvalCap"]


def _alias(path: str, **names: object) -> types.ModuleType:
    module = types.ModuleType(f"{__name__}.{path}")
    module.__dict__.update(names)
    sys.modules[module.__name__] = module
    return module


# pycocoevalcap's module layout (bleu.bleu, cider.cider, ...), as importable submodules
for _pkg, _mod, _names in (
    ("bleu", "bleu", {"Bleu": Bleu}),
    ("cider", "cider", {"Cider": Cider}),
    ("meteor", "meteor", {"Meteor": Meteor}),
    ("rouge", "rouge", {"Rouge": Rouge}),
    ("tokenizer", "ptbtokenizer", {"PTBTokenizer": PTBTokenizer}),
):
    _inner = _alias(f"{_pkg}.{_mod}", **_names)
    globals()[_pkg] = _alias(_pkg, **{_mod: _inner})
eval = _alias("eval", COCOEvalCap=COCOEvalCap, PTBTokenizer=PTBTokenizer, Bleu=Bleu, Meteor=Meteor, Rouge=Rouge, Cider=Cider)  # noqa: A001
