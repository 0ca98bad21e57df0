"""The raw files of sacrebleu's test sets, read as sacrebleu reads them; a malformed file is
an :class:`InvalidInputError` naming the file and the line, never a raw ``KeyError``,
``ValueError``, ``UnicodeDecodeError`` or ``ParseError``."""

from __future__ import annotations

import gzip
import io
from collections import defaultdict
from typing import Any, Dict, List, Optional

from ...errors import InvalidInputError


def _bytes_of(name: str) -> bytes:
    opener = gzip.open if name.endswith(".gz") else open
    with opener(name, "rb") as fh:
        return fh.read()


def _decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InvalidInputError(f"{name}: line {line}: not UTF-8 (byte {data[e.start]:#04x})") from None


def read_text(raw_file: Any) -> tuple[str, str]:
    """The name and the text of a path or an open file (utf-8; ``.gz`` transparently)."""
    name = str(getattr(raw_file, "name", raw_file))
    if not hasattr(raw_file, "read"):
        return name, _decode(_bytes_of(name), name)
    try:
        data = raw_file.read()
    except UnicodeDecodeError:  # decoded in chunks: find the line in the bytes
        return name, _decode(_bytes_of(name), name)
    return name, data if isinstance(data, str) else _decode(data, name)


def text_lines(path: str) -> list[str]:
    """The lines of a text file with their ``\\n`` (no other line break splits a line)."""
    _, text = read_text(path)
    return list(io.StringIO(text, newline="\n"))


def _field_of_translator(translator: Optional[str]) -> str:
    return "ref" if not translator else f"ref:{translator}"


class _Where:
    """The line of an element, found (only when an error needs it) by a second pass of
    expat over the text: its elements start in the order ``root.iter()`` visits them."""

    def __init__(self, name: str, text: str, root: Any):
        self.name, self.text, self.root = name, text, root

    def error(self, element: Any, what: str) -> InvalidInputError:
        import xml.parsers.expat

        lines: list[int] = []
        parser = xml.parsers.expat.ParserCreate()
        parser.StartElementHandler = lambda *_: lines.append(parser.CurrentLineNumber)
        parser.Parse(self.text, True)
        index = next(i for i, e in enumerate(self.root.iter()) if e is element)
        return InvalidInputError(f"{self.name}: line {lines[index]}: {what}")

    def seg_id(self, seg: Any) -> int:
        value = seg.get("id")
        try:
            return int(value)
        except (TypeError, ValueError):
            raise self.error(seg, f"<seg> id {value!r} is not an integer") from None

    def attribute(self, element: Any, key: str) -> str:
        value = element.get(key)
        if value is None:
            raise self.error(element, f"<{element.tag}> has no {key} attribute")
        return value


def unwrap_wmt_xml(raw_file: Any) -> Dict[str, List[Optional[str]]]:
    """The fields of a WMT 2021+ XML file (``src``, ``ref``/``ref:<translator>``, ``docid``,
    ``origlang``, system outputs, ``domain`` when the last document kept has one), one
    value per segment, as sacrebleu reads them."""
    import xml.etree.ElementTree as ET

    name, text = read_text(raw_file)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        raise InvalidInputError(f"{name}: line {e.position[0]}: not a WMT XML file ({e})") from None
    where = _Where(name, text, root)
    src_langs = {d.get("lang") for d in root.findall(".//src")}
    ref_langs, translators = set(), set()
    for ref_doc in root.findall(".//ref"):
        ref_langs.add(ref_doc.get("lang"))
        translators.add(ref_doc.get("translator"))
    if len(src_langs) != 1 or len(ref_langs) != 1:
        raise InvalidInputError(f"{name}: expected one source and one reference language, found {sorted(map(str, src_langs))} and {sorted(map(str, ref_langs))}")
    ordered = sorted(translators, key=lambda t: (t is not None, t or ""))
    refs: Dict[str, list] = {_field_of_translator(t): [] for t in ordered}
    src, docids, origlangs, domains = [], [], [], []
    systems: Dict[str, list] = defaultdict(list)
    seen_domain = False
    for doc in root.findall(".//doc"):
        if "testsuite" in doc.attrib:
            continue
        src_sents = {where.seg_id(seg): seg.text or "" for seg in doc.findall(".//src//seg")}

        def sents(element) -> dict:
            return {where.seg_id(seg): seg.text if seg.text else "" for seg in element.findall(".//seg")}

        by_translator = {ref_doc.get("translator"): sents(ref_doc) for ref_doc in doc.findall(".//ref")}
        hyps = {hyp_doc.get("system"): sents(hyp_doc) for hyp_doc in doc.findall(".//hyp")}
        for seg_id in sorted(src_sents):
            if not any(v.get(seg_id, "") for v in by_translator.values()):
                continue
            for t in ordered:
                refs[_field_of_translator(t)].append(by_translator.get(t, {}).get(seg_id, ""))
            src.append(src_sents[seg_id])
            for system in hyps:
                systems[system].append(hyps[system].get(seg_id, ""))
            docids.append(where.attribute(doc, "id"))
            origlangs.append(where.attribute(doc, "origlang"))
            domains.append(doc.get("domain"))
            seen_domain = doc.get("domain") is not None
    fields: Dict[str, list] = {"src": src, **refs, "docid": docids, "origlang": origlangs, **systems}
    if seen_domain:
        fields["domain"] = domains
    return fields
