"""zoo.add_lora / merge_lora (backbones/lora.py): the adapted layer's math, what trains, merging, QLoRA, packing,
and the errors. peft parity is tests/zoo/test_lora_peft.py; training runs, tests/zoo/test_lora_training.py."""
import copy
import math
import pickle

import pytest
import torch
import torch.nn.functional as F
from torch import nn

import zoo
from backbones.lora import LoRAError, LoRALinear, LoRAQuantizedLinear, LowRankAdapter
from backbones.quantized import QuantizationError, QuantizedLinear
from tests.helpers import tiny_presets
from zoo.lora import adapted_layers, lora_settings


def _outputs(model, inputs) -> torch.Tensor:
    out = model(**inputs)
    if isinstance(out, dict):
        return torch.cat([t.flatten() for t in out.values()])
    return out if isinstance(out, torch.Tensor) else torch.cat([t.flatten() for t in out])


def _randomize_adapters(model, seed=1, std=0.1):
    torch.manual_seed(seed)
    with torch.no_grad():
        for layer in adapted_layers(model).values():
            layer.lora_B.normal_(0, std)
    return model


def test_layer_is_base_plus_scaled_low_rank_product():
    torch.manual_seed(0)
    base = nn.Linear(12, 10)
    weight, bias = base.weight, base.bias
    layer = LoRALinear.adapt(base, r=3, alpha=6)
    assert layer.weight is weight and layer.bias is bias  # the same Parameters: tied weights stay tied
    x = torch.randn(2, 5, 12)
    assert torch.equal(layer(x), base(x))  # B starts at zero: the adapted layer starts as its base
    with torch.no_grad():
        layer.lora_B.normal_()
    expected = x @ weight.T + bias + 2.0 * (x @ layer.lora_A.T @ layer.lora_B.T)  # alpha / r = 2
    torch.testing.assert_close(layer(x), expected, rtol=1e-5, atol=1e-5)
    rs = LoRALinear.adapt(nn.Linear(12, 10), r=4, alpha=6, use_rslora=True)
    assert rs.lora_scaling == pytest.approx(6 / math.sqrt(4))


@pytest.mark.parametrize("name", tiny_presets())
def test_every_family_adapts_trains_only_adapters_and_merges(name):
    """Default targets on every tiny preset: attention q/k/v/o of every block; gradients reach only the adapters;
    the adapted model starts equal to its base; merged equals unmerged."""
    model = zoo.create_model(name).eval()
    inputs = model.example_inputs()
    keys = set(model.state_dict())
    with torch.no_grad():
        reference = _outputs(model, inputs)
    zoo.add_lora(model, r=4, alpha=8)
    layers = adapted_layers(model)
    assert layers and all(n.rsplit(".", 1)[1] in ("q_proj", "k_proj", "v_proj", "o_proj") for n in layers)
    assert set(model.state_dict()) == keys | {f"{n}.{p}" for n in layers for p in ("lora_A", "lora_B")}
    trainable = {n for n, p in model.named_parameters() if p.requires_grad}
    assert trainable == {f"{n}.{p}" for n in layers for p in ("lora_A", "lora_B")}
    with torch.no_grad():
        torch.testing.assert_close(_outputs(model, inputs), reference)
    _randomize_adapters(model)
    out = _outputs(model, inputs)
    out.float().square().mean().backward()
    for pname, p in model.named_parameters():
        assert (p.grad is not None) == p.requires_grad, pname
    assert all(layer.lora_A.grad.abs().sum() > 0 for layer in layers.values())  # B non-zero: A learns too
    with torch.no_grad():
        adapted = _outputs(model, inputs)
        assert (adapted - reference).abs().max() > 1e-3  # the adapters change the output
        zoo.merge_lora(model)
        assert not adapted_layers(model) and set(model.state_dict()) == keys
        torch.testing.assert_close(_outputs(model, inputs), adapted, rtol=1e-4, atol=1e-4)


