"""Caches of things a user can change are keyed on their content: a SentencePiece model
edited in place, replaced with its time kept (``shutil.copy2``, ``cp -p``) or swapped behind
a symbolic link is read again (== sacrebleu's BLEU on the pieces of the *new* model), and the
core's jieba follows in-place edits of jieba's HMM tables and frequencies (== Python jieba)."""

from __future__ import annotations

import copy
import os
import shutil
from pathlib import Path

import pytest

from nlgmetrics import BLEU

# -- SentencePiece models (spBLEU) ------------------------------------------------------------------
TEXT = ["The quick brown fox jumps over the lazy dog near the riverbank.", "A stitch in time saves nine, as the proverb goes.",
        "Machine translation quality is measured with automatic metrics.", "Tokenization changes every n-gram count.",
        "The committee approved the proposal after a long debate.", "Rain is expected throughout the weekend in the north."]
HYP = ["The quick brown fox jumped over a lazy dog by the riverbank.", "A stitch in time saves nine.",
       "Translation quality is measured by automatic metrics.", "Tokenisation changes n-gram counts."]
REF = TEXT[:4]
STAMP = 1_600_000_000  # one modification time for both models: a cache keyed on it cannot tell them apart


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """Two different SentencePiece models trained here (character-level and a small unigram)."""
    spm = pytest.importorskip("sentencepiece")
    d = tmp_path_factory.mktemp("spm-models")
    train = d / "train.txt"
    train.write_text("\n".join(TEXT * 20 + HYP * 20), encoding="utf-8")
    out = []
    for name, kind, vocab in (("a", "char", 60), ("b", "unigram", 80)):
        spm.SentencePieceTrainer.train(input=str(train), model_prefix=str(d / name), vocab_size=vocab, model_type=kind,
                                       character_coverage=1.0, num_threads=1, minloglevel=2)
        path = d / f"{name}.model"
        os.utime(path, (STAMP, STAMP))
        out.append(path)
    assert out[0].read_bytes() != out[1].read_bytes()
    return out


def reference(model: Path) -> float:
    """sacrebleu's BLEU on the pieces of ``model`` (what TokenizerSPM then BLEU compute)."""
    spm = pytest.importorskip("sentencepiece")
    sacrebleu = pytest.importorskip("sacrebleu")
    sp = spm.SentencePieceProcessor(model_file=str(model))
    enc = lambda s: " ".join(sp.EncodeAsPieces(s.rstrip()))  # noqa: E731
    return sacrebleu.corpus_bleu([enc(h) for h in HYP], [[enc(r) for r in REF]], tokenize="none").score


def spbleu(path: Path) -> float:
    return BLEU(tokenize="flores101", spm_model=str(path)).corpus_score(HYP, [[r] for r in REF]).score


def test_the_two_models_score_differently(models):
    a, b = models
    assert reference(a) != reference(b)
    assert spbleu(a) == reference(a) and spbleu(b) == reference(b)


def test_model_edited_in_place_with_its_time_kept(models, tmp_path):
    a, b = models
    path = tmp_path / "m.model"
    shutil.copy2(a, path)
    assert spbleu(path) == reference(a)
    with open(path, "r+b") as fh:  # the same inode, rewritten
        fh.truncate(0)
        fh.write(b.read_bytes())
    os.utime(path, (STAMP, STAMP))
    assert spbleu(path) == reference(b)


def test_model_replaced_with_copy2(models, tmp_path):
    a, b = models
    path = tmp_path / "m.model"
    shutil.copy2(a, path)
    assert spbleu(path) == reference(a)
    shutil.copy2(b, path)  # cp -p: the same time as the model it replaces
    assert os.path.getmtime(path) == STAMP
    assert spbleu(path) == reference(b)


def test_model_swapped_behind_a_symbolic_link(models, tmp_path):
    a, b = models
    link = tmp_path / "m.model"
    link.symlink_to(a)
    assert spbleu(link) == reference(a)
    tmp = tmp_path / "m.tmp"
    tmp.symlink_to(b)
    os.replace(tmp, link)
    assert spbleu(link) == reference(b)
    shutil.copy2(a, tmp_path / "a-again")  # and back to a's content, under another name
    os.symlink(tmp_path / "a-again", tmp)
    os.replace(tmp, link)
    assert spbleu(link) == reference(a)


