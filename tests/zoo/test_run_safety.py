"""Nothing of a training run is lost or mixed (zoo/training/interrupt.py, run_dir.py, provenance.py, the metrics log):
SIGINT / SIGTERM save a checkpoint at the step they stop and resume exactly, on every rank alike; a second
signal during the save cannot tear it; one run holds its output folder (a live holder refuses a second
writer, a dead one's lock is taken over, a run killed while writing its lock costs nothing); an earlier
run's folder is continued or replaced, never written over; a torn metrics line is dropped and a corrupt one
named; a checkpoint of another kind of model is refused by name."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.multiprocessing as mp

import zoo
from tests.zoo.test_training import ShuffleStream, config, make_mlp, mse_loss, regression_data, train_records
from zoo.io import CheckpointMismatchError, CorruptCheckpointError, load_torch_checkpoint
from zoo.training import TrainConfig, train
from zoo.training.distributed import DistContext
from zoo.training.provenance import remake, reusable
from zoo.training.run_dir import LOCK_NAME, RunDirError, hold, start_training
from zoo.training.tasks import causal_lm_loss

ROOT = Path(__file__).resolve().parents[2]
STEPS = 8
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}

WORKER = """
import io, os, signal, sys
from pathlib import Path
import torch
import zoo.io
import zoo.training.checkpoint as checkpoint
from tests.zoo.test_run_safety import run_config
from tests.zoo.test_training import ShuffleStream, make_mlp, mse_loss, regression_data
from zoo.training import train

out, signum, at, again = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
torch.set_num_threads(1)

class Signalled(ShuffleStream):
    # The signal comes while the first batch of step `at` is drawn (grad_accum 2: two batches a step).
    def __next__(self):
        self.calls = getattr(self, "calls", 0) + 1
        if signum and self.calls == 2 * at - 1:
            os.kill(os.getpid(), signum)
        return super().__next__()

