"""Bad input at every registered model's boundary, generated rather than hand-picked: each tensor argument of
the model's example inputs is given the wrong dtype, one axis too few or too many, no elements, a NaN, the
wrong channel (mel bin) count, or too many tokens. Every case is one clear ValueError / TypeError naming the
argument, never an error from deep inside (IndexError, RuntimeError: a shape mismatch in a matmul).

Each preset runs at depth 1 (its input contract: vocabulary, positions, channels, mel bins, image size, is
the preset's); presets above SLOW_BYTES at that depth (the realistic shapes) are marked slow."""
from __future__ import annotations

import dataclasses

import pytest
import torch

import zoo
from zoo.registry import _preset, model_bytes

SLOW_BYTES = 32 * 2**20  # tiny presets run in CI; the realistic ones with -m slow
ARGUMENT_WORDS = {"input_ids": ("input_ids", "tokens"), "decoder_input_ids": ("decoder",),
                  "pixels": ("pixels",), "pixel_values": ("pixel",), "mel": ("mel",),
                  "spectrogram": ("spectrogram",), "attention_mask": ("attention_mask",)}


def shallow(config):
    """The config at depth 1 (nested configs too), everything else as the preset has it."""
    changes = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        if dataclasses.is_dataclass(value):
            changes[f.name] = shallow(value)
        elif f.name.endswith("depth") and isinstance(value, int) and value > 1:
            changes[f.name] = 1
    return dataclasses.replace(config, **changes)


def cases():
    for name in zoo.list_models():
        config = shallow(_preset(name))
        with torch.device("meta"):
            size = model_bytes(zoo.registry.build_model(config))
        yield pytest.param(name, marks=pytest.mark.slow) if size > SLOW_BYTES else name


def mutations(value: torch.Tensor, max_tokens: int | None, fixed_channels: bool,
              mask: bool) -> dict[str, torch.Tensor]:
    out = {"rank - 1": value[0], "rank + 1": value[None]}
    if value.is_floating_point():
        out["integer dtype"] = value.long()
        nan = value.clone()
        nan.view(-1)[nan.numel() // 2] = float("nan")
        out["NaN"] = nan
        out["no channels"] = value[:, :0]
        if value.dim() >= 3 and fixed_channels:  # AST takes any spectrogram size by design, as timm's dynamic size
            out["channels doubled"] = torch.cat([value, value], 1)
    else:
        if not mask:  # a float 0/1 attention_mask is accepted, as transformers accepts it
            out["float dtype"] = value.float()
        out["no tokens"] = value[:, :0]
        if max_tokens:
            out["too long"] = value[:, :1].repeat(1, max_tokens + 1)
    return out


@pytest.fixture(scope="module")
def built():
    return {}


@pytest.mark.parametrize("name", list(cases()))
def test_bad_input_is_one_clear_error_naming_the_argument(name, built):
    torch.manual_seed(0)
    model = zoo.registry.build_model(shallow(_preset(name))).eval()
    inputs = model.example_inputs(batch_size=2, seq_len=max(8, getattr(model, "min_seq_len", 8)))
    with torch.no_grad():
        model(**inputs)  # the example itself is fine
    max_tokens = getattr(model, "max_positions", None)
    checked = 0
    for arg, value in inputs.items():
        if not isinstance(value, torch.Tensor):
            continue
        for kind, bad in mutations(value, max_tokens, arg != "spectrogram", arg == "attention_mask").items():
            with pytest.raises((ValueError, TypeError)) as info, torch.no_grad():
                model(**{**inputs, arg: bad})
            message = str(info.value)
            words = ARGUMENT_WORDS.get(arg, (arg,))
            assert any(w in message for w in words), f"{name}, {arg} {kind}: {message!r} does not name {arg}"
            # ... and says what came (its shape, dtype or values) and what was expected
            assert any(w in message for w in ("got", "shape", "holds")), f"{name}, {arg} {kind}: {message!r}"
            assert any(w in message for w in ("expect", "must", "use ")), f"{name}, {arg} {kind}: {message!r}"
            checked += 1
    assert checked >= 5
