"""Greedy and sampled decoding, one token per step on a Session: the strategy behind `generate` and
`stream` when there are no beams and no draft model.

Legend: B batch, T prompt length, V vocabulary.
"""
from __future__ import annotations

from typing import Iterator

import torch
from torch import nn

from zoo.generation.config import GenerationConfig
from zoo.generation.sampling import choose, ends_with_stop
from zoo.generation.session import Session


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
    session = Session(model, input_ids, config.max_new_tokens, attention_mask, compile=config.compile)
    pad = config.eos_ids[0] if config.eos_ids else 0
    stops = bool(config.eos_ids or config.stop_sequences)
    # The tokens so far are only needed by the repetition penalty and the stop checks.
    track = stops or config.repetition_penalty != 1.0
    tokens = input_ids
    done = torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)
    try:
        logits = session.feed(input_ids, keep=1)[:, -1]
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
            logits = session.feed(token[:, None])[:, -1]
    finally:
        session.close()
        model.train(was_training)
