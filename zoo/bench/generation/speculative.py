"""Speculative decoding (greedy), for each decoder family: for GPT and LLaMA a {family}_tiny draft and a larger
target of the same family, trained on the shipped KJV extract by scripts/train_text.py with the same
tokenizer; for Whisper (speculative_whisper.py) a whisper_micro draft and a deeper-decoder target trained on
the speech set by scripts/train_audio.py. Speculative against plain greedy target decoding on held-out
prompts (and audio), outputs asserted identical."""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import torch
from torch import nn

import zoo
from data.lm_dataset import train_val_split
from data.text import KJV_EXTRACT
from data.tokenization import load_tokenizer
from zoo.bench.config import GenerationBench
from zoo.bench.generation.common import TARGETS
from zoo.bench.report import BenchmarkError, met, table
from zoo.bench.timing import interleaved
from zoo.generation import GenerationConfig, generate, speculative_generate

# The one training recipe for each modality is its script's; run as a child process, since no module
# may import a script. They sit in the repository beside this package.
SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"
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


def train_models(config: GenerationBench, work: Path, family: str):
    """Train the draft ({family}_tiny, its tokenizer trained on the way) and the target ({family}_tiny with
    spec_target overrides, the SAME tokenizer) into `work`; reuse them if present there."""
    def common(steps: int) -> list[str]:
        return ["--data", str(KJV_EXTRACT), "--steps", str(steps), "--warmup", str(max(1, min(100, steps // 5))),
                "--eval-every", "0", "--save-every", "0", "--eval-batches", "2", "--dtype", config.spec_train_dtype,
                "--no-progress"]

    wall = {}
    if not (work / "draft" / "model" / "config.json").exists():
        wall["draft"] = train_script(["--model", f"{family}_tiny", "--out", str(work / "draft"),
                                    *common(config.spec_draft_steps)])
    tokenizer = load_tokenizer(work / "draft" / "tokenizer")
    if not (work / "target" / "model" / "config.json").exists():
        start = time.perf_counter()
        init = zoo.create_model(f"{family}_tiny", vocab_size=tokenizer.vocab_size,
                                **parse_overrides(config.spec_target))
        init.save_pretrained(work / "target_init")
        train_script(["--model", f"{family}_tiny", "--init", str(work / "target_init"),
                    "--tokenizer", str(work / "draft" / "tokenizer"), "--out", str(work / "target"),
                    *common(config.spec_train_steps)])
        wall["target"] = time.perf_counter() - start
    summaries = {k: json.loads((work / k / "summary.json").read_text()) for k in ("draft", "target")}
    models = {k: zoo.load_pretrained(work / k / "model").eval() for k in ("draft", "target")}
    return models, tokenizer, summaries, wall


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


FAMILIES = ("gpt", "llama", "whisper")  # the order of the tables


def family_steps(family: str) -> tuple[Callable, Callable]:
    """(run, report) of a family's row: speculative_whisper's for Whisper (it builds on this module), else the
    text families' below."""
    if family != "whisper":
        return run_family, report_family
    from zoo.bench.generation import speculative_whisper
    return speculative_whisper.run, speculative_whisper.report


def settings(config: GenerationBench) -> dict:
    """The settings a family's table names, kept in its result: a merged table shows rows of earlier runs."""
    return {"dtype": config.spec_train_dtype, "repeats": config.spec_repeats, "prompts": config.spec_prompts}


def run(config: GenerationBench) -> dict:
    """{"families": {family: its result}} for each of config.spec_families, each in its own folder."""
    work = Path(config.spec_dir or tempfile.mkdtemp(prefix="bench_spec_"))
    return {"families": {family: {**family_steps(family)[0](config, work / family, family),
                                  "settings": settings(config)} for family in config.spec_families}}


def merge(results: dict, stored: dict, run_info: dict) -> dict:
    """This run's families, each stamped with `run_info` (its command and date), and the families it left out
    taken from `stored`, the merged results of earlier runs on the same machine: a CPU trains and measures the
    families in parts (a Whisper pair trains for an hour)."""
    families = {**stored.get("families", {}),
                **{name: {**s, "run": run_info} for name, s in results["families"].items()}}
    return {"families": {name: families[name] for name in FAMILIES if name in families}}


def run_family(config: GenerationBench, work: Path, family: str) -> dict:
    models, tokenizer, summaries, wall = train_models(config, work, family)
    target, draft, n = models["target"], models["draft"], config.spec_new_tokens
    _, held_out = train_val_split(work / "draft" / "tokens.bin", config.gen_prompt, val_fraction=0.1)
    picks = [len(held_out) * (i + 1) // (config.spec_prompts + 1) for i in range(config.spec_prompts)]
    prompts = [held_out[i]["input_ids"][None].long() for i in picks]  # (1, T) each
    measured = measure(config, [(lambda: target, lambda: draft, p) for p in prompts], n)
    reference = measured.pop("reference")
    result = {"family": family, "work_dir": str(work), "summaries": summaries, "train_wall_s": wall, **measured,
              "train_steps": config.spec_train_steps, "draft_steps": config.spec_draft_steps,
              "target_overrides": config.spec_target, "sample": tokenizer.decode(reference[0][0].tolist()),
              "params_m": {k: sum(p.numel() for p in m.parameters()) / 1e6 for k, m in models.items()}}
    print(f"  speculative {family}: plain {result['plain_tok_s']:.1f} tok/s, best k speed-up "
          f"{max(r['speedup'] for r in result['rows']):.2f}x", flush=True)
    return result


def report(results: dict, config: GenerationBench | None = None) -> str:
    """Each family's tables, from the settings its result keeps (`config` is not read: merged results hold
    families measured by different runs); a family an earlier run measured names that run."""
    return "\n".join(family_steps(s["family"])[1](s) + measured_by(s) for s in results["families"].values())


def measured_by(s: dict) -> str:
    return f"\n\nMeasured by `{s['run']['command']}` ({s['run']['date']})." if s.get("run") else ""


def report_family(s: dict) -> str:
    d, t, run = s["summaries"]["draft"], s["summaries"]["target"], s["settings"]
    tiny = f"{s['family']}_tiny"
    return "\n".join([
        f"\n### Speculative decoding (greedy), {s['family']}: target {s['params_m']['target']:.1f}M params "
        f"({tiny} {s['target_overrides']}) with draft {tiny} {s['params_m']['draft']:.1f}M, trained "
        f"{s['train_steps']} and {s['draft_steps']} steps ({run['dtype']}, batch 16 x 128) "
        f"on the KJV extract, same tokenizer; {s['prompts']} held-out prompts x {s['new_tokens']} new tokens, "
        f"batch 1; {run['repeats']} interleaved runs, medians\n",
        f"Held-out loss: target {t['held_out_loss']:.3f} (ppl {t['held_out_ppl']:.1f}), draft "
        f"{d['held_out_loss']:.3f} (ppl {d['held_out_ppl']:.1f}). Plain greedy: target "
        f"{s['plain_tok_s']:.1f} tok/s, draft alone {s['draft_tok_s']:.1f} tok/s. Speculative outputs "
        f"identical to plain greedy (asserted)"
        f"{' (timed through generate(draft_model=))' if s['via_generate'] else ''}.\n",
        k_table(s), f"\nSample (target greedy, first prompt): {s['sample'][:240]!r}"])


def k_table(s: dict) -> str:
    """One row per k: tokens per second, speed-up over plain greedy, acceptance, target forwards per token."""
    target, tokens = TARGETS["speculative"], s["tokens"]
    return table(["k", "tok/s", "speed-up vs plain", "acceptance rate", "target forwards / token", "target", "met"],
                 [[r["k"], f"{r['tok_s']:.1f}", f"**{r['speedup']:.2f}x**", f"{r['acceptance_rate']:.2f}",
                   f"{r['target_forwards'] / tokens:.2f}", f">= {target}x", met(r["speedup"] >= target)]
                  for r in s["rows"]])
