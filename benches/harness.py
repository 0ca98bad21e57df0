"""Run benchmark cases side by side, each in a forked child so peak memory is its own."""

from __future__ import annotations

import os
import pickle
import resource
import sys
import time
from typing import Any, Callable


def measure(fn: Callable[[], Any], repeat: int = 1) -> dict[str, float]:
    """Best wall time over `repeat` runs and the child's peak RSS (MiB), measured in a fork."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            best = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                fn()
                best = min(best, time.perf_counter() - t)
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            out = {"seconds": best, "peak_mib": peak / 1024, "delta_mib": max(0, peak - base) / 1024}
        except Exception as e:  # report, never hang the parent
            out = {"error": f"{type(e).__name__}: {e}"}
        with os.fdopen(w, "wb") as fh:
            pickle.dump(out, fh)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        out = pickle.load(fh)
    os.waitpid(pid, 0)
    return out


def table(rows: list[tuple[str, str, dict, dict]]) -> str:
    """Markdown: case, peer, peer time, ours, speed-up, peer/our extra memory."""
    lines = [
        "| case | peer | peer s | nlgmetrics s | speed-up | peer +MiB | nlgmetrics +MiB |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for case, peer, p, o in rows:
        if "error" in p or "error" in o:
            lines.append(f"| {case} | {peer} | {p.get('error', '')} | {o.get('error', '')} | | | |")
            continue
        lines.append(
            f"| {case} | {peer} | {p['seconds']:.3f} | {o['seconds']:.4f} | {p['seconds'] / o['seconds']:.0f}× "
            f"| {p['delta_mib']:.0f} | {o['delta_mib']:.0f} |"
        )
    return "\n".join(lines)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)
