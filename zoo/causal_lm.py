"""The decoder-only language model that GPT-2 and LLaMA (and LLaVA's language side) wire up.

    input_ids -> TokenEmbedding -> Transformer(causal) -> final norm -> CausalLMHead -> logits

Not a family: families (`gpt.py`, `llama.py`) build its parts from their
configs. Decoding: `make_cache` gives a session its cache, which `forward(cache=, input_pos=)` reads
and extends (input_pos: where the chunk starts); `setup_cache` / `clear_cache` keep one on the model
for hand-driven decoding.

Legend: B batch, T new tokens, S tokens so far (cache), D width, V vocabulary.
"""
from __future__ import annotations

import torch

from backbones.frontends.checks import check_labels
from backbones.frontends.tokens import TokenEmbedding
from backbones.kv_cache import DecoderCache
from backbones.transformer import CachedDecoding, Transformer, decoder_forward
from heads.lm import CausalLMHead
from zoo.pretrained import ZooModel

# Tokens per chunk of the checkpointed loss (forward(labels=) under activation checkpointing): 256 x 50257
# fp32 logits are 51 MB.
LOSS_CHUNK = 256


class CausalLM(CachedDecoding, ZooModel):
    def __init__(self, config, embed: TokenEmbedding, transformer: Transformer, head: CausalLMHead,
                 max_positions: int, tie_embeddings: bool):
        super().__init__()
        self.config = config
        self.embed, self.transformer, self.head = embed, transformer, head
        self.max_positions = max_positions
        self.tied = tie_embeddings
        if tie_embeddings:
            self.head.tie_to(self.embed.tokens)

    @property
    def decoder_stack(self) -> Transformer:
        return self.transformer

    def forward_features(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                         positions: torch.Tensor | None = None, input_pos: int | None = None, *,
                         cache: DecoderCache | None = None, inputs_embeds: torch.Tensor | None = None,
                         sparse_grad: bool = False) -> torch.Tensor:
        """input_ids (B, T) -> (B, T, D) after the final norm (backbones.transformer.decoder_forward).

        attention_mask (B, S+T) marks real tokens (1) and padding (0) over every key;
        positions (B, T) or (T,) default to input_pos .. input_pos+T-1 (a range: sliced, not gathered).
        cache: a decoding session's (make_cache), input_pos where the chunk starts in it.
        inputs_embeds (B, T, D): embed_tokens(input_ids), edited by the caller (LLaVA splices images in).
        sparse_grad: the tied head follows (forward), so the embedding gradient may leave sparse
        (TokenEmbedding.lookup); callers that stop at the features keep it dense.
        """
        return decoder_forward(self.embed, self.transformer, input_ids, max_positions=self.max_positions,
                               attention_mask=attention_mask, positions=positions, input_pos=input_pos, cache=cache,
                               inputs_embeds=inputs_embeds, sparse_grad=sparse_grad and self.tied)

    def embed_tokens(self, input_ids: torch.Tensor, *, sparse_grad: bool = False) -> torch.Tensor:
        """input_ids (B, T) -> word embeddings (B, T, D), for forward(inputs_embeds=)."""
        return self.embed.lookup(input_ids, sparse_grad=sparse_grad and self.tied)

    def forward_head(self, features: torch.Tensor) -> torch.Tensor:
        return self.head(features)  # (B, T, V)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None,
                positions: torch.Tensor | None = None, input_pos: int | None = None,
                logits_to_keep: int | None = None, labels: torch.Tensor | None = None, *,
                cache: DecoderCache | None = None, inputs_embeds: torch.Tensor | None = None) -> torch.Tensor:
        """-> logits (B, T, V), or (B, logits_to_keep, V) for the last tokens only (decoding's prefill).
        With labels (B, T) (the next tokens, -100 where there is none): the mean cross-entropy instead, over
        LOSS_CHUNK tokens at a time when activation checkpointing is on (the logits never exist whole)."""
        features = self.forward_features(input_ids, attention_mask, positions, input_pos, cache=cache,
                                         inputs_embeds=inputs_embeds, sparse_grad=True)
        if labels is not None:
            check_labels(labels, input_ids, self.vocab_size)
            chunk = LOSS_CHUNK if self.transformer.grad_checkpointing and self.training else None
            return self.head.features_loss(features, labels, chunk)
        return self.forward_head(features if logits_to_keep is None else features[:, -logits_to_keep:])

    def example_inputs(self, batch_size: int = 2, seq_len: int = 8) -> dict[str, torch.Tensor]:
        """Valid forward() keyword arguments, for contract tests and benchmarks."""
        return {"input_ids": torch.randint(0, self.vocab_size, (batch_size, seq_len))}

    @property
    def vocab_size(self) -> int:
        return self.embed.vocab_size
