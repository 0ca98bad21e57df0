"""LLM leaderboard metrics: multiple choice, answer filters, maths equivalence, IFEval, sampling aggregates, lm-eval's aggregation layer and the fine-tuning toolchains' presets."""
