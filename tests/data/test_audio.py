"""data.audio / data.audio_io: log-mel, mel filters and pad_or_trim equal openai-whisper's; files and arrays load
as mono 16 kHz float32; bad audio (missing, not audio, empty, NaN, ambiguous layout) is refused by name."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
import soundfile
import torch
import torchaudio
import whisper.audio

from data import audio_io
from data.audio import (
    HOP_LENGTH,
    N_FRAMES,
    N_SAMPLES,
    SAMPLE_RATE,
    UnreadableAudioError,
    load_audio,
    load_audio_batch,
    log_mel_spectrogram,
    mel_filters,
    pad_or_trim,
)

ASTERISK_SOUNDS = Path("/usr/share/asterisk/sounds/en")


def _speechlike(seconds: float = 5.0, seed: int = 0, rate: int = SAMPLE_RATE) -> np.ndarray:
    """A chirp (100 Hz -> 6 kHz) plus white noise, float32 in [-1, 1]."""
    t = np.arange(int(seconds * rate)) / rate
    chirp = np.sin(2 * np.pi * (100 * t + (6000 - 100) / (2 * seconds) * t ** 2))
    noise = np.random.default_rng(seed).normal(0, 0.05, t.shape)
    return (0.5 * chirp + noise).clip(-1, 1).astype(np.float32)


# ----------------------------------------------------------------------------- parity with openai-whisper


@pytest.mark.parametrize("n_mels", [80, 128])
def test_mel_filters_equal_whispers_npz(n_mels):
    ours, ref = mel_filters(n_mels), whisper.audio.mel_filters("cpu", n_mels)
    assert ours.shape == ref.shape == (n_mels, 201) and ours.dtype == ref.dtype == torch.float32
    assert torch.equal(ours > 0, ref > 0)  # the same triangles
    assert (ours - ref).abs().max() <= 1e-6 * ref.abs().max()
    assert mel_filters(n_mels) is ours  # cached per (n_mels, device)


@pytest.mark.parametrize("n_mels", [80, 128])
def test_log_mel_equals_whisper(n_mels):
    audio = _speechlike()
    ours = log_mel_spectrogram(audio, n_mels)
    ref = whisper.audio.log_mel_spectrogram(torch.from_numpy(audio), n_mels)
    assert ours.shape == ref.shape == (n_mels, len(audio) // HOP_LENGTH)
    assert (ours - ref).abs().max() <= 1e-4
    # padded as whisper's transcribe does: 30 s of zeros after the audio
    ours = log_mel_spectrogram(torch.from_numpy(audio), n_mels, padding=N_SAMPLES)
    ref = whisper.audio.log_mel_spectrogram(torch.from_numpy(audio), n_mels, padding=N_SAMPLES)
    assert ours.shape == ref.shape == (n_mels, len(audio) // HOP_LENGTH + N_FRAMES)
    assert (ours - ref).abs().max() <= 1e-4


def test_log_mel_batched_equals_one_by_one():
    """Each row is clamped against its own peak; whisper's one max() over a batch would let the loud row set
    the quiet row's floor, so ours equals whisper's call per row, not whisper's call on the batch."""
    loud, quiet = _speechlike(2.0, seed=1), 1e-3 * _speechlike(2.0, seed=2)
    batch = torch.from_numpy(np.stack([loud, quiet]))  # (2, samples)
    ours = log_mel_spectrogram(batch)
    assert ours.shape == (2, 80, 200)
    for row, wave in enumerate((loud, quiet)):
        one = log_mel_spectrogram(wave)
        assert torch.allclose(ours[row], one, atol=1e-6)
        assert (one - whisper.audio.log_mel_spectrogram(torch.from_numpy(wave))).abs().max() <= 1e-4
    assert not torch.allclose(whisper.audio.log_mel_spectrogram(batch)[1], ours[1], atol=1e-2)


