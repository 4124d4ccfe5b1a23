"""CTC head: per-frame token logits over an encoder's output, trained with connectionist temporal
classification (Graves et al. 2006), which sums over every alignment of the target tokens to the frames.

    head = CTCHead(dim=256, classes=512)                 # 512 tokens + the blank (the last index)
    loss = head.loss(head(features), labels)             # features (B, N, D); labels (B, T), -100 ignored
    ids = head.greedy(head(features))                    # best path: B lists of token ids

Used beside an encoder-decoder's cross-entropy as an auxiliary loss (hybrid CTC/attention, Watanabe et al.
2017): the decoder can lower its loss from the text alone, the CTC head only from the audio, so the encoder
is pushed to align sound with tokens from the first steps. `labels` are the decoder's targets: ids at or
past `classes` (end of text, timestamps, other specials) and ignored positions are dropped, the rest, in
order, is each row's CTC target.

Legend: B batch, N encoder frames, D width, C classes (tokens; the blank is C), T target positions.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


class CTCHead(nn.Module):
    def __init__(self, dim: int, classes: int):
        super().__init__()
        self.classes = classes
        self.proj = nn.Linear(dim, classes + 1)  # the last output is the blank

    @property
    def blank(self) -> int:
        return self.classes

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        return self.proj(features)  # (B, N, C + 1)

    def loss(self, logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        """Mean over rows of the CTC loss per target token (torch's reduction="mean"). logits (B, N, C + 1);
        labels (B, T): each row's tokens below `classes`, in order, are its target (others are skipped).
        Rows whose targets cannot fit the frames add 0 (zero_infinity) rather than inf."""
        if logits.shape[-1] != self.classes + 1 or logits.dim() != 3:
            raise ValueError(f"CTC logits must be (batch, frames, {self.classes + 1}), got {tuple(logits.shape)}")
        keep = (labels >= 0) & (labels < self.classes)  # (B, T)
        log_probs = logits.float().log_softmax(-1).transpose(0, 1)  # (N, B, C + 1)
        frames = torch.full((logits.shape[0],), logits.shape[1], dtype=torch.long, device=logits.device)
        return F.ctc_loss(log_probs, labels[keep], frames, keep.sum(1), blank=self.blank, zero_infinity=True)

    def greedy(self, logits: torch.Tensor) -> list[list[int]]:
        """Best-path decoding: each frame's most likely class, repeats merged, then blanks dropped (a token
        said twice needs a blank between). logits (B, N, C + 1) -> B lists of token ids."""
        best = logits.argmax(-1)  # (B, N)
        keep = best != self.blank
        keep[:, 1:] &= best[:, 1:] != best[:, :-1]
        return [row[mask].tolist() for row, mask in zip(best, keep)]

