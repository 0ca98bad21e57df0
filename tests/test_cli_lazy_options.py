"""The metric families' options are imported on demand: the index in cli/options.py
(``MODULES``: which module registers which metrics and declares which flags) is exactly
what the modules do, and a command line loads the families it uses and no other, while
``--help`` still shows every family.

Module sets, not timings (benches/bench_startup.py measures the time).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from nlgmetrics.cli.options import MODULES

# Heavy modules no subcommand's help or one-line text run may load: numeric and ML stacks,
# and the standard modules dearest to a fresh interpreter.
HEAVY = ["numpy", "torch", "pandas", "scipy", "transformers", "dataclasses", "typing", "inspect", "shutil"]


def _loaded_after(argv: list[str], cwd: str | None = None) -> set[str]:
    """sys.modules after ``main(argv)`` in a fresh interpreter (its output swallowed)."""
    probe = (
        "import contextlib, io, sys\n"
        "from nlgmetrics.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    code = main(sys.argv[1:])\n"
        "assert code == 0, code\n"
        "import json\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSTARTUP"}
    out = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, env=env, timeout=120, cwd=cwd)
    assert out.returncode == 0, out.stderr[-2000:]
    return set(json.loads(out.stdout.splitlines()[-1]))


def _families(loaded: set[str]) -> set[str]:
    return {m.rpartition(".")[2] for m in loaded if m.startswith("nlgmetrics.cli.opts_")}


def test_the_index_is_what_the_modules_register():
    """Imported one by one in the index's order in a fresh interpreter, each module
    registers exactly the metrics and flags its line names."""
    probe = """
import argparse, importlib, json
from nlgmetrics.cli import options
from nlgmetrics.cli.options import MODULES, OPTION_SETS

def flags(opts):
    p = argparse.ArgumentParser(add_help=False)
    opts.add(p)
    return [s for a in p._actions for s in a.option_strings]

found = {}
for module in MODULES:
    before = dict(OPTION_SETS)
    importlib.import_module("nlgmetrics.cli." + module)
    metrics = [m for m, s in OPTION_SETS.items() if before.get(m) is not s]
    old = {f for m in metrics if m in before for f in flags(before[m])}
    found[module] = [" ".join(metrics), " ".join(f for m in metrics for f in flags(OPTION_SETS[m]) if f not in old)]
print(json.dumps(found))
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    found = {k: tuple(v) for k, v in json.loads(out.stdout).items()}
    assert found == MODULES
    on_disk = {p[:-3] for p in os.listdir(os.path.dirname(sys.modules["nlgmetrics.cli.options"].__file__)) if p.startswith("opts_") and p.endswith(".py")}
    assert set(MODULES) == on_disk  # every family is indexed


