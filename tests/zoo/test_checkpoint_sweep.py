"""Real checkpoints vary where random weights do not: for each family with an HF counterpart, the directory
forms transformers loads load here too, with the same outputs as transformers on the same directory.

    float16 / bfloat16   the weights (learned position tables included) stored rounded
    sharded              model.safetensors.index.json and its shards
    pytorch_model.bin    the older pickle-free torch file, with the buffers older files carry
                         (GPT-2 attn.bias / masked_bias, LLaMA rotary_emb.inv_freq, BERT position_ids)
    no generation_config the file is optional in transformers

Whisper's tokenizer variations (older language names, <|nocaptions|>, no timestamp tokens) are in
tests/data/test_whisper_tokenizer.py and the real base model's in test_whisper_real.py."""
from __future__ import annotations

import json

import pytest
import torch
from safetensors.torch import load_file

import zoo
from tests.helpers import randomize
from tests.llava_cases import batch, hf_llava_model

transformers = pytest.importorskip("transformers")
transformers.logging.set_verbosity_error()
ATOL = 1e-4  # both sides read the same (rounded) weights, in float32


def _ids(vocab=97):
    return torch.randint(0, vocab, (2, 9), generator=torch.Generator().manual_seed(1))


def _pixels(size=32, chans=3):
    return torch.randn(2, chans, size, size, generator=torch.Generator().manual_seed(1))


def _whisper_sinusoids(ref):
    encoder = ref.get_encoder()
    with torch.no_grad():
        table = transformers.models.whisper.modeling_whisper.sinusoids(*encoder.embed_positions.weight.shape)
        encoder.embed_positions.weight.copy_(table)
    return ref


# family: (the transformers model, its inputs, ours -> output, transformers' output -> the same quantity,
#          buffers older pytorch_model.bin files carry: {name: tensor from the model's config})
FAMILIES = {
    "gpt2": (lambda: transformers.GPT2LMHeadModel(transformers.GPT2Config(
                 vocab_size=97, n_positions=64, n_embd=32, n_layer=2, n_head=4)),
             lambda: {"input_ids": _ids()}, lambda ours, x: ours(x["input_ids"]), lambda out: out.logits,
             lambda ref: {**{f"transformer.h.{i}.attn.bias": torch.tril(torch.ones(1, 1, 64, 64)).bool()
                             for i in range(2)},
                          **{f"transformer.h.{i}.attn.masked_bias": torch.tensor(-1e4) for i in range(2)}}),
    "llama": (lambda: transformers.LlamaForCausalLM(transformers.LlamaConfig(
                  vocab_size=97, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
                  num_key_value_heads=2, max_position_embeddings=64)),
              lambda: {"input_ids": _ids()}, lambda ours, x: ours(x["input_ids"]), lambda out: out.logits,
              lambda ref: {f"model.layers.{i}.self_attn.rotary_emb.inv_freq":
                           1.0 / 10000 ** (torch.arange(0, 8, 2).float() / 8) for i in range(2)}),
    "bert": (lambda: transformers.BertForMaskedLM(transformers.BertConfig(
                 vocab_size=97, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64,
                 max_position_embeddings=64)),
             lambda: {"input_ids": _ids()}, lambda ours, x: ours(x["input_ids"]), lambda out: out.logits,
             lambda ref: {"bert.embeddings.position_ids": torch.arange(64)[None]}),
    "vit": (lambda: transformers.ViTForImageClassification(transformers.ViTConfig(
                hidden_size=48, num_hidden_layers=2, num_attention_heads=4, intermediate_size=96, image_size=32,
                patch_size=8, num_labels=5)),
            lambda: {"pixel_values": _pixels()}, lambda ours, x: ours(x["pixel_values"]), lambda out: out.logits,
            lambda ref: {}),
    "clip": (lambda: transformers.CLIPVisionModel(transformers.CLIPVisionConfig(
                 hidden_size=48, intermediate_size=96, num_hidden_layers=2, num_attention_heads=4, image_size=32,
                 patch_size=8)),
             lambda: {"pixel_values": _pixels()}, lambda ours, x: ours(x["pixel_values"]),
             lambda out: out.pooler_output,
             lambda ref: {"vision_model.embeddings.position_ids": torch.arange(17)[None]}),
    "ast": (lambda: transformers.ASTForAudioClassification(transformers.ASTConfig(
                hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64, max_length=66,
                num_mel_bins=40, num_labels=5)),
            lambda: {"input_values": torch.randn(2, 66, 40, generator=torch.Generator().manual_seed(1))},
            lambda ours, x: ours(x["input_values"]), lambda out: out.logits, lambda ref: {}),
    "whisper": (lambda: transformers.WhisperForConditionalGeneration(transformers.WhisperConfig(
                    vocab_size=101, num_mel_bins=16, d_model=32, encoder_layers=2, encoder_attention_heads=4,
                    decoder_layers=2, decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=48,
                    max_source_positions=20, max_target_positions=24, pad_token_id=0, bos_token_id=1,
                    eos_token_id=2, decoder_start_token_id=3)),
                lambda: {"input_features": torch.randn(2, 16, 40, generator=torch.Generator().manual_seed(1)),
                         "decoder_input_ids": _ids(101)},
                lambda ours, x: ours(x["input_features"], x["decoder_input_ids"]), lambda out: out.logits,
                lambda ref: {}),
    "llava": (hf_llava_model, lambda: dict(batch("one")),
              lambda ours, x: ours(x["input_ids"], x["pixel_values"], attention_mask=x["attention_mask"]),
              lambda out: out.logits,
              lambda ref: {"model.vision_tower.vision_model.embeddings.position_ids": torch.arange(17)[None]}),
}


