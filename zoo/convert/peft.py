"""zoo.save_lora / zoo.load_lora: LoRA adapters in peft's format, both ways.

    zoo.save_lora(model, "runs/llama-lora")     # adapter_config.json + adapter_model.safetensors
    hf = peft.PeftModel.from_pretrained(transformers_llama, "runs/llama-lora")   # the same logits
    model = zoo.load_lora(zoo.from_hf(transformers_llama), "peft-adapter-dir")   # and back

peft's files (checked against peft 0.21): adapter_config.json is a LoraConfig (peft_type "LORA", r, lora_alpha,
lora_dropout, use_rslora, target_modules, rank_pattern / alpha_pattern, modules_to_save, ...), and
adapter_model.safetensors (adapter_model.bin in older ones) holds, per adapted layer of the transformers model,
`base_model.model.<its module name>.lora_A.weight` (r, K) and `.lora_B.weight` (N, r) (peft drops the adapter
name, ".default"), and for each of modules_to_save its tensors under their own names
(`base_model.model.classifier.weight`). A layer's scaling is lora_alpha / r (alpha / sqrt(r) with use_rslora),
r and alpha taken from the first rank_pattern / alpha_pattern key that matches the end of its module name as a
regex, as peft's get_pattern_key does.

Names are the converters': each family's KeyMap reads transformers' names into ours (loading) and its
foreign_keys gives them back (saving), placed in the transformers task model that zoo.from_hf builds the family
from (a Layout: LlamaForCausalLM keeps the base model under `model.` and `lm_head` beside it) or one named with
`base_class`. What is written is transformers 5's module names, which peft's own adapters use; loading also takes
keys without the task model's prefix (adapters made on LlamaModel) and the older names the converters read.
A model that transformers cannot name in full (a timm-style ViT's fc_norm among modules_to_save) gets its adapter
written for itself ("zoo": our names, as peft saves an adapter it made on a zoo model), and loading takes those.

GPT-2 keeps q, k and v in one Conv1D, `c_attn` (in, 3 * out), which the converter splits. Written out, q/k/v
adapters become one c_attn adapter: A stacks their A's, B is block-diagonal (zero rows for a projection without
an adapter), with rank_pattern / alpha_pattern giving c_attn the summed rank and the alpha that keeps each one's
scaling (three equal A's, as loading one makes, are written once, B stacked). Read in, a c_attn adapter gives q,
k and v each its A and its rows of B, less the ranks whose columns of those rows are all zero (none at all where
every column is: the projection had no adapter), so a block-diagonal adapter comes back as the adapters written.
fan_in_fan_out is written true, as peft sets it for Conv1D; it does not change A and B. No other converted family
fuses a layer that LoRA adapts.

What peft can express but a zoo adapter cannot is refused with LoRAError: other peft_types, LoRA variants (DoRA,
trained lora biases, bias="all", initialisations that rewrite the base weights: PiSSA, OLoRA, LoftQ, ...), and
adapters of layers our model does not have, or whose shapes differ from ours.
"""
from __future__ import annotations

import json
import math
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import save
from torch import nn

from backbones.lora import LoRAError, LowRankAdapter
from backbones.quantized import QuantizedLinear
from zoo.convert import hf_ast, hf_bert, hf_clip, hf_gpt2, hf_llama, hf_llava, hf_marian, hf_vit, hf_whisper
from zoo.convert.common import QKV, KeyMap, fused_qkv_part
from zoo.io import CorruptCheckpointError, atomic_write, atomic_write_text, load_torch_checkpoint, read_json
from zoo.lora import adapted_layers, add_lora, lora_settings, within
from zoo.pretrained import read_safetensors

CONFIG_NAME = "adapter_config.json"
WEIGHTS_NAME = "adapter_model.safetensors"
WEIGHTS_BIN_NAME = "adapter_model.bin"  # what peft wrote before safetensors, and still reads
PEFT_PREFIX = "base_model.model."  # PeftModel -> LoraModel -> the transformers model

