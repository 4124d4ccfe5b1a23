"""zoo.transcribe against openai-whisper's `transcribe` on random weights: on audio longer than 60 s the same
segments (seek, start, end, text, tokens, temperature) and text, with and without conditioning on the previous
text, an initial prompt, a given or detected language, translation, clips, temperature fallback (sampled draw
for draw) and silent windows; a batch of audios gives each one what it gets alone; converted models carry
their tokenizer."""
import numpy as np
import pytest
import torch
import whisper
from whisper.model import ModelDimensions

import zoo
from data.audio import SAMPLE_RATE
from data.whisper_tokenizer import load_whisper_tokenizer
from tests.helpers import gated_chirp, randomize, tiny_openai_whisper
from zoo.convert import hf_whisper
from zoo.generation import whisper_decode as wd

EXACT = ("id", "seek", "start", "end", "text", "tokens", "temperature")
CLOSE = ("avg_logprob", "no_speech_prob", "compression_ratio")
NO_THRESHOLDS = dict(compression_ratio_threshold=None, logprob_threshold=None, no_speech_threshold=None)


def _models(n_vocab: int, seed: int = 0):
    """As in test_whisper_decode, with EOT scaled x20 so windows end after a few segments, and <|nospeech|>
    x60 so its probability is between 0.1 and 0.8 (some windows look silent)."""
    return tiny_openai_whisper(n_vocab, eot_scale=20, seed=seed)


@pytest.fixture(scope="module")
def long_audio():
    return gated_chirp(75)


def _assert_same_segments(expected: list[dict], got: list[dict]) -> None:
    assert [{k: s[k] for k in EXACT} for s in got] == [{k: s[k] for k in EXACT} for s in expected]
    for e, g in zip(expected, got):
        for key in CLOSE:
            assert g[key] == pytest.approx(e[key], abs=1e-4), key


def _both(models, audio, seed: int = 0, **options):
    """openai-whisper's transcribe and ours on the same audio array, torch's global generator seeded alike."""
    ref, ours = models
    torch.manual_seed(seed)
    expected = whisper.transcribe(ref, audio, fp16=False, **options)
    torch.manual_seed(seed)
    got = zoo.transcribe(ours, audio, **options)
    _assert_same_segments(expected["segments"], got["segments"])
    assert got["text"] == expected["text"] and got["language"] == expected["language"]
    return got


def _timed_segments(result: dict) -> list[dict]:
    """Segments that came from a timestamp pair (start and end read from timestamp tokens) and hold text."""
    return [s for s in result["segments"] if s["tokens"] and s["end"] > s["start"]]


CASES = {
    "greedy": dict(temperature=0.0, **NO_THRESHOLDS),
    "unconditioned": dict(temperature=0.0, condition_on_previous_text=False, **NO_THRESHOLDS),
    "initial_prompt": dict(temperature=0.0, initial_prompt="a tone in the noise", **NO_THRESHOLDS),
    "carried_prompt": dict(temperature=0.0, initial_prompt="a tone in the noise", carry_initial_prompt=True,
                           **NO_THRESHOLDS),
    "translate_fr": dict(temperature=0.0, language="fr", task="translate", **NO_THRESHOLDS),
    "clips": dict(temperature=0.0, clip_timestamps="5,38.5,50", **NO_THRESHOLDS),
}


@pytest.mark.parametrize("case", list(CASES))
def test_greedy_segments_match_openai_whisper(multilingual, long_audio, case):
    got = _both(multilingual, long_audio, **CASES[case])
    seeks = {s["seek"] for s in got["segments"]}
    assert len(_timed_segments(got)) >= 4 and len(seeks) >= 3  # several windows, several timed segments each
    assert got["segments"][-1]["end"] > 60
    if case == "clips":  # 5 s to 38.5 s, then from 50 s on
        assert min(seeks) == 500 and not any(3850 <= seek < 5000 for seek in seeks) and max(seeks) >= 5000
    if case == "greedy":
        assert got["language"] != "fr"  # detected (its own pick), not given


