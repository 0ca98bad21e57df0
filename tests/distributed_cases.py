"""Shared cases of the Ray and Spark tests: a real corpus slice, every registered metric,
and tiny model-based metrics (built locally, nothing downloaded)."""

from __future__ import annotations

from pathlib import Path

from wmt import by_segment, load_pair

from nlgmetrics import METEOR, available, load
from registry_cases import ONE_REF as ONE_REF_METRICS

N_SEG = 120
NOT_PAIRS = {"self_bleu"}  # one corpus score, no per-segment statistics
ONE_REF_NAMES = ONE_REF_METRICS
TEXT = sorted(e.name for e in available() if e.text and e.name not in NOT_PAIRS)
ONE_REF = [n for n in TEXT if n in ONE_REF_NAMES]
MULTI_REF = [n for n in TEXT if n not in ONE_REF_NAMES]
# Model-based metrics run torch on MODEL_THREADS threads everywhere (the metric's
# n_threads, applied by the local call and by every actor / Python worker), so a block
# scores to the same bits on a worker as locally. One call over the whole corpus batches
# rows into other shapes, which can move float32's last bits: bounded by MODEL_TOL.
MODEL_THREADS = 2
MODEL_TOL = 1e-6
COMET_GOLD = Path(__file__).resolve().parent / "goldens" / "comet"


def make_metric(name: str):
    # METEOR without paraphrases: the same code path, resources load in under a second
    return METEOR(modules=["exact", "stem", "synonym"]) if name == "meteor" else load(name)


def corpus_rows(n: int = N_SEG) -> list[dict]:
    pair = load_pair("zh-en")
    systems = list(pair.systems.values())
    refs = by_segment([s[:n] for s in pair.refs])
    rows = []
    for i in range(n):
        rows.append({
            "prediction": systems[0][i],
            "system_b": systems[1][i],
            "system_c": systems[2][i],
            "references": list(refs[i]),
            "ref1": refs[i][0],
        })
    # adversarial rows: empty, whitespace-only, full-width and CJK text, a duplicate
    rows[3]["prediction"] = ""
    rows[5]["prediction"] = "   "
    rows[7]["prediction"] = "ＡＢＣ　全角 テスト 中文句子"
    rows[9] = dict(rows[8])
    return rows


def local_scores(rows: list[dict], names: list[str], refs_column: str) -> list:
    hyps = [r["prediction"] for r in rows]
    refs = [r[refs_column] for r in rows]
    return [make_metric(n).corpus_score(hyps, refs) for n in names]


def local_segment_scores(rows: list[dict], name: str, refs_column: str):
    return make_metric(name).sentence_scores([r["prediction"] for r in rows], [r[refs_column] for r in rows])


def model_rows(n: int = 24) -> list[dict]:
    pair = load_pair("zh-en")
    hyps = next(iter(pair.systems.values()))[:n]
    refs = by_segment([s[:n] for s in pair.refs])
    sources = _sources(n)
    return [{"prediction": h, "references": r[0], "source": s} for h, r, s in zip(hyps, refs, sources)]


def _sources(n: int) -> list[str]:
    from conftest import CORPORA

    path = CORPORA / "wmt22" / "zh-en" / "generaltest2022.zh-en.src.zh"
    return path.read_text(encoding="utf-8").splitlines()[:n]


def model_metrics(tmp_path_factory, n_threads: int = MODEL_THREADS) -> dict:
    """BERTScore and BLEURT on tiny models built from configs, COMET from the repository's
    tiny golden checkpoint: name -> metric (CPU, torch on ``n_threads`` threads)."""
    from neural_models import tiny_bert, tiny_bleurt

    from nlgmetrics.neural.bertscore import BERTScore
    from nlgmetrics.neural.bleurt import BLEURT
    from nlgmetrics.neural.comet import COMET

    bert = str(tiny_bert(tmp_path_factory.mktemp("tiny-bert-dist")))
    bleurt = str(tiny_bleurt(tmp_path_factory.mktemp("tiny-bleurt-dist")))
    return {
        "bertscore": BERTScore(bert, layer=2, device="cpu", n_threads=n_threads),
        "bleurt": BLEURT(bleurt, device="cpu", n_threads=n_threads),
        "comet": COMET(COMET_GOLD / "da-sparsemax-avg", encoder=COMET_GOLD / "xlmr-tiny", n_threads=n_threads),
    }


def model_local(metric, name: str, rows: list[dict], block: int):
    """(merged total, segment scores) of the local path run block by block, and the
    score of one local call over every row."""
    import numpy as np

    def args(part):
        kw = {"sources": [r["source"] for r in part]} if name == "comet" else {}
        return [r["prediction"] for r in part], [r["references"] for r in part], kw

    total, scores = None, []
    for i in range(0, len(rows), block):
        hyps, refs, kw = args(rows[i:i + block])
        t = metric.stats(hyps, refs, **kw).total()
        total = t if total is None else total + t
        scores.append(metric.sentence_scores(hyps, refs, **kw))
    hyps, refs, kw = args(rows)
    return total, np.concatenate(scores), metric.corpus_score(hyps, refs, **kw)
