"""Command-line options every training script shares, the TrainConfig they become, and the start of a run.

Scripts stay thin: each adds its own data/model options, calls `add_training_arguments` with its defaults,
then trains inside `with start_run(args) as (out, config, ctx):`, its model through `with_lora` (--lora) and
saved by zoo/training/lora.py's save_model. A value out of range, or an --out that cannot be this run's, is a
UsageError: one line naming the option, what it got and what it expects.
"""
from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import torch
from torch import nn

from backbones.lora import LoRAError
from backbones.quantized import QuantizationError
from zoo.cli.common import UsageError
from zoo.cli.outputs import output_dir
from zoo.training.config import ConfigValueError, TrainConfig
from zoo.training.distributed import DistContext, distributed_context, is_main_process
from zoo.training.lora import LoRAConfig, merged_copy, prepare_lora
from zoo.training.provenance import reusable
from zoo.training.run_dir import RunDirError, clear_earlier_run, earlier_run, hold


def add_training_arguments(p: argparse.ArgumentParser, *, steps: int, batch_size: int | None, lr: float | None,
                           warmup: int, weight_decay: float, min_lr_ratio: float = 0.1,
                           label_smoothing: float | None = 0.0, eval_every: int = 100, eval_batches: int = 20,
                           save_every: int = 500, out: str | None = "runs/train", schedule: str = "cosine",
                           betas: tuple[float, float] = (0.9, 0.95), eps: float = 1e-8) -> None:
    """The shared options, with this script's defaults. batch_size None: no --batch-size (the script batches
    otherwise); lr None: the script sets args.lr from its own rule before start_run unless --lr is given."""
    g = p.add_argument_group("training (zoo/training/)")
    g.add_argument("--steps", type=int, default=steps, help="optimizer steps")
    if batch_size is not None:
        g.add_argument("--batch-size", type=int, default=batch_size)
    g.add_argument("--lr", type=float, default=lr, help="peak learning rate (AdamW)")
    g.add_argument("--schedule", choices=["cosine", "inverse_sqrt"], default=schedule,
                   help="cosine: warmup then cosine decay to lr * --min-lr-ratio at --steps (or the time budget); "
                        "inverse_sqrt: warmup then lr * sqrt(warmup / step), the 2017 Transformer's")
    g.add_argument("--warmup", type=int, default=warmup, help="linear warmup steps, then the --schedule's decay")
    g.add_argument("--min-lr-ratio", type=float, default=min_lr_ratio,
                   help="the cosine decay ends at lr * this (0: decay to zero)")
    g.add_argument("--weight-decay", type=float, default=weight_decay)
    g.add_argument("--betas", type=float, nargs=2, default=betas, metavar=("B1", "B2"), help="AdamW betas")
    g.add_argument("--eps", type=float, default=eps, help="AdamW epsilon")
    g.add_argument("--grad-clip", type=float, default=1.0, help="max global gradient norm (0: off)")
    g.add_argument("--grad-accum", type=int, default=1, help="micro-batches per optimizer step")
    if label_smoothing is not None:  # None: the script's losses take none
        g.add_argument("--label-smoothing", type=float, default=label_smoothing,
                       help="the loss's label smoothing, in [0, 1)")
    g.add_argument("--dropout", type=float, help="override the preset's dropout")
    g.add_argument("--eval-every", type=int, default=eval_every, help="0: only at the end")
    g.add_argument("--eval-batches", type=int, default=eval_batches)
    g.add_argument("--save-every", type=int, default=save_every)
    g.add_argument("--out", default=out, help="checkpoint.pt, metrics.jsonl, loss.png, model/ go here")
    g.add_argument("--resume", action="store_true", help="continue from --out/checkpoint.pt")
    g.add_argument("--overwrite", action="store_true",
                   help="start afresh in an --out that holds an earlier run: its checkpoints, metrics, summary.json "
                        "and model/ are deleted first (tokens and tokenizer stay where made from the same data)")
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
    add_lora_arguments(p)


