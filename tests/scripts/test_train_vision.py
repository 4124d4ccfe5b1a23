"""scripts/train_vision.py end to end on tiny settings: digits from scratch, resume, fine-tune with a new head."""
import importlib.util
import json
from pathlib import Path

import pytest
import torch

import zoo
from data.images import eval_transform, image_split, load_preprocess_config

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_vision.py"
spec = importlib.util.spec_from_file_location("train_vision", SCRIPT)
train_vision = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train_vision)

TINY = ["--model", "vit_tiny_patch2_8", "--data", "digits", "--batch-size", "16", "--warmup", "1",
        "--eval-every", "2", "--eval-batches", "2", "--no-progress"]


def train_steps(out: Path) -> list[int]:
    return [json.loads(line)["step"] for line in (out / "metrics.jsonl").read_text().splitlines()
            if '"train"' in line]


def digits_test_set(model_dir: Path, n: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The script's held-out digits (the first n), preprocessed as the saved model expects."""
    model = zoo.load_pretrained(model_dir)
    pre = load_preprocess_config(model_dir, model.config)
    split = image_split("digits", in_chans=pre["in_chans"])
    images, labels = split.test_images[:n], split.test_labels[:n]
    transform = eval_transform(pre)
    return torch.stack([transform(image) for image in images]), torch.as_tensor(labels)


def accuracy_of(model_dir: Path, n: int | None = None) -> float:
    """Top-1 accuracy of the saved model, recomputed here from its predictions (not evaluate_classifier)."""
    pixels, labels = digits_test_set(model_dir, n)
    with torch.no_grad():
        predicted = zoo.load_pretrained(model_dir).eval()(pixels).argmax(-1)
    return int((predicted == labels).sum()) / len(labels)


def test_digits_end_to_end_and_resume(tmp_path, capsys):
    out = tmp_path / "digits"
    summary = train_vision.main([*TINY, "--steps", "3", "--out", str(out)])
    assert "test top-1 accuracy" in capsys.readouterr().out
    assert summary == json.loads((out / "summary.json").read_text())
    assert summary["steps"] == 3 and summary["test_images"] == 359
    assert summary["test_acc"] == pytest.approx(accuracy_of(out / "model"), abs=1e-12)
    assert summary["augment"]["hflip"] is False and summary["augment"]["degrees"] == 10
    assert (out / "confusion.png").stat().st_size > 1000
    evals = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines() if '"eval"' in line]
    assert [e["step"] for e in evals] == [2, 3]
    # --eval-batches 2 of 16: periodic evaluation sees the first 32 test images; at step 3 with the final model.
    assert evals[-1]["eval_acc"] == pytest.approx(accuracy_of(out / "model", 32), abs=1e-12)
    assert all((e["eval_acc"] * 32) % 1 == 0 for e in evals)
    model = zoo.load_pretrained(out / "model")
    assert model.config.num_classes == 10 and (out / "model" / "preprocess_config.json").is_file()
    assert model(torch.zeros(2, 1, 8, 8)).shape == (2, 10)

    train_vision.main([*TINY, "--steps", "5", "--out", str(out), "--resume"])
    assert train_steps(out) == [1, 2, 3, 4, 5]


def test_fine_tune_from_a_checkpoint_gets_a_new_head_and_learns(tmp_path):
    """--init: our checkpoint with another number of classes gets a fresh head for the dataset's ten, and
    60 steps of 64 (a few seconds) take it well above chance (0.32-0.50 over base seeds 0-2; seed 0: 0.50)."""
    torch.manual_seed(0)
    base = zoo.create_model("vit_tiny_patch2_8", num_classes=3)
    base.save_pretrained(tmp_path / "base")
    out = tmp_path / "tuned"
    summary = train_vision.main([*TINY, "--init", str(tmp_path / "base"), "--steps", "60", "--batch-size", "64",
                                 "--lr", "1e-2", "--warmup", "3", "--eval-every", "0", "--out", str(out),
                                 "--no-augment", "--label-smoothing", "0.2"])
    tuned = zoo.load_pretrained(out / "model")
    assert tuned.config.num_classes == 10 and summary["augment"]["crop_padding"] == 0
    assert not torch.equal(tuned.patch_embed.proj.weight, base.patch_embed.proj.weight)  # it trained
    labels = digits_test_set(out / "model")[1]
    chance = int(torch.bincount(labels).max()) / len(labels)  # the majority class: ~0.10
    assert summary["test_acc"] > 2 * chance


def test_wrong_family_is_refused():
    with pytest.raises(SystemExit, match="trains ViTs"):
        train_vision.main(["--model", "gpt_tiny", "--steps", "1"])


@pytest.mark.slow
def test_same_script_under_torchrun_ddp(tmp_path):
    """DESIGN's scale-out: the unchanged script under torchrun, 2 CPU processes, gloo."""
    import subprocess
    import sys

    out = tmp_path / "ddp"
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
           str(SCRIPT), *TINY, "--steps", "3", "--out", str(out), "--device", "cpu", "--threads", "1"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert train_steps(out) == [1, 2, 3]
    assert zoo.load_pretrained(out / "model").config.num_classes == 10
