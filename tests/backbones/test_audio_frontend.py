"""Whisper's conv stem: shapes, fixed positions (not saved), clear errors."""
import pytest
import torch
from whisper.model import sinusoids

from backbones.frontends.audio import AudioConvStem


def test_shape_and_positions():
    stem = AudioConvStem(n_mels=8, dim=16, num_positions=10)
    assert stem.num_frames == 20
    assert stem(torch.randn(3, 8, 20)).shape == (3, 10, 16)  # (B, frames / 2, D)
    torch.testing.assert_close(stem.positions, sinusoids(10, 16), atol=1e-6, rtol=0)
    assert sorted(stem.state_dict()) == ["conv1.bias", "conv1.weight", "conv2.bias", "conv2.weight", "positions"]
    rounded = stem.positions.half().float()  # what a checkpoint stored through float16 holds
    fresh = AudioConvStem(n_mels=8, dim=16, num_positions=10)
    fresh.load_state_dict({**stem.state_dict(), "positions": rounded})
    assert torch.equal(fresh.positions, rounded)  # loaded as stored
    conv_only = {k: v for k, v in stem.state_dict().items() if k != "positions"}
    fresh.load_state_dict(conv_only)  # a state dict without the table keeps the one the stem has
    assert torch.equal(fresh.positions, rounded)


def test_errors_name_the_argument():
    stem = AudioConvStem(n_mels=8, dim=16, num_positions=10)
    with pytest.raises(ValueError, match=r"mel must be \(batch, n_mels, frames\); got shape \(8, 20\) .*mel\[None\]"):
        stem(torch.randn(8, 20))
    with pytest.raises(TypeError, match="floating-point log-mel"):
        stem(torch.zeros(1, 8, 20, dtype=torch.long))
    with pytest.raises(ValueError, match="mel has 80 mel bins .* expects n_mels=8"):
        stem(torch.randn(1, 80, 20))
    with pytest.raises(ValueError, match="21 frames .* more than the encoder's 10 positions cover.* exactly 2 x 10 "
                                         r"positions = 20 frames \(0.2 s at 100 frames/s\)"):
        stem(torch.randn(1, 8, 21))
