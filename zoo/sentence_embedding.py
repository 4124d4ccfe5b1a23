"""Sentence embeddings and semantic search on a BERT encoder (Reimers and Gurevych 2019, Sentence-BERT).

    model = zoo.from_hf("path/to/all-MiniLM-L6-v2")        # carries the checkpoint's pooling
    tokenizer = load_tokenizer("path/to/all-MiniLM-L6-v2")
    vectors = zoo.embed(model, tokenizer, ["a sentence", "another"])   # (2, 384), L2-normalised

sentence-transformers' pipeline for its BERT checkpoints (all-MiniLM-L6-v2 and its kin):

    sentences -> the checkpoint's WordPiece tokenizer ([CLS] ... [SEP], cut to max_seq_length)
              -> BERT features (B, T, D) -> the checkpoint's pooling over the real tokens (heads.pooling.pool:
                 mean, cls, max, ...) -> L2 normalise where it lists Normalize -> (N, D)

The pooling comes from the model (`model.sentence_pooling`, read from the checkpoint's modules.json and
1_Pooling/config.json by zoo.from_hf / load_pretrained: zoo.sentence_pooling); a model without one is mean-pooled
and not normalised, as sentence-transformers treats a plain BERT checkpoint. `model(ids)` is not an embedding: on
a checkpoint with a pooler (all-MiniLM-L6-v2) it is BERT's pooler, tanh(W [CLS]), which sentence-transformers
never trained and on which unrelated sentences score 0.4-0.5.

`semantic_search` ranks a corpus for each query by cosine similarity, as
`sentence_transformers.util.semantic_search` does. Checked against sentence-transformers' encode on the real
all-MiniLM-L6-v2 and on tiny random BERTs with each pooling mode (tests/zoo/test_sentence_embedding.py).

Legend: N sentences, Q queries, B batch, T tokens, D model width.
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import NamedTuple

import torch
import torch.nn.functional as F
from torch import nn

from backbones.frontends.checks import check_finite, check_tensor
from data.collate import pad_sequences
from data.tokenization import Tokenizer, load_tokenizer
from heads.pooling import pool
from zoo.bert import Bert
from zoo.convert import load_directory
from zoo.pretrained import CONFIG_NAME, check_tokenizer
from zoo.sentence_pooling import SentencePooling

ENCODER_FAMILIES = ("bert",)  # whose forward_features are a text encoder's: what embed pools


class SentenceModel(NamedTuple):
    model: Bert
    tokenizer: Tokenizer
    max_length: int    # tokens per sentence, [CLS] and [SEP] included; longer ones are cut


def load_sentence_model(directory: str | Path) -> SentenceModel:
    """A BERT directory (HF, sentence-transformers or our save_pretrained) with its tokenizer, in eval mode.

    The model carries the directory's pooling (zoo.sentence_pooling). max_length is sentence-transformers'
    max_seq_length where the directory has one, else the model's positions. A tokenizer of another vocabulary
    than the model's (zoo.pretrained.check_tokenizer: more tokens than the model's embeddings, or without the
    model's pad_id) is refused, a TokenizerMismatchError; so is a pooling embed cannot compute.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"model directory {str(directory)!r} does not exist: expected a BERT directory "
                                "(HF format or save_pretrained) holding its tokenizer")
    model = load_directory(directory)
    if not isinstance(model, Bert):
        raise ValueError(f"{str(directory)!r} holds a {type(model).__name__}; sentence embeddings need a BERT encoder")
    pooling = sentence_pooling(model)
    pooling.check(model.config.dim, repr(str(directory)))
    tokenizer = load_tokenizer(directory)
    check_tokenizer(tokenizer, model.config.vocab_size, f"the tokenizer in {str(directory)!r}",
                    repr(str(directory / CONFIG_NAME)), {"pad_id": model.config.pad_id})
    return SentenceModel(model.eval(), tokenizer, _max_length(model, pooling, None))


