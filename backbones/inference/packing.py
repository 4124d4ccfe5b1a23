"""Inference packing: swap a model's layers for ones that keep weight copies laid out for the CPU's GEMMs.

    model = pack_for_inference(model)  # every nn.Linear, and the blocks' input projections
    with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16):
        model(x)                       # no per-call weight cast; oneDNN's packed GEMM

As quantisation libraries do, packing replaces modules; the blocks read no flag and know nothing of it:

- every plain nn.Linear becomes a PackedLinear: an nn.Linear subclass holding the SAME Parameter
  objects (tied weights stay tied; state_dict keys and values are unchanged) whose calls without
  gradients go through kernels.InferenceWeights (which kernel, which copy, and why: kernels.py);
- every InputProjections (backbones/precision.py: attention's q/k/v, SwiGLU's gate/up) becomes a
  FusedInputProjections, which runs them as ONE product over their concatenated weights: decoding a
  small model is bound by per-call overhead, and one GEMM costs less than three. LoRA-adapted projections
  (backbones/lora.py) join it with their frozen weights, and each adds its low-rank term after;
- where zoo::gemv runs here, every MultiHeadAttention left on backend "auto" is set to "zoo_cpu", our CPU
  attention kernels (attention_kernel.py); models that were not packed keep their own backends.

`enabled=False` swaps all three back. Calls that need gradients take nn.Linear's path, and copies are built
lazily on the first call without them; they are never saved or pickled (a copied or unpickled packed
model rebuilds them). Inside torch.compile the compiler picks its own GEMM layouts, so packed layers
make nn.Linear's call there, except products of 1 to kernels.GEMV_ROWS rows, which stay on zoo::gemv: an
operator the compiler calls, so a packed model keeps it inside `generate(compile=True)`.

Legend: N output features, K input features.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from backbones.attention import MultiHeadAttention
from backbones.inference import attention_kernel
from backbones.inference import gemv as gemv_kernel
from backbones.inference.kernels import FusedWeights, InferenceWeights, few_rows
from backbones.inference.torch_private import module_parameters
from backbones.lora import LoRALinear, LoRAQuantizedLinear, LowRankAdapter
from backbones.modules import replace_module
from backbones.precision import InputProjections
from backbones.quantized import QuantizedLinear, concatenate_outputs, same_quantization


class PackedLinear(nn.Linear):
    """nn.Linear whose calls without gradients go through its inference copies (`self.inference`)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None, *,
                 use_gemv: bool | None = False) -> None:
        super().__init__(in_features, out_features, bias, device, dtype)
        self.inference = InferenceWeights(use_gemv)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x (..., K) -> (..., N), as F.linear up to summation order."""
        if torch.is_grad_enabled():
            return F.linear(x, self.weight, self.bias)
        if torch.compiler.is_compiling():  # the compiler picks GEMM layouts; zoo::gemv is an op it calls
            if self.inference.gemv and few_rows(x) and gemv_kernel.applies(x, self.weight, self.bias):
                return gemv_kernel.linear(x, self.weight, self.bias)
            return F.linear(x, self.weight, self.bias)
        p = module_parameters(self)  # cheaper than .weight/.bias, which go through Module.__getattr__
        return self.inference(x, p["weight"], p["bias"])  # (..., N)


class FusedInputProjections(InputProjections):
    """InputProjections as one product in eager calls without gradients (`self.fused` over float weights, a
    concatenated QuantizedLinear over quantised ones); else each layer."""

    def __init__(self, use_gemv: bool | None = False) -> None:
        super().__init__()
        self.fused = FusedWeights(use_gemv)
        self.quantized = FusedQuantized()

    def forward(self, x: torch.Tensor, layers: tuple[nn.Linear, ...]) -> tuple[torch.Tensor, ...]:
        """x (..., K) -> one (..., N_i) output per layer."""
        if torch.is_grad_enabled() or torch.compiler.is_compiling():
            return super().forward(x, layers)
        kinds = {type(layer) for layer in layers}
        if kinds <= _FUSABLE:
            out = self.fused(x, layers)
        elif kinds <= _QUANTIZED and same_quantization(layers):
            out = self.quantized(layers)(x)
        else:
            return super().forward(x, layers)  # layers of different kinds run their own forward
        outs = out.split([layer.out_features for layer in layers], dim=-1)
        # Adapted projections (LoRA): their frozen weights join the fused product, their low-rank terms are added
        # one by one (each has its own rank and scaling).
        return tuple(part + layer.lora_delta(x).to(part.dtype) if isinstance(layer, LowRankAdapter) else part
                     for part, layer in zip(outs, layers))


class FusedQuantized:
    """Quantised layers that read one input (q, k, v; gate and up) as one QuantizedLinear over their integers
    concatenated along the outputs: one kernel call instead of three (gpt2's q/k/v at one row, int8, one thread:
    58 us against 85 us), at the cost of a second copy of their integers. Remade when any part changes."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.layer: QuantizedLinear | None = None

    def __call__(self, layers: tuple[QuantizedLinear, ...]) -> QuantizedLinear:
        key = tuple(layer._source_key() for layer in layers)
        if key != self.key:
            with torch.inference_mode(False), torch.no_grad():
                self.layer = concatenate_outputs(layers).prepare()
            self.key = key
        return self.layer

    def __getstate__(self) -> dict:
        return {"key": None, "layer": None}  # remade on first use


