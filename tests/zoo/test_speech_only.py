"""zoo/generation/speech_only.py: keep_speech cuts audio to its speech; restore_times maps a transcription of it
back to the input's times exactly as faster-whisper's restore_speech_timestamps does."""
import copy

import pytest
import torch
from faster_whisper.transcribe import Segment, Word, restore_speech_timestamps

import zoo
from data.audio import SAMPLE_RATE
from data.speech import SPEECH_TINY, load_manifest, load_row_audio
from data.vad import speech_timestamps
from zoo.generation.speech_only import keep_speech, restore_times

SPEECHES = [{"start": 8000, "end": 40000}, {"start": 520000, "end": 560000}, {"start": 600000, "end": 700000}]


def _result() -> dict:
    """A transcription of the joined speech (0-10.25 s): segments with words across the cuts, and without."""
    words = [{"word": " one", "start": 0.1, "end": 0.9, "probability": 0.9},
             {"word": " two", "start": 1.9, "end": 2.2, "probability": 0.8},   # its middle after the first cut
             {"word": " three", "start": 4.4, "end": 5.1, "probability": 0.7}]  # across the second cut
    return {"text": "x", "language": "en", "segments": [
        {"id": 0, "seek": 0, "start": 0.0, "end": 2.2, "text": " one two", "tokens": [1], "words": words[:2]},
        {"id": 1, "seek": 0, "start": 4.4, "end": 5.1, "text": " three", "tokens": [2], "words": words[2:]},
        {"id": 2, "seek": 0, "start": 2.0, "end": 4.5, "text": " four", "tokens": [3]},
        {"id": 3, "seek": 0, "start": 6.0, "end": 8.5, "text": " five", "tokens": [4]}]}


def _faster_whispers(result: dict) -> list[Segment]:
    segments = []
    for s in result["segments"]:
        words = [Word(w["start"], w["end"], w["word"], w["probability"]) for w in s.get("words", [])] or None
        segments.append(Segment(s["id"], s["seek"], s["start"], s["end"], s["text"], s["tokens"], 0.0, 1.0, 0.0,
                                words, 0.0))
    return list(restore_speech_timestamps(segments, SPEECHES, SAMPLE_RATE))


def test_times_map_back_as_faster_whisper_maps_them():
    from data.vad import SpeechTimeMap

    result = restore_times(_result(), SpeechTimeMap(SPEECHES))
    want = _faster_whispers(_result())
    for ours, theirs in zip(result["segments"], want, strict=True):
        assert (ours["start"], ours["end"]) == pytest.approx((theirs.start, theirs.end), abs=1e-9)
        for w, t in zip(ours.get("words", []), theirs.words or [], strict=True):
            assert (w["start"], w["end"]) == pytest.approx((t.start, t.end), abs=1e-9)
    # " two" has its middle in the second speech: 0.5 s before the first and 30 s between them were cut out
    assert result["segments"][0]["words"][1]["start"] == pytest.approx(1.9 + 30.5)


def test_without_speech_nothing_moves():
    result = _result()
    assert restore_times(copy.deepcopy(result), None) == result
    wave, time_map = keep_speech(torch.zeros(5 * SAMPLE_RATE))
    assert wave.numel() == 0 and time_map is None


def test_keep_speech_joins_the_speech_of_real_recordings_around_silence():
    folder = SPEECH_TINY / "asr"
    first, second = (load_row_audio(folder, row) for row in load_manifest(folder, split="human")[:2])
    wave = torch.cat([first, torch.zeros(30 * SAMPLE_RATE), second])
    joined, time_map = keep_speech(wave)
    speeches = speech_timestamps(wave)
    assert joined.numel() == sum(s["end"] - s["start"] for s in speeches) < first.numel() + second.numel() + SAMPLE_RATE
    assert time_map.original_time(joined.numel() / SAMPLE_RATE - 0.01, is_end=True) > 30.0  # the second is late
    with pytest.raises(ValueError, match="treshold"):
        keep_speech(wave, {"treshold": 0.5})



