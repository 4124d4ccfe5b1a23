"""Analytic FLOPs of one forward of a zoo model, from its config: the work a benchmark table divides by time.

    forward_flops(zoo.create_model("gpt2"), batch=8, seq=1024)     # a model or its config
    train_step_flops(config, batch=8, seq=1024)                     # 3 x forward

Convention (torch.utils.flop_counter's, and the MFU literature's):

- a multiply-add is 2 FLOPs, and the matrix products are what counts: every Linear (attention's q, k, v
  and o; the MLP's two matrices, SwiGLU's three; the LM, MLM and classifier heads; LLaVA's projector),
  every convolution as the matmul it is (patch embeddings, Whisper's two-conv stem), and attention's
  two products, Q K^T and weights V: 2 x 2 x B x H x Tq x Tk x Dh per layer.
- causal attention counts the FULL Tq x Tk product, as flop_counter does for SDPA; a kernel that skips
  the masked half does about half of that part (halve `attention_products` for an exact-causal count).
  Padding is counted too: the shapes are what runs, not what is real.
- not counted, as lower order (O(T x D) per layer against the matmuls' O(T x D^2)): biases, norms,
  activations, softmax, residual adds, RoPE, embedding lookups and positions, pooling.
- a training step is 3 x forward: backward computes a gradient for each matmul's input and one for its
  weight, each as costly as the forward product. It is an upper bound where parts are frozen (LLaVA's
  tower needs no weight gradients, nor any backward at all in front of the first trained layer).

What each family's forward runs: gpt, llama: B x seq tokens through the blocks and the LM head (every
position's logits); bert: the same with its MLM head (or the pooler and classifier on [CLS]); vit, clip,
ast: the config's image or spectrogram (seq, if given, asks for that many tokens, prefix tokens
included, as example_inputs does) and the classifier on the pooled token; whisper: the encoder over
its audio_ctx window and the decoder (self-attention, cross-attention to the audio, MLP) over seq
tokens; llava: `images` images (default one per sample) through the tower's blocks up to
vision_feature_layer and the projector, then the LLaMA over B x seq tokens (the image features sit in
the sequence: its placeholders are part of seq). seq=None: the model's full context (max_positions;
Whisper's text_ctx).

Legend: B batch, T tokens, N context tokens, D width, H query heads, Hkv key/value heads, Dh head width,
F MLP hidden width, V vocabulary, C classes, p patch, P prefix tokens.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from backbones.block import BlockSpec
from zoo.clip import blocks_to_run


def linear(rows: int, d_in: int, d_out: int) -> int:
    """FLOPs of rows x d_in @ d_in x d_out (a Linear without its bias; a convolution as im2col matmul)."""
    return 2 * rows * d_in * d_out


def attention_products(batch: int, heads: int, tq: int, tk: int, head_dim: int) -> int:
    """Q K^T and weights V over every head: 2 x 2 x B x H x Tq x Tk x Dh (grouped-query keys count once
    per query head: the products run per query head)."""
    return 2 * 2 * batch * heads * tq * tk * head_dim


def attention_flops(spec: BlockSpec, batch: int, tq: int, tk: int) -> int:
    """One MultiHeadAttention: q and o over B x Tq rows, k and v over B x Tk rows, and the two products."""
    h = spec.num_heads
    hkv, dh = spec.num_kv_heads or h, spec.head_dim or spec.dim // h
    return (linear(batch * tq, spec.dim, h * dh) + linear(batch * tq, h * dh, spec.dim)   # q, o
            + 2 * linear(batch * tk, spec.dim, hkv * dh)                                    # k, v
            + attention_products(batch, h, tq, tk, dh))


def block_flops(spec: BlockSpec, batch: int, tokens: int, context: int = 0) -> int:
    """One Block over B x T tokens: self-attention, cross-attention to `context` tokens when the spec has
    it, and the FFN (fc1, fc2; SwiGLU: gate, up, down)."""
    matrices = 3 if spec.act == "swiglu" else 2
    cross = attention_flops(spec, batch, tokens, context) if spec.cross_attention else 0
    return (attention_flops(spec, batch, tokens, tokens) + cross
            + matrices * linear(batch * tokens, spec.dim, spec.mlp_hidden))


def _causal_lm(c: Any, spec: BlockSpec, batch: int, seq: int | None) -> int:
    t = c.max_positions if seq is None else seq
    return c.depth * block_flops(spec, batch, t) + linear(batch * t, c.dim, c.vocab_size)


def _gpt(c: Any, batch: int, seq: int | None) -> int:
    return _causal_lm(c, BlockSpec(dim=c.dim, num_heads=c.num_heads, mlp_hidden=c.mlp_hidden), batch, seq)


def _llama(c: Any, batch: int, seq: int | None) -> int:
    spec = BlockSpec(dim=c.dim, num_heads=c.num_heads, num_kv_heads=c.num_kv_heads, head_dim=c.head_dim,
                     mlp_hidden=c.mlp_hidden, act="swiglu")
    return _causal_lm(c, spec, batch, seq)


def _bert(c: Any, batch: int, seq: int | None) -> int:
    t = c.max_positions if seq is None else seq
    blocks = c.depth * block_flops(BlockSpec(dim=c.dim, num_heads=c.num_heads, mlp_hidden=c.mlp_hidden), batch, t)
    if c.head == "mlm":  # dense, then the decoder, at every position
        return blocks + linear(batch * t, c.dim, c.dim) + linear(batch * t, c.dim, c.vocab_size)
    return blocks + linear(batch, c.dim, c.dim) + linear(batch, c.dim, c.num_classes)  # pooler, classifier


def _patch_count(grid: tuple[int, int], prefix: int, seq: int | None) -> int:
    """Patches for `seq` tokens (prefix included; None: the configured grid)."""
    if seq is None:
        return grid[0] * grid[1]
    if seq <= prefix:
        raise ValueError(f"seq must exceed the {prefix} prefix token(s) to hold a patch, got {seq}")
    return seq - prefix


def _vision_tower(c: Any, batch: int, seq: int | None, depth: int) -> int:
    """A ViT / CLIP config's patch embedding and its first `depth` blocks."""
    side = c.image_size // c.patch_size
    prefix = int(c.class_token) + c.num_register_tokens
    patches = _patch_count((side, side), prefix, seq)
    spec = BlockSpec(dim=c.dim, num_heads=c.num_heads, mlp_hidden=c.mlp_hidden)
    embed = linear(batch * patches, c.in_chans * c.patch_size ** 2, c.dim)  # Conv2d, kernel = stride = p
    return embed + depth * block_flops(spec, batch, prefix + patches)


