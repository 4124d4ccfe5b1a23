"""Whisper window decoding (zoo.generation.whisper_decode) against openai-whisper's `whisper.decode`, on random
weights: the same tokens, text, avg_logprob, no-speech probability and language, greedy, beam search and
sampling; the logit rules mask exactly what openai-whisper's filters mask."""
import math

import numpy as np
import pytest
import torch
import whisper
from whisper import decoding as openai_decoding
from whisper.model import ModelDimensions
from whisper.tokenizer import get_tokenizer

import zoo
from backbones.kv_cache import DecoderCache
from data.audio import SAMPLE_RATE, log_mel_spectrogram, pad_or_trim
from data.whisper_tokenizer import load_whisper_tokenizer
from tests.helpers import tiny_openai_whisper
from zoo.generation import whisper_decode as wd
from zoo.generation.conditioned import EncoderConditioned
from zoo.generation.whisper_rules import TimestampRules, suppressed_tokens, whisper_rules

SAMPLE_LEN = 24  # tokens: enough for timestamps, text and (with the EOT boost below) finished sequences
TOL = 1e-4


def _models(n_vocab: int, seed: int = 0):
    """EOT scaled x100 so sequences end after a few to a few dozen tokens (tests.helpers.tiny_openai_whisper)."""
    ref, ours = tiny_openai_whisper(n_vocab, eot_scale=100, seed=seed)
    tokenizer = load_whisper_tokenizer(multilingual=ref.is_multilingual, num_languages=ref.num_languages)
    return ref, ours.eval(), tokenizer


@pytest.fixture(scope="module")
def mel():
    """A 3 s rising tone in noise, padded to 30 s -> (80, 3000)."""
    t = torch.arange(3 * SAMPLE_RATE) / SAMPLE_RATE
    generator = torch.Generator().manual_seed(0)
    wave = 0.3 * torch.sin(2 * math.pi * (200 + 300 * t) * t) + 0.05 * torch.randn(t.shape, generator=generator)
    return log_mel_spectrogram(pad_or_trim(wave))


def _both(models, mel, **options):
    ref, ours, tokenizer = models
    expected = whisper.decode(ref, mel, whisper.DecodingOptions(fp16=False, sample_len=SAMPLE_LEN, **options))
    got = wd.decode(ours, mel, wd.DecodingOptions(sample_len=SAMPLE_LEN, **options), tokenizer)
    return expected, got


def _assert_same(expected, got):
    assert got.tokens == expected.tokens
    assert got.text == expected.text and got.language == expected.language
    assert abs(got.avg_logprob - expected.avg_logprob) <= TOL
    assert abs(got.no_speech_prob - expected.no_speech_prob) <= TOL
    assert got.compression_ratio == pytest.approx(expected.compression_ratio)
    assert got.temperature == expected.temperature


def _timestamps(tokens, tokenizer):
    return [t for t in tokens if t >= tokenizer.timestamp_begin]


@pytest.mark.parametrize("case", ["detect", "no_timestamps", "translate_fr", "prompt_prefix"])
def test_greedy_matches_openai_whisper(multilingual, mel, case):
    options = {"detect": {}, "no_timestamps": dict(without_timestamps=True),
               "translate_fr": dict(language="fr", task="translate"),
               "prompt_prefix": dict(prompt="the previous window", prefix="and then")}[case]
    expected, got = _both(multilingual, mel, **options)
    _assert_same(expected, got)
    tokenizer = multilingual[2]
    assert 3 <= len(got.tokens) and 0.01 < got.no_speech_prob < 0.99  # non-trivial, not a stuck model
    assert len(_timestamps(got.tokens, tokenizer)) >= (0 if options.get("without_timestamps") else 2)
    if case == "detect":
        assert got.language_probs is not None and max(got.language_probs, key=got.language_probs.get) == got.language


@pytest.mark.parametrize("without_timestamps", [False, True])
def test_english_only_matches_openai_whisper(english, mel, without_timestamps):
    expected, got = _both(english, mel, language="en", without_timestamps=without_timestamps)
    _assert_same(expected, got)
    assert len(got.tokens) >= 3 and got.language == "en"
    # Without a language an English-only model decodes English (openai-whisper raises instead).
    assert wd.decode(english[1], mel, wd.DecodingOptions(sample_len=SAMPLE_LEN, without_timestamps=without_timestamps),
                     english[2]).tokens == got.tokens


@pytest.mark.parametrize("patience", [1.0, 2.0])
@pytest.mark.parametrize("without_timestamps", [False, True])
def test_beam_search_matches_openai_whisper(multilingual, mel, patience, without_timestamps):
    expected, got = _both(multilingual, mel, beam_size=3, patience=patience, without_timestamps=without_timestamps)
    _assert_same(expected, got)
    assert 3 <= len(got.tokens) < SAMPLE_LEN  # a finished candidate won


