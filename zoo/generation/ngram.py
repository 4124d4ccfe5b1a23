"""A token n-gram language model, and shallow fusion of it into Whisper's decoding.

    lm = NgramLM.fit([tokenizer.encode(" " + s) for s in sentences], order=6, eos=tokenizer.eot)
    lm.logprobs([ids of " in the beg"])          # (V,) log P(next token | the history), EOS included
    zoo.transcribe(model, audio, shallow_fusion=ShallowFusion(lm, weight=0.3), beam_size=4, ...)

NgramLM: counts of every n-gram up to `order` tokens over sentences that each end with `eos` (a sentence
starts after order - 1 `eos`: the same token marks both ends), smoothed by Witten-Bell interpolation
(Witten & Bell 1991; Chen & Goodman 1998, section 2.4): with c(h, w) the count of w after history h,
c(h) the count of h and T(h) the number of distinct tokens seen after h,

    P(w | h) = (c(h, w) + T(h) P(w | h')) / (c(h) + T(h))      where h' is h without its first token,

down to the empty history, over a floor that is uniform over the tokens the model has seen (tokens never
seen get FLOOR of that mass). Its tokens are whatever ids the sentences hold, so a character vocabulary and
a BPE work alike. Counts are kept as strings (one character per token id), for speed and memory.

ShallowFusion: the decoder's logits plus weight * log P_lm(token | the text sampled so far) (Gulcehre et al.
2015, "shallow fusion"), as a logit rule after Whisper's own. Greedy decoding and beam search take the
fused scores the same way (beam search ranks the log-softmax of the rule's output). Not an openai-whisper
option: zoo.transcribe and decode accept it as `shallow_fusion`.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

import torch

FLOOR = 1e-6  # of the uniform floor's mass given to a token the model has never seen
_BASE = 0x100  # token id -> chr(_BASE + id): past the control characters, any id up to 0x10FFFF - _BASE


def _text(ids: Iterable[int]) -> str:
    return "".join(chr(_BASE + int(i)) for i in ids)


class NgramLM:
    """Witten-Bell interpolated n-gram model over token ids; see the module docstring."""

    def __init__(self, order: int, eos: int, counts: Counter, vocab: Sequence[int], vocab_size: int):
        if order < 1:
            raise ValueError(f"order must be at least 1, got {order}")
        self.order, self.eos, self.counts, self.vocab_size = order, eos, counts, vocab_size
        self.vocab = sorted(set(vocab) | {eos})  # tokens seen (and EOS): where the floor puts its mass
        if self.vocab[-1] >= vocab_size:
            raise ValueError(f"token {self.vocab[-1]} is outside the vocabulary of {vocab_size}")
        self._symbols = [chr(_BASE + t) for t in self.vocab]
        self._index = torch.tensor(self.vocab, dtype=torch.long)
        # c(h) and T(h) of every history h seen: from the n-grams one token longer
        self._totals: Counter = Counter()
        self._types: Counter = Counter()
        for gram, n in counts.items():
            self._totals[gram[:-1]] += n
            self._types[gram[:-1]] += 1

    @classmethod
    def fit(cls, sequences: Iterable[Sequence[int]], order: int, eos: int, vocab_size: int | None = None) -> NgramLM:
        """Count the n-grams (1 to order tokens) of sequences of ids (each without its EOS: it is appended)."""
        counts: Counter = Counter()
        pad = chr(_BASE + eos) * (order - 1)
        seen: set[int] = set()
        for ids in sequences:
            seen.update(ids)
            text = pad + _text(ids) + chr(_BASE + eos)
            for end in range(order - 1, len(text)):  # each token after the padding, with its histories
                for n in range(1, order + 1):
                    counts[text[end + 1 - n:end + 1]] += 1
        if not seen:
            raise ValueError("NgramLM.fit: no tokens to count (empty sequences)")
        return cls(order, eos, counts, sorted(seen), vocab_size or max(max(seen), eos) + 1)

    def probs(self, history: Sequence[int]) -> torch.Tensor:
        """P(next token | history) over the vocabulary (V,); history: the ids so far, without the start padding."""
        text = (chr(_BASE + self.eos) * (self.order - 1) + _text(history[-(self.order - 1):] if self.order > 1 else []))
        p = torch.full((len(self.vocab),), 1.0 / len(self.vocab), dtype=torch.float64)
        for n in range(self.order):  # histories of 0 .. order - 1 tokens, shortest first
            h = text[len(text) - n:] if n else ""
            total = self._totals.get(h)
            if not total:
                continue  # an unseen history: the shorter one's estimate stands
            types = self._types[h]
            seen = torch.tensor([self.counts.get(h + s, 0) for s in self._symbols], dtype=torch.float64)
            p = (seen + types * p) / (total + types)
        out = torch.full((self.vocab_size,), FLOOR / len(self.vocab), dtype=torch.float64)
        out[self._index] = p * (1 - FLOOR * (self.vocab_size - len(self.vocab)) / len(self.vocab))
        return out

    def logprobs(self, history: Sequence[int]) -> torch.Tensor:
        return self.probs(history).log()

    def sentence_logprob(self, ids: Sequence[int]) -> float:
        """log P(ids, then EOS): what perplexity is computed from."""
        return sum(math.log(float(self.probs(ids[:i])[t])) for i, t in enumerate([*ids, self.eos]))


class ShallowFusion:
    """`weight` times an NgramLM's log-probs added to the decoder's logits; rule() binds it to a decoding's
    first sampled position (the LM's history is what was sampled since)."""

    def __init__(self, lm: NgramLM, weight: float):
        if weight < 0:
            raise ValueError(f"shallow fusion weight must be >= 0, got {weight}")
        self.lm, self.weight = lm, weight

    def rule(self, sample_begin: int):
        def fuse(logits: torch.Tensor, tokens: torch.Tensor) -> torch.Tensor:  # (R, V), (R, L)
            if logits.shape[-1] != self.lm.vocab_size:
                raise ValueError(f"shallow fusion: the decoder has {logits.shape[-1]} tokens, the language model "
                                 f"{self.lm.vocab_size}: fit it on this tokenizer's ids")
            fused = torch.stack([self.lm.logprobs(row[sample_begin:].tolist()) for row in tokens])  # (R, V)
            return logits + self.weight * fused.to(logits.dtype)
        return fuse

    def __repr__(self) -> str:
        return f"ShallowFusion({self.lm.order}-gram, weight={self.weight})"
