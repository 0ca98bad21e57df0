"""xCOMET (Guerreiro et al., TACL 2024) from an unbabel-comet XCOMET checkpoint, without unbabel-comet.

``XCOMET(path)`` reads a model directory whose ``hparams.yaml`` says ``class_identifier:
xcomet_metric`` (Unbabel/XCOMET-XL, XCOMET-XXL; encoder ``XLM-RoBERTa-XL``) with the same
rules as :class:`~nlgmetrics.neural.comet.COMET`: local files only, the encoder's config and
tokenizer found next to the model, through ``encoder=`` or in the local Hugging Face cache,
every missing piece an ``InvalidOptionError`` raised when the metric is made.

What it computes, as unbabel-comet 2.2.7's ``XCOMETMetric.predict_step``:

- with references: the translation is encoded jointly with the source, with the reference,
  and with both (``<s> mt </s></s> src </s></s> ref </s>``); each gives a sentence score
  (the estimator on the first token of the layer mix) and word logits (``hidden2tag`` on
  hidden state ``word_layer``); the regression score is ``0.12·min(s_src, 1) +
  0.33·min(s_ref, 1) + 0.33·min(s_joint, 1)``; the label probabilities of the translation's
  tokens are ``0.1667·p_src + 0.3333·p_ref + 0.5·p_joint``;
- without references (QE): only ``mt + src`` (or ``mt + ref`` without sources), regression
  score ``0.78·min(s, 1)``;
- error spans: each token takes its most probable label (``O``, ``I-minor``, ``I-major``,
  ``I-critical``); runs of ``I-*`` tokens are spans (severity of the first token, character
  offsets in the translation, ``text`` the decoded tokens, ``confidence`` the mean of the
  chosen probabilities); as in unbabel-comet a run still open at the last token is dropped,
  and ``<s>`` / ``</s>`` are tokens like the others (a span may start at ``<s>``, offset 0);
- MQM: ``(25 − min(25, Σ {minor: 1, major: 5, critical: 10}))/25``; the score is the
  regression score plus ``0.22·MQM``.

Rows are grouped as unbabel-comet's ``predict`` groups them (sorted by source length with
``numpy.argsort``, ``batch_size`` rows a batch, each batch padded to its longest joint
sequence), so on the same CPU and torch the float32 scores are bit-identical; the
statistics are the segment scores and their count (the system score is their mean).
``predict`` returns the scores with unbabel-comet's ``metadata`` (``error_spans``,
``src_scores``, ``ref_scores``, ``unified_scores``, ``mqm_scores``).
"""

from __future__ import annotations

import copy
import math
import os
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..errors import InvalidOptionError
from .comet import COMET
from ._models import require_torch, torch_threads

# XCOMETMetric's fixed weights (unbabel-comet 2.2.7).
SCORE_WEIGHTS = [0.12, 0.33, 0.33, 0.22]
INPUT_WEIGHTS_SPANS = [0.1667, 0.3333, 0.5]
SEVERITY_POINTS = {"minor": 1, "major": 5, "critical": 10}


@dataclass
class XCOMETPrediction:
    """``scores`` (float64 of the model's output), ``system_score`` (their mean) and
    ``metadata`` as unbabel-comet's ``Prediction.metadata``: ``error_spans`` (one list of
    ``{"text", "confidence", "severity", "start", "end"}`` per segment), ``mqm_scores``,
    ``src_scores`` and, with references, ``ref_scores`` and ``unified_scores``."""

    scores: np.ndarray
    system_score: float
    metadata: dict[str, list[Any]] = field(default_factory=dict)

    @property
    def error_spans(self) -> list[list[dict[str, Any]]]:
        return self.metadata.get("error_spans", [])


