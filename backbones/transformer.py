"""A stack of Blocks plus the final norm, its decoding caches, and the one decoder forward every
decoder-only and encoder-decoder family runs (`decoder_forward`).

Legend: B batch, T tokens, N context tokens, D model width, S cache length.
"""
from __future__ import annotations

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint

from backbones.block import Block, BlockSpec
from backbones.frontends.checks import check_mask_values, check_token_layout, tracing
from backbones.frontends.tokens import TokenEmbedding
from backbones.kv_cache import CrossKVCache, DecoderCache, KVCache, LayerCache
from backbones.masks import cache_slots_mask, decoder_mask
from backbones.modules import set_on_each
from backbones.norms import make_norm
from backbones.positions import position_range


class Transformer(nn.Module):
    def __init__(self, blocks: list[Block], norm: nn.Module | None = None):
        super().__init__()
        self.blocks = nn.ModuleList(blocks)
        self.norm = norm or nn.Identity()  # post-LN stacks (BERT) end normalised already
        # Activation checkpointing (set_grad_checkpointing): in training with gradients, each block keeps
        # only its input and recomputes its activations in backward.
        self.grad_checkpointing = False
        # The cache of hand-driven decoding (setup_cache); a decoding session makes and passes its own.
        self.cache: DecoderCache | None = None

    @classmethod
    def from_spec(cls, spec: BlockSpec, depth: int, final_norm: bool = True,
                  rope: nn.Module | None = None) -> "Transformer":
        norm = make_norm(spec.norm, spec.dim, spec.norm_eps) if final_norm else None
        # One RotaryEmbedding shared by every block: its tables are buffers, not weights.
        return cls([spec.build(rope) for _ in range(depth)], norm)

    def forward(self, x: torch.Tensor, **block_kwargs) -> torch.Tensor:
        """x (B, T, D) -> (B, T, D); block_kwargs go to every Block (mask, causal, context, ..., and `cache`, a
        DecoderCache whose layers go to the blocks one each)."""
        return self.norm(self.run_blocks(x, len(self.blocks), **block_kwargs))

    def run_blocks(self, x: torch.Tensor, count: int, cache: DecoderCache | None = None,
                   **block_kwargs) -> torch.Tensor:
        """The first `count` blocks over x (B, T, D), no final norm; each block checkpointed when
        grad_checkpointing is on, the module trains and gradients are recorded."""
        recompute = self.grad_checkpointing and self.training and torch.is_grad_enabled()
        cache = self.cache_in_use(cache)
        for i, block in enumerate(self.blocks[:count]):
            layer = None if cache is None else cache.layers[i]
            if recompute:
                # Non-reentrant: keyword arguments pass through, and inputs without grad are fine.
                x = checkpoint(block, x, use_reentrant=False, cache=layer, **block_kwargs)
            else:
                x = block(x, cache=layer, **block_kwargs)
        return x

    def cache_in_use(self, cache: DecoderCache | None) -> DecoderCache | None:
        """The cache a forward reads and extends: the one passed (a session's), else setup_cache's, if any."""
        return self.cache if cache is None else cache

    def make_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None,
                   device: torch.device | str | None = None) -> DecoderCache:
        """A new cache for one decoding session: every block's self-attention cache, preallocated for
        max_len positions, and an empty cross-attention cache where the block has cross-attention."""
        ref = next(self.parameters())
        dtype, device = dtype or ref.dtype, device or ref.device
        return DecoderCache([
            LayerCache(KVCache(batch_size, block.attn.num_kv_heads, max_len, block.attn.head_dim, dtype, device),
                       CrossKVCache() if block.cross_attn is not None else None)
            for block in self.blocks])

    def setup_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None,
                    device: torch.device | str | None = None) -> None:
        """Hand-driven decoding: keep a cache (make_cache) that forwards without `cache=` use."""
        self.cache = self.make_cache(batch_size, max_len, dtype, device)

    def clear_cache(self) -> None:
        self.cache = None

    def reorder_cache(self, index: torch.Tensor) -> None:
        if self.cache is not None:
            self.cache.reorder(index)

    @property
    def has_cache(self) -> bool:
        return self.cache is not None


class CachedDecoding:
    """The cache methods of a model whose decoder is the Transformer `decoder_stack` with `max_positions`
    positions (a mixin for nn.Module models): make_cache gives a decoding session its own cache;
    setup_cache / clear_cache / reorder_cache keep one on the stack for hand-driven decoding."""
    positions_owner = "the model's"  # how the cache-length error names whose positions ran out

    @property
    def decoder_stack(self) -> Transformer:
        raise NotImplementedError

    def make_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None) -> DecoderCache:
        """A decoding session's cache for batch_size rows of up to max_len tokens (prompt + new): every
        self-attention cache preallocated, cross-attention caches empty until the first chunk fills them."""
        if max_len > self.max_positions:
            raise ValueError(f"cache length {max_len} exceeds {self.positions_owner} {self.max_positions} positions")
        return self.decoder_stack.make_cache(batch_size, max_len, dtype)

    def setup_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None) -> None:
        """Hand-driven decoding: a cache kept on the model, used by forwards without `cache=`."""
        self.decoder_stack.cache = self.make_cache(batch_size, max_len, dtype)

    def clear_cache(self) -> None:
        self.decoder_stack.clear_cache()

    def reorder_cache(self, index: torch.Tensor) -> None:
        """Keep batch rows `index` of the kept cache (cross-attention's too)."""
        self.decoder_stack.reorder_cache(index)