@pytest.mark.parametrize("length", [100, 1000])
def test_pad_or_trim_equals_whisper(length):
    rng = np.random.default_rng(0)
    for shape, axis in [((500,), -1), ((3, 500), -1), ((500, 3), 0)]:
        array = rng.normal(size=shape).astype(np.float32)
        ref = whisper.audio.pad_or_trim(array, length, axis=axis)
        assert np.array_equal(pad_or_trim(array, length, axis=axis), ref)
        ours = pad_or_trim(torch.from_numpy(array), length, axis=axis)
        assert torch.equal(ours, whisper.audio.pad_or_trim(torch.from_numpy(array), length, axis=axis))
        assert ours.shape[axis] == length
    assert pad_or_trim(torch.ones(10)).shape == (N_SAMPLES,)


def test_log_mel_of_a_path_and_other_mel_counts(tmp_path):
    audio = _speechlike(1.0)
    soundfile.write(tmp_path / "clip.flac", audio, SAMPLE_RATE)  # FLAC stores 16-bit PCM
    from_file = log_mel_spectrogram(str(tmp_path / "clip.flac"))
    assert torch.allclose(from_file, log_mel_spectrogram(load_audio(tmp_path / "clip.flac")))
    assert (from_file - log_mel_spectrogram(audio)).abs().max() < 0.01  # only the 16-bit quantisation apart
    assert log_mel_spectrogram(audio, n_mels=40).shape == (40, 100)  # not a whisper count, still built
    assert log_mel_spectrogram(audio, device="cpu").device == torch.device("cpu")


def test_log_mel_refuses_bad_audio():
    with pytest.raises(ValueError, match="empty"):
        log_mel_spectrogram(np.zeros(0, np.float32))
    nan = _speechlike(1.0)
    nan[:7] = np.nan
    with pytest.raises(ValueError, match="7 NaN"):
        log_mel_spectrogram(nan)
    with pytest.raises(ValueError, match="at least 201"):
        log_mel_spectrogram(torch.zeros(200))
    assert log_mel_spectrogram(torch.zeros(200), padding=N_SAMPLES).shape == (80, N_FRAMES + 1)
    with pytest.raises(ValueError, match="shape"):
        log_mel_spectrogram(torch.zeros(1, 2, 1000))
    with pytest.raises(ValueError, match="n_mels"):
        log_mel_spectrogram(torch.zeros(1000), n_mels=0)
    with pytest.raises(TypeError, match="dtype"):
        log_mel_spectrogram(torch.zeros(1000, dtype=torch.complex64))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")
def test_log_mel_on_cuda_equals_cpu():
    audio = torch.from_numpy(_speechlike(2.0))
    on_gpu = log_mel_spectrogram(audio, device="cuda")
    assert on_gpu.device.type == "cuda"
    assert (on_gpu.cpu() - log_mel_spectrogram(audio)).abs().max() <= 1e-4


# ----------------------------------------------------------------------------- loading


def test_stereo_8k_file_loads_as_mono_16k_said_once(tmp_path, monkeypatch):
    monkeypatch.setattr(audio_io, "_RATES_NOTED", set())
    left, right = _speechlike(1.0, seed=3, rate=8000), _speechlike(1.0, seed=4, rate=8000)
    for name in ("a.wav", "b.wav"):
        soundfile.write(tmp_path / name, np.stack([left, right], axis=1), 8000)  # (samples, channels), PCM_16
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        waves = load_audio_batch([tmp_path / "a.wav", str(tmp_path / "b.wav")])
    said = [str(w.message) for w in caught if "8000 Hz" in str(w.message)]
    assert len(said) == 1 and "a.wav" in said[0], said
    stored, _ = soundfile.read(tmp_path / "a.wav", dtype="float32")
    expected = torchaudio.functional.resample(torch.from_numpy(stored.mean(axis=1)), 8000, SAMPLE_RATE)
    for wave in waves:
        assert wave.dtype == torch.float32 and wave.shape == (2 * len(left),)
        assert torch.allclose(wave, expected, atol=1e-6)


