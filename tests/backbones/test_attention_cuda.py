"""On a CUDA device, the xformers and sdpa backends equal the `math` oracle: every mask kind, grouped-query
attention, a chunk decoded against a cache, both half dtypes, forward and backward.

Skipped without a GPU (CI has none); a session lent one runs this file there. The oracle is `math` in fp32
on the same (rounded) inputs, so the tolerance is the half dtype's, not a backend's.
"""
import pytest
import torch

from backbones.attention import _xops, attend
from backbones.masks import block_diagonal_mask, padding_mask, prefix_mask, segment_ids_from_lengths

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
needs_xformers = pytest.mark.skipif(_xops is None, reason="xformers is not importable")
TOLERANCE = {torch.bfloat16: 2e-2, torch.float16: 4e-3}
B, TQ, TK = 2, 40, 40


def _padding(tk):
    am = torch.ones(B, tk, dtype=torch.long)
    am[0, :5] = 0  # left padding
    am[1, -7:] = 0  # right padding
    return padding_mask(am)


MASKS = {
    "none": lambda tq, tk: None,
    "padding": lambda tq, tk: _padding(tk),
    "prefix": lambda tq, tk: prefix_mask(torch.tensor([6, 17]), tq, tk),
    "packed": lambda tq, tk: block_diagonal_mask(segment_ids_from_lengths([13, 20, 7]).expand(B, -1)),
}


def _inputs(h, hkv, tq, tk, dh, dtype, grad=False):
    g = torch.Generator(device="cuda").manual_seed(0)
    shapes = [(B, h, tq, dh), (B, hkv, tk, dh), (B, hkv, tk, dh)]
    return [torch.randn(s, device="cuda", dtype=dtype, generator=g).requires_grad_(grad) for s in shapes]


def _oracle(q, k, v, **kwargs):
    return attend(q.float(), k.float(), v.float(), backend="math", **kwargs)


def _check(backend, dtype, h=8, hkv=8, tq=TQ, tk=TK, dh=64, mask_kind="none", causal=False):
    mask = MASKS[mask_kind](tq, tk)
    mask = None if mask is None else mask.cuda()
    q, k, v = _inputs(h, hkv, tq, tk, dh, dtype, grad=True)
    out = attend(q, k, v, mask=mask, causal=causal, backend=backend)
    assert out.dtype == dtype and out.shape == q.shape
    qf, kf, vf = (t.detach().float().requires_grad_() for t in (q, k, v))
    ref = attend(qf, kf, vf, mask=mask, causal=causal, backend="math")
    tol = TOLERANCE[dtype]
    torch.testing.assert_close(out.float(), ref, atol=tol, rtol=tol)
    grad_out = torch.randn_like(ref)
    out.backward(grad_out.to(dtype))
    ref.backward(grad_out)
    for name, got, want in (("dq", q.grad, qf.grad), ("dk", k.grad, kf.grad), ("dv", v.grad, vf.grad)):
        scale = want.abs().max().item()
        assert (got.float() - want).abs().max().item() <= 4 * tol * max(scale, 1.0), f"{backend} {name}"


@needs_xformers
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16], ids=["bf16", "fp16"])
@pytest.mark.parametrize("mask_kind", MASKS)
@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_xformers_equals_math(dtype, mask_kind, causal):
    _check("xformers", dtype, mask_kind=mask_kind, causal=causal)


@pytest.mark.parametrize("backend", [pytest.param("xformers", marks=needs_xformers), "sdpa"])
@pytest.mark.parametrize("hkv", [4, 1], ids=["gqa", "mqa"])
@pytest.mark.parametrize("dh", [64, 128])
def test_grouped_query_heads_and_head_widths(backend, hkv, dh):
    _check(backend, torch.bfloat16, hkv=hkv, dh=dh, mask_kind="padding", causal=True)


@pytest.mark.parametrize("backend", [pytest.param("xformers", marks=needs_xformers), "sdpa"])
@pytest.mark.parametrize("tq", [1, 5])
def test_chunk_against_a_cache_is_bottom_right_causal(backend, tq):
    """Tq new queries after Tk - Tq cached keys: the bottom-right causal rows, with and without padding."""
    _check(backend, torch.bfloat16, tq=tq, tk=TK, causal=True)
    _check(backend, torch.bfloat16, tq=tq, tk=TK, causal=True, mask_kind="padding")


@pytest.mark.parametrize("backend", [pytest.param("xformers", marks=needs_xformers), "sdpa"])
def test_cross_attention_lengths_differ(backend):
    _check(backend, torch.bfloat16, tq=23, tk=75, mask_kind="padding")


@needs_xformers
def test_auto_picks_compiled_xformers_for_half_and_sdpa_otherwise():
    """xformers first only where its compiled kernels loaded (else it wraps torch's kernels, slower than sdpa)."""
    from backbones.attention import XFORMERS_COMPILED, _auto_backend

    q, k, _ = _inputs(4, 4, 8, 8, 64, torch.bfloat16)
    assert _auto_backend(q, k) == ("xformers" if XFORMERS_COMPILED else "sdpa")
    assert _auto_backend(q.float(), k.float()) == "sdpa"


@needs_xformers
def test_kv_cache_in_another_dtype():
    """Under autocast a cache may hold fp32 keys for bf16 queries: xformers takes one dtype, so attend casts."""
    q, k, v = _inputs(8, 2, 1, TK, 64, torch.bfloat16)
    out = attend(q, k.float(), v.float(), causal=True, backend="xformers")
    torch.testing.assert_close(out.float(), _oracle(q, k, v, causal=True), atol=2e-2, rtol=2e-2)


@needs_xformers
def test_fully_masked_rows_stay_finite():
    q, k, v = _inputs(4, 4, TQ, TK, 64, torch.bfloat16)
    am = torch.ones(B, TK, dtype=torch.long)
    am[0, :30] = 0
    out = attend(q, k, v, mask=padding_mask(am).cuda(), causal=True, backend="xformers")
    assert torch.isfinite(out).all()


@needs_xformers
def test_grouped_heads_under_no_grad_of_trainable_inputs():
    """Evaluation of a model in training (inputs require grad, torch.no_grad around): the 5-D grouped layout
    goes through xformers' forward-only entry, which never looks for a backward kernel."""
    q, k, v = _inputs(8, 2, TQ, TK, 64, torch.bfloat16, grad=True)
    with torch.no_grad():
        out = attend(q, k, v, causal=True, backend="xformers")
    want = _oracle(q.detach(), k.detach(), v.detach(), causal=True)
    torch.testing.assert_close(out.float(), want, atol=2e-2, rtol=2e-2)
