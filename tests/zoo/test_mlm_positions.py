"""BERT's masked-LM head run only at the labelled positions (Bert.forward(predict=), tasks.mlm_loss)."""
import pytest
import torch
import torch.nn.functional as F

import zoo
from zoo.training.tasks import classification_loss, mlm_loss


def _batch(model, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, model.config.vocab_size, (3, 12), generator=g)
    labels = torch.where(torch.rand(3, 12, generator=g) < 0.3, ids, -100)
    labels[0, 0] = ids[0, 0]  # at least one labelled position
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids), "labels": labels}


def test_selected_positions_give_the_full_heads_loss_and_gradients():
    torch.manual_seed(0)
    model = zoo.create_model("bert_tiny", dropout=0.0, attn_dropout=0.0)
    batch = _batch(model)
    full = F.cross_entropy(model(batch["input_ids"]).flatten(0, 1), batch["labels"].flatten(), ignore_index=-100)
    full.backward()
    want = {n: p.grad.clone() for n, p in model.named_parameters()}
    model.zero_grad()
    sparse = mlm_loss(model, batch)[0]
    sparse.backward()
    assert sparse.item() == pytest.approx(full.item(), rel=1e-6)
    for n, p in model.named_parameters():
        torch.testing.assert_close(p.grad, want[n], rtol=1e-5, atol=1e-6, msg=n)

    predict = batch["labels"] != -100
    logits = model(batch["input_ids"], predict=predict)
    assert logits.shape == (int(predict.sum()), model.config.vocab_size)
    torch.testing.assert_close(logits, model(batch["input_ids"])[predict], rtol=1e-5, atol=1e-5)


def test_mlm_accuracy_counts_the_labelled_positions_predicted_right():
    """Labels built from the full head's own predictions: right at 3 chosen positions, wrong at 4 others."""
    torch.manual_seed(0)
    model = zoo.create_model("bert_tiny", dropout=0.0, attn_dropout=0.0)
    batch = _batch(model)
    with torch.no_grad():
        predicted = model(batch["input_ids"]).argmax(-1)  # (B, T): the full head, not predict=
    labels = torch.full_like(predicted, -100)
    right, wrong = [(0, 1), (1, 5), (2, 11)], [(0, 0), (0, 7), (1, 2), (2, 3)]
    for i, j in right:
        labels[i, j] = predicted[i, j]
    for i, j in wrong:
        labels[i, j] = (predicted[i, j] + 1) % model.config.vocab_size
    metrics = mlm_loss(model, {**batch, "labels": labels})[1]
    assert float(metrics["mlm_acc"]) == pytest.approx(3 / 7)


def test_predict_errors():
    model = zoo.create_model("bert_tiny")
    ids = torch.randint(0, model.config.vocab_size, (2, 5))
    with pytest.raises(ValueError, match="bool tensor shaped like input_ids"):
        model(ids, predict=torch.ones(2, 4, dtype=torch.bool))
    model.reset_head(3)
    with pytest.raises(ValueError, match="classifier head"):
        model(ids, predict=torch.ones(2, 5, dtype=torch.bool))


def test_classifier_head_loss_still_works():
    torch.manual_seed(0)
    model = zoo.create_model("bert_tiny")
    model.reset_head(3)
    model.eval()  # no dropout: the two forwards must match
    ids = torch.randint(0, model.config.vocab_size, (2, 5))
    labels = torch.tensor([0, 2])
    loss = classification_loss()(model, {"input_ids": ids, "labels": labels})[0]
    assert loss.item() == pytest.approx(F.cross_entropy(model(ids), labels).item(), rel=1e-6)
