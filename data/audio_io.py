"""Audio files and arrays into the waveform every speech model here takes: mono, 16 kHz, float32.

    wave = load_audio("prompt.wav")                 # any file soundfile reads: wav, flac, ogg, mp3, aiff...
    wave = load_audio(array_8k, sample_rate=8000)   # an array says its rate; it is resampled
    waves = load_audio_batch(["a.flac", "b.wav"])   # a list of (samples,) tensors, lengths as they are

Files are decoded by soundfile (libsndfile), never by torchaudio's loader (it needs torchcodec).
Channels are mixed to mono by their mean, then resampled with `torchaudio.functional.resample`
(windowed sinc). openai-whisper's `load_audio` instead pipes the file through the ffmpeg CLI,
which quantises to int16 and uses ffmpeg's own resampler and down-mix matrix, so the waveforms
agree closely but not bit for bit.

Arrays: 1-D is (samples,); 2-D is (channels, samples), the torch/torchaudio layout. A 2-D array
with more than MAX_CHANNELS rows, or no more samples than channels, is refused rather than
guessed (soundfile's own (samples, channels) layout is the usual mistake: pass its transpose).
Integer PCM arrays (int8/int16/int32) are scaled to [-1, 1] as soundfile does for files.

Bad input raises, naming the file or argument: a missing path (FileNotFoundError), a file
libsndfile cannot decode (UnreadableAudioError, a ValueError), no samples, NaN or infinite
samples (ValueError, with how many).
"""
from __future__ import annotations

import os
import warnings
from collections.abc import Sequence

import numpy as np
import soundfile
import torch
import torchaudio

PathLike = str | os.PathLike
AudioSource = PathLike | np.ndarray | torch.Tensor

SAMPLE_RATE = 16000  # Hz: the rate of every waveform load_audio returns
MAX_CHANNELS = 32  # a 2-D array (channels, samples) with more rows than this is not taken as channels
_PCM_SCALE = {"int8": 2.0 ** 7, "int16": 2.0 ** 15, "int32": 2.0 ** 31}  # full scale of signed PCM
_RATES_NOTED: set[int] = set()  # file rates already reported as resampled (once per process per rate)


class UnreadableAudioError(ValueError):
    """An audio file that libsndfile cannot decode (the message names it and gives libsndfile's reason)."""


def load_audio(source: AudioSource, sample_rate: int | None = None) -> torch.Tensor:
    """A path, numpy array or tensor as a mono 16 kHz float32 waveform (samples,).

    sample_rate is the rate of an array input in Hz (default SAMPLE_RATE); it is resampled to
    SAMPLE_RATE. A file states its own rate: a non-16 kHz file is resampled and that is said once
    per process per rate (a UserWarning); sample_rate=, if given for a file, must agree with it.
    The result lives on the input tensor's device (CPU for files and numpy arrays).
    """
    if isinstance(source, (str, os.PathLike)):
        return _load_file(source, sample_rate)
    if isinstance(source, (np.ndarray, torch.Tensor)):
        rate = SAMPLE_RATE if sample_rate is None else _check_rate(sample_rate, "sample_rate")
        wave = float_waveform(source, "audio array")
        if wave.ndim not in (1, 2):
            raise ValueError(f"audio array must be (samples,) or (channels, samples), got shape {tuple(wave.shape)}")
        check_waveform(wave, "audio array")
        if wave.ndim == 2:
            _check_channels_first(wave.shape, "audio array")
        return _resample(_to_mono(wave), rate)
    raise TypeError(f"load_audio: expected a path, a numpy array or a torch tensor, got {type(source).__name__}")


def load_audio_batch(sources: Sequence[AudioSource], sample_rate: int | None = None) -> list[torch.Tensor]:
    """load_audio for each path or array of a list: mono 16 kHz float32 tensors (samples_i,), unpadded."""
    if isinstance(sources, (str, os.PathLike, np.ndarray, torch.Tensor)):
        raise TypeError(f"load_audio_batch takes a list of paths or arrays, got one {type(sources).__name__}; "
                        "use load_audio for a single one")
    return [load_audio(source, sample_rate) for source in sources]


# ----------------------------------------------------------------------------- checks shared with data.audio


