"""Greedy decoding in bf16 against transformers in bf16 on the same weights: ours with bf16 weights
(`model.to(torch.bfloat16)`) as created, packed (zoo.pack_for_inference) and packed + compiled, against
transformers' model cast the same way, per model and batch, interleaved ABBA as the fp32 decode section.

bf16 rounds every product, and two implementations that sum in another order can pick another greedy token
where the top two logits are within a rounding, then decode different sequences from there. So the tokens
are checked before timing as in fp32, but a difference is recorded (the first new token where a side parts
from transformers), not an error: every side still decodes the same fixed number of new tokens.

Run only where oneDNN runs bf16 natively (AVX512-BF16 or AMX); elsewhere both sides would time its emulation.
"""
from __future__ import annotations

import copy
import gc

import torch

from backbones.inference.torch_private import mkldnn_bf16_supported
from bench.config import GenerationBench
from bench.generation.common import TARGETS, decode_fns, packed_copy, prompt_ids
from bench.generation.decode import best_of, new_token_differences, ref_generate, timed_row
from bench.report import table

VARIANTS = ("packed", "packed+compiled")  # beside ours as created; "bf16 packed+compiled" decodes "bf16 packed"
SIDES = {"ours": "bf16", **{v: f"bf16 {v}" for v in VARIANTS}}  # row key -> decode_fns name


def skip_reason() -> str | None:
    """Why this machine does not run the section, or None."""
    if mkldnn_bf16_supported():
        return None
    return ("oneDNN does not run bf16 natively on this CPU (it needs AVX512-BF16 or AMX): bf16 would be emulated, "
            "and both sides would time the emulation")


def run(config: GenerationBench, pairs: dict) -> dict:
    """{"rows": one per model and batch} (or {"skipped": why}). pairs: {model: reference_pair(model)}, fp32."""
    reason = skip_reason()
    if reason:
        print(f"  decode bf16: skipped ({reason})", flush=True)
        return {"skipped": reason}
    rows = []
    for name in config.gen_models:
        ours, ref = pairs[name]
        ours_bf16 = copy.deepcopy(ours).to(torch.bfloat16)
        models = {"bf16": ours_bf16, "bf16 packed": packed_copy(ours_bf16)}
        ref_bf16 = copy.deepcopy(ref).to(torch.bfloat16)
        rows += [run_batch(config, name, models, ref_bf16, batch) for batch in config.gen_batches]
        del ours_bf16, models, ref_bf16
        gc.collect()
    return {"rows": rows}


def run_batch(config: GenerationBench, name: str, models: dict, ref, batch: int) -> dict:
    ids = prompt_ids(models["bf16"].config.vocab_size, batch, config.gen_prompt)
    new = config.gen_new_tokens
    fns = {**decode_fns(models, list(SIDES.values()), ids, new), "ref": lambda: ref_generate(ref, ids, new)}
    differences = {}
    row, first_call = timed_row(config, f"decode bf16 {name} batch {batch}", fns, SIDES, ids, differences)
    return {"model": name, "batch": batch, **row, "compile_s": first_call[SIDES["packed+compiled"]],
            # {row key: [row, new token] where its tokens first part from transformers', or None}
            "first_difference": new_token_differences(differences, SIDES, ids.shape[1])}


def difference_cell(row: dict, new: int) -> str:
    """"ours, packed, packed+compiled": "none" where a side's tokens equal transformers', else the first new
    token (counted from 0) where they part, and in which row of the batch."""
    at = row["first_difference"]
    return ", ".join("none" if at[k] is None else f"{at[k][1]} of {new} (row {at[k][0]})" for k in SIDES)


def report(result: dict, config: GenerationBench) -> str:
    new = config.gen_new_tokens
    head = (f"\n### Greedy decoding in bf16, {config.gen_prompt}-token prompt + {new} new tokens (prefill included): "
            "ours with bf16 weights (`model.to(torch.bfloat16)`) vs transformers' model `.to(torch.bfloat16)` on the "
            f"same weights; {config.gen_repeats} interleaved calls per side, medians; ours/ref is the median over "
            "pairs\n")
    if "skipped" in result:
        return head + f"\nSkipped on this machine: {result['skipped']}."
    return "\n".join([
        head,
        "calls as in the fp32 table; packed: after `zoo.pack_for_inference` (batch-1 bf16 products go to zoo::gemv "
        "where the CPU has AVX512-BF16); packed+compiled: that with `generate(..., compile=True)` (its first call, "
        "which compiles, is not timed: see the last column); target: the fp32 table's. bf16 greedy tokens may part "
        "between implementations (near-tied logits round apart): checked before timing, and the first new token "
        "where each side's differ from transformers' (counted from 0, and in which row of the batch) is listed "
        "instead of stopping the run\n",
        table(["model", "batch", "ours bf16 new tok/s", *(f"{v} bf16 new tok/s" for v in VARIANTS),
               "transformers bf16 new tok/s", "ours/ref (IQR)", *(f"{v}/ref (IQR)" for v in VARIANTS), "target",
               "met", "first new token differing (ours, packed, packed+compiled)", "first compiled call"],
              [[r["model"], r["batch"], f"{r['ours_tok_s']:,.1f}", *(f"{r[v]['ours_tok_s']:,.1f}" for v in VARIANTS),
                f"{r['ref_tok_s']:,.1f}", *best_of(r, TARGETS["decode"].get(r["model"], 1.0), VARIANTS),
                difference_cell(r, new), f"{r['compile_s']:.0f} s"] for r in result["rows"]])])
