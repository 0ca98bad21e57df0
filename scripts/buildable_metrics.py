"""Print the registered metrics of the given kinds that this installation can build.

    python scripts/buildable_metrics.py text data-to-text

"Buildable" is the registry's notion (``nlgmetrics.available(buildable=True)``): every
optional extra the metric needs is installed. The others are left out and named on stderr
with the extra to install. Used by scripts/demo.sh and scripts/release_check.sh, which score
the bundled E2E sample (predictions, several references, a table) with every metric of the
kinds that read only those inputs: "text" and "data-to-text".
"""

import sys

import nlgmetrics
from nlgmetrics.registry import install_hint

kinds = sys.argv[1:]
if not kinds:
    sys.exit("usage: python scripts/buildable_metrics.py KIND [KIND ...]   e.g. text data-to-text")
known = {e.kind for e in nlgmetrics.available()}
unknown = [k for k in kinds if k not in known]
if unknown:
    sys.exit(f"buildable_metrics.py: unknown kind(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
names = []
for entry in nlgmetrics.available():
    if entry.kind not in kinds:
        continue
    if entry.missing:
        print(f"buildable_metrics.py: {entry.name} left out: {install_hint(entry.missing)}", file=sys.stderr)
        continue
    names.append(entry.name)
print(" ".join(names))
