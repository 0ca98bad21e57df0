"""Engines: how a corpus is run and what is inferred from its statistics.

`streaming` (chunk totals), `two_phase` (corpus-weighted metrics: fit a table, then score),
`progress` (chunked extraction behind a progress bar), `significance` (bootstrap intervals,
paired tests), `resample`, `meta` (meta-evaluation: correlation with human judgements).
"""
