"""HTML of a text-generation report (:class:`~nlgmetrics.report.data.TextReport`)."""

from __future__ import annotations

import os
from typing import Any

from .. import plots
from ..analysis import ngram_differences, sentence_buckets, word_accuracy
from .data import MetricResult, TextReport, most_different
from .highlight import MAX_N, highlighted_html
from .html import esc, number, page, figure, table


SEPARATORS = "._-"


def display_names(names: list[str]) -> dict[str, str]:
    """The part of each file name that tells the systems apart: no directories, and no
    prefix or suffix that every name shares (cut at a '.', '_' or '-'), so
    ``wmt22.zh-en.hyp.sys1.en`` and ``wmt22.zh-en.hyp.sys2.en`` show as ``sys1`` and ``sys2``."""
    base = {n: os.path.basename(n) or n for n in names}
    if len(set(base.values())) != len(names):
        return {n: n for n in names}
    if len(names) < 2:
        return base
    values = list(base.values())
    prefix = os.path.commonprefix(values)
    prefix = prefix[: max(prefix.rfind(c) for c in SEPARATORS) + 1]
    suffix = os.path.commonprefix([v[::-1] for v in values])[::-1]
    cuts = [suffix.find(c) for c in SEPARATORS if c in suffix]
    suffix = suffix[min(cuts) :] if cuts else ""
    short = {n: v[len(prefix) : len(v) - len(suffix)] for n, v in base.items()}
    return short if all(short.values()) and len(set(short.values())) == len(names) else base


def short_names(report: TextReport) -> dict[str, str]:
    """``--names`` when given, else :func:`display_names` of the files."""
    return dict(report.names) if report.names else display_names(report.systems)


def _marker(report: TextReport, row: Any, baseline: bool) -> str:
    if baseline:
        return '<td class="ns">baseline</td>'
    if row.p_value is None:
        return "<td>–</td>"
    if row.p_value < report.alpha:
        return f'<td class="significant" data-significant="true" title="p &lt; {report.alpha:g}">*</td>'
    return '<td class="ns" data-significant="false">n.s.</td>'


def _system_table(report: TextReport, m: MetricResult) -> str:
    base = m.rows[0].score["score"]
    short = short_names(report)
    rows = []
    for i, row in enumerate(m.rows):
        kw = {"system": row.system, "metric": m.name}
        delta = None if i == 0 else row.score["score"] - base
        rows.append(
            f'<td class="name" title="{esc(row.system)}">{esc(short[row.system])}</td>'
            + number(row.score["score"], 2, field="score", **kw)
            + number(row.mean, 2, field="confidence-mean", **kw)
            + number(row.ci, 2, field="confidence-ci", **kw)
            + number(row.lower, 2, field="confidence-lower", **kw)
            + number(row.upper, 2, field="confidence-upper", **kw)
            + number(delta, 2, field="delta", **kw)
            + number(row.p_value, 4, field="p-value", **kw)
            + _marker(report, row, i == 0)
        )
    header = ["system", m.label, "μ", "± ci", "95% lower", "95% upper", "Δ vs baseline", "p-value", f"p < {report.alpha:g}"]
    note = f'<p class="meta">{esc(m.note)}</p>' if m.note else ""
    return table(header, rows) + note


def _overview(report: TextReport) -> str:
    header = ["system"] + [m.label for m in report.metrics]
    short = short_names(report)
    rows = []
    for i, name in enumerate(report.systems):
        cells = f'<td class="name" title="{esc(name)}">{esc(short[name])}{" (baseline)" if i == 0 else ""}</td>'
        for m in report.metrics:
            row = m.rows[i]
            mark = "" if row.p_value is None or row.p_value >= report.alpha else " *"
            ci = f" ± {row.ci:.2f}" if row.ci is not None else ""
            cells += f'<td data-system="{esc(name)}" data-metric="{esc(m.name)}" data-field="overview" data-value="{esc(repr(row.score["score"]))}">{row.score["score"]:.2f}{ci}{mark}</td>'
        rows.append(cells)
    return table(header, rows)


def _signatures(report: TextReport) -> str:
    items = "".join(
        f'<li><b>{esc(m.label)}</b>: <span class="sig" data-metric="{esc(m.name)}" data-field="signature">{esc(m.signature)}</span>'
        + (f'<br>with resampling: <span class="sig" data-metric="{esc(m.name)}" data-field="ci-signature">{esc(m.ci_signature)}</span>' if m.ci_signature else "")
        + "</li>"
        for m in report.metrics
    )
    return f'<ul class="sig-list">{items}</ul>'


