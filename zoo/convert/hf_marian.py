"""transformers MarianMTModel / MarianModel -> zoo.marian.Marian, and back (to_transformers).

HF names: `model.shared` (one word matrix when share_encoder_decoder_embeddings), `model.encoder.embed_tokens`
and `model.decoder.embed_tokens` (the same matrix, or each its own), `lm_head` (tied to the decoder's words
unless tie_word_embeddings is False), `final_logits_bias` (1, V), per layer `self_attn`, `encoder_attn`
(cross-attention), `fc1`/`fc2` and the post-LN norms `self_attn_layer_norm`, `encoder_attn_layer_norm`,
`final_layer_norm`. The sinusoids (`embed_positions`) are computed, not read: transformers neither saves
nor needs them. Each side's words are what transformers reads: its own embed_tokens, else `shared`; the two
become one matrix here where they are equal (always, when transformers ties them).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from torch import nn

from data.marian_tokenizer import MarianSentencePiece
from zoo.convert.common import (
    HF_ENCODER_DECODER_BLOCK,
    UnsupportedConfigError,
    export_state_dict,
    hf_activation,
    rename_all,
)
from zoo.convert.openai_whisper import stacks_key_map
from zoo.marian import MarianConfig

_PREFIX = "model."  # MarianMTModel wraps a MarianModel named `model`
_TOKENIZER_FILES = ("source.spm", "target.spm", "vocab.json")
_WORDS = ("shared.weight", "encoder.embed_tokens.weight", "decoder.embed_tokens.weight")
_TOP = {"shared.weight": "embed.tokens.weight", "encoder.embed_tokens.weight": "embed.tokens.weight",
        "decoder.embed_tokens.weight": "decoder_embed.tokens.weight", "lm_head.weight": "head.proj.weight",
        "final_logits_bias": "final_logits_bias",
        "encoder.embed_positions.weight": None, "decoder.embed_positions.weight": None}  # computed
_RENAME = stacks_key_map(_TOP, {r"encoder\.layers": "encoder", r"decoder\.layers": "decoder"},
                         HF_ENCODER_DECODER_BLOCK, prefix=_PREFIX)


def config_from_hf(cfg: dict[str, Any], state: dict[str, torch.Tensor]) -> MarianConfig:
    state = {key.removeprefix(_PREFIX): value for key, value in state.items()}
    for side in ("encoder", "decoder"):
        if not any(key.startswith(side + ".layers.") for key in state):
            raise UnsupportedConfigError(f"marian checkpoint has no {side} layers (MarianForCausalLM?); supported: "
                                         "MarianMTModel and MarianModel")
    encoder_words, decoder_words = _words(state)
    shared = bool(cfg.get("share_encoder_decoder_embeddings", True))
    # transformers 5 ties nothing under tie_word_embeddings=False, so each side reads its own copy: one
    # matrix here only where the two are equal.
    one_matrix = shared and (encoder_words is None or decoder_words is None or torch.equal(encoder_words,
                                                                                          decoder_words))
    target = cfg.get("decoder_vocab_size") or cfg["vocab_size"]
    return MarianConfig(vocab_size=cfg["vocab_size"], target_vocab_size=None if shared else target,
                        dim=cfg["d_model"], encoder_depth=cfg["encoder_layers"], decoder_depth=cfg["decoder_layers"],
                        encoder_heads=cfg["encoder_attention_heads"], decoder_heads=cfg["decoder_attention_heads"],
                        encoder_mlp_hidden=cfg["encoder_ffn_dim"], decoder_mlp_hidden=cfg["decoder_ffn_dim"],
                        act=hf_activation(cfg, "activation_function", "gelu"),
                        max_positions=cfg.get("max_position_embeddings", 1024), pad_id=cfg["pad_token_id"],
                        eos_id=_one_id(cfg.get("eos_token_id", 0)),
                        decoder_start_id=cfg.get("decoder_start_token_id", cfg["pad_token_id"]),
                        scale_embedding=bool(cfg.get("scale_embedding", False)), share_embeddings=one_matrix,
                        tie_embeddings=bool(cfg.get("tie_word_embeddings", True)),
                        dropout=float(cfg.get("dropout", 0.1)), attn_dropout=float(cfg.get("attention_dropout", 0.0)))


def _words(state: dict[str, torch.Tensor]) -> tuple[torch.Tensor | None, torch.Tensor | None]:
    """The (encoder, decoder) word matrices transformers reads: each side's embed_tokens, else `shared`."""
    shared = state.get("shared.weight")
    return state.get("encoder.embed_tokens.weight", shared), state.get("decoder.embed_tokens.weight", shared)


