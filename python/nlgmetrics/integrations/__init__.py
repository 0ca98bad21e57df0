"""Faces for other frameworks: Dask, Ray Data, Spark, pandas, torchmetrics, Hugging Face evaluate.

Each imports its framework on first use only (its extra: ``[dask]``, ``[pandas]``...).
"""
