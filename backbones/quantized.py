"""Weight-only quantised linear layers: int8 per output channel, int4 in groups along the input.

    layer = QuantizedLinear.from_linear(nn.Linear(512, 2048), "int8")
    y = layer(x)                      # x (..., 512) fp32 or bf16 -> (..., 2048) in x's (or autocast's) dtype

Decoding on a CPU reads every weight once per token, so its speed is the memory's bandwidth over the bytes
per weight: int8 halves bf16's bytes, int4 quarters them. Activations stay in fp32 or bf16; only the weight
is stored in fewer bits, with one scale per output row (int8) or per group of `group_size` inputs of a row
(int4):

- int8: scale = max |w| of the row / 127, q = round(w / scale) in [-127, 127] (symmetric, no zero point);
- int4: scale = max |w| of the group / 7, q = round(w / scale) in [-7, 7], stored as q + 8 in a nibble, two
  per byte, the even input first (low nibble) then the odd one.

The dequantised weight is q * scale (`dequantize`); every kernel computes x @ (q * scale)^T up to summation
order and the rounding of its compute dtype. Which kernel runs a call (`kernel`): without gradients on the
CPU, torch's weight-only kernels (aten._weight_int8pack_mm, aten._weight_int4pack_mm_for_cpu) in fp32 or
bf16; with gradients (QLoRA: the frozen base of an adapter), on other devices or dtypes, F.linear on the
dequantised weight, so gradients reach the input and never the frozen integers.

The stored tensors (`qweight`, `scales`, the bias) are buffers and a Parameter of the module: state_dict
holds them as they are, and save_pretrained writes them to safetensors as int8 / uint8 and fp32. Copies laid
out for a kernel (int4's packed tiles) are made on first use and never saved.

Legend: N output features, K input features, G group size, R rows.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from backbones.precision import compute_dtype

SCHEMES = ("int8", "int4")
INT8_MAX = 127
INT4_MAX = 7
INT4_OFFSET = 8  # a stored nibble is q + 8 (0 .. 15), as torch's int4 kernels read it
INT4_GROUP_SIZES = (32, 64, 128, 256)  # what torch's int4 CPU kernel takes
INT4_TILE = 16  # torch's int4 CPU kernel packs outputs in tiles of 16


class QuantizationError(ValueError):
    """A quantisation that cannot be made as asked: an unknown scheme, a group that does not divide the width."""


def check_scheme(scheme: str, group_size: int | None, in_features: int | None = None,
                 where: str = "the layer") -> int | None:
    """The group size `scheme` uses for a layer of `in_features` inputs (None for int8's per-row scales), or
    QuantizationError naming what was wrong and what was expected."""
    if scheme not in SCHEMES:
        raise QuantizationError(f"unknown quantisation scheme {scheme!r}: expected one of {list(SCHEMES)}")
    if scheme == "int8":
        if group_size is not None:
            raise QuantizationError(f"int8 has one scale per output row: group_size must be None, got {group_size}")
        return None
    if group_size not in INT4_GROUP_SIZES:
        raise QuantizationError(f"int4 group_size {group_size!r}: expected one of {list(INT4_GROUP_SIZES)}")
    if in_features is not None and in_features % group_size:
        raise QuantizationError(f"int4 with groups of {group_size} on {where} of {in_features} inputs: the group "
                                f"must divide the width; {in_features} is not a multiple of {group_size}")
    return group_size


def quantize_weight(weight: torch.Tensor, scheme: str, group_size: int | None = None
                    ) -> tuple[torch.Tensor, torch.Tensor]:
    """weight (N, K) -> (qweight, scales): int8 (N, K) and fp32 (N,), or int4 as uint8 (N, K / 2) and fp32
    (N, K / G). A row (or group) of zeros gets scale 1 (its q are 0)."""
    w = weight.detach().float()
    n, k = w.shape
    if scheme == "int8":
        scales = w.abs().amax(dim=1) / INT8_MAX  # (N,)
        scales = torch.where(scales > 0, scales, torch.ones_like(scales))
        q = torch.round(w / scales[:, None]).clamp_(-INT8_MAX, INT8_MAX).to(torch.int8)  # (N, K)
        return q, scales
    groups = w.view(n, k // group_size, group_size)  # (N, K/G, G)
    scales = groups.abs().amax(dim=2) / INT4_MAX  # (N, K/G)
    scales = torch.where(scales > 0, scales, torch.ones_like(scales))
    q = torch.round(groups / scales[..., None]).clamp_(-INT4_MAX, INT4_MAX).view(n, k)  # (N, K)
    nibbles = (q + INT4_OFFSET).to(torch.uint8)
    return nibbles[:, 0::2] | (nibbles[:, 1::2] << 4), scales  # (N, K/2), (N, K/G)


def unpack_int4(packed: torch.Tensor) -> torch.Tensor:
    """uint8 (N, K / 2) of two nibbles -> the stored values 0 .. 15 as int32 (N, K), even inputs from the low
    nibbles."""
    low, high = (packed & 0x0F).to(torch.int32), (packed >> 4).to(torch.int32)
    return torch.stack([low, high], dim=-1).flatten(-2)  # (N, K)


def dequantize_weight(qweight: torch.Tensor, scales: torch.Tensor, scheme: str,
                      dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """(qweight, scales) as quantize_weight makes them -> the weight q * scale (N, K) in `dtype`."""
    if scheme == "int8":
        return (qweight.float() * scales[:, None]).to(dtype)
    q = (unpack_int4(qweight) - INT4_OFFSET).float()  # (N, K)
    n, k = q.shape
    return (q.view(n, scales.shape[1], -1) * scales[..., None]).view(n, k).to(dtype)


class QuantizedLinear(nn.Module):
    """nn.Linear with its weight stored in int8 or int4 (module docstring). Called as nn.Linear is."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, scheme: str = "int8",
                 group_size: int | None = None, device=None) -> None:
        super().__init__()
        self.group_size = check_scheme(scheme, group_size, in_features)
        self.in_features, self.out_features, self.scheme = in_features, out_features, scheme
        if scheme == "int8":
            qweight = torch.zeros(out_features, in_features, dtype=torch.int8, device=device)
            scales = torch.ones(out_features, device=device)
        else:
            if in_features % 2:
                raise QuantizationError(f"int4 packs two inputs a byte: {in_features} inputs is odd")
            qweight = torch.full((out_features, in_features // 2), INT4_OFFSET * 0x11, dtype=torch.uint8,
                                 device=device)
            scales = torch.ones(out_features, in_features // group_size, device=device)
        self.register_buffer("qweight", qweight)
        self.register_buffer("scales", scales)
        self.bias = nn.Parameter(torch.zeros(out_features, device=device), requires_grad=False) if bias else None
        self._copies: dict = {}  # kernel layouts made on first use: {"int4": (source key, packed)}

    @classmethod
    def from_linear(cls, linear: nn.Linear, scheme: str = "int8", group_size: int | None = None,
                    name: str = "the layer") -> QuantizedLinear:
        """The quantised copy of `linear` (its bias kept in full precision, frozen like the weight)."""
        check_scheme(scheme, group_size, linear.in_features, name)
        layer = cls(linear.in_features, linear.out_features, linear.bias is not None, scheme, group_size,
                    device=linear.weight.device)
        qweight, scales = quantize_weight(linear.weight, scheme, group_size)
        layer.qweight.copy_(qweight)
        layer.scales.copy_(scales)
        if linear.bias is not None:
            layer.bias = nn.Parameter(linear.bias.detach().float().clone(), requires_grad=False)
        return layer

    def dequantize(self, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        """The weight these integers stand for, (N, K) in `dtype`."""
        return dequantize_weight(self.qweight, self.scales, self.scheme, dtype)

    def kernel(self, x: torch.Tensor) -> str:
        """Which path a call on x takes: "int8" / "int4" (torch's weight-only CPU kernels) or "dequantize"
        (why_not says why)."""
        return self.scheme if self.why_not(x) is None else "dequantize"

    def why_not(self, x: torch.Tensor) -> str | None:
        """Why torch's weight-only kernel cannot take x, in one line; None where it runs."""
        if torch.is_grad_enabled():
            return "gradients are on: F.linear on the dequantised weight carries them to the input"
        if not x.is_cpu:
            return f"torch's weight-only kernels here are CPU ones; x is on {x.device}"
        dtype = compute_dtype(x, x)
        if dtype not in (torch.float32, torch.bfloat16):
            return f"they compute in float32 or bfloat16, not {dtype}"
        if x.numel() == 0:
            return "x is empty"
        if self.scheme == "int4" and self.out_features % INT4_TILE:
            return f"torch's int4 kernel tiles {INT4_TILE} outputs; {self.out_features} is not a multiple"
        return None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x (..., K) -> (..., N), in autocast's dtype where it is on, else x's."""
        dtype = compute_dtype(x, x)  # autocast's, else x's own
        bias = None if self.bias is None else self.bias.to(dtype)
        kernel = self.kernel(x)
        if kernel == "dequantize":
            return F.linear(x.to(dtype), self.dequantize(dtype), bias)
        x2 = x.reshape(-1, self.in_features).to(dtype).contiguous()  # (R, K): the kernels read rows densely
        if kernel == "int8":
            out = torch._weight_int8pack_mm(x2, self.qweight, self.scales.to(dtype))  # (R, N)
        else:
            packed, scales_zeros = self._int4_layout(dtype)
            out = torch._weight_int4pack_mm_for_cpu(x2, packed, self.group_size, scales_zeros)  # (R, N)
        if bias is not None:
            out = out + bias
        return out.view(*x.shape[:-1], self.out_features)  # (..., N)

    def _int4_layout(self, dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
        """torch's int4 CPU kernel's tiles of qweight and its (K / G, N, 2) scales and zeros (zero 0: symmetric),
        made once per weight and dtype."""
        key = (self.qweight.data_ptr(), self.qweight._version, self.scales.data_ptr(), self.scales._version, dtype)
        cached = self._copies.get("int4")
        if cached is None or cached[0] != key:
            with torch.no_grad():
                packed = torch._convert_weight_to_int4pack_for_cpu(unpack_int4(self.qweight), 1)
                scales = self.scales.t().to(dtype)  # (K/G, N)
                scales_zeros = torch.stack([scales, torch.zeros_like(scales)], dim=-1).contiguous()
            cached = self._copies["int4"] = (key, packed, scales_zeros)
        return cached[1], cached[2]

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_copies": {}}  # kernel layouts are remade, never pickled

    def extra_repr(self) -> str:
        group = "" if self.group_size is None else f", group_size={self.group_size}"
        return (f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}, "
                f"scheme={self.scheme}{group}")
