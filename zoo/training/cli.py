"""Command-line options every training script shares, and the TrainConfig they become.

Scripts stay thin: each adds its own data/model options, then calls
`add_training_arguments` with its defaults and `train_config(args)`.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import torch

from zoo.training.config import TrainConfig
from zoo.training.distributed import DistContext, distributed_context


def add_training_arguments(p: argparse.ArgumentParser, *, steps: int, batch_size: int, lr: float, warmup: int,
                           weight_decay: float, min_lr_ratio: float = 0.1, label_smoothing: float = 0.0,
                           eval_every: int = 100,
                           eval_batches: int = 20, save_every: int = 500, out: str = "runs/train") -> None:
    g = p.add_argument_group("training (zoo/training/)")
    g.add_argument("--steps", type=int, default=steps, help="optimizer steps")
    g.add_argument("--batch-size", type=int, default=batch_size)
    g.add_argument("--lr", type=float, default=lr, help="peak learning rate (AdamW)")
    g.add_argument("--warmup", type=int, default=warmup, help="linear warmup steps, then cosine decay")
    g.add_argument("--min-lr-ratio", type=float, default=min_lr_ratio,
                   help="the cosine decay ends at lr * this (0: decay to zero)")
    g.add_argument("--weight-decay", type=float, default=weight_decay)
    g.add_argument("--betas", type=float, nargs=2, default=(0.9, 0.95), metavar=("B1", "B2"), help="AdamW betas")
    g.add_argument("--grad-clip", type=float, default=1.0, help="max global gradient norm (0: off)")
    g.add_argument("--grad-accum", type=int, default=1, help="micro-batches per optimizer step")
    g.add_argument("--label-smoothing", type=float, default=label_smoothing)
    g.add_argument("--dropout", type=float, help="override the preset's dropout")
    g.add_argument("--eval-every", type=int, default=eval_every, help="0: only at the end")
    g.add_argument("--eval-batches", type=int, default=eval_batches)
    g.add_argument("--save-every", type=int, default=save_every)
    g.add_argument("--out", default=out, help="checkpoint.pt, metrics.jsonl, loss.png, model/ go here")
    g.add_argument("--resume", action="store_true", help="continue from --out/checkpoint.pt")
    g.add_argument("--dtype", choices=["fp32", "bf16", "fp16"], default="fp32", help="bf16/fp16: autocast")
    g.add_argument("--device", default="auto", help="cpu | cuda | cuda:N | auto")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--threads", type=int, help="torch.set_num_threads (1 is faster on a busy 2-core machine)")
    g.add_argument("--no-progress", action="store_true", help="no tqdm bar")
    g.add_argument("--time-budget", type=float, default=0.0, metavar="MINUTES",
                   help="stop after this much wall clock; the cosine decay follows the clock (0: off, --steps decides)")
    g.add_argument("--compile", action="store_true",
                   help="torch.compile the training step (needs a C++ compiler on CPU; the first steps compile)")
    g.add_argument("--grad-checkpointing", action="store_true",
                   help="recompute each Transformer block's activations in backward (less memory, ~1 more forward)")
    g.add_argument("--fsdp", action="store_true",
                   help="under torchrun: shard parameters, gradients and optimizer state (FSDP2) instead of DDP")
    g.add_argument("--keep-last", type=int, default=1, metavar="K",
                   help="checkpoints kept: checkpoint.pt and the K - 1 before it (checkpoint-<step>.pt)")


def train_config(args: argparse.Namespace) -> TrainConfig:
    """The TrainConfig of the parsed options; also applies --threads to this process."""
    if getattr(args, "threads", None):
        torch.set_num_threads(args.threads)
    return TrainConfig(steps=args.steps, lr=args.lr, weight_decay=args.weight_decay, betas=tuple(args.betas),
                       min_lr_ratio=args.min_lr_ratio,
                       warmup_steps=min(args.warmup, args.steps), grad_clip=args.grad_clip,
                       grad_accum=args.grad_accum, dtype=args.dtype, device=args.device,
                       eval_every=args.eval_every, eval_batches=args.eval_batches, save_every=args.save_every,
                       out=str(args.out), resume=args.resume, seed=args.seed, progress=not args.no_progress,
                       compile=args.compile, time_budget=60.0 * args.time_budget,
                       grad_checkpointing=args.grad_checkpointing, keep_last=args.keep_last, fsdp=args.fsdp)


def start_run(args: argparse.Namespace) -> tuple[Path, TrainConfig, DistContext]:
    """A training script's start: --out created, its TrainConfig (which applies --threads), this process joined
    to torchrun's group if it runs under one (gloo on CPU, NCCL on CUDA), and the seed set, the same on every
    rank so that every rank builds the same initial weights."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    config = train_config(args)
    ctx = distributed_context("cuda" if args.device.startswith("cuda") else "cpu")
    torch.manual_seed(args.seed)
    return out, config, ctx
