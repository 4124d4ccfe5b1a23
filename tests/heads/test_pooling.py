"""heads.pooling.mean_pool: the mean over real tokens, whatever the padding."""
import pytest
import torch

from heads.pooling import mean_pool


def test_mean_over_the_real_tokens_only():
    torch.manual_seed(0)
    features = torch.randn(3, 5, 4)  # (B, T, D)
    mask = torch.tensor([[1, 1, 1, 1, 1], [1, 1, 0, 0, 0], [1, 0, 0, 0, 0]])
    got = mean_pool(features, mask)
    assert got.shape == (3, 4)
    torch.testing.assert_close(got[0], features[0].mean(0))
    torch.testing.assert_close(got[1], features[1, :2].mean(0))
    torch.testing.assert_close(got[2], features[2, 0])
    torch.testing.assert_close(mean_pool(features), features.mean(1))  # no mask: every token


def test_padding_values_never_reach_the_result():
    torch.manual_seed(0)
    features = torch.randn(2, 6, 4)
    mask = torch.tensor([[1, 1, 1, 0, 0, 0], [1, 1, 1, 1, 1, 0]], dtype=torch.bool)
    noisy = features.clone()
    noisy[~mask] = 1e6
    torch.testing.assert_close(mean_pool(noisy, mask), mean_pool(features, mask))


def test_an_all_padding_row_gives_zeros_not_nan():
    got = mean_pool(torch.randn(2, 3, 4), torch.tensor([[1, 1, 0], [0, 0, 0]]))
    assert torch.isfinite(got).all() and (got[1] == 0).all()


def test_bad_shapes_are_named():
    with pytest.raises(ValueError, match=r"features must be \(B, T, D\)"):
        mean_pool(torch.randn(2, 4))
    with pytest.raises(ValueError, match=r"attention_mask must be \(B, T\) = \(2, 3\), got shape \(2, 4\)"):
        mean_pool(torch.randn(2, 3, 4), torch.ones(2, 4))
