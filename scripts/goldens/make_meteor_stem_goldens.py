"""Regenerate tests/goldens/meteor/stems.tsv.gz: words and their stems by the Snowball
English stemmer compiled into pycocoevalcap 1.2's meteor-1.5.jar
(``org.tartarus.snowball.ext.englishStemmer``), for every 7th word of the sorted
vocabulary of the jar's ``synonym/english.synsets`` plus the captioning_coco
references (lowercased, whitespace-split). Needs a JDK (javac, java 17 verified).

Command: ``python scripts/goldens/make_meteor_stem_goldens.py [../shared/corpora]``
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "tests" / "goldens" / "meteor" / "stems.tsv.gz"
PROBE = """
import org.tartarus.snowball.ext.englishStemmer;
import java.io.*;
public class StemProbe {
  public static void main(String[] a) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    englishStemmer s = new englishStemmer();
    String line;
    while ((line = in.readLine()) != null) { s.setCurrent(line); s.stem(); out.println(s.getCurrent()); }
    out.flush();
  }
}
"""


def main() -> None:
    sys.path.insert(0, str(REPO / "python"))
    from nlgmetrics.metrics.meteor_resources import meteor_dir

    corpora = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpora"
    jar = meteor_dir() / "meteor-1.5.jar"
    with zipfile.ZipFile(jar) as z:
        synsets = z.read("synonym/english.synsets").decode("utf-8").split("\n")[0::2]
    words = {w for w in synsets if w}
    for line in (corpora / "captioning_coco" / "references.jsonl").read_text(encoding="utf-8").splitlines():
        for r in json.loads(line)["references"]:
            words.update(r.lower().split())
    words = sorted(w for w in words if w.strip() and " " not in w and "\r" not in w)[::7]
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "StemProbe.java").write_text(PROBE)
        subprocess.run(["javac", "-cp", str(jar), "StemProbe.java"], cwd=d, check=True)
        out = subprocess.run(
            ["java", "-cp", f"{jar}:{d}", "StemProbe"], input="\n".join(words) + "\n", capture_output=True, text=True, check=True
        ).stdout.split("\n")[: len(words)]
    with gzip.open(OUT, "wt", encoding="utf-8") as f:
        for w, s in zip(words, out):
            f.write(f"{w}\t{s}\n")
    print(len(words), "words")


if __name__ == "__main__":
    main()
