"""Converters: the ONLY place that knows foreign parameter names.

`from_hf(obj)` takes a transformers model instance or a local HF-format
directory (config.json + model.safetensors, sharded safetensors, or
pytorch_model.bin) and returns our model with the same weights.
`from_timm(model)` takes a timm VisionTransformer instance.
`from_whisper(obj)` takes an openai-whisper model, its checkpoint dict or its .pt file.
`from_ct2(path)` takes a CTranslate2 (faster-whisper) Whisper directory; `from_gguf(path)` a llama.cpp GGUF file
(LLaMA family).
`load_directory(path)` takes our save_pretrained directory, an HF one or a CTranslate2 one.
"""
from __future__ import annotations

import typing
from pathlib import Path

from torch import nn

from zoo.convert.ct2_whisper import from_ct2
from zoo.convert.gguf import from_gguf
from zoo.convert.hf import CONVERTERS, from_hf
from zoo.convert.openai_whisper import from_whisper
from zoo.convert.timm_vit import from_timm
from zoo.io import read_json
from zoo.pretrained import CONFIG_NAME, load_pretrained

__all__ = ["directory_family", "from_ct2", "from_gguf", "from_hf", "from_timm", "from_whisper", "load_directory"]


def load_directory(directory: str | Path) -> nn.Module:
    """Our save_pretrained directory, an HF one (config.json decides) or a CTranslate2 one (model.bin): what every
    script's --init and --model take."""
    if (Path(directory) / "model.bin").is_file():
        return from_ct2(directory)
    config_path = Path(directory) / CONFIG_NAME
    if not config_path.is_file():
        raise FileNotFoundError(f"{str(config_path)!r} not found: expected a save_pretrained, HF or CTranslate2 "
                                "model directory")
    if "family" in read_json(config_path):
        return load_pretrained(directory)
    return from_hf(directory)


def directory_family(directory: str | Path) -> str | None:
    """The family of the model load_directory would load from `directory`, read from its config.json alone (ours
    records it; an HF one's model_type names the converter, whose config class carries it); a CTranslate2 directory
    holds a Whisper. None where the directory says nothing we know."""
    if (Path(directory) / "model.bin").is_file():
        return "whisper"
    config_path = Path(directory) / CONFIG_NAME
    if not config_path.is_file():
        return None
    config = read_json(config_path)
    if "family" in config:
        return config["family"]
    converter = CONVERTERS.get(config.get("model_type"))
    return None if converter is None else typing.get_type_hints(converter.config_from_hf)["return"].family
