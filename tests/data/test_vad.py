"""data.vad: Silero VAD v6 in torch gives the ONNX models' probabilities (silero-vad's and faster-whisper's, run
by onnxruntime), speech timestamps equal faster-whisper's get_speech_timestamps, silence between speech is cut,
collect_chunks + SpeechTimeMap give back the original times, and bad options are refused by name."""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from data import vad
from data.speech import SPEECH_TINY, load_manifest, load_row_audio

ort = pytest.importorskip("onnxruntime")
fw_vad = pytest.importorskip("faster_whisper.vad")

RATE = vad.SAMPLE_RATE
SILERO_DATA = Path(next(iter(importlib.util.find_spec("silero_vad").submodule_search_locations))) / "data"
FW_ONNX = Path(fw_vad.__file__).parent / "assets" / "silero_vad_v6.onnx"


@pytest.fixture(scope="module")
def human() -> list[torch.Tensor]:
    """The shipped human recordings (Asterisk prompts, 1-3 s each), 16 kHz."""
    folder = SPEECH_TINY / "asr"
    return [load_row_audio(folder, row) for row in load_manifest(folder, split="human")]


def _silence(seconds: float, noise: float = 0.0, seed: int = 0) -> torch.Tensor:
    generator = torch.Generator().manual_seed(seed)
    return noise * torch.randn(int(seconds * RATE), generator=generator)


def _talk(human, gaps: list[float], noise: float = 0.0) -> torch.Tensor:
    """Recordings separated by the given gaps (s) of silence or low noise, and a tail that ends mid-frame."""
    parts = [human[0]]
    for index, gap in enumerate(gaps):
        parts += [_silence(gap, noise, seed=index), human[(index + 1) % len(human)]]
    wave = torch.cat(parts)
    wave = torch.cat([wave, _silence((300 - wave.numel() % 512) % 512 / RATE + 0.5, noise, seed=99)])
    # faster-whisper frames the end of the audio its own way (see data.vad): keep the last frame partial
    assert 0 < wave.numel() % 512 <= 448
    return wave


def _silero_onnx_streaming(wave: torch.Tensor) -> np.ndarray:
    """silero-vad's own ONNX model, frame by frame with its state, as its OnnxWrapper runs it."""
    session = ort.InferenceSession(str(SILERO_DATA / "silero_vad.onnx"), providers=["CPUExecutionProvider"])
    state = np.zeros((2, 1, 128), np.float32)
    samples = np.pad(wave.numpy(), (0, -wave.numel() % 512))
    context = np.zeros(64, np.float32)
    probabilities = []
    for frame in samples.reshape(-1, 512):
        chunk = np.concatenate([context, frame])[None]
        out, state = session.run(None, {"input": chunk, "state": state, "sr": np.array(16000, np.int64)})
        probabilities.append(out[0, 0])
        context = frame[-64:]
    return np.array(probabilities)


def _fw_onnx_batched(wave: torch.Tensor) -> np.ndarray:
    """faster-whisper's silero_vad_v6.onnx: all frames (each led by the previous one's last 64 samples) at once."""
    session = ort.InferenceSession(str(FW_ONNX), providers=["CPUExecutionProvider"])
    frames = np.pad(wave.numpy(), (0, -wave.numel() % 512)).reshape(-1, 512)
    context = np.concatenate([np.zeros((1, 64), np.float32), frames[:-1, -64:]])
    zeros = np.zeros((1, 1, 128), np.float32)
    out, _, _ = session.run(None, {"input": np.concatenate([context, frames], 1), "h": zeros, "c": zeros})
    return out.reshape(-1)


# ----------------------------------------------------------------------------- probabilities


@pytest.mark.parametrize("kind", ["speech", "silence", "noise"])
def test_probabilities_equal_the_onnx_models(human, kind):
    wave = {"speech": lambda: _talk(human[:4], [0.7, 0.2, 1.5]),
            "silence": lambda: torch.zeros(3 * RATE + 100),
            "noise": lambda: _silence(3.01, noise=0.01)}[kind]()
    ours = vad.speech_probabilities(wave).numpy()
    assert ours.shape == (math.ceil(wave.numel() / 512),)
    np.testing.assert_allclose(ours, _silero_onnx_streaming(wave), atol=1e-5, rtol=0)
    np.testing.assert_allclose(ours, _fw_onnx_batched(wave), atol=1e-5, rtol=0)
    if kind == "speech":
        assert ours.max() > 0.9 and ours.min() < 0.1
    else:
        assert ours.max() < 0.5


