"""``sacrebleu.utils``: the test-set helpers of sacrebleu 2.6, offline (see
:mod:`nlgmetrics.compat.sacrebleu.dataset` for the cache they read). ``SACREBLEU_DIR`` is
read from ``$SACREBLEU`` when accessed. Where sacrebleu would download,
:class:`~nlgmetrics.compat.sacrebleu.dataset.TestSetNotCachedError` is raised instead.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from typing import Any, List, Optional, Sequence

from ...errors import NlgMetricsError
from ._wmt_xml import text_lines
from .dataset import DATASETS, SUBSETS, TestSetNotCachedError, sacrebleu_dir, smart_open, unwrap_wmt_xml



__all__ = [
    "DATASETS", "SUBSETS", "SACREBLEU_DIR", "smart_open", "get_source_file", "get_reference_files", "get_files", "download_test_set",
    "get_langpairs_for_testset", "get_available_testsets", "get_available_testsets_for_langpair",
    "get_available_origlangs", "get_available_subsets", "filter_subset", "print_test_set", "test_set_lines",
    "TestSetNotCachedError",
]  # fmt: skip

sacrelogger = logging.getLogger("sacrebleu")


def __getattr__(name: str) -> Any:
    if name == "SACREBLEU_DIR":
        return sacrebleu_dir()
    raise AttributeError(name)


def _dataset(test_set: str):
    if test_set not in DATASETS:
        raise NlgMetricsError(f"No such test set {test_set}")
    return DATASETS[test_set]


def get_source_file(test_set: str, langpair: str) -> str:
    return _dataset(test_set).get_source_file(langpair)


def get_reference_files(test_set: str, langpair: str) -> List[str]:
    return _dataset(test_set).get_reference_files(langpair)


def get_files(test_set: str, langpair: str) -> List[str]:
    return _dataset(test_set).get_files(langpair)


def download_test_set(test_set: str, langpair: Optional[str] = None) -> List[str]:
    """The processed files of a test set (one pair, or all), which must be in the cache."""
    dataset = _dataset(test_set)
    pairs = [langpair] if langpair else list(dataset.langpairs)
    return [f for pair in pairs for f in dataset.get_files(pair)]


def get_langpairs_for_testset(testset: str) -> List[str]:
    return list(DATASETS[testset].langpairs) if testset in DATASETS else []


def get_available_testsets() -> List[str]:
    return sorted(DATASETS, reverse=True)


def get_available_testsets_for_langpair(langpair: str) -> List[str]:
    src, trg = langpair.split("-")[:2]
    return [d.name for d in DATASETS.values() if f"{src}-{trg}" in d.langpairs or f"{trg}-{src}" in d.langpairs]


def _raw_file(test_set: str, langpair: str) -> str:
    meta = DATASETS[test_set].langpairs[langpair]
    # the pair's first file; WMT22+ pairs given as {"path": ..., "refs": ...} name theirs in
    # "path" (sacrebleu indexes them with [0] and fails there)
    first = meta["path"] if isinstance(meta, dict) else meta[0]
    return os.path.join(sacrebleu_dir(), test_set, "raw", first)


def _wmt_xml_fields(test_set: str, langpair: str) -> dict:
    raw = _raw_file(test_set, langpair)
    if not os.path.exists(raw):
        raise TestSetNotCachedError(f"test set {test_set}/{langpair}: its raw file {raw} is not in the local sacrebleu cache")
    return unwrap_wmt_xml(raw)


def get_available_origlangs(test_sets: Optional[str], langpair: str) -> List[str]:
    if test_sets is None:
        return []
    origlangs = set()
    for test_set in test_sets.split(","):
        if DATASETS[test_set].format == "WMTXMLDataset":
            origlangs.update(_wmt_xml_fields(test_set, langpair)["origlang"])
        raw = _raw_file(test_set, langpair)
        if raw.endswith(".sgm"):
            origlangs.update(re.sub(r'.* origlang="([^"]+)".*\n', "\\1", line) for line in text_lines(raw) if line.startswith("<doc "))
    return sorted(origlangs)


def get_available_subsets(test_sets: Optional[str], langpair: str) -> List[str]:
    if test_sets is None:
        return []
    subsets = set()
    for test_set in test_sets.split(","):
        if DATASETS[test_set].format == "WMTXMLDataset":
            fields = _wmt_xml_fields(test_set, langpair)
            if "domain" in fields:
                subsets |= set(fields["domain"])
        elif test_set in SUBSETS:
            subsets |= {"country:" + v.split("-")[0] for v in SUBSETS[test_set].values()}
            subsets |= {v.split("-")[1] for v in SUBSETS[test_set].values()}
    return sorted(subsets)


def filter_subset(systems: Sequence[Any], test_sets: Optional[str], langpair: Optional[str], origlang: Optional[str],
                  subset: Optional[str] = None) -> Any:
    """Keep the sentences of documents with a given original language and/or whose
    document annotation matches ``subset`` (a regex), read from the raw files."""
    if origlang is None and subset is None:
        return systems
    if test_sets is None or langpair is None:
        raise ValueError("Filtering for --origlang or --subset needs a test (-t) and a language pair (-l).")
    if subset is not None and subset.startswith("country:"):
        subset = subset[8:]

    def keep_origlang(doc_origlang: str) -> bool:
        if origlang is None:
            return True
        if origlang.startswith("non-"):
            return doc_origlang != origlang[4:]
        return doc_origlang == origlang

    re_origlang = re.compile(r'.* origlang="([^"]+)".*\n')
    re_id = re.compile(r'.* docid="([^"]+)".*\n')
    keep: List[bool] = []
    for test_set in test_sets.split(","):
        raw = _raw_file(test_set, langpair)
        if DATASETS[test_set].format == "WMTXMLDataset":
            fields = _wmt_xml_fields(test_set, langpair)
            domains = fields["domain"] if "domain" in fields else [None] * len(fields["origlang"])
            for doc_origlang, doc_domain in zip(fields["origlang"], domains):
                include = keep_origlang(doc_origlang)
                if subset is not None and (doc_domain is None or not re.search(subset, doc_domain)):
                    include = False
                keep.append(include)
        elif raw.endswith(".sgm"):
            if not os.path.exists(raw):
                raise TestSetNotCachedError(f"test set {test_set}/{langpair}: its raw file {raw} is not in the local sacrebleu cache")
            tags = {}
            if subset is not None:
                if test_set not in SUBSETS:
                    raise NlgMetricsError("No subset annotation available for test set " + test_set)
                tags = SUBSETS[test_set]
            include = False
            for line in text_lines(raw):
                if line.startswith("<doc "):
                    include = True if origlang is None else keep_origlang(re_origlang.sub(r"\1", line))
                    if subset is not None and not re.search(subset, tags.get(re_id.sub(r"\1", line), "")):
                        include = False
                if line.startswith("<seg "):
                    keep.append(include)
        else:
            raise NlgMetricsError(f"--origlang and --subset supports only WMT *.xml and *.sgm files, not {raw!r}")
    return [[sentence for sentence, k in zip(stream, keep) if k] for stream in systems]


class EchoError(NlgMetricsError):
    """A ``--echo`` request sacrebleu refuses; ``lines`` are its messages."""

    def __init__(self, lines: List[str]):
        super().__init__("\n".join(lines))
        self.lines = lines


def test_set_lines(test_set: str, langpair: str, requested_fields: Sequence[str], origlang: Optional[str] = None,
                   subset: Optional[str] = None) -> List[str]:
    """The lines ``--echo`` prints: the requested fields of each segment, tab-separated."""
    dataset = _dataset(test_set)
    fieldnames = dataset.fieldnames(langpair)
    requested = list(requested_fields)
    if "all" in requested and len(requested) != 1:
        raise EchoError(["Cannot use --echo all with other fields"])
    if "all" in requested:
        requested = fieldnames
    if "ref" in requested and "ref" not in fieldnames:
        replacement = min(f for f in fieldnames if f.startswith("ref"))
        requested = [f if f != "ref" else replacement for f in requested]
    for field in requested:
        if field not in fieldnames:
            lines = [f"No such field {field} in test set {test_set} for language pair {langpair}.",
                     f"available fields for {test_set}/{langpair}: {', '.join(fieldnames)}"]
            if "ref" not in fieldnames:
                subref = min(f for f in fieldnames if f.startswith("ref"))
                lines.append(f"'ref' also allowed for backwards compatibility (will return {subref})")
            raise EchoError(lines)
    streams = [dataset.lines(langpair, field) for field in requested]
    streams = filter_subset(streams, test_set, langpair, origlang, subset)
    return ["\t".join(x.rstrip() for x in row) for row in zip(*streams)]


def print_test_set(test_set: str, langpair: str, requested_fields: Sequence[str], origlang: Optional[str] = None,
                   subset: Optional[str] = None) -> None:
    """Print fields of a test set to stdout (sacrebleu's ``--echo``); exits 1 on a bad field."""
    try:
        lines = test_set_lines(test_set, langpair, requested_fields, origlang, subset)
    except EchoError as e:
        for line in e.lines:
            sacrelogger.error(line)
        sys.exit(1)
    for line in lines:
        print(line)


# -- sacrebleu.utils' small helpers, for code that imports them -----------------------------------
from ._helpers import my_log, sum_of_lists  # noqa: E402

USERHOME = os.path.expanduser("~")

_ANSI = {"black": 30, "red": 31, "green": 32, "yellow": 33, "blue": 34, "magenta": 35, "cyan": 36, "white": 37, "reset": 39}
_ANSI.update({f"light{name}_ex": code + 60 for name, code in list(_ANSI.items()) if name != "reset"})


class Color:
    """``Color.format(msg, color)``: the message in an ANSI colour (colorama's ``Fore`` names)."""

    ENABLE_COLORS = True

    @staticmethod
    def format(msg: str, color: str) -> str:
        code = _ANSI.get(color.lower())
        if not Color.ENABLE_COLORS or code is None:
            return msg
        return f"\033[{code}m{msg}\033[0m"


def args_to_dict(args: Any, prefix: str, strip_prefix: bool = False) -> dict:
    """The ``argparse.Namespace`` entries starting with ``prefix_`` (without it when ``strip_prefix``)."""
    prefix += "_"
    return {(k.replace(prefix, "") if strip_prefix else k): v for k, v in vars(args).items() if k.startswith(prefix)}


def sanity_check_lengths(system: Sequence[str], refs: Sequence[Sequence[str]], test_set: Optional[str] = None) -> None:
    """Exit with status 1 (sacrebleu's CLI check) when a reference stream's length differs from the system's."""
    if any(len(stream) != len(system) for stream in refs):
        sacrelogger.error("System and reference streams have different lengths.")
        if test_set:
            sacrelogger.error(f"Check the cached test set under {sacrebleu_dir()}/{test_set}.")
        sys.exit(1)


def get_md5sum(dest_path: str) -> str:
    """The MD5 hex digest of a file."""
    import hashlib

    md5 = hashlib.md5()
    with open(dest_path, "rb") as infile:
        for block in iter(lambda: infile.read(1 << 20), b""):
            md5.update(block)
    return md5.hexdigest()


def extract_tarball(filepath: str, destdir: str) -> None:
    """Unpack a local ``.tar.gz``/``.tgz``/``.zip`` archive into ``destdir``."""
    sacrelogger.info(f"Extracting {filepath} to {destdir}")
    if filepath.endswith((".tar.gz", ".tgz")):
        import tarfile

        with tarfile.open(filepath) as tar:
            tar.extractall(path=destdir, filter="data")
    elif filepath.endswith(".zip"):
        import zipfile

        with zipfile.ZipFile(filepath) as archive:
            archive.extractall(path=destdir)


def download_file(source_path: str, dest_path: str, extract_to: Optional[str] = None, expected_md5: Optional[str] = None) -> None:
    """nlgmetrics never downloads: a file that is not at ``dest_path`` is a :class:`TestSetNotCachedError`."""
    if not os.path.exists(dest_path):
        raise TestSetNotCachedError(f"{dest_path} is not cached and nlgmetrics does not download: fetch {source_path} "
                                    f"there with sacrebleu or by hand")
    if expected_md5 is not None and get_md5sum(dest_path) != expected_md5:
        raise NlgMetricsError(f"{dest_path}: MD5 differs from the expected {expected_md5}")
    if extract_to is not None:
        extract_tarball(dest_path, extract_to)