def _one_id(value: int | list[int]) -> int:
    return value[0] if isinstance(value, (list, tuple)) else value


def convert_state_dict(state: dict[str, torch.Tensor], config: MarianConfig, source: str) -> dict[str, torch.Tensor]:
    """HF tensors -> ours; the copies of a tied matrix that transformers would not read are dropped."""
    state = {key.removeprefix(_PREFIX): value for key, value in state.items()}
    encoder_words, decoder_words = _words(state)
    for key in _WORDS:
        state.pop(key, None)
    if encoder_words is not None:
        state["encoder.embed_tokens.weight"] = encoder_words
    if decoder_words is not None and not config.share_embeddings:
        state["decoder.embed_tokens.weight"] = decoder_words
    if config.tie_embeddings:
        state.pop("lm_head.weight", None)
    bias = state.get("final_logits_bias")
    if bias is not None:
        if bias.numel() != config.target_vocab:
            raise UnsupportedConfigError(f"{source}: final_logits_bias has {bias.numel()} entries but the target "
                                         f"vocabulary {config.target_vocab}")
        state["final_logits_bias"] = bias.reshape(-1)
    else:  # transformers starts it at zeros when a checkpoint lacks it
        state["final_logits_bias"] = torch.zeros(config.target_vocab)
    return rename_all(state, _RENAME, source)


def hf_config_kwargs(config: MarianConfig) -> dict[str, Any]:
    """transformers MarianConfig arguments for our config: the inverse of config_from_hf."""
    act = {"silu": "swish"}.get(config.act, config.act)
    return dict(vocab_size=config.vocab_size, decoder_vocab_size=config.target_vocab, d_model=config.dim,
                encoder_layers=config.encoder_depth, decoder_layers=config.decoder_depth,
                encoder_attention_heads=config.encoder_heads, decoder_attention_heads=config.decoder_heads,
                encoder_ffn_dim=config.encoder_mlp_hidden, decoder_ffn_dim=config.decoder_mlp_hidden,
                activation_function=act, max_position_embeddings=config.max_positions,
                pad_token_id=config.pad_id, eos_token_id=config.eos_id, decoder_start_token_id=config.start_id,
                forced_eos_token_id=config.eos_id, scale_embedding=config.scale_embedding,
                share_encoder_decoder_embeddings=config.share_embeddings,
                tie_word_embeddings=config.tie_embeddings, dropout=config.dropout,
                attention_dropout=config.attn_dropout, activation_dropout=0.0)


def to_transformers(model: nn.Module) -> nn.Module:
    """transformers' MarianMTModel (eval mode) holding `model`'s tensors: the inverse of from_hf."""
    import transformers

    hf = transformers.MarianMTModel(transformers.MarianConfig(**hf_config_kwargs(model.config)))
    state = export_state_dict(model, hf.state_dict(), _RENAME)
    state["final_logits_bias"] = model.final_logits_bias[None]
    missing, unexpected = hf.load_state_dict(state, strict=False)
    if [key for key in missing if "embed_positions" not in key] or unexpected:
        raise RuntimeError(f"zoo -> transformers Marian left missing {missing}, unexpected {unexpected}")
    return hf.eval()


def attach_extras(model: nn.Module, obj: Any) -> nn.Module:
    """Give a Marian that from_hf built from `obj` its tokenizer (`model.tokenizer`) where `obj` is a Marian
    directory (source.spm, target.spm, vocab.json; a missing one is named); an instance brings none."""
    if isinstance(obj, (str, Path)) and any((Path(obj) / name).exists() for name in _TOKENIZER_FILES):
        model.tokenizer = MarianSentencePiece.from_directory(obj)
    else:
        model.tokenizer = None
    return model