def test_targets_globs_suffixes_and_modules_to_save():
    model = zoo.create_model("gpt_tiny")
    zoo.add_lora(model, r=2, target_modules=["q_proj", "transformer.blocks.0.ffn.*"], modules_to_save=["head"])
    names = set(adapted_layers(model))
    depth = len(model.transformer.blocks)
    assert names == {f"transformer.blocks.{i}.attn.q_proj" for i in range(depth)} | {
        "transformer.blocks.0.ffn.fc1", "transformer.blocks.0.ffn.fc2"}
    head = {id(p) for n, p in model.named_parameters() if p.requires_grad and "lora_" not in n}
    assert head == {id(p) for p in model.head.parameters()}  # (gpt_tiny's head is tied: the table trains too)
    settings = lora_settings(model)
    assert (settings["r"], settings["alpha"], settings["modules_to_save"]) == (2, 16.0, ["head"])


def test_only_v_of_one_layer_and_rank_patterns_read_back():
    model = zoo.create_model("llama_tiny")
    zoo.add_lora(model, r=4, alpha=8, target_modules="transformer.blocks.1.attn.v_proj")
    zoo.add_lora(model, r=2, alpha=8, target_modules="transformer.blocks.0.attn.q_proj")
    settings = lora_settings(model)
    assert {n for n, p in model.named_parameters() if p.requires_grad} == {
        f"transformer.blocks.{n}.lora_{m}" for n in ("0.attn.q_proj", "1.attn.v_proj") for m in "AB"}  # both train
    assert settings["targets"] == ["transformer.blocks.0.attn.q_proj", "transformer.blocks.1.attn.v_proj"]
    assert len(set(settings["rank_pattern"].values())) == 1 and len(settings["rank_pattern"]) == 1


def test_dropout_acts_in_training_only():
    model = zoo.add_lora(zoo.create_model("bert_tiny"), r=4, dropout=0.5)
    _randomize_adapters(model, std=1.0)
    inputs = model.example_inputs()
    model.eval()
    with torch.no_grad():
        first, second = _outputs(model, inputs), _outputs(model, inputs)
        assert torch.equal(first, second)
        model.train()
        model.requires_grad_(False)
        for module in model.modules():  # the base's own dropout off: only the adapters' can move the output
            if isinstance(module, nn.Dropout):
                module.p = 0.0
        for block in model.transformer.blocks:
            block.attn.dropout = 0.0
        torch.manual_seed(0)
        assert not torch.equal(_outputs(model, inputs), first)


@pytest.mark.parametrize("scheme", ["int8", "int4"])
def test_qlora_trains_adapters_over_frozen_integers_and_merges_within_a_step(scheme):
    torch.manual_seed(0)
    model = zoo.quantize(zoo.create_model("gpt_tiny").eval(), scheme)
    integers = {n: b.clone() for n, b in model.named_buffers() if n.endswith("qweight")}
    zoo.add_lora(model, r=4)
    layer = model.transformer.blocks[0].attn.q_proj
    assert isinstance(layer, LoRAQuantizedLinear) and isinstance(layer, QuantizedLinear)
    _randomize_adapters(model, std=0.02)
    inputs = model.example_inputs()
    _outputs(model, inputs).square().mean().backward()
    assert all(p.grad is not None for p in model.parameters() if p.requires_grad)
    assert all(not p.requires_grad for n, p in model.named_parameters() if "lora_" not in n)
    with torch.no_grad():
        x = torch.randn(3, layer.in_features)
        torch.testing.assert_close(layer(x), F.linear(x, layer.dequantize(), layer.bias) + layer.lora_delta(x),
                                   rtol=0.05, atol=0.05 * layer(x).abs().max().item())  # int8 activations' rounding
        exact = layer.dequantize() + layer.delta_weight()
        zoo.merge_lora(model)
        merged = model.transformer.blocks[0].attn.q_proj
        assert type(merged) is QuantizedLinear and merged.scheme == scheme
        step = merged.scales.max().item()
        assert (merged.dequantize() - exact).abs().max().item() <= step / 2 + 1e-6  # rounded to its own levels
    assert all(torch.equal(b, integers[n]) for n, b in model.named_buffers()
               if n in integers and "attn" not in n)  # layers without adapters keep their integers