def _vit(c: Any, batch: int, seq: int | None) -> int:
    pooler = linear(batch, c.dim, c.dim) if c.pooler else 0
    return _vision_tower(c, batch, seq, c.depth) + pooler + linear(batch, c.dim, c.num_classes)


def _ast(c: Any, batch: int, seq: int | None) -> int:
    patches = _patch_count(c.grid_size, 2, seq)  # class and distillation tokens
    spec = BlockSpec(dim=c.dim, num_heads=c.num_heads, mlp_hidden=c.mlp_hidden)
    embed = linear(batch * patches, c.patch_size ** 2, c.dim)  # Conv2d on the one-channel (F, T) plane
    return embed + c.depth * block_flops(spec, batch, 2 + patches) + linear(batch, c.dim, c.num_classes)


def _whisper(c: Any, batch: int, seq: int | None) -> int:
    t, n = c.text_ctx if seq is None else seq, c.audio_ctx  # decoder tokens, audio tokens (mel frames / 2)
    encoder = BlockSpec(dim=c.dim, num_heads=c.audio_heads, mlp_hidden=c.audio_mlp_hidden)
    decoder = BlockSpec(dim=c.dim, num_heads=c.text_heads, mlp_hidden=c.text_mlp_hidden, cross_attention=True)
    # The stem's Conv1d(n_mels, D, 3) over 2N frames, then Conv1d(D, D, 3, stride 2) down to N.
    stem = linear(batch * 2 * n, c.n_mels * 3, c.dim) + linear(batch * n, c.dim * 3, c.dim)
    return (stem + c.audio_depth * block_flops(encoder, batch, n)
            + c.text_depth * block_flops(decoder, batch, t, context=n) + linear(batch * t, c.dim, c.vocab_size))


