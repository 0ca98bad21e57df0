"""sacrebleu test sets (``-t``/``-l``, ``--echo``, ``--list``, ``--origlang``/``--subset``,
``--detail``; ``DATASETS`` and ``utils``) read offline from a local sacrebleu cache.

A cache is built in a temporary directory in sacrebleu 2.6's layout from the WMT22 data in
../shared/corpora: ``wmt22`` (WMT XML: en-zh and zh-en, documents with original languages
and domains, references A and B, two system outputs) and ``wmt19`` (WMT SGML: zh-en, with
document ids that have subset annotations), each with a (dummy, non-empty) archive file,
so sacrebleu finds the set present and never downloads (downloads are pointed at a closed
port as well). sacrebleu runs in a subprocess on that cache (it reads ``$SACREBLEU`` at
import) and writes its processed files; ``nlgmetrics sacrebleu`` is compared byte for byte
on stdout and by exit status, on the processed cache and on a copy holding only the raw
files (processed in memory).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from xml.sax.saxutils import escape

import pytest

sacrebleu = pytest.importorskip("sacrebleu")

from conftest import CORPORA, read_lines  # noqa: E402
from nlgmetrics.cli.main import main as nm_main  # noqa: E402
from nlgmetrics.compat import sacrebleu as compat  # noqa: E402
from nlgmetrics.compat.sacrebleu.dataset import TestSetNotCachedError  # noqa: E402
from wmt import load_pair  # noqa: E402

N = 120  # segments per pair
DOC = 10  # segments per document
DOMAINS = ("news", "social", "ecommerce")
# wmt19 document ids with subset annotations in sacrebleu's SUBSETS
WMT19_DOCS = ("bbc.381790", "rt.com.91337", "nytimes.184853", "upi.176266", "guardian.221754", "dailymail.co.uk.298595",
              "cnbc.com.6790", "nytimes.184837", "upi.176249", "euronews-en.153835", "dailymail.co.uk.298732", "telegraph.405401")


def _wmt22_xml(pair: str) -> str:
    p = load_pair(pair)
    src_lang, tgt_lang = pair.split("-")
    source = read_lines(CORPORA / "wmt22" / pair / f"generaltest2022.{pair}.src.{src_lang}")[:N]
    systems = sorted(p.systems.items())[:2]
    out = ['<?xml version="1.0" encoding="utf-8"?>', '<dataset id="generaltest2022">', '<collection id="general">']
    for k in range(0, N, DOC):
        docno = k // DOC
        origlang = src_lang if docno % 3 else tgt_lang
        out.append(f'<doc id="doc{docno:03d}" origlang="{origlang}" domain="{DOMAINS[docno % 3]}">')

        def block(tag: str, attrs: str, lines: list[str]) -> None:
            out.append(f"<{tag} {attrs}><p>")
            for i, line in enumerate(lines[k : k + DOC], 1):
                out.append(f'<seg id="{i}">{escape(line)}</seg>')
            out.append(f"</p></{tag}>")

        block("src", f'lang="{src_lang}"', source)
        for name, ref in zip("AB", p.refs):
            block("ref", f'lang="{tgt_lang}" translator="{name}"', ref)
        for name, hyps in systems:
            block("hyp", f'system="{name}" language="{tgt_lang}"', hyps)
        out.append("</doc>")
    out += ["</collection>", "</dataset>"]
    return "\n".join(out) + "\n"


def _wmt19_sgm(lines: list[str], kind: str, lang: str) -> str:
    out = [f'<{kind}set setid="newstest2019" srclang="any" trglang="{lang}">']
    for k in range(0, N, DOC):
        docid = WMT19_DOCS[k // DOC]
        origlang = "zh" if (k // DOC) % 2 else "en"
        out.append(f'<doc sysid="ref" docid="{docid}" genre="news" origlang="{origlang}">')
        out.append("<p>")
        for i, line in enumerate(lines[k : k + DOC], 1):
            out.append(f'<seg id="{i}">{escape(line)}</seg>')
        out.append("</p>")
        out.append("</doc>")
    out.append(f"</{kind}set>")
    return "\n".join(out) + "\n"


def _environment(cache) -> dict:
    env = {**os.environ, "SACREBLEU": str(cache), "NO_COLOR": "1", "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9"}
    env.pop("SACREBLEU_FORMAT", None)
    return env


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("sacrebleu-cache")
    cache = root / "cache"
    raw22 = cache / "wmt22" / "raw"
    (raw22 / "wmt22-news-systems-1.1" / "xml").mkdir(parents=True)
    (raw22 / "wmt22.v1.1.tar.gz").write_bytes(b"present")  # sacrebleu checks that it exists and is not empty
    for pair in ("en-zh", "zh-en"):
        (raw22 / "wmt22-news-systems-1.1" / "xml" / f"wmttest2022.{pair}.all.xml").write_text(_wmt22_xml(pair), encoding="utf-8")
    raw19 = cache / "wmt19" / "raw"
    (raw19 / "sgm").mkdir(parents=True)
    (raw19 / "wmt19.test.tgz").write_bytes(b"present")
    src = read_lines(CORPORA / "wmt22" / "zh-en" / "generaltest2022.zh-en.src.zh")[:N]
    ref = load_pair("zh-en").refs[0][:N]
    (raw19 / "sgm" / "newstest2019-zhen-src.zh.sgm").write_text(_wmt19_sgm(src, "src", "zh"), encoding="utf-8")
    (raw19 / "sgm" / "newstest2019-zhen-ref.en.sgm").write_text(_wmt19_sgm(ref, "ref", "en"), encoding="utf-8")
    raw_only = root / "raw-only"
    shutil.copytree(cache, raw_only)
    files = {}
    for pair in ("en-zh", "zh-en"):
        for k, (_, hyps) in enumerate(sorted(load_pair(pair).systems.items())[:2]):
            files[f"{pair}.sys{k}"] = root / f"{pair}.sys{k}.txt"
            files[f"{pair}.sys{k}"].write_text("\n".join(hyps[:N]) + "\n", encoding="utf-8")
    zh_en = sorted(load_pair("zh-en").systems.items())[0][1]
    files["concat"] = root / "concat.txt"
    files["concat"].write_text("\n".join(zh_en[:N] + zh_en[:N]) + "\n", encoding="utf-8")
    files["short"] = root / "short.txt"
    files["short"].write_text("\n".join(zh_en[: N - 3]) + "\n", encoding="utf-8")
    # sacrebleu processes the raw files on its first use of each pair
    for test_set, pair in (("wmt22", "en-zh"), ("wmt22", "zh-en"), ("wmt19", "zh-en")):
        code, _ = _reference(["-t", test_set, "-l", pair, "--echo", "src"], cache)
        assert code == 0
    assert (cache / "wmt22" / "wmt22.en-zh.ref-A").is_file() and (cache / "wmt19" / "wmt19.zh-en.origlang").is_file()
    assert not (raw_only / "wmt22" / "wmt22.en-zh.src").exists()
    return cache, raw_only, files


def _reference(argv: list[str], cache, hash_seed: str | None = None) -> tuple[int, bytes]:
    env = _environment(cache)
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = hash_seed
    p = subprocess.run([sys.executable, "-m", "sacrebleu", *argv], capture_output=True, env=env, timeout=300, stdin=subprocess.DEVNULL)
    assert b"Downloading" not in p.stderr and b"urlopen" not in p.stderr, p.stderr.decode()
    return p.returncode, p.stdout


def _ours(argv: list[str], cache, monkeypatch, capfdbinary) -> tuple[int, bytes]:
    monkeypatch.setenv("SACREBLEU", str(cache))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.delenv("SACREBLEU_FORMAT", raising=False)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8"))
    capfdbinary.readouterr()
    code = nm_main(["sacrebleu", *argv])
    return code, capfdbinary.readouterr().out


CASES = [
    "-t wmt22 -l en-zh -i {en-zh.sys0}",
    "-t wmt22 -l en-zh -i {en-zh.sys0} -m bleu chrf ter -f text",
    "-t wmt22 -l zh-en -i {zh-en.sys0} {zh-en.sys1} -m bleu chrf",
    "-t wmt22 -l zh-en -i {zh-en.sys0} --origlang en -f text",
    "-t wmt22 -l zh-en -i {zh-en.sys0} --origlang non-en -m chrf",
    "-t wmt22 -l zh-en -i {zh-en.sys0} --subset news",
    "-t wmt22 -l zh-en -i {zh-en.sys0} --origlang zh --subset soc",
    "-t wmt22 -l zh-en -i {zh-en.sys0} -d -m bleu chrf",
    "-t wmt22 -l zh-en -i {zh-en.sys0} -sl -m chrf -b",
    "-t wmt22 -l zh-en -i {zh-en.sys0} -tok none -f text",
    "-t wmt22 -l en-zh --echo src",
    "-t wmt22 -l en-zh --echo ref:B ref:A origlang",
    "-t wmt22 -l en-zh --echo ref docid domain",
    "-t wmt22 -l zh-en --echo src --origlang zh",
    "-t wmt22 -l zh-en --echo ref:A --subset commerce",
    "-t wmt19 -l zh-en -i {zh-en.sys0}",
    "-t wmt19 -l zh-en -i {zh-en.sys0} --origlang zh -m bleu chrf",
    "-t wmt19 -l zh-en -i {zh-en.sys0} --subset country:GB",
    "-t wmt19 -l zh-en -i {zh-en.sys0} -d",
    "-t wmt19 -l zh-en --echo all",
    "-t wmt19 -l zh-en --echo src ref --origlang non-zh",
    "-t wmt19,wmt22 -l zh-en -i {concat}",
    "-t wmt19 --list",
    "-t wmt19 -l zh-en --list",
    "--list",
    "--list -l en-zh",
    "--download wmt19 -l zh-en",
    # errors: sacrebleu's exit statuses
    "-t wmt22 -l en-zh --echo nosuchfield",
    "-t wmt22 -l en-zh --echo all src",
    "-t wmt22 -i {en-zh.sys0}",
    "-t wmt22 -l xx-yy -i {en-zh.sys0}",
    "-t nosuchset -l en-zh -i {en-zh.sys0}",
    "-t wmt22 -l en-zh -nr 2 -i {en-zh.sys0}",
    "-t wmt22 -l zh-en {zh-en.sys1} -i {zh-en.sys0}",
    "-t wmt19 -l zh-en -i {short}",
    "-t wmt22 -l zh-en -i {zh-en.sys0} --origlang xx",
    "--citation",
    "--echo src",
]


def _argv(template: str, files: dict) -> list[str]:
    return [str(files[w[1:-1]]) if w.startswith("{") else w for w in template.split()]


@pytest.mark.parametrize("template", CASES)
def test_cli_byte_identical_on_a_local_cache(setup, template, monkeypatch, capfdbinary):
    cache, raw_only, files = setup
    argv = _argv(template, files)
    want = _reference(argv, cache)
    assert _ours(argv, cache, monkeypatch, capfdbinary) == want
    # the same from the raw files alone, processed in memory (nothing written)
    assert _ours(argv, raw_only, monkeypatch, capfdbinary) == want
    assert not (raw_only / "wmt22" / "wmt22.en-zh.src").exists()


@pytest.mark.parametrize("template", ["-t wmt22 -l en-zh --echo all", "-t wmt22 --list", "-t wmt22 -l zh-en --list"])
def test_field_order_of_several_translators(setup, template, monkeypatch, capfdbinary):
    """sacrebleu orders ref:A/ref:B by iterating a set of translator names, which changes
    with the process's hash seed; ours (sorted) is one of its orders."""
    cache, _, files = setup
    argv = _argv(template, files)
    got = _ours(argv, cache, monkeypatch, capfdbinary)
    seen = {_reference(argv, cache, hash_seed=str(seed)) for seed in range(8)}
    assert got in seen, seen


