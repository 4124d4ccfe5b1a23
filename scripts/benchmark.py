"""Benchmark our models against transformers on CPU: forward throughput, one training step, and
learning (gpt_tiny trained by our engine as ours and as transformers' GPT2LMHeadModel); and Whisper
against openai-whisper, transformers and faster-whisper (CTranslate2).

Fair by construction: the transformers model is built from a config with random
weights and converted with `zoo.from_hf`, so both sides hold the same weights;
their outputs are checked to agree before anything is timed. Both run in the
same process, interleaved (ours, ref, then ref, ours, ...) so that load from
other processes hits both alike, and we report medians after warm-up. Dropout
is off on both sides (so the training losses can be compared too).

The "ceiling" column is Amdahl's bound on the ratio: the reference's median time
over the time it spends in GEMMs and attention kernels (torch.profiler). Any
implementation that runs the same arithmetic with the same kernels is slower than
those kernels alone, so a target above the ceiling is out of reach by design.

    python scripts/benchmark.py                    # the README tables (about 10 minutes on 2 cores, and
                                                   # about 20 more for whisper)
    python scripts/benchmark.py --quick            # smoke test on the tiny presets, < 60 s
    python scripts/benchmark.py --only forward --dtypes bf16 --batch 8 --seq 256 --json bench.json
    python scripts/benchmark.py --only whisper --whisper-models tiny --whisper-tokens 32

Prints Markdown tables ready to paste into the README. The sections are zoo/bench/ (ceilings: the machine's
matmul and memory-bandwidth figures; forward, train, learning, vision, ast, llava, generation/, whisper, scale);
this script parses the flags, runs them and prints their tables.
"""
from __future__ import annotations

import argparse

import torch
import transformers

from zoo.bench import (DTYPES, cpu_seconds, forward, generation, learning, machine, machine_line, others_share, train,
                       vision)
from zoo.bench import ast as ast_bench
from zoo.bench import ceilings
from zoo.bench import llava as llava_bench
from zoo.bench import scale as scale_bench
from zoo.bench import whisper as whisper_bench
from zoo.bench.cli import add_generation_arguments, generation_config
from zoo.bench.config import ModelBench
from zoo.bench.generation.common import COMPILED_GRAPHS
from zoo.bench.report import run_cli, write_json
from zoo.bench.whisper_refs import SHAPES as WHISPER_SHAPES

SECTIONS = ["ceilings", "forward", "train", "learning", "vision", "ast", "llava", "generation", "whisper", "scale"]
# Shapes and repeats: the README run, and --quick (explicit flags win over either).
FULL = {"models": ["gpt2", "bert_base"], "batch": 4, "seq": 128, "warmup": 2, "repeats": 10, "train_repeats": 8,
        "whisper_models": ["tiny", "base"], "whisper_tokens": 64, "whisper_batches": [1, 8], "whisper_warmup": 0,
        "whisper_repeats": 5, "whisper_compile": True, "whisper_files": 16, "whisper_file_tokens": 24,
        "whisper_long_s": 150, "whisper_transcribe_repeats": 2}
QUICK = {"models": ["gpt_tiny", "bert_tiny"], "batch": 2, "seq": 32, "warmup": 1, "repeats": 3, "train_repeats": 3,
         "whisper_models": ["micro"], "whisper_tokens": 8, "whisper_batches": [1, 2], "whisper_warmup": 0,
         "whisper_repeats": 2, "whisper_compile": False, "whisper_files": 3, "whisper_file_tokens": 4,
         "whisper_long_s": 45, "whisper_transcribe_repeats": 1}


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="+", choices=SECTIONS, default=SECTIONS, help="sections to run (default all)")
    p.add_argument("--learn-steps", type=int, default=600, help="learning: steps per model (as make demo)")
    p.add_argument("--models", nargs="+", help=f"presets (default {FULL['models']}; --quick: {QUICK['models']})")
    p.add_argument("--dtypes", nargs="+", choices=list(DTYPES), default=["fp32", "bf16"],
                   help="fp32, and/or bf16 under torch.autocast (default both)")
    p.add_argument("--batch", type=int, help=f"sequences per batch (default {FULL['batch']})")
    p.add_argument("--seq", type=int, help=f"tokens per sequence (default {FULL['seq']})")
    p.add_argument("--attention-mask", choices=["none", "ones"], default="none",
                   help="pass no mask (default), or an all-ones (B, T) mask as a tokenizer would")
    p.add_argument("--warmup", type=int, help=f"untimed calls per side (default {FULL['warmup']})")
    p.add_argument("--repeats", type=int, help=f"timed forward calls per side (default {FULL['repeats']})")
    p.add_argument("--train-repeats", type=int, help=f"timed training steps per side (default {FULL['train_repeats']})")
    p.add_argument("--fused-adamw", action=argparse.BooleanOptionalAction, default=True,
                   help="AdamW(fused=True) on both sides, as zoo/training/engine.py uses (default on)")
    p.add_argument("--threads", type=int, default=torch.get_num_threads(),
                   help=f"torch intra-op threads (default {torch.get_num_threads()})")
    p.add_argument("--quick", action="store_true", help="tiny presets, tiny shapes, few repeats: a smoke test")
    p.add_argument("--json", metavar="OUT", help="also write every measurement here")
    add_generation_arguments(p)
    add_whisper_arguments(p)
    args = p.parse_args(argv)
    for key, default in (QUICK if args.quick else FULL).items():
        if getattr(args, key) is None:
            setattr(args, key, default)
    return args


