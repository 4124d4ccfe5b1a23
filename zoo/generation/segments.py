"""Cutting one window's tokens into timed segments, as openai-whisper's `transcribe` does.

    pieces, advance = cut_segments(tokens, timestamp_begin, time_offset=12.5, window_frames=3000)

Whisper writes <|t1|> text <|t2|><|t3|> text <|t4|> ...: a segment ends at each pair of consecutive
timestamps. Where the window ends with a lone timestamp (text, then <|t|>, then EOT) nothing more is
said in it: the next window starts after all of it. Otherwise the unfinished tail is dropped and the
next window starts at the last pair's timestamp. Without any pair the whole window is one segment,
ending at its last timestamp (if any, and not <|0.00|>) or at the window's end.

Times are seconds: the window's offset plus timestamp steps x 0.02 s, computed in openai-whisper's
order so the floats are the same. Checked against openai-whisper 20250625's transcribe.py.
"""
from __future__ import annotations

from dataclasses import dataclass

from data.audio import HOP_LENGTH, SAMPLE_RATE


@dataclass(frozen=True)
class Piece:
    """One segment of a window: seconds from the start of the audio, and its tokens (timestamps included)."""
    start: float
    end: float
    tokens: list[int]


def ends_with_single_timestamp(tokens: list[int], timestamp_begin: int) -> bool:
    """Text, then one timestamp, then EOT: nothing more is said in the window."""
    return [t >= timestamp_begin for t in tokens[-2:]] == [False, True]


def cut_segments(tokens: list[int], timestamp_begin: int, *, time_offset: float, window_frames: int,
                 input_stride: int = 2) -> tuple[list[Piece], int]:
    """A window's sampled tokens (EOT excluded) -> its segments and how far the seek moves (mel frames).

    time_offset: s, where the window starts; window_frames: the mel frames of audio in it (3000, fewer
    at the end of the audio or of a clip); input_stride: mel frames per timestamp step (2: 0.02 s).
    """
    precision = input_stride * HOP_LENGTH / SAMPLE_RATE  # s per timestamp step: 0.02
    is_time = [t >= timestamp_begin for t in tokens]
    single_ending = ends_with_single_timestamp(tokens, timestamp_begin)
    cuts = [i + 1 for i in range(len(tokens) - 1) if is_time[i] and is_time[i + 1]]  # after each pair's first
    if not cuts:
        duration = window_frames * HOP_LENGTH / SAMPLE_RATE
        times = [t for t in tokens if t >= timestamp_begin]
        if times and times[-1] != timestamp_begin:  # no pair, but a timestamp: the segment ends there
            duration = (times[-1] - timestamp_begin) * precision
        return [Piece(time_offset, time_offset + duration, list(tokens))], window_frames
    if single_ending:
        cuts.append(len(tokens))
    pieces, last = [], 0
    for cut in cuts:
        piece = tokens[last:cut]
        pieces.append(Piece(time_offset + (piece[0] - timestamp_begin) * precision,
                            time_offset + (piece[-1] - timestamp_begin) * precision, piece))
        last = cut
    if single_ending:  # nothing said after the last timestamp: on to the next window
        return pieces, window_frames
    return pieces, (tokens[last - 1] - timestamp_begin) * input_stride  # to the last pair's timestamp