def test_int16_file_loads_as_float(tmp_path):
    pcm = np.array([-32768, -1, 0, 1, 32767] * 400, dtype=np.int16)
    soundfile.write(tmp_path / "pcm.wav", pcm, SAMPLE_RATE, subtype="PCM_16")
    wave = load_audio(tmp_path / "pcm.wav")
    assert wave.dtype == torch.float32 and -1 <= wave.min() and wave.max() <= 1
    assert torch.equal(wave, torch.from_numpy(pcm / np.float32(32768)))
    assert torch.equal(load_audio(pcm), wave)  # int16 arrays are scaled the same way


def test_file_errors_name_the_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.wav"):
        load_audio(tmp_path / "missing.wav")
    (tmp_path / "notes.wav").write_text("not audio at all\n")
    with pytest.raises(UnreadableAudioError, match="notes.wav"):
        load_audio(tmp_path / "notes.wav")
    soundfile.write(tmp_path / "empty.wav", np.zeros(0, np.float32), SAMPLE_RATE)
    with pytest.raises(ValueError, match="empty.wav.*empty"):
        load_audio(tmp_path / "empty.wav")
    soundfile.write(tmp_path / "nan.wav", np.full(800, np.nan, np.float32), SAMPLE_RATE, subtype="FLOAT")
    with pytest.raises(ValueError, match=r"nan.wav.*800 NaN.*all of them"):
        load_audio(tmp_path / "nan.wav")
    soundfile.write(tmp_path / "ok.wav", _speechlike(0.1), SAMPLE_RATE)
    with pytest.raises(ValueError, match="ok.wav.*16000 Hz.*sample_rate=8000"):
        load_audio(tmp_path / "ok.wav", sample_rate=8000)
    with pytest.raises(TypeError, match="list"):
        load_audio_batch(str(tmp_path / "ok.wav"))


def test_arrays_are_channels_first_and_say_their_rate():
    stereo = np.stack([_speechlike(0.5, seed=5), _speechlike(0.5, seed=6)])  # (2, samples)
    assert torch.allclose(load_audio(stereo), torch.from_numpy(stereo.mean(axis=0)))
    assert torch.allclose(load_audio(torch.from_numpy(stereo)), load_audio(stereo))
    with pytest.raises(ValueError, match="looks like .samples, channels.: pass its transpose"):
        load_audio(stereo.T)
    with pytest.raises(ValueError, match="ambiguous"):
        load_audio(np.zeros((64, 64), np.float32))
    at_8k = _speechlike(0.5, rate=8000)
    wave = load_audio(at_8k, sample_rate=8000)
    assert wave.shape == (2 * len(at_8k),)
    assert torch.allclose(wave, torchaudio.functional.resample(torch.from_numpy(at_8k), 8000, SAMPLE_RATE))
    with pytest.raises(ValueError, match="3 NaN.*of 8000"):
        load_audio(np.where(np.arange(8000) < 3, np.nan, 0.0))
    with pytest.raises(ValueError, match="empty"):
        load_audio(torch.zeros(2, 0))
    with pytest.raises(ValueError, match="sample_rate"):
        load_audio(at_8k, sample_rate=0)
    with pytest.raises(TypeError, match="bool"):
        load_audio(np.ones(100, dtype=bool))


@pytest.mark.skipif(not ASTERISK_SOUNDS.is_dir(), reason="Debian's asterisk-core-sounds-en-wav is not installed")
def test_real_asterisk_prompt_loads():
    path = sorted(ASTERISK_SOUNDS.glob("*.wav"))[0]
    rate = soundfile.info(path).samplerate
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wave = load_audio(path)
    assert wave.ndim == 1 and wave.dtype == torch.float32 and wave.abs().max() > 0.01
    assert abs(len(wave) - soundfile.info(path).frames * SAMPLE_RATE / rate) <= 1
    assert log_mel_spectrogram(wave).shape == (80, len(wave) // HOP_LENGTH)
