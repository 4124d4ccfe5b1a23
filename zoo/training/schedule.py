"""The optimizer's parameter groups and the learning-rate schedules of the training engine.

AdamW groups follow nanoGPT and timm's `param_groups_weight_decay`; the engine's schedule is linear warmup then
cosine decay to a floor, over steps or, with a time budget, over the clock ("Cramming", Geiping &
Goldstein 2022). `InverseSqrt` is the Transformer's ("Attention is all you need", Vaswani et al. 2017,
section 5.3; fairseq's `inverse_sqrt` scheduler): linear warmup, then decay as 1 / sqrt(step).
"""
from __future__ import annotations

import math
from typing import Any

from torch import nn
from torch.nn.parallel import DistributedDataParallel


def param_groups(model: nn.Module, weight_decay: float) -> list[dict[str, Any]]:
    """AdamW groups: decay 2-D+ weights; never decay biases, norms, 1-D params or `no_weight_decay()` names.

    `model.no_weight_decay()` may return full parameter names ("pos_embed") or
    module prefixes ("pos_embed" also covers "pos_embed.weight"). A parameter
    reachable under several names (tied embeddings) appears once, under its
    first name, and is excluded from decay if any of its names is listed.
    Frozen parameters (requires_grad=False) are left out.
    """
    module = model.module if isinstance(model, DistributedDataParallel) else model
    hook = getattr(module, "no_weight_decay", None)
    skip = set(hook()) if callable(hook) else set()

    def listed(name: str) -> bool:
        return any(name == s or name.startswith(s + ".") for s in skip)

    names: dict[int, list[str]] = {}
    params: dict[int, nn.Parameter] = {}  # insertion-ordered: group order is stable across runs
    for name, p in module.named_parameters(remove_duplicate=False):
        if p.requires_grad:
            params.setdefault(id(p), p)
            names.setdefault(id(p), []).append(name)

    decay: dict[str, nn.Parameter] = {}
    no_decay: dict[str, nn.Parameter] = {}
    for key, p in params.items():
        all_names = names[key]
        exempt = p.ndim < 2 or any(n.endswith(".bias") or listed(n) for n in all_names)
        (no_decay if exempt else decay)[all_names[0]] = p
    if not params:
        raise ValueError(f"{type(module).__name__} has no trainable parameters")
    groups = [
        {"params": list(decay.values()), "param_names": list(decay), "weight_decay": weight_decay},
        {"params": list(no_decay.values()), "param_names": list(no_decay), "weight_decay": 0.0},
    ]
    return [g for g in groups if g["params"]]


def cosine_factor(progress: float, min_lr_ratio: float) -> float:
    """1 at progress 0, `min_lr_ratio` at progress >= 1, half a cosine in between."""
    progress = min(1.0, max(0.0, progress))
    return min_lr_ratio + (1.0 - min_lr_ratio) * 0.5 * (1.0 + math.cos(math.pi * progress))


def lr_factor(step: int, *, warmup_steps: int, total_steps: int, min_lr_ratio: float) -> float:
    """Multiplier of the peak lr for the update that completes step `step` (1-based).

    Linear warmup from 0 reaching 1 at `warmup_steps`, then cosine decay reaching
    `min_lr_ratio` at `total_steps` (and staying there). step 0 gives 0 with warmup.
    """
    if step < warmup_steps:
        return step / warmup_steps
    return cosine_factor((step - warmup_steps) / max(1, total_steps - warmup_steps), min_lr_ratio)


class WarmupCosine:
    """LambdaLR schedule. A class, not a lambda, so LambdaLR.state_dict() saves its settings (and, with a
    time budget, where the clock stood: a resumed run continues the same decay).

    With `time_budget` (seconds) the cosine follows the clock: the training loop sets `elapsed` before
    each scheduler.step(), and the decay runs from the end of warmup to the end of the budget, or to
    `total_steps` if the steps run out first.
    """

    def __init__(self, warmup_steps: int, total_steps: int, min_lr_ratio: float, time_budget: float = 0.0) -> None:
        self.warmup_steps = warmup_steps
        self.total_steps = total_steps
        self.min_lr_ratio = min_lr_ratio
        if time_budget:
            self.time_budget = time_budget
            self.elapsed = 0.0                        # seconds into the run, set by the loop
            self.warmup_end: float | None = None      # `elapsed` when warmup ended

    def __call__(self, index: int) -> float:
        # LambdaLR passes the number of scheduler.step() calls so far (0 for the
        # first update); shifting by one means no update is wasted at lr 0 and
        # the last one uses the floor exactly.
        step = index + 1
        if not getattr(self, "time_budget", 0.0) or step < self.warmup_steps:
            return lr_factor(step, warmup_steps=self.warmup_steps, total_steps=self.total_steps,
                             min_lr_ratio=self.min_lr_ratio)
        if self.warmup_end is None:
            self.warmup_end = self.elapsed
        by_clock = (self.elapsed - self.warmup_end) / max(self.time_budget - self.warmup_end, 1e-9)
        by_steps = (step - self.warmup_steps) / max(1, self.total_steps - self.warmup_steps)
        return cosine_factor(max(by_clock, by_steps), self.min_lr_ratio)  # whichever limit comes first


class InverseSqrt:
    """LambdaLR schedule of the 2017 Transformer: factor(step) = min(step^-0.5, step * warmup^-1.5) * warmup^0.5.

    Linear warmup to 1 at `warmup_steps`, then sqrt(warmup_steps / step). With the base lr
    `paper_peak_lr(d_model, warmup_steps)` the lr is the paper's d_model^-0.5 * min(step^-0.5, step * warmup^-1.5).
    Steps are 1-based as in WarmupCosine: the first update uses factor(1) = 1 / warmup_steps, not 0. A class, not
    a lambda, so LambdaLR.state_dict() saves `warmup_steps`.
    """

    def __init__(self, warmup_steps: int) -> None:
        if warmup_steps < 1:
            raise ValueError(f"warmup_steps must be >= 1 (the factor divides by it), got {warmup_steps}")
        self.warmup_steps = warmup_steps

    def __call__(self, index: int) -> float:
        step = index + 1  # LambdaLR counts scheduler.step() calls from 0; see WarmupCosine
        return min(step ** -0.5, step * self.warmup_steps ** -1.5) * self.warmup_steps ** 0.5


def paper_peak_lr(d_model: int, warmup_steps: int) -> float:
    """The base lr that makes InverseSqrt the paper's schedule: d_model^-0.5 * warmup_steps^-0.5, the lr at the
    end of warmup (7.0e-4 for the base model's d_model 512 and 4000 warmup steps)."""
    if d_model < 1 or warmup_steps < 1:
        raise ValueError(f"d_model and warmup_steps must be >= 1, got d_model={d_model}, warmup_steps={warmup_steps}")
    return d_model ** -0.5 * warmup_steps ** -0.5
