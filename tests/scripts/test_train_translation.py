"""zoo train-translation (scripts/train_translation.py) end to end on a slice of the shipped English-Spanish extract
with marian_tiny: the loss falls under the inverse square-root schedule, BLEU and chrF are logged during training and
reported at the end, model/ and model-hf/ load (transformers' logits equal ours), --average K is the mean of the
last K checkpoints, --resume continues bit for bit, and the mistakes a user makes are one line each."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import zoo
from data.parallel import PARALLEL_EXTRACT, SPLITS
from tests.helpers import ROOT
from zoo.cli import train_translation
from zoo.cli.common import run
from zoo.io import load_torch_checkpoint
from zoo.marian import shift_right
from zoo.training.translation import label_smoothed_loss, smoothed_cross_entropy

TINY = ["--model", "marian_tiny", "--vocab-size", "300", "--max-tokens", "512", "--warmup", "10", "--lr", "3e-3",
        "--eval-limit", "4", "--no-progress", "--threads", "1", "--device", "cpu"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """300 training pairs and 8 valid and test pairs of the shipped extract."""
    folder = tmp_path_factory.mktemp("parallel")
    for split in SPLITS:
        for language in ("en", "es"):
            lines = (PARALLEL_EXTRACT / f"{split}.{language}").read_text(encoding="utf-8").splitlines()
            kept = lines[:300] if split == "train" else lines[:8]
            (folder / f"{split}.{language}").write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return folder


def records(out: Path, split: str) -> list[dict]:
    return [r for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines()) if r["split"] == split]


def losses(out: Path) -> list[tuple[int, float]]:
    return [(r["step"], r["loss"]) for r in records(out, "train")]


@pytest.fixture(scope="module")
def trained(corpus, tmp_path_factory) -> Path:
    """30 steps, evaluated every 15, a checkpoint every 10 kept, the final model the mean of the last 3."""
    out = tmp_path_factory.mktemp("runs") / "mt"
    train_translation.main(["--data", str(corpus), "--out", str(out), "--steps", "30", "--eval-every", "15",
                            "--save-every", "10", "--keep-last", "3", "--average", "3", *TINY])
    return out


def test_the_loss_falls_on_the_papers_schedule_and_the_scores_are_logged(trained):
    train = records(trained, "train")
    assert [r["step"] for r in train] == list(range(1, 31))
    first, last = (sum(r["loss"] for r in chunk) / 5 for chunk in (train[:5], train[-5:]))
    assert last < first - 0.5, (first, last)
    for r in train:  # inverse_sqrt, warmup 10, peak 3e-3 (the lr of the update that completes step r["step"])
        assert r["lr"] == pytest.approx(3e-3 * min(r["step"] / 10, (10 / r["step"]) ** 0.5), rel=1e-9)
    assert train_config(trained)["schedule"] == "inverse_sqrt"
    assert train_config(trained)["betas"] == [0.9, 0.98] and train_config(trained)["eps"] == 1e-9
    evals = records(trained, "eval")
    assert [r["step"] for r in evals] == [15, 30]
    assert all({"eval_bleu", "eval_chrf", "eval_nll", "elapsed"} <= set(r) for r in evals)
    summary = json.loads((trained / "summary.json").read_text())
    assert summary["valid"]["sentences"] == summary["test"]["sentences"] == 8
    assert 0 <= summary["test"]["bleu"] <= 100 and summary["test"]["chrf"] > 0
    assert [p["step"] for p in summary["curve"]] == [15, 30]
    lines = [json.loads(line) for line in (trained / "translations.jsonl").read_text().splitlines()]
    assert [r["split"] for r in lines] == ["valid"] * 8 + ["test"] * 8
    assert {"source", "reference", "hypothesis"} <= set(lines[0])


def train_config(out: Path) -> dict:
    return json.loads((out / "train_config.json").read_text())


def test_average_is_the_mean_of_the_last_checkpoints(trained):
    names = ["checkpoint-00000010.pt", "checkpoint-00000020.pt", "checkpoint.pt"]
    assert json.loads((trained / "summary.json").read_text())["averaged"] == names
    states = [load_torch_checkpoint(trained / name)["model"] for name in names]
    model = zoo.load_pretrained(trained / "model")
    saved = model.state_dict()
    for key, value in saved.items():
        mean = torch.stack([s[key].double() for s in states]).mean(0).to(value.dtype)
        torch.testing.assert_close(value, mean, rtol=0, atol=1e-7, msg=key)
    assert not torch.equal(saved["embed.tokens.weight"], states[-1]["embed.tokens.weight"])  # not the last alone
    fewer = zoo.create_model("marian_tiny", vocab_size=300, pad_id=299)  # a time budget can end a run early:
    assert train_translation.average_last(fewer, trained, 5) == names  # the mean of the saves there are
    assert all(torch.equal(value, saved[key]) for key, value in fewer.state_dict().items())


def test_model_and_model_hf_load_and_agree_with_transformers(trained):
    transformers = pytest.importorskip("transformers")
    ours = zoo.load_pretrained(trained / "model").eval()
    assert ours.tokenizer.vocab_size == ours.config.vocab_size == 300
    hf = transformers.MarianMTModel.from_pretrained(trained / "model-hf").eval()
    tokenizer = transformers.MarianTokenizer.from_pretrained(trained / "model-hf")
    sources, targets = ["In the beginning God created the heaven", "And God said"], ["En el principio", "Y dijo"]
    batch = tokenizer(sources, text_target=targets, return_tensors="pt", padding=True)
    assert batch["input_ids"].tolist() == ours.tokenizer.batch(sources)["input_ids"].tolist()
    decoder_input_ids = shift_right(batch["labels"], ours.config.start_id)
    with torch.no_grad():
        theirs = hf(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"],
                    decoder_input_ids=decoder_input_ids).logits
        mine = ours(batch["input_ids"], batch["attention_mask"], decoder_input_ids)
    torch.testing.assert_close(mine, theirs, rtol=0, atol=1e-4)
    assert hf.generation_config.num_beams == 4 and hf.generation_config.length_penalty == 0.6


@pytest.mark.filterwarnings("ignore:resuming")  # with another --steps, as meant
def test_resume_continues_exactly_and_eval_at_minutes(corpus, trained, tmp_path, capsys):
    out = tmp_path / "run"
    common = ["--data", str(corpus), "--out", str(out), "--eval-every", "15", "--save-every", "10", *TINY]
    train_translation.main([*common, "--steps", "12", "--eval-at-minutes", "1e-6"])
    printed = capsys.readouterr().out
    assert "valid BLEU" in printed and "on 4 sentences (beam 4, length penalty 0.6)" in printed
    assert "test BLEU" in printed and "on 8 sentences" in printed and "valid BLEU at 1e-06 min:" in printed
    assert records(out, "eval")[0]["step"] == 1  # the clock passed the mark during step 1
    train_translation.main([*common, "--steps", "30", "--resume"])
    assert losses(out) == losses(trained)  # bit for bit: the schedule does not depend on --steps
    capsys.readouterr()
    line = refused([*common, "--steps", "31", "--resume", "--vocab-size", "280"], capsys)
    assert line.startswith(f"--resume: '{out / 'tokenizer'}' was made from other inputs") and "vocab_size was 300" \
        in line


def refused(argv: list[str], capsys) -> str:
    """The one line `run` prints for a usage error (exit status 2)."""
    assert run(train_translation.main, argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


def test_mistakes_are_one_line_before_anything_is_written(corpus, tmp_path, capsys):
    out = tmp_path / "run"
    broken = tmp_path / "broken"
    shutil.copytree(corpus, broken)
    (broken / "test.es").unlink()
    assert refused(["--data", str(broken), "--out", str(out)], capsys).startswith(
        f"--data: '{broken / 'test.es'}' is missing: a parallel corpus folder holds test.en, test.es")
    shutil.copy(corpus / "test.es", broken / "test.es")
    (broken / "valid.es").write_text("".join(f"{n}\n" for n in range(7)))
    assert refused(["--data", str(broken), "--out", str(out)], capsys) == (
        f"--data: '{broken / 'valid.en'}' has 8 lines but '{broken / 'valid.es'}' has 7: the files of a split must "
        "be aligned line by line")
    assert refused(["--data", str(corpus), "--source", "es", "--target", "es", "--out", str(out)], capsys) == (
        "--source es --target es: the same language; expected two different ones")
    assert refused(["--data", str(corpus), "--average", "3", "--keep-last", "2", "--out", str(out)], capsys) == (
        "--average 3: averaging the last 3 checkpoints needs them kept; expected --keep-last >= 3 (got 2)")
    assert refused(["--data", str(corpus), "--average", "3", "--keep-last", "3", "--steps", "20", "--save-every",
                    "10", "--out", str(out)], capsys) == (
        "--average 3: --steps 20 with --save-every 10 saves 2 checkpoint(s); expected --average <= 2 or a smaller "
        "--save-every")
    assert refused(["--data", str(tmp_path / "nowhere"), "--out", str(out)], capsys).startswith(
        f"--data '{tmp_path / 'nowhere'}': no such folder")
    assert not out.exists()


def test_the_loss_is_torchs_label_smoothed_cross_entropy():
    logits = torch.randn(2, 5, 11, generator=torch.Generator().manual_seed(0))
    labels = torch.tensor([[3, 1, 4, -100, -100], [1, 5, 9, 2, 6]])
    loss, metrics = smoothed_cross_entropy(logits, labels, 0.1)
    reference = torch.nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten(), label_smoothing=0.1)
    torch.testing.assert_close(loss, reference)
    assert int(metrics["loss_weight"]) == 8
    torch.testing.assert_close(metrics["nll"], torch.nn.functional.cross_entropy(logits.flatten(0, 1),
                                                                                 labels.flatten()))
    model = zoo.create_model("marian_tiny", vocab_size=11, pad_id=10)
    batch = {**model.example_inputs(2, 5), "labels": labels}
    loss_fn = label_smoothed_loss(0.1)
    torch.testing.assert_close(loss_fn(model, batch)[0], smoothed_cross_entropy(model(
        batch["input_ids"], batch["attention_mask"], batch["decoder_input_ids"]), labels, 0.1)[0])


@pytest.mark.slow
def test_ddp_and_fsdp_train_and_score_alike(corpus, tmp_path):
    """Under torchrun (2 gloo processes) every rank decodes the held-out sentences; with --fsdp the sharded model
    is gathered around the decoding. Same batches, same losses and scores."""
    script = str(ROOT / "scripts" / "train_translation.py")
    for name, extra in (("ddp", []), ("fsdp", ["--fsdp"])):
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", script,
               "--data", str(corpus), "--out", str(tmp_path / name), "--steps", "4", "--eval-every", "2", *TINY,
               *extra]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=ROOT)
        assert done.returncode == 0, done.stderr[-3000:]
    ddp, fsdp = (tmp_path / "ddp", tmp_path / "fsdp")
    assert [loss for _, loss in losses(fsdp)] == pytest.approx([loss for _, loss in losses(ddp)], rel=1e-5)
    assert [r["step"] for r in records(fsdp, "eval")] == [2, 4]
    scores = [json.loads((out / "summary.json").read_text())["test"] for out in (ddp, fsdp)]
    assert scores[0]["bleu"] == pytest.approx(scores[1]["bleu"]) and scores[0]["chrf"] == pytest.approx(
        scores[1]["chrf"])