def _lengths(report: TextReport) -> str:
    bleu = next((m for m in report.metrics if "bp" in m.rows[0].score and "sys_len" in m.rows[0].score), None)
    header = ["system", "segments", "words", "words / segment", "reference words", "length ratio", "empty outputs"]
    if bleu is not None:
        header += [f"{bleu.label} hyp_len", f"{bleu.label} ref_len", f"{bleu.label} ratio", f"{bleu.label} BP"]
    rows = []
    short = short_names(report)
    for i, r in enumerate(report.lengths):
        kw = {"system": r.system}
        cells = (
            f'<td class="name" title="{esc(r.system)}">{esc(short[r.system])}</td>' + number(r.segments, **kw, field="segments") + number(r.words, **kw, field="words")
            + number(r.mean_words, 2, **kw, field="mean-words") + number(r.ref_words, 1, **kw, field="ref-words")
            + number(r.ratio, 3, **kw, field="length-ratio") + number(r.empty, **kw, field="empty")
        )
        if bleu is not None:
            s = bleu.rows[i].score
            ratio = s["sys_len"] / s["ref_len"] if s["ref_len"] else 0.0
            kw["metric"] = bleu.name
            cells += number(s["sys_len"], **kw, field="sys_len") + number(s["ref_len"], **kw, field="ref_len") + number(ratio, 3, **kw, field="ratio") + number(s["bp"], 3, **kw, field="bp")
        rows.append(cells)
    note = "<p class=\"meta\">Words are whitespace-separated tokens of the raw text; reference words count each segment's references at their mean length."
    if bleu is not None:
        note += f" {esc(bleu.label)}'s lengths use its own tokenizer and the closest reference length, as its brevity penalty does."
    fig, _ = plots.segment_histogram({short[r.system]: r.lengths for r in report.lengths}, metric="length (words)")
    return table(header, rows) + note + "</p>" + f'<div class="plots">{figure(fig, "hypothesis lengths")}</div>'


def _metric_section(report: TextReport, m: MetricResult) -> str:
    figs = []
    short = short_names(report)
    names = [short[r.system] for r in m.rows]
    has_ci = m.rows[0].lower is not None
    lower = [r.lower for r in m.rows] if has_ci else None
    upper = [r.upper for r in m.rows] if has_ci else None
    fig, _ = plots.system_bars(names, [r.score["score"] for r in m.rows], lower, upper, metric=m.label)
    figs.append(figure(fig, f"{m.label} per system with 95% intervals"))
    seg = {short[r.system]: r.segments for r in m.rows if r.segments is not None}
    if seg:
        fig, _ = plots.segment_histogram(seg, metric=m.label)
        figs.append(figure(fig, f"segment-level {m.label}"))
    if has_ci:
        fig, ax = plots.segment_histogram({short[r.system]: r.bootstrap for r in m.rows}, bins=30, metric=m.label)
        ax.set(title=f"Bootstrap distributions of {m.label} ({report.n_resamples} resamples)", xlabel=m.label, ylabel="resamples")
        figs.append(figure(fig, f"bootstrap distributions of {m.label}"))
    return f'<h3 id="metric-{esc(m.name)}">{esc(m.label)}</h3>' + _system_table(report, m) + f'<div class="plots">{"".join(figs)}</div>'


def _differences(report: TextReport, k: int) -> str:
    m = next((m for m in report.metrics if m.rows[0].segments is not None), None)
    if m is None or len(report.systems) < 2:
        return "<p>No segment-level scores to compare.</p>"
    legend = "".join(f'<span class="m{n}">{n}-gram</span>' for n in range(1, MAX_N + 1))
    out = [
        f'<p class="meta">By segment-level {esc(m.label)}; hypothesis words shared with a reference are highlighted by the longest shared '
        f'n-gram containing them (whitespace tokens, exact match): <span class="legend">{legend}</span></p>'
    ]
    base_name = report.systems[0]
    short = short_names(report)
    base_scores = m.rows[0].segments
    for system, indices in most_different(report, m, k):
        sys_scores = next(r.segments for r in m.rows if r.system == system)
        rows = []
        for i in indices:
            refs = report.references[i]
            ref_html = "<br>".join(esc(r) if r else '<span class="empty">(empty)</span>' for r in refs)
            rows.append(
                f'<td class="name">{i + 1}</td>'
                + number(float(base_scores[i]), 2, system=base_name, metric=m.name, field="segment", segment=i + 1)
                + number(float(sys_scores[i]), 2, system=system, metric=m.name, field="segment", segment=i + 1)
                + f"<td>{ref_html}</td><td>{highlighted_html(report.hypotheses[base_name][i], refs)}</td><td>{highlighted_html(report.hypotheses[system][i], refs)}</td>"
            )
        out.append(f"<h3>{esc(short[system])} vs {esc(short[base_name])}</h3>")
        out.append(table(["segment", f"{m.label} baseline", f"{m.label} {short[system]}", "reference(s)", f"baseline: {short[base_name]}", short[system]], rows, cls="seg"))
    return "".join(out)


