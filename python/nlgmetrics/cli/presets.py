"""``nlgmetrics score --jsonl FILE --preset NAME``: a toolchain's whole metric pipeline run
on its own prediction file (``--preset llamafactory`` on LLaMA-Factory's
``generated_predictions.jsonl``, fields ``predict`` and ``label``)."""

from __future__ import annotations


def run(args, out, usage_error) -> int:
    import json

    from ..errors import InvalidInputError
    from ..io.text import read_lines
    from ..metrics.llm_presets import PRESETS

    if args.preset not in PRESETS:
        raise usage_error(f"unknown preset {args.preset!r}; known: {', '.join(PRESETS)}")
    if not args.jsonl:
        raise usage_error(f"--preset {args.preset} reads the toolchain's JSON lines: give --jsonl FILE")
    if args.references or args.input:
        raise usage_error("--preset reads --jsonl only; drop -r/-i")
    pred_key, ref_key, fn = PRESETS[args.preset]
    preds, refs = [], []
    for lineno, line in enumerate(read_lines(args.jsonl), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            raise InvalidInputError(f"{args.jsonl}:{lineno}: invalid JSON") from None
        if not isinstance(obj, dict) or not isinstance(obj.get(pred_key), str) or not isinstance(obj.get(ref_key), str):
            raise InvalidInputError(f'{args.jsonl}:{lineno}: expected an object with string fields "{pred_key}" and "{ref_key}" ({args.preset} layout)')
        preds.append(obj[pred_key])
        refs.append(obj[ref_key])
    result = fn(preds, refs, args.n_threads)
    if args.format == "json":
        out.write(json.dumps(result, indent=4) + "\n")
    else:
        for k, v in result.items():
            out.write(f"{k} = {v!r}\n" if args.format == "text" else f"{k}\t{v!r}\n")
    return 0