def _marian(c: Any, batch: int, seq: int | None) -> int:
    """The encoder over seq source tokens, the decoder over as many target tokens with cross-attention to
    them, and the output projection (seq defaults to 128 on both sides, within the model's positions)."""
    t = min(128, c.max_positions) if seq is None else seq
    encoder = BlockSpec(dim=c.dim, num_heads=c.encoder_heads, mlp_hidden=c.encoder_mlp_hidden)
    decoder = BlockSpec(dim=c.dim, num_heads=c.decoder_heads, mlp_hidden=c.decoder_mlp_hidden, cross_attention=True)
    return (c.encoder_depth * block_flops(encoder, batch, t)
            + c.decoder_depth * block_flops(decoder, batch, t, context=t) + linear(batch * t, c.dim, c.target_vocab))


def image_tokens(vision: Any) -> int:
    """LLaVA's image features (placeholders) per image: the patches, and the prefix tokens with "full"."""
    prefix = int(vision.class_token) + vision.num_register_tokens
    keep = vision.vision_feature_select_strategy == "full"
    return (vision.image_size // vision.patch_size) ** 2 + (prefix if keep else 0)


def _llava(c: Any, batch: int, seq: int | None, images: int | None) -> int:
    language = _llama(c.text, batch, seq)
    v = c.vision
    if v is None:
        return language
    m = batch if images is None else images
    # The tower as LLaVA runs it (zoo.llava.feature_tower): blocks up to the feature layer, no pooled head.
    tower = _vision_tower(v, m, None, blocks_to_run(v.vision_feature_layer, v.depth))
    rows, d = m * image_tokens(v), c.text.dim
    projector = linear(rows, v.dim, d) + (linear(rows, d, d) if c.projector == "mlp" else 0)  # fc1, fc2
    return tower + projector + language


FAMILIES: dict[str, Callable[[Any, int, int | None], int]] = {
    "gpt": _gpt, "llama": _llama, "bert": _bert, "vit": _vit, "clip": _vit, "ast": _ast, "whisper": _whisper,
    "marian": _marian,
}


def config_of(model_or_config: Any) -> Any:
    """A zoo model's config (its `config` attribute), or the config itself."""
    config = getattr(model_or_config, "config", model_or_config)
    if not dataclasses.is_dataclass(config) or not hasattr(config, "family"):
        raise TypeError(f"expected a zoo model or its config dataclass, got {type(model_or_config).__name__}")
    return config


def forward_flops(model_or_config: Any, batch: int, seq: int | None = None, *, images: int | None = None) -> int:
    """FLOPs of one forward (multiply-add = 2) at batch B and seq tokens, by the module docstring's
    convention; causal attention is counted as the full product. images: LLaVA only, the images the
    batch holds (default one per sample; 0 for text only)."""
    config = config_of(model_or_config)
    if batch < 1 or (seq is not None and seq < 1):
        raise ValueError(f"batch and seq must be positive, got batch={batch}, seq={seq}")
    if config.family == "llava":
        return _llava(config, batch, seq, images)
    if images is not None:
        raise ValueError(f"images= is for LLaVA; a {config.family} model takes none")
    if config.family not in FAMILIES:
        raise ValueError(f"no FLOP count for family {config.family!r}; families: {sorted(FAMILIES) + ['llava']}")
    return FAMILIES[config.family](config, batch, seq)


def train_step_flops(model_or_config: Any, batch: int, seq: int | None = None, *, images: int | None = None) -> int:
    """3 x forward_flops: the forward, then the backward's gradients for each matmul's input and its weight
    (an upper bound where parts are frozen)."""
    return 3 * forward_flops(model_or_config, batch, seq, images=images)