# LoraConfig fields whose set values make a layer other than W x + s * B A x: each refused, with what it is.
_VARIANTS = {"use_dora": "DoRA (weight-decomposed LoRA)", "use_qalora": "QALoRA", "lora_bias": "a trained lora_B bias",
             "target_parameters": "LoRA on bare parameters (MoE experts)", "use_bdlora": "block-diagonal LoRA",
             "trainable_token_indices": "trainable token embeddings", "layer_replication": "replicated layers",
             "alora_invocation_tokens": "activated LoRA (aLoRA)", "arrow_config": "Arrow routing",
             "kasa_config": "KaSA", "velora_config": "VeLoRA", "monteclora_config": "MonteCLoRA"}
# init_lora_weights values that also rewrite the base weight (peft's LoraLayer.update_layer): a base we do not have.
_BASE_REWRITING_INITS = ("pissa", "corda", "olora", "loftq", "lora_ga")
UNUSED = ""  # Layout.ours: a tensor transformers has and our model does not build, as it never runs it


@dataclass(frozen=True)
class Part:
    """One converter's share of a transformers task model: our modules under `ours` are transformers' under
    `theirs` inside the task model's base model, except `heads`, which the task model holds itself (`lm_head`).
    `unused(config, key)`: a key of this part that the converter drops because our model never runs it."""
    rename: KeyMap
    ours: str = ""
    theirs: str = ""
    heads: tuple[str, ...] = ()
    unused: Callable[[Any, str], bool] | None = None


@dataclass(frozen=True)
class Layout:
    """A transformers class an adapter is written for: its base model's attribute (`body`, "model." in
    LlamaForCausalLM, "" in LlamaModel), its parts, peft's task_type for it, fan_in_fan_out (GPT-2's Conv1D), and
    `fits(config)`: whether zoo.from_hf builds a model of this config from it."""
    name: str
    body: str
    parts: tuple[Part, ...]
    task_type: str | None = None
    fan_in_fan_out: bool = False
    fits: Callable[[Any], bool] = lambda config: True

    def foreign(self, ours: str) -> list[str]:
        """transformers' names in this task model for our state-dict key `ours`; [] where it has none."""
        part = next((p for p in self.parts if ours.startswith(p.ours)), None)
        if part is None:
            return []
        names = part.rename.foreign_keys(ours[len(part.ours):])
        return [name if within(name, part.heads) else self.body + part.theirs + name for name in names]

    def ours(self, foreign: str, config: Any) -> str | None:
        """Our key for transformers' key `foreign`, with or without the task model's prefix; None where our model
        has none (unknown to the converters, or a tensor they drop), UNUSED where the converter drops it because
        our model never runs it."""
        inside = foreign.removeprefix(self.body)
        for part in self.parts:
            if within(foreign, part.heads):
                key = foreign
            elif inside.startswith(part.theirs):
                key = inside[len(part.theirs):]
            else:
                continue
            try:
                name = part.rename(key)
            except KeyError:
                continue
            if name is not None and part.unused is not None and part.unused(config, name):
                return UNUSED
            return None if name is None else part.ours + name
        return None


class _OwnNames(KeyMap):
    """Our names as they are: the Part of an adapter peft made on a zoo model itself."""

    def __init__(self):
        super().__init__({}, {}, {})

    def __call__(self, key: str) -> str:
        return key

    def foreign_keys(self, ours: str) -> list[str]:
        return [ours]


ZOO = Layout("zoo", "", (Part(_OwnNames()),))


_LLAVA = (Part(hf_clip._RENAME, "vision_tower.", "vision_tower.", unused=hf_llava.tower_unused),
          Part(KeyMap(hf_llava._PROJECTOR, {}, {}), "projector.", "multi_modal_projector."),
          Part(hf_llama._RENAME, "language_model.", "language_model.", heads=("lm_head",)))


