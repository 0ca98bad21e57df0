"""Readers and writers."""

# Names are imported on first use: reading a text file (`nlgmetrics score`) should not
# load the chunked readers' json and gzip.
_EXPORTS = {"iter_chunks": ".chunks", "iter_jsonl_chunks": ".chunks", "iter_lines": ".chunks", "iter_pair_chunks": ".chunks", "read_lines": ".text"}

__all__ = ["iter_chunks", "iter_jsonl_chunks", "iter_lines", "iter_pair_chunks", "read_lines"]


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_EXPORTS[name], __name__), name)
    globals()[name] = value
    return value