def test_model_in_sacrebleus_folder_is_read_as_it_is_now(models, tmp_path, monkeypatch):
    # tokenize="flores101" without spm_model: the model in $SACREBLEU/models, replaced there
    a, b = models
    (tmp_path / "models").mkdir()
    path = tmp_path / "models" / "sacrebleu_tokenizer_spm.model"
    monkeypatch.setenv("SACREBLEU", str(tmp_path))
    shutil.copy2(a, path)
    score = lambda: BLEU(tokenize="flores101").corpus_score(HYP, [[r] for r in REF]).score  # noqa: E731
    assert score() == reference(a)
    shutil.copy2(b, path)
    assert score() == reference(b)


# -- jieba's tables --------------------------------------------------------------------------------
ZH = ["他来到了网易杭研大厦", "小明硕士毕业于中国科学院计算所，后在日本京都大学深造", "我来到北京清华大学", "今天天气不错，我们去吃火锅吧"]


@pytest.fixture
def jieba_state():
    """jieba as it was after the test: its dictionary and HMM tables restored."""
    jieba = pytest.importorskip("jieba")
    from nlgmetrics.tokenizers import jieba_reset

    jieba.setLogLevel(60)
    jieba.dt.check_initialized()
    dt, fs = jieba.dt, jieba.finalseg
    saved = (dt.FREQ, dict(dt.FREQ), dt.total, copy.deepcopy((fs.start_P, fs.trans_P, fs.emit_P)), set(fs.Force_Split_Words))
    yield jieba
    freq, items, dt.total, tables, fsw = saved
    freq.clear()
    freq.update(items)
    dt.FREQ = freq
    for live, kept in zip((fs.start_P, fs.trans_P, fs.emit_P), tables):
        live.clear()
        live.update(kept)
    fs.Force_Split_Words.clear()
    fs.Force_Split_Words.update(fsw)
    jieba_reset()


def both(jieba):
    from nlgmetrics.tokenizers import jieba_cut

    return jieba_cut(ZH), [jieba.lcut(t) for t in ZH]


def test_jieba_hmm_tables_edited_in_place(jieba_state):
    jieba = jieba_state
    got, want = both(jieba)
    assert got == want
    before = want
    emit = jieba.finalseg.emit_P
    for ch in "杭研":  # an unknown word's characters now prefer to stand alone
        emit["S"][ch], emit["B"][ch], emit["E"][ch] = -0.01, -60.0, -60.0
    got, want = both(jieba)
    assert got == want
    assert want != before
    jieba.finalseg.trans_P["B"]["E"] = -60.0  # a transition, in place
    got, want = both(jieba)
    assert got == want


def test_jieba_frequency_set_by_hand(jieba_state):
    jieba = jieba_state
    assert both(jieba)[0] == both(jieba)[1]
    jieba.dt.FREQ["清华大学"] = 0  # no longer a word; the dictionary's size and total as they were
    got, want = both(jieba)
    assert got == want
    assert want[2][-2:] == ["清华", "大学"]


# -- ROUGE-1.5.5's stopword and WordNet exception files ----------------------------------------------
def swap_file(path: Path, content: bytes, how: str, tmp: Path) -> None:
    """Give ``path`` new bytes with its modification time kept: rewritten in place,
    replaced by ``shutil.copy2`` or through a symbolic link re-pointed."""
    stamp = path.stat().st_mtime_ns
    if how == "in place":
        with open(path, "r+b") as fh:
            fh.truncate(0)
            fh.write(content)
        os.utime(path, ns=(stamp, stamp))
    elif how == "copy2":
        src = tmp / f"new-{path.name}"
        src.write_bytes(content)
        os.utime(src, ns=(stamp, stamp))
        shutil.copy2(src, path)
    else:  # path is a link: point it at a new file of the same time
        target = tmp / f"target-{len(list(tmp.iterdir()))}-{path.name}"
        target.write_bytes(content)
        os.utime(target, ns=(stamp, stamp))
        link = tmp / "link.tmp"
        link.symlink_to(target)
        os.replace(link, path)
    assert path.stat().st_mtime_ns == stamp


@pytest.fixture
def rouge_data(tmp_path, monkeypatch):
    """A copy of ROUGE-1.5.5's data folder that the metric reads; each file behind a link
    (so that every way of replacing it can be tried)."""
    from nlgmetrics.metrics import rouge155

    real = rouge155._release_data()
    data = tmp_path / "data"
    (data / "WordNet-2.0-Exceptions").mkdir(parents=True)
    store = tmp_path / "store"
    store.mkdir()
    for rel in ["smart_common_words.txt"] + [f"WordNet-2.0-Exceptions/{p}.exc" for p in ("noun", "adv", "verb", "adj")]:
        target = store / rel.replace("/", "-")
        target.write_bytes(real.joinpath(*rel.split("/")).read_bytes())
        (data / rel).symlink_to(target)
    monkeypatch.setattr(rouge155, "_release_data", lambda: data)
    return data