def test_probabilities_run_in_blocks_carry_the_state(human, monkeypatch):
    wave = _talk(human[:3], [0.4, 0.9])
    whole = vad.speech_probabilities(wave)
    monkeypatch.setattr(vad, "FRAMES_PER_CALL", 7)
    threads = torch.get_num_threads()
    torch.testing.assert_close(vad.speech_probabilities(wave), whole, atol=1e-6, rtol=0)
    assert torch.get_num_threads() == threads  # run on one thread, then restored


def test_probabilities_take_arrays_and_refuse_other_rates_and_shapes():
    wave = _silence(1.0, noise=0.01)
    torch.testing.assert_close(vad.speech_probabilities(wave.numpy().astype(np.float64)),
                               vad.speech_probabilities(wave), atol=1e-6, rtol=0)
    assert vad.speech_probabilities(torch.zeros(0)).shape == (0,)
    assert vad.speech_timestamps(torch.zeros(0)) == []
    with pytest.raises(ValueError, match="16000 Hz.*sample_rate=8000"):
        vad.speech_probabilities(wave, sample_rate=8000)
    with pytest.raises(ValueError, match=r"\(samples,\).*\(2, 16000\)"):
        vad.speech_timestamps(torch.zeros(2, 16000))
    with pytest.raises(ValueError, match="NaN"):
        vad.speech_timestamps(torch.full((1000,), float("nan")))


# ----------------------------------------------------------------------------- timestamps

OPTIONS = [
    {},  # faster-whisper's defaults (transcribe(vad_filter=True))
    {"min_silence_duration_ms": 160, "max_speech_duration_s": 30},  # BatchedInferencePipeline's defaults
    {"threshold": 0.6, "neg_threshold": 0.3, "min_speech_duration_ms": 250, "max_speech_duration_s": 3,
     "min_silence_duration_ms": 300, "speech_pad_ms": 30},
]


@pytest.mark.parametrize("options", OPTIONS, ids=["default", "batched", "tight"])
def test_timestamps_equal_faster_whispers_on_speech(human, options):
    wave = _talk(human, [0.3, 2.5, 0.15, 1.0, 0.6, 4.0, 0.25, 0.8], noise=0.002)
    ours = vad.speech_timestamps(wave, options)
    theirs = fw_vad.get_speech_timestamps(wave.numpy(), fw_vad.VadOptions(**options))
    assert ours == theirs
    assert ours and all(type(s["start"]) is int and type(s["end"]) is int for s in ours)
    if options:
        assert len(ours) > 3


@pytest.mark.parametrize("options", OPTIONS + [
    {"threshold": 0.3, "max_speech_duration_s": 1.5, "speech_pad_ms": 100, "min_silence_duration_ms": 100},
    {"max_speech_duration_s": 0.9, "speech_pad_ms": 0, "min_silence_duration_ms": 0, "min_speech_duration_ms": 64},
])
@pytest.mark.parametrize("seed", range(4))
def test_timestamps_follow_faster_whispers_rules_on_any_probabilities(options, seed, monkeypatch):
    """The state machine alone, on runs of random probabilities fed to both (faster-whisper's model replaced):
    long speech split at silences or cut, short speech and silences, padding that meets halfway."""
    rng = np.random.default_rng(seed)
    runs = []
    while sum(map(len, runs)) < 2000:
        level = rng.choice([0.02, 0.3, 0.45, 0.55, 0.95])
        runs.append(np.clip(level + 0.1 * rng.standard_normal(int(rng.integers(1, 90))), 0, 1))
    probabilities = np.concatenate(runs).astype(np.float32)
    samples = len(probabilities) * 512 - int(rng.integers(1, 400))
    monkeypatch.setattr(fw_vad, "get_vad_model", lambda: (lambda audio: probabilities))
    theirs = fw_vad.get_speech_timestamps(np.zeros(samples, np.float32), fw_vad.VadOptions(**options))
    ours = vad.timestamps_from_probabilities(probabilities.tolist(), samples, vad.vad_options(options))
    assert ours == theirs
    assert len(ours) > 2