def decoder_inputs(attention_mask: torch.Tensor | None, t: int, input_pos, positions, cache: DecoderCache | None,
                   device: torch.device) -> tuple[torch.Tensor | None, bool, torch.Tensor | range]:
    """A causal decoder's (mask, causal, positions) for T new tokens starting at cache slot input_pos.

    input_pos a tensor (a compiled decoding step): a fixed-shape mask over the whole cache, positions
    as given. Otherwise padding (attention_mask (B, S+T)) and bottom-right causality over the cache and
    the new tokens, and positions input_pos .. input_pos+T-1 unless given (a range: sliced, not gathered).
    """
    if isinstance(input_pos, torch.Tensor):
        return cache_slots_mask(attention_mask, input_pos, cache.max_len), False, positions
    if cache is not None and input_pos is None:
        raise ValueError("a KV cache is in use: pass input_pos (where this chunk starts), or clear_cache()")
    if input_pos and (cache is None or input_pos < 0):
        raise ValueError(f"input_pos={input_pos} needs a KV cache holding the tokens before it; expected 0 or None "
                         "without one (cache=model.make_cache(...) or setup_cache), and never a negative start")
    if isinstance(positions, torch.Tensor) and not tracing() and (positions.dim() not in (1, 2)
                                                                  or positions.shape[-1] != t):
        raise ValueError(f"positions must be (batch, tokens) or (tokens,) with {t} tokens, as the input; got shape "
                         f"{tuple(positions.shape)}")
    start = input_pos or 0
    if attention_mask is not None and not start:  # later chunks extend a mask whose prompt part was checked here
        check_mask_values(attention_mask)
    mask, causal = decoder_mask(attention_mask, t, start + t, device)
    return mask, causal, position_range(start, t, device) if positions is None else positions


def decoder_forward(embed: TokenEmbedding, stack: Transformer, input_ids: torch.Tensor, *, max_positions: int,
                    attention_mask: torch.Tensor | None = None, positions: torch.Tensor | None = None,
                    input_pos: int | torch.Tensor | None = None, cache: DecoderCache | None = None,
                    context: torch.Tensor | None = None, context_mask: torch.Tensor | None = None,
                    context_name: str | None = None, inputs_embeds: torch.Tensor | None = None,
                    sparse_grad: bool = False, name: str = "input_ids") -> torch.Tensor:
    """The one decoder forward (GPT and LLaMA, Whisper's decoder, LLaVA's language model): input_ids (B, T)
    -> features (B, T, D) after the final norm.

    attention_mask (B, S+T) marks real tokens (1) and padding (0) over every key; positions (B, T) or (T,)
    default to input_pos .. input_pos+T-1. cache: the session's DecoderCache (default: the stack's own, from
    setup_cache), input_pos where this chunk starts in it. context (A, N, D): what cross-attention reads;
    context_mask (A, 1, 1, N): which of its rows are real (a padded source), None for all. context_name: how an
    encoder-decoder names its context in errors; given, the cross-attention cache follows the encoder-decoder
    rule (cross_context).
    inputs_embeds (B, T, D): the token embeddings already looked up (and edited: LLaVA's images), as
    torchtune's `input_embeds`; positions are added here. sparse_grad: see TokenEmbedding.
    """
    check_token_layout(input_ids, name, max_positions, input_pos)
    cache = stack.cache_in_use(cache)
    if context_name is not None:
        cross_context(cache, context, input_pos, context_name)
    mask, causal, positions = decoder_inputs(attention_mask, input_ids.shape[1], input_pos, positions, cache,
                                             input_ids.device)
    if inputs_embeds is None:
        inputs_embeds = embed.lookup(input_ids, sparse_grad=sparse_grad, name=name)  # (B, T, D)
    x = embed.add_positions(inputs_embeds, positions)  # (B, T, D)
    return stack(x, context=context, context_mask=context_mask, mask=mask, causal=causal, positions=positions,
                 input_pos=input_pos, cache=cache)


def cross_context(cache: DecoderCache | None, context: torch.Tensor | None, input_pos: int | torch.Tensor | None,
                  context_name: str) -> None:
    """An encoder-decoder's rule for its cross-attention cache: a context given at input_pos 0 starts a new
    sequence (the cached keys and values of the last source are forgotten and refilled from it); later chunks
    may leave it out and reuse the cache; without a cache it is always needed. A tensor input_pos (a compiled
    step) reads the cache as filled."""
    if isinstance(input_pos, torch.Tensor):
        return
    if cache is not None and not input_pos and context is not None:
        cache.reset_cross()
    if context is None and (cache is None or not cache.cross_filled):
        raise ValueError(f"the decoder needs {context_name}: always without a KV cache, and at input_pos 0 with one "
                         "(later chunks reuse the cross-attention cache)")


def set_grad_checkpointing(module: nn.Module, enable: bool = True) -> int:
    """Switch activation checkpointing on (or off) in every Transformer stack inside `module`, wrappers
    included (a training-only head around a model); returns how many stacks were switched, and raises
    ValueError where there is none."""
    return set_on_each(module, Transformer, "grad_checkpointing", enable, "to checkpoint")
