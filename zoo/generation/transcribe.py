"""Long-form transcription with Whisper: openai-whisper's `transcribe` on our model, one audio or a batch.

    result = zoo.transcribe(model, "talk.flac")               # {"text", "segments": [...], "language"}
    results = zoo.transcribe(model, [wave, "b.flac"])         # a list: the audios decode together

The audio's log-mel, padded with 30 s of silence, is read in 30 s windows from a seek position (mel
frames). The language is detected on the first window when none is given (multilingual models). Each
window is decoded (whisper_decode.decode) after a prompt of the previous windows' tokens; a result
that is too repetitive (compression ratio) or too unlikely (average log-prob) is decoded again at the
next temperature, unless it looks like silence (no-speech probability); a silent window is skipped;
the others are cut into segments at timestamp pairs (segments.py) and the seek moves on to the last
timestamp, or past the window. After a temperature above 0.5, or always without
condition_on_previous_text, the next prompt starts afresh.

A list of audios decodes as a batch: each audio has its own seek, clips, language, prompt and
fallback state; every step decodes the current window of up to `batch_size` of them at once (the
encoder runs once per window, whatever the fallbacks), the rows that need a fallback decode again
together at the next temperature, and an audio that is done makes room for the next. Greedy and beam
decoding give each audio what it gets alone; sampled fallbacks draw from the one generator in another
order than file by file.

With word_timestamps, each window's words are aligned once its segments are cut (word_timing.py; the
batch's windows in one decoder pass); the segments' times move to their words, the next window starts at the
last word's end (unless the window ended in a lone timestamp), and hallucination_silence_threshold may drop
text after long silence and move the seek (hallucination.py).

The options (TranscribeOptions, and each window's DecodingOptions at every temperature) are checked before any
audio is read (transcribe_options.py): one error naming the option.

Checked against openai-whisper 20250625's transcribe.py (tests/zoo/test_transcribe.py,
test_word_timestamps.py): the same segments, times, tokens, text and words on the same weights.
Differences: verbose=True prints the segments only, no fp16 option (the model's dtype decides), a clip that
ends past the audio ends with it (openai-whisper may loop on an empty window).
"""
from __future__ import annotations

import os
import warnings
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from data.audio import (
    FRAMES_PER_SECOND,
    HOP_LENGTH,
    INPUT_STRIDE,
    N_FRAMES,
    SAMPLE_RATE,
    log_mel_spectrogram,
    pad_or_trim,
)
from data.audio_io import load_audio
from data.vad import VadOptions, vad_options
from data.whisper_tokenizer import WhisperTokenizer
from zoo.generation.hallucination import WindowSpan, last_end, skip_silence
from zoo.generation.segments import cut_segments, ends_with_single_timestamp
from zoo.generation.session import evaluating
from zoo.generation.speech_only import join_chunks, keep_speech, restore_times, speech_chunks
from zoo.generation.transcribe_options import TranscribeOptions, check_decode_options, options_at
from zoo.generation.whisper_decode import DecodingResult, audio_features, decode, default_tokenizer, detect_language
from zoo.generation.word_timing import (
    APPEND_PUNCTUATIONS,
    PREPEND_PUNCTUATIONS,
    WindowText,
    WordTiming,
    align_words,
    alignment_heads,
    place_words,
)

AudioInput = str | os.PathLike | np.ndarray | torch.Tensor


@dataclass
class Window:
    """One decoded window of a transcript on its way in: its segments (None: dropped), and where the seek
    goes next."""
    transcript: Transcript
    result: DecodingResult
    seek: int                          # mel frame where the window starts
    frames: int                        # mel frames of audio in it
    segments: list[dict] | None
    next_seek: int
    single_ending: bool                # its tokens end in one timestamp: nothing said after it

    def text(self, tokenizer: WhisperTokenizer, task: str) -> WindowText:
        """What aligning its words needs: every segment's text tokens, in order."""
        tokens = [t for segment in self.segments for t in segment["tokens"] if t < tokenizer.eot]
        language = self.transcript.language
        return WindowText(self.result.audio_features, tokens, tokenizer.sot_sequence(language, task), self.frames,
                          language)


