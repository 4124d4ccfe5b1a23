"""Command-line flags shared by the benchmark scripts: the generation benchmark's, which both
scripts/benchmark_generation.py and scripts/benchmark.py (--only generation) take, and their presets (the full
run and --quick); and the model table's (scripts/benchmark.py --only models)."""
from __future__ import annotations

import argparse
from dataclasses import replace

from backbones.inference.torch_private import mkldnn_bf16_supported
from bench.config import GenerationBench
from bench.generation import SECTIONS
from bench.models import ModelsConfig

# Shapes and repeats for the full run and --quick (explicit --gen-* flags win over either).
FULL = {"gen_models": ["gpt_tiny", "llama_135m", "gpt2"], "gen_batches": [1, 8], "gen_prompt": 16,
        "gen_new_tokens": 128,
        "gen_warmup": 1, "gen_repeats": 5, "bandwidth_mb": 1024, "context_positions": [100, 1000],
        "context_steps": 20, "spec_families": ["gpt", "llama", "whisper"], "spec_train_steps": 250,
        "spec_target": "depth=12,dim=512,num_heads=8,mlp_hidden=2048",
        "spec_whisper_target": "dim=256,audio_heads=4,text_heads=4,audio_depth=4,text_depth=8,audio_mlp_hidden=1024,"
                               "text_mlp_hidden=1024",
        "spec_whisper_steps": [1500, 2000], "spec_k": [2, 4, 6], "spec_prompts": 4, "spec_new_tokens": 128,
        "spec_repeats": 3}
QUICK = {"gen_models": ["gpt_tiny"], "gen_batches": [1, 8], "gen_prompt": 8, "gen_new_tokens": 32,
         "gen_warmup": 1, "gen_repeats": 3, "bandwidth_mb": 256, "context_positions": [20, 200],
         "context_steps": 8, "spec_families": ["gpt", "llama", "whisper"], "spec_train_steps": 15,
         "spec_target": "depth=4,dim=256,num_heads=4,mlp_hidden=1024", "spec_whisper_target": "text_depth=4",
         "spec_whisper_steps": [15, 30], "spec_k": [2, 4], "spec_prompts": 2, "spec_new_tokens": 32, "spec_repeats": 2}


def add_generation_arguments(p: argparse.ArgumentParser) -> None:
    """The generation benchmark's flags (prefixed, so they sit beside scripts/benchmark.py's)."""
    g = p.add_argument_group("generation benchmark")
    g.add_argument("--gen-sections", nargs="+", choices=SECTIONS, help=f"default all: {' '.join(SECTIONS)}")
    g.add_argument("--gen-models", nargs="+", help=f"presets to decode (default {FULL['gen_models']}; the last "
                   "is used for the bound, bf16 and context sections)")
    g.add_argument("--gen-batches", nargs="+", type=int, help=f"batch sizes (default {FULL['gen_batches']})")
    g.add_argument("--gen-prompt", type=int, help=f"prompt tokens (default {FULL['gen_prompt']})")
    g.add_argument("--gen-new-tokens", type=int, help=f"new tokens per sequence (default {FULL['gen_new_tokens']})")
    g.add_argument("--gen-warmup", type=int, help="untimed generate calls per side (default 1)")
    g.add_argument("--gen-repeats", type=int, help=f"timed generate calls per side (default {FULL['gen_repeats']})")
    g.add_argument("--bandwidth-mb", type=int, help="buffer size of the bandwidth probes in MiB (default 1024)")
    g.add_argument("--context-positions", nargs=2, type=int, help="short and long cache positions "
                   f"(default {FULL['context_positions']})")
    g.add_argument("--context-steps", type=int, help="timed single-token steps per position (default 20)")
    g.add_argument("--spec-families", nargs="+", choices=["gpt", "llama", "whisper"],
                   help=f"decoder families to draft for, each a {{family}}_tiny draft (whisper: whisper_micro) and a "
                        f"larger target (default {FULL['spec_families']})")
    g.add_argument("--spec-train-steps", type=int, help="training steps of the target (default "
                   f"{FULL['spec_train_steps']}: with the draft's, about 5 minutes per family on 2 cores)")
    g.add_argument("--spec-draft-steps", type=int, help="training steps of the draft (default: 2x "
                   "--spec-train-steps; a {family}_tiny step costs ~1/8 of the default target's)")
    g.add_argument("--spec-target",
                   help="{family}_tiny overrides for the target, e.g. depth=8,dim=384,num_heads=6,mlp_hidden=1536")
    g.add_argument("--spec-whisper-target", help="whisper_micro overrides for the Whisper target (default "
                   f"{FULL['spec_whisper_target']}: a deeper, wider decoder over a 4-layer encoder)")
    g.add_argument("--spec-whisper-steps", nargs=2, type=int, metavar=("TARGET", "DRAFT"),
                   help=f"training steps of the Whisper target and draft (default {FULL['spec_whisper_steps']}: speech "
                        "needs more than text; about an hour on 2 cores)")
    g.add_argument("--spec-k", nargs="+", type=int, help=f"draft tokens per round (default {FULL['spec_k']})")
    g.add_argument("--spec-prompts", type=int, help="held-out KJV prompts, and speech clips (default 4)")
    g.add_argument("--spec-new-tokens", type=int, help="new tokens per prompt (default 128)")
    g.add_argument("--spec-repeats", type=int, help="timed runs per variant (default 3)")
    g.add_argument("--spec-train-dtype", choices=["fp32", "bf16"],
                   help="training precision of the draft and target (default: bf16 where oneDNN runs bf16 "
                        "natively (AMX or AVX512-BF16; ~2x faster there); fp32 elsewhere, where bf16 is emulated "
                        "and slow)")
    g.add_argument("--spec-dir", help="train into / reuse models from this folder, one subfolder per family "
                   "(default: a new temp folder)")


