"""bf16 weights (`model.to(torch.bfloat16)`) against fp32 at batch 1: as created, both packed, both
packed and compiled, six runs interleaved."""
from __future__ import annotations

import gc

from bench.config import GenerationBench
from bench.generation.bound import bytes_per_token
from bench.generation.common import TARGETS, decode_fns, dtype_variants, prompt_ids, target_cells
from bench.report import table
from bench.timing import interleaved, summarize

SUFFIXES = ("", " packed", " packed+compiled")


def run(config: GenerationBench, ours) -> dict:
    models = dtype_variants(ours)
    ids = prompt_ids(ours.config.vocab_size, 1, config.gen_prompt)
    new = config.gen_new_tokens
    fns = decode_fns(models, [f"{d}{s}" for s in SUFFIXES for d in ("fp32", "bf16")], ids, new)
    out = {k: fn()[0, ids.shape[1]:] for k, fn in fns.items()}
    times = interleaved(fns, config.gen_warmup, config.gen_repeats)
    rows = []
    for suffix in SUFFIXES:
        agree = int((out["bf16" + suffix] == out["fp32" + suffix]).cumprod(0).sum())
        pair = summarize(times, new, ours="bf16" + suffix, ref="fp32" + suffix)
        rows.append({"variant": suffix.strip() or "as created", **pair,
                     "leading_tokens_equal_fp32": agree})
    print("  bf16: " + ", ".join(f"{r['variant']} {r['ours_tok_s']:.1f} tok/s vs fp32 {r['ref_tok_s']:.1f}"
                                 for r in rows), flush=True)
    result = {"rows": rows, "bf16_bytes_per_token": bytes_per_token(models["bf16"])}
    del models, fns
    gc.collect()
    return result


def report(result: dict, config: GenerationBench) -> str:
    """result: run()'s, with "model" added."""
    model, new, target = result["model"], config.gen_new_tokens, TARGETS["bf16"]
    head = (f"\n### bf16 weights (`model.to(torch.bfloat16)`), {model} batch 1, {new} new tokens; "
            f"{config.gen_repeats} interleaved calls per model (fp32 and bf16, each as created, packed, and packed "
            "+ compiled)\n")
    return head + "\n" + table(
        ["model", "variant", "ours fp32 tok/s", "ours bf16 tok/s", "bf16/fp32 (IQR)", "target", "met",
         "leading tokens equal to fp32"],
        [[model, r["variant"], f"{r['ref_tok_s']:.1f}", f"{r['ours_tok_s']:.1f}",
          f"**{r['ratio']:.2f}x** ({r['pair_ratio_iqr'][0]:.2f}-{r['pair_ratio_iqr'][1]:.2f})",
          *target_cells(model, r["ratio"] >= target, f">= {target}x"),
          f"{r['leading_tokens_equal_fp32']} / {new}"] for r in result["rows"]])
