"""Beam search on the KV cache, reordering the cache instead of recomputing it.

The algorithm is transformers' vectorised beam search (transformers 5,
`GenerationMixin._beam_search`), so the same weights give the same beams:
each step keeps the best 2K (more with several EOS ids) of K x V continuations;
those ending in EOS (or reaching the length limit) among the top K become
finished hypotheses scored sum log p / new_tokens ** length_penalty; the best K
unfinished ones carry on. `early_stopping` True stops a row once K hypotheses
are finished, False stops when no running beam can still beat the worst
finished one at the current length, "never" also considers the longest length
when length_penalty > 0.

Legend: B batch, K beams, V vocabulary, T prompt length, N max new tokens.
"""
from __future__ import annotations

import torch
from torch import nn

from zoo.generation.config import GenerationConfig
from zoo.generation.sampling import apply_repetition_penalty
from zoo.generation.session import Session

NEG = -1.0e9  # "impossible" score, finite so sums stay ordered


def _gather(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """x (B, M, ...) picked along dim 1 by index (B, K) -> (B, K, ...)."""
    return x.gather(1, index.view(*index.shape, *([1] * (x.dim() - 2))).expand(*index.shape, *x.shape[2:]))


class _Finished:
    """The K best finished hypotheses of each row: new tokens (B, K, N), scores, lengths, filled slots."""

    def __init__(self, b: int, k: int, n: int, device: torch.device):
        self.k = k
        self.tokens = torch.zeros(b, k, n, dtype=torch.long, device=device)
        self.scores = torch.full((b, k), NEG, device=device)
        self.length = torch.zeros(b, k, dtype=torch.long, device=device)
        self.filled = torch.zeros(b, k, dtype=torch.bool, device=device)

    def add(self, candidates: torch.Tensor, scores: torch.Tensor, length: int, new: torch.Tensor) -> None:
        """Merge candidates (B, 2K, N) with their length-normalised scores (NEG for those that may not
        finish) into the pool, keeping the K best; `new` (B, 2K) marks the ones that really finished."""
        merged = torch.topk(torch.cat([self.scores, scores], dim=1), self.k).indices  # (B, K)
        self.tokens = _gather(torch.cat([self.tokens, candidates], dim=1), merged)
        self.scores = _gather(torch.cat([self.scores, scores], dim=1), merged)
        self.length = _gather(torch.cat([self.length, torch.full_like(new, length, dtype=torch.long)], 1), merged)
        self.filled = _gather(torch.cat([self.filled, new], dim=1), merged)

    def worst(self) -> torch.Tensor:
        """(B, K): each row's lowest finished score where a slot is filled, NEG elsewhere."""
        return torch.where(self.filled, self.scores.min(1, keepdim=True).values, torch.full_like(self.scores, NEG))

    def best(self, pad: int) -> torch.Tensor:
        """(B, L) the best hypothesis of each row, shorter ones padded with `pad`."""
        length = int(self.length[:, 0].max())
        best = self.tokens[:, 0, :length]  # (B, L)
        return best.masked_fill(torch.arange(length, device=best.device) >= self.length[:, :1], pad)


def _check_beam_options(config: GenerationConfig) -> None:
    if config.do_sample:
        raise ValueError("beam search here is deterministic: do_sample must be False with num_beams > 1")
    if config.stop_sequences:
        raise ValueError("stop_sequences are not supported with beam search; use eos_id")


@torch.inference_mode()
def beam_search(model: nn.Module, input_ids: torch.Tensor, config: GenerationConfig,
                attention_mask: torch.Tensor | None = None) -> torch.Tensor:
    """(B, T) prompts -> (B, T + L) best beams; rows that finished early are padded with the first EOS id."""
    _check_beam_options(config)
    b, k, n, lp = input_ids.shape[0], config.num_beams, config.max_new_tokens, config.length_penalty
    device = input_ids.device
    eos = torch.tensor(config.eos_ids, device=device, dtype=torch.long)
    keep = max(2, 1 + len(config.eos_ids)) * k
    top_k_mask = torch.arange(keep, device=device) < k  # only the top K candidates may finish
    prompts = input_ids.repeat_interleave(k, dim=0)  # (B*K, T) rows
    was_training = model.training
    model.eval()
    session = Session(model, prompts, n, None if attention_mask is None else attention_mask.repeat_interleave(k, 0))
    running = torch.zeros(b, k, n, dtype=torch.long, device=device)      # new tokens of running beams
    running_scores = torch.full((b, k), NEG, device=device)
    running_scores[:, 0] = 0.0  # identical beams at the start: only the first may expand
    finished = _Finished(b, k, n, device)
    improvable = torch.ones(b, 1, dtype=torch.bool, device=device)
    try:
        logits = session.feed(prompts, keep=1)[:, -1]  # (B*K, V)
        for step in range(n):
            logp = torch.log_softmax(logits.float(), dim=-1)  # (B*K, V)
            if config.repetition_penalty != 1.0:  # as transformers: on log-probs, over the prompt + beam
                seen = torch.cat([prompts, running[:, :, :step].flatten(0, 1)], 1)
                logp = apply_repetition_penalty(logp, seen, config.repetition_penalty)
            vocab = logp.shape[-1]
            total = (logp.view(b, k, vocab) + running_scores[:, :, None]).view(b, k * vocab)  # (B, K*V)
            top_scores, top_index = torch.topk(total, keep)  # (B, 2K), sorted
            source, token = top_index // vocab, top_index % vocab
            candidates = _gather(running, source)  # (B, 2K, N)
            candidates[:, :, step] = token
            hits = torch.isin(token, eos) | (step == n - 1)  # (B, 2K)

            # The best K candidates that did not stop keep running.
            alive_scores = top_scores + hits.float() * NEG
            chosen = torch.topk(alive_scores, k).indices  # (B, K)
            running, running_scores = _gather(candidates, chosen), _gather(alive_scores, chosen)
            parent = _gather(source, chosen)  # (B, K) which old beam each continues

            # Stopped candidates among the top K join the finished pool if they beat it.
            just_finished = hits & top_k_mask
            pool_full = finished.filled.all(-1, keepdim=True) & (config.early_stopping is True)
            scored = top_scores / ((step + 1) ** lp) + (pool_full | ~improvable | ~just_finished).float() * NEG
            finished.add(candidates, scored, step + 1, just_finished)

            best_len = n if (config.early_stopping == "never" and lp > 0) else step + 1
            improvable &= (running_scores[:, :1] / (best_len ** lp) > finished.worst()).any(-1, keepdim=True)
            open_beams = not (bool(finished.filled.all()) and config.early_stopping is True)
            if not (bool(improvable.any()) and open_beams and not bool(hits.all())):
                break
            session.reorder((parent + torch.arange(b, device=device)[:, None] * k).flatten())  # (B*K,) rows
            logits = session.feed(running[:, :, step].reshape(b * k, 1))[:, -1]
    finally:
        session.close()
        model.train(was_training)
    return torch.cat([input_ids, finished.best(config.eos_ids[0] if config.eos_ids else 0)], dim=1)
