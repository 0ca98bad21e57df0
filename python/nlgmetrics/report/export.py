"""Every report table as CSV and as a LaTeX (booktabs) tabular.

The exports are read back from the table's own HTML, so they cannot disagree with it: a
CSV cell holds the cell's ``data-value`` (Python's ``repr`` of the number, full precision)
or its text; a LaTeX cell holds the text as shown (rounded as in the report). Both travel
inside the page as ``data:`` download links (the report stays one file that works offline
and without scripts); ``nlgmetrics report --export-dir DIR`` also writes them as files, read
back from those links with :func:`exports_of`.
"""

from __future__ import annotations

import base64
import csv
import io
import re
from html.parser import HTMLParser

MISSING = "–"  # what a report shows for a number that does not exist


class _Rows(HTMLParser):
    """The cells of a table: (text shown, exact value) per cell, header row first."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[list[tuple[str, str]]] = []
        self._cell: list[str] | None = None
        self._value: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = dict(attrs)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self._cell = []
            if "data-value" in a:
                self._value = a["data-value"]
            elif "data-lower" in a and "data-upper" in a:
                self._value = f"[{a['data-lower']}, {a['data-upper']}]"
            else:
                self._value = None
        elif tag == "br" and self._cell is not None:
            self._cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            text = "".join(self._cell).strip()
            value = self._value if self._value is not None else ("" if text == MISSING else text)
            self.rows[-1].append((text, value))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def table_cells(table_html: str) -> list[list[tuple[str, str]]]:
    """``[(text, value), ...]`` per row of an HTML table (header row first)."""
    parser = _Rows()
    parser.feed(table_html)
    parser.close()
    return [row for row in parser.rows if row]


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: str) -> str:
    """A cell as a spreadsheet may safely open it (OWASP CSV injection): a number stays
    as written (``-0.5`` is a number, not a formula); any other text that a spreadsheet
    would read as a formula (starting with ``= + - @``, TAB or CR) gets a leading ``'``."""
    if value.startswith(_FORMULA_START) and not _NUMBER.match(value):
        return "'" + value
    return value