# family -> the transformers classes it converts from; the first whose `fits` holds is the default.
LAYOUTS: dict[str, tuple[Layout, ...]] = {
    "gpt": (Layout("GPT2LMHeadModel", "transformer.", (Part(hf_gpt2._RENAME, heads=("lm_head",)),), "CAUSAL_LM",
                   fan_in_fan_out=True),
            Layout("GPT2Model", "", (Part(hf_gpt2._RENAME),), fan_in_fan_out=True)),
    "llama": (Layout("LlamaForCausalLM", "model.", (Part(hf_llama._RENAME, heads=("lm_head",)),), "CAUSAL_LM"),
              Layout("LlamaModel", "", (Part(hf_llama._RENAME),))),
    "bert": (Layout("BertForMaskedLM", "bert.", (Part(hf_bert._RENAME, heads=("cls",)),),
                    fits=lambda c: c.head == "mlm"),
             Layout("BertForSequenceClassification", "bert.", (Part(hf_bert._RENAME, heads=("classifier",)),),
                    fits=lambda c: c.head == "classifier" and c.num_classes > 0),
             Layout("BertModel", "", (Part(hf_bert._RENAME),))),
    "vit": (Layout("ViTForImageClassification", "vit.", (Part(hf_vit._RENAME, heads=("classifier",)),),
                   fits=lambda c: c.num_classes > 0),
            Layout("ViTModel", "", (Part(hf_vit._RENAME),))),
    "ast": (Layout("ASTForAudioClassification", "audio_spectrogram_transformer.",
                   (Part(hf_ast._RENAME, heads=("classifier",)),), fits=lambda c: c.num_classes > 0 or c.head_norm),
            Layout("ASTModel", "", (Part(hf_ast._RENAME),))),
    "clip": (Layout("CLIPVisionModel", "", (Part(hf_clip._RENAME),)),),
    "whisper": (Layout("WhisperForConditionalGeneration", "model.", (Part(hf_whisper._RENAME, heads=("proj_out",)),)),
                Layout("WhisperModel", "", (Part(hf_whisper._RENAME),))),
    "marian": (Layout("MarianMTModel", "model.", (Part(hf_marian._RENAME, heads=("lm_head", "final_logits_bias")),),
                      "SEQ_2_SEQ_LM"),
               Layout("MarianModel", "", (Part(hf_marian._RENAME),))),
    "llava": (Layout("LlavaForConditionalGeneration", "model.", _LLAVA, "CAUSAL_LM"),),
}


def layout_for(model: nn.Module, base_class: str | None = None) -> Layout:
    """The model `model`'s adapters are written for: `base_class` by name (a transformers class of its family, or
    "zoo" for our model itself), else the transformers class zoo.from_hf builds such a model from
    (BertForMaskedLM for an MLM head, ViTForImageClassification with classes, ...), "zoo" for a family without."""
    layouts = LAYOUTS.get(getattr(getattr(model, "config", None), "family", None), ())
    if base_class is None:
        return next((layout for layout in layouts if layout.fits(model.config)), ZOO)
    for layout in (*layouts, ZOO):
        if layout.name == base_class:
            return layout
    raise LoRAError(f"base_class={base_class!r}: {type(model).__name__}'s adapters are written for one of "
                    f"{[layout.name for layout in (*layouts, ZOO)]}")


# --------------------------------------------------------------------------- saving


@dataclass(frozen=True)
class _Adapter:
    """One foreign layer's adapter as peft holds it."""
    A: torch.Tensor  # (r, K)
    B: torch.Tensor  # (N, r)
    r: int
    alpha: float


