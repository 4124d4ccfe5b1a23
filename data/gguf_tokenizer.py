"""The tokenizer a GGUF file carries in its metadata (llama.cpp's `tokenizer.ggml.*` keys).

- "gpt2": byte-level BPE with the file's merges; `tokenizer.ggml.pre` picks the split
  regex for the families that need their own (Llama 3, Qwen, Tekken, GPT-4o style).
- "llama": SentencePiece BPE as a `tokenizers` BPE with byte fallback (`<0x..>`) and
  "▁" for spaces; merges from the file, or derived from the piece scores.

Checked against transformers 5's GGUF conversion (integrations/gguf/gguf_tokenizer_mapping.py,
what `AutoTokenizer.from_pretrained(dir, gguf_file=...)` runs): same ids, special tokens and
decoding for both models (tests/data/test_gguf_tokenizer.py).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import tokenizers
from tokenizers import AddedToken, Regex, decoders, models, pre_tokenizers, processors

from data.tokenization import Tokenizer

SUPPORTED_MODELS = ("gpt2", "llama")
CONTROL, USER_DEFINED = 3, 4  # llama.cpp's token_type values for special and added tokens

_LLAMA3_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
                 r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_QWEN2_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
                r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_GPT4O_SPLIT = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
                r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
                r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
                r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?"
                r"|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_QWEN35_SPLIT = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}"
                 r"| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
_TEKKEN_SPLIT = (r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"
                 r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"
                 r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+")
# tokenizer.ggml.pre -> the regex its merges were learned with; any other value keeps GPT-2's.
PRE_TOKENIZER_SPLITS = {
    **dict.fromkeys(("llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2",
                     "jina-v5-nano", "dbrx", "smaug-bpe"), _LLAMA3_SPLIT),
    **dict.fromkeys(("qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "megrez"), _QWEN2_SPLIT),
    "qwen35": _QWEN35_SPLIT,
    "tekken": _TEKKEN_SPLIT,
    **dict.fromkeys(("gpt-4o", "llama4", "kanana2", "talkie", "minimax-m2"), _GPT4O_SPLIT),
}

# transformers builds these architectures' "llama" vocabularies another way (Gemma: spaces by a
# normalizer, merges ranked by file order; Phi-3: a prepend normalizer), which we do not.
_OTHER_SENTENCEPIECE_ARCHITECTURES = ("gemma", "gemma2", "gemma3", "phi3")
_ROLE_KEYS = {"bos": "bos_token_id", "eos": "eos_token_id", "unk": "unknown_token_id", "pad": "padding_token_id"}


def tokenizer_from_gguf(metadata: Mapping[str, Any]) -> Tokenizer:
    """Build the tokenizer described by a GGUF file's decoded key/value metadata.

    Control tokens (token_type 3) and the bos/eos/unk/pad tokens are special; user-defined
    ones (4) are added whole but not special, as llama.cpp renders them as text. `encode`
    prepends BOS when `tokenizer.ggml.add_bos_token` says so (default: on for "llama").
    The chat template, or None, is the returned tokenizer's `chat_template` attribute.
    """
    kind = metadata.get("tokenizer.ggml.model")
    if kind not in SUPPORTED_MODELS:
        raise ValueError(f"unsupported GGUF tokenizer.ggml.model {kind!r}: expected one of {SUPPORTED_MODELS}")
    architecture = metadata.get("general.architecture")
    if kind == "llama" and architecture in _OTHER_SENTENCEPIECE_ARCHITECTURES:
        raise ValueError(f"the 'llama' tokenizer of a {architecture!r} GGUF is not supported: its spaces and "
                         f"merges follow other rules than llama.cpp's SentencePiece vocabularies")
    tokens = metadata.get("tokenizer.ggml.tokens")
    if tokens is None:
        raise ValueError("GGUF metadata has no 'tokenizer.ggml.tokens': the file carries no tokenizer")
    tokens = list(tokens)
    merges = metadata.get("tokenizer.ggml.merges")
    merges = None if merges is None else [tuple(m.split(" ", 1)) for m in merges]
    if kind == "gpt2":
        backend = _byte_level_bpe(tokens, merges or [], metadata.get("tokenizer.ggml.pre"))
    else:
        if merges is None:
            scores = metadata.get("tokenizer.ggml.scores")
            if scores is None:
                raise ValueError("a 'llama' GGUF tokenizer needs 'tokenizer.ggml.merges' or 'tokenizer.ggml.scores'")
            merges = _merges_from_scores(tokens, [float(s) for s in scores])
        backend = _sentencepiece_bpe(tokens, merges)

    roles = {role: tokens[int(metadata[f"tokenizer.ggml.{key}"])]
             for role, key in _ROLE_KEYS.items() if f"tokenizer.ggml.{key}" in metadata}
    roles = {role: token for role, token in roles.items() if backend.token_to_id(token) is not None}
    _add_gguf_tokens(backend, tokens, metadata.get("tokenizer.ggml.token_type") or [], roles.values())
    add_bos = bool(metadata.get("tokenizer.ggml.add_bos_token", kind == "llama"))
    add_eos = bool(metadata.get("tokenizer.ggml.add_eos_token", False))
    backend.post_processor = _bos_eos_template(backend, roles.get("bos") if add_bos else None,
                                               roles.get("eos") if add_eos else None)
    return Tokenizer(backend, roles, metadata.get("tokenizer.chat_template"))


def _byte_spelling() -> list[str]:
    """GPT-2's printable stand-in for each byte 0..255: printable Latin-1 maps to itself,
    the rest to chr(256), chr(257), ... in byte order."""
    printable = {*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)}
    extra = iter(range(256, 512))
    return [chr(b) if b in printable else chr(next(extra)) for b in range(256)]


def _byte_level_bpe(tokens: Sequence[str], merges: list[tuple[str, str]], pre: str | None) -> tokenizers.Tokenizer:
    spelling = _byte_spelling()
    alphabet = set(spelling)
    # llama.cpp writes tokens in the byte alphabet, except some control tokens stored as
    # plain text; those are respelled so the vocabulary keeps one spelling.
    vocab = {t if set(t) <= alphabet else "".join(spelling[b] for b in t.encode("utf-8")): i
             for i, t in enumerate(tokens)}
    backend = tokenizers.Tokenizer(models.BPE(vocab, merges, continuing_subword_prefix="", end_of_word_suffix="",
                                              fuse_unk=False, dropout=None))
    split = PRE_TOKENIZER_SPLITS.get(pre)
    if split is None:
        backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    else:
        backend.pre_tokenizer = pre_tokenizers.Sequence([
            pre_tokenizers.Split(Regex(split), behavior="isolated"),
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)])
    backend.decoder = decoders.ByteLevel()
    return backend


def _sentencepiece_bpe(tokens: Sequence[str], merges: list[tuple[str, str]]) -> tokenizers.Tokenizer:
    vocab = {t: i for i, t in enumerate(tokens)}
    # No unk_token: byte fallback spells any character the vocabulary lacks as <0x..> pieces.
    backend = tokenizers.Tokenizer(models.BPE(vocab, merges, fuse_unk=True, byte_fallback=True, dropout=None))
    # "first": "▁" goes before the start of the text (unless it starts with a space), not
    # before the text that follows a special token inside it.
    backend.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="first", split=False)
    backend.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse(),
                                         decoders.Strip(" ", 1, 0)])
    return backend


def _merges_from_scores(tokens: Sequence[str], scores: Sequence[float]) -> list[tuple[str, str]]:
    """SentencePiece BPE keeps no merge list: a piece's score ranks the merge that makes it.

    Every split of a piece into two vocabulary pieces is a merge with that piece's score;
    best score first, ties broken by the longer left part, the longer right part, then the
    piece's place in the vocabulary (the ranking transformers' `generate_merges` gives).
    """
    vocab = set(tokens)
    ranked = [(score, piece[:k], piece[k:]) for piece, score in dict(zip(tokens, scores)).items()
              for k in range(1, len(piece)) if piece[:k] in vocab and piece[k:] in vocab]
    ranked.sort(key=lambda m: (m[0], len(m[1]), len(m[2])), reverse=True)  # stable: ties keep vocabulary order
    return [(left, right) for _, left, right in ranked]


def _add_gguf_tokens(backend: tokenizers.Tokenizer, tokens: Sequence[str], types: Sequence[int],
                     roles: Iterable[str]) -> None:
    """Register control tokens and the role tokens as special, user-defined ones as plain
    added tokens, so the text around them is split but they are not."""
    vocab = backend.get_vocab()
    # A token missing from the vocabulary under its own spelling is a byte-level control token
    # stored as plain text (a llama.cpp mislabel): adding it would grow the vocabulary.
    special = [t for t, kind in zip(tokens, types) if kind == CONTROL and t in vocab]
    special += [t for t in roles if t not in special]
    backend.add_special_tokens([AddedToken(t, normalized=False, special=True) for t in special])
    backend.add_tokens([AddedToken(t, normalized=False, special=False)
                        for t, kind in zip(tokens, types) if kind == USER_DEFINED and t in vocab])


def _bos_eos_template(backend: tokenizers.Tokenizer, bos: str | None, eos: str | None) -> processors.TemplateProcessing:
    """`bos $A eos` (each end only when given), and `bos $A eos bos $B eos` for pairs."""
    def side(seq: str, type_id: int) -> str:
        return " ".join(x for x in (bos and f"{bos}:{type_id}", f"${seq}:{type_id}", eos and f"{eos}:{type_id}") if x)
    ends = [(t, backend.token_to_id(t)) for t in dict.fromkeys(t for t in (bos, eos) if t)]
    return processors.TemplateProcessing(single=side("A", 0), pair=f"{side('A', 0)} {side('B', 1)}",
                                         special_tokens=ends)
