"""Skipping silence before likely hallucinations: openai-whisper's `hallucination_silence_threshold`.

    seek, keep = skip_silence(segments, threshold=2.0, window=WindowSpan(...), seek=seek, last_speech=10.2)

Over long silence Whisper tends to invent text: words that are improbable, or very short, or very long.
With word timestamps, a window's segments are scored by their first eight words (punctuation aside); a
segment that scores as an anomaly and has silence (more than `threshold` seconds, or a window edge) on both
sides is dropped with everything after it, and the next window starts at it (past the silence); when the
window's first segment is an anomaly after more than `threshold` of silence, the whole window is dropped and
the next one starts where that segment starts. Otherwise, when the window ends in more than `threshold` of
silence after its last word, the next window starts at that word's end (else after the window).

Checked against openai-whisper 20250625's transcribe.py (word_anomaly_score, is_segment_anomaly and the
`hallucination_silence_threshold` block); tests/zoo/test_word_timestamps.py compares the segments.
"""
from __future__ import annotations

from dataclasses import dataclass

from data.audio import FRAMES_PER_SECOND, HOP_LENGTH, SAMPLE_RATE

PUNCTUATION = "\"'“¿([{-\"'.。,，!！?？:：”)]}、"  # words that are not scored (a substring test, as openai-whisper's)


@dataclass(frozen=True)
class WindowSpan:
    """Where a window sits, in mel frames: its seek, the frames of audio decoded in it, the encoder's window
    length, and the audio's frames in all."""
    seek: int
    frames: int
    window_frames: int
    content_frames: int

    @property
    def start(self) -> float:
        return float(self.seek * HOP_LENGTH / SAMPLE_RATE)  # s

    @property
    def end(self) -> float:
        """s: where the encoder's window ends (30 s on), however much audio it held."""
        return float((self.seek + self.window_frames) * HOP_LENGTH / SAMPLE_RATE)


def word_anomaly(word: dict) -> float:
    """How unlike speech one word is: improbable (< 0.15), shorter than 0.133 s, or longer than 2 s."""
    probability = word.get("probability", 0.0)
    duration = word["end"] - word["start"]
    score = 0.0
    if probability < 0.15:
        score += 1.0
    if duration < 0.133:
        score += (0.133 - duration) * 15
    if duration > 2.0:
        score += duration - 2.0
    return score


def is_anomaly(segment: dict | None) -> bool:
    """A segment whose first eight words (punctuation aside) score 3 or more, or about 1 each."""
    if segment is None or not segment["words"]:
        return False
    words = [w for w in segment["words"] if w["word"] not in PUNCTUATION][:8]
    score = sum(word_anomaly(w) for w in words)
    return score >= 3 or score + 0.01 >= len(words)


def last_end(segments: list[dict]) -> float | None:
    """The end of the last word of the segments, else of the last segment (None without segments)."""
    ends = (w["end"] for s in reversed(segments) for w in reversed(s.get("words", [])))
    return next(ends, segments[-1]["end"] if segments else None)


def _next_with_words(segments: list[dict]) -> dict | None:
    return next((s for s in segments if s["words"]), None)


def skip_silence(segments: list[dict], *, threshold: float, window: WindowSpan, seek: int, single_ending: bool,
                 last_speech: float) -> tuple[int, int | None]:
    """One window's segments (with words) -> (where the next window starts, how many of the segments to
    keep; None: drop the window's text). seek: where it would start otherwise; single_ending: the window's
    tokens end in one timestamp (nothing said after it); last_speech: s, the last word's end before it."""
    fps = FRAMES_PER_SECOND
    if not single_ending:
        end = last_end(segments)
        if end is not None and end > window.start:
            seek = round(end * fps) if window.end - end > threshold else window.seek + window.frames
    first = _next_with_words(segments)
    if first is not None and is_anomaly(first):
        gap = first["start"] - window.start
        if gap > threshold:
            return window.seek + round(gap * fps), None
    previous_end = last_speech
    for i, segment in enumerate(segments):
        if not segment["words"]:
            continue
        if is_anomaly(segment):
            following = _next_with_words(segments[i + 1:])
            next_start = (following["words"][0]["start"] if following is not None
                          else window.start + window.frames * HOP_LENGTH / SAMPLE_RATE)
            silence_before = (segment["start"] - previous_end > threshold or segment["start"] < threshold
                              or segment["start"] - window.start < 2.0)
            silence_after = (next_start - segment["end"] > threshold or is_anomaly(following)
                             or window.end - segment["end"] < 2.0)
            if silence_before and silence_after:
                seek = round(max(window.start + 1, segment["start"]) * fps)
                if window.content_frames * HOP_LENGTH / SAMPLE_RATE - segment["end"] < threshold:
                    seek = window.content_frames
                return seek, i
        previous_end = segment["end"]
    return seek, len(segments)
