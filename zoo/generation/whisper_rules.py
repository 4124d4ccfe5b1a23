"""Whisper's logit rules: which tokens may come next, given the tokens so far.

Checked against openai-whisper 20250625's decoding.py (SuppressBlank, SuppressTokens,
ApplyTimestampRules), applied in its order: blank, suppressed tokens, timestamps. Each rule
takes logits (B, V) and the tokens so far (B, L) (the initial tokens included: sampling begins
at `sample_begin`), writes -inf over the forbidden tokens in place and returns the logits; the
timestamp rules run on every row at once rather than row by row.

Legend: B rows, L tokens so far, n sampled tokens (L - sample_begin), V vocabulary.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import torch

NEG_INF = float("-inf")
Rule = Callable[[torch.Tensor, torch.Tensor], torch.Tensor]


class SuppressBlank:
    """No blank start: the space token(s) and EOT are forbidden at the first sampled position."""

    def __init__(self, blank_ids: Sequence[int], sample_begin: int):
        self.blank_ids, self.sample_begin = list(blank_ids), sample_begin

    def __call__(self, logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        if tokens.shape[1] == self.sample_begin:
            logits[:, self.blank_ids] = NEG_INF
        return logits


class SuppressTokens:
    """These ids are never sampled."""

    def __init__(self, ids: Sequence[int]):
        self.ids = list(ids)
        # An index tensor per device, made once: indexing with the list built one at every step (0.3 ms
        # of whisper_tiny's ~8 ms per token).
        self._index: dict[torch.device, torch.Tensor] = {}

    def __call__(self, logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        index = self._index.get(logits.device)
        if index is None:
            index = self._index[logits.device] = torch.tensor(self.ids, dtype=torch.long, device=logits.device)
        return logits.index_fill_(-1, index, NEG_INF)


class TimestampRules:
    """Timestamp tokens (ids from `timestamp_begin`, 0.02 s apart) as Whisper writes them.

    - <|notimestamps|> is never sampled (without_timestamps puts it in the prompt instead);
    - timestamps come in pairs (end of one segment, start of the next), except right before EOT:
      after a pair comes text, after a lone timestamp another timestamp or EOT;
    - they never decrease, and a segment is never empty: after a lone timestamp the next is at
      least as late, otherwise strictly later than the last one;
    - the first sampled token is a timestamp, at most `max_initial_index` steps in (None: any);
    - where the timestamps together are more probable than the likeliest text token, a timestamp
      must come next.
    """

    def __init__(self, timestamp_begin: int, eot: int, no_timestamps: int, sample_begin: int,
                 max_initial_index: int | None):
        self.begin, self.eot, self.no_timestamps = timestamp_begin, eot, no_timestamps
        self.sample_begin, self.max_initial_index = sample_begin, max_initial_index

    def __call__(self, logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        logits[:, self.no_timestamps] = NEG_INF
        sampled = tokens[:, self.sample_begin:]  # (B, n)
        if sampled.shape[1] == 0:
            logits[:, :self.begin] = NEG_INF  # start with a timestamp ...
            if self.max_initial_index is not None:  # ... not too late
                logits[:, self.begin + self.max_initial_index + 1:] = NEG_INF
        else:
            self._pairs_and_order(logits, sampled)
        return self._timestamps_if_likelier(logits)

    def _pairs_and_order(self, logits: torch.Tensor, sampled: torch.Tensor) -> None:
        n = sampled.shape[1]
        is_time = sampled >= self.begin  # (B, n)
        last = is_time[:, -1]  # (B,)
        # Fewer than two sampled tokens count as "a timestamp before the last one".
        before_last = is_time[:, -2] if n >= 2 else torch.ones_like(last)
        logits[last & before_last, self.begin:] = NEG_INF  # a pair just closed: text (or EOT) next
        logits[last & ~before_last, :self.eot] = NEG_INF   # a lone timestamp: no text next

        where = torch.where(is_time, torch.arange(n, device=sampled.device), -1).amax(-1)  # (B,) last timestamp
        latest = sampled.gather(1, where.clamp(min=0)[:, None])[:, 0]  # (B,) its token id
        # After a lone timestamp its pair may repeat it; otherwise the next one must be later.
        bound = torch.where(last & ~before_last, latest, latest + 1)  # (B,) first allowed timestamp id
        ids = torch.arange(logits.shape[-1], device=logits.device)  # (V,)
        earlier = (ids >= self.begin) & (ids < bound[:, None]) & (where >= 0)[:, None]  # (B, V)
        logits.masked_fill_(earlier, NEG_INF)

    def _timestamps_if_likelier(self, logits: torch.Tensor) -> torch.Tensor:
        logprobs = torch.log_softmax(logits.float(), dim=-1)  # (B, V)
        timestamp = logprobs[:, self.begin:].logsumexp(-1)  # (B,) all timestamps together
        text = logprobs[:, :self.begin].amax(-1)  # (B,) the likeliest other token
        logits[timestamp > text, :self.begin] = NEG_INF
        return logits


class LogitRules:
    """Rules applied in order, each on the previous one's output."""

    def __init__(self, rules: Iterable[Rule]):
        self.rules = list(rules)

    def __call__(self, logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:
        for rule in self.rules:
            logits = rule(logits, tokens)
        return logits


def reads_as_ids(text: str) -> bool:
    """Whether suppressed_tokens reads `text` as ids: '' or comma-separated ints ('-1,220')."""
    try:
        return not text or bool([int(part) for part in text.split(",")])
    except ValueError:
        return False


def suppressed_tokens(tokenizer, suppress: str | Iterable[int] | None) -> tuple[int, ...]:
    """The ids `suppress_tokens` names: "-1" (or -1 in a list) stands for the tokenizer's
    non_speech_tokens; Whisper's control tokens are added (transcribe, translate, sot, sot_prev,
    sot_lm, and no_speech, whose probability is read separately). Empty or None: nothing at all,
    control tokens included (as openai-whisper, which then adds no suppression rule)."""
    if not suppress:
        return ()
    ids = [int(t) for t in suppress.split(",")] if isinstance(suppress, str) else [int(t) for t in suppress]
    if -1 in ids:
        ids = [t for t in ids if t >= 0] + list(tokenizer.non_speech_tokens)
    ids += [tokenizer.transcribe, tokenizer.translate, tokenizer.sot, tokenizer.sot_prev, tokenizer.sot_lm]
    if tokenizer.no_speech is not None:
        ids.append(tokenizer.no_speech)
    return tuple(sorted(set(ids)))


def whisper_rules(tokenizer, sample_begin: int, *, suppress_blank: bool = True,
                  suppress: Sequence[int] = (), timestamps: bool = True,
                  max_initial_index: int | None = None) -> LogitRules:
    """Whisper's rules in openai-whisper's order, for sampling that starts after `sample_begin` tokens."""
    rules: list[Rule] = []
    if suppress_blank:
        rules.append(SuppressBlank(tokenizer.encode(" ") + [tokenizer.eot], sample_begin))
    if suppress:
        rules.append(SuppressTokens(suppress))
    if timestamps:
        rules.append(TimestampRules(tokenizer.timestamp_begin, tokenizer.eot, tokenizer.no_timestamps,
                                    sample_begin, max_initial_index))
    return LogitRules(rules)
