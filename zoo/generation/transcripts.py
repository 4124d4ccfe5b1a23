"""Transcripts on disk: the txt, vtt, srt, tsv and json files openai-whisper's CLI writes, and the audio files
a transcription run reads.

    write_result(result, "talk.flac", "out", "all")   # out/talk.txt, talk.vtt, talk.srt, talk.tsv, talk.json
    text = render(result, "srt")                        # the same bytes as a string
    files = collect_audio_files(["talk.flac", "recordings/"])

`result` is what `zoo.transcribe` (and openai-whisper's `transcribe`) returns: {"text", "segments":
[{"start", "end", "text", ...}], "language"}. Every format is byte for byte what openai-whisper's
`whisper.utils.get_writer(format, output_dir)` writes for the same result (tests/zoo/test_transcripts.py
compares them), file name included: the audio file's name without its last extension, plus the format's.
Differences: files are written atomically (temp file, fsync, rename) and always in UTF-8, and a result
that cannot be rendered (a negative time, a value json cannot hold) leaves no half-written file behind.

Formats:
- txt: each segment's text, stripped, one per line.
- vtt: "WEBVTT", then per segment "MM:SS.mmm --> MM:SS.mmm" (hours "HH:" only past an hour) and its text.
- srt: numbered cues from 1, "HH:MM:SS,mmm --> HH:MM:SS,mmm" (hours always) and the text.
- tsv: a "start end text" header, times in integer milliseconds, tabs in the text turned into spaces.
- json: `json.dumps(result)` (ASCII, non-ASCII characters escaped).
In vtt and srt a segment's text is stripped and "-->" (the cue separator) becomes "->". Segments that carry
word timings ("words": [{"word", "start", "end"}, ...], as openai-whisper's word_timestamps=True gives) are
cued as openai-whisper does by default: one cue per segment (per 1000 words), its words joined unchanged
after the first is stripped, from the first word's start to the last word's end. openai-whisper's options
that re-flow those words (max_line_width, max_line_count, max_words_per_line, highlight_words) are not
implemented: passing one raises NotImplementedError.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from zoo.io import atomic_write_text

FORMATS = ("txt", "vtt", "srt", "tsv", "json")  # "all" writes these, in this order (openai-whisper's)
AUDIO_EXTENSIONS = frozenset({".wav", ".flac", ".ogg", ".mp3", ".m4a", ".opus", ".aiff"})
WORD_OPTIONS = ("max_line_width", "max_line_count", "max_words_per_line", "highlight_words")
# openai-whisper breaks a line of word-timed text past this many characters when max_line_width is unset,
# and starts a new cue after this many words when max_words_per_line is unset.
DEFAULT_LINE_WIDTH = 1000
DEFAULT_WORDS_PER_CUE = 1000

Result = Mapping[str, Any]


def format_timestamp(seconds: float, always_include_hours: bool = False, decimal_marker: str = ".") -> str:
    """[HH:]MM:SS.mmm of a time in seconds, rounded to the millisecond (round half to even, as Python's round).

    Hours appear when always_include_hours or when the time reaches an hour; decimal_marker separates the
    milliseconds ("," in srt)."""
    if not seconds >= 0:
        raise ValueError(f"timestamp must be a non-negative number of seconds, got {seconds!r}")
    total_ms = round(seconds * 1000.0)
    hours, rest = divmod(total_ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    whole, ms = divmod(rest, 1000)
    prefix = f"{hours:02d}:" if always_include_hours or hours > 0 else ""
    return f"{prefix}{minutes:02d}:{whole:02d}{decimal_marker}{ms:03d}"


def _segments(result: Result) -> list[Mapping[str, Any]]:
    if not isinstance(result, Mapping) or "segments" not in result:
        got = sorted(result) if isinstance(result, Mapping) else type(result).__name__
        raise ValueError(f"result must be a transcription dict with 'segments' (zoo.transcribe's), got {got}")
    return result["segments"]


def _word_cue_text(words: list[Mapping[str, Any]]) -> str:
    """Words joined as spoken; a line that would pass DEFAULT_LINE_WIDTH characters starts on a new one.
    A line's first word is stripped (and so is every word while the line is still empty)."""
    text, line_len = "", 0
    for timing in words:
        word = timing["word"]
        if line_len > 0 and line_len + len(word) <= DEFAULT_LINE_WIDTH:
            text, line_len = text + word, line_len + len(word)
        else:
            word = word.strip()
            text, line_len = text + ("\n" if line_len > 0 else "") + word, len(word)
    return text


def _cues(result: Result) -> Iterator[tuple[float, float, str]]:
    """(start s, end s, text) of each vtt/srt cue; word timings decide when the first segment has them."""
    segments = _segments(result)
    if not (segments and "words" in segments[0]):
        for segment in segments:
            yield segment["start"], segment["end"], segment["text"].strip().replace("-->", "->")
        return
    for index, segment in enumerate(segments):
        if "words" not in segment:
            raise ValueError(f"segment {index} has no 'words' while segment 0 has word timings")
        words = segment["words"]
        for first in range(0, len(words), DEFAULT_WORDS_PER_CUE):
            chunk = words[first:first + DEFAULT_WORDS_PER_CUE]
            yield chunk[0]["start"], chunk[-1]["end"], _word_cue_text(chunk)


def to_txt(result: Result) -> str:
    return "".join(segment["text"].strip() + "\n" for segment in _segments(result))


def to_vtt(result: Result) -> str:
    cues = "".join(f"{format_timestamp(start)} --> {format_timestamp(end)}\n{text}\n\n"
                   for start, end, text in _cues(result))
    return "WEBVTT\n\n" + cues


def to_srt(result: Result) -> str:
    def stamp(seconds: float) -> str:
        return format_timestamp(seconds, always_include_hours=True, decimal_marker=",")
    return "".join(f"{number}\n{stamp(start)} --> {stamp(end)}\n{text}\n\n"
                   for number, (start, end, text) in enumerate(_cues(result), start=1))


def to_tsv(result: Result) -> str:
    rows = [f"{round(1000 * s['start'])}\t{round(1000 * s['end'])}\t{s['text'].strip().replace(chr(9), ' ')}\n"
            for s in _segments(result)]
    return "start\tend\ttext\n" + "".join(rows)


def to_json(result: Result) -> str:
    return json.dumps(result)


RENDERERS = {"txt": to_txt, "vtt": to_vtt, "srt": to_srt, "tsv": to_tsv, "json": to_json}


def check_word_options(**options: Any) -> None:
    """Refuse openai-whisper's word re-flow options unless they are at their defaults (None / False)."""
    unknown = sorted(set(options) - set(WORD_OPTIONS))
    if unknown:
        raise TypeError(f"unexpected writer options {unknown}; openai-whisper's are {list(WORD_OPTIONS)}")
    given = {name: value for name, value in options.items() if value}
    if given:
        raise NotImplementedError(f"writer options {given} are not implemented: subtitles keep one cue per "
                                  "segment, as openai-whisper's writers do when these are unset")


def expand_formats(formats: str | Iterable[str]) -> list[str]:
    """"all", one format or several -> the formats to write, checked against FORMATS."""
    names = [formats] if isinstance(formats, str) else list(formats)
    if "all" in names:
        return list(FORMATS)
    bad = [name for name in names if name not in RENDERERS]
    if bad or not names:
        raise ValueError(f"output format(s) {bad or names} not supported: expected {list(FORMATS)} or 'all'")
    return list(dict.fromkeys(names))


def render(result: Result, fmt: str, **word_options: Any) -> str:
    """The text openai-whisper's `get_writer(fmt, ...)` writes for `result`."""
    check_word_options(**word_options)
    if fmt not in RENDERERS:
        raise ValueError(f"format {fmt!r} not supported: expected one of {list(FORMATS)}")
    return RENDERERS[fmt](result)


def output_stem(audio_path: str | os.PathLike[str]) -> str:
    """The name outputs share: the audio file's name without its last extension (openai-whisper's rule)."""
    return os.path.splitext(os.path.basename(os.fspath(audio_path)))[0]


def write_result(result: Result, audio_path: str | os.PathLike[str], output_dir: str | os.PathLike[str],
                 formats: str | Iterable[str] = "all", **word_options: Any) -> list[Path]:
    """Write `result` as output_dir/<audio stem>.<format> for each format ("all": every one), atomically.

    Every file is rendered before any is written, so a result one format cannot hold writes none.
    Returns the paths written, in FORMATS order for "all"."""
    check_word_options(**word_options)
    names = expand_formats(formats)
    stem = output_stem(audio_path)
    if not stem:
        raise ValueError(f"audio_path {os.fspath(audio_path)!r} has no file name to name the transcripts after")
    texts = {name: RENDERERS[name](result) for name in names}
    paths = []
    for name, text in texts.items():
        path = Path(output_dir) / f"{stem}.{name}"
        atomic_write_text(path, text)
        paths.append(path)
    return paths


def collect_audio_files(sources: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Files as given (whatever their extension); a directory becomes the audio files directly inside it
    (by extension, case-insensitive: AUDIO_EXTENSIONS), sorted by name. Not recursive.

    Raises FileNotFoundError for a path that does not exist, ValueError for a directory with no audio."""
    files: list[Path] = []
    for source in sources:
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in AUDIO_EXTENSIONS)
            if not found:
                raise ValueError(f"directory {str(path)!r} holds no audio files (looked for "
                                 f"{', '.join(sorted(AUDIO_EXTENSIONS))})")
            files.extend(found)
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"audio path {str(path)!r} does not exist")
    return list(dict.fromkeys(files))


def clashing_outputs(audio_files: Iterable[str | os.PathLike[str]]) -> dict[str, list[str]]:
    """Output stems that more than one of the files would write (a.wav and a.flac both write a.txt)."""
    by_stem: dict[str, list[str]] = {}
    for audio in audio_files:
        by_stem.setdefault(output_stem(audio), []).append(os.fspath(audio))
    return {stem: paths for stem, paths in by_stem.items() if len(paths) > 1}
