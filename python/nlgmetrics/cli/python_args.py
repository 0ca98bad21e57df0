"""The library's errors name Python arguments (``pass spm_model=PATH``); on the command
line they name the flag that sets the same thing (``--spm-model PATH``).

:data:`FLAGS` maps every Python argument an error message can ask for to its flag;
``tests/test_cli_python_args.py`` scans the package's messages and fails on an argument
missing here, and on a flag the command line does not have.
"""

from __future__ import annotations

import re

# Python argument, as messages write it -> the flag, as the command line takes it (the
# longest match wins: "BERTScore needs model=" before any shorter key)
FLAGS: dict[str, str] = {
    "spm_model=PATH": "--spm-model PATH",
    "reference='answer'": "--math-reference answer",
    "spm_model": "--spm-model",
    "encoder=PATH": "--comet-encoder PATH",
    "layer=": "--bertscore-layer N",
    "lang=": "--bertscore-lang LANG",
    "BERTScore needs model=": "BERTScore needs --bertscore-model PATH_OR_NAME",
    "MAUVE from texts needs model=": "MAUVE from texts needs --mauve-model PATH",
    "baseline_path=": "--bertscore-baseline TSV",
    "device='cpu'": "the metric's --<metric>-device cpu",
    "sources=": "--source SRC",
    "multi_class='ovr' or 'ovo'": "--multi-class ovr or ovo",
    "word_order=0": "--chrf-word-order 0",
    "df=CiderDF.fit(training_references)": "--cider-df DF.json.gz (a table fitted on training references)",
    "split_summaries=True": "--rouge-split-summaries",
    "on_empty='ignore'": "--rouge-on-empty ignore",
    "on_empty='zero'": "--rouge-on-empty zero",
    "pass wordnet=<a WordNet reader>": "set $NLTK_DATA to the directory above corpora/",
}
# Arguments named by messages of Python-only entry points, which no subcommand reaches
# (kept out of FLAGS on purpose; the test checks each is named only there).
PYTHON_ONLY: dict[str, str] = {
    "max_length": "neural/hf_perplexity.py: HFPerplexity scores a causal LM from Python only",
    "predictions": "compute()/keyword calls of the evaluate and torchmetrics faces; the CLI passes them positionally",
    "hypotheses": "engines/streaming.py's keyword API; score --chunk-size passes them itself",
    "jsonl": "engines/streaming.py's keyword API; score --chunk-size passes --jsonl itself",
    "loglikelihoods": "lm_eval_aggregates' compute(); score --jsonl reads lm-eval's file itself",
    "groups": "engines/meta.py's segment_level; correlate always passes the segment groups",
    "unknown_labels": "classification/streaming.py with labels=; classify takes no labels list",
}

_PATTERN = re.compile("|".join(("(?<![\\w])" if k[0].isalnum() else "") + re.escape(k) for k in sorted(FLAGS, key=len, reverse=True)))


# sacrebleu's own command line (`nlgmetrics sacrebleu`) has no flag for these: its users
# are told where the file goes, and which nlgmetrics command takes the path
SACREBLEU_FACE: dict[str, str] = {
    "pass spm_model=PATH, or fetch": "put the model there (nlgmetrics score takes --spm-model PATH), or fetch",
}


def cli_words(message: str, face: str | None = None) -> str:
    """``message`` with each Python argument it names replaced by its flag (``face="sacrebleu"``:
    by what sacrebleu's command line can do instead)."""
    if face == "sacrebleu":
        for words, instead in SACREBLEU_FACE.items():
            message = message.replace(words, instead)
    return _PATTERN.sub(lambda m: FLAGS[m.group(0)], message)
