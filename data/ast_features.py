"""The Audio Spectrogram Transformer's input: Kaldi log-mel filterbanks, padded or cut, normalised.

    feats = ast_features(["dog.wav", "rain.flac"])          # (2, 1024, 128), the AudioSet AST's input
    feats = ast_features(waves_8k, sample_rate=8000)        # (B, samples) arrays are resampled to 16 kHz
    logits = zoo.create_model("ast_base_audioset")(feats)

As transformers' `ASTFeatureExtractor` computes it (checked in tests/data/test_ast_features.py):
`torchaudio.compliance.kaldi.fbank` on the raw [-1, 1] waveform (not scaled to int16) with a Hann
window and Kaldi's defaults otherwise (25 ms frames every 10 ms, 512-point FFT, pre-emphasis 0.97,
DC offset removed, no dither, mel filters from 20 Hz to Nyquist, natural log of the power), then
zero frames appended or the end cut to `max_length` frames, then (x - MEAN) / (2 * STD) with the
AudioSet statistics of Gong et al. 2021 (the padding is normalised too, as there).

Inputs go through `data.audio_io.load_audio` (mono, resampled to 16 kHz, clear errors for empty,
NaN or unreadable audio). Kaldi's fbank takes one waveform at a time, so a batch is a loop of
exactly that call; the result is always batched, (B, max_length, num_mel_bins).
"""
from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import torch
import torchaudio

from data.audio_io import SAMPLE_RATE, AudioSource, load_audio

__all__ = ["SAMPLE_RATE", "NUM_MEL_BINS", "MAX_FRAMES", "FRAME_LENGTH_MS", "FRAME_SHIFT_MS", "WINDOW_SAMPLES",
           "MEAN", "STD", "ast_features", "kaldi_fbank", "pad_or_cut", "normalize"]

NUM_MEL_BINS = 128        # mel filters, 20 Hz to 8 kHz
MAX_FRAMES = 1024         # frames per model input: 10.24 s at 100 frames/s
FRAME_LENGTH_MS = 25.0    # ms: the analysis window, 400 samples at SAMPLE_RATE (16000 Hz)
FRAME_SHIFT_MS = 10.0     # ms: between frames, 160 samples
WINDOW_SAMPLES = int(SAMPLE_RATE * FRAME_LENGTH_MS / 1000)  # 400: the shortest audio that gives a frame
WINDOW = "hanning"        # Kaldi's name for the symmetric Hann window
DITHER = 0.0              # no random noise: features are deterministic
MEAN = -4.2677393         # log-mel mean over AudioSet (AST's fine-tuning statistics)
STD = 4.5689974           # log-mel standard deviation over AudioSet; normalisation divides by 2 * STD


def kaldi_fbank(wave: torch.Tensor, num_mel_bins: int = NUM_MEL_BINS) -> torch.Tensor:
    """One 16 kHz waveform (samples,) -> log-mel filterbank (frames, num_mel_bins).

    frames = 1 + (samples - 400) // 160 (Kaldi's snip_edges); audio shorter than one window is refused.
    """
    if wave.dim() != 1 or wave.shape[0] < WINDOW_SAMPLES:
        raise ValueError(f"waveform must be (samples,) with at least {WINDOW_SAMPLES} samples (one "
                         f"{FRAME_LENGTH_MS:g} ms window at {SAMPLE_RATE} Hz); got shape {tuple(wave.shape)}")
    return torchaudio.compliance.kaldi.fbank(
        wave[None], sample_frequency=SAMPLE_RATE, frame_length=FRAME_LENGTH_MS, frame_shift=FRAME_SHIFT_MS,
        window_type=WINDOW, dither=DITHER, num_mel_bins=num_mel_bins)  # (frames, num_mel_bins)


def pad_or_cut(fbank: torch.Tensor, max_length: int = MAX_FRAMES) -> torch.Tensor:
    """(frames, M) -> (max_length, M): zero frames appended at the end, or the frames past max_length dropped."""
    frames = fbank.shape[0]
    if frames >= max_length:
        return fbank[:max_length]
    return torch.cat([fbank, fbank.new_zeros(max_length - frames, fbank.shape[1])])  # (max_length, M)


def normalize(features: torch.Tensor) -> torch.Tensor:
    """AST's normalisation with the AudioSet statistics: (x - MEAN) / (2 * STD)."""
    return (features - MEAN) / (STD * 2)


def ast_features(audio: AudioSource | Sequence[AudioSource], sample_rate: int | None = None, *,
                 num_mel_bins: int = NUM_MEL_BINS, max_length: int = MAX_FRAMES,
                 normalized: bool = True) -> torch.Tensor:
    """Waveforms or audio files -> AST input features (B, max_length, num_mel_bins), float32.

    audio: a path, a 1-D waveform (samples,) (one clip, B = 1), a 2-D array or tensor (B, samples)
    (a batch of equal-length clips: rows are clips, never channels), or a list of paths and 1-D
    waveforms of any lengths. sample_rate is the rate of the arrays in Hz (default 16000); they are
    resampled to 16 kHz. normalized=False returns the padded log-mel before the AudioSet normalisation.
    """
    for name, value in (("num_mel_bins", num_mel_bins), ("max_length", max_length)):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise ValueError(f"{name} must be a positive int, got {value!r}")
    waves = [load_audio(source, sample_rate) for source in _clips(audio)]
    feats = torch.stack([pad_or_cut(kaldi_fbank(w, num_mel_bins), max_length) for w in waves])  # (B, T, M)
    return normalize(feats) if normalized else feats


def _clips(audio: AudioSource | Sequence[AudioSource]) -> list[AudioSource]:
    """Split the accepted inputs into one source per clip (paths, 1-D arrays or tensors)."""
    if isinstance(audio, (str, os.PathLike)):
        return [audio]
    if isinstance(audio, (np.ndarray, torch.Tensor)):
        if audio.ndim == 1:
            return [audio]
        if audio.ndim == 2:
            return list(audio)  # (B, samples): one row per clip
        raise ValueError(f"audio must be (samples,) or (B, samples), got shape {tuple(audio.shape)}; "
                         "mix channels to mono first (data.audio_io.load_audio does)")
    if isinstance(audio, (list, tuple)):
        if not audio:
            raise ValueError("audio is an empty list; expected at least one path or waveform")
        return list(audio)
    raise TypeError(f"audio must be a path, a waveform array or tensor, or a list of them; "
                    f"got {type(audio).__name__}")
