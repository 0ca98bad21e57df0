"""No file a user points nlgmetrics at runs code when it is read.

Every loader of a model, checkpoint or table (COMET checkpoints and hparams.yaml, BLEURT,
BERTScore and perplexity weights through transformers, CIDEr document-frequency files,
MetricX and MAUVE weights, the cached METEOR tables) is fed every known payload shape: ``__reduce__`` to
``os.system`` / ``builtins.eval`` / ``builtins.exec`` / ``subprocess.call`` at pickle
protocols 0, 2, 4 and 5; a protocol-4 ``STACK_GLOBAL`` with a dotted name that reaches
``eval`` through an allowed module (``torch._utils`` + ``_rebuild_tensor.__builtins__.get``);
protocol 0 ``INST``; the same payloads in torch's zip layout and its legacy layout; a
``.npy`` object array; YAML ``!!python/object`` tags; a config's ``auto_map`` naming
remote code. Each payload would create a sentinel file: the test asserts it was not
created and that the loader raised a typed ``nlgmetrics.errors`` error of one line.
Damaged weight files give typed errors too (never a raw SafetensorError or UnpicklingError).
"""

from __future__ import annotations

import builtins
import functools
import gzip
import io
import os
import pickle
import shlex
import shutil
import subprocess
import struct
from pathlib import Path

import numpy as np
import pytest

from conftest import REPO

from nlgmetrics.errors import NlgMetricsError

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from metricx_models import expand as expand_metricx  # noqa: E402
from neural_models import tiny_bert, tiny_bleurt, tiny_gpt2  # noqa: E402

torch.set_num_threads(1)
COMET_GOLD = REPO / "tests" / "goldens" / "comet"
METRICX_GOLD = REPO / "tests" / "goldens" / "metricx"


# -- payloads ------------------------------------------------------------------------
def _code(sentinel: Path) -> str:
    return f"open({str(sentinel)!r}, 'w').close()"


def _reducers(sentinel: Path) -> dict[str, object]:
    s = str(sentinel)

    class System:
        def __reduce__(self):
            return (os.system, (f"touch {shlex.quote(s)}",))

    class Eval:
        def __reduce__(self):
            return (builtins.eval, (_code(sentinel),))

    class Exec:
        def __reduce__(self):
            return (builtins.exec, (_code(sentinel),))

    class Subprocess:
        def __reduce__(self):
            return (subprocess.call, (["touch", s],))

    return {"os.system": System(), "eval": Eval(), "exec": Exec(), "subprocess": Subprocess()}


class _Popen:
    def __init__(self, sentinel: Path):
        self.sentinel = sentinel

    def __reduce__(self):
        return (subprocess.Popen, (["touch", str(self.sentinel)],))


def _short_str(text: str) -> bytes:
    raw = text.encode()
    return b"\x8c" + bytes([len(raw)]) + raw


def _stack_global_payload(sentinel: Path) -> bytes:
    """Protocol 4: STACK_GLOBAL('torch._utils', '_rebuild_tensor.__builtins__.get')('eval')(code)."""
    code = _code(sentinel).encode()
    return (b"\x80\x04" + _short_str("torch._utils") + _short_str("_rebuild_tensor.__builtins__.get") + b"\x93"
            + _short_str("eval") + b"\x85R" + b"X" + struct.pack("<I", len(code)) + code + b"\x85R.")


def _stack_global_builtins_payload(sentinel: Path) -> bytes:
    """Protocol 4: STACK_GLOBAL('builtins', 'eval')(code) and a dotted name off an allowed builtin."""
    code = _code(sentinel).encode()
    return (b"\x80\x04" + _short_str("builtins") + _short_str("getattr.__self__.eval") + b"\x93"
            + b"X" + struct.pack("<I", len(code)) + code + b"\x85R.")


def _inst_payload(sentinel: Path) -> bytes:
    """Protocol 0 INST: os.system('touch ...')."""
    return b"(S'" + f"touch {shlex.quote(str(sentinel))}".encode() + b"'\nios\nsystem\n."


def _torch_bytes(obj: object, *, zip_layout: bool) -> bytes:
    buf = io.BytesIO()
    torch.save(obj, buf, _use_new_zipfile_serialization=zip_layout)
    return buf.getvalue()


