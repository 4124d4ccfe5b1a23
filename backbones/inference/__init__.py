"""CPU inference: packing a model's layers for the CPU's GEMM libraries, and our few-row kernel, zoo::gemv.

- packing.py: `pack_for_inference(model)`, which swaps nn.Linear and the blocks' input projections for
  packed layers (PackedLinear, FusedInputProjections) and sets the `zoo_cpu` attention backend on the
  attention layers of the model it packs;
- kernels.py: which kernel serves a product of R rows (the choice table) and the weight copies for it;
- gemv.py + csrc/gemv.cpp: zoo::gemv, our kernel for products of 1 to 8 rows (bf16 on AVX512-BF16, fp32 on
  AVX2); gemv.py also builds and loads the other zoo operators;
- attention_kernel.py: the `zoo_cpu` backend, with csrc/attention.cpp (zoo::decode_attention, a few query rows
  over a long cache, fp32 or bf16, AVX2) and csrc/attention_bf16.cpp (zoo::bf16_attention, many query rows in
  bf16 on AVX512-BF16 CPUs without AMX: encoders, prompts, and the forward of bf16 training before torch's
  flash backward);
- torch_private.py: the private torch APIs the above use, listed with the torch version they were checked on.
"""
from backbones.inference.packing import FusedInputProjections, PackedLinear, pack_for_inference

__all__ = ["FusedInputProjections", "PackedLinear", "pack_for_inference"]
