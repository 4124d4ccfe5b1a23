import pytest
import torch
from torch import nn

from backbones.block import BlockSpec, LayerScale
from backbones.ffn import Mlp, SwiGLU
from backbones.norms import RMSNorm
from backbones.transformer import Transformer


@pytest.mark.parametrize("act,ref", [
    ("relu", torch.relu),
    ("gelu", lambda x: 0.5 * x * (1 + torch.erf(x / 2 ** 0.5))),
    ("gelu_tanh", lambda x: 0.5 * x * (1 + torch.tanh((2 / torch.pi) ** 0.5 * (x + 0.044715 * x ** 3)))),
    ("quick_gelu", lambda x: x * torch.sigmoid(1.702 * x)),
])
def test_mlp_activations(act, ref):
    mlp = Mlp(8, 16, act=act)
    x = torch.randn(3, 8)
    torch.testing.assert_close(mlp(x), mlp.fc2(ref(mlp.fc1(x))), atol=1e-6, rtol=1e-5)


def test_swiglu_formula():
    f = SwiGLU(8, 12)
    x = torch.randn(2, 8)
    g = f.gate(x)
    torch.testing.assert_close(f(x), f.down(g * torch.sigmoid(g) * f.up(x)))


def test_rmsnorm_formula_and_bf16():
    norm = RMSNorm(6, eps=1e-6)
    nn.init.normal_(norm.weight)
    x = torch.randn(4, 6)
    torch.testing.assert_close(norm(x), norm.weight * x / torch.sqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))
    assert norm(x.bfloat16()).dtype == torch.float32  # fp32 weight promotes, as HF's does


def test_pre_and_post_norm_blocks_read_like_the_math():
    torch.manual_seed(0)
    x = torch.randn(2, 5, 16)
    pre = BlockSpec(dim=16, num_heads=2, mlp_hidden=32).build().eval()
    h = x + pre.attn(pre.norm1(x))
    torch.testing.assert_close(pre(x), h + pre.ffn(pre.norm2(h)))
    post = BlockSpec(dim=16, num_heads=2, mlp_hidden=32, post_norm=True).build().eval()
    h = post.norm1(x + post.attn(x))
    torch.testing.assert_close(post(x), post.norm2(h + post.ffn(h)))


def test_cross_attention_and_layerscale():
    blk = BlockSpec(dim=16, num_heads=2, mlp_hidden=32, cross_attention=True, layer_scale=0.1).build().eval()
    assert isinstance(blk.ls1, LayerScale) and blk.ls1.gamma.eq(0.1).all()
    x, ctx = torch.randn(2, 5, 16), torch.randn(2, 9, 16)
    out = blk(x, context=ctx)
    h = x + blk.ls1(blk.attn(blk.norm1(x)))
    h = h + blk.cross_attn(blk.norm_cross(h), ctx)
    torch.testing.assert_close(out, h + blk.ls2(blk.ffn(blk.norm2(h))))


def test_cached_cross_attention_is_reused():
    tr = Transformer.from_spec(BlockSpec(dim=16, num_heads=2, mlp_hidden=32, cross_attention=True), 2).eval()
    x, ctx = torch.randn(1, 4, 16), torch.randn(1, 6, 16)
    full = tr(x, context=ctx, causal=True)
    tr.setup_cache(1, 8)
    steps = [tr(x[:, :2], context=ctx, causal=True, input_pos=0)]
    assert tr.cache.cross_filled
    for t in (2, 3):  # later steps must not need the encoder output again
        steps.append(tr(x[:, t:t + 1], context=None, causal=True, input_pos=t))
    torch.testing.assert_close(torch.cat(steps, 1), full, atol=1e-5, rtol=1e-5)
    tr.clear_cache()
    assert tr.cache is None


def test_kv_cache_overflow_is_an_error():
    tr = Transformer.from_spec(BlockSpec(dim=16, num_heads=2, mlp_hidden=32), 1)
    tr.setup_cache(1, 4)
    with pytest.raises(ValueError, match="holds 4 positions"):
        tr(torch.randn(1, 5, 16), causal=True, input_pos=0)
