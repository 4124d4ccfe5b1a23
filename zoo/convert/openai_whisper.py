"""openai-whisper `Whisper` models and checkpoints -> zoo.whisper.Whisper.

openai-whisper's checkpoints (the .pt files `whisper.load_model` downloads) are
`{"dims": ModelDimensions as a dict, "model_state_dict": {...}}`, usually in
fp16; its `Whisper.state_dict()` has the same keys. The encoder's
`positional_embedding` is a saved buffer holding the fixed sinusoid table: it
is checked against ours (backbones/frontends/audio.py) and dropped. The model
carries its tokenizer (`model.tokenizer`, what transcription decodes with):
openai-whisper's for the vocabulary size, as its `get_tokenizer`. Also the
helpers the HF converter shares: stacks of blocks named per side, the check of
the encoder's fixed positions.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Callable

import torch
from torch import nn

from backbones.positions import sinusoid_table
from zoo.convert.common import UnsupportedConfigError, block_key, build_converted, rename_all
from zoo.generation.whisper_decode import WHISPER_VOCAB_SIZES, tokenizer_for_vocab
from zoo.io import load_torch_checkpoint
from zoo.whisper import Whisper, WhisperConfig

DIMS = ("n_mels", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer", "n_vocab", "n_text_ctx",
        "n_text_state", "n_text_head", "n_text_layer")


def stacks_key_map(top: dict[str, str | None], stacks: dict[str, str], block: dict[str, str],
                   prefix: str = "") -> Callable[[str], str | None]:
    """common.key_map for an encoder-decoder: `stacks` maps each foreign per-layer prefix regex to our stack
    (e.g. r"encoder\\.blocks" -> "encoder"), whose blocks are renamed through `block`."""
    def rename(key: str) -> str | None:
        key = key.removeprefix(prefix)
        if key in top:
            return top[key]
        for layers, ours in stacks.items():
            if re.match(layers + r"\.\d+\.", key):
                return ours + block_key(key, layers, block).removeprefix("transformer")
        raise KeyError(key)
    return rename


def check_sinusoids(table: torch.Tensor, config: WhisperConfig, source: str, name: str) -> None:
    """The checkpoint's fixed encoder positions must be Whisper's sinusoids (ours are computed, not loaded)."""
    want = sinusoid_table(config.audio_ctx, config.dim, layout="halves")
    atol = max(1e-4, 4 * torch.finfo(table.dtype).eps)  # an fp16 checkpoint stores the table rounded
    if tuple(table.shape) != tuple(want.shape) or not torch.allclose(table.float().cpu(), want, atol=atol):
        diff = (table.float().cpu() - want).abs().max().item() if table.shape == want.shape else "shape"
        raise UnsupportedConfigError(
            f"{source}: {name} {tuple(table.shape)} is not Whisper's sinusoid table ({config.audio_ctx}, "
            f"{config.dim}) (max abs difference {diff}); the zoo computes the encoder positions, so only the "
            "fixed sinusoids are supported")


def config_from_dims(dims: dict[str, Any], source: str) -> WhisperConfig:
    missing = [name for name in DIMS if name not in dims]
    if missing:
        raise ValueError(f"{source}: dims lack {missing}; expected openai-whisper's ModelDimensions {list(DIMS)}")
    if dims["n_audio_state"] != dims["n_text_state"]:
        raise UnsupportedConfigError(f"{source}: n_audio_state={dims['n_audio_state']} differs from n_text_state="
                                     f"{dims['n_text_state']}; supported: one width (every Whisper release)")
    dim = dims["n_audio_state"]
    return WhisperConfig(n_mels=dims["n_mels"], audio_ctx=dims["n_audio_ctx"], text_ctx=dims["n_text_ctx"],
                         vocab_size=dims["n_vocab"], dim=dim, audio_heads=dims["n_audio_head"],
                         audio_depth=dims["n_audio_layer"], text_heads=dims["n_text_head"],
                         text_depth=dims["n_text_layer"], audio_mlp_hidden=4 * dim, text_mlp_hidden=4 * dim)


_TOP = {"encoder.conv1.weight": "audio_embed.conv1.weight", "encoder.conv1.bias": "audio_embed.conv1.bias",
        "encoder.conv2.weight": "audio_embed.conv2.weight", "encoder.conv2.bias": "audio_embed.conv2.bias",
        "encoder.positional_embedding": None,  # fixed sinusoids: checked, then computed by our stem
        "encoder.ln_post.weight": "encoder.norm.weight", "encoder.ln_post.bias": "encoder.norm.bias",
        "decoder.token_embedding.weight": "embed.tokens.weight",
        "decoder.positional_embedding": "embed.positions.weight",
        "decoder.ln.weight": "decoder.norm.weight", "decoder.ln.bias": "decoder.norm.bias"}
_BLOCK = {"attn.query": "attn.q_proj", "attn.key": "attn.k_proj", "attn.value": "attn.v_proj",
          "attn.out": "attn.o_proj", "attn_ln": "norm1",
          "cross_attn.query": "cross_attn.q_proj", "cross_attn.key": "cross_attn.k_proj",
          "cross_attn.value": "cross_attn.v_proj", "cross_attn.out": "cross_attn.o_proj",
          "cross_attn_ln": "norm_cross", "mlp.0": "ffn.fc1", "mlp.2": "ffn.fc2", "mlp_ln": "norm2"}
_RENAME = stacks_key_map(_TOP, {r"encoder\.blocks": "encoder", r"decoder\.blocks": "decoder"}, _BLOCK)


def convert_state_dict(state: dict[str, torch.Tensor], config: WhisperConfig, source: str) -> dict[str, torch.Tensor]:
    if "encoder.positional_embedding" in state:
        check_sinusoids(state["encoder.positional_embedding"], config, source, "encoder.positional_embedding")
    return rename_all(state, _RENAME, source)


def _read(obj: Any) -> tuple[dict[str, Any], dict[str, torch.Tensor], str]:
    """(dims, state dict, source name) from a model instance, a checkpoint dict or a .pt path."""
    if isinstance(obj, (str, Path)):
        source, obj = str(obj), load_torch_checkpoint(obj)
    else:
        source = type(obj).__name__
    if isinstance(obj, nn.Module) and hasattr(obj, "dims"):
        dims = obj.dims if isinstance(obj.dims, dict) else dataclasses.asdict(obj.dims)
        return dims, dict(obj.state_dict()), source
    if isinstance(obj, dict) and "dims" in obj and "model_state_dict" in obj:
        return dict(obj["dims"]), dict(obj["model_state_dict"]), source
    keys = sorted(obj)[:10] if isinstance(obj, dict) else None
    raise TypeError(f"from_whisper takes an openai-whisper Whisper model, its checkpoint dict "
                    f"{{'dims': ..., 'model_state_dict': ...}} or a path to one; got {source}"
                    + (f" with keys {keys}" if keys is not None else ""))


def from_whisper(obj: Any) -> Whisper:
    """An openai-whisper `Whisper` model, its checkpoint dict ({"dims", "model_state_dict"}) or a path to its .pt
    file (loaded with torch.load(weights_only=True)) -> our Whisper with the same weights, in eval mode, carrying
    openai-whisper's tokenizer for its vocabulary (`model.tokenizer`; None for a size no release has)."""
    dims, state, source = _read(obj)
    config = config_from_dims(dims, source)
    model = build_converted(config, convert_state_dict(state, config, source), source)
    # Multilingual from 51865, its languages from the size; none for a vocabulary that is not openai-whisper's.
    model.tokenizer = tokenizer_for_vocab(config.vocab_size) if config.vocab_size in WHISPER_VOCAB_SIZES else None
    return model
