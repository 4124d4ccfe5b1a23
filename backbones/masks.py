"""The one mask convention of the zoo, and its constructors.

Convention: a mask is a boolean tensor, True = "this query may attend to this
key", broadcastable to (B, H, Tq, Tk). Causality is passed separately as
`causal=True` to `attend`, and is aligned bottom-right: with a KV cache, the
chunk of Tq queries starting at cache position p sees keys 0..p+i for its
query i (so Tk = p + Tq). SDPA's `is_causal` and xformers'
`LowerTriangularMask` are top-left aligned and only agree when Tq == Tk.

Legend: B batch, H heads, Tq query tokens, Tk key tokens.
"""
from __future__ import annotations

import torch


def causal_mask(tq: int, tk: int, device: torch.device | str | None = None) -> torch.Tensor:
    """(Tq, Tk) bottom-right aligned lower triangle: query i sees keys <= (Tk - Tq) + i."""
    if tk < tq:
        raise ValueError(f"causal mask needs Tk >= Tq (keys include the queries), got Tq={tq}, Tk={tk}")
    q = torch.arange(tq, device=device).unsqueeze(1) + (tk - tq)
    k = torch.arange(tk, device=device).unsqueeze(0)
    return k <= q  # (Tq, Tk)


def padding_mask(attention_mask: torch.Tensor) -> torch.Tensor:
    """HF-style (B, Tk) 1 = real token, 0 = padding -> (B, 1, 1, Tk) key mask."""
    if attention_mask.dim() != 2:
        raise ValueError(f"attention_mask must be (batch, keys), got shape {tuple(attention_mask.shape)}")
    return attention_mask.bool()[:, None, None, :]  # (B, 1, 1, Tk)


def prefix_mask(prefix_len: torch.Tensor | int, tq: int, tk: int | None = None,
                device: torch.device | str | None = None) -> torch.Tensor:
    """Prefix-LM mask: keys inside the prefix are visible to every query, the rest causally.

    prefix_len is an int or a (B,) tensor; returns (Tq, Tk) or (B, 1, Tq, Tk).
    """
    tk = tq if tk is None else tk
    causal = causal_mask(tq, tk, device)  # (Tq, Tk)
    keys = torch.arange(tk, device=device)
    if isinstance(prefix_len, int):
        return causal | (keys < prefix_len)  # (Tq, Tk)
    in_prefix = keys[None, :] < prefix_len.to(device)[:, None]  # (B, Tk)
    return causal[None, None] | in_prefix[:, None, None, :]  # (B, 1, Tq, Tk)


def segment_ids_from_lengths(lengths: list[int] | torch.Tensor, device=None) -> torch.Tensor:
    """Sequence lengths of a packed row -> (T,) segment id of every token."""
    lengths = torch.as_tensor(lengths, device=device)
    return torch.repeat_interleave(torch.arange(len(lengths), device=device), lengths)


def block_diagonal_mask(segment_ids: torch.Tensor) -> torch.Tensor:
    """Packed sequences: tokens attend only within their own segment.

    segment_ids (B, T) or (T,) -> (B, 1, T, T) or (T, T). Combine with
    `causal=True` for packed causal LM training.
    """
    same = segment_ids.unsqueeze(-1) == segment_ids.unsqueeze(-2)  # (..., T, T)
    return same if segment_ids.dim() == 1 else same.unsqueeze(1)  # (B, 1, T, T)


def combine(mask: torch.Tensor | None, causal: bool, tq: int, tk: int,
            device: torch.device | str | None) -> torch.Tensor | None:
    """One explicit boolean mask equal to `mask` AND (bottom-right causal if causal)."""
    if causal:
        tri = causal_mask(tq, tk, device)
        mask = tri if mask is None else mask & tri
    return mask


def positions_skipping_padding(attention_mask: torch.Tensor) -> torch.Tensor:
    """HF-style (B, T) 1 = real token, 0 = padding -> (B, T) position ids that skip the padding: a real
    token's position is the count of real tokens before it (left padding sits at 0), as HF's generate
    derives position_ids from the attention mask."""
    return (attention_mask.long().cumsum(-1) - 1).clamp(min=0)  # (B, T)


def ensure_nonempty_rows(mask: torch.Tensor) -> torch.Tensor:
    """Let a query that may see no key at all see every key instead.

    attend() applies it to every mask it is given, once, before any backend. Such rows happen for padding
    queries under left padding plus causality, and for a sequence that is all padding.
    Their outputs are never used, but a softmax over nothing is NaN, and NaN
    in a padded value row poisons the next layer (0 * NaN = NaN). Attending
    uniformly matches what HF gets from its finite `finfo.min` additive mask.
    """
    return mask | ~mask.any(dim=-1, keepdim=True)


def cache_slots_mask(attention_mask: torch.Tensor | None, input_pos: torch.Tensor, cache_len: int) -> torch.Tensor:
    """Which of a KV cache's `cache_len` slots the new tokens at slots `input_pos` (T,) may see: those up to
    each token's own (causal, bottom-right), minus padding (attention_mask (B, cache_len)). Fixed shape
    wherever decoding is, for a compiled step. -> (B or 1, 1, T, cache_len). input_pos (B, T): each row's
    own slots (a continuous batch), -> (B, 1, T, cache_len)."""
    slots = torch.arange(cache_len, device=input_pos.device)
    if input_pos.dim() == 2:
        mask = (slots <= input_pos[..., None])[:, None]  # (B, 1, T, S)
    else:
        mask = (slots[None, :] <= input_pos[:, None])[None, None]  # (1, 1, T, S)
    if attention_mask is not None:
        mask = mask & attention_mask.bool()[:, None, None, :]  # (B, 1, T, S)
    return mask


def decoder_mask(attention_mask: torch.Tensor | None, tq: int, tk: int,
                 device: torch.device) -> tuple[torch.Tensor | None, bool]:
    """A decoder's self-attention mask for Tq new tokens over Tk keys (cache + new), built once per forward.

    attention_mask (B, Tk) HF-style (1 real, 0 padding) or None -> (mask, causal flag for attend): without
    padding no mask at all (the causal kernels run unmasked), else padding AND bottom-right causal.
    """
    if attention_mask is None and (tq == tk or tq == 1):
        return None, True  # the backends' causal kernels (one query row under a cache: attend() masks nothing)
    if attention_mask is not None and attention_mask.shape[-1] != tk:
        raise ValueError(f"attention_mask must cover all {tk} key positions (cache + new tokens), "
                         f"got shape {tuple(attention_mask.shape)}")
    pad = padding_mask(attention_mask) if attention_mask is not None else None
    return combine(pad, True, tq, tk, device), False


def encoder_mask(attention_mask: torch.Tensor | None) -> torch.Tensor | None:
    """A bidirectional encoder's mask: HF-style (B, Tk) padding -> (B, 1, 1, Tk) key mask, or None.
    (attend() lets a row that is all padding see every key: its output is never used; see ensure_nonempty_rows.)"""
    return None if attention_mask is None else padding_mask(attention_mask)
