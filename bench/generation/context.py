"""The cost of one cached decoding step (`Session.feed`, 1 token) at a long vs a short position."""
from __future__ import annotations

import copy
import statistics

import torch

from bench.config import GenerationBench
from bench.generation.common import TARGETS, prompt_ids, target_cells
from bench.report import BenchmarkError, table
from bench.timing import interleaved
from zoo.generation import Session


@torch.no_grad()
def run(config: GenerationBench, model) -> dict:
    """One cached single-token step at ~short vs ~long positions. Two copies of the model share the
    weights (only the modules are copied, so each has its own KV cache) and step in turn."""
    short, long = config.context_positions
    steps, warmup = config.context_steps, 2
    if long + steps + warmup + 1 > model.max_positions:
        raise BenchmarkError(f"--context-positions: {long} + {steps + warmup + 1} steps exceeds the model's "
                         f"{model.max_positions} positions")
    shared = {id(p): p for p in model.parameters()}
    sessions, token = {}, torch.tensor([[1]])
    for label, length in (("short", short), ("long", long)):
        copy_ = copy.deepcopy(model, memo=dict(shared)).eval()
        sessions[label] = Session(copy_, prompt_ids(model.config.vocab_size, 1, length), steps + warmup + 1)
        sessions[label].feed(prompt_ids(model.config.vocab_size, 1, length))  # prefill
    times = interleaved({k: (lambda s=s: s.feed(token)) for k, s in sessions.items()}, warmup, steps)
    for s in sessions.values():
        s.close()
    med = {k: statistics.median(v) for k, v in times.items()}
    row = {"short_pos": short, "long_pos": long, "short_ms": med["short"] * 1e3, "long_ms": med["long"] * 1e3,
           "ratio": med["long"] / med["short"], "times": times}
    print(f"  context: {row['short_ms']:.2f} ms at ~{short}, {row['long_ms']:.2f} ms at ~{long}", flush=True)
    return row


def report(result: dict, config: GenerationBench) -> str:
    """result: run()'s, with "model" added."""
    r, target = result, TARGETS["context"]
    head = (f"\n### One cached decoding step (`Session.feed`, 1 token), {r['model']} batch 1 fp32; "
            f"{config.context_steps} interleaved steps per position, medians\n")
    return head + "\n" + table(
        ["model", f"ms/step at ~{r['short_pos']}", f"ms/step at ~{r['long_pos']}", "ratio", "target", "met"],
        [[r["model"], f"{r['short_ms']:.2f}", f"{r['long_ms']:.2f}", f"**{r['ratio']:.2f}**",
          *target_cells(r["model"], r["ratio"] <= target, f"<= {target}")]])
