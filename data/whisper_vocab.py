"""A Whisper tokenizer with a vocabulary learned from a corpus, for a Whisper trained from scratch.

    tokenizer = train_whisper_tokenizer(transcripts, text_vocab=512)   # WhisperTokenizer, English-only
    model = zoo.create_model("whisper_micro", vocab_size=tokenizer.vocab_size)

openai-whisper's English vocabulary has 50257 text tokens: a small model spends most of its time on that
softmax. This learns a byte-level BPE of `text_vocab` tokens (GPT-2's byte alphabet and pre-tokenizer, as
Whisper's) and appends Whisper's control tokens and 1501 timestamps in openai-whisper's order, without
language tokens, so every decoding rule and zoo.transcribe work unchanged; `save` / `load_whisper_tokenizer`
round-trip it, and save_pretrained stores it beside the model.
"""
from __future__ import annotations

from collections.abc import Iterable

import tokenizers
from tokenizers import decoders, models, pre_tokenizers, trainers

from data.whisper_tokenizer import WhisperTokenizer, _add_specials, special_token_names

BYTES = 256  # the byte alphabet every byte-level BPE starts from


def train_whisper_tokenizer(texts: Iterable[str], text_vocab: int = 512) -> WhisperTokenizer:
    """A byte-level BPE of `text_vocab` tokens learned from `texts`, plus Whisper's English-only specials."""
    if text_vocab < BYTES:
        raise ValueError(f"text_vocab must be at least {BYTES} (the byte alphabet), got {text_vocab}")
    backend = tokenizers.Tokenizer(models.BPE())
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    backend.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=text_vocab, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
                                  show_progress=False)
    backend.train_from_iterator(texts, trainer)
    _add_specials(backend, special_token_names(num_languages=0))
    return WhisperTokenizer(backend, multilingual=False)
