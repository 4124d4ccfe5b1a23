"""The training scripts as a user meets them when something goes wrong: Ctrl-C saves and resumes exactly (exit
130); a second run on a busy --out, a rerun into a finished one, an --out that is a file, a reused --out whose
tokens came from other data, out-of-range options, an empty --data, a --sample the model cannot hold and a
--resume of another family each get one line naming the option and what was expected, before any training."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from data.text import KJV_EXTRACT
from tests.helpers import ROOT
from zoo.cli import train_text, train_vision
from zoo.cli.common import run
from zoo.io import CheckpointMismatchError, load_torch_checkpoint

TINY = ["--steps", "5", "--batch-size", "4", "--block-size", "32", "--vocab-size", "300", "--warmup", "1",
        "--eval-every", "0", "--save-every", "0", "--no-progress", "--threads", "1"]

# scripts/train_text.py's main, Ctrl-C'd (SIGINT from the terminal) while step `at` draws its batch.
INTERRUPTED = """
import os, signal, sys
import data.loader
from zoo.cli.common import run
from zoo.cli.train_text import main

at, calls, real = int(sys.argv[1]), [0], data.loader.BatchStream.__next__
def drawn(self):  # --eval-every 0: only the training stream draws before the end
    calls[0] += 1
    if calls[0] == at:
        os.kill(os.getpid(), signal.SIGINT)
    return real(self)
data.loader.BatchStream.__next__ = drawn
sys.exit(run(main, sys.argv[2:]))
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "chapters.txt"
    path.write_text("\n\n".join(Path(KJV_EXTRACT).read_text().split("\n\n")[:12]))
    return path


def gpt(corpus: Path, out: Path, *more: str) -> list[str]:
    return ["--model", "gpt_tiny", "--data", str(corpus), "--out", str(out), *TINY, *more]


def losses(out: Path) -> list[tuple[int, float]]:
    records = map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
    return [(r["step"], r["loss"]) for r in records if r["split"] == "train"]


