"""Each training script's headline result with its wall time on this machine: the `make demo` recipes (the
shipped data, a few minutes each), run one after another as the user would run them, each script's
summary.json read back for the figure it is judged by.

    rows = run(quick=False, threads=2)      # one row per recipe: command, steps, wall time, headline figures
    print(report(rows))

The long runs behind the learning headlines (25-60 minutes each on the bigger data `make data` builds) are not
repeated here; docs/training-recipes.md lists them with their commands. Quick mode runs every recipe for a
handful of steps: it checks that each script runs and reports, not what it learns.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.report import BenchmarkError, table
from data.speech import SPEECH_TINY

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_SPEECH = SPEECH_TINY.relative_to(ROOT)  # named explicitly: without --data, train_audio takes the full set


@dataclass(frozen=True)
class Recipe:
    """One training run: `script` with `args` ("{out:NAME}": the output folder of recipe NAME, run before it),
    its quick-mode overrides, and the summary.json figures that are its headline."""
    name: str
    script: str
    args: tuple[str, ...]
    quick: tuple[str, ...]
    headline: Callable[[dict], dict[str, str]]


def _loss(s: dict) -> dict[str, str]:
    return {"held-out loss": f"{s['held_out_loss']:.3f}", "perplexity": f"{s['held_out_ppl']:.1f}"}


def _accuracy(*splits: str) -> Callable[[dict], dict[str, str]]:
    def figures(s: dict) -> dict[str, str]:
        return {f"{split} accuracy": f"{s[f'{split}_acc']:.1%}" for split in splits if f"{split}_acc" in s}
    return figures


def _wer(s: dict) -> dict[str, str]:
    return {f"{split} WER": f"{s[f'{split}_wer']:.3f}" for split in ("test", "human") if f"{split}_wer" in s}


def _answers(s: dict) -> dict[str, str]:
    return {f"{split} accuracy": f"{s[f'{split}_acc']['overall']:.1%}" for split in ("val", "phrasing", "test")
            if f"{split}_acc" in s}


def _caption(s: dict) -> dict[str, str]:
    return {"held-out caption loss": f"{s['test_loss']:.3f}"}


FEW = ("--eval-every", "0")
RECIPES = (
    Recipe("text: gpt_tiny on the KJV extract", "train_text",
           ("--model", "gpt_tiny", "--data", "data/corpus/kjv_extract.txt", "--steps", "600", "--batch-size", "16",
            "--block-size", "128", "--lr", "3e-3", "--warmup", "60", "--eval-every", "200"),
           ("--steps", "8", "--warmup", "2", *FEW), _loss),
    Recipe("vision: vit_tiny_patch2_8 on digits", "train_vision",
           ("--model", "vit_tiny_patch2_8", "--data", "digits", "--steps", "2000", "--eval-every", "500",
            "--save-every", "1000"), ("--steps", "8", "--warmup", "2", *FEW), _accuracy("test")),
    Recipe("audio: ast_tiny keywords (shipped speech)", "train_audio",
           ("--task", "keywords", "--data", str(SHIPPED_SPEECH / "keywords"), "--steps", "1000", "--batch-size", "64",
            "--lr", "3e-3", "--warmup", "50", "--eval-every", "250", "--save-every", "500"),
           ("--steps", "8", "--warmup", "2", *FEW), _accuracy("test", "human")),
    Recipe("audio: whisper_micro speech recognition (shipped speech)", "train_audio",
           ("--task", "asr", "--data", str(SHIPPED_SPEECH / "asr"), "--steps", "300", "--batch-size", "16",
            "--eval-every", "100", "--eval-limit", "100"),
           ("--steps", "4", "--warmup", "1", "--eval-limit", "4", *FEW), _wer),
    Recipe("vision-language: stage 1 (captions)", "train_multimodal",
           ("--stage", "1", "--steps", "100", "--eval-every", "0"), ("--steps", "4", "--warmup", "1", *FEW),
           _caption),
    Recipe("vision-language: stage 2 (scene questions)", "train_multimodal",
           ("--stage", "2", "--init", "{out:vision-language: stage 1 (captions)}", "--steps", "600", "--eval-every",
            "200", "--save-every", "200"), ("--steps", "4", "--warmup", "1", *FEW), _answers),
)


def command(recipe: Recipe, quick: bool, threads: int | None) -> list[str]:
    """The script's arguments: the recipe's with quick mode's flag-value overrides put in place (or added),
    then --threads and --no-progress."""
    args = list(recipe.args)
    overrides = [*(recipe.quick if quick else ()), *(("--threads", str(threads)) if threads else ())]
    for flag, value in zip(overrides[::2], overrides[1::2]):
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    return [f"scripts/{recipe.script}.py", *args, "--no-progress"]


def shown(argv: list[str]) -> str:
    """The command as the recipes table shows it: another recipe's output folder as <NAME --out>."""
    return "python " + " ".join(f"<{a[5:-1]} --out>" if a.startswith("{out:") else a for a in argv)


def _resolve(args: list[str], outs: dict[str, Path]) -> list[str]:
    return [str(outs[arg[5:-1]]) if arg.startswith("{out:") else arg for arg in args]


def run(quick: bool = False, threads: int | None = None, recipes: tuple[Recipe, ...] = RECIPES, log=print,
        work: str | Path | None = None) -> list[dict]:
    """Runs each recipe in a subprocess (in order: a later one may start from an earlier one's model) and
    reads its summary.json; one dict per recipe: name, command, steps, wall_s (the engine's training time),
    total_s (the whole process: data, training, evaluation), headline {figure: text}."""
    folder = Path(work or tempfile.mkdtemp(prefix="bench_recipes_"))
    outs, rows = {}, []
    for index, recipe in enumerate(recipes):
        out = outs[recipe.name] = folder / f"{index}-{recipe.script}"
        argv = command(recipe, quick, threads)
        log(f"  recipes: {recipe.name}: {shown(argv)}")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, *_resolve(argv, outs), "--out", str(out)], cwd=ROOT,
                              capture_output=True, text=True)
        total = time.perf_counter() - start
        if done.returncode != 0:
            raise BenchmarkError(f"recipe {recipe.name!r} failed (exit {done.returncode}): {done.stderr[-2000:]}")
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        rows.append({"name": recipe.name, "command": shown(argv), "steps": summary["steps"],
                     "wall_s": summary["wall_s"], "total_s": total, "headline": recipe.headline(summary)})
    return rows


def report(rows: list[dict]) -> str:
    """One row per recipe: what it trains, its headline figures, steps, training and whole-run minutes."""
    head = ("\n### Learning: each training script's `make demo` recipe on the shipped data\n\nTraining time is "
            "the engine's; the whole run adds data preparation and evaluation. The commands (add --out DIR):\n\n"
            + "\n".join(f"- {r['name']}: `{r['command']}`" for r in rows) + "\n")
    cells = [[r["name"], "; ".join(f"{k} **{v}**" for k, v in r["headline"].items()), r["steps"],
              f"{r['wall_s'] / 60:.1f}", f"{r['total_s'] / 60:.1f}"] for r in rows]
    return head + "\n" + table(["recipe", "headline (held-out)", "steps", "training min", "whole run min"], cells)
