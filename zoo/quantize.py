"""zoo.quantize: fewer bytes per weight for every family, weight-only.

    model = zoo.quantize(zoo.load_pretrained("runs/gpt"), "int8")    # every Linear of the blocks and heads
    model = zoo.quantize(model, "int4", group_size=64)               # 4 bits, a scale per 64 inputs
    model.save_pretrained("runs/gpt-int8")                           # integers and scales, in safetensors
    zoo.load_pretrained("runs/gpt-int8")                             # the same model, not quantised again

Every nn.Linear of the model (attention, FFN, projections, heads; `modules` globs narrow it) becomes a
backbones.quantized.QuantizedLinear: int8 with one symmetric scale per output channel (or per group of inputs:
GGUF's Q8_0), or int4 with one per group of inputs. Embedding tables, norms, convolutions and biases stay as they
are unless asked: a lookup reads one row a token, so storing the table in fewer bits saves memory but no time, and
a tied LM head is then quantised as a head, with integers of its own beside the table's full precision.
`embeddings=True` stores every nn.Embedding in the same scheme (QuantizedEmbedding), and a head tied to a table
shares its integers: one copy, as CTranslate2's and llama.cpp's int8 / Q4 files hold it (llama_135m's weight bytes:
46% of fp32's without, 25% with; bench/quantized_accuracy.py).

The defaults: int8 per channel is what CTranslate2 and torchao's weight-only int8 store (int8's rounding error
is 1/254 of a row's largest weight, below bf16's 1/256 relative step for most weights); int4 groups of 32
along the input, llama.cpp's Q4_0 block size, the smallest group torch's int4 kernel takes: a scale per 32
weights keeps the rounding error of an outlier's group from spreading along the row.

config.json records the quantisation (`quantization_config`: scheme, group size, the quantised modules), so
load_pretrained rebuilds the same layers and loads their integers without quantising again.
"""
from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from typing import Any

import torch
from torch import nn

from backbones.inference import gemv
from backbones.lora import LowRankAdapter
from backbones.modules import replace_module
from backbones.quantized import (
    QuantizationError,
    QuantizedEmbedding,
    QuantizedLinear,
    check_activations,
    check_scheme,
    share_integers,
)

DEFAULT_GROUP_SIZE = {"int8": None, "int4": 32}


def quantize(model: nn.Module, scheme: str = "int8", *, group_size: int | None = None,
             modules: Sequence[str] | None = None, activations: str | None = None,
             embeddings: bool = False) -> nn.Module:
    """Swap `model`'s nn.Linear layers (those whose names match a glob of `modules`; default all) for int8 or int4
    QuantizedLinear layers, in place; returns `model`. group_size: the inputs per scale (32, 64, 128 or 256; int4's
    default 32, int8's None: one scale a row). activations: "int8" (default: quantised per row on the fly, integer
    dot products) or "float" (multiplied as they come: exact up to summation order, slower). embeddings: also store
    every nn.Embedding in the scheme (tied heads share its integers). Raises QuantizationError for an unknown
    scheme, a group that does not divide a layer's width (naming it), patterns that match no Linear, or a model
    already quantised."""
    if scheme in DEFAULT_GROUP_SIZE and group_size is None:
        group_size = DEFAULT_GROUP_SIZE[scheme]
    check_scheme(scheme, group_size)
    activations = check_activations("int8" if activations is None else activations)
    if not isinstance(model, nn.Module):
        raise TypeError(f"zoo.quantize expects an nn.Module, got {type(model).__name__}")
    adapted = [name for name, m in model.named_modules() if isinstance(m, LowRankAdapter)]
    if adapted:
        raise QuantizationError(f"the model has LoRA adapters ({adapted[0]!r}, ...): quantise the base before "
                                "zoo.add_lora (QLoRA), or zoo.merge_lora first to quantise the merged weights")
    existing = quantization_config(model)
    if existing is not None:
        raise QuantizationError(f"the model is already quantised ({existing['scheme']}); quantise the full-precision "
                                "model instead")
    targets = (_embeddings(model) if embeddings else []) + _targets(model, modules)  # tables first: _swap
    for name in targets:  # every check first: nothing is swapped unless all can be
        module = model.get_submodule(name)
        width = module.in_features if isinstance(module, nn.Linear) else module.embedding_dim
        check_scheme(scheme, group_size, width, repr(name))

    def make(name: str, module: nn.Module) -> nn.Module:
        if isinstance(module, nn.Embedding):
            return QuantizedEmbedding.from_embedding(module, scheme, group_size, repr(name))
        return QuantizedLinear.from_linear(module, scheme, group_size, repr(name), activations)

    _swap(model, targets, make)
    prepare_kernels(model)
    return model


