"""scripts/train_text.py end to end on tiny settings: clm, mlm, then cls fine-tuning from the mlm model."""
import json
from pathlib import Path

import pytest
import torch
import transformers

import zoo
from data.collate import ClassificationCollator
from data.text import BROWN_EXTRACT, KJV_EXTRACT, brown_split
from data.tokenization import load_tokenizer
from tests.helpers import ROOT
from zoo.cli import train_text  # scripts/train_text.py wraps its main
from zoo.convert import directory_family
from zoo.training.lora import BASE_NAME, trained_family

SCRIPT = ROOT / "scripts" / "train_text.py"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    text = Path(KJV_EXTRACT).read_text().split("\n\n")[:12]  # a dozen chapters
    path = tmp_path_factory.mktemp("corpus") / "small.txt"
    path.write_text("\n\n".join(text))
    return path


TINY = ["--steps", "4", "--batch-size", "4", "--block-size", "32", "--vocab-size", "400", "--warmup", "1",
        "--eval-every", "2", "--eval-batches", "2", "--no-progress"]


def test_causal_lm_and_resume(corpus, tmp_path, capsys):
    out = tmp_path / "gpt"
    train_text.main(["--model", "gpt_tiny", "--data", str(corpus), "--out", str(out), "--sample", "5", *TINY])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["steps"] == 4 and summary["held_out_ppl"] > 1 and summary["sample"].startswith("And God said")
    assert "perplexity" in capsys.readouterr().out
    lines = (out / "metrics.jsonl").read_text().splitlines()
    assert [json.loads(line)["step"] for line in lines if '"train"' in line] == [1, 2, 3, 4]
    model = zoo.load_pretrained(out / "model")
    assert model.config.vocab_size == 400
    train_text.main(["--model", "gpt_tiny", "--data", str(corpus), "--out", str(out), "--resume",
                     "--steps", "6", *TINY[2:]])
    steps = [json.loads(line)["step"] for line in (out / "metrics.jsonl").read_text().splitlines()
             if '"train"' in line]
    assert steps == [1, 2, 3, 4, 5, 6]


def genre_test_accuracy(model_dir, block_size: int) -> tuple[float, float]:
    """(accuracy, majority-class rate) on the script's held-out Brown chunks, recomputed here from the saved
    model's predictions (batches of 64 in test order, padded as the script pads them)."""
    split = brown_split(BROWN_EXTRACT, unit="chunk", chunk_words=block_size // 2)
    tokenizer, model = load_tokenizer(model_dir), zoo.load_pretrained(model_dir).eval()
    collate = ClassificationCollator(tokenizer.pad_id, max_length=block_size, sep_id=tokenizer.sep_id)
    rows = [(tokenizer.encode(text), label) for text, label in split.test]
    right = 0
    with torch.no_grad():
        for start in range(0, len(rows), 64):
            batch = collate(rows[start:start + 64])
            predicted = model(batch["input_ids"], batch["attention_mask"]).argmax(-1)
            right += int((predicted == batch["labels"]).sum())
    labels = torch.tensor([label for _, label in rows])
    return right / len(rows), int(torch.bincount(labels).max()) / len(rows)


def test_mlm_then_genre_classification(corpus, tmp_path):
    mlm = tmp_path / "mlm"
    train_text.main(["--model", "bert_tiny", "--data", str(corpus), "--out", str(mlm), *TINY])
    assert json.loads((mlm / "summary.json").read_text())["task"] == "mlm"
    cls = tmp_path / "cls"
    train_text.main(["--task", "cls", "--init", str(mlm / "model"), "--out", str(cls),  # bert: --init's family
                     "--steps", "3", "--batch-size", "4", "--block-size", "32", "--eval-every", "0", "--no-progress"])
    summary = json.loads((cls / "summary.json").read_text())
    assert len(summary["labels"]) == 15
    # 3 steps cannot beat chance reliably; the reported accuracy must be the saved model's.
    accuracy, majority = genre_test_accuracy(cls / "model", block_size=32)
    assert summary["test_acc"] == pytest.approx(accuracy, abs=1e-12)
    assert summary["majority_baseline"] == pytest.approx(majority, abs=1e-12)
    assert (cls / "confusion.png").stat().st_size > 1000
    assert zoo.load_pretrained(cls / "model").config.num_classes == 15


def test_task_must_fit_the_model(tmp_path):
    with pytest.raises(SystemExit, match="does not fit"):
        train_text.main(["--model", "gpt_tiny", "--task", "mlm", "--data", "x"])
    hf = tmp_path / "hf-bert"  # --init's family, read from its config files: an HF directory, a LoRA run over it
    config = transformers.BertConfig(vocab_size=50, hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
                                     intermediate_size=32)
    transformers.BertForMaskedLM(config).save_pretrained(hf)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / BASE_NAME).write_text(json.dumps({"path": str(hf), "sha256": "0" * 64}))
    assert directory_family(hf) == trained_family(tmp_path / "run") == "bert"
    with pytest.raises(SystemExit, match=r"--task clm does not fit model .*hf-bert \(family bert\)"):
        train_text.main(["--task", "clm", "--init", str(hf), "--data", "x"])


def test_same_script_under_torchrun_ddp(corpus, tmp_path):
    """DESIGN's scale-out: the unchanged script under torchrun, 2 CPU processes, gloo."""
    import subprocess
    import sys

    out = tmp_path / "ddp"
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
           str(SCRIPT), "--model", "gpt_tiny", "--data", str(corpus), "--out", str(out), "--device", "cpu", *TINY]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    steps = [json.loads(line)["step"] for line in (out / "metrics.jsonl").read_text().splitlines()
             if '"train"' in line]
    assert steps == [1, 2, 3, 4]  # rank 0 alone writes
    assert zoo.load_pretrained(out / "model").config.vocab_size == 400
