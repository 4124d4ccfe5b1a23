"""CPU inference: packing a model's layers for the CPU's GEMM libraries, and zoo::gemv, our one-row kernel.

- packing.py: `pack_for_inference(model)`, which swaps nn.Linear and the blocks' input projections for
  packed layers (PackedLinear, FusedInputProjections);
- kernels.py: which kernel serves a product of R rows (the choice table) and the weight copies for it;
- gemv.py + csrc/gemv.cpp: zoo::gemv, our kernel for one-row products (bf16 on AVX512-BF16, fp32 on
  AVX2); gemv.py also builds and loads the other zoo operators;
- attention_kernel.py + csrc/attention.cpp: zoo::decode_attention, a few query rows over a long cache (fp32
  or bf16, AVX2), which attend() uses for decoding once the operators are loaded; + csrc/attention_bf16.cpp:
  zoo::bf16_attention, many query rows in bf16 (AVX512-BF16), which attend() uses for bf16 encoders and
  prompts, and in bf16 training as the forward before torch's flash backward, on CPUs without AMX;
- torch_private.py: the private torch APIs the above use, listed with the torch version they were checked on.
"""
from backbones.inference.packing import FusedInputProjections, PackedLinear, pack_for_inference

__all__ = ["FusedInputProjections", "PackedLinear", "pack_for_inference"]
