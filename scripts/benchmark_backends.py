"""Attention backends side by side: `attend()` from short to long sequences, and whole models per backend
against their references (transformers, timm) on the same weights. Runs on the CPU or, with
--device cuda, on a GPU, where the xformers column appears.

    python scripts/benchmark_backends.py --device cuda --out runs/bench_cuda     # the GPU tables
    python scripts/benchmark_backends.py --quick                                 # smoke test on the CPU

Writes attention.md / models.md, their JSON and attention.png into --out, each as soon as its section
ends, and prints the tables.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import transformers

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/ sits at the repository root, not installed

from bench import attention, backends
from bench.machine import device_line
from bench.report import run_cli

QUICK = {"lengths": [64, 128], "models": ["gpt_tiny", "llama_tiny"], "batch": 2, "seq": 32, "images": 4,
         "repeats": 2}


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--device", default="cpu", help="cpu or cuda (default cpu)")
    p.add_argument("--only", nargs="+", choices=["attention", "models"], default=["attention", "models"])
    p.add_argument("--lengths", nargs="+", type=int, default=[512, 1024, 2048, 4096, 8192, 16384])
    p.add_argument("--models", nargs="+", default=["gpt2", "bert_base", "llama_135m", "vit_base_patch16_224"])
    p.add_argument("--dtypes", nargs="+", choices=["bf16", "fp32"], default=["bf16", "fp32"])
    p.add_argument("--batch", type=int, default=8, help="text sequences per batch")
    p.add_argument("--seq", type=int, default=512, help="tokens per text sequence")
    p.add_argument("--images", type=int, default=64, help="images per vision batch")
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--no-train", action="store_true", help="forward only")
    p.add_argument("--quick", action="store_true", help="tiny shapes and presets: a smoke test")
    p.add_argument("--out", default="runs/bench_backends")
    args = p.parse_args(argv)
    if args.quick:
        for key, value in QUICK.items():  # flags given explicitly win
            if getattr(args, key) == p.get_default(key):
                setattr(args, key, value)
    return args


def main(argv=None) -> dict:
    args = parse_args(argv)
    transformers.logging.set_verbosity_error()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    line = device_line(args.device)
    print(line, flush=True)
    results = {"device": line, "settings": vars(args)}
    if "attention" in args.only:
        sweep = attention.Sweep(device=args.device, lengths=tuple(args.lengths), repeats=max(args.repeats // 2, 2))
        results["attention"] = rows = attention.sweep(sweep, log=lambda s: print(s, flush=True))
        text = line + "\n" + attention.report(rows, sweep)
        (out / "attention.md").write_text(text + "\n")
        (out / "attention.json").write_text(json.dumps(rows, indent=1))
        attention.plot(rows, str(out / "attention.png"))
        print(text, flush=True)
    if "models" in args.only:
        config = backends.DeviceBench(device=args.device, dtypes=tuple(args.dtypes), batch=args.batch,
                                      seq=args.seq, images=args.images, repeats=args.repeats,
                                      train=not args.no_train)
        rows = []
        for name in args.models:
            rows += backends.run(name, config, log=lambda s: print(s, flush=True))
            (out / "models.json").write_text(json.dumps(rows, indent=1))
        results["models"] = rows
        text = line + "\n" + backends.report(rows, config)
        (out / "models.md").write_text(text + "\n")
        print(text, flush=True)
    return results


if __name__ == "__main__":
    run_cli(main)
