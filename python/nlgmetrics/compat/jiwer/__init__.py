"""``from nlgmetrics.compat import jiwer``: jiwer 4.0's API on nlgmetrics' ``WER``.

``wer``/``mer``/``wil``/``wip``/``cer`` (reference first), ``process_words`` /
``process_characters`` (``WordOutput`` / ``CharacterOutput`` with ``AlignmentChunk``),
``visualize_alignment``, ``collect_error_counts``, ``visualize_error_counts``, the
transforms (``Compose``, ``ToLowerCase``, ``RemovePunctuation``, ...) and the named
chains (``wer_default``, ``wer_standardize``, ``cer_default``, ...).
"""

from .alignment import *  # noqa: F401,F403
from .measures import *  # noqa: F401,F403
from .process import *  # noqa: F401,F403
from .transformations import *  # noqa: F401,F403
from .transforms import *  # noqa: F401,F403

name = "jiwer"
