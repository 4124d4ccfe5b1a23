"""The LM loss computed from features: plain, and in checkpointed token chunks (what activation checkpointing
uses so the logits never exist whole), equal to the cross-entropy of the logits, loss and gradients."""
import pytest
import torch

import zoo
from heads.lm import CausalLMHead, shift_targets


@pytest.mark.parametrize("chunk", [None, 1, 5, 64])
def test_features_loss_equals_the_logits_cross_entropy(chunk):
    torch.manual_seed(0)
    head = CausalLMHead(16, 50)
    features = torch.randn(3, 7, 16, requires_grad=True)
    targets = torch.randint(0, 50, (3, 7))
    targets[0, :4] = -100  # some positions carry no label
    want = CausalLMHead.loss(head(features), targets)
    want_grads = torch.autograd.grad(want, [features, head.proj.weight])
    got = head.features_loss(features, targets, chunk)
    got_grads = torch.autograd.grad(got, [features, head.proj.weight])
    torch.testing.assert_close(got, want, rtol=1e-6, atol=1e-6)
    for g, w in zip(got_grads, want_grads):
        torch.testing.assert_close(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("checkpointing", [False, True])
def test_causal_lm_forward_with_labels_is_its_loss(checkpointing):
    torch.manual_seed(0)
    model = zoo.create_model("gpt_tiny", dropout=0.0).train()
    ids = torch.randint(0, 4096, (2, 200))  # 400 tokens: more than one LOSS_CHUNK
    labels = shift_targets(ids)
    want = CausalLMHead.loss(model(ids), labels)
    want_grad = torch.autograd.grad(want, model.embed.tokens.weight)[0]
    if checkpointing:
        model.set_grad_checkpointing()
    got = model(ids, labels=labels)
    got_grad = torch.autograd.grad(got, model.embed.tokens.weight)[0]
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(got_grad, want_grad, rtol=1e-4, atol=1e-6)
