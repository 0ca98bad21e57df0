"""Question answering: SQuAD, CoQA, DROP, CMRC 2018, exact match and LongBench's scorers."""
