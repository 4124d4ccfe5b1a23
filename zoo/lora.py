"""zoo.add_lora / zoo.merge_lora: fine-tune any family through low-rank adapters (backbones/lora.py).

    model = zoo.add_lora(zoo.load_pretrained("runs/gpt"), r=8, alpha=16)      # attention q/k/v/o of every block
    model = zoo.add_lora(model, r=16, target_modules=["*.ffn.fc1", "*.q_proj"], modules_to_save=["head"])
    ...train: only the adapters (and `modules_to_save`) have requires_grad...
    zoo.save_lora(model, "runs/gpt-lora")    # peft's adapter_config.json + adapter_model.safetensors
    model = zoo.merge_lora(model)            # plain layers again, s * B A folded into their weights

Targets are the zoo's module names (`transformer.blocks.0.attn.q_proj`), as glob patterns; a pattern also matches
a name that ends in "." + pattern, as peft's target_modules do (`q_proj` adapts every q_proj). The default is every
attention layer's q, k, v and o projections: self- and cross-attention, the vision tower's too. q, k and v are
separate layers in every family (converters split fused qkv weights), so each can be adapted alone, and packing's
fused q/k/v product adds each adapted projection's own low-rank term.

QLoRA: quantise first (zoo.quantize), then add_lora: the adapters train in float32 over the frozen integers, and
merge_lora quantises W + s * B A again.
"""
from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from typing import Any

from torch import nn

from backbones.attention import MultiHeadAttention
from backbones.lora import ADAPTED, LoRAError, LowRankAdapter, adapt, check_rank
from backbones.modules import replace_module

ATTENTION_PROJECTIONS = ("q_proj", "k_proj", "v_proj", "o_proj")


def add_lora(model: nn.Module, r: int = 8, alpha: float = 16, dropout: float = 0.0,
             target_modules: str | Sequence[str] | None = None, *, modules_to_save: str | Sequence[str] | None = None,
             use_rslora: bool = False) -> nn.Module:
    """Freeze `model` and give the Linear layers `target_modules` names (globs; default: attention q/k/v/o) rank-`r`
    adapters scaled by alpha / r (alpha / sqrt(r) with use_rslora), in place; returns `model`.

    modules_to_save: modules (globs, e.g. a new classification head) that stay trainable in full; save_lora writes
    them beside the adapters, as peft's modules_to_save. A second call adds more adapters; the earlier ones (and
    their saved modules) stay trainable. Raises LoRAError for r < 1, patterns that match no Linear
    (naming the ones there are), or a layer that already has an adapter."""
    check_rank(r)
    if not isinstance(model, nn.Module):
        raise TypeError(f"zoo.add_lora expects an nn.Module, got {type(model).__name__}")
    targets = _lora_targets(model, target_modules)
    saved = _match(model, _as_list(modules_to_save), nn.Module, "modules_to_save") if modules_to_save else []
    for name in targets:  # every check first: nothing changes unless every target can be adapted
        module = model.get_submodule(name)
        if isinstance(module, LowRankAdapter):
            raise LoRAError(f"{name!r} already has a LoRA adapter; merge_lora first to adapt the merged model")
        if type(module) not in ADAPTED:
            raise LoRAError(f"{name!r} is a {type(module).__name__}: LoRA adapts nn.Linear and QuantizedLinear layers "
                            "(an inference-packed model: pack_for_inference(model, enabled=False) first)")
    model.requires_grad_(False)
    for name in targets:
        replace_module(model, name, adapt(model.get_submodule(name), r, alpha, dropout, use_rslora=use_rslora))
    # What trains: every adapter and saved module, this call's and an earlier call's alike.
    model.lora_modules_to_save = tuple(sorted(set(getattr(model, "lora_modules_to_save", ())) | set(saved)))
    for layer in adapted_layers(model).values():
        layer.lora_A.requires_grad_(True)
        layer.lora_B.requires_grad_(True)
    for name in model.lora_modules_to_save:
        model.get_submodule(name).requires_grad_(True)
    return model