def sentence_pooling(model: nn.Module) -> SentencePooling:
    """The model's checkpoint pooling, else sentence-transformers' default for a plain checkpoint (mean)."""
    return getattr(model, "sentence_pooling", None) or SentencePooling()


def encode_sentences(tokenizer: Tokenizer, sentences: Sequence[str], max_length: int) -> list[list[int]]:
    """Token ids per sentence, [CLS] and [SEP] included; a longer sentence keeps its first max_length - 1
    ids and its [SEP], as transformers' truncation does."""
    if isinstance(sentences, str) or not all(isinstance(s, str) for s in sentences):
        raise TypeError("sentences must be a list of strings (one string goes in a list of one)")
    _check_count("max_length", max_length, 2, " (room for [CLS] and [SEP])")
    return [ids if len(ids) <= max_length else ids[:max_length - 1] + ids[-1:]
            for ids in tokenizer.encode_batch(list(sentences))]


@torch.inference_mode()
def embed(model: nn.Module, tokenizer: Tokenizer | None,
          sentences: Sequence[str] | Sequence[Sequence[int]] | torch.Tensor, *,
          attention_mask: torch.Tensor | None = None, normalize: bool | None = None, max_length: int | None = None,
          batch_size: int = 32) -> torch.Tensor:
    """Sentence embeddings, (N, len(modes) * D) float32, pooled as the model's checkpoint says.

    sentences: N texts (tokenized with `tokenizer`), N lists of token ids ([CLS] and [SEP] included; tokenizer
    may be None), or an (N, T) tensor of ids with its attention_mask (1 = token; default all ones).
    normalize: L2-normalise (default: where the checkpoint lists a Normalize module).
    max_length: tokens per text, [CLS] and [SEP] included (default: the checkpoint's max_seq_length, else the
    model's positions); a longer text keeps its first max_length - 1 tokens and its [SEP].
    Texts and id lists are batched by length (less padding; padding never changes a row, so the result does not
    depend on batch_size). The model runs in eval mode under torch.inference_mode and is left in the mode it came
    in. A model that is not a text encoder (a GPT, a ViT) and a pooling this cannot compute (a mode or module
    sentence-transformers' Pooling and Normalize do not define) are refused with a ValueError naming them.
    """
    family = getattr(getattr(model, "config", None), "family", None)
    if family not in ENCODER_FAMILIES:
        raise ValueError(f"embed pools a text encoder's token features (families: {', '.join(ENCODER_FAMILIES)}); "
                         f"got a {type(model).__name__} (family {family!r}), which has no encoder output")
    pooling = sentence_pooling(model)
    pooling.check(model.config.dim)
    _check_count("batch_size", batch_size, 1)
    if isinstance(sentences, torch.Tensor):
        batches = _tensor_batches(sentences, attention_mask, batch_size)
    else:
        encoded = _token_lists(tokenizer, sentences, _max_length(model, pooling, max_length))
        batches = _list_batches(encoded, model.config.pad_id, batch_size)
    device = next(model.parameters()).device
    rows, vectors = [], []
    was_training = model.training
    model.eval()
    try:
        for index, ids, mask in batches:
            mask = mask.to(device)
            features = model.forward_features(ids.to(device), mask).float()  # (B, T, D)
            rows.append(index)
            vectors.append(pool(features, mask, pooling.modes).cpu())  # (B, len(modes) * D)
    finally:
        model.train(was_training)
    out = torch.empty(sum(map(len, rows)), vectors[0].shape[1])  # (N, len(modes) * D)
    out[torch.cat(rows)] = torch.cat(vectors)
    return F.normalize(out, dim=-1) if (pooling.normalize if normalize is None else normalize) else out


def _max_length(model: nn.Module, pooling: SentencePooling, max_length: int | None) -> int:
    positions = model.config.max_positions
    if max_length is None:
        return min(pooling.max_seq_length or positions, positions)
    _check_count("max_length", max_length, 2, " (room for [CLS] and [SEP])")
    if max_length > positions:
        raise ValueError(f"max_length={max_length} exceeds the model's {positions} positions; expected at most "
                         f"{positions} tokens")
    return max_length


