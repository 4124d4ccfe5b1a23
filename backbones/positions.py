"""Position information: sinusoidal tables, learned embeddings, RoPE, 2-D sincos.

- `sinusoid_table`: Vaswani et al. 2017 (interleaved sin/cos), Whisper's
  layout (all sines then all cosines, timescales log-spaced so the last one is
  exactly 1/base: step log(base) / (D/2 - 1)), checked against openai-whisper,
  and MarianMT's (the paper's timescales, all sines then all cosines), checked
  against transformers' MarianMTModel. `SinusoidPositions` looks rows up in one.
- `LearnedPositions`: GPT-2 / BERT / Whisper-decoder absolute embeddings.
- `RotaryEmbedding`: Su et al. 2021 in HF's rotate-half layout (the first half
  of each head rotates against the second half), configurable base
  (`rope_theta`), checked against transformers' LLaMA.
- `sincos_2d`: MAE-style fixed 2-D positions for image patch grids.
- `resample_grid_positions`: learned grid positions resized to another image
  size (bicubic, antialiased), checked against timm's `resample_abs_pos_embed`.

Legend: B batch, T tokens, D model width, H heads, Dh head width.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn


def sinusoid_table(length: int, dim: int, base: float = 10000.0, layout: str = "interleaved") -> torch.Tensor:
    """(length, dim) fixed positions. layout "interleaved" (2017 paper: sin, cos of timescale i at features
    2i, 2i+1), "halves" (Whisper, tensor2tensor: sines then cosines, timescales log(base) / (D/2 - 1) apart)
    or "paper_halves" (MarianMT: the paper's timescales base^(-2i/D), sines then cosines)."""
    if dim % 2:
        raise ValueError(f"sinusoidal positions need an even width, got {dim}")
    pos = torch.arange(length, dtype=torch.float32)[:, None]  # (T, 1)
    if layout in ("interleaved", "paper_halves"):
        inv = base ** (-torch.arange(0, dim, 2, dtype=torch.float32) / dim)  # (D/2,)
        if layout == "paper_halves":
            return torch.cat([torch.sin(pos * inv), torch.cos(pos * inv)], dim=1)  # (T, D)
        table = torch.zeros(length, dim)
        table[:, 0::2], table[:, 1::2] = torch.sin(pos * inv), torch.cos(pos * inv)
        return table
    if layout == "halves":
        step = math.log(base) / (dim // 2 - 1)
        inv = torch.exp(-step * torch.arange(dim // 2, dtype=torch.float32))  # (D/2,)
        return torch.cat([torch.sin(pos * inv), torch.cos(pos * inv)], dim=1)  # (T, D)
    raise ValueError(f"layout must be 'interleaved', 'halves' or 'paper_halves', got {layout!r}")


class LearnedPositions(nn.Module):
    """Absolute learned position embeddings with a clear error past the table."""

    def __init__(self, max_positions: int, dim: int):
        super().__init__()
        self.weight = nn.Parameter(torch.zeros(max_positions, dim))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, positions: torch.Tensor | range) -> torch.Tensor:
        """positions (T,) or (B, T) ids, or a range -> (T, D) or (B, T, D)."""
        return position_rows(self.weight, positions)


class SinusoidPositions(nn.Module):
    """Fixed sinusoidal positions (sinusoid_table), looked up like LearnedPositions. The table is a buffer
    that is not saved: it is a function of its shape, as transformers' MarianMTModel treats it."""

    def __init__(self, max_positions: int, dim: int, layout: str = "paper_halves"):
        super().__init__()
        self.register_buffer("weight", sinusoid_table(max_positions, dim, layout=layout), persistent=False)

    def forward(self, positions: torch.Tensor | range) -> torch.Tensor:
        """positions (T,) or (B, T) ids, or a range -> (T, D) or (B, T, D)."""
        return position_rows(self.weight, positions)


def check_positions(positions: torch.Tensor | range, max_positions: int) -> None:
    """Position ids (a range, or an integer tensor) inside [0, max_positions): a negative id would index the
    table from its end."""
    if torch.compiler.is_compiling():
        return  # a compiled decoding step: zoo.generation checked the whole session's positions up front
    if isinstance(positions, range):
        low, top = (positions[0], positions[-1]) if len(positions) else (0, -1)
    else:
        if positions.is_floating_point() or positions.dtype == torch.bool:
            raise TypeError(f"positions must be integer position ids, got {positions.dtype}")
        low, top = (int(v) for v in torch.aminmax(positions)) if positions.numel() else (0, -1)  # one sync
    if low < 0:
        raise ValueError(f"positions must be >= 0, got {low}")
    if top >= max_positions:
        raise ValueError(f"sequence needs position {top} but the model has {max_positions} positions "
                         f"(max sequence length {max_positions})")


def position_range(start: int, length: int, device: torch.device | str | None = None) -> torch.Tensor | range:
    """Positions start .. start+length-1 of contiguous tokens: a range (sliced from a table, never gathered),
    or under torch.export a tensor, so that a dynamic sequence length stays symbolic (a Python range would
    fix it at the traced length)."""
    if torch.compiler.is_exporting():
        return torch.arange(start, start + length, device=device)
    return range(start, start + length)


def position_rows(table: torch.Tensor, positions: torch.Tensor | range) -> torch.Tensor:
    """Rows of a (max_positions, ...) table. A range (contiguous positions: no padding, the usual case)
    is checked in Python and sliced (a view); a tensor of ids (B, T) or (T,) is checked and gathered."""
    check_positions(positions, table.shape[0])
    if isinstance(positions, range):
        if positions.step != 1:
            raise ValueError(f"a range of positions must be contiguous (step 1), got {positions}")
        return table[positions.start:positions.stop]
    return table[positions]


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


class RotaryEmbedding(nn.Module):
    """Rotary position embedding applied to q and k, HF rotate-half convention."""

    def __init__(self, head_dim: int, max_positions: int, base: float = 10000.0):
        super().__init__()
        self.max_positions = max_positions
        inv = 1.0 / base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim)  # (Dh/2,)
        freqs = torch.outer(torch.arange(max_positions, dtype=torch.float32), inv)  # (T, Dh/2)
        angles = torch.cat([freqs, freqs], dim=-1)  # (T, Dh)
        self.register_buffer("cos", angles.cos(), persistent=False)
        self.register_buffer("sin", angles.sin(), persistent=False)

    def forward(self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor | range | None):
        """q (B, H, T, Dh), k (B, Hkv, T, Dh), positions (T,) or (B, T) ids or a range -> rotated q, k."""
        if positions is None:
            positions = range(q.shape[-2])
        # (T, Dh) or (B, T, Dh)
        cos, sin = position_rows(self.cos, positions).to(q.dtype), position_rows(self.sin, positions).to(q.dtype)
        if cos.dim() == 3:
            cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # (B, 1, T, Dh)
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


def sincos_2d(grid_h: int, grid_w: int, dim: int, base: float = 10000.0) -> torch.Tensor:
    """(grid_h * grid_w, dim) fixed 2-D positions (MAE): half the width encodes rows, half columns."""
    if dim % 4:
        raise ValueError(f"2-D sincos positions need a width divisible by 4, got {dim}")
    ys, xs = torch.meshgrid(torch.arange(grid_h, dtype=torch.float32),
                            torch.arange(grid_w, dtype=torch.float32), indexing="ij")
    inv = base ** (-torch.arange(dim // 4, dtype=torch.float32) / (dim // 4))  # (D/4,)
    out = []
    for coord in (xs.flatten(), ys.flatten()):  # MAE puts the width axis first
        angles = coord[:, None] * inv[None]  # (N, D/4)
        out += [angles.sin(), angles.cos()]
    return torch.cat(out, dim=1)  # (N, D)


def resample_grid_positions(pos: torch.Tensor, old_grid: tuple[int, int], new_grid: tuple[int, int],
                            num_prefix_tokens: int = 0) -> torch.Tensor:
    """Learned positions for an (gh, gw) patch grid -> the same for (nh, nw), e.g. a larger image.

    pos (B, P + gh*gw, D) -> (B, P + nh*nw, D). The P prefix rows (class / register tokens) are kept
    as they are; the grid rows are resized like a D-channel image: bicubic, align_corners=False,
    antialiased when shrinking. Those are timm's `resample_abs_pos_embed` defaults (timm 1.0.x), so a
    converted timm ViT stays equal to timm with `dynamic_img_size=True`.
    """
    old_grid, new_grid = (int(old_grid[0]), int(old_grid[1])), (int(new_grid[0]), int(new_grid[1]))
    if pos.dim() != 3 or pos.shape[1] != num_prefix_tokens + old_grid[0] * old_grid[1]:
        raise ValueError(f"positions must be (B, {num_prefix_tokens} prefix + {old_grid[0]}x{old_grid[1]} grid "
                         f"= {num_prefix_tokens + old_grid[0] * old_grid[1]}, D); got shape {tuple(pos.shape)}")
    if old_grid == new_grid:
        return pos
    b, _, d = pos.shape
    prefix, grid = pos[:, :num_prefix_tokens], pos[:, num_prefix_tokens:]
    grid = grid.float().reshape(b, *old_grid, d).permute(0, 3, 1, 2)  # (B, D, gh, gw)
    grid = F.interpolate(grid, size=new_grid, mode="bicubic", align_corners=False, antialias=True)  # (B, D, nh, nw)
    grid = grid.permute(0, 2, 3, 1).reshape(b, new_grid[0] * new_grid[1], d).to(pos.dtype)  # (B, nh*nw, D)
    return torch.cat([prefix, grid], dim=1)  # (B, P + nh*nw, D)