def test_temperature_fallback_matches_openai_whisper_draw_for_draw(multilingual, long_audio):
    """A window that fails the log-prob threshold is decoded again, sampled at 0.4 then 0.8 (the same draws as
    openai-whisper's from the same seed); above 0.5 the next prompt starts afresh."""
    got = _both(multilingual, long_audio, temperature=(0.0, 0.4, 0.8), compression_ratio_threshold=None,
                logprob_threshold=-8.0, no_speech_threshold=None, sample_len=48)
    temperatures = {s["temperature"] for s in got["segments"]}
    assert 0.0 in temperatures and 0.8 in temperatures and len(_timed_segments(got)) >= 4


def test_silent_window_is_skipped_like_openai_whisper(multilingual, long_audio):
    """The first window's no-speech probability (~0.42) passes 0.4 and its log-prob fails -8: skipped whole."""
    got = _both(multilingual, long_audio, temperature=0.0, logprob_threshold=-8.0, no_speech_threshold=0.4)
    assert got["segments"][0]["seek"] == 3000 and got["segments"][0]["start"] >= 30.0
    assert len(_timed_segments(got)) >= 3


def test_default_options_with_beams_match_openai_whisper(multilingual, long_audio):
    """Beam search at temperature 0, best_of when it falls back (openai-whisper's CLI passes both)."""
    got = _both(multilingual, long_audio, temperature=(0.0, 0.6), beam_size=2, best_of=2, logprob_threshold=-8.0,
                compression_ratio_threshold=None, no_speech_threshold=None, sample_len=32)
    assert len(_timed_segments(got)) >= 4


def test_english_only_model_matches_openai_whisper(english):
    got = _both(english, gated_chirp(65, seed=1), temperature=0.0, sample_len=48, **NO_THRESHOLDS)
    assert got["language"] == "en" and len(got["segments"]) >= 2
    for asked, said in (({"language": "fr"}, "language 'fr'"), ({"task": "translate"}, "task 'translate'")):
        with pytest.warns(UserWarning, match=f"English-only model was asked for {said}; transcribing English"):
            again = zoo.transcribe(english[1], gated_chirp(65, seed=1), temperature=0.0, sample_len=48, **asked,
                                   **NO_THRESHOLDS)
        assert again == got  # English, as openai-whisper's command line makes it


# ------------------------------------------------------------------------ batches


def _batch_equals_alone(model, audios, **options):
    alone = [zoo.transcribe(model, audio, **options) for audio in audios]
    for batch_size in (None, 2):
        together = zoo.transcribe(model, audios, batch_size=batch_size, **options)
        assert isinstance(together, list) and len(together) == len(audios)
        for a, b in zip(alone, together):
            _assert_same_segments(a["segments"], b["segments"])
            assert a["text"] == b["text"] and a["language"] == b["language"]
    return alone


@pytest.fixture(scope="module")
def batch():
    """Audios of 75, 40 and 90 s (a tensor among arrays): they take 3, 2 and 4 windows."""
    return [gated_chirp(75, seed=0), torch.from_numpy(gated_chirp(40, seed=1)), gated_chirp(90, seed=3)]


def test_batch_equals_file_by_file(multilingual, batch):
    """Each audio with its own seek, prompt and language, in one batch and two at a time (the third joins
    when the second is done)."""
    alone = _batch_equals_alone(multilingual[1], batch, temperature=0.0, sample_len=64, **NO_THRESHOLDS)
    assert all(len(_timed_segments(r)) >= 4 for r in alone)
    assert len({len(r["segments"]) for r in alone}) == 3  # the audios go their own ways


def test_batch_fallback_and_silence_per_audio(multilingual, batch):
    """Each audio falls back, or is skipped as silent, on its own: the first audio's first window looks silent
    (no-speech probability 0.421 > 0.42), the second's does not (0.419) and is decoded again at the second
    temperature. That one is near zero, where a draw is the argmax: the batch's draws cannot differ from the
    file-by-file ones."""
    alone = _batch_equals_alone(multilingual[1], batch, temperature=(0.0, 1e-5), compression_ratio_threshold=None,
                                logprob_threshold=-8.0, no_speech_threshold=0.42, best_of=2, sample_len=64)
    assert [r["segments"][0]["seek"] for r in alone] == [3000, 0, 0]
    assert [r["segments"][0]["temperature"] for r in alone] == [0.0, 1e-5, 1e-5]
    assert all(len(_timed_segments(r)) >= 2 for r in alone)


