import math

import pytest
import torch

from backbones.positions import LearnedPositions, RotaryEmbedding, sincos_2d, sinusoid_table


def test_sinusoid_interleaved_matches_paper():
    table = sinusoid_table(50, 16)
    pos, i = 7, 3
    assert table[pos, 2 * i].item() == pytest.approx(math.sin(pos / 10000 ** (2 * i / 16)), abs=1e-6)
    assert table[pos, 2 * i + 1].item() == pytest.approx(math.cos(pos / 10000 ** (2 * i / 16)), abs=1e-6)


def test_sinusoid_halves_is_whisper_layout():
    table = sinusoid_table(10, 8, layout="halves")
    step = math.log(10000) / 3
    assert table[5, 2].item() == pytest.approx(math.sin(5 * math.exp(-2 * step)), abs=1e-6)
    assert table[5, 4 + 2].item() == pytest.approx(math.cos(5 * math.exp(-2 * step)), abs=1e-6)
    assert table[5, 3].item() == pytest.approx(math.sin(5 / 10000), abs=1e-6)  # last timescale = 1/base


def test_rope_is_relative():
    """<rope(q, m), rope(k, n)> depends only on m - n."""
    rope = RotaryEmbedding(16, 128, base=500000.0)
    q, k = torch.randn(1, 1, 1, 16), torch.randn(1, 1, 1, 16)

    def score(m, n):
        qm, _ = rope(q, q, torch.tensor([m]))
        _, kn = rope(k, k, torch.tensor([n]))
        return (qm * kn).sum().item()

    assert score(10, 3) == pytest.approx(score(50, 43), rel=1e-4)
    assert score(10, 3) != pytest.approx(score(10, 4), rel=1e-4)


def test_rope_matches_transformers():
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    cfg = LlamaConfig(hidden_size=64, num_attention_heads=4, max_position_embeddings=64, rope_theta=100000.0)
    ref = LlamaRotaryEmbedding(cfg)
    q, k = torch.randn(2, 4, 9, 16), torch.randn(2, 2, 9, 16)
    pos = torch.arange(3, 12).expand(2, -1)
    cos, sin = ref(q, pos)
    q_ref, k_ref = apply_rotary_pos_emb(q, k, cos, sin)
    q_out, k_out = RotaryEmbedding(16, 64, base=100000.0)(q, k, pos)
    torch.testing.assert_close(q_out, q_ref, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(k_out, k_ref, atol=1e-5, rtol=1e-5)


def test_positions_past_the_table_are_an_error():
    with pytest.raises(ValueError, match="8 positions"):
        LearnedPositions(8, 4)(torch.arange(9))
    with pytest.raises(ValueError, match="16 positions"):
        RotaryEmbedding(8, 16)(torch.randn(1, 1, 17, 8), torch.randn(1, 1, 17, 8), torch.arange(17))


def test_sincos_2d_shape_and_distinct_rows():
    table = sincos_2d(4, 5, 32)
    assert table.shape == (20, 32)
    assert torch.unique(table, dim=0).shape[0] == 20