def test_a_set_missing_from_the_cache_is_one_line_and_status_1(setup, monkeypatch, capfd):
    cache, _, files = setup
    monkeypatch.setenv("SACREBLEU", str(cache))
    for argv in (["-t", "wmt20", "-l", "de-en", "-i", str(files["zh-en.sys0"])], ["-t", "wmt20", "-l", "de-en", "--echo", "src"],
                 ["--download", "wmt20"], ["-t", "wmt21", "-l", "en-de", "--list"]):
        capfd.readouterr()
        assert nm_main(["sacrebleu", *argv]) == 1
        out, err = capfd.readouterr()
        assert out == "" and err.count("\n") == 1 and "not in the local sacrebleu cache" in err and "wmt2" in err, err


def test_citation_is_printed(setup, monkeypatch, capsys):
    """sacrebleu 2.6 fails on --citation (a TypeError); here it prints the citation."""
    cache, _, _ = setup
    monkeypatch.setenv("SACREBLEU", str(cache))
    assert nm_main(["sacrebleu", "-t", "wmt19", "--citation"]) == 0
    assert capsys.readouterr().out == sacrebleu.DATASETS["wmt19"].citation + "\n"
    assert nm_main(["sacrebleu", "-t", "wmt22", "--citation"]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "No citation found for wmt22" in err


def test_catalogue_is_sacrebleus():
    from sacrebleu.dataset import DATASETS, SUBSETS

    assert list(compat.DATASETS) == list(DATASETS)
    for name, d in DATASETS.items():
        ours = compat.DATASETS[name]
        assert (ours.name, ours.description, ours.citation, ours.langpairs, ours.data, ours.md5, ours.kwargs) == \
            (d.name, d.description, d.citation, d.langpairs, d.data, d.md5, d.kwargs), name
        assert type(d).__name__ == ours.format
        if type(d).__name__ != "WMTXMLDataset":
            for pair in d.langpairs:
                assert ours.fieldnames(pair) == d.fieldnames(pair), (name, pair)
    assert compat.dataset.SUBSETS == SUBSETS
    assert compat.get_available_testsets() == sacrebleu.utils.get_available_testsets()
    for pair in ("en-de", "de-en", "zh-en", "en-ja", "xx-yy"):
        assert compat.utils.get_available_testsets_for_langpair(pair) == sacrebleu.utils.get_available_testsets_for_langpair(pair)
    assert compat.get_langpairs_for_testset("wmt22") == sacrebleu.utils.get_langpairs_for_testset("wmt22")
    assert compat.get_langpairs_for_testset("nope") == []


_PROBE = """
import json, sacrebleu
from sacrebleu import utils
out = {
    "dir": utils.SACREBLEU_DIR,
    "refs": utils.get_reference_files("wmt22", "en-zh"),
    "src": utils.get_source_file("wmt19", "zh-en"),
    "files": utils.get_files("wmt19", "zh-en"),
    "fields": sacrebleu.DATASETS["wmt22"].fieldnames("zh-en"),
    "source": list(sacrebleu.DATASETS["wmt19"].source("zh-en"))[:5],
    "references": [list(x) for x in sacrebleu.DATASETS["wmt22"].references("en-zh")][:5],
    "origlangs": utils.get_available_origlangs("wmt22", "zh-en"),
    "subsets": utils.get_available_subsets("wmt22", "zh-en") + utils.get_available_subsets("wmt19", "zh-en"),
    "filtered": utils.filter_subset([list(range(120))], "wmt19", "zh-en", "zh", "country:GB"),
}
print(json.dumps(out))
"""


def test_api_paths_as_sacrebleu(setup, monkeypatch):
    cache, raw_only, _ = setup
    want = json.loads(subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, env=_environment(cache), timeout=300,
                                     check=True).stdout)
    monkeypatch.setenv("SACREBLEU", str(cache))
    u = compat.utils
    got = {
        "dir": u.SACREBLEU_DIR,
        "refs": u.get_reference_files("wmt22", "en-zh"),
        "src": u.get_source_file("wmt19", "zh-en"),
        "files": u.get_files("wmt19", "zh-en"),
        "fields": sorted(compat.DATASETS["wmt22"].fieldnames("zh-en")),
        "source": list(compat.DATASETS["wmt19"].source("zh-en"))[:5],
        "references": [list(x) for x in compat.DATASETS["wmt22"].references("en-zh")][:5],
        "origlangs": u.get_available_origlangs("wmt22", "zh-en"),
        "subsets": u.get_available_subsets("wmt22", "zh-en") + u.get_available_subsets("wmt19", "zh-en"),
        "filtered": u.filter_subset([list(range(120))], "wmt19", "zh-en", "zh", "country:GB"),
    }
    want["fields"] = sorted(want["fields"])
    assert got == want
    monkeypatch.setenv("SACREBLEU", str(raw_only))
    with pytest.raises(TestSetNotCachedError, match="wmt22/en-zh"):
        u.get_reference_files("wmt22", "en-zh")  # paths of processed files: not there
    assert [list(x) for x in compat.DATASETS["wmt22"].references("en-zh")][:5] == want["references"]
    monkeypatch.setenv("SACREBLEU", str(raw_only / "nowhere"))
    with pytest.raises(TestSetNotCachedError):
        list(compat.DATASETS["wmt19"].source("zh-en"))
    with pytest.raises(FileNotFoundError):  # the error is also a FileNotFoundError
        u.download_test_set("wmt22", "en-zh")


