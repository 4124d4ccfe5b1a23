"""backbones/inference/gemv.py: zoo::gemv, the few-row linear kernel (1 to 8 rows; bf16 on AVX512-BF16, fp32
on AVX2), equals F.linear; packing routes batch-1 calls to it when asked (`gemv=True`, the default) and keeps torch's
kernels otherwise."""
import copy
import os
import pickle
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import zoo
from backbones.inference import FusedInputProjections, PackedLinear, gemv, pack_for_inference
from backbones.inference.kernels import onednn_ok

# Skipped only where the kernel is not meant to run (another CPU or OS: bf16 needs AVX512-BF16, fp32 AVX2 and
# FMA); on a machine that should build it, a failed build fails these tests (the fixture below), rather than
# skipping them.
UNSUPPORTED = gemv.unsupported_reason()
UNSUPPORTED_FP32 = gemv.unsupported_reason(torch.float32)
RUNS = UNSUPPORTED is None  # tests without needs_kernel check the kernel's use here, or torch's kernels instead
RUNS_FP32 = UNSUPPORTED_FP32 is None
needs_kernel = pytest.mark.skipif(UNSUPPORTED is not None, reason=f"zoo::gemv not for this machine: {UNSUPPORTED}")
needs_fp32_kernel = pytest.mark.skipif(not RUNS_FP32, reason=f"zoo::gemv not for this machine: {UNSUPPORTED_FP32}")


@pytest.fixture(autouse=True)
def kernel_built():
    if RUNS_FP32:
        assert gemv.available(torch.float32), gemv.reason(torch.float32)
    if RUNS:
        assert gemv.available(), gemv.reason()


def _bf16_layer(seed=2):
    torch.manual_seed(seed)
    return nn.Linear(600, 520).bfloat16().eval()


# (N, K): tails in both directions (K not a multiple of the 32 lanes, N not of the 4-row blocks),
# and empty weights (K = 0 gives the bias)
SHAPES = [(1, 1), (5, 17), (77, 33), (130, 1000), (768, 768), (3, 4097), (0, 7), (5, 0), (0, 0)]


@needs_kernel
@pytest.mark.parametrize("rows", [1, 2, 3, 8])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", SHAPES)
def test_bf16_is_the_exact_product_rounded_once(shape, bias, rows):
    """bf16 x bf16 products summed in fp32, then one rounding to bf16: within one bf16 step (2^-8
    relative) of the exact product of the bf16 inputs, as F.linear's bf16 output is; for 1 to 8 rows
    (each row count streams its own number of weight rows at a time)."""
    torch.manual_seed(1)
    n, k = shape
    w, x = torch.randn(n, k).bfloat16(), torch.randn(rows, k).bfloat16()
    b = torch.randn(n).bfloat16() if bias else None
    got = gemv.linear(x, w, b)
    assert got.dtype == torch.bfloat16 and got.shape == (rows, n)
    exact = F.linear(x.double(), w.double(), None if b is None else b.double())
    torch.testing.assert_close(got.double(), exact, rtol=2 ** -8, atol=1e-4 * k ** 0.5)
    torch.testing.assert_close(got.float(), F.linear(x, w, b).float(), rtol=2 ** -7, atol=1e-4 * k ** 0.5)
    if n:  # rounded once: (nearly) always the exact result's own bf16 rounding
        assert (got == exact.bfloat16()).float().mean() >= 0.99


@needs_fp32_kernel
@pytest.mark.parametrize("rows", [1, 4, 8])
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape", SHAPES + [(384, 384), (1536, 384), (384, 1536), (9, 7)])
def test_fp32_is_the_product_up_to_summation_order(shape, bias, rows):
    """fp32 products summed in fp32 in another order than torch's: within fp32 rounding of the exact
    product, and of F.linear's result, for 1 to 8 rows."""
    torch.manual_seed(1)
    n, k = shape
    w, x = torch.randn(n, k), torch.randn(rows, k)
    b = torch.randn(n) if bias else None
    got = gemv.linear(x, w, b)
    assert got.dtype == torch.float32 and got.shape == (rows, n)
    exact = F.linear(x.double(), w.double(), None if b is None else b.double())
    torch.testing.assert_close(got.double(), exact, rtol=1e-5, atol=1e-6 * max(k, 1) ** 0.5)
    torch.testing.assert_close(got, F.linear(x, w, b), rtol=1e-5, atol=1e-6 * max(k, 1) ** 0.5)


@needs_fp32_kernel
def test_fp32_leading_dims_strides_and_bad_input():
    w = torch.randn(64, 40)
    x = torch.randn(1, 1, 80)[..., ::2]  # (1, 1, 40), strided
    got = gemv.linear(x, w.t().contiguous().t(), None)
    assert got.shape == (1, 1, 64)
    torch.testing.assert_close(got, F.linear(x, w), rtol=1e-5, atol=1e-5)
    with pytest.raises(RuntimeError, match="bfloat16 or float32 only, got Double"):
        torch.ops.zoo.gemv(torch.randn(1, 40).double(), w.double(), None)
    with pytest.raises(RuntimeError, match="x is BFloat16 but weight is Float"):
        torch.ops.zoo.gemv(torch.randn(1, 40).bfloat16(), w, None)