def save_lora(model: nn.Module, directory: str | os.PathLike[str], *, base_model_name_or_path: str | None = None,
              base_class: str | None = None) -> Path:
    """Write `model`'s adapters (zoo.add_lora / load_lora) and its modules_to_save as peft's adapter directory:
    adapter_config.json and adapter_model.safetensors, each written atomically; returns the directory. They are
    written for `base_class` (layout_for: default, the transformers class zoo.from_hf converts the family from,
    whose peft.PeftModel.from_pretrained then computes what `model` does), or for our model itself where that class
    has no name for an adapted layer or a module to save. LoRAError where the model has no adapter, or the
    `base_class` asked for cannot name what it holds."""
    settings = lora_settings(model)
    layout = layout_for(model, base_class)
    unnamed = _unnamed(model, layout, settings)
    if unnamed and base_class is None:
        layout, unnamed = ZOO, []
    if unnamed:
        raise LoRAError(f"transformers' {layout.name} has no counterpart of {unnamed[:8]}, so peft could not load "
                        "their adapters there; base_class='zoo' writes the adapter for our model itself")
    adapters = _foreign_adapters(model, layout, settings["use_rslora"])
    tensors = {f"{PEFT_PREFIX}{name}.lora_{which}.weight": tensor for name, adapter in adapters.items()
               for which, tensor in (("A", adapter.A), ("B", adapter.B))}
    modules, saved = _modules_to_save(model, layout, settings["modules_to_save"])
    tensors.update({PEFT_PREFIX + key: value for key, value in saved.items()})
    ranks = {name: adapter.r for name, adapter in adapters.items()}
    alphas = {name: _number(adapter.alpha) for name, adapter in adapters.items()}
    r, alpha = _most_common(ranks), _most_common(alphas)
    candidates = set(_foreign_layers(model, layout).values())
    config = {"peft_type": "LORA", "task_type": layout.task_type, "base_model_name_or_path": base_model_name_or_path,
              "revision": None, "inference_mode": True, "r": r, "lora_alpha": alpha,
              "lora_dropout": settings["dropout"], "use_rslora": settings["use_rslora"],
              "target_modules": _targets(list(adapters), candidates), "exclude_modules": None,
              "rank_pattern": _patterns(ranks, r), "alpha_pattern": _patterns(alphas, alpha),
              "fan_in_fan_out": layout.fan_in_fan_out, "bias": "none", "lora_bias": False, "use_dora": False,
              "init_lora_weights": True, "layers_to_transform": None, "layers_pattern": None,
              "modules_to_save": modules or None}
    directory = Path(directory)
    blob = save({key: value.detach().to("cpu", copy=True).contiguous() for key, value in tensors.items()},
                metadata={"format": "pt"})
    atomic_write(directory / WEIGHTS_NAME, lambda f: f.write(blob))
    atomic_write_text(directory / CONFIG_NAME, json.dumps(config, indent=2) + "\n")
    return directory


def _unnamed(model: nn.Module, layout: Layout, settings: dict[str, Any]) -> list[str]:
    """Our adapted layers and modules_to_save tensors that `layout` has no name for."""
    layers = [name for name in settings["targets"] if _foreign_layer(layout, name)[0] is None]
    return layers + [key for name in settings["modules_to_save"] for key in _module_keys(model, name)
                     if not layout.foreign(key)]


def _module_keys(model: nn.Module, name: str) -> list[str]:
    return [f"{name}.{key}" for key in model.get_submodule(name).state_dict()]


def _foreign_layers(model: nn.Module, layout: Layout) -> dict[str, str]:
    """Our name -> transformers' for every layer an adapter can sit on (Linear and quantised ones, adapted ones
    too) that transformers has."""
    layers = {name: _foreign_layer(layout, name)[0] for name, m in model.named_modules()
              if isinstance(m, (nn.Linear, QuantizedLinear))}
    return {name: foreign for name, foreign in layers.items() if foreign is not None}


def _foreign_layer(layout: Layout, name: str) -> tuple[str | None, int | None]:
    """transformers' module for our layer `name`, and for a q/k/v projection of a fused foreign layer (GPT-2's
    c_attn) its index among q, k, v; (None, None) where transformers has no such layer."""
    found = layout.foreign(name + ".weight")
    if found:
        return found[-1].removesuffix(".weight"), None
    fused = fused_qkv_part(name)
    found = layout.foreign(fused[0] + ".weight") if fused else []
    return (found[-1].removesuffix(".weight"), fused[1]) if found else (None, None)


def _foreign_adapters(model: nn.Module, layout: Layout, rslora: bool) -> dict[str, _Adapter]:
    """transformers' module name -> its adapter, from our adapted layers."""
    out: dict[str, _Adapter] = {}
    fused: dict[str, dict[int, str]] = {}
    for name, layer in adapted_layers(model).items():
        foreign, index = _foreign_layer(layout, name)
        if index is None:
            out[foreign] = _Adapter(layer.lora_A, layer.lora_B, layer.lora_r, layer.lora_alpha)
        else:
            fused.setdefault(foreign, {})[index] = name
    for foreign, parts in fused.items():
        out[foreign] = _fuse(model, parts, rslora)
    return out


