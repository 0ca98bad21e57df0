"""``jiwer.alignment``: ``visualize_alignment``, ``collect_error_counts``, ``visualize_error_counts``
(jiwer 4's text, character for character)."""

from __future__ import annotations

from collections import defaultdict
from typing import List, Optional, Union

from .process import AlignmentChunk, CharacterOutput, WordOutput

__all__ = ["visualize_alignment", "collect_error_counts", "visualize_error_counts"]


def visualize_alignment(output: Union[WordOutput, CharacterOutput], show_measures: bool = True, skip_correct: bool = True,
                        line_width: Optional[int] = None) -> str:
    is_cer = isinstance(output, CharacterOutput)
    text = ""
    for idx, (ref, hyp, chunks) in enumerate(zip(output.references, output.hypotheses, output.alignments)):
        if skip_correct and (len(chunks) == 0 or (len(chunks) == 1 and chunks[0].type == "equal")):
            continue
        text += f"=== SENTENCE {idx + 1} ===\n\n"
        text += _comparison(ref, hyp, chunks, spaced=not is_cer, line_width=line_width)
        text += "\n"
    if not show_measures:
        return text[:-1]
    text += "=== SUMMARY ===\n"
    text += f"number of sentences: {len(output.alignments)}\n"
    text += f"substitutions={output.substitutions} deletions={output.deletions} insertions={output.insertions} hits={output.hits}\n"
    if is_cer:
        text += f"\ncer={output.cer * 100:.2f}%\n"
    else:
        text += f"\nmer={output.mer * 100:.2f}%\nwil={output.wil * 100:.2f}%\nwip={output.wip * 100:.2f}%\nwer={output.wer * 100:.2f}%\n"
    return text


def _comparison(reference: List[str], hypothesis: List[str], ops: List[AlignmentChunk], spaced: bool, line_width: Optional[int]) -> str:
    ref_line, hyp_line, op_line, done = "REF: ", "HYP: ", "     ", ""
    for op in ops:
        if op.type in ("equal", "substitute"):
            ref, hyp = reference[op.ref_start_idx : op.ref_end_idx], hypothesis[op.hyp_start_idx : op.hyp_end_idx]
            mark = " " if op.type == "equal" else "s"
        elif op.type == "delete":
            ref = reference[op.ref_start_idx : op.ref_end_idx]
            hyp, mark = ["*"] * len(ref), "d"
        elif op.type == "insert":
            hyp = hypothesis[op.hyp_start_idx : op.hyp_end_idx]
            ref, mark = ["*"] * len(hyp), "i"
        else:
            raise ValueError(f"unparseable op name={op.type}")
        for r, h in zip(ref, hyp):
            width = max(len(r), len(h), len(mark))
            if line_width is not None and len(ref_line) + width > line_width:
                if spaced:
                    done += f"{ref_line[:-1]}\n{hyp_line[:-1]}\n{op_line[:-1]}\n\n"
                else:
                    done += f"{ref_line}\n{hyp_line}\n{op_line}\n\n"
                ref_line, hyp_line, op_line = "REF: ", "HYP: ", "     "
            if r == "*":
                r = "*" * width
            elif h == "*":
                h = "*" * width
            sep = " " if spaced else ""
            ref_line += f"{r:>{width}}{sep}"
            hyp_line += f"{h:>{width}}{sep}"
            op_line += f"{mark.upper():>{width}}{sep}"
    if spaced:
        return done + f"{ref_line[:-1]}\n{hyp_line[:-1]}\n{op_line[:-1]}\n"
    return done + f"{ref_line}\n{hyp_line}\n{op_line}\n"


def collect_error_counts(output: Union[WordOutput, CharacterOutput]):
    substitutions, insertions, deletions = defaultdict(lambda: 0), defaultdict(lambda: 0), defaultdict(lambda: 0)
    sep = " " if isinstance(output, WordOutput) else ""
    for ref, hyp, chunks in zip(output.references, output.hypotheses, output.alignments):
        for c in chunks:
            if c.type == "insert":
                insertions[sep.join(hyp[c.hyp_start_idx : c.hyp_end_idx])] += 1
            if c.type == "delete":
                deletions[sep.join(ref[c.ref_start_idx : c.ref_end_idx])] += 1
            if c.type == "substitute":
                substitutions[sep.join(ref[c.ref_start_idx : c.ref_end_idx]), sep.join(hyp[c.hyp_start_idx : c.hyp_end_idx])] += 1
    return substitutions, insertions, deletions


def visualize_error_counts(output: Union[WordOutput, CharacterOutput], show_substitutions: bool = True, show_insertions: bool = True,
                           show_deletions: bool = True, top_k: Optional[int] = None) -> str:
    s, i, d = collect_error_counts(output)

    def listing(errors: dict) -> str:
        if not errors:
            return "none"
        keys = sorted(errors, reverse=True, key=lambda k: errors[k])
        if top_k is not None:
            keys = keys[:top_k]
        width = max(len(k) if isinstance(k, str) else max(len(e) for e in k) for k in keys)
        out = ""
        for count, (k, v) in enumerate(sorted(errors.items(), key=lambda kv: kv[1], reverse=True)):
            if top_k is not None and count >= top_k:
                break
            out += f"{k[0]: <{width}} --> {k[1]:<{width}} = {v}x\n" if isinstance(k, tuple) else f"{k:<{width}} = {v}x\n"
        return out

    text = ""
    for show, title, errors in ((show_substitutions, "SUBSTITUTIONS", s), (show_insertions, "INSERTIONS", i), (show_deletions, "DELETIONS", d)):
        if show:
            if text != "":
                text += "\n"
            text += f"=== {title} ===\n" + listing(errors)
    return text[:-1] if text[-1:] == "\n" else text
