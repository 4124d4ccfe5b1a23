"""Training at scale (scripts/benchmark.py --only scale): what activation checkpointing saves, what
torch.compile gains per family, and what a second process gains.

- Memory: one gpt2 training step (AdamW, fp32) on batch 1 x 1024 tokens, with and without
  --grad-checkpointing, each in a fresh process: the step's peak resident memory above the memory held
  before it (weights, gradients (zeroed, not freed) and AdamW's state exist already: a warm-up step ran),
  that is the activations and the logits, read from Linux's peak-RSS counter (VmHWM, reset through
  /proc/self/clear_refs) after malloc_trim, with glibc's mmap threshold fixed (FIXED_MMAP).
- Compile: a training step (forward, backward, AdamW) of each family's preset, eager against
  torch.compile, interleaved medians after the compiling calls.
- Processes: train_text.py on gpt_tiny for a few steps in one process and under torchrun with two (gloo,
  one thread each, the same per-process batch), samples per second from metrics.jsonl; scaling efficiency
  = two-process throughput / (2 x one-process throughput).
"""
from __future__ import annotations

import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

import zoo
from bench.report import BenchmarkError, table
from heads.lm import shift_targets

ROOT = Path(__file__).resolve().parents[1]
# glibc raises its mmap threshold after large frees (up to 32 MB), so later tensors come from its heap,
# which keeps them after they die: peak RSS would count that cache (2 threads: 36% saving measured with it,
# 58% without). A fixed threshold maps every large tensor and returns it when it dies.
FIXED_MMAP = {"MALLOC_MMAP_THRESHOLD_": "131072"}
COMPILE_PRESETS = ("gpt_tiny", "llama_tiny", "bert_tiny", "vit_tiny_patch4_28", "ast_tiny", "whisper_micro")


# ----------------------------------------------------------------------------- memory


def rss_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise BenchmarkError(f"/proc/self/status has no {field}: the memory section needs Linux")