def _fuse(model: nn.Module, parts: dict[int, str], rslora: bool) -> _Adapter:
    """One adapter on a fused q/k/v layer from the adapters of its projections `parts` (index -> our name)."""
    block = next(iter(parts.values())).rpartition(".")[0]
    sizes = [model.get_submodule(f"{block}.{name}").out_features for name in QKV]
    layers: list[LowRankAdapter] = [model.get_submodule(parts[i]) for i in sorted(parts)]
    first = layers[0]
    if len(layers) == len(QKV) and all(layer.lora_scaling == first.lora_scaling
                                       and torch.equal(layer.lora_A, first.lora_A) for layer in layers):
        return _Adapter(first.lora_A, torch.cat([layer.lora_B for layer in layers]), first.lora_r, first.lora_alpha)
    rank = sum(layer.lora_r for layer in layers)
    B = first.lora_B.new_zeros(sum(sizes), rank)  # (3 * out, sum of ranks): block-diagonal
    column = 0
    for index, layer in zip(sorted(parts), layers):
        row, scale = sum(sizes[:index]), layer.lora_scaling / first.lora_scaling  # under the fused (first's) scaling
        with torch.no_grad():
            B[row:row + sizes[index], column:column + layer.lora_r] = layer.lora_B * scale
        column += layer.lora_r
    alpha = first.lora_scaling * (math.sqrt(rank) if rslora else rank)  # the fused layer's scaling is first's
    return _Adapter(torch.cat([layer.lora_A for layer in layers]), B, rank, alpha)


def _modules_to_save(model: nn.Module, layout: Layout, names: list[str]) -> tuple[list[str], dict[str, torch.Tensor]]:
    """peft's modules_to_save names for ours, and their tensors under transformers' names: every name a tensor has
    there (BERT's decoder bias has two), and the names of the tensors tied to it (a GPT-2 head's token embedding:
    peft loads it into the base, so both ends hold the trained matrix, as ours do)."""
    state = model.state_dict()
    tied: dict[str, set[str]] = {}
    for alias, name in (model.tied_parameters() if hasattr(model, "tied_parameters") else {}).items():
        group = tied.get(name, {name}) | {alias}
        for key in group:
            tied[key] = group
    modules, tensors = [], {}
    for name in names:
        theirs: list[str] = []
        for key in _module_keys(model, name):
            theirs += layout.foreign(key)
            for other in tied.get(key, {key}):
                tensors.update({foreign: state[key] for foreign in layout.foreign(other)})
        modules += _covering_modules(theirs)
    return modules, tensors


def _covering_modules(keys: list[str]) -> list[str]:
    """The transformers modules holding `keys`: their common parent, else each key's own module."""
    paths = [key.split(".")[:-1] for key in keys]
    common = os.path.commonprefix(paths)
    if common:
        return [".".join(common)]
    return sorted({".".join(path) for path in paths})


def _targets(adapted: list[str], candidates: set[str]) -> list[str]:
    """peft's target_modules: for each adapted module the shortest name ending that names no other candidate
    (peft adapts a module whose name is an entry or ends in "." + an entry)."""
    others = sorted(candidates - set(adapted))
    return sorted({_shortest_ending(name, others) for name in adapted})


def _patterns(values: dict[str, Any], default: Any) -> dict[str, Any]:
    """peft's rank_pattern / alpha_pattern: the modules whose value is not the default, each by the shortest name
    ending (a regex: dots escaped) that names no adapted module with another value."""
    return {re.escape(_shortest_ending(name, [n for n, v in values.items() if v != value])): value
            for name, value in values.items() if value != default}


def _shortest_ending(name: str, others: list[str]) -> str:
    parts = name.split(".")
    for start in range(len(parts) - 1, -1, -1):
        ending = ".".join(parts[start:])
        if not any(other == ending or other.endswith("." + ending) for other in others):
            return ending
    return name