class Transcript:
    """One audio's way through the loop: its mel, the seek (in which clip), its tokens and segments so far.

    mel (n_mels, frames + window_frames), as log_mel_spectrogram(audio, padding=window_frames * HOP_LENGTH)
    gives it; window_frames is the encoder's input length (N_FRAMES, 30 s, for openai's checkpoints).
    """

    def __init__(self, mel: torch.Tensor, language: str, clip_timestamps: tuple[float, ...],
                 initial_prompt: list[int], window_frames: int = N_FRAMES):
        self.mel, self.language, self.window_frames = mel, language, window_frames
        self.frames = mel.shape[-1] - window_frames  # of audio, without the padding
        points = [round(t * FRAMES_PER_SECOND) for t in clip_timestamps] or [0]
        if len(points) % 2:
            points.append(self.frames)
        self.clips = [(start, min(end, self.frames)) for start, end in zip(points[::2], points[1::2])]
        self.clip, self.seek = 0, self.clips[0][0]
        self.initial = list(initial_prompt)
        self.tokens = list(initial_prompt)  # the initial prompt, then every segment's tokens
        self.reset_since = 0  # the prompt takes tokens from here on
        self.segments: list[dict] = []
        self.last_speech = 0.0  # s: the end of the last word so far (word timestamps)

    def next_window(self) -> int | None:
        """Move the seek into the next clip where the current one is done; the frames of audio in the
        window at the seek (window_frames, fewer at the end of a clip), or None when every clip is done."""
        while self.clip < len(self.clips):
            start, end = self.clips[self.clip]
            self.seek = max(self.seek, start)
            if self.seek < end:
                return min(self.window_frames, self.frames - self.seek, end - self.seek)
            self.clip += 1
            if self.clip < len(self.clips):
                self.seek = self.clips[self.clip][0]
        return None

    def window(self, frames: int) -> torch.Tensor:
        """The (n_mels, window_frames) encoder input at the seek: `frames` of audio, zero-padded."""
        return pad_or_trim(self.mel[:, self.seek:self.seek + frames], self.window_frames)

    def prompt(self, carry_initial: bool, room: int) -> list[int]:
        """The tokens before this window: since the last reset, the initial prompt first if carried (then
        the last `room` others)."""
        if not carry_initial:
            return self.tokens[self.reset_since:]
        ignored = max(len(self.initial), self.reset_since)
        return self.initial + self.tokens[ignored:][-room:]

    def cut(self, result: DecodingResult, frames: int, tokenizer: WhisperTokenizer, input_stride: int) -> Window:
        """A window's result (not silent) cut into segments at its timestamps; nothing is kept yet."""
        offset = float(self.seek * HOP_LENGTH / SAMPLE_RATE)  # s
        pieces, advance = cut_segments(result.tokens, tokenizer.timestamp_begin, time_offset=offset,
                                       window_frames=frames, input_stride=input_stride)
        segments = [{"seek": self.seek, "start": piece.start, "end": piece.end,
                     "text": tokenizer.decode([t for t in piece.tokens if t < tokenizer.eot]), "tokens": piece.tokens,
                     "temperature": result.temperature, "avg_logprob": result.avg_logprob,
                     "compression_ratio": result.compression_ratio, "no_speech_prob": result.no_speech_prob}
                    for piece in pieces]
        return Window(self, result, self.seek, frames, segments, self.seek + advance,
                      ends_with_single_timestamp(result.tokens, tokenizer.timestamp_begin))

    def time_words(self, window: Window, timings: list[WordTiming], options: TranscribeOptions, eot: int) -> None:
        """Give the window's segments their words, then move its next seek to its last word's end (unless the
        window ended in one timestamp) and skip silence before likely hallucinations, as openai-whisper."""
        span = WindowSpan(window.seek, window.frames, self.window_frames, self.frames)
        place_words(window.segments, timings, eot=eot, time_offset=span.start, last_speech=self.last_speech,
                    prepend_punctuations=options.prepend_punctuations,
                    append_punctuations=options.append_punctuations)
        if not window.single_ending:
            end = last_end(window.segments)
            if end is not None and end > span.start:
                window.next_seek = round(end * FRAMES_PER_SECOND)
        if options.hallucination_silence_threshold is not None:
            window.next_seek, keep = skip_silence(
                window.segments, threshold=options.hallucination_silence_threshold, window=span,
                seek=window.next_seek, single_ending=window.single_ending, last_speech=self.last_speech)
            if keep is None:  # the window's text is dropped: a likely hallucination after silence
                window.segments = None
                return
            del window.segments[keep:]
        end = last_end(window.segments)
        if end is not None:
            self.last_speech = end

    def add(self, window: Window, options: TranscribeOptions) -> list[dict]:
        """Keep a window's segments (instantaneous or textless ones cleared) and move the seek; the new segments.
        With one_window the audio is done after its first window, as faster-whisper's batched pipeline decodes a
        chunk once (openai-whisper's seek would give the tail after the last timestamp or word a window of its
        own)."""
        self.seek = self.frames if options.one_window else window.next_seek
        if window.segments is None:
            return []
        new = []
        for i, segment in enumerate(window.segments, start=len(self.segments)):
            if segment["start"] == segment["end"] or segment["text"].strip() == "":
                segment.update(text="", tokens=[], **({"words": []} if "words" in segment else {}))
            new.append({"id": i, **segment})
        self.segments += new
        self.tokens += [t for segment in new for t in segment["tokens"]]
        if not options.condition_on_previous_text or window.result.temperature > 0.5:
            self.reset_since = len(self.tokens)  # no prompt from text sampled that hot
        return new

    def result(self, tokenizer: WhisperTokenizer) -> dict:
        return {"text": tokenizer.decode(self.tokens[len(self.initial):]), "segments": self.segments,
                "language": self.language}


