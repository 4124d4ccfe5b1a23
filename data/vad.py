"""Voice-activity detection: Silero VAD v6 in torch, speech timestamps, and cutting audio down to its speech.

    probs = speech_probabilities(wave)                        # (frames,): one per 32 ms frame of 16 kHz audio
    speeches = speech_timestamps(wave, {"min_silence_duration_ms": 500})   # [{"start", "end"}] in samples
    chunks, metadata = collect_chunks(wave, speeches, max_duration_s=30)   # speech only, joined up to 30 s
    time_map = SpeechTimeMap(speeches)
    time_map.original_time(12.3)                              # a time in the joined audio -> the input's time

The network is Silero VAD v6 (https://github.com/snakers4/silero-vad), ported to torch: each 32 ms frame
(512 samples, led by the last 64 samples of the frame before) goes through a magnitude STFT (a fixed
convolution), four convolutions and an LSTM cell whose state runs across frames, then a sigmoid. The
encoder sees one frame at a time, so all frames are encoded at once and only the LSTM steps through them.
The weights are read from the `silero_vad.jit` that the PyPI package `silero-vad` ships (6.0 and 6.1 hold
the weights of faster-whisper 1.2.1's `silero_vad_v6.onnx`; 6.2 retrained them and its safetensors file
holds older ones); the package itself is never imported. tests/data/test_vad.py checks that the
probabilities equal, within 1e-5, the package's `silero_vad.onnx` and faster-whisper's `silero_vad_v6.onnx`
run by onnxruntime.

`speech_timestamps` is faster-whisper 1.2.1's `get_speech_timestamps` (faster_whisper/vad.py, itself
adapted from silero-vad's): the same options (`VadOptions`, with its names and defaults) and the same
chunks on the same audio. One difference at the very end of the audio, where faster-whisper frames it
differently from silero-vad: it always appends at least one padding sample (a whole silent frame when the
length is a multiple of 512) and zeroes the last 64 samples of its padded audio (real samples when the last
frame holds more than 448); here the audio is framed as silero-vad frames it (ceil(samples / 512) frames,
the last one zero-padded). Only speech still open when the audio ends can see a difference.

`collect_chunks` and `SpeechTimeMap` are faster-whisper's `collect_chunks` and `SpeechTimestampsMap`
(`get_original_time`): transcribe the speech alone, then map every time back to the input audio.
"""
from __future__ import annotations

import bisect
import contextlib
import dataclasses
import difflib
import functools
import importlib.util
import math
import numbers
import os
import warnings
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from data.audio_io import SAMPLE_RATE, check_waveform, float_waveform

FRAME_SAMPLES = 512  # 32 ms at 16 kHz: the model gives one probability per frame
CONTEXT_SAMPLES = 64  # each frame is led by the last 64 samples of the frame before (zeros for the first)
STATE_SIZE = 128  # the LSTM's hidden and cell width
N_FFT, HOP = 256, 128  # the model's STFT, as a fixed (258, 1, 256) convolution: 129 real rows, 129 imaginary
WEIGHTS_FILE = "silero_vad.jit"  # in the silero-vad package's data folder (its safetensors file holds others)
FRAMES_PER_CALL = 8192  # frames encoded at once (262 s of audio, about 20 MB of frames): bounds the memory
MAX_SILENCE_AT_SPLIT_MS = 98  # a chunk longer than max_speech_duration_s is split at a silence this long


# ----------------------------------------------------------------------------- options


@dataclasses.dataclass(frozen=True)
class VadOptions:
    """faster-whisper's VAD options, with its names and defaults.

    threshold: a frame whose speech probability is at least this is speech.
    neg_threshold: inside speech, a frame below this is silence (None: max(threshold - 0.15, 0.01));
        frames between the two thresholds continue whatever came before.
    min_speech_duration_ms: speech shorter than this is dropped.
    max_speech_duration_s: longer speech is split at its last silence of at least 98 ms, or else
        just before this length.
    min_silence_duration_ms: speech ends only after this much silence.
    speech_pad_ms: each speech chunk is widened by this much on both sides (up to half the gap
        to its neighbour).
    Values out of range raise a ValueError naming the option; `vad_options` also checks a dict's keys.
    """

    threshold: float = 0.5
    neg_threshold: float | None = None
    min_speech_duration_ms: float = 0
    max_speech_duration_s: float = float("inf")
    min_silence_duration_ms: float = 2000
    speech_pad_ms: float = 400

    def __post_init__(self):
        _check_number("threshold", self.threshold, "a probability in [0, 1]", lambda v: 0 <= v <= 1)
        if self.neg_threshold is not None:
            _check_number("neg_threshold", self.neg_threshold, "None or a probability in [0, 1]",
                          lambda v: 0 <= v <= 1)
        for name in ("min_speech_duration_ms", "min_silence_duration_ms", "speech_pad_ms"):
            _check_number(name, getattr(self, name), "a finite number >= 0", lambda v: 0 <= v < math.inf)
        _check_number("max_speech_duration_s", self.max_speech_duration_s, "a number of seconds > 0 (or inf)",
                      lambda v: v > 0)

    @property
    def silence_threshold(self) -> float:
        """neg_threshold, or faster-whisper's default for it."""
        return max(self.threshold - 0.15, 0.01) if self.neg_threshold is None else self.neg_threshold


