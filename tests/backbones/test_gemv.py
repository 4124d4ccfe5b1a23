"""backbones/gemv.py: zoo::gemv, the one-row linear kernel, equals F.linear; packing routes batch-1 calls to it."""
import copy
import pickle
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F

import zoo
from backbones import gemv
from backbones.linear import Linear, pack_for_inference

# Skipped only where the kernel is not meant to run (another CPU or OS, ZOO_GEMV=0); on a machine that
# should build it, a failed build fails these tests (the fixture below), rather than skipping them.
UNSUPPORTED = gemv._unsupported_reason()
needs_kernel = pytest.mark.skipif(UNSUPPORTED is not None, reason=f"zoo::gemv not for this machine: {UNSUPPORTED}")


@pytest.fixture(autouse=True)
def kernel_built():
    if UNSUPPORTED is None:
        assert gemv.available(), gemv.reason()


# (N, K): tails in both directions (K not a multiple of the 16 / 32 lanes, N not of the 4-row blocks),
# and empty weights (K = 0 gives the bias)
SHAPES = [(1, 1), (5, 17), (77, 33), (130, 1000), (768, 768), (3, 4097), (0, 7), (5, 0), (0, 0)]


@needs_kernel
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_fp32_equals_linear(shape, bias):
    torch.manual_seed(0)
    n, k = shape
    w, b, x = torch.randn(n, k), torch.randn(n) if bias else None, torch.randn(1, k)
    got = gemv.linear(x, w, b)
    assert got.shape == (1, n) and got.dtype == torch.float32
    torch.testing.assert_close(got, F.linear(x, w, b), rtol=1e-5, atol=1e-5 * k ** 0.5)


@needs_kernel
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_bf16_is_the_exact_product_rounded_once(shape, bias):
    """bf16 x bf16 products summed in fp32, then one rounding to bf16: within one bf16 step (2^-8
    relative) of the exact product of the bf16 inputs, as F.linear's bf16 output is."""
    torch.manual_seed(1)
    n, k = shape
    w, x = torch.randn(n, k).bfloat16(), torch.randn(1, k).bfloat16()
    b = torch.randn(n).bfloat16() if bias else None
    got = gemv.linear(x, w, b)
    assert got.dtype == torch.bfloat16 and got.shape == (1, n)
    exact = F.linear(x.double(), w.double(), None if b is None else b.double())
    torch.testing.assert_close(got.double(), exact, rtol=2 ** -8, atol=1e-4 * k ** 0.5)
    torch.testing.assert_close(got.float(), F.linear(x, w, b).float(), rtol=2 ** -7, atol=1e-4 * k ** 0.5)
    if n:  # rounded once: (nearly) always the exact result's own bf16 rounding
        assert (got == exact.bfloat16()).float().mean() >= 0.99


@needs_kernel
def test_leading_dims_and_non_contiguous_inputs():
    w = torch.randn(64, 40)
    x = torch.randn(1, 1, 80)[..., ::2]  # (1, 1, 40), strided
    got = gemv.linear(x, w.t().contiguous().t(), None)
    assert got.shape == (1, 1, 64)
    torch.testing.assert_close(got, F.linear(x, w), rtol=1e-5, atol=1e-5)


@needs_kernel
def test_bad_input_names_what_was_expected():
    w = torch.randn(8, 16)
    with pytest.raises(RuntimeError, match="one contiguous row of 16 features"):
        torch.ops.zoo.gemv(torch.randn(2, 16), w, None)
    with pytest.raises(RuntimeError, match="x is BFloat16 but weight is Float"):
        torch.ops.zoo.gemv(torch.randn(1, 16).bfloat16(), w, None)
    with pytest.raises(RuntimeError, match=r"bias must be a contiguous \(8,\) vector"):
        torch.ops.zoo.gemv(torch.randn(1, 16), w, torch.randn(9))
    with pytest.raises(RuntimeError, match="float32 or bfloat16 only"):
        torch.ops.zoo.gemv(torch.randn(1, 16).half(), w.half(), None)
    with pytest.raises(RuntimeError, match="one contiguous row of 0 features"):
        torch.ops.zoo.gemv(torch.randn(3, 0), torch.randn(8, 0), None)  # 3 rows, whatever K is
    with pytest.raises(RuntimeError, match="no gradient"):
        gemv.linear(torch.randn(1, 16), w.requires_grad_(), None)
    assert not gemv.applies(torch.randn(2, 16), w, None)
    assert not gemv.applies(torch.randn(3, 0), torch.randn(8, 0), None)
    assert not gemv.applies(torch.randn(1, 16), w, torch.randn(8).bfloat16())
    assert gemv.applies(torch.randn(1, 1, 16), w, torch.randn(8))


