"""Run the METEOR 1.5 jar exactly as pycocoevalcap 1.2 runs it (the oracle of the
METEOR parity tests, of ``tests/test_differential_meteor.py`` and of ``tests/goldens/meteor``).

``jar_meteor(hyps, refs)`` returns ``(corpus, segment_scores, segment_stats)``:
pycocoevalcap's ``Meteor.compute_score`` on ``{i: refs[i]}`` / ``{i: [hyps[i]]}``
(``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm``), plus the 23 statistics
the jar returns for each ``SCORE`` line. Needs Java and pycocoevalcap==1.2.

``JarSession`` speaks the same line protocol to one long-lived jar process, pipelined
(a writer thread feeds ``SCORE`` lines while the answers are read), for campaigns of
tens of thousands of segments: ``score_lines`` builds each line as ``Meteor._stat``
does, ``eval_stats`` sends one ``EVAL`` line as ``Meteor.compute_score`` does and returns
the per-segment scores and the corpus score.
"""

from __future__ import annotations

import os
import subprocess
import threading


def jar_meteor(hyps: list[str], refs: list[list[str]]):
    from pycocoevalcap.meteor.meteor import Meteor

    m = Meteor()
    try:
        gts = {i: list(r) for i, r in enumerate(refs)}
        res = {i: [h] for i, h in enumerate(hyps)}
        with m.lock:
            stats = [[float(x) for x in m._stat(res[i][0], gts[i]).split()] for i in gts]
        corpus, scores = m.compute_score(gts, res)
        return corpus, list(scores), stats
    finally:
        del m


def score_line(hyp: str, refs: list[str]) -> str:
    """The ``SCORE`` line pycocoevalcap's ``Meteor._stat`` writes for one segment."""
    hyp = hyp.replace("|||", "").replace("  ", " ")
    return " ||| ".join(("SCORE", " ||| ".join(refs), hyp))


class JarSession:
    """One jar process started with pycocoevalcap's command line, in its directory."""

    def __init__(self) -> None:
        from pycocoevalcap.meteor import meteor as pm

        self.proc = subprocess.Popen(
            ["java", "-jar", "-Xmx2G", pm.METEOR_JAR, "-", "-", "-stdio", "-l", "en", "-norm"],
            cwd=os.path.dirname(os.path.abspath(pm.__file__)),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )

    def _exchange(self, lines: list[str], answers: int) -> list[str]:
        def write() -> None:
            try:
                for line in lines:
                    self.proc.stdin.write(f"{line}\n".encode())
                self.proc.stdin.flush()
            except BrokenPipeError:
                pass

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        out = []
        for _ in range(answers):
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the METEOR jar stopped answering")
            out.append(line.decode().strip())
        writer.join()
        return out

    def stats(self, hyps: list[str], refs: list[list[str]]) -> list[str]:
        """The jar's statistics line for each segment (``Meteor._stat``)."""
        return self._exchange([score_line(h, r) for h, r in zip(hyps, refs)], len(hyps))

    def eval_stats(self, stat_lines: list[str]) -> tuple[list[float], float]:
        """Per-segment scores and the corpus score of ``Meteor.compute_score``."""
        out = self._exchange(["EVAL" + "".join(f" ||| {s}" for s in stat_lines)], len(stat_lines) + 1)
        return [float(x) for x in out[:-1]], float(out[-1])

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        self.proc.kill()
        self.proc.wait()

    def __enter__(self) -> "JarSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
