"""Decoding for every decoder in the zoo, on the preallocated KV cache.

    zoo.generate(model, input_ids, max_new_tokens=32, do_sample=True, top_p=0.9)

This entry point picks the strategy from the options; each strategy builds on
`session` (the KV-cache session) and `sampling` (logit processors, choice,
stops) only:
- decode.py: greedy and sampling, one token per step (`stream` yields them);
- beam_search.py: beam search, reordering the cache;
- speculative.py: a draft model proposes, the target verifies;
- compiled.py: one-token steps through torch.compile (`compile=True`).

Encoder-decoders join through conditioned.EncoderConditioned (the decoder bound to one encoder
output), LLaVA through its `bind_images` (zoo.llava.ImageConditioned: the decoder bound to its
images). Whisper's window decoding, openai-whisper's `whisper.decode`, is a second entry point:
`zoo.generation.whisper_decode.decode(model, mel, DecodingOptions(...), tokenizer)`, with
whisper_rules.py (its logit rules) and whisper_beam.py (its beam search). Long audio, openai-whisper's
`transcribe`, is `transcribe(model, audio, **options)` (transcribe.py, with segments.py), also as
`zoo.transcribe`.
"""
from __future__ import annotations

import torch
from torch import nn

from zoo.generation.beam_search import beam_search
from zoo.generation.conditioned import EncoderConditioned
from zoo.generation.config import GenerationConfig
from zoo.generation.decode import stream
from zoo.generation.sampling import apply_repetition_penalty, choose, filter_logits, next_token_probs
from zoo.generation.session import Session, check_prompt, evaluating
from zoo.generation.speculative import SpeculativeStats, speculative_generate

# This one is exported: the function hides the submodule as an attribute, so reach the module's other
# names with `from zoo.generation.transcribe import ...` (which reads the module itself).
from zoo.generation.transcribe import transcribe

# Not `decode` itself here: that name would hide the submodule zoo.generation.decode.
from zoo.generation.whisper_decode import DecodingOptions, DecodingResult, detect_language

__all__ = ["EncoderConditioned", "DecodingOptions", "DecodingResult", "GenerationConfig", "Session",
           "SpeculativeStats", "apply_repetition_penalty", "beam_search", "check_prompt", "choose",
           "detect_language", "filter_logits", "generate", "next_token_probs", "speculative_generate", "stream",
           "transcribe"]


def generate(model: nn.Module, input_ids: torch.Tensor, max_new_tokens: int = 32, *,
             attention_mask: torch.Tensor | None = None, generator: torch.Generator | None = None,
             draft_model: nn.Module | None = None, num_draft_tokens: int = 4,
             pixel_values: torch.Tensor | None = None, **options) -> torch.Tensor:
    """(B, T) prompt -> (B, T + new) tokens; for a text encoder-decoder (Marian), (B, S) source -> (B, 1 + new)
    target tokens starting with the decoder start id, as transformers' generate.

    An encoder-decoder encodes the source once (its attention_mask marks padding, on either side) and decodes
    on the cross-attention cache; its defaults (model.generation_defaults(): EOS, pad, pad never generated)
    apply where options do not say otherwise.

    attention_mask (B, T): 1 for a token, 0 for padding; prompts of different lengths are padded on the left
    (right padding is refused: each row's new tokens follow its last column).

    pixel_values (M, C, H, W): a vision-language model's images (LLaVA), in the order of their placeholders in
    the prompts; the model decodes bound to them (`model.bind_images`: encoded once, spliced at the prefill).

    options (GenerationConfig fields): do_sample, temperature, top_k, top_p, min_p,
    repetition_penalty, eos_id, stop_sequences, pad_id, bad_words_ids, no_repeat_ngram_size, forced_eos_id,
    num_beams, length_penalty, early_stopping,
    compile (greedy, sampling and beam search: the one-token steps run through torch.compile; the first call
    for a model, batch and cache shape compiles, later ones reuse it. It pays where Python's dispatch is much
    of a step: a beam-4 Marian translation of one sentence is 10% faster, of 16 sentences 1.6x slower, since the
    fixed-shape attention spans the whole cache).
    draft_model: speculative decoding (batch size 1), num_draft_tokens proposed per round;
    same output as without it when greedy, same distribution when sampling. With pixel_values, a draft that
    takes images (a smaller LLaVA, making as many image tokens per image as the target) is bound to them too;
    a text-only draft sees the placeholder ids as tokens.
    """
    # Eval mode from the first forward on: an encoder-decoder's encoding and LLaVA's image encoding run here,
    # before any strategy switches the model.
    with evaluating(model, draft_model):
        if hasattr(model, "bind_source"):  # a text encoder-decoder: input_ids is the source
            options = {**model.generation_defaults(), **options}
            model, input_ids, attention_mask = _decoder_of(model, input_ids, attention_mask)
        config = GenerationConfig.from_options(max_new_tokens=max_new_tokens, **options)
        check_prompt(model, input_ids, config.max_new_tokens, attention_mask)  # before any strategy reshapes them
        if pixel_values is not None:
            if not hasattr(model, "bind_images"):
                raise ValueError(f"pixel_values of shape {tuple(pixel_values.shape)} given, but {type(model).__name__} "
                                 "takes no images: only a vision-language model (LLaVA) does")
            model = model.bind_images(pixel_values, input_ids.shape[0])
            if draft_model is not None and hasattr(draft_model, "bind_images"):  # a smaller LLaVA sees them too
                draft_model = draft_model.bind_images(pixel_values, input_ids.shape[0])
        if config.compile and draft_model is not None:
            raise ValueError("compile=True compiles greedy, sampling and beam search steps; speculative decoding "
                             "(draft_model) runs eagerly: drop compile=True or the draft_model")
        if draft_model is not None:
            if config.bans:
                raise ValueError("speculative decoding does not take bad_words_ids, no_repeat_ngram_size or "
                                 "forced_eos_id; drop them or the draft_model")
            return speculative_generate(model, draft_model, input_ids, config, num_draft_tokens,
                                        generator, attention_mask)[0]
        if config.num_beams > 1:
            return beam_search(model, input_ids, config, attention_mask)
        new = list(stream(model, input_ids, config, attention_mask, generator))
        return torch.cat([input_ids, torch.stack(new, dim=1)], dim=1)


def _decoder_of(model: nn.Module, source: torch.Tensor, source_mask: torch.Tensor | None
                ) -> tuple[nn.Module, torch.Tensor, None]:
    """A text encoder-decoder's decoder bound to the encoded source, and its prompt: the decoder start id."""
    bound = model.bind_source(source, source_mask)  # checks the source, encodes it once
    start = torch.full((source.shape[0], 1), model.config.start_id, dtype=torch.long, device=source.device)
    return bound, start, None
