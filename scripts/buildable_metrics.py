"""Print the registered metrics of the given kinds that this installation can build.

    python scripts/buildable_metrics.py text data-to-text

A metric whose optional extra is missing raises MissingExtraError when it is built; it is
left out (and named on stderr). Used by scripts/release_check.sh to run the installed
wheel's command line on every metric it can score.
"""

import sys

import nlgmetrics
from nlgmetrics.errors import MissingExtraError

names = []
for entry in nlgmetrics.available():
    if entry.kind not in sys.argv[1:]:
        continue
    try:
        nlgmetrics.load(entry.name)
    except MissingExtraError as e:
        print(f"buildable_metrics.py: {entry.name} left out: {e}", file=sys.stderr)
        continue
    names.append(entry.name)
print(" ".join(names))