def test_beam_search_with_length_penalty(multilingual, mel):
    expected, got = _both(multilingual, mel, beam_size=4, length_penalty=0.5, without_timestamps=True)
    _assert_same(expected, got)
    assert len(got.tokens) >= 3


def test_decoding_runs_on_the_caches(multilingual, mel, monkeypatch):
    """The encoder runs once; the decoder gets the audio features with the prefill only (where it fills the
    cross-attention cache), then one token per row; beams reorder the session's cache; the model keeps none."""
    _, ours, tokenizer = multilingual
    calls, reorders = [], []
    decode, reorder = ours.decode, DecoderCache.reorder
    monkeypatch.setattr(ours, "decode", lambda t, f=None, **kw: calls.append((tuple(t.shape), f is not None))
                        or decode(t, f, **kw))
    monkeypatch.setattr(DecoderCache, "reorder", lambda cache, index, length=None: reorders.append(index)
                        or reorder(cache, index, length))
    encode = ours.encode
    monkeypatch.setattr(ours, "encode", lambda m: calls.append("encode") or encode(m))
    got = wd.decode(ours, mel, wd.DecodingOptions(sample_len=SAMPLE_LEN, beam_size=3), tokenizer)
    assert calls[:3] == ["encode", ((1, 1), True), ((3, 3), True)]  # encoder, language detection, prefill
    assert calls[3:] == [((3, 1), False)] * (len(calls) - 3) and len(calls) - 3 >= len(got.tokens) - 1
    assert reorders and not ours.decoder.has_cache


def test_sampling_best_of_matches_openai_whisper_draw_for_draw(multilingual, mel):
    """torch.multinomial draws one exponential per probability, as openai-whisper's Categorical does: with the
    same seed the same samples come out, and the same one wins the ranking."""
    ref, ours, tokenizer = multilingual
    torch.manual_seed(3)
    expected = whisper.decode(ref, mel, whisper.DecodingOptions(fp16=False, sample_len=SAMPLE_LEN, temperature=0.8,
                                                                best_of=3))
    got = wd.decode(ours, mel, wd.DecodingOptions(sample_len=SAMPLE_LEN, temperature=0.8, best_of=3), tokenizer,
                    generator=torch.Generator().manual_seed(3))
    _assert_same(expected, got)
    assert got.temperature == 0.8


def test_sampled_candidates_score_and_rank(multilingual, mel):
    """Every sampled candidate's summed log-prob equals a full recompute (no cache) under the same rules, and
    the result is the ranker's pick among them."""
    _, ours, tokenizer = multilingual
    options = wd.DecodingOptions(language="de", sample_len=12, temperature=1.0, best_of=4)
    plan = wd.DecodingPlan(ours, options, tokenizer)
    features = ours.encode(mel[None])
    initial = torch.tensor([plan.initial])
    candidates, _ = plan.search(features, initial, torch.Generator().manual_seed(1))
    assert len(candidates[0]) == 4 and len({c for c, _ in candidates[0]}) > 1
    for sampled, logprob in candidates[0]:
        sequence = torch.tensor([plan.initial + list(sampled)])
        with torch.no_grad():
            logits = ours.decode(sequence, features)[0].float()  # (T + n, V)
        total = 0.0
        for i, token in enumerate(sampled + (tokenizer.eot,) if len(sampled) < 12 else sampled):
            step = plan.rules(logits[len(plan.initial) - 1 + i][None].clone(), sequence[:, :len(plan.initial) + i])
            total += torch.log_softmax(step, -1)[0, token].item()
        assert logprob == pytest.approx(total, abs=1e-3)
    result = wd.decode(ours, mel, options, tokenizer, generator=torch.Generator().manual_seed(1))
    best = candidates[0][wd.rank(candidates[0], None)]
    assert tuple(result.tokens) == best[0] and result.avg_logprob == pytest.approx(best[1] / (len(best[0]) + 1))


def test_every_strategy_drives_an_encoder_decoder(multilingual, mel):
    """zoo.generate's own greedy and beam search run Whisper's decoder through EncoderConditioned; greedy equals
    the argmax of full recomputes (no cache)."""
    _, ours, tokenizer = multilingual
    features = ours.encode(mel[None])  # (1, N, D)
    prompt = torch.tensor([tokenizer.sot_sequence("en")])  # (1, 3)
    decoder = EncoderConditioned(ours, features)
    got = zoo.generate(decoder, prompt, 6)
    tokens = prompt
    for _ in range(6):
        with torch.no_grad():
            tokens = torch.cat([tokens, ours.decode(tokens, features)[:, -1].argmax(-1, keepdim=True)], dim=1)
    assert torch.equal(got, tokens)
    beams = zoo.generate(decoder, prompt, 6, num_beams=3)  # 3 session rows on one audio
    assert beams.shape == (1, 9) and torch.equal(beams[:, :3], prompt) and not ours.decoder.has_cache


