"""Command-line options of ``codebleu`` (which reference's program, the language, the four weights).

The choices are literals so that ``--help`` imports no metric module; a test checks them
against ``metrics/programs/codebleu.py``'s ``FLAVOURS`` and ``LANGUAGES``."""

from __future__ import annotations

import argparse

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any

from .options import register_options

FLAVOURS = ("codexglue", "codebleu-0.7")
LANGUAGES = ("python", "java", "javascript", "c_sharp", "go", "c", "cpp", "php", "ruby", "rust")


def _add(g: argparse._ArgumentGroup) -> None:
    g.add_argument("--codebleu-flavour", default=None, choices=FLAVOURS,
                   help="codebleu: microsoft/CodeXGLUE's calc_code_bleu (codexglue, default) or PyPI codebleu 0.7.0")
    g.add_argument("--codebleu-language", default=None, choices=LANGUAGES,
                   help="codebleu: the programming language of hypotheses and references (default python; flavour codexglue: python, java, c_sharp)")
    g.add_argument("--codebleu-weights", default=None, metavar="A,B,C,D",
                   help="codebleu: weights of n-gram, weighted n-gram, syntax and data-flow match (default 0.25,0.25,0.25,0.25)")


def _collect(a: argparse.Namespace) -> dict[str, Any]:
    pairs = (("flavour", a.codebleu_flavour), ("language", a.codebleu_language), ("weights", a.codebleu_weights))
    return {k: v for k, v in pairs if v is not None}


register_options("codebleu", _add, _collect)
