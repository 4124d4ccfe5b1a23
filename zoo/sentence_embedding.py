"""Sentence embeddings and semantic search on a BERT encoder (Reimers and Gurevych 2019, Sentence-BERT).

sentence-transformers' recipe for its BERT checkpoints (all-MiniLM-L6-v2 and its kin):

    sentences -> the checkpoint's WordPiece tokenizer ([CLS] ... [SEP], cut to max_seq_length)
              -> BERT features (B, T, D) -> mean over the real tokens (heads.pooling.mean_pool)
              -> L2 normalise -> (N, D); cosine similarity is then a dot product.

`semantic_search` ranks a corpus for each query by that similarity, as
`sentence_transformers.util.semantic_search` does. Checked against transformers'
BertModel with the same pooling on the real all-MiniLM-L6-v2 (tests/zoo/test_sentence_embedding.py).

Legend: N sentences, Q queries, B batch, T tokens, D model width.
"""
from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import torch
import torch.nn.functional as F

from backbones.frontends.checks import check_finite, check_tensor
from data.collate import pad_sequences
from data.tokenization import Tokenizer, load_tokenizer
from heads.pooling import mean_pool
from zoo.bert import Bert
from zoo.convert import load_directory
from zoo.pretrained import CONFIG_NAME, check_tokenizer

# sentence-transformers keeps its settings beside the HF files.
ST_CONFIG = "sentence_bert_config.json"   # {"max_seq_length": 256, ...}
ST_POOLING = "1_Pooling/config.json"      # {"pooling_mode_mean_tokens": true, ...}


class SentenceModel(NamedTuple):
    model: Bert
    tokenizer: Tokenizer
    max_length: int    # tokens per sentence, [CLS] and [SEP] included; longer ones are cut


def load_sentence_model(directory: str | Path) -> SentenceModel:
    """A BERT directory (HF or our save_pretrained) with its tokenizer, in eval mode.

    max_length is sentence-transformers' max_seq_length where the directory has one, else the model's positions.
    A sentence-transformers directory whose pooling is not the mean (CLS, max) is refused: embed would not
    give its embeddings; so is a tokenizer of another vocabulary than the model's (zoo.pretrained.check_tokenizer:
    more tokens than the model's embeddings, or without the model's pad_id), a TokenizerMismatchError.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"model directory {str(directory)!r} does not exist: expected a BERT directory "
                                "(HF format or save_pretrained) holding its tokenizer")
    model = load_directory(directory)
    if not isinstance(model, Bert):
        raise ValueError(f"{str(directory)!r} holds a {type(model).__name__}; sentence embeddings need a BERT encoder")
    pooling = _read_json(directory / ST_POOLING)
    if pooling and not pooling.get("pooling_mode_mean_tokens", False):
        modes = sorted(k for k, v in pooling.items() if k.startswith("pooling_mode") and v is True)
        raise ValueError(f"{str(directory / ST_POOLING)!r} asks for {modes}; only mean pooling is supported")
    max_length = min(_read_json(directory / ST_CONFIG).get("max_seq_length", model.config.max_positions),
                     model.config.max_positions)
    tokenizer = load_tokenizer(directory)
    check_tokenizer(tokenizer, model.config.vocab_size, f"the tokenizer in {str(directory)!r}",
                    repr(str(directory / CONFIG_NAME)), {"pad_id": model.config.pad_id})
    return SentenceModel(model.eval(), tokenizer, int(max_length))


def _read_json(path: Path) -> dict:
    if not path.is_file():
        return {}
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{str(path)!r} is not valid JSON ({error})") from error


def encode_sentences(tokenizer: Tokenizer, sentences: Sequence[str], max_length: int) -> list[list[int]]:
    """Token ids per sentence, [CLS] and [SEP] included; a longer sentence keeps its first max_length - 1
    ids and its [SEP], as transformers' truncation does."""
    if isinstance(sentences, str) or not all(isinstance(s, str) for s in sentences):
        raise TypeError("sentences must be a list of strings (one string goes in a list of one)")
    _check_count("max_length", max_length, 2, " (room for [CLS] and [SEP])")
    return [ids if len(ids) <= max_length else ids[:max_length - 1] + ids[-1:]
            for ids in tokenizer.encode_batch(list(sentences))]


@torch.inference_mode()
def embed(model: Bert, tokenizer: Tokenizer, sentences: Sequence[str], *, max_length: int | None = None,
          batch_size: int = 32, normalize: bool = True) -> torch.Tensor:
    """sentences -> (N, D) float32 embeddings, L2-normalised unless normalize=False (then the mean-pooled features).

    max_length: tokens per sentence, [CLS] and [SEP] included (default: the model's positions; pass
    load_sentence_model's, the checkpoint's max_seq_length, to match sentence-transformers on long sentences).
    Sentences are batched by length (less padding); padding never changes a row, so the result does not depend on
    batch_size. The model runs in eval mode (no dropout) under torch.inference_mode (no gradients), and is left in
    the mode it came in.
    """
    if len(sentences) == 0:
        raise ValueError("sentences is empty; expected at least one sentence")
    if tokenizer.pad_id is None:
        raise ValueError("the tokenizer has no padding token ([PAD]); expected a BERT WordPiece tokenizer")
    _check_count("batch_size", batch_size, 1)
    positions = model.config.max_positions
    max_length = positions if max_length is None else max_length
    _check_count("max_length", max_length, 2, " (room for [CLS] and [SEP])")
    if max_length > positions:
        raise ValueError(f"max_length={max_length} exceeds the model's {positions} positions; expected at most "
                         f"{positions} tokens")
    encoded = encode_sentences(tokenizer, sentences, max_length)
    device = next(model.parameters()).device
    order = sorted(range(len(encoded)), key=lambda i: len(encoded[i]))
    out = torch.empty(len(encoded), model.config.dim)  # (N, D)
    was_training = model.training
    model.eval()
    try:
        for start in range(0, len(order), batch_size):
            rows = order[start:start + batch_size]
            input_ids, attention_mask = pad_sequences([encoded[i] for i in rows], tokenizer.pad_id)  # (B, T)
            attention_mask = attention_mask.to(device)
            features = model.forward_features(input_ids.to(device), attention_mask)  # (B, T, D)
            out[rows] = mean_pool(features, attention_mask).float().cpu()  # (B, D)
    finally:
        model.train(was_training)
    return F.normalize(out, dim=-1) if normalize else out


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
