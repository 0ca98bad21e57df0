"""Self-contained HTML for reports: inline CSS, plots as inline SVG (each with a 200-dpi
PNG to save), every table with its CSV and LaTeX to save (:mod:`.export`), one inline
script that makes tables sortable and filterable, no external resources, so a report opens
offline and can be mailed as one file. Without scripts every row stays visible and every
link still works.

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
table.seg td,table.seg th{text-align:left;max-width:36em}table.seg td[data-value]{text-align:right}
.scroll table.seg td:not([data-value]){min-width:13em}
.m1{background:#fff3b0}.m2{background:#ffd98a}.m3{background:#ffb870}.m4{background:#ff9a66}
.empty{color:#999;font-style:italic}.legend span{padding:0 .4em;margin-right:.3em}
.d{text-decoration:underline 2px #c01c28;text-underline-offset:2px}
p.exports{margin:-.4em 0 .8em;font-size:.8em}p.exports a{color:#1a5fb4;margin-right:.6em}
.scroll{max-height:38em;overflow:auto;border:1px solid #ddd;margin:.6em 0}.scroll table{margin:0}
.scroll thead th{position:sticky;top:0;z-index:1}
th.sort{cursor:pointer;user-select:none}th.sort::after{content:" ↕";color:#999}
th[aria-sort=ascending]::after{content:" ▲";color:#222}th[aria-sort=descending]::after{content:" ▼";color:#222}
input.filter{font:inherit;padding:.2em .4em;width:min(30em,100%);margin:.4em .6em .2em 0}
@media print{p.exports,input.filter,.filter-count{display:none}.scroll{max-height:none;overflow:visible;border:none}}
"""

# Sorts a table.sortable by a clicked header (numbers by their data-value, missing ones
# last; text otherwise; ties keep the page's order) and adds a filter box above each
# table.filterable. Nothing is fetched; without scripts the tables are as written.
SCRIPT = r"""
(function () {
  function cellKey(cell) {
    var v = cell ? cell.getAttribute("data-value") : null;
    var n = v === null || v === "" ? NaN : Number(v);
    return { n: n, s: cell ? cell.textContent : "" };
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var heads = table.tHead.rows[0].cells;
    rows.forEach(function (r, i) { r.setAttribute("data-order", i); });
    Array.prototype.forEach.call(heads, function (th, col) {
      th.classList.add("sort");
      th.tabIndex = 0;
      th.title = "sort by this column";
      function sort() {
        var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        var keyed = rows.map(function (r) { var k = cellKey(r.cells[col]); k.r = r; k.i = +r.getAttribute("data-order"); return k; });
        keyed.sort(function (a, b) {
          var an = isNaN(a.n), bn = isNaN(b.n);
          if (!an && !bn && a.n !== b.n) return dir * (a.n - b.n);
          if (an !== bn) return an ? 1 : -1;
          var c = an ? a.s.localeCompare(b.s) : 0;
          return c ? dir * c : a.i - b.i;
        });
        keyed.forEach(function (k) { body.appendChild(k.r); });
      }
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
    });
    if (!table.classList.contains("filterable")) return;
    var box = document.createElement("input");
    box.type = "search";
    box.className = "filter";
    box.placeholder = "Filter rows: text in any cell";
    box.setAttribute("aria-label", "filter the rows of the table below");
    var count = document.createElement("span");
    count.className = "meta filter-count";
    count.setAttribute("aria-live", "polite");
    box.addEventListener("input", function () {
      var q = box.value.trim().toLowerCase(), shown = 0;
      rows.forEach(function (r) {
        var hit = !q || r.textContent.toLowerCase().indexOf(q) >= 0;
        r.hidden = !hit;
        shown += hit ? 1 : 0;
      });
      count.textContent = shown + " of " + rows.length + " rows";
    });
    var anchor = table.parentNode.classList.contains("scroll") ? table.parentNode : table;
    anchor.parentNode.insertBefore(box, anchor);
    anchor.parentNode.insertBefore(count, anchor);
  });
})();
"""


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def number(value: Any, width: int = 2, **data: Any) -> str:
    """A ``<td>`` showing ``value`` rounded, holding its exact value and labels as data."""
    attrs = "".join(f' data-{k.replace("_", "-")}="{esc(v)}"' for k, v in data.items())
    if value is None:
        return f'<td{attrs} class="na">–</td>'
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"<td{attrs}>{esc(value)}</td>"
    shown = f"{value:.{width}f}" if isinstance(value, float) and math.isfinite(value) else str(value)
    return f'<td{attrs} data-value="{esc(repr(value))}">{esc(shown)}</td>'


def figure(fig: Any, alt: str, caption: str | None = None) -> str:
    """A matplotlib figure as an inline ``<figure>``: the SVG, and a link saving a PNG of it."""
    from .plots import to_png, to_svg

    data = base64.b64encode(to_png(fig)).decode("ascii")
    svg = to_svg(fig).replace("<svg", f'<svg role="img" aria-label="{esc(alt)}"', 1)
    file_name = "".join(c if c.isalnum() else "-" for c in alt).strip("-")[:60] or "figure"
    text = f"{esc(caption)} · " if caption else ""
    link = f'<a download="{esc(file_name)}.png" href="data:image/png;base64,{data}">PNG</a>'
    return f"<figure>{svg}<figcaption>{text}{link}</figcaption></figure>"


def table(header: Iterable[str], rows: Iterable[str], cls: str = "", *, name: str | None = None, scroll: bool = False) -> str:
    """A table of ``<td>`` rows under ``header``, followed by its CSV and LaTeX links
    (files named after ``name``, by default the first heading). ``cls``: ``sortable``,
    ``filterable`` (see :data:`SCRIPT`); ``scroll``: in a box of bounded height."""
    from .export import links

    header = list(header)
    head = "".join(f'<th class="name">{esc(h)}</th>' if i == 0 else f"<th>{esc(h)}</th>" for i, h in enumerate(header))
    body = "".join(f"<tr>{r}</tr>" for r in rows)
    c = f' class="{cls}"' if cls else ""
    html = f"<table{c}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    box = f'<div class="scroll">{html}</div>' if scroll else html
    return box + links(html, name or (header[0] if header else "table"))


def page(title: str, body: str) -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta name=\"generator\" content=\"nlgmetrics report\">"
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n{body}\n<script>{SCRIPT}</script></body></html>\n"
    )
