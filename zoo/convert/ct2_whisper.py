"""CTranslate2 (faster-whisper) Whisper directories -> zoo.whisper.Whisper.

A faster-whisper model is a directory: `model.bin` (CTranslate2's WhisperSpec,
read by zoo/convert/ct2_file.py, float32 / float16 / bfloat16 / int8),
`config.json` (alignment_heads, lang_ids, suppress_ids, suppress_ids_begin:
we read the alignment heads; the ids are the tokenizer's, which decoding
derives as openai-whisper does) and usually `tokenizer.json` (faster-whisper fetches openai's tokenizer for
the vocabulary when it is absent; we use ours for the size). The sizes come
from the weights, as CTranslate2 reads them. CTranslate2's names, per layer:

    self_attention/{layer_norm, linear_0 = fused q|k|v, linear_1 = out}
    attention/{layer_norm, linear_0 = q, linear_1 = fused k|v, linear_2 = out}   (decoder: cross-attention)
    ffn/{layer_norm, linear_0 = fc1, linear_1 = fc2}

The converter writes zeros for the key bias Whisper lacks; a key bias only
adds a constant per query to the scores, which softmax ignores, so it is
dropped. Position tables are loaded as stored. `decoder/projection` aliases
the token embedding (the tied output).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import torch

from zoo.convert.common import UnsupportedConfigError, build_converted, rename_all
from zoo.convert.ct2_file import read_ct2_file
from zoo.convert.hf_whisper import tokenizer_for
from zoo.io import CorruptCheckpointError, read_json
from zoo.pretrained import check_tokenizer
from zoo.whisper import Whisper, WhisperConfig

SPEC = "WhisperSpec"
# Scalars WhisperSpec writes: what every Whisper has (checked); the head counts; settings that act only with
# ALiBi (off); the older alignment settings (config.json's alignment_heads replace them). Any other scalar
# would be an option Whisper does not use: an unknown variable.
_FIXED = {"decoder/activation": 3, "decoder/pre_norm": 1, "decoder/alibi": 0, "decoder/scale_embeddings": 0,
          "decoder/start_from_zero_embedding": 0}
_SCALARS = {*_FIXED, "encoder/num_heads", "decoder/num_heads", "decoder/alibi_use_positive_positions",
            "decoder/scale_alibi", "decoder/alignment_heads", "decoder/alignment_layer"}
_TOP = {"encoder/conv1": "audio_embed.conv1", "encoder/conv2": "audio_embed.conv2",
        "encoder/layer_norm": "encoder.norm", "decoder/embeddings": "embed.tokens",
        "decoder/layer_norm": "decoder.norm"}
_FUSED = {"self_attention/linear_0": ("self_attention/q", "self_attention/k", "self_attention/v"),
          "attention/linear_1": ("attention/k", "attention/v")}  # split by _split_fused, then renamed
_BLOCK = {"self_attention/layer_norm": "norm1", "self_attention/linear_1": "attn.o_proj",
          "attention/layer_norm": "norm_cross", "attention/linear_0": "cross_attn.q_proj",
          "attention/linear_2": "cross_attn.o_proj",
          "ffn/layer_norm": "norm2", "ffn/linear_0": "ffn.fc1", "ffn/linear_1": "ffn.fc2",
          **{f"self_attention/{x}": f"attn.{x}_proj" for x in "qkv"},
          **{f"attention/{x}": f"cross_attn.{x}_proj" for x in "kv"}}
_SUFFIX = {"gamma": "weight", "beta": "bias", "weight": "weight", "bias": "bias"}


def _rename(key: str) -> str | None:
    if key in ("encoder/position_encodings/encodings", "decoder/position_encodings/encodings"):
        return "audio_embed.positions" if key.startswith("encoder") else "embed.positions.weight"
    if key == "decoder/projection/weight":
        return None  # the alias of decoder/embeddings/weight
    module, _, suffix = key.rpartition("/")
    if module in _TOP and suffix in _SUFFIX:
        return f"{_TOP[module]}.{_SUFFIX[suffix]}"
    m = re.fullmatch(r"(encoder|decoder)/layer_(\d+)/(.+)", module)
    if m is None or m.group(3) not in _BLOCK or suffix not in _SUFFIX:
        raise KeyError(key)
    return f"{m.group(1)}.blocks.{m.group(2)}.{_BLOCK[m.group(3)]}.{_SUFFIX[suffix]}"


def _split_fused(variables: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Fused q|k|v and k|v projections -> one tensor each (.../self_attention/q/weight; the key's bias
    dropped: see the docstring)."""
    out = {}
    for key, value in variables.items():
        module, _, kind = key.rpartition("/")
        m = re.fullmatch(r"(encoder|decoder)/layer_(\d+)/(.+)", module)
        if m is None or m.group(3) not in _FUSED:
            out[key] = value
            continue
        names = _FUSED[m.group(3)]
        for name, part in zip(names, value.chunk(len(names), dim=0)):
            if not (kind == "bias" and name.endswith("/k")):
                out[f"{m.group(1)}/layer_{m.group(2)}/{name}/{kind}"] = part
    return out


