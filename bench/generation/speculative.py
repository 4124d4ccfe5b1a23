"""Speculative decoding (greedy), for each decoder family: for GPT and LLaMA a {family}_tiny draft and a larger
target of the same family, trained on the shipped KJV extract by scripts/train_text.py with the same
tokenizer; for Whisper (speculative_whisper.py) a whisper_micro draft and a deeper-decoder target trained on
the speech set by scripts/train_audio.py. Speculative against plain greedy target decoding on held-out
prompts (and audio), outputs asserted identical."""
from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import zoo
from bench.config import GenerationBench
from bench.generation import speculative_whisper
from bench.generation.speculative_measure import k_table, measure, parse_overrides, train_script
from data.lm_dataset import train_val_split
from data.text import KJV_EXTRACT
from data.tokenization import load_tokenizer


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


FAMILIES = ("gpt", "llama", "whisper")  # the order of the tables


def family_steps(family: str) -> tuple[Callable, Callable]:
    """(run, report) of a family's row: speculative_whisper's for Whisper, else the text families' below."""
    if family != "whisper":
        return run_family, report_family
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