def signalled_save(obj, path):
    # The same signal again halfway through writing the checkpoint (the real atomic write).
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    payload = buffer.getvalue()
    def write(f):
        f.write(payload[: len(payload) // 2])
        os.kill(os.getpid(), signum)
        f.write(payload[len(payload) // 2:])
    zoo.io.atomic_write(path, write)

if again:
    checkpoint.atomic_torch_save = signalled_save
train(make_mlp(dropout=0.3), Signalled(*regression_data(), 8, seed=5), mse_loss, run_config(out))
"""


def run_config(out: Path, resume: bool = False) -> TrainConfig:
    return config(out.parent, out=str(out), steps=STEPS, save_every=0, grad_accum=2, warmup_steps=2, resume=resume)


def run_in_process(out: Path, resume: bool = False) -> None:
    """The worker's run without a signal, here: the same losses (one thread, the same seeds)."""
    train(make_mlp(dropout=0.3), ShuffleStream(*regression_data(), 8, seed=5), mse_loss, run_config(out, resume))


def run_signalled(out: Path, signum: int, at: int, again: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WORKER, str(out), str(signum), str(at), str(int(again))],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env=ENV)


def losses(out: Path) -> list[tuple[int, float]]:
    return [(r["step"], r["loss"]) for r in train_records(out)]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> list[tuple[int, float]]:
    out = tmp_path_factory.mktemp("signals") / "full"
    run_in_process(out)
    return losses(out)


@pytest.mark.parametrize("signum, at, again", [(signal.SIGTERM, 3, False), (signal.SIGINT, 5, True)],
                         ids=["sigterm", "sigint-twice"])
def test_a_signal_saves_the_step_it_stops_at_and_resume_is_exact(tmp_path, uninterrupted, signum, at, again):
    out = tmp_path / "run"
    proc = run_signalled(out, signum, at, again)
    assert proc.returncode == 128 + signum, proc.stderr[-3000:]  # 143 for SIGTERM, 130 for SIGINT
    assert f"stopped after step {at}, checkpoint saved" in proc.stderr
    assert load_torch_checkpoint(out / "checkpoint.pt")["step"] == at  # whole, though save_every=0
    assert losses(out) == uninterrupted[:at]
    assert not (out / LOCK_NAME).exists()  # released on the way out
    run_in_process(out, resume=True)
    assert losses(out) == uninterrupted  # bit for bit


# ----------------------------------------------------------------------------- every rank stops alike

def ddp_worker(rank: int, world: int, rendezvous: str, out: str, at: int) -> None:
    import torch.distributed as dist

    from zoo.training.interrupt import TrainingInterrupted

    dist.init_process_group("gloo", init_method=f"file://{rendezvous}", rank=rank, world_size=world)
    torch.set_num_threads(1)
    x, y = regression_data()

    class SignalledOnRank1(ShuffleStream):  # only rank 1 is told to stop, at step `at`
        def __next__(self):
            self.calls = getattr(self, "calls", 0) + 1
            if rank == 1 and self.calls == at:
                os.kill(os.getpid(), signal.SIGTERM)
            return super().__next__()

    cfg = TrainConfig(steps=STEPS, lr=1e-2, device="cpu", out=out, progress=False, eval_every=0, save_every=0)
    result = {"code": 0, "step": None}
    try:
        train(make_mlp(), SignalledOnRank1(x, y, 8, seed=rank), mse_loss, cfg)
    except TrainingInterrupted as stop:
        result = {"code": stop.code, "step": stop.step}
    finally:
        dist.destroy_process_group()
    (Path(out) / f"rank{rank}.json").write_text(json.dumps(result))


def test_a_signal_to_one_rank_stops_every_rank_after_the_same_step(tmp_path):
    out, at = tmp_path / "ddp", 3
    mp.spawn(ddp_worker, args=(2, str(tmp_path / "rendezvous"), str(out), at), nprocs=2, join=True)
    for rank in (0, 1):  # one lock (rank 0's): rank 1 was not refused
        assert json.loads((out / f"rank{rank}.json").read_text()) == {"code": 143, "step": at}
    assert load_torch_checkpoint(out / "checkpoint.pt")["step"] == at
    assert [s for s, _ in losses(out)] == list(range(1, at + 1))


# ----------------------------------------------------------------------------- one run per folder

HOLDER = """
import os, signal, sys
from zoo.training.run_dir import hold
if sys.argv[2] == "torn":  # killed halfway through writing its pid into the lock file
    real = os.pwrite
    os.pwrite = lambda fd, data, offset: (real(fd, data[: len(data) // 2], offset), os.kill(os.getpid(), 9))
lock = hold(sys.argv[1])
lock.__enter__()
print("held", flush=True)
sys.stdin.read()
"""


def start_holder(out: Path, how: str = "whole") -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(out), how], cwd=ROOT, env=ENV, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if how == "whole":
        assert proc.stdout.readline() == "held\n", proc.stderr.read()
    return proc


def test_a_live_holder_refuses_a_second_run_and_a_dead_ones_lock_is_taken_over(tmp_path):
    out = tmp_path / "run"
    holder = start_holder(out)
    try:
        with pytest.raises(RunDirError, match=rf"in use by another training run \(pid {holder.pid} on "):
            train(make_mlp(), ShuffleStream(*regression_data(), 8), mse_loss, config(tmp_path, steps=2))
        assert not (out / "metrics.jsonl").exists()  # nothing of the second run was written
    finally:
        holder.kill()  # kill -9: no cleanup, the lock file stays
        holder.wait()
    assert json.loads((out / LOCK_NAME).read_text())["pid"] == holder.pid
    with pytest.warns(UserWarning, match=rf"taking over the lock of a run that is gone \(pid {holder.pid} "):
        train(make_mlp(), ShuffleStream(*regression_data(), 8), mse_loss, config(tmp_path, steps=2))
    assert [s for s, _ in losses(out)] == [1, 2] and not (out / LOCK_NAME).exists()


def test_the_lock_is_one_per_process_and_rank_0s_alone(tmp_path):
    with hold(tmp_path), hold(tmp_path / "."):  # the CLI holds it, then train does: the same lock
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == os.getpid()
    assert not (tmp_path / LOCK_NAME).exists()
    with hold(tmp_path / "rank1", enabled=False):
        assert not (tmp_path / "rank1").exists()  # ranks > 0 take nothing (and write nothing here)


def test_a_run_killed_while_writing_its_lock_loses_nothing(tmp_path):
    out = tmp_path / "run"
    train(make_mlp(), ShuffleStream(*regression_data(), 8), mse_loss, config(tmp_path, steps=3, save_every=1))
    before = losses(out)
    holder = start_holder(out, "torn")
    assert holder.wait(timeout=60) == -signal.SIGKILL, holder.stderr.read()
    assert 0 < len((out / LOCK_NAME).read_bytes()) and load_torch_checkpoint(out / "checkpoint.pt")["step"] == 3
    train(make_mlp(), ShuffleStream(*regression_data(), 8), mse_loss, config(tmp_path, steps=5, resume=True))
    assert losses(out)[:3] == before and [s for s, _ in losses(out)] == [1, 2, 3, 4, 5]


def test_a_kill_between_the_sharded_swaps_leaves_the_previous_checkpoint_in_place(tmp_path):
    (tmp_path / "checkpoint.dcp.old").mkdir()  # save_sharded renamed it aside, then died before the new one
    (tmp_path / "checkpoint.dcp.old" / "training_state.pt").write_bytes(b"state")
    start_training(tmp_path, TrainConfig(out=str(tmp_path), resume=True, fsdp=True), DistContext())
    assert (tmp_path / "checkpoint.dcp" / "training_state.pt").read_bytes() == b"state"


# ----------------------------------------------------------------------------- an earlier run's folder

def test_an_earlier_run_is_continued_or_replaced_never_written_over(tmp_path):
    x, y = regression_data()
    train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=4, save_every=1, keep_last=2))
    out = tmp_path / "run"
    with pytest.raises(RunDirError, match=r"holds an earlier run \(checkpoint-00000003.pt, checkpoint.pt, loss.png, "
                                          r"metrics.jsonl\): continue it with resume=True"):
        train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=2))
    assert load_torch_checkpoint(out / "checkpoint.pt")["step"] == 4
    train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=2, overwrite=True))
    assert [s for s, _ in losses(out)] == [1, 2]
    assert sorted(p.name for p in out.glob("checkpoint*")) == ["checkpoint.pt"]  # the old run's kept one went too


