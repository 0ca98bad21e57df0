"""Numbers checked by programs and rankings: text-to-SQL execution accuracy (with its sandbox) and trec_eval retrieval measures, ragas' deterministic RAG metrics and CodeBLEU."""