@needs_kernel
def test_leading_dims_and_non_contiguous_inputs():
    w = torch.randn(64, 40).bfloat16()
    x = torch.randn(1, 1, 80).bfloat16()[..., ::2]  # (1, 1, 40), strided
    got = gemv.linear(x, w.t().contiguous().t(), None)
    assert got.shape == (1, 1, 64)
    torch.testing.assert_close(got.float(), F.linear(x, w).float(), rtol=2 ** -7, atol=1e-3)


@needs_kernel
def test_bad_input_names_what_was_expected():
    w = torch.randn(8, 16).bfloat16()
    with pytest.raises(RuntimeError, match="1 to 8 contiguous rows of 16 features"):
        torch.ops.zoo.gemv(torch.randn(9, 16).bfloat16(), w, None)
    with pytest.raises(RuntimeError, match="x is Float but weight is BFloat16"):
        torch.ops.zoo.gemv(torch.randn(1, 16), w, None)
    with pytest.raises(RuntimeError, match=r"bias must be a contiguous \(8,\) vector"):
        torch.ops.zoo.gemv(torch.randn(1, 16).bfloat16(), w, torch.randn(9).bfloat16())
    with pytest.raises(RuntimeError, match="1 to 8 contiguous rows of 0 features"):
        torch.ops.zoo.gemv(torch.randn(9, 0).bfloat16(), torch.randn(8, 0).bfloat16(), None)  # 9 rows, any K
    with pytest.raises(RuntimeError, match="no gradient"):
        gemv.linear(torch.randn(1, 16).bfloat16(), w.requires_grad_(), None)


def test_applies_to_up_to_8_rows_on_the_cpu_in_a_dtype_it_runs_here():
    w, b = torch.randn(8, 16).bfloat16(), torch.randn(8).bfloat16()
    assert gemv.applies(torch.randn(1, 1, 16).bfloat16(), w, b) == RUNS
    assert gemv.applies(torch.randn(16).bfloat16(), w, None) == RUNS
    assert gemv.applies(torch.randn(2, 4, 16).bfloat16(), w, None) == RUNS
    assert not gemv.applies(torch.randn(9, 16).bfloat16(), w, None)
    assert not gemv.applies(torch.randn(0, 16).bfloat16(), w, None)
    assert not gemv.applies(torch.randn(9, 0).bfloat16(), torch.randn(8, 0).bfloat16(), None)
    assert not gemv.applies(torch.randn(1, 16).bfloat16(), w, b.float())
    assert gemv.applies(torch.randn(1, 16), w.float(), b.float()) == RUNS_FP32
    assert not gemv.applies(torch.randn(1, 16).double(), w.double(), None)  # not a dtype it computes in


@needs_kernel
def test_packed_linear_routes_bf16_one_row_to_the_kernel_without_a_copy():
    layer = _bf16_layer()
    x = torch.randn(1, 1, 600, dtype=torch.bfloat16)
    want = gemv.linear(x, layer.weight.detach(), layer.bias.detach())
    layer = pack_for_inference(layer)
    with torch.inference_mode():
        got = layer(x)
    assert torch.equal(got, want)
    copies = layer.inference.copies
    assert set(copies) == {"gemv"} and copies["gemv"].data_ptr() == layer.weight.data_ptr()


def test_up_to_four_rows_go_to_the_kernel_and_more_never():
    """fp32 products of 1 to 4 rows go to the kernel (no copy) where it runs, else one row to the transposed
    copy, as without packing's `gemv`; bf16 likewise; five rows or more are never the kernel's."""
    layer = pack_for_inference(nn.Linear(600, 520).eval())
    plain = pack_for_inference(nn.Linear(600, 520).eval(), gemv=False)
    half, few = pack_for_inference(_bf16_layer()), pack_for_inference(_bf16_layer())
    with torch.inference_mode():
        layer(torch.randn(1, 600))
        layer(torch.randn(2, 2, 600))
        plain(torch.randn(1, 600))
        half(torch.randn(5, 600, dtype=torch.bfloat16))
        got = few(torch.randn(3, 600, dtype=torch.bfloat16))
    assert set(layer.inference.copies) == ({"gemv"} if RUNS_FP32 else {"transposed"})
    assert set(plain.inference.copies) == {"transposed"}
    assert set(half.inference.copies) == ({"onednn"} if onednn_ok(torch.bfloat16) else set())
    assert set(few.inference.copies) == ({"gemv"} if RUNS else {"onednn"} if onednn_ok(torch.bfloat16) else set())
    assert got.shape == (3, 520)