ANALYSIS_TOKENIZER = "13a"


def _bucket_table(rows_in: list, systems: list[str], first: str, shared: tuple, value, width: int, field: str, heading: str) -> str:
    """A bucket per row: a column shared by the systems, then one column per system
    (``rows_in`` is system-major, as the analysis functions return it)."""
    labels = list(dict.fromkeys(r.bucket for r in rows_in))
    shared_heading, shared_field, shared_value = shared
    rows = []
    for b, label in enumerate(labels):
        cells = f'<td class="name">{esc(label)}</td>' + number(shared_value(rows_in[b]), field=shared_field, bucket=label)
        for s, name in enumerate(systems):
            cells += number(value(rows_in[s * len(labels) + b]), width, system=name, field=field, bucket=label)
        rows.append(cells)
    return table([first, shared_heading, *[heading.format(name) for name in systems]], rows)


def _analysis(report: TextReport, top: int = 10) -> str:
    """compare-mt's analyses on the first reference of each segment (compare-mt takes one)."""
    refs = [r[0] if r else "" for r in report.references]
    short = short_names(report)
    systems = {short[name]: report.hypotheses[name] for name in report.systems}
    out = [
        f'<p class="meta">As compare-mt 0.2.10 computes them, on the first reference of each segment, '
        f"tokenized with {ANALYSIS_TOKENIZER}.</p>",
        "<h3>Word F-measure by frequency in the references</h3>",
    ]
    words = word_accuracy(refs, systems, tokenize=ANALYSIS_TOKENIZER)
    out.append(_bucket_table(words, list(systems), "frequency", ("reference words", "reference-words", lambda w: w.reference_words),
                             lambda w: w.fmeasure, 4, "word-fmeasure", "{}"))
    out.append("<h3>Segments by reference length: count and BLEU of each bucket</h3>")
    lengths = sentence_buckets(refs, systems, by="length", statistic="score", metric="bleu", tokenize=ANALYSIS_TOKENIZER)
    out.append(_bucket_table(lengths, list(systems), "reference words", ("segments", "length-bucket-count", lambda b: b.count),
                             lambda b: b.value, 2, "length-bucket-bleu", "BLEU {}"))
    if len(systems) >= 2:
        names = list(systems)
        base = names[0]
        for other in names[1:]:
            wins_base, wins_other = ngram_differences(refs, systems[base], systems[other], top=top, tokenize=ANALYSIS_TOKENIZER)
            rows = [
                f'<td class="name">{esc(" ".join(d.ngram))}</td>' + number(d.score, 4, field="ngram-score", system=side)
                + number(d.count_a, field="ngram-count", system=base) + number(d.count_b, field="ngram-count", system=other)
                for side, group in ((base, wins_base), (other, wins_other))
                for d in group
            ]
            out.append(f"<h3>n-grams matched more often: {esc(base)} (first {len(wins_base)}) and {esc(other)} (next {len(wins_other)})</h3>")
            out.append(table(["n-gram", "(a+1)/(a+b+2)", f"matches {base}", f"matches {other}"], rows))
    return "".join(out)


def render(report: TextReport, *, title: str = "nlgmetrics report", top_k: int = 5) -> str:
    """The whole report as one HTML document."""
    n = len(report.references)
    nrefs = sorted({len(r) for r in report.references})
    body = [
        f"<h1>{esc(title)}</h1>",
        f'<p class="meta">nlgmetrics {esc(report.version)} · {n} segments · {"/".join(map(str, nrefs))} reference(s) per segment · '
        f"baseline <b>{esc(short_names(report)[report.systems[0]])}</b> · {report.n_resamples} bootstrap resamples, seed {report.seed}; "
        f"* marks a paired-bootstrap p-value below {report.alpha:g} against the baseline.</p>",
        "<h2>Systems</h2>", _overview(report),
        "<h2>Signatures</h2>", _signatures(report),
        "<h2>Scores, confidence intervals and significance</h2>",
        *[_metric_section(report, m) for m in report.metrics],
        "<h2>Length and brevity</h2>", _lengths(report),
        "<h2>Segments where the systems differ most</h2>", _differences(report, top_k),
        "<h2>Analysis: words, lengths and n-grams</h2>", _analysis(report),
    ]
    return page(title, "\n".join(body))
