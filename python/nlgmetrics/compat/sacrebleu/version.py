"""``sacrebleu.version``: the sacrebleu release this face reproduces (its numbers, signatures
and printed output), under sacrebleu's names."""

from ._scores import SACREBLEU_VERSION as __version__

version = __version__
__version_tuple__ = version_tuple = tuple(int(part) for part in __version__.split("."))
__commit_id__ = commit_id = None
