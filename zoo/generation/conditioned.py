"""An encoder-decoder's decoder, bound to encoder outputs, seen as a decoder-only model.

    decoder = EncoderConditioned(whisper, whisper.encode(mel))      # audio features (A, N, D)
    session = Session(decoder, prompt, max_new_tokens)               # prefill, then step, as for a GPT
    zoo.generate(decoder, prompt, 20, num_beams=4)                   # every strategy, unchanged

A Session (and every strategy built on it) drives a decoder through
`model(tokens, attention_mask=, positions=, input_pos=, logits_to_keep=, cache=)`, `make_cache`,
`max_positions` and `vocab_size`. This adapter gives an encoder-decoder that interface: the
encoder output goes in with the chunk at input_pos 0, where the model computes the cross-attention
keys and values once and stores them in the session's cache; later chunks reuse them. The model
needs `decode(tokens, features, *, attention_mask, positions, input_pos, logits_to_keep, cache)` and
`make_cache` (zoo.whisper.Whisper has them), and `source_mask=` where the encoder's input was padded
(zoo.marian.Marian: a batch of source sentences).

Legend: A encoder inputs, B session rows (prompts x beams or samples), N encoder tokens, D width,
T tokens, V vocabulary.
"""
from __future__ import annotations

import torch
from torch import nn

from backbones.kv_cache import inputs_read


class BoundDecoder(nn.Module):
    """A model bound to inputs other than its tokens (audio features, images), seen as a decoder-only model:
    `make_cache`, `max_positions` and `vocab_size` are the model's; a subclass gives forward()."""

    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model
        self.training = model.training  # a strategy's eval() / train(was_training) restores the model's mode

    @property
    def max_positions(self) -> int:
        return self.model.max_positions

    @property
    def vocab_size(self) -> int:
        return self.model.vocab_size

    def make_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None):
        return self.model.make_cache(batch_size, max_len, dtype)


class EncoderConditioned(BoundDecoder):
    """`model`'s decoder conditioned on encoder outputs `features` (A, N, D), one row per input (an audio, a
    source sentence), and `source_mask` (A, N) (1 real, 0 padding) where the inputs were padded.

    A session of B = A x G rows (G beams or samples per input, each input's rows next to each
    other, as `repeat_interleave` and beam_search lay them out) reads each input's cross-attention keys
    and values for its G rows: they are computed and stored once per input, never repeated.
    An nn.Module holding the model, so `.eval()`, `.training` and `.parameters()` (which the
    strategies and compiled steps use) reach it; the features are a plain attribute, not state.
    """

    def __init__(self, model: nn.Module, features: torch.Tensor, source_mask: torch.Tensor | None = None):
        super().__init__(model)
        self.features = features  # (A, N, D)
        self.source_mask = source_mask  # (A, N) or None

    @property
    def context_length_varies(self) -> bool:
        """Whether N changes from input to input (a translation's sources; Whisper's window is fixed): a compiled
        decoding step then takes it as a dynamic size (compiled.mark_context_dynamic)."""
        return getattr(self.model, "context_length_varies", False)

    def forward(self, tokens: torch.Tensor, *, attention_mask: torch.Tensor | None = None,
                positions: torch.Tensor | None = None, input_pos: int | torch.Tensor | None = None,
                logits_to_keep: int | None = None, cache=None) -> torch.Tensor:
        """tokens (B, T) -> logits (B, T, V); the features go in at the first chunk only."""
        first = input_pos is None or (isinstance(input_pos, int) and input_pos == 0)
        return self.model.decode(tokens, self.features if first else None, attention_mask=attention_mask,
                                 positions=positions, input_pos=input_pos, logits_to_keep=logits_to_keep,
                                 cache=cache, source_mask=self.source_mask)

    def reorder_inputs(self, index: torch.Tensor, rows: int) -> None:
        """Session rows `index` kept of `rows` (Session.reorder): the features and source mask follow the inputs
        the kept rows read, as their cross-attention cache does (inputs_read: fewer inputs where beam search drops
        the prompts that are done)."""
        select = inputs_read(index, rows, self.features.shape[0])
        if select is None:
            return
        self.features = self.features[select]
        if self.source_mask is not None:
            self.source_mask = self.source_mask[select]

    def make_cache(self, batch_size: int, max_len: int, dtype: torch.dtype | None = None):
        inputs = self.features.shape[0]
        if batch_size % inputs:
            raise ValueError(f"a session of {batch_size} rows on encoder outputs of {inputs} inputs: expected "
                             f"a whole number of rows per input (beams, samples)")
        return super().make_cache(batch_size, max_len, dtype)
