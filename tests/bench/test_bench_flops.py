"""bench.flops: the analytic FLOP counter, against hand counts and against torch's FlopCounterMode.

Hand counts are written from each tiny preset's config numbers (batch 2, 8 text tokens): a Linear of
R rows from d_in to d_out is 2*R*d_in*d_out, attention's two products 2*2*B*H*Tq*Tk*Dh."""
from __future__ import annotations

import dataclasses

import pytest
import torch
from torch.utils.flop_counter import FlopCounterMode

import zoo
from backbones.attention import set_attention_backend
from bench.flops import forward_flops, train_step_flops
from zoo.registry import _preset, list_families

B, T = 2, 8

# One block, by hand. gpt_tiny: D 128, 4 heads of 32, MLP 512; 16 rows.
GPT_BLOCK = 4 * (2 * 16 * 128 * 128) + 2 * 2 * 2 * 4 * 8 * 8 * 32 + 2 * (2 * 16 * 128 * 512)
# llama_tiny: q and o 128 -> 128, k and v 128 -> 2 kv heads x 32, SwiGLU's three matrices of 352.
LLAMA_BLOCK = (2 * (2 * 16 * 128 * 128) + 2 * (2 * 16 * 128 * 64) + 2 * 2 * 2 * 4 * 8 * 8 * 32
               + 3 * (2 * 16 * 128 * 352))
# bert_tiny: D 128, 2 heads of 64, MLP 512.
BERT_BLOCK = 4 * (2 * 16 * 128 * 128) + 2 * 2 * 2 * 2 * 8 * 8 * 64 + 2 * (2 * 16 * 128 * 512)
# vit_tiny_patch2_8 and clip_vit_tiny_patch8_32 alike: 16 patches + class token = 17 tokens (34 rows), D 64,
# 4 heads of 16, MLP 128.
VISION_BLOCK = 4 * (2 * 34 * 64 * 64) + 2 * 2 * 2 * 4 * 17 * 17 * 16 + 2 * (2 * 34 * 64 * 128)
# ast_tiny: a 12 x 12 grid of 16 x 16 patches every 10 bins/frames, + 2 prefix = 146 tokens (292 rows).
AST_BLOCK = 4 * (2 * 292 * 64 * 64) + 2 * 2 * 2 * 4 * 146 * 146 * 16 + 2 * (2 * 292 * 64 * 128)
# whisper_micro: D 128, 4 heads of 32, MLP 512; 500 audio tokens (1000 rows), 8 decoder tokens (16 rows).
WHISPER_ENCODER_BLOCK = 4 * (2 * 1000 * 128 * 128) + 2 * 2 * 2 * 4 * 500 * 500 * 32 + 2 * (2 * 1000 * 128 * 512)
WHISPER_DECODER_BLOCK = (4 * (2 * 16 * 128 * 128) + 2 * 2 * 2 * 4 * 8 * 8 * 32          # self-attention
                         + 2 * (2 * 16 * 128 * 128) + 2 * (2 * 1000 * 128 * 128)        # cross: q, o; k, v on audio
                         + 2 * 2 * 2 * 4 * 8 * 500 * 32 + 2 * (2 * 16 * 128 * 512))     # cross products, MLP
# marian_tiny: D 64, 4 heads of 16, MLP 128; 8 source and 8 target tokens (16 rows each).
MARIAN_ENCODER_BLOCK = 4 * (2 * 16 * 64 * 64) + 2 * 2 * 2 * 4 * 8 * 8 * 16 + 2 * (2 * 16 * 64 * 128)
MARIAN_DECODER_BLOCK = (MARIAN_ENCODER_BLOCK + 4 * (2 * 16 * 64 * 64)  # self-attention and MLP; cross q, o, k, v
                        + 2 * 2 * 2 * 4 * 8 * 8 * 16)                  # cross products
# llava_tiny's LLaMA over 16 image tokens + 8 text tokens = 24 (48 rows).
LLAVA_BLOCK = (2 * (2 * 48 * 128 * 128) + 2 * (2 * 48 * 128 * 64) + 2 * 2 * 2 * 4 * 24 * 24 * 32
               + 3 * (2 * 48 * 128 * 352))

# Everything but the blocks, by hand.
LM_HEAD = 2 * 16 * 128 * 4096
BERT_MLM = 2 * 16 * 128 * 128 + 2 * 16 * 128 * 30522  # dense, then the decoder over the vocabulary
VIT_REST = 2 * 32 * (1 * 2 * 2) * 64 + 2 * 2 * 64 * 10  # patch conv: 32 patches of 1x2x2; classifier on 2 tokens
CLIP_REST = 2 * 32 * (3 * 8 * 8) * 64  # patch conv; no classifier (num_classes 0)
AST_REST = 2 * 288 * (16 * 16) * 64 + 2 * 2 * 64 * 35
WHISPER_REST = (2 * 2000 * (80 * 3) * 128 + 2 * 1000 * (128 * 3) * 128  # conv1 over 1000 frames, conv2 to 500
                + 2 * 16 * 128 * 1024)                                # tied LM head
# 2 images: the tower's patch conv and its 2 blocks (feature layer -2 of 3), the projector (64 -> 128 -> 128)
# on 32 image tokens, the LM head on 48 rows.
LLAVA_IMAGES = CLIP_REST + 2 * VISION_BLOCK + 2 * 32 * 64 * 128 + 2 * 32 * 128 * 128
LLAVA_REST = LLAVA_IMAGES + 2 * 48 * 128 * 4096

