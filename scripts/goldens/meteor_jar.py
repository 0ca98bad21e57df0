"""Run the METEOR 1.5 jar exactly as pycocoevalcap 1.2 runs it (the oracle of the
METEOR parity tests and of ``tests/goldens/meteor``).

``jar_meteor(hyps, refs)`` returns ``(corpus, segment_scores, segment_stats)``:
pycocoevalcap's ``Meteor.compute_score`` on ``{i: refs[i]}`` / ``{i: [hyps[i]]}``
(``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm``), plus the 23 statistics
the jar returns for each ``SCORE`` line. Needs Java and pycocoevalcap==1.2.
"""

from __future__ import annotations


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
