"""The scorers behind :mod:`nlgmetrics.compat.pycocoevalcap`."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ...tasks.coco import ptb_tokenize
from ...errors import InvalidInputError
from ...metrics.bleu_coco import CocoBLEU
from ...metrics.cider import CIDEr
from ...metrics.meteor import METEOR
from ...metrics.rouge import ROUGE


def _pairs(gts: dict, res: dict, at_least: int = 1) -> tuple[list[str], list[list[str]]]:
    assert gts.keys() == res.keys()
    hyps, refs = [], []
    for image in gts.keys():
        hypo, ref = res[image], gts[image]
        assert type(hypo) is list
        assert len(hypo) == 1
        assert type(ref) is list
        assert len(ref) >= at_least
        hyps.append(hypo[0])
        refs.append(ref)
    return hyps, refs


class Bleu:
    """``Bleu(n=4).compute_score(gts, res, verbose=1)`` -> ``([B1..Bn], [[per image] x n])``."""

    def __init__(self, n=4):
        self._n = n

    def compute_score(self, gts, res, verbose=1):
        hyps, refs = _pairs(gts, res)
        metric = CocoBLEU(tokenize="none", n=self._n)
        seg = metric.stats(hyps, refs)
        total = metric.score_stats(seg.total())
        per_image = metric.sentence_scores_all(hyps, refs) if len(hyps) else np.zeros((0, self._n))
        if verbose > 0:
            print({"testlen": total.testlen, "reflen": total.reflen, "guess": total.guess, "correct": total.correct})
            print("ratio:", total.ratio)
        return list(total.bleus), [per_image[:, k].tolist() for k in range(self._n)]

    def method(self):
        return "Bleu"


class Cider:
    """``Cider(n=4, sigma=6.0).compute_score(gts, res)`` -> ``(mean, per-image array)`` (CIDEr-D)."""

    def __init__(self, test=None, refs=None, n=4, sigma=6.0):
        self._n = n
        self._sigma = sigma

    def compute_score(self, gts, res):
        hyps, refs = _pairs(gts, res)
        if not hyps:
            # pycocoevalcap's CiderScorer raises ValueError here (max() of no document
            # frequencies); a ValueError too, with a message that says why
            raise InvalidInputError("Cider.compute_score: no images to score (gts and res are empty)")
        metric = CIDEr(tokenize="none", n=self._n, sigma=self._sigma)
        seg = metric.stats(hyps, refs)
        # the metric's corpus value is pycocoevalcap's np.mean of these scores, bit for bit
        return np.float64(metric.score_stats(seg.total()).score), seg.sums[:, 0].copy()

    def method(self):
        return "CIDEr"


class Rouge:
    """``Rouge().compute_score(gts, res)`` -> ``(mean, per-image array)`` (ROUGE-L, beta 1.2)."""

    def __init__(self):
        self.beta = 1.2

    def calc_score(self, candidate, refs):
        assert len(candidate) == 1
        assert len(refs) > 0
        return float(ROUGE("coco", beta=self.beta, tokenize="none").sentence_scores([candidate[0]], [list(refs)])[0])

    def compute_score(self, gts, res):
        hyps, refs = _pairs(gts, res)
        if not hyps:  # np.mean of no scores
            return np.float64("nan"), np.array([])
        metric = ROUGE("coco", beta=self.beta, tokenize="none")
        seg = metric.stats(hyps, refs)
        return np.float64(metric.score_stats(seg.total()).score), seg.sums[:, 2].copy()

    def method(self):
        return "Rouge"


class Meteor:
    """``Meteor().compute_score(gts, res)`` -> ``(corpus METEOR 1.5, [per image])``, natively."""

    def compute_score(self, gts, res):
        hyps, refs = _pairs(gts, res)
        metric = METEOR(tokenize="none")
        seg = metric.stats(hyps, refs)
        return metric.score_stats(seg.total()).score, [float(x) for x in metric._sentence_scores(seg)]

    def method(self):
        return "METEOR"


class PTBTokenizer:
    """``PTBTokenizer().tokenize({image: [{"caption": text}, ...]})`` -> ``{image: [tokenized]}``
    (Stanford PTBTokenizer 3.4.1 ``-preserveLines -lowerCase``, punctuation dropped)."""

    def tokenize(self, captions_for_image):
        image_ids = [k for k, v in captions_for_image.items() for _ in range(len(v))]
        tokens = ptb_tokenize([c["caption"] for v in captions_for_image.values() for c in v])
        out: dict[Any, list[str]] = {}
        for k, line in zip(image_ids, tokens):
            out.setdefault(k, []).append(line)
        return out


class COCOEvalCap:
    """``COCOEvalCap(coco, cocoRes).evaluate()`` on pycocotools-like objects (``getImgIds()``,
    ``imgToAnns``); fills ``eval``, ``imgToEval``, ``evalImgs`` and prints what pycocoevalcap
    prints. SPICE is skipped (a message on stderr says so)."""

    def __init__(self, coco, cocoRes):
        self.evalImgs = []
        self.eval = {}
        self.imgToEval = {}
        self.coco = coco
        self.cocoRes = cocoRes
        self.params = {"image_id": coco.getImgIds()}

    def evaluate(self):
        gts, res = {}, {}
        for img in self.params["image_id"]:
            gts[img] = self.coco.imgToAnns[img]
            res[img] = self.cocoRes.imgToAnns[img]
        print("tokenization...")
        tokenizer = PTBTokenizer()
        gts = tokenizer.tokenize(gts)
        res = tokenizer.tokenize(res)
        print("setting up scorers...")
        scorers = [(Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]), (Meteor(), "METEOR"), (Rouge(), "ROUGE_L"), (Cider(), "CIDEr")]
        for scorer, method in scorers:
            print("computing %s score..." % (scorer.method()))
            score, scores = scorer.compute_score(gts, res)
            if type(method) == list:
                for sc, scs, m in zip(score, scores, method):
                    self.setEval(sc, m)
                    self.setImgToEvalImgs(scs, gts.keys(), m)
                    print("%s: %0.3f" % (m, sc))
            else:
                self.setEval(score, method)
                self.setImgToEvalImgs(scores, gts.keys(), method)
                print("%s: %0.3f" % (method, score))
        print("nlgmetrics: SPICE skipped (not available without Java and Stanford CoreNLP models)", file=sys.stderr)
        self.setEvalImgs()

    def setEval(self, score, method):
        self.eval[method] = score

    def setImgToEvalImgs(self, scores, imgIds, method):
        for img, score in zip(imgIds, scores):
            if img not in self.imgToEval:
                self.imgToEval[img] = {"image_id": img}
            self.imgToEval[img][method] = score

    def setEvalImgs(self):
        self.evalImgs = [ev for _, ev in self.imgToEval.items()]
