"""Token front-end: word embeddings (+ learned positions, + token types, + norm).

GPT-2: wte + wpe. BERT: word + position + token-type, then LayerNorm and
dropout. LLaMA: word embeddings only (positions enter as RoPE inside attention).
MarianMT / the 2017 paper: word embeddings x sqrt(D) + fixed sinusoids (`scale`, `positions`).

Legend: B batch, T tokens, D model width, V vocabulary.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from backbones.dropout import apply_dropout
from backbones.frontends.checks import check_token_layout, tracing
from backbones.positions import LearnedPositions, position_range


class TokenEmbedding(nn.Module):
    def __init__(self, vocab_size: int, dim: int, *, max_positions: int | None = None,
                 type_vocab_size: int = 0, norm: nn.Module | None = None, dropout: float = 0.0,
                 positions: nn.Module | None = None, scale: float = 1.0):
        """positions: a position table module (SinusoidPositions) in place of learned max_positions ones;
        scale: the word embeddings' factor before positions are added (sqrt(D) in the 2017 paper)."""
        super().__init__()
        self.vocab_size = vocab_size
        self.tokens = nn.Embedding(vocab_size, dim)
        self.positions = positions or (LearnedPositions(max_positions, dim) if max_positions else None)
        self.scale = scale
        self.token_types = nn.Embedding(type_vocab_size, dim) if type_vocab_size else None
        self.norm = norm
        self.drop = nn.Dropout(dropout)

    def forward(self, input_ids: torch.Tensor, positions: torch.Tensor | range | None = None,
                token_type_ids: torch.Tensor | None = None, *, sparse_grad: bool = False) -> torch.Tensor:
        """input_ids (B, T), positions (T,) or (B, T) ids or a range, token_type_ids (B, T) -> (B, T, D):
        lookup, then add_positions."""
        return self.add_positions(self.lookup(input_ids, sparse_grad=sparse_grad), positions, token_type_ids)

    def lookup(self, input_ids: torch.Tensor, *, sparse_grad: bool = False, name: str = "input_ids") -> torch.Tensor:
        """input_ids (B, T) -> word embeddings (B, T, D), nothing added (name: the argument, in errors).

        sparse_grad: the word embeddings' gradient leaves as a sparse tensor (the B*T looked-up rows),
        for a caller whose output head shares this matrix (tied): autograd then adds those rows into the
        head's dense gradient instead of zero-filling, scattering into and adding a second V x D matrix.
        Without a dense partner the parameter's .grad would end up sparse, which AdamW rejects, so the
        default stays dense.
        """
        check_token_ids(input_ids, self.vocab_size, name)
        if sparse_grad and torch.is_grad_enabled() and isinstance(self.tokens, nn.Embedding) \
                and self.tokens.weight.requires_grad and not torch.compiler.is_compiling():
            return F.embedding(input_ids, self.tokens.weight, self.tokens.padding_idx, sparse=True)  # (B, T, D)
        return self.tokens(input_ids)  # (B, T, D)

    def add_positions(self, x: torch.Tensor, positions: torch.Tensor | range | None = None,
                      token_type_ids: torch.Tensor | None = None) -> torch.Tensor:
        """Word embeddings x (B, T, D) x scale + positions + token types, then the norm and dropout."""
        if self.scale != 1.0:
            x = x * self.scale
        if self.positions is not None:
            if positions is None:
                positions = position_range(0, x.shape[1], x.device)
            x = x + self.positions(positions)
        if self.token_types is not None:
            if token_type_ids is None:
                token_type_ids = torch.zeros(x.shape[:2], dtype=torch.long, device=x.device)
            else:
                check_token_ids(token_type_ids, self.token_types.num_embeddings, "token_type_ids", "the token types")
                if token_type_ids.shape != x.shape[:2]:
                    raise ValueError(f"token_type_ids must be shaped like input_ids {tuple(x.shape[:2])}; got shape "
                                     f"{tuple(token_type_ids.shape)}")
            x = x + self.token_types(token_type_ids)
        if self.norm is not None:
            x = self.norm(x)
        return apply_dropout(x, self.drop)


def check_token_ids(input_ids: torch.Tensor, vocab_size: int, name: str = "input_ids",
                    size: str = "the vocabulary size") -> None:
    if tracing():
        return  # a compiled decoding step feeds back tokens it chose itself (the prompt was checked eagerly)
    check_token_layout(input_ids, name)
    low, high = (int(v) for v in torch.aminmax(input_ids))  # one pass, one sync
    if low < 0 or high >= vocab_size:
        raise ValueError(f"{name} must lie in [0, {vocab_size}) ({size}); got values in "
                         f"[{low}, {high}]")
