"""backbones/inference/packing.py: packed layers give nn.Linear's outputs, follow the weights, and swap back.

Kernel expectations hold on any x86 CPU: bf16 goes to oneDNN where it runs bf16 (AVX-512 or AMX, as
kernels.onednn_ok says), else the weight is cast once (autocast) or F.linear runs it as it is.
"""
import copy
import io

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import zoo
from backbones import MultiHeadAttention, SwiGLU, set_attention_backend
from backbones.inference import FusedInputProjections, PackedLinear, gemv, pack_for_inference
from backbones.inference.kernels import InferenceWeights, onednn_ok
from backbones.precision import InputProjections
from tests.helpers import tiny_hf_decoder

BF16_ONEDNN = onednn_ok(torch.bfloat16)


def _layer(bias=True, seed=0, dim=48):
    torch.manual_seed(seed)
    return nn.Linear(dim, dim - 8, bias=bias).eval()


# fp32 kernel per (weight width, rows): 1 to 4 rows through zoo::gemv where this CPU runs it (AVX2 + FMA), else
# one row to the transposed copy from 2^18 elements; no copy below 2^18 elements; transposed copy at 5-256
# rows below 2^20 and (without zoo::gemv) at 2-4 rows from 2^20; oneDNN-packed at 5-256 rows and MKL-packed
# past 256 rows from 2^20; F.linear otherwise.
FP32_GEMV = gemv.supports(torch.float32)
EXPECTED_KERNEL = {(48, 1): "gemv" if FP32_GEMV else None, (48, 3): "gemv" if FP32_GEMV else None, (48, 8): None,
                   (48, 300): None,
                   (520, 1): "gemv" if FP32_GEMV else "transposed", (520, 3): "gemv" if FP32_GEMV else None,
                   (520, 8): "transposed", (520, 300): None,
                   (1032, 1): "gemv" if FP32_GEMV else "transposed", (1032, 3): "gemv" if FP32_GEMV else "transposed",
                   (1032, 8): "onednn", (1032, 300): "mkl"}


@pytest.mark.skipif(not (torch.backends.mkldnn.is_available() and torch.backends.mkl.is_available()),
                    reason="the kernel table is for x86 builds with oneDNN and MKL")
@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("rows", [1, 3, 8, 300])
@pytest.mark.parametrize("dim", [48, 520, 1032])
def test_fp32_matches_linear(bias, rows, dim):
    layer = _layer(bias, dim=dim)
    x = torch.randn(rows, dim)
    want = F.linear(x, layer.weight, layer.bias)
    layer = pack_for_inference(layer)
    with torch.inference_mode():
        got = layer(x)
        again = layer(x[None])  # (1, R, K): rows are the product of the leading dims
    assert got.dtype == torch.float32 and got.shape == (rows, dim - 8)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(again[0], want, rtol=1e-5, atol=1e-5)
    kernel = EXPECTED_KERNEL[dim, rows]
    assert set(layer.inference.copies) == ({kernel} if kernel else set())  # only the layout this call used
    assert (layer.inference.plain is not None) == (dim == 48 and not FP32_GEMV)  # F.linear for every call
    if kernel == "gemv":  # the weight itself, no copy
        assert layer.inference.copies["gemv"].data_ptr() == layer.weight.data_ptr()


@pytest.mark.parametrize("shape", [(1, 48), (2, 7, 48), (0, 48)])
def test_bf16_autocast_and_bf16_weights_match_linear(shape):
    layer = _layer()
    x = torch.randn(*shape)
    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16):
        want_autocast = layer(x)
    half = copy.deepcopy(layer).bfloat16()
    with torch.inference_mode():
        want_half = half(x.bfloat16())
    layer, half = pack_for_inference(layer), pack_for_inference(half)
    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16):
        got_autocast = layer(x)
    with torch.inference_mode():
        got_half = half(x.bfloat16())
    for got, want in ((got_autocast, want_autocast), (got_half, want_half)):
        assert got.dtype == torch.bfloat16 and got.shape == want.shape
        torch.testing.assert_close(got.float(), want.float(), rtol=1e-2, atol=1e-2)
    assert layer.inference.source[0] == torch.bfloat16  # the copy was built and used


