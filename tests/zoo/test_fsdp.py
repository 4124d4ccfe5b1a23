"""FSDP2 through the engine (TrainConfig.fsdp): two gloo processes sharding gpt_tiny log the per-step losses
DDP logs on the same data, resume exactly from a sharded checkpoint (torch.distributed.checkpoint), and hand
back the plain model whole on rank 0, equal to DDP's."""
from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
import torch
import torch.multiprocessing as mp

import zoo
from data.loader import BatchStream

STEPS = 4


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lm_items(n: int = 64, t: int = 12) -> list[dict[str, torch.Tensor]]:
    g = torch.Generator().manual_seed(5)
    ids = torch.randint(0, 4096, (n, t + 1), generator=g)
    return [{"input_ids": row[:-1], "labels": row[1:]} for row in ids]


class StopAfter(BatchStream):
    """Raises when asked for batch `limit + 1`: a run that dies after its step-`limit` checkpoint."""

    def __init__(self, *args, limit: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.limit, self.count = limit, 0

    def __next__(self):
        if self.count == self.limit:
            raise RuntimeError("stopped")
        self.count += 1
        return super().__next__()


def worker(rank: int, world: int, port: int, out: str, fsdp: bool, stop_at: int, resume: bool) -> None:
    import torch.distributed as dist

    from zoo.training import TrainConfig, train
    from zoo.training.tasks import causal_lm_loss

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK=str(rank), WORLD_SIZE=str(world),
                      LOCAL_RANK=str(rank))
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = zoo.create_model("gpt_tiny", dropout=0.0)
    stream_cls = (lambda *a, **k: StopAfter(*a, limit=stop_at, **k)) if stop_at else BatchStream
    stream = stream_cls(lm_items(), 4, seed=1, rank=rank, world_size=world)
    config = TrainConfig(steps=STEPS, lr=3e-3, warmup_steps=1, device="cpu", out=out, progress=False, eval_every=0,
                         save_every=2, fsdp=fsdp, resume=resume)
    try:
        result = train(model, stream, causal_lm_loss, config)
        if rank == 0:
            torch.save({k: v.detach().clone() for k, v in result.model.state_dict().items()}, Path(out) / "final.pt")
            assert not any(type(v).__name__ == "DTensor" for v in result.model.state_dict().values())
        else:
            assert result.model is None if fsdp else result.model is not None
    except RuntimeError as error:
        if "stopped" not in str(error):
            raise
    finally:
        dist.destroy_process_group()


def launch(out: Path, fsdp: bool, stop_at: int = 0, resume: bool = False) -> None:
    mp.spawn(worker, args=(2, free_port(), str(out), fsdp, stop_at, resume), nprocs=2, join=True)


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
    launch(out, fsdp=True)
    assert losses(out) == pytest.approx(losses(ddp), rel=1e-5, abs=1e-6)
    assert (out / "checkpoint.dcp" / "training_state.pt").is_file() and not (out / "checkpoint.pt").exists()
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