def add_whisper_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("whisper benchmark (--only whisper)")
    g.add_argument("--whisper-models", nargs="+", choices=sorted(WHISPER_SHAPES),
                   help=f"shapes (default {FULL['whisper_models']}; --quick: {QUICK['whisper_models']}); the first "
                        "also runs the parts and transcription tables")
    g.add_argument("--whisper-tokens", type=int, help="forced greedy tokens per 30 s window "
                   f"(default {FULL['whisper_tokens']})")
    g.add_argument("--whisper-batches", nargs="+", type=int, help="encoder / decoder batch sizes "
                   f"(default {FULL['whisper_batches']})")
    g.add_argument("--whisper-warmup", type=int, help=f"untimed calls per side (default {FULL['whisper_warmup']})")
    g.add_argument("--whisper-repeats", type=int, help=f"timed calls per side (default {FULL['whisper_repeats']})")
    g.add_argument("--whisper-compile", action=argparse.BooleanOptionalAction,
                   help="also the compiled decoding steps (default on; --quick: off; ~30 s to compile each)")
    g.add_argument("--whisper-files", type=int, help=f"short files to transcribe (default {FULL['whisper_files']})")
    g.add_argument("--whisper-file-tokens", type=int, help="forced tokens per short file "
                   f"(default {FULL['whisper_file_tokens']})")
    g.add_argument("--whisper-long-s", type=int, help=f"seconds of long audio (default {FULL['whisper_long_s']})")
    g.add_argument("--whisper-transcribe-repeats", type=int, help="timed transcriptions per side "
                   f"(default {FULL['whisper_transcribe_repeats']})")
    g.add_argument("--whisper-dir", help="write the transformers and CTranslate2 model directories here "
                   "(default: a temporary folder)")


def report(results: dict, config: ModelBench) -> str:
    """The machine line and the forward and train tables."""
    share = results["others_cpu_share"]
    parts = ["\n" + machine_line(results["machine"], share)]
    if share > 0.1:
        parts.append("Warning: other processes were busy; ours and transformers ran interleaved, so the ratios stay "
                     "comparable, but the absolute numbers are low and noisier.")
    if results.get("forward"):
        parts.append(forward.report(results["forward"], config))
    if results.get("train"):
        parts.append(train.report(results["train"], config))
    return "\n".join(parts)


def main(argv=None) -> dict:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    transformers.logging.set_verbosity_error()
    config = ModelBench.from_args(args)
    results = {"machine": machine(), "settings": vars(args)}  # the generation flags are filled in if it runs
    start = cpu_seconds()
    if "ceilings" in args.only:  # first: the machine's own figures, before the models fill memory
        results["ceilings"] = ceilings.run(quick=args.quick)
        print(ceilings.tables(results["ceilings"]))
    for name, section in (("forward", forward), ("train", train)):
        if name in args.only:
            results[name] = [row for model in config.models for row in section.run(model, config)]
    if {"forward", "train"} & set(args.only):  # (a share over no time at all would be noise)
        results["others_cpu_share"] = others_share(start)
        print(report(results, config))
    if "learning" in args.only:
        results["learning"] = learning.run(40 if args.quick else args.learn_steps)
        print(learning.report(results["learning"]))
    if "vision" in args.only:
        results["vision"] = vision.run(config, quick=args.quick)
        print(vision.report(results["vision"]))
    if "ast" in args.only:
        results["ast"] = ast_bench.run(config, quick=args.quick)
        print(ast_bench.report(results["ast"]))
    if "llava" in args.only:
        torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, COMPILED_GRAPHS)
        results["llava"] = llava_bench.run(config, quick=args.quick)
        print(llava_bench.report(results["llava"]))
    if "generation" in args.only:
        torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, COMPILED_GRAPHS)
        gen_config = generation_config(args)
        results["generation"] = generation.run(gen_config)
        print(generation.report(results["generation"], gen_config))
    if "whisper" in args.only:
        whisper_config = whisper_bench.WhisperBench.from_args(args)
        if whisper_config.whisper_compile:  # a graph per shape, dtype and batch: more shapes pass dynamo's default 8
            torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, COMPILED_GRAPHS)
        start = cpu_seconds()
        results["whisper"] = whisper_bench.run(whisper_config)
        results["whisper"]["others_cpu_share"] = others_share(start)
        print(whisper_bench.report(results["whisper"], whisper_config))
        print(f"\n{machine_line(machine(), results['whisper']['others_cpu_share'])}")
    if "scale" in args.only:
        results["scale"] = scale_bench.run(quick=args.quick)
        print(scale_bench.report(results["scale"]))
    if "others_cpu_share" not in results and "whisper" not in results:  # no machine line yet: one for the run
        results["others_cpu_share"] = others_share(start)
        print("\n" + machine_line(results["machine"], results["others_cpu_share"]))
    write_json(args.json, results)
    return results


if __name__ == "__main__":
    run_cli(main)
