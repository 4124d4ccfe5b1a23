"""The task heads (heads/): shapes, losses against a hand-written cross-entropy, weight tying, pooling.

Each head is tested on its own, with random (B, N, D) features standing in for a backbone's output.
"""
import pytest
import torch
import torch.nn.functional as F
from torch import nn

from heads import CausalLMHead, ClassifierHead, MLMHead
from heads.classification import PreLogits
from heads.lm import shift_targets

B, T, D, V, C = 2, 5, 8, 11, 4


def features(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def hand_cross_entropy(logits, targets, ignore_index=-100, smoothing=0.0):
    """Mean over the kept rows of -log p(target), written out (logsumexp - logit), with label smoothing as
    (1 - eps) * nll + eps * the mean of -log p over all classes."""
    logits, targets = logits.reshape(-1, logits.shape[-1]).double(), targets.reshape(-1)
    losses = []
    for row, target in zip(logits, targets.tolist()):
        if target == ignore_index:
            continue
        log_p = row - torch.logsumexp(row, 0)
        losses.append((1 - smoothing) * -log_p[target] + smoothing * -log_p.mean())
    return torch.stack(losses).mean()


# ----------------------------------------------------------------------------- causal LM


def test_lm_head_shapes_and_bias():
    head = CausalLMHead(D, V)
    assert isinstance(head.proj, nn.Linear) and head.proj.bias is None  # GPT-2 / LLaMA: no output bias
    x = features(B, T, D)
    torch.testing.assert_close(head(x), x @ head.proj.weight.T)  # (B, T, V)
    assert head(x).shape == (B, T, V)
    assert CausalLMHead(D, V, bias=True).proj.bias.shape == (V,)


def test_lm_loss_is_the_mean_cross_entropy_over_kept_positions():
    logits = features(B, T, V)
    targets = torch.randint(0, V, (B, T), generator=torch.Generator().manual_seed(1))
    targets[0, 1] = targets[1, 4] = -100
    loss = CausalLMHead.loss(logits, targets)
    assert loss.item() == pytest.approx(hand_cross_entropy(logits, targets).item(), rel=1e-6)

    # Ignored positions are really ignored: whatever their logits, the loss is the same and their gradient is 0.
    noisy = logits.clone()
    noisy[0, 1] += 100 * features(V, seed=2)
    noisy[1, 4] -= 50
    noisy.requires_grad_(True)
    again = CausalLMHead.loss(noisy, targets)
    assert again.item() == pytest.approx(loss.item(), rel=1e-6)
    again.backward()
    assert noisy.grad[0, 1].abs().max() == 0 and noisy.grad[1, 4].abs().max() == 0
    assert noisy.grad[0, 0].abs().max() > 0

    # Another ignore_index: the positions marked -1 are the ones skipped.
    custom = torch.where(targets == -100, torch.tensor(-1), targets)
    assert CausalLMHead.loss(logits, custom, ignore_index=-1).item() == pytest.approx(loss.item(), rel=1e-6)


def test_lm_loss_runs_in_fp32_for_bf16_logits():
    logits = features(B, T, V).bfloat16()
    targets = torch.randint(0, V, (B, T), generator=torch.Generator().manual_seed(1))
    loss = CausalLMHead.loss(logits, targets)
    assert loss.dtype == torch.float32
    assert loss.item() == pytest.approx(hand_cross_entropy(logits.float(), targets).item(), rel=1e-6)


def test_shift_targets_next_token_and_padding():
    ids = torch.tensor([[5, 6, 7, 8], [9, 10, 0, 0]])
    assert shift_targets(ids).tolist() == [[6, 7, 8, -100], [10, 0, 0, -100]]
    mask = torch.tensor([[1, 1, 1, 1], [1, 1, 0, 0]])
    # Position t predicts token t+1: ignored where t+1 is padding (and always at the last position).
    assert shift_targets(ids, mask).tolist() == [[6, 7, 8, -100], [10, -100, -100, -100]]
    assert shift_targets(ids, mask, ignore_index=-1).tolist() == [[6, 7, 8, -1], [10, -1, -1, -1]]
    assert ids.tolist() == [[5, 6, 7, 8], [9, 10, 0, 0]]  # the input is not modified


@pytest.mark.parametrize("make_head, weight", [(lambda: CausalLMHead(D, V), "proj"),
                                               (lambda: MLMHead(D, V), "decoder")], ids=["lm", "mlm"])
def test_tie_to_shares_the_embedding_parameter(make_head, weight):
    torch.manual_seed(0)
    embedding, head = nn.Embedding(V, D), make_head()
    head.tie_to(embedding)
    linear = getattr(head, weight)
    assert linear.weight is embedding.weight  # the very Parameter, not a copy

    model = nn.ModuleDict({"embed": embedding, "head": head})
    assert sum(p is embedding.weight for p in model.parameters()) == 1  # listed once (one optimizer entry)

    # A change to the embedding shows in the head.
    x = features(B, T, D)
    before = head(x)
    with torch.no_grad():
        embedding.weight[3] += 1.0
    after = head(x)
    changed = (after - before).abs().amax(dim=(0, 1)) > 0
    assert changed[3] and changed.sum() == 1  # only token 3's logit moved

    # One gradient: the lookup's and the head's accumulate into the same .grad.
    ids = torch.tensor([[1, 3, 3]])
    w = features(V, seed=4)

    def grad_of(use_lookup, use_head):
        embedding.weight.grad = None
        loss = torch.zeros(())
        if use_lookup:
            loss = loss + embedding(ids).pow(2).sum()
        if use_head:
            loss = loss + (head(x) * w).sum()
        loss.backward()
        return embedding.weight.grad.clone()

    torch.testing.assert_close(grad_of(True, True), grad_of(True, False) + grad_of(False, True))
    assert linear.weight.grad is embedding.weight.grad


# ----------------------------------------------------------------------------- masked LM


def test_mlm_head_forward_is_dense_gelu_norm_decoder():
    torch.manual_seed(0)
    head = MLMHead(D, V)
    assert isinstance(head.dense, nn.Linear) and isinstance(head.decoder, nn.Linear)
    assert head.decoder.bias.shape == (V,) and head.decoder.bias.abs().max() == 0  # zero-initialised, as BERT
    assert head.norm.eps == 1e-12
    with torch.no_grad():
        head.decoder.bias.normal_()  # so a forgotten bias would show
    x = features(B, T, D)
    h = F.gelu(x @ head.dense.weight.T + head.dense.bias)
    h = F.layer_norm(h, (D,), head.norm.weight, head.norm.bias, eps=1e-12)
    torch.testing.assert_close(head(x), h @ head.decoder.weight.T + head.decoder.bias)
    assert head(x).shape == (B, T, V)
    assert head(x[0, :3]).shape == (3, V)  # the selected positions only (Bert.forward(predict=))


def test_mlm_loss_only_counts_labelled_positions():
    logits = features(B, T, V)
    labels = torch.full((B, T), -100)
    labels[0, 2], labels[1, 0], labels[1, 3] = 4, 7, 1
    loss = MLMHead.loss(logits, labels)
    assert loss.item() == pytest.approx(hand_cross_entropy(logits, labels).item(), rel=1e-6)
    # The (N, V) selected-positions form gives the same loss.
    picked = labels != -100
    assert MLMHead.loss(logits[picked], labels[picked]).item() == pytest.approx(loss.item(), rel=1e-6)
    # Unlabelled positions do not matter.
    other = logits.clone()
    other[~picked] = 1e3 * features(int((~picked).sum()), V, seed=5)
    assert MLMHead.loss(other, labels).item() == pytest.approx(loss.item(), rel=1e-6)
    assert MLMHead.loss(logits.bfloat16(), labels).dtype == torch.float32


# ----------------------------------------------------------------------------- classification


def test_classifier_pools_cls_token():
    x = features(B, T, D)
    pooled = ClassifierHead(D, 0, "cls")(x)
    assert torch.equal(pooled, x[:, 0])  # (B, D): num_classes=0 returns the pooled features
    head = ClassifierHead(D, C, "cls")
    assert head.num_classes == C and isinstance(head.fc, nn.Linear)
    torch.testing.assert_close(head(x), x[:, 0] @ head.fc.weight.T + head.fc.bias)
    assert head(x).shape == (B, C)


@pytest.mark.parametrize("prefix", [0, 1, 2])
def test_classifier_mean_pool_skips_prefix_tokens(prefix):
    x = features(B, T, D)
    head = ClassifierHead(D, 0, "mean", num_prefix_tokens=prefix)
    torch.testing.assert_close(head(x), x[:, prefix:].sum(1) / (T - prefix))
    changed = x.clone()
    changed[:, :prefix] = 1e4  # class / register tokens do not enter the mean
    torch.testing.assert_close(head(changed), head(x))
    if prefix < T - 1:
        changed[:, -1] += 1.0  # the patch tokens do
        assert not torch.allclose(head(changed), head(x))


def test_classifier_pool_none_keeps_every_token():
    x = features(B, T, D)
    assert torch.equal(ClassifierHead(D, 0, "none")(x), x)  # (B, N, D)
    head = ClassifierHead(D, C, "none")
    assert head(x).shape == (B, T, C)
    torch.testing.assert_close(head(x)[:, 3], head.fc(x[:, 3]))


def test_classifier_cls_dist_pool_averages_the_first_two_tokens():
    """DeiT / AST: (class + distillation) / 2, then the head's norm and fc (AST's ASTMLPHead)."""
    x = features(B, T, D)
    torch.testing.assert_close(ClassifierHead(D, 0, "cls+dist")(x), (x[:, 0] + x[:, 1]) / 2, atol=0, rtol=0)
    norm = nn.LayerNorm(D)
    head = ClassifierHead(D, C, "cls+dist", num_prefix_tokens=2, norm=norm)
    torch.testing.assert_close(head(x), head.fc(norm((x[:, 0] + x[:, 1]) / 2)))
    changed = x.clone()
    changed[:, 2:] = 1e4  # the patch tokens do not enter the pool
    torch.testing.assert_close(head(changed), head(x))


def test_classifier_bad_pool_is_refused():
    with pytest.raises(ValueError, match=r"pool must be 'cls', 'cls\+dist', 'mean' or 'none', got 'avg'"):
        ClassifierHead(D, C, "avg")


def test_classifier_norm_pre_logits_dropout_order():
    """pool -> norm -> pre-logits (BERT's pooler: dense + tanh) -> dropout -> fc."""
    torch.manual_seed(0)
    pre = PreLogits(D)
    assert isinstance(pre.fc, nn.Linear)
    x = features(B, T, D)
    torch.testing.assert_close(pre(x), torch.tanh(x @ pre.fc.weight.T + pre.fc.bias))
    norm = nn.LayerNorm(D)
    with torch.no_grad():
        norm.weight.normal_(), norm.bias.normal_()
    head = ClassifierHead(D, C, "cls", norm=norm, pre_logits=pre, dropout=0.5).eval()
    torch.testing.assert_close(head(x), head.fc(pre(norm(x[:, 0]))))
    with torch.no_grad():
        assert ClassifierHead(D, 0, "cls", norm=norm, pre_logits=pre)(x).shape == (B, D)
    # Dropout sits right before fc: dropping everything leaves only the bias.
    head = ClassifierHead(D, C, "cls", norm=norm, pre_logits=pre, dropout=1.0).train()
    torch.testing.assert_close(head(x), head.fc.bias.expand(B, C))


def test_classifier_reset_changes_classes_and_keeps_dtype_and_device():
    head = ClassifierHead(D, C, "mean").to(torch.float64)
    head.reset(7)
    assert head.num_classes == 7 and head.fc.weight.dtype == torch.float64
    assert head(features(B, T, D).double()).shape == (B, 7)
    head.reset(0)
    assert head.num_classes == 0 and isinstance(head.fc, nn.Identity)
    assert head(features(B, T, D).double()).shape == (B, D)
    head.reset(3)  # from Identity back to a classifier: no parameters left to copy dtype from
    assert head.num_classes == 3

    on_meta = ClassifierHead(D, C, norm=nn.LayerNorm(D)).to("meta", torch.bfloat16)
    on_meta.reset(5)
    assert on_meta.fc.weight.device.type == "meta" and on_meta.fc.weight.dtype == torch.bfloat16
    assert on_meta.fc.weight.shape == (5, D)


def test_classifier_loss_and_label_smoothing():
    logits = features(6, C)
    labels = torch.tensor([0, 3, 1, 1, 2, 0])
    loss = ClassifierHead.loss(logits, labels)
    assert loss.item() == pytest.approx(hand_cross_entropy(logits, labels).item(), rel=1e-6)
    smoothed = ClassifierHead.loss(logits, labels, label_smoothing=0.2)
    assert smoothed.item() == pytest.approx(hand_cross_entropy(logits, labels, smoothing=0.2).item(), rel=1e-6)
    assert abs(smoothed.item() - loss.item()) > 1e-3
    # Smoothing keeps even a confident, correct prediction away from zero loss.
    sure = F.one_hot(labels, C).float() * 30
    assert ClassifierHead.loss(sure, labels).item() < 1e-6
    assert ClassifierHead.loss(sure, labels, 0.2).item() == pytest.approx(
        hand_cross_entropy(sure, labels, smoothing=0.2).item(), rel=1e-6)
    assert ClassifierHead.loss(logits.bfloat16(), labels).dtype == torch.float32


@pytest.mark.parametrize("make_head, shape", [
    (lambda: CausalLMHead(D, V, bias=True), (B, T, D)),
    (lambda: MLMHead(D, V), (B, T, D)),
    (lambda: ClassifierHead(D, C, "mean", norm=nn.LayerNorm(D), pre_logits=PreLogits(D)), (B, T, D)),
], ids=["lm", "mlm", "classifier"])
def test_every_head_parameter_gets_a_gradient(make_head, shape):
    torch.manual_seed(0)
    head = make_head()
    out = head(features(*shape))
    assert torch.isfinite(out).all()
    (out * features(*out.shape, seed=9)).sum().backward()
    for name, p in head.named_parameters():
        assert p.grad is not None and p.grad.abs().max() > 0, name
