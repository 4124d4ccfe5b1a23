"""Every training script under torchrun equals one process on the same global batch: two gloo processes of
batch b log the per-step losses of one process of batch 2b (within 1e-5), with randomness off where it is
drawn per rank (dropout, augmentation). And two "nodes" on this machine (torchrun --nnodes 2, a c10d
rendezvous on 127.0.0.1) give the same.

Each case runs the scripts as a user would (subprocesses), so most are slow; the text case runs in CI."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from data.text import KJV_EXTRACT

ROOT = Path(__file__).resolve().parents[2]
SPEECH = ROOT / "data" / "speech_tiny"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def losses(out: Path) -> list[float]:
    return [r["loss"] for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
            if r.get("split") == "train"]


def run(cmd: list[str], timeout: int = 900) -> None:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env)
    assert done.returncode == 0, done.stderr[-3000:]


def single_and_ddp(script: str, args: list[str], batch: int, tmp_path: Path, nodes: bool = False,
                   extra: tuple[str, ...] = ()) -> tuple[list[float], list[float]]:
    """(losses of one process with --batch-size 2*batch, losses of two processes with --batch-size batch)."""
    path = str(ROOT / "scripts" / script)
    common = [*args, "--no-progress", "--threads", "1", "--device", "cpu", "--save-every", "0"]
    run([sys.executable, path, *common, "--batch-size", str(2 * batch), "--out", str(tmp_path / "one")])
    if not nodes:
        run([sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", path, *common,
             *extra, "--batch-size", str(batch), "--out", str(tmp_path / "two")])
    else:  # two single-process "nodes" meeting at a c10d rendezvous on loopback, as two machines would
        port = free_port()
        launch = [sys.executable, "-m", "torch.distributed.run", "--nnodes", "2", "--nproc_per_node", "1",
                  "--rdzv-backend", "c10d", "--rdzv-endpoint", f"127.0.0.1:{port}", "--rdzv-id", "zoo-test"]
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
        procs = [subprocess.Popen([*launch, "--node-rank", str(r), path, *common, "--batch-size", str(batch),
                                   "--out", str(tmp_path / "two")], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for r in range(2)]
        for p in procs:
            _, err = p.communicate(timeout=900)
            assert p.returncode == 0, err[-3000:]
    return losses(tmp_path / "one"), losses(tmp_path / "two")


TEXT = ["--model", "gpt_tiny", "--data", str(KJV_EXTRACT), "--steps", "4", "--block-size", "32", "--vocab-size",
        "400", "--warmup", "1", "--eval-every", "0", "--dropout", "0"]


def test_train_text_ddp_equals_one_process(tmp_path):
    one, two = single_and_ddp("train_text.py", TEXT, 4, tmp_path)
    assert len(one) == 4 and two == pytest.approx(one, rel=1e-5, abs=1e-6)


@pytest.mark.slow
def test_two_nodes_on_loopback_equal_one_process(tmp_path):
    one, two = single_and_ddp("train_text.py", TEXT, 4, tmp_path, nodes=True)
    assert len(one) == 4 and two == pytest.approx(one, rel=1e-5, abs=1e-6)


@pytest.mark.slow
def test_train_vision_ddp_equals_one_process(tmp_path):
    args = ["--model", "vit_tiny_patch2_8", "--data", "digits", "--steps", "4", "--warmup", "1", "--eval-every", "0",
            "--no-augment", "--dropout", "0"]
    one, two = single_and_ddp("train_vision.py", args, 8, tmp_path)
    assert len(one) == 4 and two == pytest.approx(one, rel=1e-5, abs=1e-6)


@pytest.mark.slow
def test_train_audio_keywords_ddp_equals_one_process(tmp_path):
    args = ["--task", "keywords", "--data", str(SPEECH / "keywords"), "--steps", "4", "--warmup", "1",
            "--eval-every", "0", "--dropout", "0"]
    one, two = single_and_ddp("train_audio.py", args, 8, tmp_path)
    assert len(one) == 4 and two == pytest.approx(one, rel=1e-5, abs=1e-6)


@pytest.mark.slow
def test_train_text_fsdp_equals_one_process_and_exports_the_model(tmp_path):
    """--fsdp: parameters sharded over the two processes, checkpoints sharded; the losses are one process's
    and model/ holds the whole model (save_pretrained of the gathered parameters)."""
    import torch

    import zoo

    one, two = single_and_ddp("train_text.py", [*TEXT, "--save-every", "2"], 4, tmp_path, extra=("--fsdp",))
    assert len(one) == 4 and two == pytest.approx(one, rel=1e-5, abs=1e-6)
    assert (tmp_path / "two" / "checkpoint.dcp" / "training_state.pt").is_file()
    model, reference = (zoo.load_pretrained(tmp_path / d / "model").eval() for d in ("two", "one"))
    ids = torch.randint(0, 400, (1, 16))
    torch.testing.assert_close(model(ids), reference(ids), rtol=1e-3, atol=1e-4)


@pytest.mark.slow
def test_train_multimodal_ddp_equals_one_process(tmp_path):
    """Stage 1 (captions of different lengths): the ranks are weighed by their caption tokens."""
    args = ["--stage", "1", "--steps", "3", "--warmup", "1", "--eval-every", "0", "--scenes", "64",
            "--eval-scenes", "4"]
    one, two = single_and_ddp("train_multimodal.py", args, 4, tmp_path)
    assert len(one) == 3 and two == pytest.approx(one, rel=1e-5, abs=1e-6)


@pytest.mark.slow
def test_train_audio_asr_ddp_equals_one_process(tmp_path):
    """Speech recognition with the decoder's cross-entropy alone (transcripts of different lengths): the ranks
    are weighed by their tokens. (With --ctc-weight > 0 the loss mixes a token mean and an utterance mean, and
    no one count makes the reduction exact.)"""
    args = ["--task", "asr", "--data", str(SPEECH / "asr"), "--steps", "3", "--warmup", "1", "--eval-every", "0",
            "--dropout", "0", "--ctc-weight", "0", "--eval-limit", "2"]
    one, two = single_and_ddp("train_audio.py", args, 4, tmp_path)
    assert len(one) == 3 and two == pytest.approx(one, rel=1e-5, abs=1e-6)


@pytest.mark.slow
def test_train_audio_asr_fsdp_with_ctc_equals_ddp(tmp_path):
    """--fsdp for speech recognition with the CTC head beside the decoder (a wrapper without a config, which
    rebuilds itself to gather the shards): two sharded processes log DDP's losses, and model/ holds the
    Whisper whole, equal to DDP's."""
    import torch

    import zoo

    args = ["--task", "asr", "--data", str(SPEECH / "asr"), "--steps", "3", "--warmup", "1", "--eval-every", "2",
            "--dropout", "0", "--ctc-weight", "0.5", "--eval-limit", "2", "--no-progress", "--threads", "1",
            "--device", "cpu", "--save-every", "2", "--batch-size", "4"]
    path = str(ROOT / "scripts" / "train_audio.py")
    torchrun = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", path, *args]
    run([*torchrun, "--out", str(tmp_path / "ddp")])
    run([*torchrun, "--fsdp", "--out", str(tmp_path / "fsdp")])
    assert len(losses(tmp_path / "ddp")) == 3
    assert losses(tmp_path / "fsdp") == pytest.approx(losses(tmp_path / "ddp"), rel=1e-5, abs=1e-6)
    assert (tmp_path / "fsdp" / "checkpoint.dcp" / "training_state.pt").is_file()
    model, reference = (zoo.load_pretrained(tmp_path / d / "model").eval() for d in ("fsdp", "ddp"))
    mel, ids = torch.randn(1, model.config.n_mels, 2 * model.config.audio_ctx), torch.tensor([[1, 2, 3]])
    torch.testing.assert_close(model(mel, ids), reference(mel, ids), rtol=1e-3, atol=1e-4)


@pytest.mark.slow
def test_train_multimodal_stage2_fsdp_with_a_frozen_tower_equals_one_process(tmp_path):
    """Stage 2 under --fsdp: the vision tower frozen inside sharded blocks, projector and language model
    trained; two sharded processes of batch b log one process's losses on batch 2b."""
    stage1 = tmp_path / "stage1"
    run([sys.executable, str(ROOT / "scripts" / "train_multimodal.py"), "--stage", "1", "--steps", "2", "--warmup",
         "1", "--eval-every", "0", "--scenes", "64", "--eval-scenes", "4", "--no-progress", "--threads", "1",
         "--device", "cpu", "--batch-size", "4", "--out", str(stage1)])
    args = ["--stage", "2", "--init", str(stage1), "--steps", "3", "--warmup", "1", "--eval-every", "0", "--scenes",
            "64", "--eval-scenes", "4", "--dropout", "0"]
    one, two = single_and_ddp("train_multimodal.py", args, 4, tmp_path, extra=("--fsdp",))
    assert len(one) == 3 and two == pytest.approx(one, rel=1e-5, abs=1e-6)
