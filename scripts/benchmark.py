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

    python scripts/benchmark.py                    # every section: hours on 2 cores (models alone 3-5 h, generation
                                                   # 60-80 min, speculative 80-100 (the Whisper pair trains for an
                                                   # hour), translation about 2 h, ast 30-40, recipes 20-30,
                                                   # whisper 10-15)
    python scripts/benchmark.py --quick            # smoke test on the tiny presets, about 2 minutes
    python scripts/benchmark.py --only forward --dtypes bf16 --batch 8 --seq 256 --json bench.json
    python scripts/benchmark.py --only whisper --whisper-models tiny --whisper-tokens 32
    python scripts/benchmark.py --only translation --translation-model runs/translation/en-es/model

    python scripts/benchmark.py --write-benchmarks --only ceilings whisper
        # = make bench BENCH_ARGS="--only ceilings whisper"
    make bench BENCH_ARGS="--only ceilings models --model-timed gpt2 bert_base --model-repeats 4"   # the model
                                                   # table in parts: each run adds its presets to the stored ones
    make bench BENCH_ARGS="--only speculative --spec-families whisper --spec-dir runs/spec"   # one family: the
                                                   # others stay as stored; a --spec-dir keeps the trained models

Prints Markdown tables. With --write-benchmarks it also stores them under benchmarks/<machine>/ (each
section's Markdown, and a CSV per table) and rewrites the block of benchmarks/<machine>/README.md between its
`<!-- bench:begin <machine> -->` and `<!-- bench:end <machine> -->` lines from every section stored for it:
a run replaces the sections it ran and keeps the others; text outside the block stays as written
(bench/document.py); BENCHMARKS.md, the summary that links those folders, is written by hand. The sections
are bench/ (ceilings: the machine's matmul and memory-bandwidth figures; models: every preset's parameters,
FLOPs and, up to 150M parameters, throughput per backend and dtype against its reference with MFU; attention:
attend() per backend from 512 to 16k tokens; forward, train, learning, recipes (each training script's
make-demo run: its headline figure and wall time), vision, ast, llava, generation/ (decoding; and speculative, its
own section here: a trained draft and target per family, each family's result kept in
benchmarks/<machine>/speculative.json so that a run of one family keeps the others), whisper, whisper_long,
translation (a trained Marian against transformers and CTranslate2: its model must exist before a run that
includes it starts), quantized_accuracy (int8 / int4 against fp32: perplexity, the real all-MiniLM-L6-v2's
embeddings, the real Whisper base's WER, memory), lora (a LoRA step against full fine-tuning and peft: time, peak
memory, optimizer state), scale); this
script parses the flags, runs them and prints their tables. --device cuda runs the models and attention
sections on a GPU (the xformers column appears).
"""
from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

import torch
import transformers

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # bench/ sits at the repository root, not installed

from bench import (
    DTYPES,
    attention,
    ceilings,
    cpu_seconds,
    forward,
    generation,
    learning,
    lora,
    machine,
    machine_line,
    models,
    others_share,
    quantized_accuracy,
    recipes,
    serving,
    train,
    translation,
    vision,
    whisper_long,
)
from bench import ast as ast_bench
from bench import llava as llava_bench
from bench import scale as scale_bench
from bench import whisper as whisper_bench
from bench.cli import add_generation_arguments, add_models_arguments, generation_config, models_config
from bench.config import GenerationBench, ModelBench, ServingBench, TranslationBench, WhisperBench
from bench.document import Capture, machine_slug, write
from bench.generation import speculative
from bench.generation.common import COMPILED_GRAPHS
from bench.machine import FORCED_ISA
from bench.report import BenchmarkError, run_cli, write_json
from bench.translation_sides import model_missing
from bench.whisper_refs import SHAPES as WHISPER_SHAPES

SECTIONS = ["ceilings", "models", "attention", "forward", "train", "learning", "recipes", "vision", "ast", "llava",
            "generation", "speculative", "whisper", "whisper_long", "translation", "quantized_accuracy", "serving",
            "lora", "scale"]
# Shapes and repeats: the README run, and --quick (explicit flags win over either).
FULL = {"models": ["gpt2", "bert_base"], "batch": 4, "seq": 128, "warmup": 2, "repeats": 10, "train_repeats": 8,
        "whisper_models": ["tiny", "base"], "whisper_tokens": 64, "whisper_batches": [1, 8], "whisper_warmup": 0,
        "whisper_repeats": 5, "whisper_compile": True, "whisper_files": 16, "whisper_file_tokens": 24,
        "whisper_long_s": 150, "whisper_transcribe_repeats": 2, "whisper_long_weights": "base",
        "whisper_long_audio_s": 300.0, "whisper_long_repeats": 3, "whisper_long_openai": True,
        "translation_model": "runs/translation/en-es/model", "translation_sentences": 500,
        "translation_batches": [1, 16], "translation_max_tokens": 256, "translation_repeats": 3,
        "serving_models": ["gpt2", "llama_135m"], "serving_clients": [1, 4, 8, 16], "serving_prompt": 16,
        "serving_new_tokens": 128, "serving_requests": 2, "serving_repeats": 2, "serving_transformers": True,
        "lora_models": ["gpt2", "bert_base", "vit_base_patch16_224"], "lora_rank": 8, "lora_warmup": 2,
        "lora_repeats": 8, "lora_transformers_full": True}
QUICK = {"models": ["gpt_tiny", "bert_tiny"], "batch": 2, "seq": 32, "warmup": 1, "repeats": 3, "train_repeats": 3,
         "whisper_models": ["micro"], "whisper_tokens": 8, "whisper_batches": [1, 2], "whisper_warmup": 0,
         "whisper_repeats": 2, "whisper_compile": False, "whisper_files": 3, "whisper_file_tokens": 4,
         "whisper_long_s": 45, "whisper_transcribe_repeats": 1, "whisper_long_weights": "micro",
         "whisper_long_audio_s": 60.0, "whisper_long_repeats": 1, "whisper_long_openai": True, "whisper_long_tokens": 8,
         "translation_model": "tiny", "translation_sentences": 6, "translation_batches": [1, 4],
         "translation_max_tokens": 8, "translation_repeats": 2,
         "serving_models": ["gpt_tiny"], "serving_clients": [1, 4], "serving_prompt": 8, "serving_new_tokens": 16,
         "serving_requests": 1, "serving_repeats": 1, "serving_transformers": True,
         "lora_models": ["gpt_tiny", "bert_tiny", "vit_tiny_patch4_28"], "lora_rank": 8, "lora_warmup": 1,
         "lora_repeats": 3, "lora_transformers_full": True}
# Flags that say only where results go, and whether each takes a value: left out of the command the tables show.
OUTPUT_FLAGS = {"--json": True, "--write-benchmarks": False, "--benchmarks-dir": True, "--machine-slug": True}


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
    p.add_argument("--device", default="cpu", help="where the models and attention sections run: cpu (default) or "
                   "cuda, where the xformers column appears; the other sections run on the CPU")
    p.add_argument("--json", metavar="OUT", help="also write every measurement here")
    p.add_argument("--isa", choices=sorted(FORCED_ISA), help="limit every side to this instruction set (an AVX-512 "
                   "host measuring what an AVX2-only one runs: bench/machine.py FORCED_ISA); the tables' machine "
                   "name ends in -forced")
    add_models_arguments(p)
    add_generation_arguments(p)
    add_whisper_arguments(p)
    whisper_long.add_arguments(p, FULL, QUICK)
    translation.add_arguments(p, FULL, QUICK)
    serving.add_arguments(p, FULL, QUICK)
    lora.add_arguments(p, FULL, QUICK)
    add_document_arguments(p)
    args = p.parse_args(argv)
    for key, default in (QUICK if args.quick else FULL).items():
        if getattr(args, key) is None:
            setattr(args, key, default)
    if "translation" in args.only and (why := model_missing(args.translation_model)):
        p.error(why)  # now, not after the sections before it
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


def add_document_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("benchmarks/<machine>/ (make bench)")
    g.add_argument("--write-benchmarks", action="store_true",
                   help="store the tables this run prints under --benchmarks-dir/<machine>/ (Markdown, and a CSV per "
                        "table) and rebuild the block of its README.md from every section stored there")
    g.add_argument("--benchmarks-dir", default=str(ROOT / "benchmarks"),
                   help="where each machine's tables are stored (default: benchmarks/ in the repository)")
    g.add_argument("--machine-slug", help="the machine's folder and marker name (default: from the CPU model and core "
                   "count and its bf16 tier, e.g. intel-xeon-2c-amx)")
    g.add_argument("--spec-merge", action=argparse.BooleanOptionalAction, default=True,
                   help="with --write-benchmarks, keep the speculative families an earlier run on this machine "
                        "measured and this one did not (stored in benchmarks/<machine>/speculative.json; default on)")


def raise_recompile_limit() -> None:
    """A compiled graph per shape, dtype and batch: more than dynamo's default limit of 8."""
    torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, COMPILED_GRAPHS)


