"""``nlgmetrics score --jsonl FILE --preset NAME``: a toolchain's whole metric pipeline run
on its own prediction file (``--preset llamafactory`` on LLaMA-Factory's
``generated_predictions.jsonl``, fields ``predict`` and ``label``)."""

from __future__ import annotations


def run(args, out, usage_error) -> int:
    import json

    from ..errors import InvalidInputError
    from ..io.text import check_record, read_lines
    from ..metrics.llm_presets import PRESETS

    if args.preset not in PRESETS:
        raise usage_error(f"unknown preset {args.preset!r}; known: {', '.join(PRESETS)}")
    if not args.jsonl:
        raise usage_error(f"--preset {args.preset} reads the toolchain's JSON lines: give --jsonl FILE")
    if args.references or args.input:
        raise usage_error("--preset reads --jsonl only; drop -r/-i")
    fields, fn = PRESETS[args.preset]
    records = []
    for lineno, line in enumerate(read_lines(args.jsonl), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise InvalidInputError(f"{args.jsonl}:{lineno}: invalid JSON") from None
        check_record(line, obj, f"{args.jsonl}:{lineno}")
        if not isinstance(obj, dict) or not all(isinstance(obj.get(k), t) for k, t in fields.items()):
            want = " and ".join(f'"{k}" ({"string" if t is str else "list"})' for k, t in fields.items())
            raise InvalidInputError(f"{args.jsonl}:{lineno}: expected an object with fields {want} ({args.preset} layout)")
        records.append(obj)
    result = fn(records, args.jsonl, args.n_threads)
    if args.format == "json":
        out.write(json.dumps(result, indent=4) + "\n")
    else:
        for k, v in result.items():
            out.write(f"{k} = {v!r}\n" if args.format == "text" else f"{k}\t{v!r}\n")
    return 0
