"""LoRA fine-tuning on the training engine (the scripts' --lora): what trains, what a checkpoint holds, what the
run's model/ directory holds and how it loads back.

    model = prepare_lora(model, LoRAConfig(r=8), base="runs/gpt/model", model_dir=out / "model")  # before train
    result = train(model, ...)                   # checkpoints: the trained tensors, and the base's identity
    save_model(result.model, out / "model")      # the adapter in peft's format, beside lora_base.json
    model = load_trained("runs/gpt-lora/model")  # base + adapter (the base's hash checked); any other model dir too

What trains: the low-rank adapters zoo.add_lora puts on the targets (default: attention's q/k/v/o) and the modules
named in modules_to_save (a classifier's new head, LLaVA's projector), in full; everything else is frozen, so the
engine's optimizer, which takes the parameters that require gradients, holds only those. With
LoRAConfig.base_quantize the frozen Linear layers are quantised first (QLoRA, Dettmers et al. 2023): the adapters
train in float32 over int8 or int4 integers, through the dequantised weight.

The base is the rest, frozen. It is named by the directory it was loaded from (a fresh preset's weights are written
to <model dir>/base/ when the run starts, so the saved model always has one to load) and identified by the SHA-256
of its frozen tensors (names, dtypes, shapes, bytes; after the quantisation and a head reset, which are recorded
too): a BaseReference, which `prepare_lora` attaches to the model as `lora_base`. A checkpoint of such a model
(checkpoint.py, sharded.py) holds its trained tensors and their optimizer state only, with that reference; resuming
over a base whose hash differs is refused, as is loading the saved adapter over one.

model/ of a LoRA run: adapter_config.json and adapter_model.safetensors (zoo.save_lora, peft's format: peft loads
them over the same base converted to transformers), lora_base.json (the BaseReference; its path relative to the
directory where the base is base/ inside it) and what the script adds (tokenizer, preprocessing). `load_trained`
loads such a directory as base + adapter, and any other model directory as zoo.load_directory does.
"""
from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

from backbones.lora import LORA_PARAMETERS
from zoo.convert import directory_family, load_directory
from zoo.convert.peft import load_lora, save_lora
from zoo.io import CheckpointMismatchError, atomic_write_text, check_state_dict, read_json
from zoo.lora import adapted_layers, add_lora, lora_settings, merge_lora, within
from zoo.quantize import apply_quantization_config, quantization_config, quantize
from zoo.training.distributed import is_main_process

BASE_NAME = "lora_base.json"  # in a LoRA run's model/: the BaseReference
FRESH_BASE = "base"  # a fresh preset's weights, inside the model directory


@dataclass(frozen=True)
class LoRAConfig:
    """The adapters a run trains (the scripts' --lora options): rank r, scale alpha / r, dropout on their input,
    the Linear layers they adapt (globs over our module names; None: the script's default, attention's q/k/v/o),
    and the scheme the frozen base is quantised to first (None, "int8" or "int4": QLoRA)."""

    r: int
    alpha: float
    dropout: float = 0.0
    targets: tuple[str, ...] | None = None
    base_quantize: str | None = None


@dataclass(frozen=True)
class BaseReference:
    """The frozen base of a LoRA run: where it loads from (`path`: a model directory, relative to the saved model
    directory where not absolute), the SHA-256 of its frozen tensors, the quantisation applied to it after loading
    (zoo.quantize's record, or None) and the classes of the head reset on it (None: the head is the base's)."""

    path: str
    sha256: str
    quantization: dict[str, Any] | None = None
    num_classes: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def directory(self, model_dir: str | os.PathLike[str]) -> Path:
        """The base's directory, for the saved model directory `model_dir` that records this reference."""
        return Path(self.path) if Path(self.path).is_absolute() else Path(model_dir) / self.path

    @classmethod
    def from_dict(cls, values: Mapping[str, Any], source: str) -> BaseReference:
        try:
            return cls(**values)
        except TypeError as error:
            raise CheckpointMismatchError(f"{source}: not a LoRA base reference ({error}); expected the keys "
                                          f"{[f.name for f in dataclasses.fields(cls)]}") from None


# --------------------------------------------------------------------------- before training


