"""Beam search on the KV cache, reordering the cache instead of recomputing it: one search loop
(`run_beams`: each step a selection rule picks every row's parent beam and next token, the session's
cache follows the parents, the chosen tokens are fed), and the selection rules of the two references it
must agree with: transformers' here (`TransformersBeams`, behind `generate(num_beams=)`), openai-whisper's in
whisper_beam.py. Logit processors (repetition penalty, Whisper's rules) belong to the rules.

transformers' rule is its vectorised beam search (transformers 5, `GenerationMixin._beam_search`), so the
same weights give the same beams: each step keeps the best 2K (more with several EOS ids) of K x V
continuations; those ending in EOS (or reaching the length limit) among the top K become finished
hypotheses scored sum log p / new_tokens ** length_penalty; the best K unfinished ones carry on.
`early_stopping` True stops a row once K hypotheses are finished, False stops when no running beam can
still beat the worst finished one at the current length, "never" also considers the longest length when
length_penalty > 0.

Legend: B batch, K beams, V vocabulary, T prompt length, L tokens so far, N max new tokens.
"""
from __future__ import annotations

from typing import Protocol

import torch
from torch import nn

from zoo.generation.config import GenerationConfig
from zoo.generation.sampling import apply_repetition_penalty, ban_tokens
from zoo.generation.session import Session, evaluating

NEG = -1.0e9  # "impossible" score, finite so sums stay ordered


