"""Readers and writers."""

from .text import read_lines

__all__ = ["read_lines"]
