"""The full ROUGE-1.5.5 differential campaign (run by hand; the CI test runs a sample).

    python tests/differential/rouge155_campaign.py --adversarial 1000 --out /tmp/rouge155-campaign.json

Every option set of ``ADVERSARIAL_RUNS`` on ``--adversarial`` generated evaluations (seed
2026), and every option set of ``CORPUS_RUNS`` on all CNN/DM documents and on the WMT22
English segments; prints and writes the number of values compared and every difference.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conftest import CORPORA  # noqa: E402
from differential import rouge155_perl as H  # noqa: E402
from differential.rouge155_adversarial import evaluations  # noqa: E402
from differential.rouge155_real import cnndm, wmt22_english  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--adversarial", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--cnndm-step", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=1000)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    jobs = [("adversarial", *evaluations(args.adversarial, args.seed), H.ADVERSARIAL_RUNS)] if args.adversarial else []
    jobs.append(("wmt22-en", *wmt22_english(CORPORA), H.CORPUS_RUNS))
    jobs.append(("cnndm", *cnndm(CORPORA, step=args.cnndm_step), H.CORPUS_RUNS))
    report = {"values": 0, "evaluations": 0, "differences": []}
    for name, peers, models, runs in jobs:
        for run in runs:
            t = time.time()
            for lo in range(0, len(peers), args.chunk):
                p, m = peers[lo : lo + args.chunk], models[lo : lo + args.chunk]
                out = H.run_perl(run, p, m, timeout=7200)
                n, diffs = H.compare(f"{name} {' '.join(run.perl)} -z {run.fmt}", run, p, m, out)
                report["values"] += n
                report["evaluations"] += len(p)
                for d in diffs:
                    i = lo + d.eval_index if d.eval_index >= 0 else -1
                    report["differences"].append({"run": d.run, "name": d.name, "eval": i, "perl": d.perl, "ours": d.ours,
                                                  "peer": peers[i] if i >= 0 else None, "models": models[i][: run.n_models] if i >= 0 else None})
            print(f"{name:12s} {' '.join(run.perl):50s} {run.fmt} {len(peers)} evals {time.time() - t:7.1f}s "
                  f"total diffs {len(report['differences'])}", flush=True)
            args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(f"{report['values']} values over {report['evaluations']} evaluation runs, {len(report['differences'])} differences")


if __name__ == "__main__":
    main()