def _gather(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """x (B, M, ...) picked along dim 1 by index (B, K) -> (B, K, ...)."""
    return x.gather(1, index.view(*index.shape, *([1] * (x.dim() - 2))).expand(*index.shape, *x.shape[2:]))


class BeamRule(Protocol):
    """A reference's selection rule: given the logits after every row's last token and the rows' tokens so
    far (B*K, L), each row's parent beam (B*K,) row indices, its next token (B*K,), and whether to stop."""

    def step(self, logits: torch.Tensor, tokens: torch.Tensor,
             step: int) -> tuple[torch.Tensor, torch.Tensor, bool]: ...


def run_beams(session: Session, tokens: torch.Tensor, logits: torch.Tensor, rule: BeamRule,
              steps: int) -> torch.Tensor:
    """The search loop both rules run on: continue a prefilled session of B*K rows (each prompt K times,
    adjacent) for at most `steps` tokens. tokens (B*K, T), logits (B*K, V): the prefill's last.
    Returns the rows' tokens (B*K, T + n) after the last step."""
    for step in range(steps):
        rows, token, stop = rule.step(logits, tokens, step)
        # Rows 0, 1, ... in order move nothing, unless some were dropped after them (a rule that shrinks the batch).
        kept = rows.shape[0] == tokens.shape[0] and torch.equal(rows, torch.arange(rows.shape[0], device=rows.device))
        tokens = torch.cat([tokens[rows], token[:, None]], dim=1)  # (B*K, L+1)
        if stop or step == steps - 1:
            break
        if not kept:
            session.reorder(rows)
        logits = session.feed(tokens[:, -1:])[:, -1]
    return tokens


class _BestFinished:
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

    def keep(self, rows: torch.Tensor) -> None:
        """Only batch rows `rows` (a mask or indices) stay in the pool."""
        self.tokens, self.scores = self.tokens[rows], self.scores[rows]
        self.length, self.filled = self.length[rows], self.filled[rows]

    def worst(self) -> torch.Tensor:
        """(B, K): each row's lowest finished score where a slot is filled, NEG elsewhere."""
        return torch.where(self.filled, self.scores.min(1, keepdim=True).values, torch.full_like(self.scores, NEG))


class TransformersBeams:
    """transformers' selection rule (see the module docstring) for B prompts of T tokens, K beams each.

    shrink: a prompt whose K best finished hypotheses no running beam can beat any more (transformers keeps
    computing its beams, and ignores them) leaves the search: its best is kept, and the rows `step` returns hold
    only the prompts still searched, so the session decodes fewer rows (CTranslate2 drops finished batch entries
    alike). The prompts still searched are `searched`, in order; `best` gives every prompt's result. The stop rule
    then reads the searched prompts only: where transformers would go on for a dropped prompt's candidates alone,
    the others' beams score about -1e9 and can no longer beat their finished hypotheses: the best stay."""

    def __init__(self, config: GenerationConfig, b: int, t: int, device: torch.device, shrink: bool = False):
        k, n = config.num_beams, config.max_new_tokens
        self.config, self.k, self.n, self.t, self.shrink = config, k, n, t, shrink
        self.searched = torch.arange(b, device=device)  # (B',) the prompts still searched
        self.best_tokens = torch.zeros(b, n, dtype=torch.long, device=device)  # each prompt's best, once done
        self.best_length = torch.zeros(b, dtype=torch.long, device=device)
        self.eos = torch.tensor(config.eos_ids, device=device, dtype=torch.long)
        self.keep = max(2, 1 + len(config.eos_ids)) * k
        self.top_k_mask = torch.arange(self.keep, device=device) < k  # only the top K candidates may finish
        self.running_scores = torch.full((b, k), NEG, device=device)
        self.running_scores[:, 0] = 0.0  # identical beams at the start: only the first may expand
        self.finished = _BestFinished(b, k, n, device)
        self.improvable = torch.ones(b, 1, dtype=torch.bool, device=device)

    def step(self, logits: torch.Tensor, tokens: torch.Tensor,
             step: int) -> tuple[torch.Tensor, torch.Tensor, bool]:
        config, k, n, lp = self.config, self.k, self.n, self.config.length_penalty
        b = self.searched.shape[0]
        logp = torch.log_softmax(logits.float(), dim=-1)  # (B*K, V)
        if config.repetition_penalty != 1.0:  # as transformers: on log-probs, over the prompt + beam
            logp = apply_repetition_penalty(logp, tokens, config.repetition_penalty)
        if config.bans:
            logp = ban_tokens(logp, tokens, config, step)
        vocab = logp.shape[-1]
        total = (logp.view(b, k, vocab) + self.running_scores[:, :, None]).view(b, k * vocab)  # (B, K*V)
        top_scores, top_index = torch.topk(total, self.keep)  # (B, 2K), sorted
        source, token = top_index // vocab, top_index % vocab
        hits = torch.isin(token, self.eos) | (step == n - 1)  # (B, 2K)

        # The best K candidates that did not stop keep running.
        alive_scores = top_scores + hits.float() * NEG
        chosen = torch.topk(alive_scores, k).indices  # (B, K)
        self.running_scores = _gather(alive_scores, chosen)
        parent = _gather(source, chosen)  # (B, K) which old beam each continues

        # Stopped candidates among the top K join the finished pool if they beat it. On most steps none may join:
        # every candidate would be offered at about NEG, below every score the pool holds, so it is left as it is.
        finished = self.finished
        just_finished = hits & self.top_k_mask
        pool_full = finished.filled.all(-1, keepdim=True) & (config.early_stopping is True)
        barred = pool_full | ~self.improvable | ~just_finished  # (B, 2K)
        if not bool(barred.all()):
            running = torch.zeros(b, k, n, dtype=torch.long, device=tokens.device)  # new tokens of running beams
            running[:, :, :step] = tokens[:, self.t:].view(b, k, step)
            candidates = _gather(running, source)  # (B, 2K, N)
            candidates[:, :, step] = token
            finished.add(candidates, top_scores / ((step + 1) ** lp) + barred.float() * NEG, step + 1, just_finished)

        best_len = n if (config.early_stopping == "never" and lp > 0) else step + 1
        self.improvable &= (self.running_scores[:, :1] / (best_len ** lp) > finished.worst()).any(-1, keepdim=True)
        open_beams = not (bool(finished.filled.all()) and config.early_stopping is True)
        stop = not (bool(self.improvable.any()) and open_beams and not bool(hits.all()))
        rows = parent + torch.arange(b, device=parent.device)[:, None] * k  # (B, K)
        chosen_tokens = _gather(token, chosen)  # (B, K)
        if self.shrink and not stop and not bool(self.improvable.all()):
            searching = self.improvable[:, 0]  # (B,)
            self._keep_best(~searching)
            rows, chosen_tokens = rows[searching], chosen_tokens[searching]
            self.searched, self.running_scores = self.searched[searching], self.running_scores[searching]
            self.improvable = self.improvable[searching]
            finished.keep(searching)
        return rows.flatten(), chosen_tokens.flatten(), stop

    def _keep_best(self, done: torch.Tensor) -> None:
        """Store the best finished hypothesis of the searched prompts `done` (a (B',) mask)."""
        prompts = self.searched[done]
        self.best_tokens[prompts] = self.finished.tokens[done, 0]
        self.best_length[prompts] = self.finished.length[done, 0]

    def best(self, pad: int) -> torch.Tensor:
        """(B, L) the best hypothesis of each prompt, shorter ones padded with `pad`."""
        self._keep_best(torch.ones_like(self.searched, dtype=torch.bool))
        length = int(self.best_length.max())
        best = self.best_tokens[:, :length]  # (B, L)
        return best.masked_fill(torch.arange(length, device=best.device) >= self.best_length[:, None], pad)


def _check_beam_options(config: GenerationConfig, vocab_size: int) -> None:
    config.check_ids(vocab_size)
    if config.do_sample:
        raise ValueError("beam search here is deterministic: do_sample must be False with num_beams > 1")
    if config.stop_sequences:
        raise ValueError("stop_sequences are not supported with beam search; use eos_id")


@torch.inference_mode()
def beam_search(model: nn.Module, input_ids: torch.Tensor, config: GenerationConfig,
                attention_mask: torch.Tensor | None = None) -> torch.Tensor:
    """(B, T) prompts -> (B, T + L) best beams; rows that finished early are padded with config.pad."""
    _check_beam_options(config, model.vocab_size)
    b, k = input_ids.shape[0], config.num_beams
    prompts = input_ids.repeat_interleave(k, dim=0)  # (B*K, T) rows
    mask = None if attention_mask is None else attention_mask.repeat_interleave(k, 0)
    with evaluating(model):
        session = Session(model, prompts, config.max_new_tokens, mask, compile=config.compile)
        # A compiled step keeps its batch (another would compile anew): there every prompt's rows stay.
        rule = TransformersBeams(config, b, input_ids.shape[1], input_ids.device, shrink=session.step_fn is None)
        try:
            run_beams(session, prompts, session.feed(prompts, keep=1)[:, -1], rule, config.max_new_tokens)
        finally:
            session.close()
    return torch.cat([input_ids, rule.best(config.pad)], dim=1)
