"""LoRA fine-tuning on the training engine (zoo/training/lora.py): only the adapters and a new head receive gradients
and sit in the optimizer; a checkpoint holds those tensors, their optimizer state and the base's hash, and nothing
else; a run killed by SIGKILL resumes to the losses of one that never stopped; a resume over another base is
refused; activation checkpointing, bf16 autocast and a quantised base (QLoRA) train; FSDP over two gloo processes
logs the losses of one process on the same global batch, checkpoints the adapters alone, gathers the adapted model
whole and resumes exactly from its sharded checkpoint (QLoRA's too, as DDP does)."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.multiprocessing as mp
from torch.distributed.checkpoint import FileSystemReader

import zoo
from data.loader import BatchStream
from tests.zoo.test_fsdp import StopAfter, lm_items
from zoo.io import CheckpointMismatchError, load_torch_checkpoint
from zoo.training import TrainConfig, train
from zoo.training.lora import LoRAConfig, prepare_lora, trained_keys
from zoo.training.tasks import causal_lm_loss, classification_loss

ROOT = Path(__file__).resolve().parents[2]
STEPS = 4


@pytest.fixture(autouse=True)
def _few_threads() -> None:
    torch.set_num_threads(1)


def lm_lora(out: Path, seed: int = 0, **lora) -> torch.nn.Module:
    """gpt_tiny (weights from `seed`) with rank-4 adapters on attention, its base named by `out` (nothing written)."""
    torch.manual_seed(seed)
    model = zoo.create_model("gpt_tiny", dropout=0.0)
    return prepare_lora(model, LoRAConfig(4, 8.0, **lora), out, out / "model")


def run_config(out: Path, **overrides) -> TrainConfig:
    values = dict(steps=STEPS, lr=1e-2, warmup_steps=1, device="cpu", out=str(out), progress=False, eval_every=0,
                  save_every=2)
    return TrainConfig(**{**values, **overrides})


def losses(out: Path) -> list[float]:
    return [r["loss"] for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
            if r["split"] == "train"]


def digit_batches(n: int = 32):
    g = torch.Generator().manual_seed(3)
    return [{"pixels": torch.randn(1, 8, 8, generator=g), "labels": int(torch.randint(0, 3, (), generator=g))}
            for _ in range(n)]


def test_only_the_adapters_and_the_new_head_train_and_are_checkpointed(tmp_path):
    torch.manual_seed(0)
    vit = zoo.create_model("vit_tiny_patch2_8")
    vit.reset_head(3)
    before = {k: v.clone() for k, v in vit.state_dict().items()}
    prepare_lora(vit, LoRAConfig(2, 4.0), tmp_path, tmp_path / "model", new_head=3)
    trained = trained_keys(vit)
    names = [n for n, _ in vit.named_parameters()]
    assert trained == {n for n in names if n.startswith("head.") or n.endswith(("lora_A", "lora_B"))}
    assert any(n.startswith("head.") for n in trained) and len(trained) > 2

    pixels = torch.randn(4, 1, 8, 8)
    vit(pixels).logsumexp(-1).sum().backward()
    for name, p in vit.named_parameters():  # lora_B starts at zero, so lora_A's first gradient is zero too
        assert (p.grad is not None) == (name in trained), name
        assert p.grad is None or name.endswith("lora_A") or p.grad.abs().sum() > 0, name
    vit.zero_grad(set_to_none=True)

    out = tmp_path / "lora"
    result = train(vit, BatchStream(digit_batches(), 8, seed=0), classification_loss(), run_config(out))
    after = result.model.state_dict()
    for name, value in before.items():
        changed = not torch.equal(after[name], value)
        assert changed == name.startswith("head."), name  # the frozen base is untouched
    assert all(after[n].abs().sum() > 0 for n in trained if n.endswith("lora_B"))  # started at zero, trained

    ckpt = load_torch_checkpoint(out / "checkpoint.pt")
    assert set(ckpt["model"]) == trained
    groups = ckpt["optimizer"]["param_groups"]
    assert {n for g in groups for n in g["param_names"]} == trained  # the optimizer holds them and nothing else
    assert len(ckpt["optimizer"]["state"]) == len(trained)
    assert ckpt["lora_base"]["path"] == str(tmp_path.resolve()) and ckpt["lora_base"]["num_classes"] == 3
    assert len(ckpt["lora_base"]["sha256"]) == 64

    torch.manual_seed(0)
    full = zoo.create_model("vit_tiny_patch2_8")
    full.reset_head(3)
    train(full, BatchStream(digit_batches(), 8, seed=0), classification_loss(), run_config(tmp_path / "full"))
    full_ckpt = load_torch_checkpoint(tmp_path / "full" / "checkpoint.pt")
    assert set(full_ckpt["model"]) == set(full.state_dict()) and "lora_base" not in full_ckpt
    sizes = {name: sum(t.numel() for t in c["model"].values()) for name, c in (("lora", ckpt), ("full", full_ckpt))}
    assert sizes["lora"] < sizes["full"] / 10, sizes
    assert (out / "checkpoint.pt").stat().st_size < (tmp_path / "full" / "checkpoint.pt").stat().st_size / 4


def test_resume_refuses_another_base_and_a_full_weight_run(tmp_path):
    out = tmp_path / "run"
    train(lm_lora(tmp_path), BatchStream(lm_items(), 4, seed=1), causal_lm_loss, run_config(out, steps=2))
    with pytest.raises(CheckpointMismatchError, match="sha256") as error:  # other weights: seed 1
        train(lm_lora(tmp_path, seed=1), BatchStream(lm_items(), 4, seed=1), causal_lm_loss,
              run_config(out, steps=STEPS, resume=True))
    assert "Resume over the run's own base" in str(error.value)
    with pytest.raises(CheckpointMismatchError, match="sha256"):  # the same weights, quantised
        train(lm_lora(tmp_path, base_quantize="int8"), BatchStream(lm_items(), 4, seed=1), causal_lm_loss,
              run_config(out, steps=STEPS, resume=True))
    torch.manual_seed(0)
    with pytest.raises(CheckpointMismatchError, match="LoRA run"):
        train(zoo.create_model("gpt_tiny", dropout=0.0), BatchStream(lm_items(), 4, seed=1), causal_lm_loss,
              run_config(out, steps=STEPS, resume=True))
    with pytest.raises(CheckpointMismatchError, match="rank"):  # the same base, adapters of another rank
        torch.manual_seed(0)
        model = prepare_lora(zoo.create_model("gpt_tiny", dropout=0.0), LoRAConfig(8, 8.0), tmp_path, tmp_path)
        train(model, BatchStream(lm_items(), 4, seed=1), causal_lm_loss, run_config(out, steps=STEPS, resume=True))
    full = tmp_path / "full"
    torch.manual_seed(0)
    train(zoo.create_model("gpt_tiny", dropout=0.0), BatchStream(lm_items(), 4, seed=1), causal_lm_loss,
          run_config(full, steps=2))
    with pytest.raises(CheckpointMismatchError, match="full-weight run"):
        train(lm_lora(tmp_path), BatchStream(lm_items(), 4, seed=1), causal_lm_loss,
              run_config(full, steps=STEPS, resume=True))


def test_activation_checkpointing_and_bf16_autocast(tmp_path):
    stream = lambda: BatchStream(lm_items(), 4, seed=1)  # noqa: E731
    train(lm_lora(tmp_path), stream(), causal_lm_loss, run_config(tmp_path / "plain"))
    train(lm_lora(tmp_path), stream(), causal_lm_loss, run_config(tmp_path / "ckpt", grad_checkpointing=True))
    assert losses(tmp_path / "ckpt") == pytest.approx(losses(tmp_path / "plain"), rel=1e-5)
    result = train(lm_lora(tmp_path), stream(), causal_lm_loss,
                   run_config(tmp_path / "bf16", dtype="bf16", grad_checkpointing=True))
    bf16 = losses(tmp_path / "bf16")
    assert len(bf16) == STEPS and all(torch.isfinite(torch.tensor(bf16)))
    assert bf16 == pytest.approx(losses(tmp_path / "plain"), abs=0.05)
    adapters = {n: p for n, p in result.model.named_parameters() if n.endswith("lora_B")}
    assert all(p.dtype == torch.float32 and p.abs().sum() > 0 for p in adapters.values())


class SameBatch:
    """One batch, over and over: a loss that must fall if the adapters learn anything."""

    def __init__(self, batch):
        self.batch = batch

    def __next__(self):
        return self.batch


@pytest.mark.parametrize("scheme", ["int8", "int4"])
def test_qlora_trains_adapters_over_a_quantised_base(tmp_path, scheme):
    model = lm_lora(tmp_path, base_quantize=scheme, targets=("q_proj", "k_proj", "v_proj", "o_proj", "fc1", "fc2"))
    layer = model.transformer.blocks[0].attn.q_proj
    assert type(layer).__name__ == "LoRAQuantizedLinear" and layer.scheme == scheme
    assert model.lora_base.quantization["scheme"] == scheme
    batch = {k: torch.stack([item[k] for item in lm_items()[:4]]) for k in ("input_ids", "labels")}
    train(model, SameBatch(batch), causal_lm_loss, run_config(tmp_path / scheme, steps=12, save_every=0))
    curve = losses(tmp_path / scheme)
    assert curve[-1] < curve[0] - 1.0 and curve == sorted(curve, reverse=True), curve
    assert all(p.grad is None for n, p in model.named_parameters() if not n.endswith(("lora_A", "lora_B")))


# --------------------------------------------------------------------------- kill -9, then --resume

KILL_STEPS, KILL_SAVE_EVERY = 8, 3
WORKER = f"""
import os, signal, sys
from pathlib import Path
import torch
from data.loader import BatchStream
from tests.zoo.test_fsdp import lm_items
from tests.zoo.test_lora_training import lm_lora, run_config
from zoo.training import train
from zoo.training.tasks import causal_lm_loss

