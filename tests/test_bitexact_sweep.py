"""The bit-exactness sweep (tests/differential/bitexact.py) at CI stride: every text metric
and flavour with a Python reference (sacrebleu, rouge-score, nltk, jiwer, pycocoevalcap
through ``nlgmetrics.tasks.coco.evaluate``, scikit-learn) on the shared corpora, every value
compared with ``==``. A value that is not bit-equal must be within the bound its metric's
docs page states; CIDEr-D's and COCO ROUGE-L's ``corpus_score`` rows report their 4-ulp
bound. ``python scripts/bitexact_sweep.py --stride 1`` prints the full table."""

from __future__ import annotations

import pytest

from differential.bitexact import CHECKS, REPO, Row
from differential.parity_results import record

CI_STRIDE = 20


def _record(r: Row) -> None:
    within = "bit-equal" if r.n_unequal == 0 else f"{r.n_unequal} within {r.bound_ulps:g} ulps (max {r.max_ulps:g}; {r.bound_doc})"
    record(metric=r.metric, flavour=r.flavour, reference=f"{r.reference} [{r.values_kind}]",
           inputs=f"{r.corpus}: {within}", values=r.n_values, max_diff=r.max_diff)


@pytest.mark.parametrize("reference", list(CHECKS))
def test_every_value_is_bit_equal_or_within_its_documented_bound(corpora, reference):
    rows = CHECKS[reference](CI_STRIDE)
    assert rows
    for r in rows:
        assert r.n_values > 0, r
        if r.n_unequal:
            assert r.bound_ulps > 0 and r.bound_doc, f"{r.metric} {r.flavour} {r.values_kind}: {r.n_unequal} of {r.n_values} values not bit-equal (max {r.max_ulps:g} ulps)"
            assert (REPO / r.bound_doc).is_file(), r.bound_doc
        assert r.ok, f"{r.metric} {r.flavour} {r.values_kind}: {r.max_ulps:g} ulps > the documented {r.bound_ulps:g}"
        _record(r)