def machine_folder(args: argparse.Namespace, results: dict) -> Path:
    """benchmarks/<machine>/: where this machine's tables are stored."""
    return Path(args.benchmarks_dir) / (args.machine_slug or machine_slug(results["machine"]))


def merge_stored(args: argparse.Namespace, results: dict, name: str, fresh, merge: Callable, run: dict, empty):
    """merge(fresh, stored, run): this run's result merged with what earlier runs on this machine stored in
    benchmarks/<machine>/<name>.json (`empty` where none did), which is rewritten with the merged result."""
    stored = machine_folder(args, results) / f"{name}.json"
    merged = merge(fresh, json.loads(stored.read_text()) if stored.exists() else empty, run)
    stored.parent.mkdir(parents=True, exist_ok=True)
    stored.write_text(json.dumps(merged, indent=1) + "\n")
    return merged


def run_stamp(command: str, **extra) -> dict:
    """What a merged table names for the run that measured a row: its command and date."""
    return {"command": command, "date": datetime.datetime.now().isoformat(" ", "minutes"), **extra}


def merged_models(args: argparse.Namespace, config, results: dict, command: str) -> list[dict]:
    """The model table's rows; with --write-benchmarks and --model-merge, merged with the presets earlier runs
    timed (benchmarks/<machine>/models.json, rewritten with the merged rows, each naming the run that timed it)."""
    rows = models.run(config, ceilings=results.get("ceilings"))
    if not (args.write_benchmarks and args.model_merge):
        return rows
    run = run_stamp(command, warmup=config.warmup, repeats=config.repeats)
    return merge_stored(args, results, "models", rows, models.merge, run, [])


