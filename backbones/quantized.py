"""Quantised linear layers: int8 weights per output channel, int4 in groups along the input.

    layer = QuantizedLinear.from_linear(nn.Linear(512, 2048), "int8")
    y = layer(x)                      # x (..., 512) fp32 or bf16 -> (..., 2048) in x's (or autocast's) dtype

Decoding on a CPU reads every weight once per token, so its speed is the memory's bandwidth over the bytes
per weight: int8 halves bf16's bytes, int4 quarters them. The weight is stored in fewer bits, with one scale
per output row (int8) or per group of `group_size` inputs of a row (int4); inputs and outputs stay fp32 or bf16:

- int8: scale = max |w| of the row / 127, q = round(w / scale) in [-127, 127] (symmetric, no zero point);
- int4: scale = max |w| of the group / 7, q = round(w / scale) in [-7, 7], stored as q + 8 in a nibble, two
  per byte, the even input first (low nibble) then the odd one.

The dequantised weight is q * scale (`dequantize`). Layers multiply activations one of two ways
(`activations`), each a kernel by the number of rows R (`kernel`; why_not says why none runs):

- "int8" (the default): each activation row quantised to int8 on the fly (scale max |x| / 127), integer dot
  products, scaled back. int8 weights: R <= 8 (on an AMX host: R = 1, or R x N x K <= OURS_MAX_WORK), our
  zoo::gemv_int8 (AVX512-VNNI, else AVX2); more, torch's int8 GEMM (torch._int_mm, oneDNN), each row quantised
  between its least and greatest value (253 steps, the centre a whole step so that 0 is a level, as fbgemm's zero
  point). Without AVX512-VNNI or AMX, where torch's int8 GEMM is slow, R <= INT8_CHUNKED_ROWS go to ours 8 rows
  at a time and more to our zoo::gemm_int8 (AVX2), which computes what torch's GEMM does. int4 weights, and int8
  in groups (GGUF's Q8_0): our zoo::gemv_grouped for any R, 8 rows at a time;
- "float": activations as they come, exact up to summation order (int8 in groups: F.linear on the dequantised
  weight). int8: zoo::gemv_int8's weight-only mode for 1 to GEMV_ROWS rows; more, torch's
  aten._weight_int8pack_mm in bf16, F.linear on the dequantised weight in fp32. int4: torch's
  aten._weight_int4pack_mm_for_cpu on its packed tiles.

Why int8 activations by default (an AVX512-BF16/VNNI EPYC, 2 threads, docs/notes/2026-12-07-int8-kernels.md): one
row through a 4096 x 4096 int8 weight takes 0.22-0.32 ms with dynamic int8 against 0.78 ms weight-only (widening
every weight to float is compute-bound at ~22 GB/s) and 0.57 ms for our bf16 kernel; torch._int_mm takes 512 x 384
rows through a 384 x 1536 weight in 0.74 ms against fp32's 3.7 ms. (It replaced fbgemm's dynamic GEMM, as fast or
slower there, whose one activation scale for all rows took the real all-MiniLM-L6-v2's sentence embeddings to a
cosine of 0.982 from fp32's; a range a row keeps 0.9966: bench/quantized_accuracy.py.) For int4 the gap is wider:
zoo::gemv_grouped takes 0.17 ms for that row, torch's int4 kernel 15 ms in fp32 (its bf16 path is 2-4x slower than
ours on 16-64 rows). The cost is the activations' rounding: each moves by at most half its row's step.

With gradients (QLoRA: the frozen base of an adapter), on other devices or dtypes, every layer runs F.linear
on the dequantised weight, so gradients reach the input and never the frozen integers.

Legend: N output features, K input features, G group size, R rows.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from backbones.inference import gemv
from backbones.inference.kernels import few_rows
from backbones.precision import compute_dtype

SCHEMES = ("int8", "int4")
INT8_MAX = 127
INT4_MAX = 7
INT4_OFFSET = 8  # a stored nibble is q + 8 (0 .. 15), as torch's int4 kernels read it
GROUP_SIZES = (32, 64, 128, 256)  # what torch's int4 CPU kernel and zoo::gemv_grouped take
# zoo::gemv_int8's dynamic-activation mode: AVX512-VNNI's dot products where the CPU has them, else AVX2's
INT8_GEMV_MODE = "vnni" if gemv.int8_unsupported_reason("vnni") is None else "avx2"
# Up to 8 rows, ours beats torch._int_mm at every shape measured without AMX (AVX512-VNNI EPYC, 2 threads, quiet,
# weight row sums kept: 1.0-5.8x over 2-8 rows of 512-3072 x 512-3072 and gpt2's 50257 x 768 head; from 16 rows
# torch's wins, 1.2-3x; docs/notes/2026-12-07-int8-kernels.md). Where the CPU has AMX-INT8, oneDNN's GEMM runs on
# its tiles: there products of more rows than one go to ours only up to this many multiply-adds (rows x N x K),
# the rule measured against fbgemm before torch._int_mm replaced it (not remeasured on an AMX host).
OURS_MAX_WORK = 2**21
_GEMM_HAS_AMX = gemv.has_cpu_flag("amx_int8")
# torch._int_mm runs oneDNN's int8 GEMM at VNNI's or AMX's speed; a CPU with neither (AVX2 only) gets a slow generic
# path, 8-27x behind float32 over 16-64 rows: on an AVX2-only EPYC, 2 threads, 64 rows through a 512 x 2048 weight took
# 39 ms against 2.5 ms in float32, and Whisper tiny's window 6.5x as long as in float32. There, products of up to
# INT8_CHUNKED_ROWS rows go to zoo::gemv_int8 8 rows at a time, and more to our zoo::gemm_int8 (csrc/gemm_int8.cpp:
# vpmaddwd on int16, 4 rows x 24 outputs a register tile), which computes what the torch._int_mm path does. Same
# host, quiet, 2 threads: the GEMM took 0.67-0.89x float32's time at 1500 rows and 0.33-0.79x at 16-256, and from 64
# rows 0.25-0.93x the chunks'. At 9-32 rows the chunks lead on some weights (the 51865-word head, 512 x 2048): the
# GEMM packs the weight on every call. docs/notes/2026-12-07-int8-gemm-avx2.md has the table.
_INT_MM_FAST = gemv.has_cpu_flag("avx512_vnni") or _GEMM_HAS_AMX
INT8_CHUNKED_ROWS = 16
# A weight of more values than this multiplies its dequantised outputs a block at a time (_dequantized): Whisper
# base's head (51865 x 512) dequantised whole took 131 ms a call, nearly all of it faulting in 106 MB of fresh pages
# (AVX2 EPYC), and its 100-row product 2.5x float32's time.
DEQUANTIZE_BLOCK = 2**20
ACTIVATIONS = ("int8", "float")
INT4_TILE = 16  # torch's int4 CPU kernel packs outputs in tiles of 16


class QuantizationError(ValueError):
    """A quantisation that cannot be made as asked: an unknown scheme, a group that does not divide the width."""


def check_scheme(scheme: str, group_size: int | None, in_features: int | None = None,
                 where: str = "the layer") -> int | None:
    """The group size `scheme` uses for a layer of `in_features` inputs (None: int8's per-row scales), or
    QuantizationError naming what was wrong and what was expected."""
    if scheme not in SCHEMES:
        raise QuantizationError(f"unknown quantisation scheme {scheme!r}: expected one of {list(SCHEMES)}")
    if scheme == "int8" and group_size is None:
        return None
    if group_size not in GROUP_SIZES:
        expected = [None, *GROUP_SIZES] if scheme == "int8" else list(GROUP_SIZES)
        raise QuantizationError(f"{scheme} group_size {group_size!r}: expected one of {expected}")
    if in_features is not None and in_features % group_size:
        raise QuantizationError(f"{scheme} with groups of {group_size} on {where} of {in_features} inputs: the group "
                                f"must divide the width; {in_features} is not a multiple of {group_size}")
    return group_size


def check_activations(activations: str) -> str:
    """int8 layers' activations: "int8" (quantised per row on the fly) or "float" (as they come)."""
    if activations not in ACTIVATIONS:
        raise QuantizationError(f"activations {activations!r}: expected one of {list(ACTIVATIONS)}")
    return activations


def quantize_weight(weight: torch.Tensor, scheme: str, group_size: int | None = None
                    ) -> tuple[torch.Tensor, torch.Tensor]:
    """weight (N, K) -> (qweight, scales): int8 (N, K) and fp32 (N,), or (N, K / G) with groups; int4 as uint8
    (N, K / 2) and fp32 (N, K / G). A row (or group) of zeros gets scale 1 (its q are 0)."""
    w = weight.detach().float()
    n, k = w.shape
    top = INT8_MAX if scheme == "int8" else INT4_MAX
    groups = w.view(n, k // (group_size or k), group_size or k)  # (N, K/G, G); one group a row without G
    scales = groups.abs().amax(dim=2) / top  # (N, K/G)
    scales = torch.where(scales > 0, scales, torch.ones_like(scales))
    q = torch.round(groups / scales[..., None]).clamp_(-top, top).view(n, k)  # (N, K)
    if scheme == "int8":
        return q.to(torch.int8), (scales if group_size else scales[:, 0])
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
    q = qweight.float() if scheme == "int8" else (unpack_int4(qweight) - INT4_OFFSET).float()  # (N, K)
    n, k = q.shape
    per_group = scales if scales.dim() == 2 else scales[:, None]  # (N, K/G); per row: one group
    return (q.view(n, per_group.shape[1], -1) * per_group[..., None]).view(n, k).to(dtype)


class QuantizedLinear(nn.Module):
    """nn.Linear with its weight stored in int8 or int4 (module docstring). Called as nn.Linear is."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, scheme: str = "int8",
                 group_size: int | None = None, device=None, activations: str = "int8") -> None:
        super().__init__()
        self.group_size = check_scheme(scheme, group_size, in_features)
        self.activations = check_activations(activations)
        self.in_features, self.out_features, self.scheme = in_features, out_features, scheme
        if scheme == "int8":
            qweight = torch.zeros(out_features, in_features, dtype=torch.int8, device=device)
            scales = torch.ones(out_features, *([in_features // group_size] if group_size else []), device=device)
        else:
            if in_features % 2:
                raise QuantizationError(f"int4 packs two inputs a byte: {in_features} inputs is odd")
            qweight = torch.full((out_features, in_features // 2), INT4_OFFSET * 0x11, dtype=torch.uint8,
                                 device=device)
            scales = torch.ones(out_features, in_features // group_size, device=device)
        self.register_buffer("qweight", qweight)
        self.register_buffer("scales", scales)
        self.bias = nn.Parameter(torch.zeros(out_features, device=device), requires_grad=False) if bias else None
        # The bias stays float32 (zoo::gemv_int8 adds it before rounding to x's dtype).
        self._copies: dict = {}  # made on first use: {("int4", dtype): (source key, tiles, scales), "row_sums": ...}

    @classmethod
    def from_linear(cls, linear: nn.Linear, scheme: str = "int8", group_size: int | None = None,
                    name: str = "the layer", activations: str = "int8") -> QuantizedLinear:
        """The quantised copy of `linear` (its bias kept in full precision, frozen like the weight)."""
        check_scheme(scheme, group_size, linear.in_features, name)
        layer = cls(linear.in_features, linear.out_features, linear.bias is not None, scheme, group_size,
                    device=linear.weight.device, activations=activations)
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
        """Which path a call on x takes (the module docstring's table; why_not says why not a kernel)."""
        return self._route(x)[0]

    def why_not(self, x: torch.Tensor) -> str | None:
        """Why no integer kernel takes x, in one line (the weight is dequantised); None where one does."""
        return self._route(x)[1]

    def _route(self, x: torch.Tensor) -> tuple[str, str | None]:
        """(the path a call on x takes, why that is no integer kernel: None where it is one)."""
        if torch.is_grad_enabled():
            return "dequantize", "gradients are on: F.linear on the dequantised weight carries them to the input"
        if not x.is_cpu:
            return "dequantize", f"the integer kernels here are CPU ones; x is on {x.device}"
        dtype = compute_dtype(x, x)
        if dtype not in (torch.float32, torch.bfloat16):
            return "dequantize", f"they compute in float32 or bfloat16, not {dtype}"
        if x.numel() == 0:
            return "dequantize", "x is empty"
        rows, compiling = x.numel() // self.in_features, torch.compiler.is_compiling()
        ours = rows <= gemv.MAX_ROWS and gemv.loaded()
        if self.activations == "int8":
            if self.group_size is not None and gemv.loaded():  # any rows: 8 at a time beat torch's int4 kernel
                return "gemv_grouped", None
            if self.scheme == "int8" and self.group_size is None:
                small = rows == 1 or rows * self.in_features * self.out_features <= OURS_MAX_WORK
                if ours and (small or compiling or not _GEMM_HAS_AMX):
                    return "gemv_int8", None
                if _INT_MM_FAST:
                    return "int_mm", None
                if gemv.loaded():
                    return ("gemv_int8" if rows <= INT8_CHUNKED_ROWS else "gemm_int8"), None
                unbuilt = gemv.reason(torch.float32)
                return "dequantize", ("torch's int8 GEMM is slow on a CPU without AVX512-VNNI or AMX, and the zoo's "
                                      f"own int8 kernels are not loaded{f' ({unbuilt})' if unbuilt else ''}: "
                                      "float32 on the dequantised weight is faster")
        if self.scheme == "int8" and self.group_size is not None:
            return "dequantize", (f"int8 in groups of {self.group_size} runs as integers in zoo::gemv_grouped only, "
                                  f"which multiplies int8 activations and is "
                                  f"{'not built' if self.activations == 'int8' else 'not asked for'}")
        if self.scheme == "int4":  # float activations, or zoo::gemv_grouped not built: torch's int4 kernel
            if self.out_features % INT4_TILE:
                return "dequantize", (f"torch's int4 kernel tiles {INT4_TILE} outputs; {self.out_features} is not "
                                      "a multiple (and zoo::gemv_grouped, which takes any, multiplies int8 activations "
                                      f"and is {'not built' if self.activations == 'int8' else 'not asked for'})")
            if compiling and ("int4", dtype) not in self._copies:
                return "dequantize", ("torch's int4 tiles were not made before compiling (prepare(), which "
                                      "zoo.quantize and load_pretrained call)")
            return "int4", None
        if ours and few_rows(x):
            return "gemv_float", None
        if dtype == torch.bfloat16:
            return "int8", None
        return "dequantize", (f"float activations in float32 over {rows} rows: torch's weight-only int8 kernel "
                              "computes in bfloat16 (autocast or bf16 inputs reach it)")

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x (..., K) -> (..., N), in autocast's dtype where it is on, else x's."""
        dtype = compute_dtype(x, x)  # autocast's, else x's own
        kernel = self.kernel(x)
        if kernel.startswith(("gemv_", "gemm_")):  # ours: float32 scales and bias, the output in x's dtype
            args = (x.to(dtype), self.qweight, self.scales.float(), None if self.bias is None else self.bias.float())
            if kernel == "gemm_int8":
                return gemv.gemm_int8(*args)
            linear = gemv.linear_grouped if kernel == "gemv_grouped" else gemv.linear_int8
            return linear(*args, "weight_only" if kernel == "gemv_float" else INT8_GEMV_MODE)
        bias = None if self.bias is None else self.bias.to(dtype)
        if kernel == "dequantize":
            return self._dequantized(x.to(dtype), bias, dtype)
        x2 = x.reshape(-1, self.in_features).to(dtype).contiguous()  # (R, K): the kernels read rows densely
        if kernel == "int_mm":
            return self._int_mm(x2.float(), bias).to(dtype).view(*x.shape[:-1], self.out_features)
        if kernel == "int8":
            out = torch._weight_int8pack_mm(x2, self.qweight, self.scales.to(dtype))  # (R, N)
        else:
            packed, scales_zeros = self._int4_layout(dtype)
            out = torch._weight_int4pack_mm_for_cpu(x2, packed, self.group_size, scales_zeros)  # (R, N)
        if bias is not None:
            out = out + bias
        return out.view(*x.shape[:-1], self.out_features)  # (..., N)

    def _dequantized(self, x: torch.Tensor, bias: torch.Tensor | None, dtype: torch.dtype) -> torch.Tensor:
        """F.linear on the dequantised weight. Without gradients, a weight of more than DEQUANTIZE_BLOCK values goes
        a block of outputs at a time, each block's product written into one output: dequantised whole, a large weight
        was a fresh allocation every call, each of its pages faulted in (DEQUANTIZE_BLOCK's figures)."""
        block = max(1, DEQUANTIZE_BLOCK // self.in_features)  # outputs a block
        if torch.is_grad_enabled() or torch.compiler.is_compiling() or self.out_features <= block:
            return F.linear(x, self.dequantize(dtype), bias)
        out = x.new_empty(*x.shape[:-1], self.out_features)
        for start in range(0, self.out_features, block):
            part = slice(start, start + block)
            weight = dequantize_weight(self.qweight[part], self.scales[part], self.scheme, dtype)
            out[..., part] = F.linear(x, weight, None if bias is None else bias[part])
        return out

    def _int_mm(self, x: torch.Tensor, bias: torch.Tensor | None) -> torch.Tensor:
        """x (R, K) fp32 -> (R, N): each row quantised to the levels between its own least and greatest value
        (x = c + d x_q, x_q in [-127, 127]), torch's int8 GEMM, then d (x_q q^T) s + c (sum_k q_nk) s + b.
        The centre c is a whole number of steps, so 0 is a level: a row of mostly zeros (a GELU's output) keeps
        them exact; with a centre between levels every zero moved alike and their errors added up (Whisper base's
        encoder fc2 inputs, 94% zeros: 17-21% output error, against ~1.2% now)."""
        low, high = x.amin(1, keepdim=True), x.amax(1, keepdim=True)  # (R, 1)
        step = (high - low) / (2 * INT8_MAX - 1)  # 253 steps: room for the centre's rounding within +-127
        step = torch.where(step > 0, step, torch.ones_like(step))
        center = torch.round((high + low) / 2 / step) * step
        xq = torch.round((x - center) / step).clamp_(-INT8_MAX, INT8_MAX).to(torch.int8)  # (R, K)
        out = torch._int_mm(xq, self.qweight.t()).float() * step * self.scales + center * self._row_sums()  # (R, N)
        return out if bias is None else out + bias

    def _source_key(self) -> tuple:
        return tuple((t.data_ptr(), t._version) for t in (self.qweight, self.scales, self.bias) if t is not None)

    def prepare(self) -> QuantizedLinear:
        """Make the kernel layouts a compiled step reads but cannot make (int4's tiles for torch's kernel, for fp32
        and bf16: float activations only, int8 ones never read them; int_mm's row sums) now: zoo.quantize and
        load_pretrained call it."""
        if (self.scheme == "int4" and self.activations == "float" and self.qweight.is_cpu
                and self.out_features % INT4_TILE == 0):
            for dtype in (torch.float32, torch.bfloat16):
                self._int4_layout(dtype)
        if self.scheme == "int8" and self.group_size is None and self.activations == "int8":
            self._row_sums()
        return self

    def _row_sums(self) -> torch.Tensor:
        """(N,) each weight row's integers summed, times its scale: _int_mm's centre term, made once per weight
        (summing the integers on every call read the whole weight a second time: as long as the GEMM at 8 rows)."""
        cached = self._copies.get("row_sums")
        if torch.compiler.is_compiling():  # prepare() made them; a graph reads them as made
            return cached[1] if cached is not None else self.qweight.sum(1, dtype=torch.int32).float() * self.scales
        key = self._source_key()
        if cached is None or cached[0] != key:
            with torch.no_grad():
                sums = self.qweight.sum(1, dtype=torch.int32).float() * self.scales.float()
            cached = self._copies["row_sums"] = (key, sums)
        return cached[1]

    def _int4_layout(self, dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
        """torch's int4 CPU kernel's tiles of qweight and its (K / G, N, 2) scales and zeros (zero 0: symmetric),
        made once per weight and dtype (remade when the weights change; read as made inside a compiled graph)."""
        cached = self._copies.get(("int4", dtype))
        if torch.compiler.is_compiling():
            return cached[1], cached[2]
        key = self._source_key()
        if cached is None or cached[0] != key:
            with torch.no_grad():
                packed = torch._convert_weight_to_int4pack_for_cpu(unpack_int4(self.qweight), 1)
                scales = self.scales.t().to(dtype)  # (K/G, N)
                scales_zeros = torch.stack([scales, torch.zeros_like(scales)], dim=-1).contiguous()
            cached = self._copies[("int4", dtype)] = (key, packed, scales_zeros)
        return cached[1], cached[2]

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_copies": {}}  # kernel layouts are remade, never pickled

def same_quantization(layers) -> bool:
    """Whether quantised layers store their weights alike (scheme, group size, activations, inputs): what
    concatenate_outputs needs."""
    return len({(m.scheme, m.group_size, m.activations, m.in_features, m.qweight.device) for m in layers}) == 1


def concatenate_outputs(layers) -> QuantizedLinear:
    """One QuantizedLinear whose outputs are `layers`' side by side (attention's q, k and v as one product): their
    integers, scales and biases concatenated along the outputs (a missing bias as zeros). The layers must be
    same_quantization."""
    if not same_quantization(layers):
        raise QuantizationError("only layers of one scheme, group size, activations and input width concatenate")
    first = layers[0]
    has_bias = any(m.bias is not None for m in layers)
    fused = QuantizedLinear(first.in_features, sum(m.out_features for m in layers), has_bias, first.scheme,
                            first.group_size, device=first.qweight.device, activations=first.activations)
    fused.qweight = torch.cat([m.qweight for m in layers])
    fused.scales = torch.cat([m.scales for m in layers])
    if has_bias:
        fused.bias = nn.Parameter(torch.cat([m.bias.detach().float() if m.bias is not None
                                             else torch.zeros(m.out_features, device=m.qweight.device)
                                             for m in layers]), requires_grad=False)
    return fused


class QuantizedEmbedding(nn.Module):
    """nn.Embedding with its table stored as QuantizedLinear stores a weight (a row a token: int8 with a scale a row,
    or in groups along the width; int4 in groups), looked up as rows of integers and dequantised, in the scales'
    dtype. A lookup reads one row a token, so this saves memory, not time; a head tied to the table shares its
    integers (share_integers). Inference only: the table has no gradient."""

    def __init__(self, num_embeddings: int, embedding_dim: int, scheme: str = "int8", group_size: int | None = None,
                 padding_idx: int | None = None, device=None) -> None:
        super().__init__()
        table = QuantizedLinear(embedding_dim, num_embeddings, False, scheme, group_size, device=device)
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        self.scheme, self.group_size = scheme, table.group_size
        self.register_buffer("qweight", table.qweight)
        self.register_buffer("scales", table.scales)

    @classmethod
    def from_embedding(cls, embedding: nn.Embedding, scheme: str = "int8", group_size: int | None = None,
                       name: str = "the embedding") -> QuantizedEmbedding:
        check_scheme(scheme, group_size, embedding.embedding_dim, name)
        layer = cls(embedding.num_embeddings, embedding.embedding_dim, scheme, group_size, embedding.padding_idx,
                    device=embedding.weight.device)
        qweight, scales = quantize_weight(embedding.weight, scheme, group_size)
        layer.qweight.copy_(qweight)
        layer.scales.copy_(scales)
        return layer

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        """ids (...) -> (..., D): the rows q * scale."""
        flat = ids.reshape(-1)
        rows = dequantize_weight(self.qweight[flat], self.scales[flat], self.scheme, self.scales.dtype)  # (R, D)
        return rows.view(*ids.shape, self.embedding_dim)

    def dequantize(self, dtype: torch.dtype = torch.float32) -> torch.Tensor:
        """The table these integers stand for, (V, D) in `dtype`."""
        return dequantize_weight(self.qweight, self.scales, self.scheme, dtype)

    def extra_repr(self) -> str:
        group = "" if self.group_size is None else f", group_size={self.group_size}"
        return f"{self.num_embeddings}, {self.embedding_dim}, scheme={self.scheme}{group}"


def share_integers(module: QuantizedLinear | QuantizedEmbedding, source: QuantizedLinear | QuantizedEmbedding) -> None:
    """Make `module` read `source`'s integers and scales (a head tied to its embedding table, two tables tied): one
    copy in memory and in the saved file."""
    if (source.qweight.shape, source.scales.shape) != (module.qweight.shape, module.scales.shape):
        raise QuantizationError(f"cannot tie a {tuple(module.qweight.shape)} quantised weight to "
                                f"{tuple(source.qweight.shape)} integers")
    module.qweight, module.scales = source.qweight, source.scales
