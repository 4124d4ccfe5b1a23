"""zoo.generation.ngram: the Witten-Bell n-gram model against hand-computed values, and shallow fusion as a
Whisper logit rule, through zoo.transcribe."""
import math

import pytest
import torch

import zoo
from data.whisper_tokenizer import WhisperTokenizer
from data.whisper_vocab import train_whisper_tokenizer
from zoo.generation.ngram import FLOOR, NgramLM, ShallowFusion

EOS = 9


def test_bigram_probabilities_by_hand():
    lm = NgramLM.fit([[1, 2], [1, 3], [1, 2]], order=2, eos=EOS, vocab_size=10)
    # unigrams over the 9 tokens counted (three 1s, two 2s, one 3, three EOS), 4 types, base uniform over 4
    uni = {t: (c + 4 * 0.25) / (9 + 4) for t, c in {1: 3, 2: 2, 3: 1, EOS: 3}.items()}
    # after 1: 2 twice, 3 once (2 types)
    after_1 = {t: ((2 if t == 2 else 1 if t == 3 else 0) + 2 * uni[t]) / (3 + 2) for t in uni}
    p = lm.probs([1])
    scale = 1 - FLOOR * (10 - 4) / 4  # the mass left to the seen tokens after the floor of the 6 unseen
    for t, expected in after_1.items():
        assert float(p[t]) == pytest.approx(expected * scale, rel=1e-12)
    assert float(p[0]) == pytest.approx(FLOOR / 4, rel=1e-12)
    assert float(p.sum()) == pytest.approx(1.0, abs=1e-12)
    # a sentence start: the history is the EOS padding, after which 1 always came
    start = lm.probs([])
    assert float(start[1]) == pytest.approx((3 + 1 * uni[1]) / (3 + 1) * scale, rel=1e-12)
    # an unseen history falls back on the unigrams
    assert torch.equal(lm.probs([2, 8]), lm.probs([7]))
    for t, expected in uni.items():
        assert float(lm.probs([7])[t]) == pytest.approx(expected * scale, rel=1e-12)
    assert lm.sentence_logprob([1, 2]) == pytest.approx(math.log(start[1]) + math.log(p[2])
                                                        + math.log(lm.probs([2])[EOS]), rel=1e-12)


def test_higher_orders_prefer_the_text_they_read():
    text = [[ord(c) for c in " in the beginning god created the heaven and the earth"]] * 3
    lm = NgramLM.fit(text, order=6, eos=300)
    assert int(lm.probs([ord(c) for c in " in the beg"]).argmax()) == ord("i")
    assert float(lm.probs(text[0]).argmax()) == 300  # the end of the sentence
    for history in ([], [ord("x")] * 12, text[0][:20]):
        assert float(lm.probs(history).sum()) == pytest.approx(1.0, abs=1e-9)


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="order must be at least 1"):
        NgramLM.fit([[1]], order=0, eos=EOS)
    with pytest.raises(ValueError, match="no tokens"):
        NgramLM.fit([[]], order=3, eos=EOS)
    with pytest.raises(ValueError, match="outside the vocabulary"):
        NgramLM.fit([[1, 12]], order=2, eos=EOS, vocab_size=10)
    with pytest.raises(ValueError, match="weight must be >= 0"):
        ShallowFusion(NgramLM.fit([[1]], order=2, eos=EOS), -1.0)
    rule = ShallowFusion(NgramLM.fit([[1]], order=2, eos=EOS, vocab_size=10), 1.0).rule(0)
    with pytest.raises(ValueError, match="the decoder has 11 tokens, the language model 10"):
        rule(torch.zeros(1, 11), torch.zeros(1, 1, dtype=torch.long))


def test_the_rule_adds_weighted_logprobs_after_the_prompt():
    lm = NgramLM.fit([[1, 2, 3]], order=3, eos=EOS, vocab_size=10)
    logits = torch.randn(2, 10)
    tokens = torch.tensor([[7, 7, 1, 2], [7, 7, 1, 1]])  # two prompt tokens, then what was sampled
    fused = ShallowFusion(lm, 0.5).rule(2)(logits.clone(), tokens)
    expected = torch.stack([logits[0] + 0.5 * lm.logprobs([1, 2]).float(),
                            logits[1] + 0.5 * lm.logprobs([1, 1]).float()])
    torch.testing.assert_close(fused, expected)


def test_transcribe_with_fusion_follows_the_language_model():
    """A random whisper_micro on a character vocabulary: with a heavy weight, greedy decoding writes the one
    sentence the language model read; with weight 0 it decodes as without fusion."""
    tokenizer: WhisperTokenizer = train_whisper_tokenizer(["and it was so"], 256)  # characters + specials
    torch.manual_seed(0)
    model = zoo.create_model("whisper_micro", vocab_size=tokenizer.vocab_size).eval()
    model.tokenizer = tokenizer
    sentence = " and it was so"
    lm = NgramLM.fit([tokenizer.encode(sentence)] * 4, order=8, eos=tokenizer.eot, vocab_size=tokenizer.vocab_size)
    audio = torch.randn(16000) * 0.1
    options = dict(temperature=0.0, without_timestamps=True, condition_on_previous_text=False, suppress_blank=False,
                   compression_ratio_threshold=None, logprob_threshold=None, no_speech_threshold=None)
    plain = zoo.transcribe(model, audio, **options)["text"]
    assert zoo.transcribe(model, audio, shallow_fusion=ShallowFusion(lm, 0.0), **options)["text"] == plain
    assert zoo.transcribe(model, audio, shallow_fusion=ShallowFusion(lm, 50.0), **options)["text"] == sentence
    # beam search ranks the finished candidates by their fused log-probs (patience: Whisper's search stops at
    # beam_size * patience finished ones, and a random decoder's junk beams end early)
    beams = zoo.transcribe(model, audio, shallow_fusion=ShallowFusion(lm, 50.0), beam_size=3, patience=4.0, **options)
    assert beams["text"] == sentence
