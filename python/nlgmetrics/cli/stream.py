"""``nlgmetrics score --chunk-size N`` / ``--scheduler ADDRESS``: streaming corpus scores.

Files are read ``N`` segments at a time and only merged statistics are kept, so memory
does not grow with the corpus (see :mod:`nlgmetrics.engines.streaming`). With ``--scheduler``
each chunk's statistics are computed on a Dask cluster and merged here in chunk order:
the numbers are those of the local run, bit for bit.
"""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Callable

# io.chunks.DEFAULT_CHUNK_SIZE, for the help text without importing the readers at
# start-up (tests/test_startup.py keeps the two equal)
DEFAULT_CHUNK_SIZE = 20_000


def add_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("streaming and clusters")
    g.add_argument("--chunk-size", type=int, default=None, metavar="N",
                   help=f"stream the input N segments at a time in bounded memory (default with --scheduler: {DEFAULT_CHUNK_SIZE})")
    g.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="compute chunk statistics on a Dask cluster (tcp://host:8786); needs the [dask] extra")


def wanted(args: argparse.Namespace) -> bool:
    return getattr(args, "chunk_size", None) is not None or getattr(args, "scheduler", None) is not None


def run(args: argparse.Namespace, metrics: list[tuple[str, Any]], usage_error: Callable[[str], Exception]) -> list[dict[str, Any]]:
    """Corpus results of every system and metric, in ``_score``'s result-dict shape."""
    from ..engines import two_phase
    from ..io.chunks import iter_jsonl_chunks, iter_pair_chunks
    from ..engines.streaming import score_chunks

    chunk_size = args.chunk_size if args.chunk_size is not None else DEFAULT_CHUNK_SIZE
    if chunk_size < 1:
        raise usage_error(f"--chunk-size must be a positive integer, got {chunk_size}")
    if args.sentence_level or args.confidence:
        raise usage_error("--chunk-size/--scheduler give corpus scores; drop --sentence-level/--confidence")
    objs = [m for _, m in metrics]
    if args.jsonl:
        if args.references or args.input:
            raise usage_error("--jsonl replaces -r/-i; give one or the other")
        systems = [(args.jsonl, lambda: iter_jsonl_chunks(args.jsonl, chunk_size))]
    else:
        if not args.references:
            raise usage_error("no reference given: use -r REF (repeat for several references)")
        hyps = args.input or ["-"]
        systems = [(h, (lambda h=h: iter_pair_chunks(h, args.references, chunk_size))) for h in hyps]
    reads_stdin = args.jsonl == "-" if args.jsonl else "-" in (args.input or ["-"])
    if reads_stdin and any(two_phase.needs_table(m) for m in objs):
        raise usage_error("CIDEr/NIST read the corpus twice when streaming: give the input as a file, not stdin")
    mapper = None
    client = None
    if args.scheduler:
        from ..integrations.dask import client_mapper, connect

        client = connect(args.scheduler)
        mapper = client_mapper(client)
    try:
        results = []
        for sys_name, source in systems:
            scores = score_chunks(objs, source, mapper=mapper) if mapper else score_chunks(objs, source)
            for score in scores:
                d = score.to_dict()
                d["system"] = sys_name
                d["signature"] = score.signature.format(short=args.short)
                d["_text"] = score.format(width=args.width, score_only=args.score_only)
                results.append(d)
        return results
    finally:
        if client is not None:
            client.close()
