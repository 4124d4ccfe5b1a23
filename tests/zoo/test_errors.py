"""Bad input gets a clear error naming what was wrong and what was expected."""
import json

import pytest
import torch
import transformers

import zoo
from zoo.convert.common import UnsupportedConfigError
from zoo.io import CheckpointMismatchError, CorruptCheckpointError


def test_token_id_outside_vocabulary():
    model = zoo.create_model("gpt_tiny")
    with pytest.raises(ValueError, match=r"input_ids must lie in \[0, 4096\).*4096"):
        model(torch.tensor([[1, 2, 4096]]))
    with pytest.raises(ValueError, match=r"\[-1, 2\]"):
        zoo.create_model("bert_tiny")(torch.tensor([[1, 2, -1]]))


def test_sequence_longer_than_positions():
    with pytest.raises(ValueError, match=r"input_ids is too long: 257 tokens .* but the model has 256 positions; "
                                         "expected at most 256 tokens"):
        zoo.create_model("gpt_tiny")(torch.zeros(1, 257, dtype=torch.long))
    with pytest.raises(ValueError, match="256 positions"):
        zoo.create_model("llama_tiny")(torch.zeros(1, 257, dtype=torch.long))
    model = zoo.create_model("gpt_tiny").eval()
    model.setup_cache(1, 256)
    with pytest.raises(ValueError, match="3 tokens after 254 cached .* expected at most 2 tokens"):
        model(torch.zeros(1, 3, dtype=torch.long), input_pos=254)
    with pytest.raises(ValueError, match=r"input_ids is too long: 600 tokens .* but the model has 512 positions"):
        zoo.create_model("bert_tiny")(torch.zeros(1, 600, dtype=torch.long))


def test_unsupported_hf_configs():
    cfg = transformers.BertConfig(vocab_size=50, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                  num_attention_heads=2, position_embedding_type="relative_key")
    with pytest.raises(UnsupportedConfigError, match="position_embedding_type='relative_key'"):
        zoo.from_hf(transformers.BertForMaskedLM(cfg))
    cfg = transformers.LlamaConfig(vocab_size=50, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                                   num_attention_heads=2, rope_scaling={"rope_type": "linear", "factor": 2.0})
    with pytest.raises(UnsupportedConfigError, match="RoPE scaling 'linear'"):
        zoo.from_hf(transformers.LlamaForCausalLM(cfg))
    cfg = transformers.T5Config(vocab_size=50, d_model=16, d_ff=32, num_layers=1, num_heads=2)
    with pytest.raises(UnsupportedConfigError, match="model_type 't5' is not supported"):
        zoo.from_hf(transformers.T5ForConditionalGeneration(cfg))
    with pytest.raises(TypeError, match="transformers model or an HF directory"):
        zoo.from_hf(42)


def test_checkpoint_with_missing_or_misshaped_keys(tmp_path):
    zoo.create_model("gpt_tiny").save_pretrained(tmp_path)
    config = json.loads((tmp_path / "config.json").read_text())
    config["config"]["dim"] = 64  # now every weight has the wrong shape
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(CheckpointMismatchError) as err:
        zoo.load_pretrained(tmp_path)
    assert "embed.tokens.weight: checkpoint (4096, 128) vs model (4096, 64)" in str(err.value)
    config["config"].update(dim=128, depth=5)  # one block more than saved
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(CheckpointMismatchError, match=r"(?s)missing in checkpoint.*transformer\.blocks\.4"):
        zoo.load_pretrained(tmp_path)


def test_truncated_weights_file(tmp_path):
    zoo.create_model("llama_tiny").save_pretrained(tmp_path)
    weights = tmp_path / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:1000])
    with pytest.raises(CorruptCheckpointError, match="model.safetensors.*truncated"):
        zoo.load_pretrained(tmp_path)
    assert weights.exists()  # nothing already saved is deleted


def test_missing_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="config.json"):
        zoo.load_pretrained(tmp_path)
    with pytest.raises(FileNotFoundError, match="no config.json"):
        zoo.from_hf(tmp_path)
