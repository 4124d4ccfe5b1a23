"""Contracts of the training engine (zoo/training/) and atomic checkpoints (zoo/io.py).

Everything runs on CPU with models of a few hundred parameters; the stream
below implements the BatchStream protocol (next / state_dict / load_state_dict)
so these tests do not depend on data/.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import socket
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import Tensor, nn

from zoo.io import (
    CheckpointMismatchError,
    CorruptCheckpointError,
    atomic_torch_save,
    atomic_write,
    load_torch_checkpoint,
)
from zoo.training import (
    InverseSqrt,
    TrainConfig,
    WarmupCosine,
    is_main_process,
    lr_factor,
    make_eval_fn,
    paper_peak_lr,
    param_groups,
    train,
)

# ----------------------------------------------------------------------------- fixtures


class ShuffleStream:
    """Infinite shuffled minibatches of (x, y) with its own generator: position and order are its state."""

    def __init__(self, x: Tensor, y: Tensor, batch_size: int, seed: int = 0, shuffle: bool = True) -> None:
        self.x, self.y, self.batch_size, self.shuffle = x, y, batch_size, shuffle
        self.gen = torch.Generator().manual_seed(seed)
        self.order: Tensor | None = None
        self.pos = 0

    def __iter__(self) -> ShuffleStream:
        return self

    def __next__(self) -> tuple[Tensor, Tensor]:
        n = len(self.x)
        if self.order is None or self.pos + self.batch_size > n:
            self.order = torch.randperm(n, generator=self.gen) if self.shuffle else torch.arange(n)
            self.pos = 0
        idx = self.order[self.pos : self.pos + self.batch_size]
        self.pos += self.batch_size
        return self.x[idx], self.y[idx]

    def state_dict(self) -> dict[str, Any]:
        return {"gen": self.gen.get_state(), "order": self.order, "pos": self.pos}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.gen.set_state(state["gen"])
        self.order = None if state["order"] is None else state["order"].clone()
        self.pos = state["pos"]


class CrashAfter:
    """Wraps a stream and raises after `limit` batches, like a job killed mid-run."""

    def __init__(self, stream: ShuffleStream, limit: int) -> None:
        self.stream, self.limit, self.count = stream, limit, 0

    def __next__(self) -> tuple[Tensor, Tensor]:
        if self.count == self.limit:
            raise RuntimeError("simulated crash")
        self.count += 1
        return next(self.stream)

    def state_dict(self) -> dict[str, Any]:
        return self.stream.state_dict()

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.stream.load_state_dict(state)


def regression_data(n: int = 128, d_in: int = 8) -> tuple[Tensor, Tensor]:
    g = torch.Generator().manual_seed(1234)
    x = torch.randn(n, d_in, generator=g)
    w = torch.randn(d_in, 1, generator=g)
    return x, x @ w + 0.01 * torch.randn(n, 1, generator=g)


def make_mlp(hidden: int = 32, dropout: float = 0.0, seed: int = 0) -> nn.Module:
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(8, hidden), nn.GELU(), nn.Dropout(dropout), nn.Linear(hidden, 1))


def mse_loss(model: nn.Module, batch: tuple[Tensor, Tensor]) -> Tensor:
    x, y = batch
    return F.mse_loss(model(x), y)


def config(tmp_path: Path, **overrides: Any) -> TrainConfig:
    values: dict[str, Any] = dict(steps=6, lr=1e-2, device="cpu", out=str(tmp_path / "run"), progress=False,
                                  eval_every=0, save_every=0)
    values.update(overrides)
    return TrainConfig(**values)


def read_metrics(out: str | Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (Path(out) / "metrics.jsonl").read_text().splitlines()]


def train_records(out: str | Path) -> list[dict[str, Any]]:
    return [r for r in read_metrics(out) if r["split"] == "train"]


@pytest.fixture(autouse=True)
def _few_threads() -> None:
    torch.set_num_threads(1)  # 2-core CI; tiny models gain nothing from more


# ----------------------------------------------------------------------------- schedule, groups


def test_lr_factor_warmup_then_cosine_to_floor() -> None:
    f = lambda s: lr_factor(s, warmup_steps=10, total_steps=110, min_lr_ratio=0.1)  # noqa: E731
    assert f(0) == 0.0
    assert f(5) == pytest.approx(0.5)
    assert f(10) == pytest.approx(1.0)
    assert f(60) == pytest.approx(0.55)  # half-way through the cosine: (1 + 0.1) / 2
    assert f(35) == pytest.approx(0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi / 4)))
    assert f(110) == pytest.approx(0.1)
    assert f(500) == pytest.approx(0.1)  # stays on the floor past the end
    assert lr_factor(3, warmup_steps=0, total_steps=3, min_lr_ratio=0.0) == pytest.approx(0.0)

    # Through LambdaLR: the k-th update (k = 1..steps) uses lr * lr_factor(k).
    opt = torch.optim.AdamW([nn.Parameter(torch.zeros(2, 2))], lr=2.0)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, WarmupCosine(10, 110, 0.1))
    used = []
    for _ in range(110):
        used.append(sched.get_last_lr()[0])
        opt.step()
        sched.step()
    assert used[0] == pytest.approx(0.2) and used[9] == pytest.approx(2.0)
    assert used[59] == pytest.approx(1.1) and used[109] == pytest.approx(0.2)
    assert sched.state_dict()["lr_lambdas"][0] == {"warmup_steps": 10, "total_steps": 110, "min_lr_ratio": 0.1}


def test_inverse_sqrt_is_the_transformer_schedule() -> None:
    d_model, warmup = 512, 40
    paper = lambda step: d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)  # noqa: E731  (section 5.3)
    schedule = InverseSqrt(warmup)
    assert schedule(0) == pytest.approx(1 / warmup)  # LambdaLR's index 0 is step 1, as in WarmupCosine
    assert schedule(warmup - 1) == pytest.approx(1.0)
    assert schedule(4 * warmup - 1) == pytest.approx(0.5)
    assert paper_peak_lr(512, 4000) == pytest.approx(6.9877e-4, rel=1e-4)  # the base model's peak
    with pytest.raises(ValueError, match="warmup_steps must be >= 1"):
        InverseSqrt(0)

    # Through LambdaLR with Adam: update k (k = 1..) uses the paper's lr at step k. A constant gradient makes
    # Adam's step m_hat / (sqrt(v_hat) + eps) = 1, so each update moves the parameter by exactly that lr.
    def run(steps: int, state: tuple[dict, dict] | None = None) -> tuple[list[float], list[float], tuple[dict, dict]]:
        param = nn.Parameter(torch.zeros(2, dtype=torch.float64))
        opt = torch.optim.Adam([param], lr=paper_peak_lr(d_model, warmup), betas=(0.9, 0.98), eps=1e-12)
        sched = torch.optim.lr_scheduler.LambdaLR(opt, InverseSqrt(warmup))
        if state is not None:  # as the engine resumes: optimizer (its lr included), then the schedule
            opt.load_state_dict(state[0])
            sched.load_state_dict(state[1])
        lrs, moves = [], []
        for _ in range(steps):
            lrs.append(opt.param_groups[0]["lr"])
            before = param.detach().clone()
            param.grad = torch.ones_like(param)
            opt.step()
            sched.step()
            moves.append(float(before[0] - param.detach()[0]))
        return lrs, moves, (opt.state_dict(), sched.state_dict())

    lrs, moves, state = run(1000)
    assert lrs == pytest.approx([paper(step) for step in range(1, 1001)], rel=1e-12)
    assert moves == pytest.approx(lrs, rel=1e-6)
    assert max(lrs) == pytest.approx(paper_peak_lr(d_model, warmup)) and lrs.index(max(lrs)) == warmup - 1
    assert state[1]["lr_lambdas"][0] == {"warmup_steps": warmup}
    head, _, saved = run(600)
    tail, _, _ = run(400, saved)  # a resumed schedule continues where it stood
    assert head + tail == pytest.approx(lrs, rel=1e-12)


def test_time_budget_schedule_follows_the_clock() -> None:
    sched = WarmupCosine(warmup_steps=2, total_steps=1000, min_lr_ratio=0.0, time_budget=10.0)
    assert sched(0) == pytest.approx(0.5)  # warmup counts steps
    sched.elapsed = 2.0
    assert sched(1) == pytest.approx(1.0)  # warmup ends at 2 s: the decay runs over the 8 s left
    sched.elapsed = 6.0
    assert sched(2) == pytest.approx(0.5)  # half-way through the remaining time, whatever the step
    sched.elapsed = 12.0
    assert sched(3) == pytest.approx(0.0)
    assert WarmupCosine(2, 1000, 0.0, time_budget=10.0).__dict__.keys() >= {"time_budget", "elapsed", "warmup_end"}
    short = WarmupCosine(warmup_steps=0, total_steps=4, min_lr_ratio=0.0, time_budget=100.0)
    short.elapsed = 1.0
    assert short(1) == pytest.approx(0.5)  # the steps run out before the clock: they set the pace
    assert short(3) == pytest.approx(0.0)


def test_time_budget_stops_training_and_ends_at_the_floor(tmp_path: Path) -> None:
    import time

    x, y = regression_data()

    def slow_loss(model: nn.Module, batch: tuple[Tensor, Tensor]) -> Tensor:
        time.sleep(0.02)
        return mse_loss(model, batch)

    evals: list[int] = []
    cfg = config(tmp_path, steps=100_000, lr=1e-2, warmup_steps=3, min_lr_ratio=0.0, time_budget=1.0,
                 eval_every=0, save_every=0)
    result = train(make_mlp(), ShuffleStream(x, y, 16), slow_loss, cfg,
                   eval_fn=lambda m: evals.append(1) or {"loss": 0.0})
    records = train_records(tmp_path / "run")
    assert 3 < result.step < 100_000 and len(records) == result.step
    lrs = [r["lr"] for r in records]
    assert lrs[2] == pytest.approx(1e-2)  # warmup reached the peak
    assert all(a >= b for a, b in zip(lrs[2:], lrs[3:]))  # then only decays
    assert lrs[-1] < 0.02 * 1e-2  # the last steps run at (nearly) the floor
    assert records[-1]["elapsed"] >= 1.0  # stopped once the budget was spent
    assert evals == [1]  # the final evaluation ran
    assert load_torch_checkpoint(tmp_path / "run" / "checkpoint.pt")["step"] == result.step

    resumed = train(make_mlp(), ShuffleStream(x, y, 16), slow_loss, dataclasses.replace(cfg, resume=True))
    assert resumed.step == result.step  # the budget was spent: nothing more to do


class TinyLM(nn.Module):
    """Embedding + learned positions + norm + tied head; no_weight_decay() as in timm."""

    def __init__(self, vocab: int = 11, dim: int = 6, ctx: int = 4, exempt: tuple[str, ...] = ("pos_embed",)):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.pos_embed = nn.Parameter(torch.zeros(1, ctx, dim))
        self.proj = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)
        self.head.weight = self.embed.weight  # tied: one Parameter, two names
        self.frozen = nn.Parameter(torch.ones(3, 3), requires_grad=False)
        self.exempt = set(exempt)

    def no_weight_decay(self) -> set[str]:
        return self.exempt

    def forward(self, ids: Tensor) -> Tensor:
        return self.head(self.norm(self.proj(self.embed(ids) + self.pos_embed[:, : ids.shape[1]])))


def test_param_groups_decay_split_and_tied_dedupe() -> None:
    model = TinyLM()
    groups = param_groups(model, weight_decay=0.1)
    decay, no_decay = groups
    assert decay["weight_decay"] == 0.1 and no_decay["weight_decay"] == 0.0
    assert decay["param_names"] == ["embed.weight", "proj.weight"]  # head.weight is the same tensor
    assert sorted(no_decay["param_names"]) == ["norm.bias", "norm.weight", "pos_embed", "proj.bias"]
    every = [p for g in groups for p in g["params"]]
    assert len(every) == len({id(p) for p in every}) == 6  # each trainable tensor exactly once, frozen left out
    assert any(p is model.head.weight for p in decay["params"])

    # Listing the tied tensor under its *second* name (a module prefix) exempts it too.
    groups = param_groups(TinyLM(exempt=("pos_embed", "head")), weight_decay=0.1)
    names = {g["weight_decay"]: g["param_names"] for g in groups}
    assert names[0.1] == ["proj.weight"]
    assert "embed.weight" in names[0.0] and "head.weight" not in names[0.0]

    # The groups work as given, and torch keeps the names in its state dict.
    opt = torch.optim.AdamW(param_groups(model, 0.1), lr=1e-3)
    model(torch.tensor([[1, 2, 3]])).sum().backward()
    opt.step()
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["embed.weight", "proj.weight"]


def test_config_validation_names_the_field() -> None:
    with pytest.raises(ValueError, match="grad_accum"):
        TrainConfig(grad_accum=0)
    with pytest.raises(ValueError, match="warmup_steps"):
        TrainConfig(steps=5, warmup_steps=6)
    with pytest.raises(ValueError, match="dtype"):
        TrainConfig(dtype="fp8")
    assert TrainConfig.from_dict(json.loads(json.dumps(TrainConfig(betas=(0.8, 0.9)).to_dict()))).betas == (0.8, 0.9)


# ----------------------------------------------------------------------------- the loop


def test_loss_decreases_on_learnable_task(tmp_path: Path) -> None:
    x, y = regression_data()
    cfg = config(tmp_path, steps=60, lr=3e-2, warmup_steps=5, weight_decay=0.0)
    result = train(make_mlp(), ShuffleStream(x, y, 16), mse_loss, cfg)
    losses = [r["loss"] for r in result.history if r["split"] == "train"]
    assert len(losses) == 60 and result.step == 60
    assert sum(losses[-5:]) / 5 < 0.1 * sum(losses[:5]) / 5


def test_is_main_process_reads_rank_without_a_process_group(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch.distributed as dist

    assert not (dist.is_available() and dist.is_initialized())
    monkeypatch.delenv("RANK", raising=False)
    assert is_main_process()  # a plain process
    monkeypatch.setenv("RANK", "0")
    assert is_main_process()
    monkeypatch.setenv("RANK", "1")
    assert not is_main_process()  # torchrun's second process: no files, no prints


def test_grad_accumulation_equals_one_big_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    x, y = regression_data(n=32)
    clock = [0.0]  # a fake clock that advances 1 s per micro-batch, so the throughput is exact
    monkeypatch.setattr(time, "perf_counter", lambda: clock[0])

    def ticking_loss(model: nn.Module, batch: tuple[Tensor, Tensor]) -> Tensor:
        clock[0] += 1.0
        return mse_loss(model, batch)

    def one_step(batch_size: int, accum: int, out: str) -> tuple[list[Tensor], nn.Module]:
        model = make_mlp(seed=3)  # no dropout: both runs must see the same function
        last_grad: dict[int, Tensor] = {}
        for i, p in enumerate(model.parameters()):
            # Fires after every backward; the last call sees the fully accumulated gradient.
            p.register_post_accumulate_grad_hook(lambda p, i=i: last_grad.__setitem__(i, p.grad.clone()))
        stream = ShuffleStream(x, y, batch_size, shuffle=False)
        train(model, stream, ticking_loss, config(tmp_path, steps=1, grad_accum=accum, grad_clip=None, out=out))
        return [last_grad[i] for i in range(len(last_grad))], model

    grads_accum, model_accum = one_step(batch_size=8, accum=2, out=str(tmp_path / "a"))
    grads_big, model_big = one_step(batch_size=16, accum=1, out=str(tmp_path / "b"))
    for g_a, g_b in zip(grads_accum, grads_big, strict=True):
        torch.testing.assert_close(g_a, g_b, rtol=1e-5, atol=1e-6)
    for p_a, p_b in zip(model_accum.parameters(), model_big.parameters()):
        torch.testing.assert_close(p_a, p_b, rtol=1e-5, atol=1e-6)
    [rec_a], [rec_b] = train_records(tmp_path / "a"), train_records(tmp_path / "b")
    assert rec_a["loss"] == pytest.approx(rec_b["loss"], rel=1e-5)
    assert rec_a["grad_norm"] == pytest.approx(rec_b["grad_norm"], rel=1e-5)
    # 16 samples either way, in two micro-batches (2 fake seconds) or one (1 s).
    assert (rec_a["samples_per_s"], rec_a["elapsed"]) == (8.0, 2.0)
    assert (rec_b["samples_per_s"], rec_b["elapsed"]) == (16.0, 1.0)


def test_stop_and_resume_reproduces_uninterrupted_run_exactly(tmp_path: Path) -> None:
    x, y = regression_data()
    ex, ey = regression_data(n=32)

    def eval_fn(model: nn.Module) -> dict[str, float]:
        torch.rand(7)  # eval consumes global RNG; the engine must not let that leak into training
        return {"loss": F.mse_loss(model(ex), ey).item()}

    def run(out: str, model_seed: int = 0, crash_after: int | None = None, resume: bool = False, **kw: Any) -> Any:
        stream: Any = ShuffleStream(x, y, 8, seed=5)
        if crash_after is not None:
            stream = CrashAfter(stream, crash_after)
        cfg = config(tmp_path, steps=8, grad_accum=2, warmup_steps=2, out=out, resume=resume, save_every=3, **kw)
        model = make_mlp(dropout=0.3, seed=model_seed)
        return train(model, stream, mse_loss, cfg, eval_fn=eval_fn if kw.get("eval_every") else None), model

    full, model_full = run(str(tmp_path / "full"), eval_every=2)
    out = str(tmp_path / "resumed")
    with pytest.raises(RuntimeError, match="simulated crash"):
        run(out, crash_after=5 * 2, eval_every=2)  # dies fetching step 6's batches; last checkpoint: step 3
    assert [r["step"] for r in train_records(out)] == [1, 2, 3, 4, 5]
    assert load_torch_checkpoint(Path(out) / "checkpoint.pt")["step"] == 3

    # Fresh model (other init) and fresh stream: weights, optimizer, RNG and data position come from the checkpoint.
    resumed, model_resumed = run(out, model_seed=99, resume=True, eval_every=2)
    assert resumed.step == 8
    losses_full = [r["loss"] for r in train_records(tmp_path / "full")]
    records = train_records(out)
    assert [r["step"] for r in records] == list(range(1, 9))  # steps 4-5 of the crashed run were dropped
    assert [r["loss"] for r in records] == losses_full  # bit-for-bit
    assert [r["lr"] for r in records] == [r["lr"] for r in train_records(tmp_path / "full")]
    evals = [(r["step"], r["eval_loss"]) for r in read_metrics(out) if r["split"] == "eval"]
    assert evals == [(r["step"], r["eval_loss"]) for r in read_metrics(tmp_path / "full") if r["split"] == "eval"]
    assert [s for s, _ in evals] == [2, 4, 6, 8]
    for p_full, p_res in zip(model_full.parameters(), model_resumed.parameters()):
        assert torch.equal(p_full, p_res)
    assert resumed.train_loss == full.train_loss and resumed.eval_metrics == full.eval_metrics
    assert [r["loss"] for r in resumed.history if r["split"] == "train"] == losses_full

    # Evaluating (which draws random numbers) must not change the training trajectory either.
    no_eval, _ = run(str(tmp_path / "no_eval"))
    assert [r["loss"] for r in train_records(tmp_path / "no_eval")] == losses_full


def test_metrics_jsonl_plot_and_config_files(tmp_path: Path) -> None:
    x, y = regression_data()

    def loss_with_metrics(model: nn.Module, batch: tuple[Tensor, Tensor]) -> tuple[Tensor, dict[str, Any]]:
        pred = model(batch[0])
        return F.mse_loss(pred, batch[1]), {"mae": (pred - batch[1]).abs().mean(), "const": 2.0}

    eval_stream = ShuffleStream(*regression_data(n=32), 16, seed=9)
    eval_fn = make_eval_fn(eval_stream, mse_loss, num_batches=2, perplexity=True)
    cfg = config(tmp_path, steps=6, warmup_steps=2, eval_every=3, lr=1e-2)
    result = train(make_mlp(), ShuffleStream(x, y, 8), loss_with_metrics, cfg, eval_fn=eval_fn)

    out = Path(cfg.out)
    train_lines = train_records(out)
    assert [r["step"] for r in train_lines] == [1, 2, 3, 4, 5, 6]
    for r in train_lines:
        assert {"loss", "lr", "grad_norm", "samples_per_s", "elapsed", "mae", "const"} <= set(r)
        assert math.isfinite(r["loss"]) and r["const"] == 2.0
        assert r["lr"] == pytest.approx(1e-2 * lr_factor(r["step"], warmup_steps=2, total_steps=6, min_lr_ratio=0.1))
    eval_lines = [r for r in read_metrics(out) if r["split"] == "eval"]
    assert [r["step"] for r in eval_lines] == [3, 6]
    assert eval_lines[-1]["eval_ppl"] == pytest.approx(math.exp(eval_lines[-1]["eval_loss"]))
    assert result.eval_metrics["loss"] == eval_lines[-1]["eval_loss"]
    assert result.train_loss == train_lines[-1]["loss"] and result.wall_time >= train_lines[-1]["elapsed"]

    assert (out / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert TrainConfig.from_dict(json.loads((out / "train_config.json").read_text())) == cfg
    ckpt = load_torch_checkpoint(out / "checkpoint.pt")
    assert ckpt["step"] == 6 and ckpt["config"]["steps"] == 6 and ckpt["world_size"] == 1
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_token_throughput_from_dict_batches(tmp_path: Path) -> None:
    class TokenStream:
        def __init__(self) -> None:
            self.gen = torch.Generator().manual_seed(0)

        def __next__(self) -> dict[str, Tensor]:
            return {"input_ids": torch.randint(0, 11, (4, 3), generator=self.gen)}

        def state_dict(self) -> dict[str, Any]:
            return {"gen": self.gen.get_state()}

        def load_state_dict(self, state: dict[str, Any]) -> None:
            self.gen.set_state(state["gen"])

    def lm_loss(model: nn.Module, batch: dict[str, Tensor]) -> Tensor:
        ids = batch["input_ids"]
        return F.cross_entropy(model(ids).flatten(0, 1), ids.flatten())

    train(TinyLM(), TokenStream(), lm_loss, config(tmp_path, steps=2))
    for r in train_records(tmp_path / "run"):  # (4, 3) id batches: 3 tokens a sample, over the same window
        assert r["tokens_per_s"] == pytest.approx(3 * r["samples_per_s"])


def test_bf16_autocast_on_cpu(tmp_path: Path) -> None:
    x, y = regression_data()
    seen: list[torch.dtype] = []

    def loss_fn(model: nn.Module, batch: tuple[Tensor, Tensor]) -> Tensor:
        pred = model(batch[0])
        seen.append(pred.dtype)
        return F.mse_loss(pred.float(), batch[1])

    model = make_mlp()
    result = train(model, ShuffleStream(x, y, 16), loss_fn, config(tmp_path, steps=4, dtype="bf16"))
    assert seen and set(seen) == {torch.bfloat16}  # linear layers ran under autocast
    assert all(p.dtype == torch.float32 for p in model.parameters())  # master weights stay fp32
    # The same run in fp32: bf16 rounding moves the losses (here by <0.05%), not by half a percent.
    train(make_mlp(), ShuffleStream(x, y, 16), mse_loss, config(tmp_path, steps=4, out=str(tmp_path / "fp32")))
    bf16_losses, fp32_losses = ([r["loss"] for r in train_records(tmp_path / out)] for out in ("run", "fp32"))
    assert bf16_losses != fp32_losses and bf16_losses == pytest.approx(fp32_losses, rel=5e-3)
    assert result.train_loss == bf16_losses[-1]
    with pytest.raises(ValueError, match="fp16"):
        train(make_mlp(), ShuffleStream(x, y, 16), mse_loss, config(tmp_path, steps=1, dtype="fp16"))


@pytest.mark.slow  # ~20 s of compiling
def test_compiled_training_matches_eager(tmp_path: Path) -> None:
    """TrainConfig(compile=True): the same losses and weights as eager, and an eager model left behind."""
    x, y = regression_data()
    eager, compiled = make_mlp(seed=5), make_mlp(seed=5)
    train(eager, ShuffleStream(x, y, 16), mse_loss, config(tmp_path, steps=4, out=str(tmp_path / "eager")))
    train(compiled, ShuffleStream(x, y, 16), mse_loss,
          config(tmp_path, steps=4, compile=True, out=str(tmp_path / "compiled")))
    for a, b in zip(train_records(tmp_path / "eager"), train_records(tmp_path / "compiled"), strict=True):
        assert b["loss"] == pytest.approx(a["loss"], rel=1e-4)
    for p_e, p_c in zip(eager.parameters(), compiled.parameters(), strict=True):
        torch.testing.assert_close(p_c, p_e, rtol=1e-4, atol=1e-5)
    assert not hasattr(compiled, "_orig_mod")  # the caller's module is not replaced by the compiled wrapper
    assert set(load_torch_checkpoint(tmp_path / "compiled" / "checkpoint.pt")["model"]) == \
        set(eager.state_dict())  # no "_orig_mod." prefixes in the checkpoint


# ----------------------------------------------------------------------------- checkpoints


def test_corrupt_checkpoint_gives_clear_error_and_is_kept(tmp_path: Path) -> None:
    x, y = regression_data()
    cfg = config(tmp_path, steps=2)
    train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, cfg)
    path = Path(cfg.out) / "checkpoint.pt"
    data = path.read_bytes()
    for damaged in (data[: len(data) // 2], b"not a checkpoint at all"):
        path.write_bytes(damaged)
        with pytest.raises(CorruptCheckpointError, match="checkpoint.pt") as info:
            train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=4, resume=True))
        assert "corrupt or truncated" in str(info.value)
        assert path.read_bytes() == damaged  # never deleted or overwritten


def test_checkpoint_of_another_model_lists_mismatches(tmp_path: Path) -> None:
    x, y = regression_data()
    train(make_mlp(hidden=32), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=1))
    other = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Dropout(0.0), nn.Linear(16, 1), nn.Linear(1, 1))
    with pytest.raises(CheckpointMismatchError) as info:
        train(other, ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=2, resume=True))
    message = str(info.value)
    assert "checkpoint.pt" in message
    assert "0.weight: checkpoint (32, 8) vs model (16, 8)" in message
    assert "missing in checkpoint (2)" in message and "4.weight" in message and "4.bias" in message


def test_resume_without_checkpoint_says_so_and_starts_fresh(tmp_path: Path) -> None:
    x, y = regression_data()
    with pytest.warns(UserWarning, match="checkpoint.pt' does not exist: starting at step 0"):
        result = train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=2, resume=True))
    assert result.step == 2 and len(train_records(tmp_path / "run")) == 2


def test_keep_last_keeps_the_previous_checkpoints(tmp_path: Path) -> None:
    x, y = regression_data()
    out = tmp_path / "run"
    train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=8, save_every=2, keep_last=3))
    names = sorted(p.name for p in out.glob("checkpoint*.pt"))
    assert names == ["checkpoint-00000004.pt", "checkpoint-00000006.pt", "checkpoint.pt"]
    assert [load_torch_checkpoint(out / n)["step"] for n in names] == [4, 6, 8]
    # A resumed run keeps counting from its checkpoint: the step-8 state is kept when step 10 is written.
    with pytest.warns(UserWarning, match="settings that differ"):  # steps 8 -> 10
        train(make_mlp(), ShuffleStream(x, y, 8), mse_loss,
              config(tmp_path, steps=10, save_every=2, keep_last=3, resume=True))
    assert sorted(p.name for p in out.glob("checkpoint*.pt")) == [
        "checkpoint-00000006.pt", "checkpoint-00000008.pt", "checkpoint.pt"]
    # A damaged checkpoint.pt: the error names the older ones.
    (out / "checkpoint.pt").write_bytes(b"torn")
    with pytest.raises(CorruptCheckpointError, match="checkpoint-00000008.pt"):
        train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=12, keep_last=3, resume=True))


FULL_DISK_SCRIPT = """
import resource, signal, sys
import torch
from tests.zoo.test_training import ShuffleStream, config, make_mlp, mse_loss, regression_data
from zoo.training import CheckpointWriteError, train