def test_rows_with_different_room_decode_as_alone():
    """A 223-token prompt leaves 222 tokens to sample, a short one 224: such rows decode in separate sessions
    (padded together the short one would stop early). Without the EOT boost nothing ends before the limit."""
    ref = randomize(whisper.model.Whisper(ModelDimensions(80, 1500, 32, 2, 1, 51865, 448, 32, 2, 1)), std=0.1)
    ours, tokenizer = zoo.from_whisper(ref), load_whisper_tokenizer()
    mels = torch.randn(3, 80, 3000)
    rows = [wd.DecodingOptions(language="en", prompt=list(range(1000, 1223))),
            wd.DecodingOptions(language="de", prompt=[5, 6, 7]), wd.DecodingOptions(language="en")]
    together = wd.decode(ours, mels, rows, tokenizer)
    for mel, options, got in zip(mels, rows, together):
        alone = wd.decode(ours, mel, options, tokenizer)
        assert got.tokens == alone.tokens and got.avg_logprob == pytest.approx(alone.avg_logprob, abs=1e-5)
    assert [len(r.tokens) for r in together] == [222, 224, 224]
    with pytest.raises(ValueError, match="may differ only in"):
        wd.decode(ours, mels[:2], [rows[0], wd.DecodingOptions(beam_size=2)], tokenizer)


# ------------------------------------------------------------------------ tokenizers and errors


def test_converted_models_carry_their_tokenizer(multilingual, english, long_audio, tmp_path):
    assert multilingual[1].tokenizer.multilingual and multilingual[1].tokenizer.num_languages == 99
    assert not english[1].tokenizer.multilingual
    # The model's own tokenizer is the default; tokenizer= overrides it (here with the same vocabulary).
    options = dict(temperature=0.0, clip_timestamps="0,20", **NO_THRESHOLDS)
    assert zoo.transcribe(multilingual[1], long_audio, tokenizer=load_whisper_tokenizer(), **options) == \
        zoo.transcribe(multilingual[1], long_audio, **options)
    # An HF directory's tokenizer.json, else openai-whisper's for the vocabulary size.
    load_whisper_tokenizer(multilingual=False).save(tmp_path)
    model = hf_whisper.attach_extras(zoo.from_whisper(multilingual[0]), tmp_path)
    assert not model.tokenizer.multilingual and model.tokenizer.vocab_size == 51864
    assert hf_whisper.tokenizer_for(tmp_path / "missing", 51866).num_languages == 100
    # A vocabulary no openai-whisper release has: no tokenizer (transcribe then needs tokenizer=).
    small = whisper.model.Whisper(ModelDimensions(16, 20, 32, 4, 1, 101, 16, 32, 4, 1))
    assert zoo.from_whisper(small).tokenizer is None
    with pytest.raises(ValueError, match="no openai-whisper tokenizer"):
        wd.tokenizer_for_vocab(101)


def test_a_path_reads_the_file(multilingual, tmp_path):
    soundfile = pytest.importorskip("soundfile")
    audio = gated_chirp(32)
    soundfile.write(tmp_path / "tone.wav", audio, SAMPLE_RATE, subtype="FLOAT")
    options = dict(temperature=0.0, sample_len=32, **NO_THRESHOLDS)
    got = zoo.transcribe(multilingual[1], [str(tmp_path / "tone.wav"), tmp_path / "tone.wav"], **options)
    alone = zoo.transcribe(multilingual[1], audio, **options)
    for result in got:  # batched: the same segments, the log-probs to float rounding
        _assert_same_segments(alone["segments"], result["segments"])
        assert result["text"] == alone["text"] and len(alone["segments"]) >= 3


