"""The one training engine every script uses (text, vision, audio, multimodal, translation).

    train(model, data, loss_fn, TrainConfig(...), eval_fn=None) -> TrainResult

One loop, in the shape of nanoGPT's `train.py`: AdamW with decay / no-decay
parameter groups (nanoGPT, timm `param_groups_weight_decay`), linear warmup then
cosine decay to a floor (or the 2017 Transformer's inverse square root: `schedule`),
gradient accumulation (DDP `no_sync` on all but the last micro-batch), global-norm
clipping, bf16 autocast (CPU and CUDA) or fp16 with a GradScaler (CUDA),
DistributedDataParallel when launched by torchrun, and
optionally torch.compile around the training forward/backward (`compile=True`).
Parameter groups and the schedule live in schedule.py, the process-group
plumbing in distributed.py, the options in config.py (all in zoo/training/).

Resumable exactly: the checkpoint (format in checkpoint.py) holds model (a LoRA
run's trained tensors and its base's identity: lora.py), optimizer, scheduler,
scaler, step, every RNG and the data position, per rank, so a run killed after
step k and resumed gives bit-for-bit the losses of one that never stopped (same
device; the tests check it). Evaluation runs with the
RNG saved and restored around it, so eval frequency cannot change training.
It runs every `eval_every` steps, and also once the run's clock passes each of
`eval_at` (seconds), so learning curves can be read in time as well as steps.

Contracts the engine relies on:
- `data`: `next(data)` gives a batch (a tensor, a dict or a tuple/list of them);
  `data.state_dict()` / `data.load_state_dict(sd)` save / restore its position.
  Under DDP each rank passes its own shard (e.g. `BatchStream(rank=, world_size=)`).
- `loss_fn(model, batch)` returns a scalar loss tensor, or `(loss, metrics)`
  where metrics maps names to scalars (tensors or floats); they are averaged
  over micro-batches (and ranks) and logged beside the loss. A loss that is
  a mean over a varying number of items (labelled tokens) puts that number
  in metrics["loss_weight"]: under DDP the ranks are then weighed by it, so
  two processes give one process's losses on the same global batch. Under DDP `model`
  is the DDP wrapper: call it (`model(x)`) rather than its methods, or the
  gradients are not synchronised.
- `eval_fn(model) -> {name: scalar}` gets the unwrapped model, in eval mode,
  under `torch.no_grad()` and the training autocast. `make_eval_fn` builds one
  from a stream and the loss function.
- `model.no_weight_decay()` (optional, timm's hook) returns parameter names or
  module prefixes that must not be decayed (position embeddings, class token).

Outputs in `config.out` (written by rank 0 only): `checkpoint.pt`,
`metrics.jsonl` (one train record per logged step, eval records with
"split": "eval" and "eval_"-prefixed keys), `loss.png`, `train_config.json`.
The folder is this run's alone while it trains (a lock, zoo/training/run_dir.py), and
an earlier run's is continued (`resume`) or replaced (`overwrite`), never mixed
with it. Ctrl-C or SIGTERM stops the run after the step under way, with a
checkpoint (zoo/training/interrupt.py).
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
from torch import Tensor, nn
from torch.nn.parallel import DistributedDataParallel

from backbones.transformer import set_grad_checkpointing
from zoo.io import CorruptCheckpointError
from zoo.training.batches import (
    LOSS_WEIGHT,
    Batch,
    BatchStreamLike,
    LossOutput,
    autocast_for,
    count_batch,
    move_to_device,
    split_loss,
)
from zoo.training.checkpoint import (
    MetricsLog,
    loop_state,
    plot_losses,
    preserved_rng,
    resume_training,
    rng_state,
    save_training_state,
    seed_everything,
)
from zoo.training.config import TrainConfig, TrainResult
from zoo.training.distributed import gather_to_main, is_main_process, max_over_ranks, mean_over_ranks, resolve_device
from zoo.training.interrupt import StopSignals, TrainingInterrupted, agreed_signal
from zoo.training.lora import base_record
from zoo.training.run_dir import (
    CHECKPOINT_NAME,
    METRICS_NAME,
    PLOT_NAME,
    hold,
    keep_previous,
    previous_checkpoints,
    prune_kept,
    start_training,
)
from zoo.training.schedule import InverseSqrt, WarmupCosine, param_groups
from zoo.training.sharded import SHARDED_NAME, can_rebuild, plain_model, save_sharded, shard

# --------------------------------------------------------------------------- the loop


class _Run:
    """One call of `train`: the model (wrapped for DDP / compile), optimizer, schedule, log and clock,
    and the three things a step may lead to: a logged record, an evaluation, a checkpoint."""

    def __init__(self, model: nn.Module, data: BatchStreamLike, loss_fn: Callable, config: TrainConfig,
                 eval_fn: Callable | None, signals: StopSignals) -> None:
        self.t_start = time.perf_counter()
        self.data, self.loss_fn, self.config, self.eval_fn, self.signals = data, loss_fn, config, eval_fn, signals
        self.device, self.ctx = device, ctx = resolve_device(config.device, config.dtype)
        self.out = Path(config.out)
        self.fsdp = config.fsdp and ctx.is_distributed
        if config.fsdp and not ctx.is_distributed and ctx.is_main:
            warnings.warn("fsdp=True in a single process: nothing to shard over, training as usual", stacklevel=3)
        self.ckpt_path = self.out / (SHARDED_NAME if self.fsdp else CHECKPOINT_NAME)
        start_training(self.out, config, ctx)  # refuses an earlier run's folder unless resumed or overwritten

        self.raw = raw = model.module if isinstance(model, DistributedDataParallel) else model
        raw.to(device)
        if config.grad_checkpointing:
            set_grad_checkpointing(raw)
        if self.fsdp:
            if not can_rebuild(raw):  # plain_model rebuilds it at the end (config or unsharded_copy())
                raise ValueError(f"fsdp: {type(raw).__name__} has no config and no unsharded_copy(); FSDP trains "
                                 "zoo models (which the end of the run gathers whole); use DDP for this one")
            model = shard(raw)  # in place: raw's parameters are now its rank's shards (DTensors)
        elif ctx.is_distributed and not isinstance(model, DistributedDataParallel):
            model = DistributedDataParallel(raw, device_ids=[device.index] if device.type == "cuda" else None)
        self.trainable = [p for p in raw.parameters() if p.requires_grad]
        # Compiled around the DDP wrapper, as the DDP docs do (DDPOptimizer splits the graph at bucket
        # boundaries so all-reduce still overlaps backward). Parameters are shared, so eval_fn, the
        # checkpoints and the caller keep using the eager `raw` model.
        self.model = torch.compile(model) if config.compile else model

        # Fused AdamW: one kernel over all parameters, several times faster on CPU than the default
        # for-each path (docs/notes/2026-12-06-cpu-kernels.md).
        # (Sharded parameters take the default for-each path.)
        fused = device.type in ("cuda", "cpu") and not self.fsdp
        self.optimizer = torch.optim.AdamW(param_groups(raw, config.weight_decay), lr=config.lr, betas=config.betas,
                                           eps=config.eps, fused=fused or None)
        self.schedule = (InverseSqrt(config.warmup_steps) if config.schedule == "inverse_sqrt" else
                         WarmupCosine(config.warmup_steps, config.steps, config.min_lr_ratio, config.time_budget))
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, self.schedule)
        self.scaler = torch.amp.GradScaler("cuda") if config.dtype == "fp16" else None

        resuming = self.resume_or_seed()
        self.log = MetricsLog(self.out / METRICS_NAME, ctx.is_main, self.step if config.resume else None)
        self.last_loss: float | None = next((r["loss"] for r in reversed(self.log.records)
                                             if r.get("split") == "train"), None)
        self.last_eval: dict[str, float] = {}
        self.saved_step = self.step if resuming else -1
        self.stop_signal = 0  # the signal every rank stops for after this step (interrupt.py)
        # The time budget is spent (decided on every rank alike). A run resumed past its budget does nothing.
        self.out_of_time = bool(config.time_budget) and self.elapsed_before >= config.time_budget
        self.marks_passed = sum(mark <= self.elapsed_before for mark in config.eval_at)  # of config.eval_at
        self.window = (time.perf_counter(), 0, 0)  # start, samples, tokens (None: not countable) since last log

    def resume_or_seed(self) -> bool:
        """Restore the checkpoint where config.resume asks for one and it exists (sets step and the time spent
        before); otherwise seed this rank. Returns whether it resumed."""
        config, ctx = self.config, self.ctx
        resuming = config.resume and self.ckpt_path.exists()
        if config.resume and not resuming and ctx.is_main:
            warnings.warn(f"resume=True but {str(self.ckpt_path)!r} does not exist: starting at step 0", stacklevel=4)
        self.step, self.elapsed_before = 0, 0.0
        if not resuming:
            seed_everything(config.seed + ctx.rank)  # ranks differ in dropout masks, as in nanoGPT
            return False
        try:
            self.step, self.elapsed_before = resume_training(self.ckpt_path, self.raw, self.optimizer, self.scheduler,
                                                             self.scaler, self.data, config, ctx, sharded=self.fsdp)
        except CorruptCheckpointError as error:
            older = previous_checkpoints(self.out)
            if not older:
                raise
            raise CorruptCheckpointError(f"{error} Older checkpoints of this run (keep_last): "
                                         f"{[p.name for p in older]}; put one in place of {self.ckpt_path.name} "
                                         "to resume from it.") from error
        return True

    def elapsed(self) -> float:
        return self.elapsed_before + time.perf_counter() - self.t_start

    def due(self, every: int) -> bool:
        return self.step == self.config.steps or self.out_of_time or (every > 0 and self.step % every == 0)

    def passed_eval_mark(self) -> bool:
        """Whether the clock passed another of config.eval_at during this step (the slowest rank's clock, so
        that every rank evaluates at the same step)."""
        marks = self.config.eval_at
        if self.marks_passed == len(marks):
            return False
        now_s = max_over_ranks(self.elapsed(), self.ctx, self.device)
        passed = sum(mark <= now_s for mark in marks)
        newly, self.marks_passed = passed > self.marks_passed, passed
        return newly

    def micro_batches(self) -> tuple[Tensor, dict[str, Tensor]]:
        """Forward and backward over grad_accum batches -> (summed loss, summed metrics), detached."""
        config, ctx = self.config, self.ctx
        loss_sum = torch.zeros((), device=self.device)
        metric_sums: dict[str, Tensor] = {}
        start, samples_window, tokens_window = self.window
        for micro in range(config.grad_accum):
            try:
                batch = next(self.data)
            except StopIteration:
                raise RuntimeError(f"the data stream ran out at step {self.step + 1}; "
                                   "training streams must be infinite (cycle over epochs)") from None
            samples, tokens = count_batch(batch)
            samples_window += samples
            tokens_window = None if tokens is None or tokens_window is None else tokens_window + tokens
            batch = move_to_device(batch, self.device)
            # DDP all-reduces gradients in backward; only the last micro-batch needs it.
            last_micro = micro == config.grad_accum - 1
            if self.fsdp:  # reduce-scatter the gradients on the last micro-batch only
                self.raw.set_requires_gradient_sync(last_micro)
            sync = self.model.no_sync() if ctx.is_distributed and not self.fsdp and not last_micro else nullcontext()
            with sync:
                with autocast_for(self.device, config.dtype):
                    loss, metrics = split_loss(self.loss_fn(self.model, batch))
                loss, metrics = self.weigh_ranks(loss, metrics)
                # Dividing makes the summed gradients those of the mean loss over grad_accum batches.
                scaled = loss.float() / config.grad_accum
                (self.scaler.scale(scaled) if self.scaler is not None else scaled).backward()
            loss_sum += loss.detach().float()
            for name, value in metrics.items():
                v = value.detach().float() if isinstance(value, Tensor) else torch.tensor(float(value))
                metric_sums[name] = metric_sums.get(name, 0.0) + v.to(self.device)
        self.window = (start, samples_window, tokens_window)
        return loss_sum, metric_sums

    def weigh_ranks(self, loss: Tensor, metrics: Mapping[str, Any]) -> tuple[Tensor, dict[str, Any]]:
        """A loss that is a mean over a varying count of items (tokens with labels) reports that count as
        metrics[LOSS_WEIGHT]. Under DDP each rank's loss is then scaled by world_size * count / (count over
        all ranks), so DDP's mean of the ranks' gradients is the gradient of the mean over every item of
        the global batch, and the logged loss that mean: one process with the same global batch gets the
        same. Without the count every rank weighs the same (right for equal counts: fixed-length blocks,
        one label per image)."""
        metrics = dict(metrics)
        weight = metrics.pop(LOSS_WEIGHT, None)
        if weight is None or not self.ctx.is_distributed:
            return loss, metrics
        local = torch.as_tensor(weight, dtype=torch.float32, device=self.device).reshape(())
        total = local.clone()
        dist.all_reduce(total)  # SUM
        return loss * (local * self.ctx.world_size / total.clamp(min=1.0)), metrics

    def optimizer_step(self) -> tuple[Tensor, float]:
        """Clip, step, advance the schedule -> (gradient norm before clipping, the lr this step used)."""
        config, scaler = self.config, self.scaler
        if scaler is not None:
            scaler.unscale_(self.optimizer)  # clip the true gradients, not the scaled ones
        if config.grad_clip:
            grad_norm = torch.nn.utils.clip_grad_norm_(self.trainable, config.grad_clip)
        else:
            grad_norm = torch.nn.utils.get_total_norm([p.grad for p in self.trainable if p.grad is not None])
        lr = self.scheduler.get_last_lr()[0]
        if scaler is not None:
            scaler.step(self.optimizer)  # skips the update if gradients overflowed
            scaler.update()
        else:
            self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        if config.time_budget:
            now_s = max_over_ranks(self.elapsed(), self.ctx, self.device)  # ranks must agree on the last step
            self.out_of_time = now_s >= config.time_budget
            if isinstance(self.schedule, WarmupCosine):  # its decay follows the clock
                self.schedule.elapsed = now_s
        self.scheduler.step()
        self.step += 1
        return grad_norm, lr

    def log_step(self, loss_sum: Tensor, metric_sums: dict[str, Tensor], grad_norm: Tensor, lr: float) -> None:
        """The record of this step, averaged over micro-batches and ranks, with throughput since the last."""
        names = sorted(metric_sums)
        stacked = torch.stack([loss_sum, *(metric_sums[k] for k in names)]) / self.config.grad_accum
        values = mean_over_ranks(stacked, self.ctx).tolist()
        self.last_loss = values[0]
        if not math.isfinite(self.last_loss) and self.scaler is None:
            raise FloatingPointError(f"training loss is {self.last_loss} at step {self.step}")
        now = time.perf_counter()
        start, samples_window, tokens_window = self.window
        rate = self.ctx.world_size / max(now - start, 1e-9)  # assumes equal shards per rank
        record: dict[str, Any] = {"split": "train", "step": self.step, "loss": self.last_loss, "lr": lr,
                                  "grad_norm": float(grad_norm), "samples_per_s": samples_window * rate}
        if tokens_window is not None:
            record["tokens_per_s"] = float(tokens_window) * rate
        record["elapsed"] = self.elapsed()
        for name, value in zip(names, values[1:]):
            record[name if name not in record else f"train_{name}"] = value
        self.log.write(record)
        self.window = (now, 0, 0)

    def evaluate(self) -> None:
        raw = self.raw
        raw.eval()
        with preserved_rng(), torch.no_grad(), autocast_for(self.device, self.config.dtype):
            metrics = dict(self.eval_fn(raw))
        raw.train()
        names = sorted(metrics)
        values = mean_over_ranks(torch.tensor([float(metrics[k]) for k in names], dtype=torch.float64,
                                              device=self.device), self.ctx).tolist()
        self.last_eval = dict(zip(names, values))
        self.log.write({"split": "eval", "step": self.step, "elapsed": self.elapsed(),
                        **{f"eval_{k}": v for k, v in self.last_eval.items()}})

    def save(self) -> None:
        # Collectives first (every rank takes part), then rank 0 writes (with FSDP, every rank its shards).
        state_fn = getattr(self.data, "state_dict", None)
        data_states = gather_to_main(state_fn() if callable(state_fn) else None, self.ctx)
        rng_states = gather_to_main(rng_state(), self.ctx)
        state = dict(step=self.step, scheduler=self.scheduler, scaler=self.scaler, data=data_states, rng=rng_states,
                     elapsed=self.elapsed(), config=self.config.to_dict(), **base_record(self.raw)
                     ) if self.ctx.is_main else {}
        kept = keep_previous(self.ckpt_path, self.saved_step, self.config.keep_last, self.fsdp, self.ctx.is_main)
        try:
            if self.fsdp:
                save_sharded(self.ckpt_path, self.raw, self.optimizer, loop_state(**state) if state else {},
                             self.ctx, keep=kept)
            elif self.ctx.is_main:
                save_training_state(self.ckpt_path, model=self.raw, optimizer=self.optimizer, **state)
        except OSError as error:  # a full disk, a file-size limit, a vanished directory
            intact = (f"the previous checkpoint (step {self.saved_step}) is intact" if self.saved_step >= 0
                      else "no earlier checkpoint of this run exists")
            raise CheckpointWriteError(
                f"could not write the step-{self.step} checkpoint to {str(self.ckpt_path)!r} "
                f"({error.strerror or error}); {intact}. Free space (or raise the limit) and rerun with "
                "--resume") from error
        prune_kept(self.out, kept, self.config.keep_last, self.ctx.is_main)
        if self.ctx.is_main:
            plot_losses(self.log.records, self.out / PLOT_NAME)
        self.saved_step = self.step

    def loop(self) -> None:
        """Train to config.steps (or the time budget, or a signal), then evaluate and save the end state."""
        from tqdm.auto import tqdm

        config = self.config
        bar = tqdm(total=config.steps, initial=self.step, disable=None if (config.progress and self.ctx.is_main)
                   else True, dynamic_ncols=True, desc="train")
        try:
            self.raw.train()
            while self.step < config.steps and not self.out_of_time and not self.stop_signal:
                loss_sum, metric_sums = self.micro_batches()
                grad_norm, lr = self.optimizer_step()
                self.stop_signal = agreed_signal(self.signals.received, self.ctx, self.device)  # every rank alike
                bar.update(1)
                if self.due(config.log_every):
                    self.log_step(loss_sum, metric_sums, grad_norm, lr)
                    bar.set_postfix(loss=f"{self.last_loss:.4f}", lr=f"{lr:.2e}")
                t_pause = time.perf_counter()
                at_mark = self.passed_eval_mark()
                if self.eval_fn is not None and (self.due(config.eval_every) or at_mark):
                    self.evaluate()
                if self.due(config.save_every) or self.stop_signal:
                    self.save()
                start, samples, tokens = self.window
                self.window = (start + time.perf_counter() - t_pause, samples, tokens)  # throughput: training only
            if self.stop_signal:
                bar.close()
                raise self.interrupted(self.stop_signal)

            # Resumed at (or past) the end: nothing trained, but report the final state.
            if self.eval_fn is not None and not self.last_eval:
                self.evaluate()
            if self.saved_step != self.step:
                self.save()
            elif self.ctx.is_main:
                plot_losses(self.log.records, self.out / PLOT_NAME)
            if self.ctx.is_distributed:
                dist.barrier()  # nobody returns (and reads OUT) before rank 0 has written it
        finally:
            bar.close()
            self.log.close()

    def interrupted(self, signum: int) -> TrainingInterrupted:
        """What ends a run stopped by `signum` once its checkpoint is saved; rank 0 says it on stderr."""
        error = TrainingInterrupted(signum, self.step, self.ckpt_path)
        if self.ctx.is_main:
            print(error, file=sys.stderr)
        return error


class CheckpointWriteError(OSError):
    """A checkpoint could not be written (disk full, file-size limit): the previous one is untouched."""


def train(
    model: nn.Module,
    data: BatchStreamLike,
    loss_fn: Callable[[nn.Module, Batch], LossOutput],
    config: TrainConfig,
    eval_fn: Callable[[nn.Module], Mapping[str, Any]] | None = None,
) -> TrainResult:
    """Train `model` for `config.steps` optimizer steps (see the module docstring for the contracts). SIGINT or
    SIGTERM ends it after the step under way, with a checkpoint, by TrainingInterrupted (exit status 130, 143)."""
    main = is_main_process()
    with hold(config.out, enabled=main), StopSignals(announce=main) as signals:
        run = _Run(model, data, loss_fn, config, eval_fn, signals)
        run.loop()
        final = plain_model(run.raw, run.ctx) if run.fsdp else run.raw  # gathering: every rank takes part
        if run.fsdp:
            # The gather leaves collectives in flight on the ranks that drop its result; a gloo group torn down
            # with work pending aborts its process ("terminate called without an active exception"). gloo's
            # barrier waits for all earlier work, so every rank returns with nothing outstanding.
            dist.barrier()
        if signals.received:  # it came during the last evaluation or save: the run is whole, and saved
            raise run.interrupted(signals.received)
    return TrainResult(step=run.step, train_loss=run.last_loss, eval_metrics=run.last_eval,
                       history=list(run.log.records), wall_time=time.perf_counter() - run.t_start, model=final)
