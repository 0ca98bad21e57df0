"""Drop-in faces of the tools users already know: change one import line.

``from nlgmetrics.compat import sacrebleu`` (likewise ``rouge_score``) gives the
anchor's public names, signatures, return types and printed output, computed by
nlgmetrics' metrics. These modules adapt shapes only (argument orientation, result
objects, formatting); every number comes from :mod:`nlgmetrics.metrics`.
See docs/migration.md for what each module covers.
"""
