"""Decoding one 30 s window with Whisper: openai-whisper's `whisper.decode` on our generation package.

    options = DecodingOptions(language=None, beam_size=5)       # None: detect the language
    result = decode(model, mel, options, tokenizer)             # mel (n_mels, 3000) -> DecodingResult
    results = decode(model, mels, options, tokenizer)           # (B, n_mels, 3000) -> list of them
    results = decode(model, mels, [options_1, options_2])       # each audio its own prompt, language, prefix

The encoder runs once; the decoder runs on a Session (its self-attention KV cache, the
cross-attention keys and values computed once at the prefill) through conditioned.EncoderConditioned.
The initial tokens are [sot_prev, prompt...] + sot_sequence (+ <|notimestamps|>) + prefix; the
no-speech probability is read at <|startoftranscript|> in the prefill; Whisper's logit rules
(whisper_rules) apply at every step; temperature 0 is greedy, above it best_of samples are drawn,
beam_size runs Whisper's beam search (whisper_beam). Candidates are ranked by sum log-prob over a
length penalty (openai-whisper's MaximumLikelihoodRanker). A list of options gives each audio its
own prompt, language and prefix (transcribe's windows, each file at its own place): the initial tokens
are left-padded to one length, and rows that leave different room to sample decode in separate
sessions, so each audio gets the tokens it would get alone. Checked against openai-whisper
20250625's decoding.py (tests/zoo/test_whisper_decode.py); differences: an English-only model
with language=None decodes English (openai-whisper raises), a batch of several audios with
beams or best_of works (openai-whisper's broadcasts one audio only), results keep the detected
language_probs, and there is no fp16 option (the model's dtype decides).

Legend: B audios, G candidates per audio (beams or samples), T initial tokens, V vocabulary.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, fields, replace
from typing import Iterable, Sequence

import torch
from torch import nn

from data.audio import HOP_LENGTH, INPUT_STRIDE, SAMPLE_RATE
from data.whisper_tokenizer import MULTILINGUAL_MIN_VOCAB, WhisperTokenizer, load_whisper_tokenizer
from zoo.generation.compiled import compiled_encoder
from zoo.generation.conditioned import EncoderConditioned
from zoo.generation.config import GenerationConfig
from zoo.generation.decode import decode_steps
from zoo.generation.ngram import ShallowFusion
from zoo.generation.session import Session, evaluating
from zoo.generation.whisper_beam import Candidates, whisper_beam_search
from zoo.generation.whisper_rules import LogitRules, reads_as_ids, suppressed_tokens, whisper_rules
from zoo.registry import check_ranges, check_values

TASKS = ("transcribe", "translate", "lang_id")
ROW_FIELDS = ("language", "prompt", "prefix")  # the options that may differ between the audios of one call


@dataclass(frozen=True)
class DecodingOptions:
    """openai-whisper's DecodingOptions (same names and defaults; no fp16: the model's dtype decides)."""
    task: str = "transcribe"                # "transcribe" (X -> X), "translate" (X -> English), "lang_id"
    language: str | None = None             # a code or a name; None: detect it
    temperature: float = 0.0                # 0: greedy (or beams); above: sample
    sample_len: int | None = None           # most tokens to sample; None: text_ctx // 2
    best_of: int | None = None              # samples drawn when temperature > 0, best one returned
    beam_size: int | None = None            # beam search (temperature ignored)
    patience: float | None = None           # beam search collects round(beam_size * patience) finished
    length_penalty: float | None = None     # ranking: None divides by the length, alpha by ((5 + len) / 6) ** alpha
    prompt: str | list[int] | None = None   # previous context, after <|startofprev|>
    prefix: str | list[int] | None = None   # the start of this window's text
    suppress_tokens: str | Iterable[int] | None = "-1"  # ids, or "-1" for the non-speech symbols
    suppress_blank: bool = True             # no space or EOT as the first token
    without_timestamps: bool = False        # text tokens only (<|notimestamps|> in the prompt)
    max_initial_timestamp: float | None = 1.0  # s: the latest first timestamp; None or 0: no limit
    shallow_fusion: ShallowFusion | None = None  # not openai-whisper's: a language model's scores added (ngram.py)

    def __post_init__(self):
        """Each option's type (zoo.registry.check_values), then its range and what it needs of the others: an
        error names the option, its value and what was expected."""
        check_values(DecodingOptions, {f.name: getattr(self, f.name) for f in fields(self)}, "DecodingOptions")
        beams, sampling = self.beam_size, self.temperature > 0
        check_ranges(self, [
            ("task", lambda t: t in TASKS, f"one of {TASKS}"),
            ("temperature", lambda t: t >= 0, "a finite number >= 0"),
            ("sample_len", lambda n: n is None or n >= 1, "an int >= 1 or None"),
            ("beam_size", lambda n: n is None or n >= 1, "an int >= 1 or None"),
            ("best_of", lambda n: n is None or n >= 1, "an int >= 1 or None"),
            ("best_of", lambda n: n is None or beams is None, f"None with beam_size={beams} (beams or samples)"),
            ("best_of", lambda n: n is None or sampling, "None at temperature 0 (it counts samples)"),
            ("patience", lambda p: p is None or p > 0, "a finite number > 0 or None"),
            ("patience", lambda p: p is None or beams is not None, "None without beam_size"),
            ("patience", lambda p: p is None or round(beams * p) >= 1,
             f"at least one finished candidate: beam_size={beams} x patience rounds to 0"),
            ("length_penalty", lambda a: a is None or 0 <= a <= 1, "a number in [0, 1] or None"),
            ("suppress_tokens", lambda s: not isinstance(s, str) or reads_as_ids(s),
             "comma-separated ids ('-1': the non-speech symbols), a list of ids, '' or None"),
            ("max_initial_timestamp", lambda t: t is None or t >= 0, "a finite number of seconds >= 0 or None")])


@dataclass(frozen=True)
class DecodingResult:
    audio_features: torch.Tensor | None     # (N, D) this audio's encoder output
    language: str
    language_probs: dict[str, float] | None = None  # when the language was detected
    tokens: list[int] = field(default_factory=list)  # sampled tokens, without EOT
    text: str = ""
    avg_logprob: float = math.nan           # sum log-prob / (tokens + 1): EOT counts
    no_speech_prob: float = math.nan        # P(<|nospeech|>) at <|startoftranscript|>
    temperature: float = math.nan
    compression_ratio: float = math.nan     # text bytes / zlib-compressed bytes: high for repetitive text


WHISPER_VOCAB_SIZES = (51864, 51865, 51866)  # openai-whisper's: English-only, multilingual, large-v3


def tokenizer_for_vocab(vocab_size: int) -> WhisperTokenizer:
    """openai-whisper's tokenizer for a model's vocabulary size: multilingual from 51865 on, with
    vocab_size - 51765 - 1 languages (51865 -> 99, 51866 (large-v3) -> 100); English-only (51864) below."""
    if vocab_size not in WHISPER_VOCAB_SIZES:
        raise ValueError(f"no openai-whisper tokenizer has a vocabulary of {vocab_size}: expected one of "
                         f"{WHISPER_VOCAB_SIZES}; pass the model's tokenizer (tokenizer=)")
    multilingual = vocab_size >= MULTILINGUAL_MIN_VOCAB
    return load_whisper_tokenizer(multilingual=multilingual, num_languages=vocab_size - 51765 - int(multilingual))


def default_tokenizer(model: nn.Module) -> WhisperTokenizer:
    """The tokenizer a model carries (`model.tokenizer`), else openai-whisper's for its vocabulary size."""
    if getattr(model, "tokenizer", None) is not None:
        return model.tokenizer
    return tokenizer_for_vocab(model.vocab_size)


