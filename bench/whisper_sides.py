"""How each side of the Whisper benchmark decodes, the way its users call it: one 30 s window from the
waveform (its own log-mel, its encoder, greedy tokens), or a batch of encoder outputs (the decoder alone).

    forced = ForcedDecoding.for_tokenizer(tokenizer, tokens=64)
    window = ours_window(model, forced, dtype="bf16", compile=True)    # audio (samples,) -> token ids
    tokens = window(audio)

Every side decodes `forced.tokens` text tokens: <|endoftext|> and every other special token are suppressed
(whisper_refs.forced_suppress), the initial tokens are <|startoftranscript|><|en|><|transcribe|>
<|notimestamps|>, and the first token may not be a blank (openai-whisper's suppress_blank, transformers'
begin_suppress_tokens, CTranslate2's suppress_blank).

Legend: B audios, N audio tokens (1500), D width.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import torch
from torch import nn

import zoo
from bench.report import BenchmarkError
from bench.timing import autocast
from bench.whisper_refs import PROMPT_LANGUAGE, forced_suppress, window_prompt
from data.audio import N_FRAMES, SAMPLE_RATE, log_mel_spectrogram, pad_or_trim
from data.whisper_tokenizer import WhisperTokenizer
from zoo.generation.whisper_decode import DecodingOptions, decode

Window = Callable[[np.ndarray], list[int]]  # 16 kHz audio (samples,) -> the decoded token ids


@dataclass(frozen=True)
class ForcedDecoding:
    """The decoding every side runs: `tokens` greedy text tokens after `prompt`, `suppress` never decoded."""
    tokens: int
    suppress: tuple[int, ...]
    prompt: tuple[int, ...]
    eot: int
    ct2_max_length: int = 0  # what CTranslate2's generate needs as max_length for `tokens` (calibrate_ct2)

    @classmethod
    def for_tokenizer(cls, tokenizer: WhisperTokenizer, tokens: int) -> ForcedDecoding:
        return cls(tokens, tuple(forced_suppress(tokenizer)), tuple(window_prompt(tokenizer)), tokenizer.eot)

    def ours(self) -> DecodingOptions:
        return DecodingOptions(language=PROMPT_LANGUAGE, without_timestamps=True, sample_len=self.tokens,
                               suppress_tokens=self.suppress)

    def openai(self):
        import whisper

        return whisper.DecodingOptions(language=PROMPT_LANGUAGE, without_timestamps=True, sample_len=self.tokens,
                                       suppress_tokens=list(self.suppress), fp16=False)


def bf16_packed(model: nn.Module) -> nn.Module:
    """A copy of ours with bf16 weights, packed (zoo.pack_for_inference): the bf16 side every Whisper table
    times (autocast around the packed fp32 model, eager or compiled, was ~4x slower on an AVX2 CPU)."""
    return zoo.pack_for_inference(copy.deepcopy(model).to(torch.bfloat16))


def ours_window(model: nn.Module, forced: ForcedDecoding, dtype: str = "fp32", compile: bool = False) -> Window:
    """Ours: data.audio's log-mel, then whisper_decode.decode (under autocast for dtype "bf16")."""
    options = forced.ours()

    def run(audio: np.ndarray) -> list[int]:
        mel = log_mel_spectrogram(pad_or_trim(audio))  # (n_mels, 3000)
        with autocast(dtype):
            return decode(model, mel, options, compile=compile).tokens
    return run


def openai_window(model: nn.Module, forced: ForcedDecoding) -> Window:
    """openai-whisper: whisper.log_mel_spectrogram, then whisper.decode."""
    import whisper

    options = forced.openai()
    return lambda audio: whisper.decode(model, whisper.log_mel_spectrogram(whisper.pad_or_trim(audio)), options).tokens


def hf_window(model: nn.Module, directory: Path, forced: ForcedDecoding) -> Window:
    """transformers: WhisperFeatureExtractor, then generate (its suppress lists are in the generation config)."""
    import transformers

    extractor = transformers.WhisperFeatureExtractor.from_pretrained(directory)

    def run(audio: np.ndarray) -> list[int]:
        features = extractor(audio, sampling_rate=SAMPLE_RATE, return_tensors="pt").input_features  # (1, n_mels, 3000)
        out = model.generate(features, language=PROMPT_LANGUAGE, task="transcribe", max_new_tokens=forced.tokens)
        return [t for t in out[0].tolist() if t < forced.eot]  # without the initial (special) tokens
    return run


