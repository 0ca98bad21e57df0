"""HTML of a text-generation report (:class:`~nlgmetrics.report.data.TextReport`)."""

from __future__ import annotations

from typing import Any, Callable

from . import plots
from ..analysis import ngram_differences, sentence_buckets, sentence_examples, word_accuracy
from ..engines.progress import track
from .data import MetricResult, TextReport, display_names
from .highlight import MAX_N, highlighted_html
from .html import esc, number, page, figure, table


def short_names(report: TextReport) -> dict[str, str]:
    """``--names`` where given, else :func:`display_names` of the files."""
    return {**display_names(report.systems), **report.names}


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
    return table(header, rows, name=f"{m.label} systems") + note


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
    return table(header, rows, name="systems")


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
    return table(header, rows, name="lengths") + note + "</p>" + f'<div class="plots">{figure(fig, "hypothesis lengths")}</div>'


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


def _text(text: str) -> str:
    return esc(text) if text else '<span class="empty">(empty)</span>'


def _legend() -> str:
    return "".join(f'<span class="m{n}">{n}-gram</span>' for n in range(1, MAX_N + 1)) + '<span class="d">differs from the other output</span>'


def _example_rows(examples: list, refs: list[str], a: tuple[str, list[str]], b: tuple[str, list[str]], side: str) -> list[str]:
    (a_name, a_out), (b_name, b_out) = a, b
    rows = []
    for e in examples:
        i, ref = e.segment, refs[e.segment]
        kw = {"segment": i + 1, "side": side}
        rows.append(
            f'<td class="name" data-value="{i + 1}">{i + 1}</td>'
            + number(e.score_a, 2, system=a_name, field="example-sentbleu", **kw)
            + number(e.score_b, 2, system=b_name, field="example-sentbleu", **kw)
            + number(e.score_a - e.score_b, 2, system=b_name, field="example-difference", **kw)
            + f"<td>{_text(ref)}</td>"
            + f"<td>{highlighted_html(a_out[i], [ref], other=b_out[i])}</td><td>{highlighted_html(b_out[i], [ref], other=a_out[i])}</td>"
        )
    return rows


def _differences(report: TextReport, k: int) -> str:
    """compare-mt's sentence examples of every system against the baseline, both ways."""
    if len(report.systems) < 2:
        return "<p>One system: nothing to compare.</p>"
    if k < 1:
        return "<p>No examples asked for (<code>--top-k 0</code>).</p>"
    refs = [r[0] if r else "" for r in report.references]
    short = short_names(report)
    base = report.systems[0]
    out = [
        f'<p class="meta">As compare-mt 0.2.10 selects them: sentence BLEU (nltk, smoothing method2, 0–100) on the first reference, '
        f"{ANALYSIS_TOKENIZER}-tokenized; repeated segments skipped; the {k} where each side wins most. Output words shared with the "
        f'reference are shaded by the longest shared n-gram, words that differ between the two outputs underlined (whitespace words): '
        f'<span class="legend">{_legend()}</span></p>'
    ]
    for system in report.systems[1:]:
        a, b = (base, report.hypotheses[base]), (system, report.hypotheses[system])
        a_wins, b_wins = sentence_examples(refs, a[1], b[1], count=k, tokenize=ANALYSIS_TOKENIZER)
        sa, sb = short[base], short[system]
        header = ["segment", f"sentBLEU {sa}", f"sentBLEU {sb}", f"{sa} − {sb}", "reference", sa, sb]
        for winner, loser, examples, side in ((sa, sb, a_wins, "a"), (sb, sa, b_wins, "b")):
            out.append(f"<h3>{esc(winner)} better than {esc(loser)}</h3>")
            out.append(table(header, _example_rows(examples, refs, a, b, side), cls="seg", name=f"examples {winner} over {loser}"))
    return "".join(out)


def _segment_table(report: TextReport) -> str:
    """Every segment: references, outputs and segment scores, sortable and filterable."""
    short = short_names(report)
    scored = [m for m in report.metrics if all(r.segments is not None for r in m.rows)]
    header = ["segment", "reference(s)"] + [short[n] for n in report.systems]
    header += [f"{m.label} {short[r.system]}" for m in scored for r in m.rows]
    marked = [(m, r) for m in report.metrics for r in m.rows if r.spans is not None]  # xCOMET's error spans
    header += [f"{m.label} errors {short[r.system]}" for m, r in marked]
    rows = []
    for i, refs in enumerate(report.references):
        cells = f'<td class="name" data-value="{i + 1}">{i + 1}</td><td>' + "<br>".join(_text(r) for r in refs) + "</td>"
        cells += "".join(f"<td>{_text(report.hypotheses[n][i])}</td>" for n in report.systems)
        cells += "".join(number(float(r.segments[i]), 2, system=r.system, metric=m.name, field="segment", segment=i + 1) for m in scored for r in m.rows)
        cells += "".join('<td class="spans">' + "<br>".join(esc(f"{s['severity']}: {s['text']} [{s['start']}:{s['end']}]") for s in r.spans[i]) + "</td>" for _, r in marked)
        rows.append(cells)
    note = ('<p class="meta">Click a heading to sort (numbers by their exact value), type in the box to keep the rows containing the text. '
            "Without scripts every row is shown in the order of the files.</p>")
    return note + table(header, rows, cls="seg sortable filterable", name="segments", scroll=True)


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
    return table([first, shared_heading, *[heading.format(name) for name in systems]], rows, name=field)


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
            out.append(table(["n-gram", "(a+1)/(a+b+2)", f"matches {base}", f"matches {other}"], rows, name=f"ngrams {base} {other}"))
    return "".join(out)


def render(report: TextReport, *, title: str = "nlgmetrics report", top_k: int = 5, show_progress: bool | None = None) -> str:
    """The whole report as one HTML document (a progress bar over its sections on a terminal)."""
    n = len(report.references)
    nrefs = sorted({len(r) for r in report.references})
    sections: list[tuple[str, Callable[[], str]]] = [
        ("systems", lambda: '<h2 id="systems">Systems</h2>' + _overview(report)),
        ("signatures", lambda: '<h2 id="signatures">Signatures</h2>' + _signatures(report)),
        *[
            (f"{m.name} plots", (lambda m=m, first=i == 0: ('<h2 id="scores">Scores, confidence intervals and significance</h2>' if first else "") + _metric_section(report, m)))
            for i, m in enumerate(report.metrics)
        ],
        ("lengths", lambda: '<h2 id="lengths">Length and brevity</h2>' + _lengths(report)),
        ("examples", lambda: '<h2 id="examples">Segments where the systems differ most</h2>' + _differences(report, top_k)),
        ("analysis", lambda: '<h2 id="analysis">Analysis: words, lengths and n-grams</h2>' + _analysis(report)),
        ("segments", lambda: '<h2 id="segments">All segments</h2>' + _segment_table(report)),
    ]
    body = [
        f"<h1>{esc(title)}</h1>",
        f'<p class="meta">nlgmetrics {esc(report.version)} · {n} segments · {"/".join(map(str, nrefs))} reference(s) per segment · '
        f"baseline <b>{esc(short_names(report)[report.systems[0]])}</b> · {report.n_resamples} bootstrap resamples, seed {report.seed}; "
        f"* marks a paired-bootstrap p-value below {report.alpha:g} against the baseline. Every table has its CSV (exact values) "
        "and LaTeX (booktabs, as shown) to save.</p>",
    ]
    for _section, make in track(sections, total=len(sections), desc="report: plots and analyses", unit="section", size=lambda _: 1, show=show_progress):
        body.append(make())
    return page(title, "\n".join(body))
