"""Whisper's audio features: the log-mel spectrogram, pad_or_trim, and the constants that size them.

    wave = load_audio("speech.flac")                       # mono 16 kHz float32 (samples,), see data.audio_io
    mel = log_mel_spectrogram(pad_or_trim(wave))           # (80, 3000): one 30 s encoder input
    mel = log_mel_spectrogram(wave, padding=N_SAMPLES)     # (80, frames + 3000), as whisper's transcribe slides over

Checked against openai-whisper's `whisper/audio.py` (tests/data/test_audio.py): the same STFT
(n_fft 400, hop 160, periodic Hann window, last frame dropped), power spectrum, slaney mel filters,
log10 clamped at 1e-10 and at 8 (80 dB) below the peak, then (x + 4) / 4. The mel filters are built
with torchaudio rather than read from whisper's mel_filters.npz (librosa's), and equal it to
float32 rounding. Two deliberate differences: a batch (B, samples) is clamped against each row's
own peak (whisper's single `max()` would clamp every row against the loudest one), and empty,
too-short or non-finite audio is refused with a ValueError instead of giving NaN or a torch error.
"""
from __future__ import annotations

import contextlib
import functools
import os

import numpy as np
import torch
import torch.nn.functional as F
import torchaudio

from data.audio_io import (
    SAMPLE_RATE,
    AudioSource,
    UnreadableAudioError,
    check_waveform,
    float_waveform,
    load_audio,
    load_audio_batch,
)

__all__ = ["SAMPLE_RATE", "N_FFT", "HOP_LENGTH", "CHUNK_LENGTH", "N_SAMPLES", "N_FRAMES", "FRAMES_PER_SECOND",
           "INPUT_STRIDE",
           "UnreadableAudioError", "load_audio", "load_audio_batch", "mel_filters", "log_mel_spectrogram",
           "pad_or_trim"]

N_FFT = 400  # samples: the 25 ms STFT window at SAMPLE_RATE (16000 Hz)
HOP_LENGTH = 160  # samples: 10 ms between frames
CHUNK_LENGTH = 30  # s: the length of one encoder input
N_SAMPLES = CHUNK_LENGTH * SAMPLE_RATE  # 480000 samples in a 30 s chunk
N_FRAMES = N_SAMPLES // HOP_LENGTH  # 3000 mel frames in a 30 s chunk
FRAMES_PER_SECOND = SAMPLE_RATE // HOP_LENGTH  # 100 frames per second (10 ms each)
INPUT_STRIDE = 2  # mel frames per audio token (the encoder's strided conv): one timestamp step, 20 ms
_N_FREQS = N_FFT // 2 + 1  # 201 one-sided STFT bins, 0 to 8000 Hz


def mel_filters(n_mels: int = 80, device: torch.device | str | None = None) -> torch.Tensor:
    """The slaney mel filterbank (n_mels, 201) that maps STFT power bins to mel bins (cached; do not modify).

    Whisper checkpoints use 80 bins (v1, v2) or 128 (large-v3); any positive count can be built.
    """
    if isinstance(n_mels, bool) or not isinstance(n_mels, int) or n_mels <= 0:
        raise ValueError(f"n_mels must be a positive int, got {n_mels!r} (whisper uses 80, or 128 for large-v3)")
    return _mel_filters(n_mels, torch.device(device if device is not None else "cpu"))


@functools.lru_cache(maxsize=None)
def _mel_filters(n_mels: int, device: torch.device) -> torch.Tensor:
    # torchaudio builds in the default dtype. librosa (behind whisper's npz) works in float64; building
    # in float32 instead would put the filters ~4e-6 (relative) away from it, float64 brings that to rounding.
    # The default dtype is process-wide; it is switched only for this build, once per (n_mels, device).
    with _default_dtype(torch.float64):
        fbanks = torchaudio.functional.melscale_fbanks(
            _N_FREQS, f_min=0.0, f_max=SAMPLE_RATE / 2, n_mels=n_mels, sample_rate=SAMPLE_RATE,
            norm="slaney", mel_scale="slaney")  # (201, n_mels)
    return fbanks.T.to(device=device, dtype=torch.float32).contiguous()  # (n_mels, 201)


@functools.lru_cache(maxsize=None)
def _hann_window(device: torch.device) -> torch.Tensor:
    return torch.hann_window(N_FFT, device=device)  # periodic, as torch.stft expects


