"""backbones/precision.py: one autocast cast for inputs that feed several projections."""
import torch
from torch import nn

import backbones.attention as attention_module
import backbones.precision as precision_module
from backbones import MultiHeadAttention, SwiGLU
from backbones.precision import InputProjections, cast_for_autocast


def test_cast_only_under_autocast_and_without_grad():
    x = torch.randn(2, 3)
    assert cast_for_autocast(x) is x  # no autocast
    with torch.autocast("cpu", torch.bfloat16):
        assert cast_for_autocast(x).dtype == torch.bfloat16
        assert cast_for_autocast(torch.arange(3)).dtype == torch.int64  # ids stay ids
        y = x.bfloat16()
        assert cast_for_autocast(y) is y
        g = x.clone().requires_grad_()
        assert cast_for_autocast(g) is g  # training: autocast's own per-op casts, gradients meet in fp32


def test_same_outputs_as_casting_per_projection(monkeypatch):
    torch.manual_seed(0)
    attn, cross, ffn = MultiHeadAttention(32, 4), MultiHeadAttention(32, 4, cross=True), SwiGLU(32, 64)
    x, ctx = torch.randn(2, 5, 32), torch.randn(2, 7, 32)

    def run():
        with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16):
            return attn(x, causal=True), cross(x, ctx), ffn(x)

    once = run()
    monkeypatch.setattr(precision_module, "cast_for_autocast", lambda t: t)  # InputProjections' cast
    monkeypatch.setattr(attention_module, "cast_for_autocast", lambda t: t)  # cross-attention's context
    per_projection = run()
    for a, b in zip(once, per_projection, strict=True):
        assert a.dtype == torch.bfloat16 and torch.equal(a, b)


def test_input_projections_run_each_layer_and_own_nothing():
    torch.manual_seed(0)
    layers = (nn.Linear(8, 4), nn.Linear(8, 6, bias=False))
    proj, x = InputProjections(), torch.randn(2, 3, 8)
    assert not list(proj.parameters()) and not proj.state_dict()
    for got, layer in zip(proj(x, layers), layers, strict=True):
        assert torch.equal(got, layer(x))
    with torch.autocast("cpu", torch.bfloat16), torch.no_grad():
        assert all(out.dtype == torch.bfloat16 for out in proj(x, layers))
