"""Print the registered metrics of the given kinds that this installation can build.

    python scripts/buildable_metrics.py text data-to-text
    python scripts/buildable_metrics.py --among "bleu nist meteor" text data-to-text

"Buildable" is the registry's notion (``nlgmetrics.available(buildable=True)``): every
optional extra the metric needs is installed. The others are left out and named on stderr
with the extra to install. Used by scripts/demo.sh and scripts/release_check.sh, which score
the bundled E2E sample (predictions, several references, a table) with every metric of the
kinds that read only those inputs: "text" and "data-to-text". ``--among LIST`` keeps only the
metrics named in LIST (space-separated, each a registered metric of those kinds), in the
registry's order: the demo scores the ones that make sense for its data-to-text sample.
"""

import sys

import nlgmetrics
from nlgmetrics.registry import install_hint

args = sys.argv[1:]
among = None
if args[:1] == ["--among"]:
    if len(args) < 2:
        sys.exit("buildable_metrics.py: --among needs a list of metric names")
    among, args = args[1].split(), args[2:]
kinds = args
if not kinds:
    sys.exit("usage: python scripts/buildable_metrics.py [--among \"NAME ...\"] KIND [KIND ...]   e.g. text data-to-text")
known = {e.kind for e in nlgmetrics.available()}
unknown = [k for k in kinds if k not in known]
if unknown:
    sys.exit(f"buildable_metrics.py: unknown kind(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
if among is not None:
    of_kinds = {e.name for e in nlgmetrics.available() if e.kind in kinds}
    strangers = [m for m in among if m not in of_kinds]
    if strangers:
        sys.exit(f"buildable_metrics.py: --among names {', '.join(strangers)}, not a registered metric of kind {' or '.join(kinds)}")
names = []
for entry in nlgmetrics.available():
    if entry.kind not in kinds or (among is not None and entry.name not in among):
        continue
    if entry.missing:
        print(f"buildable_metrics.py: {entry.name} left out: {install_hint(entry.missing)}", file=sys.stderr)
        continue
    names.append(entry.name)
print(" ".join(names))