def decode_with_fallback(model: nn.Module, mels: torch.Tensor, rows: list[dict], options: TranscribeOptions,
                         tokenizer: WhisperTokenizer, generator: torch.Generator | None = None
                         ) -> list[DecodingResult]:
    """Windows (B, n_mels, window frames), each with its decoding options (a dict of DecodingOptions fields
    without the temperature) -> each one's result at the first temperature where it does not fail."""
    features = audio_features(model, mels, options.compile)  # (B, N, D): the encoder once, for every temperature
    results: list = [None] * len(rows)
    todo = list(range(len(rows)))
    for temperature in options.temperature:
        found = decode(model, features[todo], [options_at(rows[i], temperature) for i in todo], tokenizer,
                       generator=generator, compile=options.compile)
        for i, result in zip(todo, found):
            results[i] = result
        todo = [i for i, result in zip(todo, found) if options.needs_fallback(result)]
        if not todo:
            break
    return results


class Transcriber:
    """The loop over a list of audios: up to batch_size at a time, each window decoded as one batch."""

    def __init__(self, model: nn.Module, options: TranscribeOptions, decode_options: dict,
                 tokenizer: WhisperTokenizer, generator: torch.Generator | None):
        self.model, self.options, self.decode_options = model, options, decode_options
        self.tokenizer, self.generator = tokenizer, generator
        # The encoder's window: 30 s (3000 mel frames) for openai's checkpoints, shorter for a model trained
        # on shorter clips (whisper_micro: 10 s). Timestamps keep their 20 ms step: one audio token.
        self.window_frames = INPUT_STRIDE * model.config.audio_ctx
        self.input_stride = INPUT_STRIDE
        prompt = options.initial_prompt
        self.initial_prompt = tokenizer.encode(" " + prompt.strip()) if prompt is not None else []
        self.room = model.max_positions // 2 - 1 - len(self.initial_prompt)  # prompt tokens after a carried one

    def start(self, audios: list[AudioInput]) -> list[Transcript]:
        """Each audio's mel (padded with 30 s) and language: given, or detected on the first windows together."""
        padding = self.window_frames * HOP_LENGTH  # samples: the last window is read whole
        mels = [log_mel_spectrogram(audio, self.model.config.n_mels, padding=padding) for audio in audios]
        language = self.decode_options.get("language")
        languages = [language or "en"] * len(mels)
        if language is None and self.tokenizer.multilingual:
            _, probs = detect_language(self.model, torch.stack([pad_or_trim(m, self.window_frames) for m in mels]),
                                       self.tokenizer)
            languages = [max(p, key=p.get) for p in probs]
        return [Transcript(m, lang, self.options.clip_timestamps, self.initial_prompt, self.window_frames)
                for m, lang in zip(mels, languages)]

    def step(self, windows: list[tuple[Transcript, int]]) -> None:
        """Decode each transcript's current window (with its frames of audio) together and take the results;
        with word timestamps, the windows' words align together too."""
        mels = torch.stack([transcript.window(frames) for transcript, frames in windows])  # (B, n_mels, window)
        rows = [{**self.decode_options, "language": t.language,
                 "prompt": t.prompt(self.options.carry_initial_prompt, self.room)} for t, _ in windows]
        results = decode_with_fallback(self.model, mels, rows, self.options, self.tokenizer, self.generator)
        spoken = []
        for (transcript, frames), result in zip(windows, results):
            if self.options.is_silent(result):
                transcript.seek += frames
            else:
                spoken.append(transcript.cut(result, frames, self.tokenizer, self.input_stride))
        if self.options.word_timestamps and spoken:
            task = self.decode_options.get("task", "transcribe")
            timings = align_words(self.model, self.tokenizer, [w.text(self.tokenizer, task) for w in spoken])
            for window, words in zip(spoken, timings):
                window.transcript.time_words(window, words, self.options, self.tokenizer.eot)
        for window in spoken:
            for segment in window.transcript.add(window, self.options):
                if self.options.verbose:
                    print(f"[{segment['start']:.3f} --> {segment['end']:.3f}] {segment['text']}")

    def run(self, audios: list[AudioInput]) -> list[dict]:
        """Every audio's {"text", "segments", "language"}, in order. With verbose=False, a progress bar over
        the audio's frames, as openai-whisper shows."""
        waiting, active, done = deque(enumerate(audios)), [], [None] * len(audios)
        limit = self.options.batch_size or len(audios)
        progress = FrameProgress(self.options.verbose is not False)
        while waiting or active:
            joining = [waiting.popleft() for _ in range(min(limit - len(active), len(waiting)))]
            if joining:
                active += zip([i for i, _ in joining], progress.add(self.start([audio for _, audio in joining])))
            windows, still = [], []
            for index, transcript in active:
                frames = transcript.next_window()
                if frames is None:
                    done[index] = transcript.result(self.tokenizer)
                    progress.finish(transcript)
                else:
                    windows.append((transcript, frames))
                    still.append((index, transcript))
            active = still
            if windows:
                self.step(windows)
            progress.show()
        progress.close()
        return done


