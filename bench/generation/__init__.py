"""Text generation on CPU: our `zoo.generation` against transformers' `generate`, one module per section
(each times and returns its measurements, and writes its Markdown table with the targets beside it):

    decode       greedy decoding throughput, ours (as created, packed, compiled) vs transformers
    decode_bf16  the same in bf16: ours (as created, packed, packed+compiled) vs transformers in bf16
    quantized    ours int8 and int4 (packed, compiled) vs our bf16, CTranslate2 int8 and transformers
    bound        this machine's memory bandwidth and the batch-1 tokens/s it allows; ours as a %
    bf16         our decoding with bf16 weights vs our fp32, batch 1
    context      one cached decoding step at position ~1000 vs ~100
    speculative  per family (gpt, llama, whisper), a trained small draft and a larger target: vs plain greedy

    results = run(GenerationBench(...))       # prints progress lines
    print(report(results, config))
"""
from __future__ import annotations

import gc
import time

import torch

from bench.config import GenerationBench
from bench.generation import bf16, bound, context, decode, decode_bf16, quantized, speculative
from bench.machine import cpu_seconds, machine, others_share
from bench.references import reference_pair
from bench.report import machine_line

SECTIONS = ("decode", "decode_bf16", "quantized", "bound", "bf16", "context", "speculative")


def warn_if_busy() -> float:
    """The CPU share other processes use over one second, with a warning when it will slow the run down."""
    probe = cpu_seconds()
    time.sleep(1.0)
    busy = others_share(probe)
    if busy > 0.25 and torch.get_num_threads() > 1:
        print(f"Warning: other processes are using {busy:.0%} of the CPUs. With {torch.get_num_threads()} torch "
              "threads each parallel op waits for a thread that shares a core with them: decoding and training run "
              "several times slower (both sides alike, but the run takes much longer). --threads 1 avoids that.",
              flush=True)
    return busy


def run(config: GenerationBench) -> dict:
    """The sections in config.gen_sections; every measurement, by section. bound, bf16 and context use
    the last of config.gen_models."""
    results = {"machine": machine(), "others_cpu_share_at_start": warn_if_busy()}
    start, wall = cpu_seconds(), time.perf_counter()
    sections, big = config.gen_sections, config.gen_models[-1]
    # No inference_mode around the sections: generate() runs as a user calls it (it uses no_grad itself).
    pairs = {}
    if {"decode", "decode_bf16", "quantized", "bound", "bf16", "context"} & set(sections):
        pairs = {name: reference_pair(name) for name in config.gen_models}
    if "decode" in sections:
        results["decode"] = decode.run(config, pairs)
    if "decode_bf16" in sections:
        results["decode_bf16"] = decode_bf16.run(config, pairs)
    if "quantized" in sections:
        results["quantized"] = quantized.run(config, pairs)
    for name, section in (("bf16", bf16), ("bound", bound), ("context", context)):
        if name in sections:
            results[name] = {**section.run(config, pairs[big][0]), "model": big}
    del pairs
    gc.collect()
    if "speculative" in sections:
        results["speculative"] = speculative.run(config)
    results["others_cpu_share"] = others_share(start)
    results["wall_s"] = time.perf_counter() - wall
    return results


def report(results: dict, config: GenerationBench) -> str:
    """The Markdown of the sections in `results`, in SECTIONS order, and the machine line."""
    parts = [module.report(results[name], config)
             for name, module in (("decode", decode), ("decode_bf16", decode_bf16), ("quantized", quantized),
                                  ("bound", bound), ("bf16", bf16),
                                  ("context", context), ("speculative", speculative)) if results.get(name)]
    share = results["others_cpu_share"]
    parts.append(f"\n{machine_line(results['machine'], share)}; generation benchmark took {results['wall_s']:.0f} s")
    if share > 0.1:
        parts.append("Warning: other processes were busy; the interleaved ratios stay comparable, but absolute "
                     "numbers (and the % of the bandwidth bound) are low and noisier.")
    return "\n".join(parts)
