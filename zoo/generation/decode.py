"""Greedy and sampled decoding, one token per step on a Session: the one token loop (`decode_steps`), behind
`generate` and `stream` when there are no beams and no draft model, and behind Whisper's window decoding
(whisper_decode.sample_tokens), whose logit rules come in as `rules`.

Legend: B batch, T prompt length, L tokens so far, V vocabulary.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Iterator

import torch
from torch import nn

from zoo.generation.config import GenerationConfig
from zoo.generation.sampling import ban_tokens, choose, ends_with_stop
from zoo.generation.session import Session, evaluating

Rules = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]  # (logits (B, V), tokens so far (B, L)) -> logits


def decode_steps(session: Session, logits: torch.Tensor, tokens: torch.Tensor, config: GenerationConfig,
                 generator: torch.Generator | None = None, rules: Rules | None = None,
                 logprobs: bool = False) -> Iterator[tuple[torch.Tensor, torch.Tensor | None]]:
    """Continue a prefilled session: yield each step's (B,) tokens, at most config.max_new_tokens of them.

    logits (B, V): the prefill's last; tokens (B, T): the prompt (what the repetition penalty, stop checks
    and rules read). rules: a logit processor applied first (Whisper's rules; they see float32 logits).
    A row that has stopped (an EOS id or a stop sequence) yields config.pad (pad_id, else the first EOS id,
    else 0) from then on; the loop ends when every row has stopped. With logprobs, each step also yields the (B,)
    log-probabilities of the chosen tokens under the processed logits (before temperature), 0 for rows
    that had stopped; else None.
    """
    pad = config.pad
    stops = bool(config.eos_ids or config.stop_sequences)
    # The tokens so far are only needed by the repetition penalty, the bans, the stop checks and the rules.
    track = stops or config.repetition_penalty != 1.0 or config.bans or rules is not None
    done = torch.zeros(tokens.shape[0], dtype=torch.bool, device=tokens.device)
    for step in range(config.max_new_tokens):
        if rules is not None:
            logits = rules(logits.float(), tokens)  # (B, V)
        if config.bans:
            logits = ban_tokens(logits, tokens, config, step)
        token = choose(logits, tokens, config, generator)  # (B,)
        logprob = None
        if logprobs:  # of the token chosen, before a stopped row's pad replaces it (its log-prob may be -inf)
            logprob = torch.log_softmax(logits.float(), -1).gather(1, token[:, None])[:, 0] * ~done  # (B,)
        if stops:
            token = token.masked_fill(done, pad)
        if track:
            tokens = torch.cat([tokens, token[:, None]], dim=1)  # (B, L+1)
        if stops:
            done |= ends_with_stop(tokens, config)
        yield token, logprob
        if step == config.max_new_tokens - 1 or (stops and bool(done.all())):
            return
        logits = session.feed(token[:, None])[:, -1]


@torch.inference_mode()
def stream(model: nn.Module, input_ids: torch.Tensor, config: GenerationConfig,
           attention_mask: torch.Tensor | None = None,
           generator: torch.Generator | None = None) -> Iterator[torch.Tensor]:
    """Yield the next (B,) tokens one step at a time (greedy or sampling).

    Rows that have stopped (EOS or a stop sequence) keep yielding the pad id
    (the first EOS id, else 0); the stream ends when every row has stopped.
    """
    config.check_ids(model.vocab_size)
    with evaluating(model):
        session = Session(model, input_ids, config.max_new_tokens, attention_mask, compile=config.compile)
        try:
            logits = session.feed(input_ids, keep=1)[:, -1]
            for token, _ in decode_steps(session, logits, input_ids, config, generator):
                yield token
        finally:
            session.close()