def _token_lists(tokenizer: Tokenizer | None, sentences: Sequence, max_length: int) -> list[list[int]]:
    """Texts tokenized and cut to max_length, or id lists as given."""
    if isinstance(sentences, str) or not all(isinstance(x, (str, list, tuple)) for x in sentences):
        raise TypeError("sentences must be a list of strings (one string goes in a list of one), a list of token "
                        "id lists or an (N, T) tensor of ids")
    if len(sentences) == 0:
        raise ValueError("sentences is empty; expected at least one sentence")
    if all(isinstance(x, str) for x in sentences):
        if tokenizer is None:
            raise ValueError("texts need a tokenizer (data.tokenization.load_tokenizer(directory)); got None")
        return encode_sentences(tokenizer, sentences, max_length)
    if not all(isinstance(x, (list, tuple)) and all(isinstance(i, int) for i in x) for x in sentences):
        raise TypeError("sentences must be all strings or all lists of token ids, not a mix")
    return [list(x) for x in sentences]


def _list_batches(encoded: list[list[int]], pad_id: int, batch_size: int) -> Iterator[tuple[torch.Tensor, ...]]:
    """(row indices, ids (B, T), mask (B, T)), rows of similar length together, padded on the right."""
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
    for start in range(0, len(order), batch_size):
        rows = order[start:start + batch_size]
        yield (torch.tensor(rows), *pad_sequences([encoded[i] for i in rows], pad_id))


def _tensor_batches(ids: torch.Tensor, mask: torch.Tensor | None, batch_size: int
                    ) -> Iterator[tuple[torch.Tensor, ...]]:
    """(row indices, ids (B, T), mask (B, T)) in order, batch_size rows at a time."""
    check_tensor(ids, "sentences", "of token ids (N, T)")
    if ids.ndim != 2 or ids.numel() == 0:
        raise ValueError(f"sentences must be (N, T) token ids with N, T >= 1, got shape {tuple(ids.shape)}")
    mask = torch.ones_like(ids) if mask is None else mask
    if mask.shape != ids.shape:
        raise ValueError(f"attention_mask must be (N, T) = {tuple(ids.shape)}, got shape {tuple(mask.shape)}")
    for start in range(0, len(ids), batch_size):
        yield torch.arange(start, min(start + batch_size, len(ids))), ids[start:start + batch_size], \
            mask[start:start + batch_size]


def semantic_search(queries: torch.Tensor, corpus: torch.Tensor, top_k: int = 5) -> list[list[tuple[int, float]]]:
    """queries (Q, D), corpus (N, D), both L2-normalised float embeddings -> per query the top_k (corpus index,
    cosine similarity), most similar first (fewer where the corpus is smaller; none for an empty corpus)."""
    for name, x in (("queries", queries), ("corpus", corpus)):
        check_tensor(x, name, "of embeddings (rows, D)")
        if not x.is_floating_point():
            raise TypeError(f"{name} must be floating-point embeddings (embed's); got {x.dtype}")
    if queries.ndim != 2 or corpus.ndim != 2 or queries.shape[1] != corpus.shape[1]:
        raise ValueError(f"queries (Q, D) and corpus (N, D) must share D, got {tuple(queries.shape)} "
                         f"and {tuple(corpus.shape)}")
    for name, x in (("queries", queries), ("corpus", corpus)):
        check_finite(x, name)  # a NaN row would rank anywhere
    _check_count("top_k", top_k, 1)
    dtype = torch.promote_types(queries.dtype, corpus.dtype)
    scores = queries.to(dtype) @ corpus.to(dtype).T  # (Q, N)
    values, indices = scores.topk(min(top_k, corpus.shape[0]), dim=1)  # (Q, k)
    return [list(zip(i.tolist(), v.tolist())) for i, v in zip(indices, values)]


def _check_count(name: str, value, least: int, why: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{name} must be an int >= {least}{why}, got {value!r}")
