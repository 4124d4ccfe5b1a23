"""Speculative decoding with a smaller Whisper as the draft: the target's greedy tokens, through the same
strategy the text decoders use (each model conditioned on its own encoder output by EncoderConditioned)."""
import copy

import torch

import zoo
from zoo.generation import EncoderConditioned, GenerationConfig
from zoo.generation.speculative import speculative_generate


def _models():
    torch.manual_seed(0)
    target = zoo.create_model("whisper_micro").eval()
    draft = zoo.create_model("whisper_micro", text_depth=1, audio_depth=1).eval()  # same vocabulary, smaller
    mel = torch.randn(1, 80, 2 * target.config.audio_ctx, generator=torch.Generator().manual_seed(1))
    with torch.inference_mode():
        return target, draft, target.encode(mel), draft.encode(mel)


def test_whisper_draft_gives_the_targets_greedy_tokens():
    target, draft, target_audio, draft_audio = _models()
    prompt = torch.tensor([[1, 2, 3]])
    want = zoo.generate(EncoderConditioned(target, target_audio), prompt, 20)
    assert len(set(want[0, 3:].tolist())) > 1  # a sequence that changes, so a wrong acceptance would show
    tokens, stats = speculative_generate(EncoderConditioned(target, target_audio),
                                         EncoderConditioned(draft, draft_audio), prompt,
                                         GenerationConfig(max_new_tokens=20), num_draft_tokens=3)
    assert torch.equal(tokens, want)
    assert 0 < stats.accepted < stats.proposed  # the draft is a different model: some rejected, some not
    assert stats.target_forwards < 20  # fewer target forwards than tokens: the point of drafting
    got = zoo.generate(EncoderConditioned(target, target_audio), prompt, 20,
                       draft_model=EncoderConditioned(draft, draft_audio), num_draft_tokens=3)
    assert torch.equal(got, want)


def test_a_draft_with_the_targets_weights_is_always_accepted():
    target, _, target_audio, _ = _models()
    twin = copy.deepcopy(target)
    prompt = torch.tensor([[1, 2, 3]])
    want = zoo.generate(EncoderConditioned(target, target_audio), prompt, 12)
    tokens, stats = speculative_generate(EncoderConditioned(target, target_audio),
                                         EncoderConditioned(twin, target_audio), prompt,
                                         GenerationConfig(max_new_tokens=12), num_draft_tokens=4)
    assert torch.equal(tokens, want) and stats.proposed > 0 and stats.accepted == stats.proposed