def _depth(variables: dict[str, torch.Tensor], side: str) -> int:
    return len({m.group(1) for key in variables if (m := re.match(side + r"/layer_(\d+)/", key))})


def config_from_ct2(variables: dict[str, torch.Tensor], meta: dict[str, Any], source: str) -> WhisperConfig:
    """Our config from the weights' shapes and the scalars (CTranslate2 keeps no sizes elsewhere)."""
    def tensor(name: str) -> torch.Tensor:
        if name not in variables:
            raise CorruptCheckpointError(f"{source}: no variable {name!r}; expected CTranslate2's {SPEC} layout")
        return variables[name]

    for name, want in _FIXED.items():
        if name in variables and int(variables[name]) != want:
            raise UnsupportedConfigError(f"{source}: {name} is {int(variables[name])}, expected {want} "
                                         "(Whisper: GELU, pre-norm, learned positions, unscaled embeddings)")
    conv1 = tensor("encoder/conv1/weight")
    try:
        return WhisperConfig(
            n_mels=conv1.shape[1], audio_ctx=tensor("encoder/position_encodings/encodings").shape[0],
            text_ctx=tensor("decoder/position_encodings/encodings").shape[0],
            vocab_size=tensor("decoder/embeddings/weight").shape[0], dim=conv1.shape[0],
            audio_heads=int(tensor("encoder/num_heads")), audio_depth=_depth(variables, "encoder"),
            text_heads=int(tensor("decoder/num_heads")), text_depth=_depth(variables, "decoder"),
            audio_mlp_hidden=tensor("encoder/layer_0/ffn/linear_0/weight").shape[0],
            text_mlp_hidden=tensor("decoder/layer_0/ffn/linear_0/weight").shape[0],
            alignment_heads=meta.get("alignment_heads") or ())
    except ValueError as error:  # alignment heads outside the decoder
        raise CorruptCheckpointError(f"{source}: config.json {error} (decoder/num_heads, decoder/layer_N)") from None


def from_ct2(directory: str | Path) -> Whisper:
    """A CTranslate2 / faster-whisper Whisper directory (model.bin, config.json, tokenizer.json) -> our Whisper
    with the same weights (float32), tokenizer (`model.tokenizer`) and alignment heads, in eval mode."""
    directory = Path(directory)
    weights = directory / "model.bin"
    if not weights.is_file():
        raise FileNotFoundError(f"{str(weights)!r} not found: from_ct2 expects a CTranslate2 model directory "
                                "(model.bin, config.json, tokenizer.json), as faster-whisper downloads")
    checkpoint = read_ct2_file(weights)
    if checkpoint.spec != SPEC:
        raise UnsupportedConfigError(f"{str(weights)!r} holds a CTranslate2 {checkpoint.spec or 'unnamed'} model; "
                                     f"from_ct2 reads Whisper ({SPEC})")
    meta_path = directory / "config.json"
    meta = read_json(meta_path) if meta_path.is_file() else {}
    projection = checkpoint.variables.get("decoder/projection/weight")  # an alias when tied, as always
    if projection is not None and not torch.equal(projection, checkpoint.variables["decoder/embeddings/weight"]):
        raise UnsupportedConfigError(f"{str(weights)!r}: decoder/projection/weight differs from "
                                     "decoder/embeddings/weight; supported: the tied output of every Whisper")
    variables = {key: value.float() if value.is_floating_point() else value
                 for key, value in checkpoint.dequantized().items()}
    source = str(weights)
    config = config_from_ct2(variables, meta, source)
    tokenizer = tokenizer_for(directory, config.vocab_size)
    if tokenizer is not None:
        check_tokenizer(tokenizer, config.vocab_size, repr(str(directory / "tokenizer.json")),
                        f"{source} (decoder/embeddings/weight)")
    tensors = {key: value for key, value in _split_fused(variables).items() if key not in _SCALARS}
    model = build_converted(config, rename_all(tensors, _rename, source), source)
    model.tokenizer = tokenizer
    return model
