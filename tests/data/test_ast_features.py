"""AST features equal transformers' ASTFeatureExtractor (Kaldi fbank via torchaudio, pad/cut, AudioSet norm)."""
import os

import numpy as np
import pytest
import soundfile
import torch
import transformers

from data.ast_features import MAX_FRAMES, MEAN, NUM_MEL_BINS, STD, ast_features, kaldi_fbank, pad_or_cut

os.environ.setdefault("HF_HUB_OFFLINE", "1")
transformers.logging.set_verbosity_error()
ATOL = 1e-5
SHORT, LONG = 24000, 180000  # samples: 1.5 s (148 frames, padded) and 11.25 s (1123 frames, cut to 1024)


def wave(samples, seed=0):
    t = np.arange(samples) / 16000
    noise = np.random.default_rng(seed).standard_normal(samples)
    return (0.3 * np.sin(2 * np.pi * 440 * t) + 0.05 * noise).astype(np.float32)


def reference(waves):
    extractor = transformers.ASTFeatureExtractor()
    return extractor(waves, sampling_rate=16000, return_tensors="pt").input_values


@pytest.mark.parametrize("samples", [SHORT, LONG])
def test_equals_transformers(samples):
    w = wave(samples)
    ours = ast_features(w)
    assert ours.shape == (1, MAX_FRAMES, NUM_MEL_BINS) and ours.dtype == torch.float32
    assert (ours - reference(w)).abs().max().item() <= ATOL
    frames = 1 + (samples - 400) // 160
    assert kaldi_fbank(torch.from_numpy(w)).shape == (frames, NUM_MEL_BINS)


def test_batch_equals_one_by_one_and_the_reference():
    waves = [wave(SHORT, seed=1), wave(LONG, seed=2), wave(SHORT + 777, seed=3)]
    batch = ast_features(waves)  # a list of different lengths
    assert batch.shape == (3, MAX_FRAMES, NUM_MEL_BINS)
    for i, w in enumerate(waves):
        assert torch.equal(batch[i], ast_features(w)[0])
    assert (batch - reference(waves)).abs().max().item() <= ATOL
    rows = np.stack([waves[0], wave(SHORT, seed=4)])  # (B, samples): rows are clips, not channels
    torch.testing.assert_close(ast_features(torch.from_numpy(rows)), ast_features(list(rows)), atol=0, rtol=0)


def test_padding_cutting_and_normalisation():
    w = wave(SHORT)
    raw = ast_features(w, normalized=False, max_length=200)  # 148 frames + 52 zero frames
    assert raw.shape == (1, 200, NUM_MEL_BINS) and torch.equal(raw[0, 148:], torch.zeros(52, NUM_MEL_BINS))
    torch.testing.assert_close(ast_features(w, max_length=200), (raw - MEAN) / (2 * STD))
    fbank = torch.randn(10, 4)
    assert torch.equal(pad_or_cut(fbank, 6), fbank[:6])
    assert torch.equal(pad_or_cut(fbank, 10), fbank)


def test_files_and_other_rates_go_through_load_audio(tmp_path):
    w = wave(SHORT)
    soundfile.write(tmp_path / "clip.wav", w, 16000, subtype="FLOAT")
    torch.testing.assert_close(ast_features(tmp_path / "clip.wav"), ast_features(w), atol=0, rtol=0)
    both = ast_features([str(tmp_path / "clip.wav"), w])
    assert torch.equal(both[0], both[1])
    slow = ast_features(w[::2].copy(), sample_rate=8000)  # resampled to 16 kHz: about as many frames again
    assert slow.shape == (1, MAX_FRAMES, NUM_MEL_BINS) and torch.isfinite(slow).all()


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match=r"at least 400 samples \(one 25 ms window at 16000 Hz\); got shape \(300,\)"):
        ast_features(wave(300))
    with pytest.raises(ValueError, match=r"\(samples,\) or \(B, samples\), got shape \(1, 2, 500\)"):
        ast_features(np.zeros((1, 2, 500), np.float32))
    with pytest.raises(ValueError, match="empty list"):
        ast_features([])
    with pytest.raises(ValueError, match="max_length must be a positive int, got 0"):
        ast_features(wave(SHORT), max_length=0)
    with pytest.raises(ValueError, match="NaN"):
        ast_features(np.full(1000, np.nan, np.float32))
    with pytest.raises(FileNotFoundError, match="does not exist"):
        ast_features("/no/such/clip.wav")
