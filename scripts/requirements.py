"""Print the runtime requirements of nlgmetrics and the named extras, one per line.

    python scripts/requirements.py report pandas    # numpy>=1.24, matplotlib>=..., ...

Used by scripts/release_check.sh to install the lowest and the newest allowed versions as
direct requirements (a resolver's lowest-direct mode lowers only direct requirements).
"""

import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]
extras = project["optional-dependencies"]
unknown = [name for name in sys.argv[1:] if name not in extras]
if unknown:
    sys.exit(f"requirements.py: unknown extra(s): {', '.join(unknown)}")
seen: list[str] = []
for requirement in project["dependencies"] + [r for name in sys.argv[1:] for r in extras[name]]:
    if requirement not in seen:
        seen.append(requirement)
print("\n".join(seen))