def prepare_lora(model: nn.Module, lora: LoRAConfig, base: str | os.PathLike[str] | None, model_dir: Path, *,
                 modules_to_save: Sequence[str] = (), new_head: int | None = None,
                 default_targets: Sequence[str] | None = None) -> nn.Module:
    """`model` as a LoRA run trains it, in place: quantised (lora.base_quantize; modules_to_save stay full
    precision), adapted (zoo.add_lora: everything frozen but the adapters and modules_to_save), with its
    BaseReference as `model.lora_base`. Returns `model`.

    base: the directory the model was loaded from; None for a fresh one, whose weights rank 0 writes to
    model_dir/base/ first. new_head: the script reset the classifier head to this many classes: "head" trains
    in full and loading resets it again. default_targets: the script's targets where lora.targets is None."""
    modules_to_save = [*modules_to_save, *(["head"] if new_head is not None else [])]
    # A fresh base is written once the adapters are in place (a target that matches nothing leaves no base/ behind),
    # from a copy taken before they were: the plain weights, not quantised.
    fresh = copy.deepcopy(model) if base is None and is_main_process() else None
    if lora.base_quantize is not None:
        quantize(model, lora.base_quantize, modules=_frozen_linears(model, modules_to_save))
    targets = lora.targets if lora.targets is not None else default_targets
    add_lora(model, lora.r, lora.alpha, lora.dropout, list(targets) if targets is not None else None,
             modules_to_save=modules_to_save or None)
    if fresh is not None:
        fresh.save_pretrained(model_dir / FRESH_BASE)
    path = FRESH_BASE if base is None else str(Path(base).resolve())
    model.lora_base = BaseReference(path, frozen_sha256(model), quantization_config(model), new_head)
    return model


def _frozen_linears(model: nn.Module, modules_to_save: Sequence[str]) -> list[str]:
    """The Linear layers outside modules_to_save (the heads that train in full are not quantised)."""
    return [name for name, m in model.named_modules() if isinstance(m, nn.Linear) and not within(name, modules_to_save)]


def frozen_sha256(model: nn.Module) -> str:
    """The SHA-256 of the tensors of the state dict that no adapter or modules_to_save holds: names, dtypes,
    shapes and bytes, in the state dict's order (one pass of the base's bytes)."""
    digest = hashlib.sha256()
    for name, tensor in model.state_dict().items():
        if _adapter_key(model, name):
            continue
        data = tensor.detach().cpu().contiguous().reshape(-1)
        digest.update(f"{name}\0{str(data.dtype)[6:]}\0{tuple(tensor.shape)}\0".encode())
        digest.update(data.view(torch.uint8).numpy())
    return digest.hexdigest()


def _adapter_key(model: nn.Module, name: str) -> bool:
    saved = getattr(model, "lora_modules_to_save", ())
    return name.rpartition(".")[2] in LORA_PARAMETERS or within(name, saved)


# --------------------------------------------------------------------------- checkpoints


def base_reference(model: nn.Module) -> BaseReference | None:
    """The BaseReference of the LoRA model inside `model` (itself, or one a training wrapper holds), else None."""
    return next((m.lora_base for m in model.modules() if isinstance(getattr(m, "lora_base", None), BaseReference)),
                None)


def trained_keys(model: nn.Module) -> set[str]:
    """The names of the parameters that train (requires_grad), every alias of a shared one included."""
    return {name for name, p in model.named_parameters(remove_duplicate=False) if p.requires_grad}


def checkpoint_state(model: nn.Module) -> dict[str, Any]:
    """What a training checkpoint keeps of the model: a LoRA run's trained tensors, anything else's state dict."""
    state = model.state_dict()
    if base_reference(model) is None:
        return state
    trained = trained_keys(model)
    return {name: tensor for name, tensor in state.items() if name in trained}


def base_record(model: nn.Module) -> dict[str, Any]:
    """The checkpoint's entry naming a LoRA run's base ({"lora_base": ...}); {} for any other run."""
    reference = base_reference(model)
    return {} if reference is None else {"lora_base": reference.to_dict()}


def check_base(ckpt: Mapping[str, Any], model: nn.Module, path: str | os.PathLike[str]) -> None:
    """Refuse a checkpoint whose base is not this run's: a LoRA checkpoint over another base (its frozen tensors'
    hash differs), one for a run without --lora, or a full-weight one for a LoRA run."""
    ours, saved = base_reference(model), ckpt.get("lora_base")
    if ours is None and saved is None:
        return
    if ours is None:
        raise CheckpointMismatchError(f"{str(path)!r} holds the adapters of a LoRA run over {saved.get('path')!r}, "
                                      "this run trains every weight; resume with the run's --lora options")
    if saved is None:
        raise CheckpointMismatchError(f"{str(path)!r} holds a full-weight run, this run trains LoRA adapters; resume "
                                      "without --lora, or start afresh (--overwrite)")
    saved = BaseReference.from_dict(saved, repr(str(path)))
    if saved.sha256 != ours.sha256:
        raise CheckpointMismatchError(
            f"{str(path)!r} was trained over the base {saved.path!r} (frozen weights sha256 {saved.sha256[:16]}), "
            f"this run's base {ours.path!r} has sha256 {ours.sha256[:16]}: its weights (or their quantisation) "
            "differ. Resume over the run's own base, or start afresh (--overwrite)")


