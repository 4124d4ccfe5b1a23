"""Preallocated key/value caches for decoding (after torchtune's `KVCache`), owned by a decoding session.

`KVCache` holds one layer's self-attention keys and values for `max_len` positions:
2 x B x Hkv x S x Dh x bytes, allocated once per session. `CrossKVCache` holds one layer's
cross-attention keys/values, computed once per encoder input and reused at every decoding step.
`DecoderCache` is every layer's pair for one decoder stack: `Transformer.make_cache` builds one, a
decoding session keeps it and passes it to each forward (`cache=`), so any number of sessions can
decode on one model at once. The caches are plain objects, not modules: they are never part of a
model's state.

Legend: B batch, Hkv key/value heads, S cache length, T new tokens, Dh head width, A encoder inputs.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch


class KVCache:
    def __init__(self, batch_size: int, num_kv_heads: int, max_len: int, head_dim: int,
                 dtype: torch.dtype = torch.float32, device: torch.device | str | None = None):
        shape = (batch_size, num_kv_heads, max_len, head_dim)  # (B, Hkv, S, Dh)
        self.k = torch.zeros(shape, dtype=dtype, device=device)
        self.v = torch.zeros(shape, dtype=dtype, device=device)

    @property
    def max_len(self) -> int:
        return self.k.shape[2]

    def update(self, input_pos: int | torch.Tensor, k: torch.Tensor,
               v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Write k/v (B, Hkv, T, Dh) at [input_pos, input_pos+T); return keys/values 0..input_pos+T.

        input_pos as a tensor of the T positions (a compiled decoding step: shapes must not depend on
        where it is): write there and return the whole cache (B, Hkv, S, Dh); the caller's mask hides
        the positions not written yet. A (B, T) tensor gives each row its own positions (a continuous
        batch, zoo.serving, whose rows hold sequences of different lengths).
        """
        if isinstance(input_pos, torch.Tensor) and input_pos.dim() == 2:
            index = input_pos[:, None, :, None].expand(-1, k.shape[1], -1, k.shape[3])  # (B, Hkv, T, Dh)
            self.k.scatter_(2, index, k.to(self.k.dtype))
            self.v.scatter_(2, index, v.to(self.v.dtype))
            return self.k, self.v
        if isinstance(input_pos, torch.Tensor):
            self.k.index_copy_(2, input_pos, k)
            self.v.index_copy_(2, input_pos, v)
            return self.k, self.v
        end = input_pos + k.shape[2]
        if end > self.max_len:
            raise ValueError(f"KV cache holds {self.max_len} positions; writing positions "
                             f"{input_pos}..{end - 1} overflows it (make the cache with a larger max_len)")
        if k.shape[0] != self.k.shape[0]:
            raise ValueError(f"KV cache was made for batch {self.k.shape[0]}, got batch {k.shape[0]}")
        self.k.narrow(2, input_pos, end - input_pos).copy_(k)
        self.v.narrow(2, input_pos, end - input_pos).copy_(v)
        return self.k.narrow(2, 0, end), self.v.narrow(2, 0, end)  # (B, Hkv, input_pos+T, Dh)

    def view(self, rows: slice, length: int | None = None) -> "KVCache":
        """A KVCache over batch rows `rows` and the first `length` positions (None: all) of this one, sharing its
        memory: what is written through the view lands here (a continuous batch runs a step on some rows)."""
        view = KVCache.__new__(KVCache)
        view.k, view.v = self.k[rows, :, :length], self.v[rows, :, :length]  # (B', Hkv, length, Dh)
        return view

    def reorder(self, index: torch.Tensor, length: int | None = None) -> None:
        """Select batch rows `index` (B',) (beam search keeps the cache of surviving beams). With `length`, the
        positions written so far: only those are moved (beam search's step would otherwise copy the whole
        max_len buffer, most of it empty, every token); the rest is left as it was, never read before written."""
        if length is None or length >= self.max_len:
            self.k, self.v = self.k.index_select(0, index), self.v.index_select(0, index)
            return
        for name in ("k", "v"):
            buffer = getattr(self, name)
            kept = buffer.narrow(2, 0, length).index_select(0, index)  # (B', Hkv, length, Dh)
            if index.shape[0] != buffer.shape[0]:
                buffer = buffer.new_zeros((index.shape[0], *buffer.shape[1:]))
                setattr(self, name, buffer)
            buffer.narrow(2, 0, length).copy_(kept)


