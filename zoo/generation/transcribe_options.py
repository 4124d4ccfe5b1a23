"""The options of zoo.transcribe's long-form loop (openai-whisper's transcribe options), and each window's
DecodingOptions at a temperature of the fallback schedule.

Every option is checked when the options are made, before any audio is read: its type against the annotation
(zoo.registry.check_values, as for every config), then its range; an error names the option, the value and
what was expected (TranscribeOptions.clip_timestamps=(5.0, 1.0): expected ...). A single temperature becomes a
tuple of one, clip_timestamps given as text ("5,38.5,50") a tuple of seconds.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np

from zoo.generation.whisper_decode import DecodingOptions, DecodingResult
from zoo.generation.word_timing import APPEND_PUNCTUATIONS, PREPEND_PUNCTUATIONS
from zoo.registry import ConfigError, check_ranges, check_values


def _finite(values: tuple[float, ...], least: float = 0.0) -> bool:
    return all(math.isfinite(v) and v >= least for v in values)


def _clips_in_order(seconds: tuple[float, ...]) -> bool:
    """Each (start, end) pair's end after its start (a last start alone runs to the end of the audio)."""
    return _finite(seconds) and all(end > start for start, end in zip(seconds[::2], seconds[1::2]))


@dataclass(frozen=True)
class TranscribeOptions:
    """The long-form loop's options, openai-whisper's names and defaults (each window's are DecodingOptions)."""
    temperature: tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)  # tried in turn while a window fails
    compression_ratio_threshold: float | None = 2.4  # above: too repetitive, fall back
    logprob_threshold: float | None = -1.0      # average log-prob below: fall back
    no_speech_threshold: float | None = 0.6     # P(no speech) above, with the log-prob below: silence
    condition_on_previous_text: bool = True     # prompt each window with the previous windows' tokens
    initial_prompt: str | None = None           # text before the first window
    carry_initial_prompt: bool = False          # ... and before every window
    clip_timestamps: tuple[float, ...] = ()     # s: start, end, start, ... to transcribe (() = everything)
    batch_size: int | None = None               # audios decoded together (None: all of them)
    compile: bool = False                       # the encoder and the decoder's one-token steps, compiled
    verbose: bool | None = None                 # True: print each segment
    word_timestamps: bool = False               # each segment's words timed (word_timing.py)
    prepend_punctuations: str = PREPEND_PUNCTUATIONS  # with word timestamps: joined to the next word
    append_punctuations: str = APPEND_PUNCTUATIONS    # ... to the previous word
    hallucination_silence_threshold: float | None = None  # s; with word timestamps (hallucination.py)
    one_window: bool = False  # batched long-form: each audio is a chunk of at most one window, decoded once

    def __post_init__(self):
        if isinstance(self.temperature, (int, float)) and not isinstance(self.temperature, bool):
            object.__setattr__(self, "temperature", (self.temperature,))
        elif isinstance(self.temperature, (list, np.ndarray)):
            object.__setattr__(self, "temperature", tuple(self.temperature))
        object.__setattr__(self, "clip_timestamps", _seconds(self.clip_timestamps))
        check_values(TranscribeOptions, {f.name: getattr(self, f.name) for f in fields(self)}, "TranscribeOptions")
        check_ranges(self, [
            ("temperature", lambda ts: len(ts) > 0 and _finite(ts), "one or more finite numbers >= 0"),
            ("compression_ratio_threshold", lambda _: True, "a finite number or None"),
            ("logprob_threshold", lambda _: True, "a finite number or None"),
            ("no_speech_threshold", lambda p: p is None or 0 <= p <= 1, "a probability in [0, 1] or None"),
            ("clip_timestamps", _clips_in_order, "seconds >= 0 as start,end,start,...: each end after its start"),
            ("batch_size", lambda n: n is None or n >= 1, "an int >= 1 or None"),
            ("hallucination_silence_threshold", lambda s: s is None or s > 0, "a number of seconds > 0 or None")])

    def needs_fallback(self, result: DecodingResult) -> bool:
        """Too repetitive or too unlikely, and not silence."""
        failed = ((self.compression_ratio_threshold is not None
                   and result.compression_ratio > self.compression_ratio_threshold)
                  or (self.logprob_threshold is not None and result.avg_logprob < self.logprob_threshold))
        return failed and not (self.no_speech_threshold is not None
                               and result.no_speech_prob > self.no_speech_threshold
                               and self.logprob_threshold is not None
                               and result.avg_logprob < self.logprob_threshold)

    def is_silent(self, result: DecodingResult) -> bool:
        """No speech is likely, and the text is not likely enough to keep anyway."""
        if self.no_speech_threshold is None or result.no_speech_prob <= self.no_speech_threshold:
            return False
        return self.logprob_threshold is None or result.avg_logprob <= self.logprob_threshold


def _seconds(clips):
    """clip_timestamps as a tuple: "5,38.5,50" read as seconds ("" none), a list as it is; other kinds are left
    to check_values to name."""
    if isinstance(clips, str):
        try:
            return tuple(float(t) for t in clips.split(",")) if clips.strip() else ()
        except ValueError:
            raise ConfigError(f"TranscribeOptions.clip_timestamps={clips!r}: expected seconds as "
                              "'start,end,start,...'") from None
    return tuple(clips) if isinstance(clips, (list, np.ndarray)) else clips


def fallback_temperatures(start: float, increment: float | None) -> tuple[float, ...]:
    """openai-whisper's fallback schedule (its command line's, and the audio endpoints'): start, start +
    increment, ... up to 1.0 (just start without an increment)."""
    if increment is None:
        return (start,)
    return tuple(float(t) for t in np.arange(start, 1.0 + 1e-6, increment))


def options_at(decode_options: dict, temperature: float) -> DecodingOptions:
    """One window's DecodingOptions at a temperature: beam search (beam_size, patience) at 0 only, best_of above it."""
    drop = ("beam_size", "patience") if temperature > 0 else ("best_of",)
    return DecodingOptions(**{k: v for k, v in decode_options.items() if k not in drop}, temperature=temperature)


def check_decode_options(decode_options: dict, options: TranscribeOptions) -> None:
    """The window options transcribe passes on (DecodingOptions fields), checked at every temperature of the
    schedule before any audio is read; an unknown one is named among the fields."""
    check_values(DecodingOptions, decode_options, "DecodingOptions")
    for t in options.temperature:
        options_at(decode_options, t)
