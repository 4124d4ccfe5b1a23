"""Loading what a user points us at is safe: a pickle that would run code is refused before its payload
runs (HF pytorch_model.bin, openai-whisper .pt, a training checkpoint), and a config that asks for an absurd
model (negative sizes, more bytes than the machine has) is refused before anything is allocated."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

import zoo
from zoo.io import CorruptCheckpointError
from zoo.registry import ModelTooLargeError
from zoo.training import TrainConfig, train


class Payload:
    """Unpickling this opens (creates) `marker`: what a malicious checkpoint would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


def malicious(path: Path, marker: Path, **rest) -> Path:
    torch.save({"model_state_dict": {"w": torch.zeros(2)}, "payload": Payload(marker), **rest}, path)
    return path


def hf_gpt2_config(**overrides) -> dict:
    cfg = {"model_type": "gpt2", "vocab_size": 64, "n_positions": 16, "n_embd": 32, "n_layer": 1, "n_head": 2,
           "n_inner": None, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5, "tie_word_embeddings": True}
    return {**cfg, **overrides}


def test_hf_directory_with_a_malicious_pytorch_model_bin(tmp_path):
    marker = tmp_path / "pwned"
    (tmp_path / "hf").mkdir()
    (tmp_path / "hf" / "config.json").write_text(json.dumps(hf_gpt2_config()))
    malicious(tmp_path / "hf" / "pytorch_model.bin", marker)
    with pytest.raises(CorruptCheckpointError, match="would run code from the file"):
        zoo.from_hf(tmp_path / "hf")
    assert not marker.exists()


def test_openai_whisper_pt_with_a_payload(tmp_path):
    marker = tmp_path / "pwned"
    path = malicious(tmp_path / "tiny.pt", marker, dims={"n_mels": 80})
    with pytest.raises(CorruptCheckpointError, match="would run code from the file"):
        zoo.from_whisper(path)
    assert not marker.exists()


def test_training_checkpoint_with_a_payload(tmp_path):
    marker = tmp_path / "pwned"
    out = tmp_path / "run"
    out.mkdir()
    malicious(out / "checkpoint.pt", marker)
    model = torch.nn.Linear(2, 1)
    stream = iter(lambda: (torch.randn(4, 2), torch.randn(4, 1)), None)
    with pytest.raises(CorruptCheckpointError, match="would run code from the file"):
        train(model, stream, lambda m, b: (m(b[0]) - b[1]).pow(2).mean(),
              TrainConfig(steps=1, device="cpu", out=str(out), resume=True, progress=False))
    assert not marker.exists()
    assert (out / "checkpoint.pt").exists()  # left in place for the user to inspect


@pytest.mark.parametrize("field, value", [("n_embd", -32), ("n_layer", -1), ("vocab_size", -5)])
def test_hf_config_with_negative_sizes_names_the_field(tmp_path, field, value):
    from safetensors.torch import save_file

    (tmp_path / "config.json").write_text(json.dumps(hf_gpt2_config(**{field: value})))
    save_file({"wte.weight": torch.zeros(2, 2)}, tmp_path / "model.safetensors")
    with pytest.raises(ValueError, match=r"=-\d+: expected a size >= [01]"):
        zoo.from_hf(tmp_path)


def test_absurd_config_is_refused_before_allocating(tmp_path, monkeypatch):
    """A trillion-parameter config.json beside a tiny weights file: refused with the size it would take,
    from the meta-device count (the test would run out of memory otherwise)."""
    from safetensors.torch import save_file

    (tmp_path / "config.json").write_text(json.dumps(hf_gpt2_config(n_embd=2**17, n_head=2**7, n_layer=48)))
    save_file({"wte.weight": torch.zeros(2, 2)}, tmp_path / "model.safetensors")
    with pytest.raises(ModelTooLargeError, match=r"asks for a model of [\d,.]+ GiB .* nothing was allocated"):
        zoo.from_hf(tmp_path)
    # A zoo directory (load_pretrained) and create_model go through the same check.
    zoo.create_model("gpt_tiny").save_pretrained(tmp_path / "zoo")
    saved = json.loads((tmp_path / "zoo" / "config.json").read_text())
    saved["config"]["vocab_size"] = 10**12
    (tmp_path / "zoo" / "config.json").write_text(json.dumps(saved))
    with pytest.raises(ModelTooLargeError, match="GPTConfig asks for a model of"):
        zoo.load_pretrained(tmp_path / "zoo")
    monkeypatch.setenv("ZOO_MAX_MODEL_BYTES", "1000")  # the limit is the machine's unless set
    with pytest.raises(ModelTooLargeError, match="more than the 0.0 GiB"):
        zoo.create_model("gpt_tiny")
    with torch.device("meta"):  # nothing is allocated on meta: inspecting a large preset still works
        assert zoo.create_model("llava_v1_5_7b").config.text.depth == 32


def test_every_registered_preset_builds_on_meta_and_counts_its_bytes():
    from zoo.registry import _preset, model_bytes

    for name in zoo.list_models():
        with torch.device("meta"):
            model = zoo.create_model(name)
        params = sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())
        assert model_bytes(model) >= 4 * params > 0, name
        assert _preset(name).family
