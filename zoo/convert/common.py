"""Helpers every converter shares: renaming keys, splitting fused q/k/v, activation names,
refusing unsupported configs, loading the converted weights."""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import torch
from torch import nn

from zoo.pretrained import build_loaded


class UnsupportedConfigError(ValueError):
    """A foreign model (HF config, timm instance) uses a feature our families do not implement."""


class HFConfig(dict):
    """An HF config (config.json, or an instance's config.to_dict()) whose missing keys are an
    UnsupportedConfigError naming the file, the model type and the field: converters read a field they need as
    cfg[key] and one with a default as cfg.get(key, default). Nested configs (LLaVA's text_config) are HFConfigs
    too, their fields named by path."""

    def __init__(self, values: Mapping[str, Any], source: str, *, model_type: str | None = None, path: str = ""):
        self.source, self.path = source, path
        self.model_type = model_type or values.get("model_type")
        super().__init__({key: HFConfig(value, source, model_type=self.model_type, path=f"{path}{key}.")
                          if isinstance(value, Mapping) else value for key, value in values.items()})

    def __missing__(self, key: str) -> Any:
        raise UnsupportedConfigError(f"{self.source}: the {self.model_type} config has no '{self.path}{key}', "
                                     "which converting it needs")


def require(cfg: dict[str, Any], key: str, allowed: tuple, default: Any = None) -> None:
    value = cfg.get(key, default)
    if value not in allowed:
        raise UnsupportedConfigError(f"{cfg.get('model_type')} config has {key}={value!r}; "
                                     f"supported: {', '.join(map(repr, allowed))}")


# Foreign activation names -> ours (backbones/ffn.py). HF's "gelu_new" and "gelu_pytorch_tanh" are both
# the tanh approximation; timm names modules, and a GELU(approximate="tanh") is looked up as "GELUTanh".
HF_ACTIVATIONS = {"gelu": "gelu", "gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "relu": "relu",
                  "quick_gelu": "quick_gelu", "swish": "silu", "silu": "silu"}
TIMM_ACTIVATIONS = {"GELU": "gelu", "GELUTanh": "gelu_tanh", "QuickGELU": "quick_gelu", "ReLU": "relu"}


# transformers' BART-family encoder-decoder layers (Whisper, Marian): their sub-module names -> ours.
_HF_ATTENTION = {"q_proj": "q_proj", "k_proj": "k_proj", "v_proj": "v_proj", "out_proj": "o_proj"}
HF_ENCODER_DECODER_BLOCK = {**{f"self_attn.{hf}": f"attn.{ours}" for hf, ours in _HF_ATTENTION.items()},
                            **{f"encoder_attn.{hf}": f"cross_attn.{ours}" for hf, ours in _HF_ATTENTION.items()},
                            "self_attn_layer_norm": "norm1", "encoder_attn_layer_norm": "norm_cross",
                            "fc1": "ffn.fc1", "fc2": "ffn.fc2", "final_layer_norm": "norm2"}


def hf_activation(cfg: dict[str, Any], key: str, default: str) -> str:
    """Our name for the activation an HF config names under `key` (hidden_act, activation_function);
    UnsupportedConfigError names the value and the supported ones."""
    require(cfg, key, tuple(HF_ACTIVATIONS), default)
    return HF_ACTIVATIONS[cfg.get(key, default)]


def square(value: int | Sequence[int], what: str, source: str) -> int:
    """An image or patch size given as one int or a (height, width) pair -> one int; non-square is refused."""
    sizes = (value, value) if isinstance(value, int) else tuple(value)
    if len(sizes) != 2 or sizes[0] != sizes[1]:
        raise UnsupportedConfigError(f"{source} has non-square {what} {'x'.join(map(str, sizes))}; "
                                     "supported: one size or an equal (height, width) pair")
    return int(sizes[0])


def block_key(key: str, layers: str, block: dict[str, str]) -> str:
    r"""Rename a per-layer key: `layers` is the foreign prefix regex (e.g. r"encoder\.layer"), `block` maps
    the foreign sub-module name to ours; the suffix (".weight", ".bias", "" for bare parameters) is kept.
    Unknown names raise KeyError, which `rename_all` collects into one error."""
    m = re.fullmatch(layers + r"\.(\d+)\.(.+?)(\.weight|\.bias|)", key)
    if m is None or m.group(2) not in block:
        raise KeyError(key)
    layer, name, suffix = m.groups()
    return f"transformer.blocks.{layer}.{block[name]}{suffix}"


