"""save_pretrained / load_pretrained: a directory with config.json + model.safetensors.

config.json holds the family name and the frozen architecture config, so
`load_pretrained` rebuilds the model without knowing the preset, and a quantised model's record
(zoo.quantize: `quantization_config`), so its integer layers come back as they were saved. Tied weights
(LM head = token embedding) share memory, which safetensors refuses to save:
we store each shared tensor once and record the aliases in the file's
metadata, then re-tie on load. Files are written atomically. A model that carries its tokenizer
(`model.tokenizer`: a Whisper trained with its own vocabulary, a Marian's SentencePiece models) has it saved
beside (tokenizer.json; source.spm, target.spm and vocab.json) and re-attached on load; one that carries a
sentence-transformers checkpoint's pooling (`model.sentence_pooling`, zoo.sentence_pooling) has it saved in
sentence-transformers' files (modules.json, 1_Pooling/) and re-attached on load.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save
from torch import nn

from backbones.transformer import set_grad_checkpointing
from data.whisper_tokenizer import WhisperTokenizer
from zoo.io import (
    CorruptCheckpointError,
    TokenizerMismatchError,
    atomic_write,
    atomic_write_text,
    check_state_dict,
    load_into_empty,
    parameters_on_meta,
    read_json,
    shared_names,
)
from zoo.quantize import apply_quantization_config, prepare_kernels, quantization_config
from zoo.registry import build_model, config_from_dict
from zoo.sentence_pooling import attach_sentence_pooling, write_sentence_pooling

CONFIG_NAME = "config.json"
WEIGHTS_NAME = "model.safetensors"
TOKENIZER_NAME = "tokenizer.json"


class ZooModel(nn.Module):
    """Base of every registered model: adds `save_pretrained` to nn.Module."""

    def save_pretrained(self, directory: str | Path) -> Path:
        return save_pretrained(self, directory)

    def set_grad_checkpointing(self, enable: bool = True) -> ZooModel:
        """Activation checkpointing for every Transformer stack in the model (timm's method name): in
        training, each block keeps only its input and recomputes its activations during backward, trading
        about one more forward for the activation memory. Returns the model."""
        set_grad_checkpointing(self, enable)
        return self

    def tied_parameters(self) -> dict[str, str]:
        """{alias: name} for parameters that are one tensor (e.g. LM head = token embedding)."""
        return shared_names(self)


class ClassifierModel(ZooModel):
    """A ZooModel whose `head` is a heads.classification.ClassifierHead and whose config has num_classes
    (ViT, AST)."""

    def reset_head(self, num_classes: int) -> None:
        """A new classifier for num_classes (0: pooled features); pooling, norm and pre-logits are kept."""
        self.head.reset(num_classes)
        self.config = dataclasses.replace(self.config, num_classes=num_classes)


def _dedupe_shared(state: dict[str, torch.Tensor]) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    kept: dict[tuple, str] = {}
    unique, aliases = {}, {}
    for name, tensor in state.items():
        key = (tensor.untyped_storage().data_ptr(), tensor.storage_offset(), tuple(tensor.shape))
        if key in kept:
            aliases[name] = kept[key]
        else:
            kept[key] = name
            unique[name] = tensor.detach().contiguous()
    return unique, aliases


def save_pretrained(model: nn.Module, directory: str | Path) -> Path:
    config = model.config
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    unique, aliases = _dedupe_shared(model.state_dict())
    blob = save({k: v.cpu() for k, v in unique.items()}, metadata={"format": "pt", "aliases": json.dumps(aliases)})
    atomic_write(directory / WEIGHTS_NAME, lambda f: f.write(blob))
    saved = {"family": config.family, "config": dataclasses.asdict(config)}
    quantization = quantization_config(model)
    if quantization is not None:
        saved["quantization_config"] = quantization
    atomic_write_text(directory / CONFIG_NAME, json.dumps(saved, indent=2) + "\n")
    if getattr(model, "tokenizer", None) is not None:
        model.tokenizer.save(directory)
    if getattr(model, "sentence_pooling", None) is not None:  # a sentence-transformers checkpoint's pooling
        write_sentence_pooling(model.sentence_pooling, directory)
    return directory


def read_safetensors(path: Path) -> tuple[dict[str, torch.Tensor], dict[str, str]]:
    """Load tensors and metadata; a truncated or garbage file becomes a clear error naming it."""
    try:
        from safetensors import safe_open

        with safe_open(str(path), framework="pt") as f:
            metadata = f.metadata() or {}
        return load_file(str(path)), metadata
    except (SafetensorError, OSError, ValueError) as error:
        size = path.stat().st_size if path.exists() else 0
        raise CorruptCheckpointError(f"cannot read weights file {str(path)!r} ({size} bytes): {error}. "
                                     "It is truncated or not a safetensors file.") from error


def build_loaded(config: Any, state: Mapping[str, torch.Tensor], source: str | Path,
                 quantization: dict[str, Any] | None = None, config_source: str | None = None,
                 take: bool = False) -> nn.Module:
    """Our model for `config` holding `state`'s tensors, built without making or initialising weights first
    (zoo.io.parameters_on_meta, load_into_empty): a quantised model never exists in float32, and with `take` (the
    tensors were read from a file for this call) the model holds them rather than copies, so loading takes the
    memory of the checkpoint once. Tied aliases absent from `state` (LM head = token embedding) are filled from
    the tensor they share; then every missing, unexpected, reshaped or retyped tensor is listed
    (CheckpointMismatchError) before anything loads. `quantization` (zoo.quantize's record: scheme, group_size,
    modules): those layers are quantised ones, whose integers and scales `state` holds. `source` names the weights
    in errors, `config_source` the config (default: `source`)."""
    config_source = config_source or str(source)
    with parameters_on_meta():
        model = build_model(config, config_source)
        if quantization is not None:
            apply_quantization_config(model, quantization, config_source)
    state = dict(state)
    for alias, name in shared_names(model).items():
        if alias not in state and name in state:
            state[alias] = state[name]
    check_state_dict(model, state, source)
    load_into_empty(model, state, source, take)
    if quantization is not None:
        prepare_kernels(model)
    return model


def load_pretrained(directory: str | Path, map_location: str | torch.device = "cpu") -> nn.Module:
    directory = Path(directory)
    config_path, weights_path = directory / CONFIG_NAME, directory / WEIGHTS_NAME
    for path in (config_path, weights_path):
        if not path.is_file():
            raise FileNotFoundError(f"{str(path)!r} not found: load_pretrained expects a directory with "
                                    f"{CONFIG_NAME} and {WEIGHTS_NAME} (written by save_pretrained)")
    saved = read_json(config_path)
    if not {"family", "config"} <= set(saved):
        raise CorruptCheckpointError(f"{str(config_path)!r} is not a zoo config: expected the keys 'family' and "
                                     f"'config' (save_pretrained writes them), found {sorted(saved)}")
    config = config_from_dict(saved["family"], saved["config"], repr(str(config_path)))
    state, metadata = read_safetensors(weights_path)
    for alias, name in json.loads(metadata.get("aliases", "{}")).items():
        if name in state:
            state[alias] = state[name]
    model = build_loaded(config, state, weights_path, saved.get("quantization_config"), repr(str(config_path)),
                         take=True)
    load_tokenizer = getattr(type(model), "load_tokenizer", None)  # families whose models carry one (Whisper)
    tokenizer_file = directory / getattr(type(model), "tokenizer_file", TOKENIZER_NAME)
    if load_tokenizer is not None and tokenizer_file.is_file():
        model.tokenizer = load_tokenizer(directory)
        check_tokenizer(model.tokenizer, model.vocab_size, repr(str(tokenizer_file)), repr(str(weights_path)))
    return attach_sentence_pooling(model, directory).to(map_location)


def check_tokenizer(tokenizer: Any, vocab_size: int, tokenizer_source: str, model_source: str,
                    token_ids: Mapping[str, int] | None = None) -> None:
    """Refuse a tokenizer loaded with a model (of `vocab_size` token embeddings) from another vocabulary, naming
    both: more tokens than the model has rows (a model's table may be padded past its tokenizer's, not the
    reverse), a token id the model's config names (`token_ids`: eos_token_id, ...) that the tokenizer lacks, or
    a Whisper vocabulary of another size than the model's. Whisper's size decides where its special tokens sit
    (51864 English-only, 51865 multilingual, 51866 with large-v3's 100 languages; timestamps last), so a table
    of another size was trained with them elsewhere."""
    size = tokenizer.vocab_size
    whisper = isinstance(tokenizer, WhisperTokenizer)
    if size > vocab_size or (whisper and size != vocab_size):
        raise TokenizerMismatchError(
            f"{tokenizer_source} has {size} tokens but {model_source} has {vocab_size} token embeddings: the "
            f"tokenizer is of another vocabulary; expected {'exactly' if whisper else 'at most'} {vocab_size}")
    outside = {name: i for name, i in (token_ids or {}).items() if not 0 <= i < size}
    if outside:
        raise TokenizerMismatchError(f"{model_source} names token id(s) {outside} that {tokenizer_source} ({size} "
                                     "tokens) does not have: the tokenizer is of another vocabulary")