def test_gemv_false_keeps_bf16_one_row_products_on_torch_kernels(monkeypatch):
    monkeypatch.setattr(gemv, "_state", {})  # as in a new process: nothing decided or built yet
    layer = pack_for_inference(_bf16_layer(), gemv=False)
    x = torch.randn(1, 600, dtype=torch.bfloat16)
    with torch.inference_mode():
        got = layer(x)
    torch.testing.assert_close(got.float(), F.linear(x, layer.weight, layer.bias).float(), rtol=1e-2, atol=1e-2)
    assert layer.inference.gemv is False and "ok" not in gemv._state  # the kernel was not even built
    assert set(layer.inference.copies) == ({"onednn"} if onednn_ok(torch.bfloat16) else set())
    model = pack_for_inference(zoo.create_model("llama_tiny").to(torch.bfloat16).eval(), gemv=False)
    flags = {m.inference.gemv for m in model.modules() if isinstance(m, PackedLinear)}
    flags |= {m.fused.inner.gemv for m in model.modules() if isinstance(m, FusedInputProjections)}
    assert flags == {False} and "ok" not in gemv._state


def test_unavailable_kernel_leaves_torch_kernels_in_charge(monkeypatch):
    monkeypatch.setattr(gemv, "_state", {"ok": False, "reason": "test"})
    layer = pack_for_inference(_bf16_layer())
    x = torch.randn(1, 600, dtype=torch.bfloat16)
    with torch.inference_mode():
        got = layer(x)
    torch.testing.assert_close(got, F.linear(x, layer.weight, layer.bias), rtol=1e-2, atol=1e-2)
    assert layer.inference.gemv is False and "gemv" not in layer.inference.copies


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


def test_packing_a_cpu_model_decides_and_a_meta_model_waits_for_its_first_one_row_call():
    """Packing a model with CPU weights builds (or loads) the kernel then, so compiled steps can call it; a
    model without CPU weights decides at its first one-row call in a dtype the kernel runs here (fp32, or
    bf16 under autocast); a call in another dtype leaves it undecided."""
    assert pack_for_inference(nn.Linear(600, 520).eval()).inference.gemv is RUNS_FP32
    for autocast in (False, True):
        layer = pack_for_inference(nn.Linear(600, 520, device="meta").eval()).to_empty(device="cpu")
        nn.init.normal_(layer.weight), nn.init.zeros_(layer.bias)
        assert layer.inference.gemv is None
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            got = layer(torch.ones(1, 600))
        runs = RUNS if autocast else RUNS_FP32
        assert layer.inference.gemv is (RUNS_FP32 if runs else None) and ("gemv" in layer.inference.copies) == runs
        assert got.dtype == (torch.bfloat16 if autocast else torch.float32)


def test_copied_and_pickled_packed_models_keep_the_decision():
    model = pack_for_inference(zoo.create_model("gpt_tiny").to(torch.bfloat16).eval())
    for other in (copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        flags = {m.inference.gemv for m in other.modules() if isinstance(m, PackedLinear)}
        fused = {m.fused.inner.gemv for m in other.modules() if isinstance(m, FusedInputProjections)}
        assert flags == {RUNS} and fused == {RUNS}
    assert not pack_for_inference(nn.Linear(4, 4).to("meta")).inference.gemv  # no CPU weights: no kernel


def test_a_packed_model_unpickled_in_a_new_process_loads_the_kernel_where_it_runs(tmp_path):
    model = pack_for_inference(nn.Linear(64, 32).bfloat16().eval())
    path = tmp_path / "packed.pt"
    torch.save(model, path)
    script = (f"import torch; m = torch.load({str(path)!r}, weights_only=False)\n"
              "with torch.inference_mode(): m(torch.ones(1, 64, dtype=torch.bfloat16))\n"
              f"assert m.inference.gemv is {RUNS} and ('gemv' in m.inference.copies) == {RUNS}\n"
              "print('ok')")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-2000:]


def test_forced_avx2_hides_later_extensions_from_kernel_choices():
    """ZOO_CPU_ISA=avx2: no AVX-512 / VNNI / AMX flag reaches the kernel choices (int8 takes its AVX2 path, bf16 is
    not ours), the weight-only int8 product (whose loop the kernel picks itself) still equals the dequantised
    product; any other value is refused, naming what is expected."""
    script = ("import torch; from backbones.inference import gemv; from backbones.quantized import INT8_GEMV_MODE; "
              "torch.manual_seed(0); x = torch.randn(3, 96); q = torch.randint(-127, 128, (40, 96), dtype=torch.int8); "
              "s = torch.rand(40) / 100; "
              "ok = not gemv.available(torch.float32) or torch.allclose("
              "gemv.linear_int8(x, q, s, None, 'weight_only'), "
              "x @ (q.float() * s[:, None]).T, atol=1e-5); "
              "print(sorted(f for f in gemv._FLAGS if f.startswith(('avx512', 'amx', 'avx_vnni'))), INT8_GEMV_MODE, "
              "gemv.has_cpu_flag('avx2') == ('avx2' in open('/proc/cpuinfo').read()), ok)")
    env = {**os.environ, "ZOO_CPU_ISA": "avx2"}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split()[-4:] == ["[]", "avx2", "True", "True"]
    env["ZOO_CPU_ISA"] = "sse4"
    bad = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert bad.returncode != 0 and "ZOO_CPU_ISA='sse4': expected 'avx2'" in bad.stderr