def test_packed_fused_qkv_adds_each_projections_term():
    """Packing runs q/k/v as one product; adapters on q and v only are each added to their own slice."""
    model = zoo.create_model("llama_tiny").eval()
    zoo.add_lora(model, r=4, target_modules=["q_proj", "v_proj"])
    _randomize_adapters(model)
    inputs = model.example_inputs()
    with torch.no_grad():
        eager = _outputs(model, inputs)
        packed = zoo.pack_for_inference(copy.deepcopy(model))
        assert type(packed.transformer.blocks[0].attn.in_proj).__name__ == "FusedInputProjections"
        torch.testing.assert_close(_outputs(packed, inputs), eager, rtol=1e-4, atol=1e-4)


def test_bf16_autocast_and_pickling():
    model = zoo.add_lora(zoo.create_model("gpt_tiny"), r=4)
    _randomize_adapters(model)
    inputs = model.example_inputs()
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = _outputs(model, inputs)
        out.float().square().mean().backward()
    assert model.transformer.blocks[0].attn.q_proj.lora_A.grad.dtype == torch.float32
    clone = pickle.loads(pickle.dumps(model))
    with torch.no_grad():
        torch.testing.assert_close(_outputs(clone, inputs), _outputs(model, inputs))


def test_adapter_stays_float32_over_a_bf16_base():
    model = zoo.add_lora(zoo.create_model("gpt_tiny").to(torch.bfloat16), r=4)
    layer = model.transformer.blocks[0].attn.q_proj
    assert layer.weight.dtype == torch.bfloat16 and layer.lora_A.dtype == torch.float32
    x = torch.randn(2, 3, layer.in_features, dtype=torch.bfloat16)
    assert layer(x).dtype == torch.bfloat16


def test_errors_name_what_was_wrong():
    with pytest.raises(LoRAError, match=r"r=0: expected a whole number of at least 1"):
        zoo.add_lora(zoo.create_model("gpt_tiny"), r=0)
    with pytest.raises(LoRAError, match=r"dropout 1\.5"):
        zoo.add_lora(zoo.create_model("gpt_tiny"), dropout=1.5)
    with pytest.raises(LoRAError, match=r"\['query'\] match no Linear layer of GPT; its Linear layers are: "
                                        r"transformer\.blocks\.0\.attn\.q_proj"):
        zoo.add_lora(zoo.create_model("gpt_tiny"), target_modules=["query"])
    model = zoo.add_lora(zoo.create_model("gpt_tiny"), r=2)
    with pytest.raises(LoRAError, match=r"'transformer\.blocks\.0\.attn\.q_proj' already has a LoRA adapter"):
        zoo.add_lora(model, r=2, target_modules="q_proj")
    with pytest.raises(QuantizationError, match="has LoRA adapters"):
        zoo.quantize(model, "int8")
    with pytest.raises(LoRAError, match="has no LoRA adapter to merge"):
        zoo.merge_lora(zoo.create_model("gpt_tiny"))
    with pytest.raises(LoRAError, match="inference-packed"):
        zoo.add_lora(zoo.pack_for_inference(zoo.create_model("gpt_tiny")), r=2)


def test_tied_head_adapts_but_refuses_to_merge():
    model = zoo.create_model("gpt_tiny")
    assert model.head.proj.weight is model.embed.tokens.weight
    zoo.add_lora(model, r=2, target_modules="head.proj")
    assert isinstance(model.head.proj, LowRankAdapter) and model.head.proj.weight is model.embed.tokens.weight
    with pytest.raises(LoRAError, match=r"'head\.proj'.*shared with \['embed\.tokens\.weight'\]"):
        zoo.merge_lora(model)
