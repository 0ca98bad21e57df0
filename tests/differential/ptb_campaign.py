"""Full differential campaign of the PTB tokenizer against the CoreNLP 3.4.1 jar.

    python tests/differential/ptb_campaign.py adversarial --n 1000000 --seed 2026
    python tests/differential/ptb_campaign.py corpora

The jar's outputs are cached (``--cache DIR``, one file per batch of generated captions), so
a rerun after a change to nlgmetrics only runs the jar on batches it has not seen. Prints the
number compared, the number that differ, and the first differences.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conftest import CORPORA  # noqa: E402
from differential.ptb_adversarial import captions  # noqa: E402
from differential.ptb_jar import JAR_LINE_BREAKS, corpus_lines, jar_tokenize, ours  # noqa: E402


def jar_cached(batch: list[str], cache: Path | None) -> list[str]:
    if cache is None:
        return jar_tokenize(batch)
    key = hashlib.sha256("\n".join(batch).encode("utf-8", "surrogatepass")).hexdigest()[:24]
    f = cache / f"{key}.json"
    if f.is_file():
        return json.loads(f.read_text(encoding="utf-8"))
    out = jar_tokenize(batch)
    cache.mkdir(parents=True, exist_ok=True)
    f.write_text(json.dumps(out), encoding="utf-8")
    return out


def campaign(caps: list[str], batch: int, cache: Path | None, show: int) -> tuple[int, int]:
    caps = [c.replace("\n", " ") for c in caps if not any(b in c for b in JAR_LINE_BREAKS)]
    bad = 0
    for k in range(0, len(caps), batch):
        chunk = caps[k : k + batch]
        want = jar_cached(chunk, cache)
        got = ours(chunk)
        for c, g, w in zip(chunk, got, want):
            if g != w:
                bad += 1
                if bad <= show:
                    print(f"{c!r}\n  ours {g!r}\n  jar  {w!r}")
        print(f"... {min(k + batch, len(caps))} compared, {bad} differ", file=sys.stderr)
    return len(caps), bad


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["adversarial", "corpora"])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--batch", type=int, default=50_000)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--show", type=int, default=40)
    args = ap.parse_args()
    if args.what == "adversarial":
        caps = captions(args.n, seed=args.seed)
    else:
        caps = list(corpus_lines(CORPORA))
    n, bad = campaign(caps, args.batch, args.cache, args.show)
    print(f"{args.what}: {n} compared, {bad} differ ({bad / max(n, 1):.4%})")


if __name__ == "__main__":
    main()
