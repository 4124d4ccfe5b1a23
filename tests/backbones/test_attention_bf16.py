"""backbones/inference/attention_kernel.py: zoo::bf16_attention (many query rows in bf16, AVX512-BF16) is as
close to exact attention as torch's own bf16 kernel; attend(backend="zoo_cpu") (what pack_for_inference sets)
routes bf16 encoder and prompt calls to it once the zoo operators are loaded, on CPUs without AMX (with AMX torch's
kernel is faster), and nothing else."""
from functools import partial

import pytest
import torch
import torch.nn.functional as F

from backbones.attention import attend, attend_math
from backbones.inference import attention_kernel, gemv
from backbones.masks import causal_mask
from tests.backbones import attention_reference
from tests.backbones.attention_reference import exact

UNSUPPORTED = gemv.unsupported_reason(torch.bfloat16)
pytestmark = pytest.mark.skipif(UNSUPPORTED is not None, reason=f"no bf16 zoo operators here: {UNSUPPORTED}")


@pytest.fixture(autouse=True)
def kernels_loaded():
    assert gemv.available(torch.bfloat16), gemv.reason(torch.bfloat16)


def inputs(*shape, seed=0):
    return attention_reference.inputs(*shape, seed=seed, dtype=torch.bfloat16)


@pytest.mark.parametrize("shape", [(1, 6, 6, 300, 300, 64, False), (2, 4, 2, 37, 53, 64, False),
                                   (1, 4, 4, 100, 100, 128, True), (1, 2, 2, 19, 40, 32, True),
                                   (1, 3, 1, 17, 17, 256, False), (2, 2, 2, 45, 1, 32, False),
                                   (1, 2, 2, 33, 33, 96, True)])
def test_as_close_to_exact_as_torch_bf16_kernel(shape):
    """(B, H, Hkv, Tq, Tk, Dh, causal): grouped heads, query counts that are not a multiple of the 8-row tile,
    key counts that are not a multiple of 16 (one key too), head widths 32-256, causal with fewer queries than
    keys (bottom-right). Its error against fp64 is at most torch's bf16 kernel's (SDPA flash, or math with an
    explicit mask where SDPA's causal would align top-left) plus an eighth of a bf16 ulp of the output."""
    b, h, hkv, tq, tk, dh, causal = shape
    q, k, v = inputs(b, h, hkv, tq, tk, dh)
    scale = dh ** -0.5
    want = exact(q, k, v, scale, causal)
    got = attention_kernel.bf16_attention(q, k, v, scale, causal)
    assert got.dtype == torch.bfloat16 and got.shape == (b, h, tq, dh) and got.is_contiguous()
    if causal and tq != tk:
        torch_bf16 = attend_math(q, k, v, causal=True)[0]
    else:
        torch_bf16 = F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=h != hkv)
    ours_error = (got.double() - want).abs().max().item()
    torch_error = (torch_bf16.double() - want).abs().max().item()
    assert ours_error <= torch_error + want.abs().max().item() * 2 ** -11, (ours_error, torch_error)


def test_scale_and_strided_views():
    """Any scale; q, k and v as transposed views of (B, T, H, Dh) projections (the layout MultiHeadAttention
    hands over) give the same values as contiguous ones."""
    q, k, v = inputs(2, 4, 4, 70, 90, 64, seed=1)
    got = attention_kernel.bf16_attention(q, k, v, 0.3, False)
    assert (got.double() - exact(q, k, v, 0.3, False)).abs().max() < 0.02
    views = [t.transpose(1, 2).contiguous().transpose(1, 2) for t in (q, k, v)]
    assert not views[0].is_contiguous()
    assert torch.equal(attention_kernel.bf16_attention(*views, 0.3, False), got)


def test_attend_routes_bf16_encoder_and_prompt_calls_only(monkeypatch):
    monkeypatch.setattr(attention_kernel, "ROUTE_BF16", True)  # as on a CPU without AMX
    calls = []
    original = attention_kernel.bf16_attention
    monkeypatch.setattr(attention_kernel, "bf16_attention", lambda *a: calls.append(a) or original(*a))
    q, k, v = inputs(1, 4, 4, 40, 40, 64, seed=2)
    zoo_cpu = partial(attend, backend="zoo_cpu")
    zoo_cpu(q, k, v)
    zoo_cpu(q, k, v, causal=True)
    zoo_cpu(q[:, :, :20], k, v, causal=True)  # a prompt's second chunk after a cached first
    zoo_cpu(q.clone().requires_grad_(), k, v, causal=True)  # training: torch's flash backward takes these
    assert len(calls) == 4
    others = [lambda: zoo_cpu(q, k, v, mask=torch.ones(1, 1, 40, 40, dtype=torch.bool)),
              lambda: attend(q, k, v, backend="math"), lambda: zoo_cpu(q[:, :, :16], k, v),
              lambda: zoo_cpu(q.float(), k.float(), v.float()), lambda: zoo_cpu(q[..., :48], k[..., :48], v[..., :48]),
              lambda: zoo_cpu(q.clone().requires_grad_(), k[:, :2], v[:, :2]),
              lambda: zoo_cpu(q[:, :, :20].clone().requires_grad_(), k, v, causal=True),
              lambda: zoo_cpu(q, k, v, dropout_p=0.1), lambda: attend(q, k, v), lambda: attend(q, k, v, backend="sdpa")]
    for run in others:
        run()
    # masked, math, 16 rows (the decoding kernel's), fp32, width 48, gradients through grouped heads or a
    # bottom-right causal mask (torch's backward has neither), dropout, and every call not on zoo_cpu
    assert len(calls) == 4