class CrossKVCache:
    """Cross-attention keys/values (A, Hkv, Tk, Dh), one row per encoder input.

    A decoding session may hold G rows per encoder input (beams, samples: B = A x G, each input's rows
    next to each other); attention then reads each stored row for its G queries (MultiHeadAttention folds
    them into the query length), so nothing is repeated. `reorder` (beam search) costs nothing while
    every row stays with its own input, as beams do; otherwise the rows are materialised.
    """

    def __init__(self):
        self.k: torch.Tensor | None = None
        self.v: torch.Tensor | None = None
        self.session_rows: int | None = None  # B: the decoder's batch when the cache was filled

    @property
    def filled(self) -> bool:
        return self.k is not None

    def store(self, k: torch.Tensor, v: torch.Tensor, session_rows: int | None = None) -> None:
        # Copied head-major once: every decoding step then reads each head's keys as one block (a head
        # of the (A, Tk, Hkv, Dh) projection's transposed view is Tk short runs, read at half the speed).
        self.k, self.v = k.contiguous(), v.contiguous()  # (A, Hkv, Tk, Dh)
        self.session_rows = session_rows or k.shape[0]

    def reorder(self, index: torch.Tensor) -> None:
        """Keep session rows `index` (B',): free when each new row reads the input its old row read (beams stay with
        their input); whole inputs selected when some leave (beam search drops the prompts that are done); else one
        input a row, materialised (inputs_read)."""
        if not self.filled:
            return
        select = inputs_read(index, self.session_rows, self.k.shape[0])
        if select is not None:
            self.k, self.v = self.k.index_select(0, select), self.v.index_select(0, select)
        self.session_rows = index.shape[0]

    def reset(self) -> None:
        self.k = self.v = None
        self.session_rows = None


def inputs_read(index: torch.Tensor, rows: int, inputs: int) -> torch.Tensor | None:
    """Session rows `index` (B',) kept of `rows`, whose `inputs` inputs are each read by rows // inputs adjacent rows:
    what per-input state (cross-attention keys, a source mask) must hold next. None where every kept row reads the
    input its old row read, laid out alike (nothing moves); whole inputs (A',) where the rows still fall into
    groups of the old count, each reading one input (beam search dropping the prompts that are done); else the
    input of each row (B',)."""
    per_input = rows // inputs
    source = index // per_input  # (B',) the input each kept row reads
    kept = index.shape[0]
    if kept % inputs == 0 and torch.equal(source, torch.arange(kept, device=index.device) // (kept // inputs)):
        return None
    if kept % per_input == 0:
        groups = source.view(-1, per_input)  # (A', G)
        if bool((groups == groups[:, :1]).all()):
            return groups[:, 0]
    return source


@dataclass
class LayerCache:
    """One block's caches: its self-attention's, and its cross-attention's where it has one."""
    kv: KVCache
    cross: CrossKVCache | None = None


class DecoderCache:
    """Every block's caches of one decoder stack, for one decoding session (Transformer.make_cache)."""

    def __init__(self, layers: list[LayerCache]):
        self.layers = layers

    @property
    def max_len(self) -> int:
        """Slots in the self-attention caches (make_cache's max_len)."""
        return self.layers[0].kv.max_len

    @property
    def batch_size(self) -> int:
        return self.layers[0].kv.k.shape[0]

    @property
    def cross_filled(self) -> bool:
        """Whether the cross-attention keys and values are stored (False without cross-attention)."""
        cross = self.layers[0].cross
        return cross is not None and cross.filled

    def reset_cross(self) -> None:
        """Forget the cross-attention keys and values: a new encoder input comes with the next prefill."""
        for layer in self.layers:
            if layer.cross is not None:
                layer.cross.reset()

    def view(self, rows: slice, length: int | None = None) -> "DecoderCache":
        """Every layer's KVCache.view: rows `rows`, the first `length` positions, the same memory. Self-attention
        only: a cross-attention cache holds one row per encoder input, which a row slice would not follow."""
        if any(layer.cross is not None for layer in self.layers):
            raise ValueError("DecoderCache.view takes self-attention caches only; this one has cross-attention")
        return DecoderCache([LayerCache(layer.kv.view(rows, length)) for layer in self.layers])

    def copy_row(self, source: int, target: int, length: int) -> None:
        """Row `target`'s first `length` positions become row `source`'s, in every layer (n samples of one
        prompt, which is prefilled once)."""
        for layer in self.layers:
            for buffer in (layer.kv.k, layer.kv.v):
                buffer[target, :, :length] = buffer[source, :, :length]

    def reorder(self, index: torch.Tensor, length: int | None = None) -> None:
        """Keep batch rows `index` (B',) of every cache (beam search); `length`: the positions written so far
        (KVCache.reorder), None for all."""
        for layer in self.layers:
            layer.kv.reorder(index, length)
            if layer.cross is not None:
                layer.cross.reorder(index)
