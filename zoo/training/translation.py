"""Translation on the training engine: the 2017 Transformer's loss and its held-out scores.

Loss: cross-entropy with label smoothing (Vaswani et al. 2017, section 5.4, eps 0.1; Szegedy et al. 2016): each
target token's loss is (1 - eps) * its negative log-likelihood + eps * the mean over the vocabulary of -log p,
averaged over the labelled target tokens (labels -100 are padding), which is torch's
cross_entropy(label_smoothing=eps). The unsmoothed negative log-likelihood is logged beside it as "nll".

Scores: the model translates with zoo.translate (beam search; the paper's beam 4, length penalty 0.6, at most
2 x the longest source + 10 new tokens), the tokenizer detokenises, and sacrebleu scores the corpus: BLEU (corpus_bleu,
its default 13a tokenizer) and chrF (corpus_chrf) against the reference lines as written. zoo.generate's length
penalty divides the log-probability by length ** alpha (transformers'), not GNMT's ((5 + length) / 6) ** alpha.

    loss_fn = label_smoothed_loss(0.1)                      # for zoo.training.train
    scores, hypotheses = evaluate_translation(model, tokenizer, pairs, num_beams=4, length_penalty=0.6)

zoo train-translation (zoo/cli/train_translation.py) trains with these.
"""
from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from data.marian_tokenizer import MarianSentencePiece
from data.token_batches import PairCollator
from zoo.generation.translate import translate as translate_sentences
from zoo.training.batches import LOSS_WEIGHT
from zoo.training.sharded import is_sharded

DECODE_BATCH = 64  # source sentences decoded together (times the beams: rows of the decoder's batch)


def smoothed_cross_entropy(logits: torch.Tensor, labels: torch.Tensor, label_smoothing: float
                           ) -> tuple[torch.Tensor, dict[str, Any]]:
    """logits (B, T, V), labels (B, T) with -100 at padding -> (torch's label-smoothed cross-entropy averaged over
    the labelled tokens, {"nll": their mean negative log-likelihood, LOSS_WEIGHT: their count})."""
    labelled = labels != -100
    log_probs = logits[labelled].float().log_softmax(-1)  # (N, V): the labelled positions only
    targets = labels[labelled]  # (N,)
    loss = F.cross_entropy(log_probs, targets, label_smoothing=label_smoothing)  # log_softmax is idempotent
    nll = F.nll_loss(log_probs.detach(), targets)
    return loss, {"nll": nll, LOSS_WEIGHT: labelled.sum()}


def label_smoothed_loss(label_smoothing: float):
    """The engine's loss_fn for an encoder-decoder on PairCollator batches (input_ids, attention_mask,
    decoder_input_ids, labels): smoothed_cross_entropy of its teacher-forced logits."""
    def loss_fn(model: nn.Module, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, dict[str, Any]]:
        logits = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                       decoder_input_ids=batch["decoder_input_ids"])  # (B, T, V)
        return smoothed_cross_entropy(logits, batch["labels"], label_smoothing)
    return loss_fn


def encode_pairs(tokenizer: MarianSentencePiece, pairs: Sequence[tuple[str, str]]) -> list[tuple[list[int], list[int]]]:
    """(source ids, target ids) of each (source, target) text pair, EOS ending both."""
    sources = tokenizer.encode([s for s, _ in pairs])
    targets = tokenizer.encode_target([t for _, t in pairs])
    return list(zip(sources, targets))


def fit(ids: list[int], limit: int) -> list[int]:
    """`ids` cut to `limit` tokens where longer, its last (EOS) kept."""
    return ids if len(ids) <= limit else ids[:limit - 1] + ids[-1:]


def spread(items: Sequence, limit: int) -> list:
    """At most `limit` of `items` (0: all), evenly spaced over them in their order: a held-out subset that
    reaches every book of a split ordered by book, not just the first."""
    if not limit or limit >= len(items):
        return list(items)
    return [items[i * len(items) // limit] for i in range(limit)]


@contextmanager
def whole_parameters(model: nn.Module) -> Iterator[None]:
    """Around decoding outside model.forward: an FSDP-sharded model's own parameters (embeddings, head)
    gathered whole on every rank, then sharded again; its Blocks gather theirs as they run. Every rank must then
    decode the same inputs (it does: evaluation is not sharded over the ranks). A plain model: nothing."""
    if not is_sharded(model):
        yield
        return
    model.unshard()
    try:
        yield
    finally:
        model.reshard()


def translate(model: nn.Module, tokenizer: MarianSentencePiece, sources: Sequence[str], num_beams: int = 4,
              length_penalty: float = 0.6, batch_size: int = DECODE_BATCH) -> list[str]:
    """zoo.translate of the sources, an FSDP model's own parameters gathered around it; a source longer than
    the model's positions is cut to fit (EOS kept)."""
    with whole_parameters(model), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the cut sources: held-out scores count them as they come out
        return translate_sentences(model, sources, num_beams=num_beams, length_penalty=length_penalty,
                                   batch_size=batch_size, truncate=True, tokenizer=tokenizer)


def corpus_scores(hypotheses: Sequence[str], references: Sequence[str]) -> dict[str, float]:
    """{"bleu", "chrf"}: sacrebleu's corpus BLEU (13a tokenizer) and chrF of the hypotheses, one reference each."""
    import sacrebleu

    return {"bleu": sacrebleu.corpus_bleu(list(hypotheses), [list(references)]).score,
            "chrf": sacrebleu.corpus_chrf(list(hypotheses), [list(references)]).score}


@torch.no_grad()
def held_out_nll(model: nn.Module, encoded: Sequence[tuple[list[int], list[int]]], collate: PairCollator,
                 batch_size: int = DECODE_BATCH) -> float:
    """The mean negative log-likelihood per target token of the encoded pairs, teacher-forced (no smoothing);
    sides longer than the model's positions cut to fit."""
    device, limit = next(model.parameters()).device, model.config.max_positions
    encoded = [(fit(source, limit), fit(target, limit)) for source, target in encoded]
    total, count = 0.0, 0
    for start in range(0, len(encoded), batch_size):
        batch = {k: v.to(device) for k, v in collate(encoded[start:start + batch_size]).items()}
        logits = model(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                       decoder_input_ids=batch["decoder_input_ids"])  # (B, T, V)
        _, metrics = smoothed_cross_entropy(logits, batch["labels"], 0.0)
        total += float(metrics["nll"]) * int(metrics[LOSS_WEIGHT])
        count += int(metrics[LOSS_WEIGHT])
    return total / max(count, 1)


def evaluate_translation(model: nn.Module, tokenizer: MarianSentencePiece, pairs: Sequence[tuple[str, str]],
                         num_beams: int = 4, length_penalty: float = 0.6) -> tuple[dict[str, float], list[str]]:
    """({"bleu", "chrf", "nll", "sentences"}, the hypotheses) of the model on (source, reference) text pairs."""
    was_training = model.training
    model.eval()
    try:
        hypotheses = translate(model, tokenizer, [s for s, _ in pairs], num_beams, length_penalty)
        collate = PairCollator(tokenizer.pad_id, model.config.start_id)
        nll = held_out_nll(model, encode_pairs(tokenizer, pairs), collate)
    finally:
        model.train(was_training)
    scores = corpus_scores(hypotheses, [t for _, t in pairs])
    return {**scores, "nll": nll, "sentences": len(pairs)}, hypotheses
