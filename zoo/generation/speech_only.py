"""Transcribing the speech only (faster-whisper's `vad_filter`): voice-activity detection cuts the audio down to
its speech, the speech is transcribed as one audio, and every time in the result is mapped back to the input.

    wave, time_map = keep_speech(load_audio("talk.flac"), {"min_silence_duration_ms": 500})
    result = restore_times(transcribe(model, wave), time_map)

Whisper writes text over long silences that was never said; without the silence there is nothing to
hallucinate over. The detector, its options (faster-whisper's names and defaults) and the time map are
data/vad.py's; the mapping follows faster-whisper 1.2.1's `restore_speech_timestamps`: a word's start and end
are mapped through the speech its middle falls in (a word never straddles a cut), a segment with words spans
its first word's start to its last word's end, a segment without words maps its start, and its end as an end.
"""
from __future__ import annotations

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
