"""backbones/inference/attention_kernel.py: zoo::f32_attention (many query rows in fp32, AVX2 + FMA) is as close to
exact attention as torch's own fp32 kernel; attend(backend="zoo_cpu") (what pack_for_inference sets) routes fp32
encoder and prompt calls without gradients to it once the zoo operators are loaded, on CPUs without AVX-512 (where
it was measured faster), and nothing else."""
from functools import partial

import pytest
import torch
import torch.nn.functional as F

from backbones.attention import attend, attend_math
from backbones.inference import attention_kernel, gemv
from tests.backbones.attention_reference import exact, inputs

UNSUPPORTED = gemv.unsupported_reason(torch.float32)
pytestmark = pytest.mark.skipif(UNSUPPORTED is not None, reason=f"no zoo operators here: {UNSUPPORTED}")


@pytest.fixture(autouse=True)
def kernels_loaded():
    assert gemv.available(torch.float32), gemv.reason(torch.float32)


@pytest.mark.parametrize("shape", [(1, 6, 6, 300, 300, 64, False), (2, 4, 2, 37, 53, 64, False),
                                   (1, 4, 4, 100, 100, 128, True), (1, 2, 2, 19, 40, 32, True),
                                   (1, 3, 1, 17, 17, 256, False), (2, 2, 2, 45, 1, 8, False),
                                   (1, 2, 2, 33, 33, 24, True), (1, 2, 2, 70, 131, 40, False)])
def test_as_close_to_exact_as_torch_fp32_kernel(shape):
    """(B, H, Hkv, Tq, Tk, Dh, causal): grouped heads, query counts that are not a multiple of the 4-row micro-tile
    or the 32-row task, key counts that are not a multiple of the 8-key block or the 24-key and 48-key chunks (one
    key too), head widths 8-256 (an odd number of 8-feature vectors too), causal with fewer queries than keys
    (bottom-right). Its error against fp64 is at most twice torch's fp32 kernel's (SDPA, or math with an explicit
    mask where SDPA's causal would align top-left) plus 2^-22 of the output's largest value: the same arithmetic
    summed in another order."""
    b, h, hkv, tq, tk, dh, causal = shape
    q, k, v = inputs(b, h, hkv, tq, tk, dh)
    scale = dh ** -0.5
    want = exact(q, k, v, scale, causal)
    got = attention_kernel.f32_attention(q, k, v, scale, causal)
    assert got.dtype == torch.float32 and got.shape == (b, h, tq, dh) and got.is_contiguous()
    if causal and tq != tk:
        torch_fp32 = attend_math(q, k, v, causal=True)[0]
    else:
        torch_fp32 = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=h != hkv)
    ours_error = (got.double() - want).abs().max().item()
    torch_error = (torch_fp32.double() - want).abs().max().item()
    assert ours_error <= 2 * torch_error + want.abs().max().item() * 2 ** -22, (ours_error, torch_error)


def test_scale_and_strided_views():
    """Any scale; q, k and v as transposed views of (B, T, H, Dh) projections (the layout MultiHeadAttention
    hands over) give the same values as contiguous ones."""
    q, k, v = inputs(2, 4, 4, 70, 90, 64, seed=1)
    got = attention_kernel.f32_attention(q, k, v, 0.3, False)
    assert (got.double() - exact(q, k, v, 0.3, False)).abs().max() < 1e-5
    views = [t.transpose(1, 2).contiguous().transpose(1, 2) for t in (q, k, v)]
    assert not views[0].is_contiguous()
    assert torch.equal(attention_kernel.f32_attention(*views, 0.3, False), got)