class FrameProgress:
    """A tqdm bar over the mel frames of every audio started so far (openai-whisper's verbose=False bar): each
    audio counts up to its seek, and whole once it is done (a clip may end before the audio does)."""

    def __init__(self, disable: bool):
        self.bar = tqdm(total=0, unit="frames", disable=disable)
        self.transcripts: list[Transcript] = []
        self.finished: set[int] = set()

    def add(self, transcripts: list[Transcript]) -> list[Transcript]:
        self.transcripts += transcripts
        self.bar.total += sum(t.frames for t in transcripts)
        self.bar.refresh()
        return transcripts

    def finish(self, transcript: Transcript) -> None:
        self.finished.add(id(transcript))

    def show(self) -> None:
        covered = sum(t.frames if id(t) in self.finished else min(t.seek, t.frames) for t in self.transcripts)
        self.bar.update(covered - self.bar.n)

    def close(self) -> None:
        self.bar.close()


def _audio_list(audio) -> tuple[list[AudioInput], bool]:
    """(the audios, whether a list was given); each a path or a 16 kHz waveform (samples,)."""
    many = isinstance(audio, (list, tuple))
    audios = list(audio) if many else [audio]
    for i, a in enumerate(audios):
        if isinstance(a, (np.ndarray, torch.Tensor)) and a.ndim != 1:
            where = f"audio[{i}]" if many else "audio"
            raise ValueError(f"{where} has shape {tuple(a.shape)}: expected one {SAMPLE_RATE} Hz waveform "
                             "(samples,); pass a list of them for several audios")
        if not isinstance(a, (str, os.PathLike, np.ndarray, torch.Tensor)):
            raise TypeError(f"audio must be a path, a {SAMPLE_RATE} Hz waveform (numpy array or tensor) or a "
                            f"list of them; got {type(a).__name__}")
    return audios, many


