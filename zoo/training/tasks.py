"""Loss and evaluation functions for the training engine, one per task.

`loss_fn(model, batch)` calls the model (under DDP, the wrapper: calling it is
what synchronises gradients) and hands the output to the head's own loss.
Returned metrics are averaged and logged by the engine (zoo/training/engine.py).
"""
from __future__ import annotations

from typing import Any, Iterable

import torch
from torch import nn

from heads.classification import ClassifierHead
from heads.mlm import MLMHead
from zoo.training.batches import LOSS_WEIGHT


def causal_lm_loss(model: nn.Module, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, dict[str, Any]]:
    """batch: input_ids (B, T) and labels (B, T) = the next tokens (-100: no loss there)."""
    # The model computes the loss from its features (under activation checkpointing, in token chunks).
    loss = model(batch["input_ids"], batch.get("attention_mask"), labels=batch["labels"])
    return loss, {LOSS_WEIGHT: labelled(batch["labels"])}


def labelled(labels: torch.Tensor) -> torch.Tensor:
    """How many positions carry a label (not -100): the count a token-mean loss averages over."""
    return (labels != -100).sum()


def mlm_loss(model: nn.Module, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, dict[str, Any]]:
    """batch: input_ids with [MASK]s, labels (-100 where nothing is predicted), optional attention_mask and
    token_type_ids. The MLM head runs only at the labelled positions (Bert.forward(predict=))."""
    predicted = batch["labels"] != -100
    logits = model(batch["input_ids"], batch.get("attention_mask"), batch.get("token_type_ids"),
                   predict=predicted)  # (N, V): labelled only
    labels = batch["labels"][predicted]
    accuracy = (logits.argmax(-1) == labels).float().mean()
    return MLMHead.loss(logits, labels), {"mlm_acc": accuracy, LOSS_WEIGHT: labels.numel()}


def model_inputs(batch: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Everything but the labels: input_ids/attention_mask for text, pixels for images, mel for audio."""
    return {k: v for k, v in batch.items() if k != "labels"}


def classification_loss(label_smoothing: float = 0.0):
    """Any classifier: batch = the model's forward kwargs + labels (B,)."""
    def loss_fn(model: nn.Module, batch: dict[str, torch.Tensor]) -> tuple[torch.Tensor, dict[str, Any]]:
        logits = model(**model_inputs(batch))  # (B, C)
        accuracy = (logits.argmax(-1) == batch["labels"]).float().mean()
        return ClassifierHead.loss(logits, batch["labels"], label_smoothing), {"acc": accuracy}
    return loss_fn


@torch.no_grad()
def held_out_loss(model: nn.Module, batches: Iterable[dict[str, torch.Tensor]], loss_fn) -> float:
    """Mean of loss_fn over every batch, weighted by batch size: a whole held-out split's loss (token-weighted
    for language-model blocks of equal length). loss_fn may return (loss, metrics), as the engine's do."""
    device = next(model.parameters()).device
    total, count = 0.0, 0
    for batch in batches:
        batch = {k: v.to(device) for k, v in batch.items()}
        loss = loss_fn(model, batch)
        size = len(next(iter(batch.values())))
        total += float(loss[0] if isinstance(loss, tuple) else loss) * size
        count += size
    if not count:
        raise ValueError("held_out_loss: the held-out split gave no batches")
    return total / count


@torch.no_grad()
def evaluate_classifier(model: nn.Module, batches: Iterable[dict[str, torch.Tensor]],
                        num_classes: int) -> dict[str, Any]:
    """Loss, top-1 accuracy and the confusion matrix (rows = true class) over every batch."""
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    confusion = torch.zeros(num_classes, num_classes, dtype=torch.long)
    loss_sum, count = 0.0, 0
    for batch in batches:
        batch = {k: v.to(device) for k, v in batch.items()}
        logits = model(**model_inputs(batch))  # (B, C)
        loss_sum += float(ClassifierHead.loss(logits, batch["labels"])) * len(batch["labels"])
        count += len(batch["labels"])
        for t, p in zip(batch["labels"].tolist(), logits.argmax(-1).tolist()):
            confusion[t, p] += 1
    model.train(was_training)
    return {"loss": loss_sum / max(count, 1), "acc": confusion.diag().sum().item() / max(count, 1),
            "confusion": confusion}


def plot_confusion(confusion: torch.Tensor, labels: list[str], path) -> None:
    """Confusion matrix PNG (rows = true class, columns = predicted), row-normalised colours."""
    from matplotlib.figure import Figure

    counts = confusion.numpy()
    rates = counts / counts.sum(1, keepdims=True).clip(min=1)
    size = max(4.0, 0.45 * len(labels) + 2)
    fig = Figure(figsize=(size, size), dpi=100)
    ax = fig.add_subplot()
    ax.imshow(rates, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=7)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    for i in range(len(labels)):
        for j in range(len(labels)):
            if counts[i, j]:
                ax.text(j, i, int(counts[i, j]), ha="center", va="center", fontsize=6,
                        color="white" if rates[i, j] > 0.5 else "black")
    ax.set_xlabel("predicted")
    ax.set_ylabel("true")
    fig.tight_layout()
    fig.savefig(path)