def _most_common(values: dict[str, Any]) -> Any:
    counts = Counter(values.values())
    return max(counts, key=counts.__getitem__)


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else float(value)


# --------------------------------------------------------------------------- loading


def load_lora(model: nn.Module, directory: str | os.PathLike[str]) -> nn.Module:
    """Add the adapters of peft's adapter directory (made by peft on the transformers model of `model`'s family or
    on a zoo model, or by save_lora) to `model` through zoo.add_lora, with their values, ranks, scalings and
    dropout, and load its modules_to_save (trainable, as add_lora leaves them) and any other base tensors it holds;
    returns `model`.

    The adapted layers are the ones the file has weights for, which is what target_modules (a list or a regex),
    exclude_modules and layers_to_transform chose when peft made it. LoRAError for a missing config or weights
    file, a peft_type or LoRA variant zoo does not implement, a tensor naming a module our model does not have,
    or one whose shape differs from ours; the model is unchanged then."""
    directory = Path(directory)
    config = _read_config(directory)
    source = repr(str(directory))
    tensors = {key.removeprefix(PEFT_PREFIX): value for key, value in _read_weights(directory).items()}
    layouts = (layout_for(model), ZOO)
    layers = dict(model.named_modules())
    pairs, base = _adapters_and_base(tensors, source)
    plans, unknown = [], []  # plans: (our layer name, A, B rows, r, alpha)
    for foreign, pair in pairs.items():
        if len(pair) == 1:
            (has,) = pair
            raise LoRAError(f"{source}: {PEFT_PREFIX}{foreign} has lora_{has}.weight but no "
                            f"lora_{'B' if has == 'A' else 'A'}.weight; expected both")
        ours = _locate(foreign + ".weight", layouts, model.config,
                       lambda key: bool(_layers_of(key.removesuffix(".weight"), layers)))
        if ours is None:
            unknown.append(foreign)
        if not ours:
            continue
        targets = _layers_of(ours.removesuffix(".weight"), layers)
        r, alpha = _rank_and_alpha(config, foreign)
        plans += _plan(foreign, pair["A"], pair["B"], [layers[t] for t in targets], targets, r, alpha,
                       bool(config.get("use_rslora")), source)
    if unknown:
        raise LoRAError(f"{source}: adapters of {len(unknown)} module(s) that {type(model).__name__} does not have: "
                        f"{unknown[:8]}; its layers as transformers' {layouts[0].name} names them are like "
                        f"{list(_foreign_layers(model, layouts[0]).values())[:6]}")
    if not plans:
        raise LoRAError(f"{source}: {WEIGHTS_NAME} holds no lora_A / lora_B weights")
    mapped = _base_tensors(model, layouts, base, source)
    keep = _saved_modules(config.get("modules_to_save") or [], mapped, source)
    groups: dict[tuple[int, float], list[str]] = {}
    for name, _, _, r, alpha in plans:
        groups.setdefault((r, alpha), []).append(name)
    for index, ((r, alpha), names) in enumerate(groups.items()):
        last = index == len(groups) - 1
        add_lora(model, r, alpha, config.get("lora_dropout", 0.0), names, use_rslora=bool(config.get("use_rslora")),
                 modules_to_save=keep if last and keep else None)
    state = model.state_dict()
    with torch.no_grad():
        for name, A, B, _, _ in plans:
            layer = model.get_submodule(name)
            layer.lora_A.copy_(A)
            layer.lora_B.copy_(B)
        for key, ours in mapped.items():
            state[ours].copy_(base[key])
    return model


def _adapters_and_base(tensors: dict[str, torch.Tensor], source: str
                       ) -> tuple[dict[str, dict[str, torch.Tensor]], dict[str, torch.Tensor]]:
    """An adapter file's tensors (peft's prefix removed) -> ({module: {"A": lora_A, "B": lora_B}}, the others:
    modules_to_save and base tensors); LoRAError for LoRA tensors of a kind zoo does not implement."""
    pairs: dict[str, dict[str, torch.Tensor]] = {}
    base: dict[str, torch.Tensor] = {}
    for key, value in tensors.items():
        m = re.fullmatch(r"(.+)\.lora_([AB])\.weight", key)
        if m is not None:
            pairs.setdefault(m.group(1), {})[m.group(2)] = value
        elif ".lora_" in key:
            raise LoRAError(f"{source}: {key!r} is a LoRA tensor zoo does not implement (embedding LoRA, DoRA "
                            "magnitude, ...); expected lora_A.weight and lora_B.weight of Linear layers")
        else:
            base[key] = value
    return pairs, base


