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


@torch.inference_mode()
def beam_search(model: nn.Module, input_ids: torch.Tensor, config: GenerationConfig,
                attention_mask: torch.Tensor | None = None) -> torch.Tensor:
    """(B, T) prompts -> (B, T + L) best beams; rows that finished early are padded with the first EOS id."""
    if config.do_sample:
        raise ValueError("beam search here is deterministic: do_sample must be False with num_beams > 1")
    if config.stop_sequences:
        raise ValueError("stop_sequences are not supported with beam search; use eos_id")
    b, t = input_ids.shape
    k, n, lp = config.num_beams, config.max_new_tokens, config.length_penalty
    device = input_ids.device
    eos = torch.tensor(config.eos_ids, device=device, dtype=torch.long)
    keep = max(2, 1 + len(config.eos_ids)) * k
    top_k_mask = torch.arange(keep, device=device) < k  # only the top K candidates may finish

    mask = None if attention_mask is None else attention_mask.repeat_interleave(k, dim=0)
    was_training = model.training
    model.eval()
    session = Session(model, input_ids.repeat_interleave(k, dim=0), n, mask)  # (B*K, T) rows
    running = torch.zeros(b, k, n, dtype=torch.long, device=device)      # new tokens of running beams
    running_scores = torch.full((b, k), NEG, device=device)
    running_scores[:, 0] = 0.0  # identical beams at the start: only the first may expand
    finished = torch.zeros(b, k, n, dtype=torch.long, device=device)
    finished_scores = torch.full((b, k), NEG, device=device)
    finished_len = torch.zeros(b, k, dtype=torch.long, device=device)
    is_finished = torch.zeros(b, k, dtype=torch.bool, device=device)
    improvable = torch.ones(b, 1, dtype=torch.bool, device=device)
    try:
        logits = session.feed(input_ids.repeat_interleave(k, dim=0), keep=1)[:, -1]  # (B*K, V)
        for step in range(n):
            logp = torch.log_softmax(logits.float(), dim=-1)  # (B*K, V)
            if config.repetition_penalty != 1.0:  # as transformers: on log-probs, over the prompt + beam
                seen = torch.cat([input_ids.repeat_interleave(k, dim=0), running[:, :, :step].flatten(0, 1)], 1)
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
            scored = top_scores / ((step + 1) ** lp)
            pool_full = is_finished.all(-1, keepdim=True) & (config.early_stopping is True)
            scored = scored + (pool_full | ~improvable | ~just_finished).float() * NEG
            merged = torch.topk(torch.cat([finished_scores, scored], dim=1), k).indices
            finished = _gather(torch.cat([finished, candidates], dim=1), merged)
            finished_scores = _gather(torch.cat([finished_scores, scored], dim=1), merged)
            finished_len = _gather(torch.cat([finished_len, torch.full_like(token, step + 1)], dim=1), merged)
            is_finished = _gather(torch.cat([is_finished, just_finished], dim=1), merged)

            best_len = n if (config.early_stopping == "never" and lp > 0) else step + 1
            best_running = running_scores[:, :1] / (best_len ** lp)
            worst_finished = torch.where(is_finished, finished_scores.min(1, keepdim=True).values,
                                         torch.full_like(finished_scores, NEG))
            improvable &= (best_running > worst_finished).any(-1, keepdim=True)
            open_beams = not (bool(is_finished.all()) and config.early_stopping is True)
            if not (bool(improvable.any()) and open_beams and not bool(hits.all())):
                break
            rows = (parent + torch.arange(b, device=device)[:, None] * k).flatten()  # (B*K,)
            session.reorder(rows)
            logits = session.feed(running[:, :, step].reshape(b * k, 1))[:, -1]
    finally:
        session.close()
        model.train(was_training)
    length = int(finished_len[:, 0].max())
    best = finished[:, 0, :length]  # (B, L)
    pad = config.eos_ids[0] if config.eos_ids else 0
    best = best.masked_fill(torch.arange(length, device=device) >= finished_len[:, :1], pad)
    return torch.cat([input_ids, best], dim=1)