def add_lora_arguments(p: argparse.ArgumentParser) -> None:
    """--lora and its settings (lora_config reads them)."""
    lora = p.add_argument_group("LoRA (zoo/training/lora.py): train low-rank adapters over the frozen model")
    lora.add_argument("--lora", type=int, metavar="R",
                      help="adapters of rank R on --lora-targets; only they (and a new head) train, checkpoints hold "
                           "only them, and model/ holds them in peft's format beside a reference to the base")
    lora.add_argument("--lora-alpha", type=float, metavar="A", help="the adapters' scale is A / R (default: 2 R)")
    lora.add_argument("--lora-dropout", type=float, default=0.0, metavar="P", help="dropout on the adapters' input")
    lora.add_argument("--lora-targets", nargs="+", metavar="PATTERN",
                      help="the Linear layers adapted: globs over module names, or their last parts (q_proj "
                           "fc1); default: attention's q_proj k_proj v_proj o_proj (a LLaVA: its language model's)")
    lora.add_argument("--lora-base-quantize", choices=["int8", "int4"],
                      help="QLoRA: quantise the frozen Linear layers (zoo.quantize) before adding the adapters")


# The option (its argparse dest) of each TrainConfig field a ConfigValueError may name, where they differ.
OPTIONS = {"warmup_steps": "warmup", "eval_at": "eval_at_minutes"}


