"""zoo/generation/transcripts.py: every format byte for byte equal to openai-whisper's writers on the same result."""
from pathlib import Path

import pytest
from whisper.utils import format_timestamp as whisper_format_timestamp
from whisper.utils import get_writer

from zoo.generation.transcripts import FORMATS, collect_audio_files, format_timestamp, output_stem, render, write_result


def segment(i, start, end, text, **extra):
    return {"id": i, "seek": int(start * 100), "start": start, "end": end, "text": text, "tokens": [50364 + i, 11],
            "temperature": 0.0, "avg_logprob": -0.25, "compression_ratio": 1.5, "no_speech_prob": 0.01, **extra}


RESULT = {
    "text": " Grüße aus Köln. 世界 --> fin",
    "segments": [
        segment(0, 0.0, 2.5, " Grüße aus Köln, naïve café."),
        segment(1, 2.5, 59.9996, "  tabs\tinside\tthe text  "),
        segment(2, 59.9996, 61.0005, " 世界、こんにちは --> arrow"),
        segment(3, 3599.9995, 3725.5, " past an hour — ça va? "),
        segment(4, 3725.5, 36001.25, ""),
        segment(5, 36001.25, 36002.0, " 🎵 emoji and \"quotes\" \\ backslash"),
    ],
    "language": "de",
}


def word(text, start, end):
    return {"word": text, "start": start, "end": end, "probability": 0.9}


WORDS_RESULT = {
    "text": " one two three",
    "segments": [
        segment(0, 0.0, 1.5, " Hello wörld -->", words=[word(" Hello", 0.0, 0.5), word(" wörld", 0.5, 1.0),
                                                         word(" -->", 1.0, 1.5)]),
        segment(1, 1.5, 3.0, " nothing timed", words=[]),
        # 400-character words: the third would pass 1000 characters on one line, so it starts a new one
        segment(2, 3.0, 3700.0, " long", words=[word(" " + "x" * 399, 3.0, 4.0), word(" " + "y" * 399, 4.0, 5.0),
                                                word(" " + "z" * 399, 5.0, 3700.0)]),
        # more than 1000 words: openai-whisper cues each 1000 separately
        segment(3, 3700.0, 3900.0, " many", words=[word(f" w{i}", 3700 + i / 10, 3700 + i / 10 + 0.05)
                                                   for i in range(1005)]),
    ],
    "language": "en",
}


def reference_bytes(result, fmt, directory, audio="talk.flac"):
    get_writer(fmt, str(directory))(result, audio)
    return (Path(directory) / f"{Path(audio).stem}.{fmt}").read_bytes()


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("result", [RESULT, WORDS_RESULT, {"text": "", "segments": [], "language": "en"}],
                         ids=["segments", "word_timings", "empty"])
def test_each_format_equals_openai_whisper(fmt, result, tmp_path):
    (tmp_path / "ref").mkdir()
    want = reference_bytes(result, fmt, tmp_path / "ref")
    (path,) = write_result(result, "some/dir/talk.flac", tmp_path / "ours", fmt)
    assert path == tmp_path / "ours" / f"talk.{fmt}"
    assert path.read_bytes() == want
    assert render(result, fmt).encode("utf-8") == want


def test_the_result_covers_the_cases():
    """The hand-made result reaches what the formats treat specially (else the comparison proves less)."""
    srt, vtt = render(RESULT, "srt"), render(RESULT, "vtt")
    assert "00:00:00,000 --> 00:00:02,500" in srt and "\n00:00.000 --> 00:02.500\n" in vtt  # starts at 0.0
    assert "01:00:00.000 --> 01:02:05.500" in vtt and "10:00:01,250" in srt  # hours appear past an hour
    assert "->" in srt and "-->" not in srt.replace(" --> ", "") and "世界" in srt
    assert "\\u4e16\\u754c" in render(RESULT, "json")  # json escapes non-ASCII, as json.dump does
    words_srt = render(WORDS_RESULT, "srt")
    assert "Hello wörld -->" in words_srt and "\n " + "z" * 399 not in words_srt and "\n" + "z" * 399 in words_srt
    assert words_srt.count(" --> ") == 4  # segment 1 has no words: no cue; segment 3 two cues


def test_all_writes_every_format_named_after_the_audio(tmp_path):
    audio = "recordings/my.talk.v2.wav"
    paths = write_result(RESULT, audio, tmp_path / "ours", "all")
    assert [p.name for p in paths] == [f"my.talk.v2.{fmt}" for fmt in FORMATS]
    (tmp_path / "ref").mkdir()
    get_writer("all", str(tmp_path / "ref"))(RESULT, audio)
    assert sorted(p.name for p in (tmp_path / "ref").iterdir()) == sorted(p.name for p in paths)
    for path in paths:
        assert path.read_bytes() == (tmp_path / "ref" / path.name).read_bytes()
    assert write_result(RESULT, audio, tmp_path / "two", ["srt", "txt"]) == [tmp_path / "two" / "my.talk.v2.srt",
                                                                              tmp_path / "two" / "my.talk.v2.txt"]
    assert output_stem(Path("a/b.c.flac")) == "b.c" and output_stem("noext") == "noext"


@pytest.mark.parametrize("seconds", [0.0, 0.0004, 0.0005, 0.0015, 1.0, 59.9995, 59.9994, 61.0005, 3599.9995,
                                     3600.0, 3725.5, 36001.25, 359999.999, 123456.789])
def test_format_timestamp_equals_openai_whisper(seconds):
    for hours in (False, True):
        for marker in (".", ","):
            assert format_timestamp(seconds, hours, marker) == whisper_format_timestamp(seconds, hours, marker)


def test_bad_input_is_refused_and_writes_nothing(tmp_path):
    with pytest.raises(ValueError, match="non-negative"):
        format_timestamp(-0.5)
    bad = {**RESULT, "segments": RESULT["segments"] + [segment(9, -1.0, 1.0, " negative")]}
    with pytest.raises(ValueError, match="non-negative"):
        write_result(bad, "talk.wav", tmp_path, "all")
    with pytest.raises(TypeError, match="JSON serializable"):
        write_result({**RESULT, "language": {"not", "json"}}, "talk.wav", tmp_path, "all")
    assert not tmp_path.exists() or list(tmp_path.iterdir()) == []  # rendered first: no partial set of files
    with pytest.raises(ValueError, match="'segments'"):
        render({"text": "hi"}, "txt")
    with pytest.raises(ValueError, match="docx"):
        write_result(RESULT, "talk.wav", tmp_path, "docx")
    with pytest.raises(ValueError, match="no file name"):
        write_result(RESULT, "", tmp_path, "txt")


def test_collect_audio_files(tmp_path):
    for name in ("b.wav", "a.FLAC", "c.opus", "d.aiff", "e.m4a", "f.mp3", "g.ogg", "notes.txt", "h.json"):
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.wav").write_bytes(b"")
    explicit = tmp_path / "notes.txt"  # a file named on the command line is taken whatever its extension
    files = collect_audio_files([tmp_path, explicit, tmp_path / "b.wav"])
    assert [f.name for f in files] == ["a.FLAC", "b.wav", "c.opus", "d.aiff", "e.m4a", "f.mp3", "g.ogg", "notes.txt"]
    with pytest.raises(FileNotFoundError, match="missing.wav"):
        collect_audio_files([tmp_path / "missing.wav"])
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "readme.md").write_text("no audio here")
    with pytest.raises(ValueError, match="no audio files"):
        collect_audio_files([tmp_path / "empty"])
