"""transformers WhisperForConditionalGeneration / WhisperModel -> zoo.whisper.Whisper.

HF keeps one width (`d_model`) for both sides, its own names
(`model.encoder.layers.N.self_attn.q_proj`, `encoder_attn` for cross-attention,
`fc1`/`fc2`, `final_layer_norm` as the block's second norm) and the encoder's
sinusoids as a frozen `embed_positions` Embedding, loaded as stored. `proj_out`
is tied to the decoder's token embedding; WhisperModel has no `proj_out` and
no `model.` prefix. `attach_extras(model, obj)` gives a built model what
transformers keeps beside the weights: its tokenizer (an HF directory's
tokenizer.json where it has one, else openai-whisper's for the vocabulary
size) and the generation config's alignment heads (none when
generation_config.json is missing, as transformers allows). `to_transformers`
goes the other way.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import torch
from torch import nn

from data.whisper_tokenizer import WhisperTokenizer, load_whisper_tokenizer
from zoo.convert.common import (
    HF_ENCODER_DECODER_BLOCK,
    UnsupportedConfigError,
    export_state_dict,
    hf_activation,
    rename_all,
    require,
)
from zoo.convert.openai_whisper import stacks_key_map
from zoo.generation.whisper_decode import WHISPER_VOCAB_SIZES, tokenizer_for_vocab
from zoo.io import read_json
from zoo.whisper import WhisperConfig

_PREFIX = "model."  # WhisperForConditionalGeneration wraps a WhisperModel named `model`
_POSITIONS = "encoder.embed_positions.weight"


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> WhisperConfig:
    act = hf_activation(cfg, "activation_function", "gelu")
    require(cfg, "scale_embedding", (False, None))
    require(cfg, "tie_word_embeddings", (True, None))
    keys = {key.removeprefix(_PREFIX) for key in state}
    for side in ("encoder", "decoder"):
        if not any(key.startswith(side + ".") for key in keys):
            raise UnsupportedConfigError(f"whisper checkpoint has no {side} (WhisperForCausalLM or "
                                         "WhisperForAudioClassification?); supported: WhisperForConditionalGeneration "
                                         "and WhisperModel")
    return WhisperConfig(n_mels=cfg["num_mel_bins"], audio_ctx=cfg["max_source_positions"],
                         text_ctx=cfg["max_target_positions"], vocab_size=cfg["vocab_size"], dim=cfg["d_model"],
                         audio_heads=cfg["encoder_attention_heads"], audio_depth=cfg["encoder_layers"],
                         text_heads=cfg["decoder_attention_heads"], text_depth=cfg["decoder_layers"],
                         audio_mlp_hidden=cfg["encoder_ffn_dim"], text_mlp_hidden=cfg["decoder_ffn_dim"], act=act)


_TOP = {"encoder.conv1.weight": "audio_embed.conv1.weight", "encoder.conv1.bias": "audio_embed.conv1.bias",
        "encoder.conv2.weight": "audio_embed.conv2.weight", "encoder.conv2.bias": "audio_embed.conv2.bias",
        _POSITIONS: "audio_embed.positions",  # loaded as stored, as transformers does
        "encoder.layer_norm.weight": "encoder.norm.weight", "encoder.layer_norm.bias": "encoder.norm.bias",
        "decoder.embed_tokens.weight": "embed.tokens.weight",
        "decoder.embed_positions.weight": "embed.positions.weight",
        "decoder.layer_norm.weight": "decoder.norm.weight", "decoder.layer_norm.bias": "decoder.norm.bias",
        "proj_out.weight": None}  # tied to embed_tokens (tie_word_embeddings is required)
_RENAME = stacks_key_map(_TOP, {r"encoder\.layers": "encoder", r"decoder\.layers": "decoder"},
                         HF_ENCODER_DECODER_BLOCK, prefix=_PREFIX)


def convert_state_dict(state: dict[str, torch.Tensor], config: WhisperConfig, source: str) -> dict[str, torch.Tensor]:
    state = {key.removeprefix(_PREFIX): value for key, value in state.items()}
    head, embed = state.get("proj_out.weight"), state.get("decoder.embed_tokens.weight")
    if head is not None and embed is not None and not torch.equal(head, embed):
        raise UnsupportedConfigError(f"{source}: proj_out differs from decoder.embed_tokens; supported: tied "
                                     "output projection (every Whisper release)")
    return rename_all(state, _RENAME, source)


def hf_config_kwargs(config: WhisperConfig) -> dict[str, Any]:
    """transformers WhisperConfig arguments for our config: the inverse of config_from_hf."""
    return dict(vocab_size=config.vocab_size, num_mel_bins=config.n_mels, d_model=config.dim,
                encoder_layers=config.audio_depth, decoder_layers=config.text_depth,
                encoder_attention_heads=config.audio_heads, decoder_attention_heads=config.text_heads,
                encoder_ffn_dim=config.audio_mlp_hidden, decoder_ffn_dim=config.text_mlp_hidden,
                max_source_positions=config.audio_ctx, max_target_positions=config.text_ctx,
                activation_function=config.act)


def hf_state_dict(model: nn.Module, hf_keys: Any) -> dict[str, torch.Tensor]:
    """Our Whisper's tensors under transformers' names: for each of `hf_keys` (a WhisperForConditionalGeneration's
    or WhisperModel's state-dict keys) the tensor convert_state_dict would have read into it; the keys it
    drops (the tied proj_out) are left out."""
    return export_state_dict(model, hf_keys, _RENAME)


def to_transformers(model: nn.Module, **token_ids: int) -> nn.Module:
    """transformers' WhisperForConditionalGeneration (eval mode) holding `model`'s tensors: the inverse of from_hf,
    with proj_out tied to the token embedding as in every release and the alignment heads in its generation
    config. token_ids (pad/bos/eos/decoder_start_token_id) default to the model's tokenizer's."""
    import transformers

    tok = getattr(model, "tokenizer", None)
    ids = dict(decoder_start_token_id=tok.sot, eos_token_id=tok.eot, pad_token_id=tok.eot,
               bos_token_id=tok.eot) if tok is not None else {}
    hf = transformers.WhisperForConditionalGeneration(
        transformers.WhisperConfig(**hf_config_kwargs(model.config), **{**ids, **token_ids}))
    missing, unexpected = hf.load_state_dict(hf_state_dict(model, hf.state_dict()), strict=False)
    if missing != ["proj_out.weight"] or unexpected:
        raise RuntimeError(f"zoo -> transformers Whisper left missing {missing}, unexpected {unexpected}; expected "
                           "only the tied proj_out missing")
    hf.tie_weights()
    hf.generation_config.alignment_heads = [list(pair) for pair in model.config.alignment_heads]
    return hf.eval()


def save_transformers(model: nn.Module, directory: str | Path) -> Path:
    """Write `model` as transformers' Whisper directory (config.json, model.safetensors, generation_config.json
    with the alignment heads) and its tokenizer beside (tokenizer.json): what from_pretrained, zoo.load_directory
    and zoo.transcribe read. Returns the directory."""
    directory = Path(directory)
    to_transformers(model).save_pretrained(directory)
    if getattr(model, "tokenizer", None) is not None:
        model.tokenizer.save(directory)
    return directory


def tokenizer_for(obj: Any, vocab_size: int) -> WhisperTokenizer | None:
    """The tokenizer of what from_hf converted: a directory's tokenizer.json, else openai-whisper's for the
    vocabulary size (a transformers instance, or a directory without one), None if no release has that size."""
    if isinstance(obj, (str, Path)) and (Path(obj) / "tokenizer.json").is_file():
        return load_whisper_tokenizer(obj)
    return tokenizer_for_vocab(vocab_size) if vocab_size in WHISPER_VOCAB_SIZES else None


def _alignment_heads(obj: Any) -> list:
    """The generation config's alignment heads: an instance's, a directory's generation_config.json (if any)."""
    if not isinstance(obj, (str, Path)):
        return getattr(getattr(obj, "generation_config", None), "alignment_heads", None) or []
    path = Path(obj) / "generation_config.json"
    if not path.is_file():
        return []
    return read_json(path).get("alignment_heads") or []


def attach_extras(model: nn.Module, obj: Any) -> nn.Module:
    """Give a Whisper that from_hf built from `obj` (an instance or a directory) its tokenizer (`model.tokenizer`)
    and its generation config's alignment heads (`model.config.alignment_heads`)."""
    model.tokenizer = tokenizer_for(obj, model.config.vocab_size)
    try:
        model.config = dataclasses.replace(model.config, alignment_heads=_alignment_heads(obj))
    except ValueError as error:
        raise UnsupportedConfigError(f"{obj if isinstance(obj, (str, Path)) else type(obj).__name__}: generation "
                                     f"config's {error}") from None
    return model