def test_a_damaged_raw_file_is_one_line_and_status_1(tmp_path, monkeypatch, capfd):
    raw = tmp_path / "wmt22" / "raw" / "wmt22-news-systems-1.1" / "xml"
    raw.mkdir(parents=True)
    (raw / "wmttest2022.en-de.all.xml").write_text("<dataset><doc", encoding="utf-8")
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    capfd.readouterr()
    assert nm_main(["sacrebleu", "-t", "wmt22", "-l", "en-de", "--echo", "src"]) == 1
    out, err = capfd.readouterr()
    assert out == "" and err.count("\n") == 1 and "not a WMT XML file" in err


def test_interrupt_and_corrupt_inputs_are_quiet(tmp_path, monkeypatch, capfd):
    import gzip

    from nlgmetrics.cli import sacrebleu_cli

    ref = tmp_path / "ref.txt"
    ref.write_text("the cat sat on the mat\n" * 200, encoding="utf-8")
    full = gzip.compress(("the cat is on the mat\n" * 200).encode())
    trunc = tmp_path / "hyp.gz"
    trunc.write_bytes(full[: len(full) // 2])  # cut mid-stream
    capfd.readouterr()
    assert nm_main(["sacrebleu", str(ref), "-i", str(trunc)]) == 1
    out, err = capfd.readouterr()
    assert out == "" and err.count("\n") == 1 and "corrupt compressed input" in err
    # malformed cached XML reaching the reader: one line, status 1
    def bad_xml(*a, **k):
        import xml.etree.ElementTree as ET

        ET.fromstring("<dataset><doc")

    monkeypatch.setattr(sacrebleu_cli, "_run", bad_xml)
    assert nm_main(["sacrebleu", str(ref), "-i", str(ref)]) == 1
    out, err = capfd.readouterr()
    assert out == "" and err.count("\n") == 1 and "malformed XML" in err

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(sacrebleu_cli, "_run", interrupted)
    assert nm_main(["sacrebleu", str(ref), "-i", str(ref)]) == 130
    assert capfd.readouterr() == ("", "")


_GOOD_DOC = ('<?xml version="1.0" encoding="utf-8"?>\n<dataset id="t">\n<collection id="general">\n'
             '<doc id="d1" origlang="en">\n<src lang="en"><p>\n<seg id="1">a cat</seg>\n</p></src>\n'
             '<ref lang="de" translator="A"><p>\n<seg id="1">eine Katze</seg>\n</p></ref>\n</doc>\n'
             '</collection>\n</dataset>\n')
MALFORMED_XML = {  # what breaks, the line it is on, the words the error says
    "seg-without-id": (_GOOD_DOC.replace('<seg id="1">a cat', "<seg>a cat"), 6, "<seg> id None is not an integer"),
    "seg-id-not-a-number": (_GOOD_DOC.replace('<seg id="1">eine', '<seg id="one">eine'), 9, "<seg> id 'one' is not an integer"),
    "doc-without-origlang": (_GOOD_DOC.replace(' origlang="en"', ""), 4, "<doc> has no origlang attribute"),
    "doc-without-id": (_GOOD_DOC.replace('<doc id="d1" ', "<doc "), 4, "<doc> has no id attribute"),
    "truncated": (_GOOD_DOC[: _GOOD_DOC.index("</ref>")], 10, "not a WMT XML file"),  # found at the end
    "mismatched-tag": (_GOOD_DOC.replace("</p></src>", "</src>"), 7, "not a WMT XML file"),
    "not-utf-8": (_GOOD_DOC.replace("eine Katze", "eine \udcffKatze"), 9, "not UTF-8"),
}


def _write_raw(tmp_path, text: str):
    raw = tmp_path / "wmt22" / "raw" / "wmt22-news-systems-1.1" / "xml"
    raw.mkdir(parents=True, exist_ok=True)
    path = raw / "wmttest2022.en-de.all.xml"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


@pytest.mark.parametrize("case", sorted(MALFORMED_XML))
def test_malformed_test_set_xml_is_one_line_naming_file_and_line(case, tmp_path, monkeypatch, capfd):
    from nlgmetrics.errors import InvalidInputError

    text, line, words = MALFORMED_XML[case]
    path = _write_raw(tmp_path, text)
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    for field in ("src", "ref", "docid"):
        capfd.readouterr()
        assert nm_main(["sacrebleu", "-t", "wmt22", "-l", "en-de", "--echo", field]) == 1
        out, err = capfd.readouterr()
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
        assert f"{path}: line {line}: " in err and words in err, err
    with pytest.raises(InvalidInputError, match=f"line {line}: "):
        list(compat.DATASETS["wmt22"].source("en-de"))
    with pytest.raises(InvalidInputError, match=f"line {line}: "):
        compat.utils.get_available_origlangs("wmt22", "en-de")


def test_the_well_formed_file_reads():
    fields = compat.utils.unwrap_wmt_xml(io.StringIO(_GOOD_DOC))
    assert fields == {"src": ["a cat"], "ref:A": ["eine Katze"], "docid": ["d1"], "origlang": ["en"]}


def test_a_short_tsv_line_names_its_line(tmp_path, monkeypatch):
    from nlgmetrics.compat.sacrebleu.dataset import Dataset
    from nlgmetrics.errors import InvalidInputError

    (tmp_path / "tsvset" / "raw").mkdir(parents=True)
    (tmp_path / "tsvset" / "raw" / "data.tsv").write_text("a\tb\nc\n", encoding="utf-8")
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    ds = Dataset("tsvset", {"format": "TSVDataset", "data": [], "md5": [], "description": "", "citation": "",
                            "langpairs": {"en-de": ["data.tsv", "data.tsv"]}, "refs": None})
    with pytest.raises(InvalidInputError, match=r"data.tsv: line 2: no column 2"):
        list(ds.references("en-de"))
