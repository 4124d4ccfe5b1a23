"""The one model loader of the command line: whatever names a model, every subcommand's --model takes it.

    preset name        zoo.create_model (random weights: for trying the plumbing), drawn from a seed, so that
                       one name and seed are one model wherever in a process it is loaded
    directory          zoo.load_directory: our save_pretrained, an HF one (config.json), a CTranslate2 /
                       faster-whisper one (model.bin); a LoRA run's model/ (lora_base.json): its base with the
                       adapter, merged into a float base (zoo.training.lora.load_trained)
    .pt file           zoo.from_whisper: an openai-whisper checkpoint

Anything else (a path that does not exist, a hub id such as "openai/whisper-base": nothing is downloaded
here) is a UsageError: one line that names what was given and what is expected. A model that is found but
fails to load (corrupt, foreign, mismatched) exits with one line too (zoo.io.loading).
"""
from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from pathlib import Path

import torch
from torch import nn

import zoo
from zoo.cli.common import UsageError
from zoo.io import loading
from zoo.lora import adapted_layers, merge_lora
from zoo.quantize import quantization_config
from zoo.training.lora import load_trained

HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")  # owner/name, as the HF hub spells a repository


def create_preset(name: str) -> nn.Module:
    warnings.warn(f"--model {name}: a preset has random weights, so its outputs are noise; pass a checkpoint "
                  "(a directory or an openai-whisper .pt file) for real ones", stacklevel=2)
    return zoo.create_model(name)


def load_run_directory(source: str) -> nn.Module:
    """zoo.load_directory's model, or a LoRA run's: merged where the base is float (one product a layer, as packing
    and compiled steps want it); over a quantised base the adapters stay apart (merging would round the sum to the
    base's levels)."""
    model = load_trained(source)
    if adapted_layers(model) and quantization_config(model) is None:
        merge_lora(model)
    return model


LOADERS = {"preset": create_preset, "directory": load_run_directory, "whisper": zoo.from_whisper}


def expected(families: Sequence[str] | None) -> str:
    """What --model takes, for the one-line errors: the presets (of `families`) and the local forms."""
    presets = [n for n in zoo.list_models() if families is None or zoo.model_info(n)["family"] in families]
    files = ", or an openai-whisper .pt file" if families is None or "whisper" in families else ""
    return (f"expected a preset ({', '.join(presets)}), a local directory (save_pretrained, HF or "
            f"CTranslate2){files}")


def model_kind(source: str, families: Sequence[str] | None = None, flag: str = "--model") -> str:
    """What `source` names: "preset", "directory" or "whisper" (an openai-whisper .pt file); a UsageError
    for anything else, or for a preset outside `families`."""
    path = Path(source)
    if path.is_dir():
        return "directory"
    if path.is_file():
        if path.suffix != ".pt":
            raise UsageError(f"{flag} {source!r} is a file but not an openai-whisper .pt checkpoint; "
                             f"{expected(families)}")
        return "whisper"
    if source in zoo.list_models():
        family = zoo.model_info(source)["family"]
        if families is not None and family not in families:
            raise UsageError(f"{flag} {source!r} is a {family} preset, not a {' or '.join(families)} one; "
                             f"{expected(families)}")
        return "preset"
    if HUB_ID.match(source) and not path.parent.exists():  # runs/model (runs/ exists): a missing path
        raise UsageError(f"{flag} {source!r} is not a local path and looks like a hub id, but nothing is "
                         f"downloaded here: {expected(families)}")
    what = "does not exist" if ("/" in source or path.suffix) else "is neither a preset nor an existing path"
    raise UsageError(f"{flag} {source!r} {what}: {expected(families)}")


def load_model(source: str, families: Sequence[str] | None = None, flag: str = "--model",
               seed: int = 0) -> nn.Module:
    """The model `source` names (see the module docstring), in eval mode; `families` limits what is accepted. A
    preset's random weights are drawn from `seed`, apart from the process's random stream, which is left as it was."""
    kind = model_kind(source, families, flag)
    with loading(f"{flag} {source}"), torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)  # a preset's draws; the other kinds read their weights and draw nothing
        model = LOADERS[kind](source)
    family = getattr(getattr(model, "config", None), "family", None)
    if families is not None and family is not None and family not in families:
        raise UsageError(f"{flag} {source!r} holds a {family} model; expected {' or '.join(families)}")
    return model.eval()


def tokenizer_source(source: str, given: str | None) -> str | None:
    """Where a text model's tokenizer comes from: --tokenizer, else the model's directory (a preset has none)."""
    return given or (source if Path(source).is_dir() else None)
