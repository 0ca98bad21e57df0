"""`score`'s lean parse (only the options a command line names declared for real) equals
the full parser's, and declines whenever it might not; argparse's help width without
shutil is shutil's."""

from __future__ import annotations

import argparse
import os
import shutil
import sys

import pytest

from nlgmetrics.cli import main
from nlgmetrics.cli.main import _help_width, _lean_score, build_parser, subparsers
from nlgmetrics.cli.checks import metric_dests
from nlgmetrics.cli.options import OPTION_SETS, add_defaults, option_set

FULL = build_parser("score")
SCORE = subparsers(FULL)["score"]

AGREE = [
    ["score"],
    ["score", "-m", "bleu", "-r", "ref.txt", "-i", "hyp.txt"],
    ["score", "-m", "bleu", "chrf", "ter", "rouge", "-r", "r1", "-r", "r2", "-i", "a", "b", "-f", "json", "-w", "3"],
    ["score", "--metrics", "BLEU", "--references=ref.txt", "--width=4", "-b", "--short", "-q"],
    ["score", "-m", "bleu", "-lc", "-tok", "intl", "-tl", "de", "--smooth-method", "floor", "--smooth-value", "0.5", "-e"],
    ["score", "-m", "bleu", "--bleu-flavour", "nltk", "--nltk-weights", "0.5,0.5"],
    ["score", "-m", "chrf", "--chrf-word-order", "2", "--chrf-beta", "3", "--sentence-level", "-f", "json"],
    ["score", "-m", "rouge", "--rouge-types", "rouge1", "rougeLsum", "--rouge-stemmer"],
    ["score", "-m", "bleu", "--confidence", "-cin", "100", "--seed", "3", "--method", "sacrebleu"],
    ["score", "-m", "bleu", "--chunk-size", "5", "--jsonl", "-", "--n-threads", "2"],
    ["score", "-m", "ter", "--ter-case-sensitive", "--ter-normalized", "-r", "-", "-i", "-"],
    ["score", "-r", "ref.txt", "-m", "cider", "--cider-df", "corpus", "-tok", "13a"],
]


def _completed(args):
    """``args`` with the defaults of its metrics' families (as metric_options fills them in)."""
    for name in args.metrics:
        option_set(name.lower())
    add_defaults(args)
    return args


def _lean(argv):
    lean = _lean_score(argv)
    assert lean is not None, argv
    return lean


@pytest.mark.parametrize("argv", AGREE, ids=[" ".join(a[1:]) or "bare" for a in AGREE])
def test_lean_parse_equals_the_full_parse(argv):
    parser, args = _lean(argv)
    full = FULL.parse_args(argv)
    # every destination the lean parse gives has the full parse's value; the flags of the
    # families it leaves out are only those of metric families, whose defaults the metrics'
    # option collectors get (add_defaults) once their modules are loaded
    assert vars(args) == {k: v for k, v in vars(full).items() if k in vars(args)}
    assert vars(full).keys() - vars(args).keys() <= set(metric_dests(SCORE))
    given = set(vars(args))
    assert _completed(args) == full
    for action in (a for a in SCORE._actions if a.dest in given):  # what the usage checks compare with
        assert parser.get_default(action.dest) == SCORE.get_default(action.dest), action.dest
    named = {a.dest for a in parser._actions}
    assert named <= {a.dest for a in SCORE._actions}
    # the options named are declared for real, in the full parser's order, with their groups
    order = [a.dest for a in SCORE._actions if a.dest in named]
    assert [a.dest for a in parser._actions] == order
    titles = [g.title for g in SCORE._action_groups]
    assert [g.title for g in parser._action_groups] == [t for t in titles if t in {g.title for g in parser._action_groups}]


def test_lean_parse_declares_few_options():
    parser, _ = _lean(["score", "-m", "bleu", "-r", "ref.txt", "-i", "hyp.txt"])
    assert sorted(a.dest for a in parser._actions) == ["help", "input", "metrics", "references"]
    assert len(SCORE._actions) > 80  # what the full parser declares


