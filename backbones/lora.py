"""Low-rank adapters (LoRA, Hu et al. 2021, "LoRA: Low-Rank Adaptation of Large Language Models").

    layer = LoRALinear.adapt(nn.Linear(512, 512), r=8, alpha=16)
    y = layer(x)        # W x + b + (alpha / r) * B (A dropout(x)), W and b frozen, A and B trained

A frozen weight W (N, K) is adapted by the product of two small ones, A (r, K) and B (N, r): the layer computes
W x + s * B A x with s = alpha / r (alpha / sqrt(r) with rank-stabilised scaling, rsLoRA). A starts as nn.Linear's
own init (Kaiming-uniform) and B at zero, so an adapted model starts equal to its base; merging folds s * B A into
W. This is peft's `LoraLayer` for Linear layers (its "default" adapter), checked against peft 0.21.

The adapted layer IS the base layer, in a subclass: the same Parameter and buffer objects and state_dict keys
(`q_proj.weight`), plus `q_proj.lora_A` (r, K) and `q_proj.lora_B` (N, r). So a quantised base (QLoRA: adapters in
full precision over frozen int8 or int4 integers) is a LoRAQuantizedLinear, still a QuantizedLinear to everything
that asks; packing leaves the adapted layers alone, except that attention's fused q/k/v product takes adapted
projections too and adds each one's low-rank term (backbones/inference/packing.py).

Legend: N output features, K input features, r the adapter's rank.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from backbones.quantized import QuantizedLinear, quantize_weight

LORA_PARAMETERS = ("lora_A", "lora_B")


class LoRAError(ValueError):
    """An adapter that cannot be made or loaded as asked: a rank below 1, targets that match nothing, shapes that
    differ from the base's, a format we do not read."""


class LowRankAdapter:
    """The low-rank term of an adapted layer, mixed into the base layer's class (LoRALinear, LoRAQuantizedLinear):
    the base's forward, plus `lora_delta`."""

    lora_A: nn.Parameter
    lora_B: nn.Parameter
    lora_r: int
    lora_alpha: float
    lora_dropout: float
    lora_scaling: float

    @classmethod
    def adapt(cls, base: nn.Module, r: int, alpha: float, dropout: float = 0.0, *, use_rslora: bool = False):
        """`base` (an nn.Linear or QuantizedLinear, frozen by the caller) as an adapted layer of this class: the
        same parameters and buffers, and new lora_A, lora_B on its device (_adapter_place)."""
        check_rank(r)
        if not 0.0 <= dropout < 1.0:
            raise LoRAError(f"LoRA dropout {dropout!r}: expected a probability in [0, 1)")
        layer = cls.__new__(cls)
        layer.__dict__.update(vars(base))  # shares base's Parameters, buffers and hooks (packing's _swap does this)
        layer._parameters, layer._buffers, layer._modules = (dict(base._parameters), dict(base._buffers),
                                                              dict(base._modules))
        device, dtype = _adapter_place(base)
        layer.lora_A = nn.Parameter(torch.empty(r, base.in_features, device=device, dtype=dtype))
        layer.lora_B = nn.Parameter(torch.zeros(base.out_features, r, device=device, dtype=dtype))
        nn.init.kaiming_uniform_(layer.lora_A, a=math.sqrt(5))  # as peft (and nn.Linear) initialise A
        layer.lora_r, layer.lora_alpha, layer.lora_dropout = r, float(alpha), float(dropout)
        layer.lora_scaling = alpha / math.sqrt(r) if use_rslora else alpha / r
        return layer

    def lora_delta(self, x: torch.Tensor) -> torch.Tensor:
        """x (..., K) -> s * B (A dropout(x)), (..., N): in autocast's dtype where it is on, else the adapter's."""
        if self.lora_dropout and self.training:
            x = F.dropout(x, self.lora_dropout)
        if not torch.is_autocast_enabled(x.device.type):
            x = x.to(self.lora_A.dtype)
        # The scaling multiplies the r-wide intermediate, not the N-wide output: the same product, fewer operations.
        return F.linear(F.linear(x, self.lora_A) * self.lora_scaling, self.lora_B)  # (..., r) -> (..., N)

    def delta_weight(self) -> torch.Tensor:
        """s * B A, (N, K) in float32: what merging adds to the weight."""
        return (self.lora_B.float() @ self.lora_A.float()) * self.lora_scaling

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = super().forward(x)  # the base layer's own product: nn.Linear, or a quantised kernel
        return out + self.lora_delta(x).to(out.dtype)

    def extra_repr(self) -> str:
        return f"{super().extra_repr()}, lora_r={self.lora_r}, lora_alpha={self.lora_alpha:g}"


class LoRALinear(LowRankAdapter, nn.Linear):
    """An nn.Linear with a low-rank adapter (module docstring)."""

    def merged(self) -> nn.Linear:
        """The plain nn.Linear with s * B A folded into its weight (in the weight's dtype), sharing the bias."""
        linear = nn.Linear.__new__(nn.Linear)
        linear.__dict__.update(vars(self))
        linear._parameters = {k: v for k, v in self._parameters.items() if k not in LORA_PARAMETERS}
        for name in ("lora_r", "lora_alpha", "lora_dropout", "lora_scaling"):
            linear.__dict__.pop(name, None)
        with torch.no_grad():
            linear.weight.add_(self.delta_weight().to(linear.weight.dtype))
        return linear


class LoRAQuantizedLinear(LowRankAdapter, QuantizedLinear):
    """A QuantizedLinear (int8 or int4, frozen) with a full-precision low-rank adapter: QLoRA's layer."""

    def merged(self) -> QuantizedLinear:
        """A QuantizedLinear of the same scheme whose integers hold W + s * B A, quantised again: merging into a
        quantised base rounds the sum to its levels (peft warns of the same for bitsandbytes' layers)."""
        layer = QuantizedLinear(self.in_features, self.out_features, self.bias is not None, self.scheme,
                                self.group_size, device=self.qweight.device, activations=self.activations)
        qweight, scales = quantize_weight(self.dequantize() + self.delta_weight(), self.scheme, self.group_size)
        layer.qweight.copy_(qweight)
        layer.scales.copy_(scales)
        if self.bias is not None:
            layer.bias = self.bias
        return layer.prepare()


ADAPTED = {nn.Linear: LoRALinear, QuantizedLinear: LoRAQuantizedLinear}


def check_rank(r: object) -> int:
    if isinstance(r, bool) or not isinstance(r, int) or r < 1:
        raise LoRAError(f"LoRA rank r={r!r}: expected a whole number of at least 1")
    return r


def adapt(layer: nn.Module, r: int, alpha: float, dropout: float = 0.0, *, use_rslora: bool = False) -> nn.Module:
    """`layer` (an nn.Linear or QuantizedLinear, exactly: subclasses such as packed layers are unpacked first by
    the caller) with a low-rank adapter."""
    kind = ADAPTED.get(type(layer))
    if kind is None:
        raise LoRAError(f"LoRA adapts nn.Linear and QuantizedLinear layers, not {type(layer).__name__}")
    return kind.adapt(layer, r, alpha, dropout, use_rslora=use_rslora)


def _adapter_place(base: nn.Module) -> tuple[torch.device, torch.dtype]:
    """Where a new adapter lives: the base's device, in float32 (float64 over a float64 base). Over a bf16 or fp16
    base too, as peft's default (autocast_adapter_dtype) keeps it: the adapter is what trains, and its updates are
    small against its weights."""
    tensor = base.weight if isinstance(base, nn.Linear) else base.scales
    return tensor.device, (torch.float64 if tensor.dtype == torch.float64 else torch.float32)