def reference(family: str):
    build, *_ = FAMILIES[family]
    if family == "llava":
        return build()  # random already (tests/llava_cases.py)
    ref = randomize(build(), std=0.1)
    return _whisper_sinusoids(ref) if family == "whisper" else ref


def save(ref, directory, form: str):
    """`ref` saved as a directory of the given form (what HF Hub repos hold)."""
    if form in ("float16", "bfloat16"):
        ref = ref.to(getattr(torch, form))
    ref.save_pretrained(directory, max_shard_size="20KB" if form == "sharded" else "5GB")
    if form == "pytorch_model.bin":  # as transformers wrote them before safetensors, tied tensors saved twice
        (directory / "model.safetensors").unlink()
        state = {name: tensor.clone() for name, tensor in ref.state_dict().items()}
        torch.save({**state, **FAMILIES[family_of(ref)][4](ref)}, directory / "pytorch_model.bin")
    if form == "no generation_config":
        (directory / "generation_config.json").unlink(missing_ok=True)
    return directory


def family_of(ref) -> str:
    model_type = ref.config.model_type
    return {"audio-spectrogram-transformer": "ast", "clip_vision_model": "clip"}.get(model_type, model_type)


FORMS = ["float16", "bfloat16", "sharded", "pytorch_model.bin", "no generation_config"]


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_transformers_directory_forms_load_with_the_same_outputs(family, form, tmp_path):
    _, inputs, ours_out, ref_out, _ = FAMILIES[family]
    source = reference(family)
    cls = type(source)
    directory = save(source, tmp_path / form, form)
    if form == "sharded":
        assert len(set(json.loads((directory / "model.safetensors.index.json").read_text())["weight_map"].values())) > 1
    if form == "pytorch_model.bin":
        assert not (directory / "model.safetensors").exists()
        stored = torch.load(directory / "pytorch_model.bin", weights_only=True)
        assert set(FAMILIES[family][4](source)) <= set(stored)
    if form in ("float16", "bfloat16"):
        assert all(t.dtype == getattr(torch, form) for t in load_file(directory / "model.safetensors").values()
                   if t.is_floating_point())
    ref = cls.from_pretrained(directory).float().eval()
    ours = zoo.from_hf(directory)
    x = inputs()
    with torch.no_grad():
        torch.testing.assert_close(ours_out(ours, x), ref_out(ref(**x)), atol=ATOL, rtol=0)
