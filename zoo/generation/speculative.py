"""Speculative decoding: a small draft model proposes, the target verifies k tokens in one forward.

Leviathan, Kalman & Matias 2023, "Fast Inference from Transformers via
Speculative Decoding"; Chen et al. 2023, "Accelerating Large Language Model
Decoding with Speculative Sampling". Checked against transformers' assisted
generation (batch size 1 there too).

Each round the draft proposes k tokens one at a time on its KV cache; the
target scores all of them (plus the token after them) in ONE forward; both
caches are then rewound to the accepted length, so nothing recomputes the
prefix. Greedy decoding gives exactly the target's greedy output. Sampling
accepts a drafted x with probability min(1, p(x) / q(x)) and on rejection draws
from normalize(max(0, p - q)), so every emitted token follows the target's
distribution p exactly, whatever the draft (q is the draft's distribution;
both after the same repetition penalty, temperature, top-k/p and min-p).

Legend: B batch (1 here), T tokens so far, k drafted tokens, V vocabulary.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from zoo.generation.conditioned import BoundDecoder
from zoo.generation.config import GenerationConfig
from zoo.generation.sampling import choose, ends_with_stop, next_token_probs
from zoo.generation.session import Session, check_prompt, evaluating


@dataclass
class SpeculativeStats:
    proposed: int = 0          # drafted tokens the target verified
    accepted: int = 0          # of those, how many the target accepted
    target_forwards: int = 0   # prefill included
    draft_forwards: int = 0    # prefill included

    @property
    def acceptance_rate(self) -> float:
        """accepted / proposed; 0.0 when nothing was proposed (max_new_tokens=1)."""
        return self.accepted / self.proposed if self.proposed else 0.0


class _CatchUpSession:
    """A Session whose cache is always a prefix of the sequence being generated.

    `predict(seq, n)` feeds whatever of `seq` the cache lacks, in one forward,
    and returns the logits after each of the last n tokens of `seq`; when the
    cache already holds the token before those, its logits are the ones kept
    from the previous forward (a rewind drops them).
    """

    def __init__(self, model: nn.Module, prompt: torch.Tensor, max_new_tokens: int,
                 attention_mask: torch.Tensor | None):
        self.session = Session(model, prompt, max_new_tokens, attention_mask)
        self.forwards = 0
        self.last: torch.Tensor | None = None  # (1, 1, V) logits after the last cached token

    def predict(self, seq: torch.Tensor, n: int) -> torch.Tensor:
        new = seq[:, self.session.length:]  # (1, m)
        logits = self.last
        if new.shape[1]:
            logits = self.session.feed(new)  # (1, m, V)
            self.forwards += 1
            if new.shape[1] < n:  # the token before `new` is cached: its logits came with the last forward
                logits = torch.cat([self.last, logits], dim=1)
        assert logits is not None and logits.shape[1] >= n, "the cache ran ahead of the sequence"
        self.last = logits[:, -1:]
        return logits[:, -n:]  # (1, n, V)

    def rewind(self, length: int) -> None:
        if length < self.session.length:
            self.session.rewind(length)
            self.last = None  # the logits after the dropped tokens no longer apply


def _check_speculative(target: nn.Module, draft: nn.Module, input_ids: torch.Tensor, config: GenerationConfig,
           num_draft_tokens: int) -> None:
    if input_ids.dim() == 2 and input_ids.shape[0] != 1:
        raise ValueError(f"speculative decoding supports batch size 1 only (as transformers' assisted generation); "
                         f"input_ids has batch size {input_ids.shape[0]} (shape {tuple(input_ids.shape)})")
    if num_draft_tokens < 1:
        raise ValueError(f"num_draft_tokens must be >= 1, got {num_draft_tokens}")
    if config.num_beams > 1:
        raise ValueError(f"speculative decoding does not combine with beam search; got num_beams={config.num_beams}")
    target_modules = {id(m) for m in _unbound(target).modules()}
    if any(id(m) in target_modules for m in _unbound(draft).modules()):  # itself, or a part (its language model)
        raise ValueError("draft_model must be a different module from the target, sharing none of its layers (each "
                         "needs its own KV cache); pass a copy (copy.deepcopy(model)) to draft with the same weights")
    if draft.vocab_size != target.vocab_size:
        raise ValueError(f"draft_model's vocabulary ({draft.vocab_size} tokens) must equal the target model's "
                         f"({target.vocab_size} tokens)")
    config.check_ids(target.vocab_size)
    check_prompt(target, input_ids, config.max_new_tokens)
    try:
        check_prompt(draft, input_ids, config.max_new_tokens)
    except ValueError as error:
        raise ValueError(f"draft_model: {error}") from None


def _unbound(model: nn.Module) -> nn.Module:
    """The model a BoundDecoder (audio or images) wraps, else the model itself."""
    return model.model if isinstance(model, BoundDecoder) else model


def _verify(p: torch.Tensor, q: torch.Tensor | None, token: int, generator: torch.Generator | None) -> int | None:
    """Speculative sampling for one drafted token: the token itself if accepted, else a draw from the residual.

    p, q (V,) target and draft probabilities; q is None for the bonus position (draw from p).
    """
    if q is None:
        return int(torch.multinomial(p, 1, generator=generator))
    u = torch.rand((), generator=generator, device=p.device)
    if u * q[token] < p[token]:  # u < p(x) / q(x), without dividing by a tiny q
        return None
    residual = (p - q).clamp(min=0)
    if float(residual.sum()) <= 0:  # p == q up to rounding: a rejection cannot really happen; stay on p
        residual = p
    return int(torch.multinomial(residual, 1, generator=generator))


@torch.inference_mode()
def speculative_generate(target: nn.Module, draft: nn.Module, input_ids: torch.Tensor, config: GenerationConfig,
                         num_draft_tokens: int = 4, generator: torch.Generator | None = None,
                         attention_mask: torch.Tensor | None = None) -> tuple[torch.Tensor, SpeculativeStats]:
    """(1, T) prompt -> ((1, T + new) tokens, SpeculativeStats), new <= config.max_new_tokens.

    Greedy (config.do_sample False) output equals `generate(target, ...)`; sampled output
    follows the target's distribution. The draft must share the target's vocabulary.
    Stops at an EOS id or a stop sequence (kept in the output), like `generate`.
    """
    _check_speculative(target, draft, input_ids, config, num_draft_tokens)
    followers: list[_CatchUpSession] = []
    with evaluating(target, draft):
        try:
            for model in (target, draft):
                followers.append(_CatchUpSession(model, input_ids, config.max_new_tokens, attention_mask))
                followers[-1].predict(input_ids, 1)  # prefill: the prompt exactly once
            stats = SpeculativeStats()
            tokens = _decode(*followers, input_ids, config, num_draft_tokens, generator, stats)
            stats.target_forwards, stats.draft_forwards = (f.forwards for f in followers)
            return tokens, stats
        finally:
            for follower in followers:
                follower.session.close()


def _decode(verifier: _CatchUpSession, drafter: _CatchUpSession, input_ids: torch.Tensor, config: GenerationConfig,
            num_draft_tokens: int, generator: torch.Generator | None, stats: SpeculativeStats) -> torch.Tensor:
    """Rounds of draft-then-verify until max_new_tokens, an EOS id or a stop sequence."""
    tokens = input_ids  # (1, T) prompt + output so far
    while True:
        remaining = config.max_new_tokens - (tokens.shape[1] - input_ids.shape[1])
        k = min(num_draft_tokens, remaining - 1)  # a round emits at most k + 1 tokens

        # Draft: up to k tokens, one forward each, ending early at a stop token.
        seq, q = tokens, []  # seq (1, T + drafted); q the draft's distributions when sampling
        for _ in range(k):
            logits = drafter.predict(seq, 1)[:, -1]  # (1, V)
            if config.do_sample:
                q.append(next_token_probs(logits, seq, config))  # (1, V)
                token = torch.multinomial(q[-1], 1, generator=generator)  # (1, 1)
            else:
                token = choose(logits, seq, config, None)[:, None]  # (1, 1)
            seq = torch.cat([seq, token], dim=1)
            if bool(ends_with_stop(seq, config)):
                break
        drafted = seq.shape[1] - tokens.shape[1]

        # Verify: ONE target forward scores every drafted token and the position after them.
        logits = verifier.predict(seq, drafted + 1)  # (1, drafted + 1, V)
        new = []
        for i in range(drafted + 1):
            prefix = seq[:, :tokens.shape[1] + i]  # what the target conditions on here
            proposal = int(seq[0, prefix.shape[1]]) if i < drafted else None
            if config.do_sample:
                p = next_token_probs(logits[:, i], prefix, config)[0]  # (V,)
                correction = _verify(p, q[i][0] if i < drafted else None, proposal, generator)
            else:
                best = int(choose(logits[:, i], prefix, config, None))
                correction = None if best == proposal else best
            new.append(proposal if correction is None else correction)
            if correction is not None:
                break
        stats.proposed += drafted
        stats.accepted += len(new) - 1

        # Both caches keep only accepted tokens; the correction (or bonus) token,
        # and a fully accepted last draft for the draft model, are fed next round.
        verifier.rewind(tokens.shape[1] + len(new) - 1)
        drafter.rewind(tokens.shape[1] + len(new) - 1)
        for token in new:
            tokens = torch.cat([tokens, tokens.new_tensor([[token]])], dim=1)
            if bool(ends_with_stop(tokens, config)):
                return tokens
        if tokens.shape[1] - input_ids.shape[1] >= config.max_new_tokens:
            return tokens
