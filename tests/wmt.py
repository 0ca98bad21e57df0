"""The WMT22 pairs in ../shared/corpora/wmt22: references and system outputs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from conftest import CORPORA, read_lines

PAIRS = ("zh-en", "en-zh", "ja-en", "en-ja")
# The tokenizer each pair's official BLEU used (wmt22/SOURCE.md).
OFFICIAL_TOKENIZER = {"zh-en": "13a", "ja-en": "13a", "en-zh": "zh", "en-ja": "char"}


@dataclass
class Pair:
    name: str
    refs: list[list[str]]  # one list per reference stream
    systems: dict[str, list[str]]

    @property
    def target(self) -> str:
        return self.name.split("-")[1]


def load_pair(name: str) -> Pair:
    d = CORPORA / "wmt22" / name
    tgt = name.split("-")[1]
    refs = [read_lines(p) for p in sorted(d.glob(f"generaltest2022.{name}.ref.*.{tgt}"))]
    systems = {
        p.name.split(".hyp.")[1][: -len(tgt) - 1]: read_lines(p)
        for p in sorted((d / "system-outputs").glob("*.hyp.*"))
    }
    return Pair(name, refs, systems)


def by_segment(streams: list[list[str]]) -> list[list[str]]:
    return [list(seg) for seg in zip(*streams)]


def official_scores(metric: str = "bleu-all") -> dict[tuple[str, str], float]:
    out = {}
    for line in (CORPORA / "wmt22" / "automatic-scores.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        pair, system, _id, _c, m, score = line.split("\t")
        if m == metric and pair in PAIRS:
            out[(pair, system)] = float(score)
    return out


def exists() -> bool:
    return Path(CORPORA / "wmt22").is_dir()
