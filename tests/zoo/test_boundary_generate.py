"""The boundary of zoo.generate (and zoo.stream, beam search, speculative decoding), walked with the kinds of
bad input test_boundary.py gives every forward(): wrong type, wrong rank, empty, too long, out of range, NaN,
wrong dtype; for the prompt, its attention_mask and every option. Each is one clear error naming the argument
(or option), what came and what was expected; GenerationConfig checks the options once, whichever entry
point built them."""
from __future__ import annotations

import copy
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import zoo
from zoo.generation import GenerationConfig, beam_search, speculative_generate
from zoo.registry import ConfigError

VOCAB = 4096  # gpt_tiny's
PROMPT = torch.tensor([[5, 6, 7, 8], [9, 10, 11, 12]])


@pytest.fixture(scope="module")
def gpt():
    torch.manual_seed(0)
    return zoo.create_model("gpt_tiny", depth=1).eval()


def one_line(error: pytest.ExceptionInfo, *words: str) -> str:
    message = str(error.value)
    assert "\n" not in message and all(w in message for w in words), message
    return message


@pytest.mark.parametrize("option,value,expected", [
    ("max_new_tokens", 2.5, "expected int"),
    ("max_new_tokens", 0, "expected an int >= 1"),
    ("max_new_tokens", True, "expected int"),
    ("top_k", 2.5, "expected int"),
    ("top_k", -1, "expected an int >= 0"),
    ("num_beams", 2.0, "expected int"),
    ("num_beams", 0, "expected an int >= 1"),
    ("temperature", -0.5, "expected a finite number >= 0"),
    ("temperature", math.nan, "expected a finite number >= 0"),
    ("temperature", "hot", "expected float"),
    ("top_p", 0.0, "expected a number in (0, 1]"),
    ("top_p", 1.5, "expected a number in (0, 1]"),
    ("top_p", math.nan, "expected a number in (0, 1]"),
    ("min_p", 1.0, "expected a number in [0, 1)"),
    ("repetition_penalty", 0, "expected a finite number > 0"),
    ("repetition_penalty", math.inf, "expected a finite number > 0"),
    ("length_penalty", math.nan, "expected a finite number"),
    ("do_sample", "yes", "expected bool"),
    ("early_stopping", "sometimes", "expected True, False or 'never'"),
    ("eos_id", -1, "expected token ids >= 0"),
    ("eos_id", 2.5, "expected int | tuple[int, ...] | None"),
    ("stop_sequences", (13,), "expected tuple[tuple[int, ...], ...]"),
    ("stop_sequences", ((),), "expected non-empty sequences of token ids >= 0"),
])
def test_each_option_is_checked_once_naming_it(gpt, option, value, expected):
    with pytest.raises(ConfigError) as info:
        zoo.generate(gpt, PROMPT, **{"max_new_tokens": 2, option: value})
    one_line(info, f"GenerationConfig.{option}={value!r}", expected)
    with pytest.raises(ConfigError):  # the same check wherever the config is built: it is GenerationConfig's own
        GenerationConfig(**{option: value})


def test_temperature_zero_is_greedy_and_sampling_needs_more(gpt):
    assert torch.equal(zoo.generate(gpt, PROMPT, 3, temperature=0.0), zoo.generate(gpt, PROMPT, 3))
    with pytest.raises(ConfigError, match=r"GenerationConfig.temperature=0.0: expected a finite number > 0 when "
                                          "sampling"):
        zoo.generate(gpt, PROMPT, 3, do_sample=True, temperature=0.0)


def test_id_sequences_become_tuples_and_numpy_flags_are_bools():
    config = GenerationConfig(eos_id=[1, 2], stop_sequences=[[3, 4]], do_sample=np.float64(0.2) > 0)
    assert (config.eos_id, config.stop_sequences, config.do_sample) == ((1, 2), ((3, 4),), True)
    assert type(config.do_sample) is bool


INT_OPTIONS = {"max_new_tokens": 1, "top_k": 0, "num_beams": 1}


@settings(max_examples=40, deadline=None)
@given(option=st.sampled_from(sorted(INT_OPTIONS)),
       value=st.one_of(st.floats(allow_nan=True), st.integers(max_value=-1), st.text(max_size=3), st.booleans()))
def test_any_non_integer_or_negative_count_is_refused(option, value):
    with pytest.raises(ConfigError) as info:
        GenerationConfig(**{option: value})
    one_line(info, f"GenerationConfig.{option}={value!r}", "expected int" if not isinstance(value, int) or
             isinstance(value, bool) else f"expected an int >= {INT_OPTIONS[option]}")


@settings(max_examples=40, deadline=None)
@given(top_p=st.one_of(st.floats(max_value=0.0), st.floats(min_value=1.0, exclude_min=True), st.just(math.nan)))
def test_any_top_p_outside_zero_one_is_refused(top_p):
    with pytest.raises(ConfigError) as info:
        GenerationConfig(top_p=top_p)
    one_line(info, "GenerationConfig.top_p=", "expected a number in (0, 1]")


@pytest.mark.parametrize("ids,bad", [(dict(eos_id=VOCAB), VOCAB), (dict(eos_id=(3, VOCAB + 7)), VOCAB + 7),
                                     (dict(stop_sequences=((1, VOCAB),)), VOCAB)])