def merge_lora(model: nn.Module) -> nn.Module:
    """Fold every adapter into its layer's weight (W + s * B A; a quantised base is quantised again) and put the
    plain layer back, in place; returns `model`. The merged model computes what the adapted one did, up to rounding.
    Raises LoRAError where the model has no adapter, or an adapted weight is shared with another module (a head tied
    to its embedding table: merging would change the table too)."""
    layers = adapted_layers(model)
    if not layers:
        raise LoRAError(f"{type(model).__name__} has no LoRA adapter to merge (zoo.add_lora or zoo.load_lora add "
                        "them)")
    users: dict[int, list[str]] = {}
    for name, module in model.named_modules(remove_duplicate=False):
        for pname, p in module.named_parameters(recurse=False):
            users.setdefault(id(p), []).append(f"{name}.{pname}" if name else pname)
    for name, layer in layers.items():
        weight = getattr(layer, "weight", None)
        if weight is not None and len(users[id(weight)]) > 1:
            raise LoRAError(f"cannot merge the adapter of {name!r}: its weight is shared with "
                            f"{[u for u in users[id(weight)] if not u.startswith(name + '.')]} (tied); merging would "
                            "change them too. Keep the adapter unmerged, or untie the weights first")
    for name, layer in layers.items():
        replace_module(model, name, layer.merged())
    if hasattr(model, "lora_modules_to_save"):
        del model.lora_modules_to_save
    return model


def within(name: str, modules: Sequence[str]) -> bool:
    """Whether the module or tensor `name` is one of `modules` or inside one (a modules_to_save entry's tensors)."""
    return any(name == m or name.startswith(m + ".") for m in modules)


def adapted_layers(model: nn.Module) -> dict[str, LowRankAdapter]:
    """name -> adapted layer, in module order."""
    return {name: m for name, m in model.named_modules() if isinstance(m, LowRankAdapter)}


def lora_settings(model: nn.Module) -> dict[str, Any]:
    """What add_lora was asked, read back from the layers: {"r", "alpha", "dropout", "use_rslora", "targets",
    "modules_to_save", "rank_pattern", "alpha_pattern"}; r and alpha are the most common ones, and the patterns name
    the layers that differ (peft's adapter_config.json fields)."""
    layers = adapted_layers(model)
    if not layers:
        raise LoRAError(f"{type(model).__name__} has no LoRA adapter")
    ranks = [m.lora_r for m in layers.values()]
    alphas = [m.lora_alpha for m in layers.values()]
    r, alpha = max(set(ranks), key=ranks.count), max(set(alphas), key=alphas.count)
    dropouts = {m.lora_dropout for m in layers.values()}
    rslora = {m.lora_scaling != m.lora_alpha / m.lora_r for m in layers.values()}
    if len(dropouts) > 1 or len(rslora) > 1:
        raise LoRAError(f"the adapters mix dropouts {sorted(dropouts)} or scalings: one adapter config records one")
    return {"r": r, "alpha": alpha, "dropout": dropouts.pop(), "use_rslora": rslora.pop(), "targets": list(layers),
            "modules_to_save": list(getattr(model, "lora_modules_to_save", ())),
            "rank_pattern": {n: m.lora_r for n, m in layers.items() if m.lora_r != r},
            "alpha_pattern": {n: m.lora_alpha for n, m in layers.items() if m.lora_alpha != alpha}}


def _lora_targets(model: nn.Module, patterns: str | Sequence[str] | None) -> list[str]:
    if patterns is not None:
        return _match(model, _as_list(patterns), (nn.Linear, *ADAPTED), "target_modules")
    targets = [f"{name}.{proj}" for name, m in model.named_modules() if isinstance(m, MultiHeadAttention)
               for proj in ATTENTION_PROJECTIONS]
    if not targets:
        raise LoRAError(f"{type(model).__name__} has no attention layer for LoRA's default targets; name the Linear "
                        "layers to adapt with target_modules")
    return targets


def _match(model: nn.Module, patterns: list[str], kind, what: str) -> list[str]:
    """The names of `kind` modules matching any pattern: the whole name as a glob, or its end after a dot (peft's
    suffix rule). LoRAError naming the patterns and the candidates where none matches."""
    names = [name for name, m in model.named_modules() if name and isinstance(m, kind)]
    chosen = [name for name in names
              if any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(name, "*." + p) for p in patterns)]
    if not chosen:
        shown = ", ".join(names[:12]) + (f", ... ({len(names)} in all)" if len(names) > 12 else "")
        kinds = "Linear layer" if kind is not nn.Module else "module"
        raise LoRAError(f"{what} {patterns} match no {kinds} of {type(model).__name__}; its {kinds}s are: "
                        f"{shown or 'none'}")
    return chosen


def _as_list(patterns: str | Sequence[str]) -> list[str]:
    return [patterns] if isinstance(patterns, str) else list(patterns)


__all__ = ["LoRAError", "adapted_layers", "add_lora", "lora_settings", "merge_lora", "within"]
