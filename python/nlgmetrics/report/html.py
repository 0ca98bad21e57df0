"""Self-contained HTML for reports: inline CSS, plots as inline SVG (each with a 200-dpi
PNG to save), no scripts, no external resources, so a report opens offline and can be
mailed as one file.

Every number shown carries its full-precision value in a ``data-value`` attribute (Python's
``repr`` of the float) and names what it is in ``data-*`` attributes, so a report can be
checked against the command line's JSON output by reading the page's DOM.
"""

from __future__ import annotations

import base64
import html
import math
from typing import Any, Iterable

CSS = """
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:1.5em auto;max-width:1200px;color:#222;line-height:1.4;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:1.8em}
h3{font-size:1.05em}
table{border-collapse:collapse;margin:.6em 0}th,td{border:1px solid #ccc;padding:.25em .55em;text-align:right;vertical-align:top}
th{background:#f2f2f2}td.name,th.name{text-align:left}
code,.sig{font-family:"DejaVu Sans Mono",monospace;font-size:.85em;word-break:break-all}
.meta{color:#555}.sig-list li{margin:.2em 0}
.significant{color:#1a5fb4;font-weight:bold}.ns{color:#666}
.plots{display:flex;flex-wrap:wrap;gap:1em}.plots figure{margin:0;max-width:100%}.plots svg{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-size:.8em;color:#555}figcaption a{color:#1a5fb4}
@media (max-width:700px){body{padding:0 .4em}table{display:block;overflow-x:auto}}
@media print{body{max-width:none;margin:0;font-size:10pt}h2{break-before:auto;break-after:avoid}
table,figure{break-inside:avoid}figcaption a{display:none}.plots svg{border:none}}
table.seg td,table.seg th{text-align:left;max-width:36em}
.m1{background:#fff3b0}.m2{background:#ffd98a}.m3{background:#ffb870}.m4{background:#ff9a66}
.empty{color:#999;font-style:italic}.legend span{padding:0 .4em;margin-right:.3em}
"""


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def number(value: Any, width: int = 2, **data: Any) -> str:
    """A ``<td>`` showing ``value`` rounded, holding its exact value and labels as data."""
    attrs = "".join(f' data-{k.replace("_", "-")}="{esc(v)}"' for k, v in data.items())
    if value is None:
        return f"<td{attrs}>–</td>"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"<td{attrs}>{esc(value)}</td>"
    shown = f"{value:.{width}f}" if isinstance(value, float) and math.isfinite(value) else str(value)
    return f'<td{attrs} data-value="{esc(repr(value))}">{esc(shown)}</td>'


def figure(fig: Any, alt: str, caption: str | None = None) -> str:
    """A matplotlib figure as an inline ``<figure>``: the SVG, and a link saving a PNG of it."""
    from ..plots import to_png, to_svg

    data = base64.b64encode(to_png(fig)).decode("ascii")
    svg = to_svg(fig).replace("<svg", f'<svg role="img" aria-label="{esc(alt)}"', 1)
    file_name = "".join(c if c.isalnum() else "-" for c in alt).strip("-")[:60] or "figure"
    text = f"{esc(caption)} · " if caption else ""
    link = f'<a download="{esc(file_name)}.png" href="data:image/png;base64,{data}">PNG</a>'
    return f"<figure>{svg}<figcaption>{text}{link}</figcaption></figure>"


def table(header: Iterable[str], rows: Iterable[str], cls: str = "") -> str:
    head = "".join(f'<th class="name">{esc(h)}</th>' if i == 0 else f"<th>{esc(h)}</th>" for i, h in enumerate(header))
    body = "".join(f"<tr>{r}</tr>" for r in rows)
    c = f' class="{cls}"' if cls else ""
    return f"<table{c}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n{body}\n</body></html>\n"
    )