def test_a_torn_last_metrics_line_is_dropped_and_garbage_before_it_is_named(tmp_path):
    x, y = regression_data()
    train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=3))
    metrics = tmp_path / "run" / "metrics.jsonl"
    whole = metrics.read_text()
    metrics.write_text(whole + '{"split": "train", "step": 4, "lo')  # a kill halfway through a line
    train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=4, resume=True))
    assert [s for s, _ in losses(tmp_path / "run")] == [1, 2, 3, 4]
    lines = metrics.read_text().splitlines()
    metrics.write_text("\n".join([lines[0], "\x00\x00garbage", *lines[1:]]) + "\n")
    with pytest.raises(CorruptCheckpointError, match=r"metrics.jsonl' line 2: .*garbage.* is not a JSON record"):
        train(make_mlp(), ShuffleStream(x, y, 8), mse_loss, config(tmp_path, steps=5, resume=True))


def lm_stream(vocab: int = 300):
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, vocab, (8, 17), generator=g)
    return ShuffleStream(ids[:, :-1], ids[:, 1:], 4)


def lm_loss(model, batch):
    return causal_lm_loss(model, {"input_ids": batch[0], "labels": batch[1]})


def test_resuming_with_another_family_names_both(tmp_path):
    small = {"vocab_size": 300, "depth": 1}
    train(zoo.create_model("gpt_tiny", **small), lm_stream(), lm_loss, config(tmp_path, steps=1))
    with pytest.raises(CheckpointMismatchError, match=r"holds a gpt model \(GPTConfig\), this run builds a llama "
                                                      r"model \(LlamaConfig\)"):
        train(zoo.create_model("llama_tiny", **small), lm_stream(), lm_loss, config(tmp_path, steps=2, resume=True))


# ----------------------------------------------------------------------------- derived files

def test_a_derived_file_is_reused_only_when_made_from_the_same_data_and_settings(tmp_path):
    data, target = tmp_path / "data.txt", tmp_path / "tokens.bin"
    data.write_text("one two three")
    assert not reusable(target, data, {"vocab": 5}, resume=False)  # not made yet
    remake(target, data, {"vocab": 5}, lambda: target.write_bytes(b"ids"))
    assert reusable(target, data, {"vocab": 5}, resume=True)
    os.utime(data, ns=(1, 1))  # touched, same content: the hash says it is the same
    assert reusable(target, data, {"vocab": 5}, resume=True)
    assert not reusable(target, data, {"vocab": 6}, resume=False)  # a fresh run makes it again
    with pytest.raises(RunDirError, match=r"vocab was 5, now 6"):
        reusable(target, data, {"vocab": 6}, resume=True)
    data.write_text("one two four!")
    with pytest.raises(RunDirError, match=r"data was '.*data.txt' \(13 bytes, sha256 \w+\), now '.*data.txt' "
                                          r"\(13 bytes"):
        reusable(target, data, {"vocab": 5}, resume=True)