@torch.inference_mode()
def transcribe(model: nn.Module, audio: AudioInput | list[AudioInput], *, tokenizer: WhisperTokenizer | None = None,
               verbose: bool | None = None,
               temperature: float | tuple[float, ...] = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0),
               compression_ratio_threshold: float | None = 2.4, logprob_threshold: float | None = -1.0,
               no_speech_threshold: float | None = 0.6, condition_on_previous_text: bool = True,
               initial_prompt: str | None = None, carry_initial_prompt: bool = False,
               word_timestamps: bool = False, prepend_punctuations: str = PREPEND_PUNCTUATIONS,
               append_punctuations: str = APPEND_PUNCTUATIONS, clip_timestamps: str | list[float] = "0",
               hallucination_silence_threshold: float | None = None,
               batch_size: int | None = None, vad_filter: bool = False,
               vad_parameters: VadOptions | Mapping | None = None, generator: torch.Generator | None = None,
               compile: bool = False, **decode_options) -> dict | list[dict]:
    """Transcribe (or translate) audio of any length: openai-whisper's `transcribe`, same options and result.

    audio: a path, a 16 kHz waveform (samples,) (numpy or torch), or a list of them (decoded as a batch of
    up to batch_size, each as if alone; returns a list). Returns {"text", "segments": [{"id", "seek",
    "start", "end", "text", "tokens", "temperature", "avg_logprob", "compression_ratio",
    "no_speech_prob"}], "language"}; with word_timestamps each segment also has "words": [{"word", "start",
    "end", "probability"}] (word_timing.py: cross-attention of the alignment heads, DTW), punctuation in
    prepend_punctuations joined to the next word and in append_punctuations to the previous one, and
    hallucination_silence_threshold (s) skips silence before likely hallucinations (hallucination.py).
    clip_timestamps: "start,end,start,..." (s) or a list: the spans to transcribe. vad_filter: transcribe only
    the speech that Silero VAD finds (faster-whisper's vad_filter; vad_parameters: its VadOptions, by name),
    every time mapped back to the input (speech_only.py). batch_size with ONE audio (not a list): batched
    long-form, faster-whisper's BatchedInferencePipeline: the speech cut at pauses into chunks of at most 30 s,
    batch_size of them decoded at once, no text carried between them (vad_parameters apply). decode_options:
    DecodingOptions fields (language, task, beam_size, best_of, patience, length_penalty, suppress_tokens,
    suppress_blank, without_timestamps, max_initial_timestamp, sample_len, prefix); tokenizer:
    default_tokenizer(model); generator: the draws of sampled fallbacks (default torch's global one, as
    openai-whisper); compile: the encoder and the decoder's one-token steps through torch.compile (each new
    batch size or cache length compiles anew: worth it on long runs, where most windows have a full prompt
    and so the same cache length).
    """
    options = TranscribeOptions(
        temperature=temperature, compression_ratio_threshold=compression_ratio_threshold,
        logprob_threshold=logprob_threshold, no_speech_threshold=no_speech_threshold,
        condition_on_previous_text=condition_on_previous_text,
        initial_prompt=initial_prompt, carry_initial_prompt=carry_initial_prompt,
        clip_timestamps=clip_timestamps, batch_size=batch_size, compile=compile, verbose=verbose,
        word_timestamps=word_timestamps, prepend_punctuations=prepend_punctuations,
        append_punctuations=append_punctuations, hallucination_silence_threshold=hallucination_silence_threshold)
    _check_task(model, word_timestamps, decode_options)
    check_decode_options(decode_options, options)  # bad decoding options fail here, before any audio
    vad = vad_options(vad_parameters)  # bad VAD options fail here too
    audios, many = _audio_list(audio)
    tokenizer = tokenizer or default_tokenizer(model)
    _english_only(tokenizer, decode_options)
    transcriber = Transcriber(model, options, decode_options, tokenizer, generator)
    with evaluating(model):
        if not many and batch_size is not None:
            return _batched_long_form(transcriber, load_audio(audios[0]), vad_parameters)
        results = _speech_only(transcriber, audios, vad) if vad_filter else transcriber.run(audios)
    return results if many else results[0]


