"""``sacrebleu.dataset``: sacrebleu 2.6's test sets (``DATASETS``, ``SUBSETS``), read offline
from a local sacrebleu cache. Nothing is ever downloaded or written.

The cache is sacrebleu's own layout under ``$SACREBLEU`` (default ``~/.sacrebleu``), read
when a call is made (sacrebleu reads the variable once, at import)::

    <dir>/<set>/raw/<set>.<archive name>           the downloaded archive (not read)
    <dir>/<set>/raw/<path in the catalogue>        its extracted files (XML, SGML, text, TSV)
    <dir>/<set>/<set>.<pair>.<field>               the processed text sacrebleu writes
                                                   (``/`` in a set name and ``:`` in a
                                                   field name become ``_`` and ``-``)

A field is read from its processed text file when present (what sacrebleu reads), else
processed in memory from the raw file exactly as sacrebleu would write it. A test set that
is not in the cache raises :class:`TestSetNotCachedError` naming the files it looked for;
copy ``~/.sacrebleu`` from a machine where sacrebleu has run (``sacrebleu -t SET -l PAIR
--echo src`` downloads and processes a pair).

Field names of the WMT XML sets (2021 on) come from the raw XML, as in sacrebleu; without
it, from the processed files present (sources, references, document ids, original
languages, then system outputs and domains, each group sorted). The order of several
references (``ref:A``, ``ref:B``) is sorted here; sacrebleu takes it from a set of
translator names, whose order changes from process to process.
"""

from __future__ import annotations

import glob
import gzip
import itertools
import os
import re
from typing import Any, Dict, Iterator, List, Optional

from ...errors import InvalidInputError, NlgMetricsError
from ._testsets import SUBSETS as _SUBSETS
from ._testsets import TEST_SETS
from ._wmt_xml import _field_of_translator, text_lines, unwrap_wmt_xml

__all__ = ["DATASETS", "SUBSETS", "COUNTRIES", "DOMAINS", "Dataset", "TestSetNotCachedError", "sacrebleu_dir"]


class TestSetNotCachedError(NlgMetricsError, FileNotFoundError):
    """A test set (or one of its files) is not in the local sacrebleu cache; nothing is downloaded."""

    __test__ = False  # not a pytest class


def sacrebleu_dir() -> str:
    """``$SACREBLEU`` or ``~/.sacrebleu``, as sacrebleu resolves its ``SACREBLEU_DIR``."""
    return os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))


def _clean(s: str) -> str:
    """sacrebleu's cleaning of a segment: strip, and collapse whitespace runs to one space."""
    return re.sub(r"\s+", " ", s.strip())


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8"):
    """Open a text file, gzip-compressed when its name ends in ``.gz`` (newlines kept as is)."""
    if file.endswith(".gz"):
        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")
    return open(file, mode=mode, encoding=encoding, newline="\n")


def _open(path: str, encoding: str = "utf-8"):
    return smart_open(path, encoding=encoding)