def float_waveform(array: np.ndarray | torch.Tensor, what: str) -> torch.Tensor:
    """array as a float32 tensor (same device): floats are cast, int8/16/32 PCM is scaled to [-1, 1]."""
    if isinstance(array, np.ndarray):
        name, is_float = array.dtype.name, array.dtype.kind == "f"
        if is_float or name in _PCM_SCALE:
            array = torch.from_numpy(np.ascontiguousarray(array, dtype=np.float32))
    elif isinstance(array, torch.Tensor):
        name, is_float = str(array.dtype).removeprefix("torch."), array.is_floating_point()
    else:
        raise TypeError(f"{what} must be a numpy array or a torch tensor, got {type(array).__name__}")
    if not (is_float or name in _PCM_SCALE):
        raise TypeError(f"{what} has dtype {name}; expected floating point samples or int8/int16/int32 PCM")
    wave = array.float()
    return wave if is_float else wave / _PCM_SCALE[name]


def check_waveform(wave: torch.Tensor, what: str) -> None:
    """Refuse a waveform with no samples, or with NaN or infinite ones (saying how many)."""
    if wave.numel() == 0:
        raise ValueError(f"{what} is empty: 0 samples (shape {tuple(wave.shape)})")
    total = wave.numel()
    for label, bad in (("NaN", torch.isnan(wave)), ("infinite", torch.isinf(wave))):
        count = int(bad.sum())
        if count:
            share = "all of them" if count == total else f"of {total}"
            raise ValueError(f"{what} has {count} {label} sample(s) ({share}); expected finite samples")


# ----------------------------------------------------------------------------- internals


def _load_file(path: PathLike, sample_rate: int | None) -> torch.Tensor:
    name = os.fspath(path)
    what = f"audio file {name!r}"
    if not os.path.exists(name):
        raise FileNotFoundError(f"{what} does not exist")
    if os.path.isdir(name):
        raise IsADirectoryError(f"{what} is a directory; expected an audio file")
    try:
        samples, rate = soundfile.read(name, dtype="float32", always_2d=True)  # (samples, channels)
    except (soundfile.SoundFileError, RuntimeError) as error:
        raise UnreadableAudioError(f"cannot read {what} as audio: {error}") from error
    if sample_rate is not None and _check_rate(sample_rate, "sample_rate") != rate:
        raise ValueError(f"{what} is at {rate} Hz but sample_rate={sample_rate} was given; a file's rate is read "
                         f"from the file (sample_rate= is for arrays) and resampled to {SAMPLE_RATE} Hz")
    wave = torch.from_numpy(samples.T.copy())  # (channels, samples)
    check_waveform(wave, what)
    if rate != SAMPLE_RATE and rate not in _RATES_NOTED:
        _RATES_NOTED.add(rate)
        warnings.warn(f"{what} is at {rate} Hz: resampling to {SAMPLE_RATE} Hz "
                      f"(said once for each rate)", stacklevel=3)
    return _resample(_to_mono(wave), rate)


def _check_rate(rate: int, what: str) -> int:
    if isinstance(rate, bool) or not float(rate).is_integer() or rate <= 0:
        raise ValueError(f"{what} must be a positive whole number of Hz, got {rate!r}")
    return int(rate)


def _check_channels_first(shape: torch.Size, what: str) -> None:
    channels, samples = shape
    if channels <= MAX_CHANNELS and channels < samples:
        return
    hint = ("; it looks like (samples, channels): pass its transpose"
            if samples <= MAX_CHANNELS and samples < channels else "")
    raise ValueError(f"{what} of shape {tuple(shape)} is ambiguous: a 2-D array must be (channels, samples) "
                     f"with at most {MAX_CHANNELS} channels and more samples than channels{hint}")


def _to_mono(wave: torch.Tensor) -> torch.Tensor:
    return wave.mean(dim=0) if wave.ndim == 2 else wave  # (channels, samples) -> (samples,)


def _resample(wave: torch.Tensor, rate: int) -> torch.Tensor:
    if rate == SAMPLE_RATE:
        return wave.contiguous()
    return torchaudio.functional.resample(wave, rate, SAMPLE_RATE).contiguous()  # (samples * 16000 / rate,)
