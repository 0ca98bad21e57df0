"""Readers and writers."""

from .chunks import iter_chunks, iter_jsonl_chunks, iter_lines, iter_pair_chunks
from .text import read_lines

__all__ = ["iter_chunks", "iter_jsonl_chunks", "iter_lines", "iter_pair_chunks", "read_lines"]
