"""``nlgmetrics.compat.pycocoevalcap`` against pycocoevalcap 1.2 (its Java PTBTokenizer and
METEOR jar): values and printed output equal on COCO captions, through the anchor's own
import paths."""

from __future__ import annotations

import contextlib
import io
import json
import shutil

import numpy as np
import pytest

pytest.importorskip("pycocoevalcap")
if shutil.which("java") is None:
    pytest.fail("java is needed to run pycocoevalcap's PTBTokenizer and METEOR jar (scripts/test.sh installs it)")

from pycocoevalcap.bleu.bleu import Bleu as AnchorBleu  # noqa: E402
from pycocoevalcap.cider.cider import Cider as AnchorCider  # noqa: E402
from pycocoevalcap.meteor.meteor import Meteor as AnchorMeteor  # noqa: E402
from pycocoevalcap.rouge.rouge import Rouge as AnchorRouge  # noqa: E402
from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer as AnchorPTB  # noqa: E402

from nlgmetrics.compat.pycocoevalcap.bleu.bleu import Bleu  # noqa: E402
from nlgmetrics.compat.pycocoevalcap.cider.cider import Cider  # noqa: E402
from nlgmetrics.compat.pycocoevalcap.eval import COCOEvalCap  # noqa: E402
from nlgmetrics.compat.pycocoevalcap.meteor.meteor import Meteor  # noqa: E402
from nlgmetrics.compat.pycocoevalcap.rouge.rouge import Rouge  # noqa: E402
from nlgmetrics.compat.pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer  # noqa: E402

N = 120


@pytest.fixture(scope="module")
def raw(corpora):
    base = corpora / "captioning_coco"
    refs = {}
    for line in (base / "references.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        refs[d["image_name"]] = d["references"]
    rows = [line.split("\t", 1) for line in (base / "systems" / "mscoco__magic_result.tsv").read_text(encoding="utf-8").splitlines()[:N]]
    gts = {name: [{"caption": c} for c in refs[name]] for name, _ in rows}
    res = {name: [{"caption": pred}] for name, pred in rows}
    return gts, res


@pytest.fixture(scope="module")
def tokenized(raw):
    gts, res = raw
    return AnchorPTB().tokenize(gts), AnchorPTB().tokenize(res)


@pytest.fixture(scope="module")
def anchor_meteor():
    """One METEOR jar for the module: its start (paraphrase tables) dominates the time."""
    return AnchorMeteor()


def _printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = fn()
    return value, out.getvalue()


def test_ptb_tokenizer(raw, tokenized):
    gts, res = raw
    assert PTBTokenizer().tokenize(gts) == tokenized[0]
    assert PTBTokenizer().tokenize(res) == tokenized[1]


@pytest.mark.parametrize("pair", [(AnchorBleu, Bleu), (AnchorCider, Cider), (AnchorRouge, Rouge), (AnchorMeteor, Meteor)], ids=["Bleu", "Cider", "Rouge", "Meteor"])
def test_compute_score_equal(tokenized, pair, anchor_meteor):
    gts, res = tokenized
    anchor, ours = pair
    scorer = anchor_meteor if anchor is AnchorMeteor else anchor()
    want, want_text = _printed(lambda: scorer.compute_score(gts, res))
    got, text = _printed(lambda: ours().compute_score(gts, res))
    assert repr(got) == repr(want) and text == want_text
    assert type(got[0]) is type(want[0])
    assert ours().method() == scorer.method()


def test_bleu_other_orders_and_rouge_calc_score(tokenized):
    gts, res = tokenized
    for n in (1, 2, 3):
        assert repr(Bleu(n).compute_score(gts, res, verbose=0)) == repr(AnchorBleu(n).compute_score(gts, res, verbose=0))
    image = next(iter(gts))
    assert Rouge().calc_score(res[image], gts[image]) == AnchorRouge().calc_score(res[image], gts[image])
    with pytest.raises(AssertionError):
        Bleu().compute_score(gts, {k: v for k, v in list(res.items())[1:]})


class _Coco:
    """The two things COCOEvalCap reads from a pycocotools ``COCO``."""

    def __init__(self, anns: dict):
        self.imgToAnns = anns

    def getImgIds(self):
        return list(self.imgToAnns)


def test_cocoevalcap_prints_and_fills_as_pycocoevalcap(raw, monkeypatch, anchor_meteor):
    import pycocoevalcap.eval as anchor_eval

    class NoSpice:  # SPICE needs Stanford models that are not installed
        def compute_score(self, gts, res):
            return 0.0, [0.0] * len(gts)

        def method(self):
            return "SPICE"

    monkeypatch.setattr(anchor_eval, "Spice", NoSpice)
    monkeypatch.setattr(anchor_eval, "Meteor", lambda: anchor_meteor)
    gts, res = raw
    anchor = anchor_eval.COCOEvalCap(_Coco(gts), _Coco(res))
    _, want_text = _printed(anchor.evaluate)
    ours = COCOEvalCap(_Coco(gts), _Coco(res))
    _, text = _printed(ours.evaluate)
    want_lines = [line for line in want_text.splitlines() if "SPICE" not in line]
    assert text.splitlines() == want_lines
    want_eval = {k: v for k, v in anchor.eval.items() if k != "SPICE"}
    assert repr(ours.eval) == repr(want_eval)
    for image, values in anchor.imgToEval.items():
        values = {k: v for k, v in values.items() if k != "SPICE"}
        assert repr(ours.imgToEval[image]) == repr(values)
    assert len(ours.evalImgs) == len(anchor.evalImgs) and np.isfinite(ours.eval["CIDEr"])


def test_empty_inputs_fail_like_the_anchor():
    # pycocoevalcap's Cider raises ValueError on no images (max() of an empty sequence);
    # Rouge returns numpy's mean of nothing, Bleu zeros: the same here
    from pycocoevalcap.cider.cider import Cider as AnchorCider
    from pycocoevalcap.rouge.rouge import Rouge as AnchorRouge

    from nlgmetrics.compat import pycocoevalcap as compat
    from nlgmetrics.errors import InvalidInputError

    with pytest.raises(ValueError):
        AnchorCider().compute_score({}, {})
    with pytest.raises(InvalidInputError):
        compat.Cider().compute_score({}, {})
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        anchor = AnchorRouge().compute_score({}, {})
    ours = compat.Rouge().compute_score({}, {})
    assert np.isnan(anchor[0]) and np.isnan(ours[0]) and len(anchor[1]) == len(ours[1]) == 0
