"""Learning: gpt_tiny as ours and as transformers' GPT2LMHeadModel, trained through the ONE engine
(zoo.training) with the same tokenizer, data order, seed and steps; held-out loss compared
(target: ours within 2%)."""
from __future__ import annotations

import math
import tempfile
from pathlib import Path

import torch

import zoo
from bench.references import hf_gpt2_like
from bench.report import table
from data.lm_dataset import tokenize_to_file, train_val_split
from data.loader import BatchStream, iterate_once
from data.text import KJV_EXTRACT
from data.tokenization import train_bpe
from heads.lm import CausalLMHead
from zoo.training import TrainConfig, train
from zoo.training.tasks import causal_lm_loss, held_out_loss

TARGET = 0.02  # |held-out loss ours / transformers - 1|, at most
PRESET, BLOCK, BATCH = "gpt_tiny", 128, 16


def hf_loss(model, batch):
    return CausalLMHead.loss(model(batch["input_ids"]).logits, batch["labels"])


def run(steps: int) -> dict:
    """Train both for `steps` steps on the KJV extract; their losses, perplexities and wall clock."""
    work = Path(tempfile.mkdtemp(prefix="bench_learning_"))
    tokenizer = train_bpe(str(KJV_EXTRACT), vocab_size=4096)
    tokenize_to_file(str(KJV_EXTRACT), tokenizer, work / "tokens.bin")
    train_set, val_set = train_val_split(work / "tokens.bin", BLOCK, val_fraction=0.1)
    preset = zoo.model_info(PRESET)["config"]
    sides = {"ours": (lambda: zoo.create_model(PRESET, vocab_size=tokenizer.vocab_size), causal_lm_loss),
             "transformers": (lambda: hf_gpt2_like(preset, tokenizer.vocab_size), hf_loss)}
    results = {}
    for name, (build, loss_fn) in sides.items():
        torch.manual_seed(0)
        model = build()
        run_config = TrainConfig(steps=steps, lr=3e-3, warmup_steps=steps // 10, eval_every=0, save_every=0,
                                 out=str(work / name), seed=0, progress=False)
        result = train(model, BatchStream(train_set, BATCH, seed=0), loss_fn, run_config)
        model.eval()
        held_out = held_out_loss(model, iterate_once(val_set, 32), loss_fn)
        results[name] = {"train_loss": result.train_loss, "held_out_loss": held_out,
                         "held_out_ppl": math.exp(held_out), "wall_s": result.wall_time}
    ratio = results["ours"]["held_out_loss"] / results["transformers"]["held_out_loss"]
    return {"steps": steps, **results, "loss_ratio": ratio}


def report(result: dict) -> str:
    ratio = result["loss_ratio"]
    rows = [[name, f"{r['train_loss']:.4f}", f"{r['held_out_loss']:.4f}", f"{r['held_out_ppl']:.1f}",
             f"{r['wall_s']:.0f}"] for name, r in ((k, result[k]) for k in ("ours", "transformers"))]
    return "\n".join([
        f"\n### Learning: {PRESET} vs transformers GPT2LMHeadModel, {result['steps']} steps, batch {BATCH} x {BLOCK}, "
        "KJV extract\n",
        table(["model", "final train loss", "held-out loss", "held-out ppl", "wall s"], rows),
        f"\nheld-out loss ours / transformers = {ratio:.4f} (target within {TARGET:.0%}: "
        f"{'met' if abs(ratio - 1) <= TARGET else 'NOT met'})"])
