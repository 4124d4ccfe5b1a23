"""The memory-bandwidth bound of batch-1 decoding: this machine's bandwidth, the tokens/s it allows when
every weight is read once per token (the LM head reads the whole tied embedding), and ours as a %."""
from __future__ import annotations

import gc
import statistics

import torch

from bench.ceilings import bandwidth_probes
from bench.config import GenerationBench
from bench.generation.common import TARGETS, decode_fns, dtype_variants, prompt_ids, target_cells
from bench.machine import last_level_cache_bytes
from bench.report import table
from bench.timing import interleaved

VARIANTS = ("fp32", "fp32 packed", "fp32 compiled", "fp32 packed+compiled", "bf16", "bf16 packed",
            "bf16 packed+compiled")


def bytes_per_token(model) -> int:
    """Weight bytes one batch-1 decoding step reads: every parameter once (model.parameters() counts a
    tied embedding once, and the LM head reads all of it), except position tables, of which one row."""
    total = sum(p.numel() * p.element_size() for p in model.parameters())
    positions = getattr(model.embed, "positions", None)
    if positions is not None:
        w = positions.weight
        total -= (w.shape[0] - 1) * w.shape[1] * w.element_size()
    return total


@torch.no_grad()
def run(config: GenerationBench, ours) -> dict:
    """Ours at batch 1 (fp32 and bf16 weights) interleaved with the bandwidth probes, so that both see
    the same load from other processes; bound = the best probe's median GB/s / bytes read per token."""
    probes = bandwidth_probes(config.bandwidth_mb)
    models = dtype_variants(ours)
    ids, n = prompt_ids(ours.config.vocab_size, 1, config.gen_prompt), config.gen_new_tokens
    fns = {**decode_fns(models, list(VARIANTS), ids, n), **{name: fn for name, (fn, _) in probes.items()}}
    times = interleaved(fns, config.gen_warmup, config.gen_repeats)
    gb_s = {name: nbytes / statistics.median(times[name]) / 1e9 for name, (_, nbytes) in probes.items()}
    best_gb_s = {name: nbytes / min(times[name]) / 1e9 for name, (_, nbytes) in probes.items()}
    bandwidth = {"buffer_bytes": config.bandwidth_mb * 2**20, **{f"{k}_gb_s": v for k, v in gb_s.items()},
                 "best_gb_s": best_gb_s, "bound_gb_s": max(gb_s.values()),
                 "last_level_cache_bytes": last_level_cache_bytes()}
    rows = []
    for dtype in VARIANTS:
        nbytes = bytes_per_token(models[dtype.split()[0]])
        bound, tok_s = bandwidth["bound_gb_s"] * 1e9 / nbytes, n / statistics.median(times[dtype])
        rows.append({"dtype": dtype, "bytes_per_token": nbytes, "bound_tok_s": bound, "ours_tok_s": tok_s,
                     "fraction": tok_s / bound, "times": times[dtype]})
    del probes, models, fns
    gc.collect()
    print(f"  bound: {bandwidth['bound_gb_s']:.1f} GB/s -> {rows[0]['bound_tok_s']:.1f} tok/s; "
          + ", ".join(f"{r['dtype']} {r['fraction']:.0%}" for r in rows), flush=True)
    return {"bandwidth": bandwidth, "rows": rows}


def report(result: dict, config: GenerationBench) -> str:
    """result: run()'s, with "model" added."""
    bw, target = result["bandwidth"], TARGETS["bound"]
    lines = [
        f"\n### Memory-bandwidth bound, {result['model']} batch 1 (every weight read once per token)\n",
        f"Bandwidth on a {config.bandwidth_mb} MiB buffer, medians of {config.gen_repeats} calls interleaved "
        f"with ours: copy_ {bw['copy_gb_s']:.1f} GB/s (read + write), read-only sum {bw['read_gb_s']:.1f} GB/s, "
        f"matrix-vector {bw['matvec_gb_s']:.1f} GB/s (best single call {max(bw['best_gb_s'].values()):.1f}); "
        f"the bound uses the highest median, {bw['bound_gb_s']:.1f} GB/s. Ours: `generate`, batch 1, "
        f"{config.gen_prompt}-token prompt + {config.gen_new_tokens} new tokens (prefill included), timed in the "
        "same loop."]
    llc = bw["last_level_cache_bytes"]
    if llc:
        lines.append(f"The largest CPU cache reported is {llc / 2**20:.0f} MiB (on a VM, the host's, shared); "
                     "weights that fit in it can beat this DRAM bound.")
    lines.append("")
    lines.append("Ours as a share of the bound each probe gives: the highest (the target's), the matrix-vector "
                 "probe's and copy bandwidth's (copy_ counts bytes read and written).\n")

    def share(r: dict, gb_s: float) -> str:
        return f"{r['ours_tok_s'] / (gb_s * 1e9 / r['bytes_per_token']):.0%}"

    lines.append(table(
        ["weights", "MB read per token", "bound tok/s", "ours tok/s", "ours % of bound", "% of matvec bound",
         "% of copy bound", "target", "met"],
        [[r["dtype"], f"{r['bytes_per_token'] / 1e6:.1f}", f"{r['bound_tok_s']:.1f}", f"{r['ours_tok_s']:.1f}",
          f"**{r['fraction']:.0%}**", share(r, bw["matvec_gb_s"]), share(r, bw["copy_gb_s"]),
          *(target_cells(result["model"], r["fraction"] >= target, f">= {target:.0%}")
            if r["dtype"].startswith("fp32") else ["-", "-"])] for r in result["rows"]]))
    return "\n".join(lines)
