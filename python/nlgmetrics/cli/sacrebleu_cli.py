"""``nlgmetrics sacrebleu`` / ``sacrebleu-nm``: sacrebleu 2.6's command line on nlgmetrics.

Takes sacrebleu's arguments and prints what ``sacrebleu`` prints when its output is
piped (text, JSON, LaTeX; single system, several systems, paired tests), byte for byte,
with the same exit codes; the numbers come from :mod:`nlgmetrics.compat.sacrebleu`.
Messages go to stderr with sacrebleu's ``sacreBLEU:`` prefix. Test sets (``-t``/``-l``,
``--list``, ``--echo``, ``--origlang``/``--subset``, ``--detail``) are read from a local
sacrebleu cache (``$SACREBLEU`` or ``~/.sacrebleu``, sacrebleu's layout; see
:mod:`nlgmetrics.compat.sacrebleu.dataset`); nothing is ever downloaded: a set missing
from the cache is a one-line error and exit status 1 (sacrebleu's status when its
download fails). ``--download`` succeeds (0) only when the set is cached already.
``--citation`` prints the citation (sacrebleu 2.6 fails there with a TypeError).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections import defaultdict

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a fresh interpreter's import time)
if TYPE_CHECKING:
    from typing import Any, Sequence

# What the parser shows of sacrebleu 2.6 (its version, BLEU's smoothing methods, chrF's
# defaults) as literals: importing nlgmetrics.compat.sacrebleu loads numpy, which `--help`
# and `--version` must not wait for. tests/test_cli_startup_modules.py checks them against it.
VERSION = "2.6.0"
SMOOTH_METHODS = ("none", "floor", "add-k", "exp")
CHRF_CHAR_ORDER, CHRF_WORD_ORDER, CHRF_BETA = 6, 0, 2


class _Exit(Exception):
    def __init__(self, code: int):
        self.code = code


class _Parser(argparse.ArgumentParser):
    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse's own width, computed without importing shutil
        from .help_width import help_width

        return self.formatter_class(prog=self.prog, width=help_width())  # type: ignore[call-arg]


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    p = _Parser(
        prog=prog,
        description="sacreBLEU: Hassle-free computation of shareable BLEU scores.\n"
        "Quick usage: score your detokenized output against WMT'14 EN-DE:\n"
        "    cat output.detok.de | sacrebleu -t wmt14 -l en-de",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--citation", "--cite", default=False, action="store_true", help="Dump the bibtex citation and quit.")
    p.add_argument("--list", default=False, action="store_true", help="Print a list of all available test sets.")
    p.add_argument("--test-set", "-t", type=str, default=None, help="The test set to use (see also --list) or a comma-separated list of test sets to be concatenated; read from the local sacrebleu cache.")
    p.add_argument("--language-pair", "-l", dest="langpair", default=None, help="Source-target language pair (2-char ISO639-1 codes).")
    p.add_argument("--origlang", "-ol", dest="origlang", default=None, help="Use a subset of sentences with a given original language.")
    p.add_argument("--subset", dest="subset", default=None, help="Use a subset of sentences whose document annotation matches a given regex.")
    p.add_argument("--download", type=str, default=None, help="Check that a test set is in the local cache and quit (nothing is downloaded).")
    p.add_argument("--echo", nargs="+", type=str, default=None, help="Output specific fields of a test set from the local cache (e.g. src ref, or all).")
    p.add_argument("--input", "-i", type=str, nargs="*", default=None, help="Read input from file(s) instead of STDIN.")
    p.add_argument("refs", nargs="*", default=[], help="Optional list of references. If given, it should preceed the -i/--input argument.")
    p.add_argument("--num-refs", "-nr", type=int, default=1, help="Split the reference stream on tabs, and expect this many references. (Default: %(default)s)")
    p.add_argument("--encoding", "-e", type=str, default="utf-8", help="Open text files with specified encoding (Default: %(default)s)")
    p.add_argument("--metrics", "-m", choices=["bleu", "chrf", "ter"], nargs="+", default=["bleu"], help="Space-delimited list of metrics to compute (Default: bleu)")
    p.add_argument("--sentence-level", "-sl", action="store_true", help="Compute metric for each sentence.")
    b = p.add_argument_group("BLEU related arguments")
    b.add_argument("--smooth-method", "-s", choices=list(SMOOTH_METHODS), default="exp", dest="bleu_smooth_method", help="Smoothing method. (Default: %(default)s)")
    b.add_argument("--smooth-value", "-sv", type=float, default=None, dest="bleu_smooth_value", help="The smoothing value. Only valid for floor and add-k.")
    b.add_argument("--tokenize", "-tok", choices=["none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab", "spm", "flores101", "flores200", "spBLEU-1K"], default=None, dest="bleu_tokenize", help="Tokenization method to use for BLEU.")
    b.add_argument("--lowercase", "-lc", dest="bleu_lowercase", action="store_true", default=False, help="If True, enables case-insensitivity. (Default: %(default)s)")
    b.add_argument("--force", default=False, action="store_true", dest="bleu_force", help="Insist that your tokenized input is actually detokenized.")
    c = p.add_argument_group("chrF related arguments")
    c.add_argument("--chrf-char-order", "-cc", type=int, default=CHRF_CHAR_ORDER, help="Character n-gram order. (Default: %(default)s)")
    c.add_argument("--chrf-word-order", "-cw", type=int, default=CHRF_WORD_ORDER, help="Word n-gram order (Default: %(default)s).")
    c.add_argument("--chrf-beta", type=int, default=CHRF_BETA, help="Determine the importance of recall w.r.t precision. (Default: %(default)s)")
    c.add_argument("--chrf-whitespace", action="store_true", default=False, help="Include whitespaces when extracting character n-grams. (Default: %(default)s)")
    c.add_argument("--chrf-lowercase", action="store_true", default=False, help="Enable case-insensitivity. (Default: %(default)s)")
    c.add_argument("--chrf-eps-smoothing", action="store_true", default=False, help="Enables epsilon smoothing. (Default: %(default)s)")
    t = p.add_argument_group("TER related arguments (The defaults replicate TERCOM's behavior)")
    t.add_argument("--ter-case-sensitive", action="store_true", help="Enables case sensitivity. (Default: %(default)s)")
    t.add_argument("--ter-asian-support", action="store_true", help="Enables special treatment of Asian characters. (Default: %(default)s)")
    t.add_argument("--ter-no-punct", action="store_true", help="Removes punctuation. (Default: %(default)s)")
    t.add_argument("--ter-normalized", action="store_true", help="Applies basic normalization and tokenization. (Default: %(default)s)")
    s = p.add_argument_group("Confidence interval (CI) estimation for single-system evaluation")
    s.add_argument("--confidence", "-ci", action="store_true", help="Report confidence interval using bootstrap resampling.")
    s.add_argument("--confidence-n", "-cin", type=int, default=1000, help="Set the number of bootstrap resamples for CI estimation (Default: %(default)s).")
    pa = p.add_argument_group("Paired significance testing for multi-system evaluation")
    choice = pa.add_mutually_exclusive_group()
    choice.add_argument("--paired-ar", "-par", action="store_true", help="Perform paired test using approximate randomization (AR).")
    choice.add_argument("--paired-bs", "-pbs", action="store_true", help="Perform paired test using bootstrap resampling.")
    pa.add_argument("--paired-ar-n", "-parn", type=int, default=10000, help="Number of trials for approximate randomization test (Default: %(default)s).")
    pa.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000, help="Number of bootstrap resamples for paired bootstrap resampling test (Default: %(default)s).")
    pa.add_argument("--paired-jobs", "-j", type=int, default=1, help="Accepted for compatibility; results do not depend on it.")
    r = p.add_argument_group("Reporting related arguments")
    r.add_argument("--quiet", "-q", default=False, action="store_true", help="Suppress verbose messages.")
    r.add_argument("--short", "-sh", default=False, action="store_true", help="Produce a shorter (less human readable) signature.")
    r.add_argument("--score-only", "-b", default=False, action="store_true", help="Print only the computed score.")
    r.add_argument("--width", "-w", type=int, default=1, help="Floating point width (Default: %(default)s).")
    r.add_argument("--detail", "-d", default=False, action="store_true", help="Print detailed information (split test sets based on origlang).")
    r.add_argument("--no-color", "-nc", action="store_true", help="Disable the occasional use of terminal colors.")
    r.add_argument("--format", "-f", default="json", choices=["json", "text", "latex"], help="Set the output format (Default: %(default)s).")
    p.add_argument("--version", "-V", action="version", version=f"%(prog)s {VERSION}")
    return p


def _error(*lines: str) -> None:
    for line in lines:
        print(f"sacreBLEU: {line}", file=sys.stderr)


def _open(path: str, encoding: str):
    if path.endswith(".gz"):
        import gzip

        return gzip.open(path, mode="rt", encoding=encoding, newline="\n")
    return open(path, mode="rt", encoding=encoding, newline="\n")


def _prefixed(args: argparse.Namespace, prefix: str) -> dict[str, Any]:
    prefix += "_"
    return {k.replace(prefix, ""): v for k, v in vars(args).items() if k.startswith(prefix)}


def _read_references(args: argparse.Namespace) -> list[list[str]]:
    full_refs: list[list[str]] = [[] for _ in range(max(len(args.refs), args.num_refs))]
    for refno, ref_file in enumerate(args.refs):
        with _open(ref_file, args.encoding) as f:
            for lineno, line in enumerate(f, 1):
                line = line.rstrip()
                if args.num_refs == 1:
                    full_refs[refno].append(line)
                    continue
                fields = line.split(sep="\t", maxsplit=args.num_refs - 1)
                if len(fields) != args.num_refs:
                    _error(f"FATAL: line {lineno}: expected {args.num_refs} fields, but found {len(fields)}.")
                    raise _Exit(17)
                for k, ref in enumerate(fields):
                    full_refs[k].append(ref)
    return full_refs


def _read_systems(args: argparse.Namespace, paired: bool) -> tuple[list[list[str]], list[str]]:
    systems: list[list[str]] = []
    names: list[str] = []
    if args.input is None:
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding=args.encoding)
        fields = stream.readline().rstrip().split("\t")
        systems = [[s] for s in fields]
        names = [f"System {i + 1}" for i in range(len(fields))]
        for line in stream:
            fields = line.rstrip().split("\t")
            if len(fields) != len(systems):
                _error("FATAL: the number of tab-delimited fields in the input stream differ across lines.")
                raise _Exit(17)
            for k, sent in enumerate(fields):
                systems[k].append(sent.rstrip())
        return systems, names
    for fname in args.input:
        if fname in names:
            if paired and fname == names[0]:
                if not args.quiet:
                    _error(f"Ignoring {fname!r} as it was also given as the baseline.")
                continue
            _error(f"{fname!r} already used to name a system.", "Make sure to have a different basename for each system.")
            raise _Exit(1)
        with _open(fname, args.encoding) as f:
            systems.append([line.rstrip() for line in f])
        names.append(fname)
    return systems, names


def _single_results(results: list[str], args: argparse.Namespace, out: list[str]) -> None:
    if args.format == "json":
        out.append("[\n" + ",\n".join(results) + "\n]" if len(results) > 1 else results[0])
        return
    if len(results) == 1:
        out.append(results[0])
        return
    lens = []
    for line in results:
        try:
            lens.append(line.index("=") - 1)
        except ValueError:
            out.append(line)
    if lens:
        w = max(lens)
        for n, line in zip(lens, results):
            out.append(f"{line[:n]:>{w}}{line[n:]}")


def _format_score_lines(scores: dict, width: int, multiline: bool) -> dict[str, list[str]]:
    new_scores = {"System": scores.pop("System")}
    p_break = "\n" if multiline else " "
    is_bootstrap = False
    for metric, vals in scores.items():
        new_vals = []
        for result in vals:
            if isinstance(result, str):
                text = result
            else:
                text = f"{result.score:.{width}f}"
                if result.mean is not None:
                    is_bootstrap = True
                    text += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
                if result.p_value is not None:
                    msg = f"(p = {result.p_value:.4f})"
                    text += p_break + (msg if result.p_value > 0.05 else msg + "*")
            new_vals.append(text)
        if is_bootstrap:
            metric += " (μ ± 95% CI)"
        new_scores[metric] = new_vals
    return new_scores


def _results_table(results: dict, signatures: dict, args: argparse.Namespace, out: list[str]) -> None:
    if args.format == "json":
        rows = []
        keys = list(results)
        for i in range(len(results["System"])):
            row: dict[str, Any] = {"system": results["System"][i]}
            for key in keys[1:]:
                v = results[key][i]
                row[key] = v if isinstance(v, str) else v.__dict__
            rows.append(row)
        import json

        out.append(json.dumps(rows, indent=4))
        return
    try:
        from tabulate import tabulate
    except ImportError:  # pragma: no cover - tabulate ships with the test extra
        from ..errors import MissingExtraError

        raise MissingExtraError("multi-system tables need tabulate: pip install tabulate") from None
    fmt = {"text": "fancy_grid", "latex": "latex_booktabs"}[args.format]
    table = _format_score_lines(results, args.width, multiline=fmt == "fancy_grid")
    baseline = next((v[0] for v in table.values() if v[0].startswith("Baseline:")), "")
    out.append(tabulate(table, headers="keys", tablefmt=fmt, colalign=("right",), stralign="center", numalign="center", floatfmt=f".{args.width}f"))
    out.append("")
    if args.paired_bs or args.paired_ar:
        kind = "bootstrap resampling" if args.paired_bs else "approximate randomization"
        n = args.paired_bs_n if args.paired_bs else args.paired_ar_n
        unit = "resampling trials" if args.paired_bs else "trials"
        msg = f"Paired {kind} test with {n} {unit}"
        out.append("-" * len(msg) + "\n" + msg + "\n" + "-" * len(msg))
        out.append(f" - Each system is pairwise compared to {baseline}.")
        if args.paired_bs:
            out.append("   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric.")
        else:
            out.append("   Actual system score is provided for each metric.")
        out += [
            "",
            " - Null hypothesis: the system and the baseline translations are essentially",
            "   generated by the same underlying process. For a given system and the baseline,",
            "   the p-value is roughly the probability of the absolute score difference (delta)",
            "   or higher occurring due to chance, under the assumption that the null hypothesis is correct.",
            "",
            " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
            '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed',
            '   to chance, hence the system is significantly "different" than the baseline.',
            "   Otherwise, the p-values are highlighted in red.",
            "",
            ' - NOTE: Significance does not tell whether a system is "better" than the baseline but rather',
            '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
            "",
        ]
    out += ["-----------------", "Metric signatures", "-----------------"]
    out += [f" - {name:<10} {sig}" for name, sig in signatures.items()]


def _test_set_commands(args: argparse.Namespace, out: list[str]) -> int | None:
    """sacrebleu's handling of --download, --list, --citation, -t/-l checks and --echo, in
    its order; an exit status, or None to go on scoring."""
    # The test-set table (a large module) only where a branch below reads it: scoring
    # files against local references does not.
    if args.download or args.list or args.citation or args.test_set is not None or args.echo or not args.refs:
        from ..compat.sacrebleu.dataset import DATASETS
        from ..compat.sacrebleu.utils import (EchoError, get_available_testsets,
                                              get_available_testsets_for_langpair, get_langpairs_for_testset, test_set_lines)

    if args.download:
        if args.download not in DATASETS:
            _error(f"Unknown test set {args.download!r}")
            return 1
        dataset = DATASETS[args.download]
        for pair in [args.langpair] if args.langpair else list(dataset.langpairs):
            for field in dataset.fieldnames(pair):
                dataset.lines(pair, field)  # raises when neither the processed nor the raw file is cached
        return 0
    if args.list:
        if args.test_set:
            if args.langpair and args.test_set not in DATASETS:
                _error(f"Unknown test set {args.test_set!r}")
                return 1
            for pair in [args.langpair] if args.langpair else get_langpairs_for_testset(args.test_set):
                out.append(f"{pair}: {', '.join(DATASETS[args.test_set].fieldnames(pair))}")
        else:
            if args.langpair:
                out.append(f"The available test sets for {args.langpair} are:")
                testsets = get_available_testsets_for_langpair(args.langpair)
            else:
                out.append("The available test sets are:")
                testsets = get_available_testsets()
            for testset in sorted(testsets):
                out.append(f"{testset:<30}: {DATASETS[testset].description.strip()}")
        return 0
    if args.sentence_level and len(args.metrics) > 1:
        _error("Only one metric can be used in sentence-level mode.")
        return 1
    if args.citation:
        if not args.test_set:
            _error("I need a test set (-t).")
            return 1
        for test_set in args.test_set.split(","):
            if test_set not in DATASETS:
                _error(f"Unknown test set {test_set!r}")
                return 1
            if DATASETS[test_set].citation is None:
                _error(f"No citation found for {test_set}")
            else:
                out.append(DATASETS[test_set].citation)
        return 0
    if args.num_refs != 1 and (args.test_set is not None or len(args.refs) > 1):
        _error("The --num-refs argument allows you to provide any number of tab-delimited references in a single file.",
               "You can only use it with externally provided references, however (i.e., not with `-t`),",
               "and you cannot then provide multiple reference files.")
        return 1
    if args.test_set is not None:
        for test_set in args.test_set.split(","):
            if test_set not in DATASETS:
                _error(f"Unknown test set {test_set!r}", "Please run with --list to see the available test sets.")
                return 1
    if args.test_set is None:
        if not args.refs:
            _error("If manual references given, make sure to provide them before the -i/--input argument to avoid confusion.",
                   "Otherwise, I need a predefined test set (-t) from the following list:", str(get_available_testsets()))
            return 1
    elif args.refs:
        _error("I need exactly one of (a) a predefined test set (-t) or (b) a list of references")
        return 1
    elif args.langpair is None:
        _error("I need a language pair (-l). Use --list to see available language pairs for this test set.")
        return 1
    else:
        for test_set in args.test_set.split(","):
            langpairs = get_langpairs_for_testset(test_set)
            if args.langpair not in langpairs:
                _error(f"No such language pair {args.langpair!r}", f"Available language pairs for {test_set!r} are:",
                       *(f" > {lp}" for lp in langpairs))
                return 1
    if args.echo:
        if args.langpair is None or args.test_set is None:
            _error("--echo requires a test set (--t) and a language pair (-l)")
            return 1
        for test_set in args.test_set.split(","):
            try:
                out.extend(test_set_lines(test_set, args.langpair, args.echo, args.origlang, args.subset))
            except EchoError as e:
                _error(*e.lines)
                return 1
        return 0
    return None


def _test_set_references(args: argparse.Namespace) -> list[list[str]]:
    """Reference streams of the test set(s) -t (concatenated), read as sacrebleu reads them."""
    from ..compat.sacrebleu.dataset import DATASETS

    per_set = []
    for test_set in args.test_set.split(","):
        dataset = DATASETS[test_set]
        fields = dataset._reference_fields(args.langpair)
        if not fields:
            _error(f"No references found for test set {test_set}/{args.langpair}.")
        per_set.append([[line.rstrip() for line in dataset.lines(args.langpair, f, args.encoding)] for f in fields])
    full_refs: list[list[str]] = [[] for _ in range(max(len(per_set[0]), args.num_refs))]
    for streams in per_set:
        for k, stream in enumerate(streams):
            full_refs[k].extend(stream)
    return full_refs


def _subset_results(metrics: dict, full_system: list[str], full_refs: list[list[str]], args: argparse.Namespace, out: list[str]) -> None:
    """``--detail``: scores per original language and domain/country subset."""
    from ..compat.sacrebleu.utils import filter_subset, get_available_origlangs, get_available_subsets

    w = args.width
    origlangs = [args.origlang] if args.origlang else get_available_origlangs(args.test_set, args.langpair)
    if not origlangs:
        out.append("No subset information found. Consider using --origlang argument.")
        return
    results: dict[str, list] = defaultdict(list)
    for origlang in origlangs:
        subsets = [None, *([args.subset] if args.subset is not None else get_available_subsets(args.test_set, args.langpair))]
        for subset in subsets:
            system, *refs = filter_subset([full_system, *full_refs], args.test_set, args.langpair, origlang, subset)
            if not system:
                continue
            key = f"origlang={origlang}"
            if subset is None:
                key += " domain=ALL"
            elif subset.startswith("country:"):
                key += f" country={subset[8:]}"
            else:
                key += f" domain={subset}"
            for metric in metrics.values():
                results[key].append((len(system), metric.corpus_score(system, refs)))
    if not results:
        return
    left = max(len(k) for k in results) + 1
    name_w = max(len(score.name) for _, score in next(iter(results.values())))
    color = sys.stdout.isatty() and not (os.environ.get("NO_COLOR") or args.no_color)
    for key, scores in results.items():
        label = f"{key:<{left}}"
        if color:
            label = f"\x1b[33m{label}\x1b[0m"
        for n_system, score in scores:
            out.append(f"{label}: sentences={n_system:<6} {score.name:<{name_w}} = {score.score:.{w}f}")


def _run(argv: Sequence[str] | None, prog: str | None, out: list[str]) -> int:
    args = build_parser(prog).parse_args(argv)
    if os.environ.get("SACREBLEU_FORMAT", "").lower() in ("json", "text", "latex"):
        args.format = os.environ["SACREBLEU_FORMAT"].lower()
    paired = args.paired_bs or args.paired_ar
    code = _test_set_commands(args, out)
    if code is not None:
        return code
    if args.langpair:
        args.bleu_trg_lang = args.langpair.split("-")[1]
    if args.test_set is not None and args.bleu_tokenize == "none":
        _error("You are turning off BLEU's internal tokenizer presumably to supply your own tokenized files.",
              "Published numbers will not be comparable to other papers.")
    refs = _test_set_references(args) if args.test_set is not None else _read_references(args)
    systems, names = _read_systems(args, paired)
    if paired:
        names = ["Baseline"] + [f"System {i + 1}" for i in range(len(systems) - 1)] if args.input is None else [f"Baseline: {names[0]}", *names[1:]]
    if args.sentence_level:
        if len(systems) > 1:
            _error("Only one system can be evaluated in sentence-level mode.")
            return 1
        if args.confidence or paired:
            _error("Statistical tests are unavailable in sentence-level mode.")
            return 1
        args.bleu_effective_order = True
    if paired and len(systems) == 1:
        _error("Paired tests require multiple input systems given to --input (-i).")
        return 1
    if len(systems) > 1 and args.confidence:
        _error("Use paired tests (--paired) for multiple systems.")
        return 1
    full_system, full_refs = systems[0], refs
    if args.origlang is not None or args.subset is not None:
        from ..compat.sacrebleu.utils import filter_subset

        if args.test_set is None or args.langpair is None:
            _error("Filtering for --origlang or --subset needs a test (-t) and a language pair (-l).")
            return 1
        filtered = filter_subset([*systems, *refs], args.test_set, args.langpair, args.origlang, args.subset)
        systems, refs = filtered[: len(systems)], filtered[len(systems) :]
    for system in systems:
        if len(system) == 0:
            message = f"Test set {args.test_set!r} contains no sentence"
            if args.origlang is not None or args.subset is not None:
                message += " with"
                if args.origlang:
                    message += f" origlang={args.origlang}"
                if args.subset:
                    message += f" subset={args.subset}" + args.subset
            _error(message)
            return 1
        if any(len(stream) != len(system) for stream in refs):
            _error("System and reference streams have different lengths.")
            if args.test_set:
                from ..compat.sacrebleu.dataset import sacrebleu_dir

                _error("This could be an issue with your system output or with sacreBLEU's reference database if -t is given.",
                       "For the latter, try cleaning out the cache by typing:\n", f"  rm -r {sacrebleu_dir()}/{args.test_set}\n",
                       "The test sets will be re-downloaded the next time you run sacreBLEU.")
            return 1
    from ..compat.sacrebleu.metrics import METRICS

    metrics = {name.upper(): METRICS[name.upper()](**_prefixed(args, name), references=refs) for name in args.metrics}
    if args.sentence_level:
        metric, system = next(iter(metrics.values())), systems[0]
        for hyp, *seg_refs in zip(system, *refs):
            score = metric.sentence_score(hyp, seg_refs)
            out.append(score.format(args.width, args.score_only, metric.get_signature().format(args.short)))
        return 0
    if args.detail and args.format == "json":
        args.format = "text"
    if len(systems) == 1:
        results = []
        for name in sorted(metrics):
            score = metrics[name].corpus_score(systems[0], references=None, n_bootstrap=args.confidence_n if args.confidence else 1)
            sig = metrics[name].get_signature().format(args.short if args.format != "json" else False)
            results.append(score.format(args.width, args.score_only, sig, args.format == "json"))
        _single_results(results, args, out)
        if args.detail:
            _subset_results(metrics, full_system, full_refs, args, out)
        return 0
    named = list(zip(names, systems))
    if not args.quiet:
        _error(f"Found {len(systems)} systems.")
    if not paired:
        sigs: dict[str, str] = {}
        scores: dict[str, list] = defaultdict(list)
        scores["System"] = names
        for _, system in named:
            for name in sorted(metrics):
                score = metrics[name].corpus_score(system, references=None)
                sigs[score.name] = metrics[name].get_signature().format(args.short)
                scores[score.name].append(score.format(args.width, True))
    else:
        from ..compat.sacrebleu.significance import PairedTest

        test = PairedTest(named, metrics, references=None, test_type="bs" if args.paired_bs else "ar",
                          n_samples=args.paired_bs_n if args.paired_bs else args.paired_ar_n)
        sigs_obj, scores = test()
        sigs = {k: v.format(args.short) for k, v in sigs_obj.items()}
    _results_table(scores, sigs, args, out)
    return 0


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Run; returns the exit status (sacrebleu's: 0, 1, 17; 2 for usage errors)."""
    from ..errors import MissingExtraError, NlgMetricsError

    out: list[str] = []
    try:
        code = _run(argv, prog, out)
    except _Exit as e:
        code = e.code
    except SystemExit as e:  # argparse: usage errors (2), --help and --version (0)
        code = e.code if isinstance(e.code, int) else 1
    except (NlgMetricsError, MissingExtraError, OSError, UnicodeDecodeError) as e:
        msg = f"{e.strerror}: {e.filename}" if isinstance(e, OSError) and e.filename else str(e)
        if isinstance(e, (NlgMetricsError, MissingExtraError)):  # the library's Python arguments, in this face's words
            from .python_args import cli_words

            msg = cli_words(msg, face="sacrebleu")
        _error(msg)
        code = 1
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the shell's status for SIGINT
        return 130
    except EOFError as e:  # a truncated .gz: "Compressed file ended before the end-of-stream marker..."
        _error(f"corrupt compressed input: {e}")
        code = 1
    except SyntaxError as e:  # xml.etree's ParseError: a malformed (cached) XML test set
        _error(f"malformed XML: {e}")
        code = 1
    except Exception as e:  # zlib.error (a damaged .gz block) and the like: one line, not a traceback
        from .guard import caused_by_interrupt

        if caused_by_interrupt(e):  # Ctrl-C inside a hook that wraps it (a class built during an import)
            return 130
        if type(e).__module__ != "zlib":
            raise
        _error(f"corrupt compressed input: {e}")
        code = 1
    if out:
        text = "\n".join(out) + "\n"
        try:
            sys.stdout.buffer.write(text.encode("utf-8"))
            sys.stdout.flush()
        except (AttributeError, io.UnsupportedOperation):  # a text-only stdout (tests)
            sys.stdout.write(text)
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return code