def test_left_to_torch_on_an_amx_cpu(monkeypatch):
    """Where the CPU has AMX, torch's flash kernel is faster than ours: attend() never routes to it there."""
    q, k, v = inputs(1, 4, 4, 40, 40, 64, seed=2)
    trained = q.clone().requires_grad_()
    monkeypatch.setattr(attention_kernel, "ROUTE_BF16", True)  # as without AMX: these inputs are routed
    assert attention_kernel.bf16_applies(q, k, v, None, False, 0.0)
    assert attention_kernel.bf16_applies(trained, k, v, None, True, 0.0)
    monkeypatch.setattr(attention_kernel, "ROUTE_BF16", False)
    assert not attention_kernel.bf16_applies(q, k, v, None, False, 0.0)
    assert not attention_kernel.bf16_applies(trained, k, v, None, True, 0.0)
    calls = []
    monkeypatch.setattr(attention_kernel, "bf16_attention", lambda *a: calls.append(a))
    attend(q, k, v, backend="zoo_cpu")
    attend(trained, k, v, causal=True, backend="zoo_cpu")
    assert calls == []


def test_not_used_before_the_operators_are_loaded(monkeypatch):
    monkeypatch.setattr(gemv, "_state", {})  # as in a new process that packed nothing
    q, k, v = inputs(1, 2, 2, 32, 32, 32)
    assert not attention_kernel.bf16_applies(q, k, v, None, False, 0.0)


def test_bad_input_names_what_was_expected():
    q, k, v = inputs(1, 4, 4, 32, 32, 64)
    with pytest.raises(RuntimeError, match="must all be bfloat16, got q Float"):
        torch.ops.zoo.bf16_attention(q.float(), k, v, 1.0, False)
    with pytest.raises(RuntimeError, match="Hkv dividing 4"):
        torch.ops.zoo.bf16_attention(q, k[:, :3], v[:, :3], 1.0, False)
    with pytest.raises(RuntimeError, match="multiple of 32"):
        torch.ops.zoo.bf16_attention(q[..., :48], k[..., :48], v[..., :48], 1.0, False)
    with pytest.raises(RuntimeError, match="no more queries than keys"):
        torch.ops.zoo.bf16_attention(q, k[:, :, :8], v[:, :, :8], 1.0, True)


def test_traced_by_torch_compile_in_one_graph(monkeypatch):
    monkeypatch.setattr(attention_kernel, "ROUTE_BF16", True)  # as on a CPU without AMX
    q, k, v = inputs(1, 2, 2, 24, 24, 32, seed=3)
    zoo_cpu = partial(attend, backend="zoo_cpu", causal=True)
    compiled = torch.compile(lambda q, k, v: zoo_cpu(q, k, v) * 2, backend="aot_eager", fullgraph=True)
    with torch.no_grad():
        assert torch.equal(compiled(q, k, v), zoo_cpu(q, k, v) * 2)


def test_log_sum_exp_of_each_row():
    """zoo::bf16_attention_lse: the same output, and each row's log-sum-exp of its scaled scores (what torch's
    flash backward reads) within fp32 rounding of the exact one; causal rows count only the keys they see."""
    for causal in (False, True):
        q, k, v = inputs(2, 3, 3, 41, 41, 64, seed=4)
        out, lse = torch.ops.zoo.bf16_attention_lse(q, k, v, 0.125, causal)
        assert torch.equal(out, torch.ops.zoo.bf16_attention(q, k, v, 0.125, causal))
        scores = (q.double() @ k.double().transpose(-1, -2)) * 0.125
        if causal:
            scores = scores.masked_fill(~causal_mask(41, 41, None), float("-inf"))
        assert lse.dtype == torch.float32 and lse.shape == (2, 3, 41)
        torch.testing.assert_close(lse.double(), torch.logsumexp(scores, -1), rtol=0, atol=1e-4)


@pytest.mark.parametrize("causal", [False, True])
def test_training_gradients_are_as_close_to_exact_as_torch_bf16_kernel(causal, monkeypatch):
    """With gradients attend() runs our forward and torch's CPU flash backward from its log-sum-exp: each of
    dq, dk and dv is as close to the fp64 gradient as torch's bf16 SDPA's (same backward kernel, our forward)
    plus a sixteenth of a bf16 ulp of the largest."""
    q, k, v = inputs(2, 4, 4, 300, 300, 64, seed=5)
    grad = torch.randn(2, 4, 300, 64, generator=torch.Generator().manual_seed(6)).bfloat16()

    def grads(fn, dtype):
        leaves = [t.detach().to(dtype).requires_grad_() for t in (q, k, v)]
        fn(*leaves).backward(grad.to(dtype))
        return [t.grad.double() for t in leaves]

    exact_grads = grads(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal), torch.float64)
    torch_grads = grads(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=causal), torch.bfloat16)
    calls = []
    original = attention_kernel.torch_private.flash_attention_backward
    monkeypatch.setattr(attention_kernel.torch_private, "flash_attention_backward",
                        lambda *a: calls.append(1) or original(*a))
    monkeypatch.setattr(attention_kernel, "ROUTE_BF16", True)  # as on a CPU without AMX
    ours = grads(lambda q, k, v: attend(q, k, v, causal=causal, backend="zoo_cpu"), torch.bfloat16)
    assert calls == [1]  # our forward's backward ran
    for name, want, theirs, got in zip("qkv", exact_grads, torch_grads, ours):
        ours_error, torch_error = (got - want).abs().max().item(), (theirs - want).abs().max().item()
        assert ours_error <= torch_error + want.abs().max().item() * 2 ** -12, (name, ours_error, torch_error)
