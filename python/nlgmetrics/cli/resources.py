"""Numbers that depend on an optional resource (WordNet's exception list, nltk's Punkt
model, a SentencePiece model file) say so: the signature names the resource
(``stem:porter-perl+wordnet2.0``, ``split:punkt``, ``tok:flores200``), and the command line
adds one line per resource saying what it is and which flag changes it, so a user whose
own install differs can tell why the numbers do (stderr for text and TSV, ``"resources"``
in JSON)."""

from __future__ import annotations

# signature fragment -> what the number read, and the switch
NOTES: tuple[tuple[str, str], ...] = (
    ("stem:porter-perl+wordnet2.0", "ROUGE-1.5.5's stemmer reads WordNet 2.0's exception list (data/WordNet-2.0.exc.db, as a complete "
                                    "install); a Perl install whose exception file is empty prints what --rouge-no-wordnet gives"),
    ("stem:models:porter-perl+wordnet2.0", "ROUGE-1.5.5's stemmer reads WordNet 2.0's exception list; --rouge-no-wordnet stems without it"),
    ("split:punkt", "rougeLsum's sentences come from nltk's Punkt model (rouge-score's nltk.sent_tokenize); "
                    "without --rouge-split-summaries, one sentence per line"),
    ("tok:mixed-nltk", "English words come from nltk's word_tokenize with the Punkt model (installed offline; nothing is downloaded)"),
    ("tok:flores101", "spBLEU's SentencePiece model: the file of --spm-model PATH, else sacrebleu's cache ($SACREBLEU/models/sacrebleu_tokenizer_spm.model)"),
    ("tok:flores200", "spBLEU's SentencePiece model: the file of --spm-model PATH, else sacrebleu's cache ($SACREBLEU/models/flores200sacrebleuspm)"),
)


def notes(signature: str) -> list[str]:
    """The resource notes of one signature (each fragment matched as a whole ``key:value``)."""
    parts = set(signature.split("|"))
    joined = "|" + signature + "|"
    return [text for fragment, text in NOTES if fragment in parts or f"|{fragment}|" in joined]


def annotate(rows: list[dict]) -> list[str]:
    """Put each row's notes in it (``"resources"``, only where there are some); the
    distinct notes of all rows, in order."""
    seen: dict[str, None] = {}
    for row in rows:
        found = notes(str(row.get("signature", "")))
        if found:
            row["resources"] = found
            seen.update(dict.fromkeys(found))
    return list(seen)
