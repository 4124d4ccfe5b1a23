"""openai-whisper `Whisper` models and checkpoints -> zoo.whisper.Whisper.

openai-whisper's checkpoints (the .pt files `whisper.load_model` downloads) are
`{"dims": ModelDimensions as a dict, "model_state_dict": {...}}`, usually in
fp16; its `Whisper.state_dict()` has the same keys. The encoder's
`positional_embedding` is a saved buffer holding the sinusoid table, loaded as
stored (an fp16 file holds it rounded). The model
carries its tokenizer (`model.tokenizer`, what transcription decodes with):
openai-whisper's for the vocabulary size, as its `get_tokenizer`. Also the
helper the HF converter shares: stacks of blocks named per side.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import torch
from torch import nn

from zoo.convert.common import KeyMap, UnsupportedConfigError, build_converted, export_state_dict, rename_all
from zoo.generation.whisper_decode import WHISPER_VOCAB_SIZES, tokenizer_for_vocab
from zoo.io import load_torch_checkpoint
from zoo.whisper import Whisper, WhisperConfig

DIMS = ("n_mels", "n_audio_ctx", "n_audio_state", "n_audio_head", "n_audio_layer", "n_vocab", "n_text_ctx",
        "n_text_state", "n_text_head", "n_text_layer")


def stacks_key_map(top: dict[str, str | None], stacks: dict[str, str], block: dict[str, str],
                   prefix: str = "") -> KeyMap:
    """common.key_map for an encoder-decoder: `stacks` maps each foreign per-layer prefix regex to our stack
    (e.g. r"encoder\\.blocks" -> "encoder"), whose blocks are renamed through `block`."""
    return KeyMap(top, stacks, block, prefix)


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
                         text_depth=dims["n_text_layer"], audio_mlp_hidden=4 * dim, text_mlp_hidden=4 * dim,
                         alignment_heads=dims.get("alignment_heads", ()))


_TOP = {"encoder.conv1.weight": "audio_embed.conv1.weight", "encoder.conv1.bias": "audio_embed.conv1.bias",
        "encoder.conv2.weight": "audio_embed.conv2.weight", "encoder.conv2.bias": "audio_embed.conv2.bias",
        "encoder.positional_embedding": "audio_embed.positions",  # loaded as stored, as openai-whisper does
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
    return rename_all(state, _RENAME, source)


def openai_state_dict(model: nn.Module, openai_keys: Any) -> dict[str, torch.Tensor]:
    """Our Whisper's tensors under openai-whisper's names (for each of `openai_keys`, a Whisper's state-dict
    keys): the inverse of from_whisper."""
    return export_state_dict(model, openai_keys, _RENAME)


def _read(obj: Any) -> tuple[dict[str, Any], dict[str, torch.Tensor], str]:
    """(dims, state dict, source name) from a model instance, a checkpoint dict or a .pt path."""
    if isinstance(obj, (str, Path)):
        source, obj = str(obj), load_torch_checkpoint(obj)
    else:
        source = type(obj).__name__
    if isinstance(obj, nn.Module) and hasattr(obj, "dims"):
        dims = obj.dims if isinstance(obj.dims, dict) else dataclasses.asdict(obj.dims)
        heads = getattr(obj, "alignment_heads", None)  # a sparse (layer, head) mask: set_alignment_heads's
        if heads is not None:
            dims = {**dims, "alignment_heads": heads.to_dense().nonzero().tolist()}
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