class Dataset:
    """One test set of the catalogue: sacrebleu's ``Dataset`` attributes and reading calls."""

    def __init__(self, name: str, entry: Dict[str, Any]):
        self.name = name
        self.format = entry["format"]
        self.data = entry["data"]
        self.md5 = entry["md5"]
        self.description = entry["description"]
        self.citation = entry["citation"]
        self.langpairs = entry["langpairs"]
        self.kwargs = {"refs": entry["refs"]} if entry["refs"] is not None else {}

    def __repr__(self) -> str:
        return f"<sacrebleu test set {self.name!r} ({self.format}, offline)>"

    def __contains__(self, key: str) -> bool:
        return getattr(self, key, None) is not None

    # -- paths ---------------------------------------------------------------------------
    @property
    def _outdir(self) -> str:
        return os.path.join(sacrebleu_dir(), self.name)

    @property
    def _rawdir(self) -> str:
        return os.path.join(self._outdir, "raw")

    def _get_txt_file_path(self, langpair: str, fieldname: str) -> str:
        name = self.name.replace("/", "_")
        return os.path.join(self._outdir, f"{name}.{langpair}.{fieldname.replace(':', '-')}")

    def _get_langpair_metadata(self, langpair: Optional[str]) -> Dict[str, Any]:
        if langpair is None:
            return self.langpairs
        if langpair not in self.langpairs:
            raise NlgMetricsError(f"No such language pair {self.name}/{langpair}")
        return {langpair: self.langpairs[langpair]}

    def _raw_paths(self, langpair: str) -> List[str]:
        meta = self._get_langpair_metadata(langpair)[langpair]
        paths = [meta["path"]] if isinstance(meta, dict) else list(meta)
        return [os.path.join(self._rawdir, p) for p in paths]

    def _missing(self, langpair: Optional[str], looked_for: List[str]) -> TestSetNotCachedError:
        where = f"{self.name}/{langpair}" if langpair else self.name
        return TestSetNotCachedError(
            f"test set {where} is not in the local sacrebleu cache {sacrebleu_dir()} (nothing is downloaded); "
            f"looked for {', '.join(looked_for)}"
        )

    # -- fields --------------------------------------------------------------------------
    def fieldnames(self, langpair: str) -> List[str]:
        """The fields of a pair: ``src``, references, then metadata (sacrebleu's order)."""
        meta = self._get_langpair_metadata(langpair)[langpair]
        if self.format == "WMTXMLDataset":
            raw = self._raw_paths(langpair)[0]
            if os.path.exists(raw):
                return list(self._unwrap(raw))
            return self._fields_on_disk(langpair, raw)
        if self.format in ("PlainTextDataset", "TSVDataset"):
            return ["src", "ref"]
        fields = ["src"]
        fields += ["ref"] if len(meta) == 2 else [f"ref:{i}" for i in range(len(meta) - 1)]
        if not self.name.startswith("wmt08"):
            fields += ["docid", "genre", "origlang"]
        return fields

    def _fields_on_disk(self, langpair: str, raw: str) -> List[str]:
        prefix = self._get_txt_file_path(langpair, "")
        names = sorted(p[len(prefix) :] for p in glob.glob(glob.escape(prefix) + "*"))
        if "src" not in names:
            raise self._missing(langpair, [raw, prefix + "src"])
        refs = [n.replace("-", ":", 1) for n in names if n.startswith("ref")]
        meta = [n for n in ("docid", "origlang") if n in names]
        others = [n for n in names if n not in ("src", "docid", "origlang", "domain") and not n.startswith("ref")]
        return ["src", *refs, *meta, *others, *(["domain"] if "domain" in names else [])]

    def _unwrap(self, raw: str) -> Dict[str, list]:
        return unwrap_wmt_xml(raw)

    def lines(self, langpair: str, field: str, encoding: str = "utf-8") -> List[str]:
        """The lines of one field (without their newlines): the processed file when
        present, else the raw file processed in memory as sacrebleu writes it."""
        path = self._get_txt_file_path(langpair, field)
        if os.path.exists(path):
            if encoding.lower().replace("-", "") != "utf8":
                with _open(path, encoding) as f:
                    return [line[:-1] if line.endswith("\n") else line for line in f]
            return [line[:-1] if line.endswith("\n") else line for line in text_lines(path)]
        return self._process(langpair, field, path)

    def _process(self, langpair: str, field: str, processed: str) -> List[str]:
        fields = self.fieldnames(langpair)
        raws = self._raw_paths(langpair)
        if field not in fields:
            raise NlgMetricsError(f"No such field {field} in test set {self.name} for language pair {langpair}.")
        if self.format == "WMTXMLDataset":
            if not os.path.exists(raws[0]):
                raise self._missing(langpair, [processed, raws[0]])
            return [_clean(x) for x in self._unwrap(raws[0])[field]]
        index = fields.index(field)
        meta = self._get_langpair_metadata(langpair)[langpair]
        if self.format in ("FakeSGMLDataset", "IWSLTXMLDataset", "WMTAdditionDataset") and index >= len(meta):
            raw = raws[0]  # document metadata comes from the source file
        else:
            raw = raws[index]
        if self.format == "TSVDataset":
            column, raw = self._tsv_column(meta[index], field)
        if not os.path.exists(raw):
            raise self._missing(langpair, [processed, raw])
        fin = text_lines(raw)
        if self.format == "PlainTextDataset" or (self.format == "WMTAdditionDataset" and not raw.endswith(".sgm") and index < len(meta)):
            return [line.rstrip() for line in fin]
        if self.format == "TSVDataset":
            cells = [line.rstrip("\n").split("\t") for line in fin]
            short = next((k for k, row in enumerate(cells) if len(row) <= column), None)
            if short is not None:
                raise InvalidInputError(f"{raw}: line {short + 1}: no column {column + 1} (the line has {len(cells[short])})")
            return [row[column] for row in cells]
        if field.startswith("src") or field.startswith("ref"):
            return [_clean(re.sub(r"<seg.*?>(.*)</seg>.*?", "\\1", line)) for line in fin if line.startswith("<seg ")]
        out, value = [], ""
        for line in fin:
            if line.startswith("<doc "):
                match = re.search(rf'{field}="(.*?)"', line)
                if match is not None:
                    value = match.group(1)
            elif line.startswith("<seg "):
                out.append(value)
        return out

    def _tsv_column(self, meta: str, field: str) -> tuple[int, str]:
        parts = meta.split(":")
        if len(parts) == 2:
            return int(parts[0]), os.path.join(self._rawdir, parts[1])
        return (0 if field == "src" else 1), os.path.join(self._rawdir, meta)

    # -- sacrebleu's calls ---------------------------------------------------------------------
    def get_files(self, langpair: str) -> List[str]:
        """Paths of every field's processed file (they must be in the cache)."""
        files = [self._get_txt_file_path(langpair, f) for f in self.fieldnames(langpair)]
        missing = [f for f in files if not os.path.exists(f)]
        if missing:
            raise self._missing(langpair, missing)
        return files

    def _reference_fields(self, langpair: str) -> List[str]:
        fields = self.fieldnames(langpair)
        if self.format == "WMTXMLDataset":
            meta = self._get_langpair_metadata(langpair)[langpair]
            allowed = meta.get("refs", self.kwargs.get("refs", [])) if isinstance(meta, dict) else self.kwargs.get("refs", [])
            wanted = {_field_of_translator(r) for r in allowed}
            return [f for f in fields if f in wanted]
        return [f for f in fields if f.startswith("ref")]

    def get_source_file(self, langpair: str) -> str:
        path = self._get_txt_file_path(langpair, "src")
        if not os.path.exists(path):
            raise self._missing(langpair, [path])
        return path

    def get_reference_files(self, langpair: str) -> List[str]:
        paths = [self._get_txt_file_path(langpair, f) for f in self._reference_fields(langpair)]
        missing = [p for p in paths if not os.path.exists(p)]
        if missing:
            raise self._missing(langpair, missing)
        return paths

    def source(self, langpair: str) -> Iterator[str]:
        for line in self.lines(langpair, "src"):
            yield line.strip()

    def references(self, langpair: str) -> Iterator[tuple]:
        streams = [[line + "\n" for line in self.lines(langpair, f)] for f in self._reference_fields(langpair)]
        yield from zip(*streams)

    def maybe_download(self) -> None:
        """Never downloads: raises unless the archive's extracted files are in the cache."""
        for langpair in self.langpairs:
            for raw in self._raw_paths(langpair):
                if not os.path.exists(raw):
                    raise self._missing(langpair, [raw])


DATASETS: Dict[str, Dataset] = {name: Dataset(name, entry) for name, entry in TEST_SETS.items()}
SUBSETS: Dict[str, Dict[str, str]] = _SUBSETS
COUNTRIES = sorted({v.split("-")[0] for v in SUBSETS["wmt19"].values()})
DOMAINS = sorted({v.split("-")[1] for v in SUBSETS["wmt19"].values()})

# kept for the module's readers: itertools is used by utils.filter_subset
_ = itertools