_FUSABLE = {nn.Linear, PackedLinear, LoRALinear}  # what FusedWeights concatenates: weight and bias as they are
_QUANTIZED = {QuantizedLinear, LoRAQuantizedLinear}  # what FusedQuantized concatenates: integers, scales, bias
_PACKING_STATE = ("inference", "fused", "quantized")  # what packing adds to a module's __dict__


def _swap(module: nn.Module, cls: type[nn.Module], **state) -> nn.Module:
    """A `cls` that is `module` in all but its class and packing state: the same Parameter objects, buffers,
    hooks and training flag (shared, not copied), without running cls.__init__ (which would allocate)."""
    new = cls.__new__(cls)
    new.__dict__.update((k, v) for k, v in vars(module).items() if k not in _PACKING_STATE)
    new.__dict__.update(state)
    return new


def _replacement(module: nn.Module, enabled: bool, use_gemv: bool | None) -> nn.Module:
    kind = type(module)  # exact types: a subclass (LoRA, parametrized, quantised) keeps its own forward
    if enabled and kind in (nn.Linear, PackedLinear):
        return _swap(module, PackedLinear, inference=InferenceWeights(use_gemv))
    if enabled and kind in (InputProjections, FusedInputProjections):
        return _swap(module, FusedInputProjections, fused=FusedWeights(use_gemv), quantized=FusedQuantized())
    if not enabled and kind is PackedLinear:
        return _swap(module, nn.Linear)
    if not enabled and kind is FusedInputProjections:
        return _swap(module, InputProjections)
    return module


def pack_for_inference(model: nn.Module, enabled: bool = True, *, gemv: bool = True) -> nn.Module:
    """Swap every nn.Linear in `model` for a PackedLinear and every InputProjections for a
    FusedInputProjections (enabled=False: swap them back, freeing the copies). Returns `model`, or its
    replacement where `model` itself is one of those layers.

    gemv: whether products of 1 to kernels.GEMV_ROWS rows (decoding at batch 1 or a small batch) go to
    zoo::gemv, our kernel, where the CPU runs it (bf16: AVX512-BF16; fp32: AVX2 and FMA; built once per
    machine on first use; gemv.reason() says why not), or stay with torch's kernels. With the kernel loaded,
    the attention layers left on "auto" also take our CPU attention backend (zoo_cpu). The kernel sums in
    another order than torch's (and, in bf16, treats denormals as zero), so the two can differ in the last bit.
    """
    if not isinstance(model, nn.Module):
        raise TypeError(f"pack_for_inference expects an nn.Module, got {type(model).__name__}")
    # zoo::gemv is decided (built) now for a model with CPU weights, so that compiled steps, which cannot
    # build it while tracing, call it too; a model without (meta, CUDA: None) decides at its first eager
    # few-row call on the CPU.
    use_gemv: bool | None = False
    if enabled and gemv:
        cpu = any(p.is_cpu and p.dtype in (torch.float32, torch.bfloat16) for p in model.parameters())
        use_gemv = gemv_kernel.available(torch.float32) if cpu else None
    replaced: dict[int, nn.Module] = {}  # id -> replacement: a module reached by two paths is swapped once

    def replace(module: nn.Module) -> nn.Module:
        if id(module) not in replaced:
            replaced[id(module)] = _replacement(module, enabled, use_gemv)
        return replaced[id(module)]

    for path, module in list(model.named_modules(remove_duplicate=False)):
        new = replace(module)
        if new is not module:  # the swapped layers have no children: parents are never swapped
            replace_module(model, path, new)
    _set_attention_backend(model, enabled and use_gemv is True)
    return replace(model)


def _set_attention_backend(model: nn.Module, kernels: bool) -> None:
    """Attention layers left on "auto" take our CPU kernels' backend (zoo_cpu) when packing with them;
    unpacking gives them "auto" back. A backend the user chose stays."""
    old, new = ("auto", attention_kernel.BACKEND) if kernels else (attention_kernel.BACKEND, "auto")
    for module in model.modules():
        if isinstance(module, MultiHeadAttention) and module.backend == old:
            module.backend = new
