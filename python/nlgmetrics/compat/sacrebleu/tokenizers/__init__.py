"""``sacrebleu.tokenizers``: sacrebleu 2.6's tokenizer classes, by the same module paths
(``from ...tokenizers.tokenizer_13a import Tokenizer13a``), each calling nlgmetrics'
tokenizer of that name. An instance is called on one line and returns the tokenized line
(tokens joined by single spaces) and has ``signature()``, as sacrebleu's.

Not provided: ``tokenizer_re.TokenizerRegexp`` (13a's inner step alone) and
``tokenizer_spm`` (SentencePiece models, downloaded by sacrebleu).
"""

from .tokenizer_base import BaseTokenizer  # noqa: F401