def _read_config(directory: Path) -> dict[str, Any]:
    path = directory / CONFIG_NAME
    if not path.is_file():
        raise LoRAError(f"{str(directory)!r} has no {CONFIG_NAME}: expected peft's adapter directory "
                        f"({CONFIG_NAME} and {WEIGHTS_NAME} or {WEIGHTS_BIN_NAME})")
    config = read_json(path)
    source = repr(str(path))
    if config.get("peft_type") != "LORA":
        raise LoRAError(f"{source}: peft_type {config.get('peft_type')!r}; zoo loads LoRA adapters: expected 'LORA'")
    for field, what in _VARIANTS.items():
        if config.get(field):
            raise LoRAError(f"{source}: {field}={config[field]!r} asks for {what}, which zoo does not implement; "
                            f"expected plain LoRA ({field} unset)")
    if config.get("bias", "none") != "none":
        raise LoRAError(f"{source}: bias={config['bias']!r} trains the base layers' biases too; expected 'none'")
    init = config.get("init_lora_weights", True)
    if isinstance(init, str) and init.lower().startswith(_BASE_REWRITING_INITS):
        raise LoRAError(f"{source}: init_lora_weights={init!r} also rewrites the base weights when peft loads the "
                        "adapter; expected an adapter over the unchanged base (peft can convert such an adapter to "
                        "plain LoRA when saving it: path_initial_model_for_weight_conversion)")
    return config


def _read_weights(directory: Path) -> dict[str, torch.Tensor]:
    if (directory / WEIGHTS_NAME).is_file():
        return read_safetensors(directory / WEIGHTS_NAME)[0]
    if (directory / WEIGHTS_BIN_NAME).is_file():
        state = load_torch_checkpoint(directory / WEIGHTS_BIN_NAME)
        if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
            raise CorruptCheckpointError(f"{str(directory / WEIGHTS_BIN_NAME)!r} is not a dict of tensors")
        return state
    raise LoRAError(f"{str(directory)!r} has {CONFIG_NAME} but no weights: expected {WEIGHTS_NAME} or "
                    f"{WEIGHTS_BIN_NAME}")


def _locate(key: str, layouts: tuple[Layout, ...], config: Any, present: Callable[[str], bool]) -> str | None:
    """Our key for the file's `key` by the first layout that names one our model has (`present`), UNUSED where the
    converter drops it as never run; None where no layout does."""
    for layout in layouts:
        ours = layout.ours(key, config)
        if ours == UNUSED or (ours is not None and present(ours)):
            return ours
    return None


def _layers_of(name: str, layers: dict[str, nn.Module]) -> list[str]:
    """Our layers an adapter of our `name` goes to: itself, or the q, k, v projections of a fused qkv layer our
    model keeps split (GPT-2's c_attn); [] where our model has neither."""
    if name in layers:
        return [name]
    names = [f"{name.removesuffix('qkv')}{projection}" for projection in QKV]
    return names if all(n in layers and fused_qkv_part(n) == (name, i) for i, n in enumerate(names)) else []


def _rank_and_alpha(config: dict[str, Any], foreign: str) -> tuple[int, float]:
    """peft's r and alpha for the module `foreign`: the first rank_pattern / alpha_pattern key that matches the
    end of its name as a regex, else r / lora_alpha (peft's get_pattern_key)."""
    def pick(patterns: dict[str, Any] | None, default: Any) -> Any:
        for pattern, value in (patterns or {}).items():
            if re.match(rf"(.*\.)?({pattern})$", foreign):
                return value
        return default
    return pick(config.get("rank_pattern"), config.get("r", 8)), pick(config.get("alpha_pattern"),
                                                                          config.get("lora_alpha", 8))