def generation_sections(config: GenerationBench) -> GenerationBench:
    """The generation section's config: its sections less speculative decoding, which is a section of its own here
    (trained models, measured per family and merged: `--only speculative`)."""
    sections = tuple(name for name in config.gen_sections if name != "speculative")
    if not sections:
        raise BenchmarkError("--only generation --gen-sections speculative: speculative decoding is its own section in "
                             "this script; run it with --only speculative")
    return dataclasses.replace(config, gen_sections=sections)


def merged_speculative(args: argparse.Namespace, config: GenerationBench, results: dict, command: str) -> dict:
    """The speculative section's families; with --write-benchmarks and --spec-merge, merged with the families
    earlier runs measured (benchmarks/<machine>/speculative.json, each naming the run that measured it)."""
    fresh = speculative.run(config)
    if not (args.write_benchmarks and args.spec_merge):
        return fresh
    return merge_stored(args, results, "speculative", fresh, speculative.merge, run_stamp(command), {})


def attention_render(args: argparse.Namespace, results: dict, rows: list[dict]) -> str:
    """The sweep's table and summary; with --write-benchmarks, the log-log PNG beside the machine's CSVs."""
    text = (attention.report(rows, attention.settings(args.quick, args.device)) + "\n\n"
            + attention.summary_report(attention.summarize(rows)))
    if not args.write_benchmarks:
        return text
    folder = machine_folder(args, results)
    folder.mkdir(parents=True, exist_ok=True)
    attention.plot(rows, str(folder / "attention.png"))
    return text + "\n\nLog-log plot: [attention.png](attention.png)\n"  # beside the README that shows it