CASES = {  # preset: (seq, {depth field: hand count of one block}, hand count of the rest)
    "gpt_tiny": (T, {"depth": GPT_BLOCK}, LM_HEAD),
    "llama_tiny": (T, {"depth": LLAMA_BLOCK}, LM_HEAD),
    "bert_tiny": (T, {"depth": BERT_BLOCK}, BERT_MLM),
    "vit_tiny_patch2_8": (None, {"depth": VISION_BLOCK}, VIT_REST),
    "clip_vit_tiny_patch8_32": (None, {"depth": VISION_BLOCK}, CLIP_REST),
    "ast_tiny": (None, {"depth": AST_BLOCK}, AST_REST),
    "whisper_micro": (T, {"audio_depth": WHISPER_ENCODER_BLOCK, "text_depth": WHISPER_DECODER_BLOCK}, WHISPER_REST),
    "llava_tiny": (16 + T, {"text.depth": LLAVA_BLOCK}, LLAVA_REST),
    "marian_tiny": (T, {"encoder_depth": MARIAN_ENCODER_BLOCK, "decoder_depth": MARIAN_DECODER_BLOCK},
                    2 * 16 * 64 * 1000),  # the output projection
}


def _with(config, field: str, value: int):
    """config with `field` (dotted: a nested config's) set to value."""
    name, _, rest = field.partition(".")
    return dataclasses.replace(config, **{name: _with(getattr(config, name), rest, value) if rest else value})


def _depths(config, depths: dict[str, int]):
    for field, value in depths.items():
        config = _with(config, field, value)
    return config


@pytest.mark.parametrize("name", CASES)
def test_one_block_and_the_rest_match_a_hand_count(name):
    seq, blocks, rest = CASES[name]
    bare = _depths(_preset(name), {field: 0 for field in blocks})
    assert forward_flops(bare, B, seq) == rest
    for field, block in blocks.items():
        assert forward_flops(_with(bare, field, 1), B, seq) - rest == block, field
        assert forward_flops(_with(bare, field, 3), B, seq) - rest == 3 * block, field


def _inputs(model, name: str) -> dict[str, torch.Tensor]:
    if name != "llava_tiny":
        return model.example_inputs(B, CASES[name][0])
    ids = model.example_inputs(B, 16 + T)["input_ids"]
    ids[:, :16] = model.config.image_token_id  # one image per sample, as forward_flops assumes by default
    c = model.config.vision
    return {"input_ids": ids, "pixel_values": torch.randn(B, c.in_chans, c.image_size, c.image_size)}


@pytest.mark.parametrize("name", CASES)
def test_counter_equals_flop_counter_on_a_forward(name):
    """Exact agreement with the math attention backend: both count the same matmuls, convolutions and
    attention products, and neither counts biases, norms, softmax or elementwise work. (With sdpa on the
    CPU, torch 2.10's FlopCounterMode has no formula for _scaled_dot_product_flash_attention_for_cpu and
    would miss the attention products; the math backend computes them as the matmuls they are.)"""
    torch.manual_seed(0)
    # No parameter needs a gradient: FlopCounterMode's module tracker hooks every output that requires
    # one, and under no_grad a module returning a parameter's slice (the learned positions) trips it.
    model = zoo.create_model(name).eval().requires_grad_(False)
    set_attention_backend(model, "math")
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(**_inputs(model, name))
    assert counter.get_total_flops() == forward_flops(model, B, CASES[name][0])


def test_every_family_and_preset_is_counted():
    """Every registered family has a counter, and every preset (the 7B LLaVA included: it is arithmetic on
    the config) gives a positive count at its full context."""
    assert {_preset(name).family for name in CASES} == set(list_families())
    for name in zoo.list_models():
        assert forward_flops(_preset(name), 1) > 0, name


@pytest.mark.parametrize("name", ["gpt2", "llama_135m"])
def test_decoders_at_full_size_are_two_flops_per_weight_per_token(name):
    """A decoder-only LM runs every Linear on every token: 2 x (its Linear weights, the tied head included)
    x tokens, plus the attention products. Counted on the real preset, built on the meta device."""
    with torch.device("meta"):
        model = zoo.create_model(name)
    weights = sum(m.weight.numel() for m in model.modules() if isinstance(m, torch.nn.Linear))
    c, t = model.config, 64
    products = c.depth * 2 * 2 * t * t * c.dim  # num_heads x head_dim = dim in both
    assert forward_flops(model, 1, t) == 2 * weights * t + products


def test_training_step_is_three_forwards_and_options():
    config = _preset("llava_tiny")
    assert train_step_flops(config, B, 24) == 3 * forward_flops(config, B, 24)
    text_only = forward_flops(config, B, 24, images=0)
    assert text_only == forward_flops(config.text, B, 24)
    assert forward_flops(config, B, 24) - text_only == LLAVA_IMAGES
    assert forward_flops(config, B, 24, images=1) - text_only < LLAVA_IMAGES
    vit = _preset("vit_tiny_patch2_8")
    assert forward_flops(vit, B, 9) < forward_flops(vit, B)  # 8 patches + the class token, not 16
    with pytest.raises(ValueError, match="prefix"):
        forward_flops(vit, B, 1)
    with pytest.raises(ValueError, match="LLaVA"):
        forward_flops(vit, B, images=1)
    with pytest.raises(TypeError):
        forward_flops(torch.nn.Linear(2, 2), B)