def audio_features(model: nn.Module, mel_or_features: torch.Tensor, compile: bool = False) -> torch.Tensor:
    """(n_mels, frames) or (B, n_mels, frames) mel -> encoder output (B, N, D); features pass through.
    compile: the encoder through torch.compile (compiled_encoder)."""
    if mel_or_features.dim() not in (2, 3):
        raise ValueError(f"mel must be (n_mels, frames) or (batch, n_mels, frames), or encoder output (batch, "
                         f"audio tokens, dim); got shape {tuple(mel_or_features.shape)}")
    x = mel_or_features if mel_or_features.dim() == 3 else mel_or_features.unsqueeze(0)
    if tuple(x.shape[-2:]) == (model.config.audio_ctx, model.config.dim):
        return x
    first = next(model.parameters())
    encode = compiled_encoder(model) if compile else model.encode
    return encode(x.to(device=first.device, dtype=first.dtype))


@torch.inference_mode()
def detect_language(model: nn.Module, mel_or_features: torch.Tensor, tokenizer: WhisperTokenizer | None = None
                    ) -> tuple[torch.Tensor, dict[str, float] | list[dict[str, float]]]:
    """The likeliest language of each audio from the logits after <|startoftranscript|> alone.

    mel (n_mels, frames) or (B, n_mels, frames), or encoder output (B, N, D) ->
    (language token ids (B,), [{code: probability}] per audio); a single mel gives a 0-d tensor and one dict.
    """
    tokenizer = tokenizer or default_tokenizer(model)
    if not tokenizer.multilingual or tokenizer.num_languages == 0:
        raise ValueError("this tokenizer (an English-only vocabulary) has no language tokens: "
                         "language detection needs a multilingual model and tokenizer")
    features = audio_features(model, mel_or_features)
    sot = torch.full((features.shape[0], 1), tokenizer.sot, device=features.device)  # (B, 1)
    logits = model.decode(sot, features)[:, 0].float()  # (B, V)
    languages = torch.tensor(tokenizer.all_language_tokens, device=logits.device)
    only = torch.full_like(logits, -math.inf).index_copy_(1, languages, logits[:, languages])  # (B, V)
    tokens, probs = only.argmax(-1), only.softmax(-1)[:, languages].cpu()  # (B,), (B, languages)
    found = [dict(zip(tokenizer.all_language_codes, row.tolist())) for row in probs]
    return (tokens[0], found[0]) if mel_or_features.dim() == 2 else (tokens, found)


