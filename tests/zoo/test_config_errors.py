"""A config that cannot describe the model it sits beside is refused in one line naming the file and the field:
malformed JSON (config.json, a safetensors index), a field of the wrong type or missing, an HF config without a
field its converter needs, and a config whose size (depth included) is more than the machine holds."""
from __future__ import annotations

import json

import pytest
import torch
from safetensors.torch import save_file

import zoo
from zoo.convert import load_directory
from zoo.io import CorruptCheckpointError


def saved(tmp_path, name="gpt_tiny", **overrides):
    """A tiny saved model directory and its config.json's content."""
    directory = zoo.create_model(name, depth=1, **overrides).save_pretrained(tmp_path / name)
    return directory, json.loads((directory / "config.json").read_text())


def hf_gpt2_directory(directory, **overrides):
    cfg = {"model_type": "gpt2", "vocab_size": 64, "n_positions": 16, "n_embd": 32, "n_layer": 1, "n_head": 2,
           **overrides}
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({k: v for k, v in cfg.items() if v is not None}))
    save_file({"wte.weight": torch.zeros(64, 32)}, directory / "model.safetensors")
    return directory


# ----------------------------------------------------------------------------- malformed JSON

@pytest.mark.parametrize("text, what", [('{"family": "gpt", "config": {', r"not valid JSON: .* line 1 column \d+"),
                                        ("[1, 2]", "expected a JSON object, got a list"),
                                        ("\xff\xfe garbage", "not valid JSON")])
def test_malformed_config_json_names_the_file(tmp_path, text, what):
    directory, _ = saved(tmp_path)
    (directory / "config.json").write_bytes(text.encode("latin-1"))
    for load in (zoo.load_pretrained, load_directory):
        with pytest.raises(CorruptCheckpointError, match=rf"config\.json'? .*{what}"):
            load(directory)


def test_malformed_hf_config_and_safetensors_index_name_the_file(tmp_path):
    hf = hf_gpt2_directory(tmp_path / "hf")
    (hf / "config.json").write_text('{"model_type": "gpt2", ')
    with pytest.raises(CorruptCheckpointError, match=r"hf/config\.json' is not valid JSON: .* at line 1 column 24"):
        zoo.from_hf(hf)
    hf_gpt2_directory(sharded := tmp_path / "sharded")
    (sharded / "model.safetensors").unlink()
    index = sharded / "model.safetensors.index.json"
    index.write_text('{"weight_map": ')
    with pytest.raises(CorruptCheckpointError, match=r"model\.safetensors\.index\.json' is not valid JSON"):
        zoo.from_hf(sharded)
    index.write_text('{"metadata": {}}')
    with pytest.raises(CorruptCheckpointError, match=r"index\.json' has no \"weight_map\""):
        zoo.from_hf(sharded)
    index.write_text('{"weight_map": {"wte.weight": "model-00001-of-00002.safetensors"}}')
    with pytest.raises(FileNotFoundError, match=r"index\.json' names the shard 'model-00001-of-00002\.safetensors'"):
        zoo.from_hf(sharded)
