"""LoRA fine-tuning (scripts/benchmark.py --only lora): a training step with rank-r adapters, ours (zoo.add_lora)
against ours fully fine-tuned and against peft's LoRA on the transformers model of the same weights: step time,
peak memory and optimizer state.

    result = run(LoRABench(...))          # prints a line per model
    print(report(result, config))

The weights: per model one transformers model with random weights (seed 0), GPT2LMHeadModel and BertForMaskedLM of
the gpt2 and bert_base presets' shapes (bench.references.reference_pair), ViTForImageClassification of
vit_base_patch16_224's (its 1000 classes); ours is its zoo.from_hf conversion. Every side starts from those weights,
and LoRA's B starts at zero, so every side's first loss is the same: checked before anything is timed.

Sides, each in a spawned process of its own (bench.workers), so that each process holds one model:

    ours full           every parameter trained
    ours LoRA           zoo.add_lora(model, r, alpha=2r): its default targets, q/k/v/o_proj of every attention layer
    peft LoRA           peft.get_peft_model(the transformers model, LoraConfig(r, 2r)) on the same layers, by their
                        transformers names (PEFT_TARGETS); GPT-2 fuses q, k and v into one c_attn, so peft gives the
                        three one adapter (one A, r rows) where ours gives each its own
    transformers full   every parameter trained (--lora-transformers-full)

ViT: on the LoRA sides the classifier (our head.fc, transformers' classifier) trains in full too (modules_to_save),
as a fine-tune to new classes would; its 769k parameters are most of the trainable ones there.

A step is bench.train.train_step (zero_grad, forward, cross-entropy, backward, AdamW; ViT: ClassifierHead.loss on the
logits) over `batch` sequences of `seq` tokens (ViT: `batch` images), fp32, AdamW (fused with --fused-adamw, as
zoo/training does) over the trainable parameters only.

Time: the sides' steps interleaved round robin, in order then reversed (bench.timing.interleaved), each timed in its
own process; medians, and ours LoRA's speed over peft's as the median over rounds. The ceiling is Amdahl's bound on
that ratio: peft's median step over the time it spends in GEMMs and attention kernels (bench.timing.matmul_seconds).

Memory: each side again in a fresh process of its own, with glibc's mmap threshold fixed (bench.scale.FIXED_MMAP:
freed tensors leave the resident set): the peak resident memory (VmHWM) over two steps above the process before the
model was built (torch, transformers and peft imported in every side alike). That is the weights, gradients,
optimizer state, activations and the allocator's slack: what a machine must have to run the step. The timed
processes run with glibc's defaults, as a user's would. Optimizer state: the bytes of AdamW's state tensors after a
step.

Targets (the LoRA issue): ours LoRA's optimizer state at most 5% of ours full's, its peak memory at most 60% of ours
full's, its step at least 1.2x as fast as peft's.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import SimpleNamespace

import torch
import transformers

import zoo
from bench.config import fields_from_args
from bench.forward import make_batch
from bench.references import check_close, reference_pair
from bench.report import BenchmarkError, ratio_cell, table, target_verdict, yes_no
from bench.scale import FIXED_MMAP, rss_kib
from bench.timing import interleaved, matmul_seconds, summarize
from bench.train import train_step
from bench.workers import Worker
from heads.classification import ClassifierHead
from zoo.convert import hf_vit
from zoo.registry import config_from_dict

SIDES = ("ours full", "ours LoRA", "peft LoRA", "transformers full")
OURS_FULL, OURS_LORA, PEFT_LORA = SIDES[:3]
# The attention layers ours adapts by default (q/k/v/o_proj), by their transformers names; a name matches a module
# whose name ends in "." + it (peft's rule), so "attn.c_proj" leaves GPT-2's mlp.c_proj alone.
PEFT_TARGETS = {"gpt": ["attn.c_attn", "attn.c_proj"],
                "bert": ["attention.self.query", "attention.self.key", "attention.self.value",
                         "attention.output.dense"],
                "vit": ["attention.q_proj", "attention.k_proj", "attention.v_proj", "attention.o_proj"]}
HEADS = {"ours": "head", "transformers": "classifier"}  # ViT's classifier, trained in full beside the adapters
OPTIMIZER_TARGET, MEMORY_TARGET, SPEED_TARGET = 0.05, 0.60, 1.2  # LoRA / full; LoRA / full; ours / peft
M_MMAP_THRESHOLD = -3  # glibc's mallopt() parameter, set as FIXED_MMAP's environment variable sets it
MIB = 2**20


@dataclass(frozen=True)
class LoRABench:
    """The LoRA section's runtime options; field names are scripts/benchmark.py's flags."""
    lora_models: tuple[str, ...]        # gpt, bert and vit presets
    lora_rank: int                      # r of every adapter; alpha = 2r
    lora_warmup: int                    # untimed steps per side before the timed ones
    lora_repeats: int                   # timed steps per side, the sides round robin
    lora_transformers_full: bool        # also transformers' model fully fine-tuned
    batch: int                          # sequences (ViT: images) per step
    seq: int                            # tokens per sequence
    fused_adamw: bool                   # AdamW(fused=True) on every side
    threads: int                        # torch threads of each side's process

    from_args = classmethod(fields_from_args)

    def sides(self) -> tuple[str, ...]:
        return SIDES if self.lora_transformers_full else SIDES[:3]


def add_arguments(p: argparse.ArgumentParser, full: dict, quick: dict) -> None:
    g = p.add_argument_group("LoRA benchmark (--only lora; --batch, --seq, --threads and --fused-adamw apply)")
    g.add_argument("--lora-models", nargs="+", help=f"gpt, bert and vit presets (default {full['lora_models']}; "
                   f"--quick: {quick['lora_models']})")
    g.add_argument("--lora-rank", type=int, help=f"adapter rank r, alpha 2r (default {full['lora_rank']})")
    g.add_argument("--lora-warmup", type=int, help=f"untimed steps per side (default {full['lora_warmup']})")
    g.add_argument("--lora-repeats", type=int, help=f"timed steps per side (default {full['lora_repeats']})")
    g.add_argument("--lora-transformers-full", action=argparse.BooleanOptionalAction,
                   help="also transformers' model fully fine-tuned (default on)")


# ----------------------------------------------------------------------------- the weights and the batch


def pair(name: str) -> tuple[torch.nn.Module, torch.nn.Module]:
    """(ours, transformers' model) of preset `name` on the same random weights, dropout off: bench.references for
    the text families, ViTForImageClassification and its zoo.from_hf conversion for ViT."""
    family = zoo.model_info(name)["family"]
    if family not in PEFT_TARGETS:
        raise BenchmarkError(f"--lora-models {name!r}: a {family} preset; expected a preset of {sorted(PEFT_TARGETS)}")
    if family != "vit":
        return reference_pair(name)
    preset = config_from_dict("vit", zoo.model_info(name)["config"])
    torch.manual_seed(0)
    ref = transformers.ViTForImageClassification(transformers.ViTConfig(**{**hf_vit.hf_config_kwargs(preset),
                                                                             "hidden_dropout_prob": 0.0})).eval()
    ours = zoo.from_hf(ref).eval()
    if ours.config != preset:
        raise BenchmarkError(f"{name}: from_hf gave {ours.config}, expected {preset}")
    return ours, ref


def make_inputs(name: str, batch: int, seq: int) -> dict[str, torch.Tensor]:
    """The one batch every side trains on: bench.forward.make_batch's tokens and labels, or ViT's images
    {"pixels" (B, C, H, W), "labels" (B,)}."""
    config = config_from_dict(zoo.model_info(name)["family"], zoo.model_info(name)["config"])
    if config.family != "vit":
        return make_batch(SimpleNamespace(config=config), batch, seq, attention_mask=False)
    g = torch.Generator().manual_seed(1)
    return {"pixels": torch.randn(batch, config.in_chans, config.image_size, config.image_size, generator=g),
            "labels": torch.randint(0, config.num_classes, (batch,), generator=g)}


# ----------------------------------------------------------------------------- a side, in its own process


@dataclass
class Side:
    """One side's model, optimizer and step, built in its process; baseline_kib is the process's resident memory
    before the model was built."""
    model: torch.nn.Module
    optimizer: torch.optim.Optimizer
    step: Callable[[], torch.Tensor]  # one training step; its loss, detached
    baseline_kib: int


def adapted(name: str, side: str, rank: int) -> torch.nn.Module:
    """The side's model, in train mode: ours or transformers', with adapters on the LoRA sides."""
    import peft

    ours, ref = pair(name)
    family = ours.config.family
    model = ours if side.startswith("ours") else ref
    del ours, ref
    if side == OURS_LORA:
        zoo.add_lora(model, r=rank, alpha=2 * rank, modules_to_save=[HEADS["ours"]] if family == "vit" else None)
    elif side == PEFT_LORA:
        model = peft.get_peft_model(model, peft.LoraConfig(
            r=rank, lora_alpha=2 * rank, lora_dropout=0.0, target_modules=PEFT_TARGETS[family],
            fan_in_fan_out=family == "gpt",  # GPT-2's Conv1D stores its weights (in, out)
            modules_to_save=[HEADS["transformers"]] if family == "vit" else None))
    return model.train()


def step_fn(model, inputs: dict, optimizer, ours: bool, vit: bool):
    """() -> the loss of one training step: bench.train.train_step for text, the same steps with ClassifierHead's
    loss for ViT (transformers' ViT takes the images as pixel_values)."""
    if not vit:
        return partial(train_step, model, inputs, optimizer, "fp32", ours)
    images = {"pixels" if ours else "pixel_values": inputs["pixels"]}

    def step() -> torch.Tensor:
        optimizer.zero_grad(set_to_none=True)
        out = model(**images)
        loss = ClassifierHead.loss(getattr(out, "logits", out), inputs["labels"])
        loss.backward()
        optimizer.step()
        return loss.detach()
    return step


def build_side(name: str, side: str, inputs: dict, rank: int, fused_adamw: bool, fixed_mmap: bool,
               threads: int) -> Side:
    """bench.workers' factory: the side, built in the worker process (torch threads already set)."""
    import peft  # noqa: F401  (imported by every side before the baseline, so that the baselines are alike)
    import transformers

    transformers.logging.set_verbosity_error()
    if fixed_mmap:
        ctypes.CDLL("libc.so.6").mallopt(M_MMAP_THRESHOLD, int(FIXED_MMAP["MALLOC_MMAP_THRESHOLD_"]))
    baseline = rss_kib("VmRSS")
    model = adapted(name, side, rank)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=1e-4, weight_decay=0.01, fused=fused_adamw or None)
    vit = "pixels" in inputs
    built = Side(model, optimizer, step_fn(model, inputs, optimizer, side.startswith("ours"), vit), baseline)
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := VmRSS: the conversion's second copy is gone
    return built


def train(side: Side) -> float:
    return side.step().item()


def memory(side: Side, steps: int = 2) -> dict:
    """`steps` steps (the first allocates AdamW's state, the next runs with it held), then the peak resident memory
    above the baseline, the optimizer's state, and the first step's loss."""
    losses = [train(side) for _ in range(steps)]
    state = sum(t.numel() * t.element_size() for s in side.optimizer.state.values() for t in s.values()
                if torch.is_tensor(t))
    params = list(side.model.parameters())
    return {"peak_bytes": (rss_kib("VmHWM") - side.baseline_kib) * 1024, "optimizer_state_bytes": state,
            "parameters": sum(p.numel() for p in params),
            "trainable": sum(p.numel() for p in params if p.requires_grad), "first_loss": losses[0]}


def gemm_seconds(side: Side) -> float:
    return matmul_seconds(side.step)


# ----------------------------------------------------------------------------- the run


def measure_memory(name: str, inputs: dict, config: LoRABench) -> dict[str, dict]:
    """Each side in a fresh process of its own, one after another (memory()); the first losses must agree."""
    found = {}
    for side in config.sides():
        factory = partial(build_side, name, side, inputs, config.lora_rank, config.fused_adamw, True)
        with Worker(factory, config.threads) as worker:
            found[side] = worker.call(memory)
        print(f"  lora {name} {side}: peak {found[side]['peak_bytes'] / MIB:,.0f} MiB, optimizer state "
              f"{found[side]['optimizer_state_bytes'] / MIB:,.1f} MiB", flush=True)
    want = torch.tensor(found[PEFT_LORA]["first_loss"])
    for side, m in found.items():
        m["loss_diff"] = check_close(f"{name} first training loss", "fp32", torch.tensor(m["first_loss"]), want,
                                     f"{side} and {PEFT_LORA}")
    return found


def measure_time(name: str, inputs: dict, config: LoRABench) -> dict:
    """Every side in a process of its own, all alive at once, their steps interleaved; peft's GEMM time."""
    workers = {side: Worker(partial(build_side, name, side, inputs, config.lora_rank, config.fused_adamw, False),
                            config.threads) for side in config.sides()}
    try:
        steps = {side: worker.bind(train) for side, worker in workers.items()}
        times = interleaved(steps, config.lora_warmup, config.lora_repeats)
        peft_gemm_s = workers[PEFT_LORA].call(gemm_seconds)
    finally:
        for worker in workers.values():
            worker.close()
    return {"times": times, "peft_gemm_s": peft_gemm_s}


def run(config: LoRABench) -> dict:
    models = {}
    for name in config.lora_models:
        inputs = make_inputs(name, config.batch, config.seq)
        work = inputs["input_ids"].numel() if "input_ids" in inputs else len(inputs["labels"])
        found = measure_memory(name, inputs, config)
        timed = measure_time(name, inputs, config)
        times = timed["times"]
        median = {side: statistics.median(t) for side, t in times.items()}
        speed = summarize(times, work, ours=OURS_LORA, ref=PEFT_LORA)
        models[name] = {
            "family": zoo.model_info(name)["family"], "work": work, "sides": found, "median_s": median,
            "times": times, "speed": speed, "ceiling": median[PEFT_LORA] / timed["peft_gemm_s"],
            "optimizer_ratio": found[OURS_LORA]["optimizer_state_bytes"] / found[OURS_FULL]["optimizer_state_bytes"],
            "memory_ratio": found[OURS_LORA]["peak_bytes"] / found[OURS_FULL]["peak_bytes"]}
        print(f"  lora {name}: ours LoRA / peft LoRA {speed['ratio']:.2f}x, peak memory LoRA / full "
              f"{models[name]['memory_ratio']:.0%}", flush=True)
    return {"models": models}


# ----------------------------------------------------------------------------- report


def side_rows(m: dict) -> list[list]:
    unit = "tok" if m["family"] != "vit" else "img"
    rows = []
    for side, s in m["sides"].items():
        full = m["sides"].get("transformers full" if side == PEFT_LORA else OURS_FULL)
        versus = f"{s['peak_bytes'] / full['peak_bytes']:.0%}" if full and "LoRA" in side else "-"
        rows.append([side, f"{s['trainable']:,}", f"{1000 * m['median_s'][side]:,.0f}",
                     f"{m['work'] / m['median_s'][side]:,.1f} {unit}/s", f"{s['peak_bytes'] / MIB:,.0f}", versus,
                     f"{s['optimizer_state_bytes'] / MIB:,.2f}", f"{s['first_loss']:.5f}"])
    return rows


def target_rows(result: dict) -> list[list]:
    rows = []
    for name, m in result["models"].items():
        rows.append([name, f"**{m['optimizer_ratio']:.2%}**", *target_verdict_below(m["optimizer_ratio"],
                                                                                     OPTIMIZER_TARGET),
                     f"**{m['memory_ratio']:.0%}**", *target_verdict_below(m["memory_ratio"], MEMORY_TARGET),
                     ratio_cell(m["speed"], digits=2), *target_verdict(m["speed"]["ratio"], SPEED_TARGET),
                     f"{m['ceiling']:.2f}x"])
    return rows


def target_verdict_below(value: float, target: float) -> list[str]:
    """["<= 5%", "yes"/"no"]: a ratio held to at most `target`."""
    return [f"<= {target:.0%}", yes_no(value <= target)]


def report(result: dict, config: LoRABench) -> str:
    parts = [f"\n### LoRA fine-tuning: rank {config.lora_rank} (alpha {2 * config.lora_rank}) against full "
             f"fine-tuning and peft on transformers, the same weights; fp32, batch {config.batch} x {config.seq} "
             f"tokens (ViT: {config.batch} images), {'fused ' if config.fused_adamw else ''}AdamW over the trainable "
             "parameters\n",
             "Each side in a process of its own. Step: median of "
             f"{config.lora_repeats} interleaved steps after {config.lora_warmup} untimed. Peak: resident memory "
             "over two steps in a fresh process, above the process before the model was built (weights, gradients, "
             "optimizer state, activations). ViT's LoRA sides also train the classifier in full. GPT-2's peft "
             "adapter on the fused c_attn is one per layer where ours are three (q, k, v): fewer trainable "
             "parameters.\n"]
    for name, m in result["models"].items():
        parts += [f"\n#### {name}\n",
                  table(["side", "trainable params", "step ms", "throughput", "peak MiB", "peak vs full",
                         "optimizer state MiB", "first loss"], side_rows(m))]
    parts += ["\nTargets: ours LoRA against ours full (optimizer state, peak memory) and against peft's LoRA on "
              "transformers (speed, the median over rounds; ceiling: peft's step over its time in GEMMs and "
              "attention kernels, the most running the same kernels could gain)\n",
              table(["model", "optimizer state LoRA/full", "target", "met", "peak memory LoRA/full", "target", "met",
                     "ours LoRA / peft LoRA (IQR)", "target", "met", "ceiling"], target_rows(result))]
    beyond = [name for name, m in result["models"].items() if m["ceiling"] < SPEED_TARGET]
    if beyond:
        parts.append(f"\nOn {', '.join(beyond)} the speed target is above the ceiling: peft's GEMMs and attention "
                     "kernels alone take more than 1/1.2 of its step, so no implementation of the same fp32 arithmetic "
                     "can meet it.")
    return "\n".join(parts)