@needs_kernel
def test_packed_linear_routes_bf16_one_row_to_the_kernel_without_a_copy():
    torch.manual_seed(2)
    layer = Linear(600, 520).bfloat16().eval()
    x = torch.randn(1, 1, 600, dtype=torch.bfloat16)
    want = gemv.linear(x, layer.weight.detach(), layer.bias.detach())
    pack_for_inference(layer)
    with torch.inference_mode():
        got = layer(x)
    assert torch.equal(got, want)
    copies = layer.inference_weights.copies
    assert set(copies) == {"gemv"} and copies["gemv"].data_ptr() == layer.weight.data_ptr()


@needs_kernel
def test_fp32_and_batched_calls_keep_torch_kernels():
    """fp32 one-row products stay on the transposed copy (faster there, see backbones/linear.py), and
    two rows are never the kernel's."""
    layer = pack_for_inference(Linear(600, 520).eval())
    half = pack_for_inference(Linear(600, 520).bfloat16().eval())
    with torch.inference_mode():
        layer(torch.randn(1, 600))
        half(torch.randn(2, 600, dtype=torch.bfloat16))
    assert set(layer.inference_weights.copies) == {"transposed"}
    assert "gemv" not in half.inference_weights.copies


@needs_kernel
def test_compiled_packed_model_calls_the_kernel_in_one_graph():
    """Inside torch.compile a packed bf16 Linear's one-row call is zoo::gemv (no graph break): traced only."""
    model = pack_for_inference(zoo.create_model("gpt_tiny").to(torch.bfloat16).eval())
    ids = torch.randint(0, model.config.vocab_size, (1, 1))
    with torch.no_grad():
        explain = torch._dynamo.explain(model)(ids)
    assert explain.graph_break_count == 0
    targets = {str(node.target) for graph in explain.graphs for node in graph.graph.nodes}
    assert "zoo.gemv" in targets and "<built-in function linear>" not in targets


def test_turned_off_by_environment(monkeypatch):
    monkeypatch.setenv("ZOO_GEMV", "0")
    monkeypatch.setattr(gemv, "_state", {})  # decided afresh, as in a new process
    assert not gemv.available() and gemv.reason() == "turned off by ZOO_GEMV=0"


def test_unavailable_kernel_leaves_torch_kernels_in_charge(monkeypatch):
    monkeypatch.setattr(gemv, "_state", {"ok": False, "reason": "test"})
    layer = pack_for_inference(Linear(600, 520).bfloat16().eval())
    x = torch.randn(1, 600, dtype=torch.bfloat16)
    with torch.inference_mode():
        got = layer(x)
    torch.testing.assert_close(got, F.linear(x, layer.weight, layer.bias), rtol=1e-2, atol=1e-2)
    assert layer.inference_weights.gemv is False and "gemv" not in layer.inference_weights.copies


@needs_kernel
def test_fp32_models_decide_at_the_first_bf16_one_row_call():
    """Packing an fp32 model does not build the kernel; a bf16 one-row call under autocast decides then."""
    layer = pack_for_inference(Linear(600, 520).eval())
    assert layer.inference_weights.gemv is None
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
        got = layer(torch.ones(1, 600))
    assert layer.inference_weights.gemv is True and "gemv" in layer.inference_weights.copies
    assert got.dtype == torch.bfloat16


@needs_kernel
def test_copied_and_pickled_packed_models_keep_the_kernel():
    model = pack_for_inference(zoo.create_model("gpt_tiny").to(torch.bfloat16).eval())
    for other in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        flags = {m.inference_weights.gemv for m in other.modules() if isinstance(m, Linear)}
        fused = {m.fused_inference.inner.gemv for m in other.modules() if hasattr(m, "fused_inference")}
        assert flags == {True} and fused == {True}
    assert not pack_for_inference(Linear(4, 4).to("meta")).inference_weights.gemv  # no CPU weights: no kernel


@needs_kernel
def test_a_packed_model_unpickled_in_a_new_process_loads_and_uses_the_kernel(tmp_path):
    model = pack_for_inference(Linear(64, 32).bfloat16().eval())
    path = tmp_path / "packed.pt"
    torch.save(model, path)
    script = (f"import torch; m = torch.load({str(path)!r}, weights_only=False)\n"
              "with torch.inference_mode(): m(torch.ones(1, 64, dtype=torch.bfloat16))\n"
              "assert m.inference_weights.gemv is True and 'gemv' in m.inference_weights.copies\n"
              "print('ok')")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]