def generation_config(args: argparse.Namespace) -> GenerationBench:
    """Fills the flags left unset in `args` (in place: the scripts' --json records them) from QUICK when
    args.quick, else FULL, and returns them as a GenerationBench."""
    for key, default in (QUICK if getattr(args, "quick", False) else FULL).items():
        if getattr(args, key, None) is None:
            setattr(args, key, default)
    if getattr(args, "gen_sections", None) is None:
        args.gen_sections = list(SECTIONS)
    if getattr(args, "spec_draft_steps", None) is None:
        args.spec_draft_steps = 2 * args.spec_train_steps
    if getattr(args, "spec_train_dtype", None) is None:
        args.spec_train_dtype = "bf16" if mkldnn_bf16_supported() else "fp32"
    return GenerationBench.from_args(args)


def add_models_arguments(p: argparse.ArgumentParser) -> None:
    """The model table's flags (--only models): which presets are timed, and how much, so that a CPU can
    measure the table in parts, each run adding its presets to the stored ones (--model-merge)."""
    g = p.add_argument_group("model table (--only models)")
    g.add_argument("--model-presets", nargs="+", help="presets given a row (default every registered one)")
    g.add_argument("--model-timed", nargs="+", help="presets timed (default: every row within --model-max-params)")
    g.add_argument("--model-max-params", type=float, help="time presets with at most this many parameters "
                   "(default 150e6)")
    g.add_argument("--model-warmup", type=int, help="untimed calls per side (default 2; --quick 1)")
    g.add_argument("--model-repeats", type=int, help="timed calls per side (default 6; --quick 2)")
    g.add_argument("--model-backends", nargs="+", help="attention backends to time (default each that can run)")
    g.add_argument("--model-merge", action=argparse.BooleanOptionalAction, default=True,
                   help="with --write-benchmarks, keep the presets an earlier run on this machine timed and this one "
                        "did not (stored in benchmarks/<machine>/models.json; default on)")


def models_config(args: argparse.Namespace):
    """The ModelsConfig the flags name: --quick's or the full one, with --model-* flags applied over it."""
    config = ModelsConfig.quick(args.device) if args.quick else ModelsConfig(device=args.device)
    given = {"presets": args.model_presets, "timed": args.model_timed, "max_params": args.model_max_params,
             "warmup": args.model_warmup, "repeats": args.model_repeats, "backends": args.model_backends}
    return replace(config, **{k: tuple(v) if isinstance(v, list) else v for k, v in given.items() if v is not None})
