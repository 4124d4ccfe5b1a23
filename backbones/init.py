"""Weight initialisation shared by the families (GPT-2 / BERT / LLaMA conventions).

Linear and Embedding weights ~ N(0, std), biases 0, norms 1. With `depth`
given, the projections that write into the residual stream (attention
o_proj, FFN fc2 / down) get std / sqrt(2 * depth), as GPT-2 does, so the
residual's variance does not grow with depth.
"""
from __future__ import annotations

import math

from torch import nn

RESIDUAL_OUTPUTS = ("o_proj", "fc2", "down")


def init_weights(model: nn.Module, std: float = 0.02, depth: int | None = None) -> None:
    for name, module in model.named_modules():
        if isinstance(module, nn.Linear):
            scaled = depth and name.rsplit(".", 1)[-1] in RESIDUAL_OUTPUTS
            nn.init.normal_(module.weight, std=std / math.sqrt(2 * depth) if scaled else std)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            nn.init.normal_(module.weight, std=std)
        elif isinstance(module, nn.LayerNorm) and module.elementwise_affine:
            nn.init.ones_(module.weight)
            if module.bias is not None:
                nn.init.zeros_(module.bias)
