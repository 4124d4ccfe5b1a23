"""zoo.quantize: int8 / int4 weight-only layers on every family, their error bounds, kernels, save/load and the
decoding paths they serve.

The bound every quantised product is held to: q = round(w / s) moves each weight by at most half a step s / 2,
so an output y_n = sum_k x_k w_nk moves by at most sum_k |x_k| s_nk / 2 (s_nk: the scale of w_nk's row, or of its
group for int4). The kernels add only the summation order (fp32) or bf16's rounding of the product."""
from __future__ import annotations

import pytest
import torch
from safetensors import safe_open
from torch import nn

import zoo
from backbones import quantized as quantized_module
from backbones.inference import gemv, kernels, pack_for_inference
from backbones.quantized import (
    QuantizationError,
    QuantizedEmbedding,
    QuantizedLinear,
    dequantize_weight,
    quantize_weight,
)
from tests.helpers import randomize, tiny_presets
from zoo.quantize import quantization_config


def half_step_bound(layer: QuantizedLinear, x: torch.Tensor) -> torch.Tensor:
    """sum_k |x_k| s_nk / 2 for x (R, K): (R, N), the most q * s can move each output from w's."""
    scales = layer.scales if layer.scales.dim() == 2 else layer.scales[:, None]  # (N, K/G) or (N, 1)
    per_input = scales.repeat_interleave(layer.in_features // scales.shape[1], dim=1)  # (N, K)
    return x.abs().float() @ per_input.t() / 2


@pytest.mark.parametrize("scheme, group", [("int8", None), ("int4", 32), ("int4", 128)])
def test_layer_within_half_a_step(scheme, group):
    torch.manual_seed(0)
    linear = nn.Linear(256, 96)
    for activations in ("float", "int8"):
        layer = QuantizedLinear.from_linear(linear, scheme, group, activations=activations)
        x = torch.randn(5, 256)
        with torch.no_grad():
            error = (layer(x) - linear(x)).abs()
            assert (error <= output_bound(layer, x)).all()
            assert error.max() > 0  # the weights did move: the bound is not met by a copy


def activation_bound(w: torch.Tensor, x: torch.Tensor, step: torch.Tensor) -> torch.Tensor:
    """sum_k step_r / 2 |w_nk| for activations x (R, K) rounded to steps step (R, 1): (R, N), how far that rounding
    can move each output (the weight as dequantised)."""
    return step / 2 * w.abs().sum(1)[None, :].expand(x.shape[0], -1)


def output_bound(layer: QuantizedLinear, x: torch.Tensor) -> torch.Tensor:
    """How far the layer's output on x (R, K) can be from the full-precision product: the weight's half step,
    plus, with int8 activations, their rounding to max |x| / 127 per row."""
    bound = half_step_bound(layer, x) + 1e-4
    if layer.activations == "float" or layer.kernel(x) == "dequantize":
        return bound
    step = x.abs().amax(-1, keepdim=True) / 127  # the int8 GEMM's (max - min) / 254 is never larger
    return bound + activation_bound(layer.dequantize(), x, step)


@pytest.mark.parametrize("rows", [1, 3, 8])
@pytest.mark.parametrize("mode", list(gemv.INT8_MODES))
def test_our_int8_kernel_equals_dequantize_then_matmul(mode, rows):
    """zoo::gemv_int8, each path forced where the CPU has it: weight-only equals x (q s)^T up to summation
    order; the dynamic modes equal (x_q x_s)(q s)^T, x_q = round(x / x_s), x_s = max |x| / 127 per row."""
    if not gemv.available(torch.float32) or gemv.int8_unsupported_reason(mode):
        pytest.skip(gemv.reason(torch.float32) or gemv.int8_unsupported_reason(mode))
    torch.manual_seed(1)
    for k in (64, 100, 768):  # whole vectors and tails
        layer = QuantizedLinear.from_linear(nn.Linear(k, 52), "int8")
        x = torch.randn(rows, k)
        with torch.no_grad():
            w = layer.dequantize()
            if mode == "weight_only":
                reference = x @ w.t() + layer.bias
            else:
                step = x.abs().amax(1, keepdim=True) / 127
                reference = torch.round(x / step) * step @ w.t() + layer.bias
            out = gemv.linear_int8(x, layer.qweight, layer.scales, layer.bias, mode)
            torch.testing.assert_close(out, reference, rtol=1e-5, atol=1e-5)
            out_bf16 = gemv.linear_int8(x.bfloat16(), layer.qweight, layer.scales, layer.bias, mode)
            assert out_bf16.dtype == torch.bfloat16


@pytest.mark.parametrize("rows", [1, 3, 9, 50, 301])
def test_our_int8_gemm_equals_torchs(rows):
    """zoo::gemm_int8 (many rows on a CPU without VNNI) computes what the layer's torch._int_mm path does, on whole
    and ragged shapes (inputs not a multiple of 16, outputs not of 24, rows not of 4), with and without a bias, from
    float32, bfloat16 and 3-D inputs: the integers are the same, so only the float scaling's rounding differs."""
    if not gemv.available(torch.float32):
        pytest.skip(gemv.reason(torch.float32))
    torch.manual_seed(6)
    for k, n in ((16, 1), (70, 23), (512, 100), (130, 24)):
        layer = QuantizedLinear.from_linear(nn.Linear(k, n), "int8")
        x = torch.randn(rows, k) * torch.rand(rows, 1) * 4 + torch.randn(rows, 1)  # rows of other ranges and centres
        with torch.no_grad():
            for bias in (layer.bias, None):
                out = gemv.gemm_int8(x, layer.qweight, layer.scales, bias)
                torch.testing.assert_close(out, layer._int_mm(x, bias), rtol=1e-5, atol=1e-4)
            x3 = x.bfloat16().view(1, rows, k)
            out = gemv.gemm_int8(x3, layer.qweight, layer.scales, layer.bias)
            assert out.shape == (1, rows, n) and out.dtype == torch.bfloat16
            reference = layer._int_mm(x3[0].float(), layer.bias).bfloat16()
            torch.testing.assert_close(out[0].float(), reference.float(), rtol=1e-2, atol=1e-2)


def test_our_int8_gemm_refuses_what_it_cannot_run():
    """Each refusal names the argument and what was expected; no rows give an empty output."""
    if not gemv.available(torch.float32):
        pytest.skip(gemv.reason(torch.float32))
    layer = QuantizedLinear.from_linear(nn.Linear(32, 8), "int8")
    q, s = layer.qweight, layer.scales
    assert gemv.gemm_int8(torch.randn(0, 32), q, s, None).shape == (0, 8)
    cases = [((torch.randn(4, 31), q, s, None), "x must be contiguous rows of 32 features"),
             ((torch.randn(4, 32).double(), q, s, None), "x must be float32 or bfloat16"),
             ((torch.randn(4, 32), q.float(), s, None), "qweight must be a contiguous (N, K) int8 matrix"),
             ((torch.randn(4, 32), q, s[:4], None), "scales must be a contiguous float32 (8,) vector"),
             ((torch.randn(4, 32), q, s, torch.zeros(9)), "bias must be a contiguous float32 (8,) vector")]
    for args, message in cases:
        with pytest.raises(RuntimeError, match=message.replace("(", r"\(").replace(")", r"\)")):
            gemv.gemm_int8(*args)


@pytest.mark.parametrize("int_mm_fast", [True, False])
@pytest.mark.parametrize("rows", [1, 3, 8, 12, 40, 300])
@pytest.mark.parametrize("activations", ["int8", "float"])
def test_int8_layer_paths(activations, rows, int_mm_fast, monkeypatch):
    """Whichever kernel the layer picks (ours up to 8 rows; more, torch's int8 GEMM where the CPU runs it fast, ours
    in 8-row chunks then our int8 GEMM where not, the dequantised weight where ours is not built), its output is
    within the weight's half step plus the activations' rounding of the full-precision product, and float
    activations add no rounding; both GEMMs equal each row's centred rounding times the dequantised weight. Both
    routes of many rows are taken on every host (the CPU's answer is forced each way)."""
    monkeypatch.setattr(quantized_module, "_INT_MM_FAST", int_mm_fast)
    torch.manual_seed(2)
    linear = nn.Linear(256, 96)
    layer = QuantizedLinear.from_linear(linear, "int8", activations=activations)
    x = torch.randn(rows, 256)
    with torch.no_grad():
        kernel = layer.kernel(x)
        out, exact = layer(x), linear(x)
        w = layer.dequantize()
        if activations == "float":
            torch.testing.assert_close(out, x @ w.t() + layer.bias, rtol=1e-5, atol=1e-5)
            return
        assert ((out - exact).abs() <= output_bound(layer, x)).all(), kernel
        ours = gemv.loaded() and (rows == 1 or rows <= gemv.MAX_ROWS and not quantized_module._GEMM_HAS_AMX)
        chunked = rows <= quantized_module.INT8_CHUNKED_ROWS
        expected = ("gemv_int8" if ours else "int_mm" if int_mm_fast else "dequantize" if not gemv.loaded()
                    else "gemv_int8" if chunked else "gemm_int8")
        assert kernel == expected  # up to 8 rows ours, but on AMX (OURS_MAX_WORK)
        if kernel == "dequantize":
            assert "AVX512-VNNI" in layer.why_not(x)
            torch.testing.assert_close(out, x @ w.t() + layer.bias, rtol=1e-5, atol=1e-5)
            return
        if kernel in ("int_mm", "gemm_int8"):  # each row to 253 steps over its range, centred on a whole step
            low, high = x.amin(1, keepdim=True), x.amax(1, keepdim=True)
            step = (high - low) / 253
            center = torch.round((high + low) / 2 / step) * step
            rounded = torch.round((x - center) / step) * step + center
            assert rounded.abs().amax() <= x.abs().amax() + step.max()  # within +-127 steps of the centre
        else:  # zoo::gemv_int8: symmetric, max |x| / 127 a step
            step = x.abs().amax(1, keepdim=True) / 127
            rounded = torch.round(x / step) * step
        torch.testing.assert_close(out, rounded @ w.t() + layer.bias, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("int_mm_fast", [True, False])
def test_int8_gemm_keeps_zero_inputs_exact(int_mm_fast, monkeypatch):
    """Rows of mostly exact zeros (a GELU's output: Whisper base's encoder fc2 inputs are 94% zeros) lose nothing on
    the zeros: with a centre between levels every zero moved alike and the errors added up along the row. Both
    GEMMs: torch's (forced on every host, slow or not) and ours (the route of a CPU without VNNI)."""
    monkeypatch.setattr(quantized_module, "_INT_MM_FAST", int_mm_fast)
    if not int_mm_fast and not gemv.available(torch.float32):
        pytest.skip(gemv.reason(torch.float32))
    torch.manual_seed(4)
    linear = nn.Linear(1024, 64)
    with torch.no_grad():
        linear.weight += 0.03  # rows whose sums are far from 0, as trained ones: a shared shift of the zeros shows
    layer = QuantizedLinear.from_linear(linear, "int8")
    x = torch.randn(64, 1024).abs() * (torch.rand(64, 1024) < 0.06)  # (R, K), ~94% zeros
    x[:, 0], x[:, 1] = 15.0, -0.17  # an outlier and GELU's least value set each row's range
    with torch.no_grad():
        assert layer.kernel(x) == ("int_mm" if int_mm_fast else "gemm_int8")
        exact = x @ layer.dequantize().t() + layer.bias
        error = (layer(x) - exact).norm() / exact.norm()
    assert error < 0.01  # 0.0025; a centre between levels gave 0.14


def test_int8_gemm_row_sums_are_made_once_and_follow_the_weights(monkeypatch):
    """int_mm's weight row sums are kept from call to call, and remade when the integers change (a state dict
    loaded over the layer): the output then follows the new weights."""
    monkeypatch.setattr(quantized_module, "_INT_MM_FAST", True)
    torch.manual_seed(5)
    layer = QuantizedLinear.from_linear(nn.Linear(64, 16), "int8").prepare()
    x = torch.randn(48, 64) + 1.0  # a centre far from 0: the row sums' term counts
    with torch.no_grad():
        assert layer.kernel(x) == "int_mm"
        kept = layer._copies["row_sums"][1]
        layer(x)
        assert layer._copies["row_sums"][1] is kept
        other = QuantizedLinear.from_linear(nn.Linear(64, 16), "int8")
        layer.load_state_dict(other.state_dict())
        exact = x @ layer.dequantize().t() + layer.bias
        assert ((layer(x) - exact).abs() <= output_bound(layer, x)).all()
        assert layer._copies["row_sums"][1] is not kept


@pytest.mark.parametrize("scheme, group", [("int8", None), ("int4", 32), ("int4", 64)])
@pytest.mark.parametrize("rows", [1, 3, 8, 40])
def test_torch_kernels_equal_dequantize_then_matmul(scheme, group, rows):
    """torch's weight-only kernels (int8 with float activations in bf16, int4) against x @ (q * s)^T: fp32 up to
    summation order, bf16 within its rounding."""
    torch.manual_seed(1)
    layer = QuantizedLinear.from_linear(nn.Linear(128, 80), scheme, group, activations="float")
    x = torch.randn(rows, 128)
    with torch.no_grad():
        w = layer.dequantize()
        if scheme == "int4":
            assert layer.kernel(x) == "int4"
            torch.testing.assert_close(layer(x), x @ w.t() + layer.bias, rtol=1e-5, atol=1e-5)
        xb = x.bfloat16()
        if rows > kernels.GEMV_ROWS or scheme == "int4":
            assert layer.kernel(xb) == scheme
        out = layer(xb)
        assert out.dtype == torch.bfloat16
        bf16_reference = xb.float() @ w.bfloat16().float().t() + layer.bias.bfloat16().float()
        torch.testing.assert_close(out.float(), bf16_reference, rtol=2e-2, atol=2e-2)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            assert layer(x).dtype == torch.bfloat16


def test_int4_widths_torch_cannot_tile_are_dequantized():
    """72 outputs: torch's int4 kernel cannot take them, ours can (int8 activations, any rows); else the
    dequantised weight serves, and why_not says why."""
    float_layer = QuantizedLinear.from_linear(nn.Linear(64, 72), "int4", 32, activations="float")
    x = torch.randn(3, 64)
    with torch.no_grad():
        assert float_layer.kernel(x) == "dequantize" and "72 is not a multiple" in float_layer.why_not(x)
        torch.testing.assert_close(float_layer(x), x @ float_layer.dequantize().t() + float_layer.bias)
        assert "zoo::gemv_grouped, which takes any, multiplies int8 activations and is not asked for" in \
            float_layer.why_not(x)
        layer = QuantizedLinear.from_linear(nn.Linear(64, 72), "int4", 32)
        if gemv.available(torch.float32):
            for rows in (3, 40):  # more than 8 rows: 8 at a time
                x = torch.randn(rows, 64)
                assert layer.kernel(x) == "gemv_grouped" and layer.why_not(x) is None
                assert (layer(x) - x @ layer.dequantize().t() - layer.bias).abs().max() <= output_bound(layer, x).max()


def test_float_activations_in_fp32_over_many_rows_say_why_they_dequantize():
    layer = QuantizedLinear.from_linear(nn.Linear(64, 48), "int8", activations="float")
    with torch.no_grad():
        x = torch.randn(40, 64)
        assert layer.kernel(x) == "dequantize" and "computes in bfloat16" in layer.why_not(x)
        assert layer.kernel(x.bfloat16()) == "int8" and layer.why_not(x.bfloat16()) is None


@pytest.mark.parametrize("scheme, group", [("int8", None), ("int8", 32), ("int4", 32)])
def test_a_large_dequantised_weight_goes_a_block_of_outputs_at_a_time(scheme, group, monkeypatch):
    """Past DEQUANTIZE_BLOCK values (here 64 x 5 outputs: 5 blocks and a short one), the dequantised product is made a
    block of outputs at a time, each equal to that slice of the whole one; with gradients it stays whole."""
    monkeypatch.setattr(quantized_module, "DEQUANTIZE_BLOCK", 64 * 5)
    layer = QuantizedLinear.from_linear(nn.Linear(64, 27), scheme, group, activations="float")
    x = torch.randn(2, 20, 64)
    whole = x @ layer.dequantize().t() + layer.bias
    made = []
    real = quantized_module.dequantize_weight
    monkeypatch.setattr(quantized_module, "dequantize_weight", lambda q, *a: made.append(q.shape[0]) or real(q, *a))
    with torch.no_grad():
        assert layer.kernel(x) == "dequantize"
        torch.testing.assert_close(layer(x), whole, rtol=1e-6, atol=1e-6)
    assert made == [5, 5, 5, 5, 5, 2]
    made.clear()
    layer(x.requires_grad_()).sum().backward()  # autograd through the whole weight
    assert made == [27] and x.grad is not None


@pytest.mark.parametrize("scheme", ["int4", "int8"])
@pytest.mark.parametrize("rows", [1, 3, 8])
@pytest.mark.parametrize("mode", ["vnni", "avx2"])
def test_our_grouped_kernel_equals_dequantize_then_matmul(mode, rows, scheme):
    """zoo::gemv_grouped (int4, and int8 in groups), each path forced where the CPU has it, equals (x_q x_s)(q s)^T
    (x_q = round(x / x_s), x_s = max |x| / 127 per row) up to float rounding: every group size, whole steps, tails."""
    if not gemv.available(torch.float32) or gemv.int8_unsupported_reason(mode):
        pytest.skip(gemv.reason(torch.float32) or gemv.int8_unsupported_reason(mode))
    torch.manual_seed(3)
    for k, group in ((64, 32), (96, 32), (768, 32), (640, 64), (384, 128), (512, 256), (1280, 256)):
        layer = QuantizedLinear.from_linear(nn.Linear(k, 52), scheme, group)
        x = torch.randn(rows, k)
        with torch.no_grad():
            step = x.abs().amax(1, keepdim=True) / 127
            reference = torch.round(x / step) * step @ layer.dequantize().t() + layer.bias
            out = gemv.linear_grouped(x, layer.qweight, layer.scales, layer.bias, mode)
            torch.testing.assert_close(out, reference, rtol=1e-5, atol=1e-5)
            assert gemv.linear_grouped(x.bfloat16(), layer.qweight, layer.scales, None, mode).dtype == torch.bfloat16


def test_quantize_weight_round_trip_and_layout():
    w = torch.tensor([[0.75, -1.0, 0.25, 0.0] * 8, [0.0] * 32])
    q, s = quantize_weight(w, "int8")
    assert q.dtype == torch.int8 and q[0, 1] == -127 and s[1] == 1  # a zero row keeps scale 1
    torch.testing.assert_close(dequantize_weight(q, s, "int8"), w, atol=float(s[0]) / 2, rtol=0)
    packed, scales = quantize_weight(w, "int4", 32)
    assert packed.shape == (2, 16) and packed.dtype == torch.uint8 and scales.shape == (2, 1)
    # even input low nibble, odd high, each q + 8: 0.75 / (1 / 7) = 5.25 -> 5 (+8 = 13); -1.0 -> -7 (+8 = 1)
    assert packed[0, 0] == 13 | (1 << 4)
    torch.testing.assert_close(dequantize_weight(packed, scales, "int4"), w, atol=float(scales[0, 0]) / 2, rtol=0)


def _outputs(model, inputs):
    out = model(**inputs)
    return out if isinstance(out, torch.Tensor) else torch.cat([t.flatten() for t in out.values()]) \
        if isinstance(out, dict) else torch.cat([t.flatten() for t in out])


@pytest.mark.parametrize("name", tiny_presets())
@pytest.mark.parametrize("scheme", ["int8", "int4"])
def test_every_family_within_each_layers_bound(name, scheme):
    """Each quantised Linear of every tiny preset, on the input it gets inside the model, stays within its bound
    (output_bound) of the full-precision layer; the model's output stays close (int8: 3% of its range, int4:
    25%)."""
    model = zoo.create_model(name).eval()
    inputs = model.example_inputs()
    full = {n: m for n, m in model.named_modules() if isinstance(m, nn.Linear)}
    with torch.no_grad():
        reference = _outputs(model, inputs)
        quantized = zoo.quantize(model, scheme, group_size=None if scheme == "int8" else 32)
        checked = []

        def check(layer, args, output, name):
            x = args[0].reshape(-1, layer.in_features)
            exact = nn.functional.linear(x, full[name].weight, full[name].bias)
            error = (output.reshape(-1, layer.out_features) - exact).abs()
            assert (error <= output_bound(layer, x)).all(), name
            checked.append(name)

        hooks = [m.register_forward_hook(lambda mod, a, o, n=n: check(mod, a, o, n))
                 for n, m in quantized.named_modules() if isinstance(m, QuantizedLinear)]
        out = _outputs(quantized, inputs)
        for hook in hooks:
            hook.remove()
    assert set(checked) == set(full)  # every Linear of the blocks and heads was quantised and ran
    spread = (reference.max() - reference.min()).item()
    assert (out - reference).abs().max().item() <= (0.03 if scheme == "int8" else 0.25) * spread


@pytest.mark.parametrize("scheme, group", [("int8", None), ("int8", 32), ("int4", 32)])
def test_save_load_round_trip_without_requantizing(scheme, group, tmp_path, monkeypatch):
    model = randomize(zoo.create_model("llama_tiny"), std=0.05)
    zoo.quantize(model, scheme, group_size=group)
    ids = torch.randint(0, model.config.vocab_size, (2, 12))
    with torch.no_grad():
        expected = model(ids)
    model.save_pretrained(tmp_path)

    def refuse(*args, **kwargs):
        raise AssertionError("load_pretrained quantised again")

    monkeypatch.setattr("backbones.quantized.quantize_weight", refuse)
    loaded = zoo.load_pretrained(tmp_path).eval()
    for key, value in model.state_dict().items():
        assert torch.equal(loaded.state_dict()[key], value), key
    assert loaded.state_dict()["transformer.blocks.0.attn.q_proj.qweight"].dtype == (
        torch.int8 if scheme == "int8" else torch.uint8)
    assert loaded.transformer.blocks[0].attn.q_proj.group_size == group
    with torch.no_grad():
        assert torch.equal(loaded(ids), expected)


def test_load_pretrained_never_makes_the_float_weights(tmp_path, monkeypatch):
    """A quantised model loads in the memory of its integers: no Linear or Embedding weight of the float32 model is
    allocated first (each is made on the meta device), and the loaded model holds the file's tensors, not copies."""
    model = randomize(zoo.create_model("llama_tiny"), std=0.05)
    zoo.quantize(model, "int8", embeddings=True)
    model.save_pretrained(tmp_path)
    made = []
    for cls in (nn.Linear, nn.Embedding):
        init = cls.reset_parameters
        monkeypatch.setattr(cls, "reset_parameters", lambda self, init=init: made.append(self.weight) or init(self))
    copies = []
    real_copy = torch.Tensor.copy_

    def copy(self, src, *args, **kwargs):
        if not self.is_meta:
            copies.append(self)
        return real_copy(self, src, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "copy_", copy)
    loaded = zoo.load_pretrained(tmp_path)
    assert made and all(weight.is_meta for weight in made)
    assert not copies  # the integers were taken as loaded
    assert not any(t.is_meta for t in [*loaded.parameters(), *loaded.buffers()])
    assert loaded.head.proj.qweight is loaded.embed.tokens.qweight
    ids = torch.randint(0, model.config.vocab_size, (2, 12))
    with torch.no_grad():
        assert torch.equal(loaded.eval()(ids), model.eval()(ids))


def test_tied_head_gets_its_own_integers():
    model = zoo.create_model("gpt_tiny").eval()
    table = model.embed.tokens.weight.detach().clone()
    zoo.quantize(model, "int8")
    assert isinstance(model.head.proj, QuantizedLinear)
    assert torch.equal(model.embed.tokens.weight, table)  # the lookup keeps its precision


@pytest.mark.parametrize("name", tiny_presets())
def test_every_family_with_quantized_embeddings(name):
    """embeddings=True: every table's rows within half a step of the full-precision ones, a tied head reading the
    table's very integers, the model's output within int8's 3% of its range."""
    model = zoo.create_model(name).eval()
    inputs = model.example_inputs()
    tables = {n: m.weight.detach().clone() for n, m in model.named_modules() if isinstance(m, nn.Embedding)}
    tied = [n for n, m in model.named_modules() if isinstance(m, nn.Linear)
            and any(m.weight is e.weight for e in model.modules() if isinstance(e, nn.Embedding))]
    with torch.no_grad():
        reference = _outputs(model, inputs)
        zoo.quantize(model, "int8", embeddings=True)
        for table_name, table in tables.items():
            layer = model.get_submodule(table_name)
            assert isinstance(layer, QuantizedEmbedding), table_name
            rows = layer(torch.arange(layer.num_embeddings))
            assert ((rows - table).abs() <= layer.scales[:, None] / 2 + 1e-7).all(), table_name
        for head_name in tied:
            head = model.get_submodule(head_name)
            assert any(head.qweight is m.qweight for m in model.modules() if isinstance(m, QuantizedEmbedding))
        out = _outputs(model, inputs)
    spread = (reference.max() - reference.min()).item()
    assert (out - reference).abs().max().item() <= 0.03 * spread


@pytest.mark.parametrize("scheme", ["int8", "int4"])
def test_quantized_embeddings_save_once_and_load_tied(scheme, tmp_path):
    """A tied table and head are saved as one set of integers and load tied, outputs equal; the model's weight
    bytes fall to about a quarter (int8) of fp32's."""
    model = randomize(zoo.create_model("gpt_tiny"), std=0.05).eval()
    full_bytes = sum(t.numel() * t.element_size() for t in model.state_dict().values())
    zoo.quantize(model, scheme, embeddings=True)
    assert model.head.proj.qweight is model.embed.tokens.qweight
    ids = torch.randint(0, model.config.vocab_size, (2, 12))
    with torch.no_grad():
        expected = model(ids)
    model.save_pretrained(tmp_path)
    with safe_open(str(tmp_path / "model.safetensors"), framework="pt") as f:
        stored = set(f.keys())
    assert "embed.tokens.qweight" in stored and "head.proj.qweight" not in stored
    loaded = zoo.load_pretrained(tmp_path).eval()
    assert loaded.head.proj.qweight is loaded.embed.tokens.qweight
    assert quantization_config(loaded)["embeddings"] == ["embed.tokens"]
    with torch.no_grad():
        assert torch.equal(loaded(ids), expected)
    unique = {t.data_ptr(): t.numel() * t.element_size() for t in model.state_dict().values()}
    assert sum(unique.values()) <= (0.3 if scheme == "int8" else 0.2) * full_bytes


@pytest.fixture(scope="module")
def trained_gpt():
    """gpt_tiny trained briefly on a repeating sequence: confident predictions, as a trained model makes."""
    torch.manual_seed(0)
    model = zoo.create_model("gpt_tiny", dropout=0.0)
    period = torch.randint(0, model.config.vocab_size, (23,))
    data = period.repeat(12)[None]  # (1, 276)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for _ in range(60):
        start = torch.randint(0, 23, (8,))
        batch = torch.stack([data[0, s:s + 64] for s in start])
        logits = model(batch[:, :-1])
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), batch[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert loss.item() < 0.5
    return model.eval(), period


@pytest.mark.parametrize("scheme, embeddings", [("int8", False), ("int4", False), ("int8", True)])
def test_trained_greedy_equals_full_precision(trained_gpt, scheme, embeddings):
    """32 greedy tokens of a trained model: int8 and int4 (and int8 tables) give fp32's tokens, with the cache,
    packed, in beams."""
    import copy

    model, period = trained_gpt
    prompt = period[None, :5]
    expected = zoo.generate(model, prompt, 32)
    quantized = zoo.quantize(copy.deepcopy(model), scheme, embeddings=embeddings)
    assert torch.equal(zoo.generate(quantized, prompt, 32), expected)
    pack_for_inference(quantized)
    assert torch.equal(zoo.generate(quantized, prompt, 32), expected)
    assert torch.equal(zoo.generate(quantized, prompt, 32, num_beams=3)[0], zoo.generate(model, prompt, 32,
                                                                                           num_beams=3)[0])
    with torch.autocast("cpu", dtype=torch.bfloat16):
        assert torch.equal(zoo.generate(quantized, prompt, 32), expected)


def test_speculative_decoding_with_a_quantized_draft(trained_gpt):
    """The full model verifies an int8 copy of itself as the draft: greedy output is the full model's."""
    import copy

    model, period = trained_gpt
    draft = zoo.quantize(copy.deepcopy(model), "int8")
    prompt = period[None, :5]
    assert torch.equal(zoo.generate(model, prompt, 24, draft_model=draft), zoo.generate(model, prompt, 24))


@pytest.mark.slow
@pytest.mark.parametrize("scheme, group, activations", [("int8", None, "int8"), ("int8", None, "float"),
                                                        ("int4", 32, None), ("int8", 32, None)])
def test_compiled_steps_run_quantized(trained_gpt, scheme, group, activations, tmp_path):
    """compile=True on quantised models gives the eager tokens, loaded from a directory too (int4's tiles are
    made before the graph: inside it they would be made again every step)."""
    import copy

    model, period = trained_gpt
    quantized = zoo.quantize(copy.deepcopy(model), scheme, group_size=group, activations=activations)
    quantized.save_pretrained(tmp_path)
    prompt = period[None, :5]
    expected = zoo.generate(quantized, prompt, 16)
    assert torch.equal(zoo.generate(quantized, prompt, 16, compile=True), expected)
    assert torch.equal(zoo.generate(zoo.load_pretrained(tmp_path).eval(), prompt, 16, compile=True), expected)


@pytest.mark.parametrize("int_mm_fast", [True, False])
def test_a_compiled_layer_runs_the_many_row_gemm(int_mm_fast, monkeypatch):
    """A graph over 40 rows calls the GEMM the eager layer does (torch's, or ours on a CPU without VNNI, through
    its shape function) and gives the eager output."""
    monkeypatch.setattr(quantized_module, "_INT_MM_FAST", int_mm_fast)
    if not int_mm_fast and not gemv.available(torch.float32):
        pytest.skip(gemv.reason(torch.float32))
    torch.manual_seed(7)
    layer = QuantizedLinear.from_linear(nn.Linear(64, 48), "int8")
    x = torch.randn(2, 20, 64)
    torch._dynamo.reset()
    with torch.no_grad():
        assert layer.kernel(x) == ("int_mm" if int_mm_fast else "gemm_int8")
        compiled = torch.compile(layer, backend="aot_eager", fullgraph=True)
        torch.testing.assert_close(compiled(x), layer(x))


def test_gradients_reach_the_input_not_the_integers():
    layer = QuantizedLinear.from_linear(nn.Linear(64, 32), "int8")
    x = torch.randn(4, 64, requires_grad=True)
    assert layer.kernel(x) == "dequantize"  # with gradients: F.linear on q * s
    layer(x).sum().backward()
    torch.testing.assert_close(x.grad, layer.dequantize().sum(0).expand(4, -1))
    assert not any(p.requires_grad for p in layer.parameters())


def test_real_whisper_base_int8_transcribes_as_fp32(whisper_base_ct2):
    """A real trained model: Whisper base's 32 greedy tokens on speech (noise without the recordings), and
    zoo.transcribe's words, in int8 equal its fp32 ones."""
    from data.audio_tasks import normalize_text
    from tests.zoo.test_whisper_real import HAVE_RECORDINGS, speech_mel
    from zoo.generation.conditioned import EncoderConditioned

    torch.set_num_threads(2)
    try:
        model = zoo.from_ct2(whisper_base_ct2).eval()
        mel = speech_mel()
        eot = model.tokenizer.eot
        prompt = torch.tensor([model.tokenizer.sot_sequence(language="en")])
        with torch.no_grad():
            expected = zoo.generate(EncoderConditioned(model, model.encode(mel)), prompt, 32, eos_id=eot)
            text = zoo.transcribe(model, _speech())["text"] if HAVE_RECORDINGS else None
            zoo.quantize(model, "int8")
            assert torch.equal(zoo.generate(EncoderConditioned(model, model.encode(mel)), prompt, 32, eos_id=eot),
                               expected)
            if HAVE_RECORDINGS:  # the words; int8 may round a closing period away (" Goodbye" for " Goodbye.")
                assert normalize_text(zoo.transcribe(model, _speech())["text"]) == normalize_text(text)
    finally:
        torch.set_num_threads(1)


def _speech():
    from data import speech_asterisk as asterisk

    return asterisk.load_prompt("vm-goodbye")


def test_bad_input_is_named():
    model = zoo.create_model("gpt_tiny")
    with pytest.raises(QuantizationError, match=r"unknown quantisation scheme 'int3'.*\['int8', 'int4'\]"):
        zoo.quantize(model, "int3")
    with pytest.raises(QuantizationError, match=r"group_size 48.*\[32, 64, 128, 256\]"):
        zoo.quantize(model, "int4", group_size=48)
    with pytest.raises(QuantizationError, match=r"int8 group_size 100: expected one of \[None, 32, 64, 128, 256\]"):
        zoo.quantize(model, "int8", group_size=100)
    odd = nn.Sequential(nn.Linear(96, 8), nn.Linear(8, 4))
    with pytest.raises(QuantizationError, match=r"groups of 64 on '0' of 96 inputs.*not a multiple of 64"):
        zoo.quantize(odd, "int4", group_size=64)
    assert type(odd[0]) is nn.Linear  # nothing was swapped
    with pytest.raises(QuantizationError, match=r"match no Linear.*transformer.blocks.0.attn.q_proj"):
        zoo.quantize(model, "int8", modules=["*.qkv"])
    zoo.quantize(model, "int8", modules=["*.fc1", "*.fc2"])
    assert isinstance(model.transformer.blocks[0].ffn.fc1, QuantizedLinear)
    assert type(model.transformer.blocks[0].attn.q_proj) is nn.Linear
    with pytest.raises(QuantizationError, match="already quantised"):
        zoo.quantize(model, "int8")


@pytest.mark.parametrize("name", ["gpt_tiny", "llama_tiny"])
@pytest.mark.parametrize("scheme", ["int8", "int4"])
def test_packing_runs_quantized_input_projections_as_one_product(name, scheme, monkeypatch):
    """A packed quantised model runs q/k/v (and SwiGLU's gate/up) as one QuantizedLinear over their concatenated
    integers: the same outputs exactly (each output row is its own sum), one kernel call instead of several; a LoRA
    adapter on one of them adds its own term."""
    model = zoo.quantize(randomize(zoo.create_model(name), std=0.1), scheme)
    inputs = model.example_inputs()
    calls = []
    forward = QuantizedLinear.forward
    monkeypatch.setattr(QuantizedLinear, "forward", lambda self, x: calls.append(self.out_features) or forward(self, x))
    with torch.no_grad():
        reference = model(**inputs)
        separate = len(calls)
        calls.clear()
        packed = pack_for_inference(model)
        torch.testing.assert_close(packed(**inputs), reference, rtol=0, atol=0)
        fused_width = sum(getattr(packed.transformer.blocks[0].attn, p).out_features for p in ("q_proj", "k_proj",
                                                                                                "v_proj"))
        assert fused_width in calls and len(calls) < separate
        zoo.add_lora(pack_for_inference(packed, enabled=False), r=2, target_modules="transformer.blocks.0.attn.k_proj")
        packed.transformer.blocks[0].attn.k_proj.lora_B.normal_()
        adapted = packed(**inputs)
        torch.testing.assert_close(pack_for_inference(packed)(**inputs), adapted, rtol=1e-5, atol=1e-5)