class LimitAfter(ShuffleStream):  # after step 2's checkpoint, files may not grow past 1 KB: a full disk
    def __next__(self):
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == 3:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of a kill
            resource.setrlimit(resource.RLIMIT_FSIZE, (1024, resource.RLIM_INFINITY))
        return super().__next__()

torch.set_num_threads(1)
x, y = regression_data()
try:
    train(make_mlp(), LimitAfter(x, y, 8), mse_loss, config(__import__("pathlib").Path(sys.argv[1]), steps=4,
                                                             save_every=1, keep_last=2))
except CheckpointWriteError as error:
    print("ERROR:", error)
    sys.exit(3)
"""


def test_a_full_disk_is_one_clear_error_and_keeps_the_previous_checkpoint(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", FULL_DISK_SCRIPT, str(tmp_path)], cwd=root, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(root)})
    assert proc.returncode == 3, proc.stderr[-2000:]
    assert "could not write the step-3 checkpoint" in proc.stdout and "File too large" in proc.stdout
    assert "the previous checkpoint (step 2) is intact" in proc.stdout
    assert load_torch_checkpoint(tmp_path / "run" / "checkpoint.pt")["step"] == 2
    # keep_last=2: the failed write pruned nothing; the step-1 checkpoint kept earlier is still there.
    assert load_torch_checkpoint(tmp_path / "run" / "checkpoint-00000001.pt")["step"] == 1
    assert not list((tmp_path / "run").glob(".*.tmp"))  # the torn temp file is gone


def test_atomic_write_keeps_previous_file_on_failure(tmp_path: Path) -> None:
    path = tmp_path / "ckpt.pt"
    atomic_torch_save({"w": torch.arange(3)}, path)

    with pytest.raises(Exception):
        atomic_torch_save({"w": lambda: None}, path)  # unpicklable: fails before touching the file

    def half_then_fail(f: Any) -> None:
        f.write(b"partial bytes")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic_write(path, half_then_fail)
    assert torch.equal(load_torch_checkpoint(path)["w"], torch.arange(3))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt"]  # no temp files left behind


# ----------------------------------------------------------------------------- distributed


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ddp_worker(rank: int, world_size: int, port: int, out: str) -> None:
    import torch.distributed as dist

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE=str(world_size), LOCAL_RANK=str(rank))
    torch.set_num_threads(1)
    model = make_mlp(seed=100 + rank)  # different init per rank: DDP must broadcast rank 0's weights
    x, y = regression_data()
    stream = ShuffleStream(x[rank::world_size], y[rank::world_size], 8, seed=rank)  # each rank its own shard
    cfg = TrainConfig(steps=3, grad_accum=2, lr=1e-2, device="cpu", out=out, progress=False,
                      eval_every=0, save_every=2)
    try:
        result = train(model, stream, mse_loss, cfg)
        torch.save({"params": [p.detach().clone() for p in model.parameters()], "loss": result.train_loss},
                   Path(out) / f"rank{rank}.pt")
    finally:
        dist.destroy_process_group()


def test_ddp_two_cpu_processes_stay_in_sync(tmp_path: Path) -> None:
    import torch.multiprocessing as mp

    out = str(tmp_path / "ddp")
    mp.spawn(_ddp_worker, args=(2, _free_port(), out), nprocs=2, join=True)
    r0, r1 = (torch.load(Path(out) / f"rank{r}.pt", weights_only=True) for r in range(2))
    for p0, p1 in zip(r0["params"], r1["params"], strict=True):
        assert torch.equal(p0, p1)
    init0 = list(make_mlp(seed=100).parameters())
    assert not all(torch.equal(a, b) for a, b in zip(init0, r0["params"]))  # it did train
    assert r0["loss"] == r1["loss"]  # logged loss is the mean over ranks, identical everywhere
    assert [r["step"] for r in train_records(out)] == [1, 2, 3]  # written once, by rank 0
    ckpt = load_torch_checkpoint(Path(out) / "checkpoint.pt")
    assert ckpt["world_size"] == 2 and len(ckpt["data"]) == len(ckpt["rng"]) == 2
    assert ckpt["data"][0]["pos"] == ckpt["data"][1]["pos"] and not torch.equal(ckpt["data"][0]["gen"],
                                                                                 ckpt["data"][1]["gen"])


class RaggedLM(nn.Module):
    def __init__(self, vocab: int = 11, dim: int = 8) -> None:
        super().__init__()
        torch.manual_seed(3)
        self.embed, self.out = nn.Embedding(vocab, dim), nn.Linear(dim, vocab)

    def forward(self, ids: Tensor) -> Tensor:
        return self.out(torch.tanh(self.embed(ids)))


def token_mean_loss(model: nn.Module, batch: dict[str, Tensor]) -> tuple[Tensor, dict[str, Any]]:
    """Cross-entropy over the labelled positions only: each sample holds a different number of them."""
    logits = model(batch["ids"])
    loss = F.cross_entropy(logits.flatten(0, 1), batch["labels"].flatten(), ignore_index=-100)
    return loss, {"loss_weight": (batch["labels"] != -100).sum()}


def ragged_labels() -> list[dict[str, Tensor]]:
    g = torch.Generator().manual_seed(9)
    items = []
    for i in range(32):
        ids = torch.randint(0, 11, (6,), generator=g)
        labels = ids.roll(-1).clone()
        labels[1 + i % 5:] = -100  # 1 to 5 labelled tokens
        items.append({"ids": ids, "labels": labels})
    return items


def _weighted_ddp_worker(rank: int, world_size: int, port: int, out: str) -> None:
    import torch.distributed as dist

    from data.loader import BatchStream

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank),
                      WORLD_SIZE=str(world_size), LOCAL_RANK=str(rank))
    torch.set_num_threads(1)
    try:
        stream = BatchStream(ragged_labels(), 8 // world_size, seed=4, rank=rank, world_size=world_size)
        train(RaggedLM(), stream, token_mean_loss, TrainConfig(steps=4, lr=5e-2, device="cpu", out=out,
                                                             progress=False, eval_every=0, save_every=0))
    finally:
        dist.destroy_process_group()


def test_ddp_weighs_ranks_by_their_labelled_tokens(tmp_path: Path) -> None:
    """Two processes of 4 samples each give the per-step losses of one process of 8 (the same global batch),
    though the ranks hold different numbers of labelled tokens: the ranks are weighed by loss_weight."""
    import torch.multiprocessing as mp

    from data.loader import BatchStream

    single = str(tmp_path / "one")
    train(RaggedLM(), BatchStream(ragged_labels(), 8, seed=4), token_mean_loss,
          TrainConfig(steps=4, lr=5e-2, device="cpu", out=single, progress=False, eval_every=0, save_every=0))
    mp.spawn(_weighted_ddp_worker, args=(2, _free_port(), str(tmp_path / "two")), nprocs=2, join=True)
    one, two = ([r["loss"] for r in train_records(tmp_path / d)] for d in ("one", "two"))
    assert len(one) == len(two) == 4
    assert one == pytest.approx(two, rel=1e-5, abs=1e-6)
    assert "loss_weight" not in train_records(tmp_path / "two")[0]  # a weight, not a metric
