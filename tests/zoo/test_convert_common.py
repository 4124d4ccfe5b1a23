"""The helpers every converter shares: their refusals name what was wrong and what is supported."""
import pytest
import torch

import zoo
from zoo.convert.common import (
    HF_ACTIVATIONS,
    UnsupportedConfigError,
    build_converted,
    hf_activation,
    key_map,
    rename_all,
    split_fused_qkv,
    square,
)
from zoo.io import CheckpointMismatchError


def test_hf_activation_names_value_and_supported_ones():
    assert hf_activation({"model_type": "gpt2"}, "activation_function", "gelu_new") == "gelu_tanh"
    assert hf_activation({"hidden_act": "quick_gelu"}, "hidden_act", "gelu") == "quick_gelu"
    assert hf_activation({"activation_function": "swish"}, "activation_function", "gelu") == "silu"  # Opus-MT's
    with pytest.raises(UnsupportedConfigError, match=r"bert config has hidden_act='mish'; supported: 'gelu', "):
        hf_activation({"model_type": "bert", "hidden_act": "mish"}, "hidden_act", "gelu")
    assert set(HF_ACTIVATIONS.values()) <= {"gelu", "gelu_tanh", "relu", "quick_gelu", "silu"}


def test_square():
    assert square(224, "image_size", "vit config") == 224
    assert square((16, 16), "patch_size", "vit config") == 16
    with pytest.raises(UnsupportedConfigError, match="vit config has non-square image_size 32x48"):
        square([32, 48], "image_size", "vit config")
    with pytest.raises(UnsupportedConfigError, match="non-square img_size 8x8x8"):
        square((8, 8, 8), "img_size", "timm VisionTransformer")


def test_split_fused_qkv_in_q_k_v_order():
    weight, bias = torch.arange(6 * 2).reshape(6, 2), torch.arange(6)
    out = split_fused_qkv({"blocks.0.attn.qkv.weight": weight, "blocks.0.attn.qkv.bias": bias,
                           "blocks.0.attn.o_proj.weight": weight})
    assert sorted(out) == ["blocks.0.attn.k_proj.bias", "blocks.0.attn.k_proj.weight", "blocks.0.attn.o_proj.weight",
                           "blocks.0.attn.q_proj.bias", "blocks.0.attn.q_proj.weight", "blocks.0.attn.v_proj.bias",
                           "blocks.0.attn.v_proj.weight"]
    assert torch.equal(out["blocks.0.attn.k_proj.weight"], weight[2:4])
    assert torch.equal(out["blocks.0.attn.v_proj.bias"], bias[4:])


def test_key_map_and_unknown_keys():
    rename = key_map({"wte.weight": "embed.tokens.weight", "extra": None}, r"h", {"ln_1": "norm1"},
                     prefix="transformer.", skip=r"h\.\d+\.attn\.bias")
    state = {"transformer.wte.weight": 1, "extra": 2, "transformer.h.3.ln_1.weight": 3, "h.0.attn.bias": 4}
    assert rename_all(state, rename, "src") == {"embed.tokens.weight": 1, "transformer.blocks.3.norm1.weight": 3}
    with pytest.raises(ValueError, match=r"src: 2 parameter\(s\).*'h\.0\.mlp\.weight', 'other'"):
        rename_all({"h.0.mlp.weight": 1, "other": 2}, rename, "src")


def test_build_converted_fills_tied_aliases_and_lists_mismatches():
    model = zoo.create_model("gpt_tiny")
    aliases = model.tied_parameters()
    assert aliases
    state = {k: v for k, v in model.state_dict().items() if k not in aliases}
    ours = build_converted(model.config, state, "src")
    assert not ours.training
    assert all(torch.equal(a, b) for a, b in zip(ours.state_dict().values(), model.state_dict().values()))
    # Its weights are copies: training one model never moves the other's.
    theirs = {t.untyped_storage().data_ptr() for t in model.state_dict().values()}
    assert not theirs & {t.untyped_storage().data_ptr() for t in ours.state_dict().values()}
    assert ours.get_parameter(next(iter(aliases))) is ours.get_parameter(aliases[next(iter(aliases))])


def test_build_converted_unties_views_of_one_tensor():
    """A converter's state of views (q, k, v cut from one fused tensor; one zero bias for two layers) loads as
    tensors of their own: no layer ties to another through it, none keeps the fused tensor alive."""
    model = zoo.create_model("gpt_tiny")
    state = {k: v.clone() for k, v in model.state_dict().items() if k not in model.tied_parameters()}
    attn = "transformer.blocks.0.attn"
    fused = torch.cat([state[f"{attn}.{p}.weight"] for p in ("q_proj", "k_proj", "v_proj")])
    state.update(zip([f"{attn}.{p}.weight" for p in ("q_proj", "k_proj", "v_proj")], fused.chunk(3)))
    zero = torch.zeros_like(state[f"{attn}.o_proj.bias"])
    state[f"{attn}.o_proj.bias"] = state["transformer.blocks.1.attn.o_proj.bias"] = zero
    ours = build_converted(model.config, state, "src")
    q = ours.get_parameter(f"{attn}.q_proj.weight")
    assert q.untyped_storage().nbytes() == q.numel() * q.element_size()
    with torch.no_grad():
        ours.get_parameter(f"{attn}.o_proj.bias").add_(1.0)
    assert torch.equal(ours.get_parameter("transformer.blocks.1.attn.o_proj.bias"), zero)
    del state["transformer.norm.weight"]
    with pytest.raises(CheckpointMismatchError, match=r"(?s)'src'.*missing in checkpoint.*transformer\.norm\.weight"):
        build_converted(model.config, state, "src")


def test_parameters_on_meta_holds_in_its_own_thread_only():
    """A model built in another thread while a load's block is open gets real weights; after every block closes,
    nn.Module is as it was."""
    import threading

    from torch import nn

    from zoo.io import parameters_on_meta

    register = nn.Module.register_parameter
    inside, built = threading.Event(), threading.Event()
    made = {}

    def load():
        with parameters_on_meta():
            made["inside"] = nn.Linear(4, 4).weight
            inside.set()
            built.wait(10)

    thread = threading.Thread(target=load)
    thread.start()
    inside.wait(10)
    made["beside"] = nn.Linear(4, 4).weight
    built.set()
    thread.join(10)
    assert made["inside"].is_meta and not made["beside"].is_meta
    assert nn.Module.register_parameter is register