def test_every_collector_reads_only_what_its_modules_declare():
    """A metric's option collector, given only the shared flags and the defaults of the
    families its module loads (as a lean command line has them), finds every flag it reads."""
    probe = """
import argparse, json
from nlgmetrics.cli.main import _Parser, _declare_score_options
from nlgmetrics.cli.options import MODULES, OPTION_SETS, add_defaults, option_set
from nlgmetrics.errors import NlgMetricsError

shared = _Parser(prog="score")
_declare_score_options(shared, frozenset())
missing = {}
for metric in [m for ms, _ in MODULES.values() for m in ms.split()]:
    OPTION_SETS.clear()  # as in a fresh interpreter: no family loaded
    import sys
    import nlgmetrics.cli as package
    for name in [n for n in sys.modules if n.startswith("nlgmetrics.cli.opts_")]:
        del sys.modules[name]
        delattr(package, name.rpartition(".")[2])
    args = shared.parse_args([])
    opts = option_set(metric)
    add_defaults(args)
    try:
        opts.collect(args)
    except AttributeError as e:
        missing[metric] = str(e)
    except NlgMetricsError:
        pass  # a required flag (a checkpoint path): refused as on the command line
print(json.dumps(missing))
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout) == {}


@pytest.mark.parametrize(
    "metrics,families",
    [
        (["bleu"], {"opts_bleu", "opts_diversity"}),  # the nltk flavour's flags extend BLEU's set
        (["chrf"], {"opts_chrf"}),
        (["bleu", "ter"], {"opts_bleu", "opts_diversity", "opts_ter"}),
        (["wer"], {"opts_edit"}),
    ],
)
def test_score_loads_only_the_families_it_uses(tmp_path, metrics, families):
    text = tmp_path / "one.txt"
    text.write_text("the cat sat on the mat\n")
    loaded = _loaded_after(["score", "-m", *metrics, "-r", str(text), "-i", str(text)])
    assert _families(loaded) == families
    if metrics == ["bleu"]:  # (other metrics' own modules may need numpy to score)
        assert sorted(set(HEAVY) & loaded) == []


def test_a_named_flag_loads_its_family(tmp_path):
    text = tmp_path / "one.txt"
    text.write_text("the cat sat on the mat\n")
    loaded = _loaded_after(["score", "-m", "bleu", "--chrf-word-order", "2", "-m", "chrf", "-r", str(text), "-i", str(text)])
    assert _families(loaded) == {"opts_bleu", "opts_diversity", "opts_chrf"}


def test_compare_loads_only_the_families_it_uses(tmp_path):
    ref, a, b = tmp_path / "ref.txt", tmp_path / "a.txt", tmp_path / "b.txt"
    for path in (ref, a, b):
        path.write_text("the cat sat on the mat\n")
    loaded = _loaded_after(["compare", "-m", "chrf", "-r", str(ref), "-i", str(a), str(b), "--paired-bs", "--paired-bs-n", "10"])
    assert _families(loaded) == {"opts_chrf"}


# Every subcommand's help, and what it may not load. `score`, `compare`, `correlate` and
# `report` show every family's flags, so they load every family's module.
HELP_FAMILIES = {"score": set(MODULES), "compare": set(MODULES), "correlate": set(MODULES), "report": set(MODULES)}


@pytest.mark.parametrize("command", ["score", "compare", "correlate", "list", "classify", "coco", "report", "sacrebleu", "squad", "cmrc2018", "retrieval", "sql", "lm-eval", "judge"])
def test_help_loads_nothing_heavy(command):
    loaded = _loaded_after([command, "--help"])
    assert _families(loaded) == HELP_FAMILIES.get(command, set())
    assert sorted(set(HEAVY) & loaded) == []
    assert "nlgmetrics.metrics.base" not in loaded  # no metric is built for help


def test_help_still_shows_every_family(capsys):
    from nlgmetrics.cli.main import main

    assert main(["score", "--help"]) == 0
    shown = capsys.readouterr().out
    for module, (metrics, flags) in MODULES.items():
        for metric in metrics.split():
            if metric not in ("chrf++", "mer", "wil", "wip", "cer", "per", "xcomet", "lm_eval_qasper"):  # no flags of their own
                assert f"{metric} options:" in shown, metric
        for flag in flags.split():
            assert flag in shown, (module, flag)


def test_an_unknown_metric_still_gets_every_familys_options():
    """A metric the index does not name loads every family before its options are read
    (a stale index costs time, never a wrong option)."""
    from nlgmetrics.cli.options import OPTION_SETS, option_set

    assert option_set("no-such-metric") is None
    assert {m for ms, _ in MODULES.values() for m in ms.split()} <= set(OPTION_SETS)


def test_the_top_level_parser_is_the_full_parsers_face(monkeypatch):
    """`nlgmetrics --help` (and a command line without a known subcommand) uses a parser
    that knows the subcommands by name and help line only: same help, same errors."""
    from nlgmetrics.cli.guard import UsageError
    from nlgmetrics.cli.main import COMMAND_HELP, COMMANDS, build_parser, subparsers, top_level_parser

    monkeypatch.setenv("COLUMNS", "100")
    full = build_parser()
    assert top_level_parser().format_help() == full.format_help()
    assert tuple(COMMAND_HELP) == COMMANDS
    for argv in (["scor"], ["--nope"], ["-V", "x"], [], ["SCORE", "-m", "bleu"]):
        results = []
        for parser in (top_level_parser(), full):
            try:
                results.append(vars(parser.parse_args(argv)))
            except UsageError as e:
                results.append(str(e))
            except SystemExit as e:
                results.append(e.code)
        assert results[0] == results[1], argv
    assert set(subparsers(top_level_parser())) == set(subparsers(full))


def test_top_level_help_loads_no_subcommand(tmp_path):
    loaded = _loaded_after(["--help"])
    assert not {m for m in loaded if m.startswith("nlgmetrics.cli.") and m.rpartition(".")[2] in COMMAND_MODULES}
    assert _families(loaded) == set()
    assert sorted(set(HEAVY) & loaded) == []


COMMAND_MODULES = {"compare", "correlate", "classify", "coco", "report", "sacrebleu_cli", "squad", "cmrc2018", "retrieval", "sql", "lm_eval_cmd", "judge"}
