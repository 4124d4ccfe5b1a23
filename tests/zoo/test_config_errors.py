"""A config that cannot describe the model it sits beside is refused in one line naming the file and the field:
malformed JSON (config.json, a safetensors index), a field of the wrong type or missing, an HF config without a
field its converter needs, and a config whose size (depth included) is more than the machine holds."""
from __future__ import annotations

import json
import time

import pytest
import torch
import transformers
from safetensors.torch import save_file

import zoo
from zoo import registry
from zoo.convert import load_directory
from zoo.convert.common import UnsupportedConfigError
from zoo.io import CorruptCheckpointError
from zoo.registry import ConfigError, ModelTooLargeError, config_from_dict, list_families, model_bytes


def saved(tmp_path, name="gpt_tiny", **overrides):
    """A tiny saved model directory and its config.json's content."""
    directory = zoo.create_model(name, **overrides).save_pretrained(tmp_path / name)
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


@pytest.mark.parametrize("content, error, what", [
    ({"config": {}}, CorruptCheckpointError, r"is not a zoo config: expected the keys 'family' and 'config'"),
    ({"family": "gptx", "config": {}}, ConfigError, "no model family 'gptx' is registered"),
    ({"family": "gpt", "config": [1]}, ConfigError, "the gpt config is a list; expected a JSON object")])
def test_a_config_json_that_is_not_a_zoo_config_names_the_file(tmp_path, content, error, what):
    directory, _ = saved(tmp_path)
    (directory / "config.json").write_text(json.dumps(content))
    with pytest.raises(error, match=rf"^'{directory / 'config.json'}':? {what}"):
        zoo.load_pretrained(directory)


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


# ----------------------------------------------------------------------------- a field of the wrong type

def _first_preset(family):
    return next(name for name in zoo.list_models() if zoo.model_info(name)["family"] == family)


@pytest.mark.parametrize("family", list_families())
def test_every_family_names_a_field_of_the_wrong_type(family):
    """One check, driven by the dataclass field types, for every family's config (nested ones included)."""
    values = zoo.model_info(_first_preset(family))["config"]
    cls = type(config_from_dict(family, values)).__name__
    for field, value in values.items():
        wrong = 3 if isinstance(value, str) else "2"
        with pytest.raises(ConfigError, match=rf"^{cls}\.{field}=.* \((int|str)\): expected "):
            config_from_dict(family, {**values, field: wrong})


@pytest.mark.parametrize("field, value, expected", [
    ("depth", "1", r"GPTConfig\.depth='1' \(str\): expected int$"),
    ("dim", 64.5, r"GPTConfig\.dim=64\.5 \(float\): expected int$"),
    ("depth", True, r"GPTConfig\.depth=True \(bool\): expected int$"),
    ("tie_embeddings", 1, r"GPTConfig\.tie_embeddings=1 \(int\): expected bool$"),
    ("norm_eps", "1e-5", r"GPTConfig\.norm_eps='1e-5' \(str\): expected float$"),
    ("act", None, r"GPTConfig\.act=None \(NoneType\): expected str$")])
def test_saved_config_of_the_wrong_type_names_file_field_value_and_type(tmp_path, field, value, expected):
    directory, config = saved(tmp_path)
    config["config"][field] = value
    (directory / "config.json").write_text(json.dumps(config))
    with pytest.raises(ConfigError, match=rf"^'{directory / 'config.json'}': {expected}"):
        zoo.load_pretrained(directory)


def test_wrong_types_in_nested_configs_overrides_and_converted_configs(tmp_path):
    directory, config = saved(tmp_path, "llava_tiny")
    config["config"]["text"]["dim"] = 12.5
    (directory / "config.json").write_text(json.dumps(config))
    with pytest.raises(ConfigError, match=r"LlavaConfig\.text\.dim=12\.5 \(float\): expected int$"):
        zoo.load_pretrained(directory)
    with pytest.raises(ConfigError, match=r"^WhisperConfig\.alignment_heads=\[\['a', 1\]\] \(list\): expected "
                                          r"tuple\[tuple\[int, int\], \.\.\.\]$"):
        zoo.create_model("whisper_tiny", alignment_heads=[["a", 1]])
    with pytest.raises(ConfigError, match=r"^GPTConfig\.depth='2' \(str\): expected int$"):
        zoo.create_model("gpt_tiny", depth="2")
    hf = hf_gpt2_directory(tmp_path / "hf", n_embd=32.0)
    with pytest.raises(ConfigError, match=rf"^{hf}: GPTConfig\.dim=32\.0 \(float\): expected int$"):
        zoo.from_hf(hf)
    assert zoo.create_model("gpt_tiny", depth=1, norm_eps=1).config.norm_eps == 1  # an int is a float, as in JSON


