"""The boundary of every registered model's forward(), walked with the same kinds of bad input: each tensor
argument of the model's example inputs is given as a list, with one axis too few or too many, empty, too
long, out of range, with a NaN or an infinity, or of the wrong dtype or channel (mel bin) count. Every case
is one clear ValueError / TypeError naming the argument, what came and what was expected, never an error
from deep inside (AttributeError, IndexError, RuntimeError: a shape mismatch in a matmul).

Each preset runs at depth 1 (its input contract: vocabulary, positions, channels, mel bins, image size, is
the preset's); presets above SLOW_BYTES at that depth (the realistic shapes) are marked slow. The other
public entry points are walked in test_boundary_generate.py (zoo.generate, zoo.stream, beam search,
speculative decoding) and test_boundary_transcribe_search.py (zoo.transcribe, the sentence embeddings)."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import time

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import zoo
from zoo.registry import _preset, model_bytes

SLOW_BYTES = 32 * 2**20  # tiny presets run in CI; the realistic ones with -m slow
ARGUMENT_WORDS = {"input_ids": ("input_ids", "tokens"), "decoder_input_ids": ("decoder",),
                  "pixels": ("pixels",), "pixel_values": ("pixel",), "mel": ("mel",),
                  "spectrogram": ("spectrogram",), "attention_mask": ("attention_mask",)}
TOKEN_ARGUMENTS = ("input_ids", "decoder_input_ids")
CHANNEL_AXIS = {"spectrogram": 2}  # (B, frames, mel bins); pixels (B, C, H, W) and mel (B, mel bins, frames): 1
TIME_AXIS = {"spectrogram": 1, "mel": 2, "input_ids": 1, "decoder_input_ids": 1}
TINY = ("ast_tiny", "bert_tiny", "clip_vit_tiny_patch8_32", "gpt_tiny", "llama_tiny", "llava_tiny",
        "vit_tiny_patch4_28", "whisper_micro")


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


_BUILT: dict[str, tuple[torch.nn.Module, dict]] = {}


def built(name: str) -> tuple[torch.nn.Module, dict]:
    """The preset at depth 1 in eval mode and its valid example inputs, built once per test session."""
    if name not in _BUILT:
        torch.manual_seed(0)
        model = zoo.registry.build_model(shallow(_preset(name))).eval()
        inputs = model.example_inputs(batch_size=2, seq_len=max(8, getattr(model, "min_seq_len", 8)))
        tokens = next((inputs[a] for a in TOKEN_ARGUMENTS if a in inputs), None)
        if "attention_mask" in inspect.signature(model.forward).parameters and tokens is not None:
            inputs.setdefault("attention_mask", torch.ones_like(tokens))  # walked too, where the example has none
        _BUILT[name] = model, inputs
    return _BUILT[name]


def time_limit(model: torch.nn.Module, arg: str) -> int | None:
    """The most entries the argument's time axis may hold (the positions there are), None if unbounded."""
    if arg in TOKEN_ARGUMENTS:
        return getattr(model, "max_positions", None) or model.config.max_positions  # BERT: its config's
    if arg == "spectrogram":
        return model.config.max_length
    if arg == "mel":
        return model.audio_embed.num_frames  # exactly this many: one Whisper window
    return None


def vocab_size(model: torch.nn.Module) -> int:
    return getattr(model, "vocab_size", None) or model.config.vocab_size  # BERT's is its config's only


def mutations(model: torch.nn.Module, arg: str, value: torch.Tensor) -> dict[str, object]:
    out = {"a list": value.tolist(), "rank - 1": value[0], "rank + 1": value[None]}
    if value.is_floating_point():
        out["integer dtype"] = value.long()
        for kind, special in (("NaN", float("nan")), ("inf", float("inf"))):
            bad = value.clone()
            bad.view(-1)[bad.numel() // 2] = special
            out[kind] = bad
        axis = CHANNEL_AXIS.get(arg, 1)
        out["no channels"] = value.narrow(axis, 0, 0)
        if arg != "pixel_values" or value.dim() == 4:
            out["channels doubled"] = torch.cat([value, value], axis)
    elif arg == "attention_mask":  # a float 0/1 attention_mask is accepted, as transformers accepts it
        out["no tokens"] = value[:, :0]
        out["a value other than 0 and 1"] = value.masked_fill(torch.arange(value.shape[1]) == 0, 2)
    else:
        out["float dtype"] = value.float()
        out["no tokens"] = value[:, :0]
        for kind, bad_id in (("id = vocabulary size", vocab_size(model)), ("id -1", -1)):
            bad = value.clone()
            bad[0, -1] = bad_id
            out[kind] = bad
    limit = time_limit(model, arg)
    if limit is not None:
        axis = TIME_AXIS[arg]
        out["too long"] = value.narrow(axis, 0, 1).repeat_interleave(limit + 1, axis)
    return out


def assert_clear(message: str, name: str, arg: str, kind: str) -> None:
    """One line naming the argument, what came (its shape, dtype or values) and what was expected."""
    where = f"{name}, {arg} {kind}: {message!r}"
    assert "\n" not in message, where
    assert any(w in message for w in ARGUMENT_WORDS.get(arg, (arg,))), f"{where} does not name {arg}"
    assert any(w in message for w in ("got", "shape", "holds", "has")), where
    assert any(w in message for w in ("expect", "must", "takes", "use ")), where


@pytest.mark.parametrize("name", list(cases()))
def test_bad_input_is_one_clear_error_naming_the_argument(name):
    model, inputs = built(name)
    with torch.no_grad():
        model(**inputs)  # the example itself is fine
    checked = 0
    for arg, value in inputs.items():
        if not isinstance(value, torch.Tensor):
            continue
        for kind, bad in mutations(model, arg, value).items():
            with pytest.raises((ValueError, TypeError)) as info, torch.no_grad():
                model(**{**inputs, arg: bad})
            assert_clear(str(info.value), name, arg, kind)
            checked += 1
    assert checked >= 8


def test_ast_checks_mel_bins_and_frames_before_any_compute():
    """An AST takes its num_mel_bins bins and at most max_length frames (its positions); fewer frames resample
    the positions. 100,000 frames are refused at once, not after minutes of attention."""
    model = zoo.create_model("ast_tiny").eval()
    with pytest.raises(ValueError, match=r"spectrogram has 80 mel bins \(shape \(1, 1024, 80\)\); expected "
                                         r"\(B, frames, 128 mel bins\)"):
        model(torch.zeros(1, 1024, 80))
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"spectrogram has 100000 frames \(shape \(1, 100000, 128\)\) but the "
                                         "model has positions for 128; expected at most 128 frames"):
        model(torch.zeros(1, 100_000, 128))
    assert time.perf_counter() - start < 1.0
    with torch.no_grad():
        assert model(torch.zeros(1, 128, 128)).shape == model(torch.zeros(1, 56, 128)).shape == (1, 35)


