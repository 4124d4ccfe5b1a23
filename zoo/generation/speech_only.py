"""Transcribing the speech only: voice-activity detection cuts the audio down to its speech, the speech is
transcribed, and every time in the result is mapped back to the input.

    wave, time_map = keep_speech(load_audio("talk.flac"), {"min_silence_duration_ms": 500})   # vad_filter
    result = restore_times(transcribe(model, wave), time_map)
    chunks, metadata, speeches = speech_chunks(wave)                          # batched long-form:
    result = join_chunks(decoded_chunks, metadata, speeches)                   # zoo.transcribe(batch_size=)

`keep_speech` + `restore_times` are faster-whisper's `vad_filter`: the speech joined into one audio, transcribed
as usual (long-form, text carried from window to window). `speech_chunks` + `join_chunks` are faster-whisper's
`BatchedInferencePipeline`, which zoo.transcribe(one audio, batch_size=N) runs: the speech cut at pauses into
chunks of at most one window, each chunk decoded once as an audio of its own (no text carried between them),
N of them at a time.

Whisper writes text over long silences that was never said; without the silence there is nothing to
hallucinate over. The detector, its options (faster-whisper's names and defaults) and the time map are
data/vad.py's; the mapping follows faster-whisper 1.2.1's `restore_speech_timestamps`: a word's start and end
are mapped through the speech its middle falls in (a word never straddles a cut), a segment with words spans
its first word's start to its last word's end, a segment without words maps its start, and its end as an end.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import torch

from data.vad import SpeechTimeMap, VadOptions, collect_chunks, speech_timestamps, vad_options


def keep_speech(wave: torch.Tensor, vad_parameters: VadOptions | Mapping | None = None
                ) -> tuple[torch.Tensor, SpeechTimeMap | None]:
    """wave (samples,) at 16 kHz -> (its speech joined (samples',), the map of times back to wave, None where
    there is no speech: the joined audio is then empty). vad_parameters: VadOptions or a dict of its fields."""
    options = vad_options(vad_parameters)
    speeches = speech_timestamps(wave, options)
    chunks, _ = collect_chunks(wave, speeches)  # no length limit: one chunk
    return chunks[0], (SpeechTimeMap(speeches) if speeches else None)


def restore_times(result: dict, time_map: SpeechTimeMap | None) -> dict:
    """A transcribe() result on keep_speech's audio, its segment and word times mapped (in place) to the
    original audio; returned for chaining."""
    if time_map is None:
        return result
    for segment in result["segments"]:
        words = segment.get("words")
        if words:
            for word in words:
                speech = time_map.chunk_index((word["start"] + word["end"]) / 2)
                word["start"] = time_map.original_time(word["start"], speech)
                word["end"] = time_map.original_time(word["end"], speech)
            segment["start"], segment["end"] = words[0]["start"], words[-1]["end"]
        else:
            segment["start"] = time_map.original_time(segment["start"])
            segment["end"] = time_map.original_time(segment["end"], is_end=True)
    return result


CHUNK_S = 30.0  # the longest chunk of batched long-form, one Whisper window (faster-whisper's chunk_length)


def chunk_options(vad_parameters: VadOptions | Mapping | None, chunk_s: float = CHUNK_S) -> VadOptions:
    """The detector's options for batched long-form, as faster-whisper's BatchedInferencePipeline sets them:
    speeches cut at chunk_s, and with no options given, pauses from 160 ms (not 2 s) end a speech."""
    if vad_parameters is None:
        return VadOptions(max_speech_duration_s=chunk_s, min_silence_duration_ms=160)
    return dataclasses.replace(vad_options(vad_parameters), max_speech_duration_s=chunk_s)


def speech_chunks(wave: torch.Tensor, vad_parameters: VadOptions | Mapping | None = None,
                  chunk_s: float = CHUNK_S) -> tuple[list[torch.Tensor], list[dict], list[dict]]:
    """wave (samples,) at 16 kHz -> (its speech in chunks of at most chunk_s (samples_i,), their metadata (offset
    in the joined speech, duration, speeches: collect_chunks'), the speeches found (samples)); no chunk
    without speech."""
    speeches = speech_timestamps(wave, chunk_options(vad_parameters, chunk_s))
    chunks, metadata = collect_chunks(wave, speeches, max_duration_s=chunk_s)
    return (chunks, metadata, speeches) if speeches else ([], [], [])


def join_chunks(results: list[dict], metadata: list[dict], speeches: list[dict], language: str | None = None) -> dict:
    """The results of speech_chunks' chunks as one result, {"text", "segments", "language"}: every segment and
    word time in the input's seconds, the segments numbered anew; language where there are no chunks."""
    segments = []
    for result, chunk in zip(results, metadata, strict=True):
        for segment in result["segments"]:  # chunk times -> times in the joined speech
            segment["start"], segment["end"] = segment["start"] + chunk["offset"], segment["end"] + chunk["offset"]
            for word in segment.get("words", ()):
                word["start"], word["end"] = word["start"] + chunk["offset"], word["end"] + chunk["offset"]
            segments.append({**segment, "id": len(segments)})
    if speeches:
        restore_times({"segments": segments}, SpeechTimeMap(speeches))
    return {"text": "".join(segment["text"] for segment in segments), "segments": segments,
            "language": results[0]["language"] if results else language}