out, kill_at = Path(sys.argv[1]), int(sys.argv[2])
torch.set_num_threads(1)

class Killing(BatchStream):
    # SIGKILL when the first batch of step `kill_at` is asked for (grad_accum 2: two batches a step).
    def __next__(self):
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == 2 * kill_at - 1:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().__next__()

model = lm_lora(out.parent, dropout=0.2)  # dropout: the resumed RNG must be the one that was saved
train(model, Killing(lm_items(), 4, seed=1), causal_lm_loss,
      run_config(out, steps={KILL_STEPS}, save_every={KILL_SAVE_EVERY}, grad_accum=2, resume=sys.argv[3] == "1"))
"""


def run_worker(out: Path, kill_at: int = 0, resume: bool = False) -> int:
    proc = subprocess.run([sys.executable, "-c", WORKER, str(out), str(kill_at), "1" if resume else "0"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"})
    assert proc.returncode in (0, -signal.SIGKILL), proc.stderr[-3000:]
    return proc.returncode


def test_sigkill_then_resume_gives_every_loss_of_an_uninterrupted_lora_run(tmp_path):
    run_worker(tmp_path / "full")
    kill_at = random.Random(0).randint(KILL_SAVE_EVERY + 1, KILL_STEPS)
    assert run_worker(tmp_path / "run", kill_at) == -signal.SIGKILL
    assert load_torch_checkpoint(tmp_path / "run" / "checkpoint.pt")["step"] == (kill_at - 1) // 3 * 3
    assert run_worker(tmp_path / "run", resume=True) == 0
    assert losses(tmp_path / "run") == losses(tmp_path / "full")  # bit for bit


# --------------------------------------------------------------------------- FSDP (and DDP) over two gloo processes


def worker(rank: int, world: int, rendezvous: str, out: str, fsdp: bool, stop_at: int, resume: bool,
           options: dict) -> None:
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"file://{rendezvous}", rank=rank, world_size=world)
    torch.set_num_threads(1)
    model = lm_lora(Path(out).parent, **options.get("lora", {}))
    stream = (StopAfter(lm_items(), 4, seed=1, rank=rank, world_size=world, limit=stop_at) if stop_at else
              BatchStream(lm_items(), 4, seed=1, rank=rank, world_size=world))
    try:
        result = train(model, stream, causal_lm_loss,
                       run_config(Path(out), fsdp=fsdp, resume=resume, **options.get("train", {})))
        if rank == 0:
            assert result.model.lora_base == model.lora_base
            torch.save({k: v.detach().clone() for k, v in result.model.state_dict().items()}, Path(out) / "final.pt")
    except RuntimeError as error:
        if "stopped" not in str(error):
            raise
    finally:
        dist.destroy_process_group()


def launch(out: Path, fsdp: bool, stop_at: int = 0, resume: bool = False, **options) -> None:
    """Two gloo processes train; options: {"lora": LoRAConfig fields, "train": TrainConfig fields}."""
    out.mkdir(parents=True, exist_ok=True)
    rendezvous = out / f"rendezvous-{len(list(out.glob('rendezvous-*')))}"
    mp.spawn(worker, args=(2, str(rendezvous), str(out), fsdp, stop_at, resume, options), nprocs=2, join=True)


@pytest.fixture(scope="module")
def single(tmp_path_factory) -> Path:
    """One process with the global batch of two ranks (8: each rank's 4 are every other of its first 8 items)."""
    out = tmp_path_factory.mktemp("lora-single") / "single"
    result = train(lm_lora(out.parent), BatchStream(lm_items(), 8, seed=1), causal_lm_loss, run_config(out))
    torch.save({k: v.detach().clone() for k, v in result.model.state_dict().items()}, out / "final.pt")
    return out


def test_fsdp_lora_equals_one_process_and_checkpoints_the_adapters_alone(single, tmp_path):
    out = tmp_path / "fsdp"
    launch(out, fsdp=True)
    assert losses(out) == pytest.approx(losses(single), rel=1e-5, abs=1e-6)
    saved = FileSystemReader(str(out / "checkpoint.dcp")).read_metadata().state_dict_metadata
    model_keys = {k.removeprefix("model.") for k in saved if k.startswith("model.")}
    assert model_keys == {k for k in torch.load(single / "final.pt", weights_only=True) if k.endswith(("_A", "_B"))}
    state = torch.load(out / "checkpoint.dcp" / "training_state.pt", weights_only=True)
    assert state["lora_base"]["sha256"] == load_torch_checkpoint(single / "checkpoint.pt")["lora_base"]["sha256"]
    want, got = (torch.load(d / "final.pt", weights_only=True) for d in (single, out))
    assert want.keys() == got.keys() and any(k.endswith("lora_A") for k in got)  # gathered with its adapters
    for k in want:
        torch.testing.assert_close(got[k], want[k], rtol=1e-4, atol=1e-5, msg=lambda m: f"{k}: {m}")


@pytest.mark.slow
def test_fsdp_lora_resumes_exactly_from_its_sharded_checkpoint(single, tmp_path):
    out = tmp_path / "resumed"
    launch(out, fsdp=True, stop_at=3)  # dies asking for step 4's batch; checkpoint at step 2
    assert len(losses(out)) == 3
    launch(out, fsdp=True, resume=True)
    assert losses(out) == pytest.approx(losses(single), rel=1e-5, abs=1e-6)
    launch(full := tmp_path / "full", fsdp=True)
    assert losses(out) == losses(full)  # bit for bit


@pytest.mark.slow
def test_fsdp_qlora_with_activation_checkpointing_and_bf16_equals_ddp(tmp_path):
    options = {"lora": {"base_quantize": "int8"}, "train": {"grad_checkpointing": True, "dtype": "bf16"}}
    launch(tmp_path / "ddp", fsdp=False, **options)
    launch(tmp_path / "fsdp", fsdp=True, **options)
    assert losses(tmp_path / "fsdp") == pytest.approx(losses(tmp_path / "ddp"), rel=1e-5, abs=1e-6)
    final = torch.load(tmp_path / "fsdp" / "final.pt", weights_only=True)
    assert final["transformer.blocks.0.attn.q_proj.qweight"].dtype == torch.int8  # gathered over its integers
