"""The bit-exactness sweep: every text metric and flavour that has a Python reference,
run through nlgmetrics and through the reference on the shared corpora, every value
compared with ``==``.

Each check returns :class:`Row` s (one per metric, flavour, reference and kind of value);
a row lists how many values it compared, how many are not bit-equal and the largest
difference in units in the last place. ``bound_ulps`` is ``0`` where the values must be
bit-equal and the documented bound where they cannot be (each bound names the docs page
that explains it). ``tests/test_bitexact_sweep.py`` asserts the rows at a stride that keeps
it quick; ``scripts/bitexact_sweep.py`` prints the table (``--stride 1``: every value).
"""

from __future__ import annotations

import csv
import json
import math
import os
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import numpy as np

REPO = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("NLGMETRICS_SHARED", REPO.parent / "shared")) / "corpora"


@dataclass
class Row:
    metric: str
    flavour: str
    reference: str
    values_kind: str  # what was compared ("sentence", "corpus", "bootstrap low/mid/high", ...)
    corpus: str
    n_values: int = 0
    n_unequal: int = 0
    max_ulps: float = 0.0
    max_diff: float = 0.0
    bound_ulps: float = 0.0  # 0: must be bit-equal
    bound_doc: str = ""  # where the bound is explained
    reporting_only: bool = False  # values another part of the code base is converging

    def add(self, ours: Any, theirs: Any) -> "Row":
        a = np.atleast_1d(np.asarray(ours, dtype=np.float64)).ravel()
        b = np.atleast_1d(np.asarray(theirs, dtype=np.float64)).ravel()
        if a.shape != b.shape:
            raise AssertionError(f"{self.metric} {self.values_kind}: {a.shape} values vs the reference's {b.shape}")
        same = (a == b) | (np.isnan(a) & np.isnan(b))
        self.n_values += a.size
        self.n_unequal += int((~same).sum())
        if (~same).any():
            d = np.abs(a[~same] - b[~same])
            scale = np.spacing(np.maximum(np.abs(a[~same]), np.abs(b[~same])))
            self.max_ulps = max(self.max_ulps, float(np.max(d / scale)))
            self.max_diff = max(self.max_diff, float(np.max(d)))
        return self

    @property
    def ok(self) -> bool:
        return self.n_values > 0 and (self.n_unequal == 0 or self.max_ulps <= self.bound_ulps)


def numpy_mean_bound_ulps(n: int) -> float:
    """How far (in ulps) ``np.mean`` of ``n`` non-negative values can be from their exactly
    rounded mean: numpy's pairwise sum adds sequentially into 8 accumulators within blocks
    of 128 values (16 additions deep, 3 to combine them) and halves above that, so its
    relative error is at most ``(19 + ⌈log2(n / 128)⌉)·2⁻⁵³`` to first order; the division
    and the exact mean's rounding add one more."""
    return 20.0 + max(0, math.ceil(math.log2(max(n, 1) / 128)))


def sequential_sum_bound_ulps(n: int, extra: int = 10) -> float:
    """How far (in ulps) a sum of ``n`` non-negative values added one after the other can be
    from the exactly rounded sum, ``(n - 1)·2⁻⁵³`` relative, plus ``extra`` roundings after it."""
    return float(max(n - 1, 0) + extra)


def _every(k: int, unit: str) -> str:
    return f"every {unit}" if k == 1 else f"every {k}th {unit}"


def ulps(a: float, b: float) -> float:
    return 0.0 if a == b else abs(a - b) / math.ulp(max(abs(a), abs(b)))