class KeyMap:
    """A converter's rename, for `rename_all`: foreign key -> our key, None for a tensor we drop, KeyError for a key
    it does not know. The foreign model's `prefix` (e.g. "bert.") is dropped first where present, then whole names
    come from `top`, per-layer keys matching the regex `skip` are dropped (buffers we recompute), and the rest go
    through `stacks`: each maps a foreign per-layer prefix regex (r"encoder\\.layers") to our stack ("encoder"),
    whose blocks are renamed through `block` (block_key).

    `foreign_keys` goes the other way, for writing our tensors under foreign names (PEFT adapters)."""

    def __init__(self, top: dict[str, str | None], stacks: dict[str, str], block: dict[str, str], prefix: str = "",
                 skip: str | None = None):
        self.top, self.stacks, self.block, self.prefix, self.skip = top, stacks, block, prefix, skip

    def __call__(self, key: str) -> str | None:
        key = key.removeprefix(self.prefix)
        if key in self.top:
            return self.top[key]
        if self.skip is not None and re.fullmatch(self.skip, key):
            return None
        for layers, stack in self.stacks.items():
            if re.match(layers + r"\.\d+\.", key):
                return stack + block_key(key, layers, self.block).removeprefix("transformer")
        raise KeyError(key)

    def foreign_keys(self, ours: str) -> list[str]:
        """The foreign keys (without `prefix`) this map reads into our key `ours`; [] where none does. A whole name
        may have several (transformers keeps BERT's decoder bias under two), all given; a per-layer key is spelled
        as the last of the names the tables accept for it, as they list older checkpoints' names first
        (`(?:encoder\\.layer|layers)`, ViT's `attention.attention.query` before `attention.q_proj`)."""
        found = [key for key, name in self.top.items() if name == ours]
        m = re.fullmatch(r"(\w+)\.blocks\.(\d+)\.(.+?)(\.weight|\.bias|)", ours)
        if not found and m is not None:
            stack, index, name, suffix = m.groups()
            layers = [_spellings(regex)[-1] for regex, ours_stack in self.stacks.items() if ours_stack == stack]
            theirs = [key for key, value in self.block.items() if value == name]
            found = [f"{layers[-1]}.{index}.{theirs[-1]}{suffix}"] if layers and theirs else []
        return [key for key in found if self(key) == ours]


def _spellings(regex: str) -> list[str]:
    """The names a per-layer prefix regex of escaped dots and one alternation matches, in its order:
    r"(?:encoder\\.layer|layers)" -> ["encoder.layer", "layers"]."""
    inner = regex[3:-1] if regex.startswith("(?:") and regex.endswith(")") else regex
    names = [re.sub(r"\\(.)", r"\1", part) for part in inner.split("|")]
    if not all(re.fullmatch(regex, name) for name in names):
        raise ValueError(f"layer prefix regex {regex!r}: expected literal names, escaped dots and one (?:a|b) group")
    return names


def key_map(top: dict[str, str | None], layers: str, block: dict[str, str], prefix: str = "",
            skip: str | None = None) -> KeyMap:
    """The KeyMap of a model with one stack of blocks, ours `transformer.blocks`; `layers` is the foreign
    per-layer prefix regex (e.g. r"encoder\\.layer")."""
    return KeyMap(top, {layers: "transformer"}, block, prefix, skip)


def rename_all(state: dict[str, torch.Tensor], rename: Callable[[str], str | None],
               source: str) -> dict[str, torch.Tensor]:
    """Apply a converter's key map; keys it does not know are an error (listed), None means skip."""
    out, unknown = {}, []
    for key, value in state.items():
        try:
            new = rename(key)
        except KeyError:
            unknown.append(key)
            continue
        if new is not None:
            out[new] = value
    if unknown:
        raise ValueError(f"{source}: {len(unknown)} parameter(s) this converter does not know: {unknown[:20]}")
    return out


def export_state_dict(model: nn.Module, foreign_keys: Any, rename: Callable[[str], str | None]
                      ) -> dict[str, torch.Tensor]:
    """Our model's tensors under a foreign model's names: for each of `foreign_keys` the tensor `rename`
    (a converter's key map) would have read into; the keys it drops are left out. A converter's inverse."""
    ours = model.state_dict()
    return {key: ours[name] for key in foreign_keys if (name := rename(key)) is not None}


# The projections a fused qkv layer holds, in the order of its outputs.
QKV = ("q_proj", "k_proj", "v_proj")


def split_fused_qkv(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Split every `<block>.attn.qkv.{weight,bias}` (3D, ...) into attn.q_proj, k_proj, v_proj, in that
    order, along dim 0 (the output features, Linear layout); other keys pass through."""
    out = {}
    for key, value in state.items():
        prefix, fused, kind = key.partition(".attn.qkv.")
        if not fused:
            out[key] = value
            continue
        for name, part in zip(QKV, value.chunk(3, dim=0)):
            out[f"{prefix}.attn.{name}.{kind}"] = part
    return out


def fused_qkv_part(name: str) -> tuple[str, int] | None:
    """Where split_fused_qkv took a layer from: `<block>.attn.k_proj` -> ("<block>.attn.qkv", 1), the fused layer
    and the part's index in its outputs; None for any other name."""
    block, _, projection = name.rpartition(".")
    if not block.endswith(".attn") or projection not in QKV:
        return None
    return f"{block}.qkv", QKV.index(projection)


def build_converted(config: Any, state: dict[str, torch.Tensor], source: str,
                    quantization: dict[str, Any] | None = None) -> nn.Module:
    """Our model for `config` holding the converted `state` (zoo.pretrained.build_loaded: tied aliases filled,
    every mismatch listed before anything loads), in eval mode. `quantization` (zoo.quantize's record): those
    layers are quantised ones, whose integers and scales `state` holds (a GGUF file's Q4_0 tensors)."""
    return build_loaded(config, state, source, quantization).eval()
