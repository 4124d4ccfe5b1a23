"""Whisper parity on random weights: openai-whisper's `Whisper` and transformers' WhisperForConditionalGeneration /
WhisperModel give the same encoder output and logits as ours (fp32, max abs diff <= 1e-4); cached decoding equals
full recompute."""
import dataclasses
import json
import os

import pytest
import torch
import transformers
from transformers.models.whisper.modeling_whisper import sinusoids as hf_sinusoids
from whisper.model import ModelDimensions
from whisper.model import Whisper as OpenAIWhisper

import zoo
from tests.helpers import randomize
from zoo.convert.common import UnsupportedConfigError
from zoo.convert.openai_whisper import config_from_dims
from zoo.io import CheckpointMismatchError

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-4
DIMS = ModelDimensions(n_mels=16, n_audio_ctx=20, n_audio_state=32, n_audio_head=4, n_audio_layer=2, n_vocab=101,
                       n_text_ctx=24, n_text_state=32, n_text_head=4, n_text_layer=2)


def openai_ref():
    ref = randomize(OpenAIWhisper(DIMS))  # every parameter
    with torch.no_grad():  # and the encoder's table, a buffer: loaded as stored, not recomputed
        ref.encoder.positional_embedding.add_(0.01 * torch.randn_like(ref.encoder.positional_embedding))
    return ref


def hf_config(**kwargs):
    args = dict(vocab_size=101, num_mel_bins=16, d_model=32, encoder_layers=2, encoder_attention_heads=4,
                decoder_layers=2, decoder_attention_heads=8, encoder_ffn_dim=64, decoder_ffn_dim=48,
                max_source_positions=20, max_target_positions=24, pad_token_id=0, bos_token_id=1, eos_token_id=2,
                decoder_start_token_id=3)
    return transformers.WhisperConfig(**{**args, **kwargs})


def hf_ref(cls=transformers.WhisperForConditionalGeneration):
    ref = randomize(cls(hf_config()))
    encoder = ref.get_encoder()
    with torch.no_grad():  # frozen sinusoids in HF, perturbed here: loaded as stored, not recomputed
        table = hf_sinusoids(*encoder.embed_positions.weight.shape)
        encoder.embed_positions.weight.copy_(table + 0.01 * torch.randn_like(table))
    return ref


def inputs(b=2, t=7, frames=40, n_mels=16, vocab=101, seed=1):
    generator = torch.Generator().manual_seed(seed)
    return torch.randn(b, n_mels, frames, generator=generator), torch.randint(0, vocab, (b, t), generator=generator)


def max_diff(a, b):
    return (a - b).abs().max().item()


def test_openai_instance_encoder_and_logits():
    ref = openai_ref()
    ours = zoo.from_whisper(ref)
    assert ours.config.audio_mlp_hidden == 4 * 32 and ours.tied_parameters()
    mel, tokens = inputs()
    with torch.no_grad():
        assert max_diff(ours.encode(mel), ref.embed_audio(mel)) <= ATOL
        assert max_diff(ours(mel, tokens), ref(mel, tokens)) <= ATOL


@pytest.mark.parametrize("form", ["dict", "file"])
def test_openai_checkpoint_dict_and_file(form, tmp_path):
    ref = openai_ref()
    checkpoint = {"dims": dataclasses.asdict(DIMS), "model_state_dict": ref.state_dict()}
    if form == "file":  # the layout of the .pt files whisper.load_model reads
        torch.save(checkpoint, tmp_path / "tiny.pt")
        checkpoint = tmp_path / "tiny.pt"
    ours = zoo.from_whisper(checkpoint)
    mel, tokens = inputs()
    with torch.no_grad():
        assert max_diff(ours(mel, tokens), ref(mel, tokens)) <= ATOL


