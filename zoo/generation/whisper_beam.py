"""Whisper's beam search: openai-whisper's BeamSearchDecoder (20250625) as a selection rule on the one search
loop (beam_search.run_beams), rather than transformers' rule, so the same weights give the same beams;
Whisper's logit rules are its processors, before the log-softmax as openai-whisper applies them.

Each step, every beam proposes its K + 1 likeliest next tokens (at the first step the K beams
are equal, so only one proposes); the candidates, scored by their sum of log-probabilities,
are taken best first: those ending in EOT are finished, until K unfinished ones are found,
which carry on. Finished candidates are collected best first, up to round(K * patience) per
audio (Kasai et al. 2022, "Beam Decoding with Controlled Patience"); the search stops once
every audio has that many. Scores are plain sums: the length penalty belongs to the ranking of
the finished candidates afterwards (whisper_decode.rank). Where fewer than K finished, the best
running beams count as finished.

Legend: B audios, K beams, V vocabulary, L tokens so far, T initial tokens.
"""
from __future__ import annotations

from collections.abc import Callable

import torch

from zoo.generation.beam_search import run_beams
from zoo.generation.session import Session

Candidates = list[tuple[tuple[int, ...], float]]  # (sampled tokens without EOT, sum of log-probs), per audio


def _step_candidates(logprobs: torch.Tensor, sums: torch.Tensor, k: int,
                     first: bool) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """logprobs (B*K, V), sums (B*K,) -> candidates best first: scores, tokens, source rows, each (B, C)."""
    b = sums.shape[0] // k
    top, token = logprobs.topk(k + 1, dim=-1)  # (B*K, K+1)
    scores = sums[:, None] + top  # (B*K, K+1)
    source = torch.arange(b * k, device=sums.device)[:, None].expand(-1, k + 1)  # (B*K, K+1)
    beams = 1 if first else k  # the first step's beams are the same sequence: propose once
    scores, token, source = (x.view(b, k, k + 1)[:, :beams].reshape(b, beams * (k + 1))
                             for x in (scores, token, source))  # (B, C)
    # Stable: equal scores keep beam-then-rank order, as Python's sort of the candidates.
    order = scores.sort(dim=-1, descending=True, stable=True).indices
    return scores.gather(1, order), token.gather(1, order), source.gather(1, order)


class _FirstFinished:
    """Each audio's finished candidates, in the order they were found (ties rank by that order)."""

    def __init__(self, b: int, max_candidates: int):
        self.max = max_candidates
        self.found: list[dict[tuple[int, ...], float]] = [{} for _ in range(b)]

    def add(self, audio: int, sequence: tuple[int, ...], score: float) -> None:
        if len(self.found[audio]) < self.max:
            self.found[audio][sequence] = score

    @property
    def complete(self) -> bool:
        return all(len(found) >= self.max for found in self.found)

    def fill(self, sampled: torch.Tensor, sums: torch.Tensor, k: int) -> list[Candidates]:
        """Audios with fewer than K finished take their best running beams (B*K, n), best first."""
        for audio, found in enumerate(self.found):
            rows = range(audio * k, (audio + 1) * k)
            for row in sorted(rows, key=lambda r: float(sums[r]), reverse=True):
                if len(found) >= k:
                    break
                found[tuple(sampled[row].tolist())] = float(sums[row])
        return [list(found.items()) for found in self.found]


class WhisperBeams:
    """openai-whisper's selection rule (see the module docstring) for B audios of K beams, T initial tokens."""

    def __init__(self, rules: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], b: int, k: int, t: int,
                 eot: int, patience: float | None, device: torch.device):
        self.rules, self.b, self.k, self.t, self.eot = rules, b, k, t, eot
        max_candidates = round(k * (patience or 1.0))
        if max_candidates <= 0:
            raise ValueError(f"beam_size {k} and patience {patience} must give at least one candidate")
        self.finished = _FirstFinished(b, max_candidates)
        self.sums = torch.zeros(b * k, device=device)  # (B*K,) float32, as the reference keeps them

    def step(self, logits: torch.Tensor, tokens: torch.Tensor,
             step: int) -> tuple[torch.Tensor, torch.Tensor, bool]:
        b, k = self.b, self.k
        logprobs = torch.log_softmax(self.rules(logits.float(), tokens), dim=-1)  # (B*K, V)
        scores, token, source = _step_candidates(logprobs, self.sums, k, first=step == 0)  # (B, C)
        ended = token == self.eot
        alive_before = (~ended).cumsum(-1) - (~ended).long()  # (B, C) unfinished candidates ahead
        carry = ~ended & (alive_before < k)  # the K best unfinished ones (there are always K)
        for audio, column in (ended & (alive_before < k)).nonzero().tolist():  # best first per audio
            self.finished.add(audio, tuple(tokens[source[audio, column], self.t:].tolist()),
                              scores[audio, column].item())
        pick = carry.nonzero()[:, 1].view(b, k)  # (B, K) columns, best first
        rows, self.sums = source.gather(1, pick).flatten(), scores.gather(1, pick).flatten()  # (B*K,)
        return rows, token.gather(1, pick).flatten(), self.finished.complete

    def candidates(self, tokens: torch.Tensor) -> list[Candidates]:
        """Each audio's finished candidates after the search over tokens (B*K, T + n)."""
        return self.finished.fill(tokens[:, self.t:], self.sums, self.k)


@torch.inference_mode()
def whisper_beam_search(session: Session, tokens: torch.Tensor, logits: torch.Tensor,
                        rules: Callable[[torch.Tensor, torch.Tensor], torch.Tensor], *, steps: int, eot: int,
                        beam_size: int, patience: float | None = None) -> list[Candidates]:
    """Continue a prefilled session of B*K rows (each audio's initial tokens K times).

    tokens (B*K, T) the initial tokens, logits (B*K, V) the prefill's last ones; at most `steps`
    tokens are sampled. Returns each audio's finished candidates (sampled tokens, EOT excluded,
    and their summed log-probabilities), in the order found.
    """
    k = beam_size
    if tokens.shape[0] % k:
        raise ValueError(f"the {tokens.shape[0]} rows must be beam_size ({k}) per audio")
    rule = WhisperBeams(rules, tokens.shape[0] // k, k, tokens.shape[1], eot, patience, tokens.device)
    return rule.candidates(run_beams(session, tokens, logits, rule, steps))
