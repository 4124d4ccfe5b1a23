"""One decoding session on its own preallocated KV cache: prefill the prompt once, then feed tokens;
nothing recomputes the prefix. Every strategy (greedy and sampling, beam search, speculative) drives
the model through a Session; an encoder-decoder joins through conditioned.EncoderConditioned.

The session owns its cache (`model.make_cache`) and hands it to every forward: the model keeps no
decoding state, so any number of sessions (a stream, a generate call, a server's requests) can run
on one model at once, interleaved.

Prompts of different lengths are left-padded (right padding is refused: a row's new tokens would
follow its padding); their positions skip the padding (for learned positions and RoPE alike) and the
attention mask hides it.

Legend: B batch, T prompt length, n fed tokens, V vocabulary.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch import nn

from backbones.frontends.checks import check_mask, check_token_layout
from backbones.masks import positions_skipping_padding
from zoo.generation.compiled import compiled_step, mark_context_dynamic


def check_prompt(model: nn.Module, input_ids: torch.Tensor, max_new_tokens: int,
                 attention_mask: torch.Tensor | None = None) -> None:
    """A (batch, tokens) prompt that leaves room for max_new_tokens in the model's positions, and its
    attention_mask (1 token, 0 padding), left-padded: each row's new tokens follow its last column."""
    check_token_layout(input_ids)
    total = input_ids.shape[1] + max_new_tokens
    if total > model.max_positions:
        raise ValueError(f"prompt ({input_ids.shape[1]}) + max_new_tokens ({max_new_tokens}) = {total} exceeds "
                         f"the model's {model.max_positions} positions")
    if attention_mask is None:
        return
    check_mask(attention_mask, *input_ids.shape)
    mask = attention_mask.long()
    after_token = (mask.cummax(-1).values > mask).any(-1)  # (B,) padding after a real token
    problems = [("padding after a token", after_token, "left padding (0s, then 1s): a decoder continues each row "
                 "from its last column, so pad on the left (tokenizer.padding_side = 'left')"),
                ("no token", mask.sum(-1) == 0, "at least one 1 in each row (a prompt to continue)")]
    for what, rows, expected in problems:
        if bool(rows.any()):
            row = int(rows.nonzero()[0])
            raise ValueError(f"attention_mask row {row} has {what} ({_head(mask[row])}); expected {expected}")


@contextmanager
def evaluating(*models: nn.Module | None) -> Iterator[None]:
    """The models in eval mode for the block (no dropout: decoding, and the encoding it starts from), each
    back in its own mode after. eval() walks every module, so models already in eval mode are left alone."""
    training = [model for model in models if model is not None and model.training]
    for model in training:
        model.eval()
    try:
        yield
    finally:
        for model in training:
            model.train()


def _head(row: torch.Tensor, n: int = 12) -> str:
    values = row.tolist()
    return " ".join(map(str, values[:n])) + (" ..." if len(values) > n else "")


class Session:
    """One decoding session on its own preallocated KV cache: prefill, then step.

    Keeps the attention mask and the positions (which skip left padding) in step
    with the cache, so greedy, sampling, beam search and speculative decoding
    all drive the model the same way. The mask is allocated once for the whole
    session and sliced per step; without padding none is passed at all.
    """

    # After a session's first compiled step (looked up with every guard), its later steps have the same
    # shapes, dtypes and objects, so they run the same compiled entry: Dynamo checks only the guards that
    # tell its cache entries apart (torch.compiler.set_stance's skip_guard_eval_unsafe).
    skip_guards = True

    def __init__(self, model: nn.Module, input_ids: torch.Tensor, max_new_tokens: int,
                 attention_mask: torch.Tensor | None = None, compile: bool = False):
        check_prompt(model, input_ids, max_new_tokens, attention_mask)
        # compile: one-token steps after the prefill run through torch.compile with the cache position
        # as a tensor, so every step has the same shapes (attention spans the whole cache, masked) and
        # one compiled graph serves the session: no per-op Python. The first call compiles (~20 s).
        self.step_fn = compiled_step(model) if compile else None
        self.steps_run = 0
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
        self.prompt_positions = positions_skipping_padding(prompt_mask)  # (B, T)
        self.pads = (t - prompt_mask.sum(-1, keepdim=True)) if self.padded else None  # (B, 1)
        self.length = 0  # tokens in the cache
        self.cache = model.make_cache(self.batch, t + max_new_tokens)

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
                            positions=positions, input_pos=start, logits_to_keep=keep, cache=self.cache)
        self.length += n
        return logits

    def _static_step(self, tokens: torch.Tensor) -> torch.Tensor:
        """One token per row through the compiled step: positions and cache slot as tensors."""
        start, tokens = self.length, tokens.contiguous()  # a column of a longer tensor would be a new stride
        slot = torch.tensor([start], device=tokens.device)  # (1,)
        positions = (slot - self.pads) if self.padded else slot.expand(self.batch, 1)  # (B, 1)
        step = dict(attention_mask=self.mask, positions=positions, input_pos=slot, cache=self.cache)
        if self.steps_run and self.skip_guards:
            try:
                with torch.compiler.set_stance("default", skip_guard_eval_unsafe=True):
                    logits = self.step_fn(tokens, **step)
            except RuntimeError as error:
                # Raised before the step runs, where the first step found no compiled graph to reuse (torch.compile
                # fell back to uncompiled code: its cache of graphs was full): this session looks up every step.
                if "skip_guard_eval_unsafe" not in str(error):
                    raise
                self.skip_guards = False
                logits = self.step_fn(tokens, **step)
        else:  # the session's first step is looked up with every guard
            if not self.steps_run:
                mark_context_dynamic(self.model, self.cache)
            logits = self.step_fn(tokens, **step)
        self.steps_run += 1
        self.length += 1
        return logits  # (B, 1, V)

    def rewind(self, length: int) -> None:
        """Forget everything after `length` cached tokens (speculative decoding's rejected drafts)."""
        self.length = min(self.length, length)

    def reorder(self, index: torch.Tensor) -> None:
        """Keep batch rows `index` (beam search), cache included (cross-attention's too); fewer rows where beam
        search drops the inputs that are done: an EncoderConditioned's per-input state follows, reorder_inputs)."""
        self.cache.reorder(index, self.length)
        follow = getattr(self.model, "reorder_inputs", None)
        if follow is not None:
            follow(index, self.batch)
        self.batch = index.shape[0]
        self.prompt_positions = self.prompt_positions[index]
        if self.padded:
            self.mask, self.pads = self.mask[index], self.pads[index]

    def close(self) -> None:
        """Free the cache now (it would go with the session anyway)."""
        self.cache = None