def to_csv(rows: list[list[tuple[str, str]]]) -> str:
    """Header texts, then each cell's exact value (numbers as Python's ``repr``).

    RFC 4180: CRLF between records, so a field holding a CR or LF (a segment's text) is
    quoted and stays one field; text cells are neutralised by :func:`csv_cell`."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([csv_cell(text) for text, _ in rows[0]])
    writer.writerows([csv_cell(value) for _, value in row] for row in rows[1:])
    return out.getvalue()


# Characters LaTeX treats specially, and the symbols the report's headings use. Every
# export is plain ASCII and compiles with pdflatex and ``\usepackage{booktabs}`` alone
# (tests/test_report_files.py runs pdflatex on adversarial names and texts).
_LATEX = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
    "[": "{[}", "]": "{]}",  # a row starting with [ would be \\[...] or \midrule[...]: an argument
    "μ": r"$\mu$", "±": r"$\pm$", "Δ": r"$\Delta$", "–": "--", "—": "---", "≥": r"$\geq$", "≤": r"$\leq$",
    "·": r"$\cdot$", "−": r"$-$", "×": r"$\times$", "÷": r"$\div$", "→": r"$\rightarrow$", "…": r"\ldots{}",
    "\n": " / ", "\u00a0": "~", "ß": r"\ss{}", "æ": r"\ae{}", "Æ": r"\AE{}", "ø": r"\o{}", "Ø": r"\O{}",
    "œ": r"\oe{}", "Œ": r"\OE{}", "ł": r"\l{}", "Ł": r"\L{}", "ı": r"\i{}", "¡": r"\textexclamdown{}",
    "¿": r"\textquestiondown{}", "°": r"$^\circ$", "‘": "`", "’": "'", "“": "``", "”": "''", "«": "<<", "»": ">>",
}
_LATEX["«"] = _LATEX["<"] * 2
_LATEX["»"] = _LATEX[">"] * 2
_ACCENTS = {"\u0300": "`", "\u0301": "'", "\u0302": "^", "\u0303": "~", "\u0308": '"', "\u030a": "r", "\u030c": "v",
            "\u0304": "=", "\u0306": "u", "\u0307": ".", "\u030b": "H", "\u0327": "c"}
_NUMBER = re.compile(r"^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$|^[-+]?(inf|nan)$")


def _latex_char(ch: str) -> str:
    if ch in _LATEX:
        return _LATEX[ch]
    if " " <= ch <= "~":
        return ch
    if ch in "\t\r\x0b\x0c":
        return " "
    import unicodedata

    parts = unicodedata.normalize("NFD", ch)
    base, marks = parts[0], parts[1:]
    if "A" <= base <= "z" and base.isalpha() and marks and all(m in _ACCENTS for m in marks):
        out = {"i": r"\i{}", "j": r"\j{}"}.get(base, base)
        for m in marks:
            out = f"\\{_ACCENTS[m]}{{{out}}}"
        return out
    if unicodedata.category(ch).startswith(("C", "Z")):
        return " "
    return f"\\texttt{{U+{ord(ch):04X}}}"  # pdflatex has no glyph for it without extra packages; the CSV keeps the text


def latex_escape(text: str) -> str:
    """``text`` as pure-ASCII LaTeX for pdflatex with booktabs only: specials escaped,
    accented Latin letters as accent commands, characters without a glyph there (CJK,
    emoji) as ``U+XXXX``."""
    return "".join(_latex_char(ch) for ch in text)


def to_latex(rows: list[list[tuple[str, str]]], *, title: str = "") -> str:
    """A booktabs ``tabular`` of the texts shown: numeric columns right-aligned."""
    header, body = rows[0], rows[1:]
    width = max(len(r) for r in rows)
    numeric = [
        bool(body) and all(i >= len(r) or r[i][0] in ("", MISSING) or _NUMBER.match(r[i][0].rstrip(" *")) for r in body)
        for i in range(width)
    ]
    spec = "".join("r" if n and i > 0 else "l" for i, n in enumerate(numeric))

    def line(row: list[tuple[str, str]]) -> str:
        texts = [latex_escape(text) for text, _ in row] + [""] * (width - len(row))
        return " & ".join(texts) + r" \\"

    title = latex_escape(" ".join(title.split()))  # one ASCII line: a line break would end the comment
    lines = [f"% {title} (nlgmetrics report); needs \\usepackage{{booktabs}}" if title else "% nlgmetrics report table; needs \\usepackage{booktabs}"]
    lines += [f"\\begin{{tabular}}{{{spec}}}", r"\toprule", line(header), r"\midrule", *(line(r) for r in body), r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def file_stem(name: str) -> str:
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in name).strip("-").lower()[:60] or "table"


def links(table_html: str, name: str) -> str:
    """The CSV and LaTeX download links of a table, as ``data:`` URIs."""
    rows = table_cells(table_html)
    if not rows:
        return ""
    stem = file_stem(name)
    parts = []
    for ext, mime, text in (("csv", "text/csv", to_csv(rows)), ("tex", "application/x-tex", to_latex(rows, title=name))):
        data = base64.b64encode(text.encode("utf-8")).decode("ascii")
        label = "CSV" if ext == "csv" else "LaTeX"
        parts.append(f'<a class="export" download="{stem}.{ext}" href="data:{mime};charset=utf-8;base64,{data}">{label}</a>')
    return f'<p class="exports">{" ".join(parts)}</p>'


_LINK = re.compile(r'<a class="export" download="([^"]+)" href="data:[^;]+;charset=utf-8;base64,([^"]+)">')


def exports_of(page: str) -> dict[str, bytes]:
    """Every table export in a report page, by file name (a repeated name gets ``-2``, ``-3`` ...)."""
    out: dict[str, bytes] = {}
    for name, data in _LINK.findall(page):
        stem, ext = name.rsplit(".", 1)
        unique, k = name, 2
        while unique in out:
            unique, k = f"{stem}-{k}.{ext}", k + 1
        out[unique] = base64.b64decode(data)
    return out