def test_batch_and_language_detection(multilingual, mel):
    ref, ours, tokenizer = multilingual
    mels = torch.stack([mel, mel.flip(-1)])  # (2, 80, 3000)
    expected = whisper.decode(ref, mels, whisper.DecodingOptions(fp16=False, sample_len=SAMPLE_LEN))
    got = wd.decode(ours, mels, sample_len=SAMPLE_LEN, tokenizer=tokenizer)
    assert isinstance(got, list) and len(got) == 2
    for e, g in zip(expected, got):
        _assert_same(e, g)
    ref_tokens, ref_probs = whisper.detect_language(ref, mels, get_tokenizer(True))
    tokens, probs = wd.detect_language(ours, mels, tokenizer)
    assert tokens.tolist() == ref_tokens.tolist()
    assert max(abs(p[c] - r[c]) for p, r in zip(probs, ref_probs) for c in r) < 1e-5
    ids = wd.decode(ours, mels, wd.DecodingOptions(task="lang_id"), tokenizer)
    assert [r.language for r in ids] == [max(p, key=p.get) for p in probs] and ids[0].tokens == []


# ------------------------------------------------------------------------ the rules, mask for mask


def _histories(tokenizer, sample_begin, n, rows, seed):
    """Token histories with text, lone timestamps and pairs in every order."""
    generator = torch.Generator().manual_seed(seed)
    kinds = torch.randint(0, 3, (rows, n), generator=generator)
    text = torch.randint(0, tokenizer.eot, (rows, n), generator=generator)
    times = torch.randint(0, 60, (rows, n), generator=generator).sort(-1).values + tokenizer.timestamp_begin
    sampled = torch.where(kinds == 0, text, times)
    return torch.cat([torch.full((rows, sample_begin), tokenizer.sot), sampled], dim=1)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("max_initial_index", [50, None])
def test_timestamp_rules_mask_as_openai_whisper(n, max_initial_index):
    ref_tokenizer, tokenizer = get_tokenizer(True), load_whisper_tokenizer()
    ref = openai_decoding.ApplyTimestampRules(ref_tokenizer, 3, max_initial_index)
    ours = TimestampRules(tokenizer.timestamp_begin, tokenizer.eot, tokenizer.no_timestamps, 3, max_initial_index)
    tokens = _histories(tokenizer, 3, n, rows=16, seed=n)
    generator = torch.Generator().manual_seed(7)
    logits = torch.randn(16, 51865, generator=generator) * 3
    logits[:8, tokenizer.timestamp_begin:] += 4  # some rows where the timestamps outweigh the text
    expected = logits.clone()
    ref.apply(expected, tokens)
    assert torch.equal(ours(logits.clone(), tokens), expected)


def test_blank_and_suppressed_tokens_as_openai_whisper():
    ref_tokenizer, tokenizer = get_tokenizer(True, language="en", task="transcribe"), load_whisper_tokenizer()
    model = whisper.model.Whisper(ModelDimensions(80, 1500, 8, 1, 1, 51865, 448, 8, 1, 1))
    for suppress in ("-1", "-1,220", [13, 50], "", None):
        task = openai_decoding.DecodingTask(model, whisper.DecodingOptions(suppress_tokens=suppress))
        expected = task._get_suppress_tokens() if suppress else ()
        assert suppressed_tokens(tokenizer, suppress) == tuple(expected)
    tokens = torch.full((2, 3), tokenizer.sot)
    logits = torch.randn(2, 51865)
    expected = logits.clone()
    openai_decoding.SuppressBlank(ref_tokenizer, 3).apply(expected, tokens)
    rules = whisper_rules(tokenizer, 3, suppress_blank=True, suppress=(), timestamps=False)
    assert torch.equal(rules(logits.clone(), tokens), expected)
    assert torch.equal(rules(logits.clone(), torch.full((2, 4), 7)), logits)  # only at the first position


def test_option_errors(multilingual, english, mel):
    with pytest.raises(ValueError, match=r"best_of=2: expected None at temperature 0"):
        wd.DecodingOptions(best_of=2)
    with pytest.raises(ValueError, match=r"patience=2.0: expected None without beam_size"):
        wd.DecodingOptions(patience=2.0)
    with pytest.raises(ValueError, match=r"task='summarize': expected one of"):
        wd.DecodingOptions(task="summarize")
    with pytest.raises(ValueError, match="no language tokens"):
        wd.detect_language(english[1], mel, english[2])
    with pytest.raises(ValueError, match="leave no room"):
        long = list(range(10, 500))  # both keep their last 223 tokens: 450 initial tokens > 448 positions
        wd.decode(multilingual[1], mel, wd.DecodingOptions(prompt=long, prefix=long, sample_len=1),
                  multilingual[2])


def test_results_hold_each_audios_features(multilingual, mel):
    _, ours, tokenizer = multilingual
    features = ours.encode(mel[None])
    got = wd.decode(ours, features, wd.DecodingOptions(language="en", sample_len=4), tokenizer)
    assert isinstance(got, list) and torch.equal(got[0].audio_features, features[0])
    assert not np.isnan(got[0].avg_logprob) and len(got[0].tokens) <= 4