def _encode_text(tokenizer: WhisperTokenizer, text: str | list[int]) -> list[int]:
    return tokenizer.encode(" " + text.strip()) if isinstance(text, str) else list(text)


def initial_tokens(tokenizer: WhisperTokenizer, options: DecodingOptions, text_ctx: int,
                   sample_len: int) -> list[int]:
    """[<|startofprev|>, prompt...] + sot_sequence (+ <|notimestamps|>) + prefix, as openai-whisper builds it:
    the prompt keeps its last text_ctx // 2 - 1 tokens, the prefix its last text_ctx // 2 - sample_len
    (all of it when that is not positive)."""
    task = "transcribe" if options.task == "lang_id" else options.task
    tokens = tokenizer.sot_sequence(options.language, task)  # a placeholder language if None: detected later
    if options.without_timestamps:
        tokens = tokens + [tokenizer.no_timestamps]
    if options.prefix:
        prefix, keep = _encode_text(tokenizer, options.prefix), text_ctx // 2 - sample_len
        tokens = tokens + (prefix[-keep:] if keep > 0 else prefix)
    if options.prompt:
        prompt = _encode_text(tokenizer, options.prompt)[-(text_ctx // 2 - 1):]
        tokens = [tokenizer.sot_prev] + prompt + tokens
    return tokens


def rank(candidates: Candidates, length_penalty: float | None) -> int:
    """openai-whisper's MaximumLikelihoodRanker: the first best of sum log-prob / penalty, where the
    penalty is the length (None) or Google NMT's ((5 + length) / 6) ** alpha."""
    def score(sequence: tuple[int, ...], logprob: float) -> float:
        n = len(sequence)
        return logprob / (max(n, 1) if length_penalty is None else ((5 + n) / 6) ** length_penalty)
    scores = [score(*c) for c in candidates]
    return max(range(len(scores)), key=scores.__getitem__)


def compression_ratio(text: str) -> float:
    data = text.encode("utf-8")
    return len(data) / len(zlib.compress(data))


@torch.inference_mode()
def sample_tokens(session: Session, tokens: torch.Tensor, logits: torch.Tensor, rules: LogitRules, *,
                  steps: int, eot: int, temperature: float = 0.0,
                  generator: torch.Generator | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """Greedy (temperature 0) or sampled decoding of a prefilled session, at most `steps` tokens, on the one
    token loop (decode.decode_steps) with Whisper's rules as its logit processor.

    tokens (R, T) the initial tokens, logits (R, V) the prefill's last -> sampled tokens (R, n), EOT
    repeated once a row has ended, and each row's sum of log-probs up to its EOT (R,)."""
    config = GenerationConfig(max_new_tokens=steps, do_sample=temperature > 0, temperature=temperature or 1.0,
                              eos_id=eot)
    sampled, sums = [], torch.zeros(tokens.shape[0], device=tokens.device)  # (R,)
    for token, logprob in decode_steps(session, logits, tokens, config, generator, rules=rules, logprobs=True):
        sampled.append(token)
        sums += logprob
    return torch.stack(sampled, dim=1), sums


def _candidates(sampled: torch.Tensor, sums: torch.Tensor, group: int, eot: int) -> list[Candidates]:
    """Rows (B*G, n) cut at their first EOT -> each audio's G candidates."""
    rows = [tuple(row[:row.index(eot)] if eot in row else row) for row in sampled.tolist()]
    pairs = list(zip(rows, sums.tolist()))
    return [pairs[i:i + group] for i in range(0, len(pairs), group)]


def per_row_options(options: DecodingOptions | Sequence[DecodingOptions], n: int,
                    overrides: dict | None = None) -> list[DecodingOptions]:
    """One DecodingOptions per audio (`overrides` replaced in each); a list may differ only in ROW_FIELDS."""
    if isinstance(options, DecodingOptions):
        rows = [options] * n
    elif isinstance(options, (list, tuple)) and all(isinstance(o, DecodingOptions) for o in options):
        rows = list(options)
    else:
        kinds = sorted({type(o).__name__ for o in options}) if isinstance(options, (list, tuple)) else []
        raise TypeError(f"options: got {type(options).__name__}{f' of {kinds}' if kinds else ''}; expected "
                        "DecodingOptions, or a list of one per audio")
    if len(rows) != n:
        raise ValueError(f"options: got a list of {len(rows)} DecodingOptions for {n} audios; expected one per audio")
    if overrides:
        check_values(DecodingOptions, overrides, "DecodingOptions")  # an unknown option named among the fields
        rows = [replace(o, **overrides) for o in rows]
    for i, row in enumerate(rows[1:], start=1):
        differ = [f.name for f in fields(row) if f.name not in ROW_FIELDS
                  and getattr(row, f.name) != getattr(rows[0], f.name)]
        if differ:
            raise ValueError(f"options[{i}] differs from options[0] in {differ}: the audios of one decode call may "
                             f"differ only in {ROW_FIELDS}")
    return rows


class DecodingPlan:
    """What one decode call does, settled before any audio: each audio's initial tokens, left-padded to one
    length T, where <|startoftranscript|> sits in each row, the rules, how many tokens to sample, how many
    candidates per audio (beams or samples). `options`: one for every audio, or one per audio (ROW_FIELDS)."""

    def __init__(self, model: nn.Module, options: DecodingOptions | Sequence[DecodingOptions],
                 tokenizer: WhisperTokenizer):
        rows = [options] if isinstance(options, DecodingOptions) else list(options)
        self.model, self.options, self.tokenizer = model, rows[0], tokenizer
        self.text_ctx = model.max_positions
        self.sample_len = self.options.sample_len or self.text_ctx // 2
        self.initials = [initial_tokens(tokenizer, o, self.text_ctx, self.sample_len) for o in rows]
        self.initial = self.initials[0]
        length = max(map(len, self.initials))  # T
        self.sot_index = self.initial.index(tokenizer.sot)
        self.sot_positions = [length - len(i) + i.index(tokenizer.sot) for i in self.initials]  # after the padding
        self.steps = self.tokens_to_sample(length)
        if self.steps < 1:
            raise ValueError(f"the initial tokens ({length}: prompt, sot_sequence, prefix) leave no "
                             f"room to sample in the decoder's {self.text_ctx} positions: shorten the prompt or prefix")
        self.group = self.options.beam_size or self.options.best_of or 1
        precision = INPUT_STRIDE * HOP_LENGTH / SAMPLE_RATE  # s per timestamp step: 0.02, any window length
        max_initial = self.options.max_initial_timestamp
        self.rules = whisper_rules(
            tokenizer, length, suppress_blank=self.options.suppress_blank,
            suppress=suppressed_tokens(tokenizer, self.options.suppress_tokens),
            timestamps=not self.options.without_timestamps,
            max_initial_index=round(max_initial / precision) if max_initial else None)
        if self.options.shallow_fusion is not None:  # after Whisper's rules: what they forbid stays forbidden
            self.rules.rules.append(self.options.shallow_fusion.rule(length))

    def tokens_to_sample(self, length: int) -> int:
        """Tokens sampled after `length` initial tokens: sample_len, fewer where that leaves less room in text_ctx."""
        return min(self.sample_len, self.text_ctx + 1 - length)

    def padded(self, device: torch.device | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        """The initial tokens (B, T), left-padded, and their mask (B, T) (1 = a real token), None without padding."""
        length = max(map(len, self.initials))
        tokens = torch.tensor([[self.tokenizer.eot] * (length - len(i)) + i for i in self.initials], device=device)
        mask = torch.tensor([[0] * (length - len(i)) + [1] * len(i) for i in self.initials], device=device)
        return tokens, (mask if bool((mask == 0).any()) else None)

    def search(self, features: torch.Tensor, tokens: torch.Tensor, generator: torch.Generator | None,
               attention_mask: torch.Tensor | None = None, compile: bool = False
               ) -> tuple[list[Candidates], list[float]]:
        """Each audio's candidates and its no-speech probability; tokens (B, T) as `padded` gives them;
        compile: the one-token steps through torch.compile (Session's compile)."""
        g, options, tokenizer = self.group, self.options, self.tokenizer
        tokens = tokens.repeat_interleave(g, dim=0)  # (B*G, T)
        mask = None if attention_mask is None else attention_mask.repeat_interleave(g, dim=0)  # (B*G, T)
        session = Session(EncoderConditioned(self.model, features), tokens, self.steps - 1, mask,
                          compile=compile)  # G rows per audio
        try:
            first = min(self.sot_positions)
            logits = session.feed(tokens, keep=tokens.shape[1] - first)  # (B*G, T - first, V)
            at = torch.tensor(self.sot_positions, device=logits.device) - first  # (B,)
            at_sot = logits[::g][torch.arange(len(at)), at].float().softmax(-1)[:, tokenizer.no_speech]  # (B,)
            if options.beam_size is not None:
                found = whisper_beam_search(session, tokens, logits[:, -1], self.rules, steps=self.steps,
                                            eot=tokenizer.eot, beam_size=g, patience=options.patience)
            else:
                sampled, sums = sample_tokens(session, tokens, logits[:, -1], self.rules, steps=self.steps,
                                              eot=tokenizer.eot, temperature=options.temperature,
                                              generator=generator)
                found = _candidates(sampled, sums, g, tokenizer.eot)
        finally:
            session.close()
        return found, at_sot.tolist()

    def result(self, features: torch.Tensor, language: str, probs: dict | None, candidates: Candidates,
               no_speech: float) -> DecodingResult:
        tokens, logprob = candidates[rank(candidates, self.options.length_penalty)]
        text = self.tokenizer.decode(tokens).strip()
        return DecodingResult(audio_features=features, language=language, language_probs=probs,
                              tokens=list(tokens), text=text, avg_logprob=logprob / (len(tokens) + 1),
                              no_speech_prob=no_speech, temperature=self.options.temperature,
                              compression_ratio=compression_ratio(text))


def _languages(model: nn.Module, features: torch.Tensor, rows: list[DecodingOptions],
               tokenizer: WhisperTokenizer) -> tuple[list[str], list[dict | None]]:
    """Each audio's language and, where detected, its language probabilities: detected where none is given
    (or for lang_id) with a multilingual tokenizer; otherwise the given one, "en" if none."""
    languages, probs = [o.language or "en" for o in rows], [None] * len(rows)
    detect = [i for i, o in enumerate(rows)
              if tokenizer.multilingual and (o.language is None or o.task == "lang_id")]
    if detect:
        _, found = detect_language(model, features[detect], tokenizer)
        for i, p in zip(detect, found):
            languages[i], probs[i] = max(p, key=p.get), p
    return languages, probs


def _search_rows(plan: DecodingPlan, features: torch.Tensor, rows: list[DecodingOptions],
                 generator: torch.Generator | None, compile: bool = False) -> list[tuple[Candidates, float]]:
    """Each audio's (candidates, no-speech probability) under `plan` (made for `rows`). Audios whose initial
    tokens leave the same room to sample decode in one session: a shorter row in a longer row's session
    would get less room than alone."""
    rooms = [plan.tokens_to_sample(len(i)) for i in plan.initials]
    found: list = [None] * len(rows)
    for room in dict.fromkeys(rooms):
        index = [i for i, r in enumerate(rooms) if r == room]
        part = plan if len(index) == len(rows) else DecodingPlan(plan.model, [rows[i] for i in index],
                                                                 plan.tokenizer)
        tokens, mask = part.padded(features.device)
        candidates, no_speech = part.search(features[index], tokens, generator, mask, compile)
        for i, c, p in zip(index, candidates, no_speech):
            found[i] = (c, p)
    return found


@torch.inference_mode()
def decode(model: nn.Module, mel: torch.Tensor,
           options: DecodingOptions | Sequence[DecodingOptions] = DecodingOptions(),
           tokenizer: WhisperTokenizer | None = None, *, generator: torch.Generator | None = None,
           compile: bool = False, **overrides) -> DecodingResult | list[DecodingResult]:
    """Decode 30 s windows: mel (n_mels, 3000) -> DecodingResult; (B, n_mels, 3000) -> a list of B.

    options: DecodingOptions, or a list of B, one per audio, that differ only in language, prompt and
    prefix; fields replaced by `overrides`. tokenizer: default_tokenizer(model); generator: the random
    draws when temperature > 0 (default: torch's global generator); compile: the encoder and the decoder's
    one-token steps through torch.compile (a new batch size or cache length compiles anew).
    Encoder output (B, N, D) in place of the mel skips the encoder.
    """
    tokenizer = tokenizer or default_tokenizer(model)
    batch = 1 if mel.dim() == 2 else mel.shape[0]
    rows = per_row_options(options, batch, overrides)
    DecodingPlan(model, rows, tokenizer)  # check the options before running the encoder
    with evaluating(model):
        features = audio_features(model, mel, compile)  # (B, N, D)
        languages, probs = _languages(model, features, rows, tokenizer)
        if rows[0].task == "lang_id":
            results = [DecodingResult(audio_features=f, language=lang, language_probs=p)
                       for f, lang, p in zip(features, languages, probs)]
        else:
            # Detected languages go into the initial tokens (English-only vocabularies have none).
            rows = [replace(o, language=lang) if o.language is None and tokenizer.multilingual else o
                    for o, lang in zip(rows, languages)]
            plan = DecodingPlan(model, rows, tokenizer)
            found = _search_rows(plan, features, rows, generator, compile)
            results = [plan.result(f, lang, p, *row) for f, lang, p, row in zip(features, languages, probs, found)]
    return results[0] if mel.dim() == 2 else results
