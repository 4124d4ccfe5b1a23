"""Every attention backend equals the `math` oracle, for every mask kind."""
import pytest
import torch

from backbones.attention import MultiHeadAttention, attend, attend_math, available_backends
from backbones.masks import (
    block_diagonal_mask,
    cache_slots_mask,
    causal_mask,
    padding_mask,
    prefix_mask,
    segment_ids_from_lengths,
)

torch.manual_seed(0)


def qkv(b=2, h=4, hkv=4, tq=7, tk=7, dh=16):
    return torch.randn(b, h, tq, dh), torch.randn(b, hkv, tk, dh), torch.randn(b, hkv, tk, dh)


def _padding(b, tk, left=True):
    am = torch.ones(b, tk, dtype=torch.long)
    am[0, :3] = 0 if left else 1
    am[1, -2:] = 0
    return padding_mask(am)


MASKS = {
    "none": lambda b, tq, tk: None,
    "padding": lambda b, tq, tk: _padding(b, tk),
    "prefix": lambda b, tq, tk: prefix_mask(torch.tensor([2, 4]), tq, tk),
    "packed": lambda b, tq, tk: block_diagonal_mask(segment_ids_from_lengths([3, 4]).expand(b, -1)),
}


@pytest.mark.parametrize("mask_kind", MASKS)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("hkv", [4, 2, 1])
def test_sdpa_equals_math(mask_kind, causal, hkv):
    q, k, v = qkv(hkv=hkv)
    mask = MASKS[mask_kind](2, 7, 7)
    ref = attend(q, k, v, mask=mask, causal=causal, backend="math")
    out = attend(q, k, v, mask=mask, causal=causal, backend="sdpa")
    assert torch.isfinite(ref).all()
    torch.testing.assert_close(out, ref, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("tq", [1, 3])
def test_cache_chunk_is_bottom_right_causal(tq):
    """A chunk of Tq queries at the end of Tk keys equals the last Tq rows of full attention."""
    q, k, v = qkv(tq=9, tk=9)
    full = attend(q, k, v, causal=True, backend="math")
    for backend in ("math", "sdpa"):
        chunk = attend(q[:, :, -tq:], k, v, causal=True, backend=backend)
        torch.testing.assert_close(chunk, full[:, :, -tq:], atol=1e-5, rtol=1e-5)


def test_cache_slots_mask_is_the_causal_prefix_minus_padding():
    """A fixed-shape decoding step at slot 5 of an 8-slot cache sees slots 0..5 (its own included), minus
    padding; attending over the whole cache with it equals attending over the written prefix."""
    padding = torch.ones(2, 8, dtype=torch.long)
    padding[1, :2] = 0
    mask = cache_slots_mask(padding, torch.tensor([5]), 8)
    assert mask.shape == (2, 1, 1, 8)
    assert mask[0, 0, 0].tolist() == [True] * 6 + [False] * 2
    assert mask[1, 0, 0].tolist() == [False] * 2 + [True] * 4 + [False] * 2
    assert torch.equal(cache_slots_mask(None, torch.tensor([2, 3]), 5)[0, 0], causal_mask(2, 4).new_tensor(
        [[True, True, True, False, False], [True, True, True, True, False]]))
    q, k, v = qkv(b=2, tq=1, tk=8)
    prefix = attend(q, k[:, :, :6], v[:, :, :6], mask=padding_mask(padding[:, :6]), backend="math")
    torch.testing.assert_close(attend(q, k, v, mask=mask, backend="sdpa"), prefix, atol=1e-5, rtol=1e-5)


def test_cross_attention_lengths_differ():
    q, k, v = qkv(tq=5, tk=11, hkv=2)
    mask = _padding(2, 11)
    torch.testing.assert_close(attend(q, k, v, mask=mask, backend="sdpa"),
                               attend(q, k, v, mask=mask, backend="math"), atol=1e-5, rtol=1e-5)


def test_math_is_the_formula_and_returns_weights():
    q, k, v = qkv(b=1, h=1, hkv=1, tq=3, tk=3, dh=4)
    out, weights = attend_math(q, k, v, causal=True)
    scores = (q @ k.transpose(-1, -2)) / 2.0  # sqrt(4)
    scores = scores.masked_fill(~causal_mask(3, 3), float("-inf"))
    torch.testing.assert_close(weights, scores.softmax(-1))
    torch.testing.assert_close(out, scores.softmax(-1) @ v)
    assert torch.allclose(weights.sum(-1), torch.ones(1, 1, 3))


def test_packed_rows_equal_separate_sequences():
    """Block-diagonal causal attention over a packed row == each sequence alone."""
    q, k, v = qkv(b=1, tq=7, tk=7)
    mask = block_diagonal_mask(segment_ids_from_lengths([3, 4]))
    packed = attend(q, k, v, mask=mask, causal=True, backend="sdpa")
    first = attend(q[..., :3, :], k[..., :3, :], v[..., :3, :], causal=True, backend="math")
    second = attend(q[..., 3:, :], k[..., 3:, :], v[..., 3:, :], causal=True, backend="math")
    torch.testing.assert_close(packed, torch.cat([first, second], dim=2), atol=1e-5, rtol=1e-5)


def test_fully_masked_rows_stay_finite():
    """Left-padding queries under causality see no key; they must not produce NaN."""
    q, k, v = qkv()
    am = torch.ones(2, 7, dtype=torch.long)
    am[0, :4] = 0
    for backend in ("math", "sdpa"):
        assert torch.isfinite(attend(q, k, v, mask=padding_mask(am), causal=True, backend=backend)).all()


def test_forcing_an_unavailable_backend_lists_reasons():
    q, k, v = qkv()
    with pytest.raises(ValueError) as err:
        attend(q, k, v, backend="xformers")
    message = str(err.value)
    assert "xformers" in message and "sdpa: ok" in message and "math: ok" in message
    with pytest.raises(ValueError, match="backend must be one of"):
        attend(q, k, v, backend="flash9000")
    assert available_backends(q)["math"] is None


def test_shape_errors_are_clear():
    q, k, v = qkv(h=3, hkv=2)
    with pytest.raises(ValueError, match="must divide"):
        attend(q, k, v)
    with pytest.raises(ValueError, match=r"\(B, H, Tq, Dh\)"):
        attend(q[0], k, v)


def test_module_backends_agree_with_gqa_and_rope():
    from backbones.positions import RotaryEmbedding

    attn = MultiHeadAttention(32, 4, 2, rope=RotaryEmbedding(8, 64)).eval()
    x = torch.randn(2, 6, 32)
    ref = attn(x, causal=True)
    attn.backend = "math"
    torch.testing.assert_close(attn(x, causal=True), ref, atol=1e-5, rtol=1e-5)


def test_auto_choice_on_cpu():
    """auto: sdpa for inference and fp32; math for short bf16 training (SDPA's CPU bf16 backward is slow)."""
    from backbones.attention import _auto_backend

    q, k, _ = qkv()
    assert _auto_backend(q, k) == "sdpa"
    qb = q.bfloat16().requires_grad_()
    assert _auto_backend(qb, k.bfloat16()) == "math"
    assert _auto_backend(qb, torch.randn(2, 4, 300, 16).bfloat16()) == "sdpa"
    assert _auto_backend(q.bfloat16(), k.bfloat16()) == "sdpa"  # inference


def test_forward_with_weights_equals_forward_and_rows_sum_to_one():
    torch.manual_seed(0)
    attn = MultiHeadAttention(32, 4, num_kv_heads=2).eval()
    x = torch.randn(2, 5, 32)
    out, weights = attn.forward_with_weights(x, causal=True)
    torch.testing.assert_close(out, attn(x, causal=True), atol=1e-5, rtol=1e-5)
    assert weights.shape == (2, 4, 5, 5)
    torch.testing.assert_close(weights.sum(-1), torch.ones(2, 4, 5))
    assert weights.triu(1).abs().max() == 0  # causal: nothing above the diagonal


def test_set_attention_backend_routes_every_layer():
    import zoo
    from backbones import set_attention_backend

    model = zoo.create_model("gpt_tiny").eval()
    ids = model.example_inputs(2, 9)["input_ids"]
    ref = model(ids)
    layers = [m for m in model.modules() if isinstance(m, MultiHeadAttention)]
    assert set_attention_backend(model, "math") == len(layers) == model.config.depth
    assert {layer.backend for layer in layers} == {"math"}
    torch.testing.assert_close(model(ids), ref, atol=1e-4, rtol=1e-4)
    with pytest.raises(ValueError, match="backend must be one of"):
        set_attention_backend(model, "flash")
    with pytest.raises(ValueError, match="holds no MultiHeadAttention"):
        set_attention_backend(torch.nn.Linear(2, 2), "math")
    set_attention_backend(model, "xformers")  # set freely; refused per call where it cannot run
    with pytest.raises(ValueError, match="xformers has no kernels for device cpu"):
        model(ids)


def _fake_xformers_attention(q, k, v, attn_bias=None, p=0.0, scale=None):
    """xformers.ops.memory_efficient_attention's contract, computed by the math oracle: (B, M, H, K) or
    grouped (B, M, G, H, K) inputs; attn_bias None, a causal class (top-left or bottom-right) or a dense
    additive tensor (B, [G,] H, Mq, Mk) whose last stride is a multiple of 8."""
    import xformers.ops.fmha.attn_bias as xbias

    assert p == 0.0 and q.dtype == k.dtype == v.dtype
    grouped = q.dim() == 5
    if grouped:
        assert k.stride(3) == 0 and v.stride(3) == 0  # keys/values expanded over the group, not copied
        q, k, v = (t.flatten(2, 3) for t in (q, k, v))
    q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # (B, H, M, K)
    tq, tk = q.shape[-2], k.shape[-2]
    if attn_bias is None:
        mask = None
    elif isinstance(attn_bias, xbias.LowerTriangularFromBottomRightMask):
        mask = torch.ones(tq, tk, dtype=torch.bool).tril(tk - tq)
    elif isinstance(attn_bias, xbias.LowerTriangularMask):
        mask = torch.ones(tq, tk, dtype=torch.bool).tril()
    else:
        assert attn_bias.stride(-1) == 1 and attn_bias.stride(-2) % 8 == 0
        mask = (attn_bias.flatten(1, 2) if grouped else attn_bias) == 0
    return attend_math(q, k, v, mask=mask, scale=scale)[0].transpose(1, 2)  # (B, M, H, K)


@pytest.mark.parametrize("mask_kind", MASKS)
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("hkv", [4, 2])
def test_xformers_wrapper_layout(monkeypatch, mask_kind, causal, hkv):
    """The xformers path's layouts (B, T, H, Dh), grouped heads, padded dense bias, bottom-right causal chunk
    and one-dtype cast, checked on the CPU against a stand-in that computes xformers' documented contract;
    tests/backbones/test_attention_cuda.py checks the real kernels on a GPU."""
    import backbones.attention as attention

    if attention._xops is None:
        pytest.skip("xformers is not importable")
    monkeypatch.setattr(attention._xops, "memory_efficient_attention", _fake_xformers_attention)
    monkeypatch.setattr(attention._xops, "memory_efficient_attention_forward", _fake_xformers_attention)
    q, k, v = qkv(hkv=hkv)
    mask = MASKS[mask_kind](2, 7, 7)
    want = attend(q, k, v, mask=mask, causal=causal, backend="math")
    one_mask, one_causal = attention._one_mask(mask, causal, 7, 7, q.device)  # what attend() hands a backend
    got = attention._attend_xformers(q, k.double(), v.double(), one_mask, one_causal, 0.0, 16 ** -0.5)
    torch.testing.assert_close(got, want, atol=1e-5, rtol=1e-5)
    chunk = attention._attend_xformers(q[:, :, -3:], k, v, None, True, 0.0, 16 ** -0.5)
    torch.testing.assert_close(chunk, attend(q, k, v, causal=True, backend="math")[:, :, -3:], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("grad", [False, True], ids=["decoding", "training"])
def test_xformers_wrapper_two_dim_mask_and_training(monkeypatch, grad):
    """A (Tq, Tk) mask, and the training path (grouped heads repeated: xformers' backward lacks 5-D)."""
    import backbones.attention as attention

    if attention._xops is None:
        pytest.skip("xformers is not importable")
    monkeypatch.setattr(attention._xops, "memory_efficient_attention", _fake_xformers_attention)
    monkeypatch.setattr(attention._xops, "memory_efficient_attention_forward", _fake_xformers_attention)
    q, k, v = qkv(hkv=2)
    q.requires_grad_(grad)
    mask = causal_mask(7, 7) | torch.eye(7, dtype=torch.bool)
    got = attention._attend_xformers(q, k, v, mask, False, 0.0, 0.25)
    torch.testing.assert_close(got, attend(q, k, v, mask=mask, backend="math"), atol=1e-5, rtol=1e-5)