VAD_PARAMETERS = tuple(field.name for field in dataclasses.fields(VadOptions))


def _check_number(name: str, value, expected: str, in_range) -> None:
    is_number = isinstance(value, numbers.Real) and not isinstance(value, bool)
    if not is_number or math.isnan(value) or not in_range(value):
        raise ValueError(f"VAD parameter {name!r} must be {expected}; got {value!r}")


def vad_options(parameters: VadOptions | Mapping | None = None) -> VadOptions:
    """VadOptions from None (the defaults), a VadOptions, or a dict by faster-whisper's names.

    A dataclass with those fields (faster-whisper's own VadOptions) is read as a dict. An unknown key
    raises a ValueError that lists the known ones; a value out of range raises one naming the key.
    """
    if parameters is None:
        return VadOptions()
    if isinstance(parameters, VadOptions):
        return parameters
    if dataclasses.is_dataclass(parameters) and not isinstance(parameters, type):
        parameters = dataclasses.asdict(parameters)
    if not isinstance(parameters, Mapping):
        raise TypeError(f"vad_parameters must be a dict or a VadOptions, got {type(parameters).__name__}")
    for key in parameters:
        if key not in VAD_PARAMETERS:
            close = difflib.get_close_matches(str(key), VAD_PARAMETERS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"unknown VAD parameter {key!r}{hint}; expected one of {', '.join(VAD_PARAMETERS)}")
    return VadOptions(**parameters)


# ----------------------------------------------------------------------------- the network


class SileroVad(nn.Module):
    """Silero VAD v6 for 16 kHz audio: frames (F, 576) -> speech probabilities (F,).

    A frame is CONTEXT_SAMPLES of the previous frame then FRAME_SAMPLES of its own. The encoder sees each
    frame alone, so all frames are encoded at once; only the LSTM runs across them, from `state`.
    """

    def __init__(self):
        super().__init__()
        self.stft = nn.Conv1d(1, N_FFT + 2, N_FFT, stride=HOP, bias=False)  # real and imaginary rows
        self.encoder = nn.ModuleList([
            nn.Conv1d(N_FFT // 2 + 1, 128, 3, padding=1),
            nn.Conv1d(128, 64, 3, stride=2, padding=1),
            nn.Conv1d(64, 64, 3, stride=2, padding=1),
            nn.Conv1d(64, STATE_SIZE, 3, padding=1),
        ])
        self.lstm = nn.LSTM(STATE_SIZE, STATE_SIZE)
        self.head = nn.Linear(STATE_SIZE, 1)

    def encode(self, frames: torch.Tensor) -> torch.Tensor:
        """(F, 576) -> (F, 128): each frame on its own."""
        # Reflection padding on the right, written as a cat: F.pad(mode="reflect") is ~100x slower here.
        tail = frames[:, -CONTEXT_SAMPLES - 1:-1].flip(-1)  # (F, 64): the samples before the last, reversed
        x = torch.cat([frames, tail], dim=1)  # (F, 640)
        spectrum = self.stft(x[:, None])  # (F, 258, 4)
        real, imag = spectrum.chunk(2, dim=1)
        x = torch.sqrt(real ** 2 + imag ** 2)  # (F, 129, 4): magnitudes
        for conv in self.encoder:
            x = torch.relu(conv(x))  # time 4 -> 4 -> 2 -> 1 -> 1
        return x.squeeze(-1)  # (F, 128)

    def forward(self, frames: torch.Tensor, state: tuple[torch.Tensor, torch.Tensor] | None = None):
        """(F, 576) frames -> ((F,) probabilities, (h, c) each (1, 1, 128)) after the last frame."""
        features = self.encode(frames)
        hidden, state = self.lstm(features[:, None], state)  # (F, 1, 128): the frames are the sequence
        probabilities = torch.sigmoid(self.head(torch.relu(hidden))).flatten()  # (F,)
        return probabilities, state


def silero_weights_path() -> Path:
    """The silero-vad package's TorchScript model, found without importing the package (its import sets
    torch's thread count to 1)."""
    spec = importlib.util.find_spec("silero_vad")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("voice-activity detection reads Silero VAD v6's weights from the PyPI package "
                          "silero-vad, which is not installed: pip install silero-vad")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / WEIGHTS_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path}: expected Silero VAD's weights in the silero-vad package, not there")
    return path


