"""The boundary of zoo.transcribe's options and whisper_decode's DecodingOptions: a value of the wrong type,
out of range, NaN, or at odds with another option is one ConfigError naming the option, the value and what
was expected (TranscribeOptions / DecodingOptions check themselves when made, before any audio is read)."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import zoo
from zoo.generation import whisper_decode as wd
from zoo.generation.transcribe_options import TranscribeOptions
from zoo.registry import ConfigError

SECOND = np.zeros(16000, np.float32)


@pytest.fixture(scope="module")
def whisper_model():
    """whisper_micro (10 s windows) with the multilingual vocabulary, so transcribe finds its tokenizer."""
    torch.manual_seed(0)
    return zoo.create_model("whisper_micro", vocab_size=51865).eval()


def one_line(error: pytest.ExceptionInfo, *words: str) -> None:
    message = str(error.value)
    assert "\n" not in message and all(w in message for w in words), message


@pytest.mark.parametrize("options,words", [
    (dict(beam_size=2.5), ("DecodingOptions.beam_size=2.5 (float): expected int | None",)),
    (dict(beam_size=0), ("DecodingOptions.beam_size=0: expected an int >= 1 or None",)),
    (dict(best_of=2.0, temperature=(0.0, 0.5)), ("DecodingOptions.best_of=2.0 (float): expected int | None",)),
    (dict(patience=0.1, beam_size=3), ("DecodingOptions.patience=0.1", "beam_size=3 x patience rounds to 0")),
    (dict(prompt=[1.5]), ("DecodingOptions.prompt=[1.5] (list): expected str | list[int] | None",)),
    (dict(suppress_tokens="-1,x"), ("DecodingOptions.suppress_tokens='-1,x': expected comma-separated ids",)),
    (dict(length_penalty=math.nan), ("DecodingOptions.length_penalty=nan: expected a number in [0, 1]",)),
    (dict(sample_len=0), ("DecodingOptions.sample_len=0: expected an int >= 1 or None",)),
    (dict(beem_size=5), ("DecodingOptions has no field(s) ['beem_size']", "'beam_size'")),
    (dict(initial_prompt=5), ("TranscribeOptions.initial_prompt=5 (int): expected str | None",)),
    (dict(batch_size=2.5), ("TranscribeOptions.batch_size=2.5 (float): expected int | None",)),
    (dict(batch_size=0), ("TranscribeOptions.batch_size=0: expected an int >= 1 or None",)),
    (dict(word_timestamps="yes"), ("TranscribeOptions.word_timestamps='yes' (str): expected bool",)),
    (dict(verbose="no"), ("TranscribeOptions.verbose='no' (str): expected bool | None",)),
    (dict(no_speech_threshold=math.nan), ("TranscribeOptions.no_speech_threshold=nan: expected a probability",)),
    (dict(no_speech_threshold=2.0), ("TranscribeOptions.no_speech_threshold=2.0: expected a probability",)),
    (dict(logprob_threshold=-math.inf), ("TranscribeOptions.logprob_threshold=-inf: expected a finite number",)),
    (dict(clip_timestamps="5,1"), ("TranscribeOptions.clip_timestamps=(5.0, 1.0)", "each end after its start")),
    (dict(clip_timestamps="0,2,1,1"), ("TranscribeOptions.clip_timestamps=(0.0, 2.0, 1.0, 1.0)", "each end after")),
    (dict(clip_timestamps="-1"), ("TranscribeOptions.clip_timestamps=(-1.0,): expected seconds >= 0",)),
    (dict(clip_timestamps="5,x"), ("TranscribeOptions.clip_timestamps='5,x': expected seconds as 'start,end",)),
    (dict(temperature=-0.2), ("TranscribeOptions.temperature=(-0.2,): expected one or more finite numbers >= 0",)),
    (dict(temperature=(0.0, math.nan)), ("TranscribeOptions.temperature=(0.0, nan): expected one or more finite",)),
    (dict(temperature=()), ("TranscribeOptions.temperature=(): expected one or more finite numbers",)),
    (dict(temperature="0.5"), ("TranscribeOptions.temperature='0.5' (str): expected tuple[float, ...]",)),
    (dict(hallucination_silence_threshold=0), ("TranscribeOptions.hallucination_silence_threshold=0: expected",)),
])
def test_a_bad_transcribe_option_is_one_line_naming_it(whisper_model, options, words):
    with pytest.raises(ConfigError) as info:
        zoo.transcribe(whisper_model, SECOND, **options)
    one_line(info, *words)


@pytest.mark.parametrize("options,words", [
    (dict(best_of=2), ("DecodingOptions.best_of=2: expected None at temperature 0",)),
    (dict(best_of=2, beam_size=2, temperature=0.5), ("DecodingOptions.best_of=2: expected None with beam_size=2",)),
    (dict(patience=2.0), ("DecodingOptions.patience=2.0: expected None without beam_size",)),
    (dict(task="summarize"), ("DecodingOptions.task='summarize': expected one of ('transcribe',",)),
    (dict(temperature=math.inf), ("DecodingOptions.temperature=inf: expected a finite number >= 0",)),
    (dict(language=5), ("DecodingOptions.language=5 (int): expected str | None",)),
])
def test_decoding_options_name_the_option_not_their_whole_repr(options, words):
    with pytest.raises(ConfigError) as info:
        wd.DecodingOptions(**options)
    one_line(info, *words)
    assert "DecodingOptions(" not in str(info.value)


def test_decode_names_what_differs_between_the_audios_options(whisper_model):
    mels = torch.zeros(2, 80, 1000)
    with pytest.raises(ValueError) as info:
        wd.decode(whisper_model, mels, [wd.DecodingOptions(), wd.DecodingOptions(sample_len=3)])
    one_line(info, "options[1] differs from options[0] in ['sample_len']", "may differ only in")
    assert "DecodingOptions(" not in str(info.value)
    with pytest.raises(TypeError) as info:
        wd.decode(whisper_model, mels, [wd.DecodingOptions(), {"sample_len": 3}])
    one_line(info, "options: got list of ['DecodingOptions', 'dict']", "expected DecodingOptions")
    with pytest.raises(ConfigError) as info:
        wd.decode(whisper_model, mels[0], beem_size=2)
    one_line(info, "DecodingOptions has no field(s) ['beem_size']")


def test_the_accepted_forms_still_transcribe(whisper_model):
    assert TranscribeOptions(temperature=0.5, clip_timestamps="5,38.5,50").temperature == (0.5,)
    assert TranscribeOptions(clip_timestamps="5,38.5,50").clip_timestamps == (5.0, 38.5, 50.0)
    assert TranscribeOptions(temperature=[0, 0.5], clip_timestamps=[0, 1]).temperature == (0, 0.5)
    assert TranscribeOptions(clip_timestamps="").clip_timestamps == ()
    result = zoo.transcribe(whisper_model, SECOND, temperature=0.0, clip_timestamps=[0.2, 0.8], language="en",
                            sample_len=4, suppress_tokens=[-1, 220], verbose=None)
    assert set(result) == {"text", "segments", "language"} and result["language"] == "en"
