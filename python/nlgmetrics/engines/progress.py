"""Progress bars on stderr for long runs, and chunked statistics extraction to drive them.

:func:`track` wraps any iterable of chunks (lists of segments, file blocks, batches) and
advances a tqdm bar by each chunk's size. It draws only when the stream is a terminal and
tqdm is installed (the ``[report]`` extra), so piped or logged runs stay clean.

:func:`chunked_stats` extracts a metric's per-segment statistics chunk by chunk: each chunk
is one call into the Rust core (the GIL is released inside it, as for a whole batch), and
the chunks' rows are concatenated in order. For metrics whose per-segment statistics do
not depend on the other segments of the batch the result is the same matrix, bit for bit,
as one call on everything; metrics that fit corpus-wide tables on the batch (CIDEr's
document frequencies, NIST's information weights, Distinct-n's unions, Self-BLEU) are
extracted in one piece.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO, TypeVar

    T = TypeVar("T")

DEFAULT_CHUNK_SIZE = 2048

# Metric classes whose statistics are computed segment by segment, each row from its own
# hypothesis and references only (checked bit for bit against one batch in tests). Named,
# not imported, so that this module stays cheap; subclasses are not assumed to qualify.
_M = "nlgmetrics.metrics."
SEGMENT_LOCAL = frozenset(
    {
        _M + "bleu:SacreBLEU",
        _M + "chrf:SacreCHRF",
        _M + "ter:SacreTER",
        _M + "wer:WER",
        _M + "wer:CER",
        _M + "wer:MER",
        _M + "wer:WIL",
        _M + "wer:WIP",
        _M + "per:PER",
        _M + "rouge:RougeScoreROUGE",
        _M + "meteor:Meteor15",
    }
)


# Where a file name may be cut to tell systems apart (:func:`display_names`).
SEPARATORS = "._-"


def display_names(names: list[str]) -> dict[str, str]:
    """The part of each file name that tells the systems apart: no directories, and no
    prefix or suffix that every name shares (cut at a '.', '_' or '-'), so
    ``wmt22.zh-en.hyp.sys1.en`` and ``wmt22.zh-en.hyp.sys2.en`` show as ``sys1`` and ``sys2``."""
    base = {n: os.path.basename(n) or n for n in names}
    if len(set(base.values())) != len(names):
        return {n: n for n in names}
    if len(names) < 2:
        return base
    values = list(base.values())
    prefix = os.path.commonprefix(values)
    prefix = prefix[: max(prefix.rfind(c) for c in SEPARATORS) + 1]
    suffix = os.path.commonprefix([v[::-1] for v in values])[::-1]
    cuts = [suffix.find(c) for c in SEPARATORS if c in suffix]
    suffix = suffix[min(cuts) :] if cuts else ""
    short = {n: v[len(prefix) : len(v) - len(suffix)] for n, v in base.items()}
    return short if all(short.values()) and len(set(short.values())) == len(names) else base


def label(system: str | None, metric: str) -> str:
    """A bar's label: the system's shown name (:func:`display_names`) and the metric."""
    return f"{system} {metric}" if system else metric


def enabled(stream: TextIO | None = None, quiet: bool = False) -> bool:
    """Whether a bar would draw: not ``quiet``, the stream is a terminal, tqdm is importable."""
    if quiet:
        return False
    stream = sys.stderr if stream is None else stream
    try:
        if not stream.isatty():
            return False
    except (AttributeError, ValueError):  # closed or file-like objects without a terminal
        return False
    try:
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True


def track(
    chunks: Iterable[T],
    *,
    total: int | None = None,
    desc: str | None = None,
    unit: str = "seg",
    size: Callable[[T], int] = len,  # type: ignore[assignment]
    show: bool | None = None,
    stream: TextIO | None = None,
) -> Iterator[T]:
    """Yield ``chunks`` unchanged while a bar counts ``size(chunk)`` units per chunk.

    ``show=None`` decides with :func:`enabled`; ``show=True`` draws on any stream (tests,
    notebooks) and needs tqdm.
    """
    stream = sys.stderr if stream is None else stream
    if show is None:
        show = enabled(stream)
    if not show:
        yield from chunks
        return
    try:
        from tqdm import tqdm
    except ImportError:
        from ..errors import MissingExtraError

        raise MissingExtraError("progress bars need tqdm: pip install 'nlgmetrics[report]'") from None
    bar = tqdm(total=total, desc=desc, unit=unit, file=stream, leave=False, dynamic_ncols=True, mininterval=0.2)
    try:
        for chunk in chunks:
            yield chunk
            bar.update(size(chunk))
    finally:
        bar.close()


def chunk_ranges(n: int, chunk_size: int) -> list[tuple[int, int]]:
    """``[start, end)`` ranges covering ``range(n)`` in order, ``chunk_size`` at most each."""
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        from ..errors import InvalidOptionError

        raise InvalidOptionError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    return [(start, min(start + chunk_size, n)) for start in range(0, n, chunk_size)]


def segment_local(metric: Any) -> bool:
    """Whether ``metric``'s per-segment statistics can be extracted in independent chunks."""
    cls = type(metric._metric) if isinstance(metric, ChunkedMetric) else type(metric)
    return f"{cls.__module__}:{cls.__qualname__}" in SEGMENT_LOCAL


