#!/usr/bin/env python
"""Benchmark text generation on CPU: our `zoo.generation` against transformers' `generate`.

Sections (each prints a Markdown table with its targets beside the numbers; the code is bench/generation/):

1. decode   greedy decoding throughput (new tokens / s, prefill included), ours (as created, packed,
            compiled) vs transformers, same weights (a random-weight GPT2LMHeadModel converted with
            `zoo.from_hf`), outputs checked identical first; interleaved, medians.
2. decode_bf16  the same with bf16 weights on both sides (ours as created, packed, packed+compiled vs
            transformers cast to bf16), where oneDNN runs bf16 natively; tokens may part in bf16 (reported).
3. bound    this machine's memory bandwidth, and the tokens/s it allows at batch 1 when every
            weight is read once per token (the LM head reads the whole tied embedding); ours as a %.
4. bf16     our decoding with bf16 weights vs our fp32, batch 1.
5. context  the cost of one cached decoding step at position ~1000 vs ~100 (`Session.feed`).
6. speculative  for GPT and LLaMA (--spec-families), a {family}_tiny draft and a larger target of the
            same family trained on the shipped KJV extract by the engine (scripts/train_text.py, run
            as a child process); for Whisper a whisper_micro draft and a deeper-decoder target trained on
            the speech set (scripts/train_audio.py); greedy speculative vs plain greedy target decoding.

    python scripts/benchmark_generation.py              # the full run (35-50 min on 2 idle cores, compiling included)
    python scripts/benchmark_generation.py --quick      # smoke test, < 60 s
    python scripts/benchmark.py --only generation speculative   # the same from the main benchmark, where
                                                       # speculative is its own section (merged per family)

The fairness rules are scripts/benchmark.py's; both time with bench.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/ sits at the repository root, not installed

from bench import generation
from bench.cli import add_generation_arguments, generation_config
from bench.generation.common import COMPILED_GRAPHS
from bench.report import run_cli, write_json


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_generation_arguments(p)
    p.add_argument("--quick", action="store_true", help="gpt_tiny only, short runs: a smoke test (< 60 s)")
    p.add_argument("--threads", type=int, default=torch.get_num_threads(),
                   help=f"torch intra-op threads (default {torch.get_num_threads()})")
    p.add_argument("--json", metavar="OUT", help="also write every measurement here")
    args = p.parse_args(argv)
    generation_config(args)  # fills the unset flags from the --quick or full preset
    return args


def main(argv=None) -> dict:
    args = parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, COMPILED_GRAPHS)
    config = generation_config(args)
    results = generation.run(config)
    print(generation.report(results, config))
    write_json(args.json, results)
    return results


if __name__ == "__main__":
    run_cli(main)