@contextlib.contextmanager
def _default_dtype(dtype: torch.dtype):
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(previous)


def log_mel_spectrogram(audio: AudioSource, n_mels: int = 80, padding: int = 0,
                        device: torch.device | str | None = None) -> torch.Tensor:
    """Whisper's log-mel spectrogram: (samples,) -> (n_mels, frames), or a batch (B, samples) -> (B, n_mels, frames).

    audio: a 16 kHz float waveform (tensor or numpy array; int16/int32 PCM is scaled to [-1, 1]) or a
    path, read with load_audio (any rate, mixed to mono). frames = (samples + padding) // HOP_LENGTH.
    n_mels: 80 for whisper v1/v2 checkpoints, 128 for large-v3 (other counts work, no checkpoint uses them).
    padding: zero samples appended first (whisper's transcribe passes N_SAMPLES).
    device: where to compute and return; default the input tensor's (CPU for paths and numpy arrays).
    Returns float32; each clip's values lie within 2 below its peak (the 80 dB floor after the scaling).
    """
    wave = _waveform(audio, device)  # (samples,) or (B, samples)
    if isinstance(padding, bool) or not isinstance(padding, int) or padding < 0:
        raise ValueError(f"padding must be a number of samples >= 0, got {padding!r}")
    if padding:
        wave = F.pad(wave, (0, padding))
    if wave.shape[-1] <= N_FFT // 2:
        raise ValueError(f"audio has {wave.shape[-1]} samples (with padding); the STFT's reflect padding needs at "
                         f"least {N_FFT // 2 + 1}: pad it (pad_or_trim, or padding=)")
    filters = mel_filters(n_mels, wave.device)  # (n_mels, 201)
    stft = torch.stft(wave, N_FFT, HOP_LENGTH, window=_hann_window(wave.device),
                      return_complex=True)  # (..., 201, frames + 1)
    power = stft[..., :-1].abs() ** 2  # (..., 201, frames): whisper drops the last frame
    mel = filters @ power  # (..., n_mels, frames)
    log_spec = torch.clamp(mel, min=1e-10).log10()
    peak = log_spec.amax(dim=(-2, -1), keepdim=True)  # (..., 1, 1): each clip's own peak
    log_spec = torch.maximum(log_spec, peak - 8.0)  # floor 80 dB below the peak
    return (log_spec + 4.0) / 4.0


def _waveform(audio: AudioSource, device: torch.device | str | None) -> torch.Tensor:
    """audio as a float32 (samples,) or (B, samples) tensor on `device` (or its own), checked."""
    if isinstance(audio, (str, os.PathLike)):
        wave = load_audio(audio)  # checked there, with the file's name in any error
    else:
        wave = float_waveform(audio, "audio")
        if wave.ndim not in (1, 2):
            raise ValueError(f"audio must be a waveform (samples,) or a batch (B, samples) at {SAMPLE_RATE} Hz, "
                             f"got shape {tuple(wave.shape)}")
        check_waveform(wave, "audio")
    return wave if device is None else wave.to(device)


def pad_or_trim(array: torch.Tensor | np.ndarray, length: int = N_SAMPLES, axis: int = -1):
    """Zero-pad or cut `axis` of a tensor or numpy array to `length` (default N_SAMPLES, 30 s), as whisper does.

    Returns the same kind of array (a trimmed tensor is a view, whisper's is a copy); other axes are untouched.
    """
    if isinstance(length, bool) or not isinstance(length, int) or length < 0:
        raise ValueError(f"length must be a number of samples >= 0, got {length!r}")
    size = array.shape[axis]
    if isinstance(array, torch.Tensor):
        if size > length:
            return array.narrow(axis, 0, length)
        pad = [0, 0] * array.ndim  # F.pad lists (left, right) from the last axis backwards
        pad[2 * (array.ndim - 1 - axis % array.ndim) + 1] = length - size
        return F.pad(array, pad) if size < length else array
    if isinstance(array, np.ndarray):
        if size > length:
            return array.take(np.arange(length), axis=axis)
        widths = [(0, 0)] * array.ndim
        widths[axis] = (0, length - size)
        return np.pad(array, widths) if size < length else array
    raise TypeError(f"pad_or_trim takes a torch tensor or a numpy array, got {type(array).__name__}")
