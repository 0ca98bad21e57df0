"""Exit 1 unless two wheels hold the same files with the same bytes.

    python scripts/compare_wheels.py A.whl B.whl

RECORD (hashes of the rest) and the build's SBOM (a fresh serial number each build) are
the only files allowed to differ.
"""

import sys
import zipfile

VOLATILE = ("RECORD", ".cyclonedx.json")


def contents(path: str) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as wheel:
        return {name: wheel.read(name) for name in wheel.namelist() if not name.endswith(VOLATILE)}


a, b = (contents(p) for p in sys.argv[1:3])
differ = sorted(set(a) ^ set(b)) + sorted(n for n in set(a) & set(b) if a[n] != b[n])
if differ:
    sys.exit("compare_wheels.py: the wheels differ in " + ", ".join(differ))
print(f"compare_wheels.py: {len(a)} files identical")