@pytest.mark.parametrize("mode", ["fp32", "bf16", "autocast"])
def test_copy_follows_weight_changes(mode):
    layer = pack_for_inference(_layer(dim=1032))  # big enough to be packed in fp32 too
    if mode == "bf16":
        layer = layer.to(torch.bfloat16)
    x = torch.randn(8, 1032, dtype=torch.bfloat16 if mode == "bf16" else torch.float32)  # 8 rows: packed
    # bf16 weights without oneDNN's bf16: F.linear on the weight as it is, nothing to copy
    expected = {"fp32": "onednn", "bf16": "onednn" if BF16_ONEDNN else None,
                "autocast": "onednn" if BF16_ONEDNN else "cast"}[mode]
    tol = {"rtol": 1e-5, "atol": 1e-5} if mode == "fp32" else {"rtol": 2e-2, "atol": 2e-2}

    def check():
        with torch.no_grad(), torch.autocast("cpu", torch.bfloat16, enabled=mode == "autocast"):
            got, want = layer(x), F.linear(x, layer.weight, layer.bias)
        torch.testing.assert_close(got, want, **tol)
        assert set(layer.inference.copies) == ({expected} if expected else set())
        return got

    first = check()
    with torch.no_grad():
        layer.weight.mul_(2)  # in place: the version counter moves
    check()
    layer.load_state_dict(_layer(seed=1, dim=1032).state_dict())
    check()
    layer.weight = nn.Parameter(torch.zeros_like(layer.weight))  # a new tensor: new storage
    out = check()
    assert torch.equal(out, layer.bias.detach().to(out.dtype).expand(8, 1024))
    assert not torch.equal(first, out)


def test_parameters_made_in_inference_mode_take_the_plain_path():
    with torch.inference_mode():
        layer = pack_for_inference(_layer(dim=1032))
        x = torch.randn(4, 1032)
        torch.testing.assert_close(layer(x), F.linear(x, layer.weight, layer.bias))
    assert layer.inference.source is None  # no version counter to follow: nothing cached
    with torch.inference_mode():
        attn = pack_for_inference(MultiHeadAttention(32, 4).eval())
        x = torch.randn(2, 5, 32)
        fused = attn(x, causal=True)
    pack_for_inference(attn, enabled=False)
    with torch.inference_mode():
        torch.testing.assert_close(fused, attn(x, causal=True))


def test_training_path_is_nn_linear():
    layer = pack_for_inference(_layer())
    x = torch.randn(4, 48, requires_grad=True)
    out = layer(x)
    assert out.requires_grad and layer.inference.source is None  # gradients: the copy is not even built
    out.sum().backward()
    assert layer.weight.grad is not None and x.grad is not None


def test_copy_pickle_and_state_dict_carry_no_copy():
    layer = pack_for_inference(_layer(dim=1032))
    with torch.no_grad():
        want = layer(torch.ones(8, 1032))
    assert layer.inference.copies
    assert set(layer.state_dict()) == {"weight", "bias"}
    clone = copy.deepcopy(layer)
    buffer = io.BytesIO()
    torch.save(layer, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)
    for other in (clone, loaded):
        assert type(other) is PackedLinear and isinstance(other.inference, InferenceWeights)
        assert not other.inference.copies
        with torch.no_grad():
            torch.testing.assert_close(other(torch.ones(8, 1032)), want)


def test_packing_swaps_layers_keeps_state_dict_and_unpacking_restores_nn_linear():
    model = zoo.create_model("llama_tiny").eval()  # attention's q/k/v, SwiGLU's gate/up, an untied head
    gpt = zoo.create_model("gpt_tiny").eval()  # its head tied to the token embedding
    for m in (model, gpt):
        state = {k: v.clone() for k, v in m.state_dict().items()}
        params = [id(p) for p in m.parameters()]
        assert pack_for_inference(m) is m
        kinds = {type(x) for x in m.modules()}
        assert PackedLinear in kinds and nn.Linear not in kinds and InputProjections not in kinds
        assert [id(p) for p in m.parameters()] == params  # the same Parameter objects: ties kept
        assert list(m.state_dict()) == list(state)
        assert all(torch.equal(v, state[k]) for k, v in m.state_dict().items())
        assert pack_for_inference(m, enabled=False) is m
        kinds = {type(x) for x in m.modules()}
        assert PackedLinear not in kinds and FusedInputProjections not in kinds and nn.Linear in kinds
        assert [id(p) for p in m.parameters()] == params and list(m.state_dict()) == list(state)
    assert FusedInputProjections not in {type(x) for x in model.modules()}
    assert gpt.head.proj.weight is gpt.embed.tokens.weight
    with pytest.raises(TypeError, match="expects an nn.Module"):
        pack_for_inference(torch.randn(3))