def step_peak_mib(name: str, tokens: int, checkpointing: bool) -> dict:
    """In this process: a warm-up step, then one timed step's peak RSS above the RSS before it (MiB)."""
    torch.manual_seed(0)
    model = zoo.create_model(name, dropout=0.0).train()
    if checkpointing:
        model.set_grad_checkpointing()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(0, model.config.vocab_size, (1, tokens))

    labels = shift_targets(ids)

    def step() -> None:  # as the engine's causal_lm_loss: the model's own loss from its features
        model(ids, labels=labels).backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=False)  # the gradients' memory stays: held, as the weights are

    step()  # gradients' and AdamW's memory now exist
    libc = ctypes.CDLL("libc.so.6")
    libc.malloc_trim(0)
    before = rss_kib("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS
    start = time.perf_counter()
    step()
    seconds = time.perf_counter() - start
    return {"held_mib": before / 1024, "step_peak_mib": (rss_kib("VmHWM") - before) / 1024, "step_s": seconds}


def memory(name: str, tokens: int) -> dict:
    """Both variants, each in a fresh process (this module's __main__), so neither sees the other's heap."""
    rows = {}
    for checkpointing in (False, True):
        out = subprocess.run([sys.executable, "-m", "bench.scale", "memory", name, str(tokens),
                              str(int(checkpointing))], cwd=ROOT, capture_output=True, text=True, timeout=1800,
                             env={**os.environ, "PYTHONPATH": str(ROOT), **FIXED_MMAP})
        if out.returncode:
            raise BenchmarkError(f"memory probe failed: {out.stderr[-2000:]}")
        rows["checkpointed" if checkpointing else "plain"] = json.loads(out.stdout.strip().splitlines()[-1])
    rows["saving"] = 1 - rows["checkpointed"]["step_peak_mib"] / rows["plain"]["step_peak_mib"]
    return {"model": name, "tokens": tokens, **rows}


# ----------------------------------------------------------------------------- compile


def train_step_fn(model, inputs: dict, compiled: bool):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    forward = torch.compile(model) if compiled else model

    def step() -> None:
        out = forward(**inputs)
        out.float().pow(2).mean().backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    return step


def compile_speedup(names: tuple[str, ...], warmup: int, repeats: int) -> list[dict]:
    rows = []
    for name in names:
        torch.manual_seed(0)
        model = zoo.create_model(name, **({"dropout": 0.0} if "dropout" in zoo.model_info(name)["config"] else {}))
        inputs = model.example_inputs(batch_size=8, seq_len=max(64, getattr(model, "min_seq_len", 64)))
        eager, compiled = train_step_fn(model, inputs, False), train_step_fn(model, inputs, True)
        start = time.perf_counter()
        compiled()
        compile_s = time.perf_counter() - start
        for _ in range(warmup):
            eager(), compiled()
        times = {"eager": [], "compiled": []}
        for _ in range(repeats):
            for side, fn in (("eager", eager), ("compiled", compiled)):
                start = time.perf_counter()
                fn()
                times[side].append(time.perf_counter() - start)
        ratios = sorted(e / c for e, c in zip(times["eager"], times["compiled"]))
        rows.append({"model": name, "eager_ms": 1e3 * statistics.median(times["eager"]),
                     "compiled_ms": 1e3 * statistics.median(times["compiled"]), "speedup": statistics.median(ratios),
                     "spread": (ratios[len(ratios) // 4], ratios[-1 - len(ratios) // 4]), "compile_s": compile_s})
    return rows


# ----------------------------------------------------------------------------- processes


def processes(steps: int, batch: int) -> dict:
    """train_text.py on gpt_tiny: one process, then two under torchrun; samples/s after the first steps."""
    work = Path(tempfile.mkdtemp(prefix="bench_scale_"))
    script = str(ROOT / "scripts" / "train_text.py")
    args = ["--model", "gpt_tiny", "--data", str(ROOT / "data" / "corpus" / "kjv_extract.txt"), "--steps", str(steps),
            "--batch-size", str(batch), "--block-size", "128", "--eval-every", "0", "--save-every", "0",
            "--threads", "1", "--no-progress", "--device", "cpu"]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}
    result = {}
    for label, launcher in (("1 process", [sys.executable]),
                            ("2 processes", [sys.executable, "-m", "torch.distributed.run", "--standalone",
                                             "--nproc_per_node", "2"])):
        out = work / label.replace(" ", "_")
        done = subprocess.run([*launcher, script, *args, "--out", str(out)], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=3600)
        if done.returncode:
            raise BenchmarkError(f"{label}: train_text.py failed: {done.stderr[-2000:]}")
        records = [r for r in map(json.loads, (out / "metrics.jsonl").read_text().splitlines())
                   if r.get("split") == "train"]
        rates = [r["samples_per_s"] for r in records[len(records) // 4:]]  # after the first quarter
        result[label] = statistics.median(rates)
    result["efficiency"] = result["2 processes"] / (2 * result["1 process"])
    return result


# ----------------------------------------------------------------------------- section


def run(quick: bool = False) -> dict:
    return {"memory": memory("gpt_tiny" if quick else "gpt2", 256 if quick else 1024),
            "compile": compile_speedup(COMPILE_PRESETS[:1] if quick else COMPILE_PRESETS, 1 if quick else 2,
                                       3 if quick else 7),
            "processes": processes(6 if quick else 40, 8)}


def report(results: dict) -> str:
    lines = [memory_report(results["memory"])]
    rows = [[r["model"], f"{r['eager_ms']:.1f}", f"{r['compiled_ms']:.1f}",
             f"**{r['speedup']:.2f}x** ({r['spread'][0]:.2f}-{r['spread'][1]:.2f})", f"{r['compile_s']:.0f}"]
            for r in results["compile"]]
    lines += ["### Training step, torch.compile against eager (batch 8, fp32, interleaved medians)", "",
              table(["preset", "eager ms", "compiled ms", "speed-up (IQR)", "first compiled call s"], rows), ""]
    p = results["processes"]
    lines += ["### Data parallel: train_text.py gpt_tiny, batch 8 x 128 per process, one thread each, gloo", "",
              table(["processes", "samples/s", "scaling efficiency"],
                    [["1", f"{p['1 process']:.1f}", ""],
                     ["2 (torchrun)", f"{p['2 processes']:.1f}", f"{100 * p['efficiency']:.0f}%"]]), ""]
    return "\n".join(lines)


def memory_report(m: dict) -> str:
    return "\n".join([
        f"### Training memory: {m['model']}, one AdamW step on 1 x {m['tokens']} tokens, fp32 (peak RSS above "
        "the weights, gradients and optimizer state held before the step)", "",
        table(["variant", "held before the step MiB", "step peak MiB", "step s"],
              [[k, f"{m[k]['held_mib']:.0f}", f"{m[k]['step_peak_mib']:.0f}", f"{m[k]['step_s']:.2f}"]
               for k in ("plain", "checkpointed")]),
        "", f"Activation checkpointing saves **{100 * m['saving']:.0f}%** of the step's peak (target >= 40%).", ""])


if __name__ == "__main__":
    if sys.argv[1:2] == ["memory"]:  # the probe's fresh process: python -m bench.scale memory NAME TOKENS 0|1
        print(json.dumps(step_peak_mib(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1")))
    elif sys.argv[1:2] == ["memory-table"]:  # python -m bench.scale memory-table [NAME [TOKENS]]
        print(memory_report(memory(*(sys.argv[2:3] or ["gpt2"]), int((sys.argv[3:4] or ["1024"])[0]))))
