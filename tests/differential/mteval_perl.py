"""Differential harness for mteval-v13a.pl (NIST and BLEU as the NIST script prints them).

No package registry ships mteval-v13a.pl, so CI compares against golden files made once by
running the original (scripts/goldens/make_mteval_differential_goldens.py); where a copy of
the script is at hand (``NLGMETRICS_MTEVAL=/path/to/mteval-v13a.pl``, with Perl and
XML::Twig), the tests also run it live on freshly generated inputs.

The contract: raw text (one segment per string) is written into NIST SGML with ``&``, ``<``
and ``>`` escaped (the only way to put arbitrary text into the SGML the script reads: WMT's
files do the same), one document, segments numbered from 1, one reference set per
reference stream (missing references padded with empty segments). The script runs with
``-d 2`` and prints, with ``%.4f``: every segment's NIST (5-grams) and BLEU (4-grams), the
document's, the system's, and the individual and cumulative 1..9-gram tables.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Sequence

SEG_LINE = re.compile(r'^  (NIST|BLEU) score using [45]-grams = (\S+) for system "sys" on segment (\d+) of document "d"')
DOC_LINE = re.compile(r'^(NIST|BLEU) score using +[45]-grams = (\S+) for system "sys" on document "d"')
TABLE_LINE = re.compile(r"^ (NIST|BLEU):((?:\s+\S+){9})\s+\"sys\"$")


def script_path() -> Path | None:
    p = os.environ.get("NLGMETRICS_MTEVAL")
    return Path(p) if p and Path(p).is_file() else None


def perl_available() -> bool:
    if script_path() is None or shutil.which("perl") is None:
        return False
    return subprocess.run(["perl", "-MXML::Twig", "-e", "1"], capture_output=True).returncode == 0


def escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def sgml(kind: str, sets: Sequence[Sequence[str]]) -> str:
    """NIST SGML: one document ``d``; ``sets`` = one list of segments per system or reference."""
    tag = {"src": "srcset", "ref": "refset", "tst": "tstset"}[kind]
    out = [f'<{tag} setid="s" srclang="any" trglang="en">']
    for k, segs in enumerate(sets):
        sysid = f"r{k}" if kind == "ref" else "sys"
        out.append(f'<doc docid="d" genre="g" sysid="{sysid}">')
        out += [f'<seg id="{i}">{escape(s)}</seg>' for i, s in enumerate(segs, 1)]
        out.append("</doc>")
    out.append(f"</{tag}>")
    return "\n".join(out) + "\n"


def reference_streams(refs: Sequence[Sequence[str]]) -> list[list[str]]:
    n_refs = max(len(r) for r in refs)
    return [[r[k] if k < len(r) else "" for r in refs] for k in range(n_refs)]


def run(script: Path, hyps: Sequence[str], refs: Sequence[Sequence[str]], case_sensitive: bool, timeout: float = 3600) -> dict:
    """The printed numbers (strings, as printed) of one ``-d 2`` run."""
    with tempfile.TemporaryDirectory(prefix="mteval-diff-") as d:
        p = Path(d)
        (p / "src.sgm").write_text(sgml("src", [hyps]), encoding="utf-8")
        (p / "ref.sgm").write_text(sgml("ref", reference_streams(refs)), encoding="utf-8")
        (p / "tst.sgm").write_text(sgml("tst", [hyps]), encoding="utf-8")
        cmd = ["perl", str(script), "-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm", "-d", "2"] + (["-c"] if case_sensitive else [])
        proc = subprocess.run(cmd, cwd=d, capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"mteval-v13a.pl failed: {proc.stderr.decode('utf-8', 'replace')[-2000:]}")
    return parse(proc.stdout.decode("utf-8"), len(hyps))


def parse(out: str, n: int) -> dict:
    seg: dict[str, list] = {"NIST": [None] * n, "BLEU": [None] * n}
    doc: dict[str, str] = {}
    tables: dict[str, list[list[str]]] = {"NIST": [], "BLEU": []}  # [individual, cumulative]
    for line in out.splitlines():
        m = SEG_LINE.match(line)
        if m:
            seg[m.group(1)][int(m.group(3)) - 1] = m.group(2)
            continue
        m = DOC_LINE.match(line)
        if m:
            doc[m.group(1)] = m.group(2)
            continue
        m = TABLE_LINE.match(line)
        if m:
            tables[m.group(1)].append(m.group(2).split())
    return {
        "segments": seg,
        "document": doc,
        "individual": {k: v[0] for k, v in tables.items()},
        "cumulative": {k: v[1] for k, v in tables.items()},
    }


def four(x: float) -> str:
    return f"{x:.4f}"


def ours_nist(hyps: Sequence[str], refs: Sequence[Sequence[str]], case_sensitive: bool) -> dict:
    """nlgmetrics' NIST (mteval flavour) in the printed form of :func:`parse`."""
    from nlgmetrics import NIST

    refs = reference_streams(refs)
    refs = [[s[i] for s in refs] for i in range(len(hyps))]
    nist5 = NIST("mteval", n=5, case_sensitive=case_sensitive)
    seg = [four(x) for x in nist5.sentence_scores(list(hyps), refs)]
    s9 = NIST("mteval", n=9, case_sensitive=case_sensitive).corpus_score(list(hyps), refs)
    cum, total = [], 0.0
    for p in s9.precisions:  # mteval: score += info_n / max(count_n, 1); cum_n = score * penalty
        total += p
        cum.append(four(total * s9.penalty))
    return {
        "segments": seg,
        "document": four(nist5.corpus_score(list(hyps), refs).score),
        "individual": [four(p * s9.penalty) for p in s9.precisions],
        "cumulative": cum,
    }


def ours_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]], case_sensitive: bool) -> str:
    """sacrebleu-style BLEU (13a, exp smoothing) on the same text, as a 0-1 ``%.4f`` string."""
    from nlgmetrics import BLEU

    streams = reference_streams(refs)
    per_segment = [[s[i] for s in streams] for i in range(len(hyps))]
    return four(BLEU(lowercase=not case_sensitive).corpus_score(list(hyps), per_segment).score / 100)


def nist_differences(printed: dict, ours: dict) -> tuple[int, list[tuple[str, int, str, str]]]:
    """(values compared, [(what, index, perl, ours)]) for the NIST numbers."""
    diffs = []
    n = 0
    for i, (p, o) in enumerate(zip(printed["segments"]["NIST"], ours["segments"])):
        n += 1
        if p != o:
            diffs.append(("segment", i, p, o))
    for what in ("individual", "cumulative"):
        for i, (p, o) in enumerate(zip(printed[what]["NIST"], ours[what])):
            n += 1
            if p != o:
                diffs.append((what, i + 1, p, o))
    n += 1
    if printed["document"]["NIST"] != ours["document"]:
        diffs.append(("document", 0, printed["document"]["NIST"], ours["document"]))
    return n, diffs