def chunked_stats(
    metric: Any,
    predictions: Sequence[str],
    references: Sequence[Any],
    *,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    desc: str | None = None,
    show: bool | None = None,
    stream: TextIO | None = None,
):
    """``metric.stats(predictions, references)``, extracted in chunks behind a progress bar.

    Bit-identical to one call (the rows are the same and come in the same order); metrics
    that are not :func:`segment_local` are extracted in one chunk.
    """
    chunk_ranges(1, chunk_size)
    if not segment_local(metric):  # its own inputs and corpus-wide fitting: one call, as is
        return metric.stats(predictions, references)
    preds, refs = metric._prepare(predictions, references)
    n = len(preds)
    ranges = chunk_ranges(n, chunk_size) or [(0, 0)]
    parts = []
    for start, end in track(ranges, total=n, desc=desc or metric.name, size=lambda r: r[1] - r[0], show=show, stream=stream):
        parts.append(metric.stats(preds[start:end], refs[start:end]))
    out = parts[0]
    for part in parts[1:]:
        out = out + part
    return out


class ChunkedMetric:
    """A metric whose ``stats`` and ``corpus_score`` go through :func:`chunked_stats`.

    Everything else is the wrapped metric's own, so command-line code can wrap the metrics
    it loaded without changing how it uses them.
    """

    def __init__(self, metric: Any, *, chunk_size: int = DEFAULT_CHUNK_SIZE, show: bool | None = None, stream: TextIO | None = None, desc: str | None = None):
        self._metric = metric
        self._chunk_size = chunk_size
        self._show = show
        self._stream = stream
        self._desc = desc  # the bar's label (default: the metric's name)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._metric, name)

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        # isinstance() sees the wrapped metric's class: code that dispatches on the metric
        # class (sacrebleu's float32 bootstrap scorers) treats the wrapper as the metric.
        return type(self._metric)

    def stats(self, predictions: Sequence[str], references: Sequence[Any]):
        return chunked_stats(self._metric, predictions, references, chunk_size=self._chunk_size, desc=self._desc, show=self._show, stream=self._stream)

    def corpus_score(self, predictions: Sequence[str], references: Sequence[Any]):
        if not segment_local(self._metric):  # corpus-fitted metrics keep their own path
            return self._metric.corpus_score(predictions, references)
        return self._metric.score_stats(self.stats(predictions, references).total())

    def __repr__(self) -> str:
        return f"ChunkedMetric({self._metric!r})"


def add_flags(parser: Any, chunk_size: bool = True) -> None:
    """``--quiet`` (no progress bar) and, unless the subcommand has its own, ``--chunk-size``."""
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress bar on stderr (it is drawn only on a terminal anyway)")
    if chunk_size:
        parser.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE, help=f"segments per core call behind the progress bar (default: {DEFAULT_CHUNK_SIZE}); results do not depend on it")


def wrap(metrics: list[tuple[str, Any]], args: Any, system: str | None = None) -> list[tuple[str, Any]]:
    """The CLI's ``(name, metric)`` list with chunked, progress-tracked extraction; each
    bar is labelled with ``system`` (a name from :func:`display_names`) and the metric's
    name as given (``sysA bleu``), as the report's bars are."""
    quiet = getattr(args, "quiet", False)
    # `score --chunk-size` is optional (it switches on streaming); None means the default.
    chunk_size = getattr(args, "chunk_size", None) or DEFAULT_CHUNK_SIZE
    chunk_ranges(1, chunk_size)  # validate early: a usage error before any work
    if not enabled(sys.stderr, quiet):
        return metrics  # no bar to drive: one core call per batch, no chunking overhead
    return [(name, ChunkedMetric(m, chunk_size=chunk_size, show=True, desc=label(system, name))) for name, m in metrics]


__all__ = ["ChunkedMetric", "add_flags", "chunk_ranges", "chunked_stats", "display_names", "enabled", "label", "segment_local", "track", "wrap"]
