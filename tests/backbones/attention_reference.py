"""What the tests of our many-row attention kernels (zoo::bf16_attention, zoo::f32_attention) compare against:
exact attention in fp64, on inputs drawn in the kernel's dtype."""
import torch

from backbones.masks import causal_mask


def exact(q, k, v, scale, causal):
    """fp64 attention on the same values (keys and values repeated over grouped heads)."""
    group = q.shape[1] // k.shape[1]
    k, v = k.double().repeat_interleave(group, 1), v.double().repeat_interleave(group, 1)
    scores = (q.double() @ k.transpose(-1, -2)) * scale
    if causal:
        scores = scores.masked_fill(~causal_mask(q.shape[2], k.shape[2], None), float("-inf"))
    return torch.softmax(scores, -1) @ v


def inputs(b, h, hkv, tq, tk, dh, seed=0, dtype=torch.float32):
    """q (B, H, Tq, Dh), k and v (B, Hkv, Tk, Dh), standard normal, in `dtype`."""
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(*s, generator=g).to(dtype) for s in ((b, h, tq, dh), (b, hkv, tk, dh), (b, hkv, tk, dh)))