TOKEN_MODELS = [name for name in TINY if any(a in built(name)[1] for a in TOKEN_ARGUMENTS)]


@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(TOKEN_MODELS), beyond=st.integers(0, 2**62), below=st.booleans(),
       at=st.integers(0, 10**6))
def test_any_token_id_outside_the_vocabulary_is_refused(name, beyond, below, at):
    model, inputs = built(name)
    arg = next(a for a in TOKEN_ARGUMENTS if a in inputs)
    bad = inputs[arg].clone()
    bad.view(-1)[at % bad.numel()] = -1 - beyond if below else vocab_size(model) + beyond
    with pytest.raises(ValueError, match=rf"must lie in \[0, {vocab_size(model)}\)") as info, torch.no_grad():
        model(**{**inputs, arg: bad})
    assert_clear(str(info.value), name, arg, "out of range")


FLOAT_INPUTS = [(name, arg) for name in TINY for arg, v in built(name)[1].items() if v.is_floating_point()]


@settings(max_examples=30, deadline=None)
@given(case=st.sampled_from(FLOAT_INPUTS), value=st.sampled_from([float("nan"), float("inf"), float("-inf")]),
       at=st.integers(0, 10**7))
def test_any_nan_or_infinity_in_an_encoder_input_is_refused(case, value, at):
    name, arg = case
    model, inputs = built(name)
    bad = inputs[arg].clone()
    bad.view(-1)[at % bad.numel()] = value
    with pytest.raises(ValueError, match="NaN or infinite") as info, torch.no_grad():
        model(**{**inputs, arg: bad})
    assert_clear(str(info.value), name, arg, "not finite")


@pytest.mark.parametrize("case", [f"{name}:{arg}" for name, arg in FLOAT_INPUTS])
def test_a_float_input_of_another_precision_is_cast_to_the_weights(case):
    """Documented behaviour, as transformers' ViT casts pixel_values: float64 gives the float32 result exactly,
    bfloat16 a float32 result; a bfloat16 model takes float32 inputs."""
    name, arg = case.split(":")
    model, inputs = built(name)
    with torch.no_grad():
        want = model(**inputs)
        assert torch.equal(model(**{**inputs, arg: inputs[arg].double()}), want)
        assert model(**{**inputs, arg: inputs[arg].bfloat16()}).dtype == want.dtype
        half = copy.deepcopy(model).bfloat16()
        assert half(**inputs).dtype == torch.bfloat16


IDS = torch.randint(0, 100, (2, 8), generator=torch.Generator().manual_seed(0))
KEYWORD_CASES = {  # forward()'s other arguments: (model, argument, value, what the error says)
    "token type out of range": ("bert_tiny", "token_type_ids", torch.full((2, 8), 5), "must lie in [0, 2)"),
    "token types misshaped": ("bert_tiny", "token_type_ids", torch.zeros(2, 3, dtype=torch.long), "shaped like"),
    "token types float": ("bert_tiny", "token_type_ids", torch.zeros(2, 8), "must be an integer tensor"),
    "label out of range": ("gpt_tiny", "labels", torch.full((2, 8), 99999), "must lie in [0, 4096) (the vocab"),
    "labels misshaped": ("llama_tiny", "labels", torch.zeros(2, 3, dtype=torch.long), "shaped like input_ids"),
    "labels float": ("gpt_tiny", "labels", torch.zeros(2, 8), "must be an integer tensor"),
    "negative position": ("gpt_tiny", "positions", torch.full((2, 8), -1), "must be >= 0, got -1"),
    "position past the table": ("llama_tiny", "positions", torch.full((2, 8), 999), "the model has 256 positions"),
    "positions misshaped": ("llama_tiny", "positions", torch.zeros(2, 3, dtype=torch.long), "with 8 tokens"),
    "positions float": ("gpt_tiny", "positions", torch.zeros(2, 8), "must be integer position ids"),
    "input_pos without a cache": ("gpt_tiny", "input_pos", 3, "needs a KV cache"),
    "negative input_pos": ("gpt_tiny", "input_pos", -1, "never a negative start"),
}


@pytest.mark.parametrize("kind", sorted(KEYWORD_CASES))
def test_the_other_forward_arguments_are_checked(kind):
    name, arg, value, words = KEYWORD_CASES[kind]
    model, _ = built(name)
    with pytest.raises((ValueError, TypeError)) as info, torch.no_grad():
        model(IDS, **{arg: value})
    message = str(info.value)
    assert "\n" not in message and words in message and (arg in message or "position" in message), message
