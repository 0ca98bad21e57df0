"""Package data: reference word lists shipped with nlgmetrics (see each loader)."""