# ----------------------------------------------------------------------------- a missing field

def test_saved_config_missing_an_architecture_field_names_it(tmp_path):
    directory, config = saved(tmp_path)
    del config["config"]["dim"], config["config"]["num_heads"]
    (directory / "config.json").write_text(json.dumps(config))
    with pytest.raises(ConfigError, match=r"config\.json': GPTConfig is missing field\(s\) \['dim', 'num_heads'\]"):
        zoo.load_pretrained(directory)
    directory, config = saved(tmp_path, "llava_tiny")
    del config["config"]["vision"]["patch_size"]
    (directory / "config.json").write_text(json.dumps(config))
    with pytest.raises(ConfigError, match=r"LlavaConfig\.vision is missing field\(s\) \['patch_size'\]"):
        load_directory(directory)


def test_fields_added_later_with_their_old_behaviour_may_be_missing(tmp_path):
    """A Whisper saved before alignment_heads existed loads with none, as it did then."""
    directory, config = saved(tmp_path, "whisper_tiny", text_depth=1, audio_depth=1, alignment_heads=((0, 1),))
    del config["config"]["alignment_heads"]
    (directory / "config.json").write_text(json.dumps(config))
    assert zoo.load_pretrained(directory).config.alignment_heads == ()


# ----------------------------------------------------------------------------- an HF config without a needed field

def test_hf_config_without_a_field_the_converter_needs_names_file_field_and_model_type(tmp_path):
    hf = hf_gpt2_directory(tmp_path / "gpt2", n_embd=None)
    with pytest.raises(UnsupportedConfigError, match=rf"^'{hf / 'config.json'}': the gpt2 config has no 'n_embd', "
                                                     "which converting it needs$"):
        zoo.from_hf(hf)
    llava = transformers.LlavaConfig(
        vision_config=transformers.CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                                                    num_attention_heads=2, image_size=32, patch_size=8),
        text_config=transformers.LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64,
                                             num_hidden_layers=1, num_attention_heads=2)).to_dict()
    del llava["text_config"]["intermediate_size"]
    (tmp_path / "llava").mkdir()
    (tmp_path / "llava" / "config.json").write_text(json.dumps(llava))
    save_file({"lm_head.weight": torch.zeros(64, 32)}, tmp_path / "llava" / "model.safetensors")
    with pytest.raises(UnsupportedConfigError, match=r"the llava config has no 'text_config\.intermediate_size'"):
        zoo.from_hf(tmp_path / "llava")


# ----------------------------------------------------------------------------- depth counts toward the size guard

@pytest.mark.parametrize("name, overrides", [("gpt_tiny", {"depth": 10**6}),
                                             ("whisper_micro", {"text_depth": 10**6, "alignment_heads": ((3, 0),)}),
                                             ("llava_tiny", {"text": {"depth": 10**6}})])
def test_a_config_deep_enough_to_need_terabytes_is_refused_at_once(tmp_path, name, overrides):
    """Dims that pass the guard alone, and a million blocks: refused from a count, before anything is built."""
    directory, config = saved(tmp_path, name)
    for field, value in overrides.items():
        config["config"][field] = {**config["config"][field], **value} if isinstance(value, dict) else value
    (directory / "config.json").write_text(json.dumps(config))
    start = time.perf_counter()
    with pytest.raises(ModelTooLargeError, match=r"asks for a model of [\d,.]+ GiB .* nothing was allocated"):
        zoo.load_pretrained(directory)
    assert time.perf_counter() - start < 0.5


def test_the_size_guard_counts_every_preset_exactly(monkeypatch):
    """The count from a few blocks equals the model's bytes on the meta device, for every preset."""
    monkeypatch.setattr(registry, "EXACT_BLOCKS", 0)  # count every preset from its probes
    for name in zoo.list_models():
        config = registry._preset(name)
        with torch.device("meta"):
            exact = model_bytes(zoo.create_model(name))
        assert registry.estimated_bytes(config) == exact, name