def _quiet(fn: Callable, *args: Any, **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


# -- corpora --------------------------------------------------------------------------
def _lines(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").split("\n")[:-1]


def wmt22(stride: int, n_systems: int = 2) -> Iterable[tuple[str, list[list[str]], dict[str, list[str]]]]:
    """(pair, reference streams, {system: hypotheses}) on every ``stride``-th segment."""
    for pair in ("zh-en", "en-zh", "ja-en", "en-ja"):
        d = CORPORA / "wmt22" / pair
        tgt = pair.split("-")[1]
        streams = [_lines(p)[::stride] for p in sorted(d.glob(f"generaltest2022.{pair}.ref.*.{tgt}"))]
        files = sorted((d / "system-outputs").glob("*.hyp.*"))[:n_systems]
        yield pair, streams, {p.name.split(".hyp.")[1][: -len(tgt) - 1]: _lines(p)[::stride] for p in files}


def e2e(stride: int, n_systems: int = 3) -> tuple[list[list[str]], dict[str, list[str]]]:
    """E2E NLG test set (every ``stride``-th meaning representation, each with 2-16
    references) and the first primary systems with plain MR-keyed outputs."""
    d = CORPORA / "e2e"
    with open(d / "testset_w_refs.csv", encoding="utf-8", newline="") as f:
        by_mr: dict[str, list[str]] = {}
        for r in csv.DictReader(f):
            by_mr.setdefault(r["mr"], []).append(r["ref"])
    mrs = list(by_mr)[::stride]
    systems: dict[str, list[str]] = {}
    for p in sorted((d / "system_outputs_primary").glob("*.tsv")):
        with open(p, encoding="utf-8", newline="") as f:
            out = {r[0]: r[1] for r in list(csv.reader(f, delimiter="\t"))[1:] if len(r) >= 2}
        if all(m in out for m in mrs):
            systems[p.stem] = [out[m] for m in mrs]
        if len(systems) == n_systems:
            break
    return [by_mr[m] for m in mrs], systems


def cnndm(stride: int) -> tuple[list[str], list[list[str]]]:
    preds, refs = [], []
    with open(CORPORA / "cnndm_pointer_generator" / "summaries.jsonl", encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i % stride == 0:
                d = json.loads(line)
                preds.append("\n".join(d["pointer-gen-cov"]))
                refs.append(["\n".join(d["reference"])])
    return preds, refs


def earnings21(stride: int, max_words: int = 400) -> tuple[list[str], dict[str, list[str]]]:
    """Each call's first ``max_words`` words (the transcripts run to ~10k words)."""
    d = CORPORA / "earnings21_asr"

    def read(name: str) -> dict[str, str]:
        rows = [json.loads(x) for x in (d / name).read_text(encoding="utf-8").splitlines() if x.strip()]
        return {r["id"]: " ".join(r["text"].split()[:max_words]) for r in rows}

    refs = read("references.jsonl")
    ids = sorted(refs)[:: max(1, stride // 10)]
    systems = {p.stem.removeprefix("hyp_"): read(p.name) for p in sorted(d.glob("hyp_*.jsonl"))}
    return [refs[i] for i in ids], {s: [h.get(i, "") for i in ids] for s, h in systems.items()}


# -- sacrebleu ------------------------------------------------------------------------
OFFICIAL_TOKENIZER = {"zh-en": "13a", "ja-en": "13a", "en-zh": "zh", "en-ja": "char"}


def check_sacrebleu(stride: int) -> list[Row]:
    import sacrebleu.metrics as sb

    from nlgmetrics import BLEU, CHRF, TER

    kinds = {
        "BLEU": (lambda tok: sb.BLEU(tokenize=tok), lambda tok: sb.BLEU(tokenize=tok, effective_order=True),
                 lambda tok: BLEU(tokenize=tok), lambda tok: BLEU(tokenize=tok, effective_order=True)),
        "chrF": (lambda tok: sb.CHRF(), lambda tok: sb.CHRF(), lambda tok: CHRF(), lambda tok: CHRF()),
        "chrF++": (lambda tok: sb.CHRF(word_order=2), lambda tok: sb.CHRF(word_order=2), lambda tok: CHRF(word_order=2), lambda tok: CHRF(word_order=2)),
        "TER": (lambda tok: sb.TER(), lambda tok: sb.TER(), lambda tok: TER(), lambda tok: TER()),
    }
    rows = []
    for name, (sb_corpus, sb_sentence, nm_corpus, nm_sentence) in kinds.items():
        ter_stride = 8 if name == "TER" else 1  # sacrebleu's TER takes seconds per long segment
        corpus = Row(name, "sacrebleu", "sacrebleu 2.6.0", "corpus", f"WMT22 4 pairs, {_every(stride, 'segment')}")
        sentence = Row(name, "sacrebleu", "sacrebleu 2.6.0", "sentence", f"WMT22 4 pairs, {_every(stride * ter_stride, 'segment')}")
        e2e_stride = stride * 4
        multi = Row(name, "sacrebleu", "sacrebleu 2.6.0", "corpus, many references", f"E2E NLG, {_every(e2e_stride, 'MR')} (2-16 references)")
        for pair, streams, systems in wmt22(stride):
            tok = OFFICIAL_TOKENIZER[pair]
            refs = [list(r) for r in zip(*streams)]
            for hyps in systems.values():
                corpus.add(nm_corpus(tok).corpus_score(hyps, refs).score, _quiet(sb_corpus(tok).corpus_score, hyps, streams).score)
                h, r = hyps[::ter_stride], refs[::ter_stride]
                ref_metric = sb_sentence(tok)
                sentence.add(nm_sentence(tok).sentence_scores(h, r), [_quiet(ref_metric.sentence_score, x, y).score for x, y in zip(h, r)])
        e2e_refs, e2e_systems = e2e(e2e_stride)
        width = max(map(len, e2e_refs))
        e2e_streams = [[r[k] if k < len(r) else None for r in e2e_refs] for k in range(width)]  # sacrebleu: None = no reference
        for hyps in e2e_systems.values():
            # TER: sacrebleu adds the average reference lengths (31/3, ...) one segment after
            # the other; the totals keep them in order and add them the same way
            multi.add(nm_corpus("13a").corpus_score(hyps, e2e_refs).score, _quiet(sb_corpus("13a").corpus_score, hyps, e2e_streams).score)
        rows += [sentence, corpus, multi]
    return rows


# -- rouge-score ----------------------------------------------------------------------
ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
PRF_FIELDS = ("precision", "recall", "fmeasure")


def check_rouge_score(stride: int) -> list[Row]:
    from rouge_score import rouge_scorer, scoring

    from nlgmetrics import ROUGE

    preds, refs = cnndm(stride * 8)
    where = f"CNN/DM pointer-generator, {_every(stride * 8, 'summary')} ({len(preds)})"
    rows = []
    for stem in (False, True):
        flavour = "rouge-score" + (" +stemmer" if stem else "")
        sc = rouge_scorer.RougeScorer(ROUGE_TYPES, use_stemmer=stem)
        ref_scores = [sc.score(r[0], p) for p, r in zip(preds, refs)]
        want = np.array([[getattr(d[t], f) for t in ROUGE_TYPES for f in PRF_FIELDS] for d in ref_scores])
        m = ROUGE(rouge_types=ROUGE_TYPES, use_stemmer=stem)
        rows.append(Row("ROUGE", flavour, "rouge-score 0.1.2", "segment P/R/F (4 types)", where).add(m.stats(preds, refs).sums, want))
        s = m.corpus_score(preds, refs)
        got_mean = [getattr(s.types[t], f) for t in ROUGE_TYPES for f in PRF_FIELDS]
        # the reference: numpy's pairwise-summed mean of each list of per-pair values; the
        # totals keep those values in order and reduce them the same way (docs/metrics/rouge.md)
        rows.append(Row("ROUGE", flavour, "rouge-score 0.1.2 + np.mean", "corpus mean P/R/F", where)
                    .add(got_mean, [np.mean([getattr(d[t], f) for d in ref_scores]) for t in ROUGE_TYPES for f in PRF_FIELDS]))
        boot = m.bootstrap(preds, refs, n_samples=100, seed=1234)
        agg = scoring.BootstrapAggregator(n_samples=100)
        for d in ref_scores:
            agg.add_scores(d)
        np.random.seed(1234)
        theirs = agg.aggregate()
        row = Row("ROUGE", flavour, "rouge-score 0.1.2 BootstrapAggregator", "bootstrap low/mid/high", where)
        for t in ROUGE_TYPES:
            for bound in ("low", "mid", "high"):
                row.add(tuple(getattr(boot[t], bound)), tuple(getattr(theirs[t], bound)))
        rows.append(row)
    return rows


# -- nltk ---------------------------------------------------------------------------
def check_nltk(stride: int) -> list[Row]:
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, sentence_bleu
    from nltk.translate.nist_score import corpus_nist, sentence_nist

    from nlgmetrics import BLEU, NIST

    bleu_c = Row("BLEU", "nltk", "nltk 3.10 corpus_bleu", "corpus (method0-5, 7)", f"WMT22 zh-en/ja-en, {_every(stride, 'segment')}")
    bleu_s = Row("BLEU", "nltk", "nltk 3.10 sentence_bleu", "sentence (method1, 4, 7)", f"WMT22 zh-en/ja-en, {_every(stride * 4, 'segment')}")
    # nltk adds the segments' numerators one after the other; the totals keep them in
    # order and add them the same way (docs/metrics/nist.md)
    nist_c = Row("NIST", "nltk", "nltk 3.10 corpus_nist", "corpus", f"WMT22 zh-en/ja-en, {_every(stride, 'segment')}")
    nist_s = Row("NIST", "nltk", "nltk 3.10 sentence_nist", "sentence", f"WMT22 zh-en/ja-en, {_every(stride * 4, 'segment')}")
    sm = SmoothingFunction()
    for pair, streams, systems in wmt22(stride):
        if not pair.endswith("-en"):
            continue
        refs = [list(r) for r in zip(*streams)]
        tok_refs = [[x.split() for x in r] for r in refs]
        for hyps in systems.values():
            tok_hyps = [h.split() for h in hyps]
            for method in (0, 1, 2, 3, 4, 5, 7):  # method6 needs a trigram match in every segment
                want = _quiet(corpus_bleu, tok_refs, tok_hyps, smoothing_function=getattr(sm, f"method{method}"))
                bleu_c.add(BLEU(flavour="nltk", smoothing=f"method{method}").corpus_score(hyps, refs).score, want)
            for method in (1, 4, 7):
                want = [_quiet(sentence_bleu, r, h, smoothing_function=getattr(sm, f"method{method}")) for r, h in zip(tok_refs[::4], tok_hyps[::4])]
                bleu_s.add(BLEU(flavour="nltk", smoothing=f"method{method}").sentence_scores(hyps[::4], refs[::4]), want)
            nist_c.add(NIST("nltk").corpus_score(hyps, refs).score, corpus_nist(tok_refs, tok_hyps, n=5))
            ok, want = [], []
            for i in range(0, len(hyps), 4):
                try:  # nltk divides by zero on a segment shorter than 5 words
                    want.append(sentence_nist(tok_refs[i], tok_hyps[i], n=5))
                    ok.append(i)
                except ZeroDivisionError:
                    pass
            nist_s.add(NIST("nltk").sentence_scores([hyps[i] for i in ok], [refs[i] for i in ok]), want)
    return [bleu_c, bleu_s, nist_c, nist_s]


def check_nltk_meteor(stride: int) -> list[Row]:
    from nltk.translate.meteor_score import meteor_score

    from nlgmetrics import METEOR

    from nltk_wordnet import nltk_wordnet

    with nltk_wordnet() as wordnet:
        if wordnet is None:
            return []
        base = CORPORA / "captioning_coco"
        refs = [json.loads(x)["references"] for x in (base / "references.jsonl").open(encoding="utf-8")]
        files = sorted((base / "systems").glob("*.tsv"))[:: max(1, stride // 4)]
        where = f"COCO captions, {_every(stride * 10, 'image')} of {len(files)} systems"
        sentence = Row("METEOR", "nltk", "nltk 3.10 meteor_score", "sentence", where)
        corpus = Row("METEOR", "nltk", "nltk 3.10 meteor_score + np.mean", "corpus mean", where)
        m = METEOR(flavour="nltk", wordnet=wordnet)
        for f in files:
            hyps = [line.rstrip("\n").split("\t", 1)[1] for line in f.open(encoding="utf-8") if line.strip()][:: stride * 10]
            rs = refs[:: stride * 10][: len(hyps)]
            want = [meteor_score([r.split() for r in x], h.split(), wordnet=wordnet) for h, x in zip(hyps, rs)]
            sentence.add(m.sentence_scores(hyps, rs), want)
            corpus.add(m.corpus_score(hyps, rs).score, np.mean(want))
    return [sentence, corpus]


# -- jiwer --------------------------------------------------------------------------
def check_jiwer(stride: int) -> list[Row]:
    import jiwer

    import nlgmetrics as nm

    refs, systems = earnings21(stride)
    where = f"Earnings-21, {len(refs)} calls x {len(systems)} ASR systems (first 400 words)"
    rows = {k: (Row(k.upper(), "jiwer", "jiwer 4.0", "corpus", where), Row(k.upper(), "jiwer", "jiwer 4.0", "sentence", where)) for k in ("wer", "mer", "wil", "wip", "cer")}
    for hyps in systems.values():
        words = jiwer.process_words(refs, hyps)
        chars = jiwer.process_characters(refs, hyps)
        for k, (corpus, sentence) in rows.items():
            cls = {"wer": nm.WER, "mer": nm.MER, "wil": nm.WIL, "wip": nm.WIP, "cer": nm.CER}[k]
            corpus.add(cls().corpus_score(hyps, refs).score, getattr(chars if k == "cer" else words, k))
            fn = getattr(jiwer, k)
            sentence.add(cls().sentence_scores(hyps, refs), [fn(r, h) for r, h in zip(refs, hyps)])
    return [r for pair in rows.values() for r in pair]


# -- pycocoevalcap ----------------------------------------------------------------------
def check_pycocoevalcap(stride: int) -> list[Row]:
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge

    from nlgmetrics import CIDEr, ROUGE
    from nlgmetrics.tasks.coco import evaluate, ptb_tokenize

    base = CORPORA / "captioning_coco"
    files = sorted((base / "systems").glob("*.tsv"))[:: max(1, stride)]
    ann = [json.loads(x)["references"] for x in (base / "references.jsonl").open(encoding="utf-8")]
    flat = iter(ptb_tokenize([r for rs in ann for r in rs]))
    refs_tok = [[next(flat) for _ in rs] for rs in ann]
    where = f"COCO captions, {len(files)} of {len(list((base / 'systems').glob('*.tsv')))} systems"
    ev_rows = {k: Row(k, "coco", "pycocoevalcap 1.2 (on nlgmetrics' PTB tokens)", "coco.evaluate corpus + per image", where) for k in ("BLEU", "CIDEr-D", "ROUGE-L")}
    cls_rows = {
        "CIDEr-D": Row("CIDEr-D", "cider-d", "pycocoevalcap 1.2", "CIDEr().corpus_score", where, bound_ulps=4, bound_doc="docs/metrics/cider.md", reporting_only=True),
        "ROUGE-L": Row("ROUGE-L", "coco", "pycocoevalcap 1.2", "ROUGE('coco').corpus_score", where, bound_ulps=4, bound_doc="docs/metrics/rouge.md", reporting_only=True),
    }
    for f in files:
        ev = _quiet(evaluate, base / "references.jsonl", f)
        n = len(ev.image_ids)
        hyps_tok = ptb_tokenize([line.rstrip("\n").split("\t", 1)[1] for line in f.open(encoding="utf-8") if line.strip()])
        gts = {i: refs_tok[i] for i in range(n)}
        res = {i: [hyps_tok[i]] for i in range(n)}
        b, b_img = _quiet(Bleu(4).compute_score, gts, res, verbose=0)
        ev_rows["BLEU"].add([ev.eval[f"Bleu_{j + 1}"] for j in range(4)], b)
        ev_rows["BLEU"].add(np.stack([ev.per_image[f"Bleu_{j + 1}"] for j in range(4)]), np.array(b_img))
        c, c_img = Cider().compute_score(gts, res)
        ev_rows["CIDEr-D"].add([ev.eval["CIDEr"], *ev.per_image["CIDEr"]], [c, *c_img])
        r, r_img = Rouge().compute_score(gts, res)
        ev_rows["ROUGE-L"].add([ev.eval["ROUGE_L"], *ev.per_image["ROUGE_L"]], [r, *r_img])
        cls_rows["CIDEr-D"].add(CIDEr(tokenize="none").corpus_score(hyps_tok, refs_tok[:n]).score, c)
        cls_rows["ROUGE-L"].add(ROUGE(flavour="coco", tokenize="none").corpus_score(hyps_tok, refs_tok[:n]).score, r)
    return [*ev_rows.values(), *cls_rows.values()]


# -- scikit-learn -------------------------------------------------------------------
def check_sklearn(stride: int) -> list[Row]:
    import sklearn.metrics as sk

    import nlgmetrics.classification as C

    rows = []
    for name in ("iris", "wine", "digits", "breast_cancer"):
        with open(CORPORA / "classification_sklearn" / f"{name}_oof.csv", newline="") as f:
            data = list(csv.DictReader(f))
        y = np.array([int(r["y_true"]) for r in data])
        prob_cols = [c for c in data[0] if c.startswith("p_")]
        P = np.array([[float(r[c]) for c in prob_cols] for r in data])
        binary = name == "breast_cancer"
        pred = (P[:, 0] >= 0.5).astype(int) if binary else P.argmax(axis=1)
        row = Row("classification", "scikit-learn", "scikit-learn 1.9", "label metrics", f"classification_sklearn {name} ({len(y)} rows)")
        for fn in ("accuracy_score", "balanced_accuracy_score"):
            row.add(getattr(C, fn)(y, pred), getattr(sk, fn)(y, pred))
        for avg in (["binary", "macro", "micro", "weighted"] if binary else ["macro", "micro", "weighted"]):
            row.add(_quiet(C.fbeta_score, y, pred, beta=0.5, average=avg), _quiet(sk.fbeta_score, y, pred, beta=0.5, average=avg))
        for fn in ("precision_score", "recall_score", "f1_score"):
            for avg in (["binary", "macro", "micro", "weighted"] if binary else ["macro", "micro", "weighted"]):
                row.add(_quiet(getattr(C, fn), y, pred, average=avg), _quiet(getattr(sk, fn), y, pred, average=avg))
            row.add(_quiet(getattr(C, fn), y, pred, average=None), _quiet(getattr(sk, fn), y, pred, average=None))
        row.add(C.confusion_matrix(y, pred), sk.confusion_matrix(y, pred))
        row.add(C.multilabel_confusion_matrix(y, pred), sk.multilabel_confusion_matrix(y, pred))
        rows.append(row)
        curves = Row("classification", "scikit-learn", "scikit-learn 1.9", "ranking metrics and curves", row.corpus)
        for k in range(P.shape[1]) if not binary else [0]:
            yk = (y == k).astype(int) if not binary else y
            s = P[:, k]
            for fn in ("roc_auc_score", "average_precision_score"):
                curves.add(getattr(C, fn)(yk, s), getattr(sk, fn)(yk, s))
            for fn in ("roc_curve", "precision_recall_curve"):
                for a, b in zip(getattr(C, fn)(yk, s), getattr(sk, fn)(yk, s)):
                    curves.add(a, b)
            fpr, tpr, _ = sk.roc_curve(yk, s)
            curves.add(C.auc(fpr, tpr), sk.auc(fpr, tpr))
        if not binary:
            for avg in ("macro", "weighted"):
                curves.add(C.roc_auc_score(y, P, multi_class="ovr", average=avg), sk.roc_auc_score(y, P, multi_class="ovr", average=avg))
        rows.append(curves)
    return rows


CHECKS: dict[str, Callable[[int], list[Row]]] = {
    "sacrebleu": check_sacrebleu,
    "rouge-score": check_rouge_score,
    "nltk": check_nltk,
    "nltk-meteor": check_nltk_meteor,
    "jiwer": check_jiwer,
    "pycocoevalcap": check_pycocoevalcap,
    "scikit-learn": check_sklearn,
}


def run(stride: int, only: Sequence[str] | None = None) -> list[Row]:
    rows: list[Row] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tokenization advice (TER on Chinese), nltk's smoothing notes
        for name, check in CHECKS.items():
            if not only or name in only:
                rows += check(stride)
    return rows


def table(rows: Sequence[Row]) -> str:
    head = ("metric", "flavour", "reference", "values", "n", "unequal", "max ulps", "bound", "corpus")
    body = [(r.metric, r.flavour, r.reference, r.values_kind, str(r.n_values), str(r.n_unequal), f"{r.max_ulps:g}",
             ("report " if r.reporting_only else "") + (f"{r.bound_ulps:g} ulp" if r.bound_ulps else "=="), r.corpus) for r in rows]
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    fmt = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([fmt(head), fmt(tuple("-" * w for w in widths)), *map(fmt, body)])
