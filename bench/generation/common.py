"""What the generation sections share: their targets, prompts, and the model variants they time."""
from __future__ import annotations

import copy
import re

import torch

import zoo
from bench.report import yes_no
from zoo.generation import generate

TARGETS = {  # from the generation-performance issue
    "decode": {"gpt_tiny": 2.0, "gpt2": 1.2},  # ours / transformers tokens/s
    "bound": 0.80,        # ours / bandwidth bound, batch 1 fp32      } these three are set for gpt2 (memory-bound);
    "bf16": 1.8,          # ours bf16 / ours fp32 tokens/s, batch 1   } other models (--quick's gpt_tiny) show
    "context": 1.5,       # step cost at ~1000 / at ~100 (at most)    } no target
    "speculative": 1.5,   # speculative / plain greedy tokens/s (best k)
}
TARGET_MODEL = "gpt2"  # the model the bound / bf16 / context targets are set for

# Beside ours as created: zoo.pack_for_inference; generate(compile=True); both (packed layers inside the
# compiled step; batch-1 bf16 products go to zoo::gemv where the CPU has AVX512-BF16, backbones/inference/).
VARIANTS = ("packed", "compiled", "packed+compiled")
# One compiled graph per model structure, dtype, packing and batch: the full run needs more than dynamo's
# default 8 per code object, past which it would silently run the step eagerly. The benchmark scripts
# raise torch._dynamo.config.recompile_limit (formerly cache_size_limit) to this in main(); a library
# module sets no globals.
COMPILED_GRAPHS = 64


def prompt_ids(vocab_size: int, batch: int, length: int) -> torch.Tensor:
    return torch.randint(0, vocab_size, (batch, length), generator=torch.Generator().manual_seed(batch))


def packed_copy(model):
    """The same weights after zoo.pack_for_inference: the inference configuration we recommend."""
    return zoo.pack_for_inference(copy.deepcopy(model))


def dtype_variants(ours) -> dict:
    """{"fp32", "fp32 packed", "bf16", "bf16 packed"} -> model: ours in fp32 and bf16 weights, each as
    created and after zoo.pack_for_inference (the bound and bf16 sections time the same set)."""
    ours_bf16 = copy.deepcopy(ours).to(torch.bfloat16)
    return {"fp32": ours, "fp32 packed": packed_copy(ours), "bf16": ours_bf16, "bf16 packed": packed_copy(ours_bf16)}


def decode_fns(models: dict, variants: list[str], ids: torch.Tensor, new: int) -> dict:
    """{variant: generate call}: a variant ending in "compiled" decodes its model without that suffix
    (e.g. "fp32 packed+compiled" -> models["fp32 packed"]) with compile=True."""
    fns = {}
    for name in variants:
        base = re.sub(r"[ +]?compiled$", "", name)
        fns[name] = lambda m=models[base], c=name != base: generate(m, ids, new, compile=c)
    return fns


def target_cells(model: str, ok: bool, text: str) -> list[str]:
    """[target, met] where the target is set for `model` (TARGET_MODEL), else placeholders naming it."""
    return [text, yes_no(ok)] if model == TARGET_MODEL else [f"- ({text} for {TARGET_MODEL})", "-"]
