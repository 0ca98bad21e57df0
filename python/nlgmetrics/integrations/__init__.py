"""Faces for other frameworks: Dask, pandas, torchmetrics, Hugging Face evaluate.

Each imports its framework on first use only (its extra: ``[dask]``, ``[pandas]``...).
"""
