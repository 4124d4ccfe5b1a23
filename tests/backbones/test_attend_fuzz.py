"""A hypothesis fuzz of attend(): over batch, heads, grouped key/value heads, query and key lengths (a query
chunk at a cache offset: Tk = offset + Tq), head widths, masks (none, key padding, a full (B, 1, Tq, Tk)
mask, rows with every key masked), causal or not, and non-contiguous inputs, every backend that can run here
equals `math`; where the zoo operators are loaded, the decoding kernel's shapes (zoo::decode_attention) too."""
from __future__ import annotations

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backbones.attention import attend, attend_math, available_backends
from backbones.inference import attention_kernel, gemv


@st.composite
def attention_inputs(draw):
    b = draw(st.integers(1, 3))
    hkv = draw(st.integers(1, 3))
    h = hkv * draw(st.integers(1, 3))
    tq = draw(st.integers(1, 9))
    offset = draw(st.integers(0, 12))
    tk = tq + offset
    dh = draw(st.sampled_from([8, 16, 24, 64]))
    causal = draw(st.booleans())
    kind = draw(st.sampled_from(["none", "padding", "full"]))
    seed = draw(st.integers(0, 2**16))
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(b, h, tq, dh, generator=g)
    k = torch.randn(b, hkv, tk, dh, generator=g)
    v = torch.randn(b, hkv, tk, dh, generator=g)
    if draw(st.booleans()):  # the (B, T, H, Dh) projection's transposed view, as the attention module makes
        k = k.transpose(1, 2).contiguous().transpose(1, 2)
    mask = None
    if kind == "padding":  # left padding of a few keys per row (a row may lose all of its keys)
        pad = torch.randint(0, tk + 1, (b,), generator=g)
        mask = (torch.arange(tk)[None, :] >= pad[:, None])[:, None, None, :]  # (B, 1, 1, Tk)
    elif kind == "full":
        mask = torch.rand(b, 1, tq, tk, generator=g) > 0.3
    return q, k, v, mask, causal


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attention_inputs())
def test_every_backend_equals_math(inputs):
    q, k, v, mask, causal = inputs
    want = attend_math(q, k, v, mask=mask, causal=causal)[0]
    ran = 0
    for backend, reason in available_backends(q).items():
        if reason is None and backend != "math":
            got = attend(q, k, v, mask=mask, causal=causal, backend=backend)
            torch.testing.assert_close(got, want, rtol=1e-5, atol=2e-5, msg=lambda m: f"{backend}: {m}")
            ran += 1
    assert ran >= 1  # sdpa at least, on any machine


@pytest.mark.skipif(not gemv.available(torch.float32), reason=gemv.reason(torch.float32) or "zoo operators absent")
@settings(max_examples=80, deadline=None)
@given(b=st.integers(1, 3), hkv=st.integers(1, 3), group=st.integers(1, 3), tq=st.integers(1, 16),
       tk=st.integers(1, 300), dh=st.sampled_from([8, 32, 64, 128, 256]), seed=st.integers(0, 2**16))
def test_decoding_kernel_equals_math(b, hkv, group, tq, tk, dh, seed):
    g = torch.Generator().manual_seed(seed)
    q = torch.randn(b, hkv * group, tq, dh, generator=g)
    k, v = (torch.randn(b, hkv, tk, dh, generator=g) for _ in range(2))
    with torch.no_grad():
        assert attention_kernel.applies(q, k, v, None, False, 0.0)
        got = attend(q, k, v, backend="zoo_cpu")  # zoo::decode_attention takes these: no mask, a few rows, fp32
    torch.testing.assert_close(got, attend_math(q, k, v)[0], rtol=1e-5, atol=2e-5)