def quantization_config(model: nn.Module) -> dict[str, Any] | None:
    """{"scheme", "group_size", "activations", "modules", "embeddings"} of a quantised model (what config.json
    records), or None."""
    layers = {name: m for name, m in model.named_modules() if isinstance(m, QuantizedLinear)}
    tables = {name: m for name, m in model.named_modules() if isinstance(m, QuantizedEmbedding)}
    if not layers and not tables:
        return None
    kinds = {(m.scheme, m.group_size) for m in [*layers.values(), *tables.values()]}
    modes = {m.activations for m in layers.values()} or {"int8"}
    if len(kinds) > 1 or len(modes) > 1:
        raise QuantizationError(f"the model mixes quantisations {sorted(kinds, key=str)}, activations "
                                f"{sorted(modes)}: save_pretrained records one scheme, group size and activations")
    (scheme, group_size), = kinds
    activations, = modes
    return {"scheme": scheme, "group_size": group_size, "activations": activations, "modules": sorted(layers),
            **({"embeddings": sorted(tables)} if tables else {})}


def apply_quantization_config(model: nn.Module, config: dict[str, Any], source: str) -> nn.Module:
    """Give a freshly built `model` the quantised layers `config` records (load_pretrained), empty: their
    integers and scales come from the state dict that follows (then prepare_kernels). `source` names the config in
    errors."""
    try:
        scheme, group_size, names = config["scheme"], config.get("group_size"), list(config["modules"])
        tables = list(config.get("embeddings", []))
    except (KeyError, TypeError) as error:
        raise QuantizationError(f"{source}: quantization_config must hold 'scheme' and 'modules' (zoo.quantize's "
                                f"record); got {config!r}") from error
    check_scheme(scheme, group_size)
    activations = check_activations(config.get("activations") or "int8")
    linears, embeddings = dict(_linears(model)), set(_embeddings(model))
    unknown = [name for name in names if name not in linears] + [name for name in tables if name not in embeddings]
    if unknown:
        raise QuantizationError(f"{source} quantises {unknown[:5]}, which this model has no Linear or Embedding of")

    def make(name: str, module: nn.Module) -> nn.Module:
        if isinstance(module, nn.Embedding):
            return QuantizedEmbedding(module.num_embeddings, module.embedding_dim, scheme, group_size,
                                      module.padding_idx, device=module.weight.device)
        return QuantizedLinear(module.in_features, module.out_features, module.bias is not None, scheme,
                               group_size, device=module.weight.device, activations=activations)

    _swap(model, tables + names, make)
    return model


def prepare_kernels(model: nn.Module) -> None:
    """Build (once per machine) and load zoo::gemv_int8 now for a model on the CPU, and make int4's tiles, so that
    compiled steps, which cannot make either while tracing, use them too."""
    if any(b.is_cpu for b in model.buffers()):
        gemv.available(torch.float32)
    for module in model.modules():
        if isinstance(module, QuantizedLinear):
            module.prepare()


def _linears(model: nn.Module) -> list[tuple[str, nn.Linear]]:
    return [(name, m) for name, m in model.named_modules() if isinstance(m, nn.Linear)]


def _targets(model: nn.Module, patterns: Sequence[str] | None) -> list[str]:
    names = [name for name, _ in _linears(model)]
    if patterns is None:
        chosen = names
    else:
        if isinstance(patterns, str):
            patterns = [patterns]
        chosen = [name for name in names if any(fnmatch.fnmatchcase(name, p) for p in patterns)]
    if not chosen:
        shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
        raise QuantizationError(f"modules {list(patterns or [])} match no Linear of the model; its Linears are: "
                                f"{shown or 'none'}")
    return chosen


def _embeddings(model: nn.Module) -> list[str]:
    return [name for name, m in model.named_modules() if isinstance(m, nn.Embedding)]


def _swap(model: nn.Module, names: Sequence[str], make) -> None:
    """Replace each named module by make(name, module); modules that held one weight (a head tied to its table,
    two tables tied together) keep one set of integers, the first made (so tables go first)."""
    made: dict[int, nn.Module] = {}
    for name in names:
        module = model.get_submodule(name)
        quantized = make(name, module)
        if id(module.weight) in made:
            share_integers(quantized, made[id(module.weight)])
        else:
            made[id(module.weight)] = quantized
        replace_module(model, name, quantized)


__all__ = ["QuantizationError", "apply_quantization_config", "prepare_kernels", "quantization_config", "quantize"]