ROUGE_HYP = ["the children were flying over the houses", "he is running to the store"]
ROUGE_REF = [["a child flies over a house"], ["he ran to the stores"]]


def rouge155_scores(**kw) -> list[float]:
    from nlgmetrics import ROUGE

    s = ROUGE("rouge155", rouge_types=["rouge1", "rouge2"], **kw).corpus_score(ROUGE_HYP, ROUGE_REF)
    return [v for t in ("rouge1", "rouge2") for v in s.types[t]]


@pytest.mark.parametrize("how", ["in place", "copy2", "link"])
def test_rouge155_stopwords_replaced(rouge_data, tmp_path, how):
    before = rouge155_scores(remove_stopwords=True)
    path = rouge_data / "smart_common_words.txt"
    if how != "link":
        path.unlink()
        path.write_bytes((tmp_path / "store" / "smart_common_words.txt").read_bytes())
    words = path.read_bytes().decode().splitlines()
    swap_file(path, "\n".join(w for w in words if w not in ("the", "over", "to", "he")).encode() + b"\n", how, tmp_path)
    from nlgmetrics.metrics import rouge155

    after = rouge155_scores(remove_stopwords=True)
    assert after != before
    rouge155._PARSED.clear()  # what a fresh process reads
    assert rouge155_scores(remove_stopwords=True) == after


@pytest.mark.parametrize("how", ["in place", "copy2", "link"])
def test_rouge155_wordnet_exceptions_replaced(rouge_data, tmp_path, how):
    before = rouge155_scores(stemming=True)
    path = rouge_data / "WordNet-2.0-Exceptions" / "noun.exc"
    if how != "link":
        path.unlink()
        path.write_bytes((tmp_path / "store" / "WordNet-2.0-Exceptions-noun.exc").read_bytes())
    lines = [l for l in path.read_bytes().decode().splitlines() if not l.startswith("children ")]
    swap_file(path, ("\n".join(lines) + "\n").encode(), how, tmp_path)
    from nlgmetrics.metrics import rouge155

    after = rouge155_scores(stemming=True)
    assert after != before
    rouge155._PARSED.clear()
    assert rouge155_scores(stemming=True) == after


# -- METEOR's tables ----------------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["in place", "copy2", "link"])
def test_meteor_tables_replaced(tmp_path, monkeypatch, how):
    pytest.importorskip("pycocoevalcap")
    import io
    import zipfile

    from nlgmetrics import METEOR
    from nlgmetrics.metrics import meteor_resources as mr

    real = mr.meteor_dir()
    d = tmp_path / "meteor"
    d.mkdir()
    jar = d / "meteor-1.5.jar"
    original = (real / "meteor-1.5.jar").read_bytes()
    if how == "link":
        (tmp_path / "store").mkdir()
        (tmp_path / "store" / "first.jar").write_bytes(original)
        jar.symlink_to(tmp_path / "store" / "first.jar")
    else:
        jar.write_bytes(original)
    monkeypatch.setattr(mr, "meteor_dir", lambda: d)
    monkeypatch.setenv("NLGMETRICS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(mr, "_CACHE", {})
    monkeypatch.setattr(mr, "_DIGESTS", {}, raising=False)
    hyp, ref = ["the cat sat on a mat of the house"], [["a cat is sitting on the mat in the house"]]
    score = lambda: METEOR(modules=("exact", "stem", "synonym")).corpus_score(hyp, ref).score  # noqa: E731
    before = score()
    # the same jar with fewer function words ("the", "a", "of", "on" become content words)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(original)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            data = src.read(item)
            if item.filename == mr.JAR_MEMBERS["function_words"]:
                data = b"\n".join(w for w in data.splitlines() if w.strip() not in (b"the", b"a", b"of", b"on", b"in", b"is")) + b"\n"
            dst.writestr(item, data)
    swap_file(jar, out.getvalue(), how, tmp_path)
    after = score()
    assert after != before
    mr._CACHE.clear()
    mr._DIGESTS.clear()
    for f in (tmp_path / "cache").iterdir():  # what a fresh process with no compiled tables reads
        f.unlink()
    assert score() == after