@pytest.mark.parametrize("noise", [0.0, 0.003], ids=["silence", "low-noise"])
def test_thirty_seconds_of_silence_between_speech_are_cut(human, noise):
    first, second = human[0], human[1]
    wave = torch.cat([first, _silence(30, noise), second])
    speeches = vad.speech_timestamps(wave)
    pad = 0.4 * RATE  # speech_pad_ms
    quiet = (first.numel() + pad + 512, first.numel() + 30 * RATE - pad - 512)  # the span no chunk may reach
    assert len(speeches) == 2
    assert all(s["end"] <= quiet[0] or s["start"] >= quiet[1] for s in speeches)
    chunks, metadata = vad.collect_chunks(wave, speeches)
    assert len(chunks) == 1 and chunks[0].numel() < first.numel() + second.numel() + 4 * pad
    assert vad.speech_timestamps(wave, {"min_silence_duration_ms": 100}) == \
        fw_vad.get_speech_timestamps(wave.numpy(), fw_vad.VadOptions(min_silence_duration_ms=100))


# ----------------------------------------------------------------------------- chunks and the time map

SPEECHES = [{"start": 1000, "end": 9000}, {"start": 12000, "end": 30000}, {"start": 30500, "end": 31000},
            {"start": 50000, "end": 90000}, {"start": 100000, "end": 104000}]


@pytest.mark.parametrize("max_duration_s", [math.inf, 2.0, 1.5])
def test_collect_chunks_joins_speech_as_faster_whisper_does(max_duration_s):
    wave = torch.arange(110000, dtype=torch.float32) / 110000
    chunks, metadata = vad.collect_chunks(wave, SPEECHES, max_duration_s)
    their_chunks, their_metadata = fw_vad.collect_chunks(wave.numpy(), SPEECHES, max_duration=max_duration_s)
    assert len(chunks) == len(their_chunks) == len(metadata)
    for ours, theirs, meta, their_meta in zip(chunks, their_chunks, metadata, their_metadata):
        np.testing.assert_array_equal(ours.numpy(), theirs)
        assert (meta["offset"], meta["duration"]) == (their_meta["offset"], their_meta["duration"])
        assert meta["duration"] <= max_duration_s or len(meta["segments"]) == 1  # a longer speech stands alone
        assert ours.numel() == sum(s["end"] - s["start"] for s in meta["segments"])
    assert [s for meta in metadata for s in meta["segments"]] == SPEECHES
    assert len(chunks) == {math.inf: 1, 2.0: 3, 1.5: 4}[max_duration_s]


def test_collect_chunks_without_speech_and_with_one_too_long():
    wave = torch.arange(40000, dtype=torch.float32)
    chunks, metadata = vad.collect_chunks(wave, [])
    assert [c.numel() for c in chunks] == [0] and metadata == [{"offset": 0.0, "duration": 0.0, "segments": []}]
    long = [{"start": 0, "end": 40000}]
    chunks, metadata = vad.collect_chunks(wave, long, max_duration_s=1.0)  # faster-whisper adds an empty chunk
    assert [c.numel() for c in chunks] == [40000] and metadata[0]["segments"] == long


def test_time_map_round_trips_every_sample():
    wave = torch.arange(110000, dtype=torch.float32)  # each sample's value is its index
    chunks, metadata = vad.collect_chunks(wave, SPEECHES, max_duration_s=2.0)
    time_map = vad.SpeechTimeMap(SPEECHES, precision=None)
    for chunk, meta in zip(chunks, metadata):
        for index in range(0, chunk.numel(), 37):
            joined = meta["offset"] + (index + 0.5) / RATE  # the middle of a sample of the joined audio
            original = math.floor(time_map.original_time(joined) * RATE)
            assert original == int(chunk[index])


