"""Benchmarks of our models against their references (transformers, timm), measured in one process,
interleaved, on the same weights; scripts/benchmark.py and scripts/benchmark_generation.py are their
command lines.

    ours, ref = reference_pair("gpt2")           # transformers model + its zoo.from_hf conversion
    times = interleaved({"ours": f, "ref": g}, warmup=2, repeats=10)
    row = summarize(times, work=batch * seq)     # medians, and ours' speed-up as the median over pairs

Load from other processes hits both sides alike, because the calls alternate (ABBA); `others_share`
says how busy the machine was meanwhile, `machine()` what it was. Speed targets live in the section
modules as ratios, never as timed tests.

    timing       interleaved, summarize, matmul_seconds (the Amdahl ceiling), autocast
    references   reference_pair, timm_pair, check_close: the other side, on the same weights
    machine      machine, cpu_seconds, others_share
    report       table, ratio_cells, machine_line: the Markdown (and recording(): the tables as data)
    document     each machine's full tables in benchmarks/<machine>/ (README.md, CSV; make bench)
    config, cli  the sections' runtime options; the generation flags both scripts take
    ceilings     the machine's matmul peaks and memory bandwidths, which MFU and the bounds are read against
    flops        analytic forward FLOPs of every family, from the config
    models       every preset: parameters, FLOPs, throughput per backend and dtype, ratio, MFU (models_*.py)
    attention    attend() per backend from 512 to 16k tokens, time and peak memory (attention_memory.py)
    forward, train, learning, vision, ast, llava, whisper, scale   ours vs the references (scripts/benchmark.py)
    translation, serving, quantized_accuracy, lora   the same for Marian, HTTP serving, int8/int4, LoRA steps
    generation/  decode, bound, bf16, context, speculative (scripts/benchmark_generation.py)
"""
from bench.machine import cpu_seconds, machine, others_share
from bench.references import REFERENCES, check_close, reference_pair, timm_pair
from bench.report import machine_line, ratio_cells, table
from bench.timing import DTYPES, MATMUL_OPS, autocast, ceiling, interleaved, matmul_seconds, summarize

__all__ = ["DTYPES", "MATMUL_OPS", "REFERENCES", "autocast", "ceiling", "check_close", "cpu_seconds", "interleaved",
           "machine", "machine_line", "matmul_seconds", "others_share", "ratio_cells", "reference_pair", "summarize",
           "table", "timm_pair"]