def load_checkpoint_state(model: nn.Module, state: Mapping[str, Any], source: str | os.PathLike[str]) -> None:
    """Load what checkpoint_state kept; CheckpointMismatchError listing what differs (a LoRA run: its trained
    tensors must all be there, and nothing else)."""
    if base_reference(model) is None:
        check_state_dict(model, state, source)
        model.load_state_dict(state)
        return
    trained = trained_keys(model)
    missing, unexpected = sorted(trained - set(state)), sorted(set(state) - trained)
    if missing or unexpected:
        raise CheckpointMismatchError(f"{str(source)!r} does not hold this LoRA run's trained tensors: missing "
                                      f"{missing[:10]}, unexpected {unexpected[:10]}; resume with the run's --lora "
                                      "options (rank, targets)")
    try:
        model.load_state_dict(state, strict=False)
    except RuntimeError as error:  # the shapes: another rank
        raise CheckpointMismatchError(f"{str(source)!r}: {str(error).strip()}; resume with the run's --lora options "
                                      "(rank, targets)") from None


def adapt_like(plain: nn.Module, model: nn.Module) -> nn.Module:
    """`plain`, a fresh rebuild of `model`'s structure without adapters (FSDP's gathered copy), given the
    quantised layers and adapters of `model`'s LoRA part, and its BaseReference, in place; returns `plain`."""
    for name, module in model.named_modules():
        reference = getattr(module, "lora_base", None)
        if not isinstance(reference, BaseReference):
            continue
        target = plain.get_submodule(name)
        if reference.quantization is not None:
            apply_quantization_config(target, reference.quantization, "the LoRA base")  # integers: from the state
        settings = lora_settings(module)
        add_lora(target, settings["r"], settings["alpha"], settings["dropout"], settings["targets"],
                 modules_to_save=settings["modules_to_save"] or None, use_rslora=settings["use_rslora"])
        target.lora_base = reference
    return plain


# --------------------------------------------------------------------------- the saved model


def save_model(model: nn.Module, directory: str | os.PathLike[str]) -> Path:
    """A run's model/: save_pretrained, or for a LoRA model the adapter (zoo.save_lora) and lora_base.json."""
    reference = base_reference(model)
    if reference is None:
        return model.save_pretrained(directory)
    directory = Path(directory)
    save_lora(model, directory, base_model_name_or_path=reference.path)
    atomic_write_text(directory / BASE_NAME, json.dumps(reference.to_dict(), indent=2) + "\n")
    if getattr(model, "tokenizer", None) is not None:  # as save_pretrained writes it for the families that carry one
        model.tokenizer.save(directory)
    return directory


def trained_family(directory: str | os.PathLike[str]) -> str | None:
    """The family load_trained would load from `directory` (a LoRA run's: its base's), from config files alone."""
    record = Path(directory) / BASE_NAME
    if not record.is_file():
        return directory_family(directory)
    reference = BaseReference.from_dict(read_json(record), repr(str(record)))
    return trained_family(reference.directory(directory))


def load_trained(directory: str | os.PathLike[str], *, merge: bool = False) -> nn.Module:
    """The model of a run's model/ directory: for a LoRA run (lora_base.json), its base loaded (zoo.load_directory,
    or this function for a base that is itself a LoRA run's), its head reset and its quantisation redone as
    recorded, the adapter loaded over it (zoo.load_lora) and the frozen tensors' hash checked against the record
    (a CheckpointMismatchError where the base changed); with `merge`, the adapters then folded in (zoo.merge_lora:
    a plain model, as a new run's --init wants it). Any other directory: zoo.load_directory's."""
    directory = Path(directory)
    record = directory / BASE_NAME
    if not record.is_file():
        return load_directory(directory)
    reference = BaseReference.from_dict(read_json(record), repr(str(record)))
    base_dir = reference.directory(directory)
    model = load_trained(base_dir, merge=True)
    if reference.num_classes is not None:
        model.reset_head(reference.num_classes)
    if reference.quantization is not None:
        quantize(model, reference.quantization["scheme"], group_size=reference.quantization.get("group_size"),
                 modules=reference.quantization["modules"], activations=reference.quantization.get("activations"))
    model = load_lora(model, directory)
    found = frozen_sha256(model)
    if found != reference.sha256:
        raise CheckpointMismatchError(
            f"{str(directory)!r}: its adapter was trained over a base whose frozen weights have sha256 "
            f"{reference.sha256[:16]}; {str(base_dir)!r} now has {found[:16]} (changed or replaced since)")
    model.lora_base = reference
    if merge:
        merge_lora(model)
        del model.lora_base
    return model


def merged_copy(model: nn.Module) -> nn.Module:
    """`model` itself where it has no adapter, else a copy with them merged (for exporters that take plain layers)."""
    if not adapted_layers(model):
        return model
    return merge_lora(copy.deepcopy(model))
