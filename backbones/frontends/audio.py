"""Audio front-end: Whisper's convolutional stem, log-mel frames -> (B, N, D) tokens + fixed positions.

Whisper (Radford et al. 2022), checked against openai-whisper's `AudioEncoder`
and transformers' `WhisperEncoder` (tests/zoo/test_parity_audio.py):

    mel (B, n_mels, F) -> Conv1d(n_mels, D, 3, pad 1) -> GELU -> Conv1d(D, D, 3, stride 2, pad 1) -> GELU
        -> (B, F/2, D) + sinusoid positions (Whisper's "halves" layout: all sines, then all cosines)

The positions are a saved buffer, initialised to the sinusoids and loaded as
stored, as openai-whisper (`positional_embedding`) and transformers (a frozen
`embed_positions` Embedding) do: checkpoints converted through float16
(CTranslate2, GGML) carry the table rounded, and the references use it so.
Zoo checkpoints from before it was saved lack it: `optional_state` lets the
computed sinusoids fill in (zoo.io.check_state_dict). Whisper's encoder takes
exactly 2 N frames (N = 1500 positions: 3000 frames, 30 s at 100 frames/s):
shorter audio is padded, as both references require.

Legend: B batch, M mel bins, F mel frames, N audio tokens (F / 2), D model width.
"""
from __future__ import annotations

import torch
from torch import nn

from backbones.ffn import make_activation
from backbones.frontends.checks import check_finite, check_tensor
from backbones.positions import sinusoid_table
from backbones.precision import in_weight_dtype

FRAMES_PER_SECOND = 100  # Whisper's log-mel: 16 kHz audio, hop 160 samples
STRIDE = 2               # conv2 halves the frame rate: one audio token per 20 ms


class AudioConvStem(nn.Module):
    def __init__(self, n_mels: int, dim: int, num_positions: int, act: str = "gelu"):
        super().__init__()
        self.n_mels, self.num_positions = n_mels, num_positions
        self.conv1 = nn.Conv1d(n_mels, dim, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(dim, dim, kernel_size=3, stride=STRIDE, padding=1)
        self.act = make_activation(act)
        self.register_buffer("positions", sinusoid_table(num_positions, dim, layout="halves"))  # (N, D)

    optional_state = ("positions",)  # absent from a state dict: the sinusoids stay (older zoo checkpoints)

    def _load_from_state_dict(self, state_dict, prefix, *args, **kwargs):
        state_dict.setdefault(prefix + "positions", self.positions)
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)

    @property
    def num_frames(self) -> int:
        """The mel frames the stem takes: STRIDE x its positions (3000 for Whisper's 1500)."""
        return STRIDE * self.num_positions

    def check(self, mel: torch.Tensor) -> None:
        """Raise a clear error unless mel is (B, n_mels, num_frames) floats."""
        check_tensor(mel, "mel", "(batch, n_mels, frames)")
        shape = tuple(mel.shape)
        if mel.dim() != 3:
            hint = " (one clip: add the batch axis, mel[None])" if mel.dim() == 2 else ""
            raise ValueError(f"mel must be (batch, n_mels, frames); got shape {shape}{hint}")
        if not mel.is_floating_point():
            raise TypeError(f"mel must be a floating-point log-mel spectrogram; got {mel.dtype} with shape {shape}")
        if shape[1] != self.n_mels:
            raise ValueError(f"mel has {shape[1]} mel bins (shape {shape}) but the model expects "
                             f"n_mels={self.n_mels}")
        check_finite(mel, "mel")
        if shape[2] != self.num_frames:
            seconds = self.num_frames / FRAMES_PER_SECOND
            too_many = shape[2] > self.num_frames
            more = f", more than the encoder's {self.num_positions} positions cover" if too_many else ""
            raise ValueError(
                f"mel has {shape[2]} frames (shape {shape}){more}: Whisper's encoder takes exactly "
                f"{STRIDE} x {self.num_positions} positions = {self.num_frames} frames ({seconds:g} s at "
                f"{FRAMES_PER_SECOND} frames/s); pad or trim the log-mel to {self.num_frames} frames "
                f"(longer audio: {seconds:g} s windows)")

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        """mel (B, n_mels, F) with F = num_frames -> tokens (B, F / 2, D) with positions added."""
        self.check(mel)
        x = self.act(self.conv1(in_weight_dtype(mel, self.conv1.weight)))  # (B, D, F)
        x = self.act(self.conv2(x))  # (B, D, N)
        x = x.transpose(1, 2)  # (B, N, D)
        return x + self.positions.to(x.dtype)
