"""kill -9 for real: a training process dies by SIGKILL (no exception, no cleanup) at a step drawn from a
seed, or halfway through writing a checkpoint; a resumed run then logs every loss of a run that never
stopped, bit for bit, and the checkpoint on disk is always a whole one."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from zoo.io import load_torch_checkpoint

ROOT = Path(__file__).resolve().parents[2]
STEPS, SAVE_EVERY = 12, 3

WORKER = f"""
import io, os, signal, sys
from pathlib import Path
import torch
import zoo.io
import zoo.training.checkpoint as checkpoint
from tests.zoo.test_training import ShuffleStream, config, make_mlp, mse_loss, regression_data
from zoo.training import train

out, kill_at, where, resume = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1"
torch.set_num_threads(1)

class Killing(ShuffleStream):
    # SIGKILL when the first batch of step `kill_at` is asked for (grad_accum 2: two batches a step).
    def __next__(self):
        self.calls = getattr(self, "calls", 0) + 1
        if where == "step" and self.calls == 2 * kill_at - 1:
            os.kill(os.getpid(), signal.SIGKILL)
        return super().__next__()

def torn_save(obj, path):
    # The step-`kill_at` checkpoint dies halfway through its write (the real atomic_write: temp file, fsync).
    if where != "write" or obj["step"] != kill_at:
        return real_save(obj, path)
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    def half(f):
        f.write(buffer.getvalue()[: len(buffer.getvalue()) // 2])
        f.flush()
        os.fsync(f.fileno())
        os.kill(os.getpid(), signal.SIGKILL)
    zoo.io.atomic_write(path, half)

real_save, checkpoint.atomic_torch_save = checkpoint.atomic_torch_save, torn_save
x, y = regression_data()
cfg = config(out.parent, out=str(out), steps={STEPS}, save_every={SAVE_EVERY}, grad_accum=2, warmup_steps=2,
             resume=resume)
train(make_mlp(dropout=0.3), Killing(x, y, 8, seed=5), mse_loss, cfg)
"""


def run_worker(out: Path, kill_at: int = 0, where: str = "none", resume: bool = False) -> int:
    proc = subprocess.run([sys.executable, "-c", WORKER, str(out), str(kill_at), where, "1" if resume else "0"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"})
    assert proc.returncode in (0, -signal.SIGKILL), proc.stderr[-3000:]
    return proc.returncode


def losses(out: Path) -> list[tuple[int, float]]:
    records = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    return [(r["step"], r["loss"]) for r in records if r["split"] == "train"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> list[tuple[int, float]]:
    out = tmp_path_factory.mktemp("kill") / "full"
    assert run_worker(out) == 0
    return losses(out)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_sigkill_at_a_random_step_then_resume_gives_every_loss(tmp_path, uninterrupted, seed):
    kill_at = random.Random(seed).randint(2, STEPS)
    out = tmp_path / "run"
    assert run_worker(out, kill_at, "step") == -signal.SIGKILL
    saved = (kill_at - 1) // SAVE_EVERY * SAVE_EVERY  # the last save before the kill
    if saved:
        assert load_torch_checkpoint(out / "checkpoint.pt")["step"] == saved  # whole
    else:
        assert not (out / "checkpoint.pt").exists()  # killed before the first save: resume starts afresh
    assert losses(out) == uninterrupted[: kill_at - 1]  # logged up to the step before the kill
    assert run_worker(out, resume=True) == 0
    assert losses(out) == uninterrupted  # steps after the checkpoint were redone identically


def test_sigkill_inside_a_checkpoint_write_keeps_the_previous_one(tmp_path, uninterrupted):
    out = tmp_path / "run"
    assert run_worker(out, 2 * SAVE_EVERY, "write") == -signal.SIGKILL
    assert load_torch_checkpoint(out / "checkpoint.pt")["step"] == SAVE_EVERY  # the torn write never replaced it
    torn = list(out.glob(".checkpoint.pt.*.tmp"))
    assert len(torn) == 1  # what a kill leaves: the half-written temp file, beside the whole checkpoint
    assert run_worker(out, resume=True) == 0
    assert losses(out) == uninterrupted
    assert not torn[0].exists()  # the next run of that directory removes it