def _shown(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def check_arguments(args: argparse.Namespace) -> None:
    """The shared options TrainConfig does not check itself (or holds in other units), checked alike."""
    given = lambda name: getattr(args, name, None)  # noqa: E731
    checks = {  # dest: (valid?, what was expected)
        "batch_size": (given("batch_size") is None or args.batch_size >= 1, "an integer >= 1"),
        "label_smoothing": (given("label_smoothing") is None or 0 <= args.label_smoothing < 1, "a float in [0, 1)"),
        "dropout": (given("dropout") is None or 0 <= args.dropout < 1, "a float in [0, 1)"),
        "time_budget": (args.time_budget >= 0, "minutes >= 0 (0: off)"),
        "eval_at_minutes": (all(m > 0 for m in given("eval_at_minutes") or ()), "minutes > 0"),
        "threads": (given("threads") is None or args.threads >= 1, "an integer >= 1"),
        "lora": (given("lora") is None or args.lora >= 1, "a rank >= 1"),
        "lora_alpha": (given("lora_alpha") is None or args.lora_alpha > 0, "a positive float"),
        "lora_dropout": (0 <= (given("lora_dropout") or 0.0) < 1, "a float in [0, 1)"),
    }
    for dest, (ok, expected) in checks.items():
        if not ok:
            raise UsageError(f"--{dest.replace('_', '-')} {_shown(getattr(args, dest))}: expected {expected}")
    if args.resume and args.overwrite:
        raise UsageError("--resume and --overwrite: expected one of them (continue the run in --out, or replace it)")
    if given("lora") is None:
        lora_options = [f"--{dest.replace('_', '-')}" for dest in ("lora_alpha", "lora_targets", "lora_base_quantize")
                        if given(dest) is not None] + (["--lora-dropout"] if given("lora_dropout") else [])
        if lora_options:
            raise UsageError(f"{' '.join(lora_options)} without --lora: expected --lora R (the adapters' rank) too")


def with_lora(args: argparse.Namespace, model: nn.Module, out: str | Path, *, base: str | Path | None = None,
              modules_to_save: Sequence[str] = (), new_head: int | None = None,
              default_targets: Sequence[str] | None = None) -> nn.Module:
    """With --lora: `model` prepared for a LoRA run (zoo/training/lora.py's prepare_lora: base, modules_to_save,
    new_head and default_targets as there; its fresh base written to out/model/base), the trained share said
    (rank 0); a target or quantisation it cannot make is a UsageError. Without: `model` as it is."""
    lora = lora_config(args)
    if lora is None:
        return model
    try:
        prepare_lora(model, lora, base, Path(out) / "model", modules_to_save=modules_to_save, new_head=new_head,
                     default_targets=default_targets)
    except (LoRAError, QuantizationError) as error:
        raise UsageError(f"--lora {args.lora}: {error}") from None
    if is_main_process():
        trained = sum(p.numel() for p in model.parameters() if p.requires_grad)
        total = sum(p.numel() for p in model.parameters())
        print(f"LoRA rank {lora.r}, alpha {lora.alpha:g}{', base ' + lora.base_quantize if lora.base_quantize else ''}"
              f": {trained / 1e6:.3f}M of {total / 1e6:.2f}M parameters train"
              f"{' (with ' + ', '.join(modules_to_save or ['head']) + ')' if modules_to_save or new_head else ''}")
    return model


def exportable(args: argparse.Namespace, model: nn.Module, what: str) -> nn.Module | None:
    """The model an exporter to another library's format takes (`what` names it): a LoRA run's merged copy; None
    (said in a line) where its base is quantised, which those formats do not hold."""
    if getattr(args, "lora_base_quantize", None):
        print(f"{what}: not written (a quantised base, --lora-base-quantize {args.lora_base_quantize}); model/ holds "
              "the adapter")
        return None
    return merged_copy(model)


def lora_config(args: argparse.Namespace) -> LoRAConfig | None:
    """The adapters --lora asks for (zoo/training/lora.py), or None: every weight trains."""
    if getattr(args, "lora", None) is None:
        return None
    alpha = args.lora_alpha if args.lora_alpha is not None else 2.0 * args.lora
    targets = tuple(args.lora_targets) if args.lora_targets else None
    return LoRAConfig(args.lora, alpha, args.lora_dropout, targets, args.lora_base_quantize)


def train_config(args: argparse.Namespace) -> TrainConfig:
    """The TrainConfig of the parsed options (a UsageError naming the option for a value out of range); also
    applies --threads to this process."""
    check_arguments(args)
    if getattr(args, "threads", None):
        torch.set_num_threads(args.threads)
    try:
        # The cosine's warmup is cut to --steps; the inverse square root's may outlast them (lr still rising).
        warmup = min(args.warmup, args.steps) if args.schedule == "cosine" else args.warmup
        return TrainConfig(steps=args.steps, lr=args.lr, weight_decay=args.weight_decay, betas=tuple(args.betas),
                           eps=args.eps, schedule=args.schedule, min_lr_ratio=args.min_lr_ratio,
                           warmup_steps=warmup, grad_clip=args.grad_clip,
                           grad_accum=args.grad_accum, dtype=args.dtype, device=args.device,
                           eval_every=args.eval_every, eval_batches=args.eval_batches, save_every=args.save_every,
                           eval_at=tuple(60.0 * m for m in getattr(args, "eval_at_minutes", None) or ()),
                           out=str(args.out), resume=args.resume, overwrite=args.overwrite, seed=args.seed,
                           progress=not args.no_progress, compile=args.compile, time_budget=60.0 * args.time_budget,
                           grad_checkpointing=args.grad_checkpointing, keep_last=args.keep_last, fsdp=args.fsdp)
    except ConfigValueError as error:
        dest = OPTIONS.get(error.field, error.field)
        raise UsageError(f"--{dest.replace('_', '-')} {_shown(getattr(args, dest, error.value))}: expected "
                         f"{error.expected}") from None


def claim_out(out: Path, resume: bool, overwrite: bool) -> None:
    """--out for this run (its lock held): an earlier run there is continued (--resume) or replaced
    (--overwrite: its training state and results deleted), else refused."""
    earlier = earlier_run(out)
    if earlier and not resume:
        if not overwrite:
            shown = ", ".join(earlier[:6]) + (", ..." if len(earlier) > 6 else "")
            raise RunDirError(f"{str(out)!r} holds an earlier run ({shown}); continue it with --resume or "
                              "replace it with --overwrite")
        clear_earlier_run(out)


@contextmanager
def start_run(args: argparse.Namespace) -> Iterator[tuple[Path, TrainConfig, DistContext]]:
    """A training script's run, for the block: its TrainConfig (options checked, --threads applied); --out made
    and held by rank 0 (the lock, zoo/training/run_dir.py; a UsageError naming --out where it is a file, another
    run's, or an earlier run's without --resume or --overwrite); this process joined to torchrun's group if it
    runs under one (gloo on CPU, NCCL on CUDA); and the seed set, the same on every rank so that every rank
    builds the same initial weights."""
    config = train_config(args)
    out, main = Path(args.out), is_main_process()
    if main:
        output_dir(out, "--out")  # a file, or a folder that cannot be made or written into: one line
    with ExitStack() as stack:
        try:
            stack.enter_context(hold(out, enabled=main))
            if main:
                claim_out(out, args.resume, args.overwrite)
        except RunDirError as error:
            raise UsageError(f"--out: {error}") from None
        ctx = distributed_context("cuda" if args.device.startswith("cuda") else "cpu")
        torch.manual_seed(args.seed)
        yield out, config, ctx


def reusable_for(args: argparse.Namespace, target: Path, data: str | Path | None, settings: dict[str, Any]) -> bool:
    """Whether a file or folder an earlier run into --out derived (tokens.bin, tokenizer/) was made from `data`
    with `settings`, as this run's would be (zoo/training/provenance.py); --resume refuses where it was not."""
    try:
        return reusable(target, data, settings, resume=args.resume)
    except RunDirError as error:
        raise UsageError(f"--resume: {error}; resume with the run's own data and settings, or start afresh with "
                         "--overwrite") from None