class XCOMET(COMET):
    """xCOMET; see the module docstring. ``XCOMET("XCOMET-XL/").corpus_score(hyps, refs, sources=srcs)``;
    ``predict(...)`` adds the error spans."""

    name = "xcomet"
    _classes = ("xcomet_metric",)

    def __init__(
        self,
        model: str | os.PathLike,
        *,
        encoder: str | os.PathLike | None = None,
        sources: Sequence[str] | str | None = None,
        source_references: Sequence[str] | None = None,
        batch_size: int = 16,
        device: "str | int | Any | None" = None,
        dtype: str = "float32",
        n_threads: int = 0,
        cache_size: int = 0,
    ):
        super().__init__(model, encoder=encoder, sources=sources, source_references=source_references, batch_size=batch_size,
                         cache_size=cache_size, device=device, dtype=dtype, n_threads=n_threads)

    def __getstate__(self) -> dict[str, Any]:
        return {**super().__getstate__(), "_last": None}

    def _labels(self) -> dict[int, str]:
        labels = list(self.network.hparams.get("error_labels", ["minor", "major", "critical"]))
        if labels != ["minor", "major", "critical"]:
            raise InvalidOptionError(f"XCOMET checkpoint has error_labels {labels}; unbabel-comet's XCOMET takes minor, major, critical")
        return {0: "O", **{i + 1: f"I-{label}" for i, label in enumerate(labels)}}

    # -- the computation ------------------------------------------------------------------
    def _compute(self, mts: list[str], refs: list[str] | None, srcs: list[str] | None) -> np.ndarray:
        return self._predict(mts, refs, srcs).scores

    def _predict(self, mts: list[str], refs: list[str] | None, srcs: list[str] | None) -> XCOMETPrediction:
        """The prediction of these rows; the last one is kept, so asking for the spans of
        what was just scored (``report``: scores, then spans) computes nothing again."""
        key = (self.batch_size, tuple(mts), None if refs is None else tuple(refs), None if srcs is None else tuple(srcs))
        last = self.__dict__.get("_last")
        if last is not None and last[0] == key:
            prediction = last[1]
        else:
            prediction = self._run(mts, refs, srcs)
            self._last = (key, prediction)
        return XCOMETPrediction(prediction.scores.copy(), prediction.system_score, copy.deepcopy(prediction.metadata))  # callers own theirs

    def _run(self, mts: list[str], refs: list[str] | None, srcs: list[str] | None) -> XCOMETPrediction:
        torch, _ = require_torch()
        net = self.network
        n = len(mts)
        if not n:
            return XCOMETPrediction(np.zeros(0), math.nan, {"error_spans": [], "mqm_scores": [], "src_scores": []})
        key = srcs if srcs is not None else refs
        assert key is not None
        order = np.argsort([len(s) for s in key])  # unbabel-comet's predict: length batching by source
        labels = self._labels()
        both = srcs is not None and refs is not None
        names = ["src_scores", "ref_scores", "unified_scores"] if both else ["src_scores"]
        meta: dict[str, list[Any]] = {k: [None] * n for k in [*names, "mqm_scores", "error_spans"]}
        scores = np.empty(n, dtype=np.float64)
        limit = net.max_positions - 2
        for start in range(0, n, self.batch_size):
            rows = [int(i) for i in order[start : start + self.batch_size]]
            enc = net.tokenizer([str(mts[i]) for i in rows], truncation=True, max_length=limit, return_offsets_mapping=True)
            mt_ids = [list(x) for x in enc["input_ids"]]
            offsets = [[tuple(o) for o in x] for x in enc["offset_mapping"]]
            net.check_ids([mts[i] for i in rows], mt_ids)
            parts = {}
            if srcs is not None:
                parts["src"] = net.tokenize([srcs[i] for i in rows])
            if refs is not None:
                parts["ref"] = net.tokenize([refs[i] for i in rows])
            combos = [("src",), ("ref",), ("src", "ref")] if both else [tuple(parts)]
            sequences = [[net.concat([mt_ids[r]] + [parts[c][r] for c in combo]) for r in range(len(rows))] for combo in combos]
            outputs = [net.joint_forward(seqs) for seqs in sequences]
            first_ids = net.padded_ids(sequences[0])
            seq_len = max(len(x) for x in mt_ids)  # mt_length.max(): the labels of the translation's tokens
            with torch.inference_mode():
                if both:
                    regression = torch.stack(
                        [torch.where(s > 1.0, 1.0, s) * w for (s, _), w in zip(outputs, SCORE_WEIGHTS[:3])], dim=0
                    ).sum(dim=0)
                    probs = [torch.nn.functional.softmax(lg, dim=2)[:, :seq_len, :] * w for w, (_, lg) in zip(torch.tensor(INPUT_WEIGHTS_SPANS), outputs)]
                    probs = torch.sum(torch.stack(probs), dim=0)
                else:
                    s, lg = outputs[0]
                    regression = torch.where(s > 1.0, 1.0, s)
                    probs = torch.nn.functional.softmax(lg, dim=2)[:, :seq_len, :]
                spans = [self._decode(first_ids[r], probs[r], offsets[r], labels) for r in range(len(rows))]
                points = [min(25, sum(SEVERITY_POINTS.get(sp["severity"], 0) for sp in row)) for row in spans]
                mqm = (torch.tensor(points) * -1 + 25) / 25
                if both:
                    final = regression + mqm.to(regression.device) * SCORE_WEIGHTS[3]
                    heads = [s for s, _ in outputs]
                else:
                    final = regression * sum(SCORE_WEIGHTS[:3]) + mqm.to(regression.device) * SCORE_WEIGHTS[3]
                    heads = [regression]
            values = final.double().cpu().numpy()
            for j, i in enumerate(rows):
                scores[i] = values[j]
                meta["error_spans"][i] = spans[j]
                meta["mqm_scores"][i] = float(mqm[j])
                for name, head in zip(names, heads):
                    meta[name][i] = float(head[j])
        return XCOMETPrediction(scores, float(math.fsum(scores) / n), meta)

    def _decode(self, ids: Any, probs: Any, offsets: list[tuple[int, int]], labels: dict[int, str]) -> list[dict[str, Any]]:
        """unbabel-comet's ``UnifiedMetric.decode`` for one row (``decoding_threshold`` unset)."""
        torch, _ = require_torch()
        spans: list[dict[str, Any]] = []
        span: dict[str, Any] = {}
        in_span = False
        for token_id, p, offset in zip(ids[: len(offsets)].tolist(), probs[: len(offsets)], offsets):
            probability, label_value = torch.topk(p, 1)
            label = labels[int(label_value[0].item())]
            if label.startswith("I") and not in_span:
                in_span = True
                span = {"tokens": [token_id], "severity": label.split("-")[1], "offset": list(offset), "confidence": [probability]}
            elif label.startswith("I") and in_span:
                span["tokens"].append(token_id)
                span["confidence"].append(probability)
                span["offset"][1] = offset[1]
            elif label == "O" and in_span:
                spans.append(span)
                in_span, span = False, {}
        return [
            {
                "text": self.network.tokenizer.decode(s["tokens"]),
                "confidence": torch.concat(s["confidence"]).mean().item(),
                "severity": s["severity"],
                "start": int(s["offset"][0]),
                "end": int(s["offset"][1]),
            }
            for s in spans
        ]

    # -- faces ----------------------------------------------------------------------------
    def predict(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> XCOMETPrediction:
        """Scores, system score and unbabel-comet's metadata (error spans, MQM and the
        per-input scores), in the order of the inputs."""
        preds, refs, srcs, _ = self._inputs(predictions, references, sources)
        with torch_threads(self.n_threads):
            return self._predict(preds, refs, srcs)

    def sentence_parts(self, predictions: Sequence[str], references: Any = None) -> dict[str, Any]:
        """``score``, ``mqm_score`` and ``error_spans`` (a list: one list of spans per
        segment) of every segment: the rows of ``nlgmetrics score -m xcomet -sl -f json``."""
        p = self.predict(predictions, references)
        return {"score": p.scores, "mqm_score": np.asarray(p.metadata["mqm_scores"], dtype=np.float64), "error_spans": p.error_spans}

    def error_spans(self, predictions: Sequence[str], references: Any = None, sources: Sequence[str] | str | None = None) -> list[list[dict[str, Any]]]:
        """One list of error spans per prediction (see :meth:`predict`)."""
        return self.predict(predictions, references, sources).error_spans


def xcomet(predictions: Sequence[str], references: Any, sources: Sequence[str], model: str | os.PathLike, **options: Any) -> Any:
    """Mean xCOMET score of the predictions."""
    return XCOMET(model, **options).corpus_score(predictions, references, sources)
