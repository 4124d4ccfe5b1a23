"""Read HF checkpoints (instances or directories) and dispatch on `model_type`."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from torch import nn

from zoo.convert import hf_ast, hf_bert, hf_clip, hf_gpt2, hf_llama, hf_llava, hf_marian, hf_vit, hf_whisper
from zoo.convert.common import HFConfig, UnsupportedConfigError, build_converted
from zoo.io import CorruptCheckpointError, load_torch_checkpoint, read_json
from zoo.pretrained import check_tokenizer, read_safetensors
from zoo.sentence_pooling import attach_sentence_pooling


def _read_directory(directory: Path) -> tuple[dict[str, Any], dict[str, torch.Tensor]]:
    config_path = directory / "config.json"
    if not config_path.is_file():
        raise FileNotFoundError(f"{str(directory)!r} is not an HF model directory: no config.json")
    cfg = read_json(config_path)
    if (directory / "model.safetensors").is_file():
        return cfg, read_safetensors(directory / "model.safetensors")[0]
    index = directory / "model.safetensors.index.json"
    if index.is_file():
        state = {}
        for shard in _shards(index):
            state.update(read_safetensors(directory / shard)[0])
        return cfg, state
    if (directory / "pytorch_model.bin").is_file():
        return cfg, load_torch_checkpoint(directory / "pytorch_model.bin")
    raise FileNotFoundError(f"{str(directory)!r} has no weights: expected model.safetensors, "
                            "model.safetensors.index.json or pytorch_model.bin")


def _shards(index: Path) -> list[str]:
    """The shard files a model.safetensors.index.json names (its weight_map: tensor name -> file), each present."""
    weight_map = read_json(index).get("weight_map")
    if not isinstance(weight_map, dict) or not all(isinstance(f, str) for f in weight_map.values()):
        raise CorruptCheckpointError(f"{str(index)!r} has no \"weight_map\" of tensor names to shard files "
                                     f"(got {type(weight_map).__name__}): expected a safetensors index")
    shards = sorted(set(weight_map.values()))
    for shard in shards:
        if not (index.parent / shard).is_file():
            raise FileNotFoundError(f"{str(index)!r} names the shard {shard!r}, which is not in {str(index.parent)!r}")
    return shards


# The token ids an HF config names, which a tokenizer loaded with the model must have.
HF_TOKEN_IDS = ("bos_token_id", "eos_token_id", "pad_token_id", "decoder_start_token_id")

# HF model_type -> module with config_from_hf(cfg, state) -> our config and
# convert_state_dict(state, our config, source) -> our state dict.
CONVERTERS = {"gpt2": hf_gpt2, "llama": hf_llama, "bert": hf_bert, "vit": hf_vit, "whisper": hf_whisper,
              "audio-spectrogram-transformer": hf_ast, "clip_vision_model": hf_clip, "clip": hf_clip,
              "llava": hf_llava, "marian": hf_marian}


def from_hf(obj: Any) -> nn.Module:
    """A transformers model instance, or a path to an HF-format directory -> our model, same weights."""
    if isinstance(obj, (str, Path)):
        cfg, state = _read_directory(Path(obj))
        source, config_source = str(obj), repr(str(Path(obj) / "config.json"))
    elif isinstance(obj, nn.Module) and hasattr(obj, "config"):
        cfg, state = obj.config.to_dict(), dict(obj.state_dict())
        source = config_source = type(obj).__name__
    else:
        raise TypeError(f"from_hf takes a transformers model or an HF directory path, got {type(obj).__name__}")
    cfg = HFConfig(cfg, config_source)
    model_type = cfg.get("model_type")
    if model_type not in CONVERTERS:
        raise UnsupportedConfigError(f"{source}: model_type {model_type!r} is not supported by from_hf; "
                                     f"supported: {sorted(CONVERTERS)}")
    converter = CONVERTERS[model_type]
    config = converter.config_from_hf(cfg, state)
    model = build_converted(config, converter.convert_state_dict(state, config, source), source)
    attach = getattr(converter, "attach_extras", None)  # families whose models carry more (Whisper: tokenizer)
    if attach is not None:
        model = attach(model, obj)
        _check_tokenizer(model, obj, cfg, config_source)
    if isinstance(obj, (str, Path)):  # a sentence-transformers directory: its pooling travels with the model
        model = attach_sentence_pooling(model, obj)
    return model


def _check_tokenizer(model: nn.Module, obj: Any, cfg: dict[str, Any], config_source: str) -> None:
    """The tokenizer a converter attached (Whisper's: a directory's tokenizer.json, else openai-whisper's for the
    vocabulary size) against the model's vocabulary and the token ids the HF config names."""
    tokenizer = getattr(model, "tokenizer", None)
    if tokenizer is None:
        return
    name = getattr(type(model), "tokenizer_file", "tokenizer.json")
    path = Path(obj) / name if isinstance(obj, (str, Path)) else None
    source = repr(str(path)) if path is not None and path.is_file() else "openai-whisper's tokenizer"
    check_tokenizer(tokenizer, model.vocab_size, source, config_source,
                    {key: cfg[key] for key in HF_TOKEN_IDS if isinstance(cfg.get(key), int)})
