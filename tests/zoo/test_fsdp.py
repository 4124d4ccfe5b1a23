"""FSDP2 through the engine (TrainConfig.fsdp): two gloo processes sharding gpt_tiny log the per-step losses
DDP logs on the same data, resume exactly from a sharded checkpoint (torch.distributed.checkpoint), keep the
last K sharded checkpoints, survive a full disk on one rank with one clear error on both, and hand back the
plain model whole on rank 0, equal to DDP's.

Each launch meets at a rendezvous file of its own (init_method=file://), not a TCP port: a port probed free
can be taken by the time the processes bind it."""
from __future__ import annotations

import json
import resource
import signal
from pathlib import Path

import pytest
import torch
import torch.multiprocessing as mp

import zoo
from data.loader import BatchStream

STEPS = 4


def lm_items(n: int = 64, t: int = 12) -> list[dict[str, torch.Tensor]]:
    g = torch.Generator().manual_seed(5)
    ids = torch.randint(0, 4096, (n, t + 1), generator=g)
    return [{"input_ids": row[:-1], "labels": row[1:]} for row in ids]


class StopAfter(BatchStream):
    """Raises when asked for batch `limit + 1`: a run that dies after its step-`limit` checkpoint. With
    `disk_full`, this rank's files may not grow past 1 KB from that batch on, and the run goes on."""

    def __init__(self, *args, limit: int, disk_full: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.limit, self.count, self.disk_full = limit, 0, disk_full

    def __next__(self):
        if self.count == self.limit:
            if not self.disk_full:
                raise RuntimeError("stopped")
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of a kill
            resource.setrlimit(resource.RLIMIT_FSIZE, (1024, resource.RLIM_INFINITY))
        self.count += 1
        return super().__next__()


def worker(rank: int, world: int, rendezvous: str, out: str, fsdp: bool, stop_at: int, resume: bool,
           keep_last: int, disk_full_rank: int) -> None:
    import torch.distributed as dist

    from zoo.training import CheckpointWriteError, TrainConfig, train
    from zoo.training.tasks import causal_lm_loss

    dist.init_process_group("gloo", init_method=f"file://{rendezvous}", rank=rank, world_size=world)
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = zoo.create_model("gpt_tiny", dropout=0.0)
    full = rank == disk_full_rank
    stops = stop_at and (full or disk_full_rank < 0)  # with a full disk on one rank, nobody stops
    stream_cls = (lambda *a, **k: StopAfter(*a, limit=stop_at, disk_full=full, **k)) if stops else BatchStream
    stream = stream_cls(lm_items(), 4, seed=1, rank=rank, world_size=world)
    config = TrainConfig(steps=STEPS, lr=3e-3, warmup_steps=1, device="cpu", out=out, progress=False, eval_every=0,
                         save_every=2, fsdp=fsdp, resume=resume, keep_last=keep_last)
    try:
        result = train(model, stream, causal_lm_loss, config)
        if rank == 0:
            torch.save({k: v.detach().clone() for k, v in result.model.state_dict().items()}, Path(out) / "final.pt")
            assert not any(type(v).__name__ == "DTensor" for v in result.model.state_dict().values())
        else:
            assert result.model is None if fsdp else result.model is not None
    except CheckpointWriteError as error:
        (Path(out) / f"error{rank}.txt").write_text(str(error))
    except RuntimeError as error:
        if "stopped" not in str(error):
            raise
    finally:
        dist.destroy_process_group()


def launch(out: Path, fsdp: bool, stop_at: int = 0, resume: bool = False, keep_last: int = 1,
           disk_full_rank: int = -1) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rendezvous = out / f"rendezvous-{len(list(out.glob('rendezvous-*')))}"
    mp.spawn(worker, args=(2, str(rendezvous), str(out), fsdp, stop_at, resume, keep_last, disk_full_rank),
             nprocs=2, join=True)


def losses(out: Path) -> list[float]:
    return [r["loss"] for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
            if r["split"] == "train"]


@pytest.fixture(scope="module")
def ddp(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fsdp") / "ddp"
    launch(out, fsdp=False)
    return out


def test_fsdp_equals_ddp_and_gathers_the_plain_model(ddp, tmp_path):
    out = tmp_path / "fsdp"
    launch(out, fsdp=True, keep_last=2)
    assert losses(out) == pytest.approx(losses(ddp), rel=1e-5, abs=1e-6)
    assert (out / "checkpoint.dcp" / "training_state.pt").is_file() and not (out / "checkpoint.pt").exists()
    # keep_last=2: the step-2 checkpoint was kept (renamed) when step 4's took its place.
    assert sorted(p.name for p in out.glob("checkpoint*")) == ["checkpoint-00000002.dcp", "checkpoint.dcp"]
    assert torch.load(out / "checkpoint-00000002.dcp" / "training_state.pt", weights_only=True)["step"] == 2
    shards = [p for p in (out / "checkpoint.dcp").iterdir() if p.suffix == ".distcp"]
    assert len(shards) == 2  # one per rank
    want, got = (torch.load(d / "final.pt", weights_only=True) for d in (ddp, out))
    assert want.keys() == got.keys()
    for k in want:
        torch.testing.assert_close(got[k], want[k], rtol=1e-4, atol=1e-5, msg=lambda m: f"{k}: {m}")


@pytest.mark.slow
def test_fsdp_resumes_exactly_from_a_sharded_checkpoint(tmp_path):
    full, out = tmp_path / "full", tmp_path / "resumed"
    launch(full, fsdp=True)
    launch(out, fsdp=True, stop_at=3)  # dies asking for step 4's batch; checkpoint at step 2
    assert json.loads((out / "train_config.json").read_text())["fsdp"] is True
    assert len(losses(out)) == 3
    launch(out, fsdp=True, resume=True)
    assert losses(out) == losses(full)  # bit for bit
    assert not (out / "checkpoint.dcp.tmp").exists()


def test_a_full_disk_on_one_rank_is_one_clear_error_on_both_and_keeps_the_checkpoint(tmp_path):
    out = tmp_path / "full"
    launch(out, fsdp=True, stop_at=2, disk_full_rank=1)  # rank 1's disk fills after the step-2 checkpoint
    errors = [(out / f"error{rank}.txt").read_text() for rank in (0, 1)]
    for error in errors:
        assert "could not write the step-4 checkpoint" in error and "rank 1" in error, error
        assert "the previous checkpoint (step 2) is intact" in error, error
    assert "File too large" in errors[0], errors[0]
    assert torch.load(out / "checkpoint.dcp" / "training_state.pt", weights_only=True)["step"] == 2
    assert not (out / "checkpoint.dcp.tmp").exists()