def test_shared_layers_swap_once_and_subclasses_keep_their_forward():
    class Scaled(nn.Linear):  # a subclass with its own forward (LoRA-style): not ours to replace
        def forward(self, x):
            return 2 * super().forward(x)

    shared = nn.Linear(8, 8)
    model = nn.Sequential(shared, nn.ReLU(), shared, Scaled(8, 8)).eval()
    hits = []
    shared.register_forward_hook(lambda *_: hits.append(1))
    pack_for_inference(model)
    assert type(model[0]) is PackedLinear and model[0] is model[2] and type(model[3]) is Scaled
    with torch.no_grad():
        model(torch.randn(2, 8))
    assert len(hits) == 2  # hooks travel with the layer
    assert type(pack_for_inference(nn.Linear(4, 4))) is PackedLinear  # a bare layer: its replacement


@pytest.mark.parametrize("kind", ["gpt2", "llama"])
def test_packed_model_keeps_parity_and_greedy_output(kind):
    ref, ours = tiny_hf_decoder(kind)
    ids = torch.randint(1, 97, (3, 9), generator=torch.Generator().manual_seed(0))
    with torch.inference_mode():
        want = ref(ids).logits
        plain = zoo.generate(ours, ids, max_new_tokens=12)
    pack_for_inference(ours)
    with torch.inference_mode():
        torch.testing.assert_close(ours(ids), want, rtol=0, atol=1e-4)
        assert torch.equal(zoo.generate(ours, ids, max_new_tokens=12), plain)


@pytest.mark.parametrize("autocast", [False, True])
def test_fused_projections_match_and_follow_changes(autocast):
    torch.manual_seed(0)
    attn = MultiHeadAttention(64, 4, num_kv_heads=2).eval()  # GQA: q wider than k and v
    ffn = SwiGLU(64, 96).eval()
    packed_attn, packed_ffn = pack_for_inference(copy.deepcopy(attn)), pack_for_inference(copy.deepcopy(ffn))
    x = torch.randn(2, 5, 64)
    tol = {"rtol": 2e-2, "atol": 2e-2} if autocast else {"rtol": 1e-5, "atol": 1e-5}

    def check():
        with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16, enabled=autocast):
            torch.testing.assert_close(packed_attn(x, causal=True).float(), attn(x, causal=True).float(), **tol)
            torch.testing.assert_close(packed_ffn(x).float(), ffn(x).float(), **tol)

    check()
    assert type(packed_attn.in_proj) is FusedInputProjections
    assert packed_attn.in_proj.fused.weight.shape == (64 + 32 + 32, 64)  # one product for q, k, v
    assert packed_ffn.in_proj.fused.weight.shape == (2 * 96, 64)
    with torch.no_grad():
        for model in (attn, packed_attn):
            model.k_proj.weight.mul_(3)  # only k moves: the fused copy must notice
        for model in (ffn, packed_ffn):
            model.up.weight.add_(1)
    check()


def test_packed_models_trace_into_one_graph():
    """Under torch.compile packed layers make nn.Linear's calls (and zoo::gemv's, test_gemv.py): no break."""
    for name in ("gpt_tiny", "llama_tiny"):
        model = pack_for_inference(zoo.create_model(name).eval())
        ids = torch.randint(0, model.config.vocab_size, (1, 3))
        with torch.no_grad():
            explain = torch._dynamo.explain(model)(ids)
        assert explain.graph_break_count == 0, explain.break_reasons


@pytest.mark.skipif(not gemv.available(torch.float32), reason=gemv.reason(torch.float32) or "zoo operators absent")
def test_packing_sets_our_attention_backend_on_the_packed_model_only(monkeypatch):
    """Packing names its attention backend (zoo_cpu) on the layers it packs; a model in the same process that was
    not packed keeps "auto" (torch's sdpa), and its decoding never reaches our kernels. A backend the user chose
    stays; unpacking gives "auto" back."""
    from backbones.inference import attention_kernel

    torch.manual_seed(0)
    plain = zoo.create_model("gpt_tiny").eval()
    packed, chosen = copy.deepcopy(plain), copy.deepcopy(plain)
    set_attention_backend(chosen, "math")
    pack_for_inference(packed)
    pack_for_inference(chosen)
    backends = lambda m: {a.backend for a in m.modules() if isinstance(a, MultiHeadAttention)}  # noqa: E731
    assert backends(packed) == {"zoo_cpu"} and backends(plain) == {"auto"} and backends(chosen) == {"math"}
    calls = []
    original = attention_kernel.decode_attention
    monkeypatch.setattr(attention_kernel, "decode_attention", lambda *a: calls.append(a) or original(*a))
    ids = torch.randint(1, 4096, (1, 5), generator=torch.Generator().manual_seed(1))
    want = zoo.generate(plain, ids, 6)
    assert calls == []  # the plain model's steps stayed with torch
    assert torch.equal(zoo.generate(packed, ids, 6), want) and len(calls) > 0
    pack_for_inference(packed, enabled=False)
    assert backends(packed) == {"auto"}
