"""What a checkpoint holds must be what the model is: a tensor of another kind (int64 where float is expected) is
refused, float16/bfloat16 stores still load as the references load them; a pickle that would run code is refused
saying so; a tokenizer loaded with a model must fit its vocabulary."""
from __future__ import annotations

import json

import pytest
import torch
from safetensors.torch import load_file, save_file

import zoo
from zoo.convert import load_directory
from zoo.io import (
    CheckpointMismatchError,
    CorruptCheckpointError,
    TokenizerMismatchError,
    UnsafeCheckpointError,
    load_torch_checkpoint,
)


def saved(tmp_path, name="gpt_tiny", **overrides):
    return zoo.create_model(name, **overrides).save_pretrained(tmp_path / name)


# ----------------------------------------------------------------------------- stored dtypes

def restore(directory, change):
    """Rewrite the directory's model.safetensors with `change(name, tensor)` applied to every tensor."""
    path = directory / "model.safetensors"
    from safetensors import safe_open

    with safe_open(str(path), framework="pt") as f:
        metadata = f.metadata()
    save_file({k: change(k, v) for k, v in load_file(path).items()}, path, metadata=metadata)


@pytest.mark.parametrize("dtype, kind", [(torch.int64, "integer"), (torch.bool, "bool")])
def test_a_stored_tensor_of_another_kind_is_refused(tmp_path, dtype, kind):
    directory = saved(tmp_path, depth=1)
    restore(directory, lambda k, v: v.to(dtype) if k == "transformer.blocks.0.attn.q_proj.weight" else v)
    with pytest.raises(CheckpointMismatchError, match=rf"(?s)of another kind \(1\):\n\s+transformer\.blocks\.0\.attn"
                                                      rf"\.q_proj\.weight: checkpoint {str(dtype)[6:]} \({kind}\) "
                                                      r"vs model float32 \(floating-point\)"):
        zoo.load_pretrained(directory)


def test_an_hf_checkpoint_of_integers_is_refused(tmp_path):
    transformers = pytest.importorskip("transformers")
    hf = transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=64, n_positions=16, n_embd=32, n_layer=1,
                                                              n_head=2))
    hf.save_pretrained(tmp_path / "hf")
    path = tmp_path / "hf" / "model.safetensors"
    save_file({k: (v * 100).long() if k.endswith("wte.weight") else v for k, v in load_file(path).items()}, path,
              metadata={"format": "pt"})
    with pytest.raises(CheckpointMismatchError, match=r"embed\.tokens\.weight: checkpoint int64 \(integer\) vs model "
                                                      r"float32 \(floating-point\)"):
        zoo.from_hf(tmp_path / "hf")


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_float_stores_of_another_width_still_load_rounded(tmp_path, dtype):
    """Real checkpoints are stored through float16: loaded into float32 as load_state_dict casts them."""
    model = zoo.create_model("gpt_tiny", depth=1)
    directory = model.save_pretrained(tmp_path / "m")
    restore(directory, lambda k, v: v.to(dtype))
    loaded = zoo.load_pretrained(directory)
    for (name, ours), theirs in zip(loaded.state_dict().items(), model.state_dict().values()):
        assert ours.dtype == torch.float32, name
        assert torch.equal(ours, theirs.to(dtype).float()), name


# ----------------------------------------------------------------------------- a pickle that would run code

class Payload:
    """Unpickling this opens (creates) `marker`: what a malicious checkpoint would do."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return open, (self.marker, "w")


@pytest.mark.parametrize("payload", ["function", "class"])
def test_a_pickle_that_would_run_code_is_refused_saying_so(tmp_path, payload):
    marker, path = tmp_path / "pwned", tmp_path / "checkpoint.pt"
    torch.save({"w": torch.zeros(2), "payload": Payload(marker) if payload == "function" else Payload}, path)
    with pytest.raises(UnsafeCheckpointError) as error:
        load_torch_checkpoint(path)
    message = str(error.value)
    assert f"'{path}'" in message and "would run code from the file" in message, message
    assert ("io.open" if payload == "function" else "Payload") in message, message
    assert "weights_only=False" not in message and "safe_globals" not in message and "\n" not in message, message
    assert not marker.exists() and path.exists()
    assert isinstance(error.value, CorruptCheckpointError)  # what callers already catch


# ----------------------------------------------------------------------------- a tokenizer of another vocabulary

@pytest.fixture(scope="module")
def multilingual_micro():
    """A small Whisper with the multilingual vocabulary (51865 rows) and openai-whisper's tokenizer for it."""
    from data.whisper_tokenizer import load_whisper_tokenizer

    model = zoo.create_model("whisper_micro", vocab_size=51865, audio_depth=1, text_depth=1)
    model.tokenizer = load_whisper_tokenizer()
    return model


def test_a_saved_whisper_with_a_tokenizer_of_another_vocabulary_is_refused(tmp_path, multilingual_micro):
    from data.whisper_tokenizer import load_whisper_tokenizer

    assert zoo.load_pretrained(multilingual_micro.save_pretrained(tmp_path / "same")).tokenizer.multilingual
    directory = multilingual_micro.save_pretrained(tmp_path / "english")
    load_whisper_tokenizer(multilingual=False).save(directory)  # 51864 tokens: every special id one lower
    with pytest.raises(TokenizerMismatchError, match=rf"^'{directory / 'tokenizer.json'}' has 51864 tokens but "
                                                     rf"'{directory / 'model.safetensors'}' has 51865 token "
                                                     r"embeddings: .* expected exactly 51865"):
        load_directory(directory)


def test_an_hf_whisper_with_a_tokenizer_or_token_ids_of_another_vocabulary_is_refused(tmp_path, multilingual_micro):
    pytest.importorskip("transformers")
    from data.whisper_tokenizer import load_whisper_tokenizer
    from zoo.convert.hf_whisper import save_transformers

    directory = save_transformers(multilingual_micro, tmp_path / "hf")
    config = json.loads((directory / "config.json").read_text())
    assert zoo.from_hf(directory).tokenizer.multilingual
    (directory / "config.json").write_text(json.dumps({**config, "eos_token_id": 51865}))
    with pytest.raises(TokenizerMismatchError, match=r"config\.json' names token id\(s\) {'eos_token_id': 51865} "
                                                     r"that .*tokenizer\.json' \(51865 tokens\) does not have"):
        zoo.from_hf(directory)
    (directory / "config.json").write_text(json.dumps(config))
    load_whisper_tokenizer(multilingual=False).save(directory)
    with pytest.raises(TokenizerMismatchError, match=r"tokenizer\.json' has 51864 tokens but .* has 51865 token"):
        load_directory(directory)
