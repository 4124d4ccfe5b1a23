"""A stack of Blocks plus the final norm, and the KV cache set-up for decoding.

Legend: B batch, T tokens, N context tokens, D model width, S cache length.
"""
from __future__ import annotations

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from backbones.block import Block, BlockSpec
from backbones.kv_cache import CrossKVCache, KVCache
from backbones.masks import cache_slots_mask, decoder_mask
from backbones.modules import set_on_each
from backbones.norms import make_norm


class Transformer(nn.Module):
    def __init__(self, blocks: list[Block], norm: nn.Module | None = None):
        super().__init__()
        self.blocks = nn.ModuleList(blocks)
        self.norm = norm or nn.Identity()  # post-LN stacks (BERT) end normalised already
        # Activation checkpointing (set_grad_checkpointing): in training with gradients, each block keeps
        # only its input and recomputes its activations in backward.
        self.grad_checkpointing = False

    @classmethod
    def from_spec(cls, spec: BlockSpec, depth: int, final_norm: bool = True,
                  rope: nn.Module | None = None) -> "Transformer":
        norm = make_norm(spec.norm, spec.dim, spec.norm_eps) if final_norm else None
        # One RotaryEmbedding shared by every block: its tables are buffers, not weights.
        return cls([spec.build(rope) for _ in range(depth)], norm)

    def forward(self, x: torch.Tensor, **block_kwargs) -> torch.Tensor:
        """x (B, T, D) -> (B, T, D); block_kwargs go to every Block (mask, causal, context, ...)."""
        return self.norm(self.run_blocks(x, len(self.blocks), **block_kwargs))

    def run_blocks(self, x: torch.Tensor, count: int, **block_kwargs) -> torch.Tensor:
        """The first `count` blocks over x (B, T, D), no final norm; each block checkpointed when
        grad_checkpointing is on, the module trains and gradients are recorded."""
        recompute = self.grad_checkpointing and self.training and torch.is_grad_enabled()
        for block in self.blocks[:count]:
            if recompute:
                # Non-reentrant: keyword arguments pass through, and inputs without grad are fine.
                x = checkpoint(block, x, use_reentrant=False, **block_kwargs)
            else:
                x = block(x, **block_kwargs)
        return x

    def decoder_inputs(self, attention_mask: torch.Tensor | None, t: int, input_pos, positions,
                       device: torch.device) -> tuple[torch.Tensor | None, bool, torch.Tensor | range]:
        """A causal decoder's (mask, causal, positions) for T new tokens starting at cache slot input_pos.

        input_pos a tensor (a compiled decoding step): a fixed-shape mask over the whole cache, positions
        as given. Otherwise padding (attention_mask (B, S+T)) and bottom-right causality over the cache and
        the new tokens, and positions input_pos .. input_pos+T-1 unless given (a range: sliced, not gathered).
        """
        if isinstance(input_pos, torch.Tensor):
            return cache_slots_mask(attention_mask, input_pos, self.cache_len), False, positions
        if self.has_cache and input_pos is None:
            raise ValueError("a KV cache is set up: pass input_pos (where this chunk starts), or clear_cache()")
        start = input_pos or 0
        mask, causal = decoder_mask(attention_mask, t, start + t, device)
        return mask, causal, range(start, start + t) if positions is None else positions

    def setup_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None,
                    device: torch.device | str | None = None) -> None:
        """Preallocate every block's self-attention cache (and an empty cross-attention cache)."""
        ref = next(self.parameters())
        for block in self.blocks:
            attn = block.attn
            block.attn.kv_cache = KVCache(batch_size, attn.num_kv_heads, max_len, attn.head_dim,
                                          dtype=dtype or ref.dtype, device=device or ref.device)
            if block.cross_attn is not None:
                block.cross_attn.kv_cache = CrossKVCache()

    def clear_cache(self) -> None:
        for block in self.blocks:
            block.attn.kv_cache = None
            if block.cross_attn is not None:
                block.cross_attn.kv_cache = None

    def reorder_cache(self, index: torch.Tensor) -> None:
        for block in self.blocks:
            for attn in (block.attn, block.cross_attn):
                if attn is not None and attn.kv_cache is not None:
                    attn.kv_cache.reorder(index)

    @property
    def has_cache(self) -> bool:
        return self.blocks[0].attn.kv_cache is not None

    @property
    def cache_len(self) -> int:
        """Slots in the self-attention KV cache (setup_cache's max_len)."""
        return self.blocks[0].attn.kv_cache.max_len


def set_grad_checkpointing(module: nn.Module, enable: bool = True) -> int:
    """Switch activation checkpointing on (or off) in every Transformer stack inside `module`, wrappers
    included (a training-only head around a model); returns how many stacks were switched, and raises
    ValueError where there is none."""
    return set_on_each(module, Transformer, "grad_checkpointing", enable, "to checkpoint")