def section_steps(args: argparse.Namespace, config: ModelBench, results: dict,
                  command: str = "") -> dict[str, tuple[Callable, Callable]]:
    """{section: (measure, render)}: measure() runs it and returns its result, render(result) its Markdown.
    The models, generation and whisper configs are made when they run (generation_config fills args in place);
    models reads the ceilings section's result from `results` where it ran first, and with --write-benchmarks
    (and --model-merge) adds the presets that earlier runs timed from benchmarks/<machine>/models.json, where it
    stores the merged rows, each with the command that timed it."""
    configs = {}

    def llava_run():
        raise_recompile_limit()
        return llava_bench.run(config, quick=args.quick)

    def generation_run():
        raise_recompile_limit()
        configs["generation"] = generation_sections(generation_config(args))
        return generation.run(configs["generation"])

    def whisper_run():
        configs["whisper"] = WhisperBench.from_args(args)
        if configs["whisper"].whisper_compile:
            raise_recompile_limit()
        start = cpu_seconds()
        result = whisper_bench.run(configs["whisper"])
        return {**result, "others_cpu_share": others_share(start)}

    def models_run():
        configs["models"] = models_config(args)
        return merged_models(args, configs["models"], results, command)

    def per_model(section):
        return lambda: [row for model in config.models for row in section.run(model, config)]

    def configured(name, section, make):  # a section with a config of its own, made from args when it runs
        return (lambda: section.run(configs.setdefault(name, make(args))),
                lambda result: section.report(result, configs[name]))

    return {
        "ceilings": (lambda: ceilings.run(quick=args.quick), ceilings.tables),
        "models": (models_run, lambda rows: models.report(rows, configs["models"])),
        "attention": (lambda: attention.sweep(attention.settings(args.quick, args.device)),
                      lambda rows: attention_render(args, results, rows)),
        "forward": (per_model(forward), lambda rows: forward.report(rows, config)),
        "train": (per_model(train), lambda rows: train.report(rows, config)),
        "learning": (lambda: learning.run(40 if args.quick else args.learn_steps), learning.report),
        "recipes": (lambda: recipes.run(quick=args.quick, threads=args.threads), recipes.report),
        "vision": (lambda: vision.run(config, quick=args.quick), vision.report),
        "ast": (lambda: ast_bench.run(config, quick=args.quick), ast_bench.report),
        "llava": (llava_run, llava_bench.report),
        "generation": (generation_run, lambda result: generation.report(result, configs["generation"])),
        "speculative": (lambda: merged_speculative(args, generation_config(args), results, command),
                        speculative.report),
        "whisper": (whisper_run, lambda result: whisper_bench.report(result, configs["whisper"])),
        "whisper_long": configured("whisper_long", whisper_long, whisper_long.WhisperLongBench.from_args),
        "translation": configured("translation", translation, TranslationBench.from_args),
        "quantized_accuracy": (lambda: quantized_accuracy.run(quick=args.quick), quantized_accuracy.report),
        "serving": configured("serving", serving, ServingBench.from_args),
        "lora": configured("lora", lora, lora.LoRABench.from_args),
        "scale": (lambda: scale_bench.run(quick=args.quick), scale_bench.report),
    }


def report(results: dict, config: ModelBench, run: Capture) -> str:
    """The machine line and the forward and train tables."""
    share = results["others_cpu_share"]
    parts = ["\n" + machine_line(results["machine"], share)]
    if share > 0.1:
        parts.append("Warning: other processes were busy; ours and transformers ran interleaved, so the ratios stay "
                     "comparable, but the absolute numbers are low and noisier.")
    for name, section in (("forward", forward), ("train", train)):
        if results.get(name):
            parts.append(run.render(name, lambda: section.report(results[name], config)))
    return "\n".join(parts)


def main(argv=None) -> dict:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parse_args(argv)
    if args.isa:
        forced = FORCED_ISA[args.isa]
        if any(os.environ.get(k) != v for k, v in forced.items()):  # torch reads them at import: start again
            os.execve(sys.executable, [sys.executable, str(Path(__file__).resolve()), *argv], {**os.environ, **forced})
    torch.set_num_threads(args.threads)
    transformers.logging.set_verbosity_error()
    config = ModelBench.from_args(args)
    results = {"machine": machine(), "settings": vars(args)}  # the generation flags are filled in if it runs
    run, start, steps = Capture(), cpu_seconds(), section_steps(args, config, results, command_line(argv))
    chosen = [name for name in SECTIONS if name in args.only]  # ceilings first, before the models fill memory
    for name in chosen:
        measure, render = steps[name]
        with run.timed(name):
            results[name] = measure()
        if name in ("forward", "train"):  # printed together after the second, under the machine line
            if name == [n for n in chosen if n in ("forward", "train")][-1]:
                results["others_cpu_share"] = others_share(start)
                print(report(results, config, run))
            continue
        print(run.render(name, lambda: render(results[name])))
        if name == "whisper":
            print(f"\n{machine_line(machine(), results['whisper']['others_cpu_share'])}")
    if "others_cpu_share" not in results and not {"whisper", "translation"} & results.keys():  # no machine line yet
        results["others_cpu_share"] = others_share(start)
        print("\n" + machine_line(results["machine"], results["others_cpu_share"]))
    write_json(args.json, results)
    if args.write_benchmarks:
        folder = write(run.sections.values(), results["machine"], command=command_line(argv),
                       benchmarks_dir=args.benchmarks_dir, slug=args.machine_slug,
                       ceilings=results.get("ceilings"), order=SECTIONS)
        print(f"\nWrote the {', '.join(run.sections)} tables to {folder} (README.md and CSV)")
    return results


def command_line(argv: list[str]) -> str:
    """The command that produced the tables, less the flags that only say where the results go."""
    kept, rest = [], iter(argv)
    for arg in rest:
        flag = arg.split("=", 1)[0]
        if flag not in OUTPUT_FLAGS:
            kept.append(arg)
        elif OUTPUT_FLAGS[flag] and "=" not in arg:
            next(rest, None)  # its value
    return shlex.join(["python", "scripts/benchmark.py", *kept])


if __name__ == "__main__":
    run_cli(main)