def payloads(sentinel: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for name, obj in _reducers(sentinel).items():
        for proto in (0, 2, 4, 5):
            out[f"reduce-{name}-p{proto}"] = pickle.dumps(obj, protocol=proto)
        out[f"torch-zip-{name}"] = _torch_bytes({"state_dict": {"w": torch.zeros(2)}, "x": obj}, zip_layout=True)
        out[f"torch-legacy-{name}"] = _torch_bytes({"state_dict": {"w": torch.zeros(2)}, "x": obj}, zip_layout=False)
    out["stack-global-dotted-torch"] = _stack_global_payload(sentinel)
    out["stack-global-dotted-builtins"] = _stack_global_builtins_payload(sentinel)
    out["inst-p0"] = _inst_payload(sentinel)
    npy = io.BytesIO()
    np.save(npy, np.array([_reducers(sentinel)["eval"]], dtype=object), allow_pickle=True)
    out["npy-object-array"] = npy.getvalue()
    return out


PAYLOAD_NAMES = sorted(payloads(Path("/x")))
YAML_PAYLOADS = {
    "apply-os-system": "!!python/object/apply:os.system ['touch {s}']\n",
    "object-new": "class_identifier: regression_metric\nx: !!python/object/new:subprocess.Popen [['touch', '{s}']]\n",
    "name-eval": "class_identifier: !!python/name:builtins.eval ''\n",
}


# -- loaders -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("models")
    try:
        import bleurt_pytorch  # noqa: F401 - builds the tiny BLEURT checkpoint (the test extra has it)
    except ImportError:
        bleurt = None
    else:
        bleurt = tiny_bleurt(root / "bleurt", safetensors=False)
    return {"bert": tiny_bert(root / "bert", layers=2), "gpt2": tiny_gpt2(root / "gpt2"), "bleurt": bleurt,
            "metricx": expand_metricx(METRICX_GOLD / "metricx24-tiny", root / "metricx")}


def _model_copy(src: Path, dst: Path, payload: bytes | None, weights: str = "pytorch_model.bin") -> Path:
    shutil.copytree(src, dst)
    for f in ("model.safetensors", "pytorch_model.bin"):
        (dst / f).unlink(missing_ok=True)
    if payload is not None:
        (dst / weights).write_bytes(payload)
    return dst


def load_comet(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics import COMET

    d = tmp / "comet"
    shutil.copytree(COMET_GOLD / "da-softmax-norm-max", d)
    (d / "checkpoints" / "model.ckpt").write_bytes(payload)
    COMET(d, encoder=COMET_GOLD / "xlmr-tiny").sentence_scores(["a"], ["a"], sources=["a"])


def load_comet_cli(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics.cli.main import main

    d = tmp / "comet-cli"
    shutil.copytree(COMET_GOLD / "da-softmax-norm-max", d)
    (d / "checkpoints" / "model.ckpt").write_bytes(payload)
    for n in ("src", "ref", "hyp"):
        (tmp / n).write_text("a\n", encoding="utf-8")
    argv = ["score", "-m", "comet", "--comet-model", str(d), "--comet-encoder", str(COMET_GOLD / "xlmr-tiny"),
            "--source", str(tmp / "src"), "-r", str(tmp / "ref"), "-i", str(tmp / "hyp")]
    rc = main(argv)
    raise _CliExit(rc)


def load_bleurt(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics import BLEURT

    if models["bleurt"] is None:
        pytest.skip("bleurt-pytorch (test extra) builds the BLEURT checkpoint")
    d = _model_copy(models["bleurt"], tmp / "bleurt", payload)
    BLEURT(d, device="cpu").sentence_scores(["a"], ["a"])


def load_bertscore(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics import BERTScore

    d = _model_copy(models["bert"], tmp / "bert", payload)
    BERTScore(str(d), layer=1, device="cpu").prf(["a"], ["a"])


def load_perplexity(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics import HFPerplexity

    d = _model_copy(models["gpt2"], tmp / "gpt2", payload)
    HFPerplexity(str(d), device="cpu").sentence_scores(["the cat sat"])


def load_metricx(tmp: Path, payload: bytes, models) -> None:
    d = _model_copy(models["metricx"], tmp / "metricx", payload)
    _score_dir("metricx", d)


def load_mauve(tmp: Path, payload: bytes, models) -> None:
    d = _model_copy(models["gpt2"], tmp / "gpt2", payload)
    _score_dir("mauve", d)


def load_bertscore_baseline(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics import BERTScore

    (tmp / "baseline.tsv").write_bytes(payload)
    BERTScore(str(models["bert"]), layer=1, device="cpu", rescale_with_baseline=True, baseline_path=tmp / "baseline.tsv").prf(["a"], ["a"])


def load_cider_pickle(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics.metrics.cider import CiderDF

    (tmp / "df.p").write_bytes(payload)
    CiderDF.from_pickle(tmp / "df.p")


def load_cider_df(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics.metrics.cider import CiderDF

    (tmp / "df.json.gz").write_bytes(gzip.compress(payload))
    CiderDF.load(tmp / "df.json.gz")


def load_cider_cli(tmp: Path, payload: bytes, models) -> None:
    from nlgmetrics.cli.main import main

    (tmp / "df.p").write_bytes(payload)
    for n in ("ref", "hyp"):
        (tmp / n).write_text("a cat\n", encoding="utf-8")
    raise _CliExit(main(["score", "-m", "cider", "--cider-df", str(tmp / "df.p"), "-r", str(tmp / "ref"), "-i", str(tmp / "hyp")]))


class _CliExit(Exception):
    def __init__(self, rc: int):
        super().__init__(rc)
        self.rc = rc


LOADERS = {
    "comet": load_comet, "comet-cli": load_comet_cli, "bleurt": load_bleurt, "bertscore": load_bertscore,
    "perplexity": load_perplexity, "metricx": load_metricx, "mauve": load_mauve, "bertscore-baseline": load_bertscore_baseline, "cider-pickle": load_cider_pickle, "cider-df": load_cider_df, "cider-cli": load_cider_cli,
}


def _assert_refused(loader, tmp: Path, payload: bytes, models, capsys) -> str:
    try:
        loader(tmp, payload, models)
    except _CliExit as e:
        err = capsys.readouterr().err
        assert e.rc in (1, 2), err  # a bad --comet-model is a usage error (2), a bad --cider-df a data error (1)
        assert err.count("\n") == 1 and "Traceback" not in err, err
        return err
    except NlgMetricsError as e:
        assert "\n" not in str(e) and str(e), repr(e)
        return str(e)
    raise AssertionError("the payload file was accepted")


@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_no_payload_runs_code(loader, tmp_path, models, capsys):
    sentinel = tmp_path / "CODE-RAN"
    for name, payload in payloads(sentinel).items():
        work = tmp_path / name
        work.mkdir()
        _assert_refused(LOADERS[loader], work, payload, models, capsys)
        assert not sentinel.exists(), f"{loader}: the {name} payload ran code"


def test_reported_comet_payload_is_refused_without_running(tmp_path, models):
    """The report's file: a bare protocol-4 pickle that reached eval through torch._utils."""
    sentinel = tmp_path / "CODE-RAN"
    with pytest.raises(NlgMetricsError, match="COMET checkpoint") as e:
        load_comet(tmp_path, _stack_global_payload(sentinel), models)
    assert not sentinel.exists() and "\n" not in str(e.value)


@pytest.mark.parametrize("name", sorted(YAML_PAYLOADS))
def test_comet_hparams_yaml_tags_run_nothing(name, tmp_path):
    from nlgmetrics import COMET

    sentinel = tmp_path / "CODE-RAN"
    d = tmp_path / "comet"
    shutil.copytree(COMET_GOLD / "da-softmax-norm-max", d)
    (d / "hparams.yaml").write_text(YAML_PAYLOADS[name].format(s=sentinel), encoding="utf-8")
    with pytest.raises(NlgMetricsError) as e:
        COMET(d, encoder=COMET_GOLD / "xlmr-tiny").sentence_scores(["a"], ["a"], sources=["a"])
    assert not sentinel.exists() and "\n" not in str(e.value)


@pytest.mark.parametrize("loader", ["bertscore", "perplexity", "metricx", "mauve"])
def test_remote_code_in_config_is_never_run(loader, tmp_path, models):
    """``auto_map`` naming a module in the model directory: transformers would import it
    with trust_remote_code; nlgmetrics never trusts it."""
    import json

    sentinel = tmp_path / "CODE-RAN"
    src = models[MODEL_OF[loader]]
    d = tmp_path / "remote"
    shutil.copytree(src, d)
    config = json.loads((d / "config.json").read_text(encoding="utf-8"))
    config["auto_map"] = {"AutoConfig": "evil.EvilConfig", "AutoModel": "evil.Evil", "AutoModelForCausalLM": "evil.Evil"}
    (d / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (d / "evil.py").write_text(f"{_code(sentinel)}\n", encoding="utf-8")
    tok_config = d / "tokenizer_config.json"
    if tok_config.is_file():  # MetricX reads its tokenizer from its own directory
        tc = json.loads(tok_config.read_text(encoding="utf-8"))
        tc["auto_map"] = {"AutoTokenizer": ["evil.EvilTokenizer", None]}
        tok_config.write_text(json.dumps(tc), encoding="utf-8")
    try:
        _score_dir(loader, d)
    except NlgMetricsError as e:
        assert "\n" not in str(e)
    assert not sentinel.exists()


@pytest.mark.parametrize("field", ["callbacks", "hyper_parameters"])
def test_payload_inside_a_real_comet_checkpoint_is_refused(tmp_path, field):
    """A valid checkpoint carrying a payload among Lightning's extras is refused, naming the
    file and the global (an allow-list of Lightning's own classes, no stand-ins)."""
    from nlgmetrics import COMET

    sentinel = tmp_path / "CODE-RAN"
    d = tmp_path / "comet"
    shutil.copytree(COMET_GOLD / "da-softmax-norm-max", d)
    ckpt = d / "checkpoints" / "model.ckpt"
    data = torch.load(ckpt, weights_only=False)
    planted = dict(_reducers(sentinel), partial=functools.partial(print, "x"), popen=_Popen(sentinel))
    globals_named = {"os.system": r"posix\.system", "eval": r"builtins\.eval", "exec": r"builtins\.exec",
                     "subprocess": r"subprocess\.call", "partial": r"functools\.partial", "popen": r"subprocess\.Popen"}
    for key, payload in planted.items():
        data[field] = {"x": payload} if field == "callbacks" else dict(data["hyper_parameters"] if isinstance(data.get("hyper_parameters"), dict) else {}, evil=payload)
        for zip_layout in (True, False):
            ckpt.write_bytes(_torch_bytes(data, zip_layout=zip_layout))
            with pytest.raises(NlgMetricsError, match=r"model\.ckpt.*" + globals_named[key] + ", which is not allowed"):
                COMET(d, encoder=COMET_GOLD / "xlmr-tiny").sentence_scores(["a cat"], ["a dog"], sources=["a"])
            assert not sentinel.exists()


MODEL_OF = {"bleurt": "bleurt", "bertscore": "bert", "perplexity": "gpt2", "metricx": "metricx", "mauve": "gpt2"}


def _score_dir(loader: str, d: Path) -> object:
    from nlgmetrics import BERTScore, BLEURT, HFPerplexity
    from nlgmetrics.neural.mauve import MAUVE
    from nlgmetrics.neural.metricx import MetricX

    if loader == "metricx":
        return MetricX(d, version="24", tokenizer=METRICX_GOLD / "tokenizer", device="cpu").sentence_scores(["a cat sat"], ["the cat"], sources=["猫"])
    if loader == "mauve":
        return MAUVE(d, device="cpu", max_text_length=16).features(["the cat sat on the mat", "a dog"])
    if loader == "bleurt":
        BLEURT(d, device="cpu").sentence_scores(["a"], ["a"])
    elif loader == "bertscore":
        BERTScore(str(d), layer=1, device="cpu").prf(["a"], ["a"])
    else:
        HFPerplexity(str(d), device="cpu").sentence_scores(["the cat sat"])


def _weights_of(src: Path, name: str) -> bytes:
    from safetensors.torch import load_file, save as save_bytes

    if (src / "model.safetensors").is_file():
        state = load_file(str(src / "model.safetensors"))
    else:
        state = torch.load(src / "pytorch_model.bin", weights_only=True)
    if name == "model.safetensors":
        return save_bytes({k: v.contiguous() for k, v in state.items()})
    return _torch_bytes(state, zip_layout=True)


@pytest.mark.parametrize("loader", sorted(MODEL_OF))
@pytest.mark.parametrize("weights", ["model.safetensors", "pytorch_model.bin"])
@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty"])
def test_damaged_weights_are_typed_errors(loader, weights, damage, tmp_path, models):
    src = models[MODEL_OF[loader]]
    if src is None:
        pytest.skip("bleurt-pytorch (test extra) builds the BLEURT checkpoint")
    raw = _weights_of(src, weights)
    payload = {"garbage": b"\x00not weights\xff" * 50, "truncated": raw[: len(raw) // 2], "empty": b""}[damage]
    d = _model_copy(src, tmp_path / "damaged", payload, weights=weights)
    with pytest.raises(NlgMetricsError) as e:
        _score_dir(loader, d)
    assert "\n" not in str(e.value) and str(d) in str(e.value)


@pytest.mark.parametrize("loader", ["bertscore", "perplexity", "metricx", "mauve"])
def test_pickled_weights_still_load_and_score_the_same(loader, tmp_path, models, monkeypatch):
    """The safe path (our weights-only read + state_dict, config overrides carried on the
    config) gives the numbers transformers gives from safetensors."""
    from safetensors.torch import load_file

    src = models[MODEL_OF[loader]]
    pickled = tmp_path / f"{loader}-bin"
    shutil.copytree(src, pickled)
    torch.save(load_file(str(pickled / "model.safetensors")), pickled / "pytorch_model.bin")
    (pickled / "model.safetensors").unlink()
    import transformers.modeling_utils as modeling_utils

    real = modeling_utils.load_state_dict

    def guarded(checkpoint_file, *args, **kwargs):
        # transformers unpickling the file itself is what older versions do without
        # weights_only: the pickled bytes must reach only our weights-only read
        assert not str(checkpoint_file).endswith(".bin"), f"transformers read {checkpoint_file} itself"
        return real(checkpoint_file, *args, **kwargs)

    monkeypatch.setattr(modeling_utils, "load_state_dict", guarded)
    got, want = np.asarray(_score_dir(loader, pickled)), np.asarray(_score_dir(loader, src))
    assert got.size > 0
    np.testing.assert_array_equal(got, want)


def test_model_weights_are_read_in_one_place():
    """The class, at the source: every model ``from_pretrained`` in the package goes through
    ``neural/_weights.load_pretrained`` (tokenizers and configs read no pickles)."""
    import re

    call = re.compile(r"\.(\w+)\.from_pretrained\(")
    found = []
    for path in sorted((REPO / "python" / "nlgmetrics").rglob("*.py")):
        if path.name == "_weights.py":
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name in call.findall(line.split("#")[0]):
                if not (name.endswith("Tokenizer") or name.endswith("TokenizerFast") or name.endswith("Config") or name == "config_class"):
                    found.append(f"{path.relative_to(REPO)}:{i}: {line.strip()}")
            if "from_pretrained(" in line and "Tokenizer" in line and "Auto" in line and "trust_remote_code=False" not in line:
                found.append(f"{path.relative_to(REPO)}:{i}: an Auto tokenizer without trust_remote_code=False")
    assert not found, "\n".join(found)


def test_cider_pickle_with_numpy_scalars_still_loads(tmp_path):
    """ruotianluo's df pickles (protocol 2, defaultdict, numpy floats) read through the allow-list."""
    from collections import defaultdict

    from nlgmetrics.metrics.cider import CiderDF

    data = {"document_frequency": defaultdict(float, {("a",): np.float64(2.0), ("a", "cat"): 1.0}), "ref_len": np.float64(2.0)}
    (tmp_path / "df.p").write_bytes(pickle.dumps(data, protocol=2))
    df = CiderDF.from_pickle(tmp_path / "df.p")
    assert df.n_docs == 2 and df["a"] == 2 and df["a cat"] == 1


def test_meteor_cache_file_is_parsed_not_unpickled(tmp_path, monkeypatch):
    """A payload planted where the compiled METEOR tables are cached is read by the Rust
    parser (rejected, then rebuilt); nothing in it runs."""
    pytest.importorskip("pycocoevalcap")
    from nlgmetrics.metrics import meteor_resources as mr

    monkeypatch.setenv("NLGMETRICS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(mr, "_CACHE", {})
    sentinel = tmp_path / "CODE-RAN"
    path = mr.cache_file(mr.meteor_dir(), False)
    path.parent.mkdir(parents=True)
    for name in ("reduce-eval-p4", "stack-global-dotted-torch", "torch-zip-os.system"):
        path.write_bytes(payloads(sentinel)[name])
        mr._CACHE.clear()
        res = mr.load_resources(paraphrases=False)
        assert res is not None and not sentinel.exists()
        assert path.read_bytes() != payloads(sentinel)[name]  # replaced by the real tables


def test_no_unrestricted_loader_in_the_package():
    """The class, checked at the source: no plain pickle / torch.load without weights_only /
    allow_pickle / yaml.load / eval on file contents anywhere in the package."""
    import re

    bad = re.compile(r"(?<!\w)pickle\.(?:loads?|Unpickler)\(|allow_pickle\s*=\s*True|yaml\.(?:unsafe_)?load\("
                     r"|(?<![\w.])eval\(|(?<![\w.])exec\(|marshal\.loads?\(|(?<!\w)dill\.|(?<!\w)joblib\.load")
    found = []
    # The one exception: the Spark face moves statistics between its own executors and the
    # driver as bytes it pickled itself within one job (the trust Spark already gives the
    # closures it ships); no file or user input reaches these calls.
    transport = "# in-job transport: bytes this job pickled"
    for path in sorted((REPO / "python" / "nlgmetrics").rglob("*.py")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if transport in line:
                assert path.relative_to(REPO).as_posix() == "python/nlgmetrics/integrations/spark.py", f"{path}:{i}"
                continue
            code = line.split("#")[0]
            unsafe_torch = "torch.load(" in code and "weights_only=True" not in code and "pickle_module=_RestrictedPickle" not in code
            if bad.search(code) or unsafe_torch:
                found.append(f"{path.relative_to(REPO)}:{i}: {line.strip()}")
    assert not found, "\n".join(found)


def test_shard_indexes_cannot_reach_a_pickle(tmp_path, models):
    """A safetensors index beside a payload .bin never falls back to the pickle; a pickled
    shard index naming a file outside the directory is refused."""
    import json

    from nlgmetrics import BERTScore

    sentinel = tmp_path / "CODE-RAN"
    payload = payloads(sentinel)["reduce-eval-p2"]
    d = _model_copy(models["bert"], tmp_path / "st-index", payload)
    (d / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"w": "model-00001-of-00001.safetensors"}}))
    with pytest.raises(NlgMetricsError) as e:
        BERTScore(str(d), layer=1, device="cpu").prf(["a"], ["a"])
    assert not sentinel.exists() and "\n" not in str(e.value)
    d = _model_copy(models["bert"], tmp_path / "bin-index", None)
    (tmp_path / "outside.bin").write_bytes(payload)
    (d / "pytorch_model.bin.index.json").write_text(json.dumps({"weight_map": {"w": "../outside.bin"}}))
    with pytest.raises(NlgMetricsError, match="outside its directory"):
        BERTScore(str(d), layer=1, device="cpu").prf(["a"], ["a"])
    (d / "pytorch_model.bin.index.json").write_text(json.dumps({"weight_map": {"w": "shard-1.bin"}}))
    (d / "shard-1.bin").write_bytes(payload)
    with pytest.raises(NlgMetricsError):
        BERTScore(str(d), layer=1, device="cpu").prf(["a"], ["a"])
    assert not sentinel.exists()


def test_strict_unpickler_refuses_what_is_not_listed():
    """The allow-list is exact: dotted names, dunder names and unlisted globals are refused."""
    from nlgmetrics import _safe_pickle

    allowed = _safe_pickle.plain_data_allowed()
    for data in (pickle.dumps(os.getcwd, protocol=4), pickle.dumps(shutil.rmtree, protocol=2),
                 _stack_global_payload(Path("/nonexistent/x")), _stack_global_builtins_payload(Path("/nonexistent/x")),
                 _inst_payload(Path("/nonexistent/x"))):
        with pytest.raises(_safe_pickle.UnsafePickleError):
            _safe_pickle.load(io.BytesIO(data), allowed=allowed)
    assert _safe_pickle.load(io.BytesIO(pickle.dumps({"a": [1, 2.5, (3,)], "b": b"x"}, protocol=2)), allowed=allowed) == {"a": [1, 2.5, (3,)], "b": b"x"}


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "zip-without-data"])
def test_damaged_comet_checkpoints_are_typed_errors(damage, tmp_path, models):
    import zipfile

    raw = (COMET_GOLD / "da-softmax-norm-max" / "checkpoints" / "model.ckpt").read_bytes()
    if damage == "zip-without-data":
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as z:
            z.writestr("archive/version", "3\n")
        payload = buf.getvalue()
    else:
        payload = {"garbage": b"\x80\x02garbage" * 40, "truncated": raw[: len(raw) // 2], "empty": b""}[damage]
    with pytest.raises(NlgMetricsError, match="COMET checkpoint") as e:
        load_comet(tmp_path, payload, models)
    assert "\n" not in str(e.value)
