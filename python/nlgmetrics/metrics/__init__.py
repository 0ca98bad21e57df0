"""Metric families, one module each."""
