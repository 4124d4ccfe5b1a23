"""Decoding for every decoder in the zoo, on the preallocated KV cache.

Prefill the prompt once, then feed one token per step: nothing recomputes the
prefix. Prompts of different lengths are left-padded; their positions skip
the padding (for learned positions and RoPE alike) and the attention mask
hides it. The decoding options are a frozen dataclass, as in openai-whisper.

Legend: B batch, T prompt length, V vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import torch
from torch import nn


@dataclass(frozen=True)
class GenerationConfig:
    max_new_tokens: int = 32
    do_sample: bool = False
    temperature: float = 1.0
    top_k: int = 0                    # keep the k most likely tokens; 0 = off
    top_p: float = 1.0                # nucleus: smallest set with this much probability; 1.0 = off
    min_p: float = 0.0                # drop tokens below min_p x the top token's probability; 0 = off
    repetition_penalty: float = 1.0   # CTRL (Keskar et al. 2019): divide positive / multiply negative logits
    eos_id: int | tuple[int, ...] | None = None        # one id or several
    stop_sequences: tuple[tuple[int, ...], ...] = ()   # stop once a row ends with any of these
    num_beams: int = 1
    length_penalty: float = 1.0       # beam score = sum log p / (new tokens ** length_penalty)
    early_stopping: bool | str = False  # True | False | "never", as in transformers
    compile: bool = False             # one-token steps through torch.compile (fixed shapes); see Decoder

    def __post_init__(self):
        checks = [
            (self.max_new_tokens >= 1, "max_new_tokens must be >= 1"),
            (0.0 < self.top_p <= 1.0, "top_p must be in (0, 1]"),
            (0.0 <= self.min_p < 1.0, "min_p must be in [0, 1)"),
            (self.top_k >= 0, "top_k must be >= 0"),
            (self.temperature > 0 or not self.do_sample, "temperature must be > 0 when sampling"),
            (self.repetition_penalty > 0, "repetition_penalty must be > 0"),
            (self.num_beams >= 1, "num_beams must be >= 1"),
            (self.early_stopping in (True, False, "never"), "early_stopping must be True, False or 'never'"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"{message}; got {self}")
        if any(len(s) == 0 for s in self.stop_sequences):
            raise ValueError("stop_sequences must not contain an empty sequence")

    @property
    def eos_ids(self) -> tuple[int, ...]:
        return () if self.eos_id is None else (self.eos_id,) if isinstance(self.eos_id, int) else tuple(self.eos_id)


def apply_repetition_penalty(logits: torch.Tensor, seen: torch.Tensor, penalty: float) -> torch.Tensor:
    """(B, V) logits; seen (B, S) token ids of prompt + output so far."""
    if penalty == 1.0:
        return logits
    picked = logits.gather(-1, seen)
    picked = torch.where(picked > 0, picked / penalty, picked * penalty)
    return logits.scatter(-1, seen, picked)


def filter_logits(logits: torch.Tensor, config: GenerationConfig) -> torch.Tensor:
    """Temperature, top-k, top-p and min-p on (B, V) logits; filtered entries become -inf."""
    logits = logits / config.temperature
    if config.top_k:
        kth = torch.topk(logits, min(config.top_k, logits.shape[-1])).values[..., -1:]  # (B, 1)
        logits = logits.masked_fill(logits < kth, float("-inf"))
    if config.top_p < 1.0:
        sorted_logits, order = logits.sort(dim=-1, descending=True)
        cumulative = sorted_logits.softmax(-1).cumsum(-1)
        drop = cumulative - sorted_logits.softmax(-1) >= config.top_p  # keep the token that crosses top_p
        logits = logits.masked_fill(drop.scatter(-1, order, drop), float("-inf"))
    if config.min_p > 0.0:  # last, as transformers orders its warpers
        probs = logits.softmax(-1)
        logits = logits.masked_fill(probs < config.min_p * probs.amax(-1, keepdim=True), float("-inf"))
    return logits


def next_token_probs(logits: torch.Tensor, seen: torch.Tensor, config: GenerationConfig) -> torch.Tensor:
    """The distribution a sampler draws from: (B, V) logits -> (B, V) probabilities after every processor."""
    logits = apply_repetition_penalty(logits.float(), seen, config.repetition_penalty)
    return filter_logits(logits, config).softmax(-1)


def choose(logits: torch.Tensor, seen: torch.Tensor, config: GenerationConfig,
           generator: torch.Generator | None) -> torch.Tensor:
    """(B, V) logits -> (B,) next tokens: argmax (greedy) or a draw from next_token_probs."""
    if config.do_sample:
        return torch.multinomial(next_token_probs(logits, seen, config), 1, generator=generator).squeeze(1)
    if config.repetition_penalty == 1.0:
        return logits.max(-1).indices  # = argmax (first maximum), 2x faster on CPU for (8, V)
    return apply_repetition_penalty(logits.float(), seen, config.repetition_penalty).argmax(-1)


def ends_with_stop(tokens: torch.Tensor, config: GenerationConfig) -> torch.Tensor:
    """(B, S) tokens so far -> (B,) True where the row ends with an EOS id or a stop sequence."""
    hit = torch.isin(tokens[:, -1], torch.tensor(config.eos_ids, device=tokens.device))
    for stop in config.stop_sequences:
        if tokens.shape[1] >= len(stop):
            hit |= (tokens[:, -len(stop):] == torch.tensor(stop, device=tokens.device)).all(-1)
    return hit


def compiled_step(model: nn.Module) -> nn.Module:
    """torch.compile(model) for one session. Dynamo keeps the compiled code with the model class's
    forward, guarded on the model's structure and shapes, so a later session (a new wrapper, a fresh
    KV cache) reuses it; nothing here holds the model beyond the session.

    On CPU the compiled graph is called through a C++ wrapper (inductor's cpp_wrapper) rather than
    generated Python: a decode step is ~100 small kernels, and their Python launch code was ~10% of a
    gpt2 token (an A/B of the two in one process, batch 1: 32.9 -> 29.6 ms per token)."""
    first = next(iter(model.parameters()), None)
    on_cpu = first is None or first.device.type == "cpu"
    return torch.compile(model, dynamic=False, options={"cpp_wrapper": True} if on_cpu else None)


def check_prompt(model: nn.Module, input_ids: torch.Tensor, max_new_tokens: int) -> None:
    if input_ids.dim() != 2 or input_ids.shape[1] == 0:
        raise ValueError(f"input_ids must be a non-empty (batch, tokens) prompt, got shape {tuple(input_ids.shape)}")
    total = input_ids.shape[1] + max_new_tokens
    if total > model.max_positions:
        raise ValueError(f"prompt ({input_ids.shape[1]}) + max_new_tokens ({max_new_tokens}) = {total} exceeds "
                         f"the model's {model.max_positions} positions")


class Decoder:
    """One decoding session on the model's preallocated KV cache: prefill, then step.

    Keeps the attention mask and the positions (which skip left padding) in step
    with the cache, so greedy, sampling, beam search and speculative decoding
    all drive the model the same way. The mask is allocated once for the whole
    session and sliced per step; without padding none is passed at all.
    """

    def __init__(self, model: nn.Module, input_ids: torch.Tensor, max_new_tokens: int,
                 attention_mask: torch.Tensor | None = None, compile: bool = False):
        check_prompt(model, input_ids, max_new_tokens)
        # compile: one-token steps after the prefill run through torch.compile with the cache position
        # as a tensor, so every step has the same shapes (attention spans the whole cache, masked) and
        # one compiled graph serves the session: no per-op Python. The first call compiles (~20 s).
        self.step_fn = compiled_step(model) if compile else None
        self.model, self.batch = model, input_ids.shape[0]
        t = input_ids.shape[1]
        prompt_mask = torch.ones_like(input_ids) if attention_mask is None else attention_mask.to(input_ids.device)
        # Only pass a mask when there is padding: without one the causal kernels run unmasked.
        self.padded = bool((prompt_mask == 0).any())
        self.mask = None  # (B, T + max_new_tokens), only with padding
        if self.padded:
            self.mask = torch.ones(self.batch, t + max_new_tokens, dtype=prompt_mask.dtype, device=input_ids.device)
            self.mask[:, :t] = prompt_mask
        # Left padding does not count: a real token's position is its index minus the padding before it.
        self.prompt_positions = (prompt_mask.cumsum(-1) - 1).clamp(min=0)  # (B, T)
        self.pads = (t - prompt_mask.sum(-1, keepdim=True)) if self.padded else None  # (B, 1)
        self.length = 0  # tokens in the cache
        model.setup_cache(self.batch, t + max_new_tokens)

    def feed(self, tokens: torch.Tensor, keep: int | None = None) -> torch.Tensor:
        """tokens (B, n) appended after the cache -> logits (B, n, V), or of the last `keep` tokens only."""
        n, start = tokens.shape[1], self.length
        if self.step_fn is not None and n == 1 and start > 0:
            return self._static_step(tokens)
        positions = None  # unpadded: the model counts from input_pos
        if self.padded:  # (B, n): the prompt's own positions, then one more per token after it
            t = self.prompt_positions.shape[1]
            positions = self.prompt_positions[:, start:start + n]
            if start + n > t:
                after = torch.arange(max(start, t), start + n, device=tokens.device) - self.pads
                positions = torch.cat([positions, after], dim=1) if start < t else after
        logits = self.model(tokens, attention_mask=self.mask[:, :start + n] if self.padded else None,
                            positions=positions, input_pos=start, logits_to_keep=keep)
        self.length += n
        return logits

    def _static_step(self, tokens: torch.Tensor) -> torch.Tensor:
        """One token per row through the compiled step: positions and cache slot as tensors."""
        start = self.length
        slot = torch.tensor([start], device=tokens.device)  # (1,)
        positions = (slot - self.pads) if self.padded else slot.expand(self.batch, 1)  # (B, 1)
        logits = self.step_fn(tokens, attention_mask=self.mask, positions=positions, input_pos=slot)
        self.length += 1
        return logits  # (B, 1, V)

    def rewind(self, length: int) -> None:
        """Forget everything after `length` cached tokens (speculative decoding's rejected drafts)."""
        self.length = min(self.length, length)

    def reorder(self, index: torch.Tensor) -> None:
        """Keep batch rows `index` (beam search), cache included."""
        self.model.transformer.reorder_cache(index)
        self.prompt_positions = self.prompt_positions[index]
        if self.padded:
            self.mask, self.pads = self.mask[index], self.pads[index]

    def close(self) -> None:
        self.model.clear_cache()


@torch.inference_mode()
def stream(model: nn.Module, input_ids: torch.Tensor, config: GenerationConfig,
           attention_mask: torch.Tensor | None = None,
           generator: torch.Generator | None = None) -> Iterator[torch.Tensor]:
    """Yield the next (B,) tokens one step at a time (greedy or sampling).

    Rows that have stopped (EOS or a stop sequence) keep yielding the pad id
    (the first EOS id, else 0); the stream ends when every row has stopped.
    """
    was_training = model.training
    model.eval()
    decoder = Decoder(model, input_ids, config.max_new_tokens, attention_mask, compile=config.compile)
    pad = config.eos_ids[0] if config.eos_ids else 0
    stops = bool(config.eos_ids or config.stop_sequences)
    # The tokens so far are only needed by the repetition penalty and the stop checks.
    track = stops or config.repetition_penalty != 1.0
    tokens = input_ids
    done = torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    try:
        logits = decoder.feed(input_ids, keep=1)[:, -1]
        for step in range(config.max_new_tokens):
            token = choose(logits, tokens, config, generator)  # (B,)
            if stops:
                token = token.masked_fill(done, pad)
            if track:
                tokens = torch.cat([tokens, token[:, None]], dim=1)
            if stops:
                done |= ends_with_stop(tokens, config)
            yield token
            if step == config.max_new_tokens - 1 or (stops and bool(done.all())):
                return
            logits = decoder.feed(token[:, None])[:, -1]
    finally:
        decoder.close()
        model.train(was_training)


def generate(model: nn.Module, input_ids: torch.Tensor, max_new_tokens: int = 32, *,
             attention_mask: torch.Tensor | None = None, generator: torch.Generator | None = None,
             draft_model: nn.Module | None = None, num_draft_tokens: int = 4, **options) -> torch.Tensor:
    """(B, T) prompt -> (B, T + new) tokens.

    options (GenerationConfig fields): do_sample, temperature, top_k, top_p, min_p,
    repetition_penalty, eos_id, stop_sequences, num_beams, length_penalty, early_stopping,
    compile (greedy / sampling: the one-token steps run through torch.compile; the first call
    for a model and batch shape compiles, later ones reuse it).
    draft_model: speculative decoding (batch size 1), num_draft_tokens proposed per round;
    same output as without it when greedy, same distribution when sampling.
    """
    config = GenerationConfig(max_new_tokens=max_new_tokens, **options)
    if config.compile and (draft_model is not None or config.num_beams > 1):
        raise ValueError("compile=True compiles greedy and sampling steps; beam search and speculative "
                         "decoding (num_beams > 1, draft_model) run eagerly: drop compile=True for them")
    if draft_model is not None:
        from zoo.speculative import speculative_generate

        return speculative_generate(model, draft_model, input_ids, config, num_draft_tokens,
                                    generator, attention_mask)[0]
    if config.num_beams > 1:
        from zoo.beam_search import beam_search

        return beam_search(model, input_ids, config, attention_mask)
    new = list(stream(model, input_ids, config, attention_mask, generator))
    return torch.cat([input_ids, torch.stack(new, dim=1)], dim=1)