def load_silero_vad(path: str | os.PathLike | None = None) -> SileroVad:
    """Silero VAD v6 (16 kHz) from silero's TorchScript file (default: the silero-vad package's), in eval mode.

    Only the file's tensors are used; its scripted code is never called.
    """
    path = silero_weights_path() if path is None else Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file (expected Silero VAD's silero_vad.jit)")
    with warnings.catch_warnings():  # torch 2.10 deprecates TorchScript; the file is read for its tensors
        warnings.simplefilter("ignore", DeprecationWarning)
        scripted = torch.jit.load(path, map_location="cpu")
    state = {key.removeprefix("_model."): value for key, value in scripted.state_dict().items()
             if key.startswith("_model.")}  # "_model_8k." is the 8 kHz network
    renames = {"stft.forward_basis_buffer": "stft.weight", "decoder.decoder.2.bias": "head.bias",
               **{f"encoder.{i}.reparam_conv.{p}": f"encoder.{i}.{p}" for i in range(4) for p in ("weight", "bias")},
               **{f"decoder.rnn.{p}": f"lstm.{p}_l0" for p in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")}}
    ours = {renames.get(key, key): value for key, value in state.items()}
    if "decoder.decoder.2.weight" in ours:
        ours["head.weight"] = ours.pop("decoder.decoder.2.weight").squeeze(-1)  # a 1x1 conv: (1, 128)
    model = SileroVad()
    expected = model.state_dict()
    if ours.keys() != expected.keys() or any(ours[k].shape != expected[k].shape for k in expected):
        got = {k: tuple(v.shape) for k, v in state.items()}
        raise ValueError(f"{path}: expected Silero VAD v6's 16 kHz network (_model.stft, encoder.0-3, "
                         f"decoder.rnn, decoder.decoder.2); got {got}")
    model.load_state_dict(ours)
    return model.eval()


@functools.lru_cache(maxsize=1)
def _default_model() -> SileroVad:
    return load_silero_vad()


# ----------------------------------------------------------------------------- probabilities and timestamps


def _waveform(audio: np.ndarray | torch.Tensor, sample_rate: int) -> torch.Tensor:
    if sample_rate != SAMPLE_RATE:
        raise ValueError(f"voice-activity detection takes {SAMPLE_RATE} Hz audio; got sample_rate={sample_rate} "
                         "(resample it, e.g. with data.audio_io.load_audio(audio, sample_rate=...))")
    wave = float_waveform(audio, "audio")
    if wave.ndim != 1:
        raise ValueError(f"audio must be one 16 kHz channel (samples,); got shape {tuple(wave.shape)}")
    if wave.numel():
        check_waveform(wave, "audio")
    return wave.cpu()


def frames_of(wave: torch.Tensor) -> torch.Tensor:
    """(samples,) -> (ceil(samples / 512), 576): each frame led by the previous frame's last 64 samples."""
    count = -(-wave.numel() // FRAME_SAMPLES)
    if count == 0:
        return wave.new_zeros(0, CONTEXT_SAMPLES + FRAME_SAMPLES)
    padded = F.pad(wave, (CONTEXT_SAMPLES, count * FRAME_SAMPLES - wave.numel()))
    return padded.unfold(0, CONTEXT_SAMPLES + FRAME_SAMPLES, FRAME_SAMPLES)  # (F, 576), a view


@torch.inference_mode()
def speech_probabilities(audio: np.ndarray | torch.Tensor, model: SileroVad | None = None,
                         sample_rate: int = SAMPLE_RATE) -> torch.Tensor:
    """Silero VAD's speech probability of each 32 ms frame of 16 kHz audio (samples,) -> (frames,).

    frames = ceil(samples / 512); the last frame is zero-padded. model: default Silero VAD v6 from the
    silero-vad package (loaded once). Runs on the CPU, on one thread (torch's thread count is restored).
    """
    model = _default_model() if model is None else model
    frames = frames_of(_waveform(audio, sample_rate))
    chunks, state = [], None
    with _one_thread():
        for first in range(0, len(frames), FRAMES_PER_CALL):
            probabilities, state = model(frames[first:first + FRAMES_PER_CALL], state)
            chunks.append(probabilities)
    return torch.cat(chunks) if chunks else torch.zeros(0)


@contextlib.contextmanager
def _one_thread():
    """torch on one intra-op thread, then as it was. The LSTM steps through thousands of (1, 128) x (128, 512)
    products, each too small to share: on 2 busy cores 300 s of audio took 4-10 s on 2 threads, 0.1 s on one
    (the whole model: 0.5 s, against 1 s for faster-whisper's onnxruntime on one thread)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def speech_timestamps(audio: np.ndarray | torch.Tensor, options: VadOptions | Mapping | None = None,
                      model: SileroVad | None = None, sample_rate: int = SAMPLE_RATE) -> list[dict]:
    """The speech in 16 kHz audio (samples,): [{"start": sample, "end": sample}], as faster-whisper's
    `get_speech_timestamps` finds it. options: VadOptions or a dict of its fields (see vad_options)."""
    options = vad_options(options)
    wave = _waveform(audio, sample_rate)
    probabilities = speech_probabilities(wave, model).tolist()
    return timestamps_from_probabilities(probabilities, wave.numel(), options)


def timestamps_from_probabilities(probabilities, num_samples: int, options: VadOptions) -> list[dict]:
    """Speech chunks [{"start", "end"}] in samples from per-frame probabilities of audio num_samples long."""
    speeches = _find_speech(probabilities, num_samples, options)
    return _pad_speech(speeches, num_samples, SAMPLE_RATE * options.speech_pad_ms / 1000)


def _find_speech(probabilities, num_samples: int, options: VadOptions) -> list[dict]:
    """Unpadded speech chunks: a frame at or above threshold opens one; it closes after min_silence of
    frames below neg_threshold, or is split when it grows past max_speech."""
    rate = SAMPLE_RATE
    pad = rate * options.speech_pad_ms / 1000
    min_speech = rate * options.min_speech_duration_ms / 1000
    min_silence = rate * options.min_silence_duration_ms / 1000
    max_speech = rate * options.max_speech_duration_s - FRAME_SAMPLES - 2 * pad  # room for the padding
    split_silence = rate * MAX_SILENCE_AT_SPLIT_MS / 1000
    speaking = options.threshold
    silent = options.silence_threshold

    speeches: list[dict] = []
    start = None  # the open chunk's first sample, None outside speech
    silence_start = 0  # where the current run of silence inside speech began (0: none)
    split_end = 0  # the end of the last silence long enough to split at (0: none)
    resume = 0  # where speech resumed after that silence
    for index, probability in enumerate(probabilities):
        position = index * FRAME_SAMPLES
        if probability >= speaking and silence_start:
            silence_start = 0
            if resume < split_end:
                resume = position
        if probability >= speaking and start is None:
            start = position
            continue
        if start is not None and position - start > max_speech:
            if split_end:  # split at the last long-enough silence, and go on from where speech resumed
                speeches.append({"start": start, "end": split_end})
                start = None if resume < split_end else resume
                split_end = resume = silence_start = 0
            else:  # no such silence: cut here
                speeches.append({"start": start, "end": position})
                start, split_end, resume, silence_start = None, 0, 0, 0
                continue
        if probability < silent and start is not None:
            silence_start = silence_start or position
            if position - silence_start > split_silence:
                split_end = silence_start
            if position - silence_start < min_silence:
                continue
            if silence_start - start > min_speech:
                speeches.append({"start": start, "end": silence_start})
            start, split_end, resume, silence_start = None, 0, 0, 0
    if start is not None and num_samples - start > min_speech:
        speeches.append({"start": start, "end": num_samples})
    return speeches


def _pad_speech(speeches: list[dict], num_samples: int, pad: float) -> list[dict]:
    """Widen each chunk by pad samples on both sides; neighbours closer than 2 * pad meet halfway."""
    if speeches:
        speeches[0]["start"] = int(max(0, speeches[0]["start"] - pad))
    for speech, following in zip(speeches, speeches[1:]):
        gap = following["start"] - speech["end"]
        if gap < 2 * pad:
            speech["end"] = int(speech["end"] + gap // 2)
            following["start"] = int(max(0, following["start"] - gap // 2))
        else:
            speech["end"] = int(min(num_samples, speech["end"] + pad))
            following["start"] = int(max(0, following["start"] - pad))
    if speeches:
        speeches[-1]["end"] = int(min(num_samples, speeches[-1]["end"] + pad))
    return speeches


# ----------------------------------------------------------------------------- speech-only audio and its times


def collect_chunks(audio: np.ndarray | torch.Tensor, speeches: list[dict], max_duration_s: float = math.inf,
                   sample_rate: int = SAMPLE_RATE) -> tuple[list[torch.Tensor], list[dict]]:
    """Cut the speeches out of audio (samples,) and join them, in order, into chunks of at most
    max_duration_s (a speech longer than that is a chunk of its own). Returns the chunks (samples_i,)
    and for each {"offset", "duration", "segments"}: where the chunk starts in the joined audio and
    its length, in seconds, and the speeches it holds.

    faster-whisper joins everything (max_duration_s=inf) for transcribe(vad_filter=True) and makes
    30 s chunks for BatchedInferencePipeline; either way times in the joined audio (offset + time in
    the chunk) map back to the input with SpeechTimeMap(speeches). With no speech: one empty chunk.
    Unlike faster-whisper's, no chunk is empty when the first speech is too long, and "segments"
    lists every speech of its chunk (faster-whisper's omits the first of each chunk after the first).
    """
    wave = _waveform(audio, sample_rate)
    limit = max_duration_s * sample_rate
    groups: list[list[dict]] = []
    length = 0  # samples in the last group
    for speech in speeches:
        size = speech["end"] - speech["start"]
        if not groups or length + size > limit:
            groups.append([])
            length = 0
        groups[-1].append(speech)
        length += size
    chunks, metadata, offset = [], [], 0
    for group in groups or [[]]:
        chunk = torch.cat([wave[s["start"]:s["end"]] for s in group]) if group else wave[:0]
        chunks.append(chunk)
        metadata.append({"offset": offset / sample_rate, "duration": chunk.numel() / sample_rate,
                         "segments": group})
        offset += chunk.numel()
    return chunks, metadata


class SpeechTimeMap:
    """Maps a time in the joined speech (collect_chunks) back to the original audio.

    speeches: speech_timestamps' [{"start", "end"}] in samples, in order. faster-whisper's
    SpeechTimestampsMap; original_time is its get_original_time, chunk_index its get_chunk_index.
    """

    def __init__(self, speeches: list[dict], sample_rate: int = SAMPLE_RATE, precision: int | None = 2):
        self.sample_rate = sample_rate
        self.precision = precision  # decimals of the returned seconds (None: unrounded)
        self.joined_ends = []  # each speech's end, in samples of the joined audio
        self.silence_before = []  # seconds of audio dropped before each speech
        dropped, previous_end = 0, 0
        for speech in speeches:
            dropped += speech["start"] - previous_end
            previous_end = speech["end"]
            self.joined_ends.append(speech["end"] - dropped)
            self.silence_before.append(dropped / sample_rate)

    def chunk_index(self, time: float, is_end: bool = False) -> int:
        """The speech that a time (s) in the joined audio falls in. A time on the boundary of two speeches
        belongs to the later one, or to the earlier one when it is an end (is_end=True)."""
        sample = int(time * self.sample_rate)
        find = bisect.bisect_left if is_end else bisect.bisect_right
        return min(find(self.joined_ends, sample), len(self.joined_ends) - 1)

    def original_time(self, time: float, chunk_index: int | None = None, is_end: bool = False) -> float:
        """A time (s) in the joined audio -> the same moment (s) in the original audio. chunk_index: the
        speech it belongs to (default: chunk_index(time, is_end)); a word's start and end take the one of
        its middle, so that a word never straddles a cut."""
        if not self.silence_before:
            raise ValueError("SpeechTimeMap has no speech: there is no time to map")
        index = self.chunk_index(time, is_end) if chunk_index is None else chunk_index
        original = self.silence_before[index] + time
        return original if self.precision is None else round(original, self.precision)
