"""The references we time against, on the same weights as ours, and the check that both compute the same.

    ours, ref = reference_pair("gpt2")        # a random-weight transformers model and its zoo.from_hf conversion
    ours, ref = timm_pair("vit_tiny_patch16_224")

Both sides hold the same weights by construction (the reference is built with random weights and
converted), and dropout is off on both, so their outputs and training losses can be compared.
"""
from __future__ import annotations

import dataclasses

import torch

import zoo
from bench.report import BenchmarkError
from zoo.registry import config_from_dict

NO_DROPOUT = {"gpt": {"dropout": 0.0}, "bert": {"dropout": 0.0, "attn_dropout": 0.0}, "llama": {"dropout": 0.0}}
TOLERANCE = {"fp32": 1e-3, "bf16": 0.1}  # max |ours - ref| over the logits (bf16: relative to max |ref|)


def _hf_gpt2(c) -> torch.nn.Module:
    import transformers

    return transformers.GPT2LMHeadModel(transformers.GPT2Config(
        vocab_size=c.vocab_size, n_positions=c.max_positions, n_embd=c.dim, n_layer=c.depth, n_head=c.num_heads,
        n_inner=c.mlp_hidden, layer_norm_epsilon=c.norm_eps, activation_function="gelu_new",
        tie_word_embeddings=c.tie_embeddings, resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0))


def _hf_bert(c) -> torch.nn.Module:
    import transformers

    return transformers.BertForMaskedLM(transformers.BertConfig(
        vocab_size=c.vocab_size, hidden_size=c.dim, num_hidden_layers=c.depth, num_attention_heads=c.num_heads,
        intermediate_size=c.mlp_hidden, hidden_act=c.act, max_position_embeddings=c.max_positions,
        type_vocab_size=c.type_vocab_size, layer_norm_eps=c.norm_eps,
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0))


def _hf_llama(c) -> torch.nn.Module:
    import transformers

    return transformers.LlamaForCausalLM(transformers.LlamaConfig(
        vocab_size=c.vocab_size, hidden_size=c.dim, intermediate_size=c.mlp_hidden, num_hidden_layers=c.depth,
        num_attention_heads=c.num_heads, num_key_value_heads=c.num_kv_heads,
        head_dim=c.head_dim or c.dim // c.num_heads,
        max_position_embeddings=c.max_positions, rms_norm_eps=c.norm_eps, tie_word_embeddings=c.tie_embeddings,
        attention_bias=c.attention_bias, mlp_bias=c.mlp_bias,
        rope_parameters={"rope_type": "default", "rope_theta": c.rope_base}))


REFERENCES = {"gpt": _hf_gpt2, "bert": _hf_bert, "llama": _hf_llama}


def reference_pair(name: str) -> tuple[torch.nn.Module, torch.nn.Module]:
    """(ours, ref) for preset `name`, dropout off: a random-weight transformers model and its from_hf conversion."""
    info = zoo.model_info(name)
    if info["family"] not in REFERENCES:
        raise ValueError(f"no transformers reference for {name!r} (family {info['family']!r}); "
                         f"expected a preset of {sorted(REFERENCES)}")
    preset = config_from_dict(info["family"], {**info["config"], **NO_DROPOUT[info["family"]]})
    if getattr(preset, "head_dim", 0) is None:  # "dim // num_heads", which a converted config spells out
        preset = dataclasses.replace(preset, head_dim=preset.dim // preset.num_heads)
    torch.manual_seed(0)
    ref = REFERENCES[info["family"]](preset).eval()
    ours = zoo.from_hf(ref).eval()
    if ours.config != preset:  # the conversion must give back exactly the preset we claim to benchmark
        raise BenchmarkError(f"{name}: from_hf gave {ours.config}, expected {preset}")
    return ours, ref


def ast_pair(name: str) -> tuple[torch.nn.Module, torch.nn.Module]:
    """(ours, ref) for AST preset `name`: a random-weight transformers ASTForAudioClassification of its shape
    and its zoo.from_hf conversion, both in eval mode."""
    import transformers

    c = config_from_dict("ast", zoo.model_info(name)["config"])
    torch.manual_seed(0)
    ref = transformers.ASTForAudioClassification(transformers.ASTConfig(
        hidden_size=c.dim, num_hidden_layers=c.depth, num_attention_heads=c.num_heads, intermediate_size=c.mlp_hidden,
        patch_size=c.patch_size, frequency_stride=c.frequency_stride, time_stride=c.time_stride,
        max_length=c.max_length, num_mel_bins=c.num_mel_bins, num_labels=c.num_classes, qkv_bias=c.qkv_bias,
        hidden_act=c.act, layer_norm_eps=c.norm_eps, hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)).eval()
    ours = zoo.from_hf(ref).eval()
    if ours.config != c:
        raise BenchmarkError(f"{name}: from_hf gave {ours.config}, expected {c}")
    return ours, ref


def timm_pair(name: str) -> tuple[torch.nn.Module, torch.nn.Module]:
    """(ours, ref) for timm model `name`, random weights, drop path off, both in eval mode: ref and its
    zoo.from_timm conversion."""
    import timm

    torch.manual_seed(0)
    ref = timm.create_model(name, pretrained=False, drop_path_rate=0.0).eval()
    torch.nn.init.normal_(ref.head.weight, std=0.02)  # timm zero-initialises the head: logits would all be 0
    return zoo.from_timm(ref).eval(), ref


def hf_gpt2_like(config: dict, vocab_size: int) -> torch.nn.Module:
    """transformers' GPT2LMHeadModel with a preset's width, depth, heads and positions (its other settings
    transformers' defaults), dropout off: the reference side of the learning comparison."""
    import transformers

    return transformers.GPT2LMHeadModel(transformers.GPT2Config(
        vocab_size=vocab_size, n_positions=config["max_positions"], n_embd=config["dim"], n_layer=config["depth"],
        n_head=config["num_heads"], resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0))


def check_close(name: str, dtype: str, got: torch.Tensor, want: torch.Tensor,
                sides: str = "ours and the reference") -> float:
    """max |got - want|; a BenchmarkError when the shapes differ or past TOLERANCE[dtype]: timing different
    computations would mean nothing. The one agreement check of every section."""
    if tuple(got.shape) != tuple(want.shape):
        raise BenchmarkError(f"{name}: {sides}: shapes {tuple(got.shape)} and {tuple(want.shape)} differ; "
                             "not timing different computations")
    diff = (got.float() - want.float()).abs().max().item()
    limit = TOLERANCE[dtype] * (want.float().abs().max().item() if dtype != "fp32" else 1.0)
    if not diff <= limit:
        raise BenchmarkError(f"{name}: {sides} disagree ({dtype}, max abs diff {diff:.3g} > {limit:.3g}) on the "
                             "same weights; not timing different computations")
    return diff