def _check_task(model: nn.Module, word_timestamps: bool, decode_options: dict) -> None:
    """The task, and word timestamps' alignment heads, checked before any audio is read."""
    decode_options.pop("fp16", None)  # the model's dtype decides
    if decode_options.get("task", "transcribe") not in ("transcribe", "translate"):
        raise ValueError(f"task={decode_options['task']!r}: transcribe takes 'transcribe' or 'translate'")
    if word_timestamps:
        alignment_heads(model)  # a model with no usable alignment heads fails here
        if decode_options.get("task") == "translate":
            warnings.warn("Word-level timestamps on translations may not be reliable.", stacklevel=3)


def _english_only(tokenizer: WhisperTokenizer, decode_options: dict) -> None:
    """An English-only model (its tokenizer has no language or task tokens) transcribes English whatever is
    asked: another language or translate is said in one warning, as openai-whisper's command line says it, and
    the result's language is "en" (in place on decode_options)."""
    if tokenizer.multilingual:
        return
    language, task = decode_options.get("language"), decode_options.get("task", "transcribe")
    if language not in (None, "en") or task != "transcribe":
        asked = ", ".join(x for x in (f"language {language!r}" if language not in (None, "en") else "",
                                      f"task {task!r}" if task != "transcribe" else "") if x)
        warnings.warn(f"an English-only model was asked for {asked}; transcribing English instead", stacklevel=3)
    decode_options["language"], decode_options["task"] = "en", "transcribe"


def _speech_only(transcriber: Transcriber, audios: list[AudioInput], vad: VadOptions) -> list[dict]:
    """vad_filter: each audio's speech alone (keep_speech), transcribed, its times mapped back to the audio. An
    audio with no speech has no segments (and the language asked for, as the batched long-form's)."""
    speech, maps = zip(*(keep_speech(load_audio(a), vad) for a in audios))
    spoken = [i for i, wave in enumerate(speech) if wave.numel() > 0]
    results = dict(zip(spoken, transcriber.run([speech[i] for i in spoken])))
    language = transcriber.decode_options.get("language")
    return [restore_times(results[i], maps[i]) if i in results else {"text": "", "segments": [], "language": language}
            for i in range(len(audios))]


def _batched_long_form(transcriber: Transcriber, wave: torch.Tensor,
                       vad_parameters: VadOptions | Mapping | None) -> dict:
    """One audio's speech in chunks of at most one window (30 s), batch_size of them decoded at once, each in one
    window, no text carried from chunk to chunk (faster-whisper's BatchedInferencePipeline, and its VAD defaults
    without vad_parameters), joined into one result (speech_only.py)."""
    chunk_s = transcriber.window_frames * HOP_LENGTH / SAMPLE_RATE  # one window: 30 s for openai's checkpoints
    chunks, metadata, speeches = speech_chunks(wave, vad_parameters, chunk_s)
    transcriber.options = replace(transcriber.options, condition_on_previous_text=False, one_window=True)
    results = transcriber.run(chunks) if chunks else []
    return join_chunks(results, metadata, speeches, transcriber.decode_options.get("language"))