def test_stop_ids_outside_the_vocabulary_are_refused_by_every_strategy(gpt, ids, bad):
    """An id the model can never produce would never stop the decoding."""
    name = next(iter(ids))
    expect = rf"GenerationConfig.{name}=.* holds {bad}, outside the model's vocabulary; expected token ids in " \
             rf"\[0, {VOCAB}\)"
    with pytest.raises(ValueError, match=expect):
        zoo.generate(gpt, PROMPT, 2, **ids)
    with pytest.raises(ValueError, match=expect):
        next(zoo.stream(gpt, PROMPT, GenerationConfig(max_new_tokens=2, **ids)))
    if name == "eos_id":
        with pytest.raises(ValueError, match=expect):
            beam_search(gpt, PROMPT, GenerationConfig(max_new_tokens=2, num_beams=2, **ids))
    with pytest.raises(ValueError, match=expect):
        speculative_generate(gpt, copy.deepcopy(gpt), PROMPT[:1], GenerationConfig(max_new_tokens=2, **ids))


def test_an_unknown_option_is_named_with_the_known_ones(gpt):
    with pytest.raises(ConfigError) as info:
        zoo.generate(gpt, PROMPT, 2, eos_token_id=5)
    one_line(info, "GenerationConfig has no field(s) ['eos_token_id']", "fields are", "'top_p'", "eos_id here")


def test_right_padding_is_refused_and_left_padding_gives_each_rows_own_tokens(gpt):
    short = PROMPT[1:, 2:]  # (1, 2)
    alone = zoo.generate(gpt, short, 4)[0, 2:]
    left = zoo.generate(gpt, torch.cat([PROMPT[:1], torch.cat([torch.zeros(1, 2, dtype=torch.long), short], 1)]), 4,
                        attention_mask=torch.tensor([[1, 1, 1, 1], [0, 0, 1, 1]]))
    assert torch.equal(left[1, 4:], alone)
    right = torch.cat([PROMPT[:1], torch.cat([short, torch.zeros(1, 2, dtype=torch.long)], 1)])
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
    for strategy in (dict(), dict(num_beams=2), dict(do_sample=True)):
        with pytest.raises(ValueError) as info:
            zoo.generate(gpt, right, 4, attention_mask=mask, **strategy)
        one_line(info, "attention_mask row 1 has padding after a token (1 1 0 0)", "expected left padding",
                 "pad on the left")
    with pytest.raises(ValueError, match="attention_mask row 0 has padding after a token"):
        zoo.generate(gpt, PROMPT[:1], 2, attention_mask=torch.tensor([[1, 0, 1, 1]]))  # a hole counts too


@pytest.mark.parametrize("kind,mask,error,words", [
    ("wrong type", [[1, 1, 1, 1], [1, 1, 1, 1]], TypeError, ("attention_mask must be a torch.Tensor", "got list")),
    ("wrong shape", torch.ones(2, 3, dtype=torch.long), ValueError, ("(batch, keys) = (2, 4)", "got shape (2, 3)")),
    ("wrong rank", torch.ones(4, dtype=torch.long), ValueError, ("(batch, keys) = (2, 4)", "got shape (4,)")),
    ("out of range", torch.full((2, 4), 2), ValueError, ("must hold 1 (token) and 0 (padding) only", "got 8")),
    ("NaN", torch.full((2, 4), math.nan), ValueError, ("must hold 1 (token) and 0 (padding) only", "nan")),
    ("a row without a token", torch.tensor([[1, 1, 1, 1], [0, 0, 0, 0]]), ValueError,
     ("row 1 has no token (0 0 0 0)", "expected at least one 1")),
])
def test_a_bad_attention_mask_is_one_clear_error(gpt, kind, mask, error, words):
    with pytest.raises(error) as info:
        zoo.generate(gpt, PROMPT, 2, attention_mask=mask)
    one_line(info, "attention_mask", *words)


@pytest.mark.parametrize("kind,prompt,error,words", [
    ("wrong type", [[1, 2, 3]], TypeError, ("input_ids must be a torch.Tensor", "got list")),
    ("wrong rank", torch.tensor([1, 2, 3]), ValueError, ("(batch, tokens)", "got shape (3,)", "input_ids[None]")),
    ("empty", torch.zeros(1, 0, dtype=torch.long), ValueError, ("input_ids is empty", "expected at least one")),
    ("wrong dtype", torch.tensor([[1.0, 2.0]]), TypeError, ("input_ids must be an integer tensor", "float32")),
    ("out of range", torch.tensor([[1, VOCAB]]), ValueError, ("input_ids must lie in [0, 4096)", "[1, 4096]")),
    ("too long", torch.zeros(1, 250, dtype=torch.long), ValueError,
     ("prompt (250) + max_new_tokens (8) = 258 exceeds", "256 positions")),
])
def test_a_bad_prompt_is_one_clear_error(gpt, kind, prompt, error, words):
    for strategy in (dict(), dict(num_beams=2)):
        with pytest.raises(error) as info:
            zoo.generate(gpt, prompt, 8, **strategy)
        one_line(info, *words)