DECLINE = [
    ["score", "--ref", "ref.txt"],  # an abbreviation: the full parser resolves (or refuses) it
    ["score", "-m", "bleu", "--smooth", "floor"],  # an ambiguous one
    ["score", "-h"],
    ["score", "-m", "bleu", "--help"],
    ["score", "-V"],
    ["score", "--no-such-flag"],
    ["score", "-m", "bleu", "--", "x"],
    ["score", "-w", "-1"],  # a negative number
    ["score", "-w3"],  # a value glued to a short option
    ["score", "-bq"],  # short options together
    ["score", "-w", "x"],  # a usage error: worded by the full parser
    ["score", "stray"],
    ["score", "-f", "yaml"],
]


@pytest.mark.parametrize("argv", DECLINE, ids=[" ".join(a[1:]) for a in DECLINE])
def test_lean_parse_declines_what_it_might_parse_differently(argv):
    assert _lean_score(argv) is None


@pytest.mark.parametrize("argv", [a for a in DECLINE if "-h" not in a and "--help" not in a and "-V" not in a], ids=str)
def test_declined_command_lines_end_as_with_the_full_parser(argv, capsys):
    try:
        want = FULL.parse_args(argv)
    except Exception as e:  # noqa: BLE001 - the usage error the full parser raises
        want = e
    code = main(argv)
    err = capsys.readouterr().err
    if isinstance(want, Exception):
        assert code == 2 and err.startswith(f"nlgmetrics: error: {want}")  # (a sacrebleu habit's hint may follow)
    else:
        assert code in (1, 2)  # parsed: the run itself fails (no such files), not the parse
        assert "unrecognized" not in err and "ambiguous" not in err


def test_every_option_set_is_declared_by_the_lean_parse():
    """Each metric family's flags reach the lean parser when named (none is lost)."""
    declared = 0
    for opts in OPTION_SETS.values():
        group = next(g for g in SCORE._action_groups if g.title == f"{opts.metric} options")
        for action in group._group_actions:
            token = max(action.option_strings, key=len)
            value = [] if action.nargs == 0 else ["1"]
            parser, _ = _lean_score(["score", token, *value]) or (None, None)
            if parser is not None:  # declined only when the value does not parse
                assert token in parser._option_string_actions
                declared += 1
    assert declared > 30


@pytest.mark.parametrize("columns,lines", [(None, None), ("120", None), ("0", None), ("x", "5"), ("60", "0"), (None, "30")])
def test_help_width_is_shutils(monkeypatch, columns, lines):
    for name, value in (("COLUMNS", columns), ("LINES", lines)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert _help_width() == shutil.get_terminal_size().columns - 2
    monkeypatch.setattr(sys, "__stdout__", None)
    assert _help_width() == shutil.get_terminal_size().columns - 2


def test_help_text_is_argparses(capsys, monkeypatch):
    """Every subcommand's help as argparse words it with its own formatter (which asks
    shutil for the width)."""
    monkeypatch.setenv("COLUMNS", "93")
    for name, sub in subparsers(build_parser()).items():
        if name == "sacrebleu":
            continue
        ours = sub.format_help()
        with monkeypatch.context() as m:
            m.setattr(sub, "_get_formatter", lambda sub=sub: argparse.ArgumentParser._get_formatter(sub))
            assert sub.format_help() == ours
        assert main([name, "--help"]) == 0
        assert capsys.readouterr().out == ours


def test_lean_parse_equals_the_full_parse_on_random_command_lines():
    """Random mixes of score's option strings and values: wherever the lean parse answers,
    the full parser gives the same namespace (and refuses nothing the lean one accepted)."""
    import random

    rng = random.Random(18)
    options = sorted(SCORE._option_string_actions)
    values = ["1", "3", "0.5", "x", "bleu", "chrf", "ter", "rouge", "-", "json", "floor", "13a", "rouge1", "nltk", "a.txt"]
    answered = 0
    for _ in range(1500):
        argv = ["score"]
        for _ in range(rng.randint(0, 7)):
            argv.append(rng.choice(options))
            argv.extend(rng.choice(values) for _ in range(rng.choice([0, 1, 1, 2])))
        lean = _lean_score(argv)
        if lean is None:
            continue
        answered += 1
        full = FULL.parse_args(argv)
        assert vars(lean[1]) == {k: v for k, v in vars(full).items() if k in vars(lean[1])}, argv
        assert _completed(lean[1]) == full, argv
    assert answered > 100