def test_errors(multilingual, long_audio):
    ours = multilingual[1]
    with pytest.raises(ValueError, match="word_timestamps"):  # alignment heads the decoder does not have
        zoo.transcribe(zoo.from_whisper(whisper.model.Whisper(ModelDimensions(16, 20, 32, 4, 1, 51865, 16, 32, 4, 0))),
                       long_audio, word_timestamps=True)
    with pytest.raises(ValueError, match="pass a list"):
        zoo.transcribe(ours, np.stack([long_audio, long_audio]))
    with pytest.raises(ValueError, match="task"):
        zoo.transcribe(ours, long_audio, task="lang_id")
    with pytest.raises(TypeError, match="audio must be"):
        zoo.transcribe(ours, 3)
    assert zoo.transcribe(ours, []) == []


@pytest.mark.slow
def test_compiled_steps_give_the_same_transcript(multilingual):
    """compile=True: the encoder and the decoder's one-token steps through torch.compile (one compile per
    cache length). The same text, tokens and timings; the probabilities to float rounding (the compiled
    encoder fuses its elementwise work, summing in another order)."""
    options = dict(temperature=0.0, language="en", sample_len=32, **NO_THRESHOLDS)
    audio = gated_chirp(35)
    compiled, eager = (zoo.transcribe(multilingual[1], audio, compile=flag, **options) for flag in (True, False))
    assert compiled["text"] == eager["text"] and len(compiled["segments"]) == len(eager["segments"])
    for got, want in zip(compiled["segments"], eager["segments"]):
        floats = {k for k, v in want.items() if isinstance(v, float) and k not in ("start", "end")}
        assert {k: got[k] for k in got.keys() - floats} == {k: want[k] for k in want.keys() - floats}
        assert {k: got[k] for k in floats} == pytest.approx({k: want[k] for k in floats}, rel=1e-4, abs=1e-5)


def test_short_window_model_equals_openai_algorithm_on_its_window(monkeypatch):
    """A model trained on 10 s clips (audio_ctx 500, as whisper_micro) reads 10 s windows: openai-whisper's
    transcribe with its window constants set to 10 s (1000 frames; timestamps keep their 20 ms step) gives
    the same segments, over 35 s of audio (four windows, seeking by the predicted timestamps)."""
    import importlib

    import whisper.decoding

    # the module (the package re-exports the function)
    openai_transcribe = importlib.import_module("whisper.transcribe")
    window_s = 10
    monkeypatch.setattr(openai_transcribe, "N_FRAMES", window_s * 100)
    monkeypatch.setattr(openai_transcribe, "N_SAMPLES", window_s * SAMPLE_RATE)
    monkeypatch.setattr(whisper.decoding, "CHUNK_LENGTH", window_s)  # its timestamp precision: 10 s / 500 tokens
    models = tiny_openai_whisper(51865, eot_scale=20, seed=3, n_audio_ctx=window_s * 50)
    got = _both(models, gated_chirp(35, seed=1), temperature=0.0, **NO_THRESHOLDS)
    assert len({s["seek"] for s in got["segments"]}) >= 2  # seeking by the predicted timestamps
    plain = _both(models, gated_chirp(35, seed=1), temperature=0.0, without_timestamps=True, **NO_THRESHOLDS)
    assert [s["seek"] for s in plain["segments"]] == [0, 1000, 2000, 3000]  # one segment per 10 s window
    batched = zoo.transcribe(models[1], [gated_chirp(35, seed=1), gated_chirp(12, seed=2)], temperature=0.0,
                             batch_size=2, **NO_THRESHOLDS)
    _assert_same_segments(got["segments"], batched[0]["segments"])


def test_verbose_false_shows_a_bar_over_the_audio_frames(multilingual, capsys):
    """openai-whisper's verbose=False: a progress bar over the audio's mel frames, up to all of them."""
    audio = gated_chirp(45, seed=2)
    zoo.transcribe(multilingual[1], audio, verbose=False, temperature=0.0, sample_len=16, **NO_THRESHOLDS)
    err = capsys.readouterr().err
    assert "frames" in err and "4500/4500" in err  # 45 s: 4500 frames of 10 ms
    zoo.transcribe(multilingual[1], audio, temperature=0.0, sample_len=16, **NO_THRESHOLDS)  # None: no bar
    assert "frames" not in capsys.readouterr().err