def test_openai_fp16_checkpoint(tmp_path):
    """openai's released checkpoints are fp16: loaded into fp32 like whisper.load_model does, the encoder's
    fp16-rounded table included."""
    ref = openai_ref()
    half = {k: v.half() for k, v in ref.state_dict().items()}
    torch.save({"dims": dataclasses.asdict(DIMS), "model_state_dict": half}, tmp_path / "half.pt")
    ref.load_state_dict(half)
    ours = zoo.from_whisper(str(tmp_path / "half.pt"))
    assert ours.embed.tokens.weight.dtype == torch.float32
    mel, tokens = inputs()
    with torch.no_grad():
        assert max_diff(ours(mel, tokens), ref(mel, tokens)) <= ATOL


def test_openai_refusals(tmp_path):
    ref = openai_ref()
    state = ref.state_dict()
    with pytest.raises(TypeError, match="from_whisper takes an openai-whisper Whisper model"):
        zoo.from_whisper({"model_state_dict": state})
    with pytest.raises(ValueError, match=r"dims lack \['n_text_layer'\]"):
        zoo.from_whisper({"dims": {k: v for k, v in dataclasses.asdict(DIMS).items() if k != "n_text_layer"},
                          "model_state_dict": state})
    wrong = dict(state, **{"encoder.positional_embedding": torch.randn(30, 32)})
    with pytest.raises(CheckpointMismatchError, match=r"audio_embed.positions: checkpoint \(30, 32\) vs model"):
        zoo.from_whisper({"dims": dataclasses.asdict(DIMS), "model_state_dict": wrong})
    with pytest.raises(FileNotFoundError):
        zoo.from_whisper(tmp_path / "missing.pt")


def test_presets_have_openai_release_shapes():
    releases = {"tiny": (384, 6, 4), "base": (512, 8, 6), "small": (768, 12, 12)}
    for size, (width, heads, depth) in releases.items():
        for suffix, vocab in (("", 51865), ("_en", 51864)):
            dims = ModelDimensions(80, 1500, width, heads, depth, vocab, 448, width, heads, depth)
            assert zoo.registry._preset(f"whisper_{size}{suffix}") == config_from_dims(dataclasses.asdict(dims), size)


def test_hf_conditional_generation_instance_and_directory(tmp_path):
    ref = hf_ref()
    ref.save_pretrained(tmp_path)
    mel, tokens = inputs()
    with torch.no_grad():
        want = ref(input_features=mel, decoder_input_ids=tokens)
    for ours in (zoo.from_hf(ref), zoo.from_hf(tmp_path), zoo.load_directory(tmp_path)):
        assert (ours.config.text_heads, ours.config.text_mlp_hidden) == (8, 48)
        with torch.no_grad():
            assert max_diff(ours.encode(mel), want.encoder_last_hidden_state) <= ATOL
            assert max_diff(ours(mel, tokens), want.logits) <= ATOL


def test_hf_whisper_model_features():
    ref = hf_ref(transformers.WhisperModel)
    ours = zoo.from_hf(ref)
    mel, tokens = inputs()
    with torch.no_grad():
        want = ref(input_features=mel, decoder_input_ids=tokens).last_hidden_state
        assert max_diff(ours.forward_features(mel, tokens), want) <= ATOL


def test_hf_refusals():
    ref = hf_ref()
    ref.get_encoder().embed_positions = torch.nn.Embedding(30, 32)  # a table longer than max_source_positions
    with pytest.raises(CheckpointMismatchError, match=r"audio_embed.positions: checkpoint \(30, 32\) vs model"):
        zoo.from_hf(ref)
    with pytest.raises(UnsupportedConfigError, match="scale_embedding=True"):
        zoo.from_hf(transformers.WhisperForConditionalGeneration(hf_config(scale_embedding=True)))


