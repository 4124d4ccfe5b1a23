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
cued as openai-whisper does: by default one cue per segment (per 1000 words), its words joined unchanged
after the first is stripped, from the first word's start to the last word's end; its options
max_line_width, max_line_count, max_words_per_line and highlight_words re-flow them as its writers do
(WordOptions).
"""
from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
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


@dataclass(frozen=True)
class WordOptions:
    """openai-whisper's subtitle options for word-timed results (its CLI needs --word_timestamps True for them).
    0 or None: unset. Lines break before a word that would pass max_line_width characters; with max_line_count
    too, a cue holds that many lines (and a pause over 3 s starts a new one) instead of one cue per segment;
    max_words_per_line (without max_line_width) starts a new cue every that many words of a segment;
    highlight_words repeats each cue once per word, that word underlined (<u>word</u>), filling gaps between
    words with the plain cue."""
    max_line_width: int | None = None
    max_line_count: int | None = None
    highlight_words: bool = False
    max_words_per_line: int | None = None

    def __post_init__(self):
        for name in ("max_line_width", "max_line_count", "max_words_per_line"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be a positive number of characters, lines or words, or None; "
                                 f"got {value!r}")


def _first_start(segments: list[Mapping[str, Any]]) -> float | None:
    """The first word's start, else the first segment's (None without segments)."""
    starts = (w["start"] for s in segments for w in s["words"])
    return next(starts, segments[0]["start"] if segments else None)


def _subtitles(segments: list[Mapping[str, Any]], options: WordOptions) -> Iterator[list[dict]]:
    """Word timings grouped into cues, each word's text as printed: stripped at the start of a line, and a
    line after the first starting with a newline (openai-whisper's SubtitlesWriter.iterate_result)."""
    max_lines = options.max_line_count or None
    keep_segments = max_lines is None or not options.max_line_width
    width = options.max_line_width or DEFAULT_LINE_WIDTH
    per_cue = options.max_words_per_line or DEFAULT_WORDS_PER_CUE
    line_len, line_count, cue = 0, 1, []
    last = _first_start(segments) or 0.0
    for segment in segments:
        words = segment["words"]
        for first in range(0, len(words), per_cue):
            for i, original in enumerate(words[first:first + per_cue]):
                timing = dict(original)
                long_pause = not keep_segments and timing["start"] - last > 3.0
                has_room = line_len + len(timing["word"]) <= width
                segment_break = i == 0 and len(cue) > 0 and keep_segments
                if line_len > 0 and has_room and not long_pause and not segment_break:
                    line_len += len(timing["word"])  # the line goes on
                else:
                    timing["word"] = timing["word"].strip()
                    if segment_break or (cue and max_lines is not None and (long_pause or line_count >= max_lines)):
                        yield cue  # a new cue
                        cue, line_count = [], 1
                    elif line_len > 0:  # a new line in this cue
                        line_count += 1
                        timing["word"] = "\n" + timing["word"]
                    line_len = len(timing["word"].strip())
                cue.append(timing)
                last = timing["start"]
    if cue:
        yield cue


def _underlined(words: list[str], index: int) -> str:
    """The words joined, words[index] in <u></u> after its leading white space."""
    return "".join(re.sub(r"^(\s*)(.*)$", r"\1<u>\2</u>", word) if j == index else word
                   for j, word in enumerate(words))


def _cues(result: Result, stamp: Callable[[float], str], options: WordOptions = WordOptions()
          ) -> Iterator[tuple[str, str, str]]:
    """(start, end, text) of each vtt/srt cue, times written by `stamp`; word timings decide when the first
    segment has them."""
    segments = _segments(result)
    if not (segments and "words" in segments[0]):
        for segment in segments:
            yield stamp(segment["start"]), stamp(segment["end"]), segment["text"].strip().replace("-->", "->")
        return
    for index, segment in enumerate(segments):
        if "words" not in segment:
            raise ValueError(f"segment {index} has no 'words' while segment 0 has word timings")
    for cue in _subtitles(segments, options):
        start, end, text = stamp(cue[0]["start"]), stamp(cue[-1]["end"]), "".join(w["word"] for w in cue)
        if not options.highlight_words:
            yield start, end, text
            continue
        last, words = start, [w["word"] for w in cue]
        for i, timing in enumerate(cue):
            word_start, word_end = stamp(timing["start"]), stamp(timing["end"])
            if last != word_start:  # a gap between words: the cue without a highlight
                yield last, word_start, text
            yield word_start, word_end, _underlined(words, i)
            last = word_end


def to_txt(result: Result, options: WordOptions = WordOptions()) -> str:
    return "".join(segment["text"].strip() + "\n" for segment in _segments(result))


def to_vtt(result: Result, options: WordOptions = WordOptions()) -> str:
    cues = "".join(f"{start} --> {end}\n{text}\n\n" for start, end, text in _cues(result, format_timestamp, options))
    return "WEBVTT\n\n" + cues


def to_srt(result: Result, options: WordOptions = WordOptions()) -> str:
    def stamp(seconds: float) -> str:
        return format_timestamp(seconds, always_include_hours=True, decimal_marker=",")
    return "".join(f"{number}\n{start} --> {end}\n{text}\n\n"
                   for number, (start, end, text) in enumerate(_cues(result, stamp, options), start=1))


def to_tsv(result: Result, options: WordOptions = WordOptions()) -> str:
    rows = [f"{round(1000 * s['start'])}\t{round(1000 * s['end'])}\t{s['text'].strip().replace(chr(9), ' ')}\n"
            for s in _segments(result)]
    return "start\tend\ttext\n" + "".join(rows)


def to_json(result: Result, options: WordOptions = WordOptions()) -> str:
    return json.dumps(result)


RENDERERS = {"txt": to_txt, "vtt": to_vtt, "srt": to_srt, "tsv": to_tsv, "json": to_json}


def word_options(**options: Any) -> WordOptions:
    """openai-whisper's writer options (max_line_width, max_line_count, max_words_per_line, highlight_words)
    as WordOptions; an unknown name raises TypeError, a bad value ValueError."""
    unknown = sorted(set(options) - set(WORD_OPTIONS))
    if unknown:
        raise TypeError(f"unexpected writer options {unknown}; openai-whisper's are {list(WORD_OPTIONS)}")
    return WordOptions(**options)


def expand_formats(formats: str | Iterable[str]) -> list[str]:
    """"all", one format or several -> the formats to write, checked against FORMATS."""
    names = [formats] if isinstance(formats, str) else list(formats)
    if "all" in names:
        return list(FORMATS)
    bad = [name for name in names if name not in RENDERERS]
    if bad or not names:
        raise ValueError(f"output format(s) {bad or names} not supported: expected {list(FORMATS)} or 'all'")
    return list(dict.fromkeys(names))


def render(result: Result, fmt: str, **options: Any) -> str:
    """The text openai-whisper's `get_writer(fmt, ...)` writes for `result` (options: its word options)."""
    words = word_options(**options)
    if fmt not in RENDERERS:
        raise ValueError(f"format {fmt!r} not supported: expected one of {list(FORMATS)}")
    return RENDERERS[fmt](result, words)


def output_stem(audio_path: str | os.PathLike[str]) -> str:
    """The name outputs share: the audio file's name without its last extension (openai-whisper's rule)."""
    return os.path.splitext(os.path.basename(os.fspath(audio_path)))[0]


def write_result(result: Result, audio_path: str | os.PathLike[str], output_dir: str | os.PathLike[str],
                 formats: str | Iterable[str] = "all", **options: Any) -> list[Path]:
    """Write `result` as output_dir/<audio stem>.<format> for each format ("all": every one), atomically;
    options: openai-whisper's word options for vtt and srt (WordOptions).

    Every file is rendered before any is written, so a result one format cannot hold writes none.
    Returns the paths written, in FORMATS order for "all"."""
    words = word_options(**options)
    names = expand_formats(formats)
    stem = output_stem(audio_path)
    if not stem:
        raise ValueError(f"audio_path {os.fspath(audio_path)!r} has no file name to name the transcripts after")
    texts = {name: RENDERERS[name](result, words) for name in names}
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
