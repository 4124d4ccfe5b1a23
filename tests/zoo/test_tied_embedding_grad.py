"""Tied embeddings: the lookup's gradient leaves sparse and autograd adds it into the head's dense one."""
import copy

import pytest
import torch

import zoo
from backbones.frontends.tokens import TokenEmbedding
from heads.lm import shift_targets
from zoo.training.tasks import causal_lm_loss, mlm_loss


@pytest.mark.parametrize("name", ["gpt_tiny", "llama_tiny", "bert_tiny"])
def test_same_dense_gradient_as_a_dense_lookup(name, monkeypatch):
    torch.manual_seed(0)
    bert = name.startswith("bert")
    overrides = {"dropout": 0.0, "attn_dropout": 0.0} if bert else {"tie_embeddings": True}
    model = zoo.create_model(name, **overrides).train()
    dense = copy.deepcopy(model)
    vocab = model.config.vocab_size
    ids = torch.randint(0, vocab, (2, 12))
    labels = torch.where(torch.rand(2, 12) < 0.3, ids, -100) if bert else shift_targets(ids)
    batch = {"input_ids": ids, "labels": labels}
    loss_fn = (lambda m, b: mlm_loss(m, b)[0]) if bert else (lambda m, b: causal_lm_loss(m, b)[0])
    calls = []
    original = TokenEmbedding.lookup  # every family's word-embedding lookup

    def spy(self, *args, **kwargs):
        calls.append(kwargs.get("sparse_grad", False))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(TokenEmbedding, "lookup", spy)
    loss_fn(model, batch).backward()
    monkeypatch.setattr(TokenEmbedding, "lookup", lambda self, *a, sparse_grad=False, **k: original(self, *a, **k))
    loss_fn(dense, batch).backward()
    assert calls == [True]  # the tied model asked for the sparse lookup
    grad = model.embed.tokens.weight.grad
    assert grad.layout == torch.strided  # dense in the end: AdamW, clipping and DDP see what they expect
    torch.testing.assert_close(grad, dense.embed.tokens.weight.grad, rtol=1e-5, atol=1e-7)
    for (n, p), q in zip(model.named_parameters(), dense.parameters()):
        torch.testing.assert_close(p.grad, q.grad, rtol=1e-5, atol=1e-7, msg=n)


def test_untied_and_features_only_stay_dense():
    torch.manual_seed(0)
    untied = zoo.create_model("llama_tiny", tie_embeddings=False).train()
    ids = torch.randint(0, untied.vocab_size, (2, 8))
    causal_lm_loss(untied, {"input_ids": ids, "labels": shift_targets(ids)})[0].backward()
    assert untied.embed.tokens.weight.grad.layout == torch.strided
    tied = zoo.create_model("gpt_tiny").train()
    tied.forward_features(ids).sum().backward()  # no head after it: nothing to add a sparse gradient into
    assert tied.embed.tokens.weight.grad.layout == torch.strided
    torch.optim.AdamW(tied.parameters(), fused=True).step()  # fused AdamW takes dense gradients only
