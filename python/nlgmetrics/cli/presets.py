"""``nlgmetrics score --jsonl FILE --preset NAME``: a toolchain's whole metric pipeline run
on its own prediction file (``--preset llamafactory`` on LLaMA-Factory's
``generated_predictions.jsonl``, fields ``predict`` and ``label``).

Every output carries a signature naming the preset, the framework version it reproduces
and the segmenter it depends on (jieba's version); ``--list-presets`` lists them all. A
preset runs its framework's pipeline as a whole, so any other ``score`` flag would be
ignored: it is refused instead (:func:`refuse_ignored_flags`).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    import argparse
    from typing import Any, Sequence

# The score options a preset reads; any other one the command line names is refused.
PRESET_DESTS = frozenset({"jsonl", "preset", "format", "n_threads", "quiet", "list_presets"})
# Presets whose numbers go through jieba's segmentation (its version is in the signature).
_JIEBA = frozenset({"llamafactory", "llamafactory-script", "longbench", "longbench-e", "opencompass", "evalscope"})


def given_actions(parser: argparse.ArgumentParser, argv: Sequence[str]) -> list[argparse.Action]:
    """The options of ``parser`` that ``argv`` names, as argparse resolves them: exact
    names, ``--name=value``, unique abbreviations of long names and attached short values
    (``-w3``). Tokens after ``--`` are values."""
    options = parser._option_string_actions
    found: list[argparse.Action] = []
    for token in argv:
        if token == "--":
            break
        if token[:1] != "-" or token == "-":
            continue
        name = token.split("=", 1)[0]
        action = options.get(name)
        if action is None and name[:2] == "--":
            matches = {id(a): a for s, a in options.items() if s.startswith(name)}
            action = next(iter(matches.values())) if len(matches) == 1 else None
        if action is None and name[1:2] != "-":
            action = options.get(name[:2])
        if action is not None and action not in found:
            found.append(action)
    return found


def refuse_ignored_flags(parser: argparse.ArgumentParser, args: argparse.Namespace, argv: Sequence[str]) -> None:
    """A usage error naming the first option ``argv`` gives that ``--preset`` does not read
    (``--preset llamafactory -m bleu``: the preset computes its own metrics)."""
    from .guard import UsageError

    for action in given_actions(parser, argv):
        if action.dest not in PRESET_DESTS and action.option_strings:
            name = "/".join(action.option_strings)
            if args.preset is None:  # --list-presets alone
                raise UsageError(f"--list-presets lists the presets and ignores {name}: drop it")
            raise UsageError(f"--preset {args.preset} runs {args.preset}'s own pipeline and ignores {name}: drop it")


def signature(name: str) -> str:
    from ..metrics.llm.llm_presets import PRESET_FRAMEWORKS
    from ..signature import Signature

    items: dict[str, Any] = {"preset": name, "framework": PRESET_FRAMEWORKS[name]}
    if name in _JIEBA:
        from ..metrics.rouge_zh import jieba_version

        items["tok"] = f"jieba-{jieba_version()}"
    return Signature(items).format()


def list_presets(args: argparse.Namespace, out: Any) -> int:
    """``score --list-presets``: every preset, the fields it reads and what it reproduces."""
    from ..metrics.llm.llm_presets import PRESET_FRAMEWORKS, PRESET_SOURCES, PRESETS

    rows = [{"preset": name, "fields": list(fields), "framework": PRESET_FRAMEWORKS[name], "reproduces": PRESET_SOURCES[name], "signature": signature(name)}
            for name, (fields, _) in PRESETS.items()]
    if args.format == "json":
        from .jsonout import json_text

        out.write(json_text(rows, indent=1) + "\n")
    elif args.format == "tsv":
        out.write("preset\tfields\tframework\treproduces\n")
        for r in rows:
            out.write(f"{r['preset']}\t{','.join(r['fields'])}\t{r['framework']}\t{r['reproduces']}\n")
    else:
        for r in rows:
            out.write(f"{r['preset']:<20} {r['reproduces']}\n{'':<20} --jsonl fields: {', '.join(r['fields'])}\n")
    return 0


# presets that also read a folder of prediction files, as LongBench's eval.py reads pred/<model>/
FOLDER_PRESETS = frozenset({"longbench", "longbench-e"})


def _records(path: str, preset: str, fields: dict) -> list[dict]:
    import json

    from ..errors import InvalidInputError
    from ..io.text import check_record, read_lines

    records = []
    for lineno, line in enumerate(read_lines(path), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise InvalidInputError(f"{path}:{lineno}: invalid JSON") from None
        check_record(line, obj, f"{path}:{lineno}")
        if not isinstance(obj, dict) or not all(isinstance(obj.get(k), t) for k, t in fields.items()):
            want = " and ".join(f'"{k}" ({"string" if t is str else "list"})' for k, t in fields.items())
            raise InvalidInputError(f"{path}:{lineno}: expected an object with fields {want} ({preset} layout)")
        records.append(obj)
    return records


def run(args, out, usage_error) -> int:
    import os

    from ..errors import InvalidInputError
    from ..metrics.llm.llm_presets import PRESETS

    if args.preset not in PRESETS:
        raise usage_error(f"unknown preset {args.preset!r}; known: {', '.join(PRESETS)} (score --list-presets)")
    if not args.jsonl:
        raise usage_error(f"--preset {args.preset} reads the toolchain's JSON lines: give --jsonl FILE")
    if args.references or args.input:
        raise usage_error("--preset reads --jsonl only; drop -r/-i")
    fields, fn = PRESETS[args.preset]
    if os.path.isdir(args.jsonl) and args.preset in FOLDER_PRESETS:
        # eval.py's pred/<model>/ folder: every *jsonl file, its dataset by its name (sorted: one order)
        names = sorted(n for n in os.listdir(args.jsonl) if n.endswith("jsonl"))
        if not names:
            raise InvalidInputError(f"{args.jsonl}: no *.jsonl prediction file in the folder")
        result = {}
        for name in names:
            path = os.path.join(args.jsonl, name)
            result.update(fn(_records(path, args.preset, fields), path, args.n_threads))
    else:
        result = fn(_records(args.jsonl, args.preset, fields), args.jsonl, args.n_threads)
    sig = signature(args.preset)
    if args.format == "json":  # the framework's own keys and values under "scores", with the signature
        from .jsonout import json_text

        out.write(json_text({"preset": args.preset, "scores": result, "signature": sig}, indent=4) + "\n")
    else:
        for k, v in result.items():
            out.write(f"{k} = {v!r}\n" if args.format == "text" else f"{k}\t{v!r}\n")
        out.write(sig + "\n" if args.format == "text" else f"signature\t{sig}\n")
    return 0
