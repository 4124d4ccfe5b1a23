"""Contracts every registered model keeps (timm's tests/test_models.py, over our registry)."""
import dataclasses

import pytest
import torch

import backbones.transformer
import zoo
from tests.helpers import tiny_presets

TINY = tiny_presets()


def test_every_family_has_a_tiny_preset():
    families = {zoo.model_info(name)["family"] for name in zoo.list_models()}
    assert families == {zoo.model_info(name)["family"] for name in TINY}
    assert {"gpt", "llama", "bert"} <= families


@pytest.mark.parametrize("name", zoo.list_models())
def test_model_info_and_frozen_config(name):
    info = zoo.model_info(name)
    assert info["name"] == name and info["config"]
    config = zoo.registry._preset(name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.dim = 3


@pytest.mark.parametrize("name", TINY)
def test_forward_shape_grads_no_nan(name):
    torch.manual_seed(0)
    model = zoo.create_model(name)
    # 8 tokens, or the fewest a model's inputs can have (LLaVA: one image's placeholders and a text token)
    seq_len = max(8, getattr(model, "min_seq_len", 8))
    inputs = model.example_inputs(batch_size=2, seq_len=seq_len)
    features = model.forward_features(**inputs)
    assert features.shape == (2, seq_len, model.config.dim)
    model.eval()  # dropout off, so forward == forward_head(forward_features) exactly
    torch.testing.assert_close(model(**inputs), model.forward_head(model.forward_features(**inputs)))
    model.train()
    out = model(**inputs)
    assert torch.isfinite(out).all()
    out.float().pow(2).mean().backward()
    no_grad = [n for n, p in model.named_parameters() if p.grad is None or not torch.isfinite(p.grad).all()]
    assert not no_grad, f"parameters without a finite gradient: {no_grad}"


@pytest.mark.parametrize("name", TINY)
def test_grad_checkpointing_gives_the_same_gradients(name, monkeypatch):
    """set_grad_checkpointing recomputes each block in backward: the loss and every gradient are those of
    the plain run, dropout included (each run starts from one seed; the recompute restores the RNG)."""
    torch.manual_seed(0)
    model = zoo.create_model(name)
    inputs = model.example_inputs(batch_size=2, seq_len=max(8, getattr(model, "min_seq_len", 8)))

    def grads() -> tuple[torch.Tensor, dict]:
        model.zero_grad(set_to_none=True)
        torch.manual_seed(1)
        loss = model(**inputs).float().pow(2).mean()
        loss.backward()
        return loss.detach(), {n: p.grad.clone() for n, p in model.named_parameters() if p.grad is not None}

    model.train()
    want_loss, want = grads()
    assert model.set_grad_checkpointing() is model
    checkpointed = [m for m in model.modules() if getattr(m, "grad_checkpointing", False)]
    assert checkpointed, "no stack was switched"
    calls = []
    real = backbones.transformer.checkpoint
    monkeypatch.setattr(backbones.transformer, "checkpoint", lambda *a, **k: calls.append(1) or real(*a, **k))
    got_loss, got = grads()
    assert calls, "no block ran through torch.utils.checkpoint"
    torch.testing.assert_close(got_loss, want_loss, rtol=0, atol=0)
    assert got.keys() == want.keys()
    for n in want:
        torch.testing.assert_close(got[n], want[n], rtol=1e-5, atol=1e-6, msg=lambda m: f"{n}: {m}")
    model.eval()
    with torch.no_grad():  # off outside training: inference never recomputes
        model(**inputs)


@pytest.mark.parametrize("name", TINY)
def test_save_load_round_trip(name, tmp_path):
    model = zoo.create_model(name).eval()
    inputs = model.example_inputs()
    model.save_pretrained(tmp_path / name)
    loaded = zoo.load_pretrained(tmp_path / name).eval()
    assert loaded.config == model.config
    torch.testing.assert_close(loaded(**inputs), model(**inputs), atol=0, rtol=0)
    for alias, name_ in model.tied_parameters().items():  # ties survive the round trip
        assert loaded.get_parameter(alias) is loaded.get_parameter(name_)


def test_create_model_overrides_and_unknown_names():
    model = zoo.create_model("gpt_tiny", vocab_size=321, depth=2)
    assert model.config.vocab_size == 321 and len(model.transformer.blocks) == 2
    with pytest.raises(ValueError, match="no field"):
        zoo.create_model("gpt_tiny", widht=3)
    with pytest.raises(ValueError, match="unknown model 'gpt_huge'"):
        zoo.create_model("gpt_huge")
    assert zoo.list_models("llama*") == ["llama_135m", "llama_tiny"]


def test_reset_head_turns_bert_into_a_classifier(tmp_path):
    model = zoo.create_model("bert_tiny")
    model.reset_head(5)
    inputs = model.example_inputs()
    assert model(**inputs).shape == (2, 5)
    model.save_pretrained(tmp_path)
    assert zoo.load_pretrained(tmp_path).config.num_classes == 5


def test_preset_sizes_match_the_references():
    count = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731  (tied weights counted once)
    assert round(count(zoo.create_model("gpt2")) / 1e6) == 124
    assert round(count(zoo.create_model("llama_135m")) / 1e6) == 135
    assert round(count(zoo.create_model("bert_base", head="classifier")) / 1e6) == 109
