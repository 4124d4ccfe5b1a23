"""What every family's speculative-decoding row shares (speculative.py: GPT and LLaMA; speculative_whisper.py):
the training script run as a child process, the interleaved measurement against plain greedy, the k table."""
from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch
from torch import nn

from bench.config import GenerationBench
from bench.generation.common import TARGETS
from bench.report import BenchmarkError, table, target_verdict
from bench.timing import interleaved
from zoo.generation import GenerationConfig, generate, speculative_generate

# The one training recipe for each modality is its script's; run as a child process, since no module
# may import a script. They sit in the repository beside this package.
SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
TRAIN_TEXT = SCRIPTS / "train_text.py"


def parse_overrides(text: str) -> dict:
    """"depth=4,dim=256,norm_eps=1e-6" -> {"depth": 4, "dim": 256, "norm_eps": 1e-06}: ints, else floats."""
    out = {}
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        try:
            out[key.strip()] = int(value)
        except ValueError:
            out[key.strip()] = float(value)
    return out


def train_script(flags: list[str], script: Path = TRAIN_TEXT) -> float:
    """A training script (scripts/train_text.py) with `flags` in a child process (its output passes through)
    on this process's torch threads; returns its wall clock in seconds."""
    command = [sys.executable, str(script), *flags, "--threads", str(torch.get_num_threads())]
    sys.stdout.flush()  # our progress lines before the child's
    start = time.perf_counter()
    if subprocess.run(command).returncode != 0:
        raise BenchmarkError(f"speculative: training failed: {' '.join(command)}")
    return time.perf_counter() - start


# One prompt: (target, draft, prompt (1, T)); target and draft are callables giving the models to decode with
# (a text model itself, or a Whisper's decoder bound to the prompt's audio, encoded when called).
Case = tuple[Callable[[], nn.Module], Callable[[], nn.Module], torch.Tensor]


def acceptance(cases: list[Case], reference: list[torch.Tensor], k: int, n: int, **options) -> dict:
    """Acceptance rate and forward counts of speculative_generate with k draft tokens per round, after
    checking that it and generate(draft_model=) both give plain greedy's tokens."""
    config = GenerationConfig(max_new_tokens=n, **options)
    results = [speculative_generate(target(), draft(), p, config, k) for target, draft, p in cases]
    via_generate = [generate(target(), p, n, draft_model=draft(), num_draft_tokens=k, **options)
                    for target, draft, p in cases]
    for i, ((tokens, _), public, want) in enumerate(zip(results, via_generate, reference)):
        if not (torch.equal(tokens, want) and torch.equal(public, want)):
            raise BenchmarkError(f"speculative k={k} differs from plain greedy on prompt {i}")
    proposed = sum(s.proposed for _, s in results)
    accepted = sum(s.accepted for _, s in results)
    return {"acceptance_rate": accepted / proposed if proposed else 0.0,
            "target_forwards": sum(s.target_forwards for _, s in results),
            "draft_forwards": sum(s.draft_forwards for _, s in results)}


@torch.inference_mode()
def measure(config: GenerationBench, cases: list[Case], n: int, **options) -> dict:
    """Plain greedy decoding of the target, the draft alone and speculative decoding at each config.spec_k,
    interleaved over config.spec_repeats runs: tokens per second (the tokens plain greedy emits, at most n per
    prompt; options: GenerationConfig fields such as eos_id), speed-ups over plain, acceptance rates."""
    def plain():
        return [generate(target(), p, n, **options) for target, _, p in cases]

    def speculative(k):
        return [generate(target(), p, n, draft_model=draft(), num_draft_tokens=k, **options)
                for target, draft, p in cases]

    reference = plain()
    stats = {k: acceptance(cases, reference, k, n, **options) for k in config.spec_k}
    fns = {"plain": plain, "draft_alone": lambda: [generate(draft(), p, n, **options) for _, draft, p in cases],
           **{f"k={k}": (lambda k=k: speculative(k)) for k in config.spec_k}}
    times = interleaved(fns, 1, config.spec_repeats)
    med = {key: statistics.median(v) for key, v in times.items()}
    tokens = sum(out.shape[1] - p.shape[1] for out, (_, _, p) in zip(reference, cases))
    rows = [{"k": k, "tok_s": tokens / med[f"k={k}"], "speedup": med["plain"] / med[f"k={k}"],
             "pair_speedups": [p / s for p, s in zip(times["plain"], times[f"k={k}"])], **stats[k]}
            for k in config.spec_k]
    # via_generate: the timed calls go through the public generate(draft_model=) (kept in the JSON)
    return {"via_generate": True, "plain_tok_s": tokens / med["plain"], "draft_tok_s": tokens / med["draft_alone"],
            "rows": rows, "prompts": len(cases), "new_tokens": n, "tokens": tokens, "times": times,
            "reference": reference}


def k_table(s: dict) -> str:
    """One row per k: tokens per second, speed-up over plain greedy, acceptance, target forwards per token."""
    target, tokens = TARGETS["speculative"], s["tokens"]
    return table(["k", "tok/s", "speed-up vs plain", "acceptance rate", "target forwards / token", "target", "met"],
                 [[r["k"], f"{r['tok_s']:.1f}", f"**{r['speedup']:.2f}x**", f"{r['acceptance_rate']:.2f}",
                   f"{r['target_forwards'] / tokens:.2f}", *target_verdict(r["speedup"], target)]
                  for r in s["rows"]])