def test_cached_decoding_equals_full_recompute():
    ours = zoo.from_whisper(openai_ref())
    mel, tokens = inputs(t=10)
    calls = []
    hook = ours.decoder.blocks[0].cross_attn.k_proj.register_forward_hook(lambda *_: calls.append(1))
    other = torch.flip(mel, dims=[0])  # another batch of audio
    with torch.no_grad():
        features = ours.encode(mel)
        full, full_other = ours.decode(tokens, features), ours(other, tokens[:, :4])
        calls.clear()
        ours.setup_cache(2, 10)
        steps = [ours.decode(tokens[:, :3], features, input_pos=0)]  # a prompt, then one token at a time
        steps += [ours.decode(tokens[:, i:i + 1], input_pos=i) for i in range(3, 10)]
        assert len(calls) == 1  # the encoder's keys and values: computed once
        assert max_diff(torch.cat(steps, dim=1), full) <= ATOL
        # New audio at input_pos 0 refills the cross-attention cache.
        assert max_diff(ours.decode(tokens[:, :4], ours.encode(other), input_pos=0), full_other) <= ATOL
        ours.clear_cache()
    hook.remove()


def test_left_padded_prompts_and_fixed_shape_steps():
    """A left-padded row (attention_mask, positions skipping the padding) gives its unpadded logits; a step with
    the cache position as a tensor (compiled decoding's fixed shapes) equals the int one."""
    ours = zoo.from_whisper(openai_ref())
    mel, tokens = inputs(t=6)
    mask = torch.ones_like(tokens)
    mask[1, :2] = 0
    positions = (mask.cumsum(-1) - 1).clamp(min=0)
    with torch.no_grad():
        features = ours.encode(mel)
        padded = ours.decode(tokens, features, attention_mask=mask, positions=positions)
        alone = ours.decode(tokens[1:, 2:], features[1:])
        assert max_diff(padded[1, 2:], alone[0]) <= ATOL
        full = ours.decode(tokens, features)
        ours.setup_cache(2, 8)
        ours.decode(tokens[:, :5], features, input_pos=0)
        step = ours.decode(tokens[:, 5:], input_pos=torch.tensor([5]), positions=torch.tensor([[5], [5]]))
        assert max_diff(step, full[:, 5:]) <= ATOL


def test_decoder_errors():
    ours = zoo.from_whisper(openai_ref())
    mel, tokens = inputs()
    with pytest.raises(ValueError, match=r"needs audio_features \(B, N, D\) = encode\(mel\)"):
        ours.decode(tokens)
    with pytest.raises(ValueError, match=r"audio_features must be \(batch 2 or a divisor of it"):
        ours.decode(tokens, torch.zeros(3, 20, 32))
    ours.setup_cache(2, 8)
    with pytest.raises(ValueError, match="pass input_pos"):
        ours.decode(tokens, ours.encode(mel))
    with pytest.raises(ValueError, match="exceeds the decoder's 24 positions"):
        ours.setup_cache(2, 25)


def test_mel_errors_name_the_argument_and_expectation():
    ours = zoo.from_whisper(openai_ref())
    _, tokens = inputs()
    with pytest.raises(ValueError, match=r"mel has 80 mel bins \(shape \(2, 80, 40\)\) but the model expects "
                                         r"n_mels=16"):
        ours(torch.zeros(2, 80, 40), tokens)
    with pytest.raises(ValueError, match=r"mel has 3000 frames .*, more than the encoder's 20 positions cover: "
                                         r"Whisper's encoder takes exactly 2 x 20 positions = 40 frames"):
        ours(torch.zeros(2, 16, 3000), tokens)
    with pytest.raises(ValueError, match=r"mel has 30 frames .*: Whisper's encoder takes exactly"):
        ours.encode(torch.zeros(2, 16, 30))


def test_from_hf_whisper_knows_its_tokenizer(tmp_path):
    """A Whisper loaded from transformers (instance or directory) carries the tokenizer of its vocabulary."""
    cfg = transformers.WhisperConfig(vocab_size=51865, d_model=64, encoder_layers=1, decoder_layers=1,
                                     encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=128,
                                     decoder_ffn_dim=128, max_source_positions=1500, max_target_positions=448)
    hf = transformers.WhisperForConditionalGeneration(cfg)
    hf.save_pretrained(tmp_path)
    for source in (hf, tmp_path):
        tokenizer = zoo.from_hf(source).tokenizer
        assert tokenizer.multilingual and tokenizer.sot == 50258 and tokenizer.vocab_size <= 51865