def _plan(foreign: str, A: torch.Tensor, B: torch.Tensor, layers: list[nn.Module], names: list[str], r: int,
          alpha: float, rslora: bool, source: str) -> list[tuple[str, torch.Tensor, torch.Tensor, int, float]]:
    """(our layer, A, its rows of B, r, alpha) for each of `layers` an adapter of `foreign` goes to, its shapes
    checked against theirs and against the config's rank."""
    sizes = [layer.out_features for layer in layers]
    expected = {"lora_A": (r, layers[0].in_features), "lora_B": (sum(sizes), r)}
    for which, tensor in (("lora_A", A), ("lora_B", B)):
        if tuple(tensor.shape) != expected[which]:
            raise LoRAError(f"{source}: {PEFT_PREFIX}{foreign}.{which}.weight has shape {tuple(tensor.shape)}, "
                            f"expected {expected[which]} (rank {r} from the config's r / rank_pattern; the layer's "
                            f"{'input' if which == 'lora_A' else 'output'} features from our {names[0]!r})")
    if len(layers) == 1:
        return [(names[0], A, B, r, alpha)]
    # A fused layer's adapter (GPT-2's c_attn) split over q, k and v: each keeps the ranks whose columns of its rows
    # of B are not all zero, under the same scaling, and a projection whose rows are all zero gets none, so the
    # block-diagonal adapter save_lora writes for separate q/k/v adapters comes back as they were (not as three of
    # the summed rank). A B all zero (an adapter not trained yet) gives each projection every rank.
    slices = B.split(sizes)
    used = [rows.abs().sum(0) > 0 for rows in slices]  # (r,) each
    if not any(bool(u.any()) for u in used):
        return [(name, A, rows, r, alpha) for name, rows in zip(names, slices)]
    scaling = alpha / math.sqrt(r) if rslora else alpha / r
    plans = []
    for name, rows, u in zip(names, slices, used):
        rank = int(u.sum())
        if rank == r:
            plans.append((name, A, rows, r, alpha))
        elif rank:
            plans.append((name, A[u], rows[:, u], rank, _number(scaling * (math.sqrt(rank) if rslora else rank))))
    return plans


def _base_tensors(model: nn.Module, layouts: tuple[Layout, ...], base: dict[str, torch.Tensor],
                  source: str) -> dict[str, str]:
    """The file's key -> ours for its other tensors (modules_to_save, embeddings peft saved), each checked against
    our tensor's shape; the ones the converter drops as unused are left out."""
    state = model.state_dict()
    out = {}
    for key, value in base.items():
        ours = _locate(key, layouts, model.config, state.__contains__)
        if ours == UNUSED:
            continue
        if ours is None:
            raise LoRAError(f"{source}: {PEFT_PREFIX}{key} names a tensor {type(model).__name__} does not have "
                            f"(as transformers' {layouts[0].name} names them, or as we do)")
        if state[ours].shape != value.shape:
            raise LoRAError(f"{source}: {PEFT_PREFIX}{key} has shape {tuple(value.shape)}, expected "
                            f"{tuple(state[ours].shape)} (our {ours!r})")
        out[key] = ours
    return out


def _saved_modules(entries: list[str], mapped: dict[str, str], source: str) -> list[str]:
    """Our modules for peft's modules_to_save entries (a module name or its ending), by the tensors the file holds
    for each (`mapped`: transformers' key -> ours); LoRAError for an entry with none (peft could not load it)."""
    modules = []
    for entry in entries:
        keys = [ours for key, ours in mapped.items() if _holds(entry, key)]
        if not keys:
            raise LoRAError(f"{source}: modules_to_save names {entry!r}, but the weights hold no tensor of it")
        modules += _covering_modules(keys)
    return modules


def _holds(entry: str, key: str) -> bool:
    """Whether the module `entry` names (peft's rule: a module name, or its ending after a dot) holds `key`."""
    path = key.split(".")
    return any(".".join(path[:end]) == entry or ".".join(path[:end]).endswith("." + entry)
               for end in range(1, len(path)))