def test_time_map_equals_faster_whispers():
    ours = vad.SpeechTimeMap(SPEECHES)
    theirs = fw_vad.SpeechTimestampsMap(SPEECHES, RATE)
    ends = [e / RATE for e in ours.joined_ends]
    times = [t / 100 for t in range(0, 450)] + ends + [e - 1 / RATE for e in ends]
    for time in times:
        for is_end in (False, True):
            assert ours.chunk_index(time, is_end) == theirs.get_chunk_index(time, is_end)
            assert ours.original_time(time, is_end=is_end) == theirs.get_original_time(time, is_end=is_end)
        assert ours.original_time(time, chunk_index=2) == theirs.get_original_time(time, chunk_index=2)
    assert ours.original_time(ends[0], is_end=True) == round(9000 / RATE, 2)  # an end on a cut stays in its speech
    assert ours.original_time(ends[0]) == 12000 / RATE  # a start there belongs to the next one
    with pytest.raises(ValueError, match="no speech"):
        vad.SpeechTimeMap([]).original_time(1.0)


# ----------------------------------------------------------------------------- options


def test_options_have_faster_whispers_names_and_defaults():
    ours, theirs = vad.VadOptions(), fw_vad.VadOptions()
    assert vad.VAD_PARAMETERS == tuple(vars(theirs))
    assert all(getattr(ours, name) == getattr(theirs, name) for name in vad.VAD_PARAMETERS)
    assert vad.vad_options(None) == ours and vad.vad_options(ours) is ours
    assert vad.vad_options(fw_vad.VadOptions(threshold=0.7)).threshold == 0.7
    assert vad.vad_options({"threshold": 0.6}).silence_threshold == pytest.approx(0.45)
    assert vad.vad_options({"threshold": 0.1}).silence_threshold == 0.01


@pytest.mark.parametrize("parameters, message", [
    ({"treshold": 0.5}, "unknown VAD parameter 'treshold' \\(did you mean 'threshold'\\?\\); expected one of "
                        "threshold, neg_threshold, min_speech_duration_ms, max_speech_duration_s, "
                        "min_silence_duration_ms, speech_pad_ms"),
    ({"window_size_samples": 512}, "unknown VAD parameter 'window_size_samples'; expected one of threshold"),
    ({"threshold": 1.5}, "'threshold' must be a probability in \\[0, 1\\]; got 1.5"),
    ({"threshold": "0.5"}, "'threshold' must be a probability in \\[0, 1\\]; got '0.5'"),
    ({"threshold": float("nan")}, "'threshold' must be"),
    ({"neg_threshold": -0.1}, "'neg_threshold' must be None or a probability in \\[0, 1\\]; got -0.1"),
    ({"min_speech_duration_ms": -1}, "'min_speech_duration_ms' must be a finite number >= 0; got -1"),
    ({"min_silence_duration_ms": True}, "'min_silence_duration_ms' must be a finite number >= 0; got True"),
    ({"speech_pad_ms": math.inf}, "'speech_pad_ms' must be a finite number >= 0; got inf"),
    ({"max_speech_duration_s": 0}, "'max_speech_duration_s' must be a number of seconds > 0 \\(or inf\\); got 0"),
])
def test_bad_options_are_named(parameters, message):
    with pytest.raises(ValueError, match=message):
        vad.vad_options(parameters)
    with pytest.raises(ValueError, match=message):
        vad.speech_timestamps(torch.zeros(1000), parameters)


def test_options_of_the_wrong_type():
    with pytest.raises(TypeError, match="vad_parameters must be a dict or a VadOptions, got list"):
        vad.vad_options([("threshold", 0.5)])
    with pytest.raises(ValueError, match="'threshold' must be"):
        vad.VadOptions(threshold=2)


def test_missing_weights_are_named(tmp_path, monkeypatch):
    with pytest.raises(FileNotFoundError, match="nothing.jit: no such file"):
        vad.load_silero_vad(tmp_path / "nothing.jit")
    other = torch.jit.script(torch.nn.Linear(2, 2))
    other.save(str(tmp_path / "other.jit"))
    with pytest.raises(ValueError, match="other.jit: expected Silero VAD v6's 16 kHz network"):
        vad.load_silero_vad(tmp_path / "other.jit")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ImportError, match="PyPI package silero-vad, which is not installed"):
        vad.silero_weights_path()