def test_batched_long_form_equals_the_chunks_decoded_one_by_one():
    """zoo.transcribe(one long audio, batch_size=N): its speech cut at pauses into chunks of at most one window,
    each decoded once (one window, its segments from seek 0), N at a time, the same as one at a time, with words
    too; times back on the input's clock. The recordings twice over, 2 s pauses between them."""
    from data.vad import collect_chunks
    from tests.helpers import tiny_openai_whisper
    from zoo.generation.speech_only import chunk_options

    folder = SPEECH_TINY / "asr"
    recordings = [load_row_audio(folder, row) for row in load_manifest(folder, split="human")] * 2
    pause = torch.zeros(2 * SAMPLE_RATE)
    wave = torch.cat([part for recording in recordings for part in (recording, pause)])
    _, model = tiny_openai_whisper(51865, eot_scale=20)
    options = dict(temperature=0.0, sample_len=24, language="en", compression_ratio_threshold=None,
                   logprob_threshold=None, no_speech_threshold=None)
    got = zoo.transcribe(model, wave, batch_size=3, **options)
    alone = zoo.transcribe(model, wave, batch_size=1, **options)
    exact = lambda result: [(s["text"], s["tokens"], s["start"], s["end"]) for s in result["segments"]]  # noqa: E731
    assert exact(got) == exact(alone) and got["text"] == alone["text"] and len(got["segments"]) >= 3
    for g, a in zip(got["segments"], alone["segments"]):  # a batch's padding moves the scores by rounding only
        assert g["avg_logprob"] == pytest.approx(a["avg_logprob"], abs=1e-4)
    chunks, _ = collect_chunks(wave, speech_timestamps(wave, chunk_options(None)), max_duration_s=30.0)
    assert len(chunks) >= 3 and all(c.numel() <= 30 * SAMPLE_RATE for c in chunks)
    assert {s["seek"] for s in got["segments"]} == {0}  # one window per chunk
    assert [s["id"] for s in got["segments"]] == list(range(len(got["segments"]))) and got["language"] == "en"
    worded = zoo.transcribe(model, wave, batch_size=3, word_timestamps=True, **options)
    # as openai-whisper, a segment that word timing makes instantaneous loses its text; the rest stays
    assert [s["start"] for s in worded["segments"]] and len(worded["segments"]) == len(got["segments"])
    assert all(s["words"][0]["start"] == s["start"] for s in worded["segments"] if s.get("words"))
    with pytest.raises(ValueError, match="min_silence_duration_ms"):
        zoo.transcribe(model, wave, batch_size=2, vad_parameters={"min_silence_duration_ms": -1})
    silent = zoo.transcribe(model, torch.zeros(40 * SAMPLE_RATE), batch_size=2, **options)
    assert silent == {"text": "", "segments": [], "language": "en"}


def test_vad_filter_on_audio_without_speech_gives_no_segments():
    """No speech found: an empty result (it used to fail on the empty waveform), beside an audio with some."""
    from tests.helpers import gated_chirp, tiny_openai_whisper

    model = tiny_openai_whisper(51865, eot_scale=12)[1]
    options = dict(language="en", vad_filter=True, sample_len=8, temperature=0.0, compression_ratio_threshold=None,
                   logprob_threshold=None, no_speech_threshold=None)
    empty = {"text": "", "segments": [], "language": "en"}
    assert zoo.transcribe(model, torch.zeros(5 * SAMPLE_RATE), **options) == empty
    speech = load_row_audio(SPEECH_TINY / "asr", load_manifest(SPEECH_TINY / "asr", split="human")[0])
    both = zoo.transcribe(model, [gated_chirp(3), speech], **options)
    assert both[0] == empty and both[1] == zoo.transcribe(model, speech, **options) and both[1]["segments"]


@pytest.mark.parametrize("noise", [0.0, 0.003])
def test_vad_filter_leaves_nothing_in_thirty_seconds_of_silence(whisper_base_ct2, noise):
    """Real speech, 30 s of silence (or low noise), real speech, on the real Whisper base: with vad_filter no
    segment and no word falls in the silent span, and the text is the speech's transcribed alone."""
    model = zoo.load_directory(whisper_base_ct2).eval()
    folder = SPEECH_TINY / "asr"
    first, second = (load_row_audio(folder, row) for row in load_manifest(folder, split="human")[:2])
    quiet = noise * torch.randn(30 * SAMPLE_RATE, generator=torch.Generator().manual_seed(0))
    wave = torch.cat([first, quiet, second])
    got = zoo.transcribe(model, wave, vad_filter=True, word_timestamps=True, language="en")
    gap = (first.numel() / SAMPLE_RATE + 0.5, (first.numel() + quiet.numel()) / SAMPLE_RATE - 0.5)
    times = [(s["start"], s["end"]) for s in got["segments"]]
    times += [(w["start"], w["end"]) for s in got["segments"] for w in s["words"]]
    assert times and not [t for t in times if gap[0] < t[0] < gap[1] or gap[0] < t[1] < gap[1]]
    speech, _ = keep_speech(wave)
    assert got["text"] == zoo.transcribe(model, speech, language="en")["text"]
    assert got["segments"][-1]["end"] > gap[1]  # the second recording keeps its place after the silence