def refused(main, argv: list[str], capsys) -> str:
    """The one line `run` prints for a usage error (exit status 2)."""
    assert run(main, argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1, lines
    return lines[0]


@pytest.fixture(scope="module")
def uninterrupted(corpus, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "full"
    train_text.main(gpt(corpus, out))
    return out


def test_ctrl_c_saves_the_step_it_stopped_at_exits_130_and_resume_is_exact(corpus, uninterrupted, tmp_path):
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-c", INTERRUPTED, "3", *gpt(corpus, out)], cwd=ROOT, text=True,
                          capture_output=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 130, proc.stderr[-3000:]
    assert "SIGINT: stopped after step 3, checkpoint saved" in proc.stderr
    assert load_torch_checkpoint(out / "checkpoint.pt")["step"] == 3  # --save-every 0: the signal's save
    assert losses(out) == losses(uninterrupted)[:3] and not (out / "summary.json").exists()
    train_text.main(gpt(corpus, out, "--resume"))
    assert losses(out) == losses(uninterrupted)  # bit for bit


def test_a_second_run_on_a_busy_out_is_refused_naming_the_holder(corpus, tmp_path, capsys):
    out = tmp_path / "run"
    holder = subprocess.Popen([sys.executable, "-c", "import sys; from zoo.training.run_dir import hold\n"
                               "lock = hold(sys.argv[1]); lock.__enter__(); print('held', flush=True); "
                               "sys.stdin.read()", str(out)], cwd=ROOT, text=True, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert holder.stdout.readline() == "held\n"
        line = refused(train_text.main, gpt(corpus, out), capsys)
        assert line.startswith(f"--out: '{out}' is in use by another training run (pid {holder.pid} on ")
    finally:
        holder.kill()
        holder.wait()
    assert sorted(p.name for p in out.iterdir()) == ["run.lock"]  # the refused run wrote nothing


def test_a_finished_out_is_resumed_or_overwritten_never_written_over(corpus, uninterrupted, tmp_path, capsys):
    out = tmp_path / "run"
    train_text.main(gpt(corpus, out, "--steps", "2"))
    line = refused(train_text.main, gpt(corpus, out, "--steps", "2"), capsys)
    assert line.startswith(f"--out: '{out}' holds an earlier run (checkpoint.pt, loss.png, metrics.jsonl, model, ")
    assert line.endswith("continue it with --resume or replace it with --overwrite")
    assert refused(train_text.main, gpt(corpus, out, "--resume", "--overwrite"), capsys).startswith(
        "--resume and --overwrite: expected one of them")
    train_text.main(gpt(corpus, out, "--overwrite"))  # same data and settings: tokens.bin is reused
    assert losses(out) == losses(uninterrupted)  # a fresh run: nothing of the first one's left


def test_an_out_that_is_a_file_is_one_line(corpus, tmp_path, capsys):
    (tmp_path / "taken").write_text("mine")
    assert refused(train_text.main, gpt(corpus, tmp_path / "taken"), capsys) == (
        f"--out '{tmp_path / 'taken'}' is a file: expected a directory to write into (an existing one or a new path)")
    assert (tmp_path / "taken").read_text() == "mine"


def test_a_reused_out_never_trains_on_the_old_data(corpus, tmp_path, capsys):
    out, other = tmp_path / "run", tmp_path / "other.txt"
    other.write_text("\n\n".join(Path(KJV_EXTRACT).read_text().split("\n\n")[12:24]))
    train_text.main(gpt(corpus, out, "--steps", "1"))
    line = refused(train_text.main, gpt(other, out, "--resume", "--steps", "2"), capsys)
    assert line.startswith(f"--resume: '{out / 'tokenizer'}' was made from other inputs than this run's: data "
                           f"was '{corpus}' (")
    assert f"now '{other}' (" in line and line.endswith("or start afresh with --overwrite")
    line = refused(train_text.main, gpt(corpus, out, "--resume", "--steps", "2", "--vocab-size", "280"), capsys)
    assert "vocab_size was 300, now 280" in line
    train_text.main(gpt(other, out, "--overwrite", "--steps", "1"))  # a fresh run makes both again
    for made in ("tokenizer", "tokens.bin"):
        assert json.loads((out / f"{made}.source.json").read_text())["data"]["path"] == str(other)
    fresh = tmp_path / "fresh"
    train_text.main(gpt(other, fresh, "--steps", "1"))
    assert (out / "tokens.bin").read_bytes() == (fresh / "tokens.bin").read_bytes()


@pytest.mark.parametrize("option, value, expected", [
    ("--label-smoothing", "2", "--label-smoothing 2.0: expected a float in [0, 1)"),
    ("--lr", "0", "--lr 0.0: expected a positive float"),
    ("--steps", "0", "--steps 0: expected an integer >= 1"),
    ("--batch-size", "0", "--batch-size 0: expected an integer >= 1"),
    ("--grad-accum", "0", "--grad-accum 0: expected an integer >= 1"),
    ("--warmup", "-1", "--warmup -1: expected 0 <= warmup_steps <= steps (5)"),
    ("--weight-decay", "-0.1", "--weight-decay -0.1: expected a float >= 0"),
    ("--betas", "0.9 1.5", "--betas 0.9 1.5: expected two floats in [0, 1)"),
    ("--dropout", "1", "--dropout 1.0: expected a float in [0, 1)"),
    ("--eval-every", "-1", "--eval-every -1: expected an integer >= 0"),
    ("--time-budget", "-2", "--time-budget -2.0: expected minutes >= 0 (0: off)"),
])
def test_options_out_of_range_are_refused_before_anything_is_written(tmp_path, capsys, option, value, expected):
    out = tmp_path / "run"
    argv = ["--data", "digits", "--out", str(out), "--no-progress", "--steps", "5", option, *value.split()]
    assert refused(train_vision.main, argv, capsys) == expected
    assert not out.exists()


def test_options_a_task_would_ignore_are_refused(corpus, tmp_path, capsys):
    assert refused(train_text.main, gpt(corpus, tmp_path, "--label-smoothing", "0.1"), capsys) == (
        "--label-smoothing 0.1: --task clm has no label smoothing (its targets are tokens); expected it only with "
        "--task cls")
    assert refused(train_text.main, ["--model", "bert_tiny", "--data", str(corpus), "--sample", "5"], capsys) == (
        "--sample 5: --task mlm does not generate; expected it with --task clm only")


def test_an_empty_data_file_is_named(tmp_path, capsys):
    (tmp_path / "empty.txt").write_text("\n\n  \n")
    assert refused(train_text.main, ["--data", str(tmp_path / "empty.txt"), "--out", str(tmp_path / "run")],
                   capsys) == f"--data '{tmp_path / 'empty.txt'}' is empty (5 bytes, whitespace only); expected a " \
                              "plain text file of documents"
    assert not (tmp_path / "run").exists()


def test_a_sample_longer_than_the_positions_is_refused_before_training(corpus, tmp_path, capsys):
    out = tmp_path / "run"
    line = refused(train_text.main, gpt(corpus, out, "--sample", "300"), capsys)  # gpt_tiny: 256 positions
    prompt = re.fullmatch(r"--sample 300: with the prompt's (\d+) tokens that exceeds gpt_tiny's 256 positions; "
                          r"expected at most (\d+)", line)
    assert prompt and int(prompt[1]) + int(prompt[2]) == 256, line
    assert not (out / "metrics.jsonl").exists()


def test_resuming_with_a_preset_of_another_family_names_both(corpus, tmp_path):
    out = tmp_path / "run"
    train_text.main(gpt(corpus, out, "--steps", "1"))
    argv = gpt(corpus, out, "--resume", "--steps", "2")
    argv[1] = "llama_tiny"
    with pytest.raises(CheckpointMismatchError, match=r"holds a gpt model \(GPTConfig\), this run builds a llama "
                                                      r"model \(LlamaConfig\)"):
        train_text.main(argv)