def test_attend_routes_fp32_encoder_and_prompt_calls_without_gradients_only(monkeypatch):
    monkeypatch.setattr(attention_kernel, "ROUTE_F32", True)  # as on a CPU without AVX-512
    calls = []
    original = attention_kernel.f32_attention
    monkeypatch.setattr(attention_kernel, "f32_attention", lambda *a: calls.append(a) or original(*a))
    q, k, v = inputs(1, 4, 4, 40, 40, 64, seed=2)
    zoo_cpu = partial(attend, backend="zoo_cpu")
    with torch.no_grad():
        torch.testing.assert_close(zoo_cpu(q, k, v), F.scaled_dot_product_attention(q, k, v), rtol=0, atol=1e-5)
        zoo_cpu(q, k, v, causal=True)
        zoo_cpu(q[:, :, :20], k, v, causal=True)  # a prompt's second chunk after a cached first
    assert len(calls) == 3
    others = [lambda: zoo_cpu(q, k, v, mask=torch.ones(1, 1, 40, 40, dtype=torch.bool)),
              lambda: attend(q, k, v, backend="math"), lambda: zoo_cpu(q[:, :, :16], k, v),
              lambda: zoo_cpu(q.double(), k.double(), v.double()),
              lambda: zoo_cpu(q[..., :44], k[..., :44], v[..., :44]),
              lambda: zoo_cpu(q.clone().requires_grad_(), k, v), lambda: zoo_cpu(q, k, v, dropout_p=0.1),
              lambda: attend(q, k, v), lambda: attend(q, k, v, backend="sdpa")]
    for run in others:
        run()
    # masked, math, 16 rows (the decoding kernel's), fp64, width 44, a gradient (the operator has none), dropout,
    # and every call not on zoo_cpu
    assert len(calls) == 3


def test_left_to_torch_on_an_avx512_cpu(monkeypatch):
    """Measured faster only without AVX-512: with it, attend() never routes to it."""
    q, k, v = inputs(1, 4, 4, 40, 40, 64, seed=2)
    monkeypatch.setattr(attention_kernel, "ROUTE_F32", True)
    assert attention_kernel.f32_applies(q, k, v, None, False, 0.0)
    monkeypatch.setattr(attention_kernel, "ROUTE_F32", False)
    assert not attention_kernel.f32_applies(q, k, v, None, False, 0.0)
    calls = []
    monkeypatch.setattr(attention_kernel, "f32_attention", lambda *a: calls.append(a))
    with torch.no_grad():
        attend(q, k, v, backend="zoo_cpu")
    assert calls == []


def test_not_used_before_the_operators_are_loaded(monkeypatch):
    monkeypatch.setattr(gemv, "_state", {})  # as in a new process that packed nothing
    monkeypatch.setattr(attention_kernel, "ROUTE_F32", True)
    q, k, v = inputs(1, 2, 2, 32, 32, 32)
    assert not attention_kernel.f32_applies(q, k, v, None, False, 0.0)


def test_bad_input_names_what_was_expected():
    q, k, v = inputs(1, 4, 4, 32, 32, 64)
    with pytest.raises(RuntimeError, match="must all be float32, got q BFloat16"):
        torch.ops.zoo.f32_attention(q.bfloat16(), k, v, 1.0, False)
    with pytest.raises(RuntimeError, match="Hkv dividing 4"):
        torch.ops.zoo.f32_attention(q, k[:, :3], v[:, :3], 1.0, False)
    with pytest.raises(RuntimeError, match="multiple of 8"):
        torch.ops.zoo.f32_attention(q[..., :44], k[..., :44], v[..., :44], 1.0, False)
    with pytest.raises(RuntimeError, match="no more queries than keys"):
        torch.ops.zoo.f32_attention(q, k[:, :, :8], v[:, :, :8], 1.0, True)


def test_traced_by_torch_compile_in_one_graph(monkeypatch):
    monkeypatch.setattr(attention_kernel, "ROUTE_F32", True)
    q, k, v = inputs(1, 2, 2, 24, 24, 32, seed=3)
    zoo_cpu = partial(attend, backend="zoo_cpu", causal=True)
    compiled = torch.compile(lambda q, k, v: zoo_cpu(q, k, v) * 2, backend="aot_eager", fullgraph=True)
    with torch.no_grad():
        assert torch.equal(compiled(q, k, v), zoo_cpu(q, k, v) * 2)
