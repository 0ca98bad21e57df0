"""METEOR 1.5: nlgmetrics (native) vs pycocoevalcap's Meteor (Java jar), same data,
one process run. 5,000 COCO images x 5 references (captioning_coco,
mscoco__contrastive_result). pycocoevalcap's time includes the JVM start-up and its
loading of the paraphrase table, so ours includes loading the resources (cold); the
warm row reuses them. Peak memory: max RSS of this process (ours) and of the Java
child process (pycocoevalcap).

Usage: python benches/bench_meteor.py [../shared/corpora]
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def load(corpora: Path, system: str = "mscoco__contrastive_result", n_refs: int = 5):
    c = corpora / "captioning_coco"
    refs = {}
    for line in (c / "references.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        refs[d["image_name"]] = d["references"][:n_refs]
    rows = [line.split("\t", 1) for line in (c / "systems" / f"{system}.tsv").read_text(encoding="utf-8").split("\n") if line]
    return [h for _, h in rows], [refs[i] for i, _ in rows]


def timed(f):
    w, c = time.perf_counter(), time.process_time()
    out = f()
    return out, time.perf_counter() - w, time.process_time() - c


def main() -> None:
    corpora = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpora"
    hyps, refs = load(corpora)
    import nlgmetrics

    rows = []
    metric, t_load, c_load = timed(lambda: nlgmetrics.METEOR())
    ours, t_score, c_score = timed(lambda: metric.corpus_score(hyps, refs).score)
    rows.append(("nlgmetrics METEOR (cold: + resource loading)", t_load + t_score, c_load + c_score, ours))
    _, t_warm, c_warm = timed(lambda: metric.corpus_score(hyps, refs).score)
    rows.append(("nlgmetrics METEOR (warm)", t_warm, c_warm, ours))
    rss_ours = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    from pycocoevalcap.meteor.meteor import Meteor

    def run_jar():
        m = Meteor()
        score, _ = m.compute_score({i: r for i, r in enumerate(refs)}, {i: [h] for i, h in enumerate(hyps)})
        del m
        return score

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    w = time.perf_counter()
    ref_score = run_jar()
    t_ref = time.perf_counter() - w
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    c_ref = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss_java = after.ru_maxrss / 1024

    print(f"METEOR 1.5, {len(hyps)} hypotheses x {len(refs[0])} references\n")
    print("| implementation | wall s | CPU s | vs pycocoevalcap (wall) | peak RSS MB | corpus score |")
    print("|---|---|---|---|---|---|")
    print(f"| pycocoevalcap Meteor (java, incl. JVM start) | {t_ref:.2f} | {c_ref:.2f} | 1.0x | {rss_java:.0f} (java) | {ref_score!r} |")
    for name, t, c, s in rows:
        print(f"| {name} | {t:.2f} | {c:.2f} | {t_ref / t:.1f}x faster | {rss_ours:.0f} (python) | {s!r} |")
    print(f"\nidentical corpus score: {ours == ref_score}")


if __name__ == "__main__":
    main()
