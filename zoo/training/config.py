"""The runtime options of one training run (saved as train_config.json and in every checkpoint), and
what `train` returns."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class ConfigValueError(ValueError):
    """A TrainConfig field out of its range: `field`, the `value` received and what was `expected`."""

    def __init__(self, field: str, value: Any, expected: str) -> None:
        super().__init__(f"TrainConfig.{field}={value!r}: expected {expected}")
        self.field, self.value, self.expected = field, value, expected


@dataclass(frozen=True)
class TrainConfig:
    """Runtime options of one run (saved as train_config.json and in the checkpoint). `steps` counts
    optimizer updates of `grad_accum` batches each; `*_every` of 0 means "only at the end"."""

    steps: int = 1000
    lr: float = 3e-4
    weight_decay: float = 0.1
    betas: tuple[float, float] = (0.9, 0.95)
    eps: float = 1e-8
    warmup_steps: int = 0
    # The lr schedule (schedule.py): "cosine", linear warmup then cosine decay to lr * min_lr_ratio at `steps`
    # (WarmupCosine); "inverse_sqrt", the 2017 Transformer's linear warmup then decay as 1 / sqrt(step)
    # (InverseSqrt: `steps`, min_lr_ratio and the time budget leave it alone; warmup_steps may exceed steps).
    schedule: str = "cosine"
    min_lr_ratio: float = 0.1  # cosine floor: the last step trains at lr * min_lr_ratio
    grad_clip: float | None = 1.0  # max global grad norm; 0 or None disables clipping
    grad_accum: int = 1
    dtype: str = "fp32"  # 'fp32' | 'bf16' (autocast, CPU and CUDA) | 'fp16' (autocast + GradScaler, CUDA)
    device: str = "auto"  # 'cpu' | 'cuda' | 'cuda:N' | 'auto'
    eval_every: int = 250
    # Seconds of the run's clock (as time_budget counts it) at which to evaluate too, once each, at the end of
    # the step that passes them: learning curves in time as well as in steps.
    eval_at: tuple[float, ...] = ()
    eval_batches: int = 20  # for the caller's eval_fn (see make_eval_fn); the engine cannot see eval data
    log_every: int = 1
    save_every: int = 500
    out: str = "runs/train"
    resume: bool = False
    # Start afresh in a folder that holds an earlier run: its checkpoints and metrics are deleted first. Without
    # it (and without resume) such a folder is refused, never written over.
    overwrite: bool = False
    seed: int = 0
    progress: bool = True
    compile: bool = False  # torch.compile the training forward/backward (evaluation stays eager)
    # Activation checkpointing per Transformer block (model.set_grad_checkpointing): less activation
    # memory for about one more forward per step.
    grad_checkpointing: bool = False
    keep_last: int = 1  # checkpoints kept: checkpoint.pt and the K - 1 before it (checkpoint-<step>.pt)
    # Under torchrun: FSDP2 (zoo/training/sharded.py) instead of DDP: parameters, gradients and optimizer
    # state sharded over the ranks, checkpoints sharded (checkpoint.dcp/), the plain model gathered at the end.
    fsdp: bool = False
    # Seconds of wall clock for the whole run (0: off). Training stops when it is spent or at `steps`,
    # whichever comes first, and the cosine decay follows whichever of the two is further along, so
    # the run ends at the floor however fast the machine turns out to be ("Cramming", Geiping &
    # Goldstein 2022). Evaluations and checkpoints count against it.
    time_budget: float = 0.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "betas", tuple(float(b) for b in self.betas))
        object.__setattr__(self, "eval_at", tuple(sorted(float(s) for s in self.eval_at)))
        object.__setattr__(self, "out", str(self.out))

        checks = {  # field: (valid?, what was expected)
            "steps": (self.steps >= 1, "an integer >= 1"),
            "lr": (self.lr > 0, "a positive float"),
            "weight_decay": (self.weight_decay >= 0, "a float >= 0"),
            "eps": (self.eps > 0, "a positive float"),
            "schedule": (self.schedule in ("cosine", "inverse_sqrt"), "'cosine' or 'inverse_sqrt'"),
            "warmup_steps": (self.warmup_steps >= 1, "an integer >= 1 (the inverse_sqrt schedule divides by it)")
            if self.schedule == "inverse_sqrt" else
            (0 <= self.warmup_steps <= self.steps, f"0 <= warmup_steps <= steps ({self.steps})"),
            "min_lr_ratio": (0.0 <= self.min_lr_ratio <= 1.0, "a float in [0, 1]"),
            "time_budget": (self.time_budget >= 0, "seconds >= 0 (0: off)"),
            "eval_at": (all(s > 0 for s in self.eval_at), "seconds > 0"),
            "grad_accum": (self.grad_accum >= 1, "an integer >= 1"),
            "keep_last": (self.keep_last >= 1, "an integer >= 1 (checkpoints kept)"),
            "grad_clip": (self.grad_clip is None or self.grad_clip >= 0, "None, 0 (off) or a positive max norm"),
            "betas": (len(self.betas) == 2 and all(0 <= b < 1 for b in self.betas), "two floats in [0, 1)"),
            "dtype": (self.dtype in ("fp32", "bf16", "fp16"), "'fp32', 'bf16' or 'fp16'"),
            "device": (self.device in ("cpu", "cuda", "auto") or self.device.startswith("cuda:"),
                       "'cpu', 'cuda', 'cuda:N' or 'auto'"),
            **{name: (getattr(self, name) >= 0, "an integer >= 0")
               for name in ("eval_every", "log_every", "save_every", "eval_batches")},
        }
        for name, (ok, expected) in checks.items():
            if not ok:
                raise ConfigValueError(name, getattr(self, name), expected)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> TrainConfig:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ValueError(f"TrainConfig.from_dict: unknown keys {unknown}; expected a subset of {sorted(known)}")
        return cls(**values)


@dataclass
class TrainResult:
    step: int  # optimizer steps done in total (including those before a resume)
    train_loss: float | None  # loss of the last step (mean over micro-batches and ranks)
    eval_metrics: dict[str, float]  # last eval_fn result, keys without the "eval_" prefix
    history: list[dict[str, Any]] = field(default_factory=list)  # metrics.jsonl records
    wall_time: float = 0.0  # seconds spent in this call
    # The trained model whole: the one passed in, or with fsdp the gathered plain copy (None on ranks > 0).
    model: Any = None