_SACREBLEU_ONLY = {
    "--paired-bs": "nlgmetrics compare -r REF -i BASELINE SYSTEM... --paired-bs",
    "-pbs": "nlgmetrics compare -r REF -i BASELINE SYSTEM... --paired-bs",
    "--paired-ar": "nlgmetrics compare -r REF -i BASELINE SYSTEM... --paired-ar",
    "-par": "nlgmetrics compare -r REF -i BASELINE SYSTEM... --paired-ar",
    "-t": "reference files with -r, or `nlgmetrics sacrebleu -t SET -l PAIR ...` (test sets from the local sacrebleu cache)",
    "--test-set": "reference files with -r, or `nlgmetrics sacrebleu -t SET -l PAIR ...` (test sets from the local sacrebleu cache)",
}


def hint_for_native(argv: Sequence[str], message: str) -> str | None:
    """What to write instead, when ``nlgmetrics score`` fails on a sacrebleu habit."""
    if not argv or argv[0] != "score" or not any(m in message for m in ("unrecognized arguments", "ambiguous option")):
        return None
    for flag, instead in _SACREBLEU_ONLY.items():
        if flag in argv:
            return f"{flag} is sacrebleu's; write {instead}, or run the same arguments as `nlgmetrics sacrebleu ...`"
    if "unrecognized arguments" in message:
        return "references are given with -r REF (repeat for several); for sacrebleu's positional references use `nlgmetrics sacrebleu REF... -i HYP`"
    return None


def console_main() -> None:
    """The ``sacrebleu-nm`` script."""
    sys.exit(main(prog="sacrebleu-nm"))