def test_one_audio_row_for_several_token_rows_equals_repeating_it():
    """Beams of one audio read its cross-attention keys once (grouped), with and without a cache, and a
    beam reorder that keeps rows with their audio copies nothing; one that moves them materialises."""
    ours = zoo.from_whisper(openai_ref())
    mel, tokens = inputs()
    features = ours.encode(mel)  # (2, N, D)
    rows = torch.cat([tokens, tokens.flip(1)])[[0, 2, 1, 3]]  # (4, T): two rows per audio, adjacent
    want = ours.decode(rows, features.repeat_interleave(2, dim=0))
    assert max_diff(ours.decode(rows, features), want) <= ATOL
    ours.setup_cache(4, 8)
    ours.decode(rows[:, :5], features, input_pos=0)
    cache = ours.decoder.cache.layers[0].cross
    stored = cache.k
    assert stored.shape[0] == 2  # one row per audio
    ours.reorder_cache(torch.tensor([1, 1, 2, 3]))  # beams stay with their audio: nothing copied
    assert cache.k is stored
    step = ours.decode(rows[[1, 1, 2, 3], 5:6], input_pos=5)
    ours.clear_cache()
    full = ours.decode(rows[[1, 1, 2, 3], :6], features.repeat_interleave(2, dim=0))
    assert max_diff(step, full[:, 5:6]) <= ATOL
    ours.setup_cache(4, 8)
    ours.decode(rows[:, :5], features, input_pos=0)
    ours.reorder_cache(torch.tensor([2, 0, 1, 3]))  # rows swap audios: the cache follows them
    cache = ours.decoder.cache.layers[0].cross
    assert cache.k.shape[0] == 4
    moved = ours.decode(rows[[2, 0, 1, 3], 5:6], input_pos=5)
    ours.clear_cache()
    want = ours.decode(rows[[2, 0, 1, 3], :6], features[[1, 0, 0, 1]])
    assert max_diff(moved, want[:, 5:6]) <= ATOL


def test_to_transformers_is_the_inverse_of_from_hf():
    """Our tensors under transformers' names (what the Whisper benchmark builds its transformers side from):
    a WhisperForConditionalGeneration loaded with them converts back to exactly our weights and config."""
    from zoo.convert.hf_whisper import to_transformers

    ours = zoo.from_whisper(openai_ref())
    hf = to_transformers(ours, pad_token_id=0, bos_token_id=0, eos_token_id=0, decoder_start_token_id=1)  # tiny vocab
    back = zoo.from_hf(hf)
    assert back.config == ours.config and ours.config.alignment_heads
    want = ours.state_dict()
    assert all(torch.equal(t, want[k]) for k, t in back.state_dict().items())


def test_zoo_checkpoints_saved_without_the_encoder_table_still_load(tmp_path):
    """Before the encoder's table was saved, zoo directories and training state dicts lacked
    audio_embed.positions: they load, with the sinusoids the stem computes."""
    from safetensors.torch import load_file, save_file

    from zoo.io import check_state_dict

    model = zoo.from_whisper(openai_ref())
    model.save_pretrained(tmp_path)
    weights = tmp_path / "model.safetensors"
    state = load_file(weights)
    assert "audio_embed.positions" in state
    del state["audio_embed.positions"]
    save_file(state, weights, metadata={"format": "pt", "aliases": json.dumps(model.tied_parameters())})
    old = zoo.load_pretrained(tmp_path)
    table = hf_sinusoids(DIMS.n_audio_ctx, DIMS.n_audio_state)
    assert max_diff(old.audio_embed.positions, table) <= 1e-6
    assert torch.equal(old.decoder.blocks[0].ffn.fc1.weight, model.decoder.blocks[0].ffn.fc1.weight)
    fresh, trained = zoo.registry.build_model(model.config), dict(model.state_dict())
    del trained["audio_embed.positions"]
    check_state_dict(fresh, trained)  # what restore_training_state checks before loading
    fresh.load_state_dict(trained)
    assert max_diff(fresh.audio_embed.positions, table) <= 1e-6
