"""backbones/inference/attention_kernel.py: zoo::decode_attention (a few query rows over a long cache, fp32 or
bf16, AVX2) equals torch's attention; attend(backend="zoo_cpu") (what pack_for_inference sets) routes decoding-shaped
calls to it once the zoo operators are loaded, and nothing else; "auto" and "sdpa" never do."""
from functools import partial

import pytest
import torch
import torch.nn.functional as F

from backbones.attention import attend
from backbones.inference import attention_kernel, gemv

UNSUPPORTED = gemv.unsupported_reason(torch.float32)
pytestmark = pytest.mark.skipif(UNSUPPORTED is not None, reason=f"zoo operators not for this machine: {UNSUPPORTED}")


@pytest.fixture(autouse=True)
def kernels_loaded():
    assert gemv.available(torch.float32), gemv.reason(torch.float32)


@pytest.mark.parametrize("shape", [(1, 6, 6, 1, 1500, 64), (3, 8, 8, 1, 77, 64), (2, 8, 2, 1, 40, 128),
                                   (1, 6, 6, 5, 300, 64), (2, 4, 4, 16, 9, 8), (1, 2, 1, 1, 1, 256),
                                   (1, 3, 3, 2, 33, 24)])
def test_equals_torch_attention(shape):
    """(B, H, Hkv, Tq, Tk, Dh): grouped heads, 1-16 query rows, 1 to 1500 keys, head widths 8-256 (24: not a
    multiple of 16)."""
    b, h, hkv, tq, tk, dh = shape
    torch.manual_seed(0)
    q, k, v = torch.randn(b, h, tq, dh), torch.randn(b, hkv, tk, dh), torch.randn(b, hkv, tk, dh)
    want = F.scaled_dot_product_attention(q, k, v, enable_gqa=h != hkv)
    got = attention_kernel.decode_attention(q, k, v, dh ** -0.5)
    assert got.shape == want.shape and got.is_contiguous()
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    scaled = attention_kernel.decode_attention(q, k, v, 0.3)
    torch.testing.assert_close(scaled, F.scaled_dot_product_attention(q, k, v, scale=0.3, enable_gqa=h != hkv),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", [(1, 8, 8, 1, 1500, 64), (2, 8, 2, 3, 77, 128), (1, 3, 3, 2, 33, 24)])
def test_bf16_equals_fp32_attention_rounded_once(shape):
    """bf16 tensors (a bf16 model's cross-attention cache): the fp32 result on the same values, rounded to
    bf16 once, as torch's bf16 kernels give it."""
    b, h, hkv, tq, tk, dh = shape
    torch.manual_seed(4)
    q, k, v = (torch.randn(*s).bfloat16() for s in ((b, h, tq, dh), (b, hkv, tk, dh), (b, hkv, tk, dh)))
    want = F.scaled_dot_product_attention(q.float(), k.float(), v.float(), enable_gqa=h != hkv)
    got = attention_kernel.decode_attention(q, k, v, dh ** -0.5)
    assert got.dtype == torch.bfloat16 and got.shape == want.shape and got.is_contiguous()
    torch.testing.assert_close(got.float(), want, rtol=2 ** -8, atol=1e-6)  # half a bf16 ulp: one rounding
    strided = attention_kernel.decode_attention(q.transpose(1, 2).contiguous().transpose(1, 2), k, v, dh ** -0.5)
    assert torch.equal(strided, got)


def test_a_cache_slice_is_read_in_place():
    """Keys and values as a KV cache hands them: the first L slots of a longer buffer (strided in T's
    neighbours), and a query that is a transposed view."""
    torch.manual_seed(1)
    cache_k, cache_v = torch.randn(2, 4, 50, 32), torch.randn(2, 4, 50, 32)
    k, v = cache_k[:, :, :17], cache_v[:, :, :17]
    q = torch.randn(2, 1, 4, 32).transpose(1, 2)  # (B, H, 1, Dh), not contiguous
    torch.testing.assert_close(attention_kernel.decode_attention(q, k, v, 32 ** -0.5),
                               F.scaled_dot_product_attention(q, k, v), rtol=1e-5, atol=1e-5)


def test_attend_routes_decoding_calls_only(monkeypatch):
    calls = []
    original = attention_kernel.decode_attention
    monkeypatch.setattr(attention_kernel, "decode_attention", lambda *a: calls.append(a) or original(*a))
    torch.manual_seed(2)
    q, k, v = torch.randn(1, 4, 1, 16), torch.randn(1, 4, 30, 16), torch.randn(1, 4, 30, 16)
    want = F.scaled_dot_product_attention(q, k, v)
    zoo_cpu = partial(attend, backend="zoo_cpu")
    torch.testing.assert_close(zoo_cpu(q, k, v), want, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(zoo_cpu(q, k, v, causal=True), want, rtol=1e-5, atol=1e-5)  # one row: nothing masked
    zoo_cpu(q.bfloat16(), k.bfloat16(), v.bfloat16())
    assert len(calls) == 3
    mask = torch.ones(1, 1, 1, 30, dtype=torch.bool)
    long_q = torch.randn(1, 4, 17, 16)
    others = [lambda: zoo_cpu(q, k, v, mask=mask), lambda: attend(q, k, v, backend="math"),
              lambda: zoo_cpu(long_q, k, v), lambda: zoo_cpu(torch.randn(1, 4, 3, 16), k, v, causal=True),
              lambda: zoo_cpu(q.half(), k.half(), v.half()),
              lambda: zoo_cpu(q.clone().requires_grad_(), k, v),
              lambda: attend(q, k, v), lambda: attend(q, k, v, backend="sdpa")]
    for run in others:
        run()
    # masked, math, 17 rows, causal rows, fp16, gradients, and every call not on zoo_cpu: torch's kernels
    assert len(calls) == 3


def test_not_used_before_the_operators_are_loaded(monkeypatch):
    monkeypatch.setattr(gemv, "_state", {})  # as in a new process that packed nothing
    q, k, v = torch.randn(1, 2, 1, 8), torch.randn(1, 2, 5, 8), torch.randn(1, 2, 5, 8)
    assert not attention_kernel.applies(q, k, v, None, False, 0.0)
    with pytest.raises(ValueError, match="zoo operators are not loaded"):
        attend(q, k, v, backend="zoo_cpu")


def test_bad_input_names_what_was_expected():
    q, k = torch.randn(1, 4, 1, 16), torch.randn(1, 4, 8, 16)
    with pytest.raises(RuntimeError, match="all float32 or all bfloat16, got q Double"):
        torch.ops.zoo.decode_attention(q.double(), k.double(), k.double(), 1.0)
    with pytest.raises(RuntimeError, match="all float32 or all bfloat16, got q Float, k BFloat16"):
        torch.ops.zoo.decode_attention(q, k.bfloat16(), k.bfloat16(), 1.0)
    with pytest.raises(RuntimeError, match="Hkv dividing 4"):
        torch.ops.zoo.decode_attention(q, torch.randn(1, 3, 8, 16), torch.randn(1, 3, 8, 16), 1.0)
    with pytest.raises(RuntimeError, match="1 to 16 query rows"):
        torch.ops.zoo.decode_attention(torch.randn(1, 4, 17, 16), k, k, 1.0)
    with pytest.raises(RuntimeError, match="multiple of 8"):
        torch.ops.zoo.decode_attention(torch.randn(1, 4, 1, 12), torch.randn(1, 4, 8, 12), torch.randn(1, 4, 8, 12),
                                       1.0)


def test_traced_by_torch_compile_in_one_graph():
    """Compiled decoding steps call the operator: its shape function traces (aot_eager runs fake tensors through
    it, cheaply) and the result equals eager."""
    torch.manual_seed(3)
    q, k, v = torch.randn(1, 4, 1, 16), torch.randn(1, 4, 30, 16), torch.randn(1, 4, 30, 16)
    compiled = torch.compile(lambda q, k, v: attend(q, k, v, backend="zoo_cpu") * 2, backend="aot_eager",
                             fullgraph=True)
    with torch.no_grad():
        torch.testing.assert_close(compiled(q, k, v), 2 * F.scaled_dot_product_attention(q, k, v),
                                   rtol=1e-5, atol=1e-5)
