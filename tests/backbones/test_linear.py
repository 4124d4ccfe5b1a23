"""backbones/linear.py: the opt-in inference weight copy gives nn.Linear's outputs and follows the weights."""
import copy
import io

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import zoo
from backbones.linear import InferenceWeights, Linear, pack_for_inference
from tests.helpers import tiny_hf_decoder


def _layer(bias=True, seed=0):
    torch.manual_seed(seed)
    return Linear(48, 40, bias=bias).eval()


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("rows", [1, 3, 8, 300])  # fp32: plain below 2 and above 256 rows, oneDNN between
def test_fp32_matches_linear(bias, rows):
    layer = _layer(bias)
    x = torch.randn(rows, 48)
    want = F.linear(x, layer.weight, layer.bias)
    pack_for_inference(layer)
    with torch.inference_mode():
        got = layer(x)
    assert got.dtype == torch.float32 and got.shape == (rows, 40)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("shape", [(1, 48), (2, 7, 48), (0, 48)])
def test_bf16_autocast_and_bf16_weights_match_linear(shape):
    layer = _layer()
    x = torch.randn(*shape)
    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16):
        want_autocast = layer(x)
    half = copy.deepcopy(layer).bfloat16()
    with torch.inference_mode():
        want_half = half(x.bfloat16())
    pack_for_inference(layer)
    pack_for_inference(half)
    with torch.inference_mode(), torch.autocast("cpu", torch.bfloat16):
        got_autocast = layer(x)
    with torch.inference_mode():
        got_half = half(x.bfloat16())
    for got, want in ((got_autocast, want_autocast), (got_half, want_half)):
        assert got.dtype == torch.bfloat16 and got.shape == want.shape
        torch.testing.assert_close(got.float(), want.float(), rtol=1e-2, atol=1e-2)
    assert layer.inference_weights.key[0] == torch.bfloat16  # the copy was built and used


def test_copy_follows_weight_changes():
    layer = pack_for_inference(_layer())
    x = torch.randn(4, 48)
    with torch.no_grad():
        first = layer(x)
    with torch.no_grad():
        layer.weight.mul_(2)  # in place: the version counter moves
        torch.testing.assert_close(layer(x), F.linear(x, layer.weight, layer.bias), rtol=1e-5, atol=1e-5)
    layer.load_state_dict(_layer(seed=1).state_dict())
    with torch.no_grad():
        torch.testing.assert_close(layer(x), F.linear(x, layer.weight, layer.bias), rtol=1e-5, atol=1e-5)
    layer.weight = nn.Parameter(torch.zeros(40, 48))  # a new tensor: new storage
    with torch.no_grad():
        torch.testing.assert_close(layer(x), layer.bias.expand(4, 40))
    assert not torch.equal(first, layer(x).detach())


def test_training_path_is_nn_linear():
    layer = pack_for_inference(_layer())
    x = torch.randn(4, 48, requires_grad=True)
    out = layer(x)
    assert out.requires_grad and layer.inference_weights.key is None  # gradients: the copy is not even built
    out.sum().backward()
    assert layer.weight.grad is not None and x.grad is not None


def test_copy_pickle_and_state_dict_carry_no_copy():
    layer = pack_for_inference(_layer())
    with torch.no_grad():
        want = layer(torch.ones(4, 48))
    assert layer.inference_weights.weight is not None
    assert set(layer.state_dict()) == {"weight", "bias"}
    clone = copy.deepcopy(layer)
    buffer = io.BytesIO()
    torch.save(layer, buffer)
    buffer.seek(0)
    loaded = torch.load(buffer, weights_only=False)
    for other in (clone, loaded):
        assert isinstance(other.inference_weights, InferenceWeights) and other.inference_weights.weight is None
        with torch.no_grad():
            torch.testing.assert_close(other(torch.ones(4, 48)), want)


def test_off_frees_and_rejects_non_modules():
    model = pack_for_inference(zoo.create_model("gpt_tiny"))
    linears = [m for m in model.modules() if isinstance(m, Linear)]
    assert linears and all(m.inference_weights is not None for m in linears)
    pack_for_inference(model, enabled=False)
    assert all(m.inference_weights is None for m in linears)
    with pytest.raises(TypeError, match="expects an nn.Module"):
        pack_for_inference(torch.randn(3))


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
