"""Task helpers built on the metrics: COCO caption evaluation (`coco`), CIDEr-D rewards for
self-critical training (`rewards`), minimum-Bayes-risk decoding (`mbr`).
"""
