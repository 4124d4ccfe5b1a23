"""What the model table times for one preset at one shape: our model, the reference on the same weights (or why
there is none), the inputs each side takes, and the output and loss each side's calls produce.

    case = build_case("gpt2", Shape("1x256", batch=1, seq=256), device="cpu")
    case.ours_out(case.ours)      # logits (B, T, V)
    case.ref_out(case.ref)        # the same logits from transformers

References, each built with random weights and converted with zoo's own converter (so both sides hold the
same weights by construction), used only where the conversion gives back exactly the preset's config:
transformers for gpt, llama, bert (references.reference_pair), AST (references.ast_pair), CLIP's vision tower
(CLIPVisionModel's pooler_output) and LLaVA (LlavaForConditionalGeneration); timm for the ViT presets timm
knows by name (or by TIMM_NAMES; references.timm_pair); openai-whisper's `Whisper` for Whisper. Without a
reference (or where the conversion gives another config), ours is the preset as registered and every side
is checked against ours on the math attention backend instead.

Legend: B samples, T tokens, V vocabulary, C classes, N image tokens per image.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

import zoo
from bench.flops import forward_flops, image_tokens
from bench.references import ast_pair, reference_pair, timm_pair
from heads.lm import shift_targets
from zoo.registry import config_from_dict

Output = Callable[[nn.Module], torch.Tensor]


@dataclass(frozen=True)
class Shape:
    """One timed shape: `batch` samples; seq = text tokens per sample (decoder tokens for Whisper, text after
    the image's placeholders for LLaVA), None where the input has a fixed size (images, spectrograms)."""
    label: str
    batch: int
    seq: int | None = None


@dataclass
class Case:
    """A preset at one shape. ours_out / ref_out: the call each side is timed on, returning what is compared
    (logits, or CLIP's pooled features). ours_loss: ours' own loss where the family computes it from its
    features (causal LMs' labels=), else None (cross-entropy on ours_out). ref is None with `reference` saying
    why; otherwise `reference` names it."""
    ours: nn.Module
    ref: nn.Module | None
    reference: str
    ours_out: Output
    ref_out: Output | None
    targets: torch.Tensor
    ours_loss: Callable[[nn.Module], torch.Tensor] | None
    samples: int
    tokens: int
    flops: int  # analytic forward FLOPs of one call (bench.flops)


def cross_entropy(out: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Mean cross-entropy of out (..., C) against targets (...) (-100: no loss there), in fp32."""
    return F.cross_entropy(out.flatten(0, -2).float(), targets.flatten(), ignore_index=-100)


def _settings(config) -> dict:
    """A config as a dict without its dropout rates (the references run with dropout off) or Whisper's
    alignment heads (they pick cross-attention maps for word timing and change no output), head_dim None
    spelled out as dim // num_heads and a ViT's fc_norm None as what timm's rule makes it (as a converted
    config has them)."""
    def strip(d: dict) -> dict:
        out = {k: strip(v) if isinstance(v, dict) else v for k, v in d.items()
               if not k.endswith("dropout") and k != "alignment_heads"}
        if "head_dim" in out and out["head_dim"] is None:
            out["head_dim"] = out["dim"] // out["num_heads"]
        if "fc_norm" in out and out["fc_norm"] is None:
            out["fc_norm"] = out["global_pool"] == "avg"
        return out
    return strip(dataclasses.asdict(config))


def _converted(name: str, ours: nn.Module, ref: nn.Module, source: str) -> tuple[nn.Module | None, str]:
    """(ref, its name) when converting it gave preset `name`'s config (dropout aside); else (None, why not)."""
    info = zoo.model_info(name)
    want, got = _settings(config_from_dict(info["family"], info["config"])), _settings(ours.config)
    if want != got:
        changed = sorted(k for k in want if want[k] != got.get(k))
        return None, f"no reference: {source} of this shape converts to another config ({', '.join(changed)})"
    return ref, source


def _clip_vision_config(c):
    import transformers

    return transformers.CLIPVisionConfig(
        hidden_size=c.dim, intermediate_size=c.mlp_hidden, num_hidden_layers=c.depth, num_attention_heads=c.num_heads,
        image_size=c.image_size, patch_size=c.patch_size, num_channels=c.in_chans, hidden_act=c.act,
        layer_norm_eps=c.norm_eps, attention_dropout=0.0)


def _llama_config(c):
    import transformers

    return transformers.LlamaConfig(
        vocab_size=c.vocab_size, hidden_size=c.dim, intermediate_size=c.mlp_hidden, num_hidden_layers=c.depth,
        num_attention_heads=c.num_heads, num_key_value_heads=c.num_kv_heads,
        head_dim=c.head_dim or c.dim // c.num_heads,
        max_position_embeddings=c.max_positions, rms_norm_eps=c.norm_eps, tie_word_embeddings=c.tie_embeddings,
        attention_bias=c.attention_bias, mlp_bias=c.mlp_bias,
        rope_parameters={"rope_type": "default", "rope_theta": c.rope_base})


def _hf_clip(name: str) -> tuple[nn.Module, nn.Module]:
    import transformers

    torch.manual_seed(0)
    c = config_from_dict("clip", zoo.model_info(name)["config"])
    ref = transformers.CLIPVisionModel(_clip_vision_config(c)).eval()
    return zoo.from_hf(ref).eval(), ref


def _hf_llava(name: str) -> tuple[nn.Module, nn.Module]:
    import transformers

    torch.manual_seed(0)
    c = config_from_dict("llava", zoo.model_info(name)["config"])
    ref = transformers.LlavaForConditionalGeneration(transformers.LlavaConfig(
        vision_config=_clip_vision_config(c.vision), text_config=_llama_config(c.text), image_token_id=c.image_token_id,
        image_seq_length=image_tokens(c.vision), vision_feature_layer=c.vision.vision_feature_layer,
        vision_feature_select_strategy=c.vision.vision_feature_select_strategy, projector_hidden_act=c.projector_act,
        multimodal_projector_bias=c.projector_bias, tie_word_embeddings=c.text.tie_embeddings)).eval()
    return zoo.from_hf(ref).eval(), ref


def _openai_whisper(name: str) -> tuple[nn.Module, nn.Module]:
    import whisper

    c = config_from_dict("whisper", zoo.model_info(name)["config"])
    dims = whisper.model.ModelDimensions(
        n_mels=c.n_mels, n_audio_ctx=c.audio_ctx, n_audio_state=c.dim, n_audio_head=c.audio_heads,
        n_audio_layer=c.audio_depth, n_vocab=c.vocab_size, n_text_ctx=c.text_ctx, n_text_state=c.dim,
        n_text_head=c.text_heads, n_text_layer=c.text_depth)
    torch.manual_seed(0)
    ref = whisper.model.Whisper(dims)
    with torch.no_grad():  # the one tensor openai-whisper leaves uninitialised (torch.empty)
        ref.decoder.positional_embedding.normal_(0, 0.02)
    return zoo.from_whisper(ref).eval(), ref.eval()


PAIRS = {  # family -> (preset name -> (ours, ref), the reference's name)
    "gpt": (reference_pair, "transformers"), "llama": (reference_pair, "transformers"),
    "bert": (reference_pair, "transformers"), "ast": (ast_pair, "transformers"),
    "clip": (_hf_clip, "transformers"), "llava": (_hf_llava, "transformers"),
    "vit": (timm_pair, "timm"), "whisper": (_openai_whisper, "openai-whisper"),
}


def plain(name: str) -> nn.Module:
    """Preset `name` built as registered, its dropout rates 0 (as the references run), in eval mode."""
    c = config_from_dict(zoo.model_info(name)["family"], zoo.model_info(name)["config"])
    off = {f.name: 0.0 for f in dataclasses.fields(c) if f.name.endswith("dropout") and getattr(c, f.name)}
    return zoo.create_model(name, **off).eval()


TIMM_NAMES = {"vit_small_patch16_224_ls": "deit3_small_patch16_224"}  # where timm's name is another


def pair(name: str) -> tuple[nn.Module, nn.Module | None, str]:
    """(ours, ref or None, the reference's name or why there is none), both in eval mode, dropout off. Without
    a reference, ours is the preset as registered (plain)."""
    family = zoo.model_info(name)["family"]
    if family == "vit":
        import timm

        if not timm.is_model(TIMM_NAMES.get(name, name)):
            return plain(name), None, "no reference: timm has no model of this name"
    if family not in PAIRS:
        return plain(name), None, f"no reference for family {family}"
    make, source = PAIRS[family]
    ours, ref = make(TIMM_NAMES.get(name, name)) if family == "vit" else make(name)
    ref, reference = _converted(name, ours, ref, source)
    return (ours if ref is not None else plain(name)), ref, reference


def _inputs(ours: nn.Module, shape: Shape) -> tuple[dict, dict, Callable, torch.Tensor | None]:
    """(ours' kwargs, the reference's kwargs, how the reference's output gives what is compared, causal targets)."""
    family, b, g = ours.config.family, shape.batch, torch.Generator().manual_seed(1)
    if family in ("gpt", "llama", "bert"):
        ids = torch.randint(0, ours.config.vocab_size, (b, shape.seq), generator=g)
        return {"input_ids": ids}, {"input_ids": ids}, lambda out: out.logits, shift_targets(ids)
    if family == "llava":
        n, c = ours.num_image_tokens, ours.config
        ids = torch.randint(0, c.text.vocab_size, (b, n + shape.seq), generator=g)
        ids[ids == c.image_token_id] = 0
        ids[:, :n] = c.image_token_id  # one image per sample, its placeholders first
        pixels = torch.randn(b, c.vision.in_chans, c.vision.image_size, c.vision.image_size, generator=g)
        kwargs = {"input_ids": ids, "pixel_values": pixels}
        # transformers 5.24 asks the tower for hidden state `vision_feature_layer` as output_hidden_states=layer,
        # which layer 0 (llava_scenes': the patch embeddings) turns off; asking for all of them works
        ref_kwargs = {**kwargs, "output_hidden_states": True} if c.vision.vision_feature_layer == 0 else kwargs
        return kwargs, ref_kwargs, lambda out: out.logits, None
    if family == "whisper":
        x = ours.example_inputs(b, shape.seq)
        return x, {"mel": x["mel"], "tokens": x["decoder_input_ids"]}, lambda out: out, None
    x = ours.example_inputs(b)  # vit, clip: {"pixels"}; ast: {"spectrogram"}
    if family == "ast":
        return x, {"input_values": x["spectrogram"]}, lambda out: out.logits, None
    if family == "clip":
        return x, {"pixel_values": x["pixels"]}, lambda out: out.pooler_output, None
    return x, {"x": x["pixels"]}, lambda out: out, None  # timm: positional


def tokens_per_sample(config, shape: Shape) -> int:
    """Text tokens (decoder tokens for Whisper; image placeholders + text for LLaVA), or patch tokens with
    the prefix tokens for ViT, CLIP and AST."""
    family = config.family
    if family == "llava":
        return image_tokens(config.vision) + shape.seq
    if family in ("vit", "clip"):
        return (config.image_size // config.patch_size) ** 2 + int(config.class_token) + config.num_register_tokens
    if family == "ast":
        return config.grid_size[0] * config.grid_size[1] + 2
    return shape.seq


def shape_flops(config, shape: Shape) -> int:
    """Analytic forward FLOPs of one call at `shape` (LLaVA: one image per sample)."""
    if config.family == "llava":
        return forward_flops(config, shape.batch, tokens_per_sample(config, shape), images=shape.batch)
    return forward_flops(config, shape.batch, shape.seq)


def build_case(name: str, shape: Shape, device: str, built=None) -> Case:
    """The case for preset `name` at `shape` on `device`; built: an earlier pair(name) to reuse."""
    ours, ref, reference = built or pair(name)
    ours_kw, ref_kw, ref_pick, causal = _inputs(ours, shape)
    ours_kw = {k: v.to(device) for k, v in ours_kw.items()}
    ref_kw = {k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in ref_kw.items()}
    positional = "x" in ref_kw
    ref_out = None if ref is None else (
        (lambda m: ref_pick(m(ref_kw["x"]))) if positional else (lambda m: ref_pick(m(**ref_kw))))
    with torch.no_grad():
        out_shape = ours.to(device)(**ours_kw).shape
    g = torch.Generator().manual_seed(2)
    targets = causal if causal is not None else torch.randint(0, out_shape[-1], out_shape[:-1], generator=g)
    targets = targets.to(device)
    with_labels = causal is not None and ours.config.family != "bert"
    ours_loss = (lambda m: m(**ours_kw, labels=targets)) if with_labels else None
    return Case(ours=ours, ref=None if ref is None else ref.to(device), reference=reference,
                ours_out=lambda m: m(**ours_kw), ref_out=ref_out, targets=targets, ours_loss=ours_loss,
                samples=shape.batch, tokens=shape.batch * tokens_per_sample(ours.config, shape),
                flops=shape_flops(ours.config, shape))