def ct2_generate(model, features, forced: ForcedDecoding, rows: int = 1) -> list[list[int]]:
    """CTranslate2's greedy generate on mel (B, n_mels, 3000) as numpy or on its encoder's StorageView."""
    import ctranslate2

    if isinstance(features, np.ndarray):
        features = ctranslate2.StorageView.from_array(np.ascontiguousarray(features))
    results = model.generate(features, [list(forced.prompt)] * rows, beam_size=1, suppress_blank=True,
                             suppress_tokens=list(forced.suppress), max_length=forced.ct2_max_length)
    return [r.sequences_ids[0] for r in results]


def ct2_window(faster, forced: ForcedDecoding, audio: np.ndarray) -> list[int]:
    """In a worker (whisper_refs.load_ct2; bind it to `forced` for a Window): faster-whisper's way, its
    FeatureExtractor over the audio, one 30 s window of it, CTranslate2's generate."""
    from faster_whisper.audio import pad_or_trim as fw_pad_or_trim

    mel = fw_pad_or_trim(faster.feature_extractor(audio)[:, :N_FRAMES])  # (n_mels, 3000)
    return ct2_generate(faster.model, mel[None], forced)[0]


def calibrate_ct2(faster, mel: np.ndarray, forced: ForcedDecoding) -> ForcedDecoding:
    """In a worker: forced with the max_length that makes CTranslate2 decode exactly forced.tokens. faster-whisper
    passes len(prompt) + max_new_tokens; CTranslate2 4.8.5 decodes max_length // 2 tokens for a Whisper model
    (whatever the prompt), so both are tried; BenchmarkError if neither gives the count."""
    tried = {}
    for max_length in (2 * forced.tokens, len(forced.prompt) + forced.tokens):
        candidate = replace(forced, ct2_max_length=max_length)
        tried[max_length] = len(ct2_generate(faster.model, mel[None], candidate)[0])
        if tried[max_length] == forced.tokens:
            return candidate
    raise BenchmarkError(f"CTranslate2 decoded {tried} tokens for max_length {list(tried)}, not the "
                         f"{forced.tokens} forced on every side; not timing different work")


# ---------------------------------------------------------------- the decoder alone (encoder outputs in)

Decoder = Callable[[torch.Tensor], list[list[int]]]  # encoder outputs (B, N, D) -> each row's token ids


def ours_decoder(model: nn.Module, forced: ForcedDecoding) -> Decoder:
    options = forced.ours()
    return lambda features: [r.tokens for r in decode(model, features, options)]


def openai_decoder(model: nn.Module, forced: ForcedDecoding) -> Decoder:
    import whisper

    options = forced.openai()
    return lambda features: [r.tokens for r in whisper.decode(model, features, options)]


def hf_decoder(model: nn.Module, forced: ForcedDecoding) -> Decoder:
    from transformers.modeling_outputs import BaseModelOutput

    def run(features: torch.Tensor) -> list[list[int]]:
        out = model.generate(encoder_outputs=BaseModelOutput(last_hidden_state=features), language=PROMPT_LANGUAGE,
                             task="transcribe", max_new_tokens=forced.tokens)
        return [[t for t in row if t < forced.eot] for row in out.tolist()]
    return run


def same_tokens(what: str, got: list[list[int]], want: list[list[int]], forced: ForcedDecoding, exact: bool) -> int:
    """Every row has forced.tokens tokens (else BenchmarkError: the sides would time different work) and, when
    `exact`, equals want (else BenchmarkError); returns the fewest leading tokens equal to want's over rows."""
    counts = sorted({len(row) for row in got})
    if counts != [forced.tokens]:
        raise BenchmarkError(f"{what}: decoded {counts} tokens, not the {forced.tokens} forced on every side; "
                             "not timing different work")
    leading = min(int(np.cumprod(np.equal(g, w)).sum()) for g, w in zip(got, want))
    if exact and leading != forced.tokens:
        raise BenchmarkError(f"{what}: greedy tokens differ from ours at token {leading} on the same weights; "
                             "not timing different computations")
    return leading
